// Out-of-memory errors that do not say so: TensorFlow's "Dst tensor is not initialized." is
// PrepareCopy's check (tensorflow/core/common_runtime/gpu/gpu_util.cc; the string is in TF
// 2.15.1's libtensorflow_framework.so.2) failing because the GPU allocator gave the copy's
// destination no buffer; eager mode wraps it in "Failed copying input tensor from X to Y in
// order to run OP: " (tensorflow/core/common_runtime/eager/execute.cc).
#include <gtest/gtest.h>

#include <string>

#include "core/text.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::among_first_three;
using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

TEST(ExplainMemory, EagerCopyToTheGpuWithNoDestinationIsOutOfMemory) {
  const auto r = explain_no_facts(
      "Traceback (most recent call last):\n"
      "  File \"train.py\", line 41, in <module>\n"
      "    model.fit(x_train, y_train, epochs=10)\n"
      "tensorflow.python.framework.errors_impl.InternalError: Failed copying input tensor from "
      "/job:localhost/replica:0/task:0/device:CPU:0 to /job:localhost/replica:0/task:0/device:GPU:0 in order to run "
      "_EagerConst: Dst tensor is not initialized.\n");
  ASSERT_TRUE(leads_with(r, "tf-dst-tensor-not-initialized"));
  EXPECT_EQ(r.matches.front().category, "out-of-memory");
  EXPECT_NE(r.matches.front().cause.find("device:GPU:0"), std::string::npos) << r.matches.front().cause;
  EXPECT_NE(r.matches.front().fix.find("tf.device('/CPU:0')"), std::string::npos);
  ASSERT_NE(find_rule(r, "tf-dst-tensor-not-initialized/memory-limit"), nullptr);
}

TEST(ExplainMemory, GraphModeDstTensorIsOutOfMemoryToo) {
  // TF 1.x sessions print the check's own words, with the node after it.
  const auto r = explain_no_facts(
      "InternalError (see above for traceback): Dst tensor is not initialized.\n"
      "\t [[Node: _recv_Placeholder_0/_5 = _Recv[client_terminated=false, recv_device=\"/job:localhost/replica:0/"
      "task:0/gpu:0\"]()]]\n");
  ASSERT_TRUE(leads_with(r, "tf-dst-tensor-not-initialized"));
  EXPECT_EQ(r.matches.front().cause.find("()"), std::string::npos) << r.matches.front().cause;
}

// jaxlib/gpu/solver_handle_pool.cc returns gpusolverDnCreate's status; the handle needs memory
// outside JAX's preallocated pool, and mixed nvidia-* wheels break it too (jax#29475).
TEST(ExplainMemory, JaxCusolverHandleNamesPreallocationThenTheWheels) {
  const auto r = explain_no_facts(
      "E0714 16:40:03.040179   40365 pjrt_stream_executor_client.cc:2916] Execution of replica 0 failed: INTERNAL: "
      "jaxlib/gpu/solver_handle_pool.cc:37: operation gpusolverDnCreate(&handle) failed: cuSolver internal error\n"
      "jaxlib._jax.XlaRuntimeError: INTERNAL: jaxlib/gpu/solver_handle_pool.cc:37: operation "
      "gpusolverDnCreate(&handle) failed: cuSolver internal error\n");
  ASSERT_TRUE(leads_with(r, "jax-cusolver-handle-failed"));
  EXPECT_NE(r.matches.front().fix.find("XLA_PYTHON_CLIENT_PREALLOCATE=false"), std::string::npos);
  const ExplainMatch* wheels = find_rule(r, "jax-cusolver-handle-failed/mixed-cuda-wheels");
  ASSERT_NE(wheels, nullptr);
  EXPECT_NE(wheels->fix.find("nvidia-cublas-cu12"), std::string::npos);
}

// The CUDA out-of-memory codes alone do not name a framework: a TensorFlow or JAX line must not
// get PyTorch's answer.
TEST(ExplainMemory, TensorflowsFailedDeviceAllocationIsNotPytorchs) {
  const auto r = explain_no_facts(
      "E tensorflow/stream_executor/cuda/cuda_driver.cc:806] failed to allocate 3.87G (4156162048 bytes) from "
      "device: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n");
  ASSERT_TRUE(leads_with(r, "xla-failed-to-allocate-from-device"));
  EXPECT_NE(r.matches.front().cause.find("3.87G"), std::string::npos) << r.matches.front().cause;
  EXPECT_NE(r.matches.front().fix.find("set_memory_growth"), std::string::npos);
  EXPECT_EQ(find_rule(r, "torch-cuda-oom"), nullptr);
  EXPECT_EQ(find_rule(r, "cuda-out-of-memory"), nullptr);
}

TEST(ExplainMemory, BareCudaOutOfMemoryCodesGetTheFrameworkNeutralAnswer) {
  for (const char* line : {"RuntimeError: CUDA_ERROR_OUT_OF_MEMORY: out of memory",
                           "cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorMemoryAllocation: out of "
                           "memory"}) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "cuda-out-of-memory")) << line;
    EXPECT_EQ(find_rule(r, "torch-cuda-oom"), nullptr) << line;
    EXPECT_EQ(r.matches.front().title.find("PyTorch"), std::string::npos) << r.matches.front().title;
  }
}

TEST(ExplainMemory, XlaRuntimeLaunchOutOfMemoryIsJaxs) {
  const auto r = explain_no_facts(
      "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to execute XLA Runtime executable: run time error: "
      "custom call 'xla.gpu.func.launch' failed: Failed to launch CUDA kernel: fusion with block dimensions: "
      "1024x1x1 and grid dimensions: 1x1x1 and shared memory size: 0: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n");
  ASSERT_TRUE(leads_with(r, "xla-resource-exhausted"));
  EXPECT_EQ(find_rule(r, "torch-cuda-oom"), nullptr);
}

TEST(ExplainMemory, PytorchsOwnCudaErrorWordingStaysPytorchs) {
  // C10_CUDA_CHECK: "CUDA error: " and cudaGetErrorString.
  const auto r = explain_no_facts("RuntimeError: CUDA error: out of memory\n");
  ASSERT_TRUE(leads_with(r, "torch-cuda-oom"));
  EXPECT_EQ(find_rule(r, "code/cudart/cudaErrorMemoryAllocation"), nullptr);
}

TEST(ExplainMemory, ForcedAllowGrowthIsTheVariableWorking) {
  const auto r = explain_no_facts(
      "W tensorflow/core/common_runtime/gpu/gpu_bfc_allocator.cc:47] Overriding orig_value setting because the "
      "TF_FORCE_GPU_ALLOW_GROWTH environment variable is set. Original config value was 0.\n");
  ASSERT_TRUE(leads_with(r, "tf-force-allow-growth-override"));
  EXPECT_TRUE(r.matches.front().harmless);
}

// TensorFlow's stream.cc says it has no BLAS when cuda_blas.cc could not create the cuBLAS
// handle just before (the memory was taken); the line often comes without the one before it.
TEST(ExplainMemory, TensorflowWithoutBlasSupportIsTheCublasHandleThatFailed) {
  const auto r = explain_no_facts(
      "2018-10-03 13:51:00.160626: W tensorflow/stream_executor/stream.cc:1901] attempting to perform BLAS "
      "operation using StreamExecutor without BLAS support\n"
      "tensorflow.python.framework.errors_impl.InternalError: Exception encountered when calling layer \"dense\" "
      "(type Dense). Attempting to perform BLAS operation using StreamExecutor without BLAS support [Op:MatMul]\n");
  ASSERT_TRUE(leads_with(r, "cublas-alloc-failed"));
  EXPECT_NE(find_rule(r, "cublas-alloc-failed/memory-growth"), nullptr);
}

// aten/src/ATen/cuda/CublasHandlePool.cpp warns once and sets the primary context itself.
TEST(ExplainMemory, CublasWithoutACurrentContextIsHarmless) {
  const auto r = explain_no_facts(
      "/usr/lib/python3/dist-packages/torch/autograd/graph.py:744: UserWarning: Attempting to run cuBLAS, but "
      "there was no current CUDA context! Attempting to set the primary context... (Triggered internally at "
      "../aten/src/ATen/cuda/CublasHandlePool.cpp:135.)\n");
  ASSERT_TRUE(leads_with(r, "torch-cublas-no-current-context"));
  EXPECT_TRUE(r.matches.front().harmless);
}

// A shell's "Killed" and the kernel's own line: SIGKILL from the out-of-memory killer, host RAM.
TEST(ExplainMemory, KilledIsTheHostsOutOfMemoryKiller) {
  const auto bare = explain_no_facts("Epoch 1/10\nKilled\n");
  ASSERT_TRUE(leads_with(bare, "process-killed-host-oom"));
  EXPECT_TRUE(contains(bare.matches.front().fix, "dmesg")) << bare.matches.front().fix;
  const auto kernel = explain_no_facts(
      "[81234.5] Memory cgroup out of memory: Killed process 4242 (python) total-vm:31857176kB, "
      "anon-rss:15620260kB\n");
  ASSERT_TRUE(leads_with(kernel, "process-killed-host-oom"));
  EXPECT_TRUE(contains(kernel.matches.front().cause, "python, pid 4242")) << kernel.matches.front().cause;
  // A word in a sentence is not the shell's report.
  EXPECT_EQ(find_rule(explain_no_facts("Killed 3 stale workers before restart\n"), "process-killed-host-oom"), nullptr);
}

// vllm/worker (V0) and vllm/v1/core/kv_cache_utils.py (V1, "models's" then "model's").
TEST(ExplainMemory, VllmKvCacheTooSmallSaysWhichContextFits) {
  const auto v1 = explain_no_facts(
      "(EngineCore_DP0 pid=140653) ValueError: To serve at least one request with the models's max seq len "
      "(262144), (24.00 GiB KV cache is needed, which is larger than the available KV cache memory (8.68 GiB). "
      "Based on the available memory, the estimated maximum model length is 94784. Try increasing "
      "`gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.\n");
  ASSERT_TRUE(leads_with(v1, "vllm-kv-cache-too-small"));
  EXPECT_TRUE(contains(v1.matches.front().fix, "--max-model-len 94784")) << v1.matches.front().fix;
  EXPECT_TRUE(contains(v1.matches.front().cause, "8.68 GiB")) << v1.matches.front().cause;
  const auto v0 = explain_no_facts(
      "ValueError: The model's max seq len (32768) is larger than the maximum number of tokens that can be stored "
      "in KV cache (7344). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing "
      "the engine.\n");
  ASSERT_TRUE(leads_with(v0, "vllm-kv-cache-too-small"));
  EXPECT_TRUE(contains(v0.matches.front().cause, "7344")) << v0.matches.front().cause;
  // 0 blocks is its own answer (session 35 review): a shorter context cannot help there.
  EXPECT_TRUE(leads_with(explain_no_facts("ValueError: No available memory for the cache blocks. Try increasing "
                                          "`gpu_memory_utilization` when initializing the engine.\n"),
                         "vllm-no-cache-blocks"));
}

// ComfyUI turns on the cudaMallocAsync allocator; some GPUs, drivers and VMs do not support it.
TEST(ExplainMemory, OperationNotSupportedOnAllocationIsTheAsyncAllocator) {
  const auto r = explain_no_facts(
      "Error occurred when executing CLIPTextEncode:\n\nCUDA error: operation not supported\n"
      "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n");
  ASSERT_TRUE(leads_with(r, "torch-cuda-operation-not-supported"));
  EXPECT_TRUE(contains(r.matches.front().fix, "--disable-cuda-malloc")) << r.matches.front().fix;
}

// A request larger than any GPU's memory (the largest has under 300 GB) is a size computed
// wrong, not a shortage: "reduce the batch size" would not help.
TEST(ExplainMemory, ASizeNoGpuHasIsNotAMemoryShortage) {
  for (const char* line :
       {"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 16777216.00 GiB. GPU 0 has a total capacity "
        "of 11.76 GiB of which 9.20 GiB is free.",
        "RuntimeError: CUDA out of memory. Tried to allocate 25.50 TiB (GPU 0; 79.15 GiB total capacity; 1.02 GiB "
        "already allocated; 77.40 GiB free; 1.05 GiB reserved in total by PyTorch)",
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate "
        "18446744073709551600 bytes."}) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "allocation-larger-than-any-gpu")) << line;
    EXPECT_EQ(r.matches.front().category, "other") << line;
    EXPECT_EQ(find_rule(r, "torch-cuda-oom"), nullptr) << line;
    EXPECT_EQ(find_rule(r, "xla-resource-exhausted"), nullptr) << line;
    EXPECT_NE(find_rule(r, "allocation-larger-than-any-gpu/extension-build"), nullptr) << line;
  }
  // Sizes a GPU can lack stay ordinary out-of-memory answers.
  for (const char* line :
       {"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 640.00 GiB. GPU 0 has a total capacity of "
        "79.15 GiB",
        "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 3.94 GiB total capacity)",
        "XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 8589934592 bytes."}) {
    const auto r = explain_no_facts(line);
    EXPECT_EQ(find_rule(r, "allocation-larger-than-any-gpu"), nullptr) << line;
    ASSERT_FALSE(r.matches.empty()) << line;
    EXPECT_EQ(r.matches.front().category, "out-of-memory") << line;
  }
}

// TensorFlow's op kernels log a failed Status as "<CODE>: <message>" (op_kernel.cc); an allocation
// that failed is RESOURCE_EXHAUSTED.
TEST(ExplainMemory, TensorflowsResourceExhaustedAllocationIsOutOfMemory) {
  const auto r = explain_no_facts(
      "2023-02-11 10:12:40.114530: W tensorflow/core/framework/op_kernel.cc:1780] OP_REQUIRES failed at "
      "conv_ops.cc:1068 : RESOURCE_EXHAUSTED: failed to allocate memory\n");
  ASSERT_TRUE(leads_with(r, "tf-oom"));
  EXPECT_EQ(r.matches.front().category, "out-of-memory");
  // XLA's status in the same words is JAX's, not TensorFlow's (whose fix is tf.keras's).
  const auto xla = explain_no_facts(
      "E0301 10:00:00.000000 1234 pjrt_stream_executor_client.cc:2809] Execution of replica 0 failed: "
      "RESOURCE_EXHAUSTED: failed to allocate memory\n");
  EXPECT_EQ(find_rule(xla, "tf-oom"), nullptr);
}

// XLA's kernel launch (stream_executor's LaunchKernel: "Failed to launch CUDA kernel: NAME with
// block dimensions: ...") out of memory, also without the runtime executable's prefix; with JAX's
// preallocation, another process on the GPU is the usual reason a one-block kernel finds none.
TEST(ExplainMemory, XlaKernelLaunchOutOfMemoryNamesPreallocation) {
  const auto r = explain_no_facts(
      "jax.errors.JaxRuntimeError: INTERNAL: Failed to launch CUDA kernel: loop_add_fusion with block dimensions: "
      "256x1x1 and grid dimensions: 4x1x1: CUDA_ERROR_OUT_OF_MEMORY: out of memory\n");
  ASSERT_TRUE(leads_with(r, "xla-resource-exhausted"));
  EXPECT_TRUE(among_first_three(r, "memory-growth/allocator"));
  EXPECT_NE(find_rule(r, "xla-resource-exhausted/preallocation"), nullptr);
}

}  // namespace
}  // namespace gpudoctor
