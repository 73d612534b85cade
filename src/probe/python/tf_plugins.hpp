#pragma once
/// The plugins `import tensorflow` loads: every shared object in a `tensorflow-plugins` folder of
/// each site-packages its __init__.py collects (tensorflow-directml-plugin,
/// intel-extension-for-tensorflow, a library copied there by hand), who installed each, and the
/// TensorFlow that installer names. Nothing is loaded.
#include <string>
#include <vector>

#include "model/facts.hpp"
#include "platform/system_view.hpp"

namespace gpudoctor {

/// A site-packages folder whose tensorflow-plugins TensorFlow's import reads, and how it gets
/// there (TfPlugin::reached_via).
struct PluginFolder {
  std::string site_packages;
  std::string reached_via;
};

/// Whether TensorFlow's load_library takes a file of that name for a shared object:
/// `*.so` and `*.so.<digit>...` on Linux, `*.dll` (as written) on Windows.
bool is_tf_plugin_name(std::string_view name, bool windows);

/// Adds to env.tf_plugins what TF_PLUGGABLE_DEVICE_LIBRARY_PATH names and the shared objects of
/// each folder's tensorflow-plugins (at most 64 a folder), with the distribution whose RECORD
/// lists each and the TensorFlow that distribution's METADATA (or that of the distribution
/// requiring it) names. `arch` is the machine's ("x86_64", "aarch64"; empty: unknown), for a
/// library built for another. Folders without plugins cost one listing; an unreadable one goes
/// to `problems`.
void scan_tf_plugins(const SystemView& system, const std::vector<PluginFolder>& folders, const std::string& arch,
                     PythonEnvFacts& env, std::vector<ProbeProblem>& problems);

}  // namespace gpudoctor
