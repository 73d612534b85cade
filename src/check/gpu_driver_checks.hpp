#pragma once
#include <vector>

#include "model/facts.hpp"
#include "model/finding.hpp"

namespace gpudoctor {

/// OS, WSL2 and container context.
std::vector<Finding> system_findings(const Facts& facts);
/// GPUs, kernel driver, nouveau, libcuda/NVML presence and health, WSL2 driver layout.
std::vector<Finding> gpu_driver_findings(const Facts& facts);
/// True when any source (NVML, /proc, PCI, --gpu) reports an NVIDIA GPU.
bool has_nvidia_gpu(const Facts& facts);

}  // namespace gpudoctor
