// Unseen logs, session 41 review (B): TensorFlow, Keras and conda-managed CUDA.
// - TF 1.x's integer cuDNN versions (major*1000 + minor*100 + patch): another major is no "minor
//   differs", and the fix names the version the log's numbers say (nicolov/segmentation_keras#32).
// - libcuda.so.1 missing while TensorFlow's diagnostics read a loaded kernel module
//   (conda-forge/tensorflow-feedstock#257).
// - "DNN library is not found" with nothing else: the cuDNN mismatch is named beside the memory
//   (apapiu/guided-diffusion-keras#8).
// - libcusolver.so.10: CUDA 10.1 to 11.0's cuSOLVER, TensorFlow 2.4's trap (kundajelab/chrombpnet#49).
// - conda's CPU build of PyTorch, a conda env without its CUDA runtime package, cudatoolkit not on
//   a channel, a Python conflict in conda's UnsatisfiableError (bioimage-io/core-bioimage-io-python#307,
//   pytorch/pytorch#4112, #58681, AIM-Harvard/pyradiomics#627).
#include <gtest/gtest.h>

#include <string>

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

// Log 04: TF <= 1.2 built with cuDNN 5.1, cuDNN 6.0 loaded.
TEST(ExplainReview41B, OldIntegerCudnnOfAnotherMajorIsNoMinorMismatch) {
  const auto r = explain_no_facts(
      "Epoch 1/20\n"
      "E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded runtime CuDNN library: 6021 (compatibility version "
      "6000) but source was compiled with 5105 (compatibility version 5100).  If using a binary install, upgrade your "
      "CuDNN library to match.  If building from sources, make sure the library loaded at runtime matches a "
      "compatible version specified during compile configuration.\n");
  ASSERT_TRUE(leads_without(r, "cudnn-runtime-major-differs-tf1", {"cudnn-runtime-minor-differs-from-build"}))
      << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"5.1", "6.0"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"cuDNN 5.1", "tensorflow-gpu==1.3"})) << lead.fix;
  EXPECT_FALSE(mentions(told(r), "7.0")) << told(r);
  EXPECT_FALSE(mentions(told(r), "later TensorFlow releases accept")) << told(r);
}

// Logs 02/03 (OK before): the same major, another minor keeps its answer, now with the log's numbers.
TEST(ExplainReview41B, OldIntegerCudnnOfTheSameMajorNamesTheBuildsMinor) {
  const auto r = explain_no_facts(
      "E tensorflow/stream_executor/cuda/cuda_dnn.cc:396] Loaded runtime CuDNN library: 7102 (compatibility version "
      "7100) but source was compiled with 7005 (compatibility version 7000).  If using a binary install, upgrade your "
      "CuDNN library to match.\n");
  ASSERT_TRUE(leads_with(r, "cudnn-runtime-minor-differs-from-build")) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(mentions(lead.fix, "7005 is 7.0.5, so any 7.0.x")) << lead.fix;
  EXPECT_FALSE(mentions(lead.fix, "7004")) << lead.fix;
  // Another build minor: the numbers follow the log, not a fixed example.
  const auto r2 = explain_no_facts(
      "Loaded runtime CuDNN library: 7201 (compatibility version 7200) but source was compiled with 7102 "
      "(compatibility version 7100).\n");
  ASSERT_TRUE(leads_with(r2, "cudnn-runtime-minor-differs-from-build")) << rule_list(r2);
  EXPECT_TRUE(mentions(r2.matches.front().fix, "7102 is 7.1.2, so any 7.1.x")) << r2.matches.front().fix;
  // Near miss: an older loaded cuDNN stays the older-than-build answer.
  const auto older = explain_no_facts(
      "E tensorflow/stream_executor/cuda/cuda_dnn.cc:363] Loaded runtime CuDNN library: 7005 (compatibility version "
      "7000) but source was compiled with 7102 (compatibility version 7100).\n");
  EXPECT_EQ(find_rule(older, "cudnn-runtime-major-differs-tf1"), nullptr) << rule_list(older);
  EXPECT_EQ(find_rule(older, "cudnn-runtime-minor-differs-from-build"), nullptr) << rule_list(older);
}

// Log 15: the kernel module is loaded (TensorFlow read its version), the user-space driver is not.
TEST(ExplainReview41B, LibcudaMissingWithALoadedKernelModuleIsTheUserSpaceDriver) {
  const std::string log =
      "$ python3 -c \"import tensorflow as tf; print(tf.config.list_physical_devices('GPU'))\"\n"
      "2022-07-07 15:53:15.984325: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load "
      "dynamic library 'libcuda.so.1'; dlerror: libcuda.so.1: cannot open shared object file: No such file or "
      "directory\n"
      "2022-07-07 15:53:15.984343: W tensorflow/stream_executor/cuda/cuda_driver.cc:269] failed call to cuInit: "
      "UNKNOWN ERROR (303)\n"
      "2022-07-07 15:53:15.984355: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:169] retrieving CUDA "
      "diagnostic information for host: bekolay\n"
      "2022-07-07 15:53:15.984358: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:176] hostname: bekolay\n"
      "2022-07-07 15:53:15.984388: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:200] libcuda reported "
      "version is: NOT_FOUND: was unable to find libcuda.so DSO loaded into this program\n"
      "2022-07-07 15:53:15.984409: I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:204] kernel reported "
      "version is: 460.91.3\n"
      "[]\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "libcuda-missing/user-space")) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"kernel module is loaded", "kernel reported version is", "user-space"}))
      << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"libnvidia-compute-", "ldconfig -p | grep libcuda.so.1"})) << lead.fix;
  EXPECT_FALSE(mentions(lead.fix, "then reboot")) << lead.fix;
  EXPECT_EQ(find_rule(r, "libcuda-missing"), nullptr) << rule_list(r);
  // The XLA diagnostic line and cuInit's 303 from the CUDA stub say the same.
  EXPECT_EQ(find_rule(r, "xla-libcuda-not-loaded"), nullptr) << rule_list(r);
  EXPECT_EQ(find_rule(r, "code/cuda-driver/CUDA_ERROR_SHARED_OBJECT_INIT_FAILED"), nullptr) << rule_list(r);
  EXPECT_FALSE(mentions(told(r), "then reboot")) << told(r);
  // TensorFlow's dso_loader named a Linux library: no native-Windows answer.
  EXPECT_EQ(find_rule(r, "tf-empty-gpu-list/windows"), nullptr) << rule_list(r);
  // Near miss: without the kernel's version the driver is missing altogether.
  const auto bare = explain_no_facts(
      "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library "
      "'libcuda.so.1'; dlerror: libcuda.so.1: cannot open shared object file: No such file or directory\n");
  ASSERT_TRUE(leads_with(bare, "libcuda-missing")) << rule_list(bare);
  EXPECT_EQ(find_rule(bare, "libcuda-missing/user-space"), nullptr) << rule_list(bare);
}

// Log 11: TF 2.8's three lines with nothing about memory.
TEST(ExplainReview41B, DnnLibraryNotFoundAloneNamesTheCudnnMismatchFirst) {
  const auto r = explain_no_facts(
      "Node: 'residual_unet/conv2d/Conv2D'\n"
      "DNN library is not found.\n"
      "\t [[{{node residual_unet/conv2d/Conv2D}}]] [Op:__inference_predict_function_9480]\n");
  ASSERT_TRUE(leads_with(r, "dnn-library-not-found/tensorflow")) << rule_list(r);
  const auto& lead = r.matches.front();
  // The mismatch comes before the memory in what the user is told first.
  const auto mismatch = lead.cause.find("not the one");
  const auto memory = lead.cause.find("GPU memory");
  ASSERT_NE(mismatch, std::string::npos) << lead.cause;
  ASSERT_NE(memory, std::string::npos) << lead.cause;
  EXPECT_LT(mismatch, memory) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"libcudnn", "tested build", "TF_FORCE_GPU_ALLOW_GROWTH=true"})) << lead.fix;
}

// Log 13: TF 2.4 (CUDA 11.0) on CUDA 11.1+, which has libcusolver.so.11 only.
TEST(ExplainReview41B, Cusolver10IsCuda11ZerosAndTensorflow24sTrap) {
  const auto r = explain_no_facts(
      "\xE2\x80\x9C"
      "Could not load dynamic library \xE2\x80\x98libcusolver.so.10\xE2\x80\x99; \n"
      "dlerror: libcusolver.so.10: cannot open shared object file: No such file or directory\xE2\x80\x9D\n");
  ASSERT_TRUE(leads_without(r, "cusolver10-missing", {"cuda-library-missing"})) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"CUDA 11.0", "libcusolver.so.11", "TensorFlow 2.4"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"tensorflow==2.5", "CUDA 11.0", "ln -s"})) << lead.fix;
  EXPECT_FALSE(mentions(told(r), "-cu11")) << told(r);
  // Near miss: cuSOLVER 11 keeps the general answer.
  const auto other = explain_no_facts(
      "Could not load dynamic library 'libcusolver.so.11'; dlerror: libcusolver.so.11: cannot open shared object "
      "file: No such file or directory\n");
  ASSERT_TRUE(leads_with(other, "cuda-library-missing")) << rule_list(other);
  EXPECT_EQ(find_rule(other, "cusolver10-missing"), nullptr) << rule_list(other);
}

// Log 07: conda's list shows the CPU build of PyTorch.
TEST(ExplainReview41B, CondaCpuBuildInTheLogLeadsOverNotCompiledWithCuda) {
  const auto r = explain_no_facts(
      "print(torch.cuda.get_device_name(0))\n"
      "...\n"
      "AssertionError: Torch not compiled with CUDA enabled\n"
      "cudatoolkit               11.7.0              ha6f8bbd_10    conda-forge\n"
      "pytorch                   1.12.1              py3.9_cpu_0    pytorch\n");
  ASSERT_TRUE(leads_without(r, "conda-pytorch-cpu-build", {"torch-not-compiled-with-cuda"})) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"cudatoolkit", "no CUDA build"})) << lead.cause;
  EXPECT_TRUE(mentions(lead.fix, "cudatoolkit=11.6 -c pytorch -c conda-forge")) << lead.fix;
  // Near miss: the assertion alone keeps its answer.
  const auto alone = explain_no_facts("AssertionError: Torch not compiled with CUDA enabled\n");
  EXPECT_TRUE(leads_with(alone, "torch-not-compiled-with-cuda")) << rule_list(alone);
}

// Log 18: a conda env's PyTorch 0.3 without the cudatoolkit package that brings libcudart.so.8.0.
TEST(ExplainReview41B, CondaEnvMissingItsCudaRuntimePackageGetsConda) {
  const auto r = explain_no_facts(
      "Traceback (most recent call last):\n"
      "  File \"/home/XXX/.PyCharmCE2017.1/config/scratches/scratch.py\", line 1, in <module>\n"
      "    import torch\n"
      "  File \"/home/XXX/anaconda3/lib/python3.6/site-packages/torch/__init__.py\", line 56, in <module>\n"
      "    from torch._C import *\n"
      "ImportError: libcudart.so.8.0: cannot open shared object file: No such file or directory\n");
  ASSERT_TRUE(leads_with(r, "python-import-cuda-lib-version-missing/conda")) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"conda", "cudatoolkit"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"conda install", "cudatoolkit=8.0", "conda list"})) << lead.fix;
  EXPECT_FALSE(mentions(lead.fix, "--index-url")) << lead.fix;
  const auto* cudart = find_rule(r, "cudart-missing/conda");
  ASSERT_NE(cudart, nullptr) << rule_list(r);
  EXPECT_FALSE(cudart->alternative) << rule_list(r);
  // Near miss: a venv keeps the pip answer.
  const auto venv = explain_no_facts(
      "  File \"/home/u/venv/lib/python3.10/site-packages/torch/__init__.py\", line 56, in <module>\n"
      "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory\n");
  ASSERT_TRUE(leads_with(venv, "python-import-cuda-lib-version-missing")) << rule_list(venv);
  EXPECT_TRUE(mentions(venv.matches.front().fix, "--index-url")) << venv.matches.front().fix;
}

// Log 21: PyTorch 1.8's selector command asked the nvidia channel for cudatoolkit 11.1.
TEST(ExplainReview41B, CudatoolkitNotOnTheChannelsComesFromCondaForge) {
  const auto r = explain_no_facts(
      "PackagesNotFoundError: The following packages are not available from current channels:\n"
      "\n"
      "  - cudatoolkit=11.1\n");
  ASSERT_TRUE(leads_without(r, "conda-cudatoolkit-not-found", {"conda-package-unavailable"})) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"cudatoolkit 11.1", "nvidia"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"cudatoolkit=11.1 -c pytorch -c conda-forge", "pytorch-cuda"})) << lead.fix;
  EXPECT_FALSE(mentions(told(r), "python=3.11")) << told(r);
  // Near miss: an environment.yml listing the same line is no error.
  const auto yml = explain_no_facts(
      "dependencies:\n"
      "  - python=3.8\n"
      "  - cudatoolkit=11.1\n");
  EXPECT_EQ(find_rule(yml, "conda-cudatoolkit-not-found"), nullptr) << rule_list(yml);
}

// Log 08: conda says the Python conflict outright; the __cuda lines are its virtual package.
TEST(ExplainReview41B, CondaPythonConflictIsReadFromTheLog) {
  const auto r = explain_no_facts(
      "UnsatisfiableError: The following specifications were found\n"
      "to be incompatible with the existing python installation in your environment:\n"
      "\n"
      "Specifications:\n"
      "\n"
      "  - pyradiomics -> python[version='>=3.8,<3.9.0a0']\n"
      "\n"
      "Your python: python=3.7\n"
      "\n"
      "If python is on the left-most side of the chain, that's the version you've asked\n"
      " for.\n"
      "\n"
      "The following specifications were found to be incompatible with your CUDA driver\n"
      ":\n"
      "\n"
      "  - feature:/win-64::__cuda==9.1=0\n"
      "  - feature:|@/win-64::__cuda==9.1=0\n"
      "\n"
      "\n"
      "Your installed CUDA driver is: 9.1\n");
  ASSERT_TRUE(leads_without(r, "conda-python-version-conflict", {"conda-package-unavailable"})) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"pyradiomics", ">=3.8,<3.9.0a0", "3.7", "__cuda"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"python=3.8", "pip install pyradiomics"})) << lead.fix;
  EXPECT_FALSE(mentions(told(r), "python=3.11")) << told(r);
  // The general answer no longer names a Python of its own.
  const auto general =
      explain_no_facts("PackagesNotFoundError: The following packages are not available from current channels:\n");
  ASSERT_TRUE(leads_with(general, "conda-package-unavailable")) << rule_list(general);
  EXPECT_FALSE(mentions(told(general), "python=3.11")) << told(general);
}

}  // namespace
}  // namespace gpudoctor
