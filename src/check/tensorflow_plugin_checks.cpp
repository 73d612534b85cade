#include "check/tensorflow_plugin_checks.hpp"

#include <algorithm>

#include "check/compat_checks.hpp"
#include "check/requirement_checks.hpp"
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

/// TensorFlow 2.19 added every sysconfig scheme to the folders it reads plugins from.
const Version kSchemesFrom = Version::of({2, 19});

const char* const kDeviceVariable = "TF_PLUGGABLE_DEVICE_LIBRARY_PATH";

/// A folder of another Python's or of PYTHONPATH, not the environment's own.
bool outside_the_environment(const TfPlugin& p) {
  return p.reached_via == "user site" || p.reached_via == "user scheme" || p.reached_via == "PYTHONPATH";
}

/// Why this TensorFlow reads the plugin's folder, said once for every finding about it.
std::string reach_text(const TfPlugin& p, const FrameworkFacts& tf) {
  if (p.reached_via == "user scheme") {
    return " It sits in the user site (" + p.site_packages +
           "), which this Python does not put on sys.path, but "
           "TensorFlow " +
           tf.version.str() +
           " reads the tensorflow-plugins of every sysconfig scheme, posix_user "
           "included, so it loads it all the same.";
  }
  if (p.reached_via == "PYTHONPATH") {
    return " It sits in " + p.site_packages +
           ", on PYTHONPATH: TensorFlow reads the tensorflow-plugins of every sys.path entry with "
           "\"site-packages\" in its name.";
  }
  if (p.reached_via == kDeviceVariable) {
    return std::string(" TF_PLUGGABLE_DEVICE_LIBRARY_PATH names it, and TensorFlow's import loads what it names.");
  }
  if (p.reached_via == "user site") {
    return " It sits in the user site (" + p.site_packages +
           "), which this Python reads, so every TensorFlow of this Python version loads it.";
  }
  return {};
}

std::string owner_text(const TfPlugin& p) {
  return p.owner.empty() ? std::string("no installed distribution") : p.owner + " " + p.owner_version;
}

/// The command that takes the plugin away: the owner's uninstall, else removing the file.
std::string removal(const TfPlugin& p, const PythonEnvFacts& env) {
  if (p.reached_via == kDeviceVariable) {
    return "unset TF_PLUGGABLE_DEVICE_LIBRARY_PATH (Windows: set TF_PLUGGABLE_DEVICE_LIBRARY_PATH=), or point it at "
           "the plugin's library";
  }
  if (p.owner.empty()) return "remove " + p.path;
  if (outside_the_environment(p)) {
    return "pip uninstall " + p.owner + " with the Python whose user site holds it (python" +
           (env.python_version ? env.python_version->truncated(2).str() : std::string("3")) + " -m pip uninstall " +
           p.owner + ", outside any venv)";
  }
  return (env.interpreter.empty() ? std::string("pip") : env.interpreter + " -m pip") + " uninstall " + p.owner;
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
    // Before 2.19 only a Python that enables its user site reads it.
    if (p.reached_via == "user scheme" && tf.version < kSchemesFrom) return;
    std::vector<std::string> evidence = {p.path, "tensorflow " + tf.version.str() + " in " + installed_at(env, tf)};
    if (!p.owner.empty()) evidence.push_back("installed by " + owner_text(p));
    if (!p.problem.empty()) {
      out_.push_back(Finding{
          .id = "tensorflow-plugin-unloadable",
          .severity = Severity::error,
          .area = FindingArea::python,
          .title = "import tensorflow fails: it loads " + p.path + ", which is " + p.problem,
          .detail = "TensorFlow's import loads every shared object in each tensorflow-plugins folder it finds "
                    "(load_library), and a library the loader refuses stops the import." +
                    reach_text(p, tf) +
                    (p.reached_via == kDeviceVariable ? std::string() : " It belongs to " + owner_text(p) + "."),
          .fix = p.owner.empty() ? removal(p, env)
                                 : "reinstall " + p.owner + " (pip install --force-reinstall --no-deps \"" + p.owner +
                                       "==" + p.owner_version + "\"), or " + removal(p, env),
          .evidence = evidence,
          .source = kPluginLoadSource});
      return;
    }
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
                    reach_text(p, tf),
          .fix = "Install the TensorFlow it was built for (pip install \"" + unmet->name + unmet->specifier +
                 "\") or take the plugin away: " + removal(p, env) + ".",
          .evidence = evidence,
          .source = kPluginLoadSource + "; the requirement: " + p.requirement_source});
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
          .fix = "If this environment should not use it: " + removal(p, env) + ".",
          .evidence = evidence,
          .source = kPluginLoadSource});
      return;
    }
    if (p.owner.empty() && p.reached_via != kDeviceVariable) {
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
                  .source = kPluginLoadSource});
    }
  }

  /// The owner's requirement on a TensorFlow distribution that the installed TensorFlow does not
  /// meet; null when all are met or none applies here.
  const DistRequirement* unmet_requirement(const PythonEnvFacts& env, const FrameworkFacts& tf,
                                           const TfPlugin& p) const {
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
