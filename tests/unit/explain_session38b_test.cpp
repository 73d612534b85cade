// Session 38 (review 38, own items): two answers that stopped one step short of the thread's cause.
// - NCCL's watchdog timeout (ProcessGroupNCCL.cpp: "Watchdog caught collective operation timeout:
//   WorkNCCL(SeqNum=N, OpType=OP, ..., Timeout(ms)=T)") most often means one rank was busy outside
//   the collectives (rank 0 alone validating, sampling, saving) while the others waited in the next
//   one, longer than the process group's timeout (huggingface/finetrainers#114: the maintainer's fix
//   was a larger timeout or less validation). The answer said to raise the timeout only last.
// - cuBLAS's CUBLAS_STATUS_EXECUTION_FAILED is usually an earlier kernel's failure, but it can be
//   cuBLAS itself: fp16 tensor-op GEMMs failed in the cuBLAS of CUDA 10.0/10.1 until cuBLAS
//   10.2.0.186 (CUDA 10.1 Update 2; pytorch#24018, a maintainer isolated it).
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "core/version.hpp"
#include "explain/explain_session.hpp"
#include "explain_test_support.hpp"
#include "model/facts.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;

TEST(ExplainSession38b, NcclWatchdogTimeoutNamesOneRankBusyOutsideTheCollectives) {
  const auto r = explain_no_facts(
      "[rank3]:[E1205 04:35:53.584483882 ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog caught collective operation "
      "timeout: WorkNCCL(SeqNum=3348, OpType=BROADCAST, NumelIn=54607872, NumelOut=54607872, Timeout(ms)=1800000) ran "
      "for 1800098 milliseconds before timing out.\n"
      "[rank3]:[E1205 04:35:57.185975464 ProcessGroupNCCL.cpp:621] [Rank 3] Some NCCL operations have failed or timed "
      "out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on "
      "corrupted/incomplete "
      "data.\n");
  ASSERT_TRUE(testing::leads_with(r, "nccl-timeout")) << testing::rule_list(r);
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(testing::says_all(m.cause, {"BROADCAST", "1800000 ms", "validation"}));
  EXPECT_TRUE(testing::mentions(m.fix, "timeout=datetime.timedelta")) << m.fix;
  EXPECT_FALSE(testing::mentions(m.fix, "only after that")) << m.fix;

  // Without WorkNCCL's details the text still reads whole.
  const auto bare =
      explain_no_facts("RuntimeError: NCCL communicator was aborted. Some NCCL operations have failed or timed out.\n");
  ASSERT_FALSE(bare.matches.empty());
  EXPECT_FALSE(testing::mentions(bare.matches.front().cause, "( ms)")) << bare.matches.front().cause;
}

TEST(ExplainSession38b, CublasExecutionFailedSaysCublasItselfCanBeTheCause) {
  const auto r = explain_no_facts(
      "RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasGemmEx( handle, opa, opb, m, n, "
      "k, &falpha, a, CUDA_R_16F, lda, b, CUDA_R_16F, ldb, &fbeta, c, CUDA_R_16F, ldc, CUDA_R_32F, "
      "CUBLAS_GEMM_DFALT_TENSOR_OP)`\n");
  ASSERT_TRUE(testing::leads_with(r, "torch-cublas-execution-failed")) << testing::rule_list(r);
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(testing::says_all(m.fix, {"CUDA_LAUNCH_BLOCKING=1", "CUDA 10.1 Update 2"}));
  EXPECT_TRUE(testing::mentions(m.cause, "a bug in the cuBLAS")) << m.cause;
}

// Review 38 (A) probes p18-p20: JAX's generic backend line carries the reason a specific rule reads;
// the driver-missing reading of the generic line was listed after it.
TEST(ExplainSession38b, JaxBackendLineWithAReadReasonIsOneAnswer) {
  for (const char* line :
       {"RuntimeError: Unable to initialize backend 'cuda': INVALID_ARGUMENT: Mismatched PJRT plugin PJRT API version "
        "(0.54) and framework PJRT API version 0.51).\n",
        "I0105 14:05:05.749943 140453630969664 xla_bridge.py:660] Unable to initialize backend 'cuda': Found cuSOLVER "
        "version 11002, but JAX was built against version 11401, which is newer. The copy of cuSOLVER that is "
        "installed must be at least as new as the version against which JAX was built.\n",
        "CUDA backend failed to initialize: Found CUDA version 12010, but JAX was built against version 12020, which "
        "is newer. The copy of CUDA that is installed must be at least as new as the version against which JAX was "
        "built. (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)\n"}) {
    const auto r = explain_no_facts(line);
    ASSERT_FALSE(r.matches.empty()) << line;
    EXPECT_EQ(testing::find_rule(r, "jax-backend-init-failed"), nullptr) << testing::rule_list(r);
    EXPECT_EQ(testing::find_rule(r, "jax-cuda-backend-failed"), nullptr) << testing::rule_list(r);
    EXPECT_NE(r.matches.front().category, "driver-missing") << testing::rule_list(r);
  }
  // A reason no specific JAX rule reads keeps the generic answer.
  const auto other = explain_no_facts("CUDA backend failed to initialize: CUDA_ERROR_NO_DEVICE\n");
  EXPECT_NE(testing::find_rule(other, "jax-cuda-backend-failed"), nullptr) << testing::rule_list(other);
}

// Session 38 re-read: a log whose TensorFlow source paths say "2.10 or older"
// (tensorflow/stream_executor/) explained on a machine with TensorFlow 2.16: the version parts of
// the text followed the machine's release and told only `tensorflow[and-cuda]`, which the log's own
// release does not have; the `tensorflow<2.14` conditions already used the log's bound.
TEST(ExplainSession38b, VersionPartsFollowTheLogsTensorflowBoundNotTheMachines) {
  Facts f;
  f.platform = Platform::linux;
  PythonEnvFacts env;
  env.path = "/home/u/tf216";
  env.python_version = Version::parse("3.11.9");
  FrameworkFacts tf;
  tf.name = "tensorflow";
  tf.package = "tensorflow";
  tf.version = *Version::parse("2.16.1");
  env.frameworks.push_back(tf);
  f.python_envs.push_back(env);
  ExplainMachine m{Platform::linux, &f, &testing::builtin_kb()};
  const auto r = explain_text(testing::builtin_matcher(),
                              "2022-06-01 10:00:00.000000: E tensorflow/stream_executor/cuda/cuda_dnn.cc:389] Could "
                              "not create cudnn handle: CUDNN_STATUS_NOT_INITIALIZED\n",
                              m);
  const ExplainMatch* mismatch = testing::find_rule(r, "dnn-initialization-failed/cudnn-mismatch");
  ASSERT_NE(mismatch, nullptr) << testing::rule_list(r);
  // Not the machine's 2.16 alone: the log's release is older than 2.11, so the older releases' part
  // is there (each part labelled; the bound decides no spec of its own).
  EXPECT_TRUE(testing::mentions(mismatch->fix, "TensorFlow before 2.14: cuDNN comes from the library path"))
      << mismatch->fix;
}

}  // namespace
}  // namespace gpudoctor
