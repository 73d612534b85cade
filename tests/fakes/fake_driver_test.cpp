// The run-time driver layer against fake libnvidia-ml.so.1 / libcuda.so.1: the real dlopen
// path, real child processes, real deadlines. ctest runs these with LD_LIBRARY_PATH set to
// the fakes' directory (or to an empty one for NoDriverLibrary.*); run by hand, they skip and
// say so.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "gpu/driver_query.hpp"
#include "gpu/gpu_agent.hpp"
#include "probe/probes.hpp"
#include "test_files.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;
using std::chrono::steady_clock;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

bool loader_path_is(const char* dir) {
  const char* path = std::getenv("LD_LIBRARY_PATH");
  return path != nullptr && std::string(path) == dir;
}

std::string scenario(const std::string& name) {
  return std::string(GPUDOCTOR_FAKE_SCENARIOS_DIR) + "/" + name + ".ini";
}

/// Sets the process environment for the duration of a test; the child processes inherit it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

class FakeDriver : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!loader_path_is(GPUDOCTOR_FAKE_LIB_DIR)) {
      GTEST_SKIP() << "needs LD_LIBRARY_PATH=" << GPUDOCTOR_FAKE_LIB_DIR
                   << " from process start; run through ctest -L fakes";
    }
  }

  /// The probe exactly as the doctor calls it, on the live machine.
  Facts probe(const std::string& scenario_name, int deadline_ms = 5000) {
    ScopedEnv fake("GPUDOCTOR_FAKE_DRIVER", scenario(scenario_name));
    ScopedEnv deadline("GPUDOCTOR_DRIVER_TIMEOUT_MS", std::to_string(deadline_ms));
    SystemView system = SystemView::host(nullptr);
    Facts facts;
    auto start = steady_clock::now();
    probe_driver_runtime(system, facts);
    elapsed_ = std::chrono::duration_cast<milliseconds>(steady_clock::now() - start);
    return facts;
  }

  std::string fake(const char* name) const { return std::string(GPUDOCTOR_FAKE_LIB_DIR) + "/" + name; }

  milliseconds elapsed_{0};
};

TEST_F(FakeDriver, HealthyReportsEveryField) {
  Facts facts = probe("healthy");
  const DriverFacts& d = facts.driver;
  EXPECT_EQ(d.nvml_status, LibraryStatus::ok) << d.nvml_error;
  EXPECT_EQ(d.nvml_error, "");
  EXPECT_EQ(d.nvml_path, fs::canonical(fake("libnvidia-ml.so.1")).string());
  EXPECT_EQ(d.libcuda_status, LibraryStatus::ok) << d.libcuda_error;
  EXPECT_EQ(d.libcuda_path, fs::canonical(fake("libcuda.so.1")).string());
  ASSERT_TRUE(d.version.has_value());
  EXPECT_EQ(d.version->str(), "550.54.15");
  EXPECT_EQ(d.version_source, "nvml");
  ASSERT_TRUE(d.cuda_driver_version.has_value());
  EXPECT_EQ(d.cuda_driver_version->str(), "12.4");
  EXPECT_EQ(d.cuda_driver_version_source, "nvml");

  ASSERT_EQ(facts.gpus.size(), 2u);
  const GpuFacts& g0 = facts.gpus[0];
  EXPECT_EQ(g0.name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(g0.source, "nvml");
  EXPECT_EQ(g0.uuid, "GPU-4a2b8c1e-6f0d-4e6a-9a51-3c7d2e9b1f00");
  EXPECT_EQ(g0.pci_bus_id, "0000:18:00.0");
  EXPECT_EQ(g0.pci_device_id, "2330");
  EXPECT_EQ(g0.cc_major, 9);
  EXPECT_EQ(g0.cc_minor, 0);
  EXPECT_EQ(g0.memory_total_bytes, 85520809984ULL);
  EXPECT_EQ(g0.persistence_mode, true);
  const GpuFacts& g1 = facts.gpus[1];
  EXPECT_EQ(g1.uuid, "GPU-9e1f3d5a-2b7c-4c8d-8e0f-1a2b3c4d5e6f");
  EXPECT_EQ(g1.pci_bus_id, "0000:2a:00.0");  // lower-cased, 4-digit domain, as sysfs writes it
  EXPECT_EQ(g1.persistence_mode, false);
  EXPECT_TRUE(facts.problems.empty()) << facts.problems.front().message;
  EXPECT_LT(elapsed_.count(), 2000);
}

TEST_F(FakeDriver, EccErrorsAndRetiredPagesAreFacts) {
  Facts facts = probe("ecc_errors");
  ASSERT_EQ(facts.gpus.size(), 2u);
  EXPECT_EQ(facts.gpus[0].ecc_uncorrected_volatile, 0u);
  EXPECT_EQ(facts.gpus[0].retired_pages, 0u);
  EXPECT_EQ(facts.gpus[1].ecc_uncorrected_volatile, 3u);
  EXPECT_EQ(facts.gpus[1].retired_pages, 2u) << "single- and double-bit causes together";
  EXPECT_TRUE(facts.problems.empty()) << facts.problems.front().message;
  // Without ECC (healthy.ini answers "not supported"): unknown, not zero.
  Facts plain = probe("healthy");
  ASSERT_EQ(plain.gpus.size(), 2u);
  EXPECT_FALSE(plain.gpus[0].ecc_uncorrected_volatile.has_value());
  EXPECT_FALSE(plain.gpus[0].retired_pages.has_value());
}

TEST_F(FakeDriver, HealthyUsesTheNewestEntryPoints) {
  ScopedEnv fake_env("GPUDOCTOR_FAKE_DRIVER", scenario("healthy"));
  gpu::DriverRuntimeReport r = gpu::query_driver_runtime({});
  auto symbol = [&](const char* slot) {
    for (const auto& b : r.nvml.bound) {
      if (b.slot == slot) return b.symbol;
    }
    return std::string("(unbound)");
  };
  EXPECT_EQ(symbol("init"), "nvmlInit_v2");
  EXPECT_EQ(symbol("device_count"), "nvmlDeviceGetCount_v2");
  EXPECT_EQ(symbol("device_handle_by_index"), "nvmlDeviceGetHandleByIndex_v2");
  EXPECT_EQ(symbol("device_memory_info_v2"), "nvmlDeviceGetMemoryInfo_v2");
  EXPECT_EQ(symbol("device_pci_info"), "nvmlDeviceGetPciInfo_v3");
  EXPECT_EQ(symbol("system_cuda_driver_version"), "nvmlSystemGetCudaDriverVersion_v2");
  EXPECT_EQ(r.cuda.driver_version, 12040);
  EXPECT_EQ(r.cuda.device_count, 2);
}

TEST_F(FakeDriver, DriverNotLoadedKeepsTheErrorNames) {
  Facts facts = probe("driver_not_loaded");
  const DriverFacts& d = facts.driver;
  EXPECT_EQ(d.nvml_status, LibraryStatus::init_failed);
  EXPECT_EQ(d.nvml_error, "nvmlInit_v2: NVML_ERROR_DRIVER_NOT_LOADED (9): Driver Not Loaded");
  EXPECT_EQ(d.libcuda_status, LibraryStatus::init_failed);
  EXPECT_EQ(d.libcuda_error, "cuInit(0): CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected");
  // The library paths are known even though init failed: the libraries are installed.
  EXPECT_EQ(d.nvml_path, fs::canonical(fake("libnvidia-ml.so.1")).string());
  EXPECT_EQ(d.libcuda_path, fs::canonical(fake("libcuda.so.1")).string());
  // cuDriverGetVersion answers without cuInit: the CUDA the installed driver speaks.
  ASSERT_TRUE(d.cuda_driver_version.has_value());
  EXPECT_EQ(d.cuda_driver_version->str(), "12.4");
  EXPECT_EQ(d.cuda_driver_version_source, "cuDriverGetVersion");
  EXPECT_FALSE(d.version.has_value());
  EXPECT_TRUE(facts.gpus.empty());
}

TEST_F(FakeDriver, FailedNvmlKeepsTheDriverVersionReadFromFiles) {
  // probe_driver_files runs first; a failed NVML must not erase what /proc said.
  ScopedEnv fake_env("GPUDOCTOR_FAKE_DRIVER", scenario("driver_not_loaded"));
  SystemView system = SystemView::host(nullptr);
  Facts facts;
  facts.driver.version = Version::parse("535.104.05");
  facts.driver.version_source = "/proc/driver/nvidia/version";
  probe_driver_runtime(system, facts);
  EXPECT_EQ(facts.driver.nvml_status, LibraryStatus::init_failed);
  ASSERT_TRUE(facts.driver.version.has_value());
  EXPECT_EQ(*facts.driver.version, *Version::parse("535.104.05"));
  EXPECT_EQ(facts.driver.version_source, "/proc/driver/nvidia/version");
}

TEST_F(FakeDriver, LibraryVersionMismatchIsNamed) {
  Facts facts = probe("version_mismatch");
  EXPECT_EQ(facts.driver.nvml_status, LibraryStatus::init_failed);
  EXPECT_TRUE(contains(facts.driver.nvml_error, "NVML_ERROR_LIB_RM_VERSION_MISMATCH (18)")) << facts.driver.nvml_error;
  EXPECT_TRUE(contains(facts.driver.libcuda_error, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803)"))
      << facts.driver.libcuda_error;
}

TEST_F(FakeDriver, ErrorOnOneCallIsAProblemNotAFailure) {
  Facts facts = probe("error_on_one_call");
  EXPECT_EQ(facts.driver.nvml_status, LibraryStatus::ok);
  ASSERT_EQ(facts.gpus.size(), 2u);
  EXPECT_EQ(facts.gpus[0].uuid, "GPU-4a2b8c1e-6f0d-4e6a-9a51-3c7d2e9b1f00");
  EXPECT_EQ(facts.gpus[1].uuid, "");                       // the failed call
  EXPECT_EQ(facts.gpus[1].name, "NVIDIA H100 80GB HBM3");  // the others still answered
  EXPECT_EQ(facts.gpus[1].memory_total_bytes, 85520809984ULL);
  ASSERT_EQ(facts.problems.size(), 1u);
  EXPECT_EQ(facts.problems[0].probe, "nvml");
  EXPECT_EQ(facts.problems[0].message, "device 1: nvmlDeviceGetUUID: NVML_ERROR_GPU_IS_LOST (15): GPU is lost");
}

TEST_F(FakeDriver, HangingCallTimesOutAndKeepsWhatWasKnown) {
  // 2 s, not 0.7: the libcuda child shares the deadline, and under ASan on a loaded 2-core
  // machine (load 14, 2026-12-02) starting it alone took longer than 700 ms.
  Facts facts = probe("hang", 2000);
  const DriverFacts& d = facts.driver;
  EXPECT_EQ(d.nvml_status, LibraryStatus::timeout);
  EXPECT_EQ(d.nvml_error, "NVML: no answer within 2000 ms; child process killed in nvmlDeviceGetName (device 1)");
  // What NVML said before the hang still counts.
  ASSERT_TRUE(d.version.has_value());
  EXPECT_EQ(d.version->str(), "550.54.15");
  ASSERT_EQ(facts.gpus.size(), 1u);
  EXPECT_EQ(facts.gpus[0].uuid, "GPU-4a2b8c1e-6f0d-4e6a-9a51-3c7d2e9b1f00");
  // NVML counted both and stopped on the second: a fleet says it did not answer, not that it is
  // missing (review 43B, 06).
  EXPECT_EQ(d.nvml_device_count, 2u);
  EXPECT_EQ(d.nvml_stopped_on_device, 1u);
  // libcuda ran beside it and finished.
  EXPECT_EQ(d.libcuda_status, LibraryStatus::ok) << d.libcuda_error;
  EXPECT_GE(elapsed_.count(), 1950);
  EXPECT_LT(elapsed_.count(), 6000);
}

TEST_F(FakeDriver, CrashInLibcudaIsReportedAndNvmlStillAnswers) {
  Facts facts = probe("crash_in_libcuda");
  const DriverFacts& d = facts.driver;
  EXPECT_EQ(d.libcuda_status, LibraryStatus::crashed);
  EXPECT_TRUE(contains(d.libcuda_error, "in cuDeviceGetCount")) << d.libcuda_error;
#if !defined(__SANITIZE_ADDRESS__)
  // Under ASan the sanitizer catches the signal and exits with a status instead.
  EXPECT_EQ(d.libcuda_error, "libcuda: child process died from SIGSEGV (Segmentation fault) in cuDeviceGetCount");
#endif
  EXPECT_EQ(d.nvml_status, LibraryStatus::ok);
  EXPECT_EQ(facts.gpus.size(), 2u);
  EXPECT_EQ(d.nvml_device_count, 2u);
  EXPECT_FALSE(d.nvml_stopped_on_device) << "NVML finished: it stopped on no device";
  EXPECT_LT(elapsed_.count(), 3000);
}

TEST_F(FakeDriver, CrashInNvmlInit) {
  Facts facts = probe("crash_in_nvml_init");
  EXPECT_EQ(facts.driver.nvml_status, LibraryStatus::crashed);
  EXPECT_TRUE(contains(facts.driver.nvml_error, "in nvmlInit_v2")) << facts.driver.nvml_error;
  // Which library crashed is known: the child said so before calling into it.
  EXPECT_EQ(facts.driver.nvml_path, fs::canonical(fake("libnvidia-ml.so.1")).string());
  EXPECT_TRUE(facts.gpus.empty());
  EXPECT_EQ(facts.driver.libcuda_status, LibraryStatus::ok);
}

TEST_F(FakeDriver, WithoutAScenarioTheFakeRefusesToInit) {
  ::unsetenv("GPUDOCTOR_FAKE_DRIVER");
  gpu::DriverRuntimeReport r = gpu::query_driver_runtime({});
  EXPECT_EQ(r.nvml.status, LibraryStatus::init_failed);
  EXPECT_TRUE(contains(r.nvml.error, "NVML_ERROR_UNKNOWN (999)")) << r.nvml.error;
  EXPECT_EQ(r.cuda.status, LibraryStatus::init_failed);
}

TEST_F(FakeDriver, MissingRequiredSymbols) {
  ScopedEnv fake_env("GPUDOCTOR_FAKE_DRIVER", scenario("healthy"));
  gpu::DriverQueryOptions options;
  options.nvml_names = {std::string(GPUDOCTOR_FAKE_MISSING_DIR) + "/libnvidia-ml.so.1"};
  options.cuda_names = {std::string(GPUDOCTOR_FAKE_MISSING_DIR) + "/libcuda.so.1"};
  gpu::DriverRuntimeReport r = gpu::query_driver_runtime(options);
  EXPECT_EQ(r.nvml.status, LibraryStatus::load_failed);
  EXPECT_EQ(r.nvml.error, "missing required entry point: nvmlDeviceGetCount_v2 | nvmlDeviceGetCount");
  EXPECT_EQ(r.nvml.path, fs::canonical(options.nvml_names[0]).string());
  EXPECT_EQ(r.cuda.status, LibraryStatus::load_failed);
  EXPECT_EQ(r.cuda.error, "missing required entry point: cuDeviceGetCount");
}

TEST_F(FakeDriver, LegacyNamesAreUsedWhenNewOnesAreAbsent) {
  ScopedEnv fake_env("GPUDOCTOR_FAKE_DRIVER", scenario("healthy"));
  gpu::DriverQueryOptions options;
  options.nvml_names = {std::string(GPUDOCTOR_FAKE_LEGACY_DIR) + "/libnvidia-ml.so.1"};
  gpu::DriverRuntimeReport r = gpu::query_driver_runtime(options);
  ASSERT_EQ(r.nvml.status, LibraryStatus::ok) << r.nvml.error;
  std::map<std::string, std::string> bound;
  for (const auto& b : r.nvml.bound) bound[b.slot] = b.symbol;
  EXPECT_EQ(bound["init"], "nvmlInit");
  EXPECT_EQ(bound["device_count"], "nvmlDeviceGetCount");
  EXPECT_EQ(bound["device_pci_info"], "nvmlDeviceGetPciInfo_v2");
  EXPECT_EQ(bound.count("device_memory_info_v2"), 0u);
  ASSERT_EQ(r.nvml.devices.size(), 2u);
  EXPECT_EQ(r.nvml.devices[0].memory_total_bytes, 85520809984ULL);  // from the v1 call
  EXPECT_EQ(r.nvml.devices[1].pci_bus_id, "0000:2a:00.0");          // from busIdLegacy
  EXPECT_EQ(r.nvml.cuda_driver_version, 12040);
}

// The GPU agent: the same queries as ops of one long-lived child of ours.

TEST_F(FakeDriver, AgentAnswersAsTheOneShotTasksAndKeepsTheLibrariesLoaded) {
  ScopedEnv fake_env("GPUDOCTOR_FAKE_DRIVER", scenario("healthy"));
  gpu::DriverRuntimeReport one_shot = gpu::query_driver_runtime({});
  gpu::Agent agent;
  gpu::NvmlReport first = gpu::query_nvml(agent, {}, milliseconds(5000));
  ASSERT_EQ(first.status, LibraryStatus::ok) << first.error;
  EXPECT_EQ(first.path, one_shot.nvml.path);
  EXPECT_EQ(first.driver_version, one_shot.nvml.driver_version);
  ASSERT_EQ(first.devices.size(), one_shot.nvml.devices.size());
  EXPECT_EQ(first.devices[1].uuid, one_shot.nvml.devices[1].uuid);
  // The second request finds NVML loaded and initialised: no dlopen, no nvmlInit again.
  gpu::ChildOutcome second = agent.exchange("nvml", {}, milliseconds(5000));
  ASSERT_FALSE(second.error.has_value()) << second.error->message;
  EXPECT_FALSE(contains(second.output, R"({"call":"dlopen)")) << second.output;
  EXPECT_FALSE(contains(second.output, R"({"call":"nvmlInit)")) << second.output;
  EXPECT_TRUE(contains(second.output, R"({"call":"nvmlDeviceGetCount_v2"})")) << second.output;
  EXPECT_EQ(gpu::nvml_report_from_child(second).devices.size(), 2u);
  gpu::CudaDriverReport cuda = gpu::query_cuda_driver(agent, {}, milliseconds(5000));
  EXPECT_EQ(cuda.status, LibraryStatus::ok) << cuda.error;
  EXPECT_EQ(cuda.device_count, 2);
  EXPECT_EQ(agent.starts(), 1);
}

TEST_F(FakeDriver, AgentCrashInNvmlInitIsAFindingAndTheAgentComesBack) {
  ScopedEnv fake_env("GPUDOCTOR_FAKE_DRIVER", scenario("crash_in_nvml_init"));
  gpu::Agent agent;
  gpu::NvmlReport r = gpu::query_nvml(agent, {}, milliseconds(5000));
  EXPECT_EQ(r.status, LibraryStatus::crashed);
  EXPECT_TRUE(contains(r.error, "in nvmlInit_v2")) << r.error;
  EXPECT_EQ(r.path, fs::canonical(fake("libnvidia-ml.so.1")).string());
  gpu::CudaDriverReport cuda = gpu::query_cuda_driver(agent, {}, milliseconds(5000));
  EXPECT_EQ(cuda.status, LibraryStatus::ok) << cuda.error;
  EXPECT_EQ(agent.starts(), 2);
}

TEST_F(FakeDriver, AgentHangIsKilledAtTheRequestDeadline) {
  ScopedEnv fake_env("GPUDOCTOR_FAKE_DRIVER", scenario("hang"));
  gpu::Agent agent;
  auto start = steady_clock::now();
  // 2 s: the agent must start and answer GPU 0 first, which under ASan on a loaded machine can
  // take most of a second (see HangingCallTimesOutAndKeepsWhatWasKnown).
  gpu::NvmlReport r = gpu::query_nvml(agent, {}, milliseconds(2000));
  auto took = steady_clock::now() - start;
  EXPECT_EQ(r.status, LibraryStatus::timeout);
  EXPECT_EQ(r.error, "NVML: no answer within 2000 ms; child process killed in nvmlDeviceGetName (device 1)");
  EXPECT_EQ(r.driver_version, "550.54.15");
  EXPECT_GE(took, milliseconds(1950));
  EXPECT_LT(took, milliseconds(6000));
  EXPECT_FALSE(agent.running());
}

/// A scratch directory with one file named libnvidia-ml.so.1.
class BadLibrary : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::scratch_dir_for_test("gpudoctor-badlib");
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& bytes) {
    std::string path = (dir_ / "libnvidia-ml.so.1").string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

  gpu::NvmlReport query(const std::string& path) {
    gpu::DriverQueryOptions options;
    options.nvml_names = {path};
    options.deadline = milliseconds(5000);
    return gpu::query_driver_runtime(options).nvml;
  }

  fs::path dir_;
};

TEST_F(BadLibrary, GarbageBytes) {
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage += static_cast<char>((i * 7919 + 13) % 251);
  std::string path = write(garbage);
  gpu::NvmlReport r = query(path);
  EXPECT_EQ(r.status, LibraryStatus::load_failed);
  EXPECT_EQ(r.error, path + ": invalid ELF header");
  EXPECT_EQ(r.path, path);
}

TEST_F(BadLibrary, EmptyFile) {
  std::string path = write("");
  gpu::NvmlReport r = query(path);
  EXPECT_EQ(r.status, LibraryStatus::load_failed);
  EXPECT_EQ(r.error, path + ": file too short");
}

TEST_F(BadLibrary, WrongElfClass) {
  // A 32-bit ELF header: what a 32-bit driver package left in a 64-bit library path looks like.
  std::string header(64, '\0');
  header[0] = '\x7f';
  header[1] = 'E';
  header[2] = 'L';
  header[3] = 'F';
  header[4] = 1;   // ELFCLASS32
  header[5] = 1;   // little-endian
  header[6] = 1;   // EV_CURRENT
  header[16] = 3;  // ET_DYN
  header[18] = 3;  // EM_386
  header[20] = 1;
  std::string path = write(header);
  gpu::NvmlReport r = query(path);
  EXPECT_EQ(r.status, LibraryStatus::load_failed);
  EXPECT_EQ(r.error, path + ": wrong ELF class: ELFCLASS32");
}

TEST_F(BadLibrary, WrongMachine) {
  // The real fake, relabelled as an aarch64 object: a library for another architecture.
  std::ifstream in(std::string(GPUDOCTOR_FAKE_LIB_DIR) + "/libnvidia-ml.so.1", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 64u);
  bytes[18] = static_cast<char>(183);  // EM_AARCH64
  bytes[19] = 0;
  std::string path = write(bytes);
  gpu::NvmlReport r = query(path);
  EXPECT_EQ(r.status, LibraryStatus::load_failed) << r.error;
  // glibc's own words are misleading here ("No such file or directory"); the doctor adds
  // what the file really is.
  EXPECT_TRUE(contains(r.error, path + ": cannot open shared object file")) << r.error;
#if defined(__x86_64__)
  EXPECT_TRUE(contains(r.error,
                       "(the file exists but the loader skipped it: an ELF object for "
                       "aarch64, this process is x86_64)"))
      << r.error;
#endif
}

TEST(DriverRuntimeProbe, NotLiveNeverLoadsAnything) {
  SystemView::Options options;
  options.root = fs::temp_directory_path().string();
  options.live = false;
  SystemView system(options);
  Facts facts;
  probe_driver_runtime(system, facts);
  EXPECT_EQ(facts.driver.nvml_status, LibraryStatus::skipped);
  EXPECT_EQ(facts.driver.libcuda_status, LibraryStatus::skipped);
  EXPECT_EQ(facts.driver.nvml_path, "");
  EXPECT_TRUE(facts.gpus.empty());
}

TEST(DriverRuntimeProbe, BadDeadlineVariableIsReportedAndIgnored) {
  SystemView::Options options;
  options.live = true;
  options.env = {{"GPUDOCTOR_DRIVER_TIMEOUT_MS", "soon"}};
  SystemView system(options);
  Facts facts;
  probe_driver_runtime(system, facts);
  ASSERT_FALSE(facts.problems.empty());
  EXPECT_EQ(facts.problems[0].path, "GPUDOCTOR_DRIVER_TIMEOUT_MS");
  EXPECT_TRUE(contains(facts.problems[0].message, "\"soon\"")) << facts.problems[0].message;
  EXPECT_NE(facts.driver.nvml_status, LibraryStatus::none);
}

TEST(NoDriverLibrary, NothingOnTheLoaderPath) {
  if (!loader_path_is(GPUDOCTOR_FAKE_EMPTY_DIR)) {
    GTEST_SKIP() << "needs LD_LIBRARY_PATH=" << GPUDOCTOR_FAKE_EMPTY_DIR
                 << " from process start; run through ctest -L fakes";
  }
  Facts facts;
  probe_driver_runtime(SystemView::host(nullptr), facts);
  const DriverFacts& d = facts.driver;
  if (d.nvml_status != LibraryStatus::not_found) {
    GTEST_SKIP() << "this machine has an NVML the system loader finds (" << d.nvml_path
                 << "); the no-driver case cannot be shown here";
  }
  EXPECT_EQ(d.nvml_error, "libnvidia-ml.so.1: cannot open shared object file: No such file or directory");
  EXPECT_EQ(d.nvml_path, "");
  if (d.libcuda_status == LibraryStatus::not_found) {
    EXPECT_EQ(d.libcuda_error, "libcuda.so.1: cannot open shared object file: No such file or directory");
  } else {
    // A toolkit's stub libcuda.so on the loader's path is found and says what it is.
    EXPECT_TRUE(contains(d.libcuda_error, "CUDA_ERROR_STUB_LIBRARY")) << d.libcuda_error;
  }
  EXPECT_TRUE(facts.gpus.empty());
  EXPECT_FALSE(d.version.has_value());
}

}  // namespace
}  // namespace gpudoctor
