// The C and C++ runtimes' symbol versions: glibc's dynamic loader refuses a library whose
// GLIBC_x / GLIBCXX_x / CXXABI_x version the loaded libc or libstdc++ lacks (elf/dl-version.c,
// "version `%s' not found (required by %s)"). Which libstdc++ was loaded decides the fix: a
// conda environment's own, or the system's.
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

TEST(ExplainRuntimeAbi, ASystemLibstdcxxTooOldForACondaBuiltLibrary) {
  const auto r = explain_no_facts(
      "Traceback (most recent call last):\n"
      "  File \"/home/u/miniconda3/envs/t/lib/python3.11/site-packages/jax/_src/lib/__init__.py\", line 84, in "
      "<module>\n"
      "ImportError: /lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.29' not found (required by "
      "/home/u/miniconda3/envs/t/lib/python3.11/site-packages/jaxlib/xla_extension.so)\n");
  ASSERT_TRUE(leads_with(r, "libstdcxx-too-old"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_NE(m.cause.find("/lib/x86_64-linux-gnu/libstdc++.so.6"), std::string::npos) << m.cause;
  EXPECT_NE(m.cause.find("GLIBCXX_3.4.29"), std::string::npos) << m.cause;
  EXPECT_NE(m.cause.find("jaxlib/xla_extension.so"), std::string::npos) << m.cause;
  // The library that needs it is a conda environment's: that environment's lib/ has the newer one.
  EXPECT_NE(m.fix.find("$CONDA_PREFIX/lib"), std::string::npos) << m.fix;
  EXPECT_NE(m.fix.find("strings /lib/x86_64-linux-gnu/libstdc++.so.6"), std::string::npos) << m.fix;
  EXPECT_EQ(find_rule(r, "libstdcxx-too-old-conda"), nullptr);
}

TEST(ExplainRuntimeAbi, ACondaEnvironmentsOldLibstdcxxIsUpdatedFromCondaForge) {
  for (const char* line :
       {"ImportError: /home/u/miniconda3/envs/tf/lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required "
        "by /home/u/miniconda3/envs/tf/lib/python3.11/site-packages/torch/lib/libtorch_python.so)",
        "/home/u/anaconda3/bin/../lib/libstdc++.so.6: version `CXXABI_1.3.15' not found (required by "
        "/usr/lib/x86_64-linux-gnu/libLLVM-15.so.1)"}) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "libstdcxx-too-old-conda")) << line;
    EXPECT_NE(r.matches.front().fix.find("conda install -c conda-forge libstdcxx-ng"), std::string::npos);
    // One answer for the line: the general rule would repeat it.
    EXPECT_EQ(find_rule(r, "libstdcxx-too-old"), nullptr) << line;
  }
}

TEST(ExplainRuntimeAbi, AnOldGlibcCannotBeUpgradedAlone) {
  const auto r = explain_no_facts(
      "ImportError: /lib64/libc.so.6: version `GLIBC_2.28' not found (required by "
      "/home/u/.local/lib/python3.9/site-packages/torch/lib/libtorch_cpu.so)\n");
  ASSERT_TRUE(leads_with(r, "glibc-too-old"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_NE(m.cause.find("glibc 2.28"), std::string::npos) << m.cause;
  EXPECT_NE(m.cause.find("libtorch_cpu.so"), std::string::npos) << m.cause;
  EXPECT_NE(m.fix.find("ldd --version"), std::string::npos) << m.fix;
  // Not a libstdc++ problem, and not a library that is missing.
  EXPECT_EQ(find_rule(r, "libstdcxx-too-old"), nullptr);
  EXPECT_EQ(find_rule(r, "libstdcxx-too-old-conda"), nullptr);
}

TEST(ExplainRuntimeAbi, OtherSymbolVersionsAreNotCalledARuntimeProblem) {
  // A CUDA library's own symbol version is another problem (two releases mixed), not the C/C++ runtime.
  const auto r = explain_no_facts(
      "ImportError: /usr/local/cuda/lib64/libcublasLt.so.11: version `libcublasLt.so.11' not found (required by "
      "/opt/conda/lib/python3.8/site-packages/torch/lib/libtorch_cuda.so)\n");
  for (const char* rule : {"libstdcxx-too-old", "libstdcxx-too-old-conda", "glibc-too-old"}) {
    EXPECT_EQ(find_rule(r, rule), nullptr) << rule;
  }
}

// An undefined at::/c10::/torch:: symbol in an extension: built against another PyTorch. It wins
// over the generic "another copy of a CUDA library" answer on the same line.
TEST(ExplainRuntimeAbi, UndefinedPytorchSymbolInAnExtensionIsABuildForAnotherTorch) {
  const auto r = explain_no_facts(
      "ImportError: /usr/local/lib/python3.10/dist-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: "
      "undefined symbol: _ZN2at4_ops15sum_IntList_out4callERKNS_6TensorEN3c1016OptionalArrayRefIlEEbSt8optional"
      "INS5_10ScalarTypeEERS2_\n");
  ASSERT_TRUE(leads_with(r, "torch-extension-abi-mismatch"));
  EXPECT_EQ(find_rule(r, "undefined-symbol-wrong-library"), nullptr);
  EXPECT_TRUE(contains(r.matches.front().cause, "flash_attn_2_cuda")) << r.matches.front().cause;
  // A CUDA library's own symbol stays the generic answer.
  EXPECT_TRUE(leads_with(explain_no_facts("ImportError: /venv/lib/python3.11/site-packages/nvidia/cusparse/lib/"
                                          "libcusparse.so.12: undefined symbol: __nvJitLinkComplete_12_4, version "
                                          "libnvJitLink.so.12\n"),
                         "undefined-symbol-wrong-library"));
}

// glibc's "symbol X version Y not defined in file Z with link time reference": an older copy of
// the library under the same name; for cuDNN that is a cuDNN version mismatch.
TEST(ExplainRuntimeAbi, SymbolVersionNotDefinedIsAnOlderCopyOfTheLibrary) {
  const auto cudart = explain_no_facts(
      "original error: /python3.6/site-packages/cupy_backends/cuda/api/runtime.cpython-36m-x86_64-linux-gnu.so: "
      "symbol cudaMemPoolTrimTo version libcudart.so.11.0 not defined in file libcudart.so.11.0 with link time "
      "reference\n");
  ASSERT_TRUE(leads_with(cudart, "symbol-version-not-defined"));
  EXPECT_TRUE(contains(cudart.matches.front().cause, "cudaMemPoolTrimTo")) << cudart.matches.front().cause;
  const auto cudnn = explain_no_facts(
      "ImportError: .../jaxlib/xla_extension.so: symbol cudnnSetCTCLossDescriptorEx version libcudnn.so.7 not "
      "defined in file libcudnn.so.7 with link time reference\n");
  ASSERT_TRUE(leads_with(cudnn, "cudnn-symbol-version-not-defined"));
  EXPECT_EQ(cudnn.matches.front().category, "cudnn-version-mismatch");
}

// TF's and XLA's cudart_stub.cc answer every call with "<function> symbol not found." when the
// CUDA runtime was never loaded; that outranks the cuDNN handle failure it causes.
TEST(ExplainRuntimeAbi, CudartStubSymbolNotFoundIsTheMissingCudaRuntime) {
  const auto r = explain_no_facts(
      "2023-03-06 16:35:33.099150: W external/org_tensorflow/tensorflow/compiler/xla/stream_executor/cuda/"
      "cuda_dnn.cc:397] There was an error before creating cudnn handle: cudaGetErrorName symbol not found. : "
      "cudaGetErrorString symbol not found.\n"
      "2023-03-06 16:35:33.099243: E external/org_tensorflow/tensorflow/compiler/xla/stream_executor/cuda/"
      "cuda_dnn.cc:429] Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR\n");
  ASSERT_TRUE(leads_with(r, "cudart-stub-symbol-not-found"));
  EXPECT_TRUE(among_first_three(r, "wrong-framework-build"));
}

// xla/pjrt/pjrt_api.cc: the plugin's PJRT C API version must equal jaxlib's.
TEST(ExplainRuntimeAbi, PjrtApiVersionMismatchIsPluginAndJaxlibFromDifferentReleases) {
  const auto r = explain_no_facts(
      "RuntimeError: Unable to initialize backend 'cuda': INVALID_ARGUMENT: Mismatched PJRT plugin PJRT API version "
      "(0.54) and framework PJRT API version 0.58). (you may need to uninstall the failing plugin package, or set "
      "JAX_PLATFORMS=cpu to skip this backend.)\n");
  ASSERT_TRUE(leads_with(r, "pjrt-api-version-mismatch"));
  EXPECT_TRUE(contains(r.matches.front().cause, "0.54")) << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().cause, "0.58")) << r.matches.front().cause;
}

}  // namespace
}  // namespace gpudoctor
