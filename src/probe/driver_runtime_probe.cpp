#include <charconv>
#include <chrono>

#include "gpu/driver_query.hpp"
#include "probe/probes.hpp"

namespace gpudoctor {
namespace {

/// Lets a user with a slow (not wedged) driver, and the tests, move the deadline.
constexpr const char* kDeadlineVariable = "GPUDOCTOR_DRIVER_TIMEOUT_MS";
constexpr int kMaxDeadlineMs = 120'000;

std::chrono::milliseconds deadline_for(const SystemView& system, Facts& facts) {
  gpu::DriverQueryOptions defaults;
  auto text = system.env(kDeadlineVariable);
  if (!text) return defaults.deadline;
  int ms = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), ms);
  if (ec != std::errc() || end != text->data() + text->size() || ms <= 0 || ms > kMaxDeadlineMs) {
    facts.problems.push_back(
        {"driver-runtime", kDeadlineVariable,
         "ignored \"" + *text + "\": not a number of milliseconds from 1 to " + std::to_string(kMaxDeadlineMs)});
    return defaults.deadline;
  }
  return std::chrono::milliseconds(ms);
}

/// cuDriverGetVersion / NVML's encoding: 1000 * major + 10 * minor (12040 -> 12.4).
std::optional<Version> cuda_version_from_int(int v) {
  if (v <= 0) return std::nullopt;
  return Version::of({v / 1000, (v % 1000) / 10});
}

}  // namespace

void probe_driver_runtime(const SystemView& system, Facts& facts) {
  DriverFacts& driver = facts.driver;
  if (!system.is_live()) {
    // Never load a library from a diagnosed tree, nor the host's in its place.
    driver.nvml_status = LibraryStatus::skipped;
    driver.libcuda_status = LibraryStatus::skipped;
    return;
  }
  gpu::DriverQueryOptions options;
  options.deadline = deadline_for(system, facts);
  gpu::DriverRuntimeReport report = gpu::query_driver_runtime(options);
  const gpu::NvmlReport& nvml = report.nvml;
  const gpu::CudaDriverReport& cuda = report.cuda;

  driver.nvml_status = nvml.status;
  driver.nvml_error = nvml.error;
  driver.nvml_path = nvml.path;
  driver.nvml_device_count = nvml.device_count;
  if (nvml.status == LibraryStatus::timeout || nvml.status == LibraryStatus::crashed)
    driver.nvml_stopped_on_device = nvml.last_device;
  driver.libcuda_status = cuda.status;
  driver.libcuda_error = cuda.error;
  driver.libcuda_path = cuda.path;

  // What the library answered holds even when a later call hung or crashed.
  if (auto v = Version::parse(nvml.driver_version); v && !nvml.driver_version.empty()) {
    driver.version = *v;
    driver.version_source = "nvml";
  }
  // The CUDA version the driver supports: NVML's answer first, cuDriverGetVersion's otherwise.
  const std::pair<std::optional<int>, const char*> cuda_answers[] = {{nvml.cuda_driver_version, "nvml"},
                                                                     {cuda.driver_version, "cuDriverGetVersion"}};
  for (const auto& [encoded, source] : cuda_answers) {
    std::optional<Version> v = encoded ? cuda_version_from_int(*encoded) : std::nullopt;
    if (!v) continue;
    driver.cuda_driver_version = *v;
    driver.cuda_driver_version_source = source;
    break;
  }
  for (const gpu::GpuDeviceReport& d : nvml.devices) {
    facts.gpus.push_back(GpuFacts{.name = d.name,
                                  .source = "nvml",
                                  .uuid = d.uuid,
                                  .pci_bus_id = d.pci_bus_id,
                                  .pci_device_id = d.pci_device_id,
                                  .cc_major = d.cc_major,
                                  .cc_minor = d.cc_minor,
                                  .memory_total_bytes = d.memory_total_bytes,
                                  .persistence_mode = d.persistence_mode,
                                  .ecc_uncorrected_volatile = d.ecc_uncorrected_volatile,
                                  .retired_pages = d.retired_pages});
  }
  for (const std::string& p : nvml.problems) facts.problems.push_back({"nvml", nvml.path, p});
  for (const std::string& p : cuda.problems) facts.problems.push_back({"libcuda", cuda.path, p});
}

}  // namespace gpudoctor
