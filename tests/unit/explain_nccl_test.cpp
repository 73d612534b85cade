// NCCL's own WARN lines, as NCCL prints them (src/misc/socket.cc, src/misc/ibvwrap.cc,
// src/transport/net_ib*, src/include/checks.h, src/init.cc, the shm code), and as PyTorch repeats
// NCCL's last one after "Last error:" (ProcessGroupNCCL / NCCLUtils getNcclErrorDetailStr).
#include <gtest/gtest.h>

#include <string>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

constexpr const char* kTorchSystemError =
    "torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/"
    "ProcessGroupNCCL.cpp:3690, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.27.7\n"
    "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. \n"
    "Last error:\n";

TEST(ExplainNccl, RemotePeerClosedPointsAtTheRankThatFailedFirst) {
  const auto r = explain_no_facts(
      "node-1:12345:12390 [0] misc/socket.cc:50 NCCL WARN socketProgress: Connection closed by remote peer "
      "node-2<49152>\n"
      "node-1:12345:12390 [0] NCCL INFO misc/socket.cc:752 -> 6\n");
  ASSERT_TRUE(leads_with(r, "nccl-remote-peer-closed"));
  EXPECT_NE(r.matches.front().cause.find("node-2<49152>"), std::string::npos);
}

TEST(ExplainNccl, RemotePeerClosedAfterTorchsLastErrorLeadsTheErrorCode) {
  const auto r = explain_no_facts(
      "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:219, remote "
      "process exited or there was a network error, NCCL version 2.20.5\n"
      "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.\n"
      "Last error:\n"
      "socketProgress: Connection closed by remote peer worker-1.cluster.local<54321>\n");
  ASSERT_TRUE(leads_with(r, "nccl-remote-peer-closed"));
}

TEST(ExplainNccl, SharedMemoryLastErrorLeadsTheSystemError) {
  const auto r = explain_no_facts(std::string(kTorchSystemError) +
                                  "Error while attaching to shared memory segment /dev/shm/nccl-7f3a2b (size 0), "
                                  "error: No such file or directory (2)\n");
  ASSERT_TRUE(leads_with(r, "nccl-shm-failure"));
  EXPECT_NE(find_rule(r, "nccl-unhandled-system-error"), nullptr);
}

TEST(ExplainNccl, SocketLastErrorLeadsTheSystemError) {
  const auto r =
      explain_no_facts(std::string(kTorchSystemError) +
                       "socketStartConnect: Connect to 10.0.0.12<43125> failed : Software caused connection abort\n");
  ASSERT_TRUE(leads_with(r, "nccl-socket-failure"));
}

TEST(ExplainNccl, NoInterfaceInTheRemoteSubnetIsTheSocketProblem) {
  const auto r = explain_no_facts(
      "worker-3:61:61 [0] misc/socket.cc:238 NCCL WARN Net : No interface found in the same subnet as remote "
      "address 172.17.0.2<44443>\n");
  ASSERT_TRUE(leads_with(r, "nccl-socket-failure"));
}

TEST(ExplainNccl, InfinibandCompletionErrorsInEveryWording) {
  const std::string lines[] = {
      "gpu-a:2081:2130 [3] transport/net_ib.cc:1909 NCCL WARN NET/IB : Got completion from peer 10.1.1.22<52345> "
      "with status=12 opcode=0 len=0 vendor err 129 (Send) localGid ::ffff:10.1.1.21 remoteGids::ffff:10.1.1.22\n",
      "gpu-a:2081:2130 [3] transport/net_ib/p2p.cc:688 NCCL WARN NET/IB: Got completion from peer 10.1.1.22<52345> "
      "with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_SEND(0) vendor_err=129 hca mlx5_0\n",
      "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.\n"
      "Last error:\nNET/IB : Got completion from peer 10.42.0.2<47534> with error 12, opcode 48, len 32764, vendor "
      "err 244\n",
  };
  for (const auto& line : lines) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "nccl-ib-completion-error")) << line;
    EXPECT_NE(r.matches.front().cause.find("status 12"), std::string::npos) << r.matches.front().cause;
    EXPECT_NE(r.matches.front().fix.find("NCCL_IB_TIMEOUT"), std::string::npos);
  }
}

TEST(ExplainNccl, MemoryRegistrationRefusedIsTheLockedMemoryLimit) {
  const auto r = explain_no_facts(
      "gpu-b:771:802 [0] misc/ibvwrap.cc:226 NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory\n"
      "gpu-b:771:802 [0] NCCL INFO transport/net_ib.cc:1410 -> 2\n"
      "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, unhandled system "
      "error, NCCL version 2.14.3\n");
  ASSERT_TRUE(leads_with(r, "nccl-ib-memlock-limit"));
  EXPECT_NE(r.matches.front().fix.find("memlock"), std::string::npos);
}

TEST(ExplainNccl, MultipleRanksOnOneGpuIsInvalidUsage) {
  const auto r = explain_no_facts(
      "node:9:42 [0] init.cc:1057 NCCL WARN Multiple Ranks are using the same GPU/Partition. Set "
      "NCCL_MULTI_RANK_GPU_ENABLE=1 to enable this configuration.\n");
  ASSERT_TRUE(leads_with(r, "nccl-invalid-usage"));
  EXPECT_NE(r.matches.front().fix.find("set_device(local_rank)"), std::string::npos);
}

TEST(ExplainNccl, CudaOutOfMemoryInsideNcclIsMemoryNotAnUnhandledCudaError) {
  const auto r = explain_no_facts(
      "host:5:40 [1] include/alloc.h:125 NCCL WARN Cuda failure 'out of memory'\n"
      "host:5:40 [1] NCCL INFO init.cc:1600 -> 1\n"
      "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, unhandled cuda error, "
      "NCCL version 2.14.3\n");
  ASSERT_TRUE(leads_with(r, "nccl-cuda-out-of-memory"));
  EXPECT_EQ(r.matches.front().category, "out-of-memory");
  EXPECT_NE(find_rule(r, "nccl-unhandled-cuda-error"), nullptr);
}

TEST(ExplainNccl, ProxyFailureIsASummaryAfterTheRealWarn) {
  const std::string proxy =
      "host:9:88 [2] proxy.cc:1495 NCCL WARN [Proxy Service 2] Failed to execute operation Connect from rank 2, "
      "retcode 2\n";
  const auto alone = explain_no_facts(proxy);
  ASSERT_TRUE(leads_with(alone, "nccl-proxy-operation-failed"));
  EXPECT_NE(alone.matches.front().cause.find("Connect"), std::string::npos);

  const auto with_cause = explain_no_facts(
      "host:9:88 [2] misc/ibvwrap.cc:226 NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory\n" +
      proxy);
  ASSERT_TRUE(leads_with(with_cause, "nccl-ib-memlock-limit"));
}

}  // namespace
}  // namespace gpudoctor
