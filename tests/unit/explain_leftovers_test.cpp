// Leftovers of the session 35 and 36 reviews: answers that told the user to do what caused the
// failure, or gave only the catalog's generic text. Each message was read where it is printed
// (Triton's third_party/nvidia/backend/compiler.py, the torch 2.5.1 wheel's libtorch_cuda.so
// strings, the transformers / vLLM / mmdet wheels) before the rule was written.
#include <gtest/gtest.h>

#include <string>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

/// Every candidate's cause and fix of the report, one string: what a reader is told.
std::string leftovers_all_text(const ExplainReport& r) {
  std::string out;
  for (const auto& m : r.matches) out += m.cause + "\n" + m.fix + "\n";
  return out;
}

/// The rule ids of the report, in order, for failure messages.
std::string leftovers_rules(const ExplainReport& r) {
  std::string out;
  for (const auto& m : r.matches) out += m.rule + " ";
  return out;
}

bool leftovers_has(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// Triton runs the ptxas TRITON_PTXAS_PATH names whenever that file exists, else its own
// triton/backends/nvidia/bin/ptxas (compiler.py _path_to_binary), and its PTXASError ends with
// "Repro command: " + the command it ran, that ptxas first. A CUDA toolkit's ptxas there that does
// not know the GPU is the user's variable pointing at an older toolkit: telling them to export
// TRITON_PTXAS_PATH=/usr/local/cuda/bin/ptxas was the wrong way round (review 36, log 43).
TEST(ExplainLeftovers, TritonPtxasPathAtAnOlderToolkitIsTheCauseNotTheFix) {
  const std::string log =
      "$ export TRITON_PTXAS_PATH=/usr/local/cuda-11.8/bin/ptxas\n"
      "$ python train_h100.py --compile\n"
      "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
      "PTXASError: Internal Triton PTX codegen error\n"
      "`ptxas` stderr:\n"
      "ptxas fatal   : Value 'sm_90a' is not defined for option 'gpu-name'\n"
      "\n"
      "Repro command: /usr/local/cuda-11.8/bin/ptxas -lineinfo -v --gpu-name=sm_90a /tmp/tmp4b2x9k1a.ptx -o "
      "/tmp/tmp4b2x9k1a.ptx.o\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "ptxas-too-old-for-gpu/triton-path"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(leftovers_has(m.fix, "unset TRITON_PTXAS_PATH")) << m.fix;
  EXPECT_TRUE(leftovers_has(m.fix, "sm_90a")) << m.fix;
  // No answer tells the user to set the variable to a toolkit's ptxas as the remedy.
  const std::string all = leftovers_all_text(r);
  EXPECT_FALSE(leftovers_has(all, "export TRITON_PTXAS_PATH=/usr/local/cuda/bin/ptxas")) << all;
  EXPECT_EQ(find_rule(r, "ptxas-too-old-for-gpu/triton"), nullptr) << leftovers_rules(r);
  // Triton's PTXASError wrapper says the same: the ptxas that ran is the variable's.
  const ExplainMatch* wrapper = find_rule(r, "triton-ptxas-failed/triton-path");
  ASSERT_NE(wrapper, nullptr) << leftovers_rules(r);
  EXPECT_TRUE(leftovers_has(wrapper->fix, "unset TRITON_PTXAS_PATH")) << wrapper->fix;

  // The same ptxas line from Triton's own bundled ptxas keeps the old answer: give Triton a newer
  // toolkit's ptxas (triton-lang/triton#8539, DGX Spark sm_121a).
  const auto bundled = explain_no_facts(
      "triton.runtime.errors.PTXASError: PTXAS error: Internal Triton PTX codegen error\n"
      "`ptxas` stderr:\n"
      "ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'\n"
      "Repro command: /home/u/miniforge3/envs/pt10/lib/python3.10/site-packages/triton/backends/nvidia/bin/ptxas "
      "-lineinfo -v --gpu-name=sm_121a /tmp/tmpkw7ug6t8.ptx -o /tmp/tmpkw7ug6t8.ptx.o\n");
  ASSERT_TRUE(leads_with(bundled, "ptxas-too-old-for-gpu/triton"));
  EXPECT_TRUE(leftovers_has(bundled.matches.front().fix, "export TRITON_PTXAS_PATH=")) << bundled.matches.front().fix;
  EXPECT_EQ(find_rule(bundled, "ptxas-too-old-for-gpu/triton-path"), nullptr) << leftovers_rules(bundled);
  EXPECT_EQ(find_rule(bundled, "triton-ptxas-failed/triton-path"), nullptr) << leftovers_rules(bundled);

  // Another failure of the user's ptxas (a crash, not an unknown GPU) is not put down to its age.
  const auto crash = explain_no_facts(
      "PTXASError: PTXAS error: `ptxas` raised SIGSEGV\n"
      "`ptxas` stderr:\n"
      "\n"
      "Repro command: /usr/local/cuda-12.4/bin/ptxas -lineinfo -v --gpu-name=sm_90a /tmp/tmpa.ptx -o "
      "/tmp/tmpa.ptx.o\n");
  EXPECT_EQ(find_rule(crash, "ptxas-too-old-for-gpu/triton-path"), nullptr) << leftovers_rules(crash);
  ASSERT_TRUE(leads_with(crash, "triton-ptxas-failed/triton-path"));
  EXPECT_TRUE(leftovers_has(crash.matches.front().cause, "TRITON_PTXAS_PATH")) << crash.matches.front().cause;
}

// Triton 3.1 and earlier (the one torch 2.5 pins; triton/backends/nvidia/compiler.py make_cubin)
// raised RuntimeError(f'Internal Triton PTX codegen error: \n{log}'), no PTXASError and no Repro
// command: the ptxas is still Triton's, not XLA's.
TEST(ExplainLeftovers, Triton31PtxasErrorIsTritonsNotXlas) {
  const auto r = explain_no_facts(
      "RuntimeError: Internal Triton PTX codegen error: \n"
      "ptxas fatal   : Value 'sm_90a' is not defined for option 'gpu-name'\n");
  // Since session 37 Triton 3.1's own answer: its bundled ptxas (CUDA 12.0-12.4) knows sm_90a, so
  // the one that failed is TRITON_PTXAS_PATH's (ExplainSession37.*).
  ASSERT_TRUE(leads_with(r, "ptxas-too-old-for-gpu/triton-legacy"));
  EXPECT_TRUE(leftovers_has(r.matches.front().fix, "unset TRITON_PTXAS_PATH")) << r.matches.front().fix;
  EXPECT_FALSE(leftovers_has(leftovers_all_text(r), "XLA")) << leftovers_all_text(r);
  EXPECT_NE(find_rule(r, "triton-ptxas-failed/triton-legacy"), nullptr) << leftovers_rules(r);
}

// PyTorch's AT_CUDNN_CHECK (aten/src/ATen/cudnn/Exceptions.h): "cuDNN error: " + cuDNN's status
// name, and for CUDNN_STATUS_NOT_SUPPORTED ". This error may appear if you passed in a
// non-contiguous input."; a convolution adds ConvShared.cpp repro_from_args' "You can try to
// repro this exception using the following code snippet." (all in the torch 2.5.1 wheel's
// libtorch_cuda.so). Only the catalog's generic text answered them (review 36, logs 70, 71).
TEST(ExplainLeftovers, TorchCudnnNotSupportedNamesItsUsualCausesAndTheCheck) {
  const auto r = explain_no_facts(
      "  File \"/usr/local/lib/python3.10/dist-packages/torch/nn/modules/conv.py\", line 458, in _conv_forward\n"
      "    return F.conv2d(input, weight, bias, self.stride,\n"
      "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED. This error may appear if you passed in a "
      "non-contiguous input.\n");
  ASSERT_TRUE(leads_with(r, "torch-cudnn-not-supported"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(leftovers_has(m.fix, ".contiguous()")) << m.fix;
  EXPECT_TRUE(leftovers_has(m.fix, "torch.backends.cudnn.enabled = False")) << m.fix;
  EXPECT_TRUE(leftovers_has(m.cause, "2^31")) << m.cause;
  EXPECT_EQ(find_rule(r, "code/cudnn/CUDNN_STATUS_NOT_SUPPORTED"), nullptr) << leftovers_rules(r);
}

TEST(ExplainLeftovers, TorchCudnnExecutionFailedLeadsWithMemoryAndTheReproSnippet) {
  const std::string log =
      "RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED\n"
      "You can try to repro this exception using the following code snippet. If that doesn't trigger the error, "
      "please include your original repro script when reporting this issue.\n"
      "\n"
      "import torch\n"
      "torch.backends.cudnn.benchmark = True\n"
      "data = torch.randn([16, 256, 128, 128], dtype=torch.half, device='cuda', "
      "requires_grad=True).to(memory_format=torch.channels_last)\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "torch-cudnn-execution-failed"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(leftovers_has(m.cause, "memory")) << m.cause;
  EXPECT_TRUE(leftovers_has(m.fix, "CUDA_LAUNCH_BLOCKING=1")) << m.fix;
  EXPECT_TRUE(leftovers_has(m.fix, "You can try to repro this exception")) << m.fix;
  EXPECT_TRUE(leftovers_has(m.fix, "torch.backends.cudnn.enabled = False")) << m.fix;
  EXPECT_EQ(find_rule(r, "code/cudnn/CUDNN_STATUS_EXECUTION_FAILED"), nullptr) << leftovers_rules(r);
  // After a kernel's assertion the context is gone: the cuDNN failure is its consequence.
  const auto after = explain_no_facts(
      "/pytorch/aten/src/ATen/native/cuda/Loss.cu:240: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], "
      "thread: [3,0,0] Assertion `t >= 0 && t < n_classes` failed.\n" +
      log);
  const ExplainMatch* consequence = find_rule(after, "torch-cudnn-execution-failed/after-device-assert");
  ASSERT_NE(consequence, nullptr) << leftovers_rules(after);
  EXPECT_FALSE(consequence->alternative) << leftovers_rules(after);
}

// transformers 4.46.3 quantizers/quantizer_bnb_4bit.py:74 (8-bit: quantizer_bnb_8bit.py:73) raise
// this when is_bitsandbytes_available() is False (utils/import_utils.py:869-881): bitsandbytes
// missing, or older than 0.43.1 while torch.cuda.is_available() is False. "Upgrade" alone does not
// help on a CPU PyTorch (session 35 review, log 04).
TEST(ExplainLeftovers, TransformersBitsandbytesLatestVersionAsksWhetherTorchSeesTheGpu) {
  const auto r = explain_no_facts(
      "ImportError: Using `bitsandbytes` 4-bit quantization requires the latest version of bitsandbytes: `pip "
      "install -U bitsandbytes`\n");
  ASSERT_TRUE(leads_with(r, "transformers-bnb-unavailable"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(leftovers_has(m.cause, "0.43.1")) << m.cause;
  EXPECT_TRUE(leftovers_has(m.fix, "torch.cuda.is_available()")) << m.fix;
  EXPECT_TRUE(leftovers_has(m.fix, "pip install -U bitsandbytes")) << m.fix;
  EXPECT_TRUE(leads_with(explain_no_facts("ImportError: Using `bitsandbytes` 8-bit quantization requires the latest "
                                          "version of bitsandbytes: `pip install -U bitsandbytes`\n"),
                         "transformers-bnb-unavailable"));
}

// transformers' bitsandbytes quantizers (quantizer_bnb_8bit.py:102, quantizer_bnb_4bit.py:103) and
// accelerate's utils/bnb.py:258: the device map put quantized layers on the CPU or disk, because
// they do not fit in GPU memory, or because PyTorch sees no GPU at all (session 35, log 06).
TEST(ExplainLeftovers, BitsandbytesModulesDispatchedOnTheCpuIsGpuMemory) {
  const auto r = explain_no_facts(
      "ValueError: Some modules are dispatched on the CPU or the disk. Make sure you have enough GPU RAM to fit the "
      "quantized model. If you want to dispatch the model on the CPU or the disk while keeping these modules in "
      "32-bit, you need to set `llm_int8_enable_fp32_cpu_offload=True` and pass a custom `device_map` to "
      "`from_pretrained`.\n");
  ASSERT_TRUE(leads_with(r, "bnb-modules-dispatched-on-cpu"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_EQ(m.category, "out-of-memory");
  EXPECT_TRUE(leftovers_has(m.fix, "llm_int8_enable_fp32_cpu_offload=True")) << m.fix;
  EXPECT_TRUE(leftovers_has(m.fix, "torch.cuda.is_available()")) << m.fix;
}

// vLLM 0.6.3 worker/worker.py:232 determine_num_available_blocks: free memory after the profiling
// run must be below free memory at start; more free memory means something else on the GPU freed
// memory meanwhile (session 35, log 13).
TEST(ExplainLeftovers, VllmMemoryProfilingAssertIsAnotherUserOfTheGpu) {
  const auto r = explain_no_facts(
      "[rank0]: AssertionError: Error in memory profiling. Initial free memory 22617849856, current free memory "
      "23887413248. This happens when the GPU memory was not properly cleaned up before initializing the vLLM "
      "instance.\n");
  ASSERT_TRUE(leads_with(r, "vllm-memory-profiling-free-grew"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(leftovers_has(m.cause, "22617849856")) << m.cause;
  EXPECT_TRUE(leftovers_has(m.cause, "another process")) << m.cause;
  EXPECT_TRUE(leftovers_has(m.fix, "nvidia-smi")) << m.fix;
}

// mmdet 3.3.0 mmdet/__init__.py: assert mmcv_minimum_version <= mmcv < mmcv_maximum_version, with
// "MMCV==2.2.0 is used but incompatible. Please install mmcv>=2.0.0rc4, <2.2.0." (the same for
// MMEngine); `mim install mmcv` takes 2.2.0 (session 35, log 72).
TEST(ExplainLeftovers, MmdetMmcvVersionAssertNamesTheRange) {
  const auto r = explain_no_facts(
      "AssertionError: MMCV==2.2.0 is used but incompatible. Please install mmcv>=2.0.0rc4, <2.2.0.\n");
  ASSERT_TRUE(leads_with(r, "openmmlab-version-incompatible"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(leftovers_has(m.cause, "2.2.0")) << m.cause;
  EXPECT_TRUE(leftovers_has(m.fix, "mim install \"mmcv>=2.0.0rc4, <2.2.0\"")) << m.fix;
  const auto engine = explain_no_facts(
      "AssertionError: MMEngine==1.0.1 is used but incompatible. Please install mmengine>=0.7.1, <1.0.0.\n");
  ASSERT_TRUE(leads_with(engine, "openmmlab-version-incompatible"));
  EXPECT_TRUE(leftovers_has(engine.matches.front().fix, "mmengine>=0.7.1, <1.0.0")) << engine.matches.front().fix;
}

}  // namespace
}  // namespace gpudoctor
