// `gpudoctor verify` on a real GPU: every step that can run passes. Runs only where the
// NVIDIA driver is loaded (scripts/device-check.sh); elsewhere it skips and says so.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

bool driver_loaded() {
  return ::access("/proc/driver/nvidia/version", F_OK) == 0 || ::access("/dev/nvidiactl", F_OK) == 0;
}

// Runs everywhere: the gpudoctor these tests drive answers (scripts/device-check.sh --prebuilt names
// a carried one in GPUDOCTOR_TEST_BINARY; a wrong path would otherwise only show as skips).
TEST(GpuTestsSetup, TheGpudoctorUnderTestAnswers) {
  auto r = testing::run_gpudoctor({"--version"});
  EXPECT_EQ(r.exit_code, 0) << testing::gpudoctor_binary() << ": " << r.err;
  EXPECT_NE(r.out.find("gpudoctor"), std::string::npos) << r.out;
}

TEST(VerifyOnGpu, EveryStepThatCanRunPasses) {
  if (!driver_loaded()) GTEST_SKIP() << "no NVIDIA driver loaded on this machine: the GPU path is tested by the fakes";
  auto r = testing::run_gpudoctor({"--json", "verify"}, std::chrono::minutes(10));
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  for (const auto& s : r.json["steps"]) {
    EXPECT_TRUE(s["status"] == "passed" || s["status"] == "skipped")
        << s["name"] << " on " << s.value("device", -1) << ": " << s["status"] << ": " << s["detail"];
  }
  EXPECT_EQ(r.json["passed"], true);
  EXPECT_EQ(r.exit_code, 0);
}

TEST(VerifyOnGpu, QuickRunsTheKernelOnEveryGpu) {
  if (!driver_loaded()) GTEST_SKIP() << "no NVIDIA driver loaded on this machine: the GPU path is tested by the fakes";
  auto r = testing::run_gpudoctor({"--json", "verify", "--quick"}, std::chrono::minutes(5));
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  int kernels = 0;
  for (const auto& s : r.json["steps"]) {
    if (s["name"] == "kernel") {
      EXPECT_EQ(s["status"], "passed") << s["detail"];
      ++kernels;
    }
  }
  EXPECT_GE(kernels, 1);
}

}  // namespace
}  // namespace gpudoctor
