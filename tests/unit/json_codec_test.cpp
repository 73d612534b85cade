// The one JSON codec of the model (model/json_codec.hpp): GPU reports go out of a child and
// come back whole, and text from a process that died half-way is read without harm.
#include "model/json_codec.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace gpudoctor {
namespace {

NvmlReport sample_nvml() {
  NvmlReport r;
  r.status = LibraryStatus::init_failed;
  r.error = "nvmlDeviceGetHandleByIndex_v2(1): NVML_ERROR_GPU_IS_LOST";
  r.error_kind = ErrorKind::io_error;
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
  d.ecc_uncorrected_volatile = 5000000000ULL;
  d.retired_pages = 3;
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
  EXPECT_EQ(d.ecc_uncorrected_volatile, 5000000000ULL);
  EXPECT_EQ(d.retired_pages, 3u);
}

TEST(JsonCodec, CudaDriverReportSurvivesTheRoundTrip) {
  CudaDriverReport in;
  in.status = LibraryStatus::ok;
  in.path = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";
  in.driver_version = 13000;
  in.device_count = 8;
  CudaDriverReport out;
  report_from_json(report_to_json(in), out);
  EXPECT_EQ(out.status, LibraryStatus::ok);
  EXPECT_EQ(out.driver_version, 13000);
  EXPECT_EQ(out.device_count, 8);
}

TEST(JsonCodec, MistypedAndMissingKeysLeaveDefaults) {
  auto j = nlohmann::ordered_json::parse(
      R"({"status": 7, "code": "x", "bound": [1, {"slot": "init"}], "device_count": -1.5, "cuda_driver_version": -3,
          "devices": [null, {"name": ["no"], "cc_major": "9", "index": 3, "memory_total_bytes": -1}]})");
  NvmlReport r;
  report_from_json(j, r);
  EXPECT_EQ(r.status, LibraryStatus::none);
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

/// Facts with every field set to something other than its default, so a field the codec does
/// not write, or writes and does not read back, changes the round trip.
Facts every_fact_set() {
  Facts f;
  f.platform = Platform::windows;
  f.root = "/srv/tree";
  f.live = true;
  f.os = {.name = "Debian GNU/Linux 12 (bookworm)",
          .id = "debian",
          .version_id = "12",
          .kernel = "6.1.0-27-amd64",
          .arch = "x86_64",
          .wsl2 = true,
          .wsl_dxg_device = true,
          .wsl_lib_dir = true,
          .container = "docker",
          .container_evidence = {"/.dockerenv"}};
  f.driver = {.version = Version::parse("580.95.05"),
              .version_source = "/proc/driver/nvidia/version",
              .module_flavor = "open",
              .nvidia_module_loaded = true,
              .nouveau_loaded = true,
              .cuda_driver_version = Version::parse("13.0"),
              .cuda_driver_version_source = "nvml",
              .files = {{.name = "libcuda.so.1",
                         .path = "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
                         .version = Version::parse("580.95.05"),
                         .unreadable = {"/usr/lib64"}}},
              .nvml_status = LibraryStatus::ok,
              .nvml_error = "none",
              .nvml_path = "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1",
              .nvml_device_count = 8,
              .nvml_stopped_on_device = 3,
              .libcuda_status = LibraryStatus::timeout,
              .libcuda_error = "cuInit did not return in 10 s",
              .libcuda_path = "/usr/lib/x86_64-linux-gnu/libcuda.so.1"};
  f.gpus = {{.name = "NVIDIA H200",
             .source = "nvml",
             .uuid = "GPU-0c1b",
             .pci_bus_id = "0000:18:00.0",
             .pci_device_id = "2335",
             .cc_major = 9,
             .cc_minor = 0,
             .compute_capability_source = "nvml",
             .kb_name = "NVIDIA H200",
             .memory_total_bytes = 150754820096ULL,
             .persistence_mode = true,
             .ecc_uncorrected_volatile = 2,
             .retired_pages = 1,
             .kernel_driver = "nvidia"}};
  f.toolkits = {{.path = "/usr/local/cuda-13.0",
                 .found_via = {"/usr/local/cuda", "PATH nvcc"},
                 .version = Version::parse("13.0.88"),
                 .version_source = "nvcc",
                 .has_nvcc = true,
                 .kind = "system"}};
  f.libraries = {{.name = "cudnn",
                  .version = Version::parse("9.19.0"),
                  .version_source = "cudnn_version.h",
                  .path = "/usr/local/cuda/lib64",
                  .files = {"libcudnn.so.9"},
                  .origin = "toolkit",
                  .cuda_major = 13,
                  .loader_order = 2}};
  FrameworkFacts fw{.name = "tensorflow",
                    .package = "tensorflow",
                    .version = *Version::parse("2.15.1"),
                    .location = "/venv/lib/python3.11/site-packages",
                    .cuda_build = true,
                    .cuda_version = Version::parse("12.2"),
                    .cudnn_version = Version::parse("8"),
                    .compute_capabilities = {"sm_60", "compute_90"},
                    .variant = "cuda12",
                    .evidence = "tensorflow/python/platform/build_info.py",
                    .problems = {"RECORD unreadable"},
                    .conflicts = {"files of tensorflow 2.15.1 and tensorflow-intel 2.15.0 mixed"},
                    .requires_torch = Version::parse("2.5.1"),
                    .loads = {{.soname = "libcudart.so.12", .path = "/venv/x/libcudart.so.12", .via = "pip wheel"}}};
  f.python_envs = {{.path = "/venv",
                    .kind = "venv",
                    .interpreter = "/venv/bin/python",
                    .python_version = Version::parse("3.11.2"),
                    .python_version_source = "pyvenv.cfg",
                    .site_packages = {"/venv/lib/python3.11/site-packages"},
                    .found_via = {"VIRTUAL_ENV"},
                    .frameworks = {fw},
                    .nvidia_wheels = {{.package = "nvidia-cudnn-cu12",
                                       .version = *Version::parse("8.9.4.25"),
                                       .library = "cudnn",
                                       .cuda_major = 12}}}};
  f.env = {{"CUDA_VISIBLE_DEVICES", "0"}, {"LD_LIBRARY_PATH", "/opt/x"}};
  f.problems = {{.probe = "python", .path = "/venv", .message = "unreadable"}};
  f.windows = WindowsFacts{
      .registry_source = "registry export C:\\x.reg",
      .build = "22631",
      .pythons = {{.hive = "HKLM (32-bit view)",
                   .company = "PythonCore",
                   .tag = "3.9-32",
                   .install_path = "C:\\Python39-32",
                   .executable = "C:\\Python39-32\\python.exe",
                   .version = "3.9",
                   .exists = true}},
      .msvc_runtime = {{.name = "msvcp140.dll", .path = "C:\\Windows\\System32\\msvcp140.dll"},
                       {.name = "msvcp140_1.dll", .path = ""}},
      .py_launcher = "C:\\Windows\\py.exe",
      .store_pythons = {"C:\\Users\\u\\AppData\\Local\\Packages\\PythonSoftwareFoundation.Python.3.12_qbz5n2kfra8p0"},
      .dll_loads = {{.framework = "tensorflow",
                     .env = "C:\\env",
                     .dll = "cudnn64_8.dll",
                     .loader = "tensorflow-dso-loader",
                     .path = "",
                     .via = "",
                     .unreached = {"C:\\CUDA\\bin\\cudnn64_8.dll"}},
                    {.framework = "torch",
                     .env = "C:\\env",
                     .dll = "cudart64_12.dll",
                     .loader = "torch-dll-loader",
                     .path = "C:\\env\\Lib\\site-packages\\torch\\lib\\cudart64_12.dll",
                     .via = "torch\\lib",
                     .unreached = {}},
                    {.framework = "tensorflow",
                     .env = "C:\\env",
                     .dll = "cudnn64_8.dll",
                     .loader = "tensorflow-dso-loader",
                     .path = "C:\\CUDA\\bin\\cudnn64_8.dll",
                     .via = "PATH",
                     .unreached = {},
                     .version = Version::parse("8.0.5.39"),
                     .version_source = "C:\\CUDA\\bin\\cudnn64_8.dll file version 8.0.5.39",
                     .version_problem = ""},
                    {.framework = "tensorflow",
                     .env = "C:\\env2",
                     .dll = "cudnn64_8.dll",
                     .loader = "tensorflow-dso-loader",
                     .path = "C:\\tools\\cuda\\bin\\cudnn64_8.dll",
                     .via = "PATH",
                     .unreached = {},
                     .version = std::nullopt,
                     .version_source = "",
                     .version_problem = "no file version: no version resource"}}};
  return f;
}

TEST(JsonCodec, EveryFactSurvivesTheRoundTrip) {
  Facts in = every_fact_set();
  Facts out;
  facts_from_json(nlohmann::ordered_json::parse(facts_to_json(in).dump()), out);
  EXPECT_EQ(facts_to_json(out).dump(2), facts_to_json(in).dump(2));
  // The dumps agree on what is written; equality also catches a field never written at all.
  EXPECT_TRUE(out == in) << "a field of Facts is not written, or not read back";
}

TEST(JsonCodec, LinuxFactsHaveNoWindowsObject) {
  Facts in = every_fact_set();
  in.windows.reset();
  auto j = facts_to_json(in);
  EXPECT_FALSE(j.contains("windows"));
  Facts out;
  facts_from_json(nlohmann::ordered_json::parse(j.dump()), out);
  EXPECT_FALSE(out.windows.has_value());
}

TEST(JsonCodec, EveryFindingFieldSurvivesTheRoundTrip) {
  std::vector<Finding> in = {{.id = "tf-cudnn-mismatch",
                              .severity = Severity::error,
                              .area = FindingArea::python,
                              .title = "t",
                              .detail = "d",
                              .fix = "f",
                              .evidence = {"e1", "e2"},
                              .source = "data/compat/tensorflow.toml"}};
  EXPECT_TRUE(findings_from_json(nlohmann::ordered_json::parse(findings_to_json(in).dump())) == in);
}

TEST(JsonCodec, GpuSamplesSurviveTheRoundTripAndAProcessWithoutPidIsDropped) {
  GpuSample g{
      .index = 1,
      .name = "NVIDIA H200",
      .uuid = "GPU-1",
      .pci_bus_id = "0000:19:00.0",
      .gpu_util_percent = 97,
      .memory_util_percent = 40,
      .memory_used_bytes = 1ULL << 36,
      .memory_total_bytes = 150754820096ULL,
      .temperature_c = 71,
      .power_w = 612.5,
      .power_limit_w = 700,
      .sm_clock_mhz = 1980,
      .memory_clock_mhz = 3201,
      .throttle_reasons = 4,
      .pcie_tx_kib_per_s = 12,
      .pcie_rx_kib_per_s = 34,
      .ecc_uncorrected_volatile = 0,
      .retired_pages_single_bit = 1,
      .retired_pages_double_bit = 2,
      .remapped_rows_uncorrectable = 3,
      .remapping_pending = false,
      .processes =
          std::vector<GpuProcessSample>{
              {.pid = 4242, .used_memory_bytes = 1ULL << 33, .command = "python train.py", .cpu_percent = 99.5}},
      .problems = {"nvmlDeviceGetPowerUsage: NVML_ERROR_UNKNOWN"}};
  std::vector<GpuSample> out;
  gpu_samples_from_json(nlohmann::ordered_json::parse(gpu_samples_to_json({g}).dump()), out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0] == g) << "a field of GpuSample is not written, or not read back";

  auto j = gpu_samples_to_json({g});
  j[0]["processes"].push_back({{"command", "no pid"}});
  out.clear();
  gpu_samples_from_json(j, out);
  ASSERT_EQ(out.size(), 1u);
  ASSERT_TRUE(out[0].processes.has_value());
  EXPECT_EQ(out[0].processes->size(), 1u) << "a process without its pid is not a process";
}

TEST(JsonCodec, NumbersThatDoNotFitTheirFieldAreNotRead) {
  auto j =
      nlohmann::ordered_json::parse(R"([{"index": 4294967297, "temperature_c": 1e3, "gpu_util_percent": 5000000000}])");
  std::vector<GpuSample> out;
  gpu_samples_from_json(j, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].index, 0u) << "2^32 + 1 is not read as 1";
  EXPECT_FALSE(out[0].temperature_c.has_value()) << "a fraction is not a count";
  EXPECT_FALSE(out[0].gpu_util_percent.has_value());
}

TEST(JsonCodec, AStepStatusIsItsNameAndJunkReadsAsNone) {
  // The enum goes out by name (a child's answer, `verify --json`), never as a number.
  for (StepStatus s : {StepStatus::passed, StepStatus::failed, StepStatus::skipped, StepStatus::crashed,
                       StepStatus::timeout, StepStatus::not_found}) {
    VerifyStep step{.name = "kernel", .status = s};
    nlohmann::ordered_json j = step_to_json(step);
    ASSERT_TRUE(j["status"].is_string()) << j.dump();
    EXPECT_EQ(j["status"].get<std::string>(), to_string(s));
    VerifyStep back;
    step_from_json(j, back);
    EXPECT_EQ(back.status, s) << to_string(s);
  }
  // What another process wrote is untrusted: an unknown name is no status (the parent then calls
  // the step crashed), never a pass.
  for (const char* junk : {"PASSED", "passed ", "ok", "1"}) {
    VerifyStep back;
    step_from_json(nlohmann::ordered_json{{"status", junk}}, back);
    EXPECT_EQ(back.status, StepStatus::none) << junk;
    EXPECT_FALSE(back.passed()) << junk;
  }
  VerifyStep numeric;
  step_from_json(nlohmann::ordered_json{{"status", 1}}, numeric);
  EXPECT_EQ(numeric.status, StepStatus::none);
}

TEST(JsonCodec, AnErrorKindIsItsNameEmptyWhenNoneAndJunkReadsAsNone) {
  for (ErrorKind k :
       {ErrorKind::not_found, ErrorKind::load_failed, ErrorKind::timeout, ErrorKind::crashed, ErrorKind::unsupported}) {
    NvmlReport r;
    r.error_kind = k;
    nlohmann::ordered_json j = report_to_json(r);
    ASSERT_TRUE(j["error_kind"].is_string()) << j.dump();
    EXPECT_EQ(j["error_kind"].get<std::string>(), to_string(k));
    NvmlReport back;
    report_from_json(j, back);
    EXPECT_EQ(back.error_kind, k) << to_string(k);
  }
  // No failure is "", as before the kind was an enum (the documented format).
  EXPECT_EQ(report_to_json(NvmlReport{})["error_kind"], "");
  for (const nlohmann::ordered_json& junk : {nlohmann::ordered_json("TIMEOUT"), nlohmann::ordered_json("unknown"),
                                             nlohmann::ordered_json(""), nlohmann::ordered_json(3)}) {
    NvmlReport back;
    back.error_kind = ErrorKind::crashed;
    report_from_json(nlohmann::ordered_json{{"error_kind", junk}}, back);
    EXPECT_FALSE(back.error_kind.has_value()) << junk.dump();
  }
}

TEST(JsonCodec, ABenchStatusIsItsNameAndJunkReadsAsNone) {
  for (BenchStatus s :
       {BenchStatus::ok, BenchStatus::skipped, BenchStatus::failed, BenchStatus::crashed, BenchStatus::timeout}) {
    nlohmann::ordered_json j = measurement_to_json(BenchMeasurement{.key = "cpu.sgemm_fp32", .status = s});
    ASSERT_TRUE(j["status"].is_string()) << j.dump();
    BenchMeasurement back;
    measurement_from_json(j, back);
    EXPECT_EQ(back.status, s) << to_string(s);
  }
  BenchMeasurement junk;
  measurement_from_json(nlohmann::ordered_json{{"status", "OK"}, {"value", 1.0}}, junk);
  EXPECT_EQ(junk.status, BenchStatus::none);
  EXPECT_FALSE(junk.ok()) << "a figure whose status is not ok is no measurement";
}

TEST(JsonCodec, EveryBenchFieldSurvivesTheRoundTrip) {
  BenchReport in{.mode = "quick",
                 .started_utc = "2026-12-01T10:58:03Z",
                 .host = "node1",
                 .cpu_model = "AMD EPYC",
                 .cpu_threads = 2,
                 .gpu_names = {"NVIDIA H200"},
                 .measurements = {{.key = "gpu0.gemm_bf16",
                                   .unit = "tflops",
                                   .status = BenchStatus::ok,
                                   .detail = "8192x8192x8192 cublasGemmEx",
                                   .value = 700.5,
                                   .min = 690,
                                   .max = 710,
                                   .spread_pct = 0.4,
                                   .iterations = 20,
                                   .seconds_median = 0.0016,
                                   .library = "cuBLAS 13.0",
                                   .check = "against FP64 on the CPU",
                                   .check_passed = true,
                                   .ceiling = 989,
                                   .ceiling_source = "compat/gpu_peaks.toml",
                                   .last_call = "cublasGemmEx"}},
                 .claims = {{.what = "GPU/CPU on GEMM", .guide = "10-50x", .ratio = 38, .basis = "a over b"}},
                 .compared_with_utc = "2026-11-30T10:00:00Z",
                 .changes = {{.key = "gpu0.gemm_bf16.tflops",
                              .previous = 720,
                              .current = 700.5,
                              .change_pct = -2.7,
                              .noise_pct = 5,
                              .verdict = "same"}},
                 .notes = {"n"},
                 .problems = {"p"}};
  BenchReport out;
  bench_report_from_json(nlohmann::ordered_json::parse(bench_report_to_json(in).dump()), out);
  EXPECT_TRUE(out == in) << "a field of BenchReport is not written, or not read back";
}

}  // namespace
}  // namespace gpudoctor
