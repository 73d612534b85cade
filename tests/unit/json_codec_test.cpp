// The one JSON codec of the model (model/json_codec.hpp): GPU reports go out of a child and
// come back whole, and text from a process that died half-way is read without harm.
#include "model/json_codec.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace gpudoctor {
namespace {

NvmlReport sample_nvml() {
  NvmlReport r;
  r.status = "init-failed";
  r.error = "nvmlDeviceGetHandleByIndex_v2(1): NVML_ERROR_GPU_IS_LOST";
  r.error_kind = "io_error";
  r.code = 15;
  r.path = "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1";
  r.bound = {{"init", "nvmlInit_v2"}, {"count", "nvmlDeviceGetCount_v2"}};
  r.problems = {"nvmlDeviceGetPersistenceMode(0): NVML_ERROR_NOT_SUPPORTED"};
  r.driver_version = "580.95.05";
  r.cuda_driver_version = 13000;
  r.device_count = 2;
  GpuDeviceReport d;
  d.index = 0;
  d.name = "NVIDIA H200";
  d.uuid = "GPU-0c1b";
  d.pci_bus_id = "0000:18:00.0";
  d.pci_device_id = "2335";
  d.cc_major = 9;
  d.cc_minor = 0;
  d.memory_total_bytes = 150754820096ULL;
  d.persistence_mode = false;
  r.devices.push_back(d);
  return r;
}

TEST(JsonCodec, NvmlReportSurvivesTheRoundTrip) {
  NvmlReport in = sample_nvml();
  // Through text, as it crosses the pipe.
  auto text = report_to_json(in).dump();
  NvmlReport out;
  report_from_json(nlohmann::ordered_json::parse(text), out);
  EXPECT_EQ(out.status, in.status);
  EXPECT_EQ(out.error, in.error);
  EXPECT_EQ(out.error_kind, in.error_kind);
  EXPECT_EQ(out.code, in.code);
  EXPECT_EQ(out.path, in.path);
  ASSERT_EQ(out.bound.size(), 2u);
  EXPECT_EQ(out.bound[1].symbol, "nvmlDeviceGetCount_v2");
  EXPECT_EQ(out.problems, in.problems);
  EXPECT_EQ(out.driver_version, in.driver_version);
  EXPECT_EQ(out.cuda_driver_version, in.cuda_driver_version);
  EXPECT_EQ(out.device_count, in.device_count);
  ASSERT_EQ(out.devices.size(), 1u);
  const GpuDeviceReport& d = out.devices[0];
  EXPECT_EQ(d.name, "NVIDIA H200");
  EXPECT_EQ(d.pci_device_id, "2335");
  EXPECT_EQ(d.cc_major, 9);
  EXPECT_EQ(d.cc_minor, 0);
  EXPECT_EQ(d.memory_total_bytes, 150754820096ULL);  // beyond 32 bits
  EXPECT_EQ(d.persistence_mode, false);
}

TEST(JsonCodec, CudaDriverReportSurvivesTheRoundTrip) {
  CudaDriverReport in;
  in.status = "ok";
  in.path = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";
  in.driver_version = 13000;
  in.device_count = 8;
  CudaDriverReport out;
  report_from_json(report_to_json(in), out);
  EXPECT_EQ(out.status, "ok");
  EXPECT_EQ(out.driver_version, 13000);
  EXPECT_EQ(out.device_count, 8);
}

TEST(JsonCodec, MistypedAndMissingKeysLeaveDefaults) {
  auto j = nlohmann::ordered_json::parse(
      R"({"status": 7, "code": "x", "bound": [1, {"slot": "init"}], "device_count": -1.5, "cuda_driver_version": -3,
          "devices": [null, {"name": ["no"], "cc_major": "9", "index": 3, "memory_total_bytes": -1}]})");
  NvmlReport r;
  report_from_json(j, r);
  EXPECT_EQ(r.status, "");
  EXPECT_EQ(r.code, 0);
  ASSERT_EQ(r.bound.size(), 1u);
  EXPECT_EQ(r.bound[0].slot, "init");
  EXPECT_FALSE(r.device_count.has_value());
  EXPECT_EQ(r.cuda_driver_version, -3);  // signed: kept, for the checks to judge
  ASSERT_EQ(r.devices.size(), 1u);
  EXPECT_EQ(r.devices[0].name, "");
  EXPECT_FALSE(r.devices[0].cc_major.has_value());
  EXPECT_EQ(r.devices[0].index, 3u);
  EXPECT_FALSE(r.devices[0].memory_total_bytes.has_value()) << "-1 is not 16 EiB";
}

}  // namespace
}  // namespace gpudoctor
