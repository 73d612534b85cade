// Session 41 review A: unseen logs from LLM serving stacks (docs: "Unseen logs, session 41 review A:
// LLM serving stacks").
// - NCCL 2.18.1/2.18.3/2.18.5's peer-to-peer setup bug (NVIDIA/nccl#957, fixed in 2.18.6 and 2.19.3)
//   under vLLM's custom all-reduce (log 14) got the P2P/ACS/IOMMU advice.
// - A failed JIT build's Python form (`CalledProcessError: Command '['ninja', '-v']'` with the
//   terminal's padding inside) and the nvcc release the log shows (log 06).
// - ggml's device-side `bad_arch()` line (koboldcpp 1.55, log 07) and its `ggml was not compiled with
//   any CUDA arch <= N` abort (llama.cpp's 2025-08-26 regression, log 08).
// - Ollama's GPU discovery failing with 999 after suspend (log 10); TGI's flash models that could not
//   be imported (log 12).
// - A torch-extension ABI mismatch whose owner pins or was built for one torch: vLLM's `_C` (log 09)
//   and auto-gptq's top-level `exllama_kernels` (log 11).
#include <gtest/gtest.h>

#include <string>
#include <string_view>

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
using testing::says_all;
using testing::told;

// logs/14-vllm-custom-allreduce-nccl218.log (verbatim)
constexpr std::string_view kReview41aVllmAllReduceLog =
    R"LOG((RayWorkerVllm pid=4028887) ERROR 03-28 21:38:23 ray_utils.py:44] torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.1
(RayWorkerVllm pid=4028887) ERROR 03-28 21:38:23 ray_utils.py:44] ncclUnhandledCudaError: Call to CUDA function failed.
(RayWorkerVllm pid=4028887) ERROR 03-28 21:38:23 ray_utils.py:44] Last error:
(RayWorkerVllm pid=4028887) ERROR 03-28 21:38:23 ray_utils.py:44] Cuda failure 'invalid argument'
[W CudaIPCTypes.cpp:15] Producer process has been terminated before all shared CUDA tensors released. See Note [Sharing CUDA tensors]
)LOG";

// logs/06-exllama-ninja-old-nvcc.log (verbatim)
constexpr std::string_view kReview41aExllamaNinjaLog = R"LOG(Traceback (most recent call last):
  File "/home/xxxxxx/miniconda3/envs/gptq/lib/python3.9/site-packages/torch/utils                                                                                        /cpp_extension.py", line 1893, in _run_ninja_build
    subprocess.run(
  File "/home/xxxxxx/miniconda3/envs/gptq/lib/python3.9/subprocess.py", line 528,                                                                                         in run
    raise CalledProcessError(retcode, process.args,
subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit                                                                                         status 1.

The above exception was the direct cause of the following exception:

Built on Thu_Nov_18_09:45:30_PST_2021
Cuda compilation tools, release 11.5, V11.5.119
Build cuda_11.5.r11.5/
)LOG";

// logs/07-koboldcpp-pascal-arch.log (verbatim)
constexpr std::string_view kReview41aKoboldPascalLog =
    R"LOG(ERROR: ggml-cuda was compiled without support for the current GPU architecture.
ERROR: ggml-cuda was compiled without support for the current GPU architecture.
CUDA error: CUBLAS_STATUS_EXECUTION_FAILED
  current device: 0, in function ggml_cuda_op_mul_mat_cublas at d:\a\koboldcpp\koboldcpp\ggml-cuda.cu:7856
  cublasSgemm_v2(g_cublas_handles[id], CUBLAS_OP_T, CUBLAS_OP_N, row_diff, src1_ncols, ne10, &alpha, src0_ddf_i, ne00, src1_ddf1_i, ne10, &beta, dst_dd_i, ldc)
GGML_ASSERT: d:\a\koboldcpp\koboldcpp\ggml-cuda.cu:226: !"CUDA error"
)LOG";

// logs/08-llamacpp-no-arch-750.log (verbatim)
constexpr std::string_view kReview41aLlamaNoArchLog = R"LOG(root@genai:~/llama.cpp/build/bin# ./llama-cli --version
ggml_cuda_init: GGML_CUDA_FORCE_MMQ:    no
ggml_cuda_init: GGML_CUDA_FORCE_CUBLAS: no
ggml_cuda_init: found 1 CUDA devices:
  Device 0: NVIDIA A100-SXM4-80GB, compute capability 8.0, VMM: yes
common.cuh:112: ggml was not compiled with any CUDA arch <= 750
)LOG";

// logs/10-ollama-after-suspend-999.log (verbatim)
constexpr std::string_view kReview41aOllamaSuspendLog =
    R"LOG(time=2024-09-05T09:20:35.622+08:00 level=DEBUG source=gpu.go:521 msg="discovered GPU libraries" paths="[/tmp/ollama786265597/runners/cuda_v11/libcudart.so.11.0 /opt/cuda/lib64/libcudart.so.12.6.37]"
cudaSetDevice err: 999
time=2024-09-05T09:20:35.624+08:00 level=DEBUG source=gpu.go:533 msg="Unable to load cudart" library=/tmp/ollama786265597/runners/cuda_v11/libcudart.so.11.0 error="cudart init failure: 999"
cudaSetDevice err: 999
time=2024-09-05T09:20:35.627+08:00 level=DEBUG source=gpu.go:533 msg="Unable to load cudart" library=/opt/cuda/lib64/libcudart.so.12.6.37 error="cudart init failure: 999"
)LOG";

// logs/12-tgi-sharded-llama-no-vllm-kernels.log (verbatim)
constexpr std::string_view kReview41aTgiShardedLog =
    R"LOG(text-generation-launcher --model-id LLaMA-13B --disable-custom-kernels --port 6006 --num-shard 2

2023-07-20T12:31:14.506674Z  WARN text_generation_launcher: Could not import Flash Attention enabled models: No module named 'vllm_cache_ops'

NotImplementedError: Sharded Llama requires Flash Attention enabled models.
)LOG";

// logs/09-vllm-C-undefined-symbol.log (verbatim)
constexpr std::string_view kReview41aVllmCSymbolLog =
    R"LOG(ImportError: /usr/local/lib/python3.10/dist-packages/vllm/_C.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN2at4_ops15to_dtype_layout4callERKNS_6TensorEN3c108optionalINS5_10ScalarTypeEEENS6_INS5_6LayoutEEENS6_INS5_6DeviceEEENS6_IbEEbbNS6_INS5_12MemoryFormatEEE

CUDA: 12.0.1
torch : 2.2.1
transformers: 4.38.2
vllm: 0.3.2
accelerate: 0.27.2
)LOG";

// logs/11-autogptq-exllama-kernels-symbol.log (verbatim)
constexpr std::string_view kReview41aAutogptqSymbolLog = R"LOG(CUDA extension not installed.
exllama_kernels not installed.
from auto_gptq import AutoGPTQForCausalLM
File "/usr/local/lib/python3.10/dist-packages/auto_gptq/init.py", line 4, in
from .utils.peft_utils import get_gptq_peft_model
File "/usr/local/lib/python3.10/dist-packages/auto_gptq/utils/peft_utils.py", line 20, in
from ..nn_modules.qlinear.qlinear_exllama import QuantLinear as QuantLinearExllama
File "/usr/local/lib/python3.10/dist-packages/auto_gptq/nn_modules/qlinear/qlinear_exllama.py", line 14, in
from exllama_kernels import make_q4, q4_matmul
ImportError: /usr/local/lib/python3.10/dist-packages/exllama_kernels.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi
exllama_kernels not installed
)LOG";

TEST(ExplainReview41A, Nccl218UnderVllmCustomAllReduceIsTheNcclBugNotP2p) {
  const auto r = explain_no_facts(kReview41aVllmAllReduceLog);
  ASSERT_TRUE(leads_without(r, "nccl-218-transport-setup-bug/vllm", {"nccl-unhandled-cuda-error", "torch-nccl-error"}))
      << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"2.18.1", "custom all-reduce", "2.19"})) << lead.cause;
  EXPECT_TRUE(
      says_all(lead.fix, {"--disable-custom-all-reduce", "disable_custom_all_reduce=True", "nvidia-nccl-cu12==2.19.3"}))
      << lead.fix;
  EXPECT_FALSE(mentions(told(r), "iommu=pt")) << told(r);
  EXPECT_FALSE(mentions(told(r), "ACS")) << told(r);
}

TEST(ExplainReview41A, Nccl218OutsideVllmIsTheNcclBugWithoutVllmsFlag) {
  const auto r = explain_no_facts(
      "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, unhandled cuda error, "
      "NCCL version 2.18.3\n");
  ASSERT_TRUE(leads_without(r, "nccl-218-transport-setup-bug", {"nccl-unhandled-cuda-error"})) << told(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"2.19.3", "NCCL_P2P_DISABLE=1"})) << r.matches.front().fix;
  EXPECT_FALSE(mentions(told(r), "--disable-custom-all-reduce")) << told(r);
}

TEST(ExplainReview41A, NearMissAFixedNcclKeepsTheP2pAnswer) {
  // 2.18.6 has the fix (NVIDIA/nccl 4365458), as has 2.19.3; neither is this bug.
  for (const char* version : {"2.18.6", "2.19.3", "2.20.5"}) {
    const auto r = explain_no_facts(
        std::string("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/"
                    "ProcessGroupNCCL.cpp:1333, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL "
                    "version ") +
        version + "\n");
    ASSERT_TRUE(leads_with(r, "nccl-unhandled-cuda-error")) << version << " " << rule_list(r);
    EXPECT_EQ(find_rule(r, "nccl-218-transport-setup-bug"), nullptr) << version << " " << rule_list(r);
  }
}

TEST(ExplainReview41A, FailedJitBuildWithAnOldNvccNamesTheNvccRelease) {
  const auto r = explain_no_facts(kReview41aExllamaNinjaLog);
  ASSERT_TRUE(leads_with(r, "extension-build-nvcc-release")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"11.5", "nvidia-cuda-toolkit"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"torch.version.cuda", "CUDA_HOME", "torch_extensions"})) << lead.fix;
  // The Python form of the failed ninja build is recognised too, padding and all.
  EXPECT_NE(find_rule(r, "extension-compile-failed"), nullptr) << rule_list(r);
}

TEST(ExplainReview41A, NinjasPaddedCalledProcessErrorAloneIsTheFailedBuild) {
  const auto r = explain_no_facts(
      "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit                     "
      "status 1.\n");
  ASSERT_TRUE(leads_with(r, "extension-compile-failed")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "extension-build-nvcc-release"), nullptr) << rule_list(r);
}

TEST(ExplainReview41A, NearMissNvccVersionWithoutAFailedBuildSaysNothingOfIt) {
  const auto r = explain_no_facts(
      "nvcc: NVIDIA (R) Cuda compiler driver\n"
      "Built on Thu_Nov_18_09:45:30_PST_2021\n"
      "Cuda compilation tools, release 11.5, V11.5.119\n"
      "Build cuda_11.5.r11.5/compiler.30672275_0\n");
  EXPECT_EQ(find_rule(r, "extension-build-nvcc-release"), nullptr) << rule_list(r);
}

TEST(ExplainReview41A, GgmlBadArchIsTheBuildsArchitecturesNotCublas) {
  const auto r = explain_no_facts(kReview41aKoboldPascalLog);
  ASSERT_TRUE(leads_without(r, "ggml-cuda-bad-arch", {"code/cublas/CUBLAS_STATUS_EXECUTION_FAILED"})) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"koboldcpp", "all-major", "Pascal"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"CMAKE_CUDA_ARCHITECTURES", "1.54"})) << lead.fix;
  // Near miss: cuBLAS's status alone keeps the catalog's answer.
  const auto alone = explain_no_facts("CUDA error: CUBLAS_STATUS_EXECUTION_FAILED\n");
  ASSERT_TRUE(leads_with(alone, "code/cublas/CUBLAS_STATUS_EXECUTION_FAILED")) << rule_list(alone);
}

TEST(ExplainReview41A, GgmlNotCompiledWithAnyArchBelowIsNamed) {
  const auto r = explain_no_facts(kReview41aLlamaNoArchLog);
  ASSERT_TRUE(leads_with(r, "ggml-no-compiled-arch")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"750", "4c37636", "15587"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"git pull", "CMAKE_CUDA_ARCHITECTURES=\"75;", "CUDA 13"})) << lead.fix;
  // Near miss: the NO_DEVICE_CODE guard's line keeps its own answer.
  const auto guard = explain_no_facts(
      "ggml-cuda.cu:3211: ERROR: CUDA kernel vec_dot_q5_K_q8_1_impl_vmmq has no device code compatible with CUDA "
      "arch 520. ggml-cuda.cu was compiled for: 520\n");
  ASSERT_TRUE(leads_with(guard, "ggml-no-device-code")) << rule_list(guard);
  EXPECT_EQ(find_rule(guard, "ggml-no-compiled-arch"), nullptr) << rule_list(guard);
}

TEST(ExplainReview41A, OllamaCudartInitFailure999IsTheUvmModuleAfterSuspend) {
  const auto r = explain_no_facts(kReview41aOllamaSuspendLog);
  ASSERT_TRUE(leads_with(r, "ollama-cuda-init-unknown")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"999", "suspend", "CPU"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"systemctl stop ollama", "rmmod nvidia_uvm && sudo modprobe nvidia_uvm"}))
      << lead.fix;
  // Near miss: another code from the same discovery is not this answer.
  const auto other = explain_no_facts("cudaSetDevice err: 100\n");
  EXPECT_EQ(find_rule(other, "ollama-cuda-init-unknown"), nullptr) << rule_list(other);
}

TEST(ExplainReview41A, TgiFlashModelsThatCouldNotImportNameTheMissingKernels) {
  const auto r = explain_no_facts(kReview41aTgiShardedLog);
  ASSERT_TRUE(leads_with(r, "tgi-flash-models-unavailable")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"vllm_cache_ops", "Sharded Llama"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"make install-vllm", "ghcr.io/huggingface/text-generation-inference"})) << lead.fix;
  // Near miss: another server's warning of the same words without TGI's launcher is not TGI's.
  const auto tei = explain_no_facts("Could not import Flash Attention enabled models: CUDA is not available\n");
  EXPECT_EQ(find_rule(tei, "tgi-flash-models-unavailable"), nullptr) << rule_list(tei);
}

TEST(ExplainReview41A, TgiFlashModelsOnAGpuTooOldSayNoShardingNotKernels) {
  const auto r = explain_no_facts(
      "2023-08-20T10:00:00.000000Z  WARN text_generation_launcher: Could not import Flash Attention enabled models: "
      "GPU with CUDA capability 7 0 is not supported\n"
      "NotImplementedError: Sharded Llama requires Flash Attention enabled models.\n");
  ASSERT_TRUE(leads_without(r, "tgi-flash-attention-gpu-unsupported", {"tgi-flash-models-unavailable"})) << told(r);
  EXPECT_TRUE(says_all(r.matches.front().cause, {"7.0", "7.5"})) << r.matches.front().cause;
  EXPECT_TRUE(mentions(r.matches.front().fix, "--num-shard")) << r.matches.front().fix;
  EXPECT_FALSE(mentions(told(r), "make install-vllm")) << told(r);
}

TEST(ExplainReview41A, VllmsCompiledOpsUnderAnotherTorchSayInstallThePinnedTorch) {
  const auto r = explain_no_facts(kReview41aVllmCSymbolLog);
  ASSERT_TRUE(leads_without(r, "vllm-extension-abi-mismatch", {"torch-extension-abi-mismatch"})) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"vLLM", "pins"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"pip check", "torch==", "pip install -U vllm"})) << lead.fix;
  EXPECT_FALSE(mentions(told(r), "<package>")) << told(r);
}

TEST(ExplainReview41A, AutogptqKernelsNameTheirPackageAndItsTorch) {
  const auto r = explain_no_facts(kReview41aAutogptqSymbolLog);
  ASSERT_TRUE(leads_without(r, "autogptq-extension-abi-mismatch",
                            {"torch-extension-abi-mismatch", "library-built-without-gpu"}))
      << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"exllama_kernels", "auto-gptq", "torch 2.1"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"auto-gptq==0.4.2", "autogptq-index/whl/cu118", "torch==2.1.0"})) << lead.fix;
  EXPECT_FALSE(mentions(told(r), "OpenCV")) << told(r);
}

TEST(ExplainReview41A, NearMissOtherExtensionsKeepTheGenericAbiAnswer) {
  const auto r = explain_no_facts(
      "ImportError: /usr/local/lib/python3.10/dist-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: "
      "undefined symbol: "
      "_ZN2at4_ops15sum_IntList_out4callERKNS_6TensorEN3c1016OptionalArrayRefIlEEbSt8optionalINS5_10ScalarTypeEERS2_"
      "\n");
  ASSERT_TRUE(leads_with(r, "torch-extension-abi-mismatch")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "vllm-extension-abi-mismatch"), nullptr) << rule_list(r);
  EXPECT_EQ(find_rule(r, "autogptq-extension-abi-mismatch"), nullptr) << rule_list(r);
  // AutoGPTQ's "CUDA extension not installed." alone keeps its answer.
  const auto alone = explain_no_facts("CUDA extension not installed.\n");
  ASSERT_TRUE(leads_with(alone, "library-built-without-gpu")) << rule_list(alone);
}

}  // namespace
}  // namespace gpudoctor
