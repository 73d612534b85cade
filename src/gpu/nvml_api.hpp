#pragma once
/// NVML (libnvidia-ml.so.1 / nvml.dll), declared by hand: only the types and entry points the
/// doctor uses, so gpudoctor builds with no CUDA SDK and no driver installed. Layouts follow
/// NVIDIA's nvml.h.
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "gpu/entry_points.hpp"
#include "platform/dynamic_library.hpp"

namespace gpudoctor::gpu {

using nvmlReturn_t = int;  ///< an enum in nvml.h; int keeps unknown future codes representable
using nvmlDevice_t = struct nvmlDevice_st*;
using nvmlEnableState_t = int;  ///< 0 disabled, 1 enabled

inline constexpr nvmlReturn_t kNvmlSuccess = 0;
inline constexpr nvmlReturn_t kNvmlErrorNotSupported = 3;
/// NVML API reference, nvmlReturn_t: GPU_IS_LOST "The GPU has fallen off the bus or has
/// otherwise become inaccessible"; RESET_REQUIRED "The GPU requires a reset before it can be
/// used again".
inline constexpr nvmlReturn_t kNvmlErrorGpuIsLost = 15;
inline constexpr nvmlReturn_t kNvmlErrorResetRequired = 16;

/// The call says the GPU itself is gone (not that one reading is missing).
constexpr bool nvml_gpu_gone(nvmlReturn_t rc) {
  return rc == kNvmlErrorGpuIsLost || rc == kNvmlErrorResetRequired;
}

struct nvmlMemory_t {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

/// Versioned struct: the caller sets `version` to kNvmlMemoryV2Version.
struct nvmlMemory_v2_t {
  unsigned int version;
  unsigned long long total;
  unsigned long long reserved;
  unsigned long long free;
  unsigned long long used;
};
/// NVML_STRUCT_VERSION(Memory, 2): sizeof | version << 24.
inline constexpr unsigned int kNvmlMemoryV2Version = static_cast<unsigned int>(sizeof(nvmlMemory_v2_t)) | (2U << 24U);

struct nvmlPciInfo_t {
  char busIdLegacy[16];  ///< the only bus id the pre-v3 calls fill
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;  ///< device id << 16 | vendor id
  unsigned int pciSubSystemId;
  char busId[32];  ///< "00000000:18:00.0", filled by nvmlDeviceGetPciInfo_v3
};

/// NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE, NVML_DEVICE_NAME_V2_BUFFER_SIZE,
/// NVML_DEVICE_UUID_V2_BUFFER_SIZE.
inline constexpr unsigned int kNvmlDriverVersionBufferSize = 80;
inline constexpr unsigned int kNvmlDeviceNameBufferSize = 96;
inline constexpr unsigned int kNvmlDeviceUuidBufferSize = 96;

/// nvmlDeviceGetUtilizationRates: percent of the last sample period.
struct nvmlUtilization_t {
  unsigned int gpu;
  unsigned int memory;
};

/// nvmlProcessInfo_t as the _v2 and _v3 process queries fill it (the v1 struct lacks the
/// instance ids, so the v1 symbol is not bound to the same slot).
struct nvmlProcessInfo_t {
  unsigned int pid;
  unsigned long long usedGpuMemory;  ///< kNvmlValueNotAvailable when the driver cannot say
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
};
inline constexpr unsigned long long kNvmlValueNotAvailable = ~0ULL;
inline constexpr nvmlReturn_t kNvmlErrorInsufficientSize = 7;

/// Enum values from nvml.h.
inline constexpr int kNvmlTemperatureGpu = 0;          ///< NVML_TEMPERATURE_GPU
inline constexpr int kNvmlClockSm = 1;                 ///< NVML_CLOCK_SM
inline constexpr int kNvmlClockMem = 2;                ///< NVML_CLOCK_MEM
inline constexpr int kNvmlPcieTxBytes = 0;             ///< NVML_PCIE_UTIL_TX_BYTES
inline constexpr int kNvmlPcieRxBytes = 1;             ///< NVML_PCIE_UTIL_RX_BYTES
inline constexpr int kNvmlMemoryErrorUncorrected = 1;  ///< NVML_MEMORY_ERROR_TYPE_UNCORRECTED
inline constexpr int kNvmlVolatileEcc = 0;
/// NVML_PAGE_RETIREMENT_CAUSE_MULTIPLE_SINGLE_BIT_ECC_ERRORS, _DOUBLE_BIT_ECC_ERROR.
inline constexpr int kNvmlRetiredSingleBit = 0;
inline constexpr int kNvmlRetiredDoubleBit = 1;      ///< NVML_VOLATILE_ECC
inline constexpr int kNvmlP2pCapsIndexRead = 0;      ///< NVML_P2P_CAPS_INDEX_READ
inline constexpr unsigned kNvmlNvlinkMaxLinks = 18;  ///< NVML_NVLINK_MAX_LINKS (nvml.h, NVML 12)

// clang-format off
/// Every NVML entry point the doctor calls. Newest symbol first; the comment names the NVML
/// release (driver branch) that added the newer name. Versions are from NVIDIA's nvml.h
/// history as far as it is recorded; the *_v2 init/count/handle trio came with R319.
#define GPUDOCTOR_NVML_ENTRY_POINTS(X)                                                          \
  /* _v2: NVML 5.319 (R319); nvmlInit: NVML 1 */                                                \
  X(init,                   nvmlReturn_t, (),                       Need::required,             \
    "nvmlInit_v2", "nvmlInit")                                                                  \
  X(error_string,           const char*,  (nvmlReturn_t),           Need::optional,             \
    "nvmlErrorString")                                                                          \
  X(system_driver_version,  nvmlReturn_t, (char*, unsigned int),    Need::optional,             \
    "nvmlSystemGetDriverVersion")                                                               \
  /* _v2: NVML 10.418 (R418) reads libcuda; v1 (R410) may return a built-in guess instead */    \
  X(system_cuda_driver_version, nvmlReturn_t, (int*),               Need::optional,             \
    "nvmlSystemGetCudaDriverVersion_v2", "nvmlSystemGetCudaDriverVersion")                      \
  /* _v2: NVML 5.319 (R319), counts devices the process may not access too */                   \
  X(device_count,           nvmlReturn_t, (unsigned int*),          Need::required,             \
    "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount")                                              \
  /* _v2: NVML 5.319 (R319) */                                                                  \
  X(device_handle_by_index, nvmlReturn_t, (unsigned int, nvmlDevice_t*), Need::required,        \
    "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex")                              \
  X(device_name,            nvmlReturn_t, (nvmlDevice_t, char*, unsigned int), Need::optional,  \
    "nvmlDeviceGetName")                                                                        \
  X(device_uuid,            nvmlReturn_t, (nvmlDevice_t, char*, unsigned int), Need::optional,  \
    "nvmlDeviceGetUUID")                                                                        \
  /* NVML 10 (R410) */                                                                          \
  X(device_compute_capability, nvmlReturn_t, (nvmlDevice_t, int*, int*), Need::optional,        \
    "nvmlDeviceGetCudaComputeCapability")                                                       \
  /* NVML 11.510 (R510): v2 struct with `reserved`; a separate slot, the struct differs */      \
  X(device_memory_info_v2,  nvmlReturn_t, (nvmlDevice_t, nvmlMemory_v2_t*), Need::optional,     \
    "nvmlDeviceGetMemoryInfo_v2")                                                               \
  X(device_memory_info,     nvmlReturn_t, (nvmlDevice_t, nvmlMemory_t*), Need::optional,        \
    "nvmlDeviceGetMemoryInfo")                                                                  \
  /* _v3: NVML 9 (R384+), 32-byte busId; _v2: NVML 5.319 fills busIdLegacy only */              \
  X(device_pci_info,        nvmlReturn_t, (nvmlDevice_t, nvmlPciInfo_t*), Need::optional,       \
    "nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetPciInfo_v2", "nvmlDeviceGetPciInfo")               \
  X(device_persistence_mode, nvmlReturn_t, (nvmlDevice_t, nvmlEnableState_t*), Need::optional,  \
    "nvmlDeviceGetPersistenceMode")                                                              \
  /* The live readings of `watch` and `serve` (monitor/sampler.hpp). */                         \
  X(device_utilization,     nvmlReturn_t, (nvmlDevice_t, nvmlUtilization_t*), Need::optional,   \
    "nvmlDeviceGetUtilizationRates")                                                            \
  X(device_temperature,     nvmlReturn_t, (nvmlDevice_t, int, unsigned int*), Need::optional,   \
    "nvmlDeviceGetTemperature")                                                                 \
  X(device_power_usage,     nvmlReturn_t, (nvmlDevice_t, unsigned int*), Need::optional,        \
    "nvmlDeviceGetPowerUsage")                                                                  \
  X(device_power_limit,     nvmlReturn_t, (nvmlDevice_t, unsigned int*), Need::optional,        \
    "nvmlDeviceGetEnforcedPowerLimit")                                                          \
  X(device_clock,           nvmlReturn_t, (nvmlDevice_t, int, unsigned int*), Need::optional,   \
    "nvmlDeviceGetClockInfo")                                                                   \
  /* ClocksEventReasons: the R535 name of ClocksThrottleReasons, same mask */                   \
  X(device_throttle_reasons, nvmlReturn_t, (nvmlDevice_t, unsigned long long*), Need::optional, \
    "nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons")      \
  X(device_pcie_throughput, nvmlReturn_t, (nvmlDevice_t, int, unsigned int*), Need::optional,   \
    "nvmlDeviceGetPcieThroughput")                                                              \
  X(device_ecc_errors,      nvmlReturn_t, (nvmlDevice_t, int, int, unsigned long long*),        \
    Need::optional, "nvmlDeviceGetTotalEccErrors")                                              \
  X(device_remapped_rows,   nvmlReturn_t,                                                       \
    (nvmlDevice_t, unsigned int*, unsigned int*, unsigned int*, unsigned int*), Need::optional, \
    "nvmlDeviceGetRemappedRows")                                                                \
  /* page retirement (pre-Ampere ECC cards; Ampere and later remap rows instead) */              \
  X(device_retired_pages,   nvmlReturn_t, (nvmlDevice_t, int, unsigned int*, unsigned long long*), \
    Need::optional, "nvmlDeviceGetRetiredPages")                                                \
  /* _v3 and _v2 share nvmlProcessInfo_t (with instance ids); v1 has a shorter struct */        \
  X(device_compute_processes, nvmlReturn_t, (nvmlDevice_t, unsigned int*, nvmlProcessInfo_t*),  \
    Need::optional, "nvmlDeviceGetComputeRunningProcesses_v3",                                  \
    "nvmlDeviceGetComputeRunningProcesses_v2")                                                 \
  /* bench's topology matrix (nvidia-smi topo -m): NVML 4.304 (R304) / Pascal NVLink calls */  \
  X(device_common_ancestor, nvmlReturn_t, (nvmlDevice_t, nvmlDevice_t, int*), Need::optional,   \
    "nvmlDeviceGetTopologyCommonAncestor")                                                      \
  X(device_p2p_status,      nvmlReturn_t, (nvmlDevice_t, nvmlDevice_t, int, int*), Need::optional, \
    "nvmlDeviceGetP2PStatus")                                                                   \
  X(device_nvlink_state,    nvmlReturn_t, (nvmlDevice_t, unsigned int, nvmlEnableState_t*),     \
    Need::optional, "nvmlDeviceGetNvLinkState")                                                 \
  X(device_nvlink_version,  nvmlReturn_t, (nvmlDevice_t, unsigned int, unsigned int*),          \
    Need::optional, "nvmlDeviceGetNvLinkVersion")                                               \
  /* _v2 fills the 32-byte busId (nvml.h maps the plain name to it) */                          \
  X(device_nvlink_remote_pci, nvmlReturn_t, (nvmlDevice_t, unsigned int, nvmlPciInfo_t*),       \
    Need::optional, "nvmlDeviceGetNvLinkRemotePciInfo_v2")                                      \
  X(device_max_pcie_gen,    nvmlReturn_t, (nvmlDevice_t, unsigned int*), Need::optional,        \
    "nvmlDeviceGetMaxPcieLinkGeneration")                                                       \
  X(device_max_pcie_width,  nvmlReturn_t, (nvmlDevice_t, unsigned int*), Need::optional,        \
    "nvmlDeviceGetMaxPcieLinkWidth")
// clang-format on

/// The loaded library and its function table. Move-only: it owns the library handle.
struct NvmlApi : VendorLibrary {
  GPUDOCTOR_NVML_ENTRY_POINTS(GPUDOCTOR_DECLARE_ENTRY_POINT)
};

/// Library names tried in order on this host OS: the SONAME before the development link.
std::vector<std::string> default_nvml_names();

/// Opens the library and binds the table. Errors: not_found / load_failed from the loader,
/// symbol_missing (message names every absent required entry point).
Result<NvmlApi> load_nvml(const std::vector<std::string>& names);

/// "NVML_ERROR_DRIVER_NOT_LOADED" for 9; "NVML_ERROR_<code>" for codes this build does not know.
std::string nvml_error_name(nvmlReturn_t code);

}  // namespace gpudoctor::gpu
