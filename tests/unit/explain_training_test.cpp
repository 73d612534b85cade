// Training-time failures (session 36 review): logs written from where each message is printed
// (the torch 2.5.1 wheel's strings and .py files, TensorFlow, XLA, DeepSpeed, the NVIDIA Xid
// catalog), answered wrongly or not at all before.
#include <gtest/gtest.h>

#include <string>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

/// Every candidate's cause and fix of the report, one string: what a reader is told.
std::string training_all_text(const ExplainReport& r) {
  std::string out;
  for (const auto& m : r.matches) out += m.cause + "\n" + m.fix + "\n";
  return out;
}

/// The number of answers (candidates that are not alternatives).
size_t training_answer_count(const ExplainReport& r) {
  size_t n = 0;
  for (const auto& m : r.matches) n += m.alternative ? 0 : 1;
  return n;
}

// OpKernelContext::allocate_temp/output: "OOM when allocating tensor with shape ... on <device
// name> by allocator <allocator name>"; the CPU device's allocator is "cpu" (oneDNN's "mklcpu"),
// cpu_allocator_impl.cc warns before it. Host memory, not the GPU's.
TEST(ExplainTraining, TensorflowOomOnTheCpuAllocatorIsHostMemory) {
  const auto r = explain_no_facts(
      "2023-11-20 09:12:40.221008: W tensorflow/tsl/framework/cpu_allocator_impl.cc:83] Allocation of "
      "45948117504 exceeds 10% of free system memory.\n"
      "Traceback (most recent call last):\n"
      "  File \"/c4/home/u/train.py\", line 77, in <module>\n"
      "    model.fit(X, y, epochs=20)\n"
      "tensorflow.python.framework.errors_impl.ResourceExhaustedError: Graph execution error:\n"
      "\n"
      "OOM when allocating tensor with shape[22436962,512] and type float on "
      "/job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu\n");
  ASSERT_TRUE(leads_with(r, "tf-oom/host-memory"));
  EXPECT_EQ(r.matches.size(), 1U) << training_all_text(r);
  EXPECT_EQ(training_all_text(r).find("GPU ran out"), std::string::npos);
  EXPECT_NE(r.matches.front().cause.find("host"), std::string::npos);
  // oneDNN's CPU allocator is the host too; the GPU's BFC allocator stays a GPU OOM.
  ASSERT_TRUE(leads_with(explain_no_facts("ResourceExhaustedError: OOM when allocating tensor with shape[64,4096,4096] "
                                          "and type float on /job:localhost/replica:0/task:0/device:CPU:0 by "
                                          "allocator mklcpu\n"),
                         "tf-oom/host-memory"));
  const auto gpu = explain_no_facts(
      "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with "
      "shape[32,512,512,64] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n");
  ASSERT_TRUE(leads_with(gpu, "tf-oom"));
  EXPECT_EQ(find_rule(gpu, "tf-oom/host-memory"), nullptr);
}

// c10/cuda/CUDACachingAllocator.cpp checks the size before anything else: "CUDA out of memory.
// Tried to allocate more than 1EB memory." (libc10_cuda.so, torch 2.5.1). No GPU has an exabyte.
TEST(ExplainTraining, TorchOomForMoreThanAnExabyteIsASizeBug) {
  const auto r = explain_no_facts(
      "    feats = torch.empty((batch, n_tokens, hidden), device=\"cuda\")\n"
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate more than 1EB memory.\n");
  ASSERT_TRUE(leads_with(r, "allocation-larger-than-any-gpu"));
  EXPECT_EQ(find_rule(r, "torch-cuda-oom"), nullptr);
  EXPECT_NE(r.matches.front().cause.find("more than 1EB"), std::string::npos);
}

// PyTorch's CUDABlasHandlePool: TORCH_CUDABLAS_CHECK(cublasCreate(&handle)) prints "CUDA error:
// CUBLAS_STATUS_... when calling `cublasCreate(handle)`" (libtorch_cuda.so). A PyTorch answer,
// with no TensorFlow advice and no assertion the log does not show.
TEST(ExplainTraining, PytorchCublasHandleFailureIsAPytorchMemoryAnswer) {
  for (const char* line :
       {"RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`",
        "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`"}) {
    const auto r = explain_no_facts(
        std::string(
            "  File \"/opt/venv/lib/python3.11/site-packages/torch/nn/modules/linear.py\", line 117, in forward\n"
            "    return F.linear(input, self.weight, self.bias)\n") +
        line + "\n");
    ASSERT_TRUE(leads_with(r, "torch-cublas-handle-failed")) << line;
    EXPECT_EQ(r.matches.size(), 1U) << training_all_text(r);
    EXPECT_EQ(training_all_text(r).find("TensorFlow"), std::string::npos) << line;
    EXPECT_EQ(training_all_text(r).find("assertion"), std::string::npos) << line;
    EXPECT_NE(r.matches.front().fix.find("empty_cache"), std::string::npos);
  }
}

// An alternative whose `when` needs a log event the log did not show is no reading of it: the
// TensorFlow "StreamExecutor without BLAS support" line has no assertion before it.
TEST(ExplainTraining, AlternativesNeedingAnEventTheLogDidNotShowAreNotListed) {
  const auto r = explain_no_facts(
      "InternalError: Attempting to perform BLAS operation using StreamExecutor without BLAS support [Op:MatMul]\n");
  ASSERT_TRUE(leads_with(r, "cublas-alloc-failed"));
  EXPECT_EQ(find_rule(r, "cublas-alloc-failed/after-device-assert"), nullptr);
  EXPECT_NE(find_rule(r, "cublas-alloc-failed/memory-growth"), nullptr);
}

// XLA's stream_executor/cuda/cuda_blas.cc (kCublasNotInitializedExplanation) as jaxlib builds it
// (external/xla/xla/...), after XLA_PYTHON_CLIENT_MEM_FRACTION=.99: JAX's memory settings, not
// TensorFlow's memory growth.
TEST(ExplainTraining, JaxCublasHandleFailureNamesJaxsMemorySettings) {
  const auto r = explain_no_facts(
      "$ XLA_PYTHON_CLIENT_MEM_FRACTION=.99 python train.py\n"
      "2024-01-09 10:11:12.001122: I external/xla/xla/pjrt/gpu/gpu_helpers.cc:105] XLA backend allocating "
      "83825950310 bytes on device 0 for BFCAllocator.\n"
      "2024-01-09 10:11:14.419001: E external/xla/xla/stream_executor/cuda/cuda_blas.cc:190] failed to create "
      "cublas handle: CUBLAS_STATUS_NOT_INITIALIZED\n"
      "2024-01-09 10:11:14.419102: E external/xla/xla/stream_executor/cuda/cuda_blas.cc:193] Failure to initialize "
      "cublas may be due to OOM (cublas needs some free memory when you initialize it, and your deep-learning "
      "framework may have preallocated more than its fair share), or may be because this binary was not built with "
      "support for the GPU in your machine.\n"
      "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: No BLAS support for stream\n");
  ASSERT_TRUE(leads_with(r, "jax-cublas-handle-failed"));
  EXPECT_EQ(find_rule(r, "cublas-alloc-failed"), nullptr);
  const std::string problems = r.matches.front().cause + r.matches.front().fix;
  EXPECT_NE(problems.find("XLA_PYTHON_CLIENT_MEM_FRACTION"), std::string::npos);
  EXPECT_NE(problems.find("XLA_PYTHON_CLIENT_PREALLOCATE=false"), std::string::npos);
  EXPECT_EQ(training_all_text(r).find("memory growth"), std::string::npos);
  EXPECT_EQ(training_all_text(r).find("assertion"), std::string::npos);
}

// cudaGetErrorString(cudaErrorECCUncorrectable): a hardware memory fault, not a version problem;
// with the driver's Xid for it in the log, one answer (the Xid's).
TEST(ExplainTraining, UncorrectableEccIsAHardwareFaultAndOneAnswerWithItsXid) {
  const auto r = explain_no_facts(
      "    loss.backward()\n"
      "RuntimeError: CUDA error: uncorrectable ECC error encountered\n"
      "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be "
      "incorrect.\n");
  ASSERT_TRUE(leads_with(r, "cuda-uncorrectable-ecc"));
  EXPECT_NE(r.matches.front().fix.find("nvidia-smi -q -d ECC"), std::string::npos);
  EXPECT_EQ(r.matches.front().fix.find("versions"), std::string::npos);
  const auto with_xid = explain_no_facts(
      "RuntimeError: CUDA error: uncorrectable ECC error encountered\n"
      "Mar 02 18:22:41 dgx07 kernel: NVRM: Xid (PCI:0000:83:00): 48, pid=20913, name=python, An uncorrectable double "
      "bit error (DBE) has been detected on GPU in the framebuffer at partition 2, subpartition 0.\n");
  ASSERT_TRUE(leads_with(with_xid, "xid-48-double-bit-ecc"));
  EXPECT_EQ(training_answer_count(with_xid), 1U);
  const auto xid95 = explain_no_facts(
      "[Fri Feb  7 07:41:02 2025] NVRM: Xid (PCI:0000:4e:00): 95, pid=2816, name=python3, Uncontained: LTC TAG "
      "(0x2,0x0). RST: Yes, D-RST: No\n"
      "RuntimeError: CUDA error: uncorrectable ECC error encountered\n");
  EXPECT_EQ(find_rule(xid95, "cuda-uncorrectable-ecc"), nullptr);
  EXPECT_EQ(find_rule(xid95, "code/cudart/cudaErrorECCUncorrectable"), nullptr);
}

// torch/amp/grad_scaler.py:133 and autocast_mode.py:267 (torch 2.5.1) warn and disable themselves
// when torch.cuda.is_available() is False: the run goes on, on the CPU.
TEST(ExplainTraining, AmpDisablingItselfWithoutCudaIsTrainingOnTheCpu) {
  const auto r = explain_no_facts(
      "/home/u/.venv/lib/python3.11/site-packages/torch/amp/grad_scaler.py:132: UserWarning: "
      "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.\n"
      "  warnings.warn(\n"
      "/home/u/.venv/lib/python3.11/site-packages/torch/amp/autocast_mode.py:266: UserWarning: User provided "
      "device_type of 'cuda', but CUDA is not available. Disabling\n"
      "Epoch 1/10:   0%|          | 3/6250 [00:41<23:51:07, 13.75s/it, loss=6.91]\n");
  ASSERT_TRUE(leads_with(r, "torch-amp-without-cuda"));
  EXPECT_EQ(r.matches.front().severity, RuleSeverity::error);
  EXPECT_FALSE(r.matches.front().harmless);
  EXPECT_EQ(training_answer_count(r), 1U);
  EXPECT_NE(r.matches.front().cause.find("CPU"), std::string::npos);
}

// torch/_inductor/exc.py InvalidCxxCompiler: "No working C++ compiler found in
// torch._inductor.config.cpp.cxx: (None, 'g++')" (cpp_builder.py cpp_compiler_search).
TEST(ExplainTraining, InductorWithoutACxxCompilerNamesTheCompiler) {
  const auto r = explain_no_facts(
      "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
      "InvalidCxxCompiler: No working C++ compiler found in torch._inductor.config.cpp.cxx: (None, 'g++')\n");
  ASSERT_TRUE(leads_with(r, "inductor-no-cxx-compiler"));
  EXPECT_NE(r.matches.front().fix.find("CXX"), std::string::npos);
  EXPECT_NE(r.matches.front().cause.find("g++"), std::string::npos);
}

// torch/amp/grad_scaler.py:260 and :455 (torch 2.5.1).
TEST(ExplainTraining, GradScalerMisuseIsNamed) {
  const auto fp16 = explain_no_facts(
      "    raise ValueError(\"Attempting to unscale FP16 gradients.\")\n"
      "ValueError: Attempting to unscale FP16 gradients.\n");
  ASSERT_TRUE(leads_with(fp16, "gradscaler-fp16-parameters"));
  EXPECT_EQ(training_answer_count(fp16), 1U);
  EXPECT_NE(fp16.matches.front().fix.find("autocast"), std::string::npos);
  const auto no_inf = explain_no_facts(
      "    len(optimizer_state[\"found_inf_per_device\"]) > 0\n"
      "AssertionError: No inf checks were recorded for this optimizer.\n");
  ASSERT_TRUE(leads_with(no_inf, "gradscaler-no-gradients"));
  EXPECT_NE(no_inf.matches.front().cause.find("gradient"), std::string::npos);
}

// deepspeed/runtime/fp16/loss_scaler.py DynamicLossScaler.update_scale raises when every step
// overflowed down to min_loss_scale; its OVERFLOW lines before it stay harmless.
TEST(ExplainTraining, DeepspeedLossScaleAtMinimumIsAnFp16Overflow) {
  const auto r = explain_no_facts(
      "[2024-03-05 10:02:12,002] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping "
      "step. Attempted loss scale: 1, reducing to 1\n"
      "Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.\n");
  ASSERT_TRUE(leads_with(r, "deepspeed-loss-scale-at-minimum"));
  EXPECT_NE(r.matches.front().fix.find("bf16"), std::string::npos);
}

// TensorFlow's MatMulOp: "Blas GEMM launch failed : a.shape=(...), b.shape=(...), m=, n=, k="
// (core/kernels/matmul_op.cc) after cuda_blas.cc's "failed to run cuBLAS routine": cuBLAS without
// memory, the GPU held by another process or session.
TEST(ExplainTraining, TensorflowBlasGemmLaunchFailedIsMemoryHeldElsewhere) {
  const auto r = explain_no_facts(
      "2019-03-14 10:02:13.002157: E tensorflow/stream_executor/cuda/cuda_blas.cc:652] failed to run cuBLAS "
      "routine cublasSgemm_v2: CUBLAS_STATUS_EXECUTION_FAILED\n"
      "tensorflow.python.framework.errors_impl.InternalError: Blas GEMM launch failed : a.shape=(100, 784), "
      "b.shape=(784, 10), m=100, n=10, k=784\n");
  ASSERT_TRUE(leads_with(r, "tf-blas-gemm-launch-failed"));
  EXPECT_EQ(training_answer_count(r), 1U);
  EXPECT_NE(r.matches.front().fix.find("allow_growth"), std::string::npos);
}

// nvidia-smi -q -d ECC,ROW_REMAPPER: uncorrectable DRAM errors and a pending row remap.
TEST(ExplainTraining, NvidiaSmiUncorrectableEccCountsAreAHardwareFault) {
  const auto r = explain_no_facts(
      "    ECC Errors\n"
      "        Volatile\n"
      "            SRAM Uncorrectable            : 0\n"
      "            DRAM Correctable              : 0\n"
      "            DRAM Uncorrectable            : 2\n"
      "    Remapped Rows\n"
      "        Correctable Error                 : 0\n"
      "        Uncorrectable Error               : 3\n"
      "        Pending                           : Yes\n"
      "        Remapping Failure Occurred        : No\n");
  ASSERT_TRUE(leads_with(r, "smi-uncorrectable-memory-errors"));
  EXPECT_EQ(r.matches.front().severity, RuleSeverity::error);
  EXPECT_NE(r.matches.front().fix.find("reset"), std::string::npos);
  // A clean GPU's counters are no finding.
  EXPECT_TRUE(explain_no_facts("            DRAM Uncorrectable            : 0\n"
                               "        Uncorrectable Error               : 0\n"
                               "        Pending                           : No\n"
                               "        Remapping Failure Occurred        : No\n")
                  .matches.empty());
}

// nvidia-smi -q -d PERFORMANCE: "Clocks Event Reasons" (driver 535 and later) or "Clocks Throttle
// Reasons" (before), each reason "Active" or "Not Active".
TEST(ExplainTraining, NvidiaSmiSlowdownReasonsAreWarnings) {
  const auto thermal = explain_no_facts(
      "    Clocks Event Reasons\n"
      "        HW Slowdown                       : Active\n"
      "            HW Thermal Slowdown           : Active\n"
      "            HW Power Brake Slowdown       : Not Active\n"
      "        SW Thermal Slowdown               : Active\n");
  ASSERT_TRUE(leads_with(thermal, "smi-thermal-slowdown"));
  EXPECT_EQ(thermal.matches.front().severity, RuleSeverity::warning);
  EXPECT_EQ(find_rule(thermal, "smi-power-brake-slowdown"), nullptr);
  const auto brake = explain_no_facts(
      "    Clocks Throttle Reasons\n"
      "            HW Thermal Slowdown           : Not Active\n"
      "            HW Power Brake Slowdown       : Active\n");
  ASSERT_TRUE(leads_with(brake, "smi-power-brake-slowdown"));
  EXPECT_EQ(find_rule(brake, "smi-thermal-slowdown"), nullptr);
}

}  // namespace
}  // namespace gpudoctor
