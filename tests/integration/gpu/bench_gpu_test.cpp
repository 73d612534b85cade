// `gpudoctor bench --quick` on a real GPU: every per-GPU figure (cuBLASLt and FP8 included; FP8
// skipped with why below CC 8.9) is measured and passes its check
// against the CPU, and the datasheet ceiling is never exceeded by more than the boost-clock
// margin. Runs only where the NVIDIA driver is loaded (scripts/device-check.sh).
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

TEST(BenchOnGpu, QuickMeasuresAndChecksEveryGpuFigure) {
  if (::access("/proc/driver/nvidia/version", F_OK) != 0 && ::access("/dev/nvidiactl", F_OK) != 0) {
    GTEST_SKIP() << "no NVIDIA driver loaded on this machine: the GPU path is tested by the fakes";
  }
  auto r = testing::run_gpudoctor({"--json", "bench", "--quick", "--no-history"}, std::chrono::minutes(10));
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  int gpu_figures = 0;
  for (const auto& m : r.json["measurements"]) {
    const std::string key = m["key"];
    if (!key.starts_with("gpu")) continue;
    ++gpu_figures;
    if (key.ends_with("gemm_fp8") && m["status"] == "skipped") {
      // A card below CC 8.9 has no FP8: skipped with why, never a figure.
      EXPECT_NE(m["detail"].get<std::string>().find("not supported on CC"), std::string::npos) << m["detail"];
      EXPECT_TRUE(m["value"].is_null());
      continue;
    }
    if (key.ends_with("gemm_tf32") && m["status"] == "skipped") {
      // Below CC 8.0 there is no TF32: skipped with why, never FP32 under TF32's name.
      EXPECT_NE(m["detail"].get<std::string>().find("TF32 needs CC 8.0"), std::string::npos) << m["detail"];
      EXPECT_TRUE(m["value"].is_null());
      continue;
    }
    EXPECT_EQ(m["status"], "ok") << key << ": " << m["detail"];
    EXPECT_TRUE(m["check_passed"].get<bool>()) << key << ": " << m["check"];
    if (m["fraction_of_ceiling"].is_number()) {
      // GeForce boost clocks can pass the rated peak by some percent; 1.3x would be a wrong formula.
      EXPECT_LT(m["fraction_of_ceiling"].get<double>(), 1.3) << key;
    }
  }
  EXPECT_GE(gpu_figures, 15) << r.out;  // 12 + cuBLASLt FP16, BF16 and FP8 per GPU
  // With two GPUs or more, NVML's topology: every pair named (no "?").
  if (r.json["topology"].is_object()) {
    for (const auto& row : r.json["topology"]["links"]) {
      for (const auto& cell : row) EXPECT_NE(cell, "?") << r.json["topology"].dump();
    }
  }
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

}  // namespace
}  // namespace gpudoctor
