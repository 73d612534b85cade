#pragma once
/// What a series of monitor snapshots says about the jobs on the GPUs, as findings: pure
/// functions of the history (oldest first), so that every diagnosis is tested against a
/// recorded series. Ids (docs/watch-serve.md):
///   watch-gpu-not-answering       the GPU query timed out or crashed (the agent is restarted)
///   watch-gpu-lost                a GPU's NVML calls answer GPU_IS_LOST / RESET_REQUIRED (Xid 79)
///   watch-thermal-throttling      clocks held down by heat over most of the window
///   watch-power-throttling        clocks held at the power limit (or a power brake)
///   watch-ecc-uncorrected         uncorrected ECC errors since the driver loaded (error)
///   watch-memory-retired          pages retired / rows remapped: new or pending a reset (warning)
///   watch-memory-held-by-others   a GPU nearly full while more than one process holds memory
///   watch-input-bound             the GPU mostly idle while its process keeps a core busy
///   watch-gpu-bound               the GPU busy most of the window: the job runs on the GPU
#include <span>
#include <vector>

#include "model/finding.hpp"
#include "model/monitor_snapshot.hpp"

namespace gpudoctor::monitor {

struct DiagnosisOptions {
  size_t window = 10;      ///< the latest samples looked at
  size_t min_samples = 3;  ///< fewer than this in the window: no verdict on trends yet
  double idle_below_percent = 30;
  double busy_cpu_percent = 80;  ///< of one core
  double busy_gpu_percent = 90;
  double memory_full_fraction = 0.9;
};

std::vector<Finding> diagnose(std::span<const SnapshotPtr> history, const DiagnosisOptions& options = {});

}  // namespace gpudoctor::monitor
