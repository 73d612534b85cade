// torch.distributed, torchrun and DDP failures (data/explain/distributed.toml), on lines users
// pasted into public issues (named per test). The messages' sources are named in the rules.
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

TEST(ExplainDistributed, NcclNotBuiltInIsAWindowsMacOrCpuBuildAndTheFixIsGloo) {
  // bshall/hubert#1 (mp.spawn on Windows), kohya_ss#1347 (accelerate on Windows).
  const auto r = explain_no_facts(
      "  File \"H:\\CONDA\\envs\\stylegan3\\lib\\site-packages\\torch\\distributed\\distributed_c10d.py\", line 727, "
      "in _new_process_group_helper\n"
      "    raise RuntimeError(\"Distributed package doesn't have NCCL \" \"built in\")\n"
      "RuntimeError: Distributed package doesn't have NCCL built in\n");
  ASSERT_TRUE(leads_with(r, "torch-dist-nccl-not-built-in"));
  const auto& m = r.matches.front();
  EXPECT_EQ(m.category, "multi-gpu/nccl");
  EXPECT_TRUE(contains(m.cause, "Windows and macOS")) << m.cause;
  EXPECT_TRUE(contains(m.cause, "CPU-only")) << m.cause;
  EXPECT_TRUE(contains(m.fix, "backend='gloo'")) << m.fix;
  // Installing NVIDIA's NCCL is no fix: the answer says so rather than suggesting it.
  EXPECT_TRUE(contains(m.cause, "does not help")) << m.cause;
}

TEST(ExplainDistributed, TheRealErrorRanksBeforeTorchrunsSummary) {
  // kohya_ss#1347: the worker's error, then torchrun's line for the failed worker.
  const auto r = explain_no_facts(
      "RuntimeError: Distributed package doesn't have NCCL built in\n"
      "[05:21:05] ERROR    failed (exitcode: 1) local_rank: 0 (pid: 13852) of binary:                "
      "                api.py:672\n");
  ASSERT_TRUE(leads_with(r, "torch-dist-nccl-not-built-in"));
  const auto* summary = find_rule(r, "torchrun-child-failed");
  ASSERT_NE(summary, nullptr);
  EXPECT_TRUE(contains(summary->cause, "not the cause")) << summary->cause;
}

TEST(ExplainDistributed, AddressAlreadyInUseNamesThePortAndHowToPickAnother) {
  // pytorch/pytorch#85604 (torch 1.12 socket.cpp lines), meta-pytorch/torchtune#1025 (DistNetworkError),
  // meta-llama/llama-models#210 (macOS, libuv store: code -48).
  for (const char* log : {
           "[W socket.cpp:401] [c10d] The server socket has failed to listen on [::]:47531 (errno: 98 - Address "
           "already in use).\n"
           "[W socket.cpp:401] [c10d] The server socket has failed to bind to 0.0.0.0:47531 (errno: 98 - Address "
           "already in use).\n"
           "[E socket.cpp:435] [c10d] The server socket has failed to listen on any local network address.\n",
           "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. "
           "The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use). The server "
           "socket has failed to bind to ?UNKNOWN? (errno: 98 - Address already in use).\n",
           "RuntimeError: The server socket has failed to listen on any local network address. useIpv6: 0, code: -48, "
           "name: EADDRINUSE, message: address already in use\n",
       }) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "torch-dist-port-in-use")) << log;
    const auto& m = r.matches.front();
    EXPECT_TRUE(contains(m.fix, "--master-port")) << m.fix;
    EXPECT_TRUE(contains(m.cause, "another process")) << m.cause;
    EXPECT_EQ(r.matches.size(), 1u) << log;
  }
  const auto r = explain_no_facts(
      "[W socket.cpp:401] [c10d] The server socket has failed to bind to 0.0.0.0:47531 (errno: 98 - Address already "
      "in use).\n");
  ASSERT_TRUE(leads_with(r, "torch-dist-port-in-use"));
  EXPECT_TRUE(contains(r.matches.front().cause, "port 47531")) << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().fix, ":47531")) << r.matches.front().fix;
}

TEST(ExplainDistributed, PermissionDeniedOnTheMasterPortIsAPrivilegedPort) {
  // KimMeen/Time-LLM#158: MASTER_PORT=98.
  const auto r = explain_no_facts(
      "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. The "
      "server socket has failed to bind to [::]:98 (errno: 13 - Permission denied). The server socket has failed to "
      "bind to 0.0.0.0:98 (errno: 13 - Permission denied).\n");
  ASSERT_TRUE(leads_with(r, "torch-dist-port-permission-denied"));
  EXPECT_TRUE(contains(r.matches.front().cause, "port 98")) << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().cause, "below 1024")) << r.matches.front().cause;
  EXPECT_EQ(find_rule(r, "torch-dist-port-in-use"), nullptr);
}

TEST(ExplainDistributed, MissingRankVariablesMeanTheScriptWasNotStartedWithTorchrun) {
  // meta-llama/llama-cookbook#59 (RANK), NVIDIA/apex#99 (WORLD_SIZE).
  for (const char* var : {"RANK", "WORLD_SIZE"}) {
    const std::string line = std::string(
                                 "ValueError: Error initializing torch.distributed using env:// rendezvous: "
                                 "environment variable ") +
                             var + " expected, but not set\n";
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "torch-dist-env-not-set")) << line;
    const auto& m = r.matches.front();
    EXPECT_TRUE(contains(m.cause, std::string("(") + var + " is missing)")) << m.cause;
    EXPECT_TRUE(contains(m.cause, "plain `python`")) << m.cause;
    EXPECT_TRUE(contains(m.fix, "torchrun --nproc-per-node")) << m.fix;
  }
}

TEST(ExplainDistributed, DefaultProcessGroupNotInitialized) {
  // zai-org/ChatGLM-6B#1295 (RuntimeError, torch 1.x/2.1), the ValueError of torch 2.10.
  for (const char* line : {
           "RuntimeError: Default process group has not been initialized, please make sure to call "
           "init_process_group.\n",
           "ValueError: Default process group has not been initialized, please make sure to call init_process_group.\n",
       }) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "torch-dist-default-pg-not-initialized")) << line;
    EXPECT_TRUE(contains(r.matches.front().fix, "SyncBatchNorm")) << r.matches.front().fix;
  }
}

TEST(ExplainDistributed, StoreTimeoutsSayHowManyRanksJoined) {
  // OpenRLHF/OpenRLHF#1040 (TCPStore, torch 2.x).
  auto r = explain_no_facts(
      "torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 1/3 clients joined.\n");
  ASSERT_TRUE(leads_with(r, "torch-dist-rendezvous-timeout"));
  EXPECT_TRUE(contains(r.matches.front().cause, "1 of 3 joined")) << r.matches.front().cause;
  // alibaba/Pai-Megatron-Patch#468.
  r = explain_no_facts("torch.distributed.DistStoreError: Socket Timeout\n");
  ASSERT_TRUE(leads_with(r, "torch-dist-rendezvous-timeout"));
  // torch 1.13's store based barrier (distributed_c10d.py).
  r = explain_no_facts(
      "RuntimeError: Timed out initializing process group in store based barrier on rank: 1, for key: "
      "store_based_barrier_key:1 (world_size=2, worker_count=1, timeout=0:30:00)\n");
  ASSERT_TRUE(leads_with(r, "torch-dist-rendezvous-timeout"));
  EXPECT_TRUE(contains(r.matches.front().cause, "1 of 2 joined")) << r.matches.front().cause;
}

TEST(ExplainDistributed, AClientThatCannotReachTheStoreNamesTheAddress) {
  // pytorch/pytorch#107021 (torchrun --rdzv_backend=c10d on several nodes).
  const auto r = explain_no_facts(
      "[E socket.cpp:860] [c10d] The client socket has timed out after 60s while trying to connect to "
      "192.0.0.1:1234\n"
      "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has "
      "failed. See inner exception for details.\n");
  ASSERT_TRUE(leads_with(r, "torch-dist-store-unreachable"));
  const auto& m = r.matches.front();
  EXPECT_TRUE(contains(m.cause, "192.0.0.1:1234")) << m.cause;
  EXPECT_TRUE(contains(m.fix, "nc -zv")) << m.fix;
  EXPECT_EQ(r.matches.size(), 1u);
}

TEST(ExplainDistributed, ChildFailedErrorPointsAtTheRootCauseRank) {
  // Vision-CAIR/MiniGPT-4#237: the whole summary, no worker error pasted.
  const auto r = explain_no_facts(
      "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
      "============================================================\n"
      "train.py FAILED\n"
      "------------------------------------------------------------\n"
      "Root Cause (first observed failure):\n"
      "[0]:\n"
      "  time      : 2023-05-19_16:39:58\n"
      "  host      : n136-117-136.byted.org\n"
      "  rank      : 0 (local_rank: 0)\n"
      "  exitcode  : 1 (pid: 78970)\n"
      "  error_file: <N/A>\n"
      "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
      "============================================================\n");
  ASSERT_TRUE(leads_with(r, "torchrun-child-failed"));
  const auto& m = r.matches.front();
  EXPECT_TRUE(contains(m.cause, "first failed rank")) << m.cause;
  EXPECT_TRUE(contains(m.fix, "record")) << m.fix;
  EXPECT_EQ(r.matches.size(), 1u);
}

TEST(ExplainDistributed, AWorkerKilledBySigkillIsTheMemoryKillerNotAPythonError) {
  // The api.py line with exitcode -9 and the summary's signal line: one answer, not the generic one.
  const auto r = explain_no_facts(
      "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 0 (pid: 3051) of "
      "binary: /usr/bin/python3\n"
      "  traceback : Signal 9 (SIGKILL) received by PID 3051\n");
  ASSERT_TRUE(leads_with(r, "torchrun-worker-sigkill"));
  EXPECT_TRUE(contains(r.matches.front().fix, "dmesg")) << r.matches.front().fix;
  EXPECT_EQ(find_rule(r, "torchrun-child-failed"), nullptr);
}

TEST(ExplainDistributed, DdpUnusedParameters) {
  // va1shn9v/PromptIR#30 (torch 1.x wording), buxiangzhiren/DDCap#35 (with the parameter indices).
  const auto r = explain_no_facts(
      "RuntimeError: Expected to have finished reduction in the prior iteration before starting a new one. This "
      "error indicates that your module has parameters that were not used in producing loss. You can enable unused "
      "parameter detection by (1) passing the keyword argument `find_unused_parameters=True` to "
      "`torch.nn.parallel.DistributedDataParallel`; (2) making sure all `forward` function outputs participate in "
      "calculating loss.\n"
      "Parameter indices which did not receive grad for rank 0: 1\n");
  ASSERT_TRUE(leads_with(r, "ddp-unused-parameters"));
  EXPECT_TRUE(contains(r.matches.front().fix, "find_unused_parameters=True")) << r.matches.front().fix;
  EXPECT_EQ(r.matches.front().count, 2u);
}

TEST(ExplainDistributed, NprocPerNodeGpuWithoutCudaIsTheEnvironmentNotTorchrun) {
  // No public paste found: the raise as torch 2.10's run.py prints it in the traceback.
  const auto r = explain_no_facts(
      "  File \"/usr/local/lib/python3.11/site-packages/torch/distributed/run.py\", line 745, in "
      "determine_local_world_size\n"
      "    raise ValueError(\"Cuda is not available.\") from e\n"
      "ValueError: Cuda is not available.\n");
  ASSERT_TRUE(leads_with(r, "torchrun-nproc-gpu-no-cuda"));
  EXPECT_TRUE(contains(r.matches.front().fix, "nvidia-smi")) << r.matches.front().fix;
  EXPECT_EQ(r.matches.size(), 1u);
}

// torchrun's and torch.distributed.launch's notices (run.py, launch.py) are printed on every healthy
// start; a paste with them and the real error leads with the error and lists them as harmless.
TEST(ExplainDistributed, LaunchNoticesAreHarmlessAndNeverLeadTheRealError) {
  const auto r = explain_no_facts(
      "/usr/lib/python3/dist-packages/torch/distributed/launch.py:181: FutureWarning: The module "
      "torch.distributed.launch is deprecated\n"
      "and will be removed in future. Use torchrun.\n"
      "Note that --use-env is set by default in torchrun.\n"
      "If your script expects `--local-rank` argument to be set, please\n"
      "change it to read from `os.environ['LOCAL_RANK']` instead. See \n"
      "WARNING:torch.distributed.run:\n"
      "*****************************************\n"
      "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system "
      "being overloaded, please further tune the variable for optimal performance in your application as needed.\n"
      "*****************************************\n"
      "RuntimeError: Distributed package doesn't have NCCL built in\n");
  ASSERT_TRUE(leads_with(r, "torch-dist-nccl-not-built-in"));
  for (const char* id : {"torch-distributed-launch-deprecated", "torchrun-omp-threads-notice"}) {
    const ExplainMatch* m = find_rule(r, id);
    ASSERT_NE(m, nullptr) << id;
    EXPECT_TRUE(m->harmless) << id;
  }
}

// ProcessGroupNCCL::broadcastUniqueNCCLID: rank 0 publishes NCCL's id in the c10d store; the
// others' failure to read it is rank 0's crash, lateness or a blocked port, not NCCL's.
TEST(ExplainDistributed, ARankWithoutNcclsIdPointsAtRankZero) {
  for (const char* error : {"Connection reset by peer", "Socket Timeout", "wait timeout after 300000ms"}) {
    const auto r = explain_no_facts(
        std::string("torch.distributed.DistBackendError: [3] is setting up NCCL communicator and retrieving "
                    "ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: ") +
        error + ". This may indicate a possible application crash on rank 0 or a network set up issue.\n");
    ASSERT_TRUE(leads_with(r, "torch-nccl-unique-id-not-received")) << error;
    const ExplainMatch& m = r.matches.front();
    EXPECT_NE(m.cause.find(error), std::string::npos) << m.cause;
    EXPECT_NE(m.cause.find("rank 3"), std::string::npos) << m.cause;
    EXPECT_NE(m.fix.find("rank 0's own log"), std::string::npos) << m.fix;
  }
}

TEST(ExplainDistributed, OldTcpStoresBareAddressInUseIsThePort) {
  // PyTorch 1.x's TCPStore raised the bare socket error.
  const auto r = explain_no_facts(
      "  File \"/opt/conda/lib/python3.8/site-packages/torch/distributed/rendezvous.py\", line 156, in "
      "_env_rendezvous_handler\n"
      "    store = TCPStore(master_addr, master_port, world_size, start_daemon, timeout)\n"
      "RuntimeError: Address already in use\n");
  ASSERT_TRUE(leads_with(r, "torch-dist-port-in-use"));
  EXPECT_NE(r.matches.front().fix.find("29500"), std::string::npos);
}

// A traceback shows the raising source line, where older torch split the string in two literals.
TEST(ExplainDistributed, NcclNotBuiltInAsTheTracebackSourceLineOnWindows) {
  const std::string log =
      "  File \"C:\\Users\\me\\venv\\lib\\site-packages\\torch\\distributed\\distributed_c10d.py\", line 597, in "
      "_new_process_group_helper\n"
      "    raise RuntimeError(\"Distributed package doesn't have NCCL \" \"built in\")\n";
  // NCCL missing leads (the multi-GPU problem the user has), Windows as the alternative.
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "torch-dist-nccl-not-built-in"));
  EXPECT_TRUE(among_first_three(r, "windows-native-gpu-unsupported"));
  const auto bare = explain_no_facts("RuntimeError: Distributed package doesn't have NCCL built in\n");
  ASSERT_TRUE(leads_with(bare, "torch-dist-nccl-not-built-in"));
  EXPECT_NE(find_rule(bare, "torch-dist-nccl-not-built-in/windows"), nullptr);
}

// TensorFlow's MirroredStrategy all-reduces with NCCL by default; Windows builds register no
// NCCL kernels.
TEST(ExplainDistributed, TensorflowNcclOpWithoutAKernelIsABuildWithoutNccl) {
  const auto r = explain_no_facts(
      "tensorflow.python.framework.errors_impl.NotFoundError: No OpKernel was registered to support Op "
      "'NcclAllReduce' used by {{node NcclAllReduce}} with these attrs: [reduction=\"sum\", shared_name=\"c1\", "
      "T=DT_FLOAT, num_devices=2]\nRegistered devices: [CPU, GPU]\nRegistered kernels:\n  <no registered "
      "kernels>\n");
  ASSERT_TRUE(leads_with(r, "tf-nccl-op-not-registered"));
  EXPECT_TRUE(contains(r.matches.front().fix, "HierarchicalCopyAllReduce")) << r.matches.front().fix;
  // Another op without a kernel is not NCCL's.
  EXPECT_EQ(find_rule(explain_no_facts("No OpKernel was registered to support Op 'CudnnRNN' used by node\n"),
                      "tf-nccl-op-not-registered"),
            nullptr);
}

// torch/csrc/distributed/c10d/TCPStore.cpp: the libuv store is the default since 2.4, and the
// Windows wheels are built without libuv.
TEST(ExplainDistributed, LibuvRequestedOnABuildWithoutItIsWindowsTcpStore) {
  const auto r = explain_no_facts(
      "  File \"C:\\hostedtoolcache\\windows\\Python\\3.12.7\\x64\\Lib\\site-packages\\torch\\distributed\\"
      "rendezvous.py\", line 189, in _create_c10d_store\n"
      "    return TCPStore(\n"
      "RuntimeError: use_libuv was requested but PyTorch was build without libuv support\n");
  ASSERT_TRUE(leads_with(r, "torch-tcpstore-without-libuv"));
  EXPECT_TRUE(contains(r.matches.front().fix, "USE_LIBUV=0")) << r.matches.front().fix;
}

}  // namespace
}  // namespace gpudoctor
