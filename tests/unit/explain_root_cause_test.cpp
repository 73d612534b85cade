// The root cause before its consequences: lines a reviewer took from real logs (session 33),
// where a later, more general message used to lead the answer. A failed device-side assertion
// breaks the CUDA context, and every later cuBLAS or cuDNN call fails (a consequence, not a
// memory problem); a failed Triton launcher build says only that gcc failed, its reason is
// gcc's own line; JAX prints "a CUDA-enabled jaxlib is not installed" also when its installed
// CUDA plugin failed to initialise; Triton runs its own ptxas, not the one on PATH.
#include <gtest/gtest.h>

#include <string>

#include "core/text.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

/// The first candidate of the answer that holds `rule`'s lines (the answer's leader).
const ExplainMatch* leader_of_answer_with(const ExplainReport& r, std::string_view rule_prefix) {
  const ExplainMatch* leader = nullptr;
  for (const ExplainMatch& m : r.matches) {
    if (!m.alternative) leader = &m;
    if (m.rule.starts_with(rule_prefix)) return leader;
  }
  return nullptr;
}

// alpaca-lora with a tokenizer larger than the embedding (pytorch/serve#1993 and
// EleutherAI/lm-evaluation-harness#1689 word it so): the index assertion, then cuBLAS's handle.
TEST(ExplainRootCause, CublasFailingAfterADeviceAssertionIsItsConsequence) {
  const std::string log =
      "  0%|          | 0/4875 [00:00<?, ?it/s]../aten/src/ATen/native/cuda/Indexing.cu:1289: indexSelectLargeIndex: "
      "block: [127,0,0], thread: [64,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\n"
      "../aten/src/ATen/native/cuda/Indexing.cu:1289: indexSelectLargeIndex: block: [127,0,0], thread: [65,0,0] "
      "Assertion `srcIndex < srcSelectDimSize` failed.\n"
      "Traceback (most recent call last):\n"
      "  File \"/home/ubuntu/.local/lib/python3.10/site-packages/peft/tuners/lora.py\", line 565, in forward\n"
      "    result = F.linear(x, transpose(self.weight, self.fan_in_fan_out), bias=self.bias)\n"
      "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "torch-index-out-of-range"));
  const ExplainMatch* cublas = leader_of_answer_with(r, "torch-cublas-handle-failed");
  ASSERT_NE(cublas, nullptr);
  EXPECT_EQ(cublas->rule, "torch-cublas-handle-failed/after-device-assert");
  // The memory reading needs no assertion in the log (`!device-assert`): it is not listed.
  EXPECT_EQ(find_rule(r, "torch-cublas-handle-failed"), nullptr);
  EXPECT_NE(cublas->category, "out-of-memory");
  // The same cuDNN failure after an assertion.
  const auto cudnn = explain_no_facts(
      "/pytorch/aten/src/ATen/native/cuda/Loss.cu:240: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], "
      "thread: [0,0,0] Assertion `t >= 0 && t < n_classes` failed.\n"
      "RuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR\n");
  ASSERT_TRUE(leads_with(cudnn, "torch-class-label-out-of-range"));
  EXPECT_EQ(leader_of_answer_with(cudnn, "torch-cudnn-internal-error")->rule,
            "torch-cudnn-internal-error/after-device-assert");
  // Only "device-side assert triggered", no condition printed: the assertion still comes first.
  const auto bare = explain_no_facts(
      "RuntimeError: CUDA error: device-side assert triggered\n"
      "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`\n");
  ASSERT_TRUE(leads_with(bare, "torch-cuda-errors-in-user-code"));
  // Without an assertion in the log the memory answer stands.
  const auto alone =
      explain_no_facts("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`\n");
  ASSERT_TRUE(leads_with(alone, "torch-cublas-handle-failed"));
  EXPECT_EQ(alone.matches.front().category, "out-of-memory");
}

// torch.compile on a Python without its headers: Triton's gcc command always holds -lcuda, so
// its CalledProcessError alone names no cause; gcc's line does.
TEST(ExplainRootCause, TritonsLauncherBuildFailureIsGccsFirstError) {
  const std::string called =
      "CalledProcessError: Command '['/usr/bin/gcc', '/tmp/tmpd0jg5w0k/main.c', '-O3', '-shared', '-fPIC', "
      "'-Wno-psabi', '-o', '/tmp/tmpd0jg5w0k/cuda_utils.cpython-312-x86_64-linux-gnu.so', '-lcuda', "
      "'-L/home/dev/.venv/lib/python3.12/site-packages/triton/backends/nvidia/lib', '-L/lib/x86_64-linux-gnu', "
      "'-I/home/dev/.venv/lib/python3.12/site-packages/triton/backends/nvidia/include', '-I/tmp/tmpd0jg5w0k', "
      "'-I/usr/include/python3.12']' returned non-zero exit status 1.\n";
  const auto r = explain_no_facts(
      "/tmp/tmpd0jg5w0k/main.c:5:10: fatal error: Python.h: No such file or directory\n"
      "    5 | #include <Python.h>\n"
      "compilation terminated.\n"
      "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n" +
      called);
  ASSERT_TRUE(leads_with(r, "python-headers-missing"));
  EXPECT_EQ(find_rule(r, "link-libcuda-missing"), nullptr) << "no line says -lcuda was not found";
  // Jupyter shows only Triton's exception: gcc's reason went to the server's terminal.
  const auto notebook = explain_no_facts(called);
  ASSERT_TRUE(leads_with(notebook, "triton-launcher-build-failed"));
  const ExplainMatch& m = notebook.matches.front();
  EXPECT_TRUE(contains(m.fix, "Python.h")) << m.fix;
  EXPECT_TRUE(contains(m.fix, "-lcuda")) << m.fix;
  EXPECT_TRUE(contains(m.cause + m.fix, "/usr/include/python3.12")) << m.cause << m.fix;
  EXPECT_EQ(find_rule(notebook, "link-libcuda-missing"), nullptr);
}

// JAX's xla_bridge prints "a CUDA-enabled jaxlib is not installed" whenever no CUDA backend
// came up without an error of its own, also when the installed plugin's initialize() raised.
TEST(ExplainRootCause, AFailedJaxPluginIsNotACpuOnlyJaxlib) {
  const auto r = explain_no_facts(
      "An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to "
      "cpu.\n"
      "ERROR:2024-06-11 14:03:51,210:jax._src.xla_bridge:919: Jax plugin configuration error: Exception when calling "
      "jax_plugins.xla_cuda12.initialize()\n"
      "Traceback (most recent call last):\n"
      "  File \"/home/nora/.venv/lib/python3.11/site-packages/jax_plugins/xla_cuda12/__init__.py\", line 97, in "
      "_version_check\n"
      "    raise RuntimeError(err_msg) from e\n"
      "RuntimeError: Unable to load cuSPARSE. Is it installed?\n");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_NE(r.matches.front().rule, "jaxlib-without-cuda");
  ASSERT_TRUE(leads_with(r, "jax-cuda-library-not-loadable"));
  EXPECT_EQ(leader_of_answer_with(r, "jaxlib-without-cuda")->rule, "jaxlib-without-cuda/plugin-failed");
  // The line alone still says what it says.
  ASSERT_TRUE(leads_with(explain_no_facts("An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib "
                                          "is not installed. Falling back to cpu.\n"),
                         "jaxlib-without-cuda"));
}

// vLLM on a GB300 (sm_103a) with Triton's bundled ptxas (triton/backends/nvidia/compiler.py:
// TRITON_PTXAS_PATH, else its own bin/ptxas; PATH is never searched).
TEST(ExplainRootCause, TritonsOwnPtxasTooOldIsFixedByTritonsVariable) {
  const auto r = explain_no_facts(
      "(EngineCore_0 pid=9492) ERROR 10-14 08:21:58 [core.py:718] torch._inductor.exc.InductorError: PTXASError: "
      "PTXAS error: Internal Triton PTX codegen error\n"
      "(EngineCore_0 pid=9492) ERROR 10-14 08:21:58 [core.py:718] `ptxas` stderr:\n"
      "(EngineCore_0 pid=9492) ERROR 10-14 08:21:58 [core.py:718] ptxas fatal   : Value 'sm_103a' is not defined for "
      "option 'gpu-name'\n"
      "(EngineCore_0 pid=9492) ERROR 10-14 08:21:58 [core.py:718] Repro command: "
      "/usr/local/lib/python3.12/dist-packages/triton/backends/nvidia/bin/ptxas -lineinfo -v --gpu-name=sm_103a "
      "/tmp/tmp8r2n5q1z.ptx -o /tmp/tmp8r2n5q1z.ptx.o\n"
      "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the "
      "root cause.\n");
  ASSERT_FALSE(r.matches.empty());
  const ExplainMatch& m = r.matches.front();
  EXPECT_EQ(m.rule, "ptxas-too-old-for-gpu/triton");
  EXPECT_EQ(m.severity, RuleSeverity::error);
  EXPECT_TRUE(contains(m.fix, "TRITON_PTXAS_PATH")) << m.fix;
  EXPECT_TRUE(contains(m.fix, "sm_103a")) << m.fix;
  EXPECT_FALSE(contains(m.cause, "XLA")) << m.cause;
  // XLA's own cause needs Triton's ptxas not to have run (`!triton-ptxas`); this log shows it did,
  // so that reading is not listed (session 36).
  EXPECT_EQ(find_rule(r, "ptxas-too-old-for-gpu"), nullptr);
  // XLA's own line keeps XLA's answer.
  const auto xla = explain_no_facts(
      "INTERNAL: ptxas exited with non-zero error code 65280, output: ptxas fatal   : Value 'sm_90a' is not defined "
      "for option 'gpu-name'\n");
  ASSERT_TRUE(leads_with(xla, "ptxas-too-old-for-gpu"));
  EXPECT_FALSE(contains(xla.matches.front().fix, "TRITON_PTXAS_PATH"));
}

// XLA's version check of the ptxas it found (xla/service/gpu/nvptx_compiler.cc); the Levanter
// FAQ and user scripts: an old system CUDA's ptxas first on PATH (/usr/local/cuda-11.4/bin).
TEST(ExplainRootCause, XlaRefusingAnOldPtxasNamesThePath) {
  const auto r =
      explain_no_facts("jaxlib.xla_extension.XlaRuntimeError: INTERNAL: XLA requires ptxas version 11.8 or higher\n");
  ASSERT_TRUE(leads_with(r, "xla-ptxas-below-minimum"));
  EXPECT_EQ(r.matches.front().severity, RuleSeverity::error);
  EXPECT_TRUE(contains(r.matches.front().fix, "PATH")) << r.matches.front().fix;
  EXPECT_TRUE(contains(r.matches.front().cause, "11.8")) << r.matches.front().cause;
  const auto tf = explain_no_facts(
      "XLA requires ptxas version 11.8 or higher\n\t [[{{node StatefulPartitionedCall}}]] "
      "[Op:__inference_one_step_on_iterator_3663]\n");
  ASSERT_TRUE(leads_with(tf, "xla-ptxas-below-minimum"));
}

// XLA's search for libdevice at start is a W line; a TF 2.20 run that trained to the end printed
// it. The error is the later "libdevice not found at" of a kernel that needed it.
TEST(ExplainRootCause, XlasLibdeviceSearchAtStartIsAWarning) {
  const auto r = explain_no_facts(
      "2026-02-17 19:11:47.887239: W external/local_xla/xla/service/gpu/llvm_gpu_backend/default/"
      "nvptx_libdevice_path.cc:41] Can't find libdevice directory ${CUDA_DIR}/nvvm/libdevice. This may result in "
      "compilation or runtime failures, if the program we try to run uses routines from libdevice.\n"
      "Epoch 5/5\n"
      "1563/1563 - 5s 3ms/step - accuracy: 0.6892 - loss: 0.8867\n");
  ASSERT_TRUE(leads_with(r, "libdevice-dir-not-found"));
  EXPECT_EQ(r.matches.front().severity, RuleSeverity::warning);
  const auto failed =
      explain_no_facts("InternalError: libdevice not found at ./libdevice.10.bc [Op:__inference_train_function]\n");
  ASSERT_TRUE(leads_with(failed, "libdevice-missing"));
  EXPECT_EQ(failed.matches.front().severity, RuleSeverity::error);
}

// tqdm redraws its bar with '\r' and no '\n' when written to a file: a minute of training is
// tens of kilobytes on one line, and the assertion printed after the bar ends that line.
TEST(ExplainRootCause, AMessageAfterALongProgressBarIsStillRead) {
  std::string bar;
  for (int i = 0; bar.size() < 40 * 1024; ++i) {
    bar += "\r Epoch 1:  " + std::to_string(i % 100) + "%|####      | " + std::to_string(i) +
           "/4875 [00:12<01:40, 42.1it/s, loss=2.31]";
  }
  const auto r = explain_no_facts(
      bar +
      "../aten/src/ATen/native/cuda/Loss.cu:240: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], "
      "thread: [0,0,0] Assertion `t >= 0 && t < n_classes` failed.\n"
      "RuntimeError: CUDA error: device-side assert triggered\n");
  ASSERT_TRUE(leads_with(r, "torch-class-label-out-of-range"));
  EXPECT_EQ(r.matches.front().lines.front(), 1u) << "the bar's line, as an editor counts it";
  EXPECT_EQ(r.input.lines, 2u);
}

}  // namespace
}  // namespace gpudoctor
