#include "check/onnxruntime_fix.hpp"

#include "core/version.hpp"

namespace gpudoctor {

std::string onnxruntime_libraries_fix(const FrameworkFacts& fw, Platform platform, const std::string& pip) {
  const bool windows = platform == Platform::windows;
  const std::string major = fw.cuda_version ? std::to_string(fw.cuda_version->major()) : std::string("12");
  const std::string cudnn = fw.cudnn_version ? std::to_string(fw.cudnn_version->major()) : std::string("9");
  const std::string where = windows ? "put their bin folders on PATH" : "put their lib directories on LD_LIBRARY_PATH";
  const std::string toolkit = "install CUDA " + major + ".x and cuDNN " + cudnn + ".x and " + where + ".";
  if (onnxruntime_has_preload(fw)) {
    return pip + " install \"onnxruntime-gpu[cuda,cudnn]==" + fw.version.str() +
           "\" and call onnxruntime.preload_dlls() before creating the session (or `import torch` first, with a "
           "torch built for CUDA " +
           major + "), or " + toolkit;
  }
  const std::string wheels = "nvidia-cuda-runtime-cu" + major + " nvidia-cublas-cu" + major + " nvidia-cufft-cu" +
                             major + " nvidia-curand-cu" + major + " \"nvidia-cudnn-cu" + major + "==" + cudnn + ".*\"";
  return "onnxruntime-gpu " + fw.version.str() +
         " has neither the [cuda,cudnn] extras nor onnxruntime.preload_dlls() (both came in 1.21): " + pip +
         " install " + wheels + " and " +
         (windows ? "add their site-packages\\nvidia\\*\\bin folders to PATH"
                  : "put their site-packages/nvidia/*/lib directories on LD_LIBRARY_PATH") +
         " (or `import torch`, built for CUDA " + major + ", before creating the session); or " + toolkit +
         " Or upgrade to a release of 1.21 or later built for CUDA " + major +
         " (the requirements table names each release's CUDA), with the [cuda,cudnn] extras and "
         "onnxruntime.preload_dlls().";
}

}  // namespace gpudoctor
