// watch and serve's pure parts: the /proc parsers, the diagnoses over recorded series, and
// the renderers (text, CSV, JSONL, Prometheus), each fed hand-built snapshots.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "finding_lookup.hpp"
#include "model/json_codec.hpp"
#include "monitor/diagnoses.hpp"
#include "monitor/host_readings.hpp"
#include "render/monitor_render.hpp"

namespace gpudoctor {
namespace {

using monitor::diagnose;

constexpr std::uint64_t kGiB = 1ULL << 30U;

/// One GPU's readings for a sample; fields not set stay unknown.
struct Reading {
  std::optional<unsigned> util;
  std::optional<std::uint64_t> throttle;
  std::optional<unsigned> temperature;
  std::optional<double> process_cpu;
  std::string command = "python train.py";
};

std::vector<SnapshotPtr> series(const std::vector<Reading>& readings) {
  std::vector<SnapshotPtr> out;
  std::int64_t t = 1'700'000'000'000;
  for (const Reading& r : readings) {
    auto s = std::make_shared<Snapshot>();
    s->time_ms = t += 1000;
    s->status = LibraryStatus::ok;
    GpuSample g;
    g.index = 0;
    g.name = "NVIDIA H100 80GB HBM3";
    g.gpu_util_percent = r.util;
    g.throttle_reasons = r.throttle;
    g.temperature_c = r.temperature;
    g.memory_total_bytes = 80 * kGiB;
    g.memory_used_bytes = 20 * kGiB;
    g.processes = std::vector<GpuProcessSample>{
        {.pid = 4242, .used_memory_bytes = 20 * kGiB, .command = r.command, .cpu_percent = r.process_cpu}};
    s->gpus.push_back(std::move(g));
    out.push_back(std::move(s));
  }
  return out;
}

using testing::has;

const Finding* find(const std::vector<Finding>& findings, const std::string& id) {
  for (const auto& f : findings) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

// ---- /proc parsers ----

TEST(ProcParsers, ProcStatCpuLine) {
  auto t = monitor::parse_proc_stat("cpu  100 5 50 800 20 3 2 1 0 0\ncpu0 1 2 3 4 5 6 7 8\n");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->busy, 100U + 5 + 50 + 3 + 2 + 1);
  EXPECT_EQ(t->total, t->busy + 800 + 20);
  EXPECT_FALSE(monitor::parse_proc_stat("cpu0 1 2 3\n"));
  EXPECT_FALSE(monitor::parse_proc_stat("cpu 1 2 x 4 5 6 7 8\n"));
  EXPECT_EQ(monitor::parse_cpu_count("cpu 1\ncpu0 1\ncpu1 1\nintr 5\n"), 2U);
}

TEST(ProcParsers, ProcessTicksWithSpacesAndParenthesesInTheName) {
  // The name "(a b) c" holds a space and a ")": fields count from the last ")".
  std::string stat = "4242 ((a b) c) R 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 1 0 100 0 0";
  EXPECT_EQ(monitor::parse_process_ticks(stat), 300U);
  EXPECT_FALSE(monitor::parse_process_ticks("4242 (x) R 1 2"));
  EXPECT_FALSE(monitor::parse_process_ticks("no parenthesis"));
}

TEST(ProcParsers, MeminfoAndCmdline) {
  auto m = monitor::parse_meminfo("MemTotal:       16000 kB\nMemFree: 10 kB\nMemAvailable:    8000 kB\n");
  EXPECT_EQ(m.total_bytes, 16000ULL * 1024);
  EXPECT_EQ(m.available_bytes, 8000ULL * 1024);
  EXPECT_FALSE(monitor::parse_meminfo("MemTotal: lots kB\n").total_bytes);
  EXPECT_EQ(monitor::parse_cmdline(std::string("python\0train.py\0--lr\0001\0", 23)), "python train.py --lr 1");
  // An escape sequence in a process's arguments never reaches the terminal.
  EXPECT_EQ(monitor::parse_cmdline(std::string("evil\0\x1b[2J\0", 10)).find('\x1b'), std::string::npos);
}

// ---- diagnoses ----

TEST(WatchDiagnoses, ThermalThrottlingOverMostOfTheWindow) {
  auto hot = series({{.util = 90, .throttle = 0, .temperature = 80},
                     {.util = 90, .throttle = throttle::kHwThermalSlowdown, .temperature = 88},
                     {.util = 90, .throttle = throttle::kSwThermalSlowdown, .temperature = 90}});
  auto found = diagnose(hot);
  const Finding* f = find(found, "watch-thermal-throttling");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::warning);
  EXPECT_NE(f->detail.find("2 of the last 3"), std::string::npos) << f->detail;
  EXPECT_NE(f->detail.find("90 °C"), std::string::npos) << f->detail;
  EXPECT_FALSE(has(found, "watch-power-throttling"));
}

TEST(WatchDiagnoses, OneThrottledSampleInThreeIsNoVerdict) {
  auto once = series({{.util = 90, .throttle = 0},
                      {.util = 90, .throttle = throttle::kHwThermalSlowdown},
                      {.util = 90, .throttle = 0}});
  EXPECT_FALSE(has(diagnose(once), "watch-thermal-throttling"));
}

TEST(WatchDiagnoses, PowerCapping) {
  auto capped = series({{.util = 99, .throttle = throttle::kSwPowerCap},
                        {.util = 99, .throttle = throttle::kSwPowerCap},
                        {.util = 99, .throttle = throttle::kSwPowerCap | throttle::kGpuIdle}});
  auto found = diagnose(capped);
  EXPECT_TRUE(has(found, "watch-power-throttling"));
  EXPECT_FALSE(has(found, "watch-thermal-throttling"));
}

TEST(WatchDiagnoses, UnknownThrottleReasonsAreNotNoThrottling) {
  // A card that does not report reasons gets no verdict either way, even at 99 °C.
  auto unknown = series({{.util = 99, .temperature = 99}, {.util = 99, .temperature = 99}, {.util = 99}});
  auto found = diagnose(unknown);
  EXPECT_FALSE(has(found, "watch-thermal-throttling"));
  EXPECT_FALSE(has(found, "watch-power-throttling"));
}

TEST(WatchDiagnoses, InputBoundWhenTheGpuIdlesAndItsProcessKeepsACoreBusy) {
  auto starved = series({{.util = 12, .process_cpu = 99},
                         {.util = 5, .process_cpu = 101},
                         {.util = 20, .process_cpu = 97},
                         {.util = 8, .process_cpu = 100}});
  auto found = diagnose(starved);
  const Finding* f = find(found, "watch-input-bound");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->title.find("PID 4242"), std::string::npos);
  EXPECT_NE(f->detail.find("python train.py"), std::string::npos);
  for (const char* advice : {"AUTOTUNE", ".prefetch(", ".cache()", "num_workers", "pin_memory"}) {
    EXPECT_NE(f->fix.find(advice), std::string::npos) << advice;
  }
  EXPECT_FALSE(has(found, "watch-gpu-bound"));
}

// Seen on an H200 (2026-12-04): watch beside `bench` called each of bench's own children "waits for
// its input" and told the user to tune tf.data and DataLoader; those children were checking their
// results on the CPU. gpudoctor's own tasks get no verdict, and a program that is not Python gets
// the finding without a framework's advice.
TEST(WatchDiagnoses, OwnChildrenAreNotJudgedAndOnlyPythonGetsDataLoaderAdvice) {
  auto starved = [](const std::string& command) {
    std::vector<Reading> r;
    for (unsigned util : {5U, 0U, 8U, 2U}) r.push_back({.util = util, .process_cpu = 100, .command = command});
    return series(r);
  };
  auto own =
      diagnose(starved("/usr/local/bin/gpudoctor --internal-task gpu-bench gemm-bf16 0 default 8192 "
                       "cuda=/usr/local/nvidia/lib64/libcuda.so.580.159.04"));
  EXPECT_FALSE(has(own, "watch-input-bound"));
  EXPECT_FALSE(has(own, "watch-gpu-bound"));
  // The same name doing the user's own work (not an internal task) is judged like any program.
  EXPECT_TRUE(has(diagnose(starved("gpudoctor bench")), "watch-input-bound"));
  auto native = diagnose(starved("./simulate --steps 100000"));
  const Finding* f = find(native, "watch-input-bound");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->title.find("PID 4242"), std::string::npos) << f->title;
  for (const char* advice : {"AUTOTUNE", "num_workers", "DataLoader", "waits for its input"}) {
    EXPECT_EQ(f->fix.find(advice), std::string::npos) << advice << ": " << f->fix;
    EXPECT_EQ(f->title.find(advice), std::string::npos) << advice << ": " << f->title;
  }
  EXPECT_NE(f->fix.find("perf top -p 4242"), std::string::npos) << f->fix;
  for (const char* python : {"/opt/torch/.venv/bin/python3 -m train", "python3.12 fit.py", "torchrun --nproc 1 x.py"}) {
    auto found = diagnose(starved(python));
    const Finding* p = find(found, "watch-input-bound");
    ASSERT_NE(p, nullptr) << python;
    EXPECT_NE(p->fix.find("num_workers"), std::string::npos) << python;
    EXPECT_NE(p->title.find("waits for its input"), std::string::npos) << python;
  }
}

TEST(WatchDiagnoses, IdleGpuWithAnIdleProcessIsNotInputBound) {
  auto idle = series({{.util = 0, .process_cpu = 2}, {.util = 0, .process_cpu = 1}, {.util = 0, .process_cpu = 0}});
  EXPECT_FALSE(has(diagnose(idle), "watch-input-bound"));
  // Unknown CPU use (the process is in another PID namespace) is no evidence either.
  auto unknown = series({{.util = 0}, {.util = 0}, {.util = 0}});
  EXPECT_FALSE(has(diagnose(unknown), "watch-input-bound"));
}

TEST(WatchDiagnoses, BusyGpuIsGpuBound) {
  auto busy = series({{.util = 98, .process_cpu = 100}, {.util = 97, .process_cpu = 100}, {.util = 99}});
  auto found = diagnose(busy);
  EXPECT_TRUE(has(found, "watch-gpu-bound"));
  EXPECT_FALSE(has(found, "watch-input-bound"));
}

TEST(WatchDiagnoses, TwoSamplesAreTooFewForATrend) {
  auto short_series = series({{.util = 5, .process_cpu = 100}, {.util = 5, .process_cpu = 100}});
  EXPECT_FALSE(has(diagnose(short_series), "watch-input-bound"));
}

TEST(WatchDiagnoses, MemoryHeldByOtherProcessesNamesThemAndTheAllocatorSettings) {
  auto s = std::make_shared<Snapshot>();
  s->status = LibraryStatus::ok;
  GpuSample g;
  g.memory_total_bytes = 80 * kGiB;
  g.memory_used_bytes = 78 * kGiB;
  g.processes =
      std::vector<GpuProcessSample>{{.pid = 100, .used_memory_bytes = 60 * kGiB, .command = "python jax_job.py"},
                                    {.pid = 200, .used_memory_bytes = std::nullopt, .command = ""}};
  s->gpus.push_back(g);
  std::vector<SnapshotPtr> history{s};
  auto found = diagnose(history);
  const Finding* f = find(found, "watch-memory-held-by-others");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->detail.find("PID 100 (python jax_job.py): 60.0 GiB"), std::string::npos) << f->detail;
  EXPECT_NE(f->detail.find("PID 200: an unknown amount"), std::string::npos) << f->detail;
  for (const char* advice : {"set_memory_growth", "PYTORCH_CUDA_ALLOC_CONF", "XLA_PYTHON_CLIENT_PREALLOCATE=false"}) {
    EXPECT_NE(f->fix.find(advice), std::string::npos) << advice;
  }
  // One process alone on a full card is that job's own memory, not someone else's.
  g.processes->pop_back();
  auto alone = std::make_shared<Snapshot>(*s);
  alone->gpus = {g};
  std::vector<SnapshotPtr> one{alone};
  EXPECT_FALSE(has(diagnose(one), "watch-memory-held-by-others"));
}

TEST(WatchDiagnoses, GpuThatStoppedAnsweringIsAnErrorWithTheRestart) {
  auto history = series({{.util = 50}, {.util = 50}});
  auto hung = std::make_shared<Snapshot>();
  hung->status = LibraryStatus::timeout;
  hung->error = "GPU agent: no answer within 3000 ms";
  hung->agent_starts = 2;
  history.push_back(hung);
  auto found = diagnose(history);
  const Finding* f = find(found, "watch-gpu-not-answering");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::error);
  EXPECT_NE(f->detail.find("no answer within 3000 ms"), std::string::npos);
  EXPECT_NE(f->fix.find("nvidia-smi -r"), std::string::npos);
  // The last answered samples are still judged, and an answering GPU is no finding.
  EXPECT_FALSE(has(diagnose(series({{.util = 50}})), "watch-gpu-not-answering"));
}

// Review 43A item 01: a GPU whose NVML calls answer NVML_ERROR_GPU_IS_LOST was reported as
// fine (no diagnosis, watch exit 0, serve up).
std::shared_ptr<Snapshot> with_gpu_1(const std::string& lost, std::vector<std::string> problems) {
  auto s = std::make_shared<Snapshot>(*series({{.util = 50}}).back());
  GpuSample g;
  g.index = 1;
  g.pci_bus_id = "0000:2a:00.0";
  g.lost = lost;
  g.problems = std::move(problems);
  s->gpus.push_back(std::move(g));
  return s;
}

TEST(WatchDiagnoses, LostGpuIsAnErrorWithXid79AndTheReset) {
  auto lost = with_gpu_1("NVML_ERROR_GPU_IS_LOST", {"nvmlDeviceGetName: NVML_ERROR_GPU_IS_LOST"});
  EXPECT_TRUE(gpus_not_read(*lost));
  auto found = diagnose(std::vector<SnapshotPtr>{lost});
  const Finding* f = find(found, "watch-gpu-lost");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::error);
  EXPECT_NE(f->title.find("GPU 1 has fallen off the bus"), std::string::npos) << f->title;
  EXPECT_NE(f->detail.find("0000:2a:00.0"), std::string::npos) << f->detail;
  EXPECT_NE(f->detail.find("Xid 79"), std::string::npos) << f->detail;
  EXPECT_NE(f->fix.find("nvidia-smi -r -i 1"), std::string::npos) << f->fix;
  EXPECT_NE(f->fix.find("reboot"), std::string::npos) << f->fix;
  // The answering GPU 0 is no such finding.
  EXPECT_EQ(std::count_if(found.begin(), found.end(), [](const Finding& x) { return x.id == "watch-gpu-lost"; }), 1);
  // "Reset required" is the same state in other words.
  auto reset = diagnose(std::vector<SnapshotPtr>{with_gpu_1("NVML_ERROR_RESET_REQUIRED", {})});
  f = find(reset, "watch-gpu-lost");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->title.find("needs a reset"), std::string::npos) << f->title;
}

TEST(WatchDiagnoses, AFailedReadingOfAnAnsweringGpuIsNotALostGpu) {
  auto s = with_gpu_1("", {"nvmlDeviceGetTemperature: NVML_ERROR_NO_PERMISSION"});
  EXPECT_FALSE(gpus_not_read(*s));
  EXPECT_FALSE(has(diagnose(std::vector<SnapshotPtr>{s}), "watch-gpu-lost"));
  // A query that failed as a whole is read as not read, lost GPU or not.
  s->status = LibraryStatus::timeout;
  EXPECT_TRUE(gpus_not_read(*s));
}

// Review 43A item 04: watch read uncorrected ECC errors and retired pages but said nothing.
struct MemoryCounters {
  std::optional<std::uint64_t> ecc;
  std::optional<unsigned> double_bit;
  bool pending = false;
};

std::vector<SnapshotPtr> memory_series(const std::vector<MemoryCounters>& counters) {
  std::vector<SnapshotPtr> out;
  for (const auto& c : counters) {
    auto s = std::make_shared<Snapshot>(*series({{.util = 50}}).back());
    GpuSample& g = s->gpus[0];
    g.ecc_uncorrected_volatile = c.ecc;
    g.retired_pages_single_bit = c.double_bit ? std::optional<unsigned>(0) : std::nullopt;
    g.retired_pages_double_bit = c.double_bit;
    g.remapped_rows_uncorrectable = c.double_bit ? std::optional<unsigned>(0) : std::nullopt;
    g.remapping_pending = c.pending;
    out.push_back(std::move(s));
  }
  return out;
}

TEST(WatchDiagnoses, UncorrectedEccErrorsAreAnErrorWithRestartAndReset) {
  auto found = diagnose(memory_series({{.ecc = 0}, {.ecc = 0}, {.ecc = 2}}));
  const Finding* f = find(found, "watch-ecc-uncorrected");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::error);
  EXPECT_NE(f->title.find("had 2 uncorrected ECC error(s) since the driver loaded, 2 in the last 3 samples"),
            std::string::npos)
      << f->title;
  EXPECT_NE(f->detail.find("Xid 48"), std::string::npos) << f->detail;
  EXPECT_NE(f->fix.find("checkpoint"), std::string::npos) << f->fix;
  EXPECT_NE(f->fix.find("nvidia-smi -r -i 0"), std::string::npos) << f->fix;
  // Errors from before the window are still this driver session's: an error, without "in the last".
  const auto before = diagnose(memory_series({{.ecc = 3}}));  // kept: `f` points into it
  f = find(before, "watch-ecc-uncorrected");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->title.find("in the last"), std::string::npos) << f->title;
  // Near misses: none, or not reported, is no finding.
  EXPECT_FALSE(has(diagnose(memory_series({{.ecc = 0}, {.ecc = 0}, {.ecc = 0}})), "watch-ecc-uncorrected"));
  EXPECT_FALSE(has(diagnose(memory_series({{}, {}, {}})), "watch-ecc-uncorrected"));
}

TEST(WatchDiagnoses, MemoryRetiredInTheWindowOrPendingWarnsAnOldRetirementInforms) {
  const Finding* f = nullptr;
  auto fresh = diagnose(memory_series({{.double_bit = 0}, {.double_bit = 0}, {.double_bit = 1}}));
  f = find(fresh, "watch-memory-retired");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::warning);
  EXPECT_NE(f->title.find("1 more page(s)/row(s) in the last 3 samples"), std::string::npos) << f->title;
  EXPECT_NE(f->fix.find("nvidia-smi -r -i 0"), std::string::npos) << f->fix;
  EXPECT_NE(f->detail.find("1 for a double-bit error"), std::string::npos) << f->detail;
  auto pending = diagnose(memory_series({{.double_bit = 1, .pending = true}}));
  f = find(pending, "watch-memory-retired");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::warning);
  EXPECT_NE(f->title.find("waits for a GPU reset"), std::string::npos) << f->title;
  // Near miss: a count that stays is the card's history, no call to act.
  auto old = diagnose(memory_series({{.double_bit = 1}, {.double_bit = 1}, {.double_bit = 1}}));
  f = find(old, "watch-memory-retired");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::info);
  EXPECT_FALSE(has(diagnose(memory_series({{.double_bit = 0}, {.double_bit = 0}})), "watch-memory-retired"));
}

// ---- renderers ----

Snapshot two_gpus() {
  Snapshot s;
  s.time_ms = 1'796'100'000'000;
  s.status = LibraryStatus::ok;
  s.driver_version = "550.54.15";
  GpuSample a;
  a.index = 0;
  a.name = "NVIDIA H100, \"SXM\"";
  a.uuid = "GPU-a";
  a.gpu_util_percent = 0;  // a real zero
  a.memory_used_bytes = 1 * kGiB;
  a.memory_total_bytes = 80 * kGiB;
  a.power_w = 71.5;
  a.throttle_reasons = throttle::kGpuIdle;
  a.processes = std::vector<GpuProcessSample>{};
  GpuSample b;  // nothing known
  b.index = 1;
  b.uuid = "GPU-b";
  s.gpus = {a, b};
  return s;
}

TEST(WatchRender, UnknownIsNotZeroInEveryFormat) {
  Snapshot s = two_gpus();
  std::string text = render_watch_text(s);
  EXPECT_NE(text.find("GPU 0  NVIDIA H100, \"SXM\"  util 0%"), std::string::npos) << text;
  EXPECT_NE(text.find("GPU 1  n/a  util n/a"), std::string::npos) << text;
  EXPECT_NE(text.find("  processes: n/a"), std::string::npos) << text;

  // No ECC counters known: no ECC line (not zeros).
  EXPECT_EQ(text.find("  ecc:"), std::string::npos) << text;

  std::string csv = render_watch_csv(s);
  EXPECT_NE(csv.find(",0,GPU-a,\"NVIDIA H100, \"\"SXM\"\"\",0,,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",1,GPU-b,,,,,,,,,,,,,,,"), std::string::npos) << csv;

  auto j = nlohmann::json::parse(render_watch_jsonl(s));
  EXPECT_EQ(j["gpus"][0]["gpu_util_percent"], 0);
  EXPECT_TRUE(j["gpus"][1]["gpu_util_percent"].is_null());
  EXPECT_TRUE(j["gpus"][1]["processes"].is_null());
  EXPECT_EQ(j["gpus"][0]["processes"], nlohmann::json::array());
  EXPECT_EQ(j["gpus"][0]["throttle_reason_names"], "gpu-idle");
}

// Review 43A item 04: the counters were in the JSON only.
TEST(WatchRender, TextShowsTheMemoryErrorCounters) {
  Snapshot s = two_gpus();
  s.gpus[1].ecc_uncorrected_volatile = 3;
  s.gpus[1].retired_pages_single_bit = 1;
  s.gpus[1].retired_pages_double_bit = 2;
  s.gpus[1].remapping_pending = true;
  std::string text = render_watch_text(s);
  EXPECT_NE(text.find("GPU 1  n/a  util n/a"), std::string::npos) << text;
  EXPECT_NE(text.find("\n  ecc: uncorrected 3 since the driver loaded  retired pages 1 single-bit, 2 double-bit  "
                      "remapped rows n/a (remap pending a reset)\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("  ecc:"), text.rfind("  ecc:")) << "GPU 0 reports none: " << text;
}

// Found in review (2026-12-06): `watch -l 0.5 --csv` gave two samples of a GPU the same time, to
// the second; the CSV's time has the milliseconds the JSONL's time_ms has.
TEST(WatchRender, CsvTimesTellHalfSecondSamplesApart) {
  Snapshot s = two_gpus();
  s.time_ms = 1764992135123;  // 2025-12-06T03:35:35.123Z
  Snapshot later = s;
  later.time_ms += 500;
  const std::string first = render_watch_csv(s);
  const std::string second = render_watch_csv(later);
  EXPECT_EQ(first.substr(0, 25), "2025-12-06T03:35:35.123Z,") << first;
  EXPECT_EQ(second.substr(0, 25), "2025-12-06T03:35:35.623Z,") << second;
}

TEST(WatchRender, CsvRowsHaveAsManyCellsAsTheHeader) {
  auto count_cells = [](const std::string& line) {
    size_t cells = 1;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') quoted = !quoted;
      if (c == ',' && !quoted) ++cells;
    }
    return cells;
  };
  std::string header = watch_csv_header();
  Snapshot s = two_gpus();
  std::string rows = render_watch_csv(s);
  Snapshot none;
  none.status = LibraryStatus::not_found;
  rows += render_watch_csv(none);
  size_t begin = 0;
  int n = 0;
  while (begin < rows.size()) {
    size_t end = rows.find('\n', begin);
    EXPECT_EQ(count_cells(rows.substr(begin, end - begin)), count_cells(header.substr(0, header.size() - 1)));
    begin = end + 1;
    ++n;
  }
  EXPECT_EQ(n, 3);
}

TEST(GpuSampleCodec, RoundTripKeepsUnknownsUnknown) {
  Snapshot s = two_gpus();
  s.gpus[0].processes = std::vector<GpuProcessSample>{{.pid = 7, .used_memory_bytes = std::nullopt}};
  std::vector<GpuSample> back;
  gpu_samples_from_json(gpu_samples_to_json(s.gpus), back);
  ASSERT_EQ(back.size(), 2U);
  EXPECT_EQ(back[0].gpu_util_percent, 0U);
  EXPECT_EQ(back[0].power_w, 71.5);
  ASSERT_TRUE(back[0].processes);
  EXPECT_EQ(back[0].processes->at(0).pid, 7U);
  EXPECT_FALSE(back[0].processes->at(0).used_memory_bytes);
  EXPECT_FALSE(back[1].gpu_util_percent);
  EXPECT_FALSE(back[1].processes);
  // Junk from a dying child is dropped, not turned into numbers.
  std::vector<GpuSample> junk;
  gpu_samples_from_json(nlohmann::ordered_json::parse(R"([{"index":-1,"gpu_util_percent":"x"},5])"), junk);
  ASSERT_EQ(junk.size(), 1U);
  EXPECT_FALSE(junk[0].gpu_util_percent);
}

TEST(PrometheusRender, DcgmNamesLabelsAndUnits) {
  Snapshot s = two_gpus();
  s.gpus[0].name = "NVIDIA H100";
  s.gpus[0].memory_used_bytes = 1536ULL << 20U;  // 1536 MiB
  s.gpus[0].temperature_c = 45;
  PrometheusContext c;
  c.hostname = "node\"1";
  c.scrapes = 3;
  c.samples = 7;
  c.failed_samples = 2;
  std::string m = render_prometheus(&s, c);
  EXPECT_NE(m.find("# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"), std::string::npos) << m;
  EXPECT_NE(m.find(R"(DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-a",device="nvidia0",modelName="NVIDIA H100",)"
                   R"(Hostname="node\"1"} 0)"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find(R"(DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-a",device="nvidia0",modelName="NVIDIA H100",)"
                   R"(Hostname="node\"1"} 1536)"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("DCGM_FI_DEV_FB_FREE{gpu=\"0\""), std::string::npos);
  EXPECT_NE(m.find("DCGM_FI_DEV_POWER_USAGE{gpu=\"0\""), std::string::npos);
  // GPU 1 reported nothing: no reading for it at all, not zeros; only that it answers.
  const std::string up_1 = "gpudoctor_gpu_up{gpu=\"1\"";
  EXPECT_EQ(m.find("gpu=\"1\""), m.find(up_1) + up_1.find("gpu=")) << m;
  EXPECT_NE(m.find(R"(gpudoctor_gpu_up{gpu="1",uuid="GPU-b",device="nvidia1",model_name="",hostname="node\"1"} 1)"),
            std::string::npos)
      << m;
  // A family with no sample has no HELP/TYPE either.
  EXPECT_EQ(m.find("DCGM_FI_DEV_SM_CLOCK"), std::string::npos);
  EXPECT_NE(m.find("gpudoctor_gpu_query_up{hostname=\"node\\\"1\"} 1\n"), std::string::npos) << m;
  EXPECT_NE(m.find("gpudoctor_scrapes_total{hostname=\"node\\\"1\"} 3\n"), std::string::npos);
  EXPECT_NE(m.find("gpudoctor_samples_total{hostname=\"node\\\"1\"} 7\n"), std::string::npos);
  // Failures counted, for a hang that was over before a scrape came (review of 2026-12-06).
  EXPECT_NE(m.find("# TYPE gpudoctor_gpu_query_failures_total counter\n"), std::string::npos) << m;
  EXPECT_NE(m.find("gpudoctor_gpu_query_failures_total{hostname=\"node\\\"1\"} 2\n"), std::string::npos) << m;
  // gpudoctor's own series follow the Prometheus convention (snake_case labels).
  EXPECT_NE(m.find(R"(gpudoctor_clocks_event_reasons{gpu="0",uuid="GPU-a",device="nvidia0",model_name="NVIDIA H100",)"
                   R"(hostname="node\"1"} 1)"),
            std::string::npos)
      << m;
}

// Review 43A item 01: a lost GPU (only its UUID read failed) was exported as healthy series with
// UUID="" and the query as up.
TEST(PrometheusRender, LostGpuIsDownWithNoReadingsAndNoEmptyUuid) {
  Snapshot s = two_gpus();
  s.gpus[1].uuid.clear();
  s.gpus[1].memory_used_bytes = 0;
  s.gpus[1].memory_total_bytes = 80 * kGiB;
  s.gpus[1].lost = "NVML_ERROR_GPU_IS_LOST";
  PrometheusContext c;
  c.hostname = "h";
  std::string m = render_prometheus(&s, c);
  EXPECT_EQ(m.find("UUID=\"\""), std::string::npos) << m;
  EXPECT_EQ(m.find("uuid=\"\""), std::string::npos) << m;
  EXPECT_EQ(m.find("DCGM_FI_DEV_FB_USED{gpu=\"1\""), std::string::npos) << m;
  EXPECT_EQ(m.find("DCGM_FI_DEV_FB_FREE{gpu=\"1\""), std::string::npos) << m;
  EXPECT_NE(m.find(R"(gpudoctor_gpu_up{gpu="1",device="nvidia1",model_name="",hostname="h"} 0)"), std::string::npos)
      << m;
  EXPECT_NE(m.find(R"(gpudoctor_gpu_up{gpu="0",uuid="GPU-a",)"), std::string::npos) << m;
  EXPECT_NE(m.find("gpudoctor_gpu_query_up{hostname=\"h\"} 0\n"), std::string::npos) << m;
  EXPECT_NE(m.find("DCGM_FI_DEV_FB_USED{gpu=\"0\""), std::string::npos) << m;
  // Near miss: a GPU that answers but whose UUID could not be read keeps its readings, without
  // the label rather than with an empty one.
  s.gpus[1].lost.clear();
  m = render_prometheus(&s, c);
  EXPECT_NE(m.find(R"(DCGM_FI_DEV_FB_USED{gpu="1",device="nvidia1",modelName="",Hostname="h"} 0)"), std::string::npos)
      << m;
  EXPECT_EQ(m.find("UUID=\"\""), std::string::npos) << m;
  EXPECT_NE(m.find("gpudoctor_gpu_query_up{hostname=\"h\"} 1\n"), std::string::npos) << m;
}

TEST(PrometheusRender, DoctorVerdictsOneSeriesPerIdEvenWhenRepeated) {
  Finding f;
  f.id = "driver-missing";
  f.severity = Severity::error;
  PrometheusContext c;
  c.hostname = "h";
  c.doctor_findings = std::vector<Finding>{f, f};
  std::string m = render_prometheus(nullptr, c);
  EXPECT_NE(m.find("gpudoctor_doctor_findings{hostname=\"h\",severity=\"error\"} 2\n"), std::string::npos) << m;
  const std::string series = "gpudoctor_doctor_problem{hostname=\"h\",id=\"driver-missing\",severity=\"error\"} 1\n";
  size_t first = m.find(series);
  ASSERT_NE(first, std::string::npos) << m;
  EXPECT_EQ(m.find(series, first + 1), std::string::npos) << m;
  EXPECT_EQ(m.find("DCGM_"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
