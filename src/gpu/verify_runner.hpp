#pragma once
/// `gpudoctor verify` in the parent: loads the runtime libraries from the chosen source
/// (runtime_libraries.hpp), then runs every step (verify_steps.hpp) on every GPU, each in its
/// own child with a deadline, in order; a step whose ground failed (no context, no library)
/// is skipped or failed with the reason instead of being run.
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpu/driver_query.hpp"
#include "gpu/runtime_libraries.hpp"
#include "model/verify_report.hpp"

namespace gpudoctor::gpu {

struct VerifyOptions {
  LibrarySource libraries{.label = "system", .dirs = {}};
  bool quick = false;  ///< stop after the first kernel on each GPU
  /// Per step: long enough for cuBLAS's first handle and a JIT on a big GPU, short enough
  /// that a wedged driver does not hold the user for minutes.
  std::chrono::milliseconds step_deadline{60000};
  std::vector<std::string> cuda_names;  ///< empty: default_cuda_driver_names()
  std::vector<std::string> nvml_names;  ///< empty: default_nvml_names()
  /// CUDA_VISIBLE_DEVICES when set (even empty): the run says it limited what was tested.
  std::optional<std::string> cuda_visible_devices;
  /// Called after each step, for progress on a terminal; may be empty.
  std::function<void(const VerifyStep&)> on_step;
};

VerifyReport run_verify(const VerifyOptions& options);

/// The "gpu-count" step: NVML's count of GPUs (every board the driver bound) against CUDA's
/// (cuDeviceGetCount, `cuda_count`). Fewer in CUDA, with CUDA_VISIBLE_DEVICES unset, is a GPU
/// that failed initialisation (Xid 79, a bad state, a board the driver ignores) and that no step
/// tested: failed, naming NVML's GPUs whose PCI address is not among `cuda_pci` (CUDA ordinal ->
/// "0000:3b:00", as the driver steps found them). With the variable set, or a MIG instance among
/// CUDA's devices (`cuda_shows_mig`), it is expected (skipped, said); NVML that did not answer
/// leaves the counts uncompared (skipped, said).
VerifyStep compare_gpu_counts(const NvmlReport& nvml, int cuda_count, const std::map<int, std::string>& cuda_pci,
                              const std::optional<std::string>& cuda_visible_devices, bool cuda_shows_mig = false);

}  // namespace gpudoctor::gpu
