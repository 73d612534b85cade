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
  auto opened = DynamicLibrary::open_first(names);
  if (!opened) return opened.error();
  CudaDriverApi api{.library = std::move(opened).value(), .bound = {}};
  BindState state;
  GPUDOCTOR_CUDA_DRIVER_ENTRY_POINTS(GPUDOCTOR_BIND_ENTRY_POINT)
  if (!state.missing_required.empty()) {
    std::string message = "missing required entry point";
    message += state.missing_required.size() > 1 ? "s: " : ": ";
    for (size_t i = 0; i < state.missing_required.size(); ++i) {
      if (i > 0) message += ", ";
      message += state.missing_required[i];
    }
    return Error{ErrorKind::symbol_missing, std::move(message), api.library.path(), 0};
  }
  api.bound = std::move(state.bound);
  return api;
}

std::string cuda_error_name(CUresult code) {
  switch (code) {
    case 0:
      return "CUDA_SUCCESS";
    case 1:
      return "CUDA_ERROR_INVALID_VALUE";
    case 2:
      return "CUDA_ERROR_OUT_OF_MEMORY";
    case 3:
      return "CUDA_ERROR_NOT_INITIALIZED";
    case 4:
      return "CUDA_ERROR_DEINITIALIZED";
    case 34:
      return "CUDA_ERROR_STUB_LIBRARY";
    case 36:
      return "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER";
    case 46:
      return "CUDA_ERROR_DEVICE_UNAVAILABLE";
    case 100:
      return "CUDA_ERROR_NO_DEVICE";
    case 101:
      return "CUDA_ERROR_INVALID_DEVICE";
    case 102:
      return "CUDA_ERROR_DEVICE_NOT_LICENSED";
    case 304:
      return "CUDA_ERROR_OPERATING_SYSTEM";
    case 800:
      return "CUDA_ERROR_NOT_PERMITTED";
    case 801:
      return "CUDA_ERROR_NOT_SUPPORTED";
    case 802:
      return "CUDA_ERROR_SYSTEM_NOT_READY";
    case 803:
      return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
    case 804:
      return "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE";
    case 999:
      return "CUDA_ERROR_UNKNOWN";
    default:
      return "CUDA_ERROR_" + std::to_string(code);
  }
}

}  // namespace gpudoctor::gpu
