#include "check/compat_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "check/nvidia_wheel_checks.hpp"
#include "check/onnxruntime_fix.hpp"
#include "check/which_pip.hpp"
#include "core/text.hpp"
#include "kb/driver_branch_advice.hpp"
#include "kb/knowledge_base.hpp"
#include "kb/resolver.hpp"
#include "model/framework.hpp"

namespace gpudoctor {
namespace {

/// The GPUs with a known compute capability (NVML, else the knowledge base by name).
struct KnownGpu {
  std::string name;
  Version cc;
};

Platform driver_platform(Platform p) {
  return p == Platform::linux ? Platform::linux : Platform::windows;
}

std::string sm(const Version& cc) {
  return "sm_" + std::to_string(cc.major()) + std::to_string(cc.minor());
}

std::string cu_tag(const Version& cuda) {
  return "cu" + std::to_string(cuda.major()) + std::to_string(cuda.minor());
}

std::string fw_title(const std::string& display, const FrameworkFacts& fw) {
  return display + " " + fw.version.str();
}

/// The cuDNN a framework in env will load, as the dynamic loader finds it: copies on
/// LD_LIBRARY_PATH first (they beat a wheel's RUNPATH), then the env's nvidia-cudnn wheel, then
/// copies on the system search path. Only a copy of the major the framework asks for
/// (libcudnn.so.8) can satisfy it; when none has that major, the first reachable copy is
/// reported so the mismatch can be named.
struct CudnnSeen {
  std::optional<Version> version;
  std::string origin;  ///< "pip wheel nvidia-cudnn-cu12 9.1.0.70", "ld-library-path /usr/...", ""
  std::string kind;    ///< the copy's origin ("ld-library-path", "pip-wheel", "toolkit", "system", ...)
  std::string path;    ///< its directory; empty for a wheel
  /// The directory as the loader's search path names it (/usr/local/cuda/lib64 for a path that is
  /// /usr/local/cuda-12.4/targets/x86_64-linux/lib): what the user takes off LD_LIBRARY_PATH.
  std::string named_dir;
};

/// The environment's nvidia-cudnn wheel, if it has one.
/// The environment's cuDNN wheel; with `major`, only one of that major (nvidia-cudnn-cu11 holds
/// libcudnn.so.8, which a search for libcudnn.so.9 passes over).
std::optional<CudnnSeen> cudnn_wheel(const Facts& facts, const PythonEnvFacts& env,
                                     std::optional<int> major = std::nullopt) {
  for (const NvidiaWheel& w : env.nvidia_wheels) {
    if ((w.library == "cudnn" || w.package.starts_with("nvidia-cudnn")) && (!major || w.version.major() == *major)) {
      // The wheel's library directory, so the verdict names the copy it is about.
      std::string dir;
      for (const LibraryFacts& l : facts.libraries) {
        if (l.name == "cudnn" && l.origin == "pip-wheel" && l.path.starts_with(env.path + "/")) dir = l.path;
      }
      return CudnnSeen{w.version, "pip wheel " + w.package + " " + w.version.str() + (dir.empty() ? "" : " at " + dir),
                       "pip-wheel", dir};
    }
  }
  return std::nullopt;
}

CudnnSeen cudnn_for(const Facts& facts, const PythonEnvFacts& env, std::optional<int> want_major = std::nullopt) {
  std::vector<const LibraryFacts*> on_path;
  std::vector<const LibraryFacts*> elsewhere;
  for (const LibraryFacts& l : facts.libraries) {
    if (l.name != "cudnn" || !l.version || l.origin == "pip-wheel") continue;
    (l.loader_order ? on_path : elsewhere).push_back(&l);
  }
  std::stable_sort(on_path.begin(), on_path.end(),
                   [](const LibraryFacts* a, const LibraryFacts* b) { return *a->loader_order < *b->loader_order; });
  auto fits = [&](const Version& v) { return !want_major || v.major() == *want_major; };
  auto seen_lib = [](const LibraryFacts* l) {
    return CudnnSeen{l->version, l->origin + " " + l->path, l->origin, l->path};
  };
  for (const LibraryFacts* l : on_path) {
    if (l->origin == "ld-library-path" && fits(*l->version)) return seen_lib(l);
  }
  // The wheels' directories come before the system's, but the loader looks there for its own
  // SONAME only: a wheel of another major is passed over for a system copy of the one asked for.
  if (std::optional<CudnnSeen> wheel = cudnn_wheel(facts, env, want_major)) return *wheel;
  for (const LibraryFacts* l : on_path) {
    if (fits(*l->version)) return seen_lib(l);
  }
  if (std::optional<CudnnSeen> wheel = cudnn_wheel(facts, env)) return *wheel;
  if (!on_path.empty()) return seen_lib(on_path.front());
  if (!elsewhere.empty()) return seen_lib(elsewhere.front());
  return {};
}

/// The part of a fix that deals with the copy actually loaded: only a copy that LD_LIBRARY_PATH
/// puts first needs taking off it; a wheel or a system copy is replaced by the reinstall itself.
std::string loaded_copy_clause(const Facts& facts, const CudnnSeen& seen) {
  bool ld_set = std::any_of(facts.env.begin(), facts.env.end(),
                            [](const EnvVarFacts& e) { return e.name == "LD_LIBRARY_PATH" && !e.value.empty(); });
  if (seen.kind == "ld-library-path" && ld_set && !seen.path.empty()) {
    return " Then take " + (seen.named_dir.empty() ? seen.path : seen.named_dir) +
           " off LD_LIBRARY_PATH for this environment: it is searched first.";
  }
  return "";
}

bool env_has_cuda_wheels(const PythonEnvFacts& env) {
  return std::any_of(env.nvidia_wheels.begin(), env.nvidia_wheels.end(), [](const NvidiaWheel& w) {
    return w.package.starts_with("nvidia-cuda-runtime") || w.library == "cudart" || w.library == "cuda_runtime" ||
           w.library == "cublas" || w.package.starts_with("nvidia-cublas");
  });
}

/// SASS and PTX archs recorded in the framework's own build info ("sm_60", "compute_90").
bool recorded_archs(const FrameworkFacts& fw, std::vector<Version>& sass, std::optional<Version>& ptx) {
  for (const std::string& a : fw.compute_capabilities) {
    auto cc = parse_compute_capability(a);
    if (!cc) continue;
    if (trim(a).starts_with("compute")) {
      if (!ptx || *cc > *ptx) ptx = cc;
    } else {
      sass.push_back(*cc);
    }
  }
  return !sass.empty() || ptx;
}

/// Build metadata is untrusted text: old Windows TF wrote "64_112"-style values. Only a
/// version that can be a CUDA (7..20) or cuDNN (5..15) release is believed.
std::optional<Version> plausible(const std::optional<Version>& v, int lo, int hi) {
  if (v && v->major() >= lo && v->major() <= hi) return v;
  return std::nullopt;
}

/// The distribution with the [and-cuda] extra for the TensorFlow installed: tf-nightly for the
/// nightlies (`"tensorflow[and-cuda]"` beside them would add a second TensorFlow), else tensorflow
/// (on Linux, what tensorflow-intel and the other builds of Windows and macOS stand for).
std::string tf_dist(const FrameworkFacts& fw) {
  return fw.package.starts_with("tf-nightly") ? "tf-nightly" : "tensorflow";
}

bool has_framework(const PythonEnvFacts& env, std::string_view name) {
  return std::any_of(env.frameworks.begin(), env.frameworks.end(),
                     [&](const FrameworkFacts& f) { return f.name == name; });
}

/// "Use a release ..." as the second half of "Update the driver, or use a release ...".
std::string lower_first(std::string text) {
  if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z') text[0] = static_cast<char>(text[0] - 'A' + 'a');
  return text;
}

class Checker {
 public:
  Checker(const Facts& facts, const KnowledgeBase& kb) : facts_(facts), kb_(kb) {
    for (const GpuFacts& g : facts.gpus) {
      std::optional<Version> cc;
      // From NVML, or from the knowledge base when the facts were annotated (kb/annotate_facts.hpp).
      if (g.cc_major && g.cc_minor) cc = Version::of({*g.cc_major, *g.cc_minor});
      if (cc) {
        gpus_.push_back(KnownGpu{g.name, *cc});
      } else if (!g.name.empty()) {
        auto near = kb.nearest_gpu_names(g.name, 3);
        // With frameworks installed, a skipped check is a doubt about them, not a footnote.
        bool frameworks = std::any_of(facts.python_envs.begin(), facts.python_envs.end(),
                                      [](const PythonEnvFacts& e) { return !e.frameworks.empty(); });
        add(Finding{.id = "gpu-model-unknown",
                    .severity = frameworks ? Severity::warning : Severity::info,
                    .area = FindingArea::gpu,
                    .title = "GPU '" + printable(g.name, 80) + "' is not in the knowledge base",
                    .detail = "Its compute capability is unknown, so architecture checks are skipped for it" +
                              std::string(frameworks ? ": whether the installed frameworks have kernels for it "
                                                       "could not be checked"
                                                     : "") +
                              ". Nearest known names: " + join(near, ", ") + ".",
                    .fix = "Run `gpudoctor matrix --arch` for the known models, or add it to compat/gpus.toml with "
                           "its source (see docs/knowledge-base.md).",
                    .evidence = {g.name},
                    .source = "compat/gpus.toml"});
      }
    }
    // The branches are Linux's numbers; on Windows and WSL2 the driver is compared with the next
    // branch (KnowledgeBase::driver_past_branch).
    for (const GpuFacts& g : facts.gpus) {
      if (auto b = kb.last_driver_branch(g)) legacy_.push_back(LegacyGpu{&g, *b});
    }
    for (const LegacyGpu& l : legacy_) {
      if (lowest_ == nullptr || l.branch.major < lowest_->branch.major) lowest_ = &l;
    }
  }

  std::vector<Finding> run() {
    declared_gpu_without_driver();
    gpu_driver_rules();
    toolkit_rules();
    cudnn_arch_rules();
    cudnn_driver_rules();
    for (const PythonEnvFacts& env : facts_.python_envs) {
      const size_t first = out_.size();
      for (const FrameworkFacts& fw : env.frameworks) {
        // The probe names every TensorFlow distribution (tf-nightly, tensorflow-gpu, ...)
        // "tensorflow"; the distribution stays in fw.package.
        if (fw.name == "tensorflow") {
          tensorflow_rules(env, fw);
        } else if (fw.name == "torch") {
          torch_rules(env, fw);
        } else if (fw.name == "jax" || (fw.name == "jaxlib" && !has_framework(env, "jax"))) {
          // The "jax" entry carries the verdict for the whole install (its CUDA plugin).
          jax_rules(env, fw);
        } else if (fw.name == "onnxruntime" && fw.cuda_build.value_or(false) && fw.cuda_version) {
          // Without the CUDA provider's libraries, a session asked for CUDAExecutionProvider
          // logs "Failed to create CUDAExecutionProvider" and runs on the CPU.
          missing_loads(env, fw, "ONNX Runtime", onnxruntime_libraries_fix(fw, facts_.platform, env_pip(env)),
                        "https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements");
          // Its provider needs the driver of its CUDA major like any CUDA program.
          driver_for_framework(env, fw, "ONNX Runtime", *fw.cuda_version);
        }
      }
      for (const FrameworkFacts& fw : env.frameworks) cudnn_build_for_framework(env, fw);
      torch_companion_rules(env);
      name_environment(out_, first, env);
    }
    return std::move(out_);
  }

 private:
  void add(Finding f) { out_.push_back(std::move(f)); }

  /// On aarch64 (or a Jetson board) the x86/Windows architecture lists do not apply.
  bool aarch64(const KnownGpu& g) const { return facts_.os.arch == "aarch64" || kb_.is_jetson(g.name, g.cc); }

  // ---- cuDNN's kernels for the card ----
  /// A cuDNN copy whose release has no kernels for a card older than its oldest architecture:
  /// cuDNN 9.27's wheels start at 7.5, so a V100 gets CUDNN_STATUS_ARCH_MISMATCH or "no kernel
  /// image". SASS runs on a later minor of its major (8.6 code on 8.9); a card newer than the
  /// list may still be served by the PTX, so only older cards are judged. With the CUDA major
  /// unknown, every row of that release must agree.
  /// Whether a release's binaries serve the card: SASS of its major at or below its minor.
  static bool cudnn_serves(const CudnnBuild& b, const KnownGpu& g) {
    return std::any_of(b.cc.begin(), b.cc.end(),
                       [&](const Version& c) { return c.major() == g.cc.major() && c.minor() <= g.cc.minor(); });
  }

  /// The newest release of the tables for this CUDA major, older than `before`, whose binaries
  /// serve the card; nullptr when none is.
  const CudnnBuild* newest_serving(int cuda_major, const Version& before, const KnownGpu& g) const {
    const CudnnBuild* best = nullptr;
    for (const CudnnBuild& b : kb_.cudnn_builds) {
      const auto low = b.cudnn.lowest();
      if (b.cuda_major != cuda_major || !low || !(*low < before) || !cudnn_serves(b, g)) continue;
      if (best == nullptr || *best->cudnn.lowest() < *low) best = &b;
    }
    return best;
  }

  /// The cuDNN to use instead, the way this copy was installed: the newest older release of the
  /// same CUDA major that has kernels for the card (a pip wheel pinned to it; another copy
  /// replaced from NVIDIA's archive or conda); where no release of that major has them, the other
  /// CUDA major's. Found in review: "nvidia-cudnn-cu13<9.26" for a GTX 1080, which no cu13
  /// release serves, and for a V100 pip's choice 9.25 has no sm_70 either.
  /// The pip of the environment whose folder holds `path` (a wheel's library folder); a bare pip
  /// when no environment found holds it.
  [[nodiscard]] std::string pip_of_folder(const std::string& path) const {
    // The longest: a conda base's folder holds its envs/ too.
    const PythonEnvFacts* holder = nullptr;
    for (const PythonEnvFacts& env : facts_.python_envs) {
      const size_t n = env.path.size();
      if (n > 0 && path.size() > n && path.starts_with(env.path) && (path[n] == '/' || path[n] == '\\') &&
          (holder == nullptr || n > holder->path.size()))
        holder = &env;
    }
    return holder != nullptr ? env_pip(*holder) : "pip";
  }

  std::string cudnn_downgrade_fix(const LibraryFacts& lib, const CudnnBuild& b, const KnownGpu& g) const {
    const int cuda_major = lib.cuda_major.value_or(b.cuda_major);
    const std::string for_cuda = cuda_major > 0 ? " for CUDA " + std::to_string(cuda_major) : "";
    if (const CudnnBuild* use = cuda_major > 0 ? newest_serving(cuda_major, *lib.version, g) : nullptr) {
      const std::string release = use->cudnn.lowest()->truncated(2).str();
      const std::string which = "cuDNN " + release + ", the newest release" + for_cuda +
                                " that still has kernels for " + sm(g.cc) + " (`gpudoctor matrix --cudnn`)";
      if (lib.origin == "pip-wheel") {
        return fmt::format(
            "Use {}: {} install \"nvidia-cudnn-cu{}=={}.*\". A framework that pins its cuDNN exactly "
            "(torch's METADATA) refuses another release: then install a release of it built with one "
            "that serves this GPU (`gpudoctor plan`).",
            which, pip_of_folder(lib.path), cuda_major, release);
      }
      return "Replace this copy with " + which + ": NVIDIA's cuDNN archive, or conda install \"cudnn=" + release +
             "\".";
    }
    if (cuda_major > 0) {
      for (int other : {12, 13, 11}) {
        if (other == cuda_major) continue;
        if (const CudnnBuild* use = newest_serving(other, Version::of({99}), g)) {
          return fmt::format(
              "No cuDNN{} has kernels for {}; cuDNN {} for CUDA {} does: use a framework build for "
              "CUDA {} (`gpudoctor plan`), which brings nvidia-cudnn-cu{}.",
              for_cuda, sm(g.cc), use->cudnn.lowest()->truncated(2).str(), other, other, other);
        }
      }
    }
    return "Use a cuDNN release that still has kernels for " + sm(g.cc) +
           " (`gpudoctor matrix --cudnn` lists each release's architectures).";
  }

  void cudnn_arch_rules() {
    for (const LibraryFacts& lib : facts_.libraries) {
      if (lib.name != "cudnn" || !lib.version) continue;
      std::vector<const CudnnBuild*> rows;
      for (const CudnnBuild& b : kb_.cudnn_builds) {
        if (b.cc.empty() || !b.cudnn.contains(*lib.version)) continue;
        if (lib.cuda_major && b.cuda_major != 0 && b.cuda_major != *lib.cuda_major) continue;
        rows.push_back(&b);
      }
      if (rows.empty()) continue;
      for (const KnownGpu& g : gpus_) {
        if (aarch64(g)) continue;
        auto lacks = [&](const CudnnBuild* b) {
          return !cudnn_serves(*b, g) && g.cc < *std::min_element(b->cc.begin(), b->cc.end());
        };
        if (!std::all_of(rows.begin(), rows.end(), lacks)) continue;
        const CudnnBuild& b = *rows.front();
        std::vector<std::string> ccs;
        for (const Version& c : b.cc) ccs.push_back(c.str());
        add(Finding{.id = "cudnn-no-kernels-for-gpu",
                    .severity = Severity::error,
                    .area = FindingArea::libraries,
                    .title = fmt::format("cuDNN {} has no kernels for the {} (compute capability {})",
                                         lib.version->str(), printable(g.name, 80), g.cc.str()),
                    .detail = fmt::format("This cuDNN release is built for compute capability {} and later ({}); "
                                          "on this card its convolutions fail with CUDNN_STATUS_ARCH_MISMATCH or "
                                          "\"no kernel image is available\". Copy in {} [{}].",
                                          ccs.front(), join(ccs, ", "), lib.path, lib.origin),
                    .fix = cudnn_downgrade_fix(lib, b, g),
                    .evidence = {lib.path, g.name},
                    .source = b.source});
      }
    }
  }

  // ---- cuDNN's CUDA major vs the driver ----
  /// A cuDNN build carries the CUDA runtime of its major (cuDNN 9 links it statically), so it
  /// initialises only on a driver of that major's family: a CUDA 13 build on a 570 driver cannot
  /// work, whichever framework loads it. The build's major comes from its wheel or from the
  /// cuBLAS soname its binaries name (probe/cudnn_cuda_major.hpp); unknown: no verdict. A copy
  /// inside a toolkit of the same major is left to that toolkit's driver finding.
  void cudnn_driver_rules() {
    const std::optional<Version>& drv = facts_.driver.version;
    if (!drv) return;
    const Platform dp = driver_platform(facts_.platform);
    for (const LibraryFacts& lib : facts_.libraries) {
      if (lib.name != "cudnn" || !lib.cuda_major) continue;
      const int major = *lib.cuda_major;
      const Version cuda = Version::of({major, 0});
      std::optional<Version> floor = kb_.family_min_driver(cuda, dp);
      if (!floor || *drv >= *floor) continue;
      const bool toolkit_says_it =
          std::any_of(facts_.toolkits.begin(), facts_.toolkits.end(), [&](const ToolkitFacts& t) {
            return t.version && t.version->major() == major &&
                   (lib.path == t.path || lib.path.starts_with(t.path + "/"));
          });
      if (toolkit_says_it) continue;
      const CudaFamily* fam = kb_.family_for_cuda(cuda);
      const std::string copy = "cuDNN " + (lib.version ? lib.version->str() + " " : std::string()) + "at " + lib.path;
      const std::string said = lib.cuda_major_source.empty()      ? ""
                               : lib.cuda_major_source == "wheel" ? " (its wheel's name says so)"
                                                                  : " (" + lib.cuda_major_source + ")";
      std::string how = past_last_branch(*floor, "a cuDNN build");
      if (how.empty()) {
        how = "Update the NVIDIA driver to >= " + floor->str() + ", or use a cuDNN built for the CUDA your driver runs";
        if (auto runs = kb_.newest_cuda_major_for_branch(drv->major())) {
          const std::string m = std::to_string(*runs);
          how += " (CUDA " + m + ": the pip wheel nvidia-cudnn-cu" + m + ", or NVIDIA's tarball or package for CUDA " +
                 m + ")";
        }
        how += ".";
      }
      add(Finding{.id = "cudnn-driver-too-old",
                  .severity = Severity::error,
                  .area = FindingArea::libraries,
                  .title = copy + " is built for CUDA " + std::to_string(major) + ", which driver " + drv->str() +
                           " cannot run",
                  .detail = "This copy [" + lib.origin + "] was built for CUDA " + std::to_string(major) + said +
                            "; CUDA " + std::to_string(major) + ".x needs driver >= " + floor->str() +
                            (dp == Platform::linux ? " (Linux)" : " (Windows)") +
                            ". cuDNN cannot initialise on this driver, whichever program loads it.",
                  .fix = how,
                  .evidence = {lib.path, "driver " + drv->str()},
                  .source = (fam != nullptr ? fam->source : std::string("compat/cuda_drivers.toml")) +
                            "; [official] cuDNN support matrix: a build for CUDA N.x needs that family's driver"});
    }
  }

  /// The cuDNN of the framework's CUDA major in place of `lib`. A pip wheel of the other major is
  /// uninstalled first: nvidia-cudnn-cu12 and -cu13 install the same nvidia/cudnn/lib files, so
  /// adding the other and uninstalling either later deletes what both need. The release is the
  /// one the framework's METADATA pins, where it does.
  static std::string cudnn_major_fix(const PythonEnvFacts& env, const FrameworkFacts& fw, const LibraryFacts& lib,
                                     const LibraryLoad& l, const std::string& built, const std::string& want) {
    const std::string display = installed_display_name(fw.name);
    const std::string package = "nvidia-cudnn-cu" + want;
    std::string spec;
    for (const DistRequirement& r : fw.nvidia_requires) {
      if (r.name != package) continue;
      spec = r.specifier;  // the first: one line per platform marker may repeat the pin
      break;
    }
    const std::string wanted = package + spec;
    if (lib.origin == "pip-wheel" && l.via == "pip wheel") {
      // Another framework of the environment is built for the other major, whose wheel is listed
      // too (nvidia-wheels-overwrite): uninstalling either wheel deletes the files both need.
      const bool both = std::any_of(env.nvidia_wheels.begin(), env.nvidia_wheels.end(),
                                    [&](const NvidiaWheel& w) { return w.package == "nvidia-cudnn-cu" + built; }) &&
                        std::any_of(env.frameworks.begin(), env.frameworks.end(), [&](const FrameworkFacts& other) {
                          return other.cuda_build.value_or(false) && other.cuda_version &&
                                 std::to_string(other.cuda_version->major()) == built;
                        });
      if (both) {
        return "Another framework in " + env.path + " is built for CUDA " + built + " and needs nvidia-cudnn-cu" +
               built + ", which writes the same nvidia/cudnn/lib files as nvidia-cudnn-cu" + want +
               ": one environment cannot give each its build. Install " + display +
               " in an environment of its own (`python3 -m venv`) with nvidia-cudnn-cu" + want + " only.";
      }
      // --no-deps: --force-reinstall alone also reinstalls cuDNN's unpinned nvidia-cublas at its
      // newest release, past the one the framework pins (torch 2.15.0: cublas 13.4.1.3 -> 13.10).
      return "Replace the CUDA " + built + " wheel with the one built for CUDA " + want + " in " + env.path + ": `" +
             env_pip(env) + " uninstall -y nvidia-cudnn-cu" + built + "`, then `" + env_pip(env) +
             " install --force-reinstall --no-deps \"" + wanted +
             "\"` (the two install the same nvidia/cudnn/lib files, so the first must go before the other comes).";
    }
    // The wheel listed with its files gone (nvidia-wheel-files-missing): only a forced reinstall restores them.
    const std::string install = wheel_install_command(env, package, spec);
    return "Give " + display + " the cuDNN built for CUDA " + want + " (" + install + " in " + env.path +
           ", or the _cuda" + want + " tarball / libcudnn9-cuda-" + want + " package), or take " + l.named_dir() +
           " out of the loader's way (" + l.via + ").";
  }

  /// The cuDNN copy the loader gives a framework (its resolved libcudnn.so.N) built for another
  /// CUDA major than the framework: NVIDIA supports each cuDNN build with its own CUDA major only,
  /// and it opens that major's cuBLAS (libcublasLt.so.13 for a CUDA 13 build), which an
  /// environment of the framework's major need not have. Either major unknown: no verdict.
  void cudnn_build_for_framework(const PythonEnvFacts& env, const FrameworkFacts& fw) {
    std::optional<Version> cuda = plausible(fw.cuda_version, 7, 20);
    if (!cuda || !fw.cuda_build.value_or(false)) return;
    for (const LibraryLoad& l : fw.loads) {
      if (!l.soname.starts_with("libcudnn.so.") || l.path.empty()) continue;
      const std::string dir = l.dir();
      for (const LibraryFacts& lib : facts_.libraries) {
        if (lib.name != "cudnn" || lib.path != dir || !lib.cuda_major || *lib.cuda_major == cuda->major()) continue;
        const std::string built = std::to_string(*lib.cuda_major);
        const std::string want = std::to_string(cuda->major());
        const std::string display = installed_display_name(fw.name);
        add(Finding{
            .id = "cudnn-cuda-major-mismatch",
            .severity = Severity::warning,
            .area = FindingArea::libraries,
            .title = fw_title(display, fw) + " (CUDA " + cuda->str() + ") loads a cuDNN built for CUDA " + built +
                     " from " + lib.path,
            .detail =
                display + " was built for CUDA " + cuda->str() + "; the " + l.soname + " the loader gives it (" +
                l.via + ") is a CUDA " + built + " build (" + lib.cuda_major_source +
                "). NVIDIA supports a cuDNN build only with its own CUDA major, " + "and it opens CUDA " + built +
                "'s cuBLAS, which this environment may not have: " + "convolutions and matmuls can fail at run time.",
            .fix = cudnn_major_fix(env, fw, lib, l, built, want),
            .evidence = {installed_at(env, fw), l.soname + " → " + l.path + " (" + l.via + ")"},
            .source = "[official] cuDNN support matrix: one build per CUDA major (for CUDA 11.x / 12.x / 13.x)"});
      }
    }
  }

  // ---- A declared card with no driver at all ----
  /// `--gpu MODEL` says the card is (or will be) there; with no kernel driver and no driver
  /// library, nothing runs on it. The install guides start here, so the doctor does too: the
  /// driver for that card (its architecture's floor, raised to what the installed frameworks
  /// need) and the command for the target's OS.
  void declared_gpu_without_driver() {
    const DriverFacts& d = facts_.driver;
    if (facts_.platform == Platform::wsl2 || d.version || d.nvidia_module_loaded) return;
    const bool windows = facts_.platform == Platform::windows;
    for (const DriverFile& f : d.files) {
      if (!f.path.empty() && (f.name == "libcuda.so.1" || f.name == "nvcuda.dll")) return;
    }
    std::vector<const GpuFacts*> declared;
    for (const GpuFacts& g : facts_.gpus) {
      if (g.source != "declared") return;  // hardware seen: the driver checks speak for it
      declared.push_back(&g);
    }
    if (declared.empty()) return;
    Platform dp = driver_platform(facts_.platform);
    std::optional<Version> floor;
    std::vector<std::string> why;
    std::vector<std::string> sources;
    for (const KnownGpu& g : gpus_) {
      if (auto a = kb_.arch_driver_floor(g.cc, dp)) {
        if (!floor || a->driver > *floor) floor = a->driver;
        why.push_back(g.name + " (" + a->generation + ") needs >= " + a->driver.str());
        sources.push_back(a->source);
      }
    }
    for (const PythonEnvFacts& env : facts_.python_envs) {
      for (const FrameworkFacts& fw : env.frameworks) {
        std::optional<Version> cuda = plausible(fw.cuda_version, 7, 20);
        if (!cuda || !fw.cuda_build.value_or(false)) continue;
        auto need = kb_.family_min_driver(*cuda, dp);
        if (!need) continue;
        if (!floor || *need > *floor) floor = need;
        why.push_back((fw.package.empty() ? fw.name : fw.package) + " " + fw.version.str() + " in " + env.path +
                      " (CUDA " + cuda->str() + ") needs >= " + need->str());
      }
    }
    for (const ToolkitFacts& tk : facts_.toolkits) {
      if (!tk.version) continue;
      auto need = kb_.family_min_driver(*tk.version, dp);
      if (!need) continue;
      if (!floor || *need > *floor) floor = need;
      why.push_back("CUDA " + tk.version->str() + " at " + tk.path + " needs >= " + need->str());
    }
    std::string card = declared.front()->name;
    std::string version = floor ? " " + floor->str() + " or newer" : "";
    std::string how;
    const std::string& os = facts_.os.id;
    if (windows) {
      how = "Install the NVIDIA driver for " + card + " on Windows" + version +
            " (Game Ready or Studio, from https://www.nvidia.com/Download/index.aspx or the NVIDIA App), then "
            "reboot.";
    } else if (os == "ubuntu" || os == "pop" || os == "linuxmint") {
      how = "Install the NVIDIA driver for " + card + version +
            ": `sudo ubuntu-drivers install` (it picks the recommended nvidia-driver-NNN for the card; or `sudo "
            "apt install nvidia-driver-NNN` with NNN the branch you want), then reboot.";
    } else if (os == "debian") {
      how = "Install the NVIDIA driver for " + card + version +
            ": enable the non-free and non-free-firmware components, `sudo apt-get install nvidia-driver "
            "firmware-misc-nonfree`, then reboot. If Debian's packaged branch is older than that, use NVIDIA's CUDA "
            "repository for Debian (`sudo apt-get install cuda-drivers`).";
    } else if (os == "fedora" || os == "rhel" || os == "rocky" || os == "almalinux" || os == "centos") {
      how = "Install the NVIDIA driver for " + card + version +
            " from NVIDIA's CUDA repository for your distribution (`sudo dnf module install nvidia-driver` or "
            "`sudo dnf install cuda-drivers`), then reboot.";
    } else {
      how = "Install the NVIDIA driver for " + card + version +
            " (your distribution's packaged driver, or NVIDIA's CUDA repository: package `cuda-drivers`), then "
            "reboot.";
    }
    // A declared card that newer branches no longer drive (Tesla K80): its own branch, not the
    // distribution's default driver (Ubuntu's ubuntu-drivers picks the branch itself).
    if (lowest_ != nullptr && os != "ubuntu" && os != "pop" && os != "linuxmint")
      how = driver_branch_advice(kb_, lowest_->branch.branch, advice_target(*lowest_->gpu, std::nullopt)).install;
    if (floor && !past_last_branch(*floor, "").empty()) how += " " + past_last_branch(*floor, "a toolkit and builds");
    if (!facts_.os.container.empty()) {
      how = "Inside a container (" + facts_.os.container + ") the driver comes from the host: on the host, " +
            to_lower(how.substr(0, 1)) + how.substr(1) +
            " Then start the container with the NVIDIA Container Toolkit (`docker run --gpus all ...`).";
    }
    std::vector<std::string> evidence;
    for (const GpuFacts* g : declared) evidence.push_back("--gpu " + g->name);
    evidence.emplace_back(windows ? "nvcuda.dll: not found" : "/proc/driver/nvidia/version, libcuda.so.1: not found");
    add(Finding{.id = "driver-missing-for-declared-gpu",
                .severity = Severity::error,
                .area = FindingArea::driver,
                .title = "No NVIDIA driver for the declared " + card + (declared.size() > 1 ? " (and others)" : ""),
                .detail = std::string(windows ? "No nvcuda.dll is installed"
                                              : "No NVIDIA kernel driver and no libcuda.so.1 are installed") +
                          (facts_.live ? " on this machine" : " in this tree") +
                          ": CUDA, cuDNN and every framework need it, and will run on the CPU without it." +
                          (why.empty() ? "" : " " + join(why, "; ") + "."),
                .fix = how,
                .evidence = evidence,
                .source = join(sources, "; ")});
  }

  // ---- Driver vs GPU architecture ----
  /// A GPU needs a driver at least as new as its architecture's first toolkit (Blackwell: CUDA
  /// 12.8, 570.26 / 570.65), whatever CUDA a framework was built with.
  void gpu_driver_rules() {
    const TensorflowTable& tf = kb_.tensorflow;
    // The Windows build, known inside WSL2 from a registry export of the host (--registry).
    const auto min_build = Version::parse(tf.wsl2_min_windows_build);
    if (facts_.platform == Platform::wsl2 && min_build && facts_.windows && !facts_.windows->build.empty()) {
      auto build = Version::parse(facts_.windows->build);
      if (build && *build < *min_build) {
        add(Finding{
            .id = "wsl2-windows-build-too-old",
            .severity = Severity::error,
            .area = FindingArea::system,
            .title = "Windows build " + build->str() + " is older than " + min_build->str() +
                     ", the first with GPU support in WSL2",
            .detail = "CUDA in WSL2 needs Windows 10 build " + min_build->str() +
                      " or later (or Windows 11); on older builds /dev/dxg offers no GPU compute.",
            .fix = "Update Windows (Settings > Windows Update), then `wsl --update` and `wsl --shutdown`.",
            .evidence = {"Windows build " + facts_.windows->build + " (" + facts_.windows->registry_source + ")"},
            .source = tf.wsl2_source});
      }
    }
    const std::optional<Version>& drv = facts_.driver.version;
    if (!drv) return;
    if (facts_.platform == Platform::wsl2 && tf.wsl2_min_driver && *drv < *tf.wsl2_min_driver) {
      add(Finding{.id = "driver-below-wsl2-floor",
                  .severity = Severity::warning,
                  .area = FindingArea::driver,
                  .title = "Windows driver " + drv->str() + " is older than " + tf.wsl2_min_driver->str() +
                           ", the only sourced floor for GPU use in WSL2",
                  .detail = "No source gives a lower WSL2 driver floor for any CUDA version; older drivers are "
                            "not known to work in WSL2.",
                  .fix = past_last_branch(*tf.wsl2_min_driver, "").empty()
                             ? "Update the NVIDIA driver on Windows to >= " + tf.wsl2_min_driver->str() + "."
                             // The floor is sourced for CUDA 12 builds; a GPU that ends before it has CUDA 11.
                             : past_last_branch(*tf.wsl2_min_driver, "a build") +
                                   " No WSL2 floor is sourced for those builds, so whether this Windows driver "
                                   "serves them in WSL2 is not verified (NVIDIA's CUDA 11.2 WSL guide enables "
                                   "CUDA on WSL 2 from Kepler on); native Linux with the branch's driver is "
                                   "the known way.",
                  .evidence = {"driver " + drv->str()},
                  .source = tf.wsl2_driver_source});
    }
    legacy_gpu_rules(*drv);
    for (const KnownGpu& g : gpus_) {
      if (kb_.is_jetson(g.name, g.cc)) continue;  // the driver comes with JetPack
      auto floor = kb_.arch_driver_floor(g.cc, driver_platform(facts_.platform));
      if (!floor || *drv >= floor->driver) continue;
      add(Finding{.id = "driver-too-old-for-gpu",
                  .severity = Severity::error,
                  .area = FindingArea::driver,
                  .title = "Driver " + drv->str() + " is older than the first driver for " + g.name + " (" +
                           floor->generation + ")",
                  .detail = floor->generation + " GPUs need driver >= " + floor->driver.str() +
                            ", the driver of CUDA " + floor->first_cuda.str() +
                            ", their first toolkit. Older drivers do not support the GPU, "
                            "whatever CUDA a framework was built with.",
                  .fix = "Install NVIDIA driver >= " + floor->driver.str() + ".",
                  .evidence = {g.name + " compute capability " + g.cc.str(), "driver " + drv->str()},
                  .source = floor->source});
    }
  }

  /// A GPU that NVIDIA's drivers after its last branch no longer drive (Tesla K80: 470.xx).
  /// The newer driver refuses to bind it, so NVML and /proc never list it: its PCI device id in
  /// sysfs tells (a --gpu card: its name). The branch lists come from the Linux drivers' own
  /// supported-gpus.json; a Windows driver (WSL2's too) is of the branch up to the next one.
  void legacy_gpu_rules(const Version& drv) {
    const Platform dp = driver_platform(facts_.platform);
    for (const LegacyGpu& l : legacy_) {
      const GpuFacts& g = *l.gpu;
      const LegacyDriverBranch* b = &l.branch;
      if (!kb_.driver_past_branch(drv, b->major, dp)) continue;
      const DriverBranchAdvice advice = driver_branch_advice(kb_, b->branch, advice_target(g, drv.major()));
      const std::string cuda = advice.toolkits.empty() ? "" : " " + advice.toolkits;
      std::string name = gpu_kb_name(g);
      // Another card whose architecture needs a driver past the branch: no one driver drives both.
      std::vector<std::string> newer;
      for (const KnownGpu& k : gpus_) {
        if (kb_.is_jetson(k.name, k.cc)) continue;
        auto f = kb_.arch_driver_floor(k.cc, dp);
        if (f && kb_.driver_past_branch(f->driver, b->major, dp))
          newer.push_back("the " + k.name + " (" + f->generation + ") needs >= " + f->driver.str());
      }
      std::string how;
      if (!newer.empty()) {
        how = "No single driver drives both: the " + printable(name, 80) + " ends at the " + b->branch +
              " branch, and " + join(newer, ", ") + ". Take the " + printable(name, 80) +
              " out of this machine (driver " + std::to_string(drv.major()) +
              " then drives the others), or give each its own machine.";
      } else {
        how = advice.install;
      }
      add(Finding{
          .id = "driver-drops-gpu",
          .severity = Severity::error,
          .area = FindingArea::driver,
          .title = "Driver " + drv.str() + " does not drive the " + printable(name, 80) +
                   ": its last driver branch is " + b->branch,
          .detail = "NVIDIA's drivers after the " + b->branch + " branch no longer support this GPU" +
                    (g.pci_device_id.empty() ? "" : " (PCI device 10de:" + g.pci_device_id + ")") + ": the " +
                    std::to_string(drv.major()) + " driver " +
                    (dp == Platform::linux ? "does not bind it" : "does not support it") +
                    (dp == Platform::linux ? " (the kernel log says the GPU \"is supported through the NVIDIA " +
                                                 b->branch + " Legacy drivers\")"
                                           : std::string()) +
                    ", so nvidia-smi does not list it and CUDA sees no device." + cuda,
          .fix = how,
          .evidence = {g.pci_device_id.empty() ? "--gpu " + g.name : g.pci_bus_id + " device 10de:" + g.pci_device_id,
                       "driver " + drv.str() + " (" + facts_.driver.version_source + ")"},
          .source = b->source});
    }
  }

  // ---- Toolkits vs driver and GPU ----
  void toolkit_rules() {
    const std::optional<Version>& drv = facts_.driver.version;
    Platform dp = driver_platform(facts_.platform);
    for (const ToolkitFacts& tk : facts_.toolkits) {
      if (!tk.version) continue;
      const Version& cuda = *tk.version;
      std::optional<Version> family = kb_.family_min_driver(cuda, dp);
      std::optional<Version> full = kb_.min_driver_for_cuda(cuda, dp);
      const CudaFamily* fam = kb_.family_for_cuda(cuda);
      std::string src = fam != nullptr ? fam->source : "compat/cuda_drivers.toml";
      // pip's CUDA wheels are a framework's runtime, not a toolkit anyone compiles with: they run
      // on any driver of their family (NVIDIA's CUDA Compatibility guide, minor-version
      // compatibility), so the family's floor is the one to ask for, as the framework's finding does.
      const bool wheels = tk.kind == "pip-wheels";
      const std::optional<Version> wanted = wheels ? family : full ? full : family;
      if (drv && family && *drv < *family) {
        add(Finding{.id = "driver-too-old-for-toolkit",
                    .severity = Severity::error,
                    .area = FindingArea::driver,
                    .title = "Driver " + drv->str() + " is too old for CUDA " + cuda.str() + " at " + tk.path,
                    .detail = "CUDA " + std::to_string(cuda.major()) + ".x needs at least driver " + family->str() +
                              " (minor-version compatibility)" +
                              (full && !wheels ? "; the toolkit ships with " + full->str() : "") +
                              (wheels ? ". These are pip wheels (a framework's CUDA runtime), which run on any "
                                        "driver of the family from that floor"
                                      : ". Programs built with it fail with 'CUDA driver version is insufficient'") +
                              ".",
                    .fix = past_last_branch(*family, "a toolkit").empty()
                               ? "Install NVIDIA driver >= " + wanted->str() +
                                     (wheels ? ", or use a framework build for a CUDA your driver supports."
                                             : ", or use a toolkit your driver supports.")
                               : past_last_branch(*family, "a toolkit"),
                    .evidence = {tk.path, "driver " + drv->str()},
                    .source = src});
      } else if (drv && full && *drv < *full) {
        add(Finding{
            .id = "toolkit-minor-version-compat",
            .severity = Severity::info,
            .area = FindingArea::driver,
            .title = "CUDA " + cuda.str() + " runs on driver " + drv->str() + " through minor-version compatibility",
            .detail = "The toolkit ships with driver " + full->str() +
                      "; older drivers of the same CUDA family work "
                      "with a limited feature set (e.g. no JIT of PTX built by this toolkit).",
            .fix = "",
            .evidence = {tk.path, "driver " + drv->str()},
            .source = src});
      }
      if (auto below = !drv && family ? user_space_cuda_below(cuda) : std::nullopt) {
        add(Finding{
            .id = "driver-too-old-for-toolkit",
            .severity = Severity::error,
            .area = FindingArea::driver,
            .title =
                "The installed driver (CUDA " + below->str() + ") is too old for CUDA " + cuda.str() + " at " + tk.path,
            .detail = "CUDA " + std::to_string(cuda.major()) + ".x needs at least driver " + family->str() +
                      " (minor-version compatibility). " + user_space_detail(*below),
            .fix = "Install an NVIDIA driver >= " + family->str() + ".",
            .evidence = {tk.path, "CUDA " + below->str() + " (" + facts_.driver.cuda_driver_version_source + ")"},
            .source = src});
      }
      // No row (not a Windows "N/A"); a toolkit older than every row runs on any newer driver.
      if (drv && kb_.driver_row_for_cuda(cuda) == nullptr && (!family || *drv >= *family) &&
          !kb_.cuda_drivers.empty() && kb_.cuda_drivers.back().cuda < cuda)
        toolkit_driver_unknown(tk, *drv, family);
      if (const ToolkitArch* ta = kb_.toolkit_arch(cuda)) {
        for (const KnownGpu& g : gpus_) {
          if (KnowledgeBase::coverage_by_list(g.cc, ta->sass, std::nullopt) == ArchCoverage::none &&
              g.cc < ta->sass.front()) {
            add(Finding{.id = "toolkit-cannot-target-gpu",
                        .severity = Severity::warning,
                        .area = FindingArea::cuda,
                        .title = "CUDA " + cuda.str() + " cannot compile for " + g.name + " (" + sm(g.cc) + ")",
                        .detail = "The lowest architecture CUDA " + cuda.str() + " builds for is " +
                                  ta->sass.front().str() + ". " + ta->note,
                        .fix = "Use a toolkit that still targets compute capability " + g.cc.str() +
                               " (see `gpudoctor matrix --arch`).",
                        .evidence = {tk.path},
                        .source = ta->source});
          }
        }
      }
    }
  }

  /// A toolkit whose own driver the knowledge base does not record (13.3 Update 1 to 13.5, a new
  /// major): say so instead of staying silent, which reads as "this driver is fine".
  void toolkit_driver_unknown(const ToolkitFacts& tk, const Version& drv, const std::optional<Version>& family) {
    const Version& cuda = *tk.version;
    std::string newest;
    for (const CudaDriverRow& r : kb_.cuda_drivers) {
      if (newest.empty() || r.cuda.major() == cuda.major()) {
        newest = r.release.empty() ? r.cuda.str() : r.release;
        if (r.cuda.major() == cuda.major()) break;
      }
    }
    const std::string known = "the knowledge base records toolkit drivers up to CUDA " + newest;
    if (!family) {
      add(Finding{.id = "toolkit-driver-unknown",
                  .severity = Severity::warning,
                  .area = FindingArea::driver,
                  .title = "CUDA " + cuda.str() + " at " + tk.path + ": its driver requirement is unknown",
                  .detail = "No driver facts for CUDA " + std::to_string(cuda.major()) + ".x (" + known +
                            "), so whether driver " + drv.str() + " runs it was not checked.",
                  .fix = "Check the driver table in the CUDA " + cuda.truncated(2).str() +
                         " release notes, or update gpudoctor.",
                  .evidence = {tk.path, "driver " + drv.str()},
                  .source = "compat/cuda_drivers.toml (no row)"});
      return;
    }
    add(Finding{.id = "toolkit-driver-unknown",
                .severity = Severity::info,
                .area = FindingArea::driver,
                .title = "CUDA " + cuda.str() + " at " + tk.path + ": its own driver is not in the knowledge base",
                .detail = "Driver " + drv.str() + " meets the CUDA " + std::to_string(cuda.major()) + ".x minimum " +
                          family->str() + " (minor-version compatibility), so programs built with it run; whether it " +
                          "is new enough for the full feature set (PTX JIT of what this toolkit builds) is unknown: " +
                          known + ".",
                .fix = "",
                .evidence = {tk.path, "driver " + drv.str()},
                .source = kb_.cuda_unrecorded_source.empty() ? "compat/cuda_drivers.toml (no row)"
                                                             : kb_.cuda_unrecorded_source});
  }

  /// What a framework does when a CUDA library it opens is missing.
  enum class WhenMissing {
    cpu_fallback,  ///< TensorFlow, JAX: the GPU is not used, the framework runs on the CPU
    import_fails,  ///< PyTorch: the libraries are linked, so `import torch` itself fails
  };

  /// The environment's nvidia-* wheels that provide a missing library under another major
  /// (nvidia-cudnn-cu12 9.10 where libcudnn.so.8 is wanted): a later install replaced the wheel
  /// the build pins. `users`: the other frameworks of the environment that load that major.
  struct Replaced {
    std::vector<const NvidiaWheel*> wheels;
    std::vector<std::string> users;
    std::string text;  ///< for the detail, "" when none
  };
  static Replaced replaced_wheels(const PythonEnvFacts& env, const FrameworkFacts& fw,
                                  const std::vector<std::string>& missing) {
    Replaced r;
    for (const std::string& soname : missing) {
      // "libcudnn.so.8" -> "cudnn" and "8"; the wheels' library names drop "lib" (and CUDA's
      // own components are "cuda-runtime", "cuda-cupti", "cuda-nvrtc").
      const size_t so = soname.find(".so.");
      if (!soname.starts_with("lib") || so == std::string::npos) continue;
      const std::string stem = soname.substr(3, so - 3);
      const std::string major = soname.substr(so + 4);
      const std::string library = stem == "cudart"     ? "cuda-runtime"
                                  : stem == "cupti"    ? "cuda-cupti"
                                  : stem == "nvrtc"    ? "cuda-nvrtc"
                                  : stem == "cublasLt" ? "cublas"
                                                       : stem;
      for (const NvidiaWheel& w : env.nvidia_wheels) {
        if (w.library != library || std::to_string(w.version.major()) == major) continue;
        const std::string provides = "lib" + stem + ".so." + std::to_string(w.version.major());
        r.text += " The environment has " + w.package + " " + w.version.str() + ", which provides " + provides +
                  ", not " + soname + ": another install replaced the one this build needs.";
        r.wheels.push_back(&w);
        for (const FrameworkFacts& other : env.frameworks) {
          if (&other == &fw) continue;
          for (const LibraryLoad& l : other.loads) {
            if (l.soname != provides || l.path.empty()) continue;
            const std::string user = installed_display_name(other.name) + " " + other.version.str();
            if (std::find(r.users.begin(), r.users.end(), user) == r.users.end()) {
              r.users.push_back(user);
              r.text += " " + user + " loads " + provides + " from it.";
            }
          }
        }
      }
    }
    return r;
  }

  /// The fix when another framework of the environment loads the wheel a build lacks: the
  /// build's own reinstall would put its pin back and break that one.
  static std::string beside_fix(const std::string& display, const Replaced& replaced, const std::string& fix) {
    return "Give " + display + " an environment of its own (`python -m venv`), since one environment holds one " +
           replaced.wheels.front()->package + " and " + join(replaced.users, ", ") +
           " needs the one installed; there: " + fix +
           " Or choose releases of both that use the same major version (`gpudoctor plan`).";
  }

  /// The CUDA libraries a build opens that the loader does not find in its environment (the
  /// probe resolved each SONAME as the loader would). Returns whether any is missing.
  bool missing_loads(const PythonEnvFacts& env, const FrameworkFacts& fw, const std::string& display,
                     const std::string& fix, const std::string& source, WhenMissing when = WhenMissing::cpu_fallback) {
    std::vector<std::string> missing;
    std::vector<std::string> sonames;  ///< of the missing, as the loader names them
    std::vector<std::string> found;
    std::string dependencies;  ///< what the libraries that link a missing one say
    for (const LibraryLoad& l : fw.loads) {
      if (l.path.empty()) {
        // A library one of them links (nvJitLink, which cuSPARSE needs) says which.
        missing.push_back(l.via.empty() ? l.soname : l.soname + " (" + l.via + ")");
        sonames.push_back(l.soname);
        if (!l.via.empty()) {
          dependencies += " " + l.soname + " is " + l.via + " (its DT_NEEDED), which does not load without it.";
        }
      } else {
        found.push_back(l.soname + " → " + l.path + " (" + l.via + ")");
      }
    }
    if (missing.empty()) return false;
    const bool gpu = !facts_.gpus.empty();
    const bool fatal = when == WhenMissing::import_fails || gpu;
    std::string consequence;
    if (when == WhenMissing::import_fails) {
      consequence = "It links them, so `import " + fw.name + "` fails (\"" + sonames.front() +
                    ": cannot open shared object file\"), with or without a GPU.";
    } else {
      consequence = gpu ? "It will not use the GPU: it falls back to the CPU." : "Fine while this machine has no GPU.";
    }
    std::vector<std::string> evidence{installed_at(env, fw)};
    for (const auto& m : missing) evidence.push_back(m + ": not found");
    evidence.insert(evidence.end(), found.begin(), found.end());
    const Replaced replaced = replaced_wheels(env, fw, sonames);
    for (const NvidiaWheel* w : replaced.wheels) evidence.push_back(w->package + " " + w->version.str());
    std::string full_fix = fatal ? fix : "";
    if (fatal && !replaced.wheels.empty()) {
      full_fix = replaced.users.empty()
                     ? fix +
                           " That puts back the versions it pins; `pip check` then names any other installed "
                           "package that needed the ones it replaces."
                     : beside_fix(display, replaced, fix);
    }
    add(Finding{.id = "framework-cuda-libraries-missing",
                .severity = fatal ? Severity::error : Severity::info,
                .area = FindingArea::python,
                .title = fw_title(display, fw) + " cannot load " + join(missing, ", "),
                .detail = display + " " + fw.version.str() + " was built with CUDA " +
                          (fw.cuda_version ? fw.cuda_version->str() : "?") +
                          (fw.cudnn_version ? " and cuDNN " + fw.cudnn_version->str() : "") +
                          " and opens these libraries by name; the loader finds none of them " +
                          (when == WhenMissing::import_fails || fw.name == "jax"
                               ? "in the environment's nvidia-* wheels, on LD_LIBRARY_PATH"
                               : "on LD_LIBRARY_PATH, in the environment's nvidia-* wheels") +
                          ", in the loader cache or in the default directories." + dependencies + " " + consequence +
                          replaced.text + (found.empty() ? "" : " Found: " + join(found, "; ") + "."),
                .fix = full_fix,
                .evidence = evidence,
                .source = source});
    return true;
  }

  /// A Python the release installs on but whose torch.compile it does not support yet.
  void compile_python(const PythonEnvFacts& env, const FrameworkFacts& fw, const std::string& display,
                      const TorchRelease& rel) {
    if (!env.python_version || !rel.compile_python_from) return;
    const Version py = env.python_version->truncated(2);
    if (py < *rel.compile_python_from || !rel.python.contains(*env.python_version)) return;
    const std::string from = rel.compile_python_from->str();
    add(Finding{.id = "torch-compile-python-unsupported",
                .severity = Severity::info,
                .area = FindingArea::python,
                .title = fw_title(display, fw) + ": torch.compile does not run on Python " + py.str(),
                .detail = display + " " + fw.version.truncated(2).str() + " installs on Python " + py.str() +
                          ", but its torch.compile raises \"Dynamo is not supported on Python " + from +
                          "+\" there (PyTorch ships a new Python's wheels before TorchDynamo supports it). Eager "
                          "mode works; for torch.compile use a Python older than " +
                          from + " or a newer PyTorch (`gpudoctor matrix --framework pytorch --python " + py.str() +
                          "`).",
                .fix = "",
                .evidence = {installed_at(env, fw), env.python_version_source},
                .source = rel.compile_source});
  }

  void python_range(const PythonEnvFacts& env, const FrameworkFacts& fw, const std::string& display,
                    const VersionSpec& range, const std::string& source) {
    if (!env.python_version || range.contains(*env.python_version)) return;
    add(Finding{.id = "framework-python-unsupported",
                .severity = Severity::warning,
                .area = FindingArea::python,
                .title = fw_title(display, fw) + " does not support Python " + env.python_version->truncated(2).str(),
                .detail = display + " " + fw.version.truncated(2).str() + " supports Python " + range.text() + "; " +
                          env.path + " has " + env.python_version->str() + ".",
                .fix = "Use an environment with a Python in " + range.text() + ", or a " + display +
                       " release that supports this Python (`gpudoctor matrix --framework " + fw.name + " --python " +
                       env.python_version->truncated(2).str() + "`).",
                .evidence = {installed_at(env, fw), env.python_version_source},
                .source = source});
  }

  void driver_for_framework(const PythonEnvFacts& env, const FrameworkFacts& fw, const std::string& display,
                            const Version& cuda) {
    const std::optional<Version>& drv = facts_.driver.version;
    Platform dp = driver_platform(facts_.platform);
    std::optional<Version> floor = kb_.family_min_driver(cuda, dp);
    if (!drv && floor) {
      if (auto below = user_space_cuda_below(cuda)) {
        add(Finding{
            .id = "driver-too-old-for-framework",
            .severity = Severity::error,
            .area = FindingArea::driver,
            .title = fw_title(display, fw) + " needs a newer driver than the installed one (CUDA " + below->str() + ")",
            .detail = display + " in " + env.path + " was built for CUDA " + cuda.str() +
                      ", which needs driver >= " + floor->str() + ". " + user_space_detail(*below),
            .fix = "Install an NVIDIA driver >= " + floor->str() +
                   older_build(env, fw, display, user_space_driver(*below)) + ".",
            .evidence = {installed_at(env, fw),
                         "CUDA " + below->str() + " (" + facts_.driver.cuda_driver_version_source + ")"},
            .source =
                kb_.family_for_cuda(cuda) != nullptr ? kb_.family_for_cuda(cuda)->source : "compat/cuda_drivers.toml"});
        return;
      }
    }
    if (!drv) {
      // A known NVIDIA GPU on Linux with no NVIDIA driver yet (none installed, nouveau): the
      // driver to install must be at least this framework's floor.
      if (floor && facts_.platform == Platform::linux && !facts_.driver.nvidia_module_loaded && !gpus_.empty()) {
        add(Finding{.id = "driver-floor-for-framework",
                    .severity = Severity::info,
                    .area = FindingArea::driver,
                    .title = fw_title(display, fw) + " will need NVIDIA driver >= " + floor->str(),
                    .detail = display + " in " + env.path + " was built for CUDA " + cuda.str() +
                              ", which needs driver >= " + floor->str() + " (Linux).",
                    .fix = past_last_branch(*floor, "a build of " + display).empty()
                               ? "Install an NVIDIA driver >= " + floor->str() + "."
                               : past_last_branch(*floor, "a build of " + display),
                    .evidence = {installed_at(env, fw)},
                    .source = kb_.family_for_cuda(cuda) != nullptr ? kb_.family_for_cuda(cuda)->source
                                                                   : "compat/cuda_drivers.toml"});
      }
      return;
    }
    if (!floor || *drv >= *floor) return;
    const CudaFamily* fam = kb_.family_for_cuda(cuda);
    add(Finding{.id = "driver-too-old-for-framework",
                .severity = Severity::error,
                .area = FindingArea::driver,
                .title = fw_title(display, fw) + " needs a newer driver than " + drv->str(),
                .detail = display + " in " + env.path + " was built for CUDA " + cuda.str() +
                          ", which needs driver >= " + floor->str() +
                          (dp == Platform::linux ? " (Linux)" : " (Windows)") + ". It will not find a usable GPU.",
                .fix = past_last_branch(*floor, "a build of " + display).empty()
                           ? "Update the NVIDIA driver to >= " + floor->str() + older_build(env, fw, display) + "."
                           : past_last_branch(*floor, "a build of " + display),
                .evidence = {installed_at(env, fw), "driver " + drv->str()},
                .source = fam != nullptr ? fam->source : "compat/cuda_drivers.toml"});
  }

  void arch_rules(const PythonEnvFacts& env, const FrameworkFacts& fw, const std::string& display,
                  const std::function<ArchCoverage(const KnownGpu&)>& from_kb, const std::string& source,
                  const std::string& fix, const std::optional<Version>& cuda, const std::string& why_this_build = "",
                  const std::function<std::optional<std::string>(const KnownGpu&)>& ptx_fix = {}) {
    std::vector<Version> sass;
    std::optional<Version> ptx;
    bool recorded = recorded_archs(fw, sass, ptx);
    for (const KnownGpu& g : gpus_) {
      ArchCoverage c = recorded ? KnowledgeBase::coverage_by_list(g.cc, sass, ptx) : from_kb(g);
      if (c == ArchCoverage::unknown) {
        add(Finding{
            .id = "gpu-arch-unverified",
            .severity = Severity::warning,
            .area = FindingArea::gpu,
            .title = "Whether " + fw_title(display, fw) + " has kernels for " + g.name + " could not be checked",
            .detail = "No architecture list for this platform (aarch64/Jetson) is recorded, and the build "
                      "does not report its own.",
            .fix = "Check with the framework itself (e.g. torch.cuda.get_arch_list()).",
            .evidence = {installed_at(env, fw), g.name + " compute capability " + g.cc.str()},
            .source = source});
        continue;
      }
      // Minor-version compatibility gives no PTX JIT: PTX-only needs the build's own toolkit driver.
      std::optional<Version> full =
          cuda ? kb_.min_driver_for_cuda(*cuda, driver_platform(facts_.platform)) : std::nullopt;
      const std::optional<Version>& drv = facts_.driver.version;
      // Where no release has kernels for the GPU, PTX JIT is how every release runs there.
      const std::optional<std::string> only_ptx = ptx_fix ? ptx_fix(g) : std::nullopt;
      if ((c == ArchCoverage::ptx_jit || c == ArchCoverage::unknown_ptx) && full && drv && *drv < *full) {
        add(Finding{.id = "gpu-arch-ptx-driver-too-old",
                    .severity = Severity::error,
                    .area = FindingArea::gpu,
                    .title = fw_title(display, fw) + " can run on " + g.name + " only through PTX JIT, which driver " +
                             drv->str() + " cannot do for CUDA " + cuda->str(),
                    .detail = "It has no " + sm(g.cc) + " kernels. JIT-compiling its PTX needs the CUDA " +
                              cuda->str() + " toolkit's driver (" + full->str() +
                              "); an older driver of the same family runs it through minor-version compatibility, "
                              "which gives no PTX JIT.",
                    .fix = past_last_branch(*full, "a build of " + display).empty()
                               ? "Update the NVIDIA driver to >= " + full->str() +
                                     (only_ptx ? ". " + *only_ptx : ", or " + lower_first(fix))
                               : past_last_branch(*full, "a build of " + display),
                    .evidence = {installed_at(env, fw), "driver " + drv->str()},
                    .source = recorded ? fw.evidence : source});
        continue;
      }
      std::string basis = recorded ? " (from the build's own architecture list)" : "";
      if (c == ArchCoverage::none) {
        add(Finding{.id = "gpu-arch-unsupported-by-framework",
                    .severity = Severity::error,
                    .area = FindingArea::gpu,
                    .title = fw_title(display, fw) + " has no kernels for " + g.name + " (" + sm(g.cc) + ")",
                    .detail = "This build contains no code for compute capability " + g.cc.str() + basis +
                              ": CUDA calls fail with 'no kernel image is available for execution on the device'." +
                              why_this_build,
                    .fix = fix,
                    .evidence = {installed_at(env, fw), g.name + " compute capability " + g.cc.str()},
                    .source = recorded ? fw.evidence : source});
      } else if (c == ArchCoverage::ptx_jit || c == ArchCoverage::unknown_ptx) {
        add(Finding{.id = "gpu-arch-ptx-only",
                    .severity = Severity::warning,
                    .area = FindingArea::gpu,
                    .title = fw_title(display, fw) + " has no native " + sm(g.cc) + " kernels for " + g.name,
                    .detail = c == ArchCoverage::ptx_jit
                                  ? "It can run only by JIT-compiling PTX (slow first start; not verified here)."
                                  : "Its CUDA cannot target " + sm(g.cc) +
                                        "; it runs only if the wheel carries PTX, "
                                        "which the knowledge base does not record.",
                    .fix = only_ptx ? *only_ptx : fix,
                    .evidence = {installed_at(env, fw)},
                    .source = recorded ? fw.evidence : source});
      }
    }
  }

  // ---- TensorFlow ----
  void tensorflow_rules(const PythonEnvFacts& env, const FrameworkFacts& fw) {
    const std::string display = "TensorFlow";
    const TfBuild* b = kb_.tf_build(fw.version, facts_.platform);
    if (facts_.platform == Platform::windows && !kb_.tf_native_windows_gpu(fw.version)) {
      const TfBuild* lin = kb_.tf_build(fw.version, Platform::linux);
      add(Finding{
          .id = "tf-native-windows-no-gpu",
          .severity = gpus_.empty() && facts_.gpus.empty() ? Severity::warning : Severity::error,
          .area = FindingArea::python,
          .title = fw_title(display, fw) + " cannot use the GPU on native Windows",
          .detail = "TensorFlow " + kb_.tensorflow.windows_gpu_last.str() +
                    " was the last release with GPU support on native Windows; " + fw.version.str() +
                    " is a CPU-only build there, whatever CUDA or cuDNN is installed. " +
                    kb_.tensorflow.windows_gpu_note,
          .fix = "Either use WSL2 (inside it: pip install \"" + tf_dist(fw) +
                 "[and-cuda]==" + fw.version.truncated(2).str() + ".*\"" +
                 (lin ? ", Python " + lin->python.text() : std::string()) + ")" + native_windows_recipe() +
                 ". `gpudoctor plan --framework tensorflow --script powershell` writes the steps as a PowerShell "
                 "script.",
          .evidence = {installed_at(env, fw), "package " + (fw.package.empty() ? fw.name : fw.package)},
          .source = kb_.tensorflow.windows_gpu_source});
      if (b) python_range(env, fw, display, b->python, b->source);
      return;
    }
    if (b == nullptr) {
      unknown_tensorflow(env, fw, display);
      return;
    }
    python_range(env, fw, display, b->python, b->source);
    if (fw.cuda_build && !*fw.cuda_build) return;  // CPU builds: the python checks report those
    const TfPackage* pkg = kb_.tf_package(fw.package);
    if (pkg && pkg->gpu && !*pkg->gpu) return;
    if (!b->gpu) return;

    std::optional<Version> fw_cuda = plausible(fw.cuda_version, 7, 20);
    std::optional<Version> fw_cudnn = plausible(fw.cudnn_version, 5, 15);
    std::optional<Version> cuda = fw_cuda ? fw_cuda : b->cuda;
    // build_info records only the cuDNN major; the table gives major.minor.
    std::optional<Version> want_cudnn = b->cudnn;
    if (fw_cudnn && (!want_cudnn || fw_cudnn->major() != want_cudnn->major())) want_cudnn = fw_cudnn;
    bool wheels = env_has_cuda_wheels(env);
    // What the loader finds for this build, library by library (Linux): it replaces the guesses
    // below from toolkits and wheels.
    const bool resolved = !fw.loads.empty();
    if (resolved) {
      bool and_cuda = kb_.tf_and_cuda(fw.version) != nullptr;
      missing_loads(env, fw, display,
                    and_cuda ? env_pip(env) + " install \"" + tf_dist(fw) + "[and-cuda]==" + fw.version.str() +
                                   "\" (brings the CUDA " + std::to_string(fw.cuda_version->major()) +
                                   " libraries and cuDNN as pip wheels; no system toolkit needed)."
                             : "Install CUDA " + (cuda ? cuda->str() : std::string("?")) +
                                   (want_cudnn ? " and cuDNN " + want_cudnn->str() : std::string()) +
                                   " and put their lib directories on the loader's path (ld.so.conf.d or "
                                   "LD_LIBRARY_PATH).",
                    b->source);
    }
    CudnnSeen seen = cudnn_for(facts_, env, want_cudnn ? std::optional<int>(want_cudnn->major()) : std::nullopt);
    // Native Windows: the loader model knows the cudnn64_N.dll TensorFlow opens and reads its
    // version (windows-cudnn-too-old, check/windows_checks.cpp); a listed copy, whose version
    // may be its file name's major alone ("8", read as 8.0), would say less, or wrongly.
    const bool loader_judges =
        facts_.platform == Platform::windows && facts_.windows &&
        std::any_of(facts_.windows->dll_loads.begin(), facts_.windows->dll_loads.end(), [&](const DllLoad& l) {
          return l.env == env.path && l.framework == fw.name && l.dll.starts_with("cudnn64_") && !l.path.empty();
        });
    if (want_cudnn && seen.version && !loader_judges) {
      tf_cudnn_mismatch(env, fw, display, *want_cudnn, seen,
                        "TensorFlow " + b->version.str() + " was built and tested with CUDA " +
                            (b->cuda ? b->cuda->str() : "?") + " and cuDNN " + (b->cudnn ? b->cudnn->str() : "?"),
                        kb_.tf_and_cuda(fw.version) != nullptr && facts_.platform != Platform::windows
                            ? std::optional<std::string>(and_cuda_fix(env, fw, *want_cudnn, seen, cudnn_pinned(fw)))
                            : std::nullopt,
                        cuda, b->source);
    }
    if (!wheels && !resolved) {
      tf_unresolved_libraries(env, fw, display, want_cudnn, seen.version.has_value(), cuda,
                              kb_.tf_and_cuda(fw.version) != nullptr, b->source);
    }
    if (cuda) driver_for_framework(env, fw, display, *cuda);
    // Native Windows has no TensorFlow with GPU support after 2.10: no release there has more kernels.
    const std::string tf_fix =
        facts_.platform == Platform::windows
            ? "Use a newer TensorFlow in WSL2, whose Linux builds have kernels for newer GPUs: on native Windows "
              "2.10 was the last release with GPU support, so no other release there has more (`gpudoctor plan "
              "--framework tensorflow`)."
            : "Use a TensorFlow release whose build has kernels for this GPU (`gpudoctor plan --framework "
              "tensorflow`).";
    arch_rules(
        env, fw, display,
        [&](const KnownGpu& g) { return aarch64(g) ? ArchCoverage::unknown : kb_.tf_coverage(*b, g.cc); },
        b->archs_source.empty() ? b->source : b->archs_source, tf_fix, cuda, "",
        [&](const KnownGpu& g) { return tf_ptx_everywhere(b->os, g, cuda); });
    doubtful_tf_archs(env, fw, *b, tf_fix);
  }

  /// TensorFlow opens libcudnn.so.<major> by name, and refuses a cuDNN of that major older than the
  /// one it was compiled with ("Loaded runtime CuDNN library: 9.3.0 but source was compiled with:
  /// 9.10.0", stream_executor/cuda/cuda_dnn.cc). `built` says what the build was made with.
  void tf_cudnn_mismatch(const PythonEnvFacts& env, const FrameworkFacts& fw, const std::string& display,
                         const Version& want, const CudnnSeen& seen, const std::string& built,
                         const std::optional<std::string>& reinstall, const std::optional<Version>& cuda,
                         const std::string& source) {
    const bool major_differs = seen.version->major() != want.major();
    const bool older = !major_differs && want.parts().size() >= 2 && seen.version->minor() < want.minor();
    if (!major_differs && !older) return;
    add(Finding{.id = "tf-cudnn-mismatch",
                .severity = Severity::error,
                .area = FindingArea::python,
                .title = fw_title(display, fw) + " needs cuDNN " + want.str() + ", found " + seen.version->str(),
                .detail = built + "; " +
                          (major_differs ? "the cuDNN found (" + seen.origin +
                                               ") is another major version, not loaded: TensorFlow opens " +
                                               (facts_.platform == Platform::windows
                                                    ? "cudnn64_" + std::to_string(want.major()) + ".dll"
                                                    : "libcudnn.so." + std::to_string(want.major())) +
                                               " by name. The GPU is not used."
                                         : "the cuDNN it will load (" + seen.origin +
                                               ") is older. The GPU is not used, or convolutions fail at run time."),
                .fix = reinstall ? *reinstall
                                 : "Install cuDNN " + want.str() + " for CUDA " + (cuda ? cuda->str() : "?") +
                                       ", or the TensorFlow release tested with the cuDNN you have "
                                       "(`gpudoctor matrix --framework tensorflow`).",
                .evidence = {installed_at(env, fw), "cuDNN " + seen.version->str() + " (" + seen.origin + ")"},
                .source = source});
  }

  /// A release the tables lack (one newer than them, most often): what its own files say is still
  /// checked, so that "not in the knowledge base" never stands for "all fine". Its build_info.py
  /// (from 2.22, its bundled headers or its METADATA's [and-cuda] requirements) names the CUDA and
  /// cuDNN it was built with; its METADATA whether `"tensorflow[and-cuda]"` brings them.
  void unknown_tensorflow(const PythonEnvFacts& env, const FrameworkFacts& fw, const std::string& display) {
    const bool gpu_build = fw.cuda_build.value_or(false) && facts_.platform != Platform::windows;
    const std::optional<Version> cuda = plausible(fw.cuda_version, 7, 20);
    const std::optional<Version> cudnn = plausible(fw.cudnn_version, 5, 15);
    std::vector<Version> sass;
    std::optional<Version> ptx;
    const bool archs = recorded_archs(fw, sass, ptx);
    const TfBuild* like = gpu_build && cuda && !archs ? kb_.tf_recorded_like("linux", *cuda) : nullptr;
    const bool resolved = !fw.loads.empty();
    std::vector<std::string> checked;
    if (resolved) checked.push_back("the CUDA libraries it opens");
    if (cudnn) checked.push_back("the cuDNN it was built with");
    if (cuda) checked.push_back("the driver CUDA " + cuda->str() + " needs");
    if (archs) checked.push_back("its GPU architectures");
    if (like) checked.push_back("its GPU architectures by the recorded TensorFlow " + like->version.str() + "'s");
    if (!fw.keras_requires.empty()) checked.push_back("Keras, by its METADATA's requirement");
    std::string detail = "No tested configuration for this release: the Python versions it supports are not checked.";
    if (gpu_build && cuda) {
      detail += " Checked from its own files: " + join(checked, ", ") + " (read from " + fw.evidence + ").";
      if (!resolved) detail += " Which CUDA libraries a CUDA " + cuda->str() + " build opens is not known here.";
      if (!archs && !like) detail += " Its GPU architectures are not checked: the build does not list them.";
    } else if (gpu_build) {
      detail +=
          " Its own files do not say which CUDA it was built with, so the CUDA libraries, cuDNN and driver "
          "it needs are not checked either.";
    }
    add(Finding{.id = "framework-version-unknown",
                .severity = Severity::info,
                .area = FindingArea::python,
                .title = fw_title(display, fw) + " is not in the knowledge base",
                .detail = detail,
                .fix = "Use --kb with newer tables, or check https://www.tensorflow.org/install/source#gpu.",
                .evidence = {installed_at(env, fw)},
                .source = "compat/tensorflow.toml"});
    if (!gpu_build || !cuda) return;
    // Its METADATA's [and-cuda] extra brings the CUDA libraries and cuDNN as pip wheels: the
    // extra of the distribution installed (tf-nightly's, not a second TensorFlow's).
    const bool and_cuda = std::any_of(fw.nvidia_requires.begin(), fw.nvidia_requires.end(),
                                      [](const DistRequirement& r) { return contains(r.marker, "and-cuda"); });
    const std::string fix =
        and_cuda
            ? env_pip(env) + " install \"" + tf_dist(fw) + "[and-cuda]==" + fw.version.str() + "\" (brings the CUDA " +
                  std::to_string(cuda->major()) + " libraries and cuDNN as pip wheels; no system toolkit needed)."
            : "Install CUDA " + cuda->str() + (cudnn ? " and cuDNN " + cudnn->str() : std::string()) +
                  " and put their lib directories on the loader's path (ld.so.conf.d or LD_LIBRARY_PATH).";
    if (resolved) missing_loads(env, fw, display, fix, fw.evidence);
    const CudnnSeen seen = cudnn ? cudnn_for(facts_, env, cudnn->major()) : CudnnSeen{};
    if (cudnn && seen.version) {
      tf_cudnn_mismatch(
          env, fw, display, *cudnn, seen,
          "TensorFlow " + fw.version.str() + " was built with CUDA " + cuda->str() + " and cuDNN " + cudnn->str() +
              " (its own files)",
          and_cuda ? std::optional<std::string>(and_cuda_fix(env, fw, *cudnn, seen, false)) : std::nullopt, cuda,
          fw.evidence);
    }
    if (!resolved && !env_has_cuda_wheels(env)) {
      tf_unresolved_libraries(env, fw, display, cudnn, seen.version.has_value(), cuda, and_cuda, fw.evidence);
    }
    driver_for_framework(env, fw, display, *cuda);
    const std::string arch_fix =
        "Use a TensorFlow release whose build has kernels for this GPU (`gpudoctor plan --framework tensorflow`).";
    if (archs) {
      arch_rules(
          env, fw, display, [](const KnownGpu&) { return ArchCoverage::unknown; }, fw.evidence, arch_fix, cuda, "",
          [&](const KnownGpu& g) {
            return tf_ptx_everywhere(facts_.platform == Platform::windows ? "windows" : "linux", g, cuda);
          });
    } else if (like) {
      doubtful_by(env, fw, *like, arch_fix, [](const KnownGpu&) { return true; });
    }
  }

  /// A build whose own list is not recorded, where the recorded wheel of the same toolchain
  /// (TF 2.20 for 2.21/2.19/2.18) has no kernels for the GPU: probably none here either.
  void doubtful_tf_archs(const PythonEnvFacts& env, const FrameworkFacts& fw, const TfBuild& b,
                         const std::string& fix) {
    std::vector<Version> sass;
    std::optional<Version> ptx;
    if (recorded_archs(fw, sass, ptx)) return;
    const TfBuild* n = kb_.tf_recorded_neighbour(b);
    if (n == nullptr) return;
    doubtful_by(env, fw, *n, fix, [&](const KnownGpu& g) { return kb_.tf_coverage(b, g.cc) == ArchCoverage::derived; });
  }

  /// "Probably no kernels" for each GPU (that `judged` picks) the recorded build n has none for.
  void doubtful_by(const PythonEnvFacts& env, const FrameworkFacts& fw, const TfBuild& n, const std::string& fix,
                   const std::function<bool(const KnownGpu&)>& judged) {
    for (const KnownGpu& g : gpus_) {
      if (aarch64(g) || !judged(g)) continue;
      if (KnowledgeBase::coverage_by_list(g.cc, n.archs, n.ptx) == ArchCoverage::native) continue;
      add(Finding{
          .id = "gpu-arch-doubtful",
          .severity = Severity::warning,
          .area = FindingArea::gpu,
          .title = fw_title("TensorFlow", fw) + " probably has no kernels for " + g.name + " (" + sm(g.cc) + ")",
          .detail = "Its own architecture list is not recorded, and the recorded TensorFlow " + n.version.str() +
                    " wheel (CUDA " + n.cuda->str() + ", same CUDA major) has none for compute capability " +
                    g.cc.str() + ".",
          .fix = fix,
          .evidence = {installed_at(env, fw), g.name + " compute capability " + g.cc.str()},
          .source = n.archs_source});
    }
  }

  /// Where the loader's view of a build is not known (no soname list for its CUDA major): no
  /// cuDNN of its major found anywhere, or no toolkit of its CUDA major. Not for environments
  /// whose nvidia-* wheels may bring them.
  void tf_unresolved_libraries(const PythonEnvFacts& env, const FrameworkFacts& fw, const std::string& display,
                               const std::optional<Version>& want_cudnn, bool cudnn_found,
                               const std::optional<Version>& cuda, bool and_cuda, const std::string& source) {
    if (want_cudnn && !cudnn_found) {
      add(Finding{.id = "tf-cuda-libs-missing",
                  .severity = Severity::warning,
                  .area = FindingArea::python,
                  .title = fw_title(display, fw) + ": no cuDNN " + want_cudnn->str() + " found for it",
                  .detail = "Neither nvidia-* pip wheels in " + env.path +
                            " nor a system cuDNN were found. "
                            "TensorFlow will fall back to the CPU.",
                  .fix = and_cuda ? env_pip(env) + " install \"" + tf_dist(fw) + "[and-cuda]==" + fw.version.str() +
                                        "\" (brings CUDA and cuDNN as pip wheels; no system toolkit needed)."
                                  : "Install CUDA " + (cuda ? cuda->str() : std::string("?")) + " and cuDNN " +
                                        want_cudnn->str() + ".",
                  .evidence = {installed_at(env, fw)},
                  .source = source});
    }
    // A system toolkit of another CUDA major is not what this TF can load.
    if (!cuda || facts_.toolkits.empty()) return;
    const bool any_major = std::any_of(facts_.toolkits.begin(), facts_.toolkits.end(), [&](const ToolkitFacts& t) {
      return t.version && t.version->major() == cuda->major();
    });
    if (any_major) return;
    std::vector<std::string> ev{installed_at(env, fw)};
    for (const ToolkitFacts& t : facts_.toolkits) ev.push_back(t.path + (t.version ? " " + t.version->str() : ""));
    add(Finding{.id = "tf-cuda-mismatch",
                .severity = Severity::error,
                .area = FindingArea::python,
                .title = fw_title(display, fw) + " was built for CUDA " + cuda->str() + ", but no CUDA " +
                         std::to_string(cuda->major()) + ".x is installed",
                .detail = "TensorFlow loads the CUDA libraries of the major version it was built with.",
                .fix = "Install CUDA " + cuda->str() +
                       (and_cuda ? " (or " + env_pip(env) + " install \"" + tf_dist(fw) +
                                       "[and-cuda]==" + fw.version.str() + "\")"
                                 : std::string()) +
                       ".",
                .evidence = ev,
                .source = source});
  }

  // ---- PyTorch ----
  void torch_rules(const PythonEnvFacts& env, const FrameworkFacts& fw) {
    const std::string display = "PyTorch";
    const TorchRelease* rel = kb_.torch_release(fw.version);
    if (rel == nullptr) {
      add(Finding{.id = "framework-version-unknown",
                  .severity = Severity::info,
                  .area = FindingArea::python,
                  .title = fw_title(display, fw) + " is not in the knowledge base",
                  .detail = "No release row for it; Python, driver and architecture checks use only its own metadata.",
                  .fix = "",
                  .evidence = {installed_at(env, fw)},
                  .source = "compat/pytorch.toml"});
    } else {
      python_range(env, fw, display, rel->python, rel->python_source.empty() ? rel->source : rel->python_source);
      compile_python(env, fw, display, *rel);
    }
    if (fw.cuda_build && !*fw.cuda_build) return;
    std::string tag = fw.variant;
    if (tag.empty() && fw.version.local().starts_with("cu")) tag = fw.version.local();
    std::optional<Version> cuda = plausible(fw.cuda_version, 7, 20);
    const TorchVariant* var = rel != nullptr && !tag.empty() ? kb_.torch_variant(*rel, tag) : nullptr;
    if (!cuda && var != nullptr) cuda = var->cuda;
    if (var == nullptr && rel != nullptr && cuda) var = kb_.torch_variant(*rel, cu_tag(*cuda));
    if (!cuda) return;
    if (!fw.loads.empty()) {
      // The wheels it depends on bring the libraries; a --no-deps install or a removed wheel
      // leaves them out. The same index as the build installed.
      std::string index = !tag.empty() && fw.version.local() == tag ? " --index-url " + kb_.torch_index_url(tag) : "";
      missing_loads(env, fw, display,
                    "Reinstall PyTorch with its dependencies (they bring the CUDA libraries as nvidia-* wheels): " +
                        env_pip(env) + " install --force-reinstall \"torch==" + fw.version.str() + "\"" + index + ".",
                    rel != nullptr ? rel->source : "compat/pytorch.toml", WhenMissing::import_fails);
    }
    driver_for_framework(env, fw, display, *cuda);
    torch_cudnn_rules(env, fw, display);
    if (var == nullptr && fw.compute_capabilities.empty()) return;
    // The fix: a variant of the same release that has kernels for every GPU here.
    std::string fix = "Install a PyTorch build with kernels for this GPU (`gpudoctor plan --framework pytorch`).";
    // A GPU whose last driver branch cannot run the newest CUDA (Tesla K80, 470.xx: CUDA 11):
    // frameworks drop such GPUs early, so only a list read from the wheel counts, from this
    // release or the newest older one that has it. (Pascal's R580 runs CUDA 13: not yet.)
    bool legacy = false;
    if (lowest_ != nullptr) {
      int newest = 0;
      for (const CudaFamily& f : kb_.cuda_families) newest = std::max(newest, f.major);
      auto runs = kb_.newest_cuda_major_for_branch(lowest_->branch.major);
      legacy = !runs || *runs < newest;
    }
    auto has_kernels = [&](const TorchVariant& v) {
      if (legacy && v.archs.empty()) return false;
      return !gpus_.empty() && std::all_of(gpus_.begin(), gpus_.end(), [&](const KnownGpu& g) {
        return kb_.torch_coverage(v, g.cc, facts_.platform, aarch64(g)) == ArchCoverage::native;
      });
    };
    if (rel != nullptr) {
      for (const TorchVariant& v : rel->variants) {
        if (has_kernels(v)) {
          fix = "Install the " + v.tag + " wheels: " + env_pip(env) +
                " install \"torch==" + fw.version.truncated(3).str() + "\" --index-url " + kb_.torch_index_url(v.tag);
          break;
        }
      }
      const TorchRelease* older = nullptr;
      const TorchVariant* older_var = nullptr;
      for (const TorchRelease& r : kb_.pytorch.releases) {
        if (!legacy || r.version >= rel->version || (older != nullptr && r.version <= older->version)) continue;
        for (const TorchVariant& v : r.variants) {
          if (has_kernels(v)) {
            older = &r;
            older_var = &v;
            break;
          }
        }
      }
      if (older_var != nullptr && fix.starts_with("Install a PyTorch build")) {
        fix = "Install PyTorch " + older->version.truncated(2).str() + " (its " + older_var->tag +
              " wheel's own list has kernels for this GPU; Python " + older->python.text() + "): " + env_pip(env) +
              " install \"torch==" + older->version.truncated(2).str() + ".*\" --index-url " +
              kb_.torch_index_url(older_var->tag);
      }
    }
    std::string src =
        var != nullptr && !var->archs_source.empty() ? var->archs_source : (rel != nullptr ? rel->source : "");
    // A dist-info without a local tag is PyPI's wheel: what plain `pip install torch` gave.
    std::string why;
    const bool x86_linux = facts_.platform != Platform::windows && facts_.os.arch != "aarch64";
    if (rel != nullptr && var != nullptr && x86_linux && fw.version.local().empty() && rel->pypi_linux == var->tag) {
      why = " This is the " + var->tag + " wheel that plain `pip install torch` gets from PyPI for " +
            rel->version.str() +
            " on Linux x86_64 (its torch/version.py); the other CUDA variants come only from "
            "PyTorch's own index.";
    }
    arch_rules(
        env, fw, display,
        [&](const KnownGpu& g) {
          return var != nullptr ? kb_.torch_coverage(*var, g.cc, facts_.platform, aarch64(g)) : ArchCoverage::native;
        },
        src, fix, cuda, why);
  }

  /// torch.backends.cudnn's own checks (torch/backends/cudnn/__init__.py _init()): the loaded
  /// cuDNN must be of the compiled major and at least its minor ("cuDNN version incompatibility",
  /// unless PYTORCH_SKIP_CUDNN_COMPATIBILITY_CHECK=1); and pytorch.toml's cudnn_refuses_cc: a new
  /// cuDNN is refused when any visible GPU is older than a compute capability. The compiled cuDNN
  /// is the METADATA pin (the probe's cudnn_version), which torch 2.15's getCompileVersion() equals.
  void torch_cudnn_rules(const PythonEnvFacts& env, const FrameworkFacts& fw, const std::string& display) {
    // The copy its loads resolved; none listed, or of unknown version: no verdict.
    std::optional<CudnnSeen> seen = cudnn_from_loads(env, fw);
    std::optional<Version> runtime = seen ? seen->version : std::nullopt;
    if (!runtime || runtime->parts().empty()) return;
    const std::optional<Version>& compiled = fw.cudnn_version;
    // The wheel and version torch's METADATA pins (probe: nvidia_requires), as pip writes it.
    std::string pin_name, pin_spec;
    for (const DistRequirement& r : fw.nvidia_requires) {
      if (r.name.starts_with("nvidia-cudnn") && r.specifier.starts_with("==")) {
        pin_name = r.name;
        pin_spec = r.specifier;
      }
    }
    if (pin_name.empty() && compiled) {
      pin_name = "nvidia-cudnn-cu" + std::to_string(fw.cuda_version ? fw.cuda_version->major() : 12);
      pin_spec = "==" + compiled->str();
    }
    // The pinned wheel still listed by pip (its files gone or overwritten): only a forced
    // reinstall puts them back.
    const std::string pin = wheel_install_command(env, pin_name, pin_spec);
    if (compiled && compiled->parts().size() >= 2 && runtime->major() == compiled->major() && runtime->major() >= 7 &&
        runtime->minor() < compiled->minor()) {
      auto tuple = [](const Version& x) {
        return "(" + std::to_string(x.major()) + ", " + std::to_string(x.minor()) + ", " + std::to_string(x.part(2)) +
               ")";
      };
      bool skipped = std::any_of(facts_.env.begin(), facts_.env.end(), [](const EnvVarFacts& e) {
        return e.name == "PYTORCH_SKIP_CUDNN_COMPATIBILITY_CHECK" && e.value == "1";
      });
      add(Finding{.id = "torch-cudnn-too-old",
                  .severity = skipped ? Severity::info : Severity::error,
                  .area = FindingArea::python,
                  .title = fw_title(display, fw) + " was built with cuDNN " + compiled->str() +
                           " and loads the older " + runtime->str(),
                  .detail = std::string(skipped ? "PYTORCH_SKIP_CUDNN_COMPATIBILITY_CHECK=1 turns off the check that "
                                                  "would refuse it; convolutions then run on a cuDNN older than the "
                                                  "build's. "
                                                : "") +
                            "torch.backends.cudnn accepts only its compiled major at an equal or newer minor; here it "
                            "raises \"cuDNN version incompatibility: PyTorch was compiled  against " +
                            tuple(*compiled) + " but found runtime version " + tuple(*runtime) +
                            "\" (from cudnn.version(), and so from RNNs on the GPU). Another package's pin usually "
                            "replaced the wheel torch installed.",
                  .fix = "Reinstall the cuDNN torch was built with: " + pin +
                         " (`pip check` names the package that asked for the other one).",
                  .evidence = {installed_at(env, fw), "cuDNN " + runtime->str()},
                  .source = "torch/backends/cudnn/__init__.py (_init)"});
    }
    for (const TorchCudnnCcRule& rule : kb_.pytorch.cudnn_refuses_cc) {
      if (!rule.torch.contains(fw.version) || !rule.cudnn.contains(*runtime)) continue;
      std::vector<std::string> old;
      for (const KnownGpu& g : gpus_) {
        if (g.cc < rule.below_cc) old.push_back(g.name + " (compute capability " + g.cc.str() + ")");
      }
      if (old.empty()) continue;
      add(Finding{
          .id = "torch-cudnn-refuses-gpu",
          .severity = Severity::error,
          .area = FindingArea::python,
          .title = fw_title(display, fw) + " refuses cuDNN " + runtime->str() + " beside " + join(old, ", "),
          .detail = "torch.backends.cudnn raises \"cuDNN version ... is not compatible with devices with SM < " +
                    rule.below_cc.str() + "\" when the cuDNN it loaded is " + rule.cudnn.text() +
                    " and any visible GPU is older: cuDNN then fails for every GPU of the process (cudnn.version(), "
                    "RNNs on the GPU, varlen attention), not only the old one.",
          .fix = (compiled && compiled->major() == runtime->major() && *compiled < *runtime
                      ? "Reinstall the cuDNN this torch was built with: " + pin + "; or "
                      : std::string("Install a PyTorch build whose cuDNN supports the older GPU (`gpudoctor plan "
                                    "--framework pytorch`); or ")) +
                 "hide the older GPU from the process (CUDA_VISIBLE_DEVICES lists only the newer ones).",
          .evidence = {installed_at(env, fw), "cuDNN " + runtime->str()},
          .source = rule.source});
    }
  }

  /// Whether the knowledge base pairs this companion's series with a torch older than or equal to
  /// `installed`: a stable-ABI companion of that series loads with it.
  bool built_for_older_torch(const FrameworkFacts& fw, const Version& installed) const {
    for (const TorchRelease& r : kb_.pytorch.releases) {
      const std::string& series = fw.name == "torchvision" ? r.torchvision : r.torchaudio;
      auto v = Version::parse(series);
      if (v && fw.version.same_series(*v, 2)) return r.version.truncated(2) <= installed.truncated(2);
    }
    return false;
  }

  /// torchvision / torchaudio are built for one exact torch (their METADATA pins it) and one
  /// CUDA variant (their local tag): another torch fails at import or at the first op
  /// ("operator torchvision::nms does not exist"), and a later `pip install torchvision` from
  /// the default index silently replaces the CUDA torch with PyPI's.
  void torch_companion_rules(const PythonEnvFacts& env) {
    const FrameworkFacts* torch = nullptr;
    for (const FrameworkFacts& fw : env.frameworks) {
      if (fw.name == "torch") torch = &fw;
    }
    if (torch == nullptr) {
      // Each imports torch first: alone in an environment, `import torchaudio` fails (a venv can
      // still see a torch elsewhere through include-system-site-packages or PYTHONPATH: a warning).
      for (const FrameworkFacts& fw : env.frameworks) {
        if (fw.name != "torchvision" && fw.name != "torchaudio") continue;
        const std::string pin =
            fw.requires_torch ? "\"torch==" + fw.requires_torch->truncated(3).str() + "\"" : "torch";
        add(Finding{.id = "torch-companion-without-torch",
                    .severity = Severity::warning,
                    .area = FindingArea::python,
                    .title = fw.name + " " + fw.version.str() + " is installed without torch (in " + env.path + ")",
                    .detail = "`import " + fw.name +
                              "` imports torch first, so it fails with "
                              "\"ModuleNotFoundError: No module named 'torch'\" unless a torch comes from outside "
                              "this environment (a venv with include-system-site-packages, PYTHONPATH).",
                    .fix = "Install the torch it is built for, from the same index as " + fw.name + ": " +
                           env_pip(env) + " install " + pin +
                           (fw.variant.starts_with("cu") ? " --index-url " + kb_.torch_index_url(fw.variant) : "") +
                           "; or remove " + fw.name + " if it was not wanted.",
                    .evidence = {installed_at(env, fw)},
                    .source = fw.evidence});
      }
      return;
    }
    const Version installed = torch->version.truncated(3);
    const TorchRelease* rel = kb_.torch_release(torch->version);
    for (const FrameworkFacts& fw : env.frameworks) {
      if (fw.name != "torchvision" && fw.name != "torchaudio") continue;
      // The pin in its METADATA, else the series the knowledge base pairs with this torch.
      std::string built_for;
      std::string source = fw.evidence;
      // On the stable ABI (torchvision/_C_stable.so, torchaudio's .abi3.so) the operators load
      // with the torch they were built against or a newer one, not an older one.
      const bool stable_newer = fw.stable_abi && fw.requires_torch && installed > fw.requires_torch->truncated(3);
      if (stable_newer) {
        add(Finding{
            .id = "torch-companion-stable-abi",
            .severity = Severity::info,
            .area = FindingArea::python,
            .title = fw.name + " " + fw.version.str() + " pins torch " + fw.requires_torch->str() +
                     " and loads with torch " + torch->version.str(),
            .detail = "Its operators are built on PyTorch's stable ABI (" +
                      std::string(fw.name == "torchvision" ? "torchvision/_C_stable.so" : "torchaudio/lib/*.abi3.so") +
                      "), which a newer torch still runs; `pip check` fails on the pin, and the next "
                      "install that resolves " +
                      fw.name + " may change torch to match it.",
            .evidence = {installed_at(env, fw), "torch " + torch->version.str()},
            .source = fw.evidence});
      } else if (fw.requires_torch) {
        if (fw.requires_torch->truncated(3) != installed) built_for = "torch " + fw.requires_torch->truncated(3).str();
      } else if (rel != nullptr && torch->version.pre().empty() && fw.version.pre().empty() &&
                 !(fw.stable_abi && built_for_older_torch(fw, installed))) {
        // The knowledge base pairs released versions only: a pre-release or source build (NGC's
        // 2.6.0a0 with its own torchvision) is judged by a pin, never by the series table.
        const std::string& want = fw.name == "torchvision" ? rel->torchvision : rel->torchaudio;
        auto series = Version::parse(want);
        if (series && !fw.version.same_series(*series, 2)) {
          built_for = "another torch than " + installed.str() + " (which pairs with " + fw.name + " " + want + ")";
          source = rel->companions_source;
        }
      }
      const std::string& tv = torch->variant;
      // A companion without a local tag came from PyPI, whose wheel is the release's default
      // variant (a PyPI torchvision beside a cu118 torch from PyTorch's index is a CUDA 12 build).
      std::string cv = fw.variant;
      if (cv.empty() && fw.version.local().empty() && fw.version.pre().empty() &&
          facts_.platform != Platform::windows) {
        const TorchRelease* crel = fw.requires_torch ? kb_.torch_release(*fw.requires_torch) : rel;
        if (crel != nullptr) cv = facts_.os.arch == "aarch64" ? crel->pypi_aarch64 : crel->pypi_linux;
      }
      bool variant_differs = built_for.empty() && !tv.empty() && !cv.empty() && tv != cv;
      // "cu128" -> "12"; "cpu" stays: a CPU torchvision has no CUDA operators at all.
      auto major = [](const std::string& t) {
        return t.starts_with("cu") && t.size() > 3 ? t.substr(2, t.size() - 3) : t;
      };
      bool major_differs = variant_differs && major(tv) != major(cv);
      if (built_for.empty() && !variant_differs) continue;
      // The matched set from one index: the CUDA variant of the torch that is installed.
      std::string tag = torch->variant.starts_with("cu") ? torch->variant : "";
      std::string pkgs = "\"torch==" + installed.str() + "\"";
      if (rel != nullptr && !rel->torchvision.empty()) pkgs += " \"torchvision==" + rel->torchvision + ".*\"";
      if (rel != nullptr && !rel->torchaudio.empty()) pkgs += " \"torchaudio==" + rel->torchaudio + ".*\"";
      if (rel == nullptr || rel->torchvision.empty()) pkgs += " torchvision torchaudio";
      std::string fix = "Install the matched set in one command, from one index: " + env_pip(env) + " install " + pkgs +
                        (tag.empty() ? "" : " --index-url " + kb_.torch_index_url(tag)) + ".";
      if (!built_for.empty()) {
        add(Finding{.id = "torch-companion-mismatch",
                    .severity = Severity::error,
                    .area = FindingArea::python,
                    .title = fw.name + " " + fw.version.str() + " is built for " + built_for + ", but torch " +
                             torch->version.str() + " is installed",
                    .detail = fw.name +
                              " carries compiled operators for one exact torch: with another it fails at import "
                              "or at its first operator (\"operator torchvision::nms does not exist\", "
                              "\"undefined symbol\"). This happens when one of them is installed later from "
                              "another index, which also swaps the torch build.",
                    .fix = fix,
                    .evidence = {installed_at(env, fw), "torch " + torch->version.str() + " (" + torch->variant + ")"},
                    .source = source.empty() ? "compat/pytorch.toml" : source});
      } else {
        add(Finding{.id = "torch-companion-variant-mismatch",
                    .severity = major_differs ? Severity::error : Severity::warning,
                    .area = FindingArea::python,
                    .title = fw.name + " " + fw.version.str() + " and torch " + torch->version.str() +
                             " are different CUDA builds",
                    .detail = "They came from different indexes (" + cv + " and " + tv + "). " +
                              (major_differs ? "torchvision refuses a torch of another CUDA major (\"compiled with "
                                               "different CUDA major versions\"), and a CPU build has no CUDA "
                                               "operators (\"Could not run 'torchvision::nms' with arguments from "
                                               "the 'CUDA' backend\")."
                                             : "Within one CUDA major the two builds load, but this is not the set "
                                               "PyTorch builds and tests together."),
                    .fix = fix,
                    .evidence = {installed_at(env, fw), "torch " + torch->version.str() + " (" + torch->variant + ")"},
                    .source = "compat/pytorch.toml"});
      }
    }
  }

  // ---- JAX ----
  void jax_rules(const PythonEnvFacts& env, const FrameworkFacts& fw) {
    const std::string display = "JAX";
    std::string extra = fw.variant;
    if (kb_.jax_variant(extra) == nullptr) {
      for (const FrameworkFacts& other : env.frameworks) {
        // The probe names jax-cudaNN-plugin / -pjrt by role and keeps "cudaNN" in the variant.
        const bool plugin = other.name == "jax-cuda-plugin" || other.name == "jax-cuda-pjrt";
        if (plugin && !other.variant.empty()) extra = other.variant;
      }
    }
    const JaxVariant* v = kb_.jax_variant(extra);
    // Native Windows has only CPU jaxlib wheels (jax-cuda12-plugin has no win_amd64 wheel), so the
    // CPU build there is not fixed by installing the plugin: the same answer as for a CUDA one.
    if (facts_.platform == Platform::windows && (v != nullptr || !gpus_.empty() || !facts_.gpus.empty())) {
      const std::string want = v != nullptr ? v->extra : "cuda12";
      add(Finding{.id = "jax-native-windows-no-gpu",
                  .severity = Severity::error,
                  .area = FindingArea::python,
                  .title = "JAX has no GPU support on native Windows",
                  .detail = "JAX's CUDA wheels (jax-cuda12-plugin, jax-cuda13-plugin) are for Linux (x86_64, "
                            "aarch64); on native Windows pip installs the CPU jaxlib, and `pip install "
                            "\"jax[cuda12]\"` finds no plugin. WSL2 is experimental.",
                  .fix = "Use JAX in WSL2 or on Linux: pip install -U \"jax[" + want + "]\".",
                  .evidence = {installed_at(env, fw), "package " + (fw.package.empty() ? fw.name : fw.package)},
                  .source = kb_.jax.source});
      return;
    }
    if (v == nullptr) return;  // CPU jaxlib or unknown: the python checks report CPU builds
    for (const KnownGpu& g : gpus_) {
      if (g.cc.truncated(2) < v->min_cc.truncated(2)) {
        const JaxVariant* other = kb_.jax_variant(v->extra == "cuda13" ? "cuda12" : "cuda13");
        bool other_ok = other != nullptr && g.cc.truncated(2) >= other->min_cc.truncated(2);
        add(Finding{
            .id = "gpu-arch-unsupported-by-framework",
            .severity = Severity::error,
            .area = FindingArea::gpu,
            .title = "jax[" + v->extra + "] does not support " + g.name + " (compute capability " + g.cc.str() + ")",
            .detail = "jax[" + v->extra + "] needs compute capability >= " + v->min_cc.str() + ".",
            .fix = other_ok ? "Install jax[" + other->extra + "] instead: " + env_pip(env) + " install -U \"jax[" +
                                  other->extra + "]\"."
                            : "This GPU is not supported by JAX's CUDA wheels.",
            .evidence = {installed_at(env, fw)},
            .source = v->source});
      }
    }
    // The kernels are the PJRT plugin's (xla_cuda_plugin.so in jax-cudaNN-pjrt, its own version):
    // 0.4.30-0.5.3 carry none for Blackwell, only sm_90 PTX, from an XLA that predates it.
    std::optional<Version> release = fw.version;
    for (const FrameworkFacts& other : env.frameworks) {
      if (other.name == "jax-cuda-pjrt" && other.variant == v->extra) release = other.version;
    }
    for (const KnownGpu& g : gpus_) {
      if (g.cc.truncated(2) < v->min_cc.truncated(2)) continue;  // said above
      const ArchCoverage c = kb_.jax_coverage(*v, release, g.cc);
      if (c == ArchCoverage::native || c == ArchCoverage::unknown) continue;
      const JaxPlugin* plugin = release ? kb_.jax_plugin(v->extra, *release) : nullptr;
      // The first release whose plugin has kernels for this GPU, for the fix.
      std::string first;
      for (const JaxPlugin& p : kb_.jax.plugins) {
        if (p.extra != v->extra || !p.versions.lowest() ||
            KnowledgeBase::coverage_by_list(g.cc, p.archs, std::nullopt) != ArchCoverage::native)
          continue;
        if (first.empty() || *p.versions.lowest() < *Version::parse(first)) first = p.versions.lowest()->str();
      }
      const std::string upgrade = env_pip(env) + " install -U \"jax[" + v->extra + "]\"" +
                                  (first.empty() ? "" : " (" + first + " and later have " + sm(g.cc) + " kernels)");
      add(Finding{
          .id = c == ArchCoverage::none ? "gpu-arch-unsupported-by-framework" : "gpu-arch-ptx-only",
          .severity = c == ArchCoverage::none ? Severity::error : Severity::warning,
          .area = FindingArea::gpu,
          .title =
              "JAX " + release->str() + " (jax[" + v->extra + "]) has no native " + sm(g.cc) + " kernels for " + g.name,
          .detail = c == ArchCoverage::none
                        ? "Its plugin carries no code for compute capability " + g.cc.str() + "."
                        : "Its plugin (xla_cuda_plugin.so) carries kernels up to " +
                              (plugin != nullptr && plugin->ptx ? sm(*plugin->ptx) : std::string("an older arch")) +
                              " and that arch's PTX: it can run only by JIT-compiling it, and the XLA of this "
                              "release predates the GPU (not verified here).",
          .fix = upgrade + ".",
          .evidence = {installed_at(env, fw), g.name + " compute capability " + g.cc.str()},
          .source = plugin != nullptr ? plugin->source : v->source});
    }
    const std::optional<Version>& drv = facts_.driver.version;
    if (drv && facts_.platform == Platform::linux) {
      const Version floor = jax_driver_floor(*v);
      if (*drv < floor) {
        // The alternative is another recorded extra that runs on this driver, never this one.
        std::string alternative;
        for (const JaxVariant& o : kb_.jax.variants) {
          if (o.extra != v->extra && *drv >= jax_driver_floor(o))
            alternative = " (or use `\"jax[" + o.extra + "]\"`, which needs >= " + jax_driver_floor(o).str() + ")";
        }
        if (alternative.empty())
          alternative =
              "; no JAX CUDA extra runs on driver " + drv->str() + ", so without an update JAX runs on the CPU";
        add(Finding{.id = "driver-too-old-for-framework",
                    .severity = Severity::error,
                    .area = FindingArea::driver,
                    .title = "jax[" + v->extra + "] needs driver >= " + floor.str() + ", found " + drv->str(),
                    .detail = "JAX's CUDA " + std::to_string(v->built_cuda.major()) + " wheels need a newer driver.",
                    .fix = "Update the NVIDIA driver to >= " + floor.str() + alternative + ".",
                    .evidence = {installed_at(env, fw), "driver " + drv->str()},
                    .source = v->source});
      }
    }
    missing_loads(env, fw, display,
                  env_pip(env) + " install \"jax[" + v->extra + "]==" + fw.version.str() + "\" (brings the CUDA " +
                      std::to_string(v->built_cuda.major()) + " libraries and cuDNN as nvidia-* wheels).",
                  v->source);
    // The installed release's own floor (its plugin's with-cuda extra), else the guide's.
    const JaxRelease* rel = kb_.jax_release(fw.version);
    const VersionSpec* cudnn = kb_.jax_cudnn(*v, fw.version);
    std::string cudnn_source;
    // A release newer than every row: its floor is the one its installed plugin's METADATA asks
    // for (the last recorded release's is not its own), and the doctor says it is not known.
    // Also a release between rows, a four-part one past a row's bound, or a pre-release: none of
    // them was harvested (the session 40 re-read). Older than every row is another path.
    const bool newer = rel == nullptr && !kb_.jax.releases.empty() && kb_.jax.releases.front().versions.lowest() &&
                       fw.version > *kb_.jax.releases.front().versions.lowest();
    std::optional<VersionSpec> own_cudnn;
    if (newer) {
      const std::string wheel = "nvidia-cudnn-cu" + std::to_string(v->built_cuda.major());
      for (const FrameworkFacts& other : env.frameworks) {
        if (other.name != "jax-cuda-plugin" || other.variant != v->extra) continue;
        for (const DistRequirement& r : other.nvidia_requires) {
          if (r.name != wheel || r.specifier.empty()) continue;
          own_cudnn = VersionSpec::parse(r.specifier);
          if (own_cudnn) {
            cudnn = &*own_cudnn;
            cudnn_source = "[artefact] installed " + (other.package.empty() ? other.name : other.package) + " " +
                           other.version.str() + " METADATA (with-cuda extra): " + r.name + r.specifier;
          }
        }
      }
      jax_not_in_kb(env, fw, *v, release, own_cudnn.has_value());
    }
    CudnnSeen seen = jax_cudnn_seen(env, fw);
    if (cudnn != nullptr && seen.version && !cudnn->contains(*seen.version)) {
      // JAX checks the loaded cuDNN when its CUDA backend starts ("Loaded runtime CuDNN library:
      // X but source was compiled with: Y"), fails to initialise it and falls back to the CPU:
      // the same consequence as TensorFlow's mismatch, so the same severity.
      const std::optional<Version> low = cudnn->lowest();
      const bool other_major = low && seen.version->major() != low->major();
      const std::string soname = low ? "libcudnn.so." + std::to_string(low->major()) : "";
      const std::string fix =
          env_pip(env) + " install -U \"jax[" + v->extra + "]\" (brings a matching nvidia-cudnn wheel).";
      const Replaced replaced = low ? replaced_wheels(env, fw, {soname}) : Replaced{};
      add(Finding{
          .id = "jax-cudnn-mismatch",
          .severity = Severity::error,
          .area = FindingArea::python,
          .title = "jax[" + v->extra + "] " + fw.version.str() + " needs cuDNN " + cudnn->text() + ", found " +
                   seen.version->str(),
          // The loader opens libcudnn.so.<major> by name: another major is never loaded.
          .detail = other_major
                        ? "The cuDNN found (" + seen.origin + ") is another major version, not loaded: JAX opens " +
                              soname + " by name. JAX's CUDA backend does not start and JAX runs on the CPU."
                        : "The cuDNN JAX will load comes from " + seen.origin +
                              ". JAX's CUDA backend does not initialise with it and JAX runs on the CPU.",
          .fix = replaced.users.empty() ? fix + loaded_copy_clause(facts_, seen) : beside_fix(display, replaced, fix),
          .evidence = {installed_at(env, fw), "cuDNN " + seen.version->str() + " (" + seen.origin + ")"},
          .source = !cudnn_source.empty() ? cudnn_source
                    : rel != nullptr      ? rel->source
                                          : (v->cudnn_source.empty() ? v->source : v->cudnn_source)});
    }
  }

  /// An installed JAX newer than every release row: an info note that says what was checked from
  /// its own files and what the tables cannot say (Python range, its plugin's architectures).
  void jax_not_in_kb(const PythonEnvFacts& env, const FrameworkFacts& fw, const JaxVariant& v,
                     const std::optional<Version>& plugin_release, bool own_cudnn) {
    const std::optional<Version> last = kb_.jax.releases.back().versions.highest();
    std::vector<std::string> checked = {"the driver its CUDA " + std::to_string(v.built_cuda.major()) +
                                        " plugin needs (jax[" + v.extra + "])"};
    if (!fw.loads.empty()) checked.push_back("the CUDA libraries it opens");
    checked.push_back(own_cudnn ? "the cuDNN its installed plugin's METADATA asks for"
                                : "cuDNN against jax[" + v.extra +
                                      "]'s last recorded floor (its plugin's METADATA "
                                      "was not read)");
    const bool archs = plugin_release && kb_.jax_plugin(v.extra, *plugin_release) != nullptr;
    add(Finding{.id = "framework-version-unknown",
                .severity = Severity::info,
                .area = FindingArea::python,
                .title = fw_title("JAX", fw) + " is not in the knowledge base",
                .detail = "Its tables end at " + (last ? last->str() : std::string("an older release")) +
                          ": the Python versions it supports are not checked" +
                          (archs ? std::string(".")
                                 : ", nor the GPU architectures its plugin (xla_cuda_plugin.so) carries: an older "
                                   "plugin's list says nothing of it.") +
                          " Checked from its own files: " + join(checked, ", ") + ".",
                .fix = "Use --kb with newer tables (scripts/harvest-kb.py --packages jax,jaxlib,jax-cuda12-plugin,"
                       "jax-cuda13-plugin, then --jax-elf), or check JAX's changelog.",
                .evidence = {installed_at(env, fw)},
                .source = "compat/jax.toml"});
  }

  /// The cuDNN JAX loads. Where the probe resolved the plugin's libcudnn.so.N, the copy the loader
  /// finds there (none: missing_loads names the missing library and what replaced its wheel);
  /// else the first reachable copy.
  [[nodiscard]] CudnnSeen jax_cudnn_seen(const PythonEnvFacts& env, const FrameworkFacts& fw) const {
    return cudnn_from_loads(env, fw).value_or(cudnn_for(facts_, env));
  }

  /// The cuDNN copy the probe resolved for this framework's libcudnn.so.N (fw.loads): the copy
  /// the library probe read in that directory, or the env's wheel. Empty when it is missing or
  /// of unknown version; nullopt when the loads list no libcudnn.
  [[nodiscard]] std::optional<CudnnSeen> cudnn_from_loads(const PythonEnvFacts& env, const FrameworkFacts& fw) const {
    for (const LibraryLoad& l : fw.loads) {
      if (!l.soname.starts_with("libcudnn.so.")) continue;
      if (l.path.empty()) return CudnnSeen{};
      const std::string dir = l.dir();
      for (const LibraryFacts& lib : facts_.libraries) {
        if (lib.name != "cudnn" || !lib.version || lib.path != dir) continue;
        if (lib.origin == "pip-wheel") return cudnn_wheel(facts_, env).value_or(CudnnSeen{});
        return CudnnSeen{lib.version, lib.origin + " " + lib.path, lib.origin, lib.path, l.named_dir()};
      }
      return CudnnSeen{};  // a copy of unknown version: no verdict on it
    }
    return std::nullopt;
  }

  /// Whether the release's [and-cuda] extra pins its cuDNN wheel to one version (up to 2.19), not a range.
  [[nodiscard]] bool cudnn_pinned(const FrameworkFacts& fw) const {
    const TfAndCuda* ac = kb_.tf_and_cuda(fw.version);
    return ac != nullptr && std::any_of(ac->pins.begin(), ac->pins.end(), [](const std::string& p) {
             return p.starts_with("nvidia-cudnn") && contains(p, "==");
           });
  }

  /// tensorflow[and-cuda]'s reinstall puts its cuDNN wheel back: with another framework of the
  /// environment loading the wheel that replaced it, one environment each instead. `pinned`: the
  /// release's [and-cuda] extra pins the cuDNN wheel to its tested version (up to 2.19); later
  /// ones, and releases the tables lack, give a range.
  [[nodiscard]] std::string and_cuda_fix(const PythonEnvFacts& env, const FrameworkFacts& fw, const Version& want,
                                         const CudnnSeen& seen, bool pinned) const {
    const std::string fix = "Reinstall with the matching CUDA libraries: " + env_pip(env) + " install \"" +
                            tf_dist(fw) + "[and-cuda]==" + fw.version.str() + "\"" +
                            (seen.kind != "pip-wheel" ? "."
                             : pinned                 ? " (it pins the cuDNN wheel to the tested version)."
                                      : " (its cuDNN range puts back a cuDNN " + std::to_string(want.major()) +
                                            " of at least " + want.str() + ").");
    const Replaced replaced = replaced_wheels(env, fw, {"libcudnn.so." + std::to_string(want.major())});
    return replaced.users.empty() ? fix + loaded_copy_clause(facts_, seen) : beside_fix("TensorFlow", replaced, fix);
  }

  /// ", or native TensorFlow 2.10 with CUDA 11.2, cuDNN 8.1 and Python 3.7-3.10 (...)": the
  /// last native-Windows GPU release and its tested versions, from the knowledge base.
  [[nodiscard]] std::string native_windows_recipe() const {
    const Version& last = kb_.tensorflow.windows_gpu_last;
    const TfBuild* w = kb_.tf_build(last, Platform::windows);
    if (w == nullptr || !w->cuda || !w->cudnn) return "";
    const std::string cuda = w->cuda->truncated(2).str();
    const std::string cudnn = w->cudnn->str();
    return ", or native TensorFlow " + last.str() + " with CUDA " + cuda + ", cuDNN " + cudnn + " and Python " +
           w->python.text() + " (conda install -c conda-forge cudatoolkit=" + cuda + " cudnn=" + cudnn +
           "; pip install \"tensorflow<" + Version::of({last.major(), last.minor() + 1}).str() + "\")";
  }

  static std::string gpu_kb_name(const GpuFacts& g) { return g.kb_name.empty() ? g.name : g.kb_name; }

  /// When no TensorFlow GPU build of this OS has kernels for `g` (the builds' recorded lists, or
  /// their toolkits' where none is recorded), PTX JIT is how every release runs there: say so,
  /// and what keeps it working, instead of sending the user to a release that does not exist.
  std::optional<std::string> tf_ptx_everywhere(const std::string& os, const KnownGpu& g,
                                               const std::optional<Version>& cuda) const {
    for (const TfBuild& other : kb_.tensorflow.builds) {
      if (other.os != os || !other.gpu) continue;
      const ArchCoverage c = kb_.tf_coverage(other, g.cc);
      if (c == ArchCoverage::native || c == ArchCoverage::derived) return std::nullopt;
    }
    std::optional<Version> full =
        cuda ? kb_.min_driver_for_cuda(*cuda, driver_platform(facts_.platform)) : std::nullopt;
    // CUDA_CACHE_MAXSIZE: CUDA C++ Programming Guide, "CUDA Environment Variables" (the JIT
    // cache's size in bytes, at most 4 GiB); the cache keeps the compiled kernels for the next start.
    return "No TensorFlow release has native " + sm(g.cc) +
           " kernels (`gpudoctor matrix --framework tensorflow`): " + "every release runs on the " + g.name +
           " this way. The driver JIT-compiles the PTX at the first start (minutes, " +
           "then cached): keep the driver" +
           (full ? " at or above the build's toolkit driver (" + full->str() + ")" : std::string(" current")) +
           " and let the cache hold the kernels (`export CUDA_CACHE_MAXSIZE=4294967296`).";
  }

  /// ", or install <the plan's best build for this driver>", as `gpudoctor plan` resolves it from
  /// the knowledge base (torch 2.15 has no CUDA 12 build: on a 535 driver that is 2.14 cu126),
  /// or that no release the tables know runs on this driver. `driver` stands in for a driver the
  /// facts lack (the module not loaded: the lowest driver that reports the user-space CUDA).
  std::string older_build(const PythonEnvFacts& env, const FrameworkFacts& fw, const std::string& display,
                          const std::optional<Version>& driver = std::nullopt) const {
    auto wanted = parse_framework_request(fw.name);
    if (!wanted) return ", or install a build for an older CUDA your driver supports";
    PlanRequest request = request_from_facts(facts_);
    if (!request.driver) request.driver = driver;
    request.frameworks = {*wanted};
    if (env.python_version) request.python = env.python_version;
    const Plan plan = resolve(request, kb_);
    const std::string command = "`gpudoctor plan --framework " + std::string(to_string(wanted->name)) + "`";
    const std::optional<PlanOption>& best = plan.frameworks.empty() ? std::nullopt : plan.frameworks.front().best;
    if (!best || !best->gpu || best->fatal() || best->needs_driver_update())
      return "; no " + display + " release the knowledge base knows has a build for this driver (" + command + ")";
    for (const PlanStep& step : best->steps) {
      for (const PlanCommand& c : step.commands) {
        if (step.id == "install" && contains(c.line, "pip install"))
          return ", or install " + best->summary() + ", the newest build for this driver (" + command + "): `" +
                 c.line + "`";
      }
    }
    return ", or install " + best->summary() + ", the newest build for this driver (" + command + ")";
  }

  /// With no kernel driver version (the module not loaded), the CUDA the installed user-space
  /// driver reports (cuDriverGetVersion) still bounds what will run once the module loads: a
  /// driver of an older CUDA major cannot run `cuda` by minor-version compatibility. That CUDA,
  /// when it is too old.
  std::optional<Version> user_space_cuda_below(const Version& cuda) const {
    const std::optional<Version>& user = facts_.driver.cuda_driver_version;
    if (facts_.driver.version || !user || user->parts().empty() || cuda.parts().empty()) return std::nullopt;
    if (user->major() >= cuda.major()) return std::nullopt;
    return user;
  }

  /// The lowest driver that reports `user` as its CUDA: the installed one is at least that.
  std::optional<Version> user_space_driver(const Version& user) const {
    const Platform dp = driver_platform(facts_.platform);
    if (auto full = kb_.min_driver_for_cuda(user, dp)) return full;
    return kb_.family_min_driver(user, dp);
  }

  std::string user_space_detail(const Version& user) const {
    return "The NVIDIA kernel module is not loaded, but the installed user-space driver reports CUDA " + user.str() +
           " (" + facts_.driver.cuda_driver_version_source +
           ") at most: loading the module is not enough, the driver itself must be updated.";
  }

  /// The driver a JAX extra needs on Linux: its own floor, raised to its CUDA family's
  /// minor-version-compatibility floor.
  Version jax_driver_floor(const JaxVariant& v) const {
    Version floor = v.driver_linux;
    if (auto fam = kb_.family_min_driver(v.built_cuda, Platform::linux); fam && *fam > floor) floor = *fam;
    return floor;
  }

  /// A driver floor past the lowest last branch of the machine's GPUs: the fix that says "update
  /// the driver" would drop the card. Empty when no GPU's branch ends below `floor`.
  std::string past_last_branch(const Version& floor, const std::string& what) const {
    if (lowest_ == nullptr || !kb_.driver_past_branch(floor, lowest_->branch.major, driver_platform(facts_.platform)))
      return "";
    const LegacyDriverBranch& b = lowest_->branch;
    std::string text = "No driver after the " + b.branch + " branch drives the " +
                       printable(gpu_kb_name(*lowest_->gpu), 80) + ", so no driver >= " + floor.str() +
                       " can run it: use " + what;
    if (auto major = kb_.newest_cuda_major_for_branch(b.major)) {
      text += " for CUDA " + std::to_string(*major) + ".x";
      if (const CudaDriverRow* row = kb_.newest_toolkit_for_branch(b.major)) {
        text += " (CUDA " + row->cuda.truncated(2).str() + " is the newest toolkit whose own driver is of the " +
                b.branch + " branch; later " + std::to_string(*major) +
                ".x releases run on it through minor-version compatibility)";
      }
    } else {
      text += " that a " + b.branch + " driver supports";
    }
    return text + ".";
  }

  /// The machine that driver_branch_advice speaks to, about the GPU `g`.
  BranchAdviceTarget advice_target(const GpuFacts& g, std::optional<int> installed) const {
    BranchAdviceTarget t{.installed_major = installed,
                         .distro = facts_.os.id,
                         .version_id = facts_.os.version_id,
                         .platform = facts_.platform};
    if (g.cc_major && g.cc_minor) t.cc = Version::of({*g.cc_major, *g.cc_minor});
    return t;
  }

  /// A GPU with a last driver branch (Tesla K80: 470.xx), from the device lists or its generation.
  struct LegacyGpu {
    const GpuFacts* gpu;
    LegacyDriverBranch branch;
  };

  const Facts& facts_;
  const KnowledgeBase& kb_;
  std::vector<KnownGpu> gpus_;
  std::vector<LegacyGpu> legacy_;
  const LegacyGpu* lowest_ = nullptr;  ///< the lowest last branch among legacy_
  std::vector<Finding> out_;
};

}  // namespace

void name_environment(std::vector<Finding>& findings, size_t first, const PythonEnvFacts& env) {
  for (size_t i = first; i < findings.size(); ++i) {
    if (!contains(findings[i].title, env.path)) findings[i].title += " (in " + env.path + ")";
  }
}

std::vector<Finding> compatibility_findings(const Facts& facts, const KnowledgeBase& kb) {
  return Checker(facts, kb).run();
}

}  // namespace gpudoctor
