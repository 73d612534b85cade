#include "probe/python/tf_plugins.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "core/text.hpp"
#include "probe/elf_sections.hpp"
#include "probe/python/dist_info.hpp"
#include "probe/python/site_packages.hpp"

namespace gpudoctor {
namespace {

constexpr std::size_t kMaxPlugins = 64;  ///< a folder's
constexpr std::size_t kMaxPluginsInAll = 256;
/// dist-info directories read for ownership in one site-packages; beyond that, plugins stay unowned.
constexpr std::size_t kMaxDists = 2000;
constexpr std::size_t kRecordLimit = 4 * 1024 * 1024;
constexpr std::size_t kMetadataLimit = 256 * 1024;
/// All the RECORD and METADATA bytes read for one folder's owners: thousands of huge RECORDs in a
/// hostile tree cost no more than this.
constexpr std::size_t kReadBudget = 64 * 1024 * 1024;

/// A file's first bytes within what is left of the budget; nullopt when unreadable or the
/// budget is spent. `whole` turns false when the file was cut short or not read for the budget.
std::optional<std::string> read_within(const SystemView& system, const std::string& path, std::size_t limit,
                                       std::size_t& budget, bool& whole) {
  if (budget == 0) {
    whole = false;
    return std::nullopt;
  }
  const std::size_t cap = std::min(limit, budget);
  auto text = system.read_file(path, cap);
  if (!text) return std::nullopt;
  budget -= std::min(budget, text->size());
  if (text->size() >= cap) whole = false;
  return std::move(*text);
}

/// ELF e_machine of an architecture name from the OS probe ("x86_64", "aarch64"); 0 when unknown.
unsigned elf_machine_of(std::string_view arch) {
  if (arch == "x86_64") return 62;
  if (arch == "aarch64") return 183;
  return 0;
}

/// Whether an ELF shared object is a position-independent executable (DT_FLAGS_1 has DF_1_PIE),
/// which glibc's dlopen refuses; read from its PT_DYNAMIC segment, at most 64 KiB of it.
bool is_pie(const ReadRange& read, std::string_view h) {
  const std::uint64_t phoff = elf_le(h, 32, 8);
  const std::uint64_t phentsize = elf_le(h, 54, 2);
  const std::uint64_t phnum = std::min<std::uint64_t>(elf_le(h, 56, 2), 256);
  if (phentsize != 56 || phnum == 0) return false;  // ELF64's program header size: a hostile file reads no more
  auto phdrs = read(phoff, static_cast<std::size_t>(phentsize * phnum));
  if (!phdrs) return false;
  for (std::uint64_t i = 0; i + 1 <= phnum && (i + 1) * phentsize <= phdrs->size(); ++i) {
    const std::size_t at = static_cast<std::size_t>(i * phentsize);
    if (elf_le(*phdrs, at, 4) != 2) continue;  // PT_DYNAMIC
    const std::uint64_t offset = elf_le(*phdrs, at + 8, 8);
    const std::uint64_t size = std::min<std::uint64_t>(elf_le(*phdrs, at + 32, 8), 64 * 1024);
    auto dynamic = read(offset, static_cast<std::size_t>(size));
    if (!dynamic) return false;
    for (std::size_t d = 0; d + 16 <= dynamic->size(); d += 16) {
      const std::uint64_t tag = elf_le(*dynamic, d, 8);
      if (tag == 0) break;                                                            // DT_NULL
      if (tag == 0x6ffffffb) return (elf_le(*dynamic, d + 8, 8) & 0x08000000U) != 0;  // DT_FLAGS_1, DF_1_PIE
    }
    return false;
  }
  return false;
}

/// Why the loader would refuse the file (the messages are glibc's and Windows', as the import
/// reports them); empty when it looks like a loadable library.
std::string load_problem(const SystemView& system, const std::string& path, bool windows, std::string_view arch) {
  auto stat = system.stat(path);
  if (stat && stat->is_dir) return "a folder: dlopen says \"cannot read file data: Is a directory\"";
  if (windows) {
    auto head = system.read_head(path, 2);
    if (!head) return "a file that cannot be read (" + error_text(head.error()) + ")";
    if (head->size() < 2 || (*head)[0] != 'M' || (*head)[1] != 'Z') {
      return "not a DLL (no MZ header): LoadLibrary refuses it";
    }
    return {};
  }
  return elf_load_problem(
      [&](std::uint64_t offset, std::size_t length) { return system.read_range(path, offset, length); }, arch);
}

/// The files a RECORD installs in tensorflow-plugins/ (their names, without the folder):
/// "tensorflow-plugins/libx.so,sha256=...,123" gives "libx.so".
std::set<std::string, std::less<>> plugins_in_record(std::string_view record) {
  std::set<std::string, std::less<>> out;
  for (std::string_view line : lines(record)) {
    for (std::string_view folder : {"tensorflow-plugins/", "tensorflow-plugins\\"}) {
      if (!line.starts_with(folder)) continue;
      std::string_view rest = line.substr(folder.size());
      out.emplace(rest.substr(0, rest.find(',')));
    }
  }
  return out;
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

Requirements read_requirements(const SystemView& system, const DistInfo& d, std::string_view owner,
                               std::size_t& budget) {
  Requirements out;
  bool whole = true;  // a METADATA cut short still has its requirements near the top
  auto text = read_within(system, system.join(d.path, "METADATA"), kMetadataLimit, budget, whole);
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

/// The names load_library takes in a folder, sorted, at most kMaxPlugins: its os.listdir keeps
/// folders too, and "x.so." passes its test and then crashes it (IndexError).
std::vector<std::string> plugin_names(const std::vector<DirEntry>& entries, bool windows) {
  std::vector<std::string> names;
  for (const DirEntry& e : entries) {
    if (is_tf_plugin_name(e.name, windows) || (!windows && e.name.ends_with(".so."))) names.push_back(e.name);
  }
  std::sort(names.begin(), names.end());
  if (names.size() > kMaxPlugins) names.resize(kMaxPlugins);
  return names;
}

/// What the loader (or TensorFlow's own name test) would say about one plugin.
class Loadability {
 public:
  Loadability(const SystemView& system, std::string arch) : system_(system), arch_(std::move(arch)) {}

  [[nodiscard]] std::string of(const std::string& dir, const std::string& name) const {
    if (name.ends_with(".so.")) {
      return "named \"*.so.\": TensorFlow's load_library reads the character after \".so.\", and raises IndexError";
    }
    return of_path(system_.join(dir, name));
  }
  [[nodiscard]] std::string of_path(const std::string& path) const {
    return load_problem(system_, path, system_.is_windows(), arch_);
  }

 private:
  const SystemView& system_;
  std::string arch_;
};

void scan_folder(const SystemView& system, const PluginFolder& folder, const Loadability& loadability,
                 PythonEnvFacts& env, std::vector<ProbeProblem>& problems) {
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

  // Who installed each: the dist-info whose RECORD lists it, each RECORD read once.
  std::vector<DistInfo> dists;
  if (auto site = system.list_dir(folder.site_packages)) {
    for (const DirEntry& e : *site) {
      auto d = parse_dist_dir_name(e.name);
      if (!e.is_dir || !d || d->kind != "dist-info") continue;
      dists.push_back({d->name, d->version, system.join(folder.site_packages, e.name)});
    }
  }
  std::sort(dists.begin(), dists.end(), [](const DistInfo& a, const DistInfo& b) { return a.path < b.path; });
  // Whether every RECORD was read whole: otherwise a plugin no RECORD named may still have an owner.
  bool all_read = dists.size() <= kMaxDists;
  if (!all_read) dists.resize(kMaxDists);
  std::size_t budget = kReadBudget;
  std::map<std::string, const DistInfo*, std::less<>> owner_of;
  for (const DistInfo& d : dists) {
    if (owner_of.size() == names.size()) break;
    if (never_a_plugin(d.name)) continue;
    auto record = read_within(system, system.join(d.path, "RECORD"), kRecordLimit, budget, all_read);
    if (!record) continue;
    for (const std::string& listed : plugins_in_record(*record)) owner_of.emplace(listed, &d);
  }

  std::map<std::string, std::pair<std::vector<DistRequirement>, std::string>> built_for;  ///< owner -> reqs, source
  for (const std::string& name : names) {
    if (env.tf_plugins.size() >= kMaxPluginsInAll) return;
    TfPlugin plugin;
    plugin.path = system.join(dir, name);
    plugin.site_packages = folder.site_packages;
    plugin.reached_via = folder.reached_via;
    plugin.problem = loadability.of(dir, name);
    plugin.owner_known = all_read || owner_of.contains(name);
    if (auto it = owner_of.find(name); it != owner_of.end()) {
      const DistInfo& owner = *it->second;
      plugin.owner = owner.name;
      plugin.owner_version = owner.version;
      auto known = built_for.find(owner.name);
      if (known == built_for.end()) {
        std::pair<std::vector<DistRequirement>, std::string> found;
        Requirements own = read_requirements(system, owner, {}, budget);
        if (!own.tensorflow.empty()) {
          found = {own.tensorflow, system.join(owner.path, "METADATA")};
        } else {
          // A library-only wheel (intel-extension-for-tensorflow-lib): the distribution that
          // requires it names the TensorFlow.
          for (const DistInfo& d : dists) {
            if (d.name == owner.name || never_a_plugin(d.name)) continue;
            Requirements r = read_requirements(system, d, owner.name, budget);
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

/// TF_PLUGGABLE_DEVICE_LIBRARY_PATH: one more library, or a folder of them; a path that does not
/// exist fails the import with FileNotFoundError.
void scan_device_variable(const SystemView& system, const Loadability& loadability, PythonEnvFacts& env,
                          std::vector<ProbeProblem>& problems) {
  const std::string named = system.env("TF_PLUGGABLE_DEVICE_LIBRARY_PATH").value_or("");
  if (named.empty()) return;
  const auto add = [&](std::string path, std::string problem) {
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
                   : "a path that cannot be read (" + error_text(stat.error()) + ")");
    return;
  }
  if (!stat->is_dir) {
    add(named, loadability.of_path(named));
    return;
  }
  auto entries = system.list_dir(named);
  if (!entries) {
    problems.push_back(
        {"python", named, "cannot list TF_PLUGGABLE_DEVICE_LIBRARY_PATH: " + error_text(entries.error())});
    return;
  }
  for (const std::string& name : plugin_names(*entries, system.is_windows())) {
    add(system.join(named, name), loadability.of(named, name));
  }
}

}  // namespace

std::string elf_load_problem(const ReadRange& read, std::string_view arch) {
  auto head = read(0, 64);
  if (!head) return "a file that cannot be read (" + error_text(head.error()) + ")";
  const std::string& h = *head;
  if (h.empty()) return "an empty file: dlopen says \"file too short\"";
  if (h.size() < 4 || h.compare(0, 4,
                                std::string_view("\x7f"
                                                 "ELF",
                                                 4)) != 0) {
    return "not an ELF file: dlopen says \"invalid ELF header\"";
  }
  if (h.size() < 64) return "a truncated ELF header: dlopen says \"file too short\"";
  if (h[4] != 2) return "a 32-bit ELF file: dlopen says \"wrong ELF class: ELFCLASS32\"";
  if (h[5] != 1) return "a big-endian ELF file: dlopen refuses it";
  const std::uint64_t type = elf_le(h, 16, 2);
  if (type != 3) {
    return "an ELF file that is not a shared library (type " + std::to_string(type) + "): dlopen refuses it";
  }
  const unsigned want = elf_machine_of(arch);
  const std::uint64_t machine = elf_le(h, 18, 2);
  if (want != 0 && machine != want) {
    return "a library for another architecture (ELF machine " + std::to_string(machine) + ", this machine is " +
           std::string(arch) + "): dlopen says \"cannot open shared object file\"";
  }
  if (is_pie(read, h)) {
    return "an executable, not a library: dlopen says \"cannot dynamically load position-independent executable\"";
  }
  return {};
}

bool is_tf_plugin_name(std::string_view name, bool windows) {
  if (windows) return name.ends_with(".dll");
  if (name.ends_with(".so")) return true;
  const std::size_t at = name.rfind(".so.");
  return at != std::string_view::npos && at + 4 < name.size() && name[at + 4] >= '0' && name[at + 4] <= '9';
}

void scan_tf_plugins(const SystemView& system, const std::vector<PluginFolder>& folders, const std::string& arch,
                     PythonEnvFacts& env, std::vector<ProbeProblem>& problems) {
  const Loadability loadability(system, arch);
  // The variable's first: a path it names that is not there fails every import, and must not be
  // crowded out by the folders' kMaxPlugins.
  scan_device_variable(system, loadability, env, problems);
  for (const PluginFolder& folder : folders) scan_folder(system, folder, loadability, env, problems);
}

}  // namespace gpudoctor
