#include "probe/python/tf_plugins.hpp"

#include <algorithm>
#include <map>

#include "core/text.hpp"
#include "probe/elf_sections.hpp"
#include "probe/python/dist_info.hpp"
#include "probe/python/site_packages.hpp"

namespace gpudoctor {
namespace {

constexpr std::size_t kMaxPlugins = 64;
/// dist-info directories read for ownership in one site-packages; beyond that, plugins stay unowned.
constexpr std::size_t kMaxDists = 2000;
constexpr std::size_t kRecordLimit = 4 * 1024 * 1024;
constexpr std::size_t kMetadataLimit = 256 * 1024;

/// Why the loader would refuse the file, from its first bytes (the messages are glibc's and
/// Windows'); empty when it looks like a loadable library.
std::string load_problem(const SystemView& system, const std::string& path, bool windows) {
  auto head = system.read_head(path, 64);
  if (!head) return "cannot be read: " + error_text(head.error());
  const std::string& h = *head;
  if (windows) {
    if (h.size() < 2 || h[0] != 'M' || h[1] != 'Z') return "not a DLL (no MZ header): LoadLibrary refuses it";
    return {};
  }
  if (h.empty()) return "an empty file: dlopen says \"file too short\"";
  if (h.size() < 4 || h.compare(0, 4,
                                "\x7f"
                                "ELF") != 0)
    return "not an ELF file: dlopen says \"invalid ELF header\"";
  if (h.size() < 20) return "a truncated ELF header: dlopen says \"file too short\"";
  if (h[4] != 2) return "a 32-bit ELF file: dlopen says \"wrong ELF class: ELFCLASS32\"";
  if (h[5] != 1) return "a big-endian ELF file: dlopen refuses it";
  const std::uint64_t type = elf_le(h, 16, 2);
  if (type != 3)
    return "an ELF file that is not a shared library (type " + std::to_string(type) + "): dlopen refuses it";
  return {};
}

/// A RECORD line installing tensorflow-plugins/<name>: "tensorflow-plugins/libx.so,sha256=...,123".
bool record_lists(std::string_view record, std::string_view name) {
  for (std::string_view line : lines(record)) {
    for (std::string_view folder : {"tensorflow-plugins/", "tensorflow-plugins\\"}) {
      if (line.starts_with(folder) && line.substr(folder.size()).starts_with(name) &&
          line.substr(folder.size() + name.size()).starts_with(",")) {
        return true;
      }
    }
  }
  return false;
}

struct DistInfo {
  std::string name;  ///< normalised
  std::string version;
  std::string path;  ///< the .dist-info directory
};

/// Its requirements on TensorFlow distributions, and whether it requires `owner` (any marker:
/// intel-extension-for-tensorflow pins its -lib in an extra).
struct Requirements {
  std::vector<DistRequirement> tensorflow;
  bool requires_owner = false;
};

Requirements read_requirements(const SystemView& system, const DistInfo& d, std::string_view owner) {
  Requirements out;
  auto text = system.read_file(system.join(d.path, "METADATA"), kMetadataLimit);
  if (!text) return out;
  for (const std::string& value : parse_dist_metadata(*text).requires_dist) {
    auto req = parse_requirement(value);
    if (!req) continue;
    if (is_tensorflow_dist(req->name)) out.tensorflow.push_back(*req);
    if (!owner.empty() && req->name == owner) out.requires_owner = true;
  }
  return out;
}

/// Distributions whose RECORD is large and never lists a TensorFlow plugin.
bool never_a_plugin(const std::string& name) {
  return is_tensorflow_dist(name) || name == "torch" || name == "jaxlib" || name.starts_with("nvidia-");
}

/// The names load_library takes in a folder, sorted; "x.so." passes its test too and then crashes
/// it (IndexError), so the import fails all the same.
std::vector<std::string> plugin_names(const std::vector<DirEntry>& entries, bool windows) {
  std::vector<std::string> names;
  for (const DirEntry& e : entries) {
    if (!e.is_dir && (is_tf_plugin_name(e.name, windows) || (!windows && e.name.ends_with(".so.")))) {
      names.push_back(e.name);
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string name_problem(const SystemView& system, const std::string& dir, const std::string& name) {
  if (name.ends_with(".so.")) {
    return "named \"*.so.\": TensorFlow's load_library reads the character after \".so.\", and raises IndexError";
  }
  return load_problem(system, system.join(dir, name), system.is_windows());
}

void scan_folder(const SystemView& system, const PluginFolder& folder, PythonEnvFacts& env,
                 std::vector<ProbeProblem>& problems) {
  const bool windows = system.is_windows();
  const std::string dir = system.join(folder.site_packages, "tensorflow-plugins");
  auto entries = system.list_dir(dir);
  if (!entries) {
    if (entries.error().kind != ErrorKind::not_found) {
      problems.push_back({"python", dir, "cannot list TensorFlow's plugin folder: " + error_text(entries.error())});
    }
    return;
  }
  const std::vector<std::string> names = plugin_names(*entries, windows);
  if (names.empty()) return;

  // Who installed each: the dist-info whose RECORD lists it.
  std::vector<DistInfo> dists;
  if (auto site = system.list_dir(folder.site_packages)) {
    for (const DirEntry& e : *site) {
      auto d = parse_dist_dir_name(e.name);
      if (!e.is_dir || !d || d->kind != "dist-info") continue;
      dists.push_back({d->name, d->version, system.join(folder.site_packages, e.name)});
    }
  }
  std::sort(dists.begin(), dists.end(), [](const DistInfo& a, const DistInfo& b) { return a.path < b.path; });
  if (dists.size() > kMaxDists) dists.resize(kMaxDists);
  std::map<std::string, const DistInfo*> owner_of;
  for (const DistInfo& d : dists) {
    if (owner_of.size() == names.size()) break;
    if (never_a_plugin(d.name)) continue;
    auto record = system.read_file(system.join(d.path, "RECORD"), kRecordLimit);
    if (!record) continue;
    for (const std::string& name : names) {
      if (!owner_of.contains(name) && record_lists(*record, name)) owner_of[name] = &d;
    }
  }

  std::map<std::string, std::pair<std::vector<DistRequirement>, std::string>> built_for;  ///< owner -> reqs, source
  for (const std::string& name : names) {
    if (env.tf_plugins.size() >= kMaxPlugins) return;
    TfPlugin plugin;
    plugin.path = system.join(dir, name);
    plugin.site_packages = folder.site_packages;
    plugin.reached_via = folder.reached_via;
    plugin.problem = name_problem(system, dir, name);
    if (auto it = owner_of.find(name); it != owner_of.end()) {
      const DistInfo& owner = *it->second;
      plugin.owner = owner.name;
      plugin.owner_version = owner.version;
      auto known = built_for.find(owner.name);
      if (known == built_for.end()) {
        std::pair<std::vector<DistRequirement>, std::string> found;
        Requirements own = read_requirements(system, owner, {});
        if (!own.tensorflow.empty()) {
          found = {own.tensorflow, system.join(owner.path, "METADATA")};
        } else {
          // A library-only wheel (intel-extension-for-tensorflow-lib): the distribution that
          // requires it names the TensorFlow.
          for (const DistInfo& d : dists) {
            if (d.name == owner.name || never_a_plugin(d.name)) continue;
            Requirements r = read_requirements(system, d, owner.name);
            if (r.requires_owner && !r.tensorflow.empty()) {
              found = {r.tensorflow, system.join(d.path, "METADATA")};
              break;
            }
          }
        }
        known = built_for.emplace(owner.name, std::move(found)).first;
      }
      plugin.requires_tensorflow = known->second.first;
      plugin.requirement_source = known->second.second;
    }
    env.tf_plugins.push_back(std::move(plugin));
  }
}

}  // namespace

bool is_tf_plugin_name(std::string_view name, bool windows) {
  if (windows) return name.ends_with(".dll");
  if (name.ends_with(".so")) return true;
  const std::size_t at = name.rfind(".so.");
  return at != std::string_view::npos && at + 4 < name.size() && name[at + 4] >= '0' && name[at + 4] <= '9';
}

void scan_tf_plugins(const SystemView& system, const std::vector<PluginFolder>& folders, PythonEnvFacts& env,
                     std::vector<ProbeProblem>& problems) {
  for (const PluginFolder& folder : folders) scan_folder(system, folder, env, problems);
  // TF_PLUGGABLE_DEVICE_LIBRARY_PATH: one more library, or a folder of them; a path that does
  // not exist fails the import with FileNotFoundError.
  const std::string named = system.env("TF_PLUGGABLE_DEVICE_LIBRARY_PATH").value_or("");
  if (named.empty()) return;
  const auto add = [&](std::string path, std::string problem) {
    if (env.tf_plugins.size() >= kMaxPlugins) return;
    TfPlugin p;
    p.path = std::move(path);
    p.reached_via = "TF_PLUGGABLE_DEVICE_LIBRARY_PATH";
    p.problem = std::move(problem);
    env.tf_plugins.push_back(std::move(p));
  };
  auto stat = system.stat(named);
  if (!stat) {
    add(named, stat.error().kind == ErrorKind::not_found
                   ? "a path that does not exist: the import raises FileNotFoundError (\"The file or folder to load "
                     "pluggable device libraries from does not exist.\")"
                   : "cannot be read: " + error_text(stat.error()));
    return;
  }
  if (!stat->is_dir) {
    add(named, load_problem(system, named, system.is_windows()));
    return;
  }
  auto entries = system.list_dir(named);
  if (!entries) {
    problems.push_back(
        {"python", named, "cannot list TF_PLUGGABLE_DEVICE_LIBRARY_PATH: " + error_text(entries.error())});
    return;
  }
  for (const std::string& name : plugin_names(*entries, system.is_windows())) {
    add(system.join(named, name), name_problem(system, named, name));
  }
}

}  // namespace gpudoctor
