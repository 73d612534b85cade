#include "model/json_codec.hpp"

#include <algorithm>
#include <concepts>
#include <map>
#include <nlohmann/json.hpp>
#include <type_traits>
#include <utility>

namespace gpudoctor {
namespace {

using json = nlohmann::ordered_json;

// Each type's fields are listed once, in `describe(io, value)`, and that one list is walked
// both ways: by a Writer that builds the JSON object and by a Reader that fills the struct back.
// A field written but never read back (or the other way round) cannot happen by omission.

/// How an empty string, an empty list or an absent optional is written: as itself ("", [],
/// null), as null, or not at all.
enum class Empty { keep, null, omit };

template <class T, class U>
concept Of = std::same_as<std::remove_const_t<T>, U>;

template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {};
/// A list of (name, value) pairs, written as a JSON object in the list's order.
template <class T>
struct is_members : std::false_type {};
template <class T>
struct is_members<std::vector<std::pair<std::string, T>>> : std::true_type {};
template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

class Writer;
class Reader;

// MistypedFields' state on this thread: the collector reading reports to, and the path to the
// field being read (kept only while a collector lives).
thread_local std::vector<std::string>* t_mistyped = nullptr;
thread_local std::vector<std::string> t_path;

/// The path of the value being read, one part deeper, while it is read.
class PathPart {
 public:
  // The path is built only while a collector lives: reading is a hot path (fleet, the history).
  explicit PathPart(const char* key) : on_(t_mistyped != nullptr) {
    if (on_) t_path.emplace_back(key);
  }
  explicit PathPart(size_t index) : on_(t_mistyped != nullptr) {
    if (on_) t_path.push_back("[" + std::to_string(index) + "]");
  }
  ~PathPart() {
    if (on_) t_path.pop_back();
  }
  PathPart(const PathPart&) = delete;
  PathPart& operator=(const PathPart&) = delete;

 private:
  bool on_;
};

void note_mistyped() {
  if (t_mistyped == nullptr || t_mistyped->size() >= 20) return;
  std::string path;
  for (const std::string& part : t_path) path += (path.empty() || part.front() == '[' ? "" : ".") + part;
  t_mistyped->push_back(path.empty() ? "(the document)" : path);
}

template <class T>
json encode(const T& v);
template <class T>
bool decode(const json& j, T& v);

// Enums read back leniently: an unknown name becomes the documented fallback.
void parse_enum(const std::string& s, Severity& v) {
  v = Severity::info;
  for (Severity c : {Severity::ok, Severity::info, Severity::warning, Severity::error}) {
    if (s == to_string(c)) v = c;
  }
}
void parse_enum(const std::string& s, FindingArea& v) {
  v = FindingArea::system;
  for (FindingArea c : kFindingAreas) {
    if (s == to_string(c)) v = c;
  }
}
void parse_enum(const std::string& s, StepStatus& v) {
  v = parse_step_status(s);
}
void parse_enum(const std::string& s, BenchStatus& v) {
  v = parse_bench_status(s);
}
void parse_enum(const std::string& s, LibraryStatus& v) {
  v = parse_library_status(s);
}
void parse_enum(const std::string& s, FleetRunStatus& v) {
  v = parse_fleet_run_status(s);
}
void parse_enum(const std::string& s, FleetSource& v) {
  v = parse_fleet_source(s);
}
void parse_enum(const std::string& s, NodeStatus& v) {
  v = parse_node_status(s);
}
void parse_enum(const std::string& s, Platform& v) {
  v = parse_platform(s).value_or(Platform::linux);
}

class Writer {
 public:
  static constexpr bool writes = true;
  explicit Writer(json& out) : out_(out) {}

  template <class T>
  void field(const char* key, const T& v, Empty empty = Empty::keep) {
    bool is_empty = false;
    if constexpr (std::is_same_v<T, std::string> || is_vector<T>::value) is_empty = v.empty();
    if constexpr (is_optional<T>::value) is_empty = !v.has_value();
    if constexpr (std::is_enum_v<T>) is_empty = *to_string(v) == '\0';  // a status not set
    if (is_empty && empty == Empty::omit) return;
    out_[key] = is_empty && empty == Empty::null ? json(nullptr) : encode(v);
  }
  /// A field only one side has: a required field is written like any other.
  template <class T>
  void required(const char* key, const T& v) {
    field(key, v);
  }
  /// An object that is there or not (a run not asked for): null when absent.
  template <class T>
  void if_present(const char* key, const T& v, bool present) {
    out_[key] = present ? encode(v) : json(nullptr);
  }
  /// A value computed from the others (written, never read back).
  void put(const char* key, json value) { out_[key] = std::move(value); }
  /// A nested object whose fields belong to the enclosing struct.
  template <class F>
  void object(const char* key, F&& fields) {
    json sub = json::object();
    Writer w(sub);
    fields(w);
    out_[key] = std::move(sub);
  }

 private:
  json& out_;
};

class Reader {
 public:
  static constexpr bool writes = false;
  explicit Reader(const json& in) : in_(in) {}

  template <class T>
  void field(const char* key, T& v, Empty = Empty::keep) {
    if (const json* j = find(key)) {
      PathPart part(key);
      if (!decode(*j, v)) note_mistyped();
    }
  }
  /// A field without which the object means nothing (a process without its pid): the object
  /// is skipped when it is missing or mistyped.
  template <class T>
  void required(const char* key, T& v) {
    const json* j = find(key);
    if (!j || !decode(*j, v)) complete_ = false;
  }
  /// Present only when the key holds an object: null, absent or junk leaves it absent.
  template <class T>
  void if_present(const char* key, T& v, bool& present) {
    const json* j = find(key);
    if (!j) return;
    PathPart part(key);  // so a field inside names its object: nccl.busbw_gbps
    if (!j->is_object()) return note_mistyped();
    decode(*j, v);
    present = true;
  }
  void put(const char*, const json&) {}
  template <class F>
  void object(const char* key, F&& fields) {
    static const json empty = json::object();
    const json* j = find(key);
    PathPart part(key);
    if (j && !j->is_object()) note_mistyped();
    Reader r(j && j->is_object() ? *j : empty);
    fields(r);
  }
  const json* find(const char* key) const {
    auto it = in_.find(key);
    return it == in_.end() || it->is_null() ? nullptr : &*it;
  }
  bool complete() const { return complete_; }

 private:
  const json& in_;
  bool complete_ = true;
};

// ---- the field lists ----

// `GPUDOCTOR_FIELDS(io, g, name, uuid)` is `io.field("name", g.name); io.field("uuid", g.uuid);`:
// a member whose JSON key is its own name is named once, so key and member cannot drift apart.
// `_EMPTY` passes an Empty policy to each. A lone field, a key that differs from its member and
// required() stay spelled out. The for-each is nlohmann's own (what NLOHMANN_DEFINE_TYPE_INTRUSIVE uses).
#define GPUDOCTOR_FIELD_(member) fields_io_.field(#member, fields_of_.member, fields_empty_);
#define GPUDOCTOR_FIELDS_EMPTY(io, of, empty, ...)                           \
  do {                                                                       \
    auto& fields_io_ = (io);                                                 \
    auto& fields_of_ = (of);                                                 \
    const Empty fields_empty_ = (empty);                                     \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(GPUDOCTOR_FIELD_, __VA_ARGS__)) \
  } while (false)
#define GPUDOCTOR_FIELDS(io, of, ...) GPUDOCTOR_FIELDS_EMPTY(io, of, Empty::keep, __VA_ARGS__)

template <class Io>
void describe(Io& io, Of<ProbeProblem> auto& p) {
  GPUDOCTOR_FIELDS(io, p, probe, path, message);
}

template <class Io>
void describe(Io& io, Of<OsFacts> auto& os) {
  GPUDOCTOR_FIELDS_EMPTY(io, os, Empty::null, name, id, version_id, kernel, arch);
  GPUDOCTOR_FIELDS(io, os, wsl2, wsl_dxg_device, wsl_lib_dir);
  io.field("wsl_lib_loader_via", os.wsl_lib_loader_via, Empty::omit);
  io.field("wsl_ldconfig_off", os.wsl_ldconfig_off);
  io.field("container", os.container, Empty::null);
  io.field("container_evidence", os.container_evidence);
}

template <class Io>
void describe(Io& io, Of<GpuFacts> auto& g) {
  GPUDOCTOR_FIELDS(io, g, name, source);
  GPUDOCTOR_FIELDS_EMPTY(io, g, Empty::null, uuid, pci_bus_id, pci_device_id);
  // One "8.6" string for the two numbers.
  if constexpr (Io::writes) {
    io.put("compute_capability", g.cc_major
                                     ? json(std::to_string(*g.cc_major) + "." + std::to_string(g.cc_minor.value_or(0)))
                                     : json(nullptr));
  } else {
    std::optional<Version> cc;
    io.field("compute_capability", cc);
    if (cc && cc->parts().size() >= 2) {
      g.cc_major = cc->major();
      g.cc_minor = cc->parts()[1];
    }
  }
  GPUDOCTOR_FIELDS_EMPTY(io, g, Empty::null, compute_capability_source, kb_name);
  GPUDOCTOR_FIELDS(io, g, memory_total_bytes, persistence_mode);
  // Omitted when unknown (no ECC, or no NVML): reports of GPUs without ECC stay as they were.
  GPUDOCTOR_FIELDS_EMPTY(io, g, Empty::omit, ecc_uncorrected_volatile, retired_pages);
  io.field("kernel_driver", g.kernel_driver, Empty::null);
}

template <class Io>
void describe(Io& io, Of<DriverFile> auto& f) {
  io.field("name", f.name);
  io.field("path", f.path, Empty::null);
  io.put("found", !f.path.empty());
  io.field("version", f.version);
  io.field("unreadable", f.unreadable, Empty::omit);
}

template <class Io>
void describe(Io& io, Of<DriverFacts> auto& d) {
  io.field("version", d.version);
  GPUDOCTOR_FIELDS_EMPTY(io, d, Empty::null, version_source, module_flavor);
  io.field("wsl2_linux_version", d.wsl2_linux_version, Empty::omit);
  io.field("wsl2_linux_version_source", d.wsl2_linux_version_source, Empty::omit);
  GPUDOCTOR_FIELDS(io, d, nvidia_module_loaded, nouveau_loaded, cuda_driver_version);
  io.field("cuda_driver_version_source", d.cuda_driver_version_source, Empty::null);
  io.field("libraries", d.files);
  io.object("nvml", [&](auto& sub) {
    sub.field("status", d.nvml_status, Empty::null);
    sub.field("error", d.nvml_error, Empty::null);
    sub.field("path", d.nvml_path, Empty::null);
    sub.field("device_count", d.nvml_device_count, Empty::omit);
    sub.field("stopped_on_device", d.nvml_stopped_on_device, Empty::omit);
  });
  io.object("libcuda", [&](auto& sub) {
    sub.field("status", d.libcuda_status, Empty::null);
    sub.field("error", d.libcuda_error, Empty::null);
    sub.field("path", d.libcuda_path, Empty::null);
  });
}

template <class Io>
void describe(Io& io, Of<ToolkitFacts> auto& t) {
  GPUDOCTOR_FIELDS(io, t, path, version);
  io.field("version_source", t.version_source, Empty::null);
  GPUDOCTOR_FIELDS(io, t, found_via, has_nvcc, kind);
}

template <class Io>
void describe(Io& io, Of<LibraryFacts> auto& l) {
  GPUDOCTOR_FIELDS(io, l, name, version);
  io.field("version_source", l.version_source, Empty::null);
  GPUDOCTOR_FIELDS(io, l, path, files, origin, cuda_major);
  io.field("cuda_major_source", l.cuda_major_source, Empty::null);
  GPUDOCTOR_FIELDS(io, l, loader_order);
}

template <class Io>
void describe(Io& io, Of<LibraryLoad> auto& l) {
  io.field("soname", l.soname);
  GPUDOCTOR_FIELDS_EMPTY(io, l, Empty::null, path, via, real_dir);
}

template <class Io>
void describe(Io& io, Of<MissingImports> auto& m) {
  GPUDOCTOR_FIELDS(io, m, library, provider, provider_soname, symbols, count);
}

template <class Io>
void describe(Io& io, Of<DistRequirement> auto& r) {
  io.field("name", r.name);
  io.field("specifier", r.specifier, Empty::null);
  io.field("marker", r.marker, Empty::null);
}

template <class Io>
void describe(Io& io, Of<FrameworkFacts> auto& f) {
  io.field("name", f.name);
  io.field("package", f.package, Empty::null);
  io.field("version", f.version);
  io.field("location", f.location, Empty::null);
  GPUDOCTOR_FIELDS(io, f, cuda_build, cuda_version, cudnn_version, compute_capabilities);
  io.field("variant", f.variant, Empty::null);
  io.field("requires_torch", f.requires_torch);
  io.field("stable_abi", f.stable_abi);
  io.field("requires_tensorflow", f.requires_tensorflow);
  io.field("imports_tf_keras", f.imports_tf_keras);
  io.field("evidence", f.evidence, Empty::null);
  GPUDOCTOR_FIELDS(io, f, problems, conflicts, sharing, loads, missing_imports, nvidia_requires, numpy_requires,
                   keras_requires);
  GPUDOCTOR_FIELDS_EMPTY(io, f, Empty::omit, missing_package, unregistered, reached_via);
}

template <class Io>
void describe(Io& io, Of<NvidiaWheel> auto& w) {
  GPUDOCTOR_FIELDS(io, w, package, version, library, cuda_major);
  GPUDOCTOR_FIELDS_EMPTY(io, w, Empty::omit, lib_dir, missing_files, missing_count, overwritten_by, overwritten_source);
}

template <class Io>
void describe(Io& io, Of<PlainDist> auto& d) {
  GPUDOCTOR_FIELDS(io, d, name, version, location);
}

template <class Io>
void describe(Io& io, Of<TfPlugin> auto& p) {
  GPUDOCTOR_FIELDS(io, p, path, site_packages, reached_via);
  GPUDOCTOR_FIELDS_EMPTY(io, p, Empty::null, owner, owner_version);
  io.field("owner_known", p.owner_known);
  io.field("requires_tensorflow", p.requires_tensorflow);
  GPUDOCTOR_FIELDS_EMPTY(io, p, Empty::null, requirement_source, problem);
}

template <class Io>
void describe(Io& io, Of<PythonEnvFacts> auto& e) {
  GPUDOCTOR_FIELDS(io, e, path, kind);
  io.field("interpreter", e.interpreter, Empty::null);
  io.field("python_version", e.python_version);
  io.field("python_version_source", e.python_version_source, Empty::null);
  GPUDOCTOR_FIELDS(io, e, site_packages, found_via, frameworks, nvidia_wheels, packages, tf_plugins);
  GPUDOCTOR_FIELDS_EMPTY(io, e, Empty::omit, interpreter_problem, shadowed);
}

template <class Io>
void describe(Io& io, Of<PythonRegistration> auto& r) {
  GPUDOCTOR_FIELDS(io, r, hive, company, tag);
  GPUDOCTOR_FIELDS_EMPTY(io, r, Empty::null, install_path, executable, version);
  io.field("exists", r.exists);
}

template <class Io>
void describe(Io& io, Of<WindowsDll> auto& d) {
  io.field("name", d.name);
  io.field("path", d.path, Empty::null);
}

template <class Io>
void describe(Io& io, Of<DllLoad> auto& l) {
  GPUDOCTOR_FIELDS(io, l, framework, env, dll, loader);
  GPUDOCTOR_FIELDS_EMPTY(io, l, Empty::null, path, via);
  io.field("unreached", l.unreached);
  GPUDOCTOR_FIELDS(io, l, version);
  GPUDOCTOR_FIELDS_EMPTY(io, l, Empty::null, version_source, version_problem);
  io.field("needed_by", l.needed_by, Empty::null);
  io.field("wrong_machine", l.wrong_machine, Empty::omit);
  io.field("delay_loaded", l.delay_loaded);
  GPUDOCTOR_FIELDS(io, l, in_wheel);
}

template <class Io>
void describe(Io& io, Of<WindowsFacts> auto& w) {
  GPUDOCTOR_FIELDS_EMPTY(io, w, Empty::null, registry_source, build);
  io.field("python_registrations", w.pythons);
  io.field("msvc_runtime", w.msvc_runtime);
  io.field("py_launcher", w.py_launcher, Empty::null);
  GPUDOCTOR_FIELDS(io, w, store_pythons, dll_loads, path_unknown);
}

template <class Io>
void describe(Io& io, Of<NetworkLink> auto& l) {
  GPUDOCTOR_FIELDS(io, l, kind, device, port, rate_gbps);
  GPUDOCTOR_FIELDS_EMPTY(io, l, Empty::omit, width, rate_text);
  io.field("state", l.state, Empty::null);
  io.field("phys_state", l.phys_state, Empty::omit);
  io.field("up", l.up);
}

template <class Io>
void describe(Io& io, Of<Facts> auto& f) {
  GPUDOCTOR_FIELDS(io, f, platform, root, live, os, gpus, driver, toolkits, libraries, python_envs);
  // The variables as one object, name to value.
  if constexpr (Io::writes) {
    json vars = json::object();
    for (const auto& v : f.env) vars[v.name] = v.value;
    io.put("env", std::move(vars));
  } else if (const json* vars = io.find("env"); vars && vars->is_object()) {
    for (const auto& [name, value] : vars->items()) {
      if (value.is_string()) f.env.push_back({name, value.template get<std::string>()});
    }
  }
  // Omitted when none was found (a tree without /sys): reports of such trees stay as they were.
  io.field("network", f.network, Empty::omit);
  io.field("problems", f.problems);
  io.field("windows", f.windows, Empty::omit);
}

template <class Io>
void describe(Io& io, Of<Finding> auto& f) {
  GPUDOCTOR_FIELDS(io, f, id, severity, area, title, detail, fix, evidence);
  io.field("source", f.source, Empty::null);
}

// GPU reports and verify's parts: optionals a child did not learn are left out.

template <class Io>
void describe(Io& io, Of<BoundSymbol> auto& b) {
  GPUDOCTOR_FIELDS(io, b, slot, symbol);
}

template <class Io>
void describe(Io& io, Of<LibraryReport> auto& r) {
  GPUDOCTOR_FIELDS(io, r, status, error);
  // "" when there was no failure, as the statuses write an unset value; a name the reader does not
  // know (a newer child's) reads as none.
  if constexpr (Io::writes) {
    io.put("error_kind", r.error_kind ? to_string(*r.error_kind) : "");
  } else {
    std::string kind;
    io.field("error_kind", kind);
    r.error_kind = parse_error_kind(kind);
  }
  GPUDOCTOR_FIELDS(io, r, code, path, problems, bound);
}

/// The struct's LibraryReport part, const when the struct is.
template <class T>
auto& library_part(T& r) {
  using Base = std::conditional_t<std::is_const_v<T>, const LibraryReport, LibraryReport>;
  return static_cast<Base&>(r);
}

/// What a GPU report and a GPU sample both carry to say which GPU they are.
template <class Io, class Gpu>
void describe_identity(Io& io, Gpu& g) {
  GPUDOCTOR_FIELDS(io, g, index, name, uuid, pci_bus_id);
}

template <class Io>
void describe(Io& io, Of<GpuDeviceReport> auto& d) {
  describe_identity(io, d);
  io.field("pci_device_id", d.pci_device_id);
  GPUDOCTOR_FIELDS_EMPTY(io, d, Empty::omit, cc_major, cc_minor, memory_total_bytes, persistence_mode,
                         ecc_uncorrected_volatile, retired_pages);
}

template <class Io>
void describe(Io& io, Of<NvmlReport> auto& r) {
  describe(io, library_part(r));
  io.field("driver_version", r.driver_version);
  GPUDOCTOR_FIELDS_EMPTY(io, r, Empty::omit, cuda_driver_version, device_count);
  io.field("devices", r.devices);
}

template <class Io>
void describe(Io& io, Of<CudaDriverReport> auto& r) {
  describe(io, library_part(r));
  GPUDOCTOR_FIELDS_EMPTY(io, r, Empty::omit, driver_version, device_count);
}

template <class Io>
void describe(Io& io, Of<RuntimeLibraryReport> auto& r) {
  describe(io, library_part(r));
  GPUDOCTOR_FIELDS(io, r, name, version);
  io.field("version_code", r.version_code, Empty::omit);
  GPUDOCTOR_FIELDS(io, r, version_call, tried);
}

template <class Io>
void describe(Io& io, Of<FrameworkFigure> auto& f) {
  io.field("check", f.check);
  io.field("dtype", f.dtype, Empty::omit);
  io.field("max_error", f.max_error, Empty::null);
  io.field("bound_ratio", f.bound_ratio, Empty::null);
  io.field("non_finite", f.non_finite, Empty::omit);
}

template <class Io>
void describe(Io& io, Of<FrameworkStepFacts> auto& f) {
  GPUDOCTOR_FIELDS(io, f, environment, interpreter, framework, version, placed_on, devices, cpu_fallback,
                   fallback_reasons, error, figures, loaded);
}

template <class Io>
void describe(Io& io, Of<VerifyStep> auto& s) {
  io.field("name", s.name);
  io.field("device", s.device, Empty::omit);
  io.field("pci_bus_id", s.pci_bus_id, Empty::omit);
  GPUDOCTOR_FIELDS(io, s, status, detail);
  io.field("last_call", s.last_call, Empty::null);
  GPUDOCTOR_FIELDS(io, s, elapsed_ms, notes);
  io.field("framework", s.framework, Empty::omit);
}

template <class Io>
void describe(Io& io, Of<VerifyReport> auto& r) {
  if constexpr (Io::writes) io.put("passed", verify_passed(r));
  GPUDOCTOR_FIELDS(io, r, libs_from, quick, driver, nvml, libraries, steps, problems, notes);
}

// Monitor snapshots: unknown readings are null, so every sample has the same keys.

template <class Io>
void describe(Io& io, Of<GpuProcessSample> auto& p) {
  io.required("pid", p.pid);
  GPUDOCTOR_FIELDS(io, p, used_memory_bytes, command, cpu_percent);
}

template <class Io>
void describe(Io& io, Of<GpuSample> auto& g) {
  describe_identity(io, g);
  GPUDOCTOR_FIELDS(io, g, gpu_util_percent, memory_util_percent, memory_used_bytes, memory_total_bytes, temperature_c,
                   power_w, power_limit_w, sm_clock_mhz, memory_clock_mhz, throttle_reasons);
  if constexpr (Io::writes) {
    io.put("throttle_reason_names",
           g.throttle_reasons ? json(throttle_reason_names(*g.throttle_reasons)) : json(nullptr));
  }
  GPUDOCTOR_FIELDS(io, g, pcie_tx_kib_per_s, pcie_rx_kib_per_s, ecc_uncorrected_volatile, retired_pages_single_bit,
                   retired_pages_double_bit, remapped_rows_uncorrectable, remapping_pending, processes, problems);
  GPUDOCTOR_FIELDS_EMPTY(io, g, Empty::omit, lost);
}

template <class Io>
void describe(Io& io, Of<HostSample> auto& h) {
  GPUDOCTOR_FIELDS(io, h, cpu_percent, cpu_count, memory_total_bytes, memory_available_bytes);
}

template <class Io>
void describe(Io& io, Of<Snapshot> auto& s) {
  GPUDOCTOR_FIELDS(io, s, time_ms, status);
  GPUDOCTOR_FIELDS_EMPTY(io, s, Empty::null, error, driver_version);
  GPUDOCTOR_FIELDS(io, s, agent_starts, host, gpus, diagnoses);
}

// bench: a measurement's median, spread and check, its ceiling and how close it came.

template <class Io>
void describe(Io& io, Of<BenchMeasurement> auto& m) {
  io.required("key", m.key);
  GPUDOCTOR_FIELDS(io, m, unit, status, value, min, max, spread_pct, iterations, seconds_median, wall_seconds, detail);
  GPUDOCTOR_FIELDS_EMPTY(io, m, Empty::null, library, check);
  GPUDOCTOR_FIELDS(io, m, check_passed, ceiling);
  io.field("ceiling_source", m.ceiling_source, Empty::null);
  if constexpr (Io::writes) io.put("fraction_of_ceiling", encode(m.fraction_of_ceiling()));
  io.field("last_call", m.last_call, Empty::null);
  io.field("tf32", m.tf32, Empty::omit);
  io.field("gpus", m.gpus, Empty::omit);
}

template <class Io>
void describe(Io& io, Of<BenchClaim> auto& c) {
  GPUDOCTOR_FIELDS(io, c, what, guide, ratio, basis);
}

template <class Io>
void describe(Io& io, Of<BenchChange> auto& c) {
  GPUDOCTOR_FIELDS(io, c, key, previous, current, change_pct, noise_pct, verdict, runs);
  io.field("detail", c.detail, Empty::omit);
}

template <class Io>
void describe(Io& io, Of<BenchTopology> auto& t) {
  GPUDOCTOR_FIELDS(io, t, bus_ids, links, p2p_read, link_gbps, link_basis);
  io.field("note", t.note, Empty::null);
}

template <class Io>
void describe(Io& io, Of<BenchReport> auto& r) {
  if constexpr (Io::writes) {
    io.put("passed", bench_passed(r));
  }
  GPUDOCTOR_FIELDS(io, r, mode, started_utc, host);
  io.field("cpu_model", r.cpu_model, Empty::null);
  io.field("cpu_threads", r.cpu_threads);
  io.field("gpus", r.gpu_names);
  // Every figure once more under its full key ("cpu.sgemm_fp32.gflops"), for jq and scripts.
  if constexpr (Io::writes) {
    json results = json::object();
    for (const auto& m : r.measurements) results[m.json_key()] = m.ok() ? json(*m.value) : json(nullptr);
    io.put("results", std::move(results));
  }
  GPUDOCTOR_FIELDS(io, r, measurements, claims);
  io.field("compared_with_utc", r.compared_with_utc, Empty::null);
  GPUDOCTOR_FIELDS(io, r, changes, topology, notes, problems);
}

// fleet: every node's result as rank 0 (or `fleet --from`) got it, and what comparing found.

template <class Io>
void describe(Io& io, Of<FleetRun> auto& r) {
  GPUDOCTOR_FIELDS(io, r, status, detail);
  GPUDOCTOR_FIELDS_EMPTY(io, r, Empty::omit, figures, mode, started_utc);
}

template <class Io>
void describe(Io& io, Of<FleetNcclRun> auto& r) {
  GPUDOCTOR_FIELDS(io, r, status, detail, seconds, busbw_gbps, transport, connections);
}

/// The most GPUs one node's memory health may name: more is junk, not a node.
constexpr size_t kMaxFleetNodeGpus = 1024;

/// One GPU's memory health in a fleet node's entry: all the fleet keeps of a node's facts.
struct GpuMemoryHealth {
  size_t gpu = kMaxFleetNodeGpus;  ///< index in the node's GPU list
  std::string name;
  std::string uuid;
  std::optional<std::uint64_t> ecc_uncorrected_volatile;
  std::optional<unsigned> retired_pages;
};

template <class Io>
void describe(Io& io, Of<GpuMemoryHealth> auto& h) {
  io.required("gpu", h.gpu);
  GPUDOCTOR_FIELDS(io, h, name, uuid);
  GPUDOCTOR_FIELDS_EMPTY(io, h, Empty::null, ecc_uncorrected_volatile, retired_pages);
}

/// The GPUs whose memory health NVML knew.
std::vector<GpuMemoryHealth> memory_health(const Facts& facts) {
  std::vector<GpuMemoryHealth> out;
  for (size_t i = 0; i < facts.gpus.size(); ++i) {
    const GpuFacts& g = facts.gpus[i];
    if (!g.ecc_uncorrected_volatile && !g.retired_pages) continue;
    out.push_back({.gpu = i,
                   .name = g.name,
                   .uuid = g.uuid,
                   .ecc_uncorrected_volatile = g.ecc_uncorrected_volatile,
                   .retired_pages = g.retired_pages});
  }
  return out;
}

void apply_memory_health(const std::vector<GpuMemoryHealth>& health, Facts& facts) {
  for (const auto& h : health) {
    if (h.gpu >= kMaxFleetNodeGpus) continue;
    if (facts.gpus.size() <= h.gpu) facts.gpus.resize(h.gpu + 1);
    GpuFacts& g = facts.gpus[h.gpu];
    g.name = h.name;
    g.uuid = h.uuid;
    g.ecc_uncorrected_volatile = h.ecc_uncorrected_volatile;
    g.retired_pages = h.retired_pages;
  }
}

template <class Io>
void describe(Io& io, Of<FleetNode> auto& n) {
  io.field("node", n.name);
  GPUDOCTOR_FIELDS(io, n, rank, status);
  GPUDOCTOR_FIELDS_EMPTY(io, n, Empty::null, error, group);
  if constexpr (Io::writes) {
    int errors = 0, warnings = 0;
    for (const auto& f : n.findings) {
      errors += f.severity == Severity::error;
      warnings += f.severity == Severity::warning;
    }
    io.put("errors", errors);
    io.put("warnings", warnings);
  } else {
    // Counted again from the findings that name the node; read only so that a count of the
    // wrong type ("3", -7) is refused, not shown as 0 (review 43B, 03).
    unsigned count = 0;
    io.field("errors", count);
    io.field("warnings", count);
  }
  io.if_present("verify", n.verify, n.verify.ran);
  io.if_present("bench", n.bench, n.bench.ran);
  io.if_present("nccl", n.nccl, n.nccl.ran);
  if constexpr (Io::writes) {
    io.put("gpu_memory", encode(memory_health(n.facts)));
  } else {
    std::vector<GpuMemoryHealth> health;
    io.field("gpu_memory", health);
    apply_memory_health(health, n.facts);
  }
}

template <class Io>
void describe(Io& io, Of<FleetGroup> auto& g) {
  GPUDOCTOR_FIELDS(io, g, id, nodes, outlier);
  io.field("fingerprint", g.print);
}

template <class Io>
void describe(Io& io, Of<FleetDifference> auto& d) {
  GPUDOCTOR_FIELDS(io, d, key, values);
}

template <class Io>
void describe(Io& io, Of<FleetFinding> auto& f) {
  GPUDOCTOR_FIELDS(io, f, id, severity, title, fix, nodes);
}

template <class Io>
void describe(Io& io, Of<FleetOutlier> auto& o) {
  GPUDOCTOR_FIELDS(io, o, node, reason);
}

template <class Io>
void describe(Io& io, Of<FleetNccl> auto& n) {
  GPUDOCTOR_FIELDS(io, n, status, detail, gpus, bytes, busbw_gbps, slowest_node, slowest_transport,
                   slowest_transport_nodes);
  // Omitted when there is no ceiling to state: fleet reports from before stay as they were.
  GPUDOCTOR_FIELDS_EMPTY(io, n, Empty::omit, network_ceiling_gbps, network_fraction, network_node, network_link,
                         network_links_up, network_detail);
}

template <class Io>
void describe(Io& io, Of<FleetBenchFigure> auto& b) {
  GPUDOCTOR_FIELDS(io, b, key, nodes, median, mad, min, max);
}

template <class Io>
void describe(Io& io, Of<FleetReport> auto& r) {
  GPUDOCTOR_FIELDS(io, r, source, ranks);
  GPUDOCTOR_FIELDS_EMPTY(io, r, Empty::omit, incomplete);  // only in a report of an ended job
  if constexpr (Io::writes) {
    size_t reported = 0;
    json missing = json::array();
    for (const auto& n : r.nodes) {
      if (n.status == NodeStatus::ok) {
        ++reported;
      } else {
        missing.push_back({{"rank", n.rank}, {"node", n.name}, {"status", to_string(n.status)}, {"reason", n.error}});
      }
    }
    io.put("node_count", r.nodes.size());
    io.put("reported", reported);
    io.field("nodes", r.nodes);
    io.put("missing", std::move(missing));
  } else {
    io.field("nodes", r.nodes);
  }
  GPUDOCTOR_FIELDS(io, r, groups, differences, findings, outliers);
  io.if_present("nccl", r.nccl, r.nccl.ran);
  io.field("bench", r.bench);
}

#undef GPUDOCTOR_FIELDS
#undef GPUDOCTOR_FIELDS_EMPTY
#undef GPUDOCTOR_FIELD_

// ---- values ----

template <class T>
json encode(const T& v) {
  if constexpr (std::is_same_v<T, std::string> || std::is_arithmetic_v<T>) {
    return json(v);
  } else if constexpr (std::is_same_v<T, Version>) {
    return json(v.str());
  } else if constexpr (std::is_enum_v<T>) {
    return json(to_string(v));
  } else if constexpr (is_optional<T>::value) {
    return v ? encode(*v) : json(nullptr);
  } else if constexpr (is_members<T>::value) {
    json out = json::object();
    for (const auto& [name, value] : v) out[name] = encode(value);
    return out;
  } else if constexpr (is_vector<T>::value) {
    json out = json::array();
    for (const auto& item : v) out.push_back(encode(item));
    return out;
  } else {
    json out = json::object();
    Writer w(out);
    describe(w, v);
    return out;
  }
}

/// Reads j into v when j has the right type (and, for a number, fits); false leaves v as it was.
/// The text comes from another process or a file, so nothing in it is trusted.
template <class T>
bool decode(const json& j, T& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    if (!j.is_string()) return false;
    v = j.get<std::string>();
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!j.is_boolean()) return false;
    v = j.get<bool>();
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!j.is_number()) return false;
    v = j.get<T>();
  } else if constexpr (std::is_integral_v<T>) {
    // A negative count, a fraction or a number too large for the field is junk, not a value.
    if (j.is_number_unsigned()) {
      auto n = j.get<std::uint64_t>();
      if (!std::in_range<T>(n)) return false;
      v = static_cast<T>(n);
    } else if (j.is_number_integer()) {
      auto n = j.get<std::int64_t>();
      if (!std::in_range<T>(n)) return false;
      v = static_cast<T>(n);
    } else {
      return false;
    }
  } else if constexpr (std::is_same_v<T, Version>) {
    if (!j.is_string()) return false;
    auto parsed = Version::parse(j.get<std::string>());
    if (!parsed) return false;
    v = *parsed;
  } else if constexpr (std::is_enum_v<T>) {
    if (!j.is_string()) return false;
    parse_enum(j.get<std::string>(), v);
  } else if constexpr (is_optional<T>::value) {
    typename T::value_type inner{};
    if (j.is_null() || !decode(j, inner)) return false;
    v = std::move(inner);
  } else if constexpr (is_members<T>::value) {
    if (!j.is_object()) return false;
    for (const auto& [name, item] : j.items()) {
      PathPart part(name.c_str());
      typename T::value_type::second_type inner{};
      if (decode(item, inner))
        v.emplace_back(name, std::move(inner));
      else
        note_mistyped();  // a bench figure "fast" was dropped without a word (review 43B, 03)
    }
  } else if constexpr (is_vector<T>::value) {
    if (!j.is_array()) return false;
    size_t index = 0;
    for (const auto& item : j) {
      PathPart part(index++);
      typename T::value_type inner{};
      if (decode(item, inner))
        v.push_back(std::move(inner));
      else
        note_mistyped();
    }
  } else {
    if (!j.is_object()) return false;
    Reader r(j);
    describe(r, v);
    return r.complete();
  }
  return true;
}

}  // namespace

MistypedFields::MistypedFields() : outer_(t_mistyped) {
  t_mistyped = &paths_;
  t_path.clear();
}

MistypedFields::~MistypedFields() {
  t_mistyped = outer_;
}

json facts_to_json(const Facts& facts) {
  return encode(facts);
}
json finding_to_json(const Finding& finding) {
  return encode(finding);
}
json findings_to_json(const std::vector<Finding>& findings) {
  return encode(findings);
}

void facts_from_json(const json& j, Facts& facts) {
  decode(j, facts);
}
std::vector<Finding> findings_from_json(const json& j) {
  std::vector<Finding> out;
  decode(j, out);
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

// The public names of the generic codec: a type's encode and its lenient decode, one line each.
#define GPUDOCTOR_CODEC_NAMES(Type, to_name, from_name) \
  json to_name(const Type& value) {                     \
    return encode(value);                               \
  }                                                     \
  void from_name(const json& j, Type& value) {          \
    decode(j, value);                                   \
  }
GPUDOCTOR_CODEC_NAMES(NvmlReport, report_to_json, report_from_json)
GPUDOCTOR_CODEC_NAMES(CudaDriverReport, report_to_json, report_from_json)
GPUDOCTOR_CODEC_NAMES(RuntimeLibraryReport, report_to_json, report_from_json)
GPUDOCTOR_CODEC_NAMES(VerifyStep, step_to_json, step_from_json)
GPUDOCTOR_CODEC_NAMES(std::vector<GpuSample>, gpu_samples_to_json, gpu_samples_from_json)
GPUDOCTOR_CODEC_NAMES(BenchMeasurement, measurement_to_json, measurement_from_json)
GPUDOCTOR_CODEC_NAMES(BenchReport, bench_report_to_json, bench_report_from_json)
#undef GPUDOCTOR_CODEC_NAMES

// The readers that first check the document is what it claims to be.
json verify_report_to_json(const VerifyReport& report) {
  return encode(report);
}
bool verify_report_from_json(const json& j, VerifyReport& report) {
  if (!j.is_object() || !j.contains("steps") || !j["steps"].is_array()) return false;
  decode(j, report);
  return true;
}
json snapshot_to_json(const Snapshot& snapshot) {
  return encode(snapshot);
}
bool snapshot_from_json(const json& j, Snapshot& snapshot) {
  if (!j.is_object() || !j.contains("time_ms") || !j["time_ms"].is_number() || !j.contains("gpus") ||
      !j["gpus"].is_array())
    return false;
  decode(j, snapshot);
  return true;
}
json bench_topology_to_json(const BenchTopology& topology) {
  return encode(topology);
}
bool bench_topology_from_json(const json& j, BenchTopology& topology) {
  return decode(j, topology);
}

json fleet_report_to_json(const FleetReport& report) {
  return encode(report);
}

namespace {

/// A fleet document's size in what reading it allocates: nodes, and the GPUs their memory
/// health pads each node to (a "gpu": 1023 entry makes 1024 GpuFacts). Counted before reading,
/// so a small hostile file cannot make gigabytes of them.
constexpr size_t kMaxFleetNodes = 65536;
constexpr size_t kMaxFleetGpus = 262144;

bool fleet_document_fits(const json& nodes) {
  if (nodes.size() > kMaxFleetNodes) return false;
  size_t gpus = 0;
  for (const auto& n : nodes) {
    auto health = n.is_object() ? n.find("gpu_memory") : n.end();
    if (!n.is_object() || health == n.end() || !health->is_array()) continue;
    size_t count = 0;
    for (const auto& h : *health) {
      auto gpu = h.is_object() ? h.find("gpu") : h.end();
      size_t index = kMaxFleetNodeGpus;  // what decode() would read, or out of range
      if (h.is_object() && gpu != h.end()) decode(*gpu, index);
      if (index < kMaxFleetNodeGpus) count = std::max(count, index + 1);
    }
    gpus += count;
    if (gpus > kMaxFleetGpus) return false;
  }
  return true;
}

}  // namespace

bool fleet_report_from_json(const json& doc, FleetReport& report) {
  if (!doc.is_object() || !doc.contains("nodes") || !doc["nodes"].is_array()) return false;
  if (!fleet_document_fits(doc["nodes"])) return false;
  FleetReport r;
  decode(doc, r);
  // Each node's own findings, as far as the fleet kept them (its warnings and errors).
  std::map<std::string, size_t> by_name;
  for (size_t i = 0; i < r.nodes.size(); ++i) by_name.try_emplace(r.nodes[i].name, i);
  for (const auto& f : r.findings) {
    for (const auto& name : f.nodes) {
      auto it = by_name.find(name);
      if (it == by_name.end()) continue;
      r.nodes[it->second].findings.push_back({.id = f.id, .severity = f.severity, .title = f.title, .fix = f.fix});
    }
  }
  report = std::move(r);
  return true;
}

}  // namespace gpudoctor
