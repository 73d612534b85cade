#pragma once
/// The plugins `import tensorflow` loads: every shared object in a `tensorflow-plugins` folder of
/// each site-packages its __init__.py collects (tensorflow-directml-plugin,
/// intel-extension-for-tensorflow, a library copied there by hand), who installed each, and the
/// TensorFlow that installer names. Nothing is loaded.
#include <string>
#include <vector>

#include "model/facts.hpp"
#include "platform/system_view.hpp"
#include "probe/elf_sections.hpp"

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

/// The most elf_load_problem reads of one file, however hostile: its 64-byte header, 256 ELF64
/// program headers, 64 KiB of its PT_DYNAMIC.
inline constexpr std::size_t kMaxElfLoadBytes = 64 + 256 * 56 + 64 * 1024;

/// Why glibc's dlopen would refuse the file `read` gives, as the import reports it ("an empty
/// file: dlopen says \"file too short\""...): not ELF, 32-bit, big-endian, not a shared object,
/// another architecture than `arch` (the machine's, "x86_64"; empty: unknown), a
/// position-independent executable (DT_FLAGS_1 has DF_1_PIE in its PT_DYNAMIC). Empty when it
/// looks loadable.
std::string elf_load_problem(const ReadRange& read, std::string_view arch);

/// Adds to env.tf_plugins what TF_PLUGGABLE_DEVICE_LIBRARY_PATH names and the shared objects of
/// each folder's tensorflow-plugins (at most 64 a folder), with the distribution whose RECORD
/// lists each and the TensorFlow that distribution's METADATA (or that of the distribution
/// requiring it) names. `arch` is the machine's ("x86_64", "aarch64"; empty: unknown), for a
/// library built for another. Folders without plugins cost one listing; an unreadable one goes
/// to `problems`.
void scan_tf_plugins(const SystemView& system, const std::vector<PluginFolder>& folders, const std::string& arch,
                     PythonEnvFacts& env, std::vector<ProbeProblem>& problems);

}  // namespace gpudoctor
