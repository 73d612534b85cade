// One failure, one answer with the log's own versions (leftovers of the session 35 review of add-on
// libraries, /tmp/rev35x logs 25, 26, 41, 50, 61): a missing library that two lines name (a chained
// exception's inner OSError, ONNX Runtime's summary warning) was answered two or three times, the
// library's own loader (CTranslate2, llama-cpp-python) got the generic answer with TensorFlow's and
// PyTorch's commands, and fixes gave a fixed CUDA tag where the log names another. Each test was seen
// failing on the rules before the fix.
#include <gtest/gtest.h>

#include <string>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_on;
using testing::find_rule;
using testing::leads_with;
using testing::problem_count;

bool says(const std::string& text, std::string_view words) {
  return text.find(words) != std::string::npos;
}

// I4 (log 41): onnxruntime-gpu 1.20 logs the provider library's dlopen failure, then warns "Failed to
// create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*": one missing libcudnn.so.9.
TEST(ExplainOneFailure, OnnxRuntimesMissingCudnnIsOneProblem) {
  const auto r = explain_on(
      Platform::linux,
      "2024-12-04 08:01:19.554210 [E:onnxruntime:Default, provider_bridge_ort.cc:1862 TryGetProviderInfo_CUDA] "
      "/onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1539 onnxruntime::Provider& "
      "onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library "
      "libonnxruntime_providers_cuda.so with error: libcudnn.so.9: cannot open shared object file: No such file or "
      "directory\n"
      "\n"
      "2024-12-04 08:01:19.554262 [W:onnxruntime:Default, onnxruntime_pybind_state.cc:993 "
      "CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*. "
      "Please install all dependencies as mentioned in the GPU requirements page "
      "(https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements), make sure "
      "they're in the PATH, and that your GPU is supported.\n");
  ASSERT_TRUE(leads_with(r, "onnxruntime-cuda-provider-cudnn-missing"));
  EXPECT_EQ(problem_count(r), 1U);
  EXPECT_EQ(find_rule(r, "onnxruntime-cuda-provider-not-loaded"), nullptr);
  EXPECT_EQ(find_rule(r, "cudnn-library-missing"), nullptr);

  // Another library the provider could not load, alone, keeps its own answer.
  const auto cublas = explain_on(
      Platform::linux,
      "[ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: "
      "libcublasLt.so.12: cannot open shared object file: No such file or directory\n"
      "Failed to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*. Please install all dependencies\n");
  ASSERT_TRUE(leads_with(cublas, "onnxruntime-cuda-provider-not-loaded"));
  EXPECT_EQ(problem_count(cublas), 1U);
}

// I5 (log 50): CTranslate2 loads cuBLAS itself (src/cuda/cublas_stub.cc: "Library " name " is not
// found or cannot be loaded", libctranslate2 4.5.0's strings); faster-whisper's fix is not TensorFlow's.
TEST(ExplainOneFailure, CTranslate2sMissingCublasGetsCTranslate2sFix) {
  const auto r = explain_on(
      Platform::linux,
      "Successfully installed av-13.1.0 ctranslate2-4.5.0 faster-whisper-1.1.0 onnxruntime-1.20.1\n"
      "Traceback (most recent call last):\n"
      "  File \"/home/r/whisper/venv/lib/python3.10/site-packages/faster_whisper/transcribe.py\", line 1163, in "
      "encode\n"
      "    return self.model.encode(features, to_cpu=to_cpu)\n"
      "RuntimeError: Library libcublas.so.12 is not found or cannot be loaded\n");
  ASSERT_TRUE(leads_with(r, "ctranslate2-cuda-library-missing"));
  EXPECT_EQ(problem_count(r), 1U);
  const ExplainMatch& m = r.matches.front();
  EXPECT_FALSE(says(m.fix, "tensorflow")) << m.fix;
  EXPECT_TRUE(says(m.fix, "nvidia-cublas-cu12")) << m.fix;
  EXPECT_TRUE(says(m.fix, "LD_LIBRARY_PATH")) << m.fix;
  EXPECT_TRUE(says(m.fix, "ctranslate2==3.24.0")) << m.fix;  // CUDA 11 and cuDNN 8
  EXPECT_TRUE(says(m.cause, "CUDA 12")) << m.cause;

  const auto win =
      explain_on(Platform::windows, "RuntimeError: Library cublas64_12.dll is not found or cannot be loaded\n");
  ASSERT_TRUE(leads_with(win, "ctranslate2-cuda-library-missing"));
  EXPECT_TRUE(says(win.matches.front().fix, "PATH")) << win.matches.front().fix;
  EXPECT_FALSE(says(win.matches.front().fix, "LD_LIBRARY_PATH")) << win.matches.front().fix;
}

// I3 (log 61): llama-cpp-python's prebuilt CUDA wheel (abetlen's cu124 index) loads libllama.so, which
// needs the CUDA 12 runtime the wheel does not bring (llama_cpp/_ctypes_extensions.py:69 wraps the
// OSError). One failure, named on the inner OSError and on the RuntimeError.
TEST(ExplainOneFailure, LlamaCppsPrebuiltWheelWithoutTheCudaRuntimeLeadsWithTheRuntime) {
  const auto r = explain_on(
      Platform::linux,
      "$ pip install llama-cpp-python --extra-index-url https://abetlen.github.io/llama-cpp-python/whl/cu124\n"
      "Traceback (most recent call last):\n"
      "  File \"/home/z/venv/lib/python3.11/site-packages/llama_cpp/_ctypes_extensions.py\", line 67, in "
      "load_shared_library\n"
      "    return ctypes.CDLL(str(lib_path), **cdll_args)  # type: ignore\n"
      "OSError: libcudart.so.12: cannot open shared object file: No such file or directory\n"
      "\n"
      "During handling of the above exception, another exception occurred:\n"
      "\n"
      "Traceback (most recent call last):\n"
      "  File \"/home/z/venv/lib/python3.11/site-packages/llama_cpp/_ctypes_extensions.py\", line 69, in "
      "load_shared_library\n"
      "    raise RuntimeError(f\"Failed to load shared library '{lib_path}': {e}\")\n"
      "RuntimeError: Failed to load shared library '/home/z/venv/lib/python3.11/site-packages/llama_cpp/lib/"
      "libllama.so': libcudart.so.12: cannot open shared object file: No such file or directory\n");
  ASSERT_TRUE(leads_with(r, "llama-cpp-cuda-runtime-missing"));
  EXPECT_EQ(problem_count(r), 1U);
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(says(m.fix, "nvidia-cuda-runtime-cu12")) << m.fix;
  EXPECT_FALSE(says(m.fix, "download.pytorch.org")) << m.fix;
  EXPECT_FALSE(says(m.fix, "tensorflow")) << m.fix;
  EXPECT_TRUE(says(m.cause, "CUDA 12")) << m.cause;
}

// I2 (log 26): xFormers says which PyTorch is installed; the index in the fix is its tag's.
TEST(ExplainOneFailure, XformersFixUsesTheInstalledTorchsCudaTag) {
  const auto r = explain_on(Platform::linux,
                            "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
                            "    PyTorch 2.5.1+cu121 with CUDA 1201 (you have 2.6.0+cu124)\n"
                            "    Python  3.10.15 (you have 3.10.12)\n");
  ASSERT_TRUE(leads_with(r, "xformers-built-for-other-torch"));
  const std::string& fix = r.matches.front().fix;
  EXPECT_TRUE(says(fix, "whl/cu124")) << fix;
  EXPECT_FALSE(says(fix, "whl/cu128")) << fix;
}

// I2 (log 25): flash-attn's setup.py prints torch.__version__; the toolkit to point at is its CUDA.
TEST(ExplainOneFailure, FlashAttnFixNamesTheToolkitOfTheLogsTorch) {
  const auto r = explain_on(
      Platform::linux,
      "      torch.__version__  = 2.1.2+cu118\n"
      "      RuntimeError: FlashAttention is only supported on CUDA 11.7 and above.  Note: make sure nvcc has a "
      "supported version by running nvcc -V.\n");
  ASSERT_TRUE(leads_with(r, "flash-attn-cuda-too-old"));
  const std::string& fix = r.matches.front().fix;
  EXPECT_TRUE(says(fix, "/usr/local/cuda-11.8")) << fix;
  EXPECT_FALSE(says(fix, "12.8")) << fix;

  // Without a torch version in the log, no made-up version.
  const auto bare = explain_on(Platform::linux,
                               "RuntimeError: FlashAttention is only supported on CUDA 11.7 and above.  Note: make "
                               "sure nvcc has a supported version by running nvcc -V.\n");
  ASSERT_TRUE(leads_with(bare, "flash-attn-cuda-too-old"));
  EXPECT_FALSE(says(bare.matches.front().fix, "12.8")) << bare.matches.front().fix;
}

}  // namespace
}  // namespace gpudoctor
