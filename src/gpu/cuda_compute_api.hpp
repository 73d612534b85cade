#pragma once
/// The CUDA driver API calls verify makes to run real work (contexts, memory, modules,
/// kernels, peers), declared by hand as cuda_driver_api.hpp is: the doctor's table stays four
/// calls, and this one is bound only by verify's children. Values follow NVIDIA's cuda.h.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "gpu/cuda_driver_api.hpp"
#include "gpu/entry_points.hpp"
#include "platform/dynamic_library.hpp"

namespace gpudoctor::gpu {

using CUdevice = int;
using CUdeviceptr = std::uint64_t;  ///< unsigned long long on every 64-bit platform
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUjit_option = int;
using CUevent = struct CUevent_st*;

inline constexpr int kCuDeviceAttributeComputeCapabilityMajor = 75;
inline constexpr int kCuDeviceAttributeComputeCapabilityMinor = 76;
inline constexpr int kCuDeviceAttributeKernelExecTimeout = 17;  ///< CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT
inline constexpr int kCuDeviceAttributeIntegrated = 18;         ///< CU_DEVICE_ATTRIBUTE_INTEGRATED
/// CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, _PCI_DEVICE_ID, _PCI_DOMAIN_ID: which NVML device a CUDA ordinal is.
inline constexpr int kCuDeviceAttributePciBusId = 33;
inline constexpr int kCuDeviceAttributePciDeviceId = 34;
inline constexpr int kCuDeviceAttributePciDomainId = 50;
inline constexpr CUjit_option kCuJitErrorLogBuffer = 5;
inline constexpr CUjit_option kCuJitErrorLogBufferSizeBytes = 6;
inline constexpr CUresult kCudaErrorPeerAccessAlreadyEnabled = 704;

// clang-format off
/// Every libcuda entry point verify calls beyond the doctor's four. The _v2 names replaced the
/// originals in CUDA 3.2 (64-bit device pointers); both are tried, newest first.
#define GPUDOCTOR_CUDA_COMPUTE_ENTRY_POINTS(X)                                                              \
  /* CUDA 2.0 */                                                                                            \
  X(device_get,        CUresult, (CUdevice*, int),                 Need::required, "cuDeviceGet")           \
  X(device_name,       CUresult, (char*, int, CUdevice),           Need::required, "cuDeviceGetName")       \
  X(device_attribute,  CUresult, (int*, int, CUdevice),            Need::required, "cuDeviceGetAttribute")  \
  /* CUDA 7.0: the primary context, the one the runtime API, cuBLAS, cuDNN and NCCL use */                  \
  X(primary_retain,    CUresult, (CUcontext*, CUdevice),           Need::required, "cuDevicePrimaryCtxRetain") \
  X(primary_release,   CUresult, (CUdevice),                       Need::optional,                          \
    "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease")                                            \
  /* CUDA 4.0 */                                                                                            \
  X(ctx_set_current,   CUresult, (CUcontext),                      Need::required, "cuCtxSetCurrent")       \
  X(ctx_synchronize,   CUresult, (),                               Need::required, "cuCtxSynchronize")      \
  X(mem_alloc,         CUresult, (CUdeviceptr*, size_t),           Need::required, "cuMemAlloc_v2", "cuMemAlloc") \
  X(mem_free,          CUresult, (CUdeviceptr),                    Need::required, "cuMemFree_v2", "cuMemFree") \
  X(memcpy_htod,       CUresult, (CUdeviceptr, const void*, size_t), Need::required,                        \
    "cuMemcpyHtoD_v2", "cuMemcpyHtoD")                                                                      \
  X(memcpy_dtoh,       CUresult, (void*, CUdeviceptr, size_t),     Need::required,                          \
    "cuMemcpyDtoH_v2", "cuMemcpyDtoH")                                                                      \
  /* CUDA 2.1 */                                                                                            \
  X(module_load_data,  CUresult, (CUmodule*, const void*, unsigned, CUjit_option*, void**), Need::required, \
    "cuModuleLoadDataEx")                                                                                   \
  X(module_function,   CUresult, (CUfunction*, CUmodule, const char*), Need::required, "cuModuleGetFunction") \
  X(module_unload,     CUresult, (CUmodule),                       Need::optional, "cuModuleUnload")        \
  /* CUDA 4.0 */                                                                                            \
  X(launch_kernel,     CUresult, (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,   \
                                  unsigned, CUstream, void**, void**), Need::required, "cuLaunchKernel")    \
  X(stream_create,     CUresult, (CUstream*, unsigned),            Need::required, "cuStreamCreate")        \
  X(stream_synchronize, CUresult, (CUstream),                      Need::required, "cuStreamSynchronize")   \
  /* CUDA 4.0: peer access */                                                                               \
  X(can_access_peer,   CUresult, (int*, CUdevice, CUdevice),       Need::optional, "cuDeviceCanAccessPeer") \
  X(enable_peer,       CUresult, (CUcontext, unsigned),            Need::optional, "cuCtxEnablePeerAccess") \
  X(memcpy_peer,       CUresult, (CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, size_t), Need::optional, \
    "cuMemcpyPeer")                                                                                         \
  /* CUDA 2.0: bench's timing (events) and pinned host memory; _v2 of ElapsedTime in CUDA 12.8 */           \
  X(event_create,      CUresult, (CUevent*, unsigned),             Need::optional, "cuEventCreate")         \
  X(event_record,      CUresult, (CUevent, CUstream),              Need::optional, "cuEventRecord")         \
  X(event_synchronize, CUresult, (CUevent),                        Need::optional, "cuEventSynchronize")    \
  X(event_elapsed,     CUresult, (float*, CUevent, CUevent),       Need::optional,                          \
    "cuEventElapsedTime_v2", "cuEventElapsedTime")                                                          \
  X(mem_alloc_host,    CUresult, (void**, size_t),                 Need::optional,                          \
    "cuMemAllocHost_v2", "cuMemAllocHost")                                                                  \
  X(mem_free_host,     CUresult, (void*),                          Need::optional, "cuMemFreeHost")    \
  /* CUDA 2.0, _v2 in 3.2: bench sizes its figures to the free memory */                                    \
  X(mem_get_info,      CUresult, (size_t*, size_t*),               Need::optional,                          \
    "cuMemGetInfo_v2", "cuMemGetInfo")
// clang-format on

struct CudaComputeApi : VendorLibrary {
  GPUDOCTOR_CUDA_COMPUTE_ENTRY_POINTS(GPUDOCTOR_DECLARE_ENTRY_POINT)
};

/// Opens the library (names as default_cuda_driver_names) and binds the table.
Result<CudaComputeApi> load_cuda_compute(const std::vector<std::string>& names);

/// The PCI bus id (gpu_topology.hpp's normalize_bus_id form, "0000:3b:00") of CUDA device
/// `ordinal`; "" when the driver does not say. bench matches NVML's GPUs with it, verify names
/// the board with it (CUDA's ordinal is not nvidia-smi's index).
std::string cuda_bus_id(const CudaComputeApi& cuda, int ordinal);

}  // namespace gpudoctor::gpu
