// Out-of-memory errors that do not say so: TensorFlow's "Dst tensor is not initialized." is
// PrepareCopy's check (tensorflow/core/common_runtime/gpu/gpu_util.cc; the string is in TF
// 2.15.1's libtensorflow_framework.so.2) failing because the GPU allocator gave the copy's
// destination no buffer; eager mode wraps it in "Failed copying input tensor from X to Y in
// order to run OP: " (tensorflow/core/common_runtime/eager/execute.cc).
#include <gtest/gtest.h>

#include <string>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

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

}  // namespace
}  // namespace gpudoctor
