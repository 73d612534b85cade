#include "monitor/sampler.hpp"

#include "gpu/gpu_sampling.hpp"

namespace gpudoctor::monitor {

Sampler::Sampler(SamplerOptions options)
    : options_(std::move(options)), agent_(options_.agent), proc_(options_.proc_root) {}

SnapshotPtr Sampler::sample() {
  auto snapshot = std::make_shared<Snapshot>();
  snapshot->time_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  gpu::GpuSampling gpus = gpu::request_gpu_sample(agent_, options_.nvml_names, options_.deadline);
  snapshot->status = std::move(gpus.status);
  snapshot->error = std::move(gpus.error);
  snapshot->driver_version = std::move(gpus.driver_version);
  snapshot->gpus = std::move(gpus.gpus);
  snapshot->agent_starts = agent_.starts();

  const auto now = std::chrono::steady_clock::now();
  HostSample& host = snapshot->host;
  host.cpu_count = proc_.cpu_count();
  std::optional<CpuTicks> ticks = proc_.host_cpu();
  if (ticks && host_before_ && ticks->total > host_before_->total && ticks->busy >= host_before_->busy) {
    host.cpu_percent = 100.0 * static_cast<double>(ticks->busy - host_before_->busy) /
                       static_cast<double>(ticks->total - host_before_->total);
  }
  host_before_ = ticks;
  MemInfo memory = proc_.memory();
  host.memory_total_bytes = memory.total_bytes;
  host.memory_available_bytes = memory.available_bytes;

  // Each GPU process: its command line, and its CPU use since the last sample that saw it.
  std::map<unsigned, Previous> seen;
  const double ticks_per_second = static_cast<double>(ProcReader::ticks_per_second());
  for (GpuSample& g : snapshot->gpus) {
    if (!g.processes) continue;
    for (GpuProcessSample& p : *g.processes) {
      p.command = proc_.command_line(p.pid);
      std::optional<std::uint64_t> t = proc_.process_ticks(p.pid);
      if (!t) continue;
      auto before = process_before_.find(p.pid);
      if (before != process_before_.end() && *t >= before->second.ticks) {
        const double seconds = std::chrono::duration<double>(now - before->second.at).count();
        if (seconds > 0) {
          p.cpu_percent = 100.0 * static_cast<double>(*t - before->second.ticks) / ticks_per_second / seconds;
        }
      }
      seen[p.pid] = Previous{*t, now};
    }
  }
  process_before_ = std::move(seen);  // processes that left are forgotten: memory stays flat

  // The diagnoses see the history including this sample.
  history_.push_back(snapshot);
  while (history_.size() > options_.history) history_.pop_front();
  std::vector<SnapshotPtr> window(history_.begin(), history_.end());
  snapshot->diagnoses = diagnose(window, options_.diagnosis);
  return snapshot;
}

SamplingLoop::SamplingLoop(SamplerOptions options, std::chrono::milliseconds interval)
    : sampler_(std::move(options)), thread_([this, interval] { run(interval); }) {}

SamplingLoop::~SamplingLoop() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void SamplingLoop::run(std::chrono::milliseconds interval) {
  auto next = std::chrono::steady_clock::now();
  for (;;) {
    SnapshotPtr s = sampler_.sample();
    {
      std::unique_lock lock(mutex_);
      const bool failed = gpus_not_read(*s);
      latest_ = std::move(s);
      ++samples_;
      if (failed) ++failed_samples_;
      changed_.notify_all();
      next += interval;
      // A slow sample (a GPU that stopped answering) does not make the next ones bunch up; a
      // failed one stays published for a whole interval, so that scrapes see it: a fresh agent
      // would answer at once and hide a GPU that hangs now and then.
      const auto now = std::chrono::steady_clock::now();
      if (next < now) next = failed ? now + interval : now;
      if (changed_.wait_until(lock, next, [this] { return stop_; })) return;
    }
  }
}

SnapshotPtr SamplingLoop::latest() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

SnapshotPtr SamplingLoop::wait_first(std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, timeout, [this] { return latest_ != nullptr; });
  return latest_;
}

std::uint64_t SamplingLoop::samples() const {
  std::lock_guard lock(mutex_);
  return samples_;
}

std::uint64_t SamplingLoop::failed_samples() const {
  std::lock_guard lock(mutex_);
  return failed_samples_;
}

}  // namespace gpudoctor::monitor
