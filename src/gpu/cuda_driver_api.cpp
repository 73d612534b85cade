#include "gpu/cuda_driver_api.hpp"

namespace gpudoctor::gpu {

std::vector<std::string> default_cuda_driver_names() {
#ifdef _WIN32
  return {"nvcuda.dll"};
#else
  return {"libcuda.so.1", "libcuda.so"};
#endif
}

Result<CudaDriverApi> load_cuda_driver(const std::vector<std::string>& names) {
  return load_api<CudaDriverApi>(names, [](CudaDriverApi& api, BindState& state) {
    GPUDOCTOR_CUDA_DRIVER_ENTRY_POINTS(GPUDOCTOR_BIND_ENTRY_POINT)
  });
}

namespace {

constexpr CodeName kCudaErrorNames[] = {
    {0, "CUDA_SUCCESS"},
    {1, "CUDA_ERROR_INVALID_VALUE"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY"},
    {3, "CUDA_ERROR_NOT_INITIALIZED"},
    {4, "CUDA_ERROR_DEINITIALIZED"},
    {34, "CUDA_ERROR_STUB_LIBRARY"},
    {36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE"},
    {100, "CUDA_ERROR_NO_DEVICE"},
    {101, "CUDA_ERROR_INVALID_DEVICE"},
    {102, "CUDA_ERROR_DEVICE_NOT_LICENSED"},
    {304, "CUDA_ERROR_OPERATING_SYSTEM"},
    {800, "CUDA_ERROR_NOT_PERMITTED"},
    {801, "CUDA_ERROR_NOT_SUPPORTED"},
    {802, "CUDA_ERROR_SYSTEM_NOT_READY"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"},
    {999, "CUDA_ERROR_UNKNOWN"},
};

}  // namespace

std::string cuda_error_name(CUresult code) {
  return code_name(kCudaErrorNames, code, "CUDA_ERROR_");
}

}  // namespace gpudoctor::gpu
