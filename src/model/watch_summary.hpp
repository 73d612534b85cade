#pragma once
/// A recorded `watch --jsonl` log summed up for `report --html --watch`: each GPU's series over
/// the run (thinned to a bounded number of points, each the mean of the samples it stands for)
/// with its extremes, the diagnoses the run raised, and what of the log could not be read, so
/// that a chart never hides that it shows only part of the log.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/finding.hpp"

namespace gpudoctor {

struct WatchPoint {
  double t_s = 0;  ///< seconds since the first sample
  std::optional<double> util_percent;
  std::optional<double> memory_used_gib;
  std::optional<double> temperature_c;
  std::optional<double> power_w;
};

struct WatchGpuSummary {
  unsigned index = 0;
  std::string name;
  std::string uuid;
  size_t samples = 0;  ///< samples that carried this GPU
  std::optional<double> util_median_percent;
  std::optional<double> util_max_percent;
  std::optional<double> memory_max_gib;
  std::optional<double> memory_total_gib;
  std::optional<double> temperature_max_c;
  std::optional<double> power_median_w;
  std::optional<double> power_limit_w;
  size_t throttled_samples = 0;             ///< clocks held down for another reason than idleness
  std::uint64_t throttle_reasons_seen = 0;  ///< the union of those reasons (model/monitor_snapshot.hpp)
  std::vector<WatchPoint> points;           ///< oldest first
};

/// A diagnosis the run raised: the latest wording, in how many samples, and when first.
struct WatchDiagnosis {
  Finding finding;
  size_t samples = 0;
  double first_t_s = 0;
};

struct WatchSummary {
  std::int64_t start_ms = 0;
  std::int64_t end_ms = 0;
  size_t samples = 0;
  size_t samples_not_ok = 0;    ///< the GPU query failed (timeout, crash, driver not loaded)
  size_t unreadable_lines = 0;  ///< not JSON, not a snapshot, or readings no GPU reports
  std::string left_out;         ///< "" or what of the log was not read ("everything past 64 MiB")
  std::vector<WatchGpuSummary> gpus;
  std::vector<WatchDiagnosis> diagnoses;
};

}  // namespace gpudoctor
