// verify --framework pytorch and bench --framework pytorch against a real PyTorch. PyPI's torch is
// the CUDA build, which runs without a GPU (CPU ops work), but it pulls about 3 GB of nvidia-*
// wheels: too much for every CI run, so these tests run only when GPUDOCTOR_TORCH_VENV names a
// virtualenv with torch installed, and skip saying so otherwise (docs/testing.md has the commands).
// The GPU figures' code (autocast, GradScaler, DistributedDataParallel) runs on the CPU through
// the script's test mode: DDP over gloo, one process per rank.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "real_framework.hpp"

namespace gpudoctor {
namespace {

using testing::find_figure;
using testing::gpu_machine;
constexpr auto kDeadline = testing::kRealFrameworkDeadline;

std::string torch_venv() {
  return testing::venv_from("GPUDOCTOR_TORCH_VENV");
}

#define REQUIRE_TORCH_VENV()                                                                             \
  if (torch_venv().empty())                                                                              \
  GTEST_SKIP() << "SKIPPED: GPUDOCTOR_TORCH_VENV is not set (a venv with PyPI's torch, about 3 GB: not " \
                  "downloaded in CI; docs/testing.md)"

gpu::FrameworkTarget target() {
  return testing::framework_target(torch_venv(), "pytorch");
}

TEST(RealTorch, VerifySaysWhereTheWorkRanAndWhatWasLoaded) {
  REQUIRE_TORCH_VENV();
  const std::string venv = target().env;
  auto r = testing::run_gpudoctor({"--env", venv, "--json", "verify", "--framework", "pytorch"}, kDeadline);
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  const nlohmann::json* step = testing::framework_step(r, "pytorch", venv);
  ASSERT_NE(step, nullptr) << r.out;
  const std::string detail = (*step)["detail"];
  const std::string notes = (*step)["notes"].dump();
  EXPECT_NE(notes.find("/torch/lib/libtorch_cpu.so"), std::string::npos) << "/proc/self/maps: " << notes;
  EXPECT_NE(detail.find("matmul max error"), std::string::npos) << detail;
  if (gpu_machine()) {
    EXPECT_EQ((*step)["status"], "passed") << detail;
    EXPECT_EQ(r.exit_code, 0);
  } else {
    EXPECT_EQ((*step)["status"], "failed") << detail;
    EXPECT_NE(detail.find("CPU fallback"), std::string::npos) << detail;
    EXPECT_NE(detail.find("why: no working NVIDIA driver"), std::string::npos) << detail;
    EXPECT_NE(notes.find("devices: cpu"), std::string::npos) << notes;
    EXPECT_EQ(r.exit_code, 1);
  }
}

TEST(RealTorch, BenchQuickCpuStepThroughTheBinary) {
  REQUIRE_TORCH_VENV();
  auto r = testing::run_gpudoctor({"--env", target().env, "--json", "bench", "--framework", "pytorch", "--quick",
                                   "--cpu-only", "--no-history", "--framework-image", "64", "--framework-batch", "2"},
                                  kDeadline);
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  const std::string key = "pytorch.resnet18_fp32.cpu";
  ASSERT_EQ(r.json["measurements"].size(), 1u) << r.out;
  const auto& m = r.json["measurements"][0];
  EXPECT_EQ(m["key"], key);
  EXPECT_EQ(m["status"], "ok") << m.dump();
  EXPECT_TRUE(m["check_passed"].get<bool>()) << m["check"];
  EXPECT_GT(r.json["results"].value(key + ".images_per_s", 0.0), 0.0);
  EXPECT_NE(m["library"].get<std::string>().find("pytorch 2."), std::string::npos) << m["library"];
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

// The GPU figures' code on the CPU: FP32, autocast fp16 with GradScaler, and DDP over gloo with
// two processes; each must learn the fixed batch.
TEST(RealTorch, GpuFigureCodeOnTheCpuWithDdpOverGloo) {
  REQUIRE_TORCH_VENV();
  gpu::FrameworkBenchConfig c = gpu::framework_bench_config("quick");
  c.image = 64;
  c.gpu_batch = 2;
  c.min_seconds = 0;
  c.cpu = false;  // the product's CPU figure: BenchQuickCpuStepThroughTheBinary
  c.test_config = R"({"dp_platform": "cpu", "dp_ranks": 2, "half": "fp16"})";
  HostProcessRunner runner;
  auto run = gpu::run_framework_bench(runner, target(), c, kDeadline);
  for (const char* key : {"pytorch.resnet18_fp32.gpu0", "pytorch.resnet18_fp16.gpu0", "pytorch.resnet18_fp32.gpus2"}) {
    const BenchMeasurement* m = find_figure(run, key);
    ASSERT_NE(m, nullptr) << key << "\n" << run.stderr_text;
    EXPECT_EQ(m->status, BenchStatus::ok) << key << ": " << m->detail << "\n" << run.stderr_text;
    EXPECT_TRUE(m->check_passed) << key << ": " << m->check;
    EXPECT_GT(m->value, 0) << key;
  }
  const BenchMeasurement* ddp = find_figure(run, "pytorch.resnet18_fp32.gpus2");
  ASSERT_NE(ddp, nullptr);
  EXPECT_NE(ddp->detail.find("batch 4 "), std::string::npos) << ddp->detail;  // 2 per rank
  EXPECT_NE(ddp->detail.find("DistributedDataParallel (gloo)"), std::string::npos) << ddp->detail;
  EXPECT_NE(ddp->detail.find("test mode, on the CPU"), std::string::npos) << ddp->detail;
  EXPECT_NE(find_figure(run, "pytorch.resnet18_fp16.gpu0")->detail.find("GradScaler"), std::string::npos);
}

// A rank that dies ends the DDP figure at once: the other rank, waiting for the group, is killed
// instead of holding the step until the deadline. The bf16 autocast figure learns too.
TEST(RealTorch, ADdpRankThatDiesFailsTheFigureAtOnce) {
  REQUIRE_TORCH_VENV();
  gpu::FrameworkBenchConfig c = gpu::framework_bench_config("quick");
  c.image = 64;
  c.gpu_batch = 2;
  c.min_steps = 2;
  c.min_seconds = 0;
  c.cpu = false;
  c.test_config = R"({"dp_platform": "cpu", "dp_ranks": 2, "dp_fail_rank": 1})";
  HostProcessRunner runner;
  auto start = std::chrono::steady_clock::now();
  // Within the deadline the script's gloo rendezvous would wait 30 min for the missing rank.
  auto run = gpu::run_framework_bench(runner, target(), c, std::chrono::minutes(5));
  auto took = std::chrono::steady_clock::now() - start;
  const BenchMeasurement* ddp = find_figure(run, "pytorch.resnet18_fp32.gpus2");
  ASSERT_NE(ddp, nullptr) << run.stderr_text;
  EXPECT_EQ(ddp->status, BenchStatus::failed) << ddp->detail;
  EXPECT_NE(ddp->detail.find("DDP rank(s) [1] exited with [3]"), std::string::npos) << ddp->detail;
  EXPECT_LT(took, std::chrono::minutes(4)) << "the surviving rank was left waiting";
  const BenchMeasurement* bf16 = find_figure(run, "pytorch.resnet18_bf16.gpu0");
  ASSERT_NE(bf16, nullptr);
  EXPECT_EQ(bf16->status, BenchStatus::ok) << bf16->detail;
  EXPECT_TRUE(bf16->check_passed) << bf16->check;
}

}  // namespace
}  // namespace gpudoctor
