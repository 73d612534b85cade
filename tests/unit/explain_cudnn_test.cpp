// cuDNN failures whose line names something other than a missing cuDNN: the graph API finding
// no engine for an operation (cudnn-frontend's plans.h, raised through PyTorch's
// AT_CUDNN_FRONTEND_CHECK and XLA), and cuDNN 8's own loader, whose "Could not load library X.
// Error: Y" names in Y the file the dynamic loader did not find (libcudnn.so.8 of
// nvidia-cudnn-cu11 8.9.6.50 holds the format "Could not load library %s. Error: %s").
#include <gtest/gtest.h>

#include <string>

#include "core/text.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::among_first_three;
using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

TEST(ExplainCudnn, FrontendWithNoExecutionPlanIsAnUnsupportedOperationNotAMissingCudnn) {
  // PyTorch's scaled_dot_product_attention on its cuDNN backend (diffusers#9704).
  const auto torch = explain_no_facts(
      "  File \"/venv/lib/python3.10/site-packages/transformers/models/clip/modeling_clip.py\", line 491, in forward\n"
      "    attn_output = torch.nn.functional.scaled_dot_product_attention(\n"
      "RuntimeError: cuDNN Frontend error: [cudnn_frontend] Error: No execution plans support the graph.\n");
  ASSERT_TRUE(leads_with(torch, "cudnn-frontend-no-execution-plan"));
  EXPECT_EQ(torch.matches.front().category, "gpu-arch-unsupported");
  EXPECT_NE(torch.matches.front().fix.find("enable_cudnn_sdp(False)"), std::string::npos);
  ASSERT_NE(find_rule(torch, "cudnn-frontend-no-execution-plan/old-cudnn"), nullptr);

  // The build step's wording, as XLA returns it inside JAX's error.
  const auto jax = explain_no_facts(
      "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: [cudnn_frontend] Error: No valid execution plans built.\n"
      "in external/xla/xla/stream_executor/cuda/cuda_dnn.cc(8246): 'graph_.build_plans(cudnn_handle)'\n");
  ASSERT_TRUE(leads_with(jax, "cudnn-frontend-no-execution-plan"));
  EXPECT_NE(jax.matches.front().fix.find("implementation='xla'"), std::string::npos);
}

TEST(ExplainCudnn, LoaderErrorNamingNvrtcLeadsWithNvrtcNotCudnn) {
  const auto r = explain_no_facts(
      "Could not load library libcudnn_cnn_infer.so.8. Error: libnvrtc.so: cannot open shared object file: No "
      "such file or directory\n");
  ASSERT_TRUE(leads_with(r, "cudnn-needs-unversioned-nvrtc"));
  EXPECT_EQ(r.matches.front().category, "cuda-lib-missing");
  EXPECT_NE(r.matches.front().cause.find("libcudnn_cnn_infer.so.8"), std::string::npos) << r.matches.front().cause;
  EXPECT_NE(r.matches.front().fix.find("ln -s libnvrtc.so.11.2 libnvrtc.so"), std::string::npos);
  // cuDNN is installed: the answer that says it is missing is not given.
  EXPECT_EQ(find_rule(r, "cudnn-library-missing"), nullptr);
  EXPECT_EQ(find_rule(r, "cuda-library-missing"), nullptr);
}

TEST(ExplainCudnn, LoaderErrorNamingAnotherLibraryLeadsWithThatLibrary) {
  const auto r = explain_no_facts(
      "Could not load library libcudnn_cnn_infer.so.8. Error: libcublasLt.so.11: cannot open shared object file: "
      "No such file or directory\nPlease make sure libcudnn_cnn_infer.so.8 is in your library path!\n");
  ASSERT_TRUE(leads_with(r, "cudnn-dependency-missing"));
  ASSERT_TRUE(r.matches.front().captures.contains("lib"));
  EXPECT_EQ(r.matches.front().captures.at("lib").front(), "libcublasLt.so.11");
  EXPECT_EQ(find_rule(r, "cuda-library-missing"), nullptr);  // one answer for the line
  // cuDNN's "Please make sure X is in your library path!" alone cannot say which file was
  // missing: it may still add the cuDNN answer, after this one.

  // The driver's library named after "Error:" is answered once, by the rule that knows cuDNN asks
  // for its development name (CudnnLoadingTheUnversionedLibcudaIsAWslLinkNotAMissingDriver).
  const auto cuda = explain_no_facts(
      "Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open shared object file: No such "
      "file or directory\n");
  ASSERT_TRUE(leads_with(cuda, "cudnn-needs-unversioned-libcuda"));
  EXPECT_EQ(find_rule(cuda, "cudnn-dependency-missing"), nullptr);
  EXPECT_EQ(find_rule(cuda, "cudnn-library-missing"), nullptr);
}

TEST(ExplainCudnn, LoaderErrorNamingTheCudnnFileItselfIsStillMissingCudnn) {
  const auto same = explain_no_facts(
      "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object "
      "file: No such file or directory\n");
  ASSERT_TRUE(leads_with(same, "cudnn-library-missing"));
  EXPECT_EQ(find_rule(same, "cudnn-dependency-missing"), nullptr);
  // Another cuDNN sub-library missing is cuDNN incomplete, not a foreign dependency.
  const auto sibling = explain_no_facts(
      "Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object "
      "file: No such file or directory\n");
  ASSERT_TRUE(leads_with(sibling, "cudnn-library-missing"));
  EXPECT_EQ(find_rule(sibling, "cudnn-dependency-missing"), nullptr);
}

// TensorFlow 0.x/1.x's stream_executor/dso_loader.cc logged a failed dlopen as "Couldn't open CUDA
// library <path>. LD_LIBRARY_PATH: <value>".
TEST(ExplainCudnn, TheOldDsoLoaderWordingNamesTheMissingLibrary) {
  const auto cudnn = explain_no_facts(
      "I tensorflow/stream_executor/dso_loader.cc:126] Couldn't open CUDA library libcudnn.so.5. LD_LIBRARY_PATH: "
      "/usr/local/cuda-8.0/lib64\n");
  ASSERT_TRUE(leads_with(cudnn, "cudnn-library-missing"));
  ASSERT_TRUE(cudnn.matches.front().captures.contains("lib"));
  EXPECT_EQ(cudnn.matches.front().captures.at("lib").front(), "libcudnn.so.5");
  const auto driver = explain_no_facts("[...\\stream_executor\\dso_loader.cc] Couldn't open CUDA library nvcuda.dll\n");
  ASSERT_TRUE(leads_with(driver, "libcuda-missing"));
}

// PyTorch's AT_CUDNN_CHECK wording ("cuDNN error: " and the status name,
// aten/src/ATen/cudnn/Exceptions.h) is PyTorch's: TensorFlow's memory-growth answer is wrong there.
TEST(ExplainCudnn, PytorchsCudnnInternalErrorIsMemoryFirstNotTensorflowsGrowth) {
  for (const char* status : {"CUDNN_STATUS_INTERNAL_ERROR", "CUDNN_STATUS_ALLOC_FAILED"}) {
    const auto r = explain_no_facts(
        std::string("  File \"/opt/conda/lib/python3.10/site-packages/torch/nn/modules/conv.py\", line 456, in "
                    "_conv_forward\n"
                    "RuntimeError: cuDNN error: ") +
        status + "\n");
    ASSERT_TRUE(leads_with(r, "torch-cudnn-internal-error")) << status;
    const ExplainMatch& m = r.matches.front();
    EXPECT_EQ(m.category, "out-of-memory");
    EXPECT_NE(m.fix.find("torch.backends.cudnn.benchmark = False"), std::string::npos) << m.fix;
    EXPECT_EQ(m.fix.find("set_memory_growth"), std::string::npos) << m.fix;
    EXPECT_EQ(find_rule(r, "tf-failed-convolution-algorithm"), nullptr) << status;
    EXPECT_NE(find_rule(r, "torch-cudnn-internal-error/cudnn-mismatch"), nullptr);
  }
}

TEST(ExplainCudnn, TensorflowsCudnnHandleFailureKeepsItsOwnAnswer) {
  // TensorFlow's own log lines still get the memory-growth answer.
  for (const char* line :
       {"E tensorflow/stream_executor/cuda/cuda_dnn.cc:329] Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR",
        "E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:329] Could not create cudnn handle: "
        "CUDNN_STATUS_INTERNAL_ERROR"}) {
    const auto r = explain_no_facts(line);
    EXPECT_TRUE(leads_with(r, "tf-failed-convolution-algorithm")) << line;
    EXPECT_EQ(find_rule(r, "torch-cudnn-internal-error"), nullptr) << line;
    EXPECT_EQ(find_rule(r, "jax-cudnn-handle-failed"), nullptr) << line;
  }
}

// cuDNN 9 and cuBLAS loaded by name (CTranslate2, as faster-whisper uses it): the list of names
// tried, then the first symbol that could not be resolved, then an abort. The pip wheels' lib
// folders are not on the loader's path.
TEST(ExplainCudnn, UnableToLoadAnyOfNamesTheCudnnOrCublasLibraryThatIsMissing) {
  const auto cudnn = explain_no_facts(
      "Unable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, libcudnn_ops.so.9, libcudnn_ops.so}\n"
      "Invalid handle. Cannot load symbol cudnnCreateTensorDescriptor\n"
      "Aborted (core dumped)\n");
  ASSERT_TRUE(leads_with(cudnn, "cudnn-library-missing"));
  EXPECT_NE(cudnn.matches.front().cause.find("libcudnn_ops.so.9.1.0"), std::string::npos)
      << cudnn.matches.front().cause;
  const auto cublas = explain_no_facts(
      "Unable to load any of {libcublasLt.so.12.4.5, libcublasLt.so.12.4, libcublasLt.so.12, libcublasLt.so}\n"
      "Invalid handle. Cannot load symbol cublasLtGetVersion\n");
  ASSERT_TRUE(leads_with(cublas, "cuda-library-missing"));
}

// Old PyTorch printed the cuDNN status after a CUDA failure around a successful cuDNN call;
// the fix that worked was another CUDA build of PyTorch.
TEST(ExplainCudnn, CudnnErrorWithStatusSuccessIsAnOldBuildThatDoesNotFit) {
  const auto r = explain_no_facts(
      "  File \"/opt/conda/lib/python3.6/site-packages/torch/nn/modules/rnn.py\", line 105, in flatten_parameters\n"
      "    self.batch_first, bool(self.bidirectional))\n"
      "RuntimeError: CuDNN error: CUDNN_STATUS_SUCCESS\n");
  ASSERT_TRUE(leads_with(r, "torch-cudnn-status-success"));
  EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
}

// An older cuDNN loaded may be an old copy earlier on the search path while the right one is installed.
TEST(ExplainCudnn, OlderCudnnLoadedMayBeAnOldCopyFirstOnThePath) {
  const auto r = explain_no_facts(
      "Loaded runtime CuDNN library: 5005 (compatibility version 5000) but source was compiled with 5105 "
      "(compatibility version 5100).  If using a binary install, upgrade your CuDNN library to match.\n");
  ASSERT_TRUE(leads_with(r, "cudnn-runtime-older-than-build"));
  EXPECT_TRUE(among_first_three(r, "path-or-env-misconfigured"));
}

// Paddle's dynload (paddle/phi/backends/dynload): cuDNN could not be opened.
TEST(ExplainCudnn, PaddleCannotLoadCudnnIsCudnnNotFound) {
  const auto r = explain_no_facts(
      "Error: Cannot load cudnn shared library. Cannot invoke method cudnnGetVersion at "
      "(/paddle/paddle/fluid/platform/dynload/cudnn.cc:63)\n");
  ASSERT_TRUE(leads_with(r, "paddle-cudnn-not-loaded"));
  EXPECT_TRUE(among_first_three(r, "path-or-env-misconfigured"));
}

TEST(ExplainCudnn, CudnnLoadingTheUnversionedLibcudaIsAWslLinkNotAMissingDriver) {
  // cuDNN 8 is reached only after the framework initialised CUDA through libcuda.so.1: the driver
  // works, only its development name is not found, which is WSL2's loader-cache problem.
  const std::string line =
      "Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open shared object file: No such "
      "file or directory\n";
  ExplainReport r = explain_no_facts(line);
  ASSERT_TRUE(leads_with(r, "cudnn-needs-unversioned-libcuda"));
  EXPECT_EQ(r.matches.front().category, "wsl2-specific");
  EXPECT_NE(r.matches.front().fix.find("/usr/lib/wsl/lib"), std::string::npos) << r.matches.front().fix;
  EXPECT_EQ(find_rule(r, "libcuda-missing"), nullptr);
  EXPECT_EQ(find_rule(r, "cudnn-library-missing"), nullptr);
  // On a machine known to run native Linux the missing development link comes first.
  ExplainMachine linux_machine;
  linux_machine.platform = Platform::linux;
  r = explain_text(testing::builtin_matcher(), line, linux_machine);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "path-or-env-misconfigured");
  EXPECT_NE(r.matches.front().fix.find("ln -s libcuda.so.1 libcuda.so"), std::string::npos) << r.matches.front().fix;
  // libcuda.so.1 itself missing is still the driver.
  r = explain_no_facts(
      "Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so.1: cannot open shared object file: No such "
      "file or directory\n");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "driver-missing");
}

}  // namespace
}  // namespace gpudoctor
