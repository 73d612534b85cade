#include "gpu/nvml_api.hpp"

namespace gpudoctor::gpu {

std::vector<std::string> default_nvml_names() {
#ifdef _WIN32
  // DCH drivers put nvml.dll in System32; older "standard" drivers in NVSMI (pynvml's order).
  return {"nvml.dll", "C:\\Program Files\\NVIDIA Corporation\\NVSMI\\nvml.dll"};
#else
  return {"libnvidia-ml.so.1", "libnvidia-ml.so"};
#endif
}

Result<NvmlApi> load_nvml(const std::vector<std::string>& names) {
  return load_api<NvmlApi>(
      names, [](NvmlApi& api, BindState& state) { GPUDOCTOR_NVML_ENTRY_POINTS(GPUDOCTOR_BIND_ENTRY_POINT) });
}

namespace {

constexpr CodeName kNvmlErrorNames[] = {
    {0, "NVML_SUCCESS"},
    {1, "NVML_ERROR_UNINITIALIZED"},
    {2, "NVML_ERROR_INVALID_ARGUMENT"},
    {3, "NVML_ERROR_NOT_SUPPORTED"},
    {4, "NVML_ERROR_NO_PERMISSION"},
    {5, "NVML_ERROR_ALREADY_INITIALIZED"},
    {6, "NVML_ERROR_NOT_FOUND"},
    {7, "NVML_ERROR_INSUFFICIENT_SIZE"},
    {8, "NVML_ERROR_INSUFFICIENT_POWER"},
    {9, "NVML_ERROR_DRIVER_NOT_LOADED"},
    {10, "NVML_ERROR_TIMEOUT"},
    {11, "NVML_ERROR_IRQ_ISSUE"},
    {12, "NVML_ERROR_LIBRARY_NOT_FOUND"},
    {13, "NVML_ERROR_FUNCTION_NOT_FOUND"},
    {14, "NVML_ERROR_CORRUPTED_INFOROM"},
    {15, "NVML_ERROR_GPU_IS_LOST"},
    {16, "NVML_ERROR_RESET_REQUIRED"},
    {17, "NVML_ERROR_OPERATING_SYSTEM"},
    {18, "NVML_ERROR_LIB_RM_VERSION_MISMATCH"},
    {19, "NVML_ERROR_IN_USE"},
    {20, "NVML_ERROR_MEMORY"},
    {21, "NVML_ERROR_NO_DATA"},
    {22, "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED"},
    {23, "NVML_ERROR_INSUFFICIENT_RESOURCES"},
    {24, "NVML_ERROR_FREQ_NOT_SUPPORTED"},
    {25, "NVML_ERROR_ARGUMENT_VERSION_MISMATCH"},
    {26, "NVML_ERROR_DEPRECATED"},
    {27, "NVML_ERROR_NOT_READY"},
    {28, "NVML_ERROR_GPU_NOT_FOUND"},
    {29, "NVML_ERROR_INVALID_STATE"},
    {30, "NVML_ERROR_RESET_TYPE_NOT_SUPPORTED"},
    {999, "NVML_ERROR_UNKNOWN"},
};

}  // namespace

std::string nvml_error_name(nvmlReturn_t code) {
  return code_name(kNvmlErrorNames, code, "NVML_ERROR_");
}

}  // namespace gpudoctor::gpu
