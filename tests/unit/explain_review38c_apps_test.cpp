// Unseen logs, session 38 review (C): the application stack (bitsandbytes, Ollama, Triton, vLLM,
// transformers' device_map). Each rule was written from where its message is printed:
// - bitsandbytes before 0.43 (cuda_setup/main.py, read from the 0.39.1 to 0.42.0 wheels):
//   "CUDA SETUP: Required library version not found: <binary>. Maybe you need to compile it from
//   source?" then "Defaulting to libbitsandbytes_cpu.so"; "CUDA runtime path found:" after the
//   backup search for libcudart.so succeeded. 0.39.1 ships cuda110..cuda121, cuda122 first in 0.40.0.
// - Ollama's GPU discovery (discover/runner.go): "skipping available library at user's request"
//   with requested=<OLLAMA_LLM_LIBRARY> and libDir=<dir>.
// - ggml's ggml_cuda_error (ggml-cuda.cu): "CUDA error: <text>" / "current device: N, in function F
//   at .../ggml-cuda.cu:L", the second line joined to the first.
// - Triton 3.2's ptx_get_version (backends/nvidia/compiler.py): CUDA 12.7+ raises "Triton only
//   support CUDA 10.0 or higher, but got CUDA version: 12.8".
// - vLLM's engine in a traceback with "no kernel image": the image's vLLM build, not torch alone.
// - "found at least two devices, cuda:0 and cuda:1" (TensorIterator.cpp): two GPUs, device_map.
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

// Log 13 (bitsandbytes-foundation/bitsandbytes#551): bitsandbytes 0.39.1 found libcudart in a
// backup path (the line after the warning says so) but has no binary for CUDA 12.2.
TEST(ExplainReview38CApps, BitsandbytesMissingBinaryIsNotAMissingLibcudart) {
  const std::string log =
      "===================================BUG REPORT===================================\n"
      "Welcome to bitsandbytes. For bug reports, please run\n"
      "\n"
      "python -m bitsandbytes\n"
      "\n"
      " and submit this information together with your error trace to: "
      "https://github.com/TimDettmers/bitsandbytes/issues\n"
      "================================================================================\n"
      "bin /datadrive/anaconda3/lib/python3.10/site-packages/bitsandbytes/libbitsandbytes_cuda122.so\n"
      "False\n"
      "CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in backup paths...\n"
      "CUDA SETUP: CUDA runtime path found: /usr/local/cuda/lib64/libcudart.so\n"
      "CUDA SETUP: Highest compute capability among GPUs detected: 8.0\n"
      "CUDA SETUP: Detected CUDA version 122\n"
      "CUDA SETUP: Required library version not found: libbitsandbytes_cuda122.so. Maybe you need to compile "
      "it from source?\n"
      "CUDA SETUP: Defaulting to libbitsandbytes_cpu.so...\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "bitsandbytes-legacy-no-binary-for-cuda")) << rule_list(r);
  EXPECT_EQ(problem_count(r), 1u) << rule_list(r);
  const auto& m = r.matches.front();
  EXPECT_TRUE(mentions(m.cause, "libbitsandbytes_cuda122.so")) << m.cause;
  EXPECT_TRUE(says_all(m.fix, {"pip install -U bitsandbytes", "CUDA version"}));
  // libcudart was found: nobody is told to put it on LD_LIBRARY_PATH.
  EXPECT_EQ(find_rule(r, "bitsandbytes-libcudart-not-found"), nullptr) << rule_list(r);
  EXPECT_FALSE(mentions(told(r), "export LD_LIBRARY_PATH=/usr/local/cuda/lib64")) << told(r);
  // 0.40.1-0.42 pick by PyTorch's CUDA; a _nocublaslt binary is the same answer, and the libcudart
  // warning before it (no backup-path line here) is that search, not the failure.
  const auto nocublaslt = explain_no_facts(
      "CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in backup paths...\n"
      "CUDA SETUP: PyTorch settings found: CUDA_VERSION=117, Highest Compute Capability: 3.7.\n"
      "CUDA SETUP: Required library version not found: libbitsandbytes_cuda117_nocublaslt.so. Maybe you need to "
      "compile it from source?\n");
  EXPECT_TRUE(leads_with(nocublaslt, "bitsandbytes-legacy-no-binary-for-cuda")) << rule_list(nocublaslt);
  EXPECT_EQ(find_rule(nocublaslt, "bitsandbytes-libcudart-not-found"), nullptr) << rule_list(nocublaslt);
}

// Near miss: the backup search found nothing (no "runtime path found" line): the libcudart answer
// stays.
TEST(ExplainReview38CApps, BitsandbytesLibcudartNotFoundWithoutABackupHitKeepsItsAnswer) {
  const auto r = explain_no_facts(
      "CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in backup paths...\n"
      "WARNING: No libcudart.so found! Install CUDA or the cudatoolkit package (anaconda)!\n");
  EXPECT_TRUE(leads_with(r, "bitsandbytes-libcudart-not-found")) << rule_list(r);
  const auto found = explain_no_facts(
      "CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in backup paths...\n"
      "CUDA SETUP: CUDA runtime path found: /usr/local/cuda/lib64/libcudart.so\n");
  EXPECT_EQ(find_rule(found, "bitsandbytes-libcudart-not-found"), nullptr) << rule_list(found);
  EXPECT_EQ(problem_count(found), 0u) << rule_list(found);
}

// Log 19 (ollama/ollama#12797): OLLAMA_LLM_LIBRARY=cuda names no library directory, so every CUDA
// library is skipped and Ollama runs on the CPU.
TEST(ExplainReview38CApps, OllamaLlmLibraryThatNamesNoDirectorySkipsTheGpu) {
  const std::string log =
      "msg=\"skipping available library at users request\" requested=cuda libDir=/usr/lib/ollama/cuda_v12\n"
      "msg=\"skipping available library at users request\" requested=cuda libDir=/usr/lib/ollama/cuda_v13\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "ollama-llm-library-skips-gpu")) << rule_list(r);
  const auto& m = r.matches.front();
  EXPECT_TRUE(says_all(m.cause, {"OLLAMA_LLM_LIBRARY", "cuda_v12"}));
  EXPECT_TRUE(mentions(m.fix, "Unset OLLAMA_LLM_LIBRARY")) << m.fix;
  // The source's own wording, with the apostrophe.
  const auto quoted = explain_no_facts(
      "time=2025-10-27T10:00:00.000Z level=DEBUG source=runner.go:120 msg=\"skipping available library at "
      "user's request\" requested=cuda libDir=/usr/lib/ollama/cuda_v13\n");
  EXPECT_TRUE(leads_with(quoted, "ollama-llm-library-skips-gpu")) << rule_list(quoted);
}

// Near miss: OLLAMA_LLM_LIBRARY=cuda_v12 skipping cuda_v13 is the user's choice working: harmless.
TEST(ExplainReview38CApps, OllamaLlmLibraryNamingADirectorySkipsOnlyTheOthers) {
  const auto r = explain_no_facts(
      "msg=\"skipping available library at user's request\" requested=cuda_v12 "
      "libDir=/usr/local/lib/ollama/cuda_v13\n");
  EXPECT_EQ(find_rule(r, "ollama-llm-library-skips-gpu"), nullptr) << rule_list(r);
  EXPECT_EQ(problem_count(r), 0u) << rule_list(r);
}

// Log 02 (ollama/ollama#12316, #12341): Ollama 0.11.x's CUDA libraries had no Pascal kernels.
// ggml's error, not PyTorch's: no pip advice.
TEST(ExplainReview38CApps, OllamaNoKernelImageGetsOllamaAdviceNotFrameworkWheels) {
  const std::string log =
      "server.log:\n"
      "\n"
      "time=2025-09-17T11:28:38.832+02:00 level=INFO source=server.go:1289 msg=\"llama runner started in 43.46 "
      "seconds\"\n"
      "ggml_cuda_compute_forward: SCALE failed\n"
      "CUDA error: no kernel image is available for execution on the device\n"
      "  current device: 0, in function ggml_cuda_compute_forward at "
      "C:\\a\\ollama\\ollama\\ml\\backend\\ggml\\ggml\\src\\ggml-cuda\\ggml-cuda.cu:2568\n"
      "  err\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "ggml-no-kernel-image")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "no-kernel-image"), nullptr) << rule_list(r);
  const auto& m = r.matches.front();
  EXPECT_TRUE(says_all(m.fix, {"0.12.0", "CMAKE_CUDA_ARCHITECTURES"}));
  EXPECT_FALSE(mentions(told(r), "pip install torch")) << told(r);
  EXPECT_FALSE(mentions(told(r), "jax[cuda12]")) << told(r);
}

// Near miss: PyTorch's own no-kernel-image keeps the framework answer.
TEST(ExplainReview38CApps, PytorchNoKernelImageKeepsTheFrameworkAnswer) {
  const auto r = explain_no_facts(
      "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
      "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might "
      "be incorrect.\n");
  EXPECT_TRUE(leads_with(r, "no-kernel-image")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "ggml-no-kernel-image"), nullptr) << rule_list(r);
}

// Log 26 (triton-lang/triton#5737, woct0rdho/triton-windows#84): Triton 3.2 with a CUDA 12.8 ptxas.
TEST(ExplainReview38CApps, TritonPtxGetVersionWithANewerCudaNeedsANewerTriton) {
  const std::string log =
      " │ cuda_version = '12.8'\n"
      " │ >       raise RuntimeError(\"Triton only support CUDA 10.0 or higher, but got CUDA version: \" + "
      "cuda_version)\n"
      " │ E       RuntimeError: Triton only support CUDA 10.0 or higher, but got CUDA version: 12.8\n"
      " │ ../../../../../lib/python3.11/site-packages/triton/backends/nvidia/compiler.py:57: RuntimeError\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "triton-ptx-version-unknown-cuda")) << rule_list(r);
  const auto& m = r.matches.front();
  EXPECT_TRUE(mentions(m.cause, "12.8")) << m.cause;
  EXPECT_TRUE(says_all(m.fix, {"3.3", "TRITON_PTXAS_PATH"}));
  EXPECT_FALSE(mentions(m.fix, "CUDA 10")) << m.fix;
}

// Log 24 (gpustack/gpustack#2097, #2276): vLLM's engine hits no kernel image on an RTX 5090D; the
// fix is a vLLM build for CUDA 12.8, not torch swapped inside the image.
TEST(ExplainReview38CApps, VllmNoKernelImageNamesTheVllmBuild) {
  const std::string log =
      "INFO 05-26 07:50:25 [core.py:58] Initializing a V1 LLM engine (v0.8.5.post1) with config: "
      "model='/var/lib/gpustack/cache/model_scope/deepseek-ai/DeepSeek-R1-Distill-Llama-8B'\n"
      "ERROR 05-26 07:50:26 [core.py:396] EngineCore failed to start.\n"
      "ERROR 05-26 07:50:26 [core.py:396] Traceback (most recent call last):\n"
      "ERROR 05-26 07:50:26 [core.py:396]   File "
      "\"/usr/local/lib/python3.10/dist-packages/vllm/v1/engine/core.py\", line 387, in run_engine_core\n"
      "...\n"
      "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
      "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might "
      "be incorrect.\n"
      "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n";
  const auto r = explain_no_facts(log);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_TRUE(says_all(told(r), {"vLLM", "-cuda12.8", "do not replace torch"}));
}

// Log 17 (OpenGVLab/InternVL#229): device_map='auto' split a remote-code model over two GPUs.
TEST(ExplainReview38CApps, TwoGpusInOneOperationAreTheDeviceMapNotAMissingTo) {
  const std::string log =
      "model = AutoModel.from_pretrained(\n"
      "    path,\n"
      "    torch_dtype=torch.float16,\n"
      "    low_cpu_mem_usage=True,\n"
      "    trust_remote_code=True,\n"
      "    device_map='auto').eval()\n"
      "\n"
      "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and "
      "cuda:1!\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "torch-tensors-on-two-gpus")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "torch-tensors-on-different-devices"), nullptr) << rule_list(r);
  const auto& m = r.matches.front();
  EXPECT_TRUE(mentions(m.cause, "device_map")) << m.cause;
  EXPECT_TRUE(says_all(m.fix, {"no_split_module_classes", "explicit `device_map`"}));
  // The other wording of the same check (adaption.cpp) with two GPUs.
  const auto got = explain_no_facts(
      "RuntimeError: Expected all tensors to be on the same device, but got index is on cuda:1, different from "
      "other tensors on cuda:0 (when checking argument in method wrapper_CUDA__index_select)\n");
  EXPECT_TRUE(leads_with(got, "torch-tensors-on-two-gpus")) << rule_list(got);
}

// Near miss: a CPU tensor against a GPU one is still the forgotten .to().
TEST(ExplainReview38CApps, CpuAndGpuTensorsKeepTheMoveEverythingAnswer) {
  const auto r = explain_no_facts(
      "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and "
      "cpu!\n");
  EXPECT_TRUE(leads_with(r, "torch-tensors-on-different-devices")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "torch-tensors-on-two-gpus"), nullptr) << rule_list(r);
}

}  // namespace
}  // namespace gpudoctor
