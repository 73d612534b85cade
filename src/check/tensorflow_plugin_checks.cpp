#include "check/tensorflow_plugin_checks.hpp"

#include <algorithm>

#include "check/compat_checks.hpp"
#include "check/requirement_checks.hpp"
#include "check/which_pip.hpp"
#include "core/text.hpp"
#include "core/version.hpp"
#include "model/framework.hpp"

namespace gpudoctor {
namespace {

const std::string kPluginLoadSource =
    "[artefact] tensorflow-2.20.0-cp311 wheel (sha256 "
    "481499fd0f824583de8945be61d5e827898cdaa4f5ea1bc2cc28ca2ccff8229e) "
    "tensorflow/__init__.py: the tensorflow-plugins of site.USER_SITE where enabled, of sys.path's site-packages, "
    "of site.getsitepackages() and of every sysconfig scheme's purelib and platlib (posix_user included), "
    "2.19.0 (sha256 390747786ac979809fa1cfcf6916220ef0bfed6b9e1b8c643b6b09184a868fe4) and 2.21.0 alike; 2.16.1 to "
    "2.18.0 (sha256 70b8dd70fa3600bfce66ab529eebb804e1f9d7c863d2f71bc8fe9fc7a1ec3976) read "
    "distutils.sysconfig.get_python_lib() instead of the schemes; tensorflow/python/framework/load_library.py "
    "load_library: TF_LoadLibrary on every *.so and *.so.N of the folder (read 2026-12-05)";

/// TensorFlow 2.5 began to read site.USER_SITE only where it is enabled (before: always); 2.19
/// reads every sysconfig scheme's folder, the user ones included; 2.12 added
/// TF_PLUGGABLE_DEVICE_LIBRARY_PATH.
const Version kUserSiteGatedFrom = Version::of({2, 5});
const Version kSchemesFrom = Version::of({2, 19});
const Version kDeviceVariableFrom = Version::of({2, 12});

const std::string kBandsSource =
    "; [artefact] tensorflow/__init__.py of 2.4.0 (sha256 "
    "dcd8f2e501a791c937fa19b31ea963470fc20d30cb763c3cc4740dc3c44aefe9: "
    "site.USER_SITE always), 2.5.0 (sha256 1ea003f9e11508d0336c242a2a3bc73aea205dd5b31892c3e1d7f5d0f0e60c0a: only with "
    "site.ENABLE_USER_SITE) to 2.11.0 (sha256 335ab5cccd7a1c46e3d89d9d46913f0715e8032df8d7438f9743b3fb97b39f69: no "
    "TF_PLUGGABLE_DEVICE_LIBRARY_PATH), 2.12.0 (sha256 "
    "020d6a54cb26020bdc71a7bae8ee35be05096f63e773dc517f6e87c49de62c50: "
    "the variable read)";

const char* const kDeviceVariable = "TF_PLUGGABLE_DEVICE_LIBRARY_PATH";

/// A folder of another Python's, of the base Python a venv sees, or of PYTHONPATH.
bool outside_the_environment(const TfPlugin& p) {
  return p.reached_via != "site-packages" && p.reached_via != kDeviceVariable;
}

bool is_user_folder(const TfPlugin& p) {
  return p.reached_via == "user site" || p.reached_via == "user scheme" || p.reached_via == "other user scheme";
}

/// Whether this TensorFlow's import reads the plugin at all; false when its version is unknown
/// and that decides.
bool loaded_by(const TfPlugin& p, const Version& tf) {
  const bool known = !tf.parts().empty();
  if (p.reached_via == "user scheme") return known && (tf < kUserSiteGatedFrom || !(tf < kSchemesFrom));
  if (p.reached_via == "other user scheme") return known && !(tf < kSchemesFrom);
  if (p.reached_via == kDeviceVariable) return known && !(tf < kDeviceVariableFrom);
  return true;
}

/// Why this TensorFlow reads the plugin's folder, said once for every finding about it.
std::string reach_text(const TfPlugin& p, const FrameworkFacts& tf) {
  if (p.reached_via == "user scheme") {
    if (tf.version < kUserSiteGatedFrom) {
      return " It sits in the user site (" + p.site_packages + "), which this Python does not read, but TensorFlow " +
             tf.version.str() + " reads site.USER_SITE whether or not it is enabled (before 2.5), so it loads it.";
    }
    return " It sits in the user site (" + p.site_packages +
           "), which this Python does not put on sys.path, but "
           "TensorFlow " +
           tf.version.str() +
           " reads the tensorflow-plugins of every sysconfig scheme, posix_user "
           "included (from 2.19), so it loads it all the same, PYTHONNOUSERSITE or not.";
  }
  if (p.reached_via == "other user scheme") {
    return " It sits in " + p.site_packages +
           ", another user scheme's folder (osx_framework_user, nt_user), which "
           "TensorFlow " +
           tf.version.str() + " reads through sysconfig (from 2.19).";
  }
  if (p.reached_via == "user site") {
    return " It sits in the user site (" + p.site_packages + "), which this Python reads.";
  }
  if (p.reached_via == "system site-packages") {
    return " It sits in " + p.site_packages +
           ", the base Python's, which this venv sees (include-system-site-packages = true).";
  }
  if (p.reached_via == "PYTHONPATH") {
    return " It sits in " + p.site_packages +
           ", on PYTHONPATH: TensorFlow reads the tensorflow-plugins of every sys.path entry with "
           "\"site-packages\" in its name.";
  }
  if (p.reached_via == kDeviceVariable) {
    return std::string(" TF_PLUGGABLE_DEVICE_LIBRARY_PATH names it, and TensorFlow's import loads what it names.");
  }
  return {};
}

std::string owner_text(const TfPlugin& p) {
  if (!p.owner.empty()) return p.owner + " " + p.owner_version;
  return p.owner_known ? "no installed distribution"
                       : "a distribution not found (not every RECORD of " + p.site_packages + " could be read)";
}

/// pip run by the Python of another folder than the environment's: "python3.11 -m pip" (Windows:
/// "py -3.11 -m pip"), outside any venv.
std::string outer_pip(const PythonEnvFacts& env, bool windows) {
  const std::string mm = env.python_version ? env.python_version->truncated(2).str() : std::string("3");
  return windows ? "py -" + mm + " -m pip" : "python" + mm + " -m pip";
}

/// The command that takes the plugin away: the owner's uninstall where pip finds it, else the file.
std::string removal(const TfPlugin& p, const PythonEnvFacts& env, bool windows) {
  if (p.reached_via == kDeviceVariable) {
    return "unset TF_PLUGGABLE_DEVICE_LIBRARY_PATH (Windows: set TF_PLUGGABLE_DEVICE_LIBRARY_PATH=), or point it at "
           "the plugin's library";
  }
  if (p.reached_via == "PYTHONPATH") return "take " + p.site_packages + " off PYTHONPATH, or remove " + p.path;
  if (p.owner.empty() || p.reached_via == "other user scheme") return "remove " + p.path;
  if (p.reached_via == "user site" || p.reached_via == "user scheme") {
    return windows ? outer_pip(env, true) + " uninstall " + p.owner + ", outside any venv"
                   : "env -u PYTHONNOUSERSITE " + outer_pip(env, false) + " uninstall " + p.owner +
                         ", outside any venv (a Debian or Ubuntu system Python also wants --break-system-packages, "
                         "PEP 668)";
  }
  if (p.reached_via == "system site-packages") {
    return outer_pip(env, windows) + " uninstall " + p.owner +
           " with the base Python, outside the venv, or make the venv without --system-site-packages";
  }
  return env_pip(env) + " uninstall " + p.owner;
}

class PluginChecker {
 public:
  explicit PluginChecker(const Facts& facts) : facts_(facts) {}

  std::vector<Finding> run() {
    for (const PythonEnvFacts& env : facts_.python_envs) {
      const auto tf = std::find_if(env.frameworks.begin(), env.frameworks.end(),
                                   [](const FrameworkFacts& f) { return f.name == "tensorflow"; });
      if (tf == env.frameworks.end()) continue;
      const size_t first = out_.size();
      for (const TfPlugin& p : env.tf_plugins) judge(env, *tf, p);
      name_environment(out_, first, env);
    }
    return std::move(out_);
  }

 private:
  void judge(const PythonEnvFacts& env, const FrameworkFacts& tf, const TfPlugin& p) {
    if (!loaded_by(p, tf.version)) return;
    const bool windows = facts_.platform == Platform::windows;
    std::vector<std::string> evidence = {p.path, "tensorflow " + tf.version.str() + " in " + installed_at(env, tf)};
    if (!p.owner.empty()) evidence.push_back("installed by " + owner_text(p));
    const std::string source =
        kPluginLoadSource + (is_user_folder(p) || p.reached_via == kDeviceVariable ? kBandsSource : std::string());
    // Built for another TensorFlow: the first thing to say, whether or not the file loads.
    if (const DistRequirement* unmet = unmet_requirement(env, tf, p)) {
      out_.push_back(Finding{
          .id = "tensorflow-plugin-mismatch",
          .severity = Severity::error,
          .area = FindingArea::python,
          .title = p.owner + " " + p.owner_version + " is built for " + unmet->name + unmet->specifier +
                   ", but TensorFlow " + tf.version.str() + " loads its plugin",
          .detail = "TensorFlow's import loads every shared object in each tensorflow-plugins folder it finds; " +
                    p.path + " was built against the TensorFlow its METADATA names (" + p.requirement_source +
                    "), and a plugin is tied to one release's C++ ABI: with another, `import tensorflow` stops "
                    "with NotFoundError or the plugin's device does not register. Reproduced with "
                    "tensorflow-directml-plugin 0.4 (tensorflow-cpu==2.10.0): on 2.15.1 \"libtfdml_plugin.so: "
                    "undefined symbol: _ZN10tensorflow8internal15LogMessageFatalD1Ev\", on 2.20.0 "
                    "\"_pywrap_tensorflow_internal.so: cannot open shared object file\", which does not name the "
                    "plugin. `pip check` fails on it too." +
                    reach_text(p, tf) + (p.problem.empty() ? std::string() : " The file is also " + p.problem + "."),
          .fix = "Take the plugin away: " + removal(p, env, windows) +
                 ". Or use it where its TensorFlow is: a new environment with " + unmet->name + unmet->specifier +
                 (unmet->name == tf.package
                      ? " (installing that here would replace this environment's TensorFlow)."
                      : " (installing that here would put a second TensorFlow distribution over this one's files)."),
          .evidence = evidence,
          .source = source + "; the requirement: " + p.requirement_source});
      return;
    }
    if (!p.problem.empty()) {
      const bool reinstall = !p.owner.empty() && p.reached_via == "site-packages";
      out_.push_back(Finding{
          .id = "tensorflow-plugin-unloadable",
          .severity = Severity::error,
          .area = FindingArea::python,
          .title = "import tensorflow fails: it loads " + p.path + ", which is " + p.problem,
          .detail = "TensorFlow's import loads every shared object in each tensorflow-plugins folder it finds "
                    "(load_library), and a library the loader refuses stops the import." +
                    reach_text(p, tf) +
                    (p.reached_via == kDeviceVariable ? std::string() : " It belongs to " + owner_text(p) + "."),
          .fix = reinstall
                     ? "Reinstall " + p.owner + " (" + env_pip(env) + " install --force-reinstall --no-deps \"" +
                           p.owner + "==" + p.owner_version + "\"), or take it away: " + removal(p, env, windows) + "."
                     : "Take it away: " + removal(p, env, windows) + ".",
          .evidence = evidence,
          .source = source});
      return;
    }
    if (outside_the_environment(p) && env.kind != "system" && env.kind != "pyenv") {
      out_.push_back(Finding{
          .id = "tensorflow-plugin-outside-env",
          .severity = Severity::warning,
          .area = FindingArea::python,
          .title = "TensorFlow in " + env.path + " loads a plugin from outside it: " + p.path,
          .detail = "The environment does not isolate TensorFlow's plugins." + reach_text(p, tf) + " It belongs to " +
                    owner_text(p) +
                    "; a plugin built for another TensorFlow stops this environment's `import tensorflow`, and one "
                    "that loads registers its kernels and devices here.",
          .fix = "If this environment should not use it: " + removal(p, env, windows) + ".",
          .evidence = evidence,
          .source = source});
      return;
    }
    if (p.owner.empty() && p.owner_known && p.reached_via != kDeviceVariable) {
      out_.push_back(
          Finding{.id = "tensorflow-plugin-unowned",
                  .severity = Severity::warning,
                  .area = FindingArea::python,
                  .title = "TensorFlow loads " + p.path + ", which no installed distribution owns",
                  .detail = "No dist-info RECORD in " + p.site_packages +
                            " lists it: a leftover of an uninstalled plugin or a copy by hand, so nothing says which "
                            "TensorFlow it was built for, and one built for another stops `import tensorflow`." +
                            reach_text(p, tf),
                  .fix = "If you did not put it there: remove " + p.path + ".",
                  .evidence = evidence,
                  .source = source});
    }
  }

  /// The owner's requirement on a TensorFlow distribution that the installed TensorFlow does not
  /// meet; null when all are met or none applies here.
  const DistRequirement* unmet_requirement(const PythonEnvFacts& env, const FrameworkFacts& tf,
                                           const TfPlugin& p) const {
    if (tf.version.parts().empty()) return nullptr;  // an unreadable version meets nothing and fails nothing
    const MarkerEnvironment menv = marker_environment(facts_, env);
    for (const DistRequirement& req : p.requires_tensorflow) {
      if (req.specifier.empty() || evaluate_marker(req.marker, menv) != true) continue;
      auto spec = VersionSpec::parse(req.specifier);
      if (spec && !spec->contains(tf.version)) return &req;
    }
    return nullptr;
  }

  const Facts& facts_;
  std::vector<Finding> out_;
};

}  // namespace

std::vector<Finding> tensorflow_plugin_findings(const Facts& facts) {
  return PluginChecker(facts).run();
}

}  // namespace gpudoctor
