// Session 43: the leftovers of session 42's explain work.
// - ggml's NO_DEVICE_CODE guard in any kernel (ggml/src/ggml-cuda/common.cuh no_device_code)
//   prints the arch of the code that ran, always one of the build's; the GPU list ggml prints at
//   start-up (ggml_cuda_init "Device N: <name>, compute capability X.Y") decides whether the build
//   lacks the GPU's own arch (rebuild) or the GPU ran its own code (rebuilding cannot help), as the
//   flash-attention rule already did.
// - bitsandbytes 0.39-0.40's "CUDA SETUP: CUDA runtime path found: <path>" prints the path as it is,
//   unquoted: a path with a space was cut there.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;
using testing::leads_without;
using testing::mentions;
using testing::told;

// An RTX 3060 (8.6) under a build for nvcc's default only (520, llama.cpp#5686's Makefile
// regression): the GPU runs the 520 PTX, in which the int8 kernel is compiled out.
constexpr std::string_view kSession43GgmlNewGpuOldBuildLog = R"LOG(ggml_init_cublas: found 1 CUDA devices:
  Device 0: NVIDIA GeForce RTX 3060, compute capability 8.6
llm_load_tensors: ggml ctx size =    0.11 MiB
ggml-cuda.cu:3211: ERROR: CUDA kernel vec_dot_q5_K_q8_1_impl_vmmq has no device code compatible with CUDA arch 520. ggml-cuda.cu was compiled for: 520
CUDA error: unspecified launch failure
  current device: 0, in function ggml_cuda_op_mul_mat at ggml-cuda.cu:9416
)LOG";

// A GTX 970 (5.2) under a build that has 520: the GPU ran its own code, and the kernel (int8 dot
// products, from 6.1) does not exist for it in this release.
constexpr std::string_view kSession43GgmlOldGpuOwnArchLog = R"LOG(ggml_cuda_init: found 1 CUDA devices:
  Device 0: NVIDIA GeForce GTX 970, compute capability 5.2, VMM: yes
ggml-cuda/mmvq.cu:51: ERROR: CUDA kernel mul_mat_vec_q has no device code compatible with CUDA arch 520. ggml-cuda.cu was compiled for: 520,610,700,750
CUDA error: unspecified launch failure
)LOG";

TEST(ExplainSession43, GgmlKernelOnANewerGpuThanTheBuildSaysRebuildForIt) {
  const auto r = explain_no_facts(kSession43GgmlNewGpuOldBuildLog);
  ASSERT_TRUE(leads_without(r, "ggml-no-device-code/build-lacks-arch", {"ggml-no-device-code/gpu-too-old"})) << told(r);
  const auto& m = r.matches.front();
  EXPECT_TRUE(mentions(m.cause, "lacks")) << m.cause;
  EXPECT_TRUE(mentions(m.fix, "CMAKE_CUDA_ARCHITECTURES")) << m.fix;
  // The rule's own either-or answer gives way to the decided one.
  EXPECT_EQ(find_rule(r, "ggml-no-device-code"), nullptr) << told(r);
}

TEST(ExplainSession43, GgmlKernelOnTheGpusOwnArchSaysRebuildingCannotHelp) {
  const auto r = explain_no_facts(kSession43GgmlOldGpuOwnArchLog);
  ASSERT_TRUE(leads_without(r, "ggml-no-device-code/gpu-too-old", {"ggml-no-device-code/build-lacks-arch"})) << told(r);
  const auto& m = r.matches.front();
  EXPECT_TRUE(mentions(m.cause, "cannot help")) << m.cause;
  EXPECT_FALSE(mentions(m.fix, "CMAKE_CUDA_ARCHITECTURES")) << m.fix;
  EXPECT_EQ(find_rule(r, "ggml-no-device-code"), nullptr) << told(r);
}

// Near miss: without ggml's device list nothing decides; the rule's own answer covers both.
TEST(ExplainSession43, NearMissGgmlKernelWithoutTheDeviceListKeepsTheRulesAnswer) {
  const auto r = explain_no_facts(
      "ggml-cuda.cu:3211: ERROR: CUDA kernel vec_dot_q5_K_q8_1_impl_vmmq has no device code compatible with CUDA "
      "arch 520. ggml-cuda.cu was compiled for: 520\n");
  ASSERT_TRUE(leads_with(r, "ggml-no-device-code")) << told(r);
  EXPECT_EQ(r.matches.front().rule, "ggml-no-device-code") << told(r);
}

TEST(ExplainSession43, BitsandbytesRuntimePathWithASpaceIsReadWhole) {
  const auto r = explain_no_facts(
      "CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in backup paths...\n"
      "CUDA SETUP: CUDA runtime path found: /home/John Smith/miniconda3/envs/llm/lib/libcudart.so.11.0\n");
  const auto* found = find_rule(r, "bitsandbytes-libcudart-found-in-backup-path");
  ASSERT_NE(found, nullptr) << told(r);
  EXPECT_TRUE(mentions(found->cause, "/home/John Smith/miniconda3/envs/llm/lib/libcudart.so.11.0")) << found->cause;
}

}  // namespace
}  // namespace gpudoctor
