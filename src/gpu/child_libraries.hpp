#pragma once
/// What a GPU child (a bench figure, a verify step) works with: the channel to its parent, the
/// libraries the parent chose ("cublas" -> path, from parse_library_args), and the driver and
/// its compute calls once loaded. bench's Run and verify's StepRun build on it.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpu/cuda_compute_api.hpp"
#include "gpu/cuda_driver_api.hpp"
#include "gpu/isolated_child.hpp"

namespace gpudoctor::gpu {

struct ChildLibraries {
  ChildChannel& out;
  std::map<std::string, std::string> libs;
  std::optional<CudaDriverApi> driver;
  std::optional<CudaComputeApi> cuda;

  /// What to dlopen for `lib` ("cublas"): the path the parent chose, else `fallback`.
  [[nodiscard]] std::vector<std::string> names(const char* lib, std::vector<std::string> fallback) const {
    auto it = libs.find(lib);
    return it == libs.end() || it->second.empty() ? fallback : std::vector<std::string>{it->second};
  }
};

}  // namespace gpudoctor::gpu
