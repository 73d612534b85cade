#include "model/json_codec.hpp"

#include <nlohmann/json.hpp>
#include <string_view>
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
    json file = {
        {"name", f.name}, {"path", str_or_null(f.path)}, {"found", !f.path.empty()}, {"version", opt(f.version)}};
    if (!f.unreadable.empty()) file["unreadable"] = f.unreadable;
    files.push_back(std::move(file));
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

// ---- the doctor's report read back ----

std::optional<Version> get_version(const json& j, const char* key) {
  std::string s = get_string(j, key);
  if (s.empty()) return std::nullopt;
  return Version::parse(s);
}

bool get_bool(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

std::vector<std::string> get_strings(const json& j, const char* key) {
  std::vector<std::string> out;
  if (auto it = j.find(key); it != j.end() && it->is_array()) {
    for (const auto& v : *it) {
      if (v.is_string()) out.push_back(v.get<std::string>());
    }
  }
  return out;
}

/// The objects of an array under key (a non-object element is skipped).
template <class F>
void each_object(const json& j, const char* key, F&& f) {
  if (auto it = j.find(key); it != j.end() && it->is_array()) {
    for (const auto& v : *it) {
      if (v.is_object()) f(v);
    }
  }
}

const json& object_at(const json& j, const char* key) {
  static const json empty = json::object();
  auto it = j.find(key);
  return it != j.end() && it->is_object() ? *it : empty;
}

GpuFacts gpu_from_json(const json& j) {
  GpuFacts g;
  g.name = get_string(j, "name");
  g.source = get_string(j, "source");
  g.uuid = get_string(j, "uuid");
  g.pci_bus_id = get_string(j, "pci_bus_id");
  g.pci_device_id = get_string(j, "pci_device_id");
  if (auto cc = Version::parse(get_string(j, "compute_capability")); cc && cc->parts().size() >= 2) {
    g.cc_major = cc->major();
    g.cc_minor = cc->parts()[1];
  }
  g.compute_capability_source = get_string(j, "compute_capability_source");
  get_optional(j, "memory_total_bytes", g.memory_total_bytes);
  get_optional(j, "persistence_mode", g.persistence_mode);
  g.kernel_driver = get_string(j, "kernel_driver");
  return g;
}

void driver_from_json(const json& j, DriverFacts& d) {
  d.version = get_version(j, "version");
  d.version_source = get_string(j, "version_source");
  d.module_flavor = get_string(j, "module_flavor");
  d.nvidia_module_loaded = get_bool(j, "nvidia_module_loaded");
  d.nouveau_loaded = get_bool(j, "nouveau_loaded");
  d.cuda_driver_version = get_version(j, "cuda_driver_version");
  d.cuda_driver_version_source = get_string(j, "cuda_driver_version_source");
  each_object(j, "libraries", [&](const json& f) {
    d.files.push_back({get_string(f, "name"), get_string(f, "path"), get_version(f, "version")});
  });
  const json& nvml = object_at(j, "nvml");
  d.nvml_status = get_string(nvml, "status");
  d.nvml_error = get_string(nvml, "error");
  d.nvml_path = get_string(nvml, "path");
  const json& cuda = object_at(j, "libcuda");
  d.libcuda_status = get_string(cuda, "status");
  d.libcuda_error = get_string(cuda, "error");
  d.libcuda_path = get_string(cuda, "path");
}

FrameworkFacts framework_from_json(const json& j) {
  FrameworkFacts f;
  f.name = get_string(j, "name");
  f.package = get_string(j, "package");
  f.version = Version::parse(get_string(j, "version")).value_or(Version());
  f.location = get_string(j, "location");
  get_optional(j, "cuda_build", f.cuda_build);
  f.cuda_version = get_version(j, "cuda_version");
  f.cudnn_version = get_version(j, "cudnn_version");
  f.compute_capabilities = get_strings(j, "compute_capabilities");
  f.variant = get_string(j, "variant");
  f.evidence = get_string(j, "evidence");
  f.problems = get_strings(j, "problems");
  each_object(j, "loads", [&](const json& l) {
    f.loads.push_back({get_string(l, "soname"), get_string(l, "path"), get_string(l, "via")});
  });
  return f;
}

PythonEnvFacts env_from_json(const json& j) {
  PythonEnvFacts e;
  e.path = get_string(j, "path");
  e.kind = get_string(j, "kind");
  e.interpreter = get_string(j, "interpreter");
  e.python_version = get_version(j, "python_version");
  e.python_version_source = get_string(j, "python_version_source");
  e.site_packages = get_strings(j, "site_packages");
  e.found_via = get_strings(j, "found_via");
  each_object(j, "frameworks", [&](const json& f) { e.frameworks.push_back(framework_from_json(f)); });
  each_object(j, "nvidia_wheels", [&](const json& w) {
    NvidiaWheel wheel;
    wheel.package = get_string(w, "package");
    wheel.version = Version::parse(get_string(w, "version")).value_or(Version());
    wheel.library = get_string(w, "library");
    get_optional(w, "cuda_major", wheel.cuda_major);
    e.nvidia_wheels.push_back(std::move(wheel));
  });
  return e;
}

Severity severity_from(const std::string& s) {
  for (Severity v : {Severity::ok, Severity::info, Severity::warning, Severity::error}) {
    if (s == to_string(v)) return v;
  }
  return Severity::info;
}

FindingArea area_from(const std::string& s) {
  for (FindingArea a : kFindingAreas) {
    if (s == to_string(a)) return a;
  }
  return FindingArea::system;
}

}  // namespace

void facts_from_json(const json& j, Facts& facts) {
  if (!j.is_object()) return;
  facts.platform = parse_platform(get_string(j, "platform")).value_or(Platform::linux);
  facts.root = get_string(j, "root");
  facts.live = get_bool(j, "live");
  const json& os = object_at(j, "os");
  facts.os.name = get_string(os, "name");
  facts.os.id = get_string(os, "id");
  facts.os.version_id = get_string(os, "version_id");
  facts.os.kernel = get_string(os, "kernel");
  facts.os.wsl2 = get_bool(os, "wsl2");
  facts.os.wsl_dxg_device = get_bool(os, "wsl_dxg_device");
  facts.os.wsl_lib_dir = get_bool(os, "wsl_lib_dir");
  facts.os.container = get_string(os, "container");
  facts.os.container_evidence = get_strings(os, "container_evidence");
  each_object(j, "gpus", [&](const json& g) { facts.gpus.push_back(gpu_from_json(g)); });
  driver_from_json(object_at(j, "driver"), facts.driver);
  each_object(j, "toolkits", [&](const json& t) {
    ToolkitFacts tk;
    tk.path = get_string(t, "path");
    tk.version = get_version(t, "version");
    tk.version_source = get_string(t, "version_source");
    tk.found_via = get_strings(t, "found_via");
    tk.has_nvcc = get_bool(t, "has_nvcc");
    tk.kind = get_string(t, "kind");
    facts.toolkits.push_back(std::move(tk));
  });
  each_object(j, "libraries", [&](const json& l) {
    LibraryFacts lib;
    lib.name = get_string(l, "name");
    lib.version = get_version(l, "version");
    lib.version_source = get_string(l, "version_source");
    lib.path = get_string(l, "path");
    lib.files = get_strings(l, "files");
    lib.origin = get_string(l, "origin");
    get_optional(l, "cuda_major", lib.cuda_major);
    get_optional(l, "loader_order", lib.loader_order);
    facts.libraries.push_back(std::move(lib));
  });
  each_object(j, "python_envs", [&](const json& e) { facts.python_envs.push_back(env_from_json(e)); });
  for (const auto& [name, value] : object_at(j, "env").items()) {
    if (value.is_string()) facts.env.push_back({name, value.get<std::string>()});
  }
  each_object(j, "problems", [&](const json& p) {
    facts.problems.push_back({get_string(p, "probe"), get_string(p, "path"), get_string(p, "message")});
  });
}

std::vector<Finding> findings_from_json(const json& j) {
  std::vector<Finding> out;
  if (!j.is_array()) return out;
  for (const auto& f : j) {
    if (!f.is_object()) continue;
    Finding finding;
    finding.id = get_string(f, "id");
    finding.severity = severity_from(get_string(f, "severity"));
    finding.area = area_from(get_string(f, "area"));
    finding.title = get_string(f, "title");
    finding.detail = get_string(f, "detail");
    finding.fix = get_string(f, "fix");
    finding.evidence = get_strings(f, "evidence");
    finding.source = get_string(f, "source");
    out.push_back(std::move(finding));
  }
  return out;
}

bool doctor_report_from_json(const json& doc, Facts& facts, std::vector<Finding>& findings) {
  if (!doc.is_object()) return false;
  auto f = doc.find("facts");
  auto list = doc.find("findings");
  if (f == doc.end() || !f->is_object() || list == doc.end() || !list->is_array()) return false;
  Facts read;
  facts_from_json(*f, read);
  facts = std::move(read);
  findings = findings_from_json(*list);
  return true;
}

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

json report_to_json(const RuntimeLibraryReport& r) {
  json j = library_report_to_json(r);
  j["name"] = r.name;
  j["version"] = r.version;
  put_optional(j, "version_code", r.version_code);
  j["version_call"] = r.version_call;
  j["tried"] = r.tried;
  return j;
}

void report_from_json(const json& j, RuntimeLibraryReport& r) {
  library_report_from_json(j, r);
  r.name = get_string(j, "name");
  r.version = get_string(j, "version");
  get_optional(j, "version_code", r.version_code);
  r.version_call = get_string(j, "version_call");
  if (auto it = j.find("tried"); it != j.end() && it->is_array()) {
    for (const auto& t : *it) {
      if (t.is_string()) r.tried.push_back(t.get<std::string>());
    }
  }
}

json step_to_json(const VerifyStep& s) {
  json j;
  j["name"] = s.name;
  put_optional(j, "device", s.device);
  j["status"] = s.status;
  j["detail"] = s.detail;
  j["last_call"] = str_or_null(s.last_call);
  j["elapsed_ms"] = s.elapsed_ms;
  j["notes"] = s.notes;
  return j;
}

void step_from_json(const json& j, VerifyStep& s) {
  s.name = get_string(j, "name");
  get_optional(j, "device", s.device);
  s.status = get_string(j, "status");
  s.detail = get_string(j, "detail");
  s.last_call = get_string(j, "last_call");
  if (auto it = j.find("elapsed_ms"); it != j.end() && it->is_number_integer()) s.elapsed_ms = it->get<long long>();
  if (auto it = j.find("notes"); it != j.end() && it->is_array()) {
    for (const auto& n : *it) {
      if (n.is_string()) s.notes.push_back(n.get<std::string>());
    }
  }
}

json verify_report_to_json(const VerifyReport& r) {
  json libs = json::array();
  for (const auto& l : r.libraries) libs.push_back(report_to_json(l));
  json steps = json::array();
  for (const auto& s : r.steps) steps.push_back(step_to_json(s));
  json j;
  j["passed"] = verify_passed(r);
  j["libs_from"] = r.libs_from;
  j["quick"] = r.quick;
  j["driver"] = report_to_json(r.driver);
  j["libraries"] = std::move(libs);
  j["steps"] = std::move(steps);
  j["problems"] = r.problems;
  return j;
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

// ---- bench (model/bench_report.hpp) ----

json measurement_to_json(const BenchMeasurement& m) {
  json j;
  j["key"] = m.key;
  j["unit"] = m.unit;
  j["status"] = m.status;
  j["value"] = opt(m.value);
  j["min"] = opt(m.min);
  j["max"] = opt(m.max);
  j["spread_pct"] = m.spread_pct;
  j["iterations"] = m.iterations;
  j["seconds_median"] = m.seconds_median;
  j["detail"] = m.detail;
  j["library"] = str_or_null(m.library);
  j["check"] = str_or_null(m.check);
  j["check_passed"] = m.check_passed;
  j["ceiling"] = opt(m.ceiling);
  j["ceiling_source"] = str_or_null(m.ceiling_source);
  auto fraction = m.fraction_of_ceiling();
  j["fraction_of_ceiling"] = opt(fraction);
  j["last_call"] = str_or_null(m.last_call);
  return j;
}

void measurement_from_json(const json& j, BenchMeasurement& m) {
  if (!j.is_object()) return;
  m.key = get_string(j, "key");
  m.unit = get_string(j, "unit");
  m.status = get_string(j, "status");
  get_optional(j, "value", m.value);
  get_optional(j, "min", m.min);
  get_optional(j, "max", m.max);
  std::optional<double> spread;
  get_optional(j, "spread_pct", spread);
  m.spread_pct = spread.value_or(0);
  std::optional<int> iterations;
  get_optional(j, "iterations", iterations);
  m.iterations = iterations.value_or(0);
  std::optional<double> seconds;
  get_optional(j, "seconds_median", seconds);
  m.seconds_median = seconds.value_or(0);
  m.detail = get_string(j, "detail");
  m.library = get_string(j, "library");
  m.check = get_string(j, "check");
  std::optional<bool> passed;
  get_optional(j, "check_passed", passed);
  m.check_passed = passed.value_or(false);
  get_optional(j, "ceiling", m.ceiling);
  m.ceiling_source = get_string(j, "ceiling_source");
  m.last_call = get_string(j, "last_call");
}

json bench_report_to_json(const BenchReport& r) {
  json results = json::object();
  json measurements = json::array();
  for (const auto& m : r.measurements) {
    results[m.json_key()] = m.ok() ? json(*m.value) : json(nullptr);
    measurements.push_back(measurement_to_json(m));
  }
  json claims = json::array();
  for (const auto& c : r.claims) {
    claims.push_back({{"what", c.what}, {"guide", c.guide}, {"ratio", opt(c.ratio)}, {"basis", c.basis}});
  }
  json changes = json::array();
  for (const auto& c : r.changes) {
    changes.push_back({{"key", c.key},
                       {"previous", c.previous},
                       {"current", c.current},
                       {"change_pct", c.change_pct},
                       {"noise_pct", c.noise_pct},
                       {"verdict", c.verdict}});
  }
  json j;
  j["passed"] = bench_passed(r);
  j["mode"] = r.mode;
  j["started_utc"] = r.started_utc;
  j["host"] = r.host;
  j["cpu_model"] = str_or_null(r.cpu_model);
  j["cpu_threads"] = r.cpu_threads;
  j["gpus"] = r.gpu_names;
  j["results"] = std::move(results);
  j["measurements"] = std::move(measurements);
  j["claims"] = std::move(claims);
  j["compared_with_utc"] = str_or_null(r.compared_with_utc);
  j["changes"] = std::move(changes);
  j["notes"] = r.notes;
  j["problems"] = r.problems;
  return j;
}

void bench_report_from_json(const json& j, BenchReport& r) {
  if (!j.is_object()) return;
  r.mode = get_string(j, "mode");
  r.started_utc = get_string(j, "started_utc");
  r.host = get_string(j, "host");
  r.cpu_model = get_string(j, "cpu_model");
  std::optional<int> threads;
  get_optional(j, "cpu_threads", threads);
  r.cpu_threads = threads.value_or(0);
  if (auto it = j.find("measurements"); it != j.end() && it->is_array()) {
    for (const auto& m : *it) {
      BenchMeasurement one;
      measurement_from_json(m, one);
      if (!one.key.empty()) r.measurements.push_back(std::move(one));
    }
  }
  for (const char* key : {"notes", "problems"}) {
    auto& list = std::string_view(key) == "notes" ? r.notes : r.problems;
    if (auto it = j.find(key); it != j.end() && it->is_array()) {
      for (const auto& n : *it) {
        if (n.is_string()) list.push_back(n.get<std::string>());
      }
    }
  }
}

}  // namespace gpudoctor
