// A fake libnvidia-ml.so.1 for tests: the same C entry points and signatures as NVIDIA's,
// answering from the scenario file (fake_scenario.hpp). Built in variants:
//   default                               every symbol the doctor knows, newest names too
//   GPUDOCTOR_FAKE_NVML_LEGACY            only the pre-_v2 names (an old driver)
//   GPUDOCTOR_FAKE_NVML_MISSING_REQUIRED  no nvmlDeviceGetCount at all (a broken install)
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "fake_scenario.hpp"

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

using nvmlReturn_t = int;
struct nvmlDevice_st {
  int index;
};
using nvmlDevice_t = nvmlDevice_st*;

struct nvmlMemory_t {
  unsigned long long total, free, used;
};
struct nvmlMemory_v2_t {
  unsigned int version;
  unsigned long long total, reserved, free, used;
};
struct nvmlPciInfo_t {
  char busIdLegacy[16];
  unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
};

constexpr nvmlReturn_t kSuccess = 0;
constexpr nvmlReturn_t kUninitialized = 1;
constexpr nvmlReturn_t kInvalidArgument = 2;
constexpr nvmlReturn_t kNotSupported = 3;
constexpr nvmlReturn_t kInsufficientSize = 7;
constexpr nvmlReturn_t kArgumentVersionMismatch = 25;
constexpr nvmlReturn_t kUnknown = 999;

bool g_initialized = false;
/// Sample steps so far: each nvmlDeviceGetCount call starts the next one.
size_t g_step = 0;
nvmlDevice_st g_devices[64];

const fake_driver::Scenario& s() {
  return fake_driver::scenario();
}

/// The check every real NVML call makes, then the scenario's override.
#define FAKE_ENTER(symbol, device)                                               \
  do {                                                                           \
    if (auto forced = fake_driver::override_for(symbol, device)) return *forced; \
  } while (0)

const fake_driver::Device* device_of(nvmlDevice_t d) {
  if (d == nullptr || d->index < 0 || static_cast<size_t>(d->index) >= s().devices.size()) {
    return nullptr;
  }
  return &s().devices[static_cast<size_t>(d->index)];
}

nvmlReturn_t copy_text(const std::string& text, char* out, unsigned length) {
  if (out == nullptr) return kInvalidArgument;
  if (text.size() + 1 > length) return kInsufficientSize;
  std::memcpy(out, text.c_str(), text.size() + 1);
  return kSuccess;
}

/// nvmlDeviceGetName / nvmlDeviceGetUUID: one text field of the scenario's device.
nvmlReturn_t device_text_impl(const char* symbol, nvmlDevice_t device, std::string fake_driver::Device::*field,
                              char* out, unsigned length) {
  FAKE_ENTER(symbol, device != nullptr ? device->index : -1);
  if (!g_initialized) return kUninitialized;
  const auto* d = device_of(device);
  if (d == nullptr) return kInvalidArgument;
  return copy_text(d->*field, out, length);
}

nvmlReturn_t init_impl(const char* symbol) {
  FAKE_ENTER(symbol, -1);
  if (!s().loaded) return kUnknown;
  g_initialized = true;
  return kSuccess;
}

/// The device's recorded value for the current step, nullptr when it has no such series.
const std::string* series_value(const fake_driver::Device& d, const char* key) {
  auto it = d.series.find(key);
  if (it == d.series.end() || it->second.empty()) return nullptr;
  size_t step = g_step == 0 ? 0 : g_step - 1;
  return &it->second[std::min(step, it->second.size() - 1)];
}

/// A numeric reading of `device` from its series, or NVML_ERROR_NOT_SUPPORTED without one.
template <class T>
nvmlReturn_t series_number(const char* symbol, nvmlDevice_t device, const char* key, T* out) {
  FAKE_ENTER(symbol, device != nullptr ? device->index : -1);
  if (!g_initialized) return kUninitialized;
  const auto* d = device_of(device);
  if (d == nullptr || out == nullptr) return kInvalidArgument;
  const std::string* v = series_value(*d, key);
  if (v == nullptr) return kNotSupported;
  *out = static_cast<T>(std::stoull(*v, nullptr, 0));
  return kSuccess;
}

nvmlReturn_t count_impl(const char* symbol, unsigned int* count) {
  FAKE_ENTER(symbol, -1);
  if (!g_initialized) return kUninitialized;
  ++g_step;
  if (auto it = s().nvml.find("hang_after_samples"); it != s().nvml.end() && g_step > std::stoull(it->second)) {
    fake_driver::hang_forever();
  }
  if (count == nullptr) return kInvalidArgument;
  *count = static_cast<unsigned>(s().devices.size());
  return kSuccess;
}

nvmlReturn_t handle_impl(const char* symbol, unsigned int index, nvmlDevice_t* device) {
  FAKE_ENTER(symbol, static_cast<int>(index));
  if (!g_initialized) return kUninitialized;
  if (device == nullptr || index >= s().devices.size() || index >= 64) return kInvalidArgument;
  g_devices[index].index = static_cast<int>(index);
  *device = &g_devices[index];
  return kSuccess;
}

nvmlReturn_t cuda_version_impl(const char* symbol, int* version) {
  FAKE_ENTER(symbol, -1);
  if (!g_initialized) return kUninitialized;
  if (version == nullptr) return kInvalidArgument;
  auto it = s().nvml.find("cuda_driver_version");
  if (it == s().nvml.end()) return 12;  // NVML_ERROR_LIBRARY_NOT_FOUND: no libcuda
  *version = std::stoi(it->second);
  return kSuccess;
}

nvmlReturn_t pci_impl(const char* symbol, nvmlDevice_t device, nvmlPciInfo_t* pci, bool v3) {
  FAKE_ENTER(symbol, device != nullptr ? device->index : -1);
  if (!g_initialized) return kUninitialized;
  const auto* d = device_of(device);
  if (d == nullptr || pci == nullptr) return kInvalidArgument;
  std::memset(pci, 0, sizeof *pci);
  std::string bus = d->pci_bus_id;
  if (v3) std::strncpy(pci->busId, bus.c_str(), sizeof pci->busId - 1);
  // The legacy 16-byte field holds the short form, with a 4-digit domain.
  if (bus.size() > 12) bus = bus.substr(bus.size() - 12);
  std::strncpy(pci->busIdLegacy, bus.c_str(), sizeof pci->busIdLegacy - 1);
  pci->pciDeviceId = d->pci_device_id;
  return kSuccess;
}

}  // namespace

FAKE_EXPORT const char* nvmlErrorString(nvmlReturn_t result) {
  // Only hang / crash apply here: the function returns text, not a code.
  (void)fake_driver::override_for("nvmlErrorString");
  switch (result) {
    case 0:
      return "Success";
    case 1:
      return "Uninitialized";
    case 2:
      return "Invalid Argument";
    case 3:
      return "Not Supported";
    case 9:
      return "Driver Not Loaded";
    case 12:
      return "NVML Shared Library Not Found";
    case 15:
      return "GPU is lost";
    case 18:
      return "Driver/library version mismatch";
    case 25:
      return "Argument version mismatch";
    default:
      return "Unknown Error";
  }
}

#ifndef GPUDOCTOR_FAKE_NVML_LEGACY
FAKE_EXPORT nvmlReturn_t nvmlInit_v2() {
  return init_impl("nvmlInit_v2");
}
#endif
FAKE_EXPORT nvmlReturn_t nvmlInit() {
  return init_impl("nvmlInit");
}

FAKE_EXPORT nvmlReturn_t nvmlShutdown() {
  FAKE_ENTER("nvmlShutdown", -1);
  g_initialized = false;
  return kSuccess;
}

FAKE_EXPORT nvmlReturn_t nvmlSystemGetDriverVersion(char* version, unsigned int length) {
  FAKE_ENTER("nvmlSystemGetDriverVersion", -1);
  if (!g_initialized) return kUninitialized;
  auto it = s().nvml.find("driver_version");
  return copy_text(it == s().nvml.end() ? std::string() : it->second, version, length);
}

#ifndef GPUDOCTOR_FAKE_NVML_LEGACY
FAKE_EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int* version) {
  return cuda_version_impl("nvmlSystemGetCudaDriverVersion_v2", version);
}
#endif
FAKE_EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion(int* version) {
  return cuda_version_impl("nvmlSystemGetCudaDriverVersion", version);
}

#ifndef GPUDOCTOR_FAKE_NVML_MISSING_REQUIRED
#ifndef GPUDOCTOR_FAKE_NVML_LEGACY
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int* count) {
  return count_impl("nvmlDeviceGetCount_v2", count);
}
#endif
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCount(unsigned int* count) {
  return count_impl("nvmlDeviceGetCount", count);
}
#endif

#ifndef GPUDOCTOR_FAKE_NVML_LEGACY
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t* device) {
  return handle_impl("nvmlDeviceGetHandleByIndex_v2", index, device);
}
#endif
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t* device) {
  return handle_impl("nvmlDeviceGetHandleByIndex", index, device);
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char* name, unsigned int length) {
  return device_text_impl("nvmlDeviceGetName", device, &fake_driver::Device::name, name, length);
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char* uuid, unsigned int length) {
  return device_text_impl("nvmlDeviceGetUUID", device, &fake_driver::Device::uuid, uuid, length);
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t device, int* major, int* minor) {
  FAKE_ENTER("nvmlDeviceGetCudaComputeCapability", device != nullptr ? device->index : -1);
  if (!g_initialized) return kUninitialized;
  const auto* d = device_of(device);
  if (d == nullptr || major == nullptr || minor == nullptr) return kInvalidArgument;
  *major = d->cc_major;
  *minor = d->cc_minor;
  return kSuccess;
}

#ifndef GPUDOCTOR_FAKE_NVML_LEGACY
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t* memory) {
  FAKE_ENTER("nvmlDeviceGetMemoryInfo_v2", device != nullptr ? device->index : -1);
  if (!g_initialized) return kUninitialized;
  const auto* d = device_of(device);
  if (d == nullptr || memory == nullptr) return kInvalidArgument;
  // The real library checks the caller's struct version the same way.
  if (memory->version != (static_cast<unsigned>(sizeof(nvmlMemory_v2_t)) | (2U << 24U))) {
    return kArgumentVersionMismatch;
  }
  memory->total = d->memory_total_bytes;
  memory->reserved = 512ULL << 20U;
  const std::string* used = series_value(*d, "memory_used_bytes");
  memory->used = used != nullptr ? std::stoull(*used) : 0;
  memory->free = memory->total - memory->reserved - std::min(memory->used, memory->total - memory->reserved);
  return kSuccess;
}
#endif

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t* memory) {
  FAKE_ENTER("nvmlDeviceGetMemoryInfo", device != nullptr ? device->index : -1);
  if (!g_initialized) return kUninitialized;
  const auto* d = device_of(device);
  if (d == nullptr || memory == nullptr) return kInvalidArgument;
  memory->total = d->memory_total_bytes;
  const std::string* used = series_value(*d, "memory_used_bytes");
  memory->used = used != nullptr ? std::stoull(*used) : 0;
  memory->free = memory->total - std::min(memory->used, memory->total);
  return kSuccess;
}

#ifndef GPUDOCTOR_FAKE_NVML_LEGACY
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t* pci) {
  return pci_impl("nvmlDeviceGetPciInfo_v3", device, pci, true);
}
#endif
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v2(nvmlDevice_t device, nvmlPciInfo_t* pci) {
  return pci_impl("nvmlDeviceGetPciInfo_v2", device, pci, false);
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPersistenceMode(nvmlDevice_t device, int* mode) {
  FAKE_ENTER("nvmlDeviceGetPersistenceMode", device != nullptr ? device->index : -1);
  if (!g_initialized) return kUninitialized;
  const auto* d = device_of(device);
  if (d == nullptr || mode == nullptr) return kInvalidArgument;
  *mode = d->persistence_mode;
  return kSuccess;
}

// ---- live readings, from the device's recorded series ----

namespace {

struct nvmlUtilization_t {
  unsigned int gpu, memory;
};
struct nvmlProcessInfo_t {
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId, computeInstanceId;
};

nvmlReturn_t processes_impl(const char* symbol, nvmlDevice_t device, unsigned int* count, nvmlProcessInfo_t* infos) {
  FAKE_ENTER(symbol, device != nullptr ? device->index : -1);
  if (!g_initialized) return kUninitialized;
  const auto* d = device_of(device);
  if (d == nullptr || count == nullptr) return kInvalidArgument;
  const std::string* v = series_value(*d, "processes");
  if (v == nullptr) return kNotSupported;
  std::vector<nvmlProcessInfo_t> found;
  std::string step = *v == "-" ? std::string() : *v;
  size_t begin = 0;
  while (begin < step.size()) {
    size_t end = step.find(';', begin);
    if (end == std::string::npos) end = step.size();
    std::string item = step.substr(begin, end - begin);
    begin = end + 1;
    size_t colon = item.find(':');
    if (colon == std::string::npos) continue;
    nvmlProcessInfo_t p{};
    p.pid = static_cast<unsigned>(std::stoul(item.substr(0, colon)));
    std::string bytes = item.substr(colon + 1);
    p.usedGpuMemory = bytes == "na" ? ~0ULL : std::stoull(bytes);
    found.push_back(p);
  }
  // As the real call: too small a buffer gets the count needed and INSUFFICIENT_SIZE.
  if (*count < found.size() || (infos == nullptr && !found.empty())) {
    *count = static_cast<unsigned>(found.size());
    return kInsufficientSize;
  }
  *count = static_cast<unsigned>(found.size());
  std::copy(found.begin(), found.end(), infos);
  return kSuccess;
}

}  // namespace

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t* util) {
  if (util == nullptr) return kInvalidArgument;
  nvmlReturn_t rc = series_number("nvmlDeviceGetUtilizationRates", device, "gpu_util", &util->gpu);
  if (rc != kSuccess) return rc;
  if (series_number("nvmlDeviceGetUtilizationRates", device, "mem_util", &util->memory) != kSuccess) util->memory = 0;
  return kSuccess;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t device, int sensor, unsigned int* temp) {
  if (sensor != 0) return kInvalidArgument;
  return series_number("nvmlDeviceGetTemperature", device, "temperature_c", temp);
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int* power) {
  return series_number("nvmlDeviceGetPowerUsage", device, "power_mw", power);
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t device, unsigned int* limit) {
  return series_number("nvmlDeviceGetEnforcedPowerLimit", device, "power_limit_mw", limit);
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t device, int type, unsigned int* clock) {
  if (type == 1) return series_number("nvmlDeviceGetClockInfo", device, "sm_clock_mhz", clock);
  if (type == 2) return series_number("nvmlDeviceGetClockInfo", device, "mem_clock_mhz", clock);
  return kNotSupported;
}

#ifndef GPUDOCTOR_FAKE_NVML_LEGACY
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t device, unsigned long long* reasons) {
  return series_number("nvmlDeviceGetCurrentClocksEventReasons", device, "throttle_reasons", reasons);
}
#endif
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t device, unsigned long long* reasons) {
  return series_number("nvmlDeviceGetCurrentClocksThrottleReasons", device, "throttle_reasons", reasons);
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPcieThroughput(nvmlDevice_t device, int counter, unsigned int* value) {
  return series_number("nvmlDeviceGetPcieThroughput", device, counter == 0 ? "pcie_tx_kbps" : "pcie_rx_kbps", value);
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetTotalEccErrors(nvmlDevice_t device, int type, int counter,
                                                     unsigned long long* count) {
  if (type != 1 || counter != 0) return kNotSupported;
  return series_number("nvmlDeviceGetTotalEccErrors", device, "ecc_uncorrected", count);
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetRemappedRows(nvmlDevice_t device, unsigned int* corrected,
                                                   unsigned int* uncorrected, unsigned int* pending,
                                                   unsigned int* failed) {
  if (corrected == nullptr || pending == nullptr || failed == nullptr) return kInvalidArgument;
  *corrected = 0;
  *pending = 0;
  *failed = 0;
  return series_number("nvmlDeviceGetRemappedRows", device, "remapped_uncorrectable", uncorrected);
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetRetiredPages(nvmlDevice_t device, int cause, unsigned int* count,
                                                   unsigned long long* addresses) {
  if (count == nullptr) return kInvalidArgument;
  unsigned pages = 0;
  nvmlReturn_t rc = series_number("nvmlDeviceGetRetiredPages", device,
                                  cause == 0 ? "retired_single_bit" : "retired_double_bit", &pages);
  if (rc != kSuccess) return rc;
  // As the real call: a buffer too small for the pages gets the count and INSUFFICIENT_SIZE.
  const bool fits = *count >= pages;
  if (fits && addresses != nullptr) {
    for (unsigned i = 0; i < pages; ++i) addresses[i] = 0x1000ULL * (i + 1);
  }
  *count = pages;
  return fits ? kSuccess : kInsufficientSize;
}

#ifndef GPUDOCTOR_FAKE_NVML_LEGACY
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device, unsigned int* count,
                                                                 nvmlProcessInfo_t* infos) {
  return processes_impl("nvmlDeviceGetComputeRunningProcesses_v3", device, count, infos);
}
#endif
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t device, unsigned int* count,
                                                                 nvmlProcessInfo_t* infos) {
  return processes_impl("nvmlDeviceGetComputeRunningProcesses_v2", device, count, infos);
}

// bench's topology matrix. Per [device]: nvlinks = the far end's PCI bus id of each active link,
// space-separated (a bus id that is no GPU's stands for an NVSwitch), nvlink_version = 6 (NVML's enum: NVLink 4.0),
// numa_node = N and pcie_switch = NAME (the common ancestor: one switch -> SINGLE, one NUMA node ->
// NODE, else SYSTEM), pcie_max_gen / pcie_max_width. P2P reads are OK over NVLink or within a NUMA
// node, CHIPSET_NOT_SUPPORTED otherwise.
namespace {

std::vector<std::string> nvlinks_of(const fake_driver::Device& d) {
  std::vector<std::string> out;
  const std::string* v = series_value(d, "nvlinks");
  if (v == nullptr) return out;
  size_t at = 0;
  while (at < v->size()) {
    size_t end = v->find(' ', at);
    if (end == std::string::npos) end = v->size();
    if (end > at) out.push_back(v->substr(at, end - at));
    at = end + 1;
  }
  return out;
}

std::string text_of(const fake_driver::Device& d, const char* key) {
  const std::string* v = series_value(d, key);
  return v == nullptr ? std::string() : *v;
}

bool linked(const fake_driver::Device& a, const fake_driver::Device& b) {
  for (const std::string& remote : nvlinks_of(a)) {
    if (remote == b.pci_bus_id) return true;
  }
  return false;
}

}  // namespace

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetTopologyCommonAncestor(nvmlDevice_t d1, nvmlDevice_t d2, int* level) {
  FAKE_ENTER("nvmlDeviceGetTopologyCommonAncestor", d1 != nullptr ? d1->index : -1);
  if (!g_initialized) return kUninitialized;
  const auto* a = device_of(d1);
  const auto* b = device_of(d2);
  if (a == nullptr || b == nullptr || level == nullptr) return kInvalidArgument;
  const std::string sa = text_of(*a, "pcie_switch");
  if (!sa.empty() && sa == text_of(*b, "pcie_switch"))
    *level = 10;
  else if (text_of(*a, "numa_node") == text_of(*b, "numa_node"))
    *level = 40;
  else
    *level = 50;
  return kSuccess;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetP2PStatus(nvmlDevice_t d1, nvmlDevice_t d2, int index, int* status) {
  FAKE_ENTER("nvmlDeviceGetP2PStatus", d1 != nullptr ? d1->index : -1);
  if (!g_initialized) return kUninitialized;
  const auto* a = device_of(d1);
  const auto* b = device_of(d2);
  if (a == nullptr || b == nullptr || status == nullptr || index < 0 || index > 4) return kInvalidArgument;
  *status = linked(*a, *b) || text_of(*a, "numa_node") == text_of(*b, "numa_node") ? 0 : 1;
  return kSuccess;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t device, unsigned int link, int* active) {
  FAKE_ENTER("nvmlDeviceGetNvLinkState", device != nullptr ? device->index : -1);
  if (!g_initialized) return kUninitialized;
  const auto* d = device_of(device);
  if (d == nullptr || active == nullptr || link >= 18) return kInvalidArgument;
  auto links = nvlinks_of(*d);
  if (links.empty()) return kNotSupported;
  *active = link < links.size() ? 1 : 0;
  return kSuccess;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetNvLinkVersion(nvmlDevice_t device, unsigned int link, unsigned int* version) {
  FAKE_ENTER("nvmlDeviceGetNvLinkVersion", device != nullptr ? device->index : -1);
  if (link >= 18) return kInvalidArgument;
  return series_number("nvmlDeviceGetNvLinkVersion", device, "nvlink_version", version);
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_t device, unsigned int link,
                                                             nvmlPciInfo_t* pci) {
  FAKE_ENTER("nvmlDeviceGetNvLinkRemotePciInfo_v2", device != nullptr ? device->index : -1);
  if (!g_initialized) return kUninitialized;
  const auto* d = device_of(device);
  if (d == nullptr || pci == nullptr) return kInvalidArgument;
  auto links = nvlinks_of(*d);
  if (link >= links.size()) return kInvalidArgument;
  std::memset(pci, 0, sizeof *pci);
  std::strncpy(pci->busId, links[link].c_str(), sizeof pci->busId - 1);
  return kSuccess;
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t device, unsigned int* gen) {
  return series_number("nvmlDeviceGetMaxPcieLinkGeneration", device, "pcie_max_gen", gen);
}

FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t device, unsigned int* width) {
  return series_number("nvmlDeviceGetMaxPcieLinkWidth", device, "pcie_max_width", width);
}
