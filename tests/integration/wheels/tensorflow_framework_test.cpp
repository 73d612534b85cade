// verify --framework tensorflow and bench --framework tensorflow against a real TensorFlow from
// PyPI (`pip install tensorflow`: about 2 GB installed, so never downloaded by a CI run). Each test
// runs only when GPUDOCTOR_TF_VENV names a virtualenv with it, and skips saying so otherwise
// (docs/testing.md). The GPU figures' code (the mixed_float16 policy with its LossScaleOptimizer,
// MirroredStrategy) runs on the CPU through the script's test mode: logical CPU devices.
#include <gtest/gtest.h>

#include <string>

#include "platform/process_runner.hpp"
#include "real_framework.hpp"

namespace gpudoctor {
namespace {

using testing::find_figure;
using testing::gpu_machine;
constexpr auto kDeadline = testing::kRealFrameworkDeadline;

std::string tf_venv() {
  return testing::venv_from("GPUDOCTOR_TF_VENV");
}

#define REQUIRE_TF_VENV()                                                                                  \
  if (tf_venv().empty())                                                                                   \
  GTEST_SKIP() << "SKIPPED: GPUDOCTOR_TF_VENV is not set (a venv with PyPI's tensorflow, about 2 GB: not " \
                  "downloaded in CI; docs/testing.md)"

gpu::FrameworkTarget target() {
  return testing::framework_target(tf_venv(), "tensorflow");
}

TEST(RealTensorflow, VerifySaysWhereTheWorkRanAndWhatWasLoaded) {
  REQUIRE_TF_VENV();
  const std::string venv = target().env;
  auto r = testing::run_gpudoctor({"--env", venv, "--json", "verify", "--framework", "tensorflow"}, kDeadline);
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  const nlohmann::json* step = testing::framework_step(r, "tensorflow", venv);
  ASSERT_NE(step, nullptr) << r.out;
  const std::string detail = (*step)["detail"];
  const std::string notes = (*step)["notes"].dump();
  EXPECT_NE(notes.find("/tensorflow/libtensorflow_framework.so.2"), std::string::npos) << notes;
  // By file name: none of TensorFlow's Python extension modules (_pywrap_tfe.so and 60 more).
  EXPECT_EQ(notes.find("_pywrap_tfe.so"), std::string::npos) << notes;
  EXPECT_NE(detail.find("matmul max error"), std::string::npos) << detail;
  if (gpu_machine()) {
    EXPECT_EQ((*step)["status"], "passed") << detail;
  } else {
    EXPECT_EQ((*step)["status"], "failed") << detail;
    EXPECT_NE(detail.find("CPU fallback"), std::string::npos) << detail;
    EXPECT_NE(detail.find("why: no working NVIDIA driver"), std::string::npos) << detail;
    // TensorFlow's own words through explain: the driver's library, not TensorFlow's CUDA wheels.
    EXPECT_NE(notes.find("[xla-cuinit-libcuda-not-loaded"), std::string::npos) << notes;
    EXPECT_EQ(r.exit_code, 1);
  }
}

TEST(RealTensorflow, BenchQuickCpuStepThroughTheBinary) {
  REQUIRE_TF_VENV();
  auto r = testing::run_gpudoctor({"--env", target().env, "--json", "bench", "--framework", "tensorflow", "--quick",
                                   "--cpu-only", "--no-history", "--framework-image", "64", "--framework-batch", "4"},
                                  kDeadline);
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  const std::string key = "tensorflow.resnet18_fp32.cpu";
  ASSERT_EQ(r.json["measurements"].size(), 1u) << r.out;
  const auto& m = r.json["measurements"][0];
  EXPECT_EQ(m["key"], key);
  EXPECT_EQ(m["status"], "ok") << m.dump();
  EXPECT_TRUE(m["check_passed"].get<bool>()) << m["check"];
  EXPECT_GT(r.json["results"].value(key + ".images_per_s", 0.0), 0.0);
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

// The GPU figures' code on two logical CPU devices: FP32, mixed_float16 with loss scaling, and
// MirroredStrategy; each must learn the fixed batch.
TEST(RealTensorflow, GpuFigureCodeOnTheCpuWithMirroredStrategy) {
  REQUIRE_TF_VENV();
  gpu::FrameworkBenchConfig c = gpu::framework_bench_config("quick");
  c.image = 64;
  c.gpu_batch = 2;
  c.min_seconds = 0;
  c.cpu = false;
  c.test_config = R"({"dp_platform": "cpu", "dp_ranks": 2})";
  HostProcessRunner runner;
  auto run = gpu::run_framework_bench(runner, target(), c, kDeadline);
  for (const char* key :
       {"tensorflow.resnet18_fp32.gpu0", "tensorflow.resnet18_fp16.gpu0", "tensorflow.resnet18_fp32.gpus2"}) {
    const BenchMeasurement* m = find_figure(run, key);
    ASSERT_NE(m, nullptr) << key << "\n" << run.stderr_text;
    EXPECT_EQ(m->status, BenchStatus::ok) << key << ": " << m->detail << "\n" << run.stderr_text;
    EXPECT_TRUE(m->check_passed) << key << ": " << m->check;
    EXPECT_GT(m->value, 0) << key;
  }
  const BenchMeasurement* mirrored = find_figure(run, "tensorflow.resnet18_fp32.gpus2");
  ASSERT_NE(mirrored, nullptr);
  EXPECT_NE(mirrored->detail.find("MirroredStrategy over 2 devices"), std::string::npos) << mirrored->detail;
  EXPECT_NE(mirrored->detail.find("test mode, on the CPU"), std::string::npos) << mirrored->detail;
  EXPECT_NE(find_figure(run, "tensorflow.resnet18_fp16.gpu0")->detail.find("mixed_float16"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
