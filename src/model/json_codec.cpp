#include "model/json_codec.hpp"

#include <nlohmann/json.hpp>
#include <type_traits>

namespace gpudoctor {
namespace {

using json = nlohmann::ordered_json;

json opt(const std::optional<Version>& v) {
  return v ? json(v->str()) : json(nullptr);
}
template <class T>
json opt(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}
json str_or_null(const std::string& s) {
  return s.empty() ? json(nullptr) : json(s);
}

json gpu_json(const GpuFacts& g) {
  json cc = nullptr;
  if (g.cc_major) cc = std::to_string(*g.cc_major) + "." + std::to_string(g.cc_minor.value_or(0));
  return {{"name", g.name},
          {"source", g.source},
          {"uuid", str_or_null(g.uuid)},
          {"pci_bus_id", str_or_null(g.pci_bus_id)},
          {"pci_device_id", str_or_null(g.pci_device_id)},
          {"compute_capability", cc},
          {"compute_capability_source", str_or_null(g.compute_capability_source)},
          {"memory_total_bytes", opt(g.memory_total_bytes)},
          {"persistence_mode", opt(g.persistence_mode)},
          {"kernel_driver", str_or_null(g.kernel_driver)}};
}

json driver_json(const DriverFacts& d) {
  json files = json::array();
  for (const auto& f : d.files) {
    files.push_back(
        {{"name", f.name}, {"path", str_or_null(f.path)}, {"found", !f.path.empty()}, {"version", opt(f.version)}});
  }
  return {{"version", opt(d.version)},
          {"version_source", str_or_null(d.version_source)},
          {"module_flavor", str_or_null(d.module_flavor)},
          {"nvidia_module_loaded", d.nvidia_module_loaded},
          {"nouveau_loaded", d.nouveau_loaded},
          {"cuda_driver_version", opt(d.cuda_driver_version)},
          {"cuda_driver_version_source", str_or_null(d.cuda_driver_version_source)},
          {"libraries", files},
          {"nvml",
           {{"status", str_or_null(d.nvml_status)},
            {"error", str_or_null(d.nvml_error)},
            {"path", str_or_null(d.nvml_path)}}},
          {"libcuda",
           {{"status", str_or_null(d.libcuda_status)},
            {"error", str_or_null(d.libcuda_error)},
            {"path", str_or_null(d.libcuda_path)}}}};
}

json loads_json(const std::vector<LibraryLoad>& loads) {
  json out = json::array();
  for (const auto& l : loads) {
    out.push_back({{"soname", l.soname}, {"path", str_or_null(l.path)}, {"via", str_or_null(l.via)}});
  }
  return out;
}

json framework_json(const FrameworkFacts& f) {
  return {{"name", f.name},
          {"package", str_or_null(f.package)},
          {"version", f.version.str()},
          {"location", str_or_null(f.location)},
          {"cuda_build", opt(f.cuda_build)},
          {"cuda_version", opt(f.cuda_version)},
          {"cudnn_version", opt(f.cudnn_version)},
          {"compute_capabilities", f.compute_capabilities},
          {"variant", str_or_null(f.variant)},
          {"evidence", str_or_null(f.evidence)},
          {"problems", f.problems},
          {"loads", loads_json(f.loads)}};
}

json env_json(const PythonEnvFacts& e) {
  json fws = json::array();
  for (const auto& f : e.frameworks) fws.push_back(framework_json(f));
  json wheels = json::array();
  for (const auto& w : e.nvidia_wheels) {
    wheels.push_back({{"package", w.package},
                      {"version", w.version.str()},
                      {"library", w.library},
                      {"cuda_major", opt(w.cuda_major)}});
  }
  return {{"path", e.path},
          {"kind", e.kind},
          {"interpreter", str_or_null(e.interpreter)},
          {"python_version", opt(e.python_version)},
          {"python_version_source", str_or_null(e.python_version_source)},
          {"site_packages", e.site_packages},
          {"found_via", e.found_via},
          {"frameworks", fws},
          {"nvidia_wheels", wheels}};
}

// ---- the GPU reports, both ways (a child reports to its parent; fleet reads them back) ----

template <class T>
void put_optional(json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

template <class T>
void get_optional(const json& j, const char* key, std::optional<T>& v) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return;
  if constexpr (std::is_same_v<T, bool>) {
    if (it->is_boolean()) v = it->template get<bool>();
  } else if constexpr (std::is_floating_point_v<T>) {
    if (it->is_number()) v = it->template get<T>();
  } else {
    // A negative number for an unsigned field is junk, not a huge count.
    if (it->is_number_unsigned() || (std::is_signed_v<T> && it->is_number_integer())) v = it->template get<T>();
  }
}

std::string get_string(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}
/// What a GPU report and a GPU sample both carry to say which GPU they are.
template <class Gpu>
void gpu_identity_from_json(const json& j, Gpu& g) {
  std::optional<unsigned> index;
  get_optional(j, "index", index);
  g.index = index.value_or(0);
  g.name = get_string(j, "name");
  g.uuid = get_string(j, "uuid");
  g.pci_bus_id = get_string(j, "pci_bus_id");
}

json library_report_to_json(const LibraryReport& r) {
  json j;
  j["status"] = r.status;
  j["error"] = r.error;
  j["error_kind"] = r.error_kind;
  j["code"] = r.code;
  j["path"] = r.path;
  j["problems"] = r.problems;
  json bound = json::array();
  for (const auto& b : r.bound) bound.push_back({{"slot", b.slot}, {"symbol", b.symbol}});
  j["bound"] = std::move(bound);
  return j;
}

void library_report_from_json(const json& j, LibraryReport& r) {
  r.status = get_string(j, "status");
  r.error = get_string(j, "error");
  r.error_kind = get_string(j, "error_kind");
  if (auto it = j.find("code"); it != j.end() && it->is_number_integer()) r.code = it->get<int>();
  r.path = get_string(j, "path");
  if (auto it = j.find("problems"); it != j.end() && it->is_array()) {
    for (const auto& p : *it) {
      if (p.is_string()) r.problems.push_back(p.get<std::string>());
    }
  }
  if (auto it = j.find("bound"); it != j.end() && it->is_array()) {
    for (const auto& b : *it) {
      if (b.is_object()) r.bound.push_back({get_string(b, "slot"), get_string(b, "symbol")});
    }
  }
}

}  // namespace

json facts_to_json(const Facts& facts) {
  const OsFacts& os = facts.os;
  json gpus = json::array();
  for (const auto& g : facts.gpus) gpus.push_back(gpu_json(g));
  json toolkits = json::array();
  for (const auto& t : facts.toolkits) {
    toolkits.push_back({{"path", t.path},
                        {"version", opt(t.version)},
                        {"version_source", str_or_null(t.version_source)},
                        {"found_via", t.found_via},
                        {"has_nvcc", t.has_nvcc},
                        {"kind", t.kind}});
  }
  json libs = json::array();
  for (const auto& l : facts.libraries) {
    libs.push_back({{"name", l.name},
                    {"version", opt(l.version)},
                    {"version_source", str_or_null(l.version_source)},
                    {"path", l.path},
                    {"files", l.files},
                    {"origin", l.origin},
                    {"cuda_major", opt(l.cuda_major)},
                    {"loader_order", opt(l.loader_order)}});
  }
  json envs = json::array();
  for (const auto& e : facts.python_envs) envs.push_back(env_json(e));
  json vars = json::object();
  for (const auto& v : facts.env) vars[v.name] = v.value;
  json problems = json::array();
  for (const auto& p : facts.problems)
    problems.push_back({{"probe", p.probe}, {"path", p.path}, {"message", p.message}});
  return {{"platform", to_string(facts.platform)},
          {"root", facts.root},
          {"live", facts.live},
          {"os",
           {{"name", str_or_null(os.name)},
            {"id", str_or_null(os.id)},
            {"version_id", str_or_null(os.version_id)},
            {"kernel", str_or_null(os.kernel)},
            {"wsl2", os.wsl2},
            {"wsl_dxg_device", os.wsl_dxg_device},
            {"wsl_lib_dir", os.wsl_lib_dir},
            {"container", str_or_null(os.container)},
            {"container_evidence", os.container_evidence}}},
          {"gpus", gpus},
          {"driver", driver_json(facts.driver)},
          {"toolkits", toolkits},
          {"libraries", libs},
          {"python_envs", envs},
          {"env", vars},
          {"problems", problems}};
}

json finding_to_json(const Finding& f) {
  return {{"id", f.id},
          {"severity", to_string(f.severity)},
          {"area", to_string(f.area)},
          {"title", f.title},
          {"detail", f.detail},
          {"fix", f.fix},
          {"evidence", f.evidence},
          {"source", str_or_null(f.source)}};
}

json findings_to_json(const std::vector<Finding>& findings) {
  json out = json::array();
  for (const auto& f : findings) out.push_back(finding_to_json(f));
  return out;
}

json report_to_json(const NvmlReport& r) {
  json j = library_report_to_json(r);
  j["driver_version"] = r.driver_version;
  put_optional(j, "cuda_driver_version", r.cuda_driver_version);
  put_optional(j, "device_count", r.device_count);
  json devices = json::array();
  for (const auto& d : r.devices) {
    json dj;
    dj["index"] = d.index;
    dj["name"] = d.name;
    dj["uuid"] = d.uuid;
    dj["pci_bus_id"] = d.pci_bus_id;
    dj["pci_device_id"] = d.pci_device_id;
    put_optional(dj, "cc_major", d.cc_major);
    put_optional(dj, "cc_minor", d.cc_minor);
    put_optional(dj, "memory_total_bytes", d.memory_total_bytes);
    put_optional(dj, "persistence_mode", d.persistence_mode);
    devices.push_back(std::move(dj));
  }
  j["devices"] = std::move(devices);
  return j;
}

void report_from_json(const json& j, NvmlReport& r) {
  library_report_from_json(j, r);
  r.driver_version = get_string(j, "driver_version");
  get_optional(j, "cuda_driver_version", r.cuda_driver_version);
  get_optional(j, "device_count", r.device_count);
  if (auto it = j.find("devices"); it != j.end() && it->is_array()) {
    for (const auto& dj : *it) {
      if (!dj.is_object()) continue;
      GpuDeviceReport d;
      gpu_identity_from_json(dj, d);
      d.pci_device_id = get_string(dj, "pci_device_id");
      get_optional(dj, "cc_major", d.cc_major);
      get_optional(dj, "cc_minor", d.cc_minor);
      get_optional(dj, "memory_total_bytes", d.memory_total_bytes);
      get_optional(dj, "persistence_mode", d.persistence_mode);
      r.devices.push_back(std::move(d));
    }
  }
}

json report_to_json(const CudaDriverReport& r) {
  json j = library_report_to_json(r);
  put_optional(j, "driver_version", r.driver_version);
  put_optional(j, "device_count", r.device_count);
  return j;
}

void report_from_json(const json& j, CudaDriverReport& r) {
  library_report_from_json(j, r);
  get_optional(j, "driver_version", r.driver_version);
  get_optional(j, "device_count", r.device_count);
}

// ---- monitor snapshots (model/monitor_snapshot.hpp) ----

namespace {

json gpu_sample_to_json(const GpuSample& g) {
  json processes = nullptr;
  if (g.processes) {
    processes = json::array();
    for (const auto& p : *g.processes) {
      processes.push_back({{"pid", p.pid},
                           {"used_memory_bytes", opt(p.used_memory_bytes)},
                           {"command", p.command},
                           {"cpu_percent", opt(p.cpu_percent)}});
    }
  }
  json throttle_names = nullptr;
  if (g.throttle_reasons) throttle_names = throttle_reason_names(*g.throttle_reasons);
  return {{"index", g.index},
          {"name", g.name},
          {"uuid", g.uuid},
          {"pci_bus_id", g.pci_bus_id},
          {"gpu_util_percent", opt(g.gpu_util_percent)},
          {"memory_util_percent", opt(g.memory_util_percent)},
          {"memory_used_bytes", opt(g.memory_used_bytes)},
          {"memory_total_bytes", opt(g.memory_total_bytes)},
          {"temperature_c", opt(g.temperature_c)},
          {"power_w", opt(g.power_w)},
          {"power_limit_w", opt(g.power_limit_w)},
          {"sm_clock_mhz", opt(g.sm_clock_mhz)},
          {"memory_clock_mhz", opt(g.memory_clock_mhz)},
          {"throttle_reasons", opt(g.throttle_reasons)},
          {"throttle_reason_names", throttle_names},
          {"pcie_tx_kib_per_s", opt(g.pcie_tx_kib_per_s)},
          {"pcie_rx_kib_per_s", opt(g.pcie_rx_kib_per_s)},
          {"ecc_uncorrected_volatile", opt(g.ecc_uncorrected_volatile)},
          {"retired_pages_single_bit", opt(g.retired_pages_single_bit)},
          {"retired_pages_double_bit", opt(g.retired_pages_double_bit)},
          {"remapped_rows_uncorrectable", opt(g.remapped_rows_uncorrectable)},
          {"remapping_pending", opt(g.remapping_pending)},
          {"processes", processes},
          {"problems", g.problems}};
}

void gpu_sample_from_json(const json& j, GpuSample& g) {
  gpu_identity_from_json(j, g);
  get_optional(j, "gpu_util_percent", g.gpu_util_percent);
  get_optional(j, "memory_util_percent", g.memory_util_percent);
  get_optional(j, "memory_used_bytes", g.memory_used_bytes);
  get_optional(j, "memory_total_bytes", g.memory_total_bytes);
  get_optional(j, "temperature_c", g.temperature_c);
  get_optional(j, "power_w", g.power_w);
  get_optional(j, "power_limit_w", g.power_limit_w);
  get_optional(j, "sm_clock_mhz", g.sm_clock_mhz);
  get_optional(j, "memory_clock_mhz", g.memory_clock_mhz);
  get_optional(j, "throttle_reasons", g.throttle_reasons);
  get_optional(j, "pcie_tx_kib_per_s", g.pcie_tx_kib_per_s);
  get_optional(j, "pcie_rx_kib_per_s", g.pcie_rx_kib_per_s);
  get_optional(j, "ecc_uncorrected_volatile", g.ecc_uncorrected_volatile);
  get_optional(j, "retired_pages_single_bit", g.retired_pages_single_bit);
  get_optional(j, "retired_pages_double_bit", g.retired_pages_double_bit);
  get_optional(j, "remapped_rows_uncorrectable", g.remapped_rows_uncorrectable);
  get_optional(j, "remapping_pending", g.remapping_pending);
  if (auto it = j.find("processes"); it != j.end() && it->is_array()) {
    g.processes.emplace();
    for (const auto& pj : *it) {
      if (!pj.is_object()) continue;
      GpuProcessSample p;
      std::optional<unsigned> pid;
      get_optional(pj, "pid", pid);
      if (!pid) continue;
      p.pid = *pid;
      get_optional(pj, "used_memory_bytes", p.used_memory_bytes);
      p.command = get_string(pj, "command");
      get_optional(pj, "cpu_percent", p.cpu_percent);
      g.processes->push_back(std::move(p));
    }
  }
  if (auto it = j.find("problems"); it != j.end() && it->is_array()) {
    for (const auto& p : *it) {
      if (p.is_string()) g.problems.push_back(p.get<std::string>());
    }
  }
}

}  // namespace

json gpu_samples_to_json(const std::vector<GpuSample>& gpus) {
  json out = json::array();
  for (const auto& g : gpus) out.push_back(gpu_sample_to_json(g));
  return out;
}

void gpu_samples_from_json(const json& j, std::vector<GpuSample>& gpus) {
  if (!j.is_array()) return;
  for (const auto& gj : j) {
    if (!gj.is_object()) continue;
    GpuSample g;
    gpu_sample_from_json(gj, g);
    gpus.push_back(std::move(g));
  }
}

json snapshot_to_json(const Snapshot& s) {
  return {{"time_ms", s.time_ms},
          {"status", s.status},
          {"error", str_or_null(s.error)},
          {"driver_version", str_or_null(s.driver_version)},
          {"agent_starts", s.agent_starts},
          {"host",
           {{"cpu_percent", opt(s.host.cpu_percent)},
            {"cpu_count", opt(s.host.cpu_count)},
            {"memory_total_bytes", opt(s.host.memory_total_bytes)},
            {"memory_available_bytes", opt(s.host.memory_available_bytes)}}},
          {"gpus", gpu_samples_to_json(s.gpus)},
          {"diagnoses", findings_to_json(s.diagnoses)}};
}

}  // namespace gpudoctor
