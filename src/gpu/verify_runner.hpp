#pragma once
/// `gpudoctor verify` in the parent: loads the runtime libraries from the chosen source
/// (runtime_libraries.hpp), then runs every step (verify_steps.hpp) on every GPU, each in its
/// own child with a deadline, in order; a step whose ground failed (no context, no library)
/// is skipped or failed with the reason instead of being run.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

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
  /// CUDA_VISIBLE_DEVICES when set (even empty): the run says it limited what was tested.
  std::optional<std::string> cuda_visible_devices;
  /// Called after each step, for progress on a terminal; may be empty.
  std::function<void(const VerifyStep&)> on_step;
};

VerifyReport run_verify(const VerifyOptions& options);

}  // namespace gpudoctor::gpu
