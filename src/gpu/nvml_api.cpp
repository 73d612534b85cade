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
  auto opened = DynamicLibrary::open_first(names);
  if (!opened) return opened.error();
  NvmlApi api{.library = std::move(opened).value(), .bound = {}};
  BindState state;
  GPUDOCTOR_NVML_ENTRY_POINTS(GPUDOCTOR_BIND_ENTRY_POINT)
  if (!state.missing_required.empty()) {
    std::string message = "missing required entry point";
    message += state.missing_required.size() > 1 ? "s: " : ": ";
    for (size_t i = 0; i < state.missing_required.size(); ++i) {
      if (i > 0) message += ", ";
      message += state.missing_required[i];
    }
    // `api` goes out of scope here, closing the handle.
    return Error{ErrorKind::symbol_missing, std::move(message), api.library.path(), 0};
  }
  api.bound = std::move(state.bound);
  return api;
}

std::string nvml_error_name(nvmlReturn_t code) {
  switch (code) {
    case 0:
      return "NVML_SUCCESS";
    case 1:
      return "NVML_ERROR_UNINITIALIZED";
    case 2:
      return "NVML_ERROR_INVALID_ARGUMENT";
    case 3:
      return "NVML_ERROR_NOT_SUPPORTED";
    case 4:
      return "NVML_ERROR_NO_PERMISSION";
    case 5:
      return "NVML_ERROR_ALREADY_INITIALIZED";
    case 6:
      return "NVML_ERROR_NOT_FOUND";
    case 7:
      return "NVML_ERROR_INSUFFICIENT_SIZE";
    case 8:
      return "NVML_ERROR_INSUFFICIENT_POWER";
    case 9:
      return "NVML_ERROR_DRIVER_NOT_LOADED";
    case 10:
      return "NVML_ERROR_TIMEOUT";
    case 11:
      return "NVML_ERROR_IRQ_ISSUE";
    case 12:
      return "NVML_ERROR_LIBRARY_NOT_FOUND";
    case 13:
      return "NVML_ERROR_FUNCTION_NOT_FOUND";
    case 14:
      return "NVML_ERROR_CORRUPTED_INFOROM";
    case 15:
      return "NVML_ERROR_GPU_IS_LOST";
    case 16:
      return "NVML_ERROR_RESET_REQUIRED";
    case 17:
      return "NVML_ERROR_OPERATING_SYSTEM";
    case 18:
      return "NVML_ERROR_LIB_RM_VERSION_MISMATCH";
    case 19:
      return "NVML_ERROR_IN_USE";
    case 20:
      return "NVML_ERROR_MEMORY";
    case 21:
      return "NVML_ERROR_NO_DATA";
    case 22:
      return "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED";
    case 23:
      return "NVML_ERROR_INSUFFICIENT_RESOURCES";
    case 24:
      return "NVML_ERROR_FREQ_NOT_SUPPORTED";
    case 25:
      return "NVML_ERROR_ARGUMENT_VERSION_MISMATCH";
    case 26:
      return "NVML_ERROR_DEPRECATED";
    case 27:
      return "NVML_ERROR_NOT_READY";
    case 28:
      return "NVML_ERROR_GPU_NOT_FOUND";
    case 29:
      return "NVML_ERROR_INVALID_STATE";
    case 30:
      return "NVML_ERROR_RESET_TYPE_NOT_SUPPORTED";
    case 999:
      return "NVML_ERROR_UNKNOWN";
    default:
      return "NVML_ERROR_" + std::to_string(code);
  }
}

}  // namespace gpudoctor::gpu
