#include "gpu/cudnn_api.hpp"

#include <cstring>

namespace gpudoctor::gpu {

Result<CudnnApi> load_cudnn(const std::vector<std::string>& names) {
  return load_api<CudnnApi>(
      names, [](CudnnApi& api, BindState& state) { GPUDOCTOR_CUDNN_ENTRY_POINTS(GPUDOCTOR_BIND_ENTRY_POINT) });
}

namespace {

// cuDNN 8 (Linux lib names of the 8.x tarballs and the nvidia-cudnn-cu11/cu12 8.x wheels).
constexpr const char* kOpsInfer8[] = {"cudnnCreate", "cudnnGetVersion", "cudnnCreateTensorDescriptor"};
constexpr const char* kCnnInfer8[] = {"cudnnConvolutionForward", "cudnnConvolutionBackwardData"};
constexpr const char* kCnnTrain8[] = {"cudnnConvolutionBackwardFilter"};
constexpr const char* kNone[] = {""};
// The file name of a sub-library on this host OS: libNAME.so.MAJOR, or NAME64_MAJOR.dll.
#ifdef _WIN32
#define GPUDOCTOR_CUDNN_FILE(name, major) name "64_" #major ".dll"
#else
#define GPUDOCTOR_CUDNN_FILE(name, major) "lib" name ".so." #major
#endif
constexpr CudnnSubLibrary kCudnn8[] = {
    {"cudnn_ops_infer", GPUDOCTOR_CUDNN_FILE("cudnn_ops_infer", 8), kOpsInfer8},
    {"cudnn_ops_train", GPUDOCTOR_CUDNN_FILE("cudnn_ops_train", 8), std::span(kNone, 0)},
    {"cudnn_cnn_infer", GPUDOCTOR_CUDNN_FILE("cudnn_cnn_infer", 8), kCnnInfer8},
    {"cudnn_cnn_train", GPUDOCTOR_CUDNN_FILE("cudnn_cnn_train", 8), kCnnTrain8},
    {"cudnn_adv_infer", GPUDOCTOR_CUDNN_FILE("cudnn_adv_infer", 8), std::span(kNone, 0)},
    {"cudnn_adv_train", GPUDOCTOR_CUDNN_FILE("cudnn_adv_train", 8), std::span(kNone, 0)},
};

// cuDNN 9 (nm -D of the 9.x libraries: the graph library carries the handle and the version,
// ops the tensor descriptors, cnn the legacy convolution API).
constexpr const char* kGraph9[] = {"cudnnCreate", "cudnnGetVersion", "cudnnBackendCreateDescriptor"};
constexpr const char* kOps9[] = {"cudnnCreateTensorDescriptor"};
constexpr const char* kCnn9[] = {"cudnnConvolutionForward", "cudnnConvolutionBackwardData"};
constexpr CudnnSubLibrary kCudnn9[] = {
    {"cudnn_graph", GPUDOCTOR_CUDNN_FILE("cudnn_graph", 9), kGraph9},
    {"cudnn_ops", GPUDOCTOR_CUDNN_FILE("cudnn_ops", 9), kOps9},
    {"cudnn_cnn", GPUDOCTOR_CUDNN_FILE("cudnn_cnn", 9), kCnn9},
    {"cudnn_adv", GPUDOCTOR_CUDNN_FILE("cudnn_adv", 9), std::span(kNone, 0)},
    {"cudnn_engines_precompiled", GPUDOCTOR_CUDNN_FILE("cudnn_engines_precompiled", 9), std::span(kNone, 0)},
    {"cudnn_engines_runtime_compiled", GPUDOCTOR_CUDNN_FILE("cudnn_engines_runtime_compiled", 9), std::span(kNone, 0)},
    {"cudnn_heuristic", GPUDOCTOR_CUDNN_FILE("cudnn_heuristic", 9), std::span(kNone, 0)},
};
#undef GPUDOCTOR_CUDNN_FILE

constexpr CodeName kCudnnStatusNames[] = {
    {0, "CUDNN_STATUS_SUCCESS"},
    {1, "CUDNN_STATUS_NOT_INITIALIZED"},
    {2, "CUDNN_STATUS_ALLOC_FAILED"},
    {3, "CUDNN_STATUS_BAD_PARAM"},
    {4, "CUDNN_STATUS_INTERNAL_ERROR"},
    {6, "CUDNN_STATUS_ARCH_MISMATCH"},
    {8, "CUDNN_STATUS_EXECUTION_FAILED"},
    {9, "CUDNN_STATUS_NOT_SUPPORTED"},
    {1001, "CUDNN_STATUS_NOT_INITIALIZED"},
    {2000, "CUDNN_STATUS_BAD_PARAM"},
    {3000, "CUDNN_STATUS_NOT_SUPPORTED"},
    {4000, "CUDNN_STATUS_INTERNAL_ERROR"},
    {5000, "CUDNN_STATUS_EXECUTION_FAILED"},
};

}  // namespace

std::span<const CudnnSubLibrary> cudnn_sub_libraries(int major) {
  if (major == 8) return kCudnn8;
  if (major == 9) return kCudnn9;
  return {};
}

std::string cudnn_status_text(const CudnnApi& api, cudnnStatus_t status) {
  std::string text = code_name(kCudnnStatusNames, status, "CUDNN_STATUS_");
  if (api.error_string != nullptr) {
    const char* words = api.error_string(status);
    if (words != nullptr) text = std::string(words, ::strnlen(words, 200));
  }
  return text + " (" + std::to_string(status) + ")";
}

}  // namespace gpudoctor::gpu
