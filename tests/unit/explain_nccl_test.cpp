// NCCL's own WARN lines, as NCCL prints them (src/misc/socket.cc, src/misc/ibvwrap.cc,
// src/transport/net_ib*, src/include/checks.h, src/init.cc, the shm code), and as PyTorch repeats
// NCCL's last one after "Last error:" (ProcessGroupNCCL / NCCLUtils getNcclErrorDetailStr).
#include <gtest/gtest.h>

#include <string>

#include "core/text.hpp"
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
  // The unhandled CUDA error is that allocation (nccl-cuda-out-of-memory `explains` it): one answer.
  EXPECT_EQ(find_rule(r, "nccl-unhandled-cuda-error"), nullptr);
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

// The catalog's NCCL messages (tests/catalog/messages.jsonl, libnccl.so of the nvidia-nccl
// wheels 2.14.3 to 2.32.3) that name a cause a user can fix.

TEST(ExplainNccl, VersionMismatchBetweenRanksIsNotALibraryOnTheSearchPath) {
  const std::string lines[] = {
      "node-2:77:77 [0] init.cc:1043 NCCL WARN Mismatched NCCL version detected : rank 3 version 22105 rank 0 version "
      "21803\n",
      "node-1:61:90 [0] ras/ras.cc:415 NCCL WARN NCCL version mismatch with remote peer 10.0.0.5<28028> (local: "
      "2.27.7, "
      "remote 2.26.2)\n",
  };
  for (const auto& line : lines) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "nccl-version-mismatch-ranks")) << line;
    EXPECT_NE(r.matches.front().fix.find("every node"), std::string::npos);
  }
}

TEST(ExplainNccl, LibraryOlderThanTheApplicationIsTheLibraryVersion) {
  const auto r = explain_no_facts(
      "host:5:5 [0] dev_runtime.cc:1428 NCCL WARN NCCL library is too old. This application was compiled with NCCL "
      "version 2.29.2, but is running with NCCL library version 2.27.7.\n");
  ASSERT_TRUE(leads_with(r, "nccl-library-version"));
}

TEST(ExplainNccl, SharedMemoryThatCannotGrowAfterLastErrorIsTheShmRule) {
  const auto r = explain_no_facts(std::string(kTorchSystemError) +
                                  "Error: failed to extend /dev/shm/nccl-Xa81qD to 9637892 bytes, error: No space "
                                  "left on device (28)\n");
  ASSERT_TRUE(leads_with(r, "nccl-shm-failure"));
}

TEST(ExplainNccl, PeerAccessRefusedIsPeerToPeerNotTheBareCudaCode) {
  const auto r = explain_no_facts(
      "host:3:40 [1] transport/p2p.cc:355 NCCL WARN failed to peer with device 0(=1b000): 217 peer access is not "
      "supported between these two devices\n");
  ASSERT_TRUE(leads_with(r, "nccl-p2p-access-failed"));
  EXPECT_NE(r.matches.front().fix.find("NCCL_P2P_DISABLE=1"), std::string::npos);
}

TEST(ExplainNccl, NvlinkPeersWithoutP2pIsAHardwareOrFabricProblem) {
  const auto r = explain_no_facts(
      "host:3:3 [0] graph/paths.cc:396 NCCL WARN P2P is disabled between NVLINK connected GPUs 1 and 0. This should "
      "not "
      "be the case given their connectivity, and is probably due to a hardware issue. If you still want to proceed, "
      "you can set NCCL_IGNORE_DISABLED_P2P=1.\n");
  ASSERT_TRUE(leads_with(r, "nccl-nvlink-p2p-disabled"));
}

TEST(ExplainNccl, InfinibandDeviceThatCannotBeOpened) {
  const auto r = explain_no_facts(
      "gpu-1:12:12 [0] transport/net_ib/init.cc:334 NCCL WARN NET/IB : Unable to open "
      "device mlx5_0\n");
  ASSERT_TRUE(leads_with(r, "nccl-ib-device-unusable"));
  EXPECT_NE(r.matches.front().cause.find("mlx5_0"), std::string::npos);
  EXPECT_NE(r.matches.front().fix.find("/dev/infiniband"), std::string::npos);
}

TEST(ExplainNccl, InfinibandAndRoceNicsMixedInOneConnection) {
  const auto r = explain_no_facts(
      "NCCL WARN NET/IB : Attempted to connect incompatible devices: [0]mlx5_0:1/IB and [1]mlx5_2:1/RoCE. Try "
      "selecting NICs of only one link type using NCCL_IB_HCA\n");
  ASSERT_TRUE(leads_with(r, "nccl-ib-mixed-link-layers"));
  EXPECT_NE(r.matches.front().fix.find("NCCL_IB_HCA"), std::string::npos);
}

TEST(ExplainNccl, TruncatedMessageIsACollectiveSizeMismatchBetweenRanks) {
  const std::string lines[] = {
      "NCCL WARN NET/Socket : peer 10.0.0.2<55555> message truncated : receiving 1048576 bytes instead of 65536. If "
      "you "
      "believe your socket network is in a healthy state, there may be a mismatch in collective sizes or environment "
      "settings (e.g. NCCL_PROTO, NCCL_ALGO) between ranks\n",
      "NCCL WARN NET/IB : req 0/1 tag 7 peer 10.0.0.2<55555> collective mismatch error, local size 4096 remote size "
      "8192\n",
  };
  for (const auto& line : lines) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "nccl-collective-size-mismatch")) << line;
  }
}

TEST(ExplainNccl, SocketCallsWithoutTheWarnPrefixAreTheSocketProblem) {
  const std::string lines[] = {
      "Last error:\nNet : Connect to 10.0.0.2<40155> failed : Connection refused\n",
      "Last error:\nncclSocketInit: Socket creation failed : Address family not supported by protocol\n",
  };
  for (const auto& line : lines) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "nccl-socket-failure")) << line;
  }
}

TEST(ExplainNccl, ProxyCallToALocalRankFailedPointsAtThatRank) {
  const auto r = explain_no_facts("host:9:88 [2] proxy.cc:884 NCCL WARN Proxy Call to rank 1 failed (Setup)\n");
  ASSERT_TRUE(leads_with(r, "nccl-proxy-call-failed"));
  EXPECT_NE(r.matches.front().cause.find("rank 1"), std::string::npos);
}

TEST(ExplainNccl, BootstrapRootSeesTwoWorldSizes) {
  const auto r = explain_no_facts(
      "node-0:40:52 [0] bootstrap.cc:140 NCCL WARN Bootstrap Root : mismatch in rank count from procs 16 : 8\n");
  ASSERT_TRUE(leads_with(r, "nccl-bootstrap-rank-count-mismatch"));
  EXPECT_NE(r.matches.front().cause.find("16"), std::string::npos);
}

TEST(ExplainNccl, BareUnhandledSystemErrorAsOldNcclAndTensorflowPrintIt) {
  // ncclGetErrorString(ncclSystemError) of NCCL 2.14-2.18 has no "(run with NCCL_DEBUG=INFO ...)".
  const auto r = explain_no_facts("tensorflow.python.framework.errors_impl.InternalError: unhandled system error\n");
  ASSERT_TRUE(leads_with(r, "nccl-unhandled-system-error"));
}

// NCCL's alloc.h wordings, as libnccl and the copies inside torch 1.13 and TensorFlow print them.
TEST(ExplainNccl, NcclDeviceAllocationFailureIsNcclsBuffersAndHostAllocIsNotGpuMemory) {
  const auto device =
      explain_no_facts("host:5:40 [1] include/alloc.h:84 NCCL WARN Failed to CUDA malloc 33554432 bytes\n");
  ASSERT_TRUE(leads_with(device, "nccl-cuda-out-of-memory"));
  const auto host =
      explain_no_facts("host:5:40 [1] include/alloc.h:31 NCCL WARN Failed to CUDA host alloc 4194304 bytes\n");
  EXPECT_EQ(find_rule(host, "tf-gpu-alloc-failed"), nullptr) << "pinned host memory read as GPU memory";
}

TEST(ExplainNccl, DiagnosticProbeTimeoutIsNoCollectiveTimeout) {
  const auto diag = explain_no_facts(
      "host:5:5 [0] NCCL INFO misc/diag.cc:210 NCCL DIAG [INFO] net bw: capability probe timed out in comm 0x7f3a\n");
  EXPECT_EQ(find_rule(diag, "nccl-timeout"), nullptr);
  const auto torch = explain_no_facts(
      "[rank0]:[E1201 10:00:00.000000000 ProcessGroupNCCL.cpp:1895] Some NCCL operations have failed or timed out. "
      "Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete "
      "data.\n");
  EXPECT_NE(find_rule(torch, "nccl-timeout"), nullptr);
}

TEST(ExplainNccl, InsufficientDriverIsADriverOlderThanThisNccl) {
  const auto r = explain_no_facts("host:5:5 [0] NCCL WARN Insufficient driver: 12020 < 12080\n");
  ASSERT_TRUE(leads_with(r, "nccl-driver-too-old"));
  EXPECT_EQ(r.matches.front().category, "driver-too-old") << "the driver is the problem, not the collective";
  EXPECT_NE(r.matches.front().cause.find("12080"), std::string::npos);
}

// NCCL's plugin loader (src/plugin/net.cc) says which optional plugin it did not find, in the
// wording of each release; none of it is a problem.
TEST(ExplainNccl, NoNetworkPluginIsHarmlessInEveryWording) {
  for (const char* line : {"node1:123:456 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Using internal "
                           "network plugin.\n",
                           "node1:123:456 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so), using internal "
                           "implementation\n",
                           "node1:123:456 [0] NCCL INFO TUNER/Plugin: Could not find: libnccl-tuner.so. Using internal "
                           "tuner plugin.\n"}) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "nccl-net-plugin-notice")) << line;
    EXPECT_TRUE(r.matches.front().harmless) << line;
  }
}

// "unhandled system error" in a container is most often its /dev/shm.
TEST(ExplainNccl, UnhandledSystemErrorInAContainerIsItsSharedMemory) {
  const auto r = explain_no_facts("RuntimeError: NCCL Error 2: unhandled system error\n");
  ASSERT_TRUE(leads_with(r, "nccl-unhandled-system-error"));
  EXPECT_NE(find_rule(r, "nccl-unhandled-system-error/container"), nullptr);
}

// NCCL 2.7-2.12 reported the verbs status without naming the peer.
TEST(ExplainNccl, InfinibandCompletionErrorWithoutAPeer) {
  const auto r = explain_no_facts(
      "worker-1:946:988 [0] transport/net_ib.cc:839 NCCL WARN NET/IB : Got completion with error 12, opcode 1, len "
      "0, vendor err 129\n");
  ASSERT_TRUE(leads_with(r, "nccl-ib-completion-error"));
  EXPECT_TRUE(contains(r.matches.front().cause, "status 12")) << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().fix, "NCCL_IB_GID_INDEX")) << r.matches.front().fix;
}

// Verbs pin memory; a 64 KB locked-memory limit makes queue creation fail.
TEST(ExplainNccl, VerbsOutOfMemoryIsTheLockedMemoryLimit) {
  const auto r = explain_no_facts("ibv_create_cq(cqe=4096) failed: Cannot allocate memory\n");
  ASSERT_TRUE(leads_with(r, "rdma-locked-memory-limit"));
  EXPECT_TRUE(contains(r.matches.front().fix, "ulimit -l")) << r.matches.front().fix;
}

}  // namespace
}  // namespace gpudoctor
