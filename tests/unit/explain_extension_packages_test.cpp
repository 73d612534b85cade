// Packages with CUDA code of their own built against one PyTorch (xFormers, bitsandbytes), vLLM's
// dtype check and torch.autocast's refused dtype (data/explain/extension-packages.toml,
// performance.toml). The lines are real pastes (named per test); before these rules none of them
// got an answer.
#include <gtest/gtest.h>

#include <string>

#include "core/text.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

// An optimum-intel notebook's output: xFormers built for 2.0.1+cu118 under a 2.1.2+cpu PyTorch,
// next to bitsandbytes' CPU library.
TEST(ExplainExtensionPackages, XformersAndBitsandbytesBuiltForAnotherTorch) {
  const auto r = explain_no_facts(
      "/home/ea/env/lib/python3.8/site-packages/bitsandbytes/cextension.py:34: UserWarning: The installed version "
      "of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit multiplication, and GPU "
      "quantization are unavailable.\n"
      "/home/ea/env/lib/python3.8/site-packages/bitsandbytes/libbitsandbytes_cpu.so: undefined symbol: "
      "cadam32bit_grad_fp32\n"
      "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
      "    PyTorch 2.0.1+cu118 with CUDA 1108 (you have 2.1.2+cpu)\n"
      "    Python  3.8.18 (you have 3.8.10)\n");
  ASSERT_TRUE(leads_with(r, "bitsandbytes-cpu-library"));
  const ExplainMatch* x = find_rule(r, "xformers-built-for-other-torch");
  ASSERT_NE(x, nullptr);
  EXPECT_TRUE(contains(x->cause, "2.0.1+cu118")) << x->cause;
  EXPECT_TRUE(contains(x->cause, "2.1.2+cpu")) << x->cause;
  EXPECT_TRUE(contains(x->fix, "download.pytorch.org")) << x->fix;
  EXPECT_TRUE(contains(r.matches.front().fix, "python -m bitsandbytes")) << r.matches.front().fix;
}

TEST(ExplainExtensionPackages, NoOperatorFoundPointsAtTheReasonsBelowIt) {
  const auto r = explain_no_facts(
      "NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n"
      "     query       : shape=(2, 4096, 8, 40) (torch.float16)\n"
      "`cutlassF` is not supported because:\n"
      "    xFormers wasn't build with CUDA support\n");
  ASSERT_TRUE(leads_with(r, "xformers-built-for-other-torch"));
  EXPECT_NE(find_rule(r, "xformers-no-operator"), nullptr);
}

TEST(ExplainExtensionPackages, VllmBfloat16OnATuringGpuIsDtypeHalf) {
  const auto r = explain_no_facts(
      "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has "
      "compute capability 7.5. You can use float16 instead by explicitly setting the`dtype` flag in CLI, for "
      "example: --dtype=half.");
  ASSERT_TRUE(leads_with(r, "vllm-bf16-needs-sm80"));
  EXPECT_TRUE(contains(r.matches.front().cause, "Tesla T4")) << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().fix, "--dtype half")) << r.matches.front().fix;
}

// An IPEX quantisation log (CPU) and a note on torch_npu; CUDA's wording is the same.
TEST(ExplainExtensionPackages, AutocastWithAnUnsupportedDtypeIsOffNotBroken) {
  const auto r = explain_no_facts(
      "/root/miniconda3/envs/amx_lab/lib/python3.10/site-packages/torch/amp/autocast_mode.py:283: UserWarning: In "
      "CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
      "CPU Autocast only supports dtype of torch.bfloat16, torch.float16 currently.\n");
  ASSERT_TRUE(leads_with(r, "torch-autocast-dtype-disabled"));
  EXPECT_EQ(r.matches.front().severity, RuleSeverity::warning);
  EXPECT_TRUE(contains(r.matches.front().fix, "enabled=False")) << r.matches.front().fix;
}

}  // namespace
}  // namespace gpudoctor
