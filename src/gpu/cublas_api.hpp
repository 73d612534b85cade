#pragma once
/// cuBLAS and cuBLASLt (libcublas.so.N, libcublasLt.so.N), declared by hand: only the calls
/// verify makes, so gpudoctor builds with no CUDA SDK. Values follow NVIDIA's cublas_api.h and
/// library_types.h.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "gpu/entry_points.hpp"
#include "platform/dynamic_library.hpp"

namespace gpudoctor::gpu {

using cublasStatus_t = int;
using cublasHandle_t = struct cublasContext*;
inline constexpr cublasStatus_t kCublasSuccess = 0;
inline constexpr int kCublasOpN = 0;
inline constexpr int kCudaR32F = 0;  ///< cudaDataType CUDA_R_32F
inline constexpr int kCudaR16F = 2;  ///< cudaDataType CUDA_R_16F
/// cublasComputeType_t CUBLAS_COMPUTE_32F (cuBLAS 11+); before 11 the compute type was a
/// cudaDataType, CUDA_R_32F.
inline constexpr int kCublasCompute32F = 68;
inline constexpr int kCublasGemmDefault = -1;
/// libraryPropertyType for cublasGetProperty.
inline constexpr int kMajorVersion = 0;
inline constexpr int kMinorVersion = 1;
inline constexpr int kPatchLevel = 2;

// clang-format off
#define GPUDOCTOR_CUBLAS_ENTRY_POINTS(X)                                                                   \
  /* CUDA 4.0 (the _v2 API) */                                                                             \
  X(create,        cublasStatus_t, (cublasHandle_t*),          Need::required, "cublasCreate_v2")          \
  X(destroy,       cublasStatus_t, (cublasHandle_t),           Need::optional, "cublasDestroy_v2")         \
  X(get_version,   cublasStatus_t, (cublasHandle_t, int*),     Need::required,                             \
    "cublasGetVersion_v2", "cublasGetVersion")                                                             \
  /* CUDA 8.0 */                                                                                           \
  X(get_property,  cublasStatus_t, (int, int*),                Need::optional, "cublasGetProperty")        \
  X(sgemm,         cublasStatus_t, (cublasHandle_t, int, int, int, int, int, const float*, const float*,   \
                                    int, const float*, int, const float*, float*, int), Need::required,    \
    "cublasSgemm_v2")                                                                                      \
  /* CUDA 8.0; verify's half-precision GEMM */                                                             \
  X(gemm_ex,       cublasStatus_t, (cublasHandle_t, int, int, int, int, int, const void*, const void*, int,\
                                    int, const void*, int, int, const void*, void*, int, int, int, int),   \
    Need::optional, "cublasGemmEx")                                                                        \
  /* CUDA 11.4 */                                                                                          \
  X(status_name,   const char*, (cublasStatus_t),              Need::optional, "cublasGetStatusName")
// clang-format on

struct CublasApi : VendorLibrary {
  GPUDOCTOR_CUBLAS_ENTRY_POINTS(GPUDOCTOR_DECLARE_ENTRY_POINT)
};

using cublasLtHandle_t = struct cublasLtContext*;
/// Opaque descriptors (cublasLt.h's pointers to semi-opaque structs).
using cublasLtMatmulDesc_t = struct cublasLtMatmulDescOpaque*;
using cublasLtMatrixLayout_t = struct cublasLtMatrixLayoutOpaque*;
using cublasLtMatmulPreference_t = struct cublasLtMatmulPreferenceOpaque*;
/// cublasLtMatmulAlgo_t: 8 x uint64 (cublasLt.h).
struct cublasLtMatmulAlgo_t {
  std::uint64_t data[8];
};
/// cublasLtMatmulHeuristicResult_t, laid out as in cublasLt.h (CUDA 13).
struct cublasLtMatmulHeuristicResult_t {
  cublasLtMatmulAlgo_t algo;
  size_t workspaceSize;
  cublasStatus_t state;
  float wavesCount;
  int reserved[4];
};
inline constexpr int kCublasOpT = 1;                      ///< CUBLAS_OP_T
inline constexpr int kCublasStatusNotSupported = 15;      ///< CUBLAS_STATUS_NOT_SUPPORTED
inline constexpr int kCudaR16BF = 14;                     ///< cudaDataType CUDA_R_16BF
inline constexpr int kCudaR8FE4M3 = 28;                   ///< cudaDataType CUDA_R_8F_E4M3 (CUDA 11.8)
inline constexpr int kCublasLtMatmulDescTransA = 3;       ///< CUBLASLT_MATMUL_DESC_TRANSA (int32 cublasOperation_t)
inline constexpr int kCublasLtMatmulDescTransB = 4;       ///< CUBLASLT_MATMUL_DESC_TRANSB
inline constexpr int kCublasLtPrefMaxWorkspaceBytes = 1;  ///< CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES (uint64)

// clang-format off
/// Signatures checked against CUDA 13's cublasLt.h; cublasLtMatmul's last argument is a
/// cudaStream_t (void* here).
#define GPUDOCTOR_CUBLASLT_ENTRY_POINTS(X)                                                 \
  /* CUDA 10.1 */                                                                          \
  X(get_version,   size_t, (),                    Need::required, "cublasLtGetVersion")    \
  X(create,        int, (void**),                 Need::optional, "cublasLtCreate")        \
  X(destroy,       int, (void*),                  Need::optional, "cublasLtDestroy")       \
  X(desc_create,   int, (cublasLtMatmulDesc_t*, int, int), Need::optional,                 \
    "cublasLtMatmulDescCreate")                                                            \
  X(desc_destroy,  int, (cublasLtMatmulDesc_t),   Need::optional, "cublasLtMatmulDescDestroy") \
  X(desc_set,      int, (cublasLtMatmulDesc_t, int, const void*, size_t), Need::optional,  \
    "cublasLtMatmulDescSetAttribute")                                                      \
  X(layout_create, int, (cublasLtMatrixLayout_t*, int, std::uint64_t, std::uint64_t, std::int64_t), \
    Need::optional, "cublasLtMatrixLayoutCreate")                                          \
  X(layout_destroy, int, (cublasLtMatrixLayout_t), Need::optional, "cublasLtMatrixLayoutDestroy") \
  X(pref_create,   int, (cublasLtMatmulPreference_t*), Need::optional, "cublasLtMatmulPreferenceCreate") \
  X(pref_destroy,  int, (cublasLtMatmulPreference_t), Need::optional, "cublasLtMatmulPreferenceDestroy") \
  X(pref_set,      int, (cublasLtMatmulPreference_t, int, const void*, size_t), Need::optional, \
    "cublasLtMatmulPreferenceSetAttribute")                                                \
  X(heuristic,     int, (void*, cublasLtMatmulDesc_t, cublasLtMatrixLayout_t, cublasLtMatrixLayout_t, \
                         cublasLtMatrixLayout_t, cublasLtMatrixLayout_t, cublasLtMatmulPreference_t, int, \
                         cublasLtMatmulHeuristicResult_t*, int*), Need::optional,          \
    "cublasLtMatmulAlgoGetHeuristic")                                                      \
  X(matmul,        int, (void*, cublasLtMatmulDesc_t, const void*, const void*, cublasLtMatrixLayout_t, \
                         const void*, cublasLtMatrixLayout_t, const void*, const void*,    \
                         cublasLtMatrixLayout_t, void*, cublasLtMatrixLayout_t,            \
                         const cublasLtMatmulAlgo_t*, void*, size_t, void*), Need::optional, \
    "cublasLtMatmul")
// clang-format on

struct CublasLtApi : VendorLibrary {
  GPUDOCTOR_CUBLASLT_ENTRY_POINTS(GPUDOCTOR_DECLARE_ENTRY_POINT)
};

Result<CublasApi> load_cublas(const std::vector<std::string>& names);
Result<CublasLtApi> load_cublaslt(const std::vector<std::string>& names);

/// "CUBLAS_STATUS_NOT_INITIALIZED" for 1, from cublas_api.h; "CUBLAS_STATUS_<n>" otherwise.
std::string cublas_status_name(cublasStatus_t status);

}  // namespace gpudoctor::gpu
