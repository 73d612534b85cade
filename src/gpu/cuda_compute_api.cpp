#include "gpu/cuda_compute_api.hpp"

#include "gpu/gpu_topology.hpp"

namespace gpudoctor::gpu {

Result<CudaComputeApi> load_cuda_compute(const std::vector<std::string>& names) {
  return load_api<CudaComputeApi>(names, [](CudaComputeApi& api, BindState& state) {
    GPUDOCTOR_CUDA_COMPUTE_ENTRY_POINTS(GPUDOCTOR_BIND_ENTRY_POINT)
  });
}

std::string cuda_bus_id(const CudaComputeApi& cuda, int ordinal) {
  CUdevice handle = 0;
  int domain = -1;
  int bus = -1;
  int dev = -1;
  if (cuda.device_get(&handle, ordinal) != kCudaSuccess ||
      cuda.device_attribute(&domain, kCuDeviceAttributePciDomainId, handle) != kCudaSuccess ||
      cuda.device_attribute(&bus, kCuDeviceAttributePciBusId, handle) != kCudaSuccess ||
      cuda.device_attribute(&dev, kCuDeviceAttributePciDeviceId, handle) != kCudaSuccess) {
    return "";
  }
  return bus_id_of(domain, bus, dev);
}

}  // namespace gpudoctor::gpu
