#pragma once
/// The sampler behind `watch` and `serve`: each sample() asks the GPU agent (NVML kept loaded
/// in a child, never in this process; restarted when it crashed or hung past the deadline)
/// for every GPU's readings, adds the host's CPU and memory and each GPU process's command
/// line and CPU use from /proc, runs the diagnoses over the history, and returns one
/// immutable snapshot. Not thread-safe: SamplingLoop shares one sampler between threads.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gpu/gpu_agent.hpp"
#include "model/monitor_snapshot.hpp"
#include "monitor/diagnoses.hpp"
#include "monitor/host_readings.hpp"

namespace gpudoctor::monitor {

struct SamplerOptions {
  std::vector<std::string> nvml_names;       ///< empty: the platform's default names
  std::chrono::milliseconds deadline{3000};  ///< per sample: longer is a GPU that stopped answering
  std::string proc_root = "/proc";
  size_t history = 120;  ///< snapshots kept for the diagnoses and sparklines
  DiagnosisOptions diagnosis;
  gpu::AgentOptions agent;
};

class Sampler {
 public:
  explicit Sampler(SamplerOptions options = {});
  SnapshotPtr sample();
  /// Oldest first, at most options.history long.
  [[nodiscard]] const std::deque<SnapshotPtr>& history() const { return history_; }

 private:
  struct Previous {
    std::uint64_t ticks = 0;
    std::chrono::steady_clock::time_point at;
  };
  SamplerOptions options_;
  gpu::Agent agent_;
  ProcReader proc_;
  std::optional<CpuTicks> host_before_;
  std::map<unsigned, Previous> process_before_;
  std::deque<SnapshotPtr> history_;
};

/// One sampler on its own thread, every `interval`, for any number of readers (serve's
/// scrapes): reading never samples, so N scrapes cost one sample per interval.
class SamplingLoop {
 public:
  SamplingLoop(SamplerOptions options, std::chrono::milliseconds interval);
  ~SamplingLoop();  ///< stops the thread (within one deadline at worst)
  SamplingLoop(const SamplingLoop&) = delete;
  SamplingLoop& operator=(const SamplingLoop&) = delete;

  /// The latest snapshot, nullptr before the first one.
  [[nodiscard]] SnapshotPtr latest() const;
  /// Waits up to `timeout` for the first snapshot.
  SnapshotPtr wait_first(std::chrono::milliseconds timeout) const;
  /// Samples taken so far.
  [[nodiscard]] std::uint64_t samples() const;
  /// Samples whose GPU query failed (timed out, crashed, errored), counted for a reader that
  /// came after the GPU answered again.
  [[nodiscard]] std::uint64_t failed_samples() const;

 private:
  void run(std::chrono::milliseconds interval);
  Sampler sampler_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  SnapshotPtr latest_;
  std::uint64_t samples_ = 0;
  std::uint64_t failed_samples_ = 0;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace gpudoctor::monitor
