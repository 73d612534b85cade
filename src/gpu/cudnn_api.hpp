#pragma once
/// cuDNN (libcudnn.so.8 / .9), declared by hand: the legacy convolution API verify runs, which
/// both majors export from libcudnn.so.N (a thin front that loads the sub-libraries), and the
/// sub-libraries themselves, which differ between the majors: 8 splits into
/// ops/cnn/adv x infer/train, 9 into graph, ops, cnn, adv and the engine libraries. Values
/// follow NVIDIA's cudnn.h.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "gpu/entry_points.hpp"
#include "platform/dynamic_library.hpp"

namespace gpudoctor::gpu {

using cudnnStatus_t = int;
using cudnnHandle_t = struct cudnnContext*;
using CudnnDescriptor = void*;  ///< every cudnn*Descriptor_t is an opaque pointer
inline constexpr cudnnStatus_t kCudnnSuccess = 0;
inline constexpr int kCudnnTensorNchw = 0;
inline constexpr int kCudnnTensorNhwc = 1;
inline constexpr int kCudnnDataFloat = 0;
inline constexpr int kCudnnCrossCorrelation = 1;
inline constexpr int kCudnnFmaMath = 3;  ///< CUDNN_FMA_MATH (8.0+): no TF32, plain FP32 FMA
inline constexpr int kCudnnFwdAlgoImplicitGemm = 0;
inline constexpr int kCudnnBwdDataAlgo1 = 1;
inline constexpr cudnnStatus_t kCudnnStatusNotSupported9 = 3000;  ///< CUDNN_STATUS_NOT_SUPPORTED in 9
inline constexpr cudnnStatus_t kCudnnStatusNotSupported8 = 9;     ///< and in 7 and 8

/// cudnnConvolutionFwdAlgoPerf_t (cudnn.h 7 to 9; the layout has not changed): one ranked
/// candidate of cudnnGetConvolutionForwardAlgorithm_v7.
struct CudnnFwdAlgoPerf {
  int algo = 0;
  cudnnStatus_t status = 0;
  float time = 0;
  size_t memory = 0;
  int determinism = 0;
  int math_type = 0;
  int reserved[3] = {};
};

// clang-format off
#define GPUDOCTOR_CUDNN_ENTRY_POINTS(X)                                                                   \
  X(get_version,        size_t, (),                                Need::required, "cudnnGetVersion")     \
  X(error_string,       const char*, (cudnnStatus_t),              Need::optional, "cudnnGetErrorString") \
  X(create,             cudnnStatus_t, (cudnnHandle_t*),           Need::required, "cudnnCreate")         \
  X(create_tensor,      cudnnStatus_t, (CudnnDescriptor*),         Need::required,                        \
    "cudnnCreateTensorDescriptor")                                                                        \
  X(set_tensor_4d,      cudnnStatus_t, (CudnnDescriptor, int, int, int, int, int, int), Need::required,   \
    "cudnnSetTensor4dDescriptor")                                                                         \
  X(create_filter,      cudnnStatus_t, (CudnnDescriptor*),         Need::required,                        \
    "cudnnCreateFilterDescriptor")                                                                        \
  X(set_filter_4d,      cudnnStatus_t, (CudnnDescriptor, int, int, int, int, int, int), Need::required,   \
    "cudnnSetFilter4dDescriptor")                                                                         \
  X(create_conv,        cudnnStatus_t, (CudnnDescriptor*),         Need::required,                        \
    "cudnnCreateConvolutionDescriptor")                                                                   \
  /* cuDNN 6: the computeType argument */                                                                 \
  X(set_conv_2d,        cudnnStatus_t, (CudnnDescriptor, int, int, int, int, int, int, int, int),         \
    Need::required, "cudnnSetConvolution2dDescriptor")                                                    \
  /* cuDNN 7 */                                                                                           \
  X(set_conv_math,      cudnnStatus_t, (CudnnDescriptor, int),     Need::optional,                        \
    "cudnnSetConvolutionMathType")                                                                        \
  /* cuDNN 7: the heuristic's ranked forward algorithms for these descriptors */                         \
  X(fwd_algorithms,     cudnnStatus_t, (cudnnHandle_t, CudnnDescriptor, CudnnDescriptor, CudnnDescriptor, \
                                        CudnnDescriptor, int, int*, CudnnFwdAlgoPerf*), Need::optional,   \
    "cudnnGetConvolutionForwardAlgorithm_v7")                                                             \
  X(fwd_workspace,      cudnnStatus_t, (cudnnHandle_t, CudnnDescriptor, CudnnDescriptor, CudnnDescriptor, \
                                        CudnnDescriptor, int, size_t*), Need::required,                   \
    "cudnnGetConvolutionForwardWorkspaceSize")                                                            \
  X(conv_forward,       cudnnStatus_t, (cudnnHandle_t, const void*, CudnnDescriptor, const void*,         \
                                        CudnnDescriptor, const void*, CudnnDescriptor, int, void*, size_t,\
                                        const void*, CudnnDescriptor, void*), Need::required,             \
    "cudnnConvolutionForward")                                                                            \
  X(bwd_data_workspace, cudnnStatus_t, (cudnnHandle_t, CudnnDescriptor, CudnnDescriptor, CudnnDescriptor, \
                                        CudnnDescriptor, int, size_t*), Need::required,                   \
    "cudnnGetConvolutionBackwardDataWorkspaceSize")                                                       \
  X(conv_backward_data, cudnnStatus_t, (cudnnHandle_t, const void*, CudnnDescriptor, const void*,         \
                                        CudnnDescriptor, const void*, CudnnDescriptor, int, void*, size_t,\
                                        const void*, CudnnDescriptor, void*), Need::required,             \
    "cudnnConvolutionBackwardData")
// clang-format on

struct CudnnApi : VendorLibrary {
  GPUDOCTOR_CUDNN_ENTRY_POINTS(GPUDOCTOR_DECLARE_ENTRY_POINT)
};

Result<CudnnApi> load_cudnn(const std::vector<std::string>& names);

/// One sub-library of a cuDNN major and the entry points the front library reaches through it
/// (checked to be exported; empty for the engine libraries, which export none by name).
struct CudnnSubLibrary {
  const char* name;    ///< "cudnn_cnn_infer"
  const char* soname;  ///< "libcudnn_cnn_infer.so.8"
  std::span<const char* const> symbols;
};

/// The sub-libraries of cuDNN `major` (8 or 9); empty for any other.
std::span<const CudnnSubLibrary> cudnn_sub_libraries(int major);

/// cudnnGetErrorString's words when the library has it, else the status name from cudnn.h.
std::string cudnn_status_text(const CudnnApi& api, cudnnStatus_t status);

}  // namespace gpudoctor::gpu
