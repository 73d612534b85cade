// Unseen logs, session 39 review (B): Chinese-guide users on Windows, mostly PaddlePaddle.
// Each rule was written from where its message is printed:
// - cuDNN 8's sub-library loader ("Could not locate cudnn_ops_infer64_8.dll. Please make sure it is
//   in your library path!") in a Paddle log: Paddle's fix, not TensorFlow's pip/conda commands
//   (log-fact-paddle-log: Paddle's own paths and messages); the Microsoft Store Python
//   (WindowsApps\PythonSoftwareFoundation) as its cause where the log shows it (Paddle#52865).
// - Paddle's dynamic loader (paddle/phi/backends/dynload/dynamic_loader.cc GetDsoHandleFromSearchPath)
//   names every DLL it tried, `;`-separated (win_cublas_lib "cublas64_112.dll;cublas64_11.dll").
// - Paddle's `assert core.is_compiled_with_cuda(), "Not compiled with CUDA"` (fluid/framework.py
//   cuda_places) and paddle.set_device's "since PaddlePaddle is not compiled with CUDA".
// - pip's "(from versions: none)" for paddlepaddle(-gpu): no 32-bit wheels, a Python range per release
//   (`pip index versions paddlepaddle-gpu --platform win_amd64 --python-version 3.11`: 2.5.1 first).
// - A torch version ending in +cpu printed on its own line (the Tsinghua PyPI mirror's CPU wheel).
// - torch.utils.cpp_extension decoding a Chinese-language MSVC's output as UTF-8.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "explain/explain_session.hpp"
#include "explain_test_support.hpp"
#include "kb_test_support.hpp"

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

bool review39b_names_tensorflow(const std::string& text) {
  return mentions(text, "pip install tensorflow") || mentions(text, "TF <=") || mentions(text, "cudatoolkit=11.2");
}

// Log 01 (PaddlePaddle/Paddle#52865): Paddle 2.4.2 run_check on Windows.
const char* const kReview39bLog01 =
    ">>> import paddle\n"
    ">>> paddle.utils.run_check()\n"
    "Running verify PaddlePaddle program ...\n"
    "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!\n"
    "\n"
    "nvcc: NVIDIA (R) Cuda compiler driver\n"
    "Cuda compilation tools, release 11.6, V11.6.55\n";

TEST(ExplainReview39B, CudnnLoaderLineInPaddleLogGetsPaddlesFixNotTensorflows) {
  const auto r = explain_no_facts(kReview39bLog01);
  ASSERT_TRUE(leads_with(r, "cudnn-library-missing/paddle")) << told(r);
  EXPECT_FALSE(review39b_names_tensorflow(told(r))) << told(r);
  EXPECT_FALSE(mentions(told(r), "nvidia-cudnn-cu11")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.fix, {"paddlepaddle.org.cn", "bin", "PATH", "Microsoft Store"}));
  EXPECT_TRUE(mentions(lead.cause, "cudnn_ops_infer64_8.dll")) << lead.cause;

  // The Microsoft Store Python in the log: that is the cause.
  const auto store = explain_no_facts(
      std::string("  File \"C:\\Users\\me\\AppData\\Local\\Packages\\PythonSoftwareFoundation.Python.3.10_qbz5n2kfra8p0"
                  "\\LocalCache\\local-packages\\Python310\\site-packages\\paddle\\fluid\\framework.py\", line 1\n") +
      "C:\\Users\\me\\AppData\\Local\\Microsoft\\WindowsApps\\PythonSoftwareFoundation.Python.3.10_qbz5n2kfra8p0"
      "\\python.exe\n" +
      kReview39bLog01);
  ASSERT_TRUE(leads_with(store, "cudnn-library-missing/msstore-python")) << told(store);
  EXPECT_TRUE(says_all(store.matches.front().fix, {"python.org", "conda"}));
  EXPECT_FALSE(review39b_names_tensorflow(told(store))) << told(store);

  // A PyTorch log: PyTorch's wheels bring cuDNN; no TensorFlow command.
  const auto torch = explain_no_facts(
      "  File \"C:\\Users\\me\\venv\\lib\\site-packages\\torch\\nn\\modules\\conv.py\", line 456, in _conv_forward\n"
      "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!\n");
  ASSERT_TRUE(leads_with(torch, "cudnn-library-missing/pytorch")) << told(torch);
  EXPECT_FALSE(review39b_names_tensorflow(told(torch))) << told(torch);
  EXPECT_TRUE(mentions(torch.matches.front().fix, "download.pytorch.org")) << torch.matches.front().fix;

  // Near miss: a TensorFlow log keeps TensorFlow's command.
  const auto tf = explain_no_facts(
      "  File \"C:\\Users\\me\\anaconda3\\envs\\tf\\lib\\site-packages\\tensorflow\\python\\eager\\execute.py\", "
      "line 52\n"
      "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!\n");
  ASSERT_TRUE(leads_with(tf, "cudnn-library-missing")) << told(tf);
  EXPECT_TRUE(mentions(tf.matches.front().fix, "cudatoolkit=11.2")) << tf.matches.front().fix;
}

// Log 22 (PaddlePaddle/Paddle#38663): the loader names both cuBLAS DLLs it tried.
TEST(ExplainReview39B, PaddleLoaderMessageWithSeveralDllNamesIsRecognisedForEveryCudaLibrary) {
  const std::string log22 =
      "- 问题描述：The third-party dynamic library (cublas64_112.dll;cublas64_11.dll) that Paddle depends on is not "
      "configured correctly. (error code is 126)\n";
  const auto r = explain_no_facts(log22);
  ASSERT_TRUE(leads_with(r, "paddle-library-not-loaded")) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(mentions(lead.cause, "cublas64_112.dll")) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"PATH", "restart", "CUDA"}));
  EXPECT_FALSE(mentions(told(r), "LD_LIBRARY_PATH")) << told(r);
  for (const char* lib : {"cufft64_112.dll;cufft64_11.dll;cufft64_10.dll", "curand64_102.dll;curand64_10.dll",
                          "cusolver64_116.dll;cusolver64_11.dll;cusolver64_10.dll", "cudart64_110.dll"}) {
    const auto o = explain_no_facts(std::string("The third-party dynamic library (") + lib +
                                    ") that Paddle depends on is not configured correctly. (error code is 126)\n");
    EXPECT_TRUE(leads_with(o, "paddle-library-not-loaded")) << lib;
  }
  // Near miss: the cuDNN DLL keeps its own rule, with no Linux file name on Windows (log 23).
  const auto cudnn = explain_no_facts(
      "RuntimeError: (PreconditionNotMet) The third-party dynamic library (cudnn64_7.dll) that Paddle depends on is "
      "not configured correctly. (error code is 126)\n");
  ASSERT_TRUE(leads_with(cudnn, "paddle-cudnn-not-loaded")) << rule_list(cudnn);
  EXPECT_FALSE(mentions(told(cudnn), "libcudnn.so")) << told(cudnn);
  EXPECT_TRUE(mentions(cudnn.matches.front().cause, "cuDNN 7")) << cudnn.matches.front().cause;
}

// Log 02 (PaddlePaddle/Paddle#24581): a CPU paddlepaddle asked for CUDA places.
TEST(ExplainReview39B, PaddleNotCompiledWithCudaIsTheCpuPackage) {
  const std::string log02 =
      "  File \"E:\\software\\program\\Python37\\lib\\site-packages\\paddle\\fluid\\framework.py\", line 314, in "
      "cuda_places\n"
      "    \"Not compiled with CUDA\"\n"
      "AssertionError: Not compiled with CUDA\n";
  for (const std::string& log :
       {log02, std::string("AssertionError: Not compiled with CUDA\n"),
        std::string("ValueError: The device should not be gpu:0, since PaddlePaddle is not compiled with CUDA\n")}) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "paddle-not-compiled-with-cuda")) << log;
    EXPECT_TRUE(says_all(r.matches.front().fix, {"pip uninstall", "paddlepaddle-gpu"}));
    EXPECT_FALSE(mentions(told(r), "download.pytorch.org")) << told(r);
  }
  // Near miss: PyTorch's wording keeps PyTorch's rule.
  EXPECT_TRUE(leads_with(explain_no_facts("AssertionError: Torch not compiled with CUDA enabled\n"),
                         "torch-not-compiled-with-cuda"));
}

// Logs 25 (Paddle#65320) and 26 (Paddle#54995): pip found no paddlepaddle wheel at all.
TEST(ExplainReview39B, PipFindsNoPaddleWheelForThisPython) {
  const std::string log25 =
      "python -m pip install paddlepaddle==2.6.1 -i https://pypi.tuna.tsinghua.edu.cn/simple\n"
      "\n"
      "ERROR: Could not find a version that satisfies the requirement paddlepaddle-gpu==2.6.1 (from versions: none)\n"
      "ERROR: No matching distribution found for paddlepaddle-gpu==2.6.1\n";
  const std::string log26 =
      "Looking in indexes: https://pypi.tuna.tsinghua.edu.cn/simple\n"
      "ERROR: Could not find a version that satisfies the requirement paddlepaddle-gpu==2.4.2 (from versions: none)\n"
      "ERROR: No matching distribution found for paddlepaddle-gpu==2.4.2\n";
  for (const std::string& log : {log25, log26}) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "pip-no-paddle-wheel")) << rule_list(r);
    EXPECT_TRUE(says_all(r.matches.front().cause, {"64-bit", "3.11", "2.5.1"}));
    EXPECT_TRUE(says_all(r.matches.front().fix, {"struct.calcsize", "paddlepaddle.org.cn"}));
    EXPECT_FALSE(mentions(told(r), "conda create -n tf")) << told(r);
  }
  // Near miss: torch keeps the general rule.
  const auto t = explain_no_facts(
      "ERROR: Could not find a version that satisfies the requirement torch==2.0.0 (from versions: none)\n");
  EXPECT_TRUE(leads_with(t, "pip-no-matching-framework")) << rule_list(t);
}

// Log 28 (pytorch/pytorch#33654): the 0.1.2 list is what PyPI offers a 32-bit Windows Python.
TEST(ExplainReview39B, TorchVersionListOfOnlyZeroOneTwoMeansThirtyTwoBitPython) {
  const auto r = explain_no_facts(
      "pip install torch===1.4.0 torchvision===0.5.0 -f https://download.pytorch.org/whl/torch_stable.html\n"
      "Looking in links: https://download.pytorch.org/whl/torch_stable.html\n"
      "ERROR: Could not find a version that satisfies the requirement torch===1.4.0 (from versions: 0.1.2, "
      "0.1.2.post1, 0.1.2.post2)\n"
      "ERROR: No matching distribution found for torch===1.4.0\n");
  ASSERT_TRUE(leads_with(r, "pip-torch-32bit-python")) << rule_list(r);
  EXPECT_EQ(testing::problem_count(r), 1u) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().cause, {"32-bit"}));
  EXPECT_TRUE(says_all(r.matches.front().fix, {"64-bit", "struct.calcsize"}));
  EXPECT_FALSE(mentions(told(r), "-n tf ")) << told(r);
  EXPECT_FALSE(mentions(told(r), "python=3.11")) << told(r);
  // Near miss: a list with real releases is the general rule.
  const auto other = explain_no_facts(
      "ERROR: Could not find a version that satisfies the requirement torch==1.4.0 (from versions: 1.13.0, 1.13.1, "
      "2.0.0)\n");
  EXPECT_TRUE(leads_with(other, "pip-no-matching-framework")) << rule_list(other);
  EXPECT_FALSE(mentions(told(other), "-n tf ")) << told(other);
}

// Log 08 (Lordog/dive-into-llms#11): the REPL printed False and a +cpu version.
TEST(ExplainReview39B, TorchVersionEndingInCpuIsACpuBuild) {
  const auto r = explain_no_facts(
      "pip config set global.index-url https://pypi.tuna.tsinghua.edu.cn/simple\n"
      "pip install -r requirements.txt\n"
      "\n"
      ">>> import torch\n"
      ">>> print(torch.cuda.is_available())\n"
      "False\n"
      ">>> print(torch.__version__)\n"
      "2.3.1+cpu\n");
  ASSERT_TRUE(leads_with(r, "torch-cpu-build-version")) << rule_list(r);
  EXPECT_EQ(testing::problem_count(r), 1u) << rule_list(r);
  EXPECT_FALSE(mentions(told(r), "is a CUDA build")) << told(r);
  EXPECT_TRUE(says_all(r.matches.front().cause, {"CPU-only", "mirror"}));
  EXPECT_TRUE(mentions(r.matches.front().fix, "download.pytorch.org/whl/cu")) << r.matches.front().fix;
  // Near miss: a CUDA build's version is no such answer.
  const auto cu = explain_no_facts(">>> print(torch.__version__)\n2.3.1+cu121\n");
  EXPECT_EQ(find_rule(cu, "torch-cpu-build-version"), nullptr) << rule_list(cu);
}

// Log 12 (OpenPPL/ppq#85): a Chinese Visual Studio's output decoded as UTF-8.
TEST(ExplainReview39B, Utf8DecodeErrorInAnMsvcExtensionBuildIsTheChineseCompilerOutput) {
  const std::string log12 =
      "'utf-8' codec can't decode byte 0xb4 in position 2833\n"
      "\n"
      "您好，我在我自己带GPU的电脑试了一下，发现在ppq\\core\\ffi.py第28行，报错这个'utf-8' codec can't decode byte "
      "0xb4 in position 2833\n"
      "\n"
      "我用的是visual studio 2019\n";
  const std::string warning =
      "C:\\Python39\\lib\\site-packages\\torch\\utils\\cpp_extension.py:287: UserWarning: Error checking compiler "
      "version for cl: 'utf-8' codec can't decode byte 0xd3 in position 0: invalid continuation byte\n";
  for (const std::string& log : {log12, warning}) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "msvc-output-not-utf8")) << rule_list(r);
    EXPECT_TRUE(says_all(r.matches.front().fix, {"English", "language pack", "VSLANG=1033"}));
  }
  // Near miss: a decode error with no compiler around it is not this.
  const auto plain = explain_no_facts(
      "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xb4 in position 2833: invalid start byte\n");
  EXPECT_EQ(find_rule(plain, "msvc-output-not-utf8"), nullptr) << rule_list(plain);
}

// Log 21 (PaddlePaddle/Paddle#45112): error 193 after Paddle's older-cuDNN warning.
TEST(ExplainReview39B, Error193AfterPaddlesOlderCudnnWarningLeadsWithTheMixedCudnn) {
  const auto r = explain_no_facts(
      "W0814 15:01:53.073433 31504 gpu_resources.cc:61] Please NOTE: device: 0, GPU Compute Capability: 8.6, Driver "
      "API Version: 11.6, Runtime API Version: 11.6\n"
      "W0814 15:01:53.080451 31504 gpu_resources.cc:91] device: 0, cuDNN Version: 8.3.\n"
      "W0814 15:01:53.702119 31504 gpu_resources.cc:201] WARNING: device: . The installed Paddle is compiled with "
      "CUDNN 8.4, but CUDNN version in your machine is 8.3, which may cause serious incompatible bug. Please "
      "recompile or reinstall Paddle with compatible CUDNN version.\n"
      "Could not load library cudnn_cnn_infer64_8.dll. Error code 193\n");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "cudnn-version-mismatch") << rule_list(r);
  EXPECT_TRUE(mentions(r.matches.front().rule, "paddle-cudnn-older-than-build")) << rule_list(r);
  EXPECT_FALSE(mentions(told(r), "LD_LIBRARY_PATH")) << told(r);
  // Near miss: error 193 alone keeps the 64-bit check first.
  EXPECT_TRUE(leads_with(explain_no_facts("Could not load library cudnn_cnn_infer64_8.dll. Error code 193\n"),
                         "windows-dll-bad-format"));
}

/// As `--no-probe` with the built-in knowledge base (which TensorFlow releases had Windows GPU support).
ExplainReport review39b_explain_with_kb(std::string_view text) {
  ExplainMachine machine;
  machine.kb = &testing::builtin_kb();
  return explain_text(testing::builtin_matcher(), text, machine);
}

// Log 05 (tensorflow/tensorflow#64536): the issue template names TF 2.16 and win10.
TEST(ExplainReview39B, EmptyGpuListWithWindowsAndNewTensorflowLeadsWithNoNativeWindowsGpu) {
  const auto r = review39b_explain_with_kb(
      "TensorFlow version: tf 2.16\n"
      "OS platform and distribution: win10\n"
      "Python version: 3.11\n"
      "On this environment Pytorch's gpu is available, but tensorflow==2.16 can't utilize the gpu.\n"
      "\n"
      "import tensorflow as tf\n"
      "print(\"GPU Available: \", tf.config.list_physical_devices('GPU'))\n");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().rule, "tf-empty-gpu-list/windows") << rule_list(r);
  // Near miss: TF 2.10 on Windows keeps the library path first.
  const auto old = review39b_explain_with_kb(
      "TensorFlow version: tf 2.10\n"
      "OS platform and distribution: win10\n"
      "print(tf.config.list_physical_devices('GPU'))  # prints []\n");
  ASSERT_FALSE(old.matches.empty());
  EXPECT_EQ(old.matches.front().rule, "tf-empty-gpu-list") << rule_list(old);
}

// Log 18 (PaddlePaddle/PaddleDetection#8493): a native-Windows log gets no container cause.
TEST(ExplainReview39B, InsufficientDriverOnAWindowsLogHasNoContainerCause) {
  const std::string line =
      "OSError: (External) CUDA error(35), CUDA driver version is insufficient for CUDA runtime version.\n";
  const auto win = explain_no_facts(
      "  File \"F:\\PaddleDetection-release-2.6\\deploy\\python\\infer.py\", line 1084, in <module>\n"
      "  File \"C:\\Users\\me\\anaconda3\\lib\\site-packages\\paddle\\inference\\__init__.py\", line 1\n" +
      line);
  ASSERT_TRUE(leads_without(win, "cuda-driver-insufficient", {"cuda-driver-insufficient/container-without-gpu"}));
  // Near miss: a log that does not say its platform keeps the container cause.
  const auto bare = explain_no_facts(line);
  EXPECT_NE(find_rule(bare, "cuda-driver-insufficient/container-without-gpu"), nullptr) << rule_list(bare);
}

}  // namespace
}  // namespace gpudoctor
