#pragma once
/// What `gpudoctor bench` measured (gpu/bench_runner.hpp): one BenchMeasurement per figure,
/// each with its spread, its correctness check and, where the knowledge base has one, the
/// ceiling it is held against; the guides' claims as this machine gives them; and the change
/// since the last run (bench --compare). Plain data: the children write measurements, the
/// parent reads them back through the JSON codec, the renderers print the report.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// A measurement's result; in JSON by these names ("" for none).
enum class BenchStatus {
  none,  ///< not reported
  ok,
  skipped,  ///< cannot run here; detail says why
  failed,   ///< ran and failed, or the answer was wrong
  crashed,  ///< the child died
  timeout,  ///< killed at its deadline
};
const char* to_string(BenchStatus s);
/// The status of that name; none for any other text (a child's answer, a history row).
BenchStatus parse_bench_status(std::string_view name);

struct BenchMeasurement {
  std::string key;   ///< what, "cpu.sgemm_fp32", "gpu0.gemm_bf16", "gpu0.h2d_pinned"
  std::string unit;  ///< "gflops", "tflops", "gbps", "ratio"; the JSON key is key + "." + unit
  BenchStatus status = BenchStatus::none;
  std::string detail;           ///< the shape and library, or why it did not run
  std::optional<double> value;  ///< the median, in `unit`
  std::optional<double> min;    ///< the best and worst iteration, in `unit`
  std::optional<double> max;
  double spread_pct = 0;      ///< median absolute deviation of the times over their median, percent
  int iterations = 0;         ///< timed iterations (after the warm-up)
  double seconds_median = 0;  ///< one iteration's median time
  /// The figure's whole child, from its start to its end: process, CUDA context, library loads,
  /// warm-up, the timed iterations and the check. What `--quick`'s time is made of; 0 when unknown.
  /// The peer copies and the all-reduce share one child, and each carries its whole time.
  double wall_seconds = 0;
  std::string library;  ///< "OpenBLAS 0.3.21 (Haswell, 2 threads) /usr/lib/.../libopenblas.so.0"
  std::string check;    ///< the correctness check beside the timing, in words
  bool check_passed = false;
  std::optional<double> ceiling;  ///< the datasheet peak, in `unit`
  std::string ceiling_source;     ///< the knowledge-base row's name and source
  std::string last_call;          ///< the vendor call in progress when a child stopped
  /// A framework's FP32 GPU figure: whether the framework let its convolutions or matrix products
  /// run in TF32 on this card (PyTorch's, TensorFlow's and XLA's default on CC 8.0 and newer). True
  /// is not plain FP32, and the claims built on it say so. Unset for every other figure, and in
  /// runs saved before 2026-12-05.
  std::optional<bool> tf32;
  /// A framework figure's GPUs, by model name as the framework reports them (empty on the CPU,
  /// and where the framework does not name them).
  std::vector<std::string> gpus;

  [[nodiscard]] std::string json_key() const { return key + "." + unit; }
  [[nodiscard]] bool ok() const { return status == BenchStatus::ok && value.has_value(); }
  /// value / ceiling, when both are known.
  [[nodiscard]] std::optional<double> fraction_of_ceiling() const;

  bool operator==(const BenchMeasurement&) const = default;
};

/// One of the install guides' claims, as measured here: "GPU/CPU on GEMM: 38x".
struct BenchClaim {
  std::string what;   ///< "GPU/CPU on GEMM"
  std::string guide;  ///< what the guides say: "10-50x faster than the CPU"
  std::optional<double> ratio;
  std::string basis;  ///< "gpu0.gemm_tf32.tflops over cpu.sgemm_fp32.gflops", or why it is unknown

  bool operator==(const BenchClaim&) const = default;
};

/// One figure against the last run's (bench --compare).
struct BenchChange {
  std::string key;  ///< the JSON key, "cpu.sgemm_fp32.gflops"
  double previous = 0;
  double current = 0;
  double change_pct = 0;  ///< (current - previous) / previous, percent
  double noise_pct = 0;   ///< what counts as noise for this figure
  /// "regression", "improvement", "same"; "not measured": an earlier run measured it, this run
  /// (which asked for it) did not; not judged: "library changed", "TF32 changed"
  std::string verdict;
  int runs = 1;        ///< the earlier runs whose figures `previous` is the median of
  std::string detail;  ///< "not measured": why not, as this run says (empty when it says nothing)

  bool operator==(const BenchChange&) const = default;
};

/// How the GPUs connect, read from NVML in the multi-GPU child and printed as `nvidia-smi topo -m`
/// does. Indexed by CUDA ordinal (the order the peer figures use).
struct BenchTopology {
  std::vector<std::string> bus_ids;  ///< "00000000:18:00.0" per GPU
  /// [i][j]: "X" (self), "NV<n>" (n bonded NVLinks, NVSwitch included), else the closest common
  /// PCIe ancestor: "PIX" (one switch), "PXB" (several), "PHB" (host bridge), "NODE" (NUMA
  /// node), "SYS" (across NUMA nodes); "?" where NVML could not say.
  std::vector<std::vector<std::string>> links;
  /// [i][j]: NVML's P2P read status, "OK", "CNS" (chipset), "GNS" (GPU), "TNS" (topology),
  /// "DIS" (disabled by regkey), "NS" (not supported), "U" (unknown); "X" on the diagonal.
  std::vector<std::vector<std::string>> p2p_read;
  /// [i][j]: what the link allows for a copy from j to i, GB/s one way (0: unknown), and from what.
  std::vector<std::vector<double>> link_gbps;
  std::vector<std::vector<std::string>> link_basis;
  std::string note;  ///< how CUDA ordinals were matched to NVML's devices, or why there is no matrix

  bool operator==(const BenchTopology&) const = default;
};

struct BenchReport {
  std::string mode;         ///< "quick", "default", "full"
  std::string started_utc;  ///< "2026-12-01T10:58:03Z"
  std::string host;
  std::string cpu_model;
  int cpu_threads = 0;
  std::vector<std::string> gpu_names;  ///< by index, as the driver names them
  std::vector<BenchMeasurement> measurements;
  std::vector<BenchClaim> claims;
  /// bench --compare: the run compared with, and each figure's change.
  std::string compared_with_utc;
  std::vector<BenchChange> changes;
  std::optional<BenchTopology> topology;  ///< with two GPUs or more
  std::vector<std::string> notes;         ///< what was not measured here and why (no GPU, ...)
  std::vector<std::string> problems;      ///< failures outside any figure

  bool operator==(const BenchReport&) const = default;
};

/// The measurement named `key` ("cpu.sgemm_fp32"), or null.
const BenchMeasurement* find_measurement(const BenchReport& report, const std::string& key);

/// The guides' claims from the report's own figures: GPU/CPU on GEMM and on convolution, the
/// mixed-precision gain over FP32 and over TF32 on GEMM and convolution, multi-GPU all-reduce
/// scaling. A claim whose figures are missing says which.
std::vector<BenchClaim> bench_claims(const BenchReport& report);

/// Each figure both runs measured, the current against the previous. A change is a regression
/// (or an improvement) only beyond the noise: three times the larger of the two runs' spreads,
/// and never less than `floor_pct`.
/// The library file a figure's `library` text ends with, version numbers replaced by '#' (an
/// update in place is the same library); empty when it names none.
std::string library_file(const std::string& library);

std::vector<BenchChange> compare_runs(const BenchReport& previous, const BenchReport& current, double floor_pct = 5.0);

/// Against the earlier runs of the same mode (newest first): each figure against the median of
/// the runs that measured it through the same library, and the noise also three times their
/// spread around it (what varies between runs on this machine: a busy machine's runs differ far
/// more than one run's iterations). A figure one of them measured that this run asked for
/// (`selected`: not every run measures every figure, `--cpu-only`) and did not measure is
/// "not measured".
std::vector<BenchChange> compare_runs(const std::vector<BenchReport>& earlier, const BenchReport& current,
                                      double floor_pct, const std::function<bool(const std::string&)>& selected);

/// A note when other work kept the CPUs busy before the run (the 1-minute load average of
/// /proc/loadavg's text at least 1 and a tenth of `cpus`): CPU figures are then low and differ
/// from run to run. nullopt when not busy or the text says nothing.
std::optional<std::string> busy_machine_note(std::string_view loadavg, int cpus);

/// A regression or a figure no longer measured: what makes `bench --compare` exit 1.
bool is_regression(const BenchChange& change);

/// True when nothing failed, crashed or timed out and every check beside a timing passed.
bool bench_passed(const BenchReport& report);

}  // namespace gpudoctor
