#pragma once
/// What `watch` and `serve` print: pure functions of monitor snapshots (model/monitor_snapshot.hpp).
/// Unknown readings are "n/a" in text, empty cells in CSV, null in JSON, and absent series in
/// Prometheus: never a zero the card did not report.
#include <optional>
#include <string>
#include <vector>

#include "model/finding.hpp"
#include "model/monitor_snapshot.hpp"

namespace gpudoctor {

/// `watch --once` / `watch -l N`: one block per snapshot, like `nvidia-smi -l`.
std::string render_watch_text(const Snapshot& snapshot);

/// `watch --csv FILE`: the header line, then one row per GPU per snapshot (one row with an
/// empty gpu cell when no GPU answered). RFC 4180 quoting.
std::string watch_csv_header();
std::string render_watch_csv(const Snapshot& snapshot);

/// `watch --jsonl FILE`: the snapshot as one JSON line (model/json_codec's form).
std::string render_watch_jsonl(const Snapshot& snapshot);

struct PrometheusContext {
  std::string hostname;  ///< the Hostname label, as dcgm-exporter sets it
  /// The doctor's latest verdicts, when the report ran (serve refreshes it on a schedule).
  std::optional<std::vector<Finding>> doctor_findings;
  std::int64_t doctor_time_ms = 0;
  std::uint64_t samples = 0;         ///< taken so far by the sampler; 0: no gpudoctor_samples_total
  std::uint64_t failed_samples = 0;  ///< of those, whose GPU query failed
  std::uint64_t scrapes = 0;         ///< served so far, this one included; 0: no gpudoctor_scrapes_total
};

/// `serve`'s /metrics: dcgm-exporter's names, types, units and labels (gpu, UUID, device,
/// modelName, Hostname) for what NVML gives, so its Grafana dashboards work unchanged, then
/// gpudoctor_* series for the rest and for the verdicts. Text exposition format 0.0.4.
std::string render_prometheus(const Snapshot* snapshot, const PrometheusContext& context);

/// A history as one line of block characters (▁▂▃▄▅▆▇█), newest on the right, `max` the
/// top of the scale, at most `width` cells; an unknown reading is a space.
std::string sparkline(const std::vector<std::optional<double>>& values, double max, size_t width);

}  // namespace gpudoctor
