#include "gpu/driver_query.hpp"

#include <cctype>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/text.hpp"
#include "gpu/child_lines.hpp"
#include "gpu/cuda_driver_api.hpp"
#include "gpu/nvml_api.hpp"
#include "model/json_codec.hpp"

namespace gpudoctor::gpu {
namespace {

using json = nlohmann::ordered_json;

/// Vendor strings may hold any bytes; invalid UTF-8 is replaced rather than thrown on.
std::string dump_line(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

template <class Report>
void send_report(ChildChannel& out, const Report& r) {
  out.write_line(dump_line(json{{"report", report_to_json(r)}}));
}

void send_call(ChildChannel& out, const std::string& call, std::optional<unsigned> device = {}) {
  json j{{"call", call}};
  if (device) j["device"] = *device;
  out.write_line(dump_line(j));
}

void set_failure(LibraryReport& r, LibraryStatus status, ErrorKind kind, std::string message, int code) {
  r.status = status;
  r.error_kind = kind;
  r.error = std::move(message);
  r.code = code;
}

std::string symbol_for(const std::vector<BoundSymbol>& bound, const char* slot) {
  for (const auto& b : bound) {
    if (b.slot == slot) return b.symbol;
  }
  return slot;
}

/// Opens the library once per session, announcing the dlopen first (a vendor constructor may
/// hang), and sends the first report: the failure, or which file is loaded and which symbols
/// bound. Status stays empty on success: should init crash or hang, the parent knows the
/// library.
template <class Report, class Api>
const Api* load_in_child(std::optional<Api>& slot, const std::vector<std::string>& args,
                         std::vector<std::string> (*default_names)(),
                         Result<Api> (*load)(const std::vector<std::string>&), Report& report, ChildChannel& out) {
  if (!slot) {
    std::vector<std::string> names = args.empty() ? default_names() : args;
    send_call(out, "dlopen " + names.front());
    Result<Api> loaded = load(names);
    if (!loaded) {
      const Error& e = loaded.error();
      set_failure(report, status_for(e.kind), e.kind, e.message, e.code);
      if (e.kind != ErrorKind::not_found) report.path = e.origin;
      send_report(out, report);
      return nullptr;
    }
    slot.emplace(std::move(loaded).value());
  }
  report.path = slot->library.path();
  report.bound = slot->bound;
  send_report(out, report);
  return &*slot;
}

/// A required call answered with an error: the query ends with this report.
template <class Report>
void send_call_failure(ChildChannel& out, Report& report, std::string message, int code) {
  set_failure(report, LibraryStatus::init_failed, ErrorKind::call_failed, std::move(message), code);
  send_report(out, report);
}

// ---- NVML ----

struct NvmlSession {
  const NvmlApi& api;
  ChildChannel& out;
  NvmlReport& report;

  /// "nvmlInit_v2: NVML_ERROR_DRIVER_NOT_LOADED (9): Driver Not Loaded"
  std::string describe(const std::string& call, nvmlReturn_t rc) {
    std::string text = call + ": " + nvml_error_name(rc) + " (" + std::to_string(rc) + ")";
    if (api.error_string != nullptr) {
      send_call(out, "nvmlErrorString");
      std::string words = bounded_c_string(api.error_string(rc));
      if (!words.empty()) text += ": " + words;
    }
    return text;
  }

  /// Calls one optional device query; a failure other than "not supported" is a problem.
  template <class Fn, class... Args>
  bool device_call(Fn fn, const char* slot, unsigned index, Args... args) {
    if (fn == nullptr) return false;
    std::string call = symbol_for(api.bound, slot);
    send_call(out, call, index);
    nvmlReturn_t rc = fn(args...);
    if (rc == kNvmlSuccess) return true;
    if (rc != kNvmlErrorNotSupported) {
      report.problems.push_back("device " + std::to_string(index) + ": " + describe(call, rc));
    }
    return false;
  }
};

std::string hex4(unsigned value) {
  static const char* kDigits = "0123456789abcdef";
  std::string s(4, '0');
  for (int i = 3; i >= 0; --i) {
    s[static_cast<size_t>(i)] = kDigits[value & 0xF];
    value >>= 4;
  }
  return s;
}

void query_device(NvmlSession& s, unsigned index) {
  const NvmlApi& api = s.api;
  GpuDeviceReport d;
  d.index = index;
  nvmlDevice_t device = nullptr;
  std::string call = symbol_for(api.bound, "device_handle_by_index");
  send_call(s.out, call, index);
  nvmlReturn_t rc = api.device_handle_by_index(index, &device);
  if (rc != kNvmlSuccess) {
    s.report.problems.push_back("device " + std::to_string(index) + ": " + s.describe(call, rc));
    return;
  }
  char text[kNvmlDeviceNameBufferSize] = {};
  if (s.device_call(api.device_name, "device_name", index, device, text, kNvmlDeviceNameBufferSize)) {
    d.name = bounded_c_string(text, sizeof text);
  }
  char uuid[kNvmlDeviceUuidBufferSize] = {};
  if (s.device_call(api.device_uuid, "device_uuid", index, device, uuid, kNvmlDeviceUuidBufferSize)) {
    d.uuid = bounded_c_string(uuid, sizeof uuid);
  }
  int major = 0;
  int minor = 0;
  if (s.device_call(api.device_compute_capability, "device_compute_capability", index, device, &major, &minor)) {
    d.cc_major = major;
    d.cc_minor = minor;
  }
  // v2 first (R510+); a library that has the symbol but rejects the struct version, or a
  // device that does not support it, still answers v1.
  bool have_memory = false;
  if (api.device_memory_info_v2 != nullptr) {
    nvmlMemory_v2_t memory{};
    memory.version = kNvmlMemoryV2Version;
    send_call(s.out, "nvmlDeviceGetMemoryInfo_v2", index);
    rc = api.device_memory_info_v2(device, &memory);
    if (rc == kNvmlSuccess) {
      d.memory_total_bytes = memory.total;
      have_memory = true;
    }
  }
  if (!have_memory) {
    nvmlMemory_t memory{};
    if (s.device_call(api.device_memory_info, "device_memory_info", index, device, &memory)) {
      d.memory_total_bytes = memory.total;
    }
  }
  nvmlPciInfo_t pci{};
  if (s.device_call(api.device_pci_info, "device_pci_info", index, device, &pci)) {
    std::string bus = bounded_c_string(pci.busId, sizeof pci.busId);
    if (bus.empty()) bus = bounded_c_string(pci.busIdLegacy, sizeof pci.busIdLegacy);
    d.pci_bus_id = normalize_pci_bus_id(bus);
    d.pci_device_id = hex4(pci.pciDeviceId >> 16U);
  }
  nvmlEnableState_t persistence = 0;
  if (s.device_call(api.device_persistence_mode, "device_persistence_mode", index, device, &persistence)) {
    d.persistence_mode = persistence != 0;
  }
  unsigned long long ecc = 0;
  if (s.device_call(api.device_ecc_errors, "device_ecc_errors", index, device, kNvmlMemoryErrorUncorrected,
                    kNvmlVolatileEcc, &ecc)) {
    d.ecc_uncorrected_volatile = ecc;
  }
  // A count query (no buffer): the count comes back with success or "insufficient size".
  for (int cause : {kNvmlRetiredSingleBit, kNvmlRetiredDoubleBit}) {
    if (api.device_retired_pages == nullptr) break;
    unsigned pages = 0;
    send_call(s.out, symbol_for(api.bound, "device_retired_pages"), index);
    nvmlReturn_t retired = api.device_retired_pages(device, cause, &pages, nullptr);
    if (retired == kNvmlSuccess || retired == kNvmlErrorInsufficientSize) {
      d.retired_pages = d.retired_pages.value_or(0) + pages;
    } else if (retired != kNvmlErrorNotSupported) {
      s.report.problems.push_back("device " + std::to_string(index) + ": " +
                                  s.describe(symbol_for(api.bound, "device_retired_pages"), retired));
    }
  }
  s.report.devices.push_back(std::move(d));
}

// ---- libcuda ----

std::string describe_cuda(const CudaDriverApi& api, ChildChannel& out, const std::string& call, CUresult rc) {
  std::string name;
  if (api.error_name != nullptr) {
    send_call(out, "cuGetErrorName");
    const char* text = nullptr;
    if (api.error_name(rc, &text) == kCudaSuccess) name = bounded_c_string(text);
  }
  if (name.empty()) name = cuda_error_name(rc);
  std::string message = call + ": " + name + " (" + std::to_string(rc) + ")";
  if (api.error_string != nullptr) {
    send_call(out, "cuGetErrorString");
    const char* text = nullptr;
    if (api.error_string(rc, &text) == kCudaSuccess && text != nullptr) {
      message += ": " + bounded_c_string(text);
    }
  }
  return message;
}

template <class Report>
Report report_from_child(const ChildOutcome& outcome, const char* library) {
  Report report;
  std::string last_call;
  std::optional<unsigned> last_device;
  bool have_report = false;
  std::string junk = for_each_child_object(outcome, [&](json& j) {
    if (auto it = j.find("call"); it != j.end() && it->is_string()) {
      last_call = it->get<std::string>();
      last_device.reset();
      if (auto d = j.find("device"); d != j.end() && d->is_number_unsigned()) last_device = d->get<unsigned>();
    } else if (auto rep = j.find("report"); rep != j.end() && rep->is_object()) {
      report = Report{};
      report_from_json(*rep, report);
      have_report = true;
      last_call.clear();
    }
  });
  if (!outcome.diagnostics.empty()) {
    // The library's own words (NVML: "Failed to initialize NVML: Driver/library version
    // mismatch"), as one bounded, printable problem line.
    std::string said = printable_ends(trim(outcome.diagnostics), 400);
    report.problems.push_back(std::string(library) + " wrote on stderr: " + said);
  }
  std::string where;
  if (!last_call.empty()) {
    report.last_call = last_call;
    report.last_device = last_device;
    where = " in " + last_call;
    if (last_device) where += " (device " + std::to_string(*last_device) + ")";
  }
  if (outcome.error) {
    const Error& e = *outcome.error;
    set_failure(report, status_for(e.kind), e.kind, std::string(library) + ": " + e.message + where, e.code);
    return report;
  }
  if (!junk.empty() || !have_report || report.status == LibraryStatus::none) {
    std::string why = !junk.empty() ? "unreadable answer from the child process: \"" + junk + "\""
                                    : "the child process ended without an answer";
    set_failure(report, status_for(ErrorKind::invalid_data), ErrorKind::invalid_data,
                std::string(library) + ": " + why + where, 0);
  }
  return report;
}

}  // namespace

LibraryStatus status_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::timeout:
      return LibraryStatus::timeout;
    case ErrorKind::crashed:
    case ErrorKind::invalid_data:
      return LibraryStatus::crashed;
    case ErrorKind::not_found:
      return LibraryStatus::not_found;
    case ErrorKind::load_failed:
    case ErrorKind::symbol_missing:
      return LibraryStatus::load_failed;
    default:
      return LibraryStatus::init_failed;
  }
}

std::string normalize_pci_bus_id(std::string_view nvml_bus_id) {
  std::string id(nvml_bus_id);
  for (char& c : id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  size_t colon = id.find(':');
  // NVML writes an 8-digit domain ("00000000:18:00.0"); sysfs and lspci write 4.
  if (colon == 8 && id.compare(0, 4, "0000") == 0) id.erase(0, 4);
  return id;
}

void query_nvml(DriverSession& session, const std::vector<std::string>& args, ChildChannel& out) {
  NvmlReport report;
  const NvmlApi* loaded = load_in_child(session.nvml, args, &default_nvml_names, &load_nvml, report, out);
  if (loaded == nullptr) return;
  const NvmlApi& api = *loaded;
  NvmlSession s{api, out, report};

  std::string call = symbol_for(api.bound, "init");
  nvmlReturn_t rc = kNvmlSuccess;
  if (!session.nvml_initialised) {
    send_call(out, call);
    rc = api.init();
    if (rc != kNvmlSuccess) {
      send_call_failure(out, report, s.describe(call, rc), rc);
      return;
    }
    session.nvml_initialised = true;
  }
  if (api.system_driver_version != nullptr) {
    char version[kNvmlDriverVersionBufferSize] = {};
    send_call(out, "nvmlSystemGetDriverVersion");
    rc = api.system_driver_version(version, kNvmlDriverVersionBufferSize);
    if (rc == kNvmlSuccess)
      report.driver_version = bounded_c_string(version, sizeof version);
    else
      report.problems.push_back(s.describe("nvmlSystemGetDriverVersion", rc));
  }
  if (api.system_cuda_driver_version != nullptr) {
    int version = 0;
    call = symbol_for(api.bound, "system_cuda_driver_version");
    send_call(out, call);
    rc = api.system_cuda_driver_version(&version);
    if (rc == kNvmlSuccess)
      report.cuda_driver_version = version;
    else
      report.problems.push_back(s.describe(call, rc));
  }
  report.status = LibraryStatus::ok;
  send_report(out, report);

  unsigned count = 0;
  call = symbol_for(api.bound, "device_count");
  send_call(out, call);
  rc = api.device_count(&count);
  if (rc != kNvmlSuccess) {
    send_call_failure(out, report, s.describe(call, rc), rc);
    return;
  }
  report.device_count = count;
  if (count > kMaxDevices) {
    report.problems.push_back(call + " says " + std::to_string(count) + " devices; only the first " +
                              std::to_string(kMaxDevices) + " are read");
    count = kMaxDevices;
  }
  send_report(out, report);
  for (unsigned i = 0; i < count; ++i) {
    query_device(s, i);
    send_report(out, report);
  }
  // No nvmlShutdown: the child exits next, which releases everything, and a shutdown that
  // hangs would only turn a complete answer into a timeout.
}

void query_cuda_driver(DriverSession& session, const std::vector<std::string>& args, ChildChannel& out) {
  CudaDriverReport report;
  const CudaDriverApi* loaded =
      load_in_child(session.cuda, args, &default_cuda_driver_names, &load_cuda_driver, report, out);
  if (loaded == nullptr) return;
  const CudaDriverApi& api = *loaded;

  // Before cuInit: it answers even when cuInit fails, and says which CUDA the driver speaks.
  int version = 0;
  send_call(out, "cuDriverGetVersion");
  CUresult rc = api.driver_version(&version);
  if (rc == kCudaSuccess)
    report.driver_version = version;
  else
    report.problems.push_back(describe_cuda(api, out, "cuDriverGetVersion", rc));
  send_report(out, report);

  if (!session.cuda_initialised) {
    send_call(out, "cuInit");
    rc = api.init(0);
    if (rc != kCudaSuccess) {
      send_call_failure(out, report, describe_cuda(api, out, "cuInit(0)", rc), rc);
      return;
    }
    session.cuda_initialised = true;
  }
  int count = 0;
  send_call(out, "cuDeviceGetCount");
  rc = api.device_count(&count);
  if (rc != kCudaSuccess) {
    send_call_failure(out, report, describe_cuda(api, out, "cuDeviceGetCount", rc), rc);
    return;
  }
  report.device_count = count;
  report.status = LibraryStatus::ok;
  send_report(out, report);
}

void nvml_child_body(const std::vector<std::string>& args, ChildChannel& out) {
  DriverSession session;
  query_nvml(session, args, out);
}

void cuda_child_body(const std::vector<std::string>& args, ChildChannel& out) {
  DriverSession session;
  query_cuda_driver(session, args, out);
}

NvmlReport nvml_report_from_child(const ChildOutcome& outcome) {
  return report_from_child<NvmlReport>(outcome, "NVML");
}

CudaDriverReport cuda_report_from_child(const ChildOutcome& outcome) {
  return report_from_child<CudaDriverReport>(outcome, "libcuda");
}

DriverRuntimeReport query_driver_runtime(const DriverQueryOptions& options) {
  std::vector<IsolatedTask> tasks;
  tasks.push_back({"nvml", options.nvml_names});
  tasks.push_back({"cuda-driver", options.cuda_names});
  std::vector<ChildOutcome> outcomes = run_isolated(tasks, options.deadline);
  DriverRuntimeReport report;
  report.nvml = nvml_report_from_child(outcomes.at(0));
  report.cuda = cuda_report_from_child(outcomes.at(1));
  return report;
}

}  // namespace gpudoctor::gpu
