// Unseen logs, session 38 review (C): multi-process and network failures that had no answer or a
// generic one. Each rule was written from where its message is printed:
// - Gloo (PyTorch's CPU / bootstrap backend, also vLLM's, SGLang's and Ray's CPU groups):
//   torch/csrc/distributed/c10d/ProcessGroupGloo.cpp wraps connectFullMesh's exception as
//   "Gloo connectFullMesh failed with <what>"; gloo/transport/tcp/pair.cc threw
//   "connect [<addr>]:<port>: <strerror>" (PyTorch 1.0's bundled gloo), helpers.cc throws
//   "timed out connecting: SO_ERROR: <strerror>, remote=[<addr>]:<port>"; createDefaultDevice()
//   warns "Unable to resolve hostname to a (local) address. Using the loopback address as fallback."
// - torch elastic's c10d rendezvous (elastic/rendezvous/c10d_rendezvous_backend.py,
//   _create_tcp_store): a node hosts the store only when _matches_machine_hostname(host) is true.
// - NCCL 2.25.1's "ncclMaxSharedMem N exceeds device/fn maxSharedMem M" (src/enqueue.cc) on
//   sm_120 GPUs, fixed in NCCL 2.26.2.
// - NCCL's P2P/IPC transport lines before a hang (NCCL troubleshooting: PCI ACS, IOMMU).
#include <gtest/gtest.h>

#include <string>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;
using testing::mentions;
using testing::problem_count;
using testing::rule_list;
using testing::says_all;
using testing::told;

// Log 09 (pytorch/pytorch#15592) and probe p06: PyTorch 1.0's gloo threw IoException with the
// peer's address; 127.0.1.1 is Debian/Ubuntu's /etc/hosts entry for the machine's own hostname.
TEST(ExplainReview38CDist, GlooConnectToLoopbackSaysTheHostnameResolvesToLoopback) {
  const std::string log =
      "terminate called after throwing an instance of 'gloo::IoException'\n"
      "  what():  [/opt/conda/conda-bld/pytorch_1544084119927/work/third_party/gloo/gloo/transport/tcp/"
      "pair.cc:724] connect [127.0.1.1]:3210: Connection refused\n"
      "Aborted (core dumped)\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "gloo-connect-loopback")) << rule_list(r);
  EXPECT_EQ(problem_count(r), 1u) << rule_list(r);
  const auto& m = r.matches.front();
  EXPECT_TRUE(says_all(m.cause, {"127.0.1.1", "/etc/hosts"}));
  EXPECT_TRUE(says_all(m.fix, {"GLOO_SOCKET_IFNAME", "getent hosts"}));
}

// Log 18 (aws-samples/aws-do-eks#69): a hostNetwork pod whose hostname resolves to 127.0.0.1; the
// Ray and vLLM lines before it are consequences, and the wrapped line carries the address.
TEST(ExplainReview38CDist, GlooTimedOutConnectingToLoopbackLeadsOverRayLines) {
  const std::string log =
      "ray.exceptions.ActorHandleNotFoundError: ... created in job 01000000, but the current job is 02000000\n"
      "RuntimeError: Engine core initialization failed\n"
      "\n"
      "RuntimeError: Gloo connectFullMesh failed with [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:152]\n"
      "  timed out connecting: SO_ERROR: Connection refused, remote=[127.0.0.1]:<port>\n"
      "  (rank=8, size=16, local=[127.0.0.1])\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "gloo-connect-loopback")) << rule_list(r);
  EXPECT_TRUE(mentions(r.matches.front().cause, "127.0.0.1")) << r.matches.front().cause;
  EXPECT_TRUE(mentions(r.matches.front().fix, "NCCL_SOCKET_IFNAME")) << r.matches.front().fix;
  // One answer for the Gloo failure, not a second generic one.
  EXPECT_EQ(find_rule(r, "gloo-connect-failed"), nullptr) << rule_list(r);
}

// Log 28 (sgl-project/sglang#3226) and probe p04: gloo's bare "no error" names no address; the
// answer is the interface Gloo chose, without claiming loopback.
TEST(ExplainReview38CDist, GlooConnectFullMeshNoErrorIsTheWrongInterface) {
  const std::string log =
      "RuntimeError: Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] no "
      "error\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "gloo-connect-failed")) << rule_list(r);
  EXPECT_EQ(problem_count(r), 1u) << rule_list(r);
  const auto& m = r.matches.front();
  EXPECT_TRUE(mentions(m.fix, "GLOO_SOCKET_IFNAME")) << m.fix;
  EXPECT_TRUE(mentions(m.cause, "hostname")) << m.cause;
  // vLLM's variant with the peer reset (a peer that died), same rule.
  const auto reset = explain_no_facts(
      "[E ProcessGroupGloo.cpp:138] Gloo connectFullMesh failed with Connection "
      "reset by peer\n");
  EXPECT_NE(find_rule(reset, "gloo-connect-failed"), nullptr) << rule_list(reset);
  // A remote that is a real address is not called loopback.
  const auto lan = explain_no_facts(
      "RuntimeError: Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:152] timed "
      "out connecting: SO_ERROR: No route to host, remote=[10.0.3.7]:41235\n");
  ASSERT_TRUE(leads_with(lan, "gloo-connect-failed")) << rule_list(lan);
  EXPECT_EQ(find_rule(lan, "gloo-connect-loopback"), nullptr) << rule_list(lan);
}

// Probe p05: the fallback warning alone. On one machine it is harmless (vLLM prints it on every
// single-node start); across machines it is the cause. A warning, ranked below real errors.
TEST(ExplainReview38CDist, GlooLoopbackFallbackWarningIsAWarningThatNamesTheVariable) {
  const std::string line =
      "[rank9]:[W ProcessGroupGloo.cpp:721] Warning: Unable to resolve hostname to a (local) address. Using the "
      "loopback address as fallback. Manually set the network interface to bind to with GLOO_SOCKET_IFNAME. "
      "(function operator())\n";
  const auto r = explain_no_facts(line);
  ASSERT_TRUE(leads_with(r, "gloo-hostname-loopback-fallback")) << rule_list(r);
  EXPECT_EQ(r.matches.front().severity, RuleSeverity::warning);
  EXPECT_TRUE(mentions(r.matches.front().cause, "one machine")) << r.matches.front().cause;
  // With a CUDA out-of-memory error after it, the error leads.
  const auto oom = explain_no_facts(line + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n");
  ASSERT_FALSE(oom.matches.empty());
  EXPECT_NE(oom.matches.front().rule, "gloo-hostname-loopback-fallback") << rule_list(oom);
}

// Log 22 (pytorch/pytorch#67547): torchrun's c10d rendezvous; the elastic error handler's JSON
// keeps the traceback on one line with escaped quotes. No node started the store because the host
// node's hostname did not resolve to the endpoint's address.
TEST(ExplainReview38CDist, C10dRendezvousStoreNotHostedNamesHostnameResolution) {
  const std::string log =
      "python3 -m torch.distributed.run --rdzv_backend=c10d --rdzv_endpoint=192.168.56.101:29400 --rdzv_id=1 "
      "--nnodes=1:2 --nproc_per_node=1 --rdzv_conf timeout=3 --monitor_interval 3 imagenet.py "
      "/data/tiny-imagenet-200\n"
      "ERROR:torch.distributed.elastic.multiprocessing.errors.error_handler:{\n"
      "  \"message\": {\n"
      "    \"message\": \"RendezvousConnectionError: The connection to the C10d store has failed. See inner "
      "exception for details.\",\n"
      "    \"extraInfo\": {\n"
      "      \"py_callstack\": \"Traceback (most recent call last):\\n  File "
      "\\\"/root/anaconda3/lib/python3.8/site-packages/torch/distributed/elastic/rendezvous/"
      "c10d_rendezvous_backend.py\\\", line 155, in _create_tcp_store\\n    store = TCPStore(\\nRuntimeError: "
      "connect() timed out. Original timeout was 60000 ms.\\n\\nThe above exception was the direct cause of the "
      "following exception:\\n\"\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "torch-elastic-c10d-store-not-hosted")) << rule_list(r);
  const auto& m = r.matches.front();
  EXPECT_TRUE(says_all(m.cause, {"hostname", "_matches_machine_hostname"}));
  // One answer: the generic "cannot reach the store" answer for the same failure is dropped.
  EXPECT_EQ(find_rule(r, "torch-dist-store-unreachable"), nullptr) << rule_list(r);
  EXPECT_TRUE(says_all(m.fix, {"/etc/hosts", "getent hosts"}));
  // The plain traceback form (not JSON-escaped) is the same rule.
  const auto plain = explain_no_facts(
      "  File \"/usr/lib/python3/dist-packages/torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py\", "
      "line 155, in _create_tcp_store\n"
      "    store = TCPStore(\n"
      "RuntimeError: connect() timed out. Original timeout was 60000 ms.\n");
  EXPECT_TRUE(leads_with(plain, "torch-elastic-c10d-store-not-hosted")) << rule_list(plain);
}

// Near miss: a client of a plain MASTER_ADDR rendezvous (no c10d rendezvous backend frame) keeps
// the store-unreachable answer; and the host failing to bind its port keeps the port answer.
TEST(ExplainReview38CDist, PlainStoreClientFailureKeepsItsAnswer) {
  const auto r = explain_no_facts(
      "[W socket.cpp:601] [c10d] The client socket has failed to connect to [gpu-node-1]:29500 (errno: 99 - Cannot "
      "assign requested address).\n");
  ASSERT_TRUE(leads_with(r, "torch-dist-store-unreachable")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "torch-elastic-c10d-store-not-hosted"), nullptr) << rule_list(r);
  const auto bind = explain_no_facts(
      "  File \"/usr/lib/python3/dist-packages/torch/distributed/elastic/rendezvous/c10d_rendezvous_backend.py\", "
      "line 155, in _create_tcp_store\n"
      "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. "
      "The server socket has failed to bind to [::]:29400 (errno: 98 - Address already in use).\n");
  ASSERT_TRUE(leads_with(bind, "torch-dist-port-in-use")) << rule_list(bind);
  EXPECT_EQ(find_rule(bind, "torch-elastic-c10d-store-not-hosted"), nullptr) << rule_list(bind);
}

// Log 21 (NVIDIA/nccl-tests#287, NVIDIA/nccl#1637) and probe p07: NCCL 2.25.1 prints it at INFO on
// sm_120 GPUs; later releases print it as a WARN with the architecture. It is the error, not the
// harmless InfiniBand and plugin notes around it.
TEST(ExplainReview38CDist, NcclMaxSharedMemExceedsIsNccl225OnBlackwell) {
  const std::string log =
      "user@GENOA-06:~/nccl-tests$ NCCL_DEBUG=INFO ./build/all_reduce_perf -b 8 -e 128M -f 2 -g 2\n"
      "#  Rank  0 Group  0 Pid   4766 on   GENOA-06 device  0 [0x21] NVIDIA GeForce RTX 5090\n"
      "GENOA-06:4766:4766 [0] NCCL INFO cudaDriverVersion 12080\n"
      "GENOA-06:4766:4766 [0] NCCL INFO NCCL version 2.25.1+cuda12.8\n"
      "GENOA-06:4766:4780 [0] NCCL INFO ncclMaxSharedMem 82240 exceeds device/fn maxSharedMem 79856\n"
      "GENOA-06:4766:4781 [1] NCCL INFO ncclMaxSharedMem 82240 exceeds device/fn maxSharedMem 79856\n"
      "GENOA-06:4766:4780 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.\n"
      "GENOA-06:4766:4780 [0] NCCL INFO Failed to open libibverbs.so[.1]\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "nccl-max-shared-mem-exceeded")) << rule_list(r);
  EXPECT_EQ(problem_count(r), 1u) << rule_list(r);
  const auto& m = r.matches.front();
  EXPECT_FALSE(m.harmless);
  EXPECT_TRUE(says_all(m.cause, {"82240", "79856"}));
  EXPECT_TRUE(says_all(m.fix, {"2.26.2", "nvidia-nccl-cu12"}));
  // The later WARN form with the architecture.
  const auto warn = explain_no_facts(
      "host:1:1 [0] enqueue.cc:120 NCCL WARN cudaArch 1200 ncclMaxSharedMem 82240 exceeds device/fn maxSharedMem "
      "79856\n");
  ASSERT_TRUE(leads_with(warn, "nccl-max-shared-mem-exceeded")) << rule_list(warn);
  EXPECT_TRUE(mentions(warn.matches.front().cause, "1200")) << warn.matches.front().cause;
}

// Log 23 (Lightning-AI/pytorch-lightning#19425): the log ends after NCCL chose P2P/IPC; the user
// says it hangs. Only a hint: P2P is also used by every healthy run, so it is no problem by itself.
TEST(ExplainReview38CDist, NcclP2pIpcLinesGiveAHangHintNotAProblem) {
  const std::string log =
      "user-SYS-4029GP-TRT:34127:34127 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]\n"
      "user-SYS-4029GP-TRT:34364:35141 [2] NCCL INFO Channel 00 : 2[1d000] -> 3[1e000] via P2P/IPC\n"
      "user-SYS-4029GP-TRT:34770:35139 [6] NCCL INFO Channel 00 : 6[40000] -> 0[1b000] via direct shared memory\n"
      "user-SYS-4029GP-TRT:34310:35145 [1] NCCL INFO Channel 00 : 1[1c000] -> 2[1d000] via P2P/IPC\n"
      "user-SYS-4029GP-TRT:34364:35141 [2] NCCL INFO Connected all rings\n";
  const auto r = explain_no_facts(log);
  EXPECT_EQ(problem_count(r), 0u) << rule_list(r);
  const auto* hint = find_rule(r, "nccl-p2p-transport-notice");
  ASSERT_NE(hint, nullptr) << rule_list(r);
  EXPECT_TRUE(hint->harmless);
  EXPECT_TRUE(says_all(hint->fix, {"NCCL_P2P_DISABLE=1", "ACS", "iommu=pt"}));
  // The newer spelling of the same transport line.
  const auto cumem = explain_no_facts("h:1:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read\n");
  EXPECT_NE(find_rule(cumem, "nccl-p2p-transport-notice"), nullptr) << rule_list(cumem);
  // A real NCCL error in the same log leads; the hint never hides it.
  const auto err = explain_no_facts(log +
                                    "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/"
                                    "ProcessGroupNCCL.cpp:1269, unhandled cuda error, NCCL version 2.14.3\n");
  ASSERT_FALSE(err.matches.empty());
  EXPECT_EQ(err.matches.front().rule, "nccl-unhandled-cuda-error") << rule_list(err);
  EXPECT_FALSE(mentions(told(r), "firewall")) << told(r);
}

}  // namespace
}  // namespace gpudoctor
