#include "check/python_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include "check/gpu_driver_checks.hpp"
#include "check/which_pip.hpp"
#include "core/text.hpp"
#include "model/framework.hpp"

namespace gpudoctor {
namespace {

/// The CUDA extra ("cuda13") of the JAX plugin or PJRT package installed beside `jax`, usable or
/// not; empty when there is none.
std::string jax_plugin_extra(const PythonEnvFacts& env, const FrameworkFacts& jax) {
  std::string extra;
  for (const FrameworkFacts& other : env.frameworks) {
    const bool part = other.name == "jax-cuda-plugin" || other.name == "jax-cuda-pjrt";
    if (part && other.location == jax.location && other.variant.starts_with("cuda")) extra = other.variant;
  }
  return extra;
}

std::string framework_line(const PythonEnvFacts& env, const FrameworkFacts& fw) {
  std::string out = fw.package.empty() ? fw.name : fw.package;
  out += " " + fw.version.str();
  // JAX itself is never a CUDA build: a plugin it refuses is not a CPU-only install.
  const std::string plugin = fw.name == "jax" && fw.cuda_build == false ? jax_plugin_extra(env, fw) : "";
  if (!plugin.empty()) {
    out += " (" + plugin + " plugin not usable)";
  } else if (fw.cuda_build.has_value()) {
    if (*fw.cuda_build) {
      out += " (CUDA build";
      if (fw.cuda_version) out += " " + fw.cuda_version->str();
      if (fw.cudnn_version) out += ", cuDNN " + fw.cudnn_version->str();
      out += ")";
    } else {
      out += " (CPU-only build)";
    }
  }
  if (!fw.reached_via.empty()) out += " from " + fw.reached_via;
  return out;
}

/// Puts back exactly the files of the installed version and nothing else: unpinned, pip moves to
/// the newest release, and --force-reinstall without --no-deps also moves every dependency.
/// PyTorch's own index serves its local-tagged builds (2.4.0+cu121; pytorch.org "Previous versions").
std::string pinned_reinstall(const PythonEnvFacts& env, const FrameworkFacts& fw) {
  const std::string name = fw.package.empty() ? fw.name : fw.package;
  const std::string pip = env_pip(env);
  if (fw.version.parts().empty()) return "`" + pip + " install --force-reinstall --no-deps " + name + "`";
  std::string cmd = "`" + pip + " install --force-reinstall --no-deps \"" + name + "==" + fw.version.str() + "\"";
  const std::string& local = fw.version.local();
  if (fw.name == "torch" && (local.starts_with("cu") || local == "cpu" || local.starts_with("rocm"))) {
    cmd += " --index-url https://download.pytorch.org/whl/" + local;
  }
  return cmd + "`";
}

/// Faults of how a framework is installed that its files show: the package folder gone beside its
/// dist-info, a copy pip does not know, a PYTHONPATH copy hiding the environment's own.
void installation_findings(const PythonEnvFacts& env, const FrameworkFacts& fw, bool gpu, std::vector<Finding>& out) {
  const std::string name = fw.package.empty() ? fw.name : fw.package;
  if (!fw.missing_package.empty()) {
    out.push_back(Finding{
        .id = "framework-package-missing",
        .severity = Severity::error,
        .area = FindingArea::python,
        .title = name + " " + fw.version.str() + " in " + env.path + " is registered by pip but its package is missing",
        .detail = fw.location + " has its dist-info but no " + fw.missing_package + "/ folder: `import " +
                  fw.missing_package + "` fails (an interrupted uninstall or a copy that lost its files).",
        .fix = "Put the installed version's files back: " + pinned_reinstall(env, fw) + ".",
        .evidence = {installed_at(env, fw)}});
  }
  if (!fw.unregistered.empty()) {
    out.push_back(Finding{
        .id = "framework-unregistered",
        .severity = Severity::warning,
        .area = FindingArea::python,
        .title = framework_line(env, fw) + " in " + env.path + " is not known to pip",
        .detail = fw.location +
                  " holds its package folder but no dist-info or egg-info (a vendored or copied "
                  "package, or metadata deleted by hand): `import` takes it (read from " +
                  fw.unregistered +
                  "), but `pip list`, `pip check` and `pip uninstall` do not see it, and an install over it mixes "
                  "two copies' files.",
        .fix = "Reinstall it through pip so that pip records it: " + pinned_reinstall(env, fw) + ".",
        .evidence = {installed_at(env, fw), fw.unregistered}});
  }
  const bool user_site = fw.reached_via == "user site";
  if (fw.reached_via != "PYTHONPATH" && !user_site) return;
  for (const FrameworkFacts& own : env.shadowed) {
    if (own.name != fw.name) continue;
    const bool loses_gpu = own.cuda_build.value_or(false) && !fw.cuda_build.value_or(false);
    const std::string why =
        user_site ? fw.location +
                        " is the user site (`pip install --user`, or pip run by this user outside any environment), "
                        "which the site module puts before the installation's site-packages on sys.path"
                  : "PYTHONPATH names " + fw.location + ", and its entries come before site-packages on sys.path";
    // pip uninstall removes the first copy it finds, the user site's; a Debian or Ubuntu system
    // Python refuses pip without --break-system-packages (PEP 668, externally managed).
    const std::string fix =
        user_site ? "Remove the user-site copy as the user who installed it: `" + env_pip(env) + " uninstall " + name +
                        "` (it takes the user site's first; a Debian or Ubuntu system Python also wants "
                        "--break-system-packages), or run with `PYTHONNOUSERSITE=1` to leave the user site out."
                  : "Take " + fw.location +
                        " out of PYTHONPATH (or `unset PYTHONPATH`; a `module load` or a shell "
                        "profile may set it) before running this environment's Python.";
    out.push_back(
        Finding{.id = "framework-shadowed",
                .severity = gpu && loses_gpu ? Severity::error : Severity::warning,
                .area = FindingArea::python,
                .title = "`import` in " + env.path + " takes " + framework_line(env, fw) + " at " + fw.location +
                         ", not the environment's " + framework_line(env, own),
                .detail = why + ", so this copy hides the one in " + own.location + "." +
                          (loses_gpu ? " The copy that runs has no CUDA support: it silently runs on the CPU." : ""),
                .fix = fix,
                .evidence = {installed_at(env, fw), user_site ? "PYTHONNOUSERSITE unset" : "PYTHONPATH",
                             installed_at(env, own)}});
  }
}

/// The CUDA major of the nvidia-* wheels and CUDA frameworks already in `env`, when they agree:
/// the wheels of one major install into the same nvidia/ files as the other's (nvidia-cudnn-cu12
/// and nvidia-cudnn-cu13 both write nvidia/cudnn/lib/libcudnn*.so.9, their RECORD files), so a
/// JAX extra of the other major would overwrite the libraries torch or TensorFlow load.
std::optional<int> env_cuda_major(const PythonEnvFacts& env) {
  std::set<int> majors;
  for (const NvidiaWheel& w : env.nvidia_wheels)
    if (w.cuda_major) majors.insert(*w.cuda_major);
  for (const FrameworkFacts& fw : env.frameworks)
    if (fw.cuda_build == true && fw.cuda_version && !fw.cuda_version->parts().empty())
      majors.insert(fw.cuda_version->major());
  if (majors.size() != 1) return std::nullopt;
  return *majors.begin();
}

/// `pip install -U "jax[cudaN]<pin>"` for the CUDA major this environment already holds, else
/// the one the driver supports (annotated from the knowledge base), else both extras.
std::string jax_extra_advice(const PythonEnvFacts& env, const Facts& facts, const std::string& pin,
                             const std::string& pip) {
  auto command = [&](int major) { return fmt::format("`{} install -U \"jax[cuda{}]{}\"`", pip, major, pin); };
  if (auto major = env_cuda_major(env)) {
    return command(*major) + " (CUDA " + std::to_string(*major) +
           ", as the nvidia-* wheels already in this environment: the other major's wheels would be installed over "
           "the same nvidia/ files)";
  }
  if (const auto& cuda = facts.driver.cuda_driver_version; cuda && !cuda->parts().empty() && cuda->major() >= 12) {
    return command(cuda->major() >= 13 ? 13 : 12) + " (the driver supports CUDA " + cuda->str() + ")";
  }
  return command(12) + " (or `\"jax[cuda13]" + pin + "\"` with a driver that supports CUDA 13)";
}

/// `fresh`: for a new venv that replaces a distribution's package: its own pip, activated, and
/// nothing in it to uninstall; else the environment's pip (env_pip).
std::string cpu_only_fix(const PythonEnvFacts& env, const FrameworkFacts& fw, const Facts& facts, bool fresh) {
  const std::string pip = fresh ? "pip" : env_pip(env);
  const std::string uninstall =
      fresh ? "" : pip + " uninstall -y " + (fw.package.empty() ? fw.name : fw.package) + " && ";
  if (fw.name == "torch") {
    // The wheel index (cu121, cu126, ...) depends on the driver and the GPU: the plan, which
    // reads the knowledge base, names it; a tag written here would go stale.
    return "Reinstall PyTorch from a CUDA wheel index: `" + pip +
           " install --force-reinstall torch --index-url https://download.pytorch.org/whl/<tag>`, with the tag "
           "`gpudoctor plan --framework pytorch` names "
           "for this driver and GPU.";
  }
  if (fw.name == "tensorflow") {
    if (facts.platform == Platform::windows) {
      return "TensorFlow has no GPU build on native Windows after its last native-Windows GPU release: use WSL2 "
             "with `pip install \"tensorflow[and-cuda]\"`, or that release with its CUDA and cuDNN (`gpudoctor plan "
             "--os windows --framework tensorflow` names them).";
    }
    // Quoted: zsh reads an unquoted [and-cuda] as a glob ("no matches found"). Pinned to the
    // installed release, as the other fixes pin theirs.
    const std::string pin = fw.version.parts().empty() ? "" : "==" + fw.version.str();
    return "Install the GPU build: `" + uninstall + pip + " install \"tensorflow[and-cuda]" + pin + "\"`.";
  }
  if (fw.name == "onnxruntime") {
    // Both distributions install the one onnxruntime/ package: the GPU one must replace the other.
    return "If this environment should use the GPU: `" + uninstall + pip +
           " install onnxruntime-gpu` (both install the same onnxruntime package; keep only one).";
  }
  if (fw.name == "jaxlib" || fw.name == "jax")
    return "Install the CUDA plugin: " + jax_extra_advice(env, facts, "", pip) + ".";
  return "Install the framework's CUDA build.";
}

/// apt's Python packages (Debian, Ubuntu) live in /usr/lib/python3/dist-packages; pip's own go
/// to /usr/local. pip will not replace apt's: the system Python is externally managed (PEP 668).
bool from_distribution(const FrameworkFacts& fw) {
  return fw.location.starts_with("/usr/lib/python3/dist-packages");
}

std::string cpu_only_fix_in(const PythonEnvFacts& env, const FrameworkFacts& fw, const Facts& facts) {
  if (!from_distribution(fw)) return with_windows_which_pip(cpu_only_fix(env, fw, facts, false), env, facts);
  std::string fix = cpu_only_fix(env, fw, facts, true);
  if (!fix.empty()) fix[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(fix[0])));
  return "It is the distribution's package (in " + fw.location +
         "), and pip will not replace it: the system Python is externally managed (PEP 668; pip stops with "
         "\"externally-managed-environment\"). Make a virtual environment (`python3 -m venv ~/venvs/gpu && . "
         "~/venvs/gpu/bin/activate`) and, in it: " +
         fix;
}

/// Reinstalls JAX's parts at one release: the extra of the CUDA plugin installed (a cuda13
/// install told to take jax[cuda12] keeps its mismatched plugin and gains a second), at jax's
/// version.
std::string jax_reinstall(const PythonEnvFacts& env, const FrameworkFacts& jax, const Facts& facts) {
  const std::string extra = jax_plugin_extra(env, jax);
  const std::string pin = jax.version.parts().empty() ? "" : "==" + jax.version.str();
  if (extra.empty()) {
    return "Reinstall JAX with matching parts: " + jax_extra_advice(env, facts, pin, env_pip(env)) +
           ", which pins jaxlib and the CUDA plugin to one version.";
  }
  return "Reinstall JAX with matching parts: `" + env_pip(env) + " install -U \"jax[" + extra + "]" + pin +
         "\"`, which pins jaxlib and the " + extra + " plugin to jax's release.";
}

}  // namespace

std::vector<Finding> python_findings(const Facts& facts) {
  std::vector<Finding> out;
  const bool gpu = has_nvidia_gpu(facts);
  if (facts.python_envs.empty()) {
    out.push_back(Finding{.id = "no-python",
                          .severity = Severity::info,
                          .area = FindingArea::python,
                          .title = "No Python environment found",
                          .detail = "Searched --env/--python, ./.venv, ./venv, VIRTUAL_ENV, CONDA_PREFIX, PATH, conda "
                                    "and pyenv installations, ~/.virtualenvs, project venvs under home, system "
                                    "Pythons and the environment.yml's conda env (docs/cli.md lists every place).",
                          .fix = "Point at the environment: `gpudoctor --env DIR` or `gpudoctor --python PATH`."});
  }
  // Environments without any framework are said in one line (listed in its detail): a machine
  // with ten pyenv versions should not bury the one that matters.
  std::vector<std::string> plain;
  for (const auto& env : facts.python_envs) {
    std::string where = env.path + " (" + env.kind +
                        (env.python_version ? ", Python " + env.python_version->str() : std::string()) + ")";
    if (env.frameworks.empty()) plain.push_back(where);
  }
  if (!plain.empty()) {
    out.push_back(Finding{.id = "python-envs-without-framework",
                          .severity = Severity::ok,
                          .area = FindingArea::python,
                          .title = plain.size() == 1
                                       ? plain.front() + ": no GPU framework"
                                       : std::to_string(plain.size()) + " environments without a GPU framework",
                          .detail = plain.size() == 1 ? "" : join(plain, "\n")});
  }
  for (const auto& env : facts.python_envs) {
    std::vector<std::string> names;
    for (const auto& fw : env.frameworks) names.push_back(framework_line(env, fw));
    std::string title = env.path + " (" + env.kind +
                        (env.python_version ? ", Python " + env.python_version->str() : std::string()) + ")";
    if (!env.interpreter_problem.empty()) {
      const std::string mm = env.python_version ? std::to_string(env.python_version->major()) + "." +
                                                      std::to_string(env.python_version->minor())
                                                : std::string("3");
      // A --root tree is often a partial copy (a home folder without /usr): where the base Python's
      // folder is not in it either, the link may point at what was simply not copied.
      const bool certain = !env.interpreter_base_unseen;
      out.push_back(Finding{
          .id = "python-interpreter-missing",
          .severity = certain ? Severity::error : Severity::warning,
          .area = FindingArea::python,
          .title = certain ? "The interpreter of " + env.path + " is gone: nothing in this environment can run"
                           : "The interpreter of " + env.path + " is not in this tree",
          .detail =
              env.interpreter_problem +
              (certain ? std::string(" (its base Python was removed, upgraded or moved). Its packages are still on "
                                     "disk, but no `python` or `pip` of it starts, so no fix that runs pip can be "
                                     "run in it either.")
                       : std::string(" in this tree: on the machine it comes from, its base Python was removed, "
                                     "upgraded or moved (nothing in the environment can run), unless the tree is "
                                     "a partial copy that left the base Python out.")),
          .fix = "First note its packages, which `--clear` deletes (their *.dist-info folders: `ls " +
                 (env.site_packages.empty() ? env.path + "/lib/python*/site-packages" : env.site_packages.front()) +
                 "`), then recreate it with an installed Python, `python" + mm + " -m venv --clear " + env.path +
                 "`, and reinstall them.",
          .evidence = {env.path}});
    }
    if (names.empty()) continue;
    title += ": " + join(names, ", ");
    // The prefix first: it is what other verdicts about this environment name (see run_checks).
    std::vector<std::string> evidence{env.path};
    evidence.insert(evidence.end(), env.found_via.begin(), env.found_via.end());
    out.push_back(Finding{.id = "python-env",
                          .severity = Severity::ok,
                          .area = FindingArea::python,
                          .title = title,
                          .evidence = evidence});
    for (const auto& fw : env.frameworks) {
      installation_findings(env, fw, gpu, out);
      // A package gone is said above; its unreadable files and build are consequences of it.
      if (!fw.missing_package.empty()) continue;
      if (!fw.problems.empty()) {
        out.push_back(Finding{.id = "framework-metadata-unreadable",
                              .severity = Severity::warning,
                              .area = FindingArea::python,
                              .title = fw.name + " in " + env.path + ": metadata could not be read",
                              .detail = join(fw.problems, "\n"),
                              .fix = "Reinstall the package (`" + env_pip(env) + " install --force-reinstall " +
                                     (fw.package.empty() ? fw.name : fw.package) + "`).",
                              .evidence = {fw.evidence}});
      }
      if (!fw.conflicts.empty()) {
        out.push_back(Finding{
            .id = "framework-install-conflict",
            .severity = Severity::error,
            .area = FindingArea::python,
            .title = (fw.package.empty() ? fw.name : fw.package) + " in " + env.path + " is installed inconsistently",
            .detail = join(fw.conflicts, "\n"),
            .fix = fw.name == "jax" ? jax_reinstall(env, fw, facts)
                   : !fw.sharing.empty()
                       // Each RECORD lists the shared files: uninstalling one leaves the other's half.
                       ? "Uninstall all of them: `" + env_pip(env) + " uninstall -y " + join(fw.sharing, " ") +
                             "`, then install the one you want."
                       : "Uninstall every copy and install one: `" + env_pip(env) + " uninstall -y " +
                             (fw.package.empty() ? fw.name : fw.package) +
                             "` (repeat until none is left), then "
                             "install it once.",
            .evidence = {installed_at(env, fw), fw.evidence}});
      }
      bool cpu_only = fw.cuda_build.has_value() && !*fw.cuda_build;
      // JAX is judged on its `jax` entry (which knows about the plugins); keras on its backend.
      if (fw.name == "jaxlib" || fw.name == "keras" || fw.name == "jax-cuda-plugin" || fw.name == "jax-cuda-pjrt")
        cpu_only = false;
      // A CPU-only copy on PYTHONPATH hiding the environment's CUDA build is said as that (framework-shadowed).
      const bool hides_cuda = std::any_of(env.shadowed.begin(), env.shadowed.end(), [&](const FrameworkFacts& own) {
        return own.name == fw.name && own.cuda_build.value_or(false);
      });
      if (!fw.reached_via.empty() && hides_cuda) cpu_only = false;
      // A JAX whose plugin it refuses: the install-conflict finding says why, with the fix.
      if (fw.name == "jax" && !fw.conflicts.empty() && !jax_plugin_extra(env, fw).empty()) cpu_only = false;
      if (!cpu_only) continue;
      // The CPU onnxruntime is often what a package depends on for CPU inference (only
      // onnxruntime-gpu has the CUDA provider): worth saying, not an error.
      const Severity on_gpu = fw.name == "onnxruntime" ? Severity::warning : Severity::error;
      out.push_back(Finding{
          .id = "framework-cpu-only",
          .severity = gpu ? on_gpu : Severity::info,
          .area = FindingArea::python,
          .title = framework_line(env, fw) + " in " + env.path + " cannot use a GPU",
          .detail = gpu ? "This machine has an NVIDIA GPU, but this build has no CUDA support: it will silently "
                          "run on the CPU."
                        : "A CPU-only build; fine on a machine without a GPU.",
          .fix = gpu ? cpu_only_fix_in(env, fw, facts) : "",
          // Location and package first: a more specific compatibility finding about the same
          // framework carries the same two (see run_checks).
          .evidence = {installed_at(env, fw), "package " + (fw.package.empty() ? fw.name : fw.package), fw.evidence}});
    }
  }
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& p : facts.problems) {
    if (!seen.emplace(p.path, p.message).second) continue;  // one env reached by several routes
    out.push_back(
        Finding{.id = "probe-problem",
                .severity = Severity::warning,
                .area = FindingArea::system,
                .title = p.path.empty() || contains(p.message, p.path) ? p.message : p.path + ": " + p.message,
                .fix = "gpudoctor carried on without it; if it matters, repair or remove what points there.",
                .evidence = {p.path}});
  }
  return out;
}

}  // namespace gpudoctor
