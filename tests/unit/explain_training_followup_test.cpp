// Training-time failures (session 36 review, second round): answers that named the wrong cause
// or only the catalog's generic text. Each message was read where it is printed (the torch
// 2.5.1 wheel's libtorch_cuda.so strings, ProcessGroupNCCL.cpp of earlier releases, NCCL's
// include/checks.h) before the rule was written.
#include <gtest/gtest.h>

#include <string>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

/// Every candidate's cause and fix of the report, one string: what a reader is told.
std::string followup_all_text(const ExplainReport& r) {
  std::string out;
  for (const auto& m : r.matches) out += m.cause + "\n" + m.fix + "\n";
  return out;
}

/// The rule ids of the report, in order, for failure messages.
std::string followup_rules(const ExplainReport& r) {
  std::string out;
  for (const auto& m : r.matches) out += m.rule + " ";
  return out;
}

// ProcessGroupNCCL's heartbeat monitor: torch 2.2-2.3 "Heartbeat monitor timed out! Process will
// be terminated after dumping debug info." then "ProcessGroupNCCL's watchdog got stuck for N
// seconds ..."; torch 2.4+ (2.5.1 libtorch_cuda.so) the latter then "Terminating the process after
// attempting to dump debug info, due to ProcessGroupNCCL watchdog hang." The watchdog thread itself
// is stuck, which init_process_group(timeout=) does not govern.
TEST(ExplainTrainingFollowup, NcclHeartbeatMonitorIsAStuckWatchdogNotACollectiveTimeout) {
  const std::string torch23 =
      "[rank25]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 25] Heartbeat monitor timed out! Process will be terminated "
      "after dumping debug info. workMetaList_.size()=2\n"
      "[rank25]:[E ProcessGroupNCCL.cpp:1153] [PG 0 Rank 25] ProcessGroupNCCL preparing to dump debug info.\n"
      "[rank25]:[F ProcessGroupNCCL.cpp:1169] [PG 0 Rank 25] [PG 0 Rank 25] ProcessGroupNCCL's watchdog got stuck for "
      "600 seconds without making progress in monitoring enqueued collectives. This typically indicates a NCCL/CUDA "
      "API hang blocking the watchdog, and could be triggered by another thread holding the GIL inside a CUDA api, or "
      "other deadlock-prone behaviors.If you suspect the watchdog is not actually stuck and a longer timeout would "
      "help, you can either increase the timeout (TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC) to a larger value or disable the "
      "heartbeat monitor (TORCH_NCCL_ENABLE_MONITORING=0).\n";
  const std::string torch25 =
      "[rank2]:[E1229 20:29:13.091296956 ProcessGroupNCCL.cpp:1484] [PG ID 0 PG GUID 0(default_pg) Rank 2] "
      "ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued "
      "collectives. This typically indicates a NCCL/CUDA API (e.g., CudaEventDestroy) hang blocking the watchdog, and "
      "could be triggered by another thread holding the GIL inside a CUDA api (for example, CudaEventDestroy), or "
      "other deadlock-prone behaviors.\n"
      "[rank2]:[F1229 20:37:13.091528310 ProcessGroupNCCL.cpp:1306] [PG ID 0 PG GUID 0(default_pg) Rank 2] [PG ID 0 PG "
      "GUID 0(default_pg) Rank 2] Terminating the process after attempting to dump debug info, due to "
      "ProcessGroupNCCL watchdog hang.\n";
  for (const std::string& log : {torch23, torch25}) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "nccl-watchdog-hang")) << log;
    EXPECT_EQ(find_rule(r, "nccl-timeout"), nullptr) << followup_rules(r);
    const std::string& fix = r.matches.front().fix;
    EXPECT_NE(fix.find("TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC"), std::string::npos);
    EXPECT_NE(fix.find("TORCH_NCCL_DUMP_ON_TIMEOUT"), std::string::npos);
    EXPECT_NE(fix.find("py-spy dump"), std::string::npos);
    EXPECT_EQ(fix.find("init_process_group(timeout"), std::string::npos) << fix;
  }
  EXPECT_NE(explain_no_facts(torch25).matches.front().cause.find("480 seconds"), std::string::npos);
  // A collective that timed out first is its own answer; the watchdog hang does not hide it.
  const auto both = explain_no_facts(
      "[rank3]:[E ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog caught collective operation timeout: "
      "WorkNCCL(SeqNum=52, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600035 milliseconds before timing out.\n" +
      torch25);
  EXPECT_NE(find_rule(both, "nccl-timeout"), nullptr) << followup_rules(both);
  EXPECT_NE(find_rule(both, "nccl-watchdog-hang"), nullptr) << followup_rules(both);
}

// PyTorch's getNcclErrorDetailStr prints NCCL's last WARN after "Last error:" without the "NCCL
// WARN" prefix; NCCL's include/checks.h CUDACHECK words it "Cuda failure '%s'". Out of memory
// then names the unhandled CUDA error: one answer, memory.
TEST(ExplainTrainingFollowup, NcclCudaFailureOutOfMemoryAfterLastErrorLeadsWithMemory) {
  const auto r = explain_no_facts(
      "    _verify_param_shape_across_processes(self.process_group, parameters)\n"
      "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, "
      "unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5\n"
      "ncclUnhandledCudaError: Call to CUDA function failed.\n"
      "Last error:\n"
      "Cuda failure 'out of memory'\n");
  ASSERT_TRUE(leads_with(r, "nccl-cuda-out-of-memory")) << followup_rules(r);
  EXPECT_EQ(r.matches.size(), 1U) << followup_rules(r);
  EXPECT_NE(r.matches.front().fix.find("NCCL_BUFFSIZE"), std::string::npos);
  // Another CUDA failure after "Last error:" stays NCCL's unhandled CUDA error.
  const auto p2p = explain_no_facts(
      "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, "
      "unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5\n"
      "ncclUnhandledCudaError: Call to CUDA function failed.\n"
      "Last error:\n"
      "Cuda failure 'peer access is not supported between these two devices'\n");
  EXPECT_TRUE(leads_with(p2p, "nccl-unhandled-cuda-error"));
  EXPECT_EQ(find_rule(p2p, "nccl-cuda-out-of-memory"), nullptr);
  // Not any program's "Cuda failure" with out of memory in it: only NCCL's line shape.
  EXPECT_EQ(
      find_rule(explain_no_facts("my_kernel: Cuda failure in allocation, out of memory\n"), "nccl-cuda-out-of-memory"),
      nullptr);
}

// TORCH_CUDABLAS_CHECK prints "CUDA error: <status> when calling `<cuBLAS call>`" (libtorch_cuda.so).
// After a kernel's failed assertion the context is unusable, so cuBLAS's EXECUTION_FAILED is its
// consequence; alone it is an earlier asynchronous error or a cuBLAS problem, not "check versions".
TEST(ExplainTrainingFollowup, CublasExecutionFailedAfterAnAssertionIsItsConsequence) {
  const std::string cublas =
      "RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasSgemm( handle, opa, opb, m, n, k, "
      "&alpha, a, lda, b, ldb, &beta, c, ldc)`\n";
  const auto r = explain_no_facts(
      "../aten/src/ATen/native/cuda/Loss.cu:250: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: "
      "[3,0,0] Assertion `t >= 0 && t < n_classes` failed.\n"
      "    return F.linear(input, self.weight, self.bias)\n" +
      cublas);
  ASSERT_TRUE(leads_with(r, "torch-class-label-out-of-range")) << followup_rules(r);
  EXPECT_NE(find_rule(r, "torch-cublas-execution-failed/after-device-assert"), nullptr) << followup_rules(r);
  EXPECT_EQ(find_rule(r, "code/cublas/CUBLAS_STATUS_EXECUTION_FAILED"), nullptr) << followup_rules(r);
  EXPECT_EQ(followup_all_text(r).find("library versions"), std::string::npos);
  const auto alone = explain_no_facts(cublas);
  ASSERT_TRUE(leads_with(alone, "torch-cublas-execution-failed")) << followup_rules(alone);
  EXPECT_EQ(find_rule(alone, "torch-cublas-execution-failed/after-device-assert"), nullptr);
  EXPECT_NE(alone.matches.front().fix.find("CUDA_LAUNCH_BLOCKING=1"), std::string::npos);
  EXPECT_NE(alone.matches.front().cause.find("cublasSgemm"), std::string::npos);
}

// cudaGetErrorString(cudaErrorMisalignedAddress) after PyTorch's "CUDA error: ": a kernel's own
// fault, answered like an illegal memory access, with the tools that find the kernel.
TEST(ExplainTrainingFollowup, MisalignedAddressIsAKernelBug) {
  for (const char* line :
       {"RuntimeError: CUDA error: misaligned address", "RuntimeError: CUDA driver error: misaligned address"}) {
    const auto r = explain_no_facts(std::string("    out = fused_attention(q, k, v)\n") + line +
                                    "\nCUDA kernel errors might be asynchronously reported at some other API call, so "
                                    "the stacktrace below might be incorrect.\n");
    ASSERT_TRUE(leads_with(r, "cuda-misaligned-address")) << line << ": " << followup_rules(r);
    EXPECT_EQ(r.matches.size(), 1U) << followup_rules(r);
    EXPECT_NE(r.matches.front().fix.find("compute-sanitizer"), std::string::npos);
    EXPECT_NE(r.matches.front().fix.find("CUDA_LAUNCH_BLOCKING=1"), std::string::npos);
    EXPECT_EQ(followup_all_text(r).find("library versions"), std::string::npos);
  }
}

}  // namespace
}  // namespace gpudoctor
