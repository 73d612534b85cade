// ONNX Runtime GPU (onnxruntime-gpu) failing to load its CUDA / TensorRT execution providers.
// The lines are ONNX Runtime's own wording, read where it is printed (posix and windows env.cc
// LoadDynamicLibrary, windows/dll_load_error.cc, onnxruntime_pybind_state.cc, and
// onnxruntime_inference_collection.py of the onnxruntime-gpu 1.22.0 wheel); the log prefixes
// are those of real reports (microsoft/onnxruntime#22491, ragflow#905, LatentSync#225).
#include <gtest/gtest.h>

#include <string>

#include "core/text.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::builtin_matcher;
using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

ExplainReport explain_on(std::string_view text, Platform p) {
  return explain_text(builtin_matcher(), text, ExplainMachine{p});
}

TEST(ExplainOnnxRuntime, LinuxProviderLibraryWithAMissingCudaLibraryIsTheCudaProvider) {
  const auto r = explain_on(
      "2025-12-09 12:05:49.102368205 [E:onnxruntime:Default, provider_bridge_ort.cc:2251 TryGetProviderInfo_CUDA] "
      "/onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1844 onnxruntime::Provider& "
      "onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library "
      "libonnxruntime_providers_cuda.so with error: libcublasLt.so.12: cannot open shared object file: No such "
      "file or directory\n",
      Platform::linux);
  ASSERT_TRUE(leads_with(r, "onnxruntime-cuda-provider-not-loaded"));
  EXPECT_EQ(r.matches.front().category, "cuda-lib-missing");
  EXPECT_NE(r.matches.front().cause.find("libcublasLt.so.12"), std::string::npos);
  EXPECT_NE(r.matches.front().fix.find("preload_dlls"), std::string::npos);
  // A Linux line gets no Windows advice.
  EXPECT_EQ(r.matches.front().fix.find("vc_redist"), std::string::npos);
}

TEST(ExplainOnnxRuntime, TheFailedToCreateWarningNamesTheRequiredMajors) {
  const auto r = explain_on(
      "[W:onnxruntime:Default, onnxruntime_pybind_state.cc:1013 CreateExecutionProviderFactoryInstance] Failed "
      "to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*. Please install all dependencies as "
      "mentioned in the GPU requirements page "
      "(https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements), make sure "
      "they're in the PATH, and that your GPU is supported.\n",
      Platform::linux);
  ASSERT_TRUE(leads_with(r, "onnxruntime-cuda-provider-not-loaded"));
  EXPECT_NE(r.matches.front().cause.find("cuDNN 9 and CUDA 12"), std::string::npos) << r.matches.front().cause;
}

// With the CUDA_PATH variable set, CreateExecutionProviderInstance (onnxruntime_pybind_state.cc)
// throws instead of warning; releases spell it "wasn't" or "wasnt".
TEST(ExplainOnnxRuntime, TheCudaPathIsSetErrorIsTheSameProviderFailure) {
  for (const char* line :
       {"RuntimeError: D:\\a\\_work\\1\\s\\onnxruntime\\python\\onnxruntime_pybind_state.cc:574 "
        "onnxruntime::python::CreateExecutionProviderInstance CUDA_PATH is set but CUDA wasn't able to be loaded. "
        "Please install the correct version of CUDA and cuDNN as mentioned in the GPU requirements page\n",
        "onnxruntime::python::CreateExecutionProviderInstance CUDA_PATH is set but CUDA wasnt able to be loaded. "
        "Please install the correct version of CUDA andcuDNN as mentioned in the GPU requirements page\n"}) {
    const auto r = explain_on(line, Platform::windows);
    ASSERT_TRUE(leads_with(r, "onnxruntime-cuda-provider-not-loaded")) << line;
    EXPECT_NE(r.matches.front().fix.find("preload_dlls"), std::string::npos);
  }
}

TEST(ExplainOnnxRuntime, WindowsLoadLibraryError126AndTheMissingDependency) {
  const auto r126 = explain_on(
      "2024-08-17 09:12:23.6153922 [E:onnxruntime:Default, provider_bridge_ort.cc:1992 "
      "onnxruntime::TryGetProviderInfo_CUDA] D:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:"
      "1637 onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 "
      "\"\" when trying to load \"C:\\venv\\lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll\"\n",
      Platform::windows);
  ASSERT_TRUE(leads_with(r126, "onnxruntime-cuda-provider-not-loaded"));
  EXPECT_NE(r126.matches.front().fix.find("vc_redist"), std::string::npos);

  const auto dep = explain_on(
      "[ONNXRuntimeError] : 1 : FAIL : Error loading \"C:\\venv\\Lib\\site-packages\\onnxruntime\\capi\\"
      "onnxruntime_providers_cuda.dll\" which depends on \"cudnn64_9.dll\" which depends on \"cudnn_graph64_9.dll\" "
      "which is missing. (Error 126: \"The specified module could not be found.\")\n",
      Platform::windows);
  // A cuDNN library at the end of the chain: the cuDNN answer of the same lines.
  ASSERT_TRUE(leads_with(dep, "onnxruntime-cuda-provider-cudnn-missing"));
  ASSERT_TRUE(dep.matches.front().captures.contains("lib"));
  EXPECT_EQ(dep.matches.front().captures.at("lib").front(), "cudnn_graph64_9.dll");  // the end of the chain
}

TEST(ExplainOnnxRuntime, ACpuPackageHasNoCudaProvider) {
  const auto r = explain_on(
      "/venv/lib/python3.10/site-packages/onnxruntime/capi/onnxruntime_inference_collection.py:118: UserWarning: "
      "Specified provider 'CUDAExecutionProvider' is not in available provider names.Available providers: "
      "'AzureExecutionProvider, CPUExecutionProvider'\n",
      Platform::linux);
  ASSERT_TRUE(leads_with(r, "onnxruntime-cuda-provider-not-built-in"));
  EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
  EXPECT_NE(r.matches.front().cause.find("AzureExecutionProvider, CPUExecutionProvider"), std::string::npos);
  // Another package's provider (DirectML asked of a CUDA build) is not this problem.
  const auto dml = explain_no_facts(
      "UserWarning: Specified provider 'DmlExecutionProvider' is not in available provider names.Available "
      "providers: 'TensorrtExecutionProvider, CUDAExecutionProvider, CPUExecutionProvider'\n");
  EXPECT_EQ(find_rule(dml, "onnxruntime-cuda-provider-not-built-in"), nullptr);
}

TEST(ExplainOnnxRuntime, TensorrtProviderLoadFailureIsAboutOnnxRuntimeNotTfTrt) {
  const auto r = explain_on(
      "[E:onnxruntime:Default, provider_bridge_ort.cc:1744 TryGetProviderInfo_TensorRT] "
      "/onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1426 onnxruntime::Provider& "
      "onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library "
      "libonnxruntime_providers_tensorrt.so with error: libnvinfer.so.10: cannot open shared object file: No such "
      "file or directory\n"
      "[W:onnxruntime:Default, onnxruntime_pybind_state.cc:970 CreateExecutionProviderInstance] Failed to create "
      "TensorrtExecutionProvider. Please reference "
      "https://onnxruntime.ai/docs/execution-providers/TensorRT-ExecutionProvider.html#requirements to ensure all "
      "dependencies are met.\n",
      Platform::linux);
  // Asked for and not created: a warning of its own (session 35 review), not TF-TRT's harmless note.
  const auto* m = find_rule(r, "onnxruntime-tensorrt-provider-unavailable");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->count, 2u);  // both lines, one answer
  EXPECT_NE(m->cause.find("ONNX Runtime"), std::string::npos);
  EXPECT_EQ(find_rule(r, "tensorrt-library-missing"), nullptr);
}

TEST(ExplainOnnxRuntime, TheFallbackPrintIsRecognised) {
  const auto r = explain_no_facts(
      "*************** EP Error ***************\n"
      "EP Error [ONNXRuntimeError] : 1 : FAIL : TensorRT EP failed to create engine from network. when using "
      "['TensorrtExecutionProvider', 'CUDAExecutionProvider', 'CPUExecutionProvider']\n"
      "Falling back to ['CUDAExecutionProvider', 'CPUExecutionProvider'] and retrying.\n");
  const auto* m = find_rule(r, "onnxruntime-ep-fallback");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->count, 2u);
}

// The CUDA provider library failing on a cuDNN library is cuDNN missing, not any CUDA library.
TEST(ExplainOnnxruntime, ProviderFailingOnCudnnIsCudnnMissing) {
  const auto r = explain_no_facts(
      "E:onnxruntime:Default, provider_bridge_ort.cc:1745 TryGetProviderInfo_CUDA] /onnxruntime_src/onnxruntime/core/"
      "session/provider_bridge_ort.cc:1426 onnxruntime::Provider& onnxruntime::ProviderLibrary::Get() "
      "[ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: "
      "libcudnn.so.9: cannot open shared object file: No such file or directory\n");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "cudnn-missing") << r.matches.front().rule;
  const auto cublas = explain_no_facts(
      "[ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: "
      "libcublasLt.so.12: cannot open shared object file: No such file or directory\n");
  ASSERT_TRUE(leads_with(cublas, "onnxruntime-cuda-provider-not-loaded"));
}

}  // namespace
}  // namespace gpudoctor
