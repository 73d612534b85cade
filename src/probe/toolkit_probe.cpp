#include <algorithm>
#include <set>

#include "core/text.hpp"
#include "probe/library_dirs.hpp"
#include "probe/probes.hpp"
#include "probe/python/dist_info.hpp"
#include "probe/version_files.hpp"

namespace gpudoctor {
namespace {

constexpr size_t kMaxToolkits = 64;

// Debian's and Ubuntu's nvidia-cuda-toolkit split one toolkit in two: /usr/lib/cuda (header
// links, an empty bin/) and the compiler in /usr/lib/nvidia-cuda-toolkit/bin behind the
// /usr/bin/nvcc wrapper. The second is the first's bin/, not a toolkit of its own.
constexpr const char* kDebianToolkit = "/usr/lib/cuda";
constexpr const char* kDebianCompilerHome = "/usr/lib/nvidia-cuda-toolkit";

/// Reads the toolkit's version from the best witness available, in order of trust.
void read_toolkit_version(const SystemView& system, ToolkitFacts& tk) {
  // 64 KiB: real version.json files are a few KiB; a huge one is not worth parsing.
  if (auto text = system.read_file(system.join(tk.path, "version.json"), 64 * 1024)) {
    if (auto v = parse_cuda_version_json(*text)) {
      tk.version = *v;
      tk.version_source = "version.json";
      return;
    }
  }
  if (auto text = system.read_file(system.join(tk.path, "version.txt"), 4096)) {
    if (auto v = parse_cuda_version_txt(*text)) {
      tk.version = *v;
      tk.version_source = "version.txt";
      return;
    }
  }
  // Toolkits assembled from pip wheels keep their dist-info beside the files. The release is
  // named as nvcc names it ("release 13.0, V13.0.88"): the nvcc component first; the runtime
  // component (13.0.96) is versioned on its own and only stands in when there is no nvcc.
  if (auto entries = system.list_dir(system.join(tk.path, "dist-info"))) {
    for (const char* component : {"nvidia-cuda-nvcc", "nvidia-cuda-runtime"}) {
      for (const auto& e : *entries) {
        auto d = parse_dist_dir_name(e.name);
        if (!d || (d->name != component && !d->name.starts_with(std::string(component) + "-cu"))) continue;
        if (auto v = Version::parse(d->version)) {
          tk.version = *v;
          tk.version_source = "dist-info/" + e.name;
          return;
        }
      }
    }
  }
  // CUDA_VERSION is near the top of cuda.h (byte 14324 in 13.0), which is over 1 MB: its head is
  // all that is wanted, and a whole-file read would report a healthy header as cut short.
  if (auto text = system.read_head(system.join(system.join(tk.path, "include"), "cuda.h"), 256 * 1024)) {
    if (auto v = parse_cuda_h(*text)) {
      tk.version = *v;
      tk.version_source = "include/cuda.h";
      return;
    }
  }
  for (const char* lib : {"lib64", "lib", "bin"}) {
    auto entries = system.list_dir(system.join(tk.path, lib));
    if (!entries) continue;
    for (const auto& e : *entries) {
      auto name = parse_library_name(e.name);
      if (!name || !name->version) continue;
      bool cudart = name->stem == "libcudart" || name->stem == "cudart";
      if (cudart && (name->version->parts().size() >= 2 || name->windows)) {
        tk.version = *name->version;
        tk.version_source = std::string(lib) + "/" + e.name;
        return;
      }
    }
  }
  // Last resort: the directory name ("cuda-12.2", "v11.8").
  std::string base = system.base_name(tk.path);
  for (const char* prefix : {"cuda-", "v"}) {
    if (base.starts_with(prefix)) {
      if (auto v = Version::parse(base.substr(std::string(prefix).size()))) {
        tk.version = *v;
        tk.version_source = "directory name";
        return;
      }
    }
  }
}

bool looks_like_toolkit(const SystemView& system, const std::string& path) {
  for (const char* marker :
       {"version.json", "version.txt", "bin/nvcc", "bin/nvcc.exe", "include/cuda.h", "include/cuda_runtime.h"}) {
    std::string p = path;
    for (auto piece : split(marker, '/')) p = system.join(p, piece);
    if (system.exists(p)) return true;
  }
  return false;
}

/// A small "#!/bin/sh\nexec /path/to/bin/nvcc "$@"" wrapper: the program it runs.
std::optional<std::string> wrapper_script_target(const SystemView& system, const std::string& path) {
  // The head only: the real nvcc is a 30 MB ELF, and a cut there is no part of the verdict.
  auto text = system.read_head(path, 4096);
  if (!text || !text->starts_with("#!")) return std::nullopt;
  for (std::string_view line : lines(*text)) {
    for (std::string_view word : split(trim(line), ' ')) {
      word = unquote(word);
      if (word.starts_with("/") && word.ends_with("/bin/nvcc")) return std::string(word);
    }
  }
  return std::nullopt;
}

class ToolkitCollector {
 public:
  ToolkitCollector(const SystemView& system, Facts& facts) : system_(system), facts_(facts) {}

  void add(const std::string& path, const std::string& via, const std::string& kind = "system") {
    if (path.empty()) return;
    if (facts_.toolkits.size() >= kMaxToolkits) {
      if (!cut_reported_) {
        system_.note_bound(path,
                           "more than " + std::to_string(kMaxToolkits) + " CUDA toolkits; the rest not inspected");
        cut_reported_ = true;
      }
      return;
    }
    auto canon = system_.canonical(path);
    if (!canon || !system_.is_dir(*canon)) return;
    if (same_dir(*canon, kDebianCompilerHome)) {
      if (auto debian = system_.canonical(kDebianToolkit); debian && looks_like_toolkit(system_, *debian))
        canon = debian;
    }
    for (auto& tk : facts_.toolkits) {
      if (tk.path == *canon) {
        if (std::find(tk.found_via.begin(), tk.found_via.end(), via) == tk.found_via.end()) {
          tk.found_via.push_back(via);
        }
        return;
      }
    }
    if (!looks_like_toolkit(system_, *canon)) return;
    ToolkitFacts tk;
    tk.path = *canon;
    tk.found_via.push_back(via);
    tk.kind = kind;
    std::string bin = system_.join(*canon, "bin");
    tk.has_nvcc = system_.is_file(system_.join(bin, "nvcc")) || system_.is_file(system_.join(bin, "nvcc.exe"));
    if (!tk.has_nvcc && same_dir(tk.path, kDebianToolkit)) {
      tk.has_nvcc = system_.is_file(std::string(kDebianCompilerHome) + "/bin/nvcc");
    }
    read_toolkit_version(system_, tk);
    facts_.toolkits.push_back(std::move(tk));
  }

 private:
  bool same_dir(const std::string& canon, const char* path) const {
    auto other = system_.canonical(path);
    return other && *other == canon;
  }

  const SystemView& system_;
  Facts& facts_;
  bool cut_reported_ = false;
};

void collect_linux(const SystemView& system, const LoaderPaths& loader, ToolkitCollector& tc) {
  tc.add("/usr/local/cuda", "/usr/local/cuda");
  if (auto entries = system.list_dir("/usr/local")) {
    for (const auto& e : *entries) {
      if (e.name.starts_with("cuda-")) tc.add("/usr/local/" + e.name, "/usr/local/" + e.name);
    }
  }
  if (auto entries = system.list_dir("/opt")) {
    for (const auto& e : *entries) {
      if (e.name.starts_with("cuda")) tc.add("/opt/" + e.name, "/opt/" + e.name);
    }
  }
  tc.add("/usr/lib/cuda", "/usr/lib/cuda");  // Debian/Ubuntu nvidia-cuda-toolkit
  for (const char* var : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT", "CUDA_TOOLKIT_ROOT_DIR", "CUDAToolkit_ROOT"}) {
    if (auto v = system.env(var); v && !v->empty()) tc.add(*v, var);
  }
  for (const auto& dir : system.env_list("PATH")) {
    if (!system.is_file(system.join(dir, "nvcc"))) continue;
    auto nvcc = system.canonical(system.join(dir, "nvcc"));
    if (!nvcc) continue;
    // Debian's /usr/bin/nvcc and many images' /usr/local/bin/nvcc are wrapper scripts.
    if (auto target = wrapper_script_target(system, *nvcc)) nvcc = system.canonical(*target);
    if (nvcc && system.base_name(system.parent(*nvcc)) == "bin")
      tc.add(system.parent(system.parent(*nvcc)), "PATH nvcc");
  }
  for (const auto& dir : system.env_list("LD_LIBRARY_PATH")) {
    auto canon = system.canonical(dir);
    if (!canon) continue;
    std::string b = system.base_name(*canon);
    if (b == "lib64" || b == "lib") tc.add(system.parent(*canon), "LD_LIBRARY_PATH");
  }
  for (const auto& [name, path] : loader.cache_entries) {
    if (!name.starts_with("libcudart.so")) continue;
    auto canon = system.canonical(path);  // /usr/local/lib/libcudart.so.13 may link into a toolkit
    if (!canon) continue;
    std::string dir = system.parent(*canon);
    std::string b = system.base_name(dir);
    if (b == "lib64" || b == "lib") tc.add(system.parent(dir), "ld.so.cache");
  }
}

void collect_windows(const SystemView& system, ToolkitCollector& tc) {
  std::string pf = system.env("ProgramFiles").value_or("C:\\Program Files");
  std::string base = pf + "\\NVIDIA GPU Computing Toolkit\\CUDA";
  if (auto entries = system.list_dir(base)) {
    for (const auto& e : *entries) {
      if (e.name.starts_with("v")) tc.add(base + "\\" + e.name, "Program Files");
    }
  }
  for (const auto& [k, v] : system.environment()) {
    if (iequals(k, "CUDA_PATH") || to_lower(k).starts_with("cuda_path_v")) tc.add(v, k);
  }
  // The installer's own record: a toolkit whose CUDA_PATH the user removed is still installed.
  for (const auto& [dir, via] : registered_cuda_toolkits(system)) tc.add(dir, via);
  for (const auto& dir : system.env_list("PATH")) {
    if (system.is_file(system.join(dir, "nvcc.exe")) && iequals(system.base_name(dir), "bin")) {
      tc.add(system.parent(dir), "PATH nvcc");
    }
  }
}

/// Conda environments carry the runtime in <env>/lib (conda's cudatoolkit / cuda-* packages).
void collect_conda(const SystemView& system, Facts& facts) {
  for (const auto& env : facts.python_envs) {
    if (env.kind != "conda") continue;
    auto meta = system.list_dir(system.join(env.path, "conda-meta"));
    if (!meta) continue;
    for (const auto& e : *meta) {
      // "cudatoolkit-11.2.2-hbe64b41_10.json" or "cuda-cudart-12.1.105-0.json"
      for (const char* pkg : {"cudatoolkit-", "cuda-cudart-"}) {
        if (!e.name.starts_with(pkg)) continue;
        std::string rest = e.name.substr(std::string(pkg).size());
        auto v = Version::parse(rest.substr(0, rest.find('-')));
        if (!v) continue;
        ToolkitFacts tk;
        tk.path = env.path;
        tk.kind = "conda";
        tk.version = *v;
        tk.version_source = "conda-meta/" + e.name;
        tk.found_via.push_back("conda env");
        facts.toolkits.push_back(std::move(tk));
      }
    }
  }
}

/// pip's nvidia-cuda-runtime-cuXX wheel: the runtime a framework brings along, at the folder its
/// RECORD puts the library in (nvidia/cu13 for CUDA 13's wheel, nvidia/cuda_runtime for CUDA 12's:
/// a venv may hold both).
void collect_pip_runtimes(const SystemView& system, Facts& facts) {
  for (const auto& env : facts.python_envs) {
    for (const auto& w : env.nvidia_wheels) {
      if (!w.package.starts_with("nvidia-cuda-runtime")) continue;
      ToolkitFacts tk;
      tk.kind = "pip-wheels";
      tk.version = w.version;
      tk.version_source = "dist-info " + w.package + " " + w.version.str();
      if (!w.lib_dir.empty()) tk.path = system.parent(w.lib_dir);
      for (const auto& sp : env.site_packages) {
        if (!tk.path.empty()) break;
        std::string dir = system.join(system.join(sp, "nvidia"), "cuda_runtime");
        if (system.is_dir(dir)) tk.path = dir;
      }
      if (tk.path.empty() && !env.site_packages.empty()) tk.path = env.site_packages.front();
      tk.found_via.push_back("pip wheel in " + env.path);
      facts.toolkits.push_back(std::move(tk));
    }
  }
}

}  // namespace

void probe_toolkits(const SystemView& system, const LoaderPaths& loader, Facts& facts) {
  ToolkitCollector tc(system, facts);
  if (system.is_windows()) {
    collect_windows(system, tc);
  } else {
    collect_linux(system, loader, tc);
  }
  collect_conda(system, facts);
  collect_pip_runtimes(system, facts);
}

}  // namespace gpudoctor
