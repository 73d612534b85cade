// verify --framework's reading of what the interpreter wrote (gpu/framework_verify.hpp), on
// recorded outputs: a GPU run passes, the CPU fallback, a wrong result, an import error, a
// timeout and silence each give the step that says so.
#include "gpu/framework_verify.hpp"

#include <gtest/gtest.h>

#include <string>

namespace gpudoctor::gpu {
namespace {

const FrameworkTarget kTarget{.framework = "pytorch", .env = "/venv", .interpreter = "/venv/bin/python"};

Result<ProcessOutput> printed(const std::string& json_line, int status = 0, const std::string& err = "") {
  return ProcessOutput{.exit_code = status, .out = "noise\nGPUDOCTOR-RESULT " + json_line + "\n", .err = err};
}

TEST(FrameworkVerify, GpuRunWithSmallErrorsPasses) {
  auto run = framework_step_from_output(
      kTarget,
      printed(
          R"({"version":"2.5.1","devices":["NVIDIA H100"],"placed_on":"cuda:0","matmul_error":1e-5,"matmul_ratio":0.1,)"
          R"("conv_error":2e-6,"conv_ratio":1,"mixed_precision":{"dtype":"torch.float16","error":0.05,"ratio":0.2},)"
          R"("error":null,)"
          R"("loaded":["/venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9"]})"),
      1200);
  EXPECT_EQ(run.step.status, StepStatus::passed) << run.step.detail;
  EXPECT_EQ(run.step.name, "framework pytorch");
  EXPECT_NE(run.step.detail.find("pytorch 2.5.1 on cuda:0"), std::string::npos) << run.step.detail;
  bool listed = false;
  for (const auto& n : run.step.notes) listed = listed || n.find("nvidia/cudnn/lib/libcudnn.so.9") != std::string::npos;
  EXPECT_TRUE(listed);
}

// Real jax 0.4.30 + jaxlib 0.4.30 (CPU): `jax.default_matmul_precision("highest")` stops the script
// with "ValueError: new enum value must be None or in ['bfloat16', 'tensorfloat32', 'float32'], got
// highest": a healthy JAX failed verify. The per-call precision argument exists in every release.
TEST(FrameworkVerify, JaxMatmulPrecisionIsNamedPerCall) {
  std::string script = framework_script();
  EXPECT_EQ(script.find("default_matmul_precision"), std::string::npos);
  EXPECT_NE(
      script.find("jnp.matmul(jax.device_put(a, d0), jax.device_put(b, d0), precision=jax.lax.Precision.HIGHEST)"),
      std::string::npos);
}

TEST(FrameworkVerify, CpuFallbackFailsAndSaysSo) {
  auto run = framework_step_from_output(
      kTarget,
      printed(R"({"version":"2.5.1","devices":["cpu"],"placed_on":"cpu","matmul_error":1e-5,"matmul_ratio":0.1,)"
              R"("conv_error":2e-6,"conv_ratio":0.1,"error":null,"loaded":[]})"),
      10);
  EXPECT_EQ(run.step.status, StepStatus::failed);
  EXPECT_NE(run.step.detail.find("CPU fallback"), std::string::npos) << run.step.detail;
}

TEST(FrameworkVerify, WrongResultOnTheGpuFails) {
  auto run = framework_step_from_output(
      kTarget,
      printed(R"({"placed_on":"cuda:0","matmul_error":3.5,"matmul_ratio":700,"conv_error":2e-6,"conv_ratio":0.1})"),
      10);
  EXPECT_EQ(run.step.status, StepStatus::failed);
  EXPECT_NE(run.step.detail.find("wrong result"), std::string::npos) << run.step.detail;
  auto nan =
      framework_step_from_output(kTarget, printed(R"({"placed_on":"cuda:0","matmul_error":null,"conv_error":0})"), 1);
  EXPECT_EQ(nan.step.status, StepStatus::failed) << "a missing error figure is not a pass";
}

// Review 44A, 02 and 03: the FP16 figure was printed and never judged; a NaN is no figure.
TEST(FrameworkVerify, TheFp16FigureIsJudgedAndANanIsAWrongResult) {
  const std::string right = R"("matmul_error":1e-5,"matmul_ratio":0.1,"conv_error":2e-6,"conv_ratio":0.1)";
  auto fp16 = framework_step_from_output(
      kTarget,
      printed(R"({"placed_on":"cuda:0",)" + right + R"(,"mixed_precision":{"dtype":"torch.float16","error":76.4,)" +
              R"("ratio":2000}})"),
      1);
  EXPECT_EQ(fp16.step.status, StepStatus::failed) << fp16.step.detail;
  EXPECT_NE(fp16.step.detail.find("wrong result"), std::string::npos) << fp16.step.detail;
  auto nan = framework_step_from_output(
      kTarget,
      printed(R"({"placed_on":"cuda:0","matmul_error":"nan","matmul_ratio":"nan","conv_error":2e-6,"conv_ratio":0.1})"),
      1);
  EXPECT_EQ(nan.step.status, StepStatus::failed);
  EXPECT_NE(nan.step.detail.find("wrong result: matmul max error nan"), std::string::npos) << nan.step.detail;
  ASSERT_TRUE(nan.step.framework.has_value());
  EXPECT_EQ(nan.step.framework->figures.at(0).non_finite, "nan");
  EXPECT_FALSE(nan.step.framework->figures.at(0).max_error.has_value());
  // Near miss: an error at its bound exactly is right.
  auto edge = framework_step_from_output(
      kTarget,
      printed(R"({"placed_on":"cuda:0",)" + right + R"(,"mixed_precision":{"dtype":"torch.float16","error":0.3,)" +
              R"("ratio":1.0}})"),
      1);
  EXPECT_EQ(edge.step.status, StepStatus::passed) << edge.step.detail;
  EXPECT_EQ(edge.step.framework->figures.size(), 3U);
  EXPECT_DOUBLE_EQ(*edge.step.framework->figures.at(2).bound_ratio, 1.0);
  EXPECT_FALSE(edge.step.framework->cpu_fallback);
  // Session 44's re-read: a wrong result computed on the CPU is a CPU fallback all the same.
  auto cpu = framework_step_from_output(
      kTarget,
      printed(R"({"placed_on":"cpu","matmul_error":"nan","matmul_ratio":"nan","conv_error":2e-6,"conv_ratio":0.1})"),
      1);
  EXPECT_EQ(cpu.step.status, StepStatus::failed);
  ASSERT_TRUE(cpu.step.framework.has_value());
  EXPECT_TRUE(cpu.step.framework->cpu_fallback) << cpu.step.detail;
  EXPECT_NE(cpu.step.detail.find("wrong result"), std::string::npos) << cpu.step.detail;
  EXPECT_NE(cpu.step.detail.find("CPU fallback"), std::string::npos) << cpu.step.detail;
}

// Review 44A, 09: a result line beyond what was kept of a long output is said to be so.
TEST(FrameworkVerify, NoResultInACutOutputSaysItWasCut) {
  auto cut = framework_step_from_output(
      kTarget, ProcessOutput{.exit_code = 0, .out = "chatter\n", .err = "", .out_dropped = 5000, .err_dropped = 0}, 1);
  EXPECT_NE(cut.step.detail.find("5000 bytes from its middle were dropped"), std::string::npos) << cut.step.detail;
  auto whole = framework_step_from_output(kTarget, ProcessOutput{.exit_code = 0, .out = "chatter\n", .err = ""}, 1);
  EXPECT_EQ(whole.step.detail.find("dropped"), std::string::npos) << whole.step.detail;
}

TEST(FrameworkVerify, ImportErrorIsTheDetailAndStderrIsKeptForExplain) {
  auto run = framework_step_from_output(
      kTarget,
      printed(R"({"version":null,"error":"ImportError: libcudnn.so.9: cannot open shared object file"})", 0,
              "Traceback ...\nImportError: libcudnn.so.9: cannot open shared object file\n"),
      10);
  EXPECT_EQ(run.step.status, StepStatus::failed);
  EXPECT_NE(run.step.detail.find("libcudnn.so.9"), std::string::npos);
  EXPECT_NE(run.stderr_text.find("Traceback"), std::string::npos);
}

TEST(FrameworkVerify, TimeoutAndSilence) {
  auto timeout =
      framework_step_from_output(kTarget, Error{ErrorKind::timeout, "no answer within 5000 ms", "", 0}, 5000);
  EXPECT_EQ(timeout.step.status, StepStatus::timeout);
  auto silent = framework_step_from_output(kTarget, ProcessOutput{.exit_code = 139, .out = "", .err = ""}, 5);
  EXPECT_EQ(silent.step.status, StepStatus::crashed);
  EXPECT_NE(silent.step.detail.find("without a result"), std::string::npos);
}

// What the process mapped set against the doctor's loader model (FrameworkFacts::loads). The
// second copy is what jax 0.10.2 mapped here under LD_PRELOAD=/usr/local/cuda/lib64/libcudnn.so.9:
// the system cuDNN and the wheel's, both named libcudnn.so.9, in one process.
TEST(FrameworkVerify, LoadedLibrariesAreSetAgainstWhereTheDoctorSaidTheyWouldComeFrom) {
  const std::string wheel = "/venv/lib/python3.11/site-packages/nvidia/";
  std::vector<LibraryLoad> expected = {
      {.soname = "libcudnn.so.9", .path = wheel + "cudnn/lib/libcudnn.so.9", .via = "pip wheel"},
      {.soname = "libcublas.so.12", .path = wheel + "cublas/lib/libcublas.so.12", .via = "pip wheel"},
      {.soname = "libcublasLt.so.12", .path = wheel + "cublas/lib/libcublasLt.so.12", .via = "pip wheel"},
      {.soname = "libcufft.so.11", .path = wheel + "cufft/lib/libcufft.so.11", .via = "pip wheel"},
      {.soname = "libcudart.so.12", .path = "", .via = ""},
  };
  int differ = -1;
  // Everything from where the doctor said; cufft not needed by this run; libcudnn_graph is not libcudnn.
  auto same = loads_against_expected(expected,
                                     {wheel + "cudnn/lib/libcudnn_graph.so.9", wheel + "cudnn/lib/libcudnn.so.9",
                                      wheel + "cublas/lib/libcublasLt.so.12", wheel + "cublas/lib/libcublas.so.12"},
                                     &differ);
  EXPECT_EQ(differ, 0);
  ASSERT_EQ(same.size(), 1u);
  EXPECT_EQ(same[0], "loaded as the doctor expected: 3 of the 3 CUDA libraries it resolved that this run loaded");

  auto two =
      loads_against_expected(expected,
                             {"/usr/local/cuda-13.0/lib/libcudnn.so.9", wheel + "cudnn/lib/libcudnn.so.9",
                              "/usr/lib/x86_64-linux-gnu/libcudart.so.12.4.127", wheel + "cublas/lib/libcublas.so.12"},
                             &differ);
  EXPECT_EQ(differ, 2);
  ASSERT_EQ(two.size(), 3u);
  EXPECT_NE(two[1].find("libcudnn.so.9 was loaded from /usr/local/cuda-13.0/lib/libcudnn.so.9 and"), std::string::npos)
      << two[1];
  EXPECT_NE(two[1].find("(2 copies in one process)"), std::string::npos) << two[1];
  EXPECT_NE(two[1].find("expected " + wheel + "cudnn/lib/libcudnn.so.9 (pip wheel)"), std::string::npos) << two[1];
  // A versioned file name is the soname's (the loader's link resolved), and one the doctor did not find is said.
  EXPECT_NE(two[2].find("libcudart.so.12 was loaded from /usr/lib/x86_64-linux-gnu/libcudart.so.12.4.127; the "
                        "doctor found no copy"),
            std::string::npos)
      << two[2];
  EXPECT_EQ(two[0], "loaded as the doctor expected: 1 of the 3 CUDA libraries it resolved that this run loaded");
}

TEST(FrameworkVerify, TheLoadedListIsKeptForTheComparison) {
  auto run = framework_step_from_output(
      kTarget,
      printed(R"({"version":"2.5.1","devices":["cpu"],"placed_on":"cpu","matmul_error":1e-5,"conv_error":2e-6,)"
              R"("error":null,"loaded":["/venv/x/libcudnn.so.9", 7]})"),
      10);
  ASSERT_EQ(run.loaded.size(), 1u);
  EXPECT_EQ(run.loaded[0], "/venv/x/libcudnn.so.9");
}

}  // namespace
}  // namespace gpudoctor::gpu
