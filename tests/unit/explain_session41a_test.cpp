// Session 41 (A): the leftovers of session 40's re-reads (docs/explain.md, "Session 41: the
// re-reads' leftovers"): a condition about one line read over all of a rule's lines, THC's old
// `cuda runtime error (N) : text` read by today's numbering, the portable-Python rewrite of causes
// and of `uv pip` / `VAR=... pip`, Lightning under Slurm without the repeated `LOCAL_RANK: 0`, and
// NCCL's hang after `Init COMPLETE`.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "explain/explain_session.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;
using testing::leads_without;
using testing::mentions;
using testing::rule_list;
using testing::told;

bool session41a_captured(const ExplainMatch& m, std::string_view name, std::string_view value) {
  const auto it = m.captures.find(std::string(name));
  return it != m.captures.end() && std::find(it->second.begin(), it->second.end(), value) != it->second.end();
}

constexpr std::string_view kSession41aTfLine =
    "2023-01-01 10:00:00.000000: W tensorflow/tsl/platform/default/dso_loader.cc:66] Could not load dynamic "
    "library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory\n";
constexpr std::string_view kSession41aTorchLine =
    "Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: cannot open shared object "
    "file: No such file or directory\n";

// One notebook imports torch and tensorflow; TensorFlow's DSO loader misses libcudnn.so.8 and
// PyTorch's cuDNN misses its sub-library. Each line gets its own framework's answer.
TEST(ExplainSession41A, EachFrameworksCudnnLineGetsItsOwnAnswer) {
  const auto r = explain_no_facts(std::string(">>> import torch\n>>> import tensorflow as tf\n") +
                                  std::string(kSession41aTfLine) + std::string(kSession41aTorchLine));
  const ExplainMatch* tf = find_rule(r, "cudnn-library-missing/tensorflow");
  const ExplainMatch* torch = find_rule(r, "cudnn-library-missing/pytorch");
  ASSERT_NE(tf, nullptr) << rule_list(r);
  ASSERT_NE(torch, nullptr) << rule_list(r);
  EXPECT_FALSE(tf->alternative) << rule_list(r);
  EXPECT_FALSE(torch->alternative) << rule_list(r);
  EXPECT_TRUE(session41a_captured(*tf, "lib", "libcudnn.so.8"));
  EXPECT_FALSE(session41a_captured(*tf, "lib", "libcudnn_cnn_infer.so.8"));
  EXPECT_TRUE(session41a_captured(*torch, "lib", "libcudnn_cnn_infer.so.8"));
  EXPECT_FALSE(session41a_captured(*torch, "lib", "libcudnn.so.8"));
  // PyTorch's user is not sent to tensorflow[and-cuda], and TensorFlow's not to PyTorch's index.
  EXPECT_FALSE(mentions(torch->fix, "tensorflow[and-cuda]")) << torch->fix;
  EXPECT_TRUE(mentions(torch->fix, "download.pytorch.org")) << torch->fix;
  EXPECT_FALSE(mentions(tf->fix, "download.pytorch.org")) << tf->fix;
  // Each answer names only its own lines (3 and 4).
  EXPECT_EQ(tf->lines, (std::vector<std::uint64_t>{3})) << rule_list(r);
  EXPECT_EQ(torch->lines, (std::vector<std::uint64_t>{4})) << rule_list(r);
}

// The split is by the line's own mark, whatever the order and repetition of the lines.
TEST(ExplainSession41A, RepeatedLinesOfBothFrameworksStayApart) {
  const auto r = explain_no_facts(std::string("import torch\n") + std::string(kSession41aTorchLine) +
                                  std::string(kSession41aTfLine) + std::string(kSession41aTorchLine) +
                                  std::string(kSession41aTfLine));
  const ExplainMatch* tf = find_rule(r, "cudnn-library-missing/tensorflow");
  const ExplainMatch* torch = find_rule(r, "cudnn-library-missing/pytorch");
  ASSERT_NE(tf, nullptr) << rule_list(r);
  ASSERT_NE(torch, nullptr) << rule_list(r);
  EXPECT_EQ(tf->count, 2U);
  EXPECT_EQ(torch->count, 2U);
}

TEST(ExplainSession41A, OneFrameworksCudnnLinesKeepTheirOneAnswer) {
  // Only TensorFlow's loader line, in a log that shows PyTorch: TensorFlow's answer, no PyTorch one.
  const auto tf = explain_no_facts(std::string(">>> import torch\n") + std::string(kSession41aTfLine));
  ASSERT_TRUE(leads_without(tf, "cudnn-library-missing/tensorflow", {"cudnn-library-missing/pytorch"})) << told(tf);
  // Only PyTorch's line: PyTorch's answer, no TensorFlow one.
  const auto torch = explain_no_facts(std::string(">>> import torch\n") + std::string(kSession41aTorchLine));
  ASSERT_TRUE(leads_without(torch, "cudnn-library-missing/pytorch", {"cudnn-library-missing/tensorflow"}))
      << told(torch);
  // Two lines of one kind make one answer, not two.
  const auto two = explain_no_facts(std::string(">>> import torch\n") + std::string(kSession41aTorchLine) +
                                    "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: "
                                    "cannot open shared object file: No such file or directory\n");
  size_t own = 0;
  for (const auto& m : two.matches) own += (m.rule.starts_with("cudnn-library-missing") && !m.alternative) ? 1 : 0;
  EXPECT_EQ(own, 1U) << rule_list(two);
}

// THC's older check (PyTorch <= 1.x, aten/src/THC/THCGeneral.cpp): "cuda runtime error (%d) : %s",
// the number in the runtime's numbering of the CUDA it was built with (CUDA 10.0: 4 was
// cudaErrorLaunchFailure, now 719; 11 was cudaErrorInvalidValue, now 1).
TEST(ExplainSession41A, ThcsOldRuntimeErrorIsReadByItsText) {
  const auto r = explain_no_facts(
      "RuntimeError: cuda runtime error (4) : unspecified launch failure at "
      "/pytorch/aten/src/THC/THCCachingHostAllocator.cpp:265\n");
  ASSERT_TRUE(leads_without(r, "code/cudart/cudaErrorLaunchFailure", {"code/cudart/cudaErrorCudartUnloading"}))
      << rule_list(r);
  // A short text, after THC's prefix, names its code too.
  const auto invalid = explain_no_facts(
      "RuntimeError: cuda runtime error (11) : invalid argument at /pytorch/aten/src/THC/generic/THCTensorCopy.c:20\n");
  ASSERT_TRUE(leads_with(invalid, "code/cudart/cudaErrorInvalidValue")) << rule_list(invalid);
}

TEST(ExplainSession41A, ARuntimeErrorNumberWithNoKnownTextKeepsItsCode) {
  // The number alone, no text after it: today's numbering is all there is.
  const auto r = explain_no_facts("CUDA error (719) in kernel launch at foo.cu:12\n");
  ASSERT_TRUE(leads_with(r, "code/cudart/cudaErrorLaunchFailure")) << rule_list(r);
  // A number with a text no code prints: the number still answers.
  const auto unknown =
      explain_no_facts("RuntimeError: cuda runtime error (4) : something the runtime never printed at x.cu:1\n");
  ASSERT_TRUE(leads_with(unknown, "code/cudart/cudaErrorCudartUnloading")) << rule_list(unknown);
}

// `xid-process` is a fact about one Xid line too: the GPU that failed to initialise (its Xid under
// modprobe) and a workload's Xid on another GPU, in one log, are each answered by their own line.
TEST(ExplainSession41A, AnInitXidAndAWorkloadXidInOneLogAreAnsweredApart) {
  const auto r = explain_no_facts(
      "[   12.1] NVRM: GPU 000f:01:00.0: RmInitAdapter failed! (0x62:0x1a:2631)\n"
      "[   12.2] NVRM: Xid (PCI:000f:01:00): 169, pid=1, name=modprobe, Ch 00000000\n"
      "[86400.5] NVRM: Xid (PCI:0000:41:00): 169, pid=2201, name=python, Micro-controller halt\n");
  const ExplainMatch* init = find_rule(r, "xid-microcontroller-halt/during-init");
  ASSERT_NE(init, nullptr) << rule_list(r);
  EXPECT_FALSE(init->alternative) << rule_list(r);
  EXPECT_EQ(init->lines, (std::vector<std::uint64_t>{2})) << rule_list(r);
  bool workload = false;
  for (const auto& m : r.matches) {
    workload = workload ||
               (m.rule == "xid-microcontroller-halt" && !m.alternative && m.lines.size() == 1 && m.lines.front() == 3);
  }
  EXPECT_TRUE(workload) << rule_list(r);
}

constexpr std::string_view kSession41aComfyPrefix =
    "D:\\ComfyUI_windows_portable>.\\python_embeded\\python.exe -s ComfyUI\\main.py --windows-standalone-build\n"
    "  File \"D:\\ComfyUI_windows_portable\\python_embeded\\Lib\\site-packages\\torch\\cuda\\__init__.py\", line "
    "310, in _lazy_init\n";

// The portable Python's rewrite is for the commands of a fix, not for the cause's words.
TEST(ExplainSession41A, PortablePythonRewritesFixesNotCauses) {
  const auto r =
      explain_no_facts(std::string(kSession41aComfyPrefix) + "AssertionError: Torch not compiled with CUDA enabled\n");
  ASSERT_TRUE(leads_with(r, "torch-not-compiled-with-cuda")) << rule_list(r);
  const auto& m = r.matches.front();
  EXPECT_TRUE(mentions(m.cause, "`pip install torch`")) << m.cause;
  EXPECT_FALSE(mentions(m.cause, "python_embeded")) << m.cause;
  EXPECT_TRUE(mentions(m.fix, ".\\python_embeded\\python.exe -m pip install torch")) << m.fix;
}

// `uv pip` installs into the interpreter `--python` names; an environment-variable prefix is a
// POSIX shell's form, and Windows sets the variable first (cmd: `set "VAR=value"`, PowerShell:
// `$env:VAR="value"`).
TEST(ExplainSession41A, PortablePythonRewritesUvPipAndVariablePrefixes) {
  const auto uv = explain_no_facts(
      std::string(kSession41aComfyPrefix) +
      "hint: This error likely indicates that `flash-attn@2.7.4.post1` depends on `torch`, but doesn't declare it as "
      "a build dependency.\n");
  ASSERT_TRUE(leads_with(uv, "build-isolation-missing-module")) << rule_list(uv);
  const std::string& uv_fix = uv.matches.front().fix;
  EXPECT_TRUE(mentions(uv_fix, "`uv pip install --python .\\python_embeded\\python.exe PKG --no-build-isolation`"))
      << uv_fix;
  EXPECT_FALSE(mentions(uv_fix, "`uv pip install PKG")) << uv_fix;

  const auto cmake = explain_no_facts(
      std::string(kSession41aComfyPrefix) +
      "ggml-cuda.cu:3211: ERROR: CUDA kernel vec_dot_q5_K_q8_1_impl_vmmq has no device code compatible with CUDA "
      "arch 520. ggml-cuda.cu was compiled for: 520\n");
  ASSERT_TRUE(leads_with(cmake, "ggml-no-device-code")) << rule_list(cmake);
  const std::string& fix = cmake.matches.front().fix;
  EXPECT_FALSE(mentions(fix, "CMAKE_ARGS=\"-DGGML_CUDA=on -DCMAKE_CUDA_ARCHITECTURES=86\" pip install")) << fix;
  EXPECT_TRUE(mentions(fix,
                       "`set \"CMAKE_ARGS=-DGGML_CUDA=on -DCMAKE_CUDA_ARCHITECTURES=86\" && "
                       ".\\python_embeded\\python.exe -m pip install --force-reinstall"))
      << fix;
  EXPECT_TRUE(mentions(fix,
                       "`$env:CMAKE_ARGS=\"-DGGML_CUDA=on -DCMAKE_CUDA_ARCHITECTURES=86\"; "
                       ".\\python_embeded\\python.exe -m pip install --force-reinstall"))
      << fix;
}

TEST(ExplainSession41A, WithoutAPortablePythonFixesStayAsWritten) {
  const auto r = explain_no_facts(
      "ggml-cuda.cu:3211: ERROR: CUDA kernel vec_dot_q5_K_q8_1_impl_vmmq has no device code compatible with CUDA "
      "arch 520. ggml-cuda.cu was compiled for: 520\n");
  ASSERT_TRUE(leads_with(r, "ggml-no-device-code")) << rule_list(r);
  EXPECT_TRUE(mentions(r.matches.front().fix,
                       "`CMAKE_ARGS=\"-DGGML_CUDA=on -DCMAKE_CUDA_ARCHITECTURES=86\" pip install --force-reinstall"))
      << r.matches.front().fix;
  const auto uv = explain_no_facts(
      "hint: This error likely indicates that `flash-attn@2.7.4.post1` depends on `torch`, but doesn't declare it as "
      "a build dependency.\n");
  EXPECT_TRUE(mentions(uv.matches.front().fix, "`uv pip install PKG --no-build-isolation`")) << uv.matches.front().fix;
}

// Lightning-AI/pytorch-lightning#7027: under Slurm every process of a 2 x 2 job printed
// `LOCAL_RANK: 0` (Lightning 1.2.7), and the processes asked for GPUs their node did not give them.
TEST(ExplainSession41A, LightningSlurmNeedsEveryRankAtLocalRankZero) {
  const auto r = explain_no_facts(
      "LOCAL_RANK: 0 -CUDA_VISIBLE_DEVICES: [0,1]\n"
      "initializing ddp: GLOBAL_RANK: 2, MEMBER: 3/4\n"
      "LOCAL_RANK: 0 -CUDA_VISIBLE_DEVICES: [0,1]\n"
      "initializing ddp: GLOBAL_RANK: 3, MEMBER: 4/4\n"
      "RuntimeError: CUDA error: invalid device ordinal\n"
      "#SBATCH --nodes=2\n");
  ASSERT_TRUE(leads_with(r, "invalid-device-ordinal/lightning-slurm")) << rule_list(r);
}

TEST(ExplainSession41A, LightningSlurmWithDistinctLocalRanksIsNotTheLocalRankBug) {
  // One LOCAL_RANK line only: nothing repeated.
  const auto one = explain_no_facts(
      "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1]\n"
      "initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/2\n"
      "RuntimeError: CUDA error: invalid device ordinal\n"
      "#SBATCH --ntasks-per-node=2\n");
  ASSERT_TRUE(leads_with(one, "invalid-device-ordinal")) << rule_list(one);
  EXPECT_EQ(find_rule(one, "invalid-device-ordinal/lightning-slurm"), nullptr) << rule_list(one);
  // Two nodes, each with local ranks 0 and 1: LOCAL_RANK: 0 twice, but the ranks are right.
  const auto healthy = explain_no_facts(
      "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1]\n"
      "LOCAL_RANK: 1 - CUDA_VISIBLE_DEVICES: [0,1]\n"
      "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1]\n"
      "LOCAL_RANK: 1 - CUDA_VISIBLE_DEVICES: [0,1]\n"
      "RuntimeError: CUDA error: invalid device ordinal\n"
      "srun python train.py\n");
  ASSERT_TRUE(leads_with(healthy, "invalid-device-ordinal")) << rule_list(healthy);
  EXPECT_EQ(find_rule(healthy, "invalid-device-ordinal/lightning-slurm"), nullptr) << rule_list(healthy);
  // The same under Slurm with several processes (every other sign of the bug there): the local
  // rank 1 lines alone say the ranks are right (mutation row s41a-15 survived without this).
  const auto slurm_healthy = explain_no_facts(
      "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1]\n"
      "initializing ddp: GLOBAL_RANK: 0, MEMBER: 1/4\n"
      "LOCAL_RANK: 1 - CUDA_VISIBLE_DEVICES: [0,1]\n"
      "initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/4\n"
      "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1]\n"
      "initializing ddp: GLOBAL_RANK: 2, MEMBER: 3/4\n"
      "LOCAL_RANK: 1 - CUDA_VISIBLE_DEVICES: [0,1]\n"
      "initializing ddp: GLOBAL_RANK: 3, MEMBER: 4/4\n"
      "RuntimeError: CUDA error: invalid device ordinal\n"
      "#SBATCH --nodes=2\n");
  ASSERT_TRUE(leads_with(slurm_healthy, "invalid-device-ordinal")) << rule_list(slurm_healthy);
  EXPECT_EQ(find_rule(slurm_healthy, "invalid-device-ordinal/lightning-slurm"), nullptr) << rule_list(slurm_healthy);
  // Every sign but Slurm: not Lightning's Slurm bug (row r40a-lightning-slurm survived without this).
  const auto no_slurm = explain_no_facts(
      "LOCAL_RANK: 0 -CUDA_VISIBLE_DEVICES: [0,1]\n"
      "initializing ddp: GLOBAL_RANK: 2, MEMBER: 3/4\n"
      "LOCAL_RANK: 0 -CUDA_VISIBLE_DEVICES: [0,1]\n"
      "initializing ddp: GLOBAL_RANK: 3, MEMBER: 4/4\n"
      "RuntimeError: CUDA error: invalid device ordinal\n");
  ASSERT_TRUE(leads_with(no_slurm, "invalid-device-ordinal")) << rule_list(no_slurm);
  EXPECT_EQ(find_rule(no_slurm, "invalid-device-ordinal/lightning-slurm"), nullptr) << rule_list(no_slurm);
}

constexpr std::string_view kSession41aNcclInit =
    "UIBE-DC-GPUSVR-01:13313:13991 [3] NCCL INFO Connected all trees\n"
    "UIBE-DC-GPUSVR-01:13313:13988 [0] NCCL INFO comm 0x55b4098aaff0 rank 0 nranks 8 cudaDev 0 nvmlDev 0 busId "
    "4f000 commId 0xb9b42cb8fce289f2 - Init COMPLETE\n"
    "UIBE-DC-GPUSVR-01:13313:13992 [4] NCCL INFO comm 0x55b4098c56f0 rank 4 nranks 8 cudaDev 4 nvmlDev 4 busId "
    "ce000 commId 0xb9b42cb8fce289f2 - Init COMPLETE\n";

// The lines of NVIDIA/nccl#1027 (nccl-tests stuck after Init COMPLETE); the cause and fix of NVIDIA/nccl#631,
// #2079, #257: the communicator is set up, the first collective never returns.
TEST(ExplainSession41A, NcclHangAfterInitCompleteWhenTheUserSaysItHangs) {
  for (const std::string words : {"nccl-test stuck here!\n", "The program hangs after this line, no error.\n",
                                  "训练卡住了，没有报错\n", "Hanging at this step for 30 minutes now:\n"}) {
    const auto r = explain_no_facts(words + std::string(kSession41aNcclInit));
    ASSERT_TRUE(leads_with(r, "nccl-hang-after-init")) << words << rule_list(r);
    const auto& m = r.matches.front();
    EXPECT_TRUE(mentions(m.fix, "NCCL_P2P_DISABLE=1")) << m.fix;
    EXPECT_TRUE(mentions(m.fix, "ACS")) << m.fix;
    EXPECT_TRUE(mentions(m.fix, "NCCL_P2P_LEVEL")) << m.fix;
    EXPECT_TRUE(mentions(m.cause, "IOMMU")) << m.cause;
  }
}

// PyTorch's watchdog giving up on the first collective (SeqNum=1) is the hang's sign too.
TEST(ExplainSession41A, NcclHangAfterInitCompleteWhenTheFirstCollectiveTimesOut) {
  const auto r = explain_no_facts(
      std::string(kSession41aNcclInit) +
      "[Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, "
      "NumelOut=1, Timeout(ms)=600000) ran for 600343 milliseconds before timing out.\n");
  ASSERT_TRUE(leads_with(r, "nccl-hang-after-init")) << rule_list(r);
  EXPECT_NE(find_rule(r, "nccl-timeout"), nullptr) << rule_list(r);
  // A later collective's timeout (SeqNum 52): collectives ran, no hang after init.
  const auto later =
      explain_no_facts(std::string(kSession41aNcclInit) +
                       "[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=52, OpType=ALLREDUCE, "
                       "Timeout(ms)=600000) ran for 600035 milliseconds before timing out.\n");
  ASSERT_TRUE(leads_with(later, "nccl-timeout")) << rule_list(later);
  EXPECT_EQ(find_rule(later, "nccl-hang-after-init"), nullptr) << rule_list(later);
}

TEST(ExplainSession41A, HealthyNcclInitIsNoHang) {
  // One rank alone has no peer to hang on.
  const auto single = explain_no_facts(
      "it hangs here\n"
      "node01:3384:3414 [0] NCCL INFO comm 0x7fe3d4001980 rank 0 nranks 1 cudaDev 0 nvmlDev 0 - Init COMPLETE\n");
  EXPECT_EQ(find_rule(single, "nccl-hang-after-init"), nullptr) << rule_list(single);
  // Init COMPLETE and training goes on: no answer about a hang.
  const auto healthy = explain_no_facts(std::string(kSession41aNcclInit) +
                                        "Epoch: [0][  0/625]\tTime 12.807 (12.807)\tLoss 6.7861e+00\n");
  EXPECT_EQ(find_rule(healthy, "nccl-hang-after-init"), nullptr) << rule_list(healthy);
  // The user's words without NCCL's init line: no NCCL hang answer either.
  const auto words = explain_no_facts("the program hangs after loading the model\n");
  EXPECT_EQ(find_rule(words, "nccl-hang-after-init"), nullptr) << rule_list(words);
  // A NCCL error after init is that error's answer, not a silent hang.
  const auto warn = explain_no_facts(
      "it hangs\n" + std::string(kSession41aNcclInit) +
      "host:3:40 [1] transport/p2p.cc:355 NCCL WARN failed to peer with device 0(=1b000): 217 peer access is not "
      "supported between these two devices\n");
  ASSERT_TRUE(leads_with(warn, "nccl-p2p-access-failed")) << rule_list(warn);
  EXPECT_EQ(find_rule(warn, "nccl-hang-after-init"), nullptr) << rule_list(warn);
}

}  // namespace
}  // namespace gpudoctor
