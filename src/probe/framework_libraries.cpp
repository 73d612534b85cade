#include <spdlog/spdlog.h>

#include <set>

#include "core/text.hpp"
#include "probe/probes.hpp"

namespace gpudoctor {
namespace {

/// The CUDA libraries a Linux TensorFlow build opens, by the CUDA major it was built with. TF
/// opens each by SONAME through its DSO loader (tsl/platform/default/dso_loader.cc), whose
/// versions are the ones configured at build time (TF_CUDA_VERSION, TF_CUBLAS_VERSION,
/// TF_CUFFT_VERSION, TF_CUSOLVER_VERSION, TF_CUSPARSE_VERSION: .tf_configure.bazelrc of the
/// release builds): CUDA 12 builds open libcufft.so.11 and libcusolver.so.11, CUDA 11 builds
/// libcudart.so.11.0 and libcufft.so.10 (the sonames the toolkits of those majors install).
std::vector<std::string> tensorflow_needs(int cuda_major) {
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

bool is_tensorflow(const FrameworkFacts& fw) {
  return fw.name == "tensorflow";  // every TensorFlow distribution, as the probe names it
}

class Resolver {
 public:
  Resolver(const SystemView& system, const LoaderPaths& loader) : system_(system), loader_(loader) {}

  void resolve(PythonEnvFacts& env) {
    std::vector<std::string> wheel_dirs = nvidia_wheel_dirs(env);
    for (FrameworkFacts& fw : env.frameworks) {
      if (!fw.cuda_build.value_or(false) || !fw.cuda_version) continue;
      int major = fw.cuda_version->major();
      // TensorFlow only for now: it opens its CUDA libraries by name at run time and says
      // nothing when they are missing. PyTorch and JAX link theirs through the wheels they
      // depend on (and can bundle them), which needs the wheels' file lists to judge.
      if (!is_tensorflow(fw)) continue;
      std::vector<std::string> needs = tensorflow_needs(major);
      if (needs.empty()) continue;
      if (fw.cudnn_version && fw.cudnn_version->major() >= 7 && fw.cudnn_version->major() <= 15) {
        needs.push_back("libcudnn.so." + std::to_string(fw.cudnn_version->major()));
      }
      for (const std::string& soname : needs) {
        LibraryLoad load = find(soname, wheel_dirs);
        spdlog::debug("loader: {} in {} opens {} -> {} ({})", fw.name, env.path, soname,
                      load.path.empty() ? "not found" : load.path, load.via);
        fw.loads.push_back(std::move(load));
      }
    }
  }

 private:
  /// site-packages/nvidia/<component>/lib of the environment (CUDA 13 wheels share
  /// nvidia/cu13/lib): the directories the frameworks' RUNPATH names.
  std::vector<std::string> nvidia_wheel_dirs(const PythonEnvFacts& env) const {
    std::vector<std::string> out;
    for (const std::string& sp : env.site_packages) {
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

  LibraryLoad find(const std::string& soname, const std::vector<std::string>& wheel_dirs) const {
    auto in = [&](const std::string& dir) { return system_.is_file(system_.join(dir, soname)); };
    // LD_LIBRARY_PATH is searched before a RUNPATH.
    for (const LibraryDir& d : loader_.search_dirs) {
      if (d.why == "LD_LIBRARY_PATH" && in(d.path)) return {soname, system_.join(d.path, soname), "LD_LIBRARY_PATH"};
    }
    for (const std::string& d : wheel_dirs) {
      if (in(d)) return {soname, system_.join(d, soname), "pip wheel"};
    }
    for (const auto& [name, path] : loader_.cache_entries) {
      if (name == soname && system_.is_file(path)) return {soname, path, "ld.so.cache"};
    }
    for (const LibraryDir& d : loader_.search_dirs) {
      if (d.why != "LD_LIBRARY_PATH" && in(d.path)) return {soname, system_.join(d.path, soname), d.why};
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
