#pragma once
/// The CUDA driver API (libcuda.so.1 / nvcuda.dll), declared by hand: only the four calls the
/// doctor needs, so gpudoctor builds with no CUDA SDK. Values follow NVIDIA's cuda.h.
#include <string>
#include <vector>

#include "core/result.hpp"
#include "gpu/entry_points.hpp"
#include "platform/dynamic_library.hpp"

namespace gpudoctor::gpu {

using CUresult = int;  ///< an enum in cuda.h; int keeps unknown future codes representable
inline constexpr CUresult kCudaSuccess = 0;

// clang-format off
/// Every libcuda entry point the doctor calls. None has a versioned (_v2) name: these four
/// signatures have not changed since they were added.
#define GPUDOCTOR_CUDA_DRIVER_ENTRY_POINTS(X)                                                   \
  /* CUDA 2.0 */                                                                                \
  X(init,              CUresult, (unsigned int),           Need::required, "cuInit")            \
  /* CUDA 2.2; works before cuInit and even when cuInit fails */                                \
  X(driver_version,    CUresult, (int*),                   Need::required, "cuDriverGetVersion")\
  /* CUDA 2.0 */                                                                                \
  X(device_count,      CUresult, (int*),                   Need::required, "cuDeviceGetCount")  \
  /* CUDA 6.0 */                                                                                \
  X(error_name,        CUresult, (CUresult, const char**), Need::optional, "cuGetErrorName")    \
  X(error_string,      CUresult, (CUresult, const char**), Need::optional, "cuGetErrorString")
// clang-format on

struct CudaDriverApi : VendorLibrary {
  GPUDOCTOR_CUDA_DRIVER_ENTRY_POINTS(GPUDOCTOR_DECLARE_ENTRY_POINT)
};

/// Library names tried in order on this host OS: the SONAME before the development link. On
/// a machine with only the toolkit, the development link may be the toolkit's stub, whose
/// cuInit answers CUDA_ERROR_STUB_LIBRARY: worth reporting, so it is tried.
std::vector<std::string> default_cuda_driver_names();

/// Opens the library and binds the table; errors as load_nvml.
Result<CudaDriverApi> load_cuda_driver(const std::vector<std::string>& names);

/// "CUDA_ERROR_NO_DEVICE" for 100, from this build's own table (the library's cuGetErrorName
/// is preferred when it is there); "CUDA_ERROR_<code>" for codes it does not know.
std::string cuda_error_name(CUresult code);

}  // namespace gpudoctor::gpu
