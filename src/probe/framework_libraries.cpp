#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <iterator>
#include <optional>
#include <set>

#include "core/text.hpp"
#include "core/version.hpp"
#include "model/framework.hpp"
#include "probe/elf_symbols.hpp"
#include "probe/probes.hpp"
#include "probe/python/dist_info.hpp"

namespace gpudoctor {
namespace {

/// The CUDA libraries a Linux TensorFlow build opens, by the CUDA major it was built with. TF
/// opens each by SONAME through its DSO loader (tsl/platform/default/dso_loader.cc), whose
/// versions are the ones configured at build time (TF_CUDA_VERSION, TF_CUBLAS_VERSION,
/// TF_CUFFT_VERSION, TF_CUSOLVER_VERSION, TF_CUSPARSE_VERSION: .tf_configure.bazelrc of the
/// release builds): CUDA 12 builds open libcufft.so.11 and libcusolver.so.11, CUDA 11 builds
/// libcudart.so.11.0 and libcufft.so.10 (the sonames the toolkits of those majors install).
std::vector<std::string> tensorflow_needs(int cuda_major) {
  // No release is built for CUDA 13 yet (2.22.0rc0: 12.5); a build for it opens what the CUDA 13
  // toolkit installs (ls /usr/local/cuda-13.0/lib64: libcufft.so.12, libcusolver.so.12).
  if (cuda_major == 13) {
    return {"libcudart.so.13", "libcublas.so.13",   "libcublasLt.so.13",
            "libcufft.so.12",  "libcusolver.so.12", "libcusparse.so.12"};
  }
  if (cuda_major == 12) {
    return {"libcudart.so.12", "libcublas.so.12",   "libcublasLt.so.12",
            "libcufft.so.11",  "libcusolver.so.11", "libcusparse.so.12"};
  }
  if (cuda_major == 11) {
    return {"libcudart.so.11.0", "libcublas.so.11",   "libcublasLt.so.11",
            "libcufft.so.10",    "libcusolver.so.11", "libcusparse.so.11"};
  }
  return {};
}

/// The CUDA libraries a PyTorch CUDA build links by SONAME (DT_NEEDED of torch/lib's
/// libtorch_cuda.so, libtorch_cpu.so, libc10_cuda.so, libtorch_cuda_linalg.so), read with
/// readelf from the PyPI wheels torch 2.15.0 (CUDA 13.2) and torch 2.8.0 (CUDA 12.8). Only the
/// ones builds of the major share: cuRAND left with CUDA 13, CUDA 12 builds open NVRTC only on
/// first use (libcaffe2_nvrtc.so) while CUDA 13 ones link it; cuSPARSELt, cuFile and NVSHMEM
/// came later and are added from the wheel's requirements, cuDNN's major from its pin.
std::vector<std::string> torch_needs(int cuda_major) {
  if (cuda_major == 13) {
    return {"libcudart.so.13",   "libcublas.so.13", "libcublasLt.so.13", "libcufft.so.12", "libcusolver.so.12",
            "libcusparse.so.12", "libnvrtc.so.13",  "libcupti.so.13",    "libnccl.so.2"};
  }
  if (cuda_major == 12) {
    return {"libcudart.so.12",   "libcublas.so.12",   "libcublasLt.so.12", "libcufft.so.11",
            "libcusolver.so.11", "libcusparse.so.12", "libcupti.so.12",    "libnccl.so.2"};
  }
  return {};
}

/// The CUDA libraries JAX's CUDA plugin opens by SONAME when its backend starts: the
/// jax_plugins/xla_cudaNN package preloads them from the nvidia wheels (_load_nvidia_libraries)
/// and checks each one's version (_check_cuda_versions: CUDA runtime, cuDNN, cuFFT, cuPTI,
/// cuBLAS, cuSPARSE); XLA's DSO loader opens cuSOLVER and cuBLASLt. Read from the
/// jax-cuda12-plugin / jax-cuda13-plugin 0.10.2 wheels.
std::vector<std::string> jax_needs(int cuda_major) {
  if (cuda_major == 13) {
    return {"libcudart.so.13",   "libcublas.so.13",   "libcublasLt.so.13", "libcufft.so.12",
            "libcusolver.so.12", "libcusparse.so.12", "libcupti.so.13"};
  }
  if (cuda_major == 12) {
    return {"libcudart.so.12",   "libcublas.so.12",   "libcublasLt.so.12", "libcufft.so.11",
            "libcusolver.so.11", "libcusparse.so.12", "libcupti.so.12"};
  }
  return {};
}

/// The CUDA libraries onnxruntime-gpu's CUDA provider (capi/libonnxruntime_providers_cuda.so)
/// links by SONAME: the ones ONNX Runtime's setup.py keeps out of the Linux wheel
/// (cuda_dependencies passed to auditwheel --exclude, microsoft/onnxruntime setup.py@00157c7:
/// cuBLAS, cuBLASLt, the CUDA runtime, cuDNN, cuFFT, cuRAND), at the sonames of the build's major.
/// The provider bridge dlopens the provider by its full path in capi/ (provider_bridge_ort.cc
/// @0077338: GetRuntimePath() + "libonnxruntime_providers_cuda.so"); these then resolve through
/// the loader's usual order.
std::vector<std::string> onnxruntime_needs(int cuda_major) {
  if (cuda_major == 13) {
    return {"libcudart.so.13", "libcublas.so.13", "libcublasLt.so.13", "libcufft.so.12", "libcurand.so.10"};
  }
  if (cuda_major == 12) {
    return {"libcudart.so.12", "libcublas.so.12", "libcublasLt.so.12", "libcufft.so.11", "libcurand.so.10"};
  }
  if (cuda_major == 11) {
    return {"libcudart.so.11.0", "libcublas.so.11", "libcublasLt.so.11", "libcufft.so.10", "libcurand.so.10"};
  }
  return {};
}

bool plausible_cudnn(const std::optional<Version>& v) {
  return v && v->major() >= 7 && v->major() <= 15;
}

/// What one framework build opens and where its loader looks first.
struct Needs {
  std::vector<std::string> sonames;
  /// The build's libraries carry DT_RPATH to the environment's nvidia wheels (and torch and
  /// JAX preload them from there), so those come before LD_LIBRARY_PATH; TensorFlow's
  /// RUNPATH comes after it.
  bool wheels_first = false;
  /// A directory of the framework's own libraries ($ORIGIN): torch/lib, where wheels from
  /// download.pytorch.org's older builds bundle the CUDA libraries.
  std::string own_dir;
  /// The build's libraries carry no RPATH or RUNPATH (onnxruntime-gpu 1.20.2's provider names no
  /// $ORIGIN): the loader's own order decides, and the environment's nvidia wheels serve only once
  /// something loaded them into the process (onnxruntime.preload_dlls(), or `import torch` first).
  bool wheels_need_preload = false;
  bool preload_call = false;    ///< onnxruntime.preload_dlls() exists (1.21 and later)
  bool torch_preloads = false;  ///< a torch in the environment loads them when imported first
  /// No RPATH and nothing that preloads them: the wheels serve only through LD_LIBRARY_PATH.
  bool wheels_unreachable = false;
};

/// A directory searched before the system's: a wheel's lib/ or a conda environment's lib/.
struct FirstDir {
  std::string path;
  std::string via;  ///< LibraryLoad::via
};

class Resolver {
 public:
  Resolver(const SystemView& system, const LoaderPaths& loader) : system_(system), loader_(loader) {}

  void resolve(PythonEnvFacts& env) {
    std::vector<FirstDir> first_dirs;
    for (std::string& d : nvidia_wheel_dirs(env)) first_dirs.push_back({std::move(d), "pip wheel"});
    // A conda environment's own lib/ (the RPATH of conda-forge's builds).
    if (env.kind == "conda") first_dirs.push_back({system_.join(env.path, "lib"), "conda env"});
    for (FrameworkFacts& fw : env.frameworks) {
      if (!fw.cuda_build.value_or(false) || !fw.cuda_version) continue;
      Needs needs = needs_of(env, fw);
      if (needs.sonames.empty()) continue;
      const std::vector<FirstDir> dirs =
          fw.name == "tensorflow" ? tensorflow_dirs(env, fw) : own_dirs(env, fw, first_dirs);
      for (const std::string& soname : needs.sonames) {
        LibraryLoad load = find(soname, dirs, needs);
        // The library probe names a copy by its real directory: a link on the way (LD_LIBRARY_PATH
        // naming /usr/local/cuda/lib64) must not hide which copy this is.
        if (!load.path.empty()) {
          const std::string dir = load.path.substr(0, load.path.find_last_of("/\\"));
          if (auto real = system_.canonical(dir); real && *real != dir) load.real_dir = *real;
        }
        spdlog::debug("loader: {} in {} opens {} -> {} ({})", fw.name, env.path, soname,
                      load.path.empty() ? "not found" : load.path, load.via);
        fw.loads.push_back(std::move(load));
      }
      check_imports(env, fw, dirs, needs);
    }
  }

 private:
  Needs needs_of(const PythonEnvFacts& env, const FrameworkFacts& fw) const {
    const int major = fw.cuda_version->major();
    Needs n;
    std::optional<Version> cudnn = fw.cudnn_version;
    if (fw.name == "tensorflow") {
      n.sonames = tensorflow_needs(major);
    } else if (fw.name == "torch") {
      n.sonames = torch_needs(major);
      n.wheels_first = true;
      n.own_dir = system_.join(system_.join(fw.location, "torch"), "lib");
      // Libraries later builds added: linked exactly when the wheel requires their wheel
      // (torch 2.8.0 cu128: nvidia-cusparselt-cu12, nvidia-cufile-cu12; 2.15.0:
      // cuda-toolkit[...,cufile,...], nvidia-cusparselt-cu13, nvidia-nvshmem-cu13).
      if (!n.sonames.empty()) {
        auto md = system_.read_file(system_.join(fw.location, "torch-" + fw.version.str() + ".dist-info/METADATA"),
                                    256 * 1024);
        if (md) {
          if (requires_mentioning(*md, "cusparselt")) n.sonames.push_back("libcusparseLt.so.0");
          if (requires_mentioning(*md, "cufile")) n.sonames.push_back("libcufile.so.0");
          if (requires_mentioning(*md, "nvshmem")) n.sonames.push_back("libnvshmem_host.so.3");
        }
      }
    } else if (fw.name == "onnxruntime") {
      n.sonames = onnxruntime_needs(major);
      // Before preload_dlls() (1.21), only a torch of the same environment imported first loads
      // the wheels into the process.
      n.preload_call = onnxruntime_has_preload(fw);
      n.torch_preloads = std::any_of(env.frameworks.begin(), env.frameworks.end(),
                                     [](const FrameworkFacts& f) { return f.name == "torch"; });
      n.wheels_need_preload = n.preload_call || n.torch_preloads;
      n.wheels_unreachable = !n.wheels_need_preload;
    } else if (fw.name == "jax") {
      n.sonames = jax_needs(major);
      n.wheels_first = true;
      // The plugin's cuDNN floor (its METADATA) is on the plugin's own entry.
      for (const FrameworkFacts& p : env.frameworks) {
        if (p.name == "jax-cuda-plugin" && p.location == fw.location && p.cudnn_version) cudnn = p.cudnn_version;
      }
    }
    if (!n.sonames.empty() && plausible_cudnn(cudnn)) {
      n.sonames.push_back("libcudnn.so." + std::to_string(cudnn->major()));
    }
    return n;
  }

  /// Whether the libraries the build loads find every function they import from two
  /// dependencies whose wheels carry no version requirement between them, so `pip check` passes
  /// while `dlopen(RTLD_NOW)` fails (both read in the PyPI wheels, docs/doctor-json.md):
  /// torch's libtorch_cuda.so imports `nccl*` functions of the NCCL its release pins (torch 2.15.0
  /// needs ncclCommResume, which NCCL 2.29.2 lacks), and cuSPARSE imports nvJitLink functions by
  /// versioned name (12.5.10.65: __nvJitLinkComplete_12_9, absent from nvJitLink 12.5.82).
  void check_imports(const PythonEnvFacts& env, FrameworkFacts& fw, const std::vector<FirstDir>& dirs,
                     const Needs& needs) const {
    auto loaded = [&](std::string_view stem) -> const LibraryLoad* {
      for (const LibraryLoad& l : fw.loads) {
        if (l.soname.starts_with(stem) && !l.path.empty()) return &l;
      }
      return nullptr;
    };
    // libtorch_cuda.so's tables are 7 MB of a 520 MB file (torch 2.15.0); they are read only when
    // the NCCL found is not a wheel at least as new as the one torch pins. libnccl.so.2 keeps
    // every function of earlier 2.x releases (2.29.2, 2.29.7, 2.30.7 read: none removed).
    if (const LibraryLoad* nccl = loaded("libnccl.so.");
        nccl != nullptr && fw.name == "torch" && !at_pin(env, fw, *nccl)) {
      const std::string torch_lib = system_.join(system_.join(fw.location, "torch"), "lib");
      (void)check_import(fw, system_.join(torch_lib, "libtorch_cuda.so"), "nccl", "libnccl.so.",
                         [&](const std::string&, const std::vector<FirstDir>&) { return *nccl; });
    }
    // cuSPARSE (CUDA 12) and cuSOLVER (CUDA 13) link nvJitLink, which no framework opens by
    // name: where no copy is found, the library that needs it cannot be loaded either.
    std::vector<LibraryLoad> unfound;
    for (const char* stem : {"libcusparse.so.", "libcusolver.so."}) {
      const LibraryLoad* lib = loaded(stem);
      if (lib == nullptr) continue;
      const std::string needer = lib->soname;
      auto missing = check_import(fw, lib->path, "__nvJitLink", "libnvJitLink.so.",
                                  [&](const std::string& soname, const std::vector<FirstDir>& own) {
                                    // Its own RUNPATH ($ORIGIN/../../nvjitlink/lib in the cu12 wheel) is
                                    // searched with the framework's directories; torch and JAX preload the
                                    // wheel's copy.
                                    std::vector<FirstDir> with_own = own;
                                    with_own.insert(with_own.end(), dirs.begin(), dirs.end());
                                    return find(soname, with_own, needs);
                                  });
      if (missing &&
          std::none_of(unfound.begin(), unfound.end(), [&](const LibraryLoad& u) { return u.soname == *missing; })) {
        unfound.push_back(LibraryLoad{.soname = *missing, .via = "needed by " + needer});
      }
    }
    for (LibraryLoad& u : unfound) {
      spdlog::debug("loader: {} needs {}, which is not found", u.via.substr(10), u.soname);
      fw.loads.push_back(std::move(u));
    }
  }

  /// Whether the load is the NCCL wheel of the environment at or above the version the framework's
  /// METADATA pins (`nvidia-nccl-cu13==2.30.7`).
  static bool at_pin(const PythonEnvFacts& env, const FrameworkFacts& fw, const LibraryLoad& load) {
    if (load.via != "pip wheel") return false;
    for (const NvidiaWheel& w : env.nvidia_wheels) {
      if (w.library != "nccl") continue;
      for (const DistRequirement& r : fw.nvidia_requires) {
        if (r.name != w.package) continue;
        auto spec = VersionSpec::parse(r.specifier);
        auto pinned = spec ? spec->lowest() : std::nullopt;
        if (pinned && !(w.version < *pinned)) return true;
      }
    }
    return false;
  }

  /// One importing library against the provider of its imports starting with `prefix`: the
  /// DT_NEEDED entry starting with `provider_stem`, found by `provider_of(soname, the library's
  /// own RUNPATH directories)`. Returns that entry when no copy of it is found at all.
  template <class ProviderOf>
  std::optional<std::string> check_import(FrameworkFacts& fw, const std::string& library, std::string_view prefix,
                                          std::string_view provider_stem, ProviderOf provider_of) const {
    auto imports = dynamic_symbols(fw, library, prefix);
    if (!imports) return std::nullopt;
    auto soname = std::find_if(imports->needed.begin(), imports->needed.end(),
                               [&](const std::string& n) { return n.starts_with(provider_stem); });
    if (soname == imports->needed.end()) return std::nullopt;  // the imports come from elsewhere
    std::vector<FirstDir> own;
    const std::string via = "RUNPATH of " + library.substr(library.find_last_of('/') + 1);
    for (const std::string& d : imports->search_path) {
      if (std::string dir = expand_origin(d, system_.parent(library)); !dir.empty()) own.push_back({dir, via});
    }
    const LibraryLoad provider = provider_of(*soname, own);
    if (provider.path.empty()) return *soname;  // the loader finds none: the library cannot load
    if (imports->undefined.empty()) return std::nullopt;
    auto exports = dynamic_symbols(fw, provider.path, prefix);
    if (!exports) return std::nullopt;
    MissingImports m{.library = library, .provider = provider.path, .provider_soname = *soname};
    std::set_difference(imports->undefined.begin(), imports->undefined.end(), exports->defined.begin(),
                        exports->defined.end(), std::back_inserter(m.symbols));
    m.count = m.symbols.size();
    if (m.symbols.empty()) return std::nullopt;
    if (m.symbols.size() > 16) m.symbols.resize(16);
    spdlog::debug("loader: {} imports {} {}* functions {} lacks", library, m.count, prefix, provider.path);
    fw.missing_imports.push_back(std::move(m));
    return std::nullopt;
  }

  /// The library's needed entries and its `prefix` imports and exports. Nothing when it is not an
  /// ELF file (a placeholder says nothing); an ELF file whose tables cannot be read is a problem
  /// on `fw`, since the check did not happen.
  std::optional<DynamicSymbols> dynamic_symbols(FrameworkFacts& fw, const std::string& path,
                                                std::string_view prefix) const {
    const ReadRange read = [&](std::uint64_t offset, std::size_t length) {
      return system_.read_range(path, offset, length);
    };
    auto magic = read(0, 4);
    if (!magic || *magic !=
                      "\x7F"
                      "ELF") {
      return std::nullopt;
    }
    auto symbols = elf_dynamic_symbols(read, prefix);
    if (!symbols) {
      fw.problems.push_back("the dynamic symbols of " + path + " could not be read (" + symbols.error().message +
                            "), so whether it finds every function it imports was not checked");
      return std::nullopt;
    }
    return std::move(*symbols);
  }

  /// The directories of `candidates` a framework searches: torch's libraries carry one DT_RPATH
  /// (torch 2.15.0+cu132: $ORIGIN/../../nvidia/{cudnn,nvshmem,nccl,cusparselt,cu13}/lib, read in
  /// libtorch_global_deps.so, 18 KB, and libtorch_cuda.so alike).
  std::vector<FirstDir> own_dirs(const PythonEnvFacts& env, const FrameworkFacts& fw,
                                 const std::vector<FirstDir>& candidates) const {
    if (fw.name != "torch" || fw.location.empty()) return searched_by(env, "", fw, candidates);
    const std::string torch_lib = system_.join(system_.join(fw.location, "torch"), "lib");
    return searched_by(env, system_.join(torch_lib, "libtorch_global_deps.so"), fw, candidates);
  }

  /// The wheel directories among `candidates` that `library`'s RUNPATH/RPATH names, in its order,
  /// the others (a conda env's lib/) kept after them. The CUDA 13 wheels' nvidia/cu13/lib holds
  /// libcusparse.so.12 and libcufft.so.12 too, sonames a CUDA 12 build opens, but no CUDA 12
  /// library searches it. A library that cannot be read (none, a placeholder) leaves every
  /// candidate but those of another CUDA major.
  std::vector<FirstDir> searched_by(const PythonEnvFacts& env, const std::string& library, const FrameworkFacts& fw,
                                    const std::vector<FirstDir>& candidates) const {
    std::vector<FirstDir> out;
    std::optional<std::vector<std::string>> runpath;
    if (!library.empty()) runpath = search_path_of(library);
    if (runpath) {
      for (const std::string& entry : *runpath) {
        const std::string d = expand_origin(entry, system_.parent(library));
        if (d.find("/nvidia/") != std::string::npos) out.push_back({d, "pip wheel"});
      }
      for (const FirstDir& c : candidates) {
        if (c.via != "pip wheel") out.push_back(c);
      }
      return out;
    }
    for (const FirstDir& c : candidates) {
      if (!fw.cuda_version || !of_another_major(env, c.path, fw.cuda_version->major())) out.push_back(c);
    }
    return out;
  }

  /// Whether a wheel directory holds another CUDA major's build: nvidia/cuNN/lib, or a directory
  /// whose every listed wheel (by its RECORD) is of another major (nvidia/cusparse/lib: the cu12
  /// wheel's; nvidia/cudnn/lib with both cuDNN wheels listed is not).
  bool of_another_major(const PythonEnvFacts& env, const std::string& dir, int major) const {
    if (auto m = wheel_dir_cuda_major(dir)) return *m != major;
    bool other = false;
    for (const NvidiaWheel& w : env.nvidia_wheels) {
      if (w.lib_dir != dir) continue;
      if (!w.cuda_major || *w.cuda_major == major) return false;
      other = true;
    }
    return other;
  }

  /// NN of a site-packages/nvidia/cuNN/lib directory, where the CUDA NN wheels install.
  static std::optional<int> wheel_dir_cuda_major(std::string_view dir) {
    const size_t at = dir.rfind("/nvidia/cu");
    if (at == std::string_view::npos || !dir.ends_with("/lib")) return std::nullopt;
    const std::string_view digits = dir.substr(at + 10, dir.size() - 4 - (at + 10));
    int major = 0;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), major);
    if (ec != std::errc() || ptr != digits.data() + digits.size() || digits.empty()) return std::nullopt;
    return major;
  }

  /// The DT_RUNPATH (else DT_RPATH) entries of an ELF library; none when it is not one or its
  /// tables cannot be read.
  std::optional<std::vector<std::string>> search_path_of(const std::string& path) const {
    const ReadRange read = [&](std::uint64_t offset, std::size_t length) {
      return system_.read_range(path, offset, length);
    };
    auto symbols = elf_dynamic_symbols(read, "\x01");  // no symbol starts so: the tables only
    if (!symbols) return std::nullopt;
    return std::move(symbols->search_path);
  }

  /// A RUNPATH entry with $ORIGIN (or ${ORIGIN}) replaced by the library's directory and ".."
  /// taken lexically; empty for any other entry (the loader's own list has the absolute ones).
  std::string expand_origin(std::string_view entry, std::string dir) const {
    for (std::string_view origin : {std::string_view("$ORIGIN"), std::string_view("${ORIGIN}")}) {
      if (!entry.starts_with(origin)) continue;
      for (std::string_view rest = entry.substr(origin.size()); !rest.empty();) {
        const std::size_t slash = rest.find('/');
        const std::string_view part = rest.substr(0, slash);
        if (part == "..") {
          dir = system_.parent(dir);
        } else if (!part.empty() && part != ".") {
          dir = system_.join(dir, part);
        }
        rest = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash + 1);
      }
      return dir;
    }
    return "";
  }

  /// What TensorFlow's dlopen searches besides LD_LIBRARY_PATH and the system's: the RUNPATH of
  /// libtensorflow_framework.so.2, which makes the loader skip the python binary's RPATH. From
  /// 2.14 it names $ORIGIN/../nvidia/*/lib, the wheels in TensorFlow's own site-packages only;
  /// 2.11 to 2.13 name only $ORIGIN (readelf -d on the PyPI wheels), so their nvidia wheels are
  /// found only through LD_LIBRARY_PATH, as TensorFlow's install guide had one export it. A conda
  /// environment's lib/ is searched only by conda's own TensorFlow builds (their RPATH), not by a
  /// pip wheel installed into the environment.
  /// The wheel directories are the ones that RUNPATH names, read from the library (searched_by).
  std::vector<FirstDir> tensorflow_dirs(const PythonEnvFacts& env, const FrameworkFacts& fw) const {
    std::vector<FirstDir> out;
    if (fw.version >= Version::of({2, 14}) && !fw.location.empty()) {
      const std::string tf_dir = system_.join(fw.location, "tensorflow");
      std::vector<FirstDir> wheels;
      for (std::string& d : nvidia_wheel_dirs(std::vector<std::string>{fw.location})) {
        wheels.push_back({std::move(d), "pip wheel"});
      }
      out = searched_by(env, system_.join(tf_dir, "libtensorflow_framework.so.2"), fw, wheels);
    }
    if (env.kind == "conda" && conda_installed(env, "tensorflow")) {
      out.push_back({system_.join(env.path, "lib"), "conda env"});
    }
    return out;
  }

  /// Whether conda installed a package of this name into env (conda-meta/<name>-*.json,
  /// <name>-base-... included): pip writes no conda-meta entry.
  bool conda_installed(const PythonEnvFacts& env, std::string_view name) const {
    auto entries = system_.list_dir(system_.join(env.path, "conda-meta"));
    if (!entries) return false;
    return std::any_of(entries->begin(), entries->end(), [&](const DirEntry& e) {
      return !e.is_dir && e.name.starts_with(std::string(name) + "-") && e.name.ends_with(".json");
    });
  }

  std::vector<std::string> nvidia_wheel_dirs(const PythonEnvFacts& env) const {
    return nvidia_wheel_dirs(env.site_packages);
  }

  /// site-packages/nvidia/<component>/lib of these site-packages (CUDA 13 wheels share
  /// nvidia/cu13/lib): the directories the frameworks' RPATH/RUNPATH names.
  std::vector<std::string> nvidia_wheel_dirs(const std::vector<std::string>& site_packages) const {
    std::vector<std::string> out;
    for (const std::string& sp : site_packages) {
      std::string nvidia = system_.join(sp, "nvidia");
      auto entries = system_.list_dir(nvidia);
      if (!entries) continue;
      size_t n = 0;
      for (const DirEntry& e : *entries) {
        if (!e.is_dir || ++n > 64) continue;  // a real install has about 15
        out.push_back(system_.join(system_.join(nvidia, e.name), "lib"));
      }
    }
    return out;
  }

  /// A library bundled in the framework's own directory: under its SONAME, or renamed by
  /// auditwheel with a hash ("libcudart-d0da41ae.so.11.0" for libcudart.so.11.0).
  std::string bundled(const std::string& dir, const std::string& soname) const {
    if (dir.empty()) return "";
    if (system_.is_file(system_.join(dir, soname))) return system_.join(dir, soname);
    const size_t dot = soname.find(".so");
    if (dot == std::string::npos) return "";
    const std::string stem = soname.substr(0, dot) + "-";
    const std::string suffix = soname.substr(dot);
    auto entries = system_.list_dir(dir);
    if (!entries) return "";
    for (const DirEntry& e : *entries) {
      if (e.name.starts_with(stem) && e.name.ends_with(suffix) && !e.is_dir) return system_.join(dir, e.name);
    }
    return "";
  }

  LibraryLoad find(const std::string& soname, const std::vector<FirstDir>& first_dirs, const Needs& needs) const {
    auto in = [&](const std::string& dir) { return system_.is_file(system_.join(dir, soname)); };
    auto from_first = [&]() -> std::optional<LibraryLoad> {
      for (const FirstDir& d : first_dirs) {
        if (in(d.path)) return LibraryLoad{soname, system_.join(d.path, soname), d.via};
      }
      if (std::string b = bundled(needs.own_dir, soname); !b.empty()) return LibraryLoad{soname, b, "bundled"};
      return std::nullopt;
    };
    if (needs.wheels_first) {
      if (auto l = from_first()) return *l;
    }
    // LD_LIBRARY_PATH is searched before a RUNPATH.
    for (const LibraryDir& d : loader_.search_dirs) {
      if (d.why == "LD_LIBRARY_PATH" && in(d.path)) return {soname, system_.join(d.path, soname), "LD_LIBRARY_PATH"};
    }
    if (!needs.wheels_first && !needs.wheels_need_preload && !needs.wheels_unreachable) {
      if (auto l = from_first()) return *l;
    }
    for (const auto& [name, path] : loader_.cache_entries) {
      if (name == soname && system_.is_file(path)) return {soname, path, "ld.so.cache"};
    }
    for (const LibraryDir& d : loader_.search_dirs) {
      if (d.why != "LD_LIBRARY_PATH" && in(d.path)) return {soname, system_.join(d.path, soname), d.why};
    }
    if (needs.wheels_need_preload) {
      if (auto l = from_first()) {
        l->via += needs.preload_call
                      ? std::string(" (once preloaded: onnxruntime.preload_dlls() or an earlier `import torch`)")
                      : std::string(" (once an earlier `import torch` has loaded it)");
        return *l;
      }
    }
    return {soname, "", ""};
  }

  const SystemView& system_;
  const LoaderPaths& loader_;
};

}  // namespace

void resolve_framework_libraries(const SystemView& system, const LoaderPaths& loader, Facts& facts) {
  if (system.is_windows()) return;  // DLL search differs; the Windows checks use the toolkit's bin
  Resolver r(system, loader);
  for (PythonEnvFacts& env : facts.python_envs) r.resolve(env);
}

}  // namespace gpudoctor
