#pragma once
/// NCCL (libnccl.so.2) and NVRTC (libnvrtc.so.N), declared by hand: the calls verify makes.
/// Values follow NVIDIA's nccl.h and nvrtc.h.
#include <cstddef>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "gpu/entry_points.hpp"
#include "platform/dynamic_library.hpp"

namespace gpudoctor::gpu {

using ncclResult_t = int;
using ncclComm_t = struct ncclComm*;
inline constexpr ncclResult_t kNcclSuccess = 0;
inline constexpr int kNcclFloat32 = 7;
inline constexpr int kNcclSum = 0;
/// NCCL_UNIQUE_ID_BYTES: what ncclGetUniqueId makes on one rank and every rank passes to
/// ncclCommInitRank (sent between nodes by MPI, as nccl-tests does).
inline constexpr size_t kNcclUniqueIdBytes = 128;
struct ncclUniqueId {
  char internal[kNcclUniqueIdBytes];
};

// clang-format off
#define GPUDOCTOR_NCCL_ENTRY_POINTS(X)                                                                 \
  /* NCCL 2.0 */                                                                                       \
  X(get_version,   ncclResult_t, (int*),                        Need::required, "ncclGetVersion")      \
  X(error_string,  const char*, (ncclResult_t),                 Need::optional, "ncclGetErrorString")  \
  X(comm_init_all, ncclResult_t, (ncclComm_t*, int, const int*), Need::required, "ncclCommInitAll")    \
  X(group_start,   ncclResult_t, (),                            Need::required, "ncclGroupStart")      \
  X(group_end,     ncclResult_t, (),                            Need::required, "ncclGroupEnd")        \
  X(all_reduce,    ncclResult_t, (const void*, void*, size_t, int, int, ncclComm_t, void*),            \
    Need::required, "ncclAllReduce")                                                                   \
  /* across processes (fleet --nccl); optional so that verify still loads a library without them */  \
  X(get_unique_id, ncclResult_t, (ncclUniqueId*),               Need::optional, "ncclGetUniqueId")     \
  X(comm_init_rank, ncclResult_t, (ncclComm_t*, int, ncclUniqueId, int),                               \
    Need::optional, "ncclCommInitRank")
// clang-format on

struct NcclApi : VendorLibrary {
  GPUDOCTOR_NCCL_ENTRY_POINTS(GPUDOCTOR_DECLARE_ENTRY_POINT)
};

using nvrtcResult = int;

// clang-format off
#define GPUDOCTOR_NVRTC_ENTRY_POINTS(X)                                                         \
  /* CUDA 7.0 */                                                                                \
  X(version,       nvrtcResult, (int*, int*),                  Need::required, "nvrtcVersion")  \
  X(error_string,  const char*, (nvrtcResult),                 Need::optional, "nvrtcGetErrorString")
// clang-format on

struct NvrtcApi : VendorLibrary {
  GPUDOCTOR_NVRTC_ENTRY_POINTS(GPUDOCTOR_DECLARE_ENTRY_POINT)
};

Result<NcclApi> load_nccl(const std::vector<std::string>& names);
Result<NvrtcApi> load_nvrtc(const std::vector<std::string>& names);

/// ncclGetErrorString's words when the library has it, else the ncclResult_t name.
std::string nccl_result_text(const NcclApi& api, ncclResult_t result);

}  // namespace gpudoctor::gpu
