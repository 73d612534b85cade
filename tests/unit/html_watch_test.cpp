// `report --html --watch LOG` (monitor/watch_summary.hpp, render/html_report.hpp): a recorded
// `watch --jsonl` log becomes charts over time and a table per GPU; a long log is thinned, not
// cut; lines that are not samples and parts of the log not read are said on the page.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "model/json_codec.hpp"
#include "monitor/watch_summary.hpp"
#include "render/html_report.hpp"
#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

Snapshot sample_at(std::int64_t ms, unsigned util, std::uint64_t throttle = 0) {
  Snapshot s;
  s.time_ms = ms;
  s.status = LibraryStatus::ok;
  GpuSample g;
  g.index = 0;
  g.name = "NVIDIA H200";
  g.uuid = "GPU-0";
  g.gpu_util_percent = util;
  g.memory_used_bytes = 1ULL << 30;
  g.memory_total_bytes = 141ULL << 30;
  g.temperature_c = 60;
  g.power_w = 300;
  g.power_limit_w = 700;
  g.throttle_reasons = throttle;
  s.gpus.push_back(g);
  return s;
}

std::string jsonl(const std::vector<Snapshot>& samples) {
  std::string out;
  for (const auto& s : samples) out += snapshot_to_json(s).dump() + "\n";
  return out;
}

TEST(WatchSummary, ALongLogIsAveragedIntoAtMostThePointsAskedForNotCut) {
  std::vector<Snapshot> samples;
  // 2,000 samples a second apart: utilisation 100 for the first half, 0 for the second.
  for (int i = 0; i < 2000; ++i) samples.push_back(sample_at(1'000'000 + i * 1000, i < 1000 ? 100 : 0));
  WatchSummary w = monitor::summarize_watch(samples, 100);
  ASSERT_EQ(w.gpus.size(), 1U);
  const auto& points = w.gpus[0].points;
  EXPECT_LE(points.size(), 100U);
  EXPECT_GE(points.size(), 99U);
  EXPECT_EQ(w.samples, 2000U);
  EXPECT_EQ(w.gpus[0].samples, 2000U);
  // The end of the log is there: the last point is near the last sample, and at 0 %.
  EXPECT_GT(points.back().t_s, 1980.0);
  EXPECT_EQ(points.back().util_percent, 0.0);
  EXPECT_EQ(points.front().util_percent, 100.0);
  double mean = 0;
  for (const auto& p : points) mean += *p.util_percent;
  EXPECT_NEAR(mean / static_cast<double>(points.size()), 50.0, 1.5);
  EXPECT_EQ(w.gpus[0].util_max_percent, 100.0);
}

TEST(WatchSummary, SamplesAreOrderedByTimeAndIdleIsNotThrottling) {
  std::vector<Snapshot> samples = {sample_at(3000, 30, throttle::kGpuIdle), sample_at(1000, 10, throttle::kGpuIdle),
                                   sample_at(2000, 20, throttle::kSwPowerCap | throttle::kGpuIdle)};
  WatchSummary w = monitor::summarize_watch(samples);
  ASSERT_EQ(w.gpus.size(), 1U);
  ASSERT_EQ(w.gpus[0].points.size(), 3U);
  EXPECT_EQ(w.gpus[0].points[0].util_percent, 10.0);
  EXPECT_EQ(w.gpus[0].points[2].util_percent, 30.0);
  EXPECT_EQ(w.start_ms, 1000);
  EXPECT_EQ(w.end_ms, 3000);
  EXPECT_EQ(w.gpus[0].util_median_percent, 20.0);
  EXPECT_EQ(w.gpus[0].throttled_samples, 1U);
  EXPECT_EQ(w.gpus[0].throttle_reasons_seen, throttle::kSwPowerCap);
}

TEST(WatchSummary, ADiagnosisIsCountedOncePerSampleWithItsFirstTime) {
  std::vector<Snapshot> samples;
  for (int i = 0; i < 4; ++i) {
    Snapshot s = sample_at(10'000 + i * 1000, 5);
    if (i >= 2)
      s.diagnoses.push_back({.id = "watch-input-bound", .severity = Severity::warning, .title = "GPU 0 idles"});
    samples.push_back(s);
  }
  WatchSummary w = monitor::summarize_watch(samples);
  ASSERT_EQ(w.diagnoses.size(), 1U);
  EXPECT_EQ(w.diagnoses[0].samples, 2U);
  EXPECT_EQ(w.diagnoses[0].first_t_s, 2.0);
}

TEST(WatchSummary, LinesThatAreNotSamplesAreCountedAndTheCapsAreSaid) {
  std::string log =
      jsonl({sample_at(1000, 1)}) + "not json\n{\"time_ms\": \"x\"}\n[1,2]\n\n" + jsonl({sample_at(2000, 2)});
  WatchSummary w = monitor::summarize_watch_log(log, false);
  EXPECT_EQ(w.samples, 2U);
  EXPECT_EQ(w.unreadable_lines, 3U);
  EXPECT_TRUE(w.left_out.empty());

  // Cut by the caller's size cap in the middle of a line: that line is not "unreadable", the
  // cut is said.
  std::string full = jsonl({sample_at(1000, 1), sample_at(2000, 2)});
  WatchSummary cut = monitor::summarize_watch_log(std::string_view(full).substr(0, full.size() - 20), true);
  EXPECT_EQ(cut.samples, 1U);
  EXPECT_EQ(cut.unreadable_lines, 0U);
  EXPECT_FALSE(cut.left_out.empty());

  WatchSummary capped = monitor::summarize_watch_log(full + full, false, {.max_lines = 3, .max_points = 10});
  EXPECT_EQ(capped.samples, 3U);
  EXPECT_NE(capped.left_out.find("3"), std::string::npos) << capped.left_out;
}

// A sample no GPU reports (the review of 2026-12-06, D7: one `power_w: 1e308` made every power-axis
// tick "inf W" and flattened the chart of every GPU): skipped with the unreadable lines, not drawn.
TEST(WatchSummary, ASampleNoGpuReportsIsSkippedNotDrawn) {
  Snapshot absurd = sample_at(2000, 50);
  absurd.gpus[0].power_w = 1e308;
  Snapshot hot = sample_at(2500, 50);
  hot.gpus[0].temperature_c = 4000000;
  Snapshot busy = sample_at(2700, 50);
  busy.gpus[0].gpu_util_percent = 250;
  WatchSummary w =
      monitor::summarize_watch_log(jsonl({sample_at(1000, 10), absurd, hot, busy, sample_at(3000, 30)}), false);
  EXPECT_EQ(w.samples, 2U);
  EXPECT_EQ(w.unreadable_lines, 3U);
  ASSERT_EQ(w.gpus.size(), 1U);
  ASSERT_TRUE(w.gpus[0].power_median_w.has_value());
  EXPECT_DOUBLE_EQ(*w.gpus[0].power_median_w, 300.0);
  Facts facts;
  std::vector<Finding> findings;
  const std::string html = render_doctor_html({.facts = facts, .findings = findings, .watch = &w});
  EXPECT_EQ(html.find("inf W"), std::string::npos);
  EXPECT_NE(html.find("3 line(s) of the log were not watch samples"), std::string::npos);
}

TEST(WatchHtml, ChartsPerReadingAndWhatWasNotReadAreOnThePage) {
  std::vector<Snapshot> samples;
  for (int i = 0; i < 10; ++i) samples.push_back(sample_at(1000 + i * 1000, 10 * i));
  samples[3].gpus[0].name = "<script>alert(1)</script>";
  WatchSummary w = monitor::summarize_watch(samples);
  w.unreadable_lines = 2;
  w.left_out = "every line after the first 10";
  Facts facts;
  std::vector<Finding> findings;
  std::string html = render_doctor_html({.facts = facts, .findings = findings, .watch = &w});
  for (const char* id : {"chart-watch-util", "chart-watch-memory", "chart-watch-temperature", "chart-watch-power"}) {
    EXPECT_NE(html.find(std::string("id=\"") + id + "\""), std::string::npos) << id;
  }
  EXPECT_NE(html.find("<h2 id=\"watch-h\">"), std::string::npos);
  EXPECT_NE(html.find("2 line(s) of the log were not watch samples"), std::string::npos);
  EXPECT_NE(html.find("Not read: every line after the first 10."), std::string::npos);
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  // One path per GPU per chart, with a point for each of the 10 samples.
  size_t at = html.find("<path d=\"M");
  ASSERT_NE(at, std::string::npos);
  std::string d = html.substr(at, html.find('"', at + 9) - at);
  EXPECT_EQ(std::count(d.begin(), d.end(), 'L'), 9) << d;
}

TEST(WatchHtml, ReportCommandReadsARecordedLog) {
  namespace fs = std::filesystem;
  fs::path out = fs::temp_directory_path() / ("gpudoctor-watch-" + std::to_string(::getpid()) + ".html");
  auto r = testing::run_gpudoctor({"report", "--html", out.string(), "--root",
                                   GPUDOCTOR_FIXTURES_DIR "/linux-torch-healthy/root", "--watch",
                                   GPUDOCTOR_FIXTURES_DIR "/report-inputs/watch.jsonl"});
  ASSERT_TRUE(r.failure.empty()) << r.failure;
  std::ifstream in(out);
  std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  fs::remove(out);
  // Recorded from the fake driver's watch_series scenario: two H100s, five samples.
  EXPECT_NE(html.find("5 samples from <code>watch --jsonl</code>"), std::string::npos) << r.err;
  EXPECT_NE(html.find("is slowed down by heat"), std::string::npos);
  EXPECT_NE(html.find("GPU 1 (NVIDIA H100 80GB HBM3)"), std::string::npos);

  auto missing = testing::run_gpudoctor({"report", "--html", out.string(), "--root",
                                         GPUDOCTOR_FIXTURES_DIR "/linux-torch-healthy/root", "--watch",
                                         "/nonexistent/watch.jsonl"});
  EXPECT_EQ(missing.exit_code, 2) << missing.err;
  EXPECT_NE(missing.err.find("--watch /nonexistent/watch.jsonl"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace gpudoctor
