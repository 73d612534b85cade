#include "gpu/cuda_compute_api.hpp"

namespace gpudoctor::gpu {

Result<CudaComputeApi> load_cuda_compute(const std::vector<std::string>& names) {
  return load_api<CudaComputeApi>(names, [](CudaComputeApi& api, BindState& state) {
    GPUDOCTOR_CUDA_COMPUTE_ENTRY_POINTS(GPUDOCTOR_BIND_ENTRY_POINT)
  });
}

}  // namespace gpudoctor::gpu
