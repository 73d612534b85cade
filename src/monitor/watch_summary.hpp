#pragma once
/// `report --html --watch LOG`: a `watch --jsonl` log read back and summed up
/// (model/watch_summary.hpp). The log is untrusted: bounded in lines, a line that is not a
/// snapshot is counted and skipped, and the summary says what was not read.
#include <cstddef>
#include <span>
#include <string_view>

#include "model/monitor_snapshot.hpp"
#include "model/watch_summary.hpp"

namespace gpudoctor::monitor {

struct WatchLogLimits {
  size_t max_lines = 200'000;  ///< about 2 days of one sample a second
  size_t max_points = 480;     ///< per GPU in the charts; more samples are averaged into these
};

/// The samples, oldest first (sorted by time: a log may be the concatenation of two runs).
WatchSummary summarize_watch(std::span<const Snapshot> samples, size_t max_points = WatchLogLimits{}.max_points);

/// Each line of `text` one snapshot as `watch --jsonl` writes it. `cut`: the caller read only
/// the first part of the file (its size cap), said in the summary.
WatchSummary summarize_watch_log(std::string_view text, bool cut, const WatchLogLimits& limits = {});

}  // namespace gpudoctor::monitor
