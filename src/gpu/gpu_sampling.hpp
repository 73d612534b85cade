#pragma once
/// The live readings of every GPU (utilisation, memory, temperature, power, clocks, throttle
/// reasons, PCIe, ECC, processes), taken by the GPU agent's "sample" op: NVML stays loaded in
/// the agent between samples and never in the calling process. One answer line:
///
///   {"status":"ok","driver_version":"550.54.15","gpus":[...]}   (model/json_codec's GPU samples)
///   {"status":"init-failed","error":"nvmlInit_v2: NVML_ERROR_DRIVER_NOT_LOADED (9)"}
#include <chrono>
#include <string>
#include <vector>

#include "gpu/driver_query.hpp"
#include "gpu/gpu_agent.hpp"
#include "model/monitor_snapshot.hpp"

namespace gpudoctor::gpu {

/// The agent op body. args = library names (empty: default_nvml_names()).
void sample_gpus(DriverSession& session, const std::vector<std::string>& args, ChildChannel& out);

struct GpuSampling {
  LibraryStatus status = LibraryStatus::none;
  std::string error;
  std::string driver_version;
  std::vector<GpuSample> gpus;
};

/// The parent's side: one "sample" request through `agent` (restarted by the agent when it
/// died; a hang past `deadline` kills it and comes back as status "timeout").
GpuSampling request_gpu_sample(Agent& agent, const std::vector<std::string>& names, std::chrono::milliseconds deadline);

}  // namespace gpudoctor::gpu
