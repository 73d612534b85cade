// Add-on libraries (session 35 review, /tmp/rev35x): logs written from where each message is printed in
// the libraries' released sources (torch_tensorrt 2.5.0, tensorrt 8.6.1, ctranslate2 4.5.0,
// onnxruntime-gpu 1.20.2 and 1.21.0, bitsandbytes 0.45.0, xformers 0.0.28.post3, deepspeed 0.15.4,
// transformers 4.46.3, llama-cpp-python 0.3.2). Each test was seen failing on the rules before the fix.
#include <gtest/gtest.h>

#include <string>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::explain_on;
using testing::find_rule;
using testing::leads_with;
using testing::problem_count;

bool addon_has(const std::string& text, std::string_view words) {
  return text.find(words) != std::string::npos;
}

// A1: torch_tensorrt's __init__ imports tensorrt and, without it, looks for libnvinfer itself and raises.
TEST(ExplainAddonLibraries, TorchTensorrtWithoutTheTensorrtPackageIsAnErrorNotHarmless) {
  const auto r = explain_no_facts(
      "$ pip install torch-tensorrt==2.5.0 --no-deps\n"
      "Successfully installed torch-tensorrt-2.5.0\n"
      "Traceback (most recent call last):\n"
      "  File \"/home/c/venv/lib/python3.11/site-packages/torch_tensorrt/__init__.py\", line 29, in <module>\n"
      "    import tensorrt  # noqa: F401\n"
      "ModuleNotFoundError: No module named 'tensorrt'\n"
      "\nDuring handling of the above exception, another exception occurred:\n\n"
      "Traceback (most recent call last):\n"
      "  File \"/home/c/venv/lib/python3.11/site-packages/torch_tensorrt/__init__.py\", line 35, in _find_lib\n"
      "    raise FileNotFoundError(f\"Could not find {name}\\n  Search paths: {paths}\")\n"
      "FileNotFoundError: Could not find libnvinfer.so.10\n"
      "  Search paths: ['/usr/local/cuda-12.4/lib64', '/usr/lib', '/usr/lib64']\n");
  ASSERT_TRUE(leads_with(r, "tensorrt-python-package-missing"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_EQ(m.severity, RuleSeverity::error);
  EXPECT_FALSE(m.harmless);
  EXPECT_TRUE(addon_has(m.fix, "tensorrt-cu12")) << m.fix;
  EXPECT_TRUE(addon_has(m.fix, "METADATA") || addon_has(m.fix, "pip show torch-tensorrt")) << m.fix;
  // The fatal FileNotFoundError is not the harmless optional-library note either.
  EXPECT_EQ(find_rule(r, "tensorrt-library-missing"), nullptr);
  EXPECT_GT(problem_count(r), 0U);
}

TEST(ExplainAddonLibraries, ImportTensorrtWithoutItsLibrariesIsAnError) {
  const auto r = explain_no_facts(
      "Traceback (most recent call last):\n"
      "  File \"/home/w/export_engine.py\", line 3, in <module>\n"
      "    import tensorrt as trt\n"
      "  File \"/home/w/venv/lib/python3.10/site-packages/tensorrt/__init__.py\", line 18, in <module>\n"
      "    from .tensorrt import *\n"
      "ImportError: libnvinfer.so.8: cannot open shared object file: No such file or directory\n");
  ASSERT_TRUE(leads_with(r, "tensorrt-import-failed"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_EQ(m.severity, RuleSeverity::error);
  EXPECT_FALSE(m.harmless);
  EXPECT_TRUE(addon_has(m.cause, "libnvinfer.so.8")) << m.cause;
  EXPECT_TRUE(addon_has(m.fix, "LD_LIBRARY_PATH")) << m.fix;
  EXPECT_EQ(find_rule(r, "tensorrt-library-missing"), nullptr);
  // TensorFlow's start-up probe stays the harmless note.
  const auto tf = explain_no_facts(
      "2023-01-05 W tensorflow/compiler/xla/stream_executor/platform/default/dso_loader.cc:64] Could not load "
      "dynamic library 'libnvinfer.so.7'; dlerror: libnvinfer.so.7: cannot open shared object file: No such file\n");
  ASSERT_TRUE(leads_with(tf, "tensorrt-library-missing"));
  EXPECT_TRUE(tf.matches.front().harmless);
}

// A7: ORT asked for TensorRT and runs without it: a warning, not harmless.
TEST(ExplainAddonLibraries, OnnxRuntimeTensorrtProviderFallbackIsAWarning) {
  const auto r = explain_on(
      Platform::linux,
      "2024-12-06 09:00:12.331 [E:onnxruntime:Default, provider_bridge_ort.cc:1862 TryGetProviderInfo_TensorRT] "
      "/onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1539 onnxruntime::Provider& "
      "onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library "
      "libonnxruntime_providers_tensorrt.so with error: libnvinfer.so.10: cannot open shared object file: No such "
      "file or directory\n"
      "2024-12-06 09:00:12.331 [W:onnxruntime:Default, onnxruntime_pybind_state.cc:965 "
      "CreateExecutionProviderInstance] Failed to create TensorrtExecutionProvider. Please install TensorRT "
      "libraries as mentioned in the GPU requirements page, make sure they're in the PATH or LD_LIBRARY_PATH, and "
      "that your GPU is supported.\n"
      "session providers: ['CUDAExecutionProvider', 'CPUExecutionProvider']\n");
  ASSERT_TRUE(leads_with(r, "onnxruntime-tensorrt-provider-unavailable"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_EQ(m.severity, RuleSeverity::warning);
  EXPECT_FALSE(m.harmless);
  EXPECT_EQ(m.count, 2U);
  EXPECT_TRUE(addon_has(m.cause, "TensorRT")) << m.cause;
}

// A2: CTranslate2 prints "CUDA failed with error " + cudaGetErrorString; ORT "CUDA failure N: ".
TEST(ExplainAddonLibraries, CudaErrorStringsAfterOtherLibrariesPrefixesAreRecognised) {
  const auto r = explain_no_facts(
      "[2024-12-02 07:44:10.551] [ctranslate2] [thread 18231] [warning] The compute type inferred from the saved "
      "model is float16, but the target device or backend do not support efficient float16 computation. The model "
      "weights have been automatically converted to use the float32 compute type instead.\n"
      "Traceback (most recent call last):\n"
      "  File \"/usr/local/lib/python3.9/site-packages/faster_whisper/transcribe.py\", line 1176, in "
      "generate_segments\n"
      "RuntimeError: CUDA failed with error out of memory\n");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "out-of-memory");
  EXPECT_EQ(r.matches.front().severity, RuleSeverity::error);
  // The float16 note, if listed, must not say the model is on the CPU: the CUDA error shows the GPU.
  if (const auto* f = find_rule(r, "ctranslate2-float16-converted/gpu-before-volta")) {
    EXPECT_FALSE(addon_has(f->cause, "usually the model is on the CPU")) << f->cause;
  } else {
    ADD_FAILURE() << "the float16 note should be read as a GPU older than Volta";
  }
  // The CPU reading may follow as another possible cause, never lead the answer.
  if (const auto* cpu = find_rule(r, "ctranslate2-float16-converted")) EXPECT_TRUE(cpu->alternative);
  const auto ort = explain_no_facts(
      "onnxruntime.capi.onnxruntime_pybind11_state.RuntimeException: [ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : "
      "Non-zero status code returned while running Conv node. Name:'/conv1/Conv' Status Message: CUDA failure 2: "
      "out of memory ; GPU=0 ; hostname=box ; file=/onnxruntime_src/onnxruntime/core/providers/cuda/cuda_call.cc ; "
      "line=123 ; expr=cudaMalloc((void**)&p, size);\n");
  ASSERT_FALSE(ort.matches.empty());
  EXPECT_EQ(ort.matches.front().category, "out-of-memory");
}

// A3: onnxruntime-gpu's [cuda,cudnn] extras and preload_dlls() exist from 1.21.0 only.
TEST(ExplainAddonLibraries, OnnxRuntimeFixesSayWhichReleaseHasTheExtrasAndTheOlderWay) {
  const auto r = explain_on(
      Platform::linux,
      "Successfully installed onnxruntime-gpu-1.20.1\n"
      "2024-12-04 08:01:19.554210 [E:onnxruntime:Default, provider_bridge_ort.cc:1862 TryGetProviderInfo_CUDA] "
      "/onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1539 onnxruntime::Provider& "
      "onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library "
      "libonnxruntime_providers_cuda.so with error: libcudnn.so.9: cannot open shared object file: No such file or "
      "directory\n");
  ASSERT_TRUE(leads_with(r, "onnxruntime-cuda-provider-cudnn-missing"));
  const std::string& fix = r.matches.front().fix;
  EXPECT_TRUE(addon_has(fix, "1.21 and later")) << fix;
  EXPECT_TRUE(addon_has(fix, "nvidia-cudnn-cu12")) << fix;
  EXPECT_TRUE(addon_has(fix, "LD_LIBRARY_PATH")) << fix;

  const auto cublas =
      explain_on(Platform::linux,
                 "[ONNXRuntimeError] : 1 : FAIL : Failed to load library libonnxruntime_providers_cuda.so with error: "
                 "libcublasLt.so.12: cannot open shared object file: No such file or directory\n");
  ASSERT_TRUE(leads_with(cublas, "onnxruntime-cuda-provider-not-loaded"));
  const std::string& fix2 = cublas.matches.front().fix;
  EXPECT_TRUE(addon_has(fix2, "1.21 and later")) << fix2;
  EXPECT_TRUE(addon_has(fix2, "nvidia-cublas-cu12")) << fix2;
}

// A5: bitsandbytes fell back to its CPU library; the log says why.
TEST(ExplainAddonLibraries, BitsandbytesOnACpuTorchLeadsWithTheCpuTorch) {
  const auto r = explain_on(
      Platform::windows,
      "C:\\Users\\anna\\qlora>python -m bitsandbytes\n"
      "The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit "
      "multiplication, and GPU quantization are unavailable.\n"
      "CUDA specs: None\n"
      "Torch says CUDA is not available. Possible reasons:\n"
      "1. CUDA driver not installed\n"
      "C:\\Users\\anna\\qlora>python -c \"import torch; print(torch.__version__, torch.cuda.is_available())\"\n"
      "2.5.1+cpu False\n");
  ASSERT_FALSE(r.matches.empty());
  const ExplainMatch& m = r.matches.front();
  EXPECT_EQ(m.category, "wrong-framework-build") << m.rule;
  EXPECT_TRUE(addon_has(m.cause, "CPU build of PyTorch") || addon_has(m.cause, "CPU-only PyTorch")) << m.cause;
  EXPECT_TRUE(addon_has(m.fix, "download.pytorch.org")) << m.fix;
  EXPECT_FALSE(addon_has(m.fix, "0.43 and later ship CUDA binaries for Linux and Windows across CUDA 11.x-12.x"));
  // Only the warning and the `+cpu` version (no diagnostics): the CPU PyTorch still leads.
  const auto warned = explain_on(
      Platform::windows,
      "C:\\Users\\anna\\qlora\\venv\\lib\\site-packages\\bitsandbytes\\cextension.py:77: UserWarning: The "
      "installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit multiplication, "
      "and GPU quantization are unavailable.\n"
      "2.5.1+cpu False\n");
  ASSERT_TRUE(leads_with(warned, "bitsandbytes-cpu-library/cpu-torch"));
  EXPECT_TRUE(addon_has(warned.matches.front().fix, "download.pytorch.org")) << warned.matches.front().fix;
}

TEST(ExplainAddonLibraries, BitsandbytesWithoutABinaryForThisCudaNamesTheRelease) {
  const auto r = explain_no_facts(
      "torch             2.7.0+cu128\n"
      "Could not find the bitsandbytes CUDA binary at "
      "PosixPath('/home/user/llm/venv/lib/python3.12/site-packages/bitsandbytes/libbitsandbytes_cuda128.so')\n"
      "The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit "
      "multiplication, and GPU quantization are unavailable.\n"
      "AttributeError: /home/user/llm/venv/lib/python3.12/site-packages/bitsandbytes/libbitsandbytes_cpu.so: "
      "undefined symbol: cquantize_blockwise_bf16_nf4\n");
  ASSERT_TRUE(leads_with(r, "bitsandbytes-no-binary-for-cuda"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(addon_has(m.cause, "CUDA 128") || addon_has(m.cause, "cuda128")) << m.cause;
  EXPECT_TRUE(addon_has(m.fix, "BNB_CUDA_VERSION")) << m.fix;
  EXPECT_TRUE(addon_has(m.fix, "0.45.3")) << m.fix;
  // The false claim is gone from every bitsandbytes answer.
  for (const auto& a : r.matches) EXPECT_FALSE(addon_has(a.fix, "across CUDA 11.x-12.x")) << a.rule;
}

// A6: xformers probes Triton for optional kernels and logs a warning; the program runs.
TEST(ExplainAddonLibraries, XformersOptionalTritonProbeIsHarmless) {
  const auto r = explain_on(Platform::windows,
                            "Launching Web UI with arguments: --xformers\n"
                            "A matching Triton is not available, some optimizations will not be enabled\n"
                            "Traceback (most recent call last):\n"
                            "  File \"C:\\Users\\gamer\\sd\\venv\\lib\\site-packages\\xformers\\__init__.py\", line "
                            "57, in _is_triton_available\n"
                            "    import triton  # noqa\n"
                            "ModuleNotFoundError: No module named 'triton'\n"
                            "Running on local URL:  http://127.0.0.1:7860\n");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(problem_count(r), 0U) << r.matches.front().rule;
  EXPECT_TRUE(r.matches.front().harmless) << r.matches.front().rule;
  // Triton missing under torch.compile, without xformers' probe, is still the problem it was.
  const auto compile = explain_on(Platform::windows, "ModuleNotFoundError: No module named 'triton'\n");
  ASSERT_FALSE(compile.matches.empty());
  EXPECT_FALSE(compile.matches.front().harmless);
  // ... and the harmless reading is not even listed behind it: the log shows no probe.
  EXPECT_EQ(find_rule(compile, "triton-module-missing/xformers-optional"), nullptr);
}

// B5: DeepSpeed's own wording of "no ninja".
TEST(ExplainAddonLibraries, DeepSpeedsNinjaWordingIsTheNinjaAnswer) {
  const auto r = explain_no_facts(
      "  File \"/data/proj/venv/lib/python3.10/site-packages/deepspeed/ops/op_builder/builder.py\", line 541, in "
      "jit_load\n"
      "RuntimeError: Unable to JIT load the fused_adam op due to ninja not being installed.\n");
  ASSERT_TRUE(leads_with(r, "torch-extension-ninja-missing"));
  EXPECT_TRUE(addon_has(r.matches.front().fix, "pip install ninja")) << r.matches.front().fix;
}

// B6: transformers' FlashAttention2 check.
TEST(ExplainAddonLibraries, TransformersFlashAttention2NotInstalled) {
  const auto r = explain_no_facts(
      "ImportError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: the "
      "package flash_attn seems to be not installed. Please refer to the documentation of "
      "https://huggingface.co/docs/transformers/perf_infer_gpu_one#flashattention-2 to install Flash Attention 2.\n");
  ASSERT_TRUE(leads_with(r, "transformers-flash-attention-2-unavailable"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_EQ(m.severity, RuleSeverity::error);
  EXPECT_TRUE(addon_has(m.fix, "pip install flash-attn --no-build-isolation")) << m.fix;
  EXPECT_TRUE(addon_has(m.fix, "sdpa")) << m.fix;
}

// B4: CMake's own words say the CUDA toolkit is missing.
TEST(ExplainAddonLibraries, CmakeNotFindingTheCudaToolkitLeadsOverTheWheelBuild) {
  const auto r = explain_no_facts(
      "Building wheels for collected packages: llama-cpp-python\n"
      "  Building wheel for llama-cpp-python (pyproject.toml) ... error\n"
      "  error: subprocess-exited-with-error\n"
      "  × Building wheel for llama-cpp-python (pyproject.toml) did not run successfully.\n"
      "      -- Could NOT find CUDAToolkit (missing: CUDA_NVCC_EXECUTABLE CUDA_CUDART) \n"
      "      CMake Error at vendor/llama.cpp/ggml/src/ggml-cuda/CMakeLists.txt:164 (message):\n"
      "        CUDA Toolkit not found\n"
      "      -- Configuring incomplete, errors occurred!\n"
      "  ERROR: Failed building wheel for llama-cpp-python\n");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "toolkit-missing") << r.matches.front().rule;
  EXPECT_TRUE(addon_has(r.matches.front().fix, "nvcc")) << r.matches.front().fix;
  const auto vs = explain_on(Platform::windows,
                             "      CMake Error at C:/Program Files/CMake/share/cmake-3.31/Modules/"
                             "CMakeDetermineCompilerId.cmake:614 (message):\n"
                             "        No CUDA toolset found.\n");
  ASSERT_TRUE(leads_with(vs, "cmake-no-cuda-toolset"));
  EXPECT_TRUE(addon_has(vs.matches.front().fix, "BuildCustomizations")) << vs.matches.front().fix;
}

// B1: each add-on library's wording of "needs a CUDA device and PyTorch has none" is one answer.
TEST(ExplainAddonLibraries, AddOnLibrariesNeedingACudaDeviceAreTheNoGpuAnswer) {
  const char* lines[] = {
      "RuntimeError: CUDA is required but not available for bitsandbytes. Please consider installing the "
      "multi-platform enabled version of bitsandbytes, which is currently a work in progress.\n",
      "ValueError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: Flash "
      "Attention 2 is not available on CPU. Please make sure torch can access a CUDA device.\n",
      "ValueError: fp16 mixed precision requires a GPU (not 'cpu').\n",
      "RuntimeError: No GPU found. A GPU is needed for quantization.\n",
      "RuntimeError: GPU is required to quantize or run quantize model.\n",
      "RuntimeError: GPU is required to run AWQ quantized model. You can use IPEX version AWQ if you have an Intel "
      "CPU\n",
      "  File \"/usr/local/lib/python3.12/dist-packages/vllm/config.py\", line 1088, in __init__\n"
      "    raise RuntimeError(\"Failed to infer device type\")\nRuntimeError: Failed to infer device type\n",
  };
  for (const char* line : lines) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "library-needs-cuda-device")) << line;
    const ExplainMatch& m = r.matches.front();
    EXPECT_EQ(m.severity, RuleSeverity::error);
    EXPECT_TRUE(addon_has(m.cause, "torch.cuda.is_available()")) << m.cause;
    EXPECT_TRUE(addon_has(m.fix, "download.pytorch.org")) << m.fix;
    EXPECT_TRUE(addon_has(m.fix, "CUDA_VISIBLE_DEVICES")) << m.fix;
    EXPECT_TRUE(addon_has(m.fix, "--gpus all")) << m.fix;
  }
  // In a container (docker run without --gpus), that cause leads.
  const auto docker = explain_no_facts(
      "$ docker run --rm -p 8000:8000 vllm/vllm-openai:v0.6.3 --model facebook/opt-125m\n"
      "RuntimeError: Failed to infer device type\n");
  ASSERT_TRUE(leads_with(docker, "library-needs-cuda-device/container"));
  EXPECT_EQ(docker.matches.front().category, "container/docker-runtime");
}

// B2: libraries' own compute-capability checks.
TEST(ExplainAddonLibraries, LibraryComputeCapabilityChecksAreGpuArchUnsupported) {
  const auto vllm = explain_no_facts(
      "ValueError: The quantization method awq is not supported for the current GPU. Minimum capability: 75. "
      "Current capability: 70.\n");
  ASSERT_TRUE(leads_with(vllm, "library-gpu-too-old"));
  EXPECT_EQ(vllm.matches.front().category, "gpu-arch-unsupported");
  EXPECT_TRUE(addon_has(vllm.matches.front().cause, "7.5")) << vllm.matches.front().cause;
  EXPECT_TRUE(addon_has(vllm.matches.front().cause, "7.0")) << vllm.matches.front().cause;
  const auto ds = explain_no_facts(
      "RuntimeError: Unable to JIT load the fp_quantizer op due to it not being compatible due to hardware/software "
      "issue. NVIDIA Inference is only supported on Ampere and newer architectures\n");
  ASSERT_TRUE(leads_with(ds, "library-gpu-too-old"));
  EXPECT_TRUE(addon_has(ds.matches.front().cause, "Ampere")) << ds.matches.front().cause;
}

// B3: packages installed without their compiled (GPU) part.
TEST(ExplainAddonLibraries, PackagesWithoutTheirCompiledPartAreNamed) {
  const char* lines[] = {
      "ModuleNotFoundError: No module named 'mmcv._ext'\n",
      "RuntimeError: Detectron2 is not compiled with GPU support!\n",
      "ImportError: cannot import name '_C' from 'detectron2' (/home/y/detectron2/detectron2/__init__.py)\n",
      "warning: not compiled with GPU offload support, --gpu-layers option will be ignored\n",
  };
  for (const char* line : lines) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "package-built-without-compiled-part")) << line;
    EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
    EXPECT_TRUE(addon_has(r.matches.front().fix, "FORCE_CUDA=1")) << r.matches.front().fix;
  }
  const auto mmcv = explain_no_facts("ModuleNotFoundError: No module named 'mmcv._ext'\n");
  EXPECT_TRUE(addon_has(mmcv.matches.front().cause, "mmcv")) << mmcv.matches.front().cause;
  const auto llama =
      explain_no_facts("warning: not compiled with GPU offload support, --gpu-layers option will be ignored\n");
  EXPECT_TRUE(addon_has(llama.matches.front().fix, "GGML_CUDA")) << llama.matches.front().fix;
}

// A4: 0 KV-cache blocks is raised before any comparison with max_model_len: a shorter context cannot help.
TEST(ExplainAddonLibraries, VllmWithNoCacheBlocksIsTheMemoryBudgetNotTheContext) {
  const auto r = explain_no_facts(
      "  File \"/home/ubuntu/venv/lib/python3.10/site-packages/vllm/worker/worker.py\", line 487, in "
      "raise_if_cache_size_invalid\n"
      "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when "
      "initializing the engine.\n");
  ASSERT_TRUE(leads_with(r, "vllm-no-cache-blocks"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_EQ(m.category, "out-of-memory");
  EXPECT_TRUE(addon_has(m.fix, "--gpu-memory-utilization")) << m.fix;
  EXPECT_FALSE(addon_has(m.fix, "Start with a shorter context")) << m.fix;
  EXPECT_FALSE(addon_has(m.cause, "room for fewer")) << m.cause;
}

// I1: vLLM forks its workers unless told otherwise (envs.py VLLM_WORKER_MULTIPROC_METHOD, default fork).
TEST(ExplainAddonLibraries, VllmWorkersForkedAfterCudaNameVllmsSwitch) {
  const auto r = explain_no_facts(
      "(VllmWorkerProcess pid=28811)     raise RuntimeError(\n"
      "(VllmWorkerProcess pid=28811) RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with "
      "multiprocessing, you must use the 'spawn' start method\n");
  ASSERT_TRUE(leads_with(r, "vllm-worker-forked-after-cuda"));
  EXPECT_TRUE(addon_has(r.matches.front().fix, "VLLM_WORKER_MULTIPROC_METHOD=spawn")) << r.matches.front().fix;
  EXPECT_EQ(find_rule(r, "torch-cuda-in-forked-subprocess"), nullptr);
}

}  // namespace
}  // namespace gpudoctor
