// What JAX and TensorFlow print when the driver's libcuda.so.1 cannot be loaded: XLA's CUDA stub
// answers cuInit with 303 and cannot name the error. The lines below are the real stderr of
// jax 0.10.2 (jax[cuda12], every nvidia-* wheel loaded) and TensorFlow 2.21.0 from PyPI on this
// driverless machine (2026-12-02). JAX's own words ("unable to load the CUDA libraries") sent
// people to reinstall jax[cuda12], which cannot help.
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

constexpr const char* kJaxNoDriver =
    "Jax plugin configuration error: Exception when calling jax_plugins.xla_cuda12.initialize()\n"
    "Traceback (most recent call last):\n"
    "  File \"/tmp/jax-venv/lib/python3.11/site-packages/jax/_src/xla_bridge.py\", line 508, in "
    "discover_pjrt_plugins\n"
    "    plugin_module.initialize()\n"
    "RuntimeError: jaxlib/cuda/versions_helpers.cc:135: operation cuInit(0) failed: Unknown CUDA error 303; "
    "cuGetErrorName failed. This probably means that JAX was unable to load the CUDA libraries.\n";

constexpr const char* kTfNoDriver =
    "I0000 00:00:1796171199.025044    5825 cudart_stub.cc:31] Could not find cuda drivers on your machine, GPU "
    "will not be used.\n"
    "E0000 00:00:1796171204.575384    5825 cuda_platform.cc:52] failed call to cuInit: INTERNAL: CUDA error: "
    "Failed call to cuInit: UNKNOWN ERROR (303)\n";

bool names_rule(const ExplainReport& r, std::string_view id) {
  for (const auto& m : r.matches) {
    if (m.rule == id || m.rule.starts_with(std::string(id) + "/")) return true;
  }
  return false;
}

TEST(ExplainNoDriverLibrary, JaxsUnableToLoadTheCudaLibrariesIsTheDriversLibrary) {
  const auto r = explain_text(builtin_matcher(), kJaxNoDriver, ExplainMachine{Platform::linux});
  ASSERT_TRUE(leads_with(r, "xla-cuinit-libcuda-not-loaded"));
  EXPECT_EQ(r.matches.front().category, "driver-missing");
  EXPECT_NE(r.matches.front().cause.find("libcuda.so.1"), std::string::npos);
  // The advice to reinstall jax[cuda12] (the plugin rule) must not be offered for this line.
  EXPECT_FALSE(names_rule(r, "jax-cuda-libraries-not-loaded"));
  for (const auto& m : r.matches) EXPECT_EQ(m.fix.find("pip install -U \"jax[cuda12]\""), std::string::npos) << m.rule;
}

TEST(ExplainNoDriverLibrary, TensorflowsUnknownError303FromCuInit) {
  const auto r = explain_text(builtin_matcher(), kTfNoDriver, ExplainMachine{Platform::linux});
  ASSERT_TRUE(leads_with(r, "xla-cuinit-libcuda-not-loaded"));
  EXPECT_TRUE(names_rule(r, "tf-cudart-not-loaded"));
}

TEST(ExplainNoDriverLibrary, ThePluginsOwnLoadFailureKeepsItsRule) {
  // jax_plugins/xla_cuda12 failing to load the nvidia-* wheels is the plugin rule's case.
  const auto r = explain_text(builtin_matcher(), "Error loading CUDA libraries. GPU will not be used.\n",
                              ExplainMachine{Platform::linux});
  ASSERT_TRUE(leads_with(r, "jax-cuda-libraries-not-loaded"));
}

// numba/cuda/cudadrv/driver.py: a "driver" without cuInit is not libcuda at all; another
// missing function is a driver older than Numba needs.
TEST(ExplainNoDriverLibrary, NumbaDriverWithoutCuInitIsNotTheDriverLibrary) {
  const auto r = explain_no_facts(
      "numba.cuda.cudadrv.error.CudaDriverError: driver missing function: cuInit.\nRequires CUDA 8.0 or above.\n");
  ASSERT_TRUE(leads_with(r, "numba-driver-not-libcuda"));
  EXPECT_EQ(find_rule(r, "numba-driver-missing-function"), nullptr);
  EXPECT_TRUE(contains(r.matches.front().fix, "NUMBA_CUDA_DRIVER")) << r.matches.front().fix;
  const auto old = explain_no_facts("CudaDriverError: Driver missing function: cuMemAllocAsync\n");
  ASSERT_TRUE(leads_with(old, "numba-driver-missing-function"));
  EXPECT_EQ(old.matches.front().category, "driver-too-old");
}

// ptxas and the driver's JIT refuse PTX of a newer ISA than they know.
TEST(ExplainNoDriverLibrary, PtxNewerThanTheJitIsADriverOlderThanTheToolkit) {
  const auto r = explain_no_facts(
      "LinkerError: [222] Call to cuLinkAddData results in UNKNOWN_CUDA_ERROR\n"
      "ptxas application ptx input, line 9; fatal   : Unsupported .version 7.7; current version is '7.4'\n");
  ASSERT_NE(find_rule(r, "ptx-isa-newer-than-jit"), nullptr);
  EXPECT_EQ(r.matches.front().category, "driver-too-old");
  EXPECT_TRUE(contains(find_rule(r, "ptx-isa-newer-than-jit")->cause, "7.7"))
      << find_rule(r, "ptx-isa-newer-than-jit")->cause;
}

// Round three of the issue-thread logs: wordings of the same faults by other programs.
TEST(ExplainNoDriverLibrary, OllamasDriverMessagesNameTheOldDriver) {
  const auto r = explain_no_facts(
      "time=2024-09-03T16:36:00.677+08:00 level=INFO source=gpu.go:568 msg=\"unable to load cuda driver library\" "
      "library=C:\\WINDOWS\\system32\\nvcuda.dll error=\"symbol lookup for cuCtxCreate_v3 failed: x\"\n");
  ASSERT_TRUE(leads_with(r, "driver-lacks-function"));
  EXPECT_EQ(r.matches.front().category, "driver-too-old");
  EXPECT_TRUE(contains(r.matches.front().cause, "cuCtxCreate_v3")) << r.matches.front().cause;
  // Ollama's init failures carry the driver's and NVML's own return codes.
  const auto init = explain_no_facts(
      "msg=\"Unable to load cudart library /usr/lib/x86_64-linux-gnu/libcuda.so.575.57.08: cuda driver library init "
      "failure: 3\"\n");
  ASSERT_FALSE(init.matches.empty());
  EXPECT_EQ(init.matches.front().rule, "code/cuda-driver/CUDA_ERROR_NOT_INITIALIZED");
  const auto nvml = explain_no_facts("2024/01/08 19:28:33 gpu.go:39: CUDA not detected: nvml vram init failure: 9\n");
  ASSERT_FALSE(nvml.matches.empty());
  EXPECT_EQ(nvml.matches.front().rule, "code/nvml/NVML_ERROR_DRIVER_NOT_LOADED");
}

// "driver version is insufficient" inside a container that got no driver at all.
TEST(ExplainNoDriverLibrary, InsufficientDriverInAContainerMayBeNoDriverMounted) {
  const auto r = explain_no_facts(
      "[2023-03-07 09:00:00.361] [error] CUDA error: CUDA driver version is insufficient for CUDA runtime version\n");
  ASSERT_TRUE(leads_with(r, "cuda-driver-insufficient"));
  EXPECT_NE(find_rule(r, "cuda-driver-insufficient/container-without-gpu"), nullptr);
}

}  // namespace
}  // namespace gpudoctor
