// Errors of the user's own program on a working GPU stack (data/explain/program-errors.toml),
// and PyTorch's "GET/FIND was unable to find an engine", whose cause the message hides
// (data/explain/cudnn.toml). The lines are real ones pasted in public issues and notes (named
// per test); the causes come from where PyTorch raises them.
#include <gtest/gtest.h>

#include <string>

#include "core/text.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::builtin_kb;
using testing::builtin_matcher;
using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

// Before, the first line was answered as "A CUDA error raised by the program's own kernels" with
// CUDA_LAUNCH_BLOCKING=1 as the fix (it is not a CUDA error: ATen refuses before launching
// anything), and the others got no answer at all.
TEST(ExplainProgramErrors, TensorsOnTwoDevicesNameBothDevicesAndTheMove) {
  struct Case {
    const char* line;
    const char* device_a;
    const char* device_b;
  };
  for (const Case& c : {
           // a note on NeuralRecon-W (the line as cut off in the paste)
           Case{"RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and "
                "cuda:0! (when checking argument for argument index in method wrapper__index_selec",
                "cpu", "cuda:0"},
           // a T4 x2 notebook: HF Trainer wrapped the model in DataParallel
           Case{"`Expected all tensors to be on the same device, but got index is on cuda:1,", "", ""},
           Case{"RuntimeError: Expected all tensors to be on the same device, but got index is on cuda:0, different "
                "from other tensors on cpu (when checking argument in method wrapper_CUDA__index_select)",
                "cuda:0", "cpu"},
           // torch.nn.Conv2d via Python, and the same check through tch-rs (C++ type names)
           Case{"RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the "
                "same or input should be a MKLDNN tensor and weight is a dense tensor",
                "torch.FloatTensor", "torch.cuda.FloatTensor"},
           Case{"called `Result::unwrap()` on an `Err` value: Torch(\"Input type (CPUFloatType) and weight type "
                "(CUDAFloatType) should be the same or input should be a MKLDNN tensor and weight is a dense tensor",
                "CPUFloatType", "CUDAFloatType"},
       }) {
    const auto r = explain_no_facts(c.line);
    ASSERT_TRUE(leads_with(r, "torch-tensors-on-different-devices")) << c.line;
    const auto& m = r.matches.front();
    EXPECT_EQ(m.category, "other");
    EXPECT_TRUE(contains(m.cause, "The GPU stack works")) << m.cause;
    if (*c.device_a != '\0') {
      EXPECT_TRUE(contains(m.cause, std::string("(") + c.device_a + " and " + c.device_b + ")")) << m.cause;
    }
    EXPECT_TRUE(contains(m.fix, "x = x.to(device)")) << m.fix;
    EXPECT_FALSE(contains(m.fix, "CUDA_LAUNCH_BLOCKING")) << m.fix;
    EXPECT_EQ(find_rule(r, "torch-cuda-errors-in-user-code"), nullptr) << c.line;
  }
  // A line cut before the devices still gets the answer, without an empty "( and )".
  const auto cut = explain_no_facts("RuntimeError: Expected all tensors to be on the same device, but found at");
  ASSERT_TRUE(leads_with(cut, "torch-tensors-on-different-devices"));
  EXPECT_FALSE(contains(cut.matches.front().cause, "( and")) << cut.matches.front().cause;
}

TEST(ExplainProgramErrors, TheOldArgumentChecksAndDataParallelAreTheSameAnswer) {
  for (const char* line : {
           "RuntimeError: Expected object of device type cuda but got device type cpu for argument #1 'self' in call "
           "to _th_addmm",
           "RuntimeError: Tensor for argument #2 'mat1' is on CPU, but expected it to be on GPU (while checking "
           "arguments for addmm)",
           "RuntimeError: module must have its parameters and buffers on device cuda:0 (device_ids[0]) but found one "
           "of them on device: cpu",
       }) {
    EXPECT_TRUE(leads_with(explain_no_facts(line), "torch-tensors-on-different-devices")) << line;
  }
}

// Mixed precision by hand. The bias form is a real paste (a Persian-language project log); a
// 32-bit-only dtype mismatch ("expected scalar type Long but found Float": a loss target) is
// another problem and must not get the mixed-precision answer.
TEST(ExplainProgramErrors, HalfAgainstFloatIsMixedPrecisionAndLongAgainstFloatIsNot) {
  for (const char* line : {
           "**مشکل:** `Input type (float) and bias type (c10::Half) should be the same`",
           "RuntimeError: Input type (torch.cuda.HalfTensor) and weight type (torch.cuda.FloatTensor) should be the "
           "same",
           "RuntimeError: expected mat1 and mat2 to have the same dtype, but got: float != c10::Half",
           "RuntimeError: expected scalar type BFloat16 but found Float",
       }) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "torch-mixed-precision-dtype-mismatch")) << line;
    EXPECT_TRUE(contains(r.matches.front().fix, "torch.autocast")) << r.matches.front().fix;
    EXPECT_EQ(find_rule(r, "torch-tensors-on-different-devices"), nullptr) << line;
  }
  const auto target = explain_no_facts("RuntimeError: expected scalar type Long but found Float");
  EXPECT_EQ(find_rule(target, "torch-mixed-precision-dtype-mismatch"), nullptr);
  const auto doubles = explain_no_facts(
      "RuntimeError: Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor) should be the same");
  EXPECT_EQ(find_rule(doubles, "torch-mixed-precision-dtype-mismatch"), nullptr);
}

TEST(ExplainProgramErrors, ACudaTensorHandedToNumpy) {
  const auto r = explain_no_facts(
      "TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host "
      "memory first.");
  ASSERT_TRUE(leads_with(r, "torch-cuda-tensor-to-numpy"));
  EXPECT_TRUE(contains(r.matches.front().cause, "cuda:0")) << r.matches.front().cause;
}

// --- GET / FIND was unable to find an engine ---

PythonEnvFacts torch_env_with_cudnn_wheel(const char* wheel_version) {
  PythonEnvFacts env;
  env.path = "/home/u/venv";
  env.python_version = Version::parse("3.12.3");
  FrameworkFacts torch;
  torch.name = "torch";
  torch.package = "torch";
  torch.version = *Version::parse("2.12.1+cu130");
  torch.cuda_build = true;
  env.frameworks.push_back(torch);
  env.nvidia_wheels.push_back(NvidiaWheel{"nvidia-cudnn-cu13", *Version::parse(wheel_version), "cudnn", 13});
  return env;
}

LibraryFacts loader_cudnn(const char* version, std::optional<int> loader_order) {
  LibraryFacts l;
  l.name = "cudnn";
  l.version = Version::parse(version);
  l.path = "/usr/local/cuda/lib64";
  l.files = {"libcudnn.so.9"};
  l.origin = "ld-library-path";
  l.loader_order = loader_order;
  return l;
}

// pytorch#188892 (torch 2.12.1+cu130 with nvidia-cudnn-cu13 9.20.0.48 and a system cuDNN 9.23 on
// the loader path) and pytorch#102535 (LD_LIBRARY_PATH). With no facts the mixed cuDNN leads and
// the other two causes the source allows (out of memory, a data type or GPU without an engine)
// follow; the machine's facts then move the answer.
TEST(ExplainProgramErrors, NoEngineIsAMixedCudnnOnlyWhereTheMachineHasOne) {
  const std::string log = "RuntimeError: GET was unable to find an engine to execute this computation";
  const auto text = explain_no_facts(log);
  ASSERT_TRUE(leads_with(text, "torch-cudnn-no-engine"));
  EXPECT_NE(find_rule(text, "torch-cudnn-no-engine/memory"), nullptr);
  EXPECT_NE(find_rule(text, "torch-cudnn-no-engine/data-type-or-gpu"), nullptr);
  EXPECT_TRUE(leads_with(explain_no_facts("FIND was unable to find an engine to execute this computation"),
                         "torch-cudnn-no-engine"));

  // A system cuDNN 9.23 the loader finds, next to the wheel's 9.20: confirmed.
  Facts mixed;
  mixed.platform = Platform::linux;
  mixed.python_envs.push_back(torch_env_with_cudnn_wheel("9.20.0.48"));
  mixed.libraries.push_back(loader_cudnn("9.23.0", 0));
  const auto r = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, &mixed, &builtin_kb()});
  ASSERT_TRUE(leads_with(r, "torch-cudnn-no-engine"));
  EXPECT_EQ(r.matches.front().facts_verdict, "supported");

  // Only the wheel's cuDNN (or a copy of the same version): not mixed, so memory leads.
  Facts clean = mixed;
  clean.libraries.clear();
  const auto c = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, &clean, &builtin_kb()});
  EXPECT_TRUE(leads_with(c, "torch-cudnn-no-engine/memory"));
  Facts same = mixed;
  same.libraries = {loader_cudnn("9.20.0", 0)};
  const auto s = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, &same, &builtin_kb()});
  EXPECT_TRUE(leads_with(s, "torch-cudnn-no-engine/memory"));
}

TEST(ExplainConditions, CudnnLoaderMixNeedsTheSameMajorOnTheLoaderPathAndAnotherVersion) {
  const CaptureMap caps;
  Facts f;
  f.platform = Platform::linux;
  const ExplainMachine m{Platform::linux, &f, nullptr};
  EXPECT_EQ(evaluate_condition("cudnn-loader-mix", caps, m), Truth::unknown);  // no cuDNN wheel
  f.python_envs.push_back(torch_env_with_cudnn_wheel("9.20.0.48"));
  EXPECT_EQ(evaluate_condition("cudnn-loader-mix", caps, m), Truth::no);
  f.libraries = {loader_cudnn("9.23.0", 1)};
  EXPECT_EQ(evaluate_condition("cudnn-loader-mix", caps, m), Truth::yes);
  f.libraries = {loader_cudnn("9.23.0", std::nullopt)};  // a toolkit's copy the loader does not search
  EXPECT_EQ(evaluate_condition("cudnn-loader-mix", caps, m), Truth::no);
  f.libraries = {loader_cudnn("8.9.7", 0)};  // another major: another soname, nothing mixes
  EXPECT_EQ(evaluate_condition("cudnn-loader-mix", caps, m), Truth::no);
  f.libraries = {loader_cudnn("9.20.0", 0)};  // the same release as the wheel's
  EXPECT_EQ(evaluate_condition("cudnn-loader-mix", caps, m), Truth::no);
}

// torch/backends/cudnn/__init__.py (torch 2.10): a cuDNN of 9.11 or later with any GPU below
// compute capability 7.5 is refused, with no switch to skip it; and is_acceptable()'s warning for a
// build without cuDNN.
TEST(ExplainProgramErrors, CudnnRefusedForOldGpusAndABuildWithoutCudnn) {
  const auto r = explain_no_facts(
      "The log says Kokoro model failed on cuda: cuDNN version 91900 is not compatible with devices with SM < 7.5, "
      "then Wisp falls back to CPU.");
  ASSERT_TRUE(leads_with(r, "torch-cudnn-drops-gpu-below-sm75"));
  EXPECT_EQ(r.matches.front().category, "gpu-arch-unsupported");
  EXPECT_TRUE(contains(r.matches.front().cause, "91900")) << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().fix, "cu126")) << r.matches.front().fix;
  const auto w = explain_no_facts(
      "/opt/torch/nn/modules/conv.py:456: UserWarning: PyTorch was compiled without cuDNN/MIOpen support. To use "
      "cuDNN/MIOpen, rebuild PyTorch making sure the library is visible to the build system.");
  ASSERT_TRUE(leads_with(w, "torch-built-without-cudnn"));
  EXPECT_EQ(w.matches.front().severity, RuleSeverity::warning);
}

// A half-precision tensor in one of PyTorch's CPU kernels ("<op>_cpu" in the dispatch error):
// the GPU is not being used, which is the problem to explain.
TEST(ExplainProgramErrors, HalfPrecisionOnTheCpuSaysTheGpuIsNotUsed) {
  for (const char* line : {"RuntimeError: \"addmm_impl_cpu_\" not implemented for 'Half'",
                           "RuntimeError: \"slow_conv2d_cpu\" not implemented for 'Half'",
                           "RuntimeError: \"LayerNormKernelImpl\" not implemented for 'BFloat16'"}) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "torch-half-on-cpu")) << line;
    EXPECT_NE(r.matches.front().fix.find("torch.cuda.is_available()"), std::string::npos);
  }
  // A CUDA kernel's name is another problem (a dtype that kernel lacks), not the CPU.
  const auto cuda = explain_no_facts("RuntimeError: \"baddbmm_with_gemm\" not implemented for 'Half'");
  EXPECT_EQ(find_rule(cuda, "torch-half-on-cpu"), nullptr);
}

TEST(ExplainProgramErrors, HalfOnTheCpuWithACpuOnlyBuildLeadsWithTheBuild) {
  const auto r = explain_no_facts(
      "PyTorch version: 2.1.0+cpu\n"
      "RuntimeError: \"addmm_impl_cpu_\" not implemented for 'Half'\n");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "wrong-framework-build") << r.matches.front().rule;
}

TEST(ExplainProgramErrors, ACheckpointFromAnotherGpuIsMappedNotReinstalled) {
  const auto r = explain_no_facts(
      "RuntimeError: Attempting to deserialize object on CUDA device 3 but torch.cuda.device_count() is 1. Please "
      "use torch.load with map_location to map your storages to an existing device.\n");
  ASSERT_TRUE(leads_with(r, "torch-load-missing-device"));
  EXPECT_NE(r.matches.front().cause.find("cuda:3"), std::string::npos) << r.matches.front().cause;
  EXPECT_NE(r.matches.front().fix.find("map_location='cuda:0'"), std::string::npos);
}

// ATen's CUDA kernels check their indices with CUDA_KERNEL_ASSERT, which prints the failed
// condition per thread before "device-side assert triggered": the condition says which mistake.
TEST(ExplainProgramErrors, NllLossAssertIsAClassLabelOutOfRange) {
  const auto r = explain_no_facts(
      "../aten/src/ATen/native/cuda/Loss.cu:240: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: "
      "[0,0,0] Assertion `t >= 0 && t < n_classes` failed.\n"
      "RuntimeError: CUDA error: device-side assert triggered\n");
  ASSERT_TRUE(leads_with(r, "torch-class-label-out-of-range"));
  EXPECT_TRUE(contains(r.matches.front().fix, "ignore_index")) << r.matches.front().fix;
  EXPECT_NE(find_rule(r, "torch-cuda-errors-in-user-code"), nullptr);
}

TEST(ExplainProgramErrors, IndexAssertIsAnIndexBeyondTheTensor) {
  for (const char* line :
       {"/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:93: operator(): block: [0,0,0], thread: [25,0,0] "
        "Assertion `-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed.\n",
        "../aten/src/ATen/native/cuda/IndexKernel.cu:91: operator(): block: [5,0,0], thread: [105,0,0] Assertion "
        "`index >= -sizes[i] && index < sizes[i] && \"index out of bounds\"` failed.\n",
        "../aten/src/ATen/native/cuda/Indexing.cu:1093: indexSelectSmallIndex: block: [0,0,0], thread: [0,0,0] "
        "Assertion `srcIndex < srcSelectDimSize` failed.\n"}) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "torch-index-out-of-range")) << line;
    EXPECT_TRUE(contains(r.matches.front().fix, "resize_token_embeddings")) << r.matches.front().fix;
  }
}

TEST(ExplainProgramErrors, BinaryCrossEntropyAssertIsAnInputOutsideZeroToOne) {
  const auto r = explain_no_facts(
      "../aten/src/ATen/native/cuda/Loss.cu:94: operator(): block: [0,0,0], thread: [0,0,0] Assertion "
      "`input_val >= zero && input_val <= one` failed.\n");
  ASSERT_TRUE(leads_with(r, "torch-bce-input-out-of-range"));
  EXPECT_TRUE(contains(r.matches.front().fix, "BCEWithLogitsLoss")) << r.matches.front().fix;
}

}  // namespace
}  // namespace gpudoctor
