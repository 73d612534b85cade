// Session 37: three answers the session 36 review left imprecise, each read where it is printed.
// - PyTorch 2.1+'s OOM message lists the other processes on the GPU (c10/cuda/CUDACachingAllocator.cpp
//   reportProcessMemoryInfo, pytorch#99699; in the 2.1.0 wheel's libc10_cuda.so): when they hold
//   much of the card, they are the cause, not the batch.
// - expandable_segments is an option from torch 2.1 (the 2.0.1 wheel rejects it, "Unrecognized
//   CachingAllocator option"); max_split_size_mb from 1.10 (absent from the 1.9.1 wheel).
// - Triton 3.1 and older (torch 2.5 and older) print "Internal Triton PTX codegen error: " (with the
//   colon, no Repro command); their PTX version table makes a CUDA 12.6+ ptxas refuse their PTX, so
//   TRITON_PTXAS_PATH cannot bring them a ptxas that knows Blackwell.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <string_view>

#include "core/version.hpp"
#include "explain/explain_session.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

// Review 36, log 02: another process (24689) holds 12.31 GiB of the 23.65 GiB card, this one 11.21.
constexpr std::string_view kS37OtherProcessOom =
    "  0%|          | 0/1250 [00:00<?, ?it/s]\n"
    "Traceback (most recent call last):\n"
    "  File \"/workspace/finetune.py\", line 97, in <module>\n"
    "    trainer.train()\n"
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 256.00 MiB. GPU 0 has a total capacity of 23.65 "
    "GiB of which 118.44 MiB is free. Process 24689 has 12.31 GiB memory in use. Including non-PyTorch memory, this "
    "process has 11.21 GiB memory in use. Of the allocated memory 10.62 GiB is allocated by PyTorch, and 145.20 MiB "
    "is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting "
    "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory "
    "Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n";

TEST(ExplainSession37, AnotherProcessHoldingTheGpuIsNamedAsTheCause) {
  const auto r = explain_no_facts(kS37OtherProcessOom);
  ASSERT_TRUE(leads_with(r, "torch-cuda-oom-other-process")) << testing::rule_list(r);
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(testing::mentions(m.cause, "Process 24689 has 12.31 GiB")) << m.cause;
  EXPECT_TRUE(testing::mentions(m.cause, "11.21 GiB")) << m.cause;
  EXPECT_TRUE(testing::mentions(m.fix, "nvidia-smi")) << m.fix;
  EXPECT_TRUE(testing::mentions(m.fix, "kill <PID>")) << m.fix;
  // The batch reading follows it, as the other possible cause; the generic answer is gone.
  const ExplainMatch* own = find_rule(r, "torch-cuda-oom-other-process/own-use");
  ASSERT_NE(own, nullptr) << testing::rule_list(r);
  EXPECT_TRUE(own->alternative);
  EXPECT_EQ(find_rule(r, "torch-cuda-oom"), nullptr) << testing::rule_list(r);

  // torch 2.1's wording ("capacty"), this process listed first: NVML's order.
  const auto first = explain_no_facts(
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 138.00 MiB. GPU 0 has a total capacty of "
      "15.90 GiB of which 8.44 MiB is free. Including non-PyTorch memory, this process has 2.32 GiB memory in use. "
      "Process 1246069 has 13.27 GiB memory in use. Process 1246100 has 310.00 MiB memory in use. Of the allocated "
      "memory 1.12 GiB is allocated by PyTorch, and 410.41 MiB is reserved by PyTorch but unallocated.\n");
  ASSERT_TRUE(leads_with(first, "torch-cuda-oom-other-process")) << testing::rule_list(first);
  EXPECT_TRUE(testing::mentions(first.matches.front().cause, "Process 1246069 has 13.27 GiB"))
      << first.matches.front().cause;
  EXPECT_TRUE(testing::mentions(first.matches.front().cause, "Process 1246100")) << first.matches.front().cause;
}

TEST(ExplainSession37, SmallOrOwnProcessEntriesKeepTheMemoryAnswer) {
  // A 149 MiB process beside this one's 7.01 GiB of 7.51: this process's own size is the problem.
  const auto small = explain_no_facts(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 7.51 "
      "GiB of which 40.75 MiB is free. Process 9500 has 148.91 MiB memory in use. Including non-PyTorch memory, this "
      "process has 7.01 GiB memory in use. Of the allocated memory 6.81 GiB is allocated by PyTorch, and 17.19 MiB is "
      "reserved by PyTorch but unallocated.\n");
  ASSERT_TRUE(leads_with(small, "torch-cuda-oom")) << testing::rule_list(small);
  EXPECT_EQ(find_rule(small, "torch-cuda-oom-other-process"), nullptr) << testing::rule_list(small);

  // In a container NVML's PIDs are the host's, so this process itself is a "Process N" and no
  // "this process" entry is printed: not another process.
  const auto container = explain_no_facts(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 546.00 MiB. GPU 0 has a total capacity of 15.77 "
      "GiB of which 514.19 MiB is free. Process 562167 has 15.25 GiB memory in use. Of the allocated memory 13.73 GiB "
      "is allocated by PyTorch, with 46.00 MiB allocated in private pools (e.g., CUDA Graphs), and 736.86 MiB is "
      "reserved by PyTorch but unallocated.\n");
  ASSERT_TRUE(leads_with(container, "torch-cuda-oom")) << testing::rule_list(container);
  EXPECT_EQ(find_rule(container, "torch-cuda-oom-other-process"), nullptr) << testing::rule_list(container);

  // Others hold a quarter of the card, but the request would not fit even without them.
  const auto huge = explain_no_facts(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 30.00 GiB. GPU 0 has a total capacity of 39.39 "
      "GiB of which 2.91 GiB is free. Process 4242 has 12.00 GiB memory in use. Including non-PyTorch memory, this "
      "process has 24.47 GiB memory in use. Of the allocated memory 23.80 GiB is allocated by PyTorch, and 188.11 "
      "MiB is reserved by PyTorch but unallocated.\n");
  EXPECT_EQ(find_rule(huge, "torch-cuda-oom-other-process"), nullptr) << testing::rule_list(huge);
  ASSERT_TRUE(leads_with(huge, "torch-cuda-oom")) << testing::rule_list(huge);
}

// Review 36, log 03: torch 1.12's OOM. expandable_segments is no option there (1.10-2.0 raise
// "Unrecognized CachingAllocator option: expandable_segments"); max_split_size_mb is.
TEST(ExplainSession37, OldTorchIsNotToldToUseExpandableSegments) {
  const auto old = explain_no_facts(
      "torch version: 1.12.1+cu113\n"
      "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 11.17 GiB total capacity; 10.63 GiB "
      "already allocated; 2.81 MiB free; 10.73 GiB reserved in total by PyTorch) If reserved memory is >> allocated "
      "memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and "
      "PYTORCH_CUDA_ALLOC_CONF\n");
  ASSERT_TRUE(leads_with(old, "torch-cuda-oom")) << testing::rule_list(old);
  EXPECT_FALSE(testing::mentions(testing::told(old), "expandable_segments:True")) << testing::told(old);
  EXPECT_TRUE(testing::mentions(old.matches.front().fix, "max_split_size_mb:128")) << old.matches.front().fix;

  // torch 2.5: expandable_segments, without the older release's label.
  const auto now = explain_no_facts(std::string("PyTorch version: 2.5.1+cu124\n") + std::string(kS37OtherProcessOom));
  const ExplainMatch* own = find_rule(now, "torch-cuda-oom-other-process/own-use");
  ASSERT_NE(own, nullptr) << testing::rule_list(now);
  EXPECT_TRUE(testing::mentions(own->fix, "expandable_segments:True")) << own->fix;
  EXPECT_FALSE(testing::mentions(own->fix, "max_split_size_mb")) << own->fix;
  EXPECT_FALSE(testing::mentions(own->fix, "PyTorch 2.1 and later")) << own->fix;

  // No version in the log: both, each with the releases it is for.
  const auto unknown = explain_no_facts(
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 0; 10.75 GiB total capacity; "
      "8.12 GiB already allocated; 1.02 GiB free; 8.40 GiB reserved in total by PyTorch)\n");
  ASSERT_TRUE(leads_with(unknown, "torch-cuda-oom")) << testing::rule_list(unknown);
  const std::string& fix = unknown.matches.front().fix;
  EXPECT_TRUE(testing::mentions(fix, "PyTorch 2.1 and later: If reserved")) << fix;
  EXPECT_TRUE(testing::mentions(fix, "PyTorch before 2.1: If reserved")) << fix;
}

TEST(ExplainSession37, VersionPartsKeepTheTextOfTheRangeTheVersionIsIn) {
  const std::string text = "Set {?torch>=2.1:A}{?torch<2.1:B} now.";
  std::map<std::string, Version, std::less<>> v;
  v.emplace("pytorch", *Version::parse("2.1.0+cu121"));
  EXPECT_EQ(select_version_text(text, v), "Set A now.");
  v["pytorch"] = *Version::parse("2.0.1");
  EXPECT_EQ(select_version_text(text, v), "Set B now.");
  v["pytorch"] = *Version::parse("1.9.1");
  EXPECT_EQ(select_version_text("{?torch>=1.10,<2.1:C}{?torch<1.10:D}", v), "D");
  EXPECT_EQ(select_version_text(text, {}), "Set A [PyTorch 2.1 and later] or B [PyTorch before 2.1] now.");
  // Not a version part: literal text.
  EXPECT_EQ(select_version_text("{?torch:x} {?torch>=two:y}", v), "{?torch:x} {?torch>=two:y}");
}

// Triton 3.1 and older raise "Internal Triton PTX codegen error: " + ptxas's log (compiler.py
// make_cubin in 3.0/3.1, libtriton.so's compile_ptx_to_cubin in 2.0-2.3). Their own ptxas (CUDA
// 12.0-12.4) knows every GPU before Blackwell; for Blackwell TRITON_PTXAS_PATH cannot help: with a
// CUDA 12.6+ ptxas their ptx_get_version writes a PTX version that ptxas refuses, CUDA 13's fails
// their version check. A newer PyTorch (2.7+, Triton 3.3+) is the fix.
TEST(ExplainSession37, OldTritonOnANewerGpuIsAnUpgradeNotTritonPtxasPath) {
  const auto r = explain_no_facts(
      "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
      "RuntimeError: Internal Triton PTX codegen error: \n"
      "ptxas fatal   : Value 'sm_120' is not defined for option 'gpu-name'\n");
  ASSERT_TRUE(leads_with(r, "ptxas-too-old-for-gpu/triton-legacy")) << testing::rule_list(r);
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(testing::mentions(m.fix, "2.7")) << m.fix;
  EXPECT_TRUE(testing::mentions(m.cause, "sm_120")) << m.cause;
  EXPECT_FALSE(testing::mentions(testing::told(r), "export TRITON_PTXAS_PATH=")) << testing::told(r);
  EXPECT_EQ(find_rule(r, "ptxas-too-old-for-gpu/triton"), nullptr) << testing::rule_list(r);
  const ExplainMatch* wrapper = find_rule(r, "triton-ptxas-failed/triton-legacy");
  ASSERT_NE(wrapper, nullptr) << testing::rule_list(r);

  // Triton 3.2+ (no colon, a Repro command with its bundled ptxas) keeps the TRITON_PTXAS_PATH answer.
  const auto newer = explain_no_facts(
      "triton.runtime.errors.PTXASError: PTXAS error: Internal Triton PTX codegen error\n"
      "`ptxas` stderr:\n"
      "ptxas fatal   : Value 'sm_121a' is not defined for option 'gpu-name'\n"
      "Repro command: /usr/lib/python3.12/site-packages/triton/backends/nvidia/bin/ptxas -lineinfo -v "
      "--gpu-name=sm_121a /tmp/tmpk.ptx -o /tmp/tmpk.ptx.o\n");
  ASSERT_TRUE(leads_with(newer, "ptxas-too-old-for-gpu/triton")) << testing::rule_list(newer);
  EXPECT_EQ(find_rule(newer, "ptxas-too-old-for-gpu/triton-legacy"), nullptr) << testing::rule_list(newer);
  EXPECT_TRUE(testing::mentions(newer.matches.front().fix, "TRITON_PTXAS_BLACKWELL_PATH")) << newer.matches.front().fix;
}

// Review 37, log 23: PyTorch before 2.1 names no other process, but its message says how much
// the card has, how much is free and how much PyTorch reserved (CUDACachingAllocator.cpp before
// pytorch#99699): 86 MiB reserved and 24.56 MiB free of 7.92 GiB means the rest is held outside
// this process's PyTorch, most often by another process.
TEST(ExplainSession37, OldOomWithMostOfTheCardHeldOutsidePytorchNamesOtherProcesses) {
  const auto r = explain_no_facts(
      "RuntimeError: CUDA out of memory. Tried to allocate 216.00 MiB (GPU 0; 7.92 GiB total capacity; 69.17 MiB "
      "already allocated; 24.56 MiB free; 86.00 MiB reserved in total by PyTorch) If reserved memory is >> allocated "
      "memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and "
      "PYTORCH_CUDA_ALLOC_CONF\n");
  ASSERT_TRUE(leads_with(r, "torch-cuda-oom-held-elsewhere")) << testing::rule_list(r);
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(testing::mentions(m.cause, "86.00 MiB")) << m.cause;
  EXPECT_TRUE(testing::mentions(m.cause, "7.92 GiB")) << m.cause;
  EXPECT_TRUE(testing::mentions(m.fix, "nvidia-smi")) << m.fix;
  EXPECT_NE(find_rule(r, "torch-cuda-oom-held-elsewhere/own-use"), nullptr) << testing::rule_list(r);
  EXPECT_EQ(find_rule(r, "torch-cuda-oom"), nullptr) << testing::rule_list(r);

  // PyTorch 1.0-1.3 said "cached" for reserved; 2.0 inserts "allowed" under a memory fraction.
  const auto cached = explain_no_facts(
      "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 11.00 GiB total capacity; 1.21 GiB "
      "already allocated; 2.22 MiB free; 1.33 GiB cached)\n");
  EXPECT_TRUE(leads_with(cached, "torch-cuda-oom-held-elsewhere")) << testing::rule_list(cached);
  const auto allowed = explain_no_facts(
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 1; 23.65 GiB total "
      "capacity; 2.83 GiB already allocated; 18.06 MiB free; 23.00 GiB allowed; 3.10 GiB reserved in total by "
      "PyTorch)\n");
  EXPECT_TRUE(leads_with(allowed, "torch-cuda-oom-held-elsewhere")) << testing::rule_list(allowed);

  // PyTorch holds most of the card itself: the batch, not another process.
  const auto own = explain_no_facts(
      "RuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 0; 7.92 GiB total capacity; 6.80 GiB "
      "already allocated; 300.00 MiB free; 7.10 GiB reserved in total by PyTorch)\n");
  ASSERT_TRUE(leads_with(own, "torch-cuda-oom")) << testing::rule_list(own);
  EXPECT_EQ(find_rule(own, "torch-cuda-oom-held-elsewhere"), nullptr) << testing::rule_list(own);
  // A request larger than the card fits nowhere: not the others' fault.
  const auto huge = explain_no_facts(
      "RuntimeError: CUDA out of memory. Tried to allocate 12.00 GiB (GPU 0; 7.92 GiB total capacity; 69.17 MiB "
      "already allocated; 24.56 MiB free; 86.00 MiB reserved in total by PyTorch)\n");
  EXPECT_EQ(find_rule(huge, "torch-cuda-oom-held-elsewhere"), nullptr) << testing::rule_list(huge);
}

}  // namespace
}  // namespace gpudoctor
