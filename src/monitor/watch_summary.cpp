#include "monitor/watch_summary.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "core/text.hpp"
#include "model/json_codec.hpp"

namespace gpudoctor::monitor {
namespace {

std::optional<double> median_of(std::vector<double> v) {
  if (v.empty()) return std::nullopt;
  auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

void keep_max(std::optional<double>& m, std::optional<double> v) {
  if (v && (!m || *v > *m)) m = v;
}

/// Sums of the present values of one bucket of samples, for a mean per field.
struct Bucket {
  double t_sum = 0;
  size_t n = 0;
  double sums[4] = {};
  size_t counts[4] = {};
  void add(double t, const std::optional<double> (&values)[4]) {
    t_sum += t;
    ++n;
    for (int i = 0; i < 4; ++i) {
      if (values[i]) {
        sums[i] += *values[i];
        ++counts[i];
      }
    }
  }
  std::optional<double> mean(int i) const {
    return counts[i] == 0 ? std::nullopt : std::optional<double>(sums[i] / static_cast<double>(counts[i]));
  }
};

struct GpuSeries {
  WatchGpuSummary summary;
  std::vector<double> util, power;
  std::vector<std::pair<double, GpuSample>> samples;  // (t_s, sample)
};

void thin_into(GpuSeries& s, double span_s, size_t max_points) {
  auto& points = s.summary.points;
  if (s.samples.empty()) return;
  const double width = max_points > 0 && span_s > 0 ? span_s / static_cast<double>(max_points) : 0;
  Bucket bucket;
  size_t bucket_index = 0;
  auto flush = [&] {
    if (bucket.n == 0) return;
    points.push_back(WatchPoint{.t_s = bucket.t_sum / static_cast<double>(bucket.n),
                                .util_percent = bucket.mean(0),
                                .memory_used_gib = bucket.mean(1),
                                .temperature_c = bucket.mean(2),
                                .power_w = bucket.mean(3)});
    bucket = Bucket{};
  };
  for (const auto& [t, g] : s.samples) {
    size_t index = width > 0 ? std::min(max_points - 1, static_cast<size_t>(t / width)) : 0;
    if (width == 0 || index != bucket_index) flush();
    bucket_index = index;
    std::optional<double> values[4] = {
        g.gpu_util_percent ? std::optional<double>(*g.gpu_util_percent) : std::nullopt,
        g.memory_used_bytes ? std::optional<double>(static_cast<double>(*g.memory_used_bytes) / kGiB) : std::nullopt,
        g.temperature_c ? std::optional<double>(*g.temperature_c) : std::nullopt, g.power_w};
    bucket.add(t, values);
  }
  flush();
}

}  // namespace

WatchSummary summarize_watch(std::span<const Snapshot> samples, size_t max_points) {
  WatchSummary out;
  std::vector<const Snapshot*> ordered;
  ordered.reserve(samples.size());
  for (const auto& s : samples) ordered.push_back(&s);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const Snapshot* a, const Snapshot* b) { return a->time_ms < b->time_ms; });
  out.samples = ordered.size();
  if (ordered.empty()) return out;
  out.start_ms = ordered.front()->time_ms;
  out.end_ms = ordered.back()->time_ms;
  const double span_s = static_cast<double>(out.end_ms - out.start_ms) / 1000.0;

  std::map<std::string, GpuSeries> by_gpu;                             // by UUID, else by index
  std::map<std::pair<std::string, std::string>, size_t> diagnosis_at;  // (id, GPU in title) -> index
  for (const Snapshot* s : ordered) {
    const double t = static_cast<double>(s->time_ms - out.start_ms) / 1000.0;
    if (s->status != LibraryStatus::ok) ++out.samples_not_ok;
    for (const GpuSample& g : s->gpus) {
      std::string key = g.uuid.empty() ? "#" + std::to_string(g.index) : g.uuid;
      GpuSeries& series = by_gpu[key];
      WatchGpuSummary& w = series.summary;
      if (w.samples == 0) {
        w.index = g.index;
        w.uuid = g.uuid;
      }
      if (!g.name.empty()) w.name = g.name;
      ++w.samples;
      if (g.gpu_util_percent) {
        series.util.push_back(*g.gpu_util_percent);
        keep_max(w.util_max_percent, *g.gpu_util_percent);
      }
      if (g.memory_used_bytes) keep_max(w.memory_max_gib, static_cast<double>(*g.memory_used_bytes) / kGiB);
      if (g.memory_total_bytes) w.memory_total_gib = static_cast<double>(*g.memory_total_bytes) / kGiB;
      if (g.temperature_c) keep_max(w.temperature_max_c, *g.temperature_c);
      if (g.power_w) series.power.push_back(*g.power_w);
      if (g.power_limit_w) w.power_limit_w = g.power_limit_w;
      if (g.throttle_reasons && (*g.throttle_reasons & ~throttle::kGpuIdle) != 0) {
        ++w.throttled_samples;
        w.throttle_reasons_seen |= *g.throttle_reasons & ~throttle::kGpuIdle;
      }
      series.samples.emplace_back(t, g);
    }
    for (const Finding& f : s->diagnoses) {
      // The same diagnosis of another GPU has another title ("GPU 1 ...").
      auto [it, added] = diagnosis_at.try_emplace({f.id, f.title}, out.diagnoses.size());
      if (added) out.diagnoses.push_back(WatchDiagnosis{.finding = f, .samples = 0, .first_t_s = t});
      WatchDiagnosis& d = out.diagnoses[it->second];
      d.finding = f;  // the latest wording: its figures cover the latest window
      ++d.samples;
    }
  }
  for (auto& [key, series] : by_gpu) {
    series.summary.util_median_percent = median_of(std::move(series.util));
    series.summary.power_median_w = median_of(std::move(series.power));
    thin_into(series, span_s, max_points);
    out.gpus.push_back(std::move(series.summary));
  }
  std::stable_sort(out.gpus.begin(), out.gpus.end(),
                   [](const WatchGpuSummary& a, const WatchGpuSummary& b) { return a.index < b.index; });
  return out;
}

namespace {

/// Whether every reading of the sample is one a GPU can report. A hand-edited or corrupted log
/// (one `power_w: 1e308` made every power-axis tick "inf W" and flattened the chart of every GPU,
/// review of 2026-12-06) is no sample: it is counted with the unreadable lines. The bounds are far
/// past any card (an H200 draws 700 W, a GB200 superchip 2.7 kW; memory in the terabytes).
bool a_gpu_could_report(const Snapshot& s) {
  constexpr std::uint64_t kMaxMemoryBytes = 64ULL << 40;  // 64 TiB
  for (const GpuSample& g : s.gpus) {
    if (g.gpu_util_percent && *g.gpu_util_percent > 100) return false;
    if (g.memory_util_percent && *g.memory_util_percent > 100) return false;
    if (g.temperature_c && *g.temperature_c > 200) return false;
    for (const auto& w : {g.power_w, g.power_limit_w}) {
      if (w && !(std::isfinite(*w) && *w >= 0 && *w <= 20000)) return false;
    }
    if (g.memory_total_bytes && *g.memory_total_bytes > kMaxMemoryBytes) return false;
    if (g.memory_used_bytes && *g.memory_used_bytes > kMaxMemoryBytes) return false;
  }
  return true;
}

}  // namespace

WatchSummary summarize_watch_log(std::string_view text, bool cut, const WatchLogLimits& limits) {
  if (cut) text = text.substr(0, text.rfind('\n') + 1);  // the line the cap cut through is not a sample
  std::vector<Snapshot> samples;
  size_t unreadable = 0;
  size_t lines_seen = 0;
  bool line_cap = false;
  for (auto line : lines(text)) {
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    if (lines_seen == limits.max_lines) {
      line_cap = true;
      break;
    }
    ++lines_seen;
    auto j = nlohmann::ordered_json::parse(line, nullptr, false);
    Snapshot s;
    if (j.is_discarded() || !snapshot_from_json(j, s) || !a_gpu_could_report(s)) {
      ++unreadable;
      continue;
    }
    samples.push_back(std::move(s));
  }
  WatchSummary out = summarize_watch(samples, limits.max_points);
  out.unreadable_lines = unreadable;
  if (line_cap) {
    out.left_out = fmt::format("every line after the first {}", limits.max_lines);
  } else if (cut) {
    out.left_out = "the rest of the file past its size limit";
  }
  return out;
}

}  // namespace gpudoctor::monitor
