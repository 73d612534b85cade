// Unseen logs, session 40 review B (docs/explain.md, "Unseen logs, session 40 review B"): Windows
// users of Chinese-community AI apps.
// - `DLL load failed while importing _turbomind` (LMDeploy) and mmcv's `_ext` got PyTorch's
//   "reinstall torch" answer; Windows' Chinese text of error 127 (找不到指定的程序) was not read as 127.
// - Docker Desktop on macOS was told to install the NVIDIA Container Toolkit.
// - openai-whisper's "FP16 is not supported on CPU" on a GPU machine said nothing.
// - A cuBLASLt heuristic NOT_SUPPORTED (FP8 with a CUDA 11.8 torch) only restated the code.
// - bitsandbytes 0.41 on native Windows led with Linux/WSL2 libcuda.so advice.
// - PyTorch's own "Please install PyTorch with a following CUDA configurations: 12.6" was not used.
// - onnxruntime and onnxruntime-gpu listed together in one pip list were not noticed.
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

TEST(ExplainReview40B, LmdeployTurbomindDllGetsLmdeploysCudaToolkitAnswer) {
  const auto r = explain_no_facts(
      "    import _turbomind as _tm  # noqa: E402\n"
      "ImportError: DLL load failed while importing _turbomind: 找不到指定的模块。\n");
  ASSERT_TRUE(leads_with(r, "lmdeploy-turbomind-dll-load-failed")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.fix, {"CUDA_PATH", "0.4.1", "cu118"})) << lead.fix;
  EXPECT_FALSE(mentions(told(r), "download.pytorch.org/whl/cu128")) << told(r);
  EXPECT_FALSE(mentions(told(r), "bundle the CUDA DLLs")) << told(r);
}

TEST(ExplainReview40B, MmcvExtProcedureNotFoundInChineseGetsTheMatchingMmcvBuild) {
  const auto r = explain_no_facts("ImportError: DLL load failed while importing _ext: 找不到指定的程序。\n");
  ASSERT_TRUE(leads_with(r, "mmcv-ext-dll-load-failed")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"127", "mmcv"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"mim install", "download.openmmlab.com"})) << lead.fix;
  EXPECT_FALSE(mentions(told(r), "download.pytorch.org/whl/cu128")) << told(r);
  // The English wording too.
  const auto en = explain_no_facts(
      "ImportError: DLL load failed while importing _ext: The specified procedure could not be found.\n");
  ASSERT_TRUE(leads_with(en, "mmcv-ext-dll-load-failed")) << told(en);
}

TEST(ExplainReview40B, ChineseErrorTextsTellProcedureFromModule) {
  // 127 in Chinese: the procedure rule, not the missing-DLL one.
  const auto proc = explain_no_facts("ImportError: DLL load failed while importing _C: 找不到指定的程序。\n");
  ASSERT_TRUE(leads_without(proc, "windows-dll-procedure-not-found", {"framework-native-library-missing"}))
      << told(proc);
  // Near miss: 126 in Chinese keeps the missing-DLL answer.
  const auto mod = explain_no_facts("ImportError: DLL load failed while importing _C: 找不到指定的模块。\n");
  ASSERT_TRUE(leads_without(mod, "framework-native-library-missing", {"windows-dll-procedure-not-found"})) << told(mod);
}

TEST(ExplainReview40B, DockerOnMacosIsToldThereIsNoNvidiaGpuThere) {
  const auto r = explain_no_facts(
      "我在mac中用docker部署，无法启动\n"
      "Cannot start Docker Compose application. Reason: compose [start] exit status 1. Container gpt-sovits-container "
      "Starting Error response from daemon: could not select device driver \"nvidia\" with capabilities: [[gpu]]\n");
  ASSERT_TRUE(leads_with(r, "docker-no-gpu-driver/macos")) << told(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"driver: nvidia", "CPU"})) << r.matches.front().fix;
  // The Container Toolkit answer stays as another possible cause (a Linux server's log can name a
  // Mac: the session 40 re-read), never first.
  EXPECT_FALSE(mentions(r.matches.front().fix, "nvidia-ctk")) << told(r);
  EXPECT_EQ(find_rule(r, "docker-no-gpu-driver/docker-desktop"), nullptr) << rule_list(r);
  EXPECT_EQ(find_rule(r, "docker-no-gpu-driver/snap-docker"), nullptr) << rule_list(r);
  const auto en = explain_no_facts(
      "Docker Desktop 4.30 on macOS Sonoma, MacBook Pro M2\n"
      "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].\n");
  ASSERT_TRUE(leads_with(en, "docker-no-gpu-driver/macos")) << told(en);
  // Near miss: a Linux host keeps the Container Toolkit answer.
  const auto linux_log = explain_no_facts(
      "$ docker run --gpus all ubuntu nvidia-smi\n"
      "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].\n");
  ASSERT_TRUE(leads_without(linux_log, "docker-no-gpu-driver", {"docker-no-gpu-driver/macos"})) << told(linux_log);
}

TEST(ExplainReview40B, WhisperFp16OnCpuWarningPointsAtACpuOnlyTorch) {
  const auto r = explain_no_facts(
      "UserWarning: FP16 is not supported on CPU; using FP32 instead\n"
      "  warnings.warn(\"FP16 is not supported on CPU; using FP32 instead\")\n");
  ASSERT_TRUE(leads_with(r, "whisper-fp16-on-cpu")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"CPU", "Whisper"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"download.pytorch.org/whl/cu", "torch.cuda.is_available()"})) << lead.fix;
}

TEST(ExplainReview40B, CublasLtHeuristicNotSupportedNamesFp8AndACuda12Torch) {
  const auto r = explain_no_facts(
      "CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasLtMatmulAlgoGetHeuristic( ltHandle, computeDesc.descriptor(), "
      "Adesc.descriptor(), Bdesc.descriptor(), Cdesc.descriptor(), Ddesc.descriptor(), preference.descriptor(), 1, "
      "&heuristicResult, &returnedResult)`.\n");
  ASSERT_TRUE(leads_without(r, "torch-cublaslt-heuristic-not-supported", {"code/cublas/CUBLAS_STATUS_NOT_SUPPORTED"}))
      << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"FP8", "12.1"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"torch.version.cuda", "download.pytorch.org/whl/cu12"})) << lead.fix;
  // Near miss: a bfloat16 GEMM keeps the bf16 answer.
  const auto bf16 = explain_no_facts(
      "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmEx( handle, opa, opb, m, n, k, "
      "&falpha, a, CUDA_R_16BF, lda, b, CUDA_R_16BF, ldb, &fbeta, c, CUDA_R_16BF, ldc, CUDA_R_32F, "
      "CUBLAS_GEMM_DFALT_TENSOR_OP)`\n");
  ASSERT_TRUE(leads_without(bf16, "torch-cublas-bf16-not-supported", {"torch-cublaslt-heuristic-not-supported"}))
      << told(bf16);
}

constexpr std::string_view kReview40bBnbLines =
    "CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in backup paths...\n"
    "CUDA SETUP: WARNING! libcuda.so not found! Do you have a CUDA driver installed? If you are on a cluster, make "
    "sure you are on a CUDA machine!\n";

TEST(ExplainReview40B, BitsandbytesOnNativeWindowsLeadsWithTheWindowsBuild) {
  const auto r = explain_no_facts(
      std::string(kReview40bBnbLines) +
      "CUDA SETUP: Loading binary D:\\conda_envs\\ai\\lib\\site-packages\\bitsandbytes\\libbitsandbytes_cpu.so...\n"
      "argument of type 'WindowsPath' is not iterable\n");
  ASSERT_TRUE(leads_with(r, "bitsandbytes-libcuda-not-found/windows")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.fix, {"0.43", "pip install"})) << lead.fix;
  EXPECT_FALSE(mentions(lead.fix, "LD_LIBRARY_PATH")) << lead.fix;
  EXPECT_EQ(find_rule(r, "bitsandbytes-libcuda-not-found/wsl2"), nullptr) << rule_list(r);
  // Near miss: a Linux log keeps the libcuda.so answer.
  const auto linux_log = explain_no_facts(
      std::string(kReview40bBnbLines) +
      "CUDA SETUP: Loading binary /home/me/venv/lib/python3.10/site-packages/bitsandbytes/libbitsandbytes_cpu.so...\n");
  ASSERT_TRUE(leads_without(linux_log, "bitsandbytes-libcuda-not-found", {"bitsandbytes-libcuda-not-found/windows"}))
      << told(linux_log);
}

TEST(ExplainReview40B, PytorchsOwnCudaConfigurationLineNamesTheVariant) {
  const auto r = explain_no_facts(
      "/usr/local/lib/python3.12/dist-packages/torch/cuda/__init__.py:262: UserWarning: \n"
      "    Found GPU0 NVIDIA GeForce GTX 1080 Ti which is of cuda capability 6.1.\n"
      "    Minimum and Maximum cuda capability supported by this version of PyTorch is\n"
      "    (7.0) - (12.0)\n"
      "    Please install PyTorch with a following CUDA\n"
      "    configurations:  12.6 following instructions at\n"
      "    https://pytorch.org/get-started/locally/\n");
  ASSERT_TRUE(leads_with(r, "torch-capability-install-cuda-config")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(mentions(lead.fix, "download.pytorch.org/whl/cu126")) << lead.fix;
  EXPECT_FALSE(mentions(lead.fix, "newest CUDA variant")) << lead.fix;
}

TEST(ExplainReview40B, OnnxruntimeAndOnnxruntimeGpuListedTogetherAreTheCause) {
  const auto r = explain_no_facts(
      "onnxruntime                       1.17.1\n"
      "onnxruntime-gpu                   1.20.1\n"
      "2024-12-01 10:00:00.0000000 [E:onnxruntime:Default, provider_bridge_ort.cc:1848 "
      "onnxruntime::TryGetProviderInfo_CUDA] "
      "D:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1539 "
      "onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 \"\" when "
      "trying to load \"C:\\ComfyUI\\python_embeded\\Lib\\site-packages\\onnxruntime\\capi\\"
      "onnxruntime_providers_cuda.dll\"\n");
  ASSERT_FALSE(r.matches.empty()) << told(r);
  EXPECT_TRUE(mentions(r.matches.front().cause, "onnxruntime-gpu")) << told(r);
  EXPECT_TRUE(mentions(r.matches.front().fix, "uninstall -y onnxruntime onnxruntime-gpu")) << told(r);
  // Near miss: onnxruntime-gpu alone keeps the CUDA/cuDNN answer.
  const auto gpu_only = explain_no_facts(
      "onnxruntime-gpu                   1.20.1\n"
      "2024-12-01 10:00:00.0000000 [E:onnxruntime:Default, provider_bridge_ort.cc:1848 "
      "onnxruntime::TryGetProviderInfo_CUDA] "
      "D:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1539 "
      "onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 \"\" when "
      "trying to load \"C:\\ComfyUI\\python_embeded\\Lib\\site-packages\\onnxruntime\\capi\\"
      "onnxruntime_providers_cuda.dll\"\n");
  ASSERT_FALSE(gpu_only.matches.empty()) << told(gpu_only);
  EXPECT_FALSE(mentions(gpu_only.matches.front().fix, "uninstall -y onnxruntime onnxruntime-gpu")) << told(gpu_only);
}

TEST(ExplainReview40B, PortablePythonRunsEveryPipOfTheFix) {
  const auto r = explain_no_facts(
      "  File \"C:\\Users\\me\\ComfyUI_windows_portable\\python_embeded\\lib\\site-packages\\torch\\cuda\\"
      "__init__.py\", line 289, in _lazy_init\n"
      "AssertionError: Torch not compiled with CUDA enabled\n");
  ASSERT_TRUE(leads_with(r, "torch-not-compiled-with-cuda")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(mentions(lead.fix, "`.\\python_embeded\\python.exe -m pip uninstall")) << lead.fix;
  EXPECT_TRUE(mentions(lead.fix, "&& .\\python_embeded\\python.exe -m pip install")) << lead.fix;
  EXPECT_FALSE(mentions(lead.fix, "`pip ")) << lead.fix;
  // RVC's and GPT-SoVITS' runtime\python.exe too.
  const auto rvc = explain_no_facts(
      "D:\\RVC\\runtime\\python.exe infer-web.py --pycmd runtime\\python.exe --port 7897\n"
      "AssertionError: Torch not compiled with CUDA enabled\n");
  ASSERT_TRUE(leads_with(rvc, "torch-not-compiled-with-cuda")) << told(rvc);
  EXPECT_TRUE(mentions(rvc.matches.front().fix, "`.\\runtime\\python.exe -m pip uninstall")) << told(rvc);
  // Near miss: a venv's Python keeps the plain pip.
  const auto venv = explain_no_facts(
      "  File \"C:\\Users\\me\\venv\\lib\\site-packages\\torch\\cuda\\__init__.py\", line 289, in _lazy_init\n"
      "AssertionError: Torch not compiled with CUDA enabled\n");
  ASSERT_TRUE(leads_with(venv, "torch-not-compiled-with-cuda")) << told(venv);
  EXPECT_TRUE(mentions(venv.matches.front().fix, "`pip uninstall")) << venv.matches.front().fix;
  EXPECT_FALSE(mentions(venv.matches.front().fix, "python_embeded\\python.exe -m pip uninstall"))
      << venv.matches.front().fix;
}

}  // namespace
}  // namespace gpudoctor
