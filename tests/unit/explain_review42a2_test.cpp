// Session 42 review A (2): precision and what a card can run (docs: "Unseen logs, session 42 review
// A (2): precision and what a card can run").
// - bfloat16 on a GPU before Ampere, as xFormers' dispatcher (log 05), TensorRT-LLM (log 08) and
//   cuBLAS through PyTorch without the backticks GitHub ate (log 09) say it.
// - torch._scaled_mm (FP8) on a GPU below compute capability 8.9 (log 06).
// - Three harmless notes: Lightning's TF32 hint (log 15), DeepSpeed's skipped fp16 step (log 16),
//   PyTorch's Windows wheels without the flash SDPA kernel (log 18).
// - The FlashAttention v1 architecture check: the flash-attn package's or PyTorch's, by what the
//   log shows (log 19); ggml's flash-attention kernel without code for the GPU's arch (log 20).
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
using testing::problem_count;
using testing::rule_list;
using testing::says_all;
using testing::told;

// /tmp/rev42a/logs/05.txt (verbatim), https://github.com/zjp-shadow/CharacterGen/issues/18
constexpr std::string_view kReview42a2XformersBf16Log =
    R"LOG(I had run webui.py, but errors occured on generating 4 views.
otImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:
     query       : shape=(10, 6144, 1, 64) (torch.bfloat16)
     key         : shape=(10, 6144, 1, 64) (torch.bfloat16)
     value       : shape=(10, 6144, 1, 64) (torch.bfloat16)
     attn_bias   : <class 'NoneType'>
     p           : 0.0
`decoderF` is not supported because:
    attn_bias type is <class 'NoneType'>
    bf16 is only supported on A100+ GPUs
`flshattF@v2.5.7` is not supported because:
    requires device with capability > (8, 0) but your GPU has capability (7, 0) (too old)
    bf16 is only supported on A100+ GPUs
`cutlassF` is not supported because:
    bf16 is only supported on A100+ GPUs
`smallkF` is not supported because:
    max(query.shape[-1] != value.shape[-1]) > 32
    dtype=torch.bfloat16 (supported: {torch.float32})
    bf16 is only supported on A100+ GPUs
    unsupported embed per head: 64
)LOG";

// /tmp/rev42a/logs/06.txt (verbatim), https://github.com/kijai/ComfyUI-PyramidFlowWrapper/issues/43
constexpr std::string_view kReview42a2ScaledMmLog =
    R"LOG(Hi Folks,I use an RTX 3050 and the PyramidFlowSampler still gives me the message:

`torch._scaled_mm is only supported on CUDA devices with compute capability >= 9.0 or 8.9, or ROCm MI300+`

Ive installed CUDA Toolkit, CUDNN 9.0 and use the current driver 565.90

```
# ComfyUI Error Report
## Error Details
- **Node Type:** PyramidFlowSampler
- **Exception Type:** RuntimeError
- **Exception Message:** torch._scaled_mm is only supported on CUDA devices with compute capability >= 9.0 or 8.9, or ROCm MI300+
## Stack Trace
```
)LOG";

// /tmp/rev42a/logs/08.txt (verbatim), https://github.com/NVIDIA/TensorRT-LLM/issues/1069
constexpr std::string_view kReview42a2TrtllmBf16Log =
    R"LOG([02/06/2024-07:57:28] [TRT] [I] [MemUsageChange] Init CUDA: CPU +2, GPU +0, now: CPU 13227, GPU 1012 (MiB)
[02/06/2024-07:57:29] [TRT] [I] [MemUsageChange] Init builder kernel library: CPU +482, GPU +78, now: CPU 13844, GPU 1090 (MiB)
[27] Feb 06 07:57:29 [WARNING] - TRT-LLM - [TRT-LLM] [W] Invalid timing cache, using freshly created one
[27] Feb 06 07:57:29 [   INFO] - TRT-LLM - [TRT-LLM] [I] Context FMHA Enabled
[27] Feb 06 07:57:29 [WARNING] - TRT-LLM - [TRT-LLM] [W] RMSnorm plugin is going to be deprecated, disable it for better performance.
[TensorRT-LLM][ERROR] tensorrt_llm::common::TllmException: [TensorRT-LLM][ERROR] Assertion failed: Unsupported data type, pre SM 80 GPUs do not support bfloat16 (/home/jenkins/agent/workspace/LLM/release-_
)LOG";

// /tmp/rev42a/logs/09.txt (verbatim), https://github.com/numz/ComfyUI-SeedVR2_VideoUpscaler/issues/543
constexpr std::string_view kReview42a2CublasBf16Log =
    R"LOG(RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling cublasGemmStridedBatchedEx(handle, opa, opb, (int)m, (int)n, (int)k, (void*)&falpha, a, CUDA_R_16BF, (int)lda, stridea, b, CUDA_R_16BF, (int)ldb, strideb, (void*)&fbeta, c, std::is_same_v<C_Dtype, float> ? CUDA_R_32F : CUDA_R_16BF, (int)ldc, stridec, (int)num_batches, compute_type, CUBLAS_GEMM_DEFAULT_TENSOR_OP)

Prompt executed in 96.84 seconds
EulerSampler: 0%| | 0/1 [00:05<?, ?it/s]
)LOG";

// /tmp/rev42a/logs/15.txt (verbatim), https://github.com/rhasspy/piper/issues/660
constexpr std::string_view kReview42a2LightningTf32Log = R"LOG(  rank_zero_deprecation(
You are using a CUDA device ('NVIDIA GeForce RTX 4060 Laptop GPU') that has Tensor Cores. 
To properly utilize them, you should set torch.set_float32_matmul_precision('medium' | 'high') which will trade-off precision for performance. 
For more details, read 
https://pytorch.org/docs/stable/generated/torch.set_float32_matmul_precision.html#torch.set_float32_matmul_precision
)LOG";

// /tmp/rev42a/logs/16.txt (verbatim), https://github.com/hiyouga/LlamaFactory/issues/3432
constexpr std::string_view kReview42a2DeepspeedOverflowLog = R"LOG(在训练的过程中会给出这样的提示
OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 32768, reducing to 16384
不确定是否因为溢出或是微调数据量过大导致qwen1.5-0.5B微调失败，请问这个overflow的提示是由什么原因导致的呢？
这似乎有是偶发性的，相同的数据下不是每次都会有这样的提示
)LOG";

// /tmp/rev42a/logs/18.txt (verbatim), https://github.com/CompVis/stable-diffusion/issues/850
constexpr std::string_view kReview42a2NoFlashSdpaLog =
    R"LOG(Loading pipeline components...: 100%|██████████| 7/7 [00:02<00:00,  2.48it/s]
  0%|          | 0/50 [00:00<?, ?it/s]D:\ProgramData\envs\pytorch\Lib\site-packages\diffusers\models\attention_processor.py:1279: UserWarning: 1Torch was not compiled with flash attention. (Triggered internally at C:\cb\pytorch_1000000000000\work\aten\src\ATen\native\transformers\cuda\sdp_utils.cpp:455.)
  hidden_states = F.scaled_dot_product_attention(
100%|██████████| 50/50 [00:05<00:00,  8.44it/s]
)LOG";

// /tmp/rev42a/logs/19.txt (verbatim), https://github.com/QwenLM/Qwen/issues/103
constexpr std::string_view kReview42a2QwenFlashAttnLog =
    R"LOG(在Linux上配置环境，在未安装FlashAttention的时候一切正常，按照教程安装FlashAttention没有报错，但运行模型推理的时候报错RuntimeError: Expected is_sm90 || is_sm8x || is_sm75 to be true, but got false. (Could this error message be improved? If so, please report an enhancement request to PyTorch.)
transformers的版本是 Version: 4.31.0
)LOG";

// /tmp/rev42a/logs/20.txt (verbatim), https://github.com/LostRuins/koboldcpp/issues/818
constexpr std::string_view kReview42a2GgmlFlashAttnLog =
    R"LOG(ggml-cuda/fattn.cu:571: ERROR: CUDA kernel flash_attn_ext_f16 has no device code compatible with CUDA arch 610. ggml-cuda.cu was compiled for: 610
CUDA error: unspecified launch failure
  current device: 0, in function ggml_backend_cuda_synchronize at ggml-cuda.cu:2414
  cudaStreamSynchronize(cuda_ctx->stream())
GGML_ASSERT: ggml-cuda.cu:63: !"CUDA error"
)LOG";

// The re-read of this section's rules (/tmp/reread42a/report.md, session 42): the reviewer's
// inputs, verbatim. real1.log: ggml's own device list with its header line, as llama.cpp,
// koboldcpp and llama-cpp-python print it (ggml-cuda.cu ggml_cuda_init), on the MX250 of
// LostRuins/koboldcpp#818.
constexpr std::string_view kReread42a2GgmlRealHeaderLog = R"LOG(ggml_cuda_init: GGML_CUDA_FORCE_MMQ:    no
ggml_cuda_init: GGML_CUDA_FORCE_CUBLAS: no
ggml_cuda_init: found 1 CUDA devices:
  Device 0: NVIDIA GeForce MX250, compute capability 6.1, VMM: yes
llm_load_tensors: ggml ctx size =    0.30 MiB
ggml-cuda/fattn.cu:571: ERROR: CUDA kernel flash_attn_ext_f16 has no device code compatible with CUDA arch 610. ggml-cuda.cu was compiled for: 610
CUDA error: unspecified launch failure
)LOG";

// /tmp/reread42a/mixed.log: an RTX 3090 and a P40, a build for both (610,860); the P40 is device 1.
constexpr std::string_view kReread42a2MixedRigLog = R"LOG(ggml_cuda_init: GGML_CUDA_FORCE_MMQ:    no
ggml_cuda_init: GGML_CUDA_FORCE_CUBLAS: no
ggml_cuda_init: found 2 CUDA devices:
  Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes
  Device 1: Tesla P40, compute capability 6.1, VMM: yes
llm_load_tensors: offloading 80 repeating layers to GPU
ggml-cuda/fattn.cu:571: ERROR: CUDA kernel flash_attn_ext_f16 has no device code compatible with CUDA arch 610. ggml-cuda.cu was compiled for: 610,860
CUDA error: unspecified launch failure
  current device: 1, in function ggml_backend_cuda_synchronize at ggml-cuda.cu:2408
)LOG";

// /tmp/reread42a/mixed2.log: the same rig listed the other way round.
constexpr std::string_view kReread42a2MixedRigP40FirstLog = R"LOG(ggml_cuda_init: found 2 CUDA devices:
  Device 0: Tesla P40, compute capability 6.1, VMM: yes
  Device 1: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes
ggml-cuda/fattn.cu:571: ERROR: CUDA kernel flash_attn_ext_f16 has no device code compatible with CUDA arch 610. ggml-cuda.cu was compiled for: 610,860
CUDA error: unspecified launch failure
)LOG";

// /tmp/reread42a/xf_cpu.log: xFormers' reasons with the tensors on the CPU (device=cpu); xformers'
// common.py adds the bf16 reason for any device that is not CUDA.
constexpr std::string_view kReread42a2XformersCpuLog =
    R"LOG(NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:
     query       : shape=(2, 4096, 8, 40) (torch.bfloat16)
     key         : shape=(2, 4096, 8, 40) (torch.bfloat16)
     value       : shape=(2, 4096, 8, 40) (torch.bfloat16)
     attn_bias   : <class 'NoneType'>
     p           : 0.0
`decoderF` is not supported because:
    device=cpu (supported: {'cuda'})
    attn_bias type is <class 'NoneType'>
    bf16 is only supported on A100+ GPUs
`flshattF@v2.3.6` is not supported because:
    device=cpu (supported: {'cuda'})
    bf16 is only supported on A100+ GPUs
`cutlassF` is not supported because:
    device=cpu (supported: {'cuda'})
    bf16 is only supported on A100+ GPUs
`smallkF` is not supported because:
    max(query.shape[-1] != value.shape[-1]) > 32
    device=cpu (supported: {'cuda'})
    dtype=torch.bfloat16 (supported: {torch.float32})
    bf16 is only supported on A100+ GPUs
    unsupported embed per head: 40
)LOG";

// /tmp/reread42a/flat.log: XLabs-AI/x-flux-comfyui#110 as posted, on one line.
constexpr std::string_view kReread42a2XformersFlatLog =
    R"LOG(No operator found for `memory_efficient_attention_forward` with inputs: query : shape=(24, 4352, 1, 128) (torch.bfloat16) key : shape=(24, 4352, 1, 128) (torch.bfloat16) value : shape=(24, 4352, 1, 128) (torch.bfloat16) attn_bias : <class 'NoneType'> p : 0.0 `decoderF` is not supported because: attn_bias type is <class 'NoneType'> bf16 is only supported on A100+ GPUs `flshattF@v2.5.7` is not supported because: requires device with capability > (8, 0) but your GPU has capability (7, 5) (too old) bf16 is only supported on A100+ GPUs `cutlassF-pt` is not supported because: bf16 is only supported on A100+ GPUs
)LOG";

// /tmp/reread42a/qwen_nofa.log: Qwen's remote code printing that flash_attn could not be imported.
constexpr std::string_view kReread42a2QwenNoFlashAttnLog =
    R"LOG(Warning: import flash_attn rotary fail, please install FlashAttention rotary to get higher efficiency https://github.com/Dao-AILab/flash-attention/tree/main/csrc/rotary
Warning: import flash_attn rms_norm fail, please install FlashAttention layer_norm to get higher efficiency https://github.com/Dao-AILab/flash-attention/tree/main/csrc/layer_norm
Warning: import flash_attn fail, please install FlashAttention to get higher efficiency https://github.com/Dao-AILab/flash-attention
RuntimeError: Expected is_sm80 || is_sm90 to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)
)LOG";

// /tmp/reread42a/cn.log: "flash-attn need not be installed on the server".
constexpr std::string_view kReread42a2NoNeedToInstallLog = R"LOG(在服务器上不需要安装flash-attn也能运行
RuntimeError: Expected is_sm80 || is_sm90 to be true, but got false.
)LOG";

// /tmp/reread42a/both.log: flash-attn failed to build; the check raised under PyTorch's SDPA.
constexpr std::string_view kReread42a2FailedBuildThenSdpaLog = R"LOG($ pip install flash-attn --no-build-isolation
  error: subprocess-exited-with-error
  ERROR: Failed building wheel for flash-attn
Failed to build flash-attn
Traceback (most recent call last):
  File "/opt/conda/lib/python3.10/site-packages/torch/nn/functional.py", line 5373, in multi_head_attention_forward
    attn_output = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
RuntimeError: Expected is_sm80 || is_sm90 to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)
)LOG";

// /tmp/reread42a/ds_stuck.log: the scale at its minimum with raise_error_at_min_scale off.
constexpr std::string_view kReread42a2DeepspeedStuckLog =
    R"LOG([2024-04-25 10:00:01,000] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 1, reducing to 1
[2024-04-25 10:00:02,000] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 1, reducing to 1
[2024-04-25 10:00:03,000] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 1, reducing to 1
[2024-04-25 10:00:04,000] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 1, reducing to 1
[2024-04-25 10:00:05,000] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 1, reducing to 1
[2024-04-25 10:00:06,000] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 1, reducing to 1
{'loss': 0.0, 'learning_rate': 0.0, 'epoch': 0.5}
)LOG";

TEST(ExplainReview42A2, XformersBf16ReasonIsBf16BeforeAmpereNotAGenericDtype) {
  const auto r = explain_no_facts(kReview42a2XformersBf16Log);
  ASSERT_TRUE(leads_without(r, "xformers-bf16-needs-sm80", {"xformers-no-operator"})) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"bfloat16", "8.0", "V100"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"torch_dtype=torch.float16", "float32"})) << lead.fix;
  EXPECT_FALSE(mentions(told(r), "run the model in float16 or bfloat16")) << told(r);
}

TEST(ExplainReview42A2, NearMissXformersWithoutTheBf16ReasonKeepsTheGenericAnswer) {
  // float16 inputs on a Turing card: the flash op's capability line, and no bf16 reason.
  const auto r = explain_no_facts(
      "NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n"
      "     query       : shape=(2, 4096, 8, 512) (torch.float16)\n"
      "`flshattF@v2.3.6` is not supported because:\n"
      "    requires device with capability > (8, 0) but your GPU has capability (7, 5) (too old)\n"
      "`cutlassF` is not supported because:\n"
      "    unsupported embed per head: 512\n");
  ASSERT_TRUE(leads_with(r, "xformers-no-operator")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "xformers-bf16-needs-sm80"), nullptr) << rule_list(r);
}

TEST(ExplainReview42A2, ScaledMmBelowAdaIsFp8ComputeNotAnInstall) {
  const auto r = explain_no_facts(kReview42a2ScaledMmLog);
  ASSERT_TRUE(leads_with(r, "torch-scaled-mm-needs-sm89")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"FP8", "8.9", "RTX 30"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"fp8_e4m3fn_fast", "fp8_e4m3fn"})) << lead.fix;
  EXPECT_EQ(problem_count(r), 1u) << rule_list(r);
  // PyTorch 2.2's wording (pytorch#118703) is the same check.
  const auto old =
      explain_no_facts("RuntimeError: torch._scaled_mm is only supported on devices with compute capability >= 9.0)\n");
  ASSERT_TRUE(leads_with(old, "torch-scaled-mm-needs-sm89")) << rule_list(old);
}

TEST(ExplainReview42A2, NearMissCublasLtWithoutAnAlgorithmKeepsItsCuda12Answer) {
  // On an Ada card with a cu118 torch the check passes and cuBLASLt refuses: not the card.
  const auto r = explain_no_facts(
      "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasLtMatmulAlgoGetHeuristic( "
      "ltHandle, computeDesc.descriptor(), Adesc.descriptor(), Bdesc.descriptor(), Cdesc.descriptor(), "
      "Ddesc.descriptor(), preference.descriptor(), 1, &heuristicResult, &returnedResult)`\n");
  ASSERT_TRUE(leads_with(r, "torch-cublaslt-heuristic-not-supported")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "torch-scaled-mm-needs-sm89"), nullptr) << rule_list(r);
}

TEST(ExplainReview42A2, TensorrtLlmBf16BeforeSm80SaysBuildInFloat16) {
  const auto r = explain_no_facts(kReview42a2TrtllmBf16Log);
  ASSERT_TRUE(leads_with(r, "tensorrt-llm-bf16-needs-sm80")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"bfloat16", "8.0"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"--dtype float16", "trtllm-build"})) << lead.fix;
}

TEST(ExplainReview42A2, NearMissTensorrtLlmFallingBackToFloat16IsNoProblem) {
  // tensorrt_llm's HF config loader warns and uses float16 itself.
  const auto r = explain_no_facts("[TRT-LLM] [W] Pre SM 80 GPUs do not support bfloat16, fallback to float16\n");
  EXPECT_EQ(find_rule(r, "tensorrt-llm-bf16-needs-sm80"), nullptr) << rule_list(r);
  EXPECT_EQ(problem_count(r), 0u) << rule_list(r);
}

TEST(ExplainReview42A2, CublasBf16CallWithoutBackticksIsBf16BeforeAmpere) {
  const auto r = explain_no_facts(kReview42a2CublasBf16Log);
  ASSERT_TRUE(leads_without(r, "torch-cublas-bf16-not-supported", {"code/cublas/CUBLAS_STATUS_NOT_SUPPORTED"}))
      << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"cublasGemmStridedBatchedEx", "8.0"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"--force-fp16", "torch_dtype=torch.float16"})) << lead.fix;
}

TEST(ExplainReview42A2, NearMissCublasFp16CallWithoutBackticksIsNotBf16) {
  const auto r = explain_no_facts(
      "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling cublasGemmStridedBatchedEx(handle, opa, "
      "opb, (int)m, (int)n, (int)k, (void*)&falpha, a, CUDA_R_16F, (int)lda, stridea, b, CUDA_R_16F, (int)ldb, "
      "strideb, (void*)&fbeta, c, CUDA_R_16F, (int)ldc, stridec, (int)num_batches, CUDA_R_32F, "
      "CUBLAS_GEMM_DEFAULT_TENSOR_OP)\n");
  EXPECT_EQ(find_rule(r, "torch-cublas-bf16-not-supported"), nullptr) << rule_list(r);
}

TEST(ExplainReview42A2, LightningTensorCoresHintIsHarmless) {
  const auto r = explain_no_facts(kReview42a2LightningTf32Log);
  const auto* hint = find_rule(r, "lightning-matmul-precision-hint");
  ASSERT_NE(hint, nullptr) << rule_list(r);
  EXPECT_TRUE(hint->harmless);
  EXPECT_EQ(problem_count(r), 0u) << rule_list(r);
  EXPECT_TRUE(says_all(hint->cause, {"NVIDIA GeForce RTX 4060 Laptop GPU", "TF32"})) << hint->cause;
  EXPECT_TRUE(mentions(hint->fix, "torch.set_float32_matmul_precision('high')")) << hint->fix;
}

TEST(ExplainReview42A2, NearMissLightningHintDoesNotHideTheFailureAfterIt) {
  const auto r = explain_no_facts(
      "You are using a CUDA device ('NVIDIA GeForce RTX 3060') that has Tensor Cores. To properly utilize them, you "
      "should set `torch.set_float32_matmul_precision('medium' | 'high')` which will trade-off precision for "
      "performance.\n"
      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 12.00 GiB total capacity; "
      "9.10 GiB already allocated; 1.20 GiB free; 9.50 GiB reserved in total by PyTorch)\n");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_FALSE(r.matches.front().harmless) << rule_list(r);
  EXPECT_EQ(r.matches.front().category, "out-of-memory") << rule_list(r);
  ASSERT_NE(find_rule(r, "lightning-matmul-precision-hint"), nullptr) << rule_list(r);
  EXPECT_TRUE(find_rule(r, "lightning-matmul-precision-hint")->harmless);
}

TEST(ExplainReview42A2, DeepspeedSkippedStepIsHarmlessLossScaling) {
  const auto r = explain_no_facts(kReview42a2DeepspeedOverflowLog);
  const auto* note = find_rule(r, "deepspeed-overflow-skipped-step");
  ASSERT_NE(note, nullptr) << rule_list(r);
  EXPECT_TRUE(note->harmless);
  EXPECT_EQ(problem_count(r), 0u) << rule_list(r);
  EXPECT_TRUE(says_all(note->cause, {"32768", "16384"})) << note->cause;
  EXPECT_TRUE(mentions(note->fix, "Current loss scale already at minimum")) << note->fix;
}

TEST(ExplainReview42A2, NearMissOverflowUntilTheMinimumScaleIsTheProblem) {
  const auto r = explain_no_facts(
      "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 4, reducing to 2\n"
      "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 2, reducing to 1\n"
      "Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.\n");
  ASSERT_TRUE(leads_without(r, "deepspeed-loss-scale-at-minimum", {"deepspeed-overflow-skipped-step"})) << rule_list(r);
  EXPECT_EQ(problem_count(r), 1u) << rule_list(r);
}

TEST(ExplainReview42A2, TorchWithoutFlashSdpaOnWindowsIsHarmless) {
  const auto r = explain_no_facts(kReview42a2NoFlashSdpaLog);
  const auto* note = find_rule(r, "torch-sdpa-not-compiled-with-flash");
  ASSERT_NE(note, nullptr) << rule_list(r);
  EXPECT_TRUE(note->harmless);
  EXPECT_EQ(problem_count(r), 0u) << rule_list(r);
  EXPECT_TRUE(says_all(note->cause, {"Windows", "memory-efficient"})) << note->cause;
}

TEST(ExplainReview42A2, NearMissNoFlashSdpaThenNoKernelAtAllIsTheProblem) {
  const auto r = explain_no_facts(
      "UserWarning: Torch was not compiled with flash attention. (Triggered internally at "
      "..\\aten\\src\\ATen\\native\\transformers\\cuda\\sdp_utils.cpp:455.)\n"
      "RuntimeError: No available kernel. Aborting execution.\n");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_FALSE(r.matches.front().harmless) << rule_list(r);
  EXPECT_EQ(problem_count(r), 1u) << rule_list(r);
}

TEST(ExplainReview42A2, FlashAttnPackageOnV100IsTheUninstallNotPytorchsSdpa) {
  const auto r = explain_no_facts(kReview42a2QwenFlashAttnLog);
  ASSERT_TRUE(leads_without(r, "torch-flash-attention-v1-arch/flash-attn-package",
                            {"torch-flash-attention-v1-arch", "torch-flash-attention-v1-arch/torch-sdpa"}))
      << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"flash-attn", "sm75", "fmha_api.cpp"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"pip uninstall flash-attn", "use_flash_attn"})) << lead.fix;
  EXPECT_FALSE(mentions(told(r), "enable_flash_sdp(False)")) << told(r);
}

TEST(ExplainReview42A2, NearMissTheCheckUnderScaledDotProductAttentionIsPytorchs) {
  const auto r = explain_no_facts(
      "  File \"/opt/conda/lib/python3.10/site-packages/torch/nn/functional.py\", line 5373, in "
      "multi_head_attention_forward\n"
      "    attn_output = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)\n"
      "RuntimeError: Expected is_sm90 || is_sm8x || is_sm75 to be true, but got false.  (Could this error message be "
      "improved?  If so, please report an enhancement request to PyTorch.)\n");
  ASSERT_TRUE(leads_without(r, "torch-flash-attention-v1-arch/torch-sdpa",
                            {"torch-flash-attention-v1-arch", "torch-flash-attention-v1-arch/flash-attn-package"}))
      << told(r);
  EXPECT_TRUE(mentions(r.matches.front().fix, "enable_flash_sdp(False)")) << r.matches.front().fix;
  EXPECT_FALSE(mentions(told(r), "pip uninstall flash-attn")) << told(r);
}

TEST(ExplainReview42A2, FlashAttnFrameIsThePackageToo) {
  const auto r = explain_no_facts(
      "  File \"/usr/local/lib/python3.8/dist-packages/flash_attn/flash_attn_interface.py\", line 42, in "
      "_flash_attn_forward\n"
      "    softmax_lse, *rest = flash_attn_cuda.fwd(\n"
      "RuntimeError: Expected is_sm90 || is_sm8x || is_sm75 to be true, but got false.\n");
  ASSERT_TRUE(leads_with(r, "torch-flash-attention-v1-arch/flash-attn-package")) << rule_list(r);
}

TEST(ExplainReview42A2, TheCheckAloneNamesBothWithThePackageFirst) {
  const auto r = explain_no_facts("RuntimeError: Expected is_sm90 || is_sm8x || is_sm75 to be true, but got false.\n");
  ASSERT_TRUE(leads_with(r, "torch-flash-attention-v1-arch")) << rule_list(r);
  const std::string& fix = r.matches.front().fix;
  const auto uninstall = fix.find("pip uninstall flash-attn");
  const auto sdp = fix.find("enable_flash_sdp(False)");
  ASSERT_NE(uninstall, std::string::npos) << fix;
  ASSERT_NE(sdp, std::string::npos) << fix;
  EXPECT_LT(uninstall, sdp) << fix;
}

TEST(ExplainReview42A2, GgmlFlashAttnKernelWithoutCodeSaysTurnFlashAttentionOff) {
  const auto r = explain_no_facts(kReview42a2GgmlFlashAttnLog);
  ASSERT_TRUE(
      leads_without(r, "ggml-flash-attn-no-device-code", {"ggml-no-device-code", "code/cudart/cudaErrorLaunchFailure"}))
      << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"flash_attn_ext_f16", "610", "Pascal"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"--flashattention", "-fa"})) << lead.fix;
  // The fix that works whatever the GPU comes first; no example architecture of another GPU.
  EXPECT_FALSE(mentions(lead.fix, "CMAKE_CUDA_ARCHITECTURES=86")) << lead.fix;
  EXPECT_EQ(problem_count(r), 1u) << rule_list(r);
}

TEST(ExplainReview42A2, NearMissAnotherKernelWithoutCodeKeepsTheRebuild) {
  // llama.cpp#5686: arch 520 is in the list (it always is: the guard prints the arch of the code
  // that runs), and the GPU was newer: the build lacked its arch.
  const auto r = explain_no_facts(
      "ggml-cuda.cu:3211: ERROR: CUDA kernel vec_dot_q5_K_q8_1_impl_vmmq has no device code compatible with CUDA "
      "arch 520. ggml-cuda.cu was compiled for: 520\n"
      "CUDA error: unspecified launch failure\n");
  ASSERT_TRUE(leads_without(r, "ggml-no-device-code", {"ggml-flash-attn-no-device-code"})) << rule_list(r);
  EXPECT_TRUE(mentions(r.matches.front().fix, "CMAKE_CUDA_ARCHITECTURES")) << r.matches.front().fix;
  EXPECT_EQ(problem_count(r), 1u) << rule_list(r);
}

TEST(ExplainReview42A2, GgmlFlashAttnOnAGpuOfThatArchSaysNoRebuild) {
  // ggml's own device list shows the GPU is the arch the guard names: the build has it.
  const auto r = explain_no_facts(std::string("ggml_cuda_init: found 1 CUDA devices:\n"
                                              "  Device 0: NVIDIA GeForce MX250, compute capability 6.1, VMM: yes\n") +
                                  std::string(kReview42a2GgmlFlashAttnLog));
  ASSERT_TRUE(leads_without(r, "ggml-flash-attn-no-device-code/gpu-too-old",
                            {"ggml-flash-attn-no-device-code", "ggml-flash-attn-no-device-code/build-lacks-arch"}))
      << told(r);
  EXPECT_TRUE(mentions(r.matches.front().cause, "Rebuilding cannot help")) << r.matches.front().cause;
  EXPECT_FALSE(mentions(r.matches.front().fix, "CMAKE_CUDA_ARCHITECTURES")) << r.matches.front().fix;
}

TEST(ExplainReview42A2, NearMissGgmlFlashAttnOnANewerGpuIsTheBuild) {
  // The same line on an RTX 3060 (8.6): it ran the 610 code because the build lacks 860.
  const auto r = explain_no_facts(
      "ggml_cuda_init: found 1 CUDA devices:\n"
      "  Device 0: NVIDIA GeForce RTX 3060, compute capability 8.6, VMM: yes\n"
      "ggml-cuda/fattn.cu:571: ERROR: CUDA kernel flash_attn_ext_f16 has no device code compatible with CUDA arch "
      "610. ggml-cuda.cu was compiled for: 610\n");
  ASSERT_TRUE(leads_without(r, "ggml-flash-attn-no-device-code/build-lacks-arch",
                            {"ggml-flash-attn-no-device-code", "ggml-flash-attn-no-device-code/gpu-too-old"}))
      << told(r);
  EXPECT_TRUE(mentions(r.matches.front().fix, "CMAKE_CUDA_ARCHITECTURES")) << r.matches.front().fix;
}

TEST(ExplainReview42A2, NearMissNotInstallingFlashAttnIsNoSignOfThePackage) {
  // "While FlashAttention was not installed everything worked" says nothing of what ran after.
  const auto r = explain_no_facts(
      "在未安装FlashAttention的时候一切正常\n"
      "RuntimeError: Expected is_sm90 || is_sm8x || is_sm75 to be true, but got false.\n");
  ASSERT_TRUE(leads_with(r, "torch-flash-attention-v1-arch")) << rule_list(r);
}

// Finding 1: ggml prints "found N CUDA devices:" before the list; the line joiner joins the
// indented Device 0 row onto that head, and the device was not read.
TEST(ExplainReview42A2, RereadGgmlRealDeviceListIsReadGpuTooOld) {
  const auto r = explain_no_facts(kReread42a2GgmlRealHeaderLog);
  ASSERT_TRUE(leads_without(r, "ggml-flash-attn-no-device-code/gpu-too-old",
                            {"ggml-flash-attn-no-device-code", "ggml-flash-attn-no-device-code/build-lacks-arch"}))
      << told(r);
  EXPECT_TRUE(mentions(r.matches.front().cause, "Rebuilding cannot help")) << r.matches.front().cause;
}

TEST(ExplainReview42A2, RereadNearMissGgmlRealDeviceListNewerGpuIsTheBuild) {
  const auto r = explain_no_facts(
      "ggml_cuda_init: GGML_CUDA_FORCE_CUBLAS: no\n"
      "ggml_cuda_init: found 1 CUDA devices:\n"
      "  Device 0: NVIDIA GeForce RTX 3060, compute capability 8.6, VMM: yes\n"
      "ggml-cuda/fattn.cu:571: ERROR: CUDA kernel flash_attn_ext_f16 has no device code compatible with CUDA arch "
      "610. ggml-cuda.cu was compiled for: 610\n");
  ASSERT_TRUE(leads_without(r, "ggml-flash-attn-no-device-code/build-lacks-arch",
                            {"ggml-flash-attn-no-device-code", "ggml-flash-attn-no-device-code/gpu-too-old"}))
      << told(r);
}

// Finding 2: a GPU whose own arch is in the build runs its own code; only a GPU the build lacks
// runs an older arch's. The P40 (610) of a 610,860 build is too old, in either order.
TEST(ExplainReview42A2, RereadMixedRigWithBothArchsBuiltIsTheOldGpu) {
  for (std::string_view log : {kReread42a2MixedRigLog, kReread42a2MixedRigP40FirstLog}) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_without(r, "ggml-flash-attn-no-device-code/gpu-too-old",
                              {"ggml-flash-attn-no-device-code/build-lacks-arch"}))
        << told(r);
    EXPECT_FALSE(mentions(told(r), "lacks the GPU's own architecture")) << told(r);
  }
}

TEST(ExplainReview42A2, RereadNearMissMixedRigWithoutTheNewerArchIsTheBuild) {
  // The same rig with a build for 610 only: the RTX 3090 runs the 610 code.
  const auto r = explain_no_facts(
      "ggml_cuda_init: found 2 CUDA devices:\n"
      "  Device 0: Tesla P40, compute capability 6.1, VMM: yes\n"
      "  Device 1: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes\n"
      "ggml-cuda/fattn.cu:571: ERROR: CUDA kernel flash_attn_ext_f16 has no device code compatible with CUDA arch "
      "610. ggml-cuda.cu was compiled for: 610\n");
  ASSERT_TRUE(leads_without(r, "ggml-flash-attn-no-device-code/build-lacks-arch",
                            {"ggml-flash-attn-no-device-code/gpu-too-old"}))
      << told(r);
}

TEST(ExplainReview42A2, RereadNearMissNewerGpuBelowAnotherBuiltArchIsNotTheGuardsArch) {
  // An RTX 3090 (860) with a 610,750 build runs the 750 code: a guard that names 610 is not its
  // code, so neither reading of the device list holds.
  const auto r = explain_no_facts(
      "ggml_cuda_init: found 1 CUDA devices:\n"
      "  Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes\n"
      "ggml-cuda/fattn.cu:571: ERROR: CUDA kernel flash_attn_ext_f16 has no device code compatible with CUDA arch "
      "610. ggml-cuda.cu was compiled for: 610,750\n");
  ASSERT_TRUE(leads_with(r, "ggml-flash-attn-no-device-code")) << told(r);
}

// Findings 3 and 4.
TEST(ExplainReview42A2, RereadXformersBf16OnCpuTensorsIsTheDeviceNotTheGpu) {
  const auto r = explain_no_facts(kReread42a2XformersCpuLog);
  ASSERT_TRUE(leads_without(r, "xformers-bf16-needs-sm80/inputs-on-cpu", {"xformers-bf16-needs-sm80"})) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"CPU", "device=cpu"})) << lead.cause;
  EXPECT_FALSE(mentions(lead.cause, "below 8.0")) << lead.cause;
  EXPECT_TRUE(mentions(lead.fix, "cuda")) << lead.fix;
}

TEST(ExplainReview42A2, RereadXformersBf16FlattenedPasteIsBf16BeforeAmpere) {
  const auto r = explain_no_facts(kReread42a2XformersFlatLog);
  ASSERT_TRUE(leads_without(r, "xformers-bf16-needs-sm80", {"xformers-no-operator"})) << told(r);
}

// Finding 5: lines that say flash-attn is NOT installed.
TEST(ExplainReview42A2, RereadQwenImportFailWarningIsNoSignOfThePackage) {
  const auto r = explain_no_facts(kReread42a2QwenNoFlashAttnLog);
  ASSERT_TRUE(leads_without(r, "torch-flash-attention-v1-arch", {"torch-flash-attention-v1-arch/flash-attn-package"}))
      << told(r);
}

TEST(ExplainReview42A2, RereadNoNeedToInstallFlashAttnIsNoSignOfThePackage) {
  const auto r = explain_no_facts(kReread42a2NoNeedToInstallLog);
  ASSERT_TRUE(leads_without(r, "torch-flash-attention-v1-arch", {"torch-flash-attention-v1-arch/flash-attn-package"}))
      << told(r);
}

TEST(ExplainReview42A2, RereadNearMissImportInATracebackIsThePackage) {
  // A traceback's code line importing it: the import ran.
  const auto r = explain_no_facts(
      "  File \"/root/.cache/huggingface/modules/transformers_modules/Qwen-7B/modeling_qwen.py\", line 491, in "
      "forward\n"
      "    from flash_attn.flash_attn_interface import flash_attn_unpadded_func\n"
      "RuntimeError: Expected is_sm80 || is_sm90 to be true, but got false.\n");
  ASSERT_TRUE(leads_with(r, "torch-flash-attention-v1-arch/flash-attn-package")) << told(r);
}

TEST(ExplainReview42A2, RereadNearMissInstalledItInChineseIsThePackage) {
  const auto r = explain_no_facts(
      "我安装了flash-attn之后就报错\n"
      "RuntimeError: Expected is_sm80 || is_sm90 to be true, but got false.\n");
  ASSERT_TRUE(leads_with(r, "torch-flash-attention-v1-arch/flash-attn-package")) << told(r);
}

// Finding 6: pip's command is no sign of the package when the log shows its build failed.
TEST(ExplainReview42A2, RereadFailedFlashAttnBuildThenSdpaFrameIsPytorchs) {
  const auto r = explain_no_facts(kReread42a2FailedBuildThenSdpaLog);
  ASSERT_TRUE(leads_without(r, "torch-flash-attention-v1-arch/torch-sdpa",
                            {"torch-flash-attention-v1-arch/flash-attn-package"}))
      << told(r);
  EXPECT_FALSE(mentions(told(r), "pip uninstall flash-attn")) << told(r);
}

TEST(ExplainReview42A2, RereadNearMissInstalledFlashAttnThenSdpaFrameKeepsThePackage) {
  // The install succeeded: the package stays a sign (its alternative leads, as before).
  const auto r = explain_no_facts(
      "$ pip install flash-attn --no-build-isolation\n"
      "Successfully installed flash-attn-1.0.9\n"
      "RuntimeError: Expected is_sm80 || is_sm90 to be true, but got false.\n");
  ASSERT_TRUE(leads_with(r, "torch-flash-attention-v1-arch/flash-attn-package")) << told(r);
}

// Finding 7: "Attempted loss scale: 1, reducing to 1" is printed only with the scale at its
// minimum and raise_error_at_min_scale off: every step is skipped from then on.
TEST(ExplainReview42A2, RereadDeepspeedScaleStuckAtOneIsAProblem) {
  const auto r = explain_no_facts(kReread42a2DeepspeedStuckLog);
  ASSERT_TRUE(leads_with(r, "deepspeed-overflow-at-minimum-scale")) << told(r);
  EXPECT_FALSE(r.matches.front().harmless);
  EXPECT_EQ(problem_count(r), 1u) << rule_list(r);
  EXPECT_EQ(find_rule(r, "deepspeed-overflow-skipped-step"), nullptr) << rule_list(r);
  EXPECT_TRUE(mentions(r.matches.front().fix, "bf16")) << r.matches.front().fix;
}

TEST(ExplainReview42A2, RereadNearMissScaleReducedToOneIsStillHarmless) {
  const auto r = explain_no_facts(
      "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 4, reducing to 2\n"
      "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 2, reducing to 1\n");
  EXPECT_EQ(find_rule(r, "deepspeed-overflow-at-minimum-scale"), nullptr) << rule_list(r);
  EXPECT_EQ(problem_count(r), 0u) << rule_list(r);
}

// Finding 8: the texts' facts.
TEST(ExplainReview42A2, RereadFlashAttnPackageTextsNameAdaAndTheExactBackwardArchs) {
  const auto r = explain_no_facts(
      "  File \"/usr/local/lib/python3.8/dist-packages/flash_attn/flash_attn_interface.py\", line 42, in "
      "_flash_attn_forward\n"
      "RuntimeError: Expected is_sm80 || is_sm90 to be true, but got false.\n");
  ASSERT_TRUE(leads_with(r, "torch-flash-attention-v1-arch/flash-attn-package")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_FALSE(mentions(lead.cause, "Ampere (sm80, sm86, sm89)")) << lead.cause;
  EXPECT_TRUE(mentions(lead.cause, "Ada (sm89)")) << lead.cause;
  EXPECT_FALSE(mentions(lead.fix, "8.0 for training")) << lead.fix;
  EXPECT_TRUE(says_all(lead.fix, {"8.0 or 9.0", "8.6"})) << lead.fix;
}

TEST(ExplainReview42A2, RereadGgmlTextsSayWhatEachKernelNeeds) {
  // llama-cpp-python#1710's kernel: the tile kernel needs FP16 (6.0), not tensor cores.
  const auto r = explain_no_facts(
      "ggml_cuda_init: found 1 CUDA devices:\n"
      "  Device 0: Tesla P100-PCIE-16GB, compute capability 6.0, VMM: yes\n"
      "ggml-cuda/fattn-tile-f16.cu:282: ERROR: CUDA kernel flash_attn_tile_ext_f16 has no device code compatible "
      "with CUDA arch 520. ggml-cuda.cu was compiled for: 520\n");
  ASSERT_TRUE(leads_with(r, "ggml-flash-attn-no-device-code/build-lacks-arch")) << told(r);
  EXPECT_FALSE(mentions(r.matches.front().cause, "tensor cores from 7.0")) << r.matches.front().cause;
  EXPECT_TRUE(mentions(r.matches.front().cause, "6.0")) << r.matches.front().cause;
  const auto old = explain_no_facts(kReread42a2GgmlRealHeaderLog);
  ASSERT_TRUE(leads_with(old, "ggml-flash-attn-no-device-code/gpu-too-old")) << told(old);
  EXPECT_FALSE(mentions(old.matches.front().fix, "7.5")) << old.matches.front().fix;
  EXPECT_TRUE(mentions(old.matches.front().fix, "7.0")) << old.matches.front().fix;
}

// --- The second re-read (session 42) ---

// /tmp/reread42b/i1.log (verbatim): min_loss_scale below 1; int() prints 0.5 as 0, and the scale is
// still falling (next_scale = max(cur / 2, min) < cur), so not at its minimum.
constexpr std::string_view kReread2DeepspeedBelowOneLog =
    R"LOG([deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 2, reducing to 1
[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 1, reducing to 0
)LOG";

TEST(ExplainReview42A2, Reread2LossScaleStillFallingIsNotAtMinimum) {
  const auto r = explain_no_facts(kReread2DeepspeedBelowOneLog);
  EXPECT_EQ(find_rule(r, "deepspeed-overflow-at-minimum-scale"), nullptr) << rule_list(r);
  EXPECT_EQ(problem_count(r), 0u) << rule_list(r);
  // Equal numbers are the minimum, in both forms DeepSpeed prints.
  for (const char* line :
       {"[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 1, reducing to 1\n",
        "[deepspeed] OVERFLOW! Rank 3 Skipping step. Attempted loss scale: 1.0, reducing to 1.0\n"}) {
    const auto at_min = explain_no_facts(line);
    EXPECT_TRUE(leads_with(at_min, "deepspeed-overflow-at-minimum-scale")) << line << rule_list(at_min);
  }
  for (const char* line : {"[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 1.0, reducing to 0.5\n",
                           "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 0, reducing to 0\n"}) {
    const auto falling = explain_no_facts(line);
    EXPECT_EQ(find_rule(falling, "deepspeed-overflow-at-minimum-scale"), nullptr) << line << rule_list(falling);
  }
}

// /tmp/reread42b/h1.log (verbatim): flash-attn failed to build, then the check raised with no SDPA
// frame; the failed pip command is no sign of the package, so the base rule must not be demoted.
constexpr std::string_view kReread2FailedBuildNoSdpaLog = R"LOG($ pip install flash-attn==1.0.9
  Building wheel for flash-attn (setup.py) ... error
  ERROR: Failed building wheel for flash-attn
Failed to build flash-attn
$ python finetune.py
Traceback (most recent call last):
  File "finetune.py", line 120, in <module>
    loss.backward()
RuntimeError: Expected is_sm80 || is_sm90 to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)
)LOG";

TEST(ExplainReview42A2, Reread2FailedFlashAttnBuildLeavesTheArchCheckFirst) {
  const auto r = explain_no_facts(kReread2FailedBuildNoSdpaLog);
  ASSERT_TRUE(leads_with(r, "torch-flash-attention-v1-arch")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "torch-flash-attention-v1-arch/flash-attn-package"), nullptr) << rule_list(r);
  // Near miss: the same command without a failed build still names the package.
  const auto built = explain_no_facts(
      "$ pip install flash-attn==1.0.9\n"
      "Successfully installed flash-attn-1.0.9\n"
      "RuntimeError: Expected is_sm80 || is_sm90 to be true, but got false.\n");
  EXPECT_TRUE(leads_with(built, "torch-flash-attention-v1-arch/flash-attn-package")) << rule_list(built);
}

}  // namespace
}  // namespace gpudoctor
