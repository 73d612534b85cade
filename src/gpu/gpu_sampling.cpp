#include "gpu/gpu_sampling.hpp"

#include <cstring>
#include <nlohmann/json.hpp>

#include "core/text.hpp"
#include "model/json_codec.hpp"

namespace gpudoctor::gpu {
namespace {

using json = nlohmann::ordered_json;

/// A GPU's processes: at most this many are kept.
constexpr unsigned kMaxProcesses = 256;

void send(ChildChannel& out, const json& j) {
  out.write_line(j.dump(-1, ' ', false, json::error_handler_t::replace));
}

void send_failure(ChildChannel& out, LibraryStatus status, const std::string& error) {
  send(out, json{{"status", to_string(status)}, {"error", error}});
}

/// One optional reading: the value when the call answered, nullopt when the slot is absent or
/// the call failed; a failure other than "not supported" is also written down as a problem.
class Reader {
 public:
  explicit Reader(GpuSample& sample) : sample_(sample) {}
  template <class Fn, class... Args>
  bool call(Fn fn, const char* symbol, Args... args) {
    if (fn == nullptr) return false;
    nvmlReturn_t rc = fn(args...);
    if (rc == kNvmlSuccess) return true;
    note(symbol, rc);
    return false;
  }
  void note(const char* symbol, nvmlReturn_t rc) {
    if (sample_.lost.empty() && nvml_gpu_gone(rc)) sample_.lost = nvml_error_name(rc);
    if (rc != kNvmlErrorNotSupported && sample_.problems.size() < 16) {
      sample_.problems.push_back(std::string(symbol) + ": " + nvml_error_name(rc));
    }
  }

 private:
  GpuSample& sample_;
};

void read_processes(const NvmlApi& api, nvmlDevice_t device, Reader& r, GpuSample& g) {
  if (api.device_compute_processes == nullptr) return;
  std::vector<nvmlProcessInfo_t> infos(16);
  for (int attempt = 0; attempt < 3; ++attempt) {
    unsigned count = static_cast<unsigned>(infos.size());
    nvmlReturn_t rc = api.device_compute_processes(device, &count, infos.data());
    if (rc == kNvmlErrorInsufficientSize && count > infos.size() && count <= kMaxProcesses) {
      infos.resize(count);  // the count says how many there are now; ask again
      continue;
    }
    if (rc != kNvmlSuccess) {
      r.note("nvmlDeviceGetComputeRunningProcesses", rc);
      return;
    }
    g.processes.emplace();
    for (unsigned i = 0; i < count && i < infos.size(); ++i) {
      GpuProcessSample p;
      p.pid = infos[i].pid;
      if (infos[i].usedGpuMemory != kNvmlValueNotAvailable) p.used_memory_bytes = infos[i].usedGpuMemory;
      g.processes->push_back(p);
    }
    return;
  }
}

GpuSample read_device(const NvmlApi& api, unsigned index, nvmlDevice_t device) {
  GpuSample g;
  g.index = index;
  Reader r(g);
  char text[kNvmlDeviceNameBufferSize] = {};
  if (r.call(api.device_name, "nvmlDeviceGetName", device, text, kNvmlDeviceNameBufferSize)) {
    g.name = bounded_c_string(text, sizeof text);
  }
  char uuid[kNvmlDeviceUuidBufferSize] = {};
  if (r.call(api.device_uuid, "nvmlDeviceGetUUID", device, uuid, kNvmlDeviceUuidBufferSize)) {
    g.uuid = bounded_c_string(uuid, sizeof uuid);
  }
  nvmlPciInfo_t pci{};
  if (r.call(api.device_pci_info, "nvmlDeviceGetPciInfo", device, &pci)) {
    std::string bus = bounded_c_string(pci.busId, sizeof pci.busId);
    if (bus.empty()) bus = bounded_c_string(pci.busIdLegacy, sizeof pci.busIdLegacy);
    g.pci_bus_id = normalize_pci_bus_id(bus);
  }
  nvmlUtilization_t util{};
  if (r.call(api.device_utilization, "nvmlDeviceGetUtilizationRates", device, &util)) {
    g.gpu_util_percent = util.gpu;
    g.memory_util_percent = util.memory;
  }
  bool have_memory = false;
  if (api.device_memory_info_v2 != nullptr) {
    nvmlMemory_v2_t memory{};
    memory.version = kNvmlMemoryV2Version;
    if (api.device_memory_info_v2(device, &memory) == kNvmlSuccess) {
      g.memory_used_bytes = memory.used;
      g.memory_total_bytes = memory.total;
      have_memory = true;
    }
  }
  nvmlMemory_t memory{};
  if (!have_memory && r.call(api.device_memory_info, "nvmlDeviceGetMemoryInfo", device, &memory)) {
    g.memory_used_bytes = memory.used;
    g.memory_total_bytes = memory.total;
  }
  unsigned value = 0;
  if (r.call(api.device_temperature, "nvmlDeviceGetTemperature", device, kNvmlTemperatureGpu, &value)) {
    g.temperature_c = value;
  }
  if (r.call(api.device_power_usage, "nvmlDeviceGetPowerUsage", device, &value)) g.power_w = value / 1000.0;
  if (r.call(api.device_power_limit, "nvmlDeviceGetEnforcedPowerLimit", device, &value)) {
    g.power_limit_w = value / 1000.0;
  }
  if (r.call(api.device_clock, "nvmlDeviceGetClockInfo", device, kNvmlClockSm, &value)) g.sm_clock_mhz = value;
  if (r.call(api.device_clock, "nvmlDeviceGetClockInfo", device, kNvmlClockMem, &value)) g.memory_clock_mhz = value;
  unsigned long long mask = 0;
  if (r.call(api.device_throttle_reasons, "nvmlDeviceGetCurrentClocksEventReasons", device, &mask)) {
    g.throttle_reasons = mask;
  }
  if (r.call(api.device_pcie_throughput, "nvmlDeviceGetPcieThroughput", device, kNvmlPcieTxBytes, &value)) {
    g.pcie_tx_kib_per_s = value;
  }
  if (r.call(api.device_pcie_throughput, "nvmlDeviceGetPcieThroughput", device, kNvmlPcieRxBytes, &value)) {
    g.pcie_rx_kib_per_s = value;
  }
  unsigned long long ecc = 0;
  if (r.call(api.device_ecc_errors, "nvmlDeviceGetTotalEccErrors", device, kNvmlMemoryErrorUncorrected,
             kNvmlVolatileEcc, &ecc)) {
    g.ecc_uncorrected_volatile = ecc;
  }
  // A count query (no buffer): the count comes back with success or "insufficient size".
  for (auto [cause, field] : {std::pair{kNvmlRetiredSingleBit, &GpuSample::retired_pages_single_bit},
                              std::pair{kNvmlRetiredDoubleBit, &GpuSample::retired_pages_double_bit}}) {
    if (api.device_retired_pages == nullptr) break;
    unsigned pages = 0;
    nvmlReturn_t rc = api.device_retired_pages(device, cause, &pages, nullptr);
    if (rc == kNvmlSuccess || rc == kNvmlErrorInsufficientSize) {
      g.*field = pages;
    } else {
      r.note("nvmlDeviceGetRetiredPages", rc);
    }
  }
  unsigned corrected = 0;
  unsigned uncorrected = 0;
  unsigned pending = 0;
  unsigned failed = 0;
  if (r.call(api.device_remapped_rows, "nvmlDeviceGetRemappedRows", device, &corrected, &uncorrected, &pending,
             &failed)) {
    g.remapped_rows_uncorrectable = uncorrected;
    g.remapping_pending = pending != 0;
  }
  read_processes(api, device, r, g);
  return g;
}

}  // namespace

void sample_gpus(DriverSession& session, const std::vector<std::string>& args, ChildChannel& out) {
  if (!session.nvml) {
    Result<NvmlApi> loaded = load_nvml(args.empty() ? default_nvml_names() : args);
    if (!loaded) {
      send_failure(out, status_for(loaded.error().kind), loaded.error().message);
      return;
    }
    session.nvml.emplace(std::move(loaded).value());
  }
  const NvmlApi& api = *session.nvml;
  if (!session.nvml_initialised) {
    nvmlReturn_t rc = api.init();
    if (rc != kNvmlSuccess) {
      send_failure(out, LibraryStatus::init_failed, "nvmlInit: " + nvml_error_name(rc));
      return;
    }
    session.nvml_initialised = true;
  }
  json answer{{"status", to_string(LibraryStatus::ok)}};
  if (api.system_driver_version != nullptr) {
    char version[kNvmlDriverVersionBufferSize] = {};
    if (api.system_driver_version(version, kNvmlDriverVersionBufferSize) == kNvmlSuccess) {
      answer["driver_version"] = bounded_c_string(version, sizeof version);
    }
  }
  // Counted every time: a GPU that fell off the bus leaves the list.
  unsigned count = 0;
  nvmlReturn_t rc = api.device_count(&count);
  if (rc != kNvmlSuccess) {
    send_failure(out, LibraryStatus::init_failed, "nvmlDeviceGetCount: " + nvml_error_name(rc));
    return;
  }
  std::vector<GpuSample> gpus;
  for (unsigned i = 0; i < count && i < kMaxDevices; ++i) {
    nvmlDevice_t device = nullptr;
    rc = api.device_handle_by_index(i, &device);
    if (rc != kNvmlSuccess) {
      GpuSample g;
      g.index = i;
      Reader(g).note("nvmlDeviceGetHandleByIndex", rc);
      gpus.push_back(std::move(g));
      continue;
    }
    gpus.push_back(read_device(api, i, device));
  }
  answer["gpus"] = gpu_samples_to_json(gpus);
  send(out, answer);
}

GpuSampling request_gpu_sample(Agent& agent, const std::vector<std::string>& names,
                               std::chrono::milliseconds deadline) {
  GpuSampling s;
  ChildOutcome outcome = agent.exchange("sample", names, deadline);
  if (outcome.error) {
    s.status = status_for(outcome.error->kind);
    s.error = "GPU agent: " + outcome.error->message;
    return s;
  }
  json j = json::parse(outcome.output, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) {
    s.status = status_for(ErrorKind::invalid_data);
    s.error = "GPU agent: unreadable sample";
    return s;
  }
  auto text = [&j](const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  s.status = parse_library_status(text("status"));
  s.error = text("error");
  s.driver_version = text("driver_version");
  if (auto it = j.find("gpus"); it != j.end()) gpu_samples_from_json(*it, s.gpus);
  if (s.status == LibraryStatus::none) s.status = status_for(ErrorKind::invalid_data);
  return s;
}

}  // namespace gpudoctor::gpu
