// The GPU works but is slow, or a speed feature refuses: mixed precision and dtypes, torch.compile
// and Triton, FlashAttention, DataLoader workers and shared memory, Keras input that runs out.
// The lines are the frameworks' own wording, read where it is printed (torch/amp/autocast_mode.py,
// torch/_inductor/exc.py, torch/csrc/DataLoader.cpp, torch/utils/data/dataloader.py,
// aten/src/ATen/MapAllocator.cpp, flash-attention csrc/flash_attn/flash_api.cpp, Keras'
// device_compatibility_check.py and epoch_iterator.py); the surrounding prefixes are those of
// real logs.
#include <gtest/gtest.h>

#include <string>

#include "core/text.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

TEST(ExplainPerformance, AutocastBfloat16OnAnOldGpuSaysUseFloat16) {
  const auto r = explain_no_facts(
      "  File \"/venv/lib/python3.10/site-packages/torch/amp/autocast_mode.py\", line 241, in __init__\n"
      "    raise RuntimeError(\n"
      "RuntimeError: Current CUDA Device does not support bfloat16. Please switch dtype to float16.\n");
  ASSERT_TRUE(leads_with(r, "torch-autocast-bf16-unsupported"));
  EXPECT_EQ(r.matches.front().category, "gpu-arch-unsupported");
  EXPECT_NE(r.matches.front().fix.find("torch.float16"), std::string::npos);
  EXPECT_NE(r.matches.front().cause.find("8.0"), std::string::npos);
}

TEST(ExplainPerformance, TorchCompileOnAPascalGpuNamesTheGpuAndItsCapability) {
  const auto r = explain_no_facts(
      "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
      "RuntimeError: Found Tesla P100-PCIE-16GB which is too old to be supported by the triton GPU compiler, which "
      "is used as the backend. Triton only supports devices of CUDA Capability >= 7.0, but your device is of CUDA "
      "capability 6.0\n");
  ASSERT_TRUE(leads_with(r, "torch-inductor-gpu-too-old-for-triton"));
  const auto& m = r.matches.front();
  EXPECT_NE(m.cause.find("Tesla P100-PCIE-16GB"), std::string::npos) << m.cause;
  EXPECT_NE(m.cause.find("6.0"), std::string::npos) << m.cause;
  EXPECT_NE(m.fix.find("without torch.compile"), std::string::npos);
}

TEST(ExplainPerformance, TritonMissingIsTorchCompileNotTheGpu) {
  const auto r = explain_no_facts(
      "torch._inductor.exc.TritonMissing: Cannot find a working triton installation. Either the package is not "
      "installed or it is too old. More information on installing Triton can be found at: "
      "https://github.com/triton-lang/triton\n");
  ASSERT_TRUE(leads_with(r, "torch-inductor-triton-missing"));
  EXPECT_NE(r.matches.front().fix.find("WSL2"), std::string::npos);
}

TEST(ExplainPerformance, FlashAttentionOnATuringGpuAndWithFloat32) {
  const auto arch = explain_no_facts("RuntimeError: FlashAttention only supports Ampere GPUs or newer.\n");
  ASSERT_TRUE(leads_with(arch, "flash-attn-needs-ampere"));
  EXPECT_NE(arch.matches.front().fix.find("sdpa"), std::string::npos);

  const auto dtype = explain_no_facts("RuntimeError: FlashAttention only support fp16 and bf16 data type\n");
  ASSERT_TRUE(leads_with(dtype, "flash-attn-dtype"));
}

TEST(ExplainPerformance, DataLoaderBusErrorIsSharedMemoryAndLeadsTheWorkerSummary) {
  // What a container with Docker's default /dev/shm prints: the worker's own SIGBUS note, the
  // main process's "killed by signal" and the summary raised from it.
  const auto r = explain_no_facts(
      "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory "
      "(shm).\n"
      "Traceback (most recent call last):\n"
      "  File \"/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py\", line 1133, in "
      "_try_get_data\n"
      "RuntimeError: DataLoader worker (pid 1124261) is killed by signal: Bus error. It is possible that "
      "dataloader's workers are out of shared memory. Please try to raise your shared memory limit.\n"
      "\n"
      "The above exception was the direct cause of the following exception:\n"
      "\n"
      "RuntimeError: DataLoader worker (pid(s) 1124261) exited unexpectedly\n");
  ASSERT_TRUE(leads_with(r, "torch-dataloader-shm-exhausted"));
  EXPECT_NE(r.matches.front().fix.find("--ipc=host"), std::string::npos);
  EXPECT_NE(r.matches.front().fix.find("--shm-size"), std::string::npos);
  // The summary is still named, after the cause.
  EXPECT_NE(find_rule(r, "torch-dataloader-worker-died"), nullptr);
}

TEST(ExplainPerformance, SharedMemorySegmentThatCannotBeWrittenIsTheSameProblem) {
  const auto r = explain_no_facts(
      "RuntimeError: unable to write to file </torch_287_2714559211_8>: No space left on device (28)\n");
  ASSERT_TRUE(leads_with(r, "torch-dataloader-shm-exhausted"));
  EXPECT_NE(r.matches.front().cause.find("No space left on device"), std::string::npos) << r.matches.front().cause;
  // Any other file is not PyTorch's shared memory.
  const auto other = explain_no_facts("unable to write to file </home/me/out.txt>: Permission denied (13)\n");
  EXPECT_EQ(find_rule(other, "torch-dataloader-shm-exhausted"), nullptr);
}

TEST(ExplainPerformance, AWorkerKilledOtherwiseIsOnlyASummaryWithTheSignal) {
  const auto r = explain_no_facts("RuntimeError: DataLoader worker (pid 9833) is killed by signal: Killed.\n");
  ASSERT_TRUE(leads_with(r, "torch-dataloader-worker-died"));
  const auto& m = r.matches.front();
  EXPECT_NE(m.cause.find("Killed"), std::string::npos) << m.cause;
  EXPECT_NE(m.fix.find("num_workers=0"), std::string::npos);
  // Not the shared-memory answer: only SIGBUS says that.
  EXPECT_EQ(find_rule(r, "torch-dataloader-shm-exhausted"), nullptr);
}

TEST(ExplainPerformance, KerasMixedFloat16OnAKeplerGpuNamesTheGpu) {
  const auto r = explain_no_facts(
      "WARNING:tensorflow:Mixed precision compatibility check (mixed_float16): WARNING\n"
      "Your GPU may run slowly with dtype policy mixed_float16 because it does not have compute capability of at "
      "least 7.0. Your GPU:\n"
      "  Tesla K80, compute capability 3.7\n"
      "See https://developer.nvidia.com/cuda-gpus for a list of GPUs and their compute capabilities.\n"
      "If you will use compatible GPU(s) not attached to this host, e.g. by running a multi-worker model, you can "
      "ignore this warning. This message will only be logged once\n");
  ASSERT_TRUE(leads_with(r, "keras-mixed-float16-slow-gpu"));
  const auto& m = r.matches.front();
  EXPECT_EQ(m.severity, RuleSeverity::warning);
  EXPECT_NE(m.fix.find("float32"), std::string::npos);
}

TEST(ExplainPerformance, KerasInputRanOutOfDataIsTheDatasetNotTheGpu) {
  // Keras 3 prints it as a UserWarning whose text follows on the next line.
  const auto r = explain_no_facts(
      "/opt/conda/lib/python3.10/contextlib.py:153: UserWarning: Your input ran out of data; interrupting "
      "training. Make sure that your dataset or generator can generate at least `steps_per_epoch * epochs` "
      "batches. You may need to use the `.repeat()` function when building your dataset.\n"
      "  self.gen.throw(typ, value, traceback)\n");
  ASSERT_TRUE(leads_with(r, "keras-input-ran-out-of-data"));
  EXPECT_NE(r.matches.front().fix.find(".repeat()"), std::string::npos);
}

TEST(ExplainPerformance, SdpaRestrictedToFusedKernelsSaysReadTheReasons) {
  // sdp_utils.cpp prints these only when the math kernel was disabled and no fused kernel fits.
  const auto r = explain_no_facts(
      "/venv/lib/python3.10/site-packages/sam2/modeling/sam/transformer.py:270: UserWarning: Memory efficient "
      "kernel not used because: (Triggered internally at "
      "../aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:718.)\n"
      "/venv/lib/python3.10/site-packages/sam2/modeling/sam/transformer.py:270: UserWarning: Flash attention kernel "
      "not used because: (Triggered internally at ../aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:720.)\n"
      "RuntimeError: No available kernel. Aborting execution.\n");
  ASSERT_TRUE(leads_with(r, "torch-sdpa-no-fused-kernel"));
  EXPECT_NE(r.matches.front().fix.find("SDPBackend.MATH"), std::string::npos);
}

// The reasons sdp_utils.cpp / sdp_utils_cpp.h print after each "<kernel> kernel not used
// because:" line name the problem; they lead the summary rule.
constexpr const char* kSdpaHead =
    "/home/u/model.py:88: UserWarning: Flash attention kernel not used because: (Triggered internally at "
    "../aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:723.)\n"
    "  out = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n";
constexpr const char* kSdpaTail = "RuntimeError: No available kernel. Aborting execution.\n";

TEST(ExplainPerformance, SdpaReasonGpuArchitectureLeadsTheSummary) {
  const auto r = explain_no_facts(std::string(kSdpaHead) +
                                  "/home/u/model.py:88: UserWarning: Flash attention only supports gpu architectures "
                                  "in the range [sm80, sm90]. Attempting to run on a sm 7.5 gpu. (Triggered "
                                  "internally at ../aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:201.)\n" +
                                  kSdpaTail);
  ASSERT_TRUE(leads_with(r, "torch-sdpa-kernel-gpu-arch"));
  EXPECT_EQ(r.matches.front().category, "gpu-arch-unsupported");
  EXPECT_NE(r.matches.front().cause.find("sm 7.5"), std::string::npos);
  EXPECT_NE(r.matches.front().cause.find("sm80 to sm90"), std::string::npos);
  EXPECT_NE(find_rule(r, "torch-sdpa-no-fused-kernel"), nullptr);
}

TEST(ExplainPerformance, SdpaReasonFloat32InputsSaysHalfPrecision) {
  const auto r = explain_no_facts(
      std::string(kSdpaHead) +
      "UserWarning: Expected query, key and value to all be of dtype: {Half, BFloat16}. Got Query dtype: float, Key "
      "dtype: float, and Value dtype: float instead. (Triggered internally at "
      "../aten/src/ATen/native/transformers/sdp_utils_cpp.h:110.)\n" +
      kSdpaTail);
  ASSERT_TRUE(leads_with(r, "torch-sdpa-kernel-dtype"));
  EXPECT_NE(r.matches.front().cause.find("Half, BFloat16"), std::string::npos);
  EXPECT_NE(r.matches.front().cause.find("query: float"), std::string::npos);
  EXPECT_NE(r.matches.front().fix.find("torch.autocast"), std::string::npos);
}

TEST(ExplainPerformance, SdpaReasonHeadDimensionIsTheModel) {
  const auto r = explain_no_facts(
      "UserWarning: Memory efficient kernel not used because: (Triggered internally at "
      "/pytorch/aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:855.)\n"
      "UserWarning: Mem efficient attention requires last dimension of inputs to be divisible by 8. Got "
      "Query.size(-1): 100, Key.size(-1): 100, Value.size(-1): 100 instead. (Triggered internally at "
      "/pytorch/aten/src/ATen/native/transformers/cuda/sdp_utils.cpp:361.)\n" +
      std::string(kSdpaTail));
  ASSERT_TRUE(leads_with(r, "torch-sdpa-kernel-head-dim"));
  EXPECT_NE(r.matches.front().cause.find("100"), std::string::npos);
}

TEST(ExplainPerformance, SdpaReasonAttentionMaskInOldReleases) {
  const auto r = explain_no_facts(
      "UserWarning: Both fused kernels do not support non-null attn_mask. (Triggered internally at "
      "../aten/src/ATen/native/transformers/sdp_utils_cpp.h:261.)\n" +
      std::string(kSdpaTail));
  ASSERT_TRUE(leads_with(r, "torch-sdpa-kernel-input-unsupported"));
  EXPECT_NE(r.matches.front().cause.find("non-null attn_mask"), std::string::npos);
  EXPECT_NE(r.matches.front().fix.find("is_causal=True"), std::string::npos);
}

TEST(ExplainPerformance, TritonOutOfSharedMemoryNamesTheNumbers) {
  const auto r = explain_no_facts(
      "  File \"/usr/lib/python3/dist-packages/triton/compiler/compiler.py\", line 483, in _init_handles\n"
      "    raise OutOfResources(self.metadata.shared, max_shared, \"shared memory\")\n"
      "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 110592, Hardware limit: "
      "101376. Reducing block sizes or `num_stages` may help.\n");
  ASSERT_TRUE(leads_with(r, "triton-out-of-resources"));
  EXPECT_NE(r.matches.front().cause.find("110592"), std::string::npos);
  EXPECT_NE(r.matches.front().cause.find("101376"), std::string::npos);
  EXPECT_NE(r.matches.front().cause.find("shared memory"), std::string::npos);
}

TEST(ExplainPerformance, TritonFp8e4nvNeedsAda) {
  const auto r = explain_no_facts(
      "triton.compiler.errors.CompilationError: at 1:0:\ndef _w8a8_block_fp8_matmul(\n^\n"
      "ValueError(\"type fp8e4nv not supported in this architecture. The supported fp8 dtypes are ('fp8e4b15', "
      "'fp8e5')\")\n");
  ASSERT_TRUE(leads_with(r, "triton-fp8e4nv-unsupported"));
  EXPECT_EQ(r.matches.front().category, "gpu-arch-unsupported");
  EXPECT_NE(r.matches.front().cause.find("8.9"), std::string::npos);
  EXPECT_NE(r.matches.front().cause.find("'fp8e4b15', 'fp8e5'"), std::string::npos);
}

TEST(ExplainPerformance, InductorNotEnoughSmsIsANotice) {
  const auto r = explain_no_facts(
      "W1202 10:01:02.123000 1234 torch/_inductor/utils.py:1250] [0/0] Not enough SMs to use max_autotune_gemm "
      "mode\n");
  ASSERT_TRUE(leads_with(r, "torch-inductor-not-enough-sms"));
  EXPECT_TRUE(r.matches.front().harmless);
}

TEST(ExplainPerformance, DataLoaderOutOfFileDescriptorsIsTheOpenFilesLimit) {
  // pytorch/pytorch#973, speechbrain/speechbrain#912 (num_workers=32); the wording torch 1.x-2.10 raise itself.
  for (const char* log : {
           "  File \"/home/jamfly/miniconda3/envs/sb/lib/python3.8/multiprocessing/reduction.py\", line 164, in "
           "recvfds\n"
           "    raise RuntimeError('received %d items of ancdata' %\n"
           "RuntimeError: received 0 items of ancdata\n",
           "RuntimeError: Too many open files. Communication with the workers is no longer possible. Please increase "
           "the "
           "limit using `ulimit -n` in the shell or change the sharing strategy by calling "
           "`torch.multiprocessing.set_sharing_strategy('file_system')` at the beginning of your code\n",
       }) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "torch-dataloader-too-many-open-files")) << log;
    EXPECT_TRUE((r.matches.front().fix.find("ulimit -n") != std::string::npos)) << r.matches.front().fix;
    EXPECT_TRUE((r.matches.front().fix.find("file_system") != std::string::npos)) << r.matches.front().fix;
  }
}

// PyTorch 2.0-2.1's FlashAttention (v1) checks the architecture with bare TORCH_CHECKs
// (fmha_api.cpp): "Expected is_sm80 || is_sm90 to be true, but got false." on an RTX 30/40.
TEST(ExplainPerformance, FlashAttentionV1ArchitectureCheckNamesTheCardsAndTheWayOut) {
  const auto r = explain_no_facts(
      "  File \"/usr/local/lib/python3.10/dist-packages/torch/autograd/__init__.py\", line 200, in backward\n"
      "    Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass\n"
      "RuntimeError: Expected is_sm80 || is_sm90 to be true, but got false.  (Could this error message be improved?  "
      "If so, please report an enhancement request to PyTorch.)\n");
  ASSERT_TRUE(leads_with(r, "torch-flash-attention-v1-arch"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_EQ(m.category, "gpu-arch-unsupported");
  EXPECT_NE(m.cause.find("is_sm80 || is_sm90"), std::string::npos) << m.cause;
  EXPECT_NE(m.fix.find("enable_flash_sdp(False)"), std::string::npos) << m.fix;
  // Another bare TORCH_CHECK is not this.
  EXPECT_EQ(find_rule(explain_no_facts("RuntimeError: Expected q.is_cuda() to be true, but got false."),
                      "torch-flash-attention-v1-arch"),
            nullptr);
}

// tensorflow/core/kernels/data/cache_dataset_ops.cc: a cache that is never read to its end is
// thrown away, so every epoch reads the source again.
TEST(ExplainPerformance, PartiallyReadCacheIsDiscardedEveryEpoch) {
  const auto r = explain_no_facts(
      "2024-03-01 10:00:00.000000: W tensorflow/core/kernels/data/cache_dataset_ops.cc:858] The calling iterator "
      "did not fully read the dataset being cached. In order to avoid unexpected truncation of the dataset, the "
      "partially cached contents of the dataset  will be discarded. This can happen if you have an input pipeline "
      "similar to `dataset.cache().take(k).repeat()`. You should use `dataset.take(k).cache().repeat()` instead.\n");
  ASSERT_TRUE(leads_with(r, "tf-cache-partially-read"));
  EXPECT_EQ(r.matches.front().severity, RuleSeverity::warning);
}

// torch/utils/data/dataloader.py _check_worker_number_rationality.
TEST(ExplainPerformance, MoreDataLoaderWorkersThanCoresNamesBothNumbers) {
  const auto r = explain_no_facts(
      "/usr/lib/python3/dist-packages/torch/utils/data/dataloader.py:557: UserWarning: This DataLoader will create "
      "16 worker processes in total. Our suggested max number of worker in current system is 4, which is smaller "
      "than what this DataLoader is going to create. Please be aware that excessive worker creation might get "
      "DataLoader running slow or even freeze, lower the worker number to avoid potential slowness/freeze if "
      "necessary.\n");
  ASSERT_TRUE(leads_with(r, "torch-dataloader-too-many-workers"));
  EXPECT_TRUE(contains(r.matches.front().cause, "16")) << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().fix, "num_workers=4")) << r.matches.front().fix;
}

TEST(ExplainPerformance, TritonMissingOnWindowsIsWindowsHavingNoTritonWheels) {
  const std::string windows =
      "  File \"C:\\Users\\me\\unsloth\\venv\\lib\\site-packages\\unsloth\\__init__.py\", line 83, in <module>\n"
      "ModuleNotFoundError: No module named 'triton'\n";
  auto r = testing::explain_no_facts(windows);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "windows-native-gpu-unsupported");
  r = testing::explain_no_facts(
      "  File \"/home/me/venv/lib/python3.11/site-packages/unsloth/__init__.py\", line 83, in <module>\n"
      "ModuleNotFoundError: No module named 'triton'\n");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().rule, "triton-module-missing");
  // Another module whose name starts the same is not triton.
  EXPECT_EQ(testing::find_rule(testing::explain_no_facts("ModuleNotFoundError: No module named 'tritonclient'"),
                               "triton-module-missing"),
            nullptr);
}

}  // namespace
}  // namespace gpudoctor
