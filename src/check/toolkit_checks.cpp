#include "check/toolkit_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/text.hpp"

namespace gpudoctor {
namespace {

bool frameworks_bring_libraries(const Facts& facts) {
  for (const auto& env : facts.python_envs) {
    if (!env.nvidia_wheels.empty()) return true;
    for (const auto& fw : env.frameworks) {
      // PyTorch and JAX CUDA wheels carry (or pull in) their own CUDA runtime and cuDNN.
      if ((fw.name == "torch" || fw.name == "jax-cuda-plugin") && fw.cuda_build.value_or(false)) return true;
    }
  }
  return false;
}

std::string toolkit_line(const ToolkitFacts& tk) {
  std::string out = "CUDA " + (tk.version ? tk.version->str() : std::string("(version unknown)"));
  out += " at " + tk.path;
  if (tk.kind != "system") out += " [" + tk.kind + "]";
  if (tk.has_nvcc) out += ", with nvcc";
  if (!tk.found_via.empty()) out += " (found via " + join(tk.found_via, ", ") + ")";
  return out;
}

const ToolkitFacts* toolkit_via(const Facts& facts, std::string_view via) {
  for (const auto& tk : facts.toolkits) {
    for (const auto& v : tk.found_via) {
      if (v == via) return &tk;
    }
  }
  return nullptr;
}

std::string version_text(const std::optional<Version>& v) {
  return v ? v->str() : "unknown version";
}

}  // namespace

std::vector<Finding> toolkit_findings(const Facts& facts) {
  std::vector<Finding> out;
  std::vector<const ToolkitFacts*> system_kits;
  for (const auto& tk : facts.toolkits) {
    out.push_back(Finding{.id = "toolkit",
                          .severity = tk.version ? Severity::ok : Severity::warning,
                          .area = FindingArea::cuda,
                          .title = toolkit_line(tk),
                          .detail = tk.version_source.empty() ? "" : "version from " + tk.version_source,
                          .fix = tk.version
                                     ? ""
                                     : "None of its version witnesses (version.json, version.txt, include/cuda.h, "
                                       "the runtime's soname) could be read: the install is incomplete or "
                                       "damaged. Reinstall the toolkit, or remove the directory if unused.",
                          .evidence = {tk.path}});
    if (tk.kind == "system") system_kits.push_back(&tk);
  }
  if (facts.toolkits.empty()) {
    bool bundled = frameworks_bring_libraries(facts);
    out.push_back(Finding{
        .id = "no-toolkit",
        .severity = Severity::info,
        .area = FindingArea::cuda,
        .title = "No CUDA toolkit installed",
        .detail = bundled ? "Not needed here: the installed frameworks bring their own CUDA libraries (pip wheels)."
                          : "Not needed for the pip wheels of PyTorch, JAX (`\"jax[cuda12]\"`) or TensorFlow "
                            "(`\"tensorflow[and-cuda]\"`), which bring their own CUDA libraries; needed to compile "
                            "CUDA code or for TensorFlow installs without `[and-cuda]`.",
        .fix = ""});
  }
  // Several system toolkits: say which one each route picks when they disagree.
  std::set<std::string> versions;
  // Compared on major.minor: "13.0" from cuda.h and "13.0.96" from the runtime are one release.
  for (const auto* tk : system_kits) versions.insert(tk->version ? tk->version->truncated(2).str() : "unknown");
  if (versions.size() > 1) {
    std::vector<std::string> routes;
    std::set<std::string> picked;
    for (const char* via : {"/usr/local/cuda", "CUDA_HOME", "CUDA_PATH", "PATH nvcc", "LD_LIBRARY_PATH"}) {
      if (const ToolkitFacts* tk = toolkit_via(facts, via)) {
        routes.push_back(fmt::format("{} → CUDA {} ({})", via, version_text(tk->version), tk->path));
        picked.insert(tk->path);
      }
    }
    bool disagree = picked.size() > 1;
    out.push_back(Finding{
        .id = "several-toolkits",
        .severity = disagree ? Severity::warning : Severity::info,
        .area = FindingArea::cuda,
        .title = fmt::format("{} CUDA toolkits installed ({})", system_kits.size(),
                             join(std::vector<std::string>(versions.begin(), versions.end()), ", ")),
        .detail = disagree ? "Different routes lead to different toolkits: builds (nvcc, CUDA_HOME) and the "
                             "loader (LD_LIBRARY_PATH) can mix versions. " +
                                 join(routes, "; ")
                           : join(routes, "; "),
        .fix = disagree ? "Point CUDA_HOME, PATH and LD_LIBRARY_PATH at the same toolkit (the one your framework "
                          "was built for), or remove the ones you do not use."
                        : "",
        .evidence = routes});
  }
  // The toolkit's stub libcuda on the loader path replaces the real driver library.
  for (const auto& ev : facts.env) {
    if (ev.name != "LD_LIBRARY_PATH") continue;
    for (auto dir : split(ev.value, ':')) {
      while (!dir.empty() && dir.back() == '/') dir.remove_suffix(1);
      if (!dir.ends_with("/stubs") && dir != "stubs") continue;
      out.push_back(Finding{
          .id = "cuda-stubs-on-loader-path",
          .severity = Severity::error,
          .area = FindingArea::cuda,
          .title = "LD_LIBRARY_PATH contains the toolkit's stub libraries: " + std::string(dir),
          .detail = "The stub libcuda.so exists only for linking. Loaded at run time it makes every CUDA call fail "
                    "(CUDA_ERROR_STUB_LIBRARY, \"CUDA driver version is insufficient\").",
          .fix = "Remove " + std::string(dir) + " from LD_LIBRARY_PATH (keep it only in the linker's -L path).",
          .evidence = {"LD_LIBRARY_PATH"}});
    }
  }
  return out;
}

std::vector<Finding> library_findings(const Facts& facts) {
  std::vector<Finding> out;
  std::map<std::string, std::vector<const LibraryFacts*>> by_name;
  for (const auto& lib : facts.libraries) {
    by_name[lib.name].push_back(&lib);
    if (lib.name == "cudart" || lib.name == "cublas") continue;  // listed with the toolkit
    std::string title = lib.name + " " + version_text(lib.version) + " at " + lib.path + " [" + lib.origin + "]";
    out.push_back(Finding{.id = "library",
                          .severity = Severity::ok,
                          .area = FindingArea::libraries,
                          .title = title,
                          .detail = lib.version_source.empty() ? "" : "version from " + lib.version_source,
                          .evidence = {lib.path}});
  }
  // Several copies are normal (a pip wheel beside the toolkit's, each reached through its own
  // RPATH). A process loads the wrong one only when copies with one SONAME (same major) but
  // different versions are all on the loader's default search path: the first one hides the
  // others from every program without an RPATH. Frameworks' own mismatches are judged by the
  // compatibility checks, against the copy each one loads.
  for (const auto& [name, copies] : by_name) {
    if (name != "cudnn" && name != "nccl" && name != "tensorrt") continue;
    std::map<int, std::vector<const LibraryFacts*>> on_path;  // SONAME major -> copies, search order
    for (const auto* c : copies) {
      if (c->version && c->loader_order) on_path[c->version->major()].push_back(c);
    }
    for (auto& [major, same_soname] : on_path) {
      std::stable_sort(same_soname.begin(), same_soname.end(), [](const LibraryFacts* a, const LibraryFacts* b) {
        return *a->loader_order < *b->loader_order;
      });
      std::set<std::string> versions;
      for (const auto* c : same_soname) versions.insert(c->version->str());
      if (versions.size() < 2) continue;
      const LibraryFacts* first = same_soname.front();
      std::vector<std::string> where;
      for (const auto* c : same_soname)
        where.push_back(version_text(c->version) + " in " + c->path + " [" + c->origin + "]");
      out.push_back(Finding{
          .id = "several-" + name,
          .severity = Severity::warning,
          .area = FindingArea::libraries,
          .title = fmt::format("{} copies of {} {} on the loader's search path: programs get {} from {}",
                               same_soname.size(), name, major, first->version->str(), first->path),
          .detail = "They share one SONAME, so the first directory in the search order (LD_LIBRARY_PATH, then the "
                    "loader cache) wins for every program without its own RPATH; software built against another "
                    "copy gets this one: " +
                    join(where, "; "),
          .fix = "Keep one copy of " + name + " " + std::to_string(major) +
                 " on the search path (remove the others from LD_LIBRARY_PATH or /etc/ld.so.conf.d, then run "
                 "`sudo ldconfig`).",
          .evidence = where});
    }
  }
  // A pip wheel's library shadowed by another copy on LD_LIBRARY_PATH, which the loader
  // searches before a RUNPATH. Only a copy with the same SONAME (libcudnn.so.9: the same major)
  // can stand in for the wheel's; another major is simply not picked up. Whom it misleads is what
  // each framework's loads say (probe/framework_libraries.cpp): PyTorch's libraries carry DT_RPATH
  // to the wheels, searched before LD_LIBRARY_PATH, and JAX preloads them by path, so those two
  // load the wheel; TensorFlow's RUNPATH comes after LD_LIBRARY_PATH.
  for (const auto& env : facts.python_envs) {
    for (const auto& w : env.nvidia_wheels) {
      for (const auto& lib : facts.libraries) {
        if (lib.origin != "ld-library-path" || lib.name != w.library || !lib.version) continue;
        if (lib.version->major() != w.version.major() || lib.version->same_series(w.version, 2)) continue;
        const std::string soname = "lib" + lib.name + ".so.";
        std::vector<std::string> misled;
        std::vector<std::string> unaffected;
        std::string named = lib.path;  // as LD_LIBRARY_PATH names it, for the fix
        for (const auto& fw : env.frameworks) {
          for (const auto& load : fw.loads) {
            if (!load.soname.starts_with(soname) || load.path.empty()) continue;
            // The copy's directory with links resolved: LD_LIBRARY_PATH often names /usr/local/cuda/lib64.
            const bool from_copy = load.via == "LD_LIBRARY_PATH" && load.dir() == lib.path;
            (from_copy ? misled : unaffected).push_back(fw.name + " " + fw.version.str());
            if (from_copy) named = load.named_dir();
            break;
          }
        }
        const bool older = *lib.version < w.version;
        const bool nobody_misled = misled.empty() && !unaffected.empty();
        std::string who =
            !misled.empty()
                ? join(misled, ", ") + " in this environment " + (misled.size() == 1 ? "loads " : "load ") + lib.path +
                      " instead of the library installed with it (LD_LIBRARY_PATH is searched before its RUNPATH)."
            : nobody_misled
                ? join(unaffected, ", ") +
                      " still loads the wheel: its libraries' DT_RPATH names the wheels and is searched before "
                      "LD_LIBRARY_PATH (JAX preloads them by path). Programs without such a path, started from "
                      "this environment, load " +
                      lib.path + "."
                : "LD_LIBRARY_PATH is searched before a wheel's RUNPATH, so frameworks in this environment "
                  "load " +
                      lib.path + " instead of the library they were installed with.";
        out.push_back(Finding{
            .id = "pip-library-shadowed",
            .severity = nobody_misled ? Severity::info
                        : older       ? Severity::error
                                      : Severity::warning,
            .area = FindingArea::libraries,
            .title = nobody_misled
                         ? fmt::format("{} {} on LD_LIBRARY_PATH: {} in {} still loads the {} {} wheel", lib.name,
                                       lib.version->str(), join(unaffected, ", "), env.path, w.package, w.version.str())
                         : fmt::format("{} {} from LD_LIBRARY_PATH shadows the {} {} wheel in {}", lib.name,
                                       lib.version->str(), w.package, w.version.str(), env.path),
            .detail = who + (nobody_misled ? ""
                                           : " Expect \"version incompatibility\" or symbol errors at the first GPU "
                                             "operation."),
            .fix = nobody_misled ? ""
                                 : "Remove " + named + " from LD_LIBRARY_PATH when using " + env.path +
                                       " (or unset LD_LIBRARY_PATH there).",
            .evidence = {lib.path, w.package + "==" + w.version.str()}});
      }
    }
  }
  return out;
}

}  // namespace gpudoctor
