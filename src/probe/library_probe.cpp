#include <algorithm>
#include <map>
#include <set>

#include "core/text.hpp"
#include "probe/cudnn_cuda_major.hpp"
#include "probe/library_dirs.hpp"
#include "probe/probes.hpp"
#include "probe/version_files.hpp"

namespace gpudoctor {
namespace {

/// A library family: the file-name stems that belong to it and the header that versions it.
struct Family {
  const char* name;
  std::vector<std::string> stems;  ///< Linux "lib*" stems and Windows DLL stems
  const char* header;              ///< in <prefix>/include, "" if none
  std::optional<Version> (*parse_header)(std::string_view);
  const char* wheel_dir;  ///< site-packages/nvidia/<wheel_dir>/lib
};

const std::vector<Family>& families() {
  static const std::vector<Family> kFamilies = {
      {"cudnn", {"libcudnn", "cudnn"}, "cudnn_version.h", parse_cudnn_header, "cudnn"},
      {"nccl", {"libnccl", "nccl"}, "nccl.h", parse_nccl_header, "nccl"},
      {"cublas", {"libcublas", "cublas"}, "cublas_api.h", parse_cublas_header, "cublas"},
      {"cudart", {"libcudart", "cudart"}, "", nullptr, "cuda_runtime"},
      {"tensorrt", {"libnvinfer", "nvinfer"}, "NvInferVersion.h", parse_tensorrt_header, "tensorrt_libs"},
  };
  return kFamilies;
}

const Family* family_of(const LibraryName& lib) {
  for (const auto& f : families()) {
    for (const auto& s : f.stems) {
      if (lib.stem == s) return &f;
    }
  }
  return nullptr;
}

class LibraryCollector {
 public:
  LibraryCollector(const SystemView& system, Facts& facts) : system_(system), facts_(facts) {}

  /// Scans one directory for every family's files; origin says why this directory matters.
  /// `wheels`: the pip wheel whose files each family's are there (by family name), which gives
  /// their version and CUDA major (nvidia/cu13/lib holds cuBLAS, the runtime, ... of several).
  void scan(const std::string& dir, const std::string& origin, std::optional<int> loader_order = std::nullopt,
            const std::map<std::string, const NvidiaWheel*>* wheels = nullptr) {
    auto canon = system_.canonical(dir);
    if (!canon || !scanned_.insert(*canon).second) {
      if (canon) note_loader(*canon, origin, loader_order);
      return;
    }
    auto entries = system_.list_dir(*canon);
    if (!entries) return;
    std::map<const Family*, LibraryFacts> found;
    for (const auto& e : *entries) {
      if (e.is_dir) continue;
      auto lib = parse_library_name(e.name);
      if (!lib) continue;
      const Family* fam = family_of(*lib);
      if (fam == nullptr) continue;
      LibraryFacts& lf = found[fam];
      lf.name = fam->name;
      lf.path = *canon;
      lf.origin = origin;
      lf.loader_order = loader_order;
      lf.files.push_back(e.name);
      // The longest version in a file name (libcudnn.so.8.9.7 over libcudnn.so.8) is the best.
      std::optional<Version> v = lib->version;
      if (e.is_symlink) {
        if (auto target = system_.canonical(system_.join(*canon, e.name))) {
          auto tname = target->substr(target->find_last_of("/\\") + 1);
          if (auto tl = parse_library_name(tname);
              tl && tl->version && (!v || tl->version->parts().size() > v->parts().size())) {
            v = tl->version;
          }
        }
      }
      if (v && (!lf.version || v->parts().size() > lf.version->parts().size())) {
        lf.version = v;
        lf.version_source = "file name " + e.name;
      }
    }
    for (auto& [fam, lf] : found) {
      const NvidiaWheel* wheel = nullptr;
      if (wheels != nullptr) {
        if (auto it = wheels->find(fam->name); it != wheels->end()) wheel = it->second;
      }
      if (wheel != nullptr) {
        lf.version = wheel->version;
        lf.version_source = "wheel";
        lf.cuda_major = wheel->cuda_major;
      } else if (fam->parse_header != nullptr) {
        read_header_version(*fam, *canon, lf);
      }
      std::sort(lf.files.begin(), lf.files.end());
      if (lf.cuda_major) {
        lf.cuda_major_source = "wheel";
      } else if (lf.name == "cudnn") {
        // Only a wheel's name says which CUDA the build is for; any other copy says it in its
        // binaries (the soname of the cuBLAS it opens).
        CudnnCudaMajor built = cudnn_cuda_major(system_, *canon);
        lf.cuda_major = built.major;
        lf.cuda_major_source = built.source;
      }
      facts_.libraries.push_back(std::move(lf));
    }
  }

 private:
  /// Headers sit in ../include next to lib64 (toolkit, tarball) or in /usr/include.
  void read_header_version(const Family& fam, const std::string& lib_dir, LibraryFacts& lf) {
    std::vector<std::string> candidates = {system_.join(system_.join(system_.parent(lib_dir), "include"), fam.header)};
    // /usr/include speaks only for the distribution's own copies, never for a tarball in /opt.
    bool system_prefix = lib_dir.starts_with("/usr/lib") || lib_dir.starts_with("/lib");
    if (!system_.is_windows() && system_prefix) {
      candidates.push_back(std::string("/usr/include/") + fam.header);
      candidates.push_back(std::string("/usr/include/x86_64-linux-gnu/") + fam.header);
      if (std::string(fam.name) == "cudnn") {
        // Debian/Ubuntu cuDNN packages install versioned headers.
        candidates.emplace_back("/usr/include/x86_64-linux-gnu/cudnn_version_v9.h");
        candidates.emplace_back("/usr/include/x86_64-linux-gnu/cudnn_version_v8.h");
        candidates.emplace_back("/usr/include/cudnn.h");  // cuDNN <= 7
      }
    }
    for (const auto& h : candidates) {
      // The version defines sit at the top (CUDA 13's cublas_api.h: line 82 of a 324 KiB file).
      auto text = system_.read_head(h, 256 * 1024);
      if (!text) continue;
      auto v = fam.parse_header(*text);
      if (!v) continue;
      // A header only speaks for libraries of its own major version.
      if (lf.version && lf.version->major() != v->major()) continue;
      // A full version in the file name (libcudnn.so.8.2.4) beats a header that disagrees.
      if (lf.version && lf.version->parts().size() >= 3 && !lf.version->same_series(*v, 3)) {
        lf.version_source += " (" + h + " says " + v->str() + ")";
        return;
      }
      lf.version = v;
      lf.version_source = h;
      return;
    }
  }

  /// A directory scanned before (as a toolkit's) turns out to be on the loader's path too.
  void note_loader(const std::string& canon, const std::string& origin, std::optional<int> loader_order) {
    for (auto& lf : facts_.libraries) {
      if (lf.path != canon) continue;
      if (origin == "ld-library-path" && lf.origin != "pip-wheel") lf.origin = "ld-library-path";
      if (loader_order && (!lf.loader_order || *loader_order < *lf.loader_order)) lf.loader_order = loader_order;
    }
  }

  const SystemView& system_;
  Facts& facts_;
  std::set<std::string> scanned_;
};

}  // namespace

void probe_libraries(const SystemView& system, const LoaderPaths& loader, Facts& facts) {
  LibraryCollector lc(system, facts);
  // Toolkits first, so a copy inside a toolkit is reported as the toolkit's; a loader directory
  // seen again later only adds that LD_LIBRARY_PATH reaches it.
  for (const auto& tk : facts.toolkits) {
    if (tk.kind == "pip-wheels") continue;
    for (const char* sub : {"lib64", "lib", "bin", "lib\\x64"}) lc.scan(system.join(tk.path, sub), "toolkit");
  }
  // A conda environment's Library\bin on PATH (it is, while the environment is active) holds
  // that environment's libraries, not the machine's.
  std::set<std::string> conda_bins;
  for (const auto& env : facts.python_envs) {
    if (env.kind == "conda" && system.is_windows()) conda_bins.insert(to_lower(system.join(env.path, "Library\\bin")));
  }
  int order = 0;
  for (const auto& dir : loader.search_dirs) {
    std::string lower = to_lower(dir.path);
    while (lower.size() > 3 && (lower.back() == '\\' || lower.back() == '/')) lower.pop_back();
    const char* origin = dir.why == "LD_LIBRARY_PATH" ? "ld-library-path"
                         : conda_bins.contains(lower) ? "conda"
                                                      : "system";
    lc.scan(dir.path, origin, order++);
  }
  std::set<std::string> cache_dirs;
  for (const auto& [name, path] : loader.cache_entries) {
    for (const auto& fam : families()) {
      if (name.starts_with(std::string(fam.stems[0]) + ".so")) cache_dirs.insert(system.parent(path));
    }
  }
  // The cache stands for ld.so.conf's directories: after LD_LIBRARY_PATH, before the defaults'
  // own files; an approximation good enough to rank copies.
  for (const auto& dir : cache_dirs) lc.scan(dir, "system", order++);
  for (const auto& env : facts.python_envs) {
    // One scan per directory the wheels' RECORDs name (the CUDA 13 wheels share nvidia/cu13/lib),
    // each family with the wheel whose files are there now: not one that another overwrote.
    std::map<std::string, std::map<std::string, const NvidiaWheel*>> by_dir;
    for (const auto& w : env.nvidia_wheels) {
      if (!w.overwritten_by.empty()) continue;
      for (const auto& fam : families()) {
        if (w.library != fam.name) continue;
        if (!w.lib_dir.empty()) {
          by_dir[w.lib_dir].emplace(fam.name, &w);
          continue;
        }
        for (const auto& sp : env.site_packages) {  // no RECORD to tell: where the CUDA 12 wheels install
          std::string base = system.join(system.join(sp, "nvidia"), fam.wheel_dir);
          by_dir[system.join(base, system.is_windows() ? "bin" : "lib")].emplace(fam.name, &w);
        }
      }
    }
    for (const auto& [dir, wheels] : by_dir) lc.scan(dir, "pip-wheel", std::nullopt, &wheels);
    if (env.kind == "conda") {
      lc.scan(system.join(env.path, system.is_windows() ? "Library\\bin" : "lib"), "conda");
    }
  }
}

}  // namespace gpudoctor
