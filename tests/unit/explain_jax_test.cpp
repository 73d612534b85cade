// JAX's own checks, as its sources print them: jaxlib/plugin_support.py (plugin version),
// jax_plugins/cuda/__init__.py (the CUDA libraries' versions and known-bad releases),
// jax/_src/xla_bridge.py (plugin discovery) and XLA's GPU client (xla/pjrt/gpu/gpu_helpers.cc).
#include <gtest/gtest.h>

#include <string>

#include "core/text.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

TEST(ExplainJax, PluginVersionMismatchLeadsTheCpuFallbackItCauses) {
  const auto r = explain_no_facts(
      "/usr/local/lib/python3.11/site-packages/jaxlib/plugin_support.py:71: RuntimeWarning: JAX plugin "
      "jax_cuda12_plugin version 0.4.35 is installed, but it is not compatible with the installed jaxlib version "
      "0.4.34, so it will not be used.\n"
      "  warnings.warn(\n"
      "An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to "
      "cpu.\n");
  ASSERT_TRUE(leads_with(r, "jax-cuda-plugin-version-mismatch"));
  EXPECT_NE(r.matches.front().cause.find("0.4.35"), std::string::npos);
  EXPECT_NE(r.matches.front().fix.find("jax-cuda12-plugin==0.4.34"), std::string::npos);
}

TEST(ExplainJax, CudnnReleasesJaxRefusesByName) {
  const auto enums = explain_no_facts(
      "RuntimeError: cuDNN 9.10.0 had a binary backward-compatibility issue due to reordered enum values affecting "
      "block-scale datatypes. Found runtime version 91000 and build version 90800. Please upgrade to 9.10.1 or "
      "above.\n");
  ASSERT_TRUE(leads_with(enums, "jax-cudnn-known-bad-release"));
  EXPECT_NE(enums.matches.front().cause.find("91000"), std::string::npos);

  const auto matmul = explain_no_facts(
      "RuntimeError: Unable to initialize backend 'cuda': cuDNN < 9.10.0 (90501 found) had an issue that caused "
      "some multi-GPU matmuls, in which the same finalized execution plan is used across different GPUs, to be "
      "functionally incorrect when run with cublasLt >= 12.9 (120904 found). Please upgrade to 9.10.1 or above. "
      "(you may need to uninstall the failing plugin package, or set JAX_PLATFORMS=cpu to skip this backend.)\n");
  ASSERT_TRUE(leads_with(matmul, "jax-cudnn-known-bad-release"));
  EXPECT_NE(matmul.matches.front().cause.find("90501"), std::string::npos);
  EXPECT_NE(matmul.matches.front().fix.find("nvidia-cudnn-cu12>=9.10.1"), std::string::npos);
}

TEST(ExplainJax, CublasTmemWarningOnBlackwell) {
  const auto r = explain_no_facts(
      "WARNING:jax_plugins.xla_cuda13:cuBLAS < 13.2 (130100 found) has a known issue where many kernels free TMEM "
      "buffers multiple times. Executing a cuBLAS kernel concurrently with another kernel (e.g. on another stream) "
      "can lead to silent data corruption.\n");
  ASSERT_TRUE(leads_with(r, "jax-cublas-tmem-warning"));
  EXPECT_EQ(r.matches.front().severity, RuleSeverity::warning);
  EXPECT_NE(r.matches.front().cause.find("130100"), std::string::npos);
}

TEST(ExplainJax, ALibraryOtherThanCudaOrCudnnThatCannotBeLoaded) {
  const auto r = explain_no_facts(
      "RuntimeError: Unable to initialize backend 'cuda': Unable to load cuSPARSE. Is it installed? (you may need "
      "to uninstall the failing plugin package, or set JAX_PLATFORMS=cpu to skip this backend.)\n");
  ASSERT_TRUE(leads_with(r, "jax-cuda-library-not-loadable"));
  EXPECT_NE(r.matches.front().cause.find("cuSPARSE"), std::string::npos);
  EXPECT_EQ(find_rule(r, "jax-unable-to-load-cuda"), nullptr);
}

// jax 0.4.17-0.4.25 (jax/_src/xla_bridge.py, _check_cuda_versions) compared each CUDA library it
// loaded with the version jaxlib was built against and refused an older one in these words; from
// 0.4.26 the same check prints "Outdated X installation found" (other rules). The generic
// "CUDA backend failed to initialize" must not lead with the driver when the reason names a library.
TEST(ExplainJax, ALibraryOlderThanJaxlibsBuildIsNamedNotTheDriver) {
  const auto cudnn = explain_no_facts(
      "CUDA backend failed to initialize: Found cuDNN version 8700, but JAX was built against version 8904, which "
      "is newer. The copy of cuDNN that is installed must be at least as new as the version against which JAX was "
      "built. (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)\n");
  ASSERT_TRUE(leads_with(cudnn, "jax-cudnn-older-than-build"));
  EXPECT_EQ(cudnn.matches.front().category, "cudnn-version-mismatch");
  EXPECT_NE(cudnn.matches.front().cause.find("8700"), std::string::npos);
  EXPECT_NE(cudnn.matches.front().cause.find("8904"), std::string::npos);

  const auto solver = explain_no_facts(
      "I0105 14:05:05.749943 140453630969664 xla_bridge.py:660] Unable to initialize backend 'cuda': Found cuSOLVER "
      "version 11002, but JAX was built against version 11401, which is newer. The copy of cuSOLVER that is "
      "installed must be at least as new as the version against which JAX was built.\n");
  ASSERT_TRUE(leads_with(solver, "jax-cuda-library-older-than-build"));
  EXPECT_EQ(solver.matches.front().category, "cuda-lib-missing");
  EXPECT_NE(solver.matches.front().cause.find("cuSOLVER"), std::string::npos);

  const auto runtime = explain_no_facts(
      "CUDA backend failed to initialize: Found CUDA version 12000, but JAX was built against version 12020, which "
      "is newer. The copy of CUDA that is installed must be at least as new as the version against which JAX was "
      "built. (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)\n");
  ASSERT_TRUE(leads_with(runtime, "jax-cuda-library-older-than-build"));
  EXPECT_NE(runtime.matches.front().cause.find("12020"), std::string::npos);
}

TEST(ExplainJax, PluginModuleThatDoesNotExist) {
  const auto r = explain_no_facts(
      "WARNING:jax._src.xla_bridge:Jax plugin configuration error: Plugin module jax_plugins.xla_cuda12 does not "
      "exist\n");
  ASSERT_TRUE(leads_with(r, "jax-plugin-module-missing"));
  EXPECT_NE(r.matches.front().cause.find("jax_plugins.xla_cuda12"), std::string::npos);
}

TEST(ExplainJax, PreallocationNoticeIsHarmlessAndNeverHidesTheOutOfMemory) {
  const std::string notice =
      "I1202 10:00:00.000000  1111 gpu_helpers.cc:105] XLA backend allocating 61203361792 bytes on device 0 for "
      "BFCAllocator.\n";
  const auto alone = explain_no_facts(notice);
  ASSERT_TRUE(leads_with(alone, "xla-bfc-preallocation-notice"));
  EXPECT_TRUE(alone.matches.front().harmless);

  const auto oom = explain_no_facts(
      notice +
      "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate "
      "21474836480 bytes.\n");
  ASSERT_FALSE(oom.matches.empty());
  EXPECT_FALSE(oom.matches.front().harmless);
  EXPECT_EQ(oom.matches.front().category, "out-of-memory");
  EXPECT_NE(find_rule(oom, "xla-bfc-preallocation-notice"), nullptr);
}

// XLA's "ptxas exited with non-zero error code %d, output: %s" means ptxas was found and ran.
TEST(ExplainJax, PtxasThatRanButDoesNotKnowHopperIsTooOldNotMissing) {
  const auto r = explain_no_facts(
      "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: ptxas exited with non-zero error code 65280, output: ptxas "
      "fatal   : Value 'sm_90a' is not defined for option 'gpu-name'\n");
  ASSERT_TRUE(leads_with(r, "ptxas-too-old-for-gpu"));
  EXPECT_NE(r.matches.front().cause.find("sm_90a"), std::string::npos);
  EXPECT_EQ(find_rule(r, "ptxas-missing"), nullptr);
}

TEST(ExplainJax, PtxasWithoutTheGpusComputeCapability) {
  const auto r = explain_no_facts(
      "W1202 10:00:00.000000 7777 ptx_compiler_helpers.cc:60] Falling back to the CUDA driver for PTX compilation; "
      "ptxas does not support CC 12.0\n");
  ASSERT_TRUE(leads_with(r, "ptxas-too-old-for-gpu"));
  EXPECT_NE(r.matches.front().cause.find("compute capability 12.0"), std::string::npos);
}

TEST(ExplainJax, JaxWarnsOfAGpuBelowItsMinimumComputeCapability) {
  // jax 0.4.30's xla_bridge.py warning, as warnings.warn prints it (no public paste found).
  const auto r = explain_no_facts(
      "/usr/local/lib/python3.11/site-packages/jax/_src/xla_bridge.py:1: RuntimeWarning: Device 0 has CUDA compute "
      "capability 5.0 which is lower than the minimum supported compute capability 5.2. See "
      "https://jax.readthedocs.io/en/latest/installation.html#nvidia-gpu for more details\n");
  ASSERT_TRUE(leads_with(r, "jax-gpu-cc-below-minimum"));
  EXPECT_TRUE((r.matches.front().cause.find("capability 5.0") != std::string::npos)) << r.matches.front().cause;
  EXPECT_TRUE((r.matches.front().cause.find("(5.2)") != std::string::npos)) << r.matches.front().cause;
}

// jaxlib's XLA logs from external/xla/...; its cuDNN handle fails when JAX's preallocation (or
// another process) left cuDNN no memory (docs.jax.dev, GPU memory allocation).
TEST(ExplainJax, CudnnHandleFromJaxlibNamesPreallocationNotTensorflow) {
  const auto r = explain_no_facts(
      "2023-06-01 10:00:00.000000: E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:439] Could not create cudnn "
      "handle: CUDNN_STATUS_INTERNAL_ERROR\n"
      "jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed. Look at the "
      "errors above for more details.\n");
  ASSERT_TRUE(leads_with(r, "jax-cudnn-handle-failed"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_NE(m.cause.find("CUDNN_STATUS_INTERNAL_ERROR"), std::string::npos) << m.cause;
  EXPECT_NE(m.fix.find("XLA_PYTHON_CLIENT_PREALLOCATE=false"), std::string::npos) << m.fix;
  EXPECT_EQ(find_rule(r, "tf-failed-convolution-algorithm"), nullptr);
  EXPECT_EQ(find_rule(r, "dnn-initialization-failed"), nullptr);
}

// jax_plugins/cuda/__init__.py only warns when jax_cuda1X_plugin's extension does not import.
TEST(ExplainJax, AMissingCudaPluginExtensionIsAMismatchedInstall) {
  const auto r = explain_no_facts("WARNING:jax_plugins.xla_cuda12:cuda_plugin_extension is not found.\n");
  ASSERT_TRUE(leads_with(r, "jax-cuda-plugin-extension-missing"));
  EXPECT_FALSE(r.matches.front().harmless);
  EXPECT_NE(r.matches.front().fix.find("jax[cuda12]"), std::string::npos);
}

// xla_bridge.py logs the built-in TPU and ROCm backends' failures at INFO on other machines.
TEST(ExplainJax, OtherBackendsFailingIsHarmlessButCudaIsNot) {
  const auto tpu = explain_no_facts(
      "I0000 00:00:1700000000.000000 1 xla_bridge.py:884] Unable to initialize backend 'tpu': INTERNAL: Failed to "
      "open libtpu.so: libtpu.so: cannot open shared object file: No such file or directory\n");
  ASSERT_TRUE(leads_with(tpu, "jax-other-backend-unavailable"));
  EXPECT_TRUE(tpu.matches.front().harmless);
  const auto cuda =
      explain_no_facts("Unable to initialize backend 'cuda': FAILED_PRECONDITION: No visible GPU devices.\n");
  EXPECT_EQ(find_rule(cuda, "jax-other-backend-unavailable"), nullptr);
  ASSERT_FALSE(cuda.matches.empty());
  EXPECT_FALSE(cuda.matches.front().harmless);
}

// XLA's GPU backend (gpu_backend_lib.cc) in the TensorFlow 2.x wording of a missing libdevice.
TEST(ExplainJax, LibdeviceRequiredButNotFoundIsLibdeviceMissing) {
  const auto r = explain_no_facts(
      "2023-01-01 00:00:00.000000: W tensorflow/compiler/xla/service/gpu/llvm_gpu_backend/gpu_backend_lib.cc:522] "
      "libdevice is required by this HLO module but was not found at ./libdevice.10.bc\n");
  EXPECT_TRUE(leads_with(r, "libdevice-missing"));
}

// XLA's ptxas warning compared versions wrongly in TF 1.12; only an older ptxas is a problem.
TEST(ExplainJax, PtxasOlderThanWarningIsCheckedAgainstTheVersions) {
  const auto wrong = explain_no_facts("\"*** WARNING *** You are using ptxas 10.0.145, which is older than 9.2.88\"\n");
  ASSERT_TRUE(leads_with(wrong, "tf-ptxas-version-warning-wrong"));
  EXPECT_TRUE(wrong.matches.front().harmless);
  EXPECT_EQ(find_rule(wrong, "tf-ptxas-older-than-minimum"), nullptr);
  EXPECT_EQ(find_rule(wrong, "tf-ptxas-miscompiles"), nullptr);
  const auto old = explain_no_facts(
      "*** WARNING *** You are using ptxas 10.1.243, which is older than 11.1. ptxas before 11.1 is known to "
      "miscompile XLA code, leading to incorrect results or invalid-address errors.\n");
  ASSERT_TRUE(leads_with(old, "tf-ptxas-older-than-minimum"));
  EXPECT_EQ(find_rule(old, "tf-ptxas-version-warning-wrong"), nullptr);
}

TEST(ExplainJax, XlaFallingBackToTheDriversPtxCompilerIsAMissingPtxasWarning) {
  // XLA's buffer comparator and redzone allocator log this once when ptxas could not be used.
  const auto r = explain_no_facts(
      "Relying on driver to perform ptx compilation. \nModify $PATH to customize ptxas location.\nThis message will "
      "be only logged once.\n");
  ASSERT_TRUE(leads_with(r, "xla-ptx-compiled-by-driver"));
  EXPECT_EQ(r.matches.front().category, "ptxas/xla/libdevice-missing");
  EXPECT_NE(r.matches.front().fix.find("xla_gpu_cuda_data_dir"), std::string::npos) << r.matches.front().fix;
  // After ptxas' own failure, that line's answer comes first.
  const auto both = explain_no_facts(
      "W tensorflow/stream_executor/gpu/redzone_allocator.cc:314] Internal: ptxas exited with non-zero error code "
      "65280, output: ptxas fatal   : Value 'sm_86' is not defined for option 'gpu-name'\n\nRelying on driver to "
      "perform ptx compilation. This message will be only logged once.\n");
  ASSERT_FALSE(both.matches.empty());
  EXPECT_NE(both.matches.front().rule, "xla-ptx-compiled-by-driver");
}

// XLA's GEMM autotuner (service/gpu/gemm_algorithm_picker.cc) RET_CHECKs that the stream's BLAS
// can list its algorithms: cuBLAS did not start in this process.
TEST(ExplainJax, GemmAlgorithmPickerWithoutBlasIsCublasThatDidNotStart) {
  const auto r = explain_no_facts(
      "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: RET_CHECK failure "
      "(external/xla/xla/service/gpu/gemm_algorithm_picker.cc:283) "
      "stream->parent()->GetBlasGemmAlgorithms(stream, &algorithms)\n");
  ASSERT_TRUE(leads_with(r, "xla-gemm-algorithms-unavailable"));
  EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
  EXPECT_NE(find_rule(r, "xla-gemm-algorithms-unavailable/memory"), nullptr);
}

// A CUDA plugin newer than jaxlib: its initialize() calls jaxlib API that is not there. The
// AttributeError is the cause; the wrapper line alone is JAX running on the CPU.
TEST(ExplainJax, APluginOfAnotherReleaseThanJaxlibIsTheMixedInstall) {
  ExplainReport r = explain_no_facts(
      "Jax plugin configuration error: Exception when calling jax_plugins.xla_cuda12.initialize()\n"
      "Traceback (most recent call last):\n"
      "  File \"../lib/python3.13/site-packages/jax/_src/xla_bridge.py\", line 610, in discover_pjrt_plugins\n"
      "    plugin_module.initialize()\n"
      "  File \"../lib/python3.13/site-packages/jax_plugins/xla_cuda12/__init__.py\", line 96, in initialize\n"
      "    xla_client.register_custom_type_id_handler(\n"
      "AttributeError: module 'jaxlib.xla_client' has no attribute 'register_custom_type_id_handler'.\n");
  ASSERT_TRUE(leads_with(r, "jaxlib-attribute-missing"));
  EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
  EXPECT_NE(r.matches.front().cause.find("register_custom_type_id_handler"), std::string::npos);
  r = explain_no_facts("Jax plugin configuration error: Exception when calling jax_plugins.xla_cuda13.initialize()\n");
  ASSERT_TRUE(leads_with(r, "jax-plugin-initialize-failed"));
  // Another module's missing attribute is not jaxlib's.
  EXPECT_EQ(find_rule(explain_no_facts("AttributeError: module 'numpy' has no attribute 'bool'\n"),
                      "jaxlib-attribute-missing"),
            nullptr);
}

}  // namespace
}  // namespace gpudoctor
