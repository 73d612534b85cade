#include "gpu/runtime_libraries.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "core/text.hpp"
#include "gpu/child_lines.hpp"
#include "gpu/cublas_api.hpp"
#include "gpu/cudnn_api.hpp"
#include "gpu/driver_query.hpp"
#include "gpu/nccl_api.hpp"
#include "model/json_codec.hpp"

namespace gpudoctor::gpu {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

void send_library(ChildChannel& out, const RuntimeLibraryReport& r) {
  send_json_line(out, json{{"library", report_to_json(r)}});
}

void set_failure(RuntimeLibraryReport& r, const Error& e) {
  r.status = status_for(e.kind);
  r.error_kind = e.kind;
  r.error = e.message;
  r.code = e.code;
  if (e.kind != ErrorKind::not_found) r.path = e.origin;
}

/// Loads with `load`, announcing the dlopen (a constructor may hang), and records which file
/// and which symbols; on failure the report says why and is sent.
template <class Api>
const Api* open_library(std::optional<Api>& slot, Result<Api> (*load)(const std::vector<std::string>&),
                        const std::vector<std::string>& names, RuntimeLibraryReport& r, ChildChannel& out) {
  send_call_line(out, "dlopen " + names.front());
  Result<Api> loaded = load(names);
  if (!loaded) {
    set_failure(r, loaded.error());
    send_library(out, r);
    return nullptr;
  }
  slot.emplace(std::move(loaded).value());
  r.path = slot->library.path();
  r.bound = slot->bound;
  send_library(out, r);
  return &*slot;
}

void set_version(RuntimeLibraryReport& r, const std::string& call, long long code, std::string text) {
  r.version_call = call;
  r.version_code = code;
  r.version = std::move(text);
  r.status = LibraryStatus::ok;
}

void version_failed(RuntimeLibraryReport& r, const std::string& call, const std::string& why, int code) {
  r.status = LibraryStatus::init_failed;
  r.error_kind = ErrorKind::call_failed;
  r.error = call + ": " + why;
  r.code = code;
}

void probe_cublas(const std::vector<std::string>& names, RuntimeLibraryReport& r, ChildChannel& out) {
  std::optional<CublasApi> slot;
  const CublasApi* api = open_library(slot, &load_cublas, names, r, out);
  if (api == nullptr) return;
  // cublasGetVersion reads no state from the handle: it answers before any GPU is touched.
  std::string call = "cublasGetVersion_v2";
  send_call_line(out, call);
  int version = 0;
  cublasStatus_t rc = api->get_version(nullptr, &version);
  if (rc == kCublasSuccess && version > 0) {
    set_version(r, call, version, cublas_version_text(version));
  } else if (api->get_property != nullptr) {
    int major = 0;
    int minor = 0;
    int patch = 0;
    send_call_line(out, "cublasGetProperty");
    if (api->get_property(kMajorVersion, &major) == kCublasSuccess &&
        api->get_property(kMinorVersion, &minor) == kCublasSuccess &&
        api->get_property(kPatchLevel, &patch) == kCublasSuccess) {
      set_version(r, "cublasGetProperty", major * 10000LL + minor * 100 + patch,
                  std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch));
    } else {
      version_failed(r, call, cublas_status_name(rc), rc);
    }
  } else {
    version_failed(r, call, cublas_status_name(rc), rc);
  }
}

void probe_cublaslt(const std::vector<std::string>& names, RuntimeLibraryReport& r, ChildChannel& out) {
  std::optional<CublasLtApi> slot;
  const CublasLtApi* api = open_library(slot, &load_cublaslt, names, r, out);
  if (api == nullptr) return;
  send_call_line(out, "cublasLtGetVersion");
  auto version = static_cast<long long>(api->get_version());
  set_version(r, "cublasLtGetVersion", version, cublas_version_text(version));
}

void probe_nccl(const std::vector<std::string>& names, RuntimeLibraryReport& r, ChildChannel& out) {
  std::optional<NcclApi> slot;
  const NcclApi* api = open_library(slot, &load_nccl, names, r, out);
  if (api == nullptr) return;
  send_call_line(out, "ncclGetVersion");
  int version = 0;
  ncclResult_t rc = api->get_version(&version);
  if (rc == kNcclSuccess)
    set_version(r, "ncclGetVersion", version, packed_version_text(version));
  else
    version_failed(r, "ncclGetVersion", nccl_result_text(*api, rc), rc);
}

void probe_nvrtc(const std::vector<std::string>& names, RuntimeLibraryReport& r, ChildChannel& out) {
  std::optional<NvrtcApi> slot;
  const NvrtcApi* api = open_library(slot, &load_nvrtc, names, r, out);
  if (api == nullptr) return;
  send_call_line(out, "nvrtcVersion");
  int major = 0;
  int minor = 0;
  nvrtcResult rc = api->version(&major, &minor);
  if (rc == 0)
    set_version(r, "nvrtcVersion", major * 1000LL + minor * 10, std::to_string(major) + "." + std::to_string(minor));
  else
    version_failed(r, "nvrtcVersion", "nvrtcResult " + std::to_string(rc), rc);
}

/// Each sub-library of the loaded cuDNN's major, from the folder the front library came from
/// (where libcudnn.so.N looks for them first), with its declared entry points checked.
void probe_cudnn_sub_libraries(int major, const std::string& front_path, ChildChannel& out) {
  fs::path dir = fs::path(front_path).parent_path();
  for (const CudnnSubLibrary& sub : cudnn_sub_libraries(major)) {
    RuntimeLibraryReport r;
    r.name = sub.name;
    std::string path = (dir / sub.soname).string();
    r.tried = {path};
    send_call_line(out, "dlopen " + path);
    auto lib = DynamicLibrary::open(path);
    if (!lib) {
      set_failure(r, lib.error());
      send_library(out, r);
      continue;
    }
    r.path = lib->path();
    std::vector<std::string> missing;
    for (const char* symbol : sub.symbols) {
      if (lib->symbol(symbol) != nullptr)
        r.bound.push_back({symbol, symbol});
      else
        missing.emplace_back(symbol);
    }
    if (missing.empty()) {
      r.status = LibraryStatus::ok;
    } else {
      BindState state;
      state.missing_required = missing;
      set_failure(r, missing_entry_points_error(state, r.path));
    }
    send_library(out, r);
  }
}

void probe_cudnn(const std::vector<std::string>& names, RuntimeLibraryReport& r, ChildChannel& out) {
  std::optional<CudnnApi> slot;
  const CudnnApi* api = open_library(slot, &load_cudnn, names, r, out);
  if (api == nullptr) return;
  send_call_line(out, "cudnnGetVersion");
  auto version = static_cast<long long>(api->get_version());
  set_version(r, "cudnnGetVersion", version, packed_version_text(version));
  send_library(out, r);
  int major = static_cast<int>(version >= 10000 ? version / 10000 : version / 1000);
  if (cudnn_sub_libraries(major).empty()) {
    r.problems.push_back("cuDNN " + r.version + ": verify knows the sub-libraries of cuDNN 8 and 9 only");
  }
  probe_cudnn_sub_libraries(major, r.path, out);
}

using ProbeFn = void (*)(const std::vector<std::string>&, RuntimeLibraryReport&, ChildChannel&);

struct ProbeEntry {
  const char* name;
  ProbeFn probe;
};

constexpr ProbeEntry kProbes[] = {
    {"cublas", &probe_cublas}, {"cublasLt", &probe_cublaslt}, {"cudnn", &probe_cudnn},
    {"nccl", &probe_nccl},     {"nvrtc", &probe_nvrtc},
};

}  // namespace

const std::vector<RuntimeLibrarySpec>& runtime_library_specs() {
  // Newest first. CUDA 11's NVRTC is libnvrtc.so.11.2 (11.2 and later) or .11.0/.11.1.
#ifdef _WIN32
  // The Windows toolkit's and wheels' DLL names; NCCL has no Windows build.
  static const std::vector<RuntimeLibrarySpec> specs = {
      {"cublas", {"cublas64_13.dll", "cublas64_12.dll", "cublas64_11.dll"}},
      {"cublasLt", {"cublasLt64_13.dll", "cublasLt64_12.dll", "cublasLt64_11.dll"}},
      {"cudnn", {"cudnn64_9.dll", "cudnn64_8.dll"}},
      {"nvrtc", {"nvrtc64_130_0.dll", "nvrtc64_120_0.dll", "nvrtc64_112_0.dll"}},
  };
#else
  static const std::vector<RuntimeLibrarySpec> specs = {
      {"cublas", {"libcublas.so.13", "libcublas.so.12", "libcublas.so.11", "libcublas.so.10"}},
      {"cublasLt", {"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so.11", "libcublasLt.so.10"}},
      {"cudnn", {"libcudnn.so.9", "libcudnn.so.8"}},
      {"nccl", {"libnccl.so.2"}},
      {"nvrtc", {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2", "libnvrtc.so.11.1", "libnvrtc.so.11.0"}},
  };
#endif
  return specs;
}

std::vector<std::string> library_candidates(const LibrarySource& source, const RuntimeLibrarySpec& spec) {
  if (source.dirs.empty()) return spec.sonames;
  std::vector<std::string> existing;
  std::vector<std::string> all;
  for (const std::string& soname : spec.sonames) {
    for (const std::string& dir : source.dirs) {
      std::string path = (fs::path(dir) / soname).string();
      std::error_code ec;
      if (fs::exists(path, ec)) existing.push_back(path);
      all.push_back(std::move(path));
    }
  }
  return existing.empty() ? all : existing;
}

std::vector<std::string> wheel_library_dirs(const std::vector<std::string>& site_packages) {
  std::vector<std::string> dirs;
  for (const std::string& site : site_packages) {
    std::error_code ec;
    fs::directory_iterator it(fs::path(site) / "nvidia", ec);
    for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
      // Linux wheels keep their libraries in lib/, Windows wheels their DLLs in bin/.
#ifdef _WIN32
      fs::path lib = it->path() / "bin";
#else
      fs::path lib = it->path() / "lib";
#endif
      std::error_code dir_ec;
      if (fs::is_directory(lib, dir_ec)) dirs.push_back(lib.string());
    }
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

void runtime_library_body(const std::vector<std::string>& args, ChildChannel& out) {
  if (args.size() < 2) return;
  RuntimeLibraryReport r;
  r.name = args[0];
  r.tried.assign(args.begin() + 1, args.end());
  for (const ProbeEntry& p : kProbes) {
    if (r.name != p.name) continue;
    p.probe(r.tried, r, out);
    if (r.status != LibraryStatus::none) send_library(out, r);
    return;
  }
}

std::vector<RuntimeLibraryReport> runtime_library_reports_from_child(const std::string& name,
                                                                     const ChildOutcome& outcome) {
  ChildLines lines = parse_child_lines(outcome);
  std::vector<RuntimeLibraryReport> reports;
  for (const auto& object : lines.objects) {
    auto it = object.find("library");
    if (it == object.end() || !it->is_object()) continue;
    RuntimeLibraryReport r;
    report_from_json(*it, r);
    auto same = std::find_if(reports.begin(), reports.end(), [&](const auto& x) { return x.name == r.name; });
    if (same != reports.end())
      *same = std::move(r);
    else
      reports.push_back(std::move(r));
  }
  if (reports.empty() || reports.front().name != name) {
    RuntimeLibraryReport r;
    r.name = name;
    reports.insert(reports.begin(), std::move(r));
  }
  // A failure goes on the library asked for (the one a framework loads); last_call names
  // the sub-library when it was one of those.
  RuntimeLibraryReport& current = reports.front();
  if (!outcome.diagnostics.empty()) {
    current.problems.push_back(name + " wrote on stderr: " + printable_ends(trim(outcome.diagnostics), 400));
  }
  std::string where = lines.last_call.empty() ? "" : " in " + lines.last_call;
  if (!lines.last_call.empty()) current.last_call = lines.last_call;
  if (outcome.error) {
    const Error& e = *outcome.error;
    current.status = status_for(e.kind);
    current.error_kind = e.kind;
    current.error = e.message + where;
    current.code = e.code;
  } else if (!lines.junk.empty() || current.status == LibraryStatus::none || !lines.last_call.empty()) {
    current.status = status_for(ErrorKind::invalid_data);
    current.error_kind = ErrorKind::invalid_data;
    current.error = (lines.junk.empty() ? std::string("the child process ended without an answer")
                                        : "unreadable answer from the child process: \"" + lines.junk + "\"") +
                    where;
  }
  return reports;
}

std::vector<RuntimeLibraryReport> probe_runtime_libraries(const LibrarySource& source,
                                                          std::chrono::milliseconds deadline) {
  std::vector<IsolatedTask> tasks;
  for (const RuntimeLibrarySpec& spec : runtime_library_specs()) {
    std::vector<std::string> args{spec.name};
    for (std::string& c : library_candidates(source, spec)) args.push_back(std::move(c));
    tasks.push_back({"runtime-library", std::move(args)});
  }
  std::vector<ChildOutcome> outcomes = run_isolated(tasks, deadline);
  std::vector<RuntimeLibraryReport> reports;
  for (size_t i = 0; i < tasks.size(); ++i) {
    auto from_child = runtime_library_reports_from_child(tasks[i].args.front(), outcomes[i]);
    if (from_child.front().tried.empty())
      from_child.front().tried.assign(tasks[i].args.begin() + 1, tasks[i].args.end());
    for (auto& r : from_child) reports.push_back(std::move(r));
  }
  return reports;
}

}  // namespace gpudoctor::gpu
