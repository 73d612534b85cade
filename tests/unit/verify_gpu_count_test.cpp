// verify's "gpu-count" step (gpu/verify_runner.hpp): NVML's count of GPUs against CUDA's. A
// board that failed initialisation is seen by NVML and not by CUDA, and every later step tests
// one GPU fewer than the machine has; "all passed" would then be a wrong tick (review 45, 1).
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>

#include "gpu/verify_runner.hpp"

namespace gpudoctor::gpu {
namespace {

NvmlReport two_h100s() {
  NvmlReport n;
  n.status = LibraryStatus::ok;
  n.device_count = 2;
  for (const char* bus : {"0000:3b:00.0", "0000:86:00.0"}) {
    GpuDeviceReport d;
    d.index = static_cast<unsigned>(n.devices.size());
    d.name = "NVIDIA H100 80GB HBM3";
    d.pci_bus_id = bus;
    n.devices.push_back(d);
  }
  return n;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(VerifyGpuCount, FewerGpusInCudaThanInNvmlFailNamingBothCountsAndTheMissingGpu) {
  VerifyStep s = compare_gpu_counts(two_h100s(), 1, {{0, "0000:3b:00"}}, std::nullopt);
  EXPECT_EQ(s.name, "gpu-count");
  EXPECT_FALSE(s.device.has_value());
  EXPECT_EQ(s.status, StepStatus::failed);
  EXPECT_TRUE(has(s.detail, "NVML sees 2 GPU(s), CUDA only 1")) << s.detail;
  EXPECT_TRUE(has(s.detail, "nvidia-smi -q")) << s.detail;
  EXPECT_TRUE(has(s.detail, "dmesg")) << s.detail;
  EXPECT_TRUE(has(s.detail, "nvidia-smi -r")) << s.detail;
  ASSERT_EQ(s.notes.size(), 1U);
  // The one CUDA does not show, by NVML's index, name and PCI address; not the one it does.
  EXPECT_EQ(s.notes[0], "not seen by CUDA: NVML GPU 1, NVIDIA H100 80GB HBM3 at PCI 0000:86:00.0");
}

TEST(VerifyGpuCount, WithoutPciAddressesEveryNvmlGpuIsListedAndSaidSo) {
  NvmlReport n = two_h100s();
  n.devices[1].pci_bus_id.clear();
  VerifyStep s = compare_gpu_counts(n, 1, {{0, "0000:3b:00"}}, std::nullopt);
  EXPECT_EQ(s.status, StepStatus::failed);
  ASSERT_EQ(s.notes.size(), 1U) << s.detail;
  EXPECT_TRUE(has(s.notes[0], "which of NVML's GPUs CUDA lacks cannot be told")) << s.notes[0];
  EXPECT_TRUE(has(s.notes[0], "NVML GPU 0, NVIDIA H100 80GB HBM3 at PCI 0000:3b:00.0")) << s.notes[0];
}

TEST(VerifyGpuCount, EqualCountsPass) {  // the near miss: nothing changes on a healthy machine
  VerifyStep s = compare_gpu_counts(two_h100s(), 2, {{0, "0000:3b:00"}, {1, "0000:86:00"}}, std::nullopt);
  EXPECT_EQ(s.status, StepStatus::passed) << s.detail;
  EXPECT_TRUE(has(s.detail, "NVML and CUDA both see 2 GPU(s)")) << s.detail;
  EXPECT_TRUE(s.notes.empty());
}

TEST(VerifyGpuCount, MoreInCudaIsNotAMissingGpu) {  // MIG instances are CUDA devices, not boards
  VerifyStep s = compare_gpu_counts(two_h100s(), 3, {}, std::nullopt);
  EXPECT_EQ(s.status, StepStatus::passed) << s.detail;
}

TEST(VerifyGpuCount, CudaVisibleDevicesMakesFewerExpected) {
  VerifyStep s = compare_gpu_counts(two_h100s(), 1, {{0, "0000:86:00"}}, std::string("1"));
  EXPECT_EQ(s.status, StepStatus::skipped) << s.detail;
  EXPECT_TRUE(has(s.detail, "NVML sees 2 GPU(s), CUDA 1")) << s.detail;
  EXPECT_TRUE(has(s.detail, "CUDA_VISIBLE_DEVICES=\"1\"")) << s.detail;
  // The near miss: the variable set and the counts equal is a plain pass.
  EXPECT_EQ(compare_gpu_counts(two_h100s(), 2, {}, std::string("0,1")).status, StepStatus::passed);
}

// Slurm and Kubernetes always set the variable: indices it names that CUDA does not show are a
// missing GPU, not an expected one (the re-read of session 45).
TEST(VerifyGpuCount, AGpuTheVariableNamesAndCudaLacksFails) {
  VerifyStep s = compare_gpu_counts(two_h100s(), 1, {{0, "0000:3b:00"}}, std::string("0,1"));
  EXPECT_EQ(s.status, StepStatus::failed) << s.detail;
  EXPECT_TRUE(has(s.detail, "names 2 of NVML's 2 GPU(s), CUDA 1 shows")) << s.detail;
  // Near misses: one index named, or names CUDA reads otherwise (UUIDs), stay a note.
  EXPECT_EQ(compare_gpu_counts(two_h100s(), 1, {}, std::string("1")).status, StepStatus::skipped);
  EXPECT_EQ(compare_gpu_counts(two_h100s(), 1, {}, std::string("GPU-5c3d,GPU-77aa")).status, StepStatus::skipped);
  EXPECT_EQ(compare_gpu_counts(two_h100s(), 1, {}, std::string("0,0")).status, StepStatus::skipped);
}

TEST(VerifyGpuCount, AMigInstanceInCudaMakesFewerExpected) {
  VerifyStep s = compare_gpu_counts(two_h100s(), 1, {{0, "0000:3b:00"}}, std::nullopt, true);
  EXPECT_EQ(s.status, StepStatus::skipped) << s.detail;
  EXPECT_TRUE(has(s.detail, "MIG")) << s.detail;
}

TEST(VerifyGpuCount, NvmlThatDidNotAnswerLeavesTheCountsUncompared) {
  NvmlReport n;
  n.status = LibraryStatus::init_failed;
  n.error = "nvmlInit_v2: NVML_ERROR_DRIVER_NOT_LOADED (9)";
  VerifyStep s = compare_gpu_counts(n, 1, {}, std::nullopt);
  EXPECT_EQ(s.status, StepStatus::skipped);
  EXPECT_TRUE(has(s.detail, "not compared")) << s.detail;
  EXPECT_TRUE(has(s.detail, "NVML_ERROR_DRIVER_NOT_LOADED")) << s.detail;
  // Loaded, but the device count failed: no count to compare either.
  NvmlReport no_count = two_h100s();
  no_count.device_count.reset();
  EXPECT_EQ(compare_gpu_counts(no_count, 1, {}, std::nullopt).status, StepStatus::skipped);
}

}  // namespace
}  // namespace gpudoctor::gpu
