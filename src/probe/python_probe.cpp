#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/text.hpp"
#include "probe/probes.hpp"
#include "probe/python/conda_meta.hpp"
#include "probe/python/pyvenv_cfg.hpp"
#include "probe/python/site_packages.hpp"
#include "probe/python/tf_plugins.hpp"

namespace gpudoctor {
namespace {

constexpr size_t kMaxEnvs = 64;
/// PATH entries looked at for interpreters: far more than any real PATH; past it, a finding.
constexpr size_t kMaxPathEntries = 1024;
constexpr int kHomeScanDepth = 3;
constexpr int kHomeScanListings = 200;
constexpr int kHomeScanEntries = 3000;  ///< subdirectories checked for a pyvenv.cfg, in all

/// Where conda installers put their base environment, relative to the home directory.
const char* const kCondaHomeDirs[] = {"miniconda3", "anaconda3", "miniforge3", "mambaforge",
                                      "micromamba", "miniconda", "anaconda"};
/// Folders under home that never hold a project environment but can be huge.
const char* const kHomeScanSkip[] = {"node_modules", "snap",          "go",         "Library",
                                     "AppData",      "site-packages", "__pycache__"};

/// "python3.11" -> "3.11"; "Python311" (a Windows install folder) -> "3.11".
std::optional<std::string> version_from_name(std::string_view name) {
  std::string n = to_lower(name);
  if (n.ends_with(".exe")) n.resize(n.size() - 4);
  if (!n.starts_with("python")) return std::nullopt;
  std::string rest = n.substr(6);
  if (rest.find('.') != std::string::npos) {
    if (Version::parse(rest) && Version::parse(rest)->parts().size() == 2) return rest;
    return std::nullopt;
  }
  if (rest.size() >= 2 && rest.size() <= 3 &&
      std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return rest.substr(0, 1) + "." + rest.substr(1);
  }
  return std::nullopt;
}

bool is_python_dir_name(std::string_view name) {
  auto v = version_from_name(name);
  return v && name.find('.') != std::string_view::npos;
}

/// "/mnt/c", "/mnt/d/Program Files": WSL's mounts of Windows drives.
bool is_windows_drive_mount(std::string_view dir) {
  return dir.size() >= 6 && dir.starts_with("/mnt/") && std::isalpha(static_cast<unsigned char>(dir[5])) &&
         (dir.size() == 6 || dir[6] == '/');
}

class PythonProbe {
 public:
  PythonProbe(const SystemView& system, const PythonSearch& search, Facts& facts)
      : system_(system), search_(search), facts_(facts), win_(system.is_windows()) {}

  void run() {
    home_ = system_.home();
    from_options();
    from_variable("VIRTUAL_ENV");
    from_variable("CONDA_PREFIX");
    from_path();
    from_conda_installs();
    from_pyenv();
    from_virtualenvs_dir();
    from_home_scan();
    from_system_dirs();
    for (const auto& [prefix, via] : search_.registered) add(prefix, via);
    if (win_) from_store_packages();
    from_environment_yml();  // after the conda installs: it names an env inside one of them
    for (auto& env : envs_) fill_env(env);
    if (budget_.exhausted) {
      facts_.problems.push_back({"python", "",
                                 "stopped scanning for Python environments after "
                                 "too many directories; the list may be incomplete"});
    }
    for (auto& env : envs_) {
      spdlog::debug("python: {} ({}) found via {}", env.path, env.kind, join_list(env.found_via));
      facts_.python_envs.push_back(std::move(env));
    }
  }

 private:
  std::string join(std::string_view a, std::string_view b) const { return system_.join(a, b); }
  std::string join(std::string_view a, std::string_view b, std::string_view c) const { return join(join(a, b), c); }

  void problem(const std::string& path, const std::string& message) {
    facts_.problems.push_back({"python", path, message});
  }

  /// Lists a directory within the budget; missing directories are silent, anything else
  /// (permission denied, a symlink loop) is a problem.
  std::vector<DirEntry> list(const std::string& dir) {
    if (!budget_.take()) return {};
    auto entries = system_.list_dir(dir);
    if (!entries) {
      if (entries.error().kind != ErrorKind::not_found) {
        problem(dir, "cannot list directory: " + error_text(entries.error()));
      }
      return {};
    }
    return std::move(*entries);
  }

  /// Adds (or merges) the environment at `prefix`. `version_hint` comes from an interpreter
  /// name; it separates several system Pythons sharing one prefix (/usr: 3.10 and 3.12).
  void add(const std::string& prefix, const std::string& via, const std::string& interpreter = {},
           std::optional<std::string> version_hint = std::nullopt, bool explicit_request = false,
           const std::string& hint_source = "executable") {
    if (prefix.empty()) return;
    auto canon = system_.canonical(prefix);
    if (!canon) {
      if (explicit_request || canon.error().kind != ErrorKind::not_found) {
        problem(prefix, via + " names " + prefix + ", which cannot be used: " + error_text(canon.error()));
      }
      return;
    }
    if (!system_.is_dir(*canon)) {
      if (explicit_request) problem(prefix, via + " names " + prefix + ", which is not a directory");
      return;
    }
    PythonEnvFacts env;
    env.path = *canon;
    classify(env);
    if (env.kind.empty()) {
      if (explicit_request) {
        problem(prefix, via + " names " + prefix +
                            ", which holds no Python environment "
                            "(no pyvenv.cfg, conda-meta or lib/python3.X)");
      }
      return;
    }
    std::string key = env.path;
    // Several system Pythons can share one Linux prefix (/usr: 3.10 and 3.12); a Windows
    // install folder or a pyenv version holds exactly one.
    if (env.kind == "system" && !win_) {
      if (!version_hint) version_hint = single_lib_version(env.path);
      if (version_hint) {
        auto v = Version::parse(*version_hint);
        key += "|" + (v ? v->truncated(2).str() : *version_hint);
      }
    }
    auto it = index_.find(key);
    if (it != index_.end()) {
      PythonEnvFacts& existing = envs_[it->second];
      if (std::find(existing.found_via.begin(), existing.found_via.end(), via) == existing.found_via.end()) {
        existing.found_via.push_back(via);
      }
      if (existing.interpreter.empty()) existing.interpreter = interpreter;
      return;
    }
    if (envs_.size() >= kMaxEnvs) {
      if (!too_many_reported_) {
        problem(prefix, "more than " + std::to_string(kMaxEnvs) + " Python environments; the rest are not inspected");
        too_many_reported_ = true;
      }
      return;
    }
    env.found_via.push_back(via);
    env.interpreter = interpreter;
    if (version_hint) hints_[envs_.size()] = {*version_hint, hint_source};
    index_[key] = envs_.size();
    envs_.push_back(std::move(env));
  }

  /// The Microsoft Store Python: its interpreter sits in Program Files\WindowsApps (not readable
  /// to users), and what `pip install` puts in it goes to the user site of its package,
  /// %LOCALAPPDATA%\Packages\PythonSoftwareFoundation.Python.3.X_<publisher>
  /// \LocalCache\local-packages\Python3X\site-packages: local-packages is its environment here
  /// (kind "store").
  void from_store_packages() {
    auto local = system_.env("LOCALAPPDATA");
    if (!local && home_) local = join(*home_, "AppData\\Local");
    if (!local) return;
    const std::string packages = join(*local, "Packages");
    constexpr std::string_view kPrefix = "PythonSoftwareFoundation.Python.";
    for (const DirEntry& e : list(packages)) {
      if (!e.is_dir || !e.name.starts_with(kPrefix)) continue;
      const std::string mm = e.name.substr(kPrefix.size(), e.name.find('_') - kPrefix.size());
      auto v = Version::parse(mm);
      if (!v || v->parts().size() != 2) continue;
      const std::string prefix = join(join(packages, e.name), "LocalCache\\local-packages");
      auto canon = system_.canonical(prefix);
      if (!canon || !system_.is_dir(*canon) || index_.count(*canon) != 0) continue;
      if (envs_.size() >= kMaxEnvs) return;
      PythonEnvFacts env;
      env.path = *canon;
      env.kind = "store";
      env.python_version = v;
      env.python_version_source = e.name;
      env.found_via.push_back("Microsoft Store package (LOCALAPPDATA\\Packages)");
      // The per-version alias the Store installs: WindowsApps\python3.11.exe.
      const std::string alias = join(*local, "Microsoft\\WindowsApps\\python" + mm + ".exe");
      if (system_.is_file(alias)) env.interpreter = alias;
      index_[env.path] = envs_.size();
      envs_.push_back(std::move(env));
    }
  }

  void classify(PythonEnvFacts& env) {
    const std::string& p = env.path;
    if (system_.is_file(join(p, "pyvenv.cfg"))) {
      env.kind = "venv";
      return;
    }
    if (system_.is_dir(join(p, "conda-meta"))) {
      env.kind = "conda";
      return;
    }
    bool python_layout =
        win_ ? system_.is_dir(join(p, "Lib")) || system_.is_file(join(p, "python.exe")) : !lib_versions(p).empty();
    if (!python_layout) return;
    std::string pyenv_root = pyenv_root_dir();
    if (!pyenv_root.empty() && p.starts_with(join(pyenv_root, "versions"))) {
      env.kind = "pyenv";
    } else {
      env.kind = "system";
    }
  }

  /// "X.Y" of every lib/pythonX.Y under a Linux prefix.
  std::vector<std::string> lib_versions(const std::string& prefix) {
    if (win_) return {};
    // Cached: /usr/lib is large and every interpreter found in /usr/bin asks again.
    if (auto it = lib_versions_.find(prefix); it != lib_versions_.end()) return it->second;
    std::vector<std::string> out;
    if (budget_.take()) {
      if (auto entries = system_.list_dir(join(prefix, "lib"))) {
        for (const DirEntry& e : *entries) {
          if (e.is_dir && is_python_dir_name(e.name) && e.name.starts_with("python")) {
            out.push_back(*version_from_name(e.name));
          }
        }
      }
    }
    lib_versions_[prefix] = out;
    return out;
  }

  std::optional<std::string> single_lib_version(const std::string& prefix) {
    auto v = lib_versions(prefix);
    if (v.size() == 1) return v.front();
    return std::nullopt;
  }

  std::string pyenv_root_dir() const {
    if (auto r = system_.env("PYENV_ROOT"); r && !r->empty()) return *r;
    if (!home_) return {};
    return win_ ? join(*home_, ".pyenv", "pyenv-win") : join(*home_, ".pyenv");
  }

  static std::string join_list(const std::vector<std::string>& v) { return gpudoctor::join(v, ", "); }

  /// --env DIR, --python PATH, then the project folder's ./.venv and ./venv: what the user points
  /// at comes first, and a named path that holds no environment is said, not skipped.
  void from_options() {
    for (const std::string& dir : search_.env_dirs) add(dir, "--env", {}, std::nullopt, true);
    for (const std::string& py : search_.interpreters) from_interpreter(py);
    if (search_.project_dir.empty()) return;
    for (const char* name : {".venv", "venv"}) {
      std::string dir = join(search_.project_dir, name);
      spdlog::debug("python: looking for a project environment at {}", dir);
      add(dir, std::string("./") + name);
    }
  }

  /// An interpreter path: its prefix is the folder above bin/ (Scripts\ on Windows), or the
  /// folder holding python.exe in a Windows install.
  void from_interpreter(const std::string& exe) {
    std::string dir = system_.parent(exe);
    std::string base = to_lower(system_.base_name(dir));
    std::string prefix = base == "bin" || base == "scripts" ? system_.parent(dir) : dir;
    if (!system_.exists(exe)) {
      problem(exe, "--python names " + exe + ", which does not exist");
      return;
    }
    add(prefix, "--python", exe, version_from_name(system_.base_name(exe)), true);
  }

  /// A conda environment named in the project's environment.yml (`name: NAME`, or `prefix:`):
  /// looked up under every conda installation found.
  void from_environment_yml() {
    if (search_.project_dir.empty()) return;
    std::string file = join(search_.project_dir, "environment.yml");
    auto text = system_.read_file(file, 256 * 1024);
    if (!text) return;
    spdlog::debug("python: reading {}", file);
    for (std::string_view line : lines(*text)) {
      if (line.empty() || line.front() == ' ' || line.front() == '\t') continue;  // top-level keys only
      std::string_view t = trim(line);
      for (std::string_view key : {std::string_view("name:"), std::string_view("prefix:")}) {
        if (!t.starts_with(key)) continue;
        std::string value(trim(t.substr(key.size())));
        if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front()) {
          value = value.substr(1, value.size() - 2);
        }
        if (value.empty()) continue;
        if (key == "prefix:") {
          add(value, "environment.yml prefix");
          continue;
        }
        bool found = false;
        for (const std::string& root : conda_roots_) {
          std::string dir = join(root, "envs", value);
          if (!system_.is_dir(dir)) continue;
          add(dir, "environment.yml name " + value);
          found = true;
        }
        if (!found) {
          problem(file, "environment.yml names the conda environment '" + value +
                            "', which was not found in any conda installation (create it with `conda env create -f "
                            "environment.yml`)");
        }
      }
    }
  }

  void from_variable(const char* name) {
    auto v = system_.env(name);
    if (!v || trim(*v).empty()) return;
    add(std::string(trim(*v)), name, {}, std::nullopt, true);
  }

  /// Interpreter names looked up in each PATH directory. Listing the directories instead
  /// would cost a stat and a readlink per entry of /usr/bin (hundreds of links).
  std::vector<std::string> interpreter_names() const {
    if (win_) return {"python.exe", "python3.exe"};
    std::vector<std::string> names = {"python3", "python"};
    for (int minor = 6; minor <= 16; ++minor) names.push_back("python3." + std::to_string(minor));
    return names;
  }

  void from_path() {
    auto dirs = system_.env_list("PATH");
    if (dirs.size() > kMaxPathEntries) {
      system_.note_bound("PATH", std::to_string(dirs.size()) + " entries; only the first " +
                                     std::to_string(kMaxPathEntries) + " were searched for Python");
      dirs.resize(kMaxPathEntries);
    }
    std::set<std::string> seen;
    const std::vector<std::string> names = interpreter_names();
    for (const std::string& dir : dirs) {
      // The Microsoft Store "python.exe" in WindowsApps is an installer stub, not Python.
      if (win_ && contains(to_lower(dir), "windowsapps")) continue;
      // WSL appends the Windows Path as /mnt/c/...: Windows programs only, and every stat
      // there crosses the slow 9P bridge.
      if (system_.platform() == Platform::wsl2 && is_windows_drive_mount(dir)) continue;
      auto canon_dir = system_.canonical(dir);
      if (!canon_dir) {
        if (canon_dir.error().kind != ErrorKind::not_found) {
          problem(dir, "PATH entry cannot be used: " + error_text(canon_dir.error()));
        }
        continue;
      }
      // /bin and /usr/bin are one directory on merged-/usr systems: look once.
      if (!seen.insert(*canon_dir).second || !budget_.take()) continue;
      for (const std::string& name : names) {
        std::string exe = join(dir, name);
        if (!system_.is_file(exe)) continue;
        std::string bin_name = system_.base_name(dir);
        std::string prefix;
        std::optional<std::string> hint = version_from_name(name);
        if (win_) {
          prefix = iequals(bin_name, "Scripts") ? system_.parent(dir) : dir;
        } else if (system_.is_file(join(system_.parent(dir), "pyvenv.cfg"))) {
          prefix = system_.parent(dir);  // a venv's bin/python links to the base: stop here
        } else {
          auto real = system_.canonical(exe);
          if (!real) continue;
          if (auto h = version_from_name(system_.base_name(*real))) hint = h;
          prefix = system_.parent(system_.parent(*real));
        }
        add(prefix, "PATH", exe, hint);
      }
    }
  }

  /// A conda installation: its base environment (when it has conda-meta) and every envs/*.
  /// micromamba's root prefix and ~/.conda hold envs/ without being an environment.
  void add_conda_root(const std::string& root, const std::string& via) {
    if (!conda_roots_.insert(root).second) return;
    if (!system_.is_dir(root)) return;
    if (system_.is_dir(join(root, "conda-meta"))) add(root, via);
    for (const DirEntry& e : list(join(root, "envs"))) {
      if (e.is_dir) add(join(root, "envs", e.name), via + " envs");
    }
  }

  void from_conda_installs() {
    std::vector<std::string> roots;
    if (home_) {
      for (const char* d : kCondaHomeDirs) roots.push_back(join(*home_, d));
      if (!win_) roots.push_back(join(*home_, ".conda"));
    }
    if (win_) {
      for (const char* d : {"C:\\ProgramData\\miniconda3", "C:\\ProgramData\\Anaconda3", "C:\\ProgramData\\miniforge3",
                            "C:\\tools\\miniconda3"}) {
        roots.emplace_back(d);
      }
    } else {
      for (const char* d : {"/opt/conda", "/opt/miniconda3", "/opt/anaconda3", "/opt/miniforge3",
                            "/usr/local/miniconda3", "/usr/local/anaconda3"}) {
        roots.emplace_back(d);
      }
    }
    if (auto exe = system_.env("CONDA_EXE"); exe && !exe->empty()) {
      roots.push_back(system_.parent(system_.parent(*exe)));
    }
    for (const auto& r : roots) add_conda_root(r, "conda install " + r);
    // `conda create -p` environments anywhere are listed in ~/.conda/environments.txt.
    if (home_) {
      std::string list_file = join(*home_, ".conda", "environments.txt");
      if (auto text = system_.read_file(list_file, 64 * 1024)) {
        int n = 0;
        for (auto line : lines(*text)) {
          if (++n > 200) break;
          if (!trim(line).empty()) add(std::string(trim(line)), "~/.conda/environments.txt");
        }
      }
    }
  }

  void from_pyenv() {
    std::string root = pyenv_root_dir();
    if (root.empty()) return;
    std::string versions = join(root, "versions");
    for (const DirEntry& e : list(versions)) {
      // pyenv names versions by their full number ("3.11.7"); others ("miniconda3-latest",
      // virtualenvs) get their version from their own files.
      std::optional<std::string> hint;
      if (auto v = Version::parse(e.name); v && v->parts().size() >= 2 && v->pre().empty()) hint = e.name;
      if (e.is_dir) add(join(versions, e.name), "pyenv", {}, hint, false, "pyenv version name");
    }
  }

  void from_virtualenvs_dir() {
    std::string dir;
    if (auto w = system_.env("WORKON_HOME"); w && !w->empty()) {
      dir = *w;
    } else if (home_) {
      dir = join(*home_, win_ ? "Envs" : ".virtualenvs");
    }
    if (dir.empty()) return;
    for (const DirEntry& e : list(dir)) {
      if (e.is_dir) add(join(dir, e.name), "~/.virtualenvs");
    }
  }

  /// Project environments (`python -m venv .venv`, `~/myenv`) up to a few levels below home.
  void from_home_scan() {
    if (!home_) return;
    int listings = 0;
    scan_home_dir(*home_, 1, listings);
  }

  void scan_home_dir(const std::string& dir, int depth, int& listings) {
    if (depth > kHomeScanDepth || listings >= kHomeScanListings) return;
    ++listings;
    std::vector<DirEntry> entries = list(dir);
    int considered = 0;
    for (const DirEntry& e : entries) {
      if (!e.is_dir || e.is_symlink) continue;  // links are how loops and duplicates happen
      if (++considered > 200 || ++home_entries_ > kHomeScanEntries) break;
      bool hidden = !e.name.empty() && e.name[0] == '.';
      std::string child = join(dir, e.name);
      if (system_.is_file(join(child, "pyvenv.cfg"))) {
        add(child, "project venv under home");
        continue;
      }
      if (hidden) continue;
      if (std::any_of(std::begin(kHomeScanSkip), std::end(kHomeScanSkip), [&](const char* s) { return e.name == s; })) {
        continue;
      }
      scan_home_dir(child, depth + 1, listings);
    }
  }

  void from_system_dirs() {
    if (win_) {
      std::vector<std::string> bases;
      if (auto l = system_.env("LOCALAPPDATA"); l && !l->empty()) {
        bases.push_back(join(*l, "Programs", "Python"));
      } else if (home_) {
        bases.push_back(join(*home_, "AppData\\Local\\Programs\\Python"));
      }
      bases.emplace_back("C:\\Program Files");
      bases.emplace_back("C:\\");
      for (const auto& base : bases) {
        for (const DirEntry& e : list(base)) {
          if (e.is_dir && to_lower(e.name).starts_with("python3")) {
            add(join(base, e.name), "standard install folder", {}, version_from_name(e.name), false,
                "install folder name");
          }
        }
      }
      return;
    }
    // Named directly rather than by listing /usr/lib, which is large and full of links.
    for (const char* prefix : {"/usr", "/usr/local"}) {
      for (int minor = 6; minor <= 16; ++minor) {
        std::string name = "python3." + std::to_string(minor);
        std::string lib = join(join(prefix, "lib"), name);
        if (!system_.is_dir(lib)) continue;
        // /usr/local/lib/python3.X with only dist-packages belongs to /usr's Python (Debian's
        // pip installs there); a full stdlib (os.py) means a Python built into /usr/local.
        bool own_stdlib = system_.is_file(join(lib, "os.py"));
        std::string owner = (std::string(prefix) == "/usr/local" && !own_stdlib) ? "/usr" : prefix;
        add(owner, "system lib " + lib, {}, "3." + std::to_string(minor), false, "lib/" + name);
      }
    }
  }

  void fill_env(PythonEnvFacts& env) {
    size_t idx = static_cast<size_t>(&env - envs_.data());
    std::optional<std::string> hint;
    std::string hint_source;
    if (auto it = hints_.find(idx); it != hints_.end()) {
      hint = it->second.first;
      hint_source = it->second.second;
    }
    // A conda environment's Python is a plain CPython and reads the user site like any
    // installation; PYTHONNOUSERSITE leaves it out. A venv reads it only when it sees the system
    // site-packages, and then after its own (site.venv()), so it hides none of the venv's.
    bool include_user_site = (env.kind == "system" || env.kind == "pyenv" || env.kind == "conda") &&
                             system_.env("PYTHONNOUSERSITE").value_or("").empty();
    bool venv_sees_system_site = false;
    std::string venv_home;  ///< pyvenv.cfg's home: the base interpreter's folder
    // Version.
    if (env.kind == "venv") {
      std::string cfg_path = join(env.path, "pyvenv.cfg");
      auto text = system_.read_file(cfg_path, 64 * 1024);
      if (text) {
        PyvenvCfg cfg = parse_pyvenv_cfg(*text);
        for (auto& p : cfg.problems) problem(cfg_path, p);
        if (cfg.creator == "virtualenv") env.kind = "virtualenv";
        venv_sees_system_site = cfg.include_system_site_packages;
        venv_home = cfg.home;
        if (auto v = Version::parse(cfg.python_version)) {
          env.python_version = v;
          env.python_version_source = "pyvenv.cfg";
        } else if (!cfg.python_version.empty()) {
          problem(cfg_path, "pyvenv.cfg version is not a version: " + printable(cfg.python_version, 40));
        }
      } else {
        problem(cfg_path, "cannot read pyvenv.cfg: " + error_text(text.error()));
      }
    }
    if (!env.python_version && env.kind == "conda") {
      for (const DirEntry& e : list(join(env.path, "conda-meta"))) {
        auto pkg = parse_conda_meta_filename(e.name);
        if (pkg && pkg->name == "python") {
          if (auto v = Version::parse(pkg->version)) {
            env.python_version = v;
            env.python_version_source = "conda-meta";
          }
          break;
        }
      }
    }
    if (!env.python_version && hint) {
      env.python_version = Version::parse(*hint);
      env.python_version_source = hint_source;
    }
    if (!env.python_version && !win_) {
      if (auto v = single_lib_version(env.path)) {
        env.python_version = Version::parse(*v);
        env.python_version_source = "lib/python" + *v;
      }
    }
    if (!env.python_version && win_) {
      for (const DirEntry& e : list(env.path)) {
        std::string n = to_lower(e.name);
        // python311.dll sits next to python.exe in every Windows install and venv base.
        if (!e.is_dir && n.starts_with("python3") && n.ends_with(".dll") && n.size() > 11) {
          if (auto v = version_from_name(n.substr(0, n.size() - 4))) {
            env.python_version = Version::parse(*v);
            env.python_version_source = e.name;
            break;
          }
        }
      }
    }
    if (env.interpreter.empty()) {
      static const std::vector<std::string> kWindowsExes = {"python.exe", "Scripts\\python.exe"};
      static const std::vector<std::string> kPosixExes = {"bin/python3", "bin/python"};
      for (const std::string& exe : win_ ? kWindowsExes : kPosixExes) {
        if (system_.is_file(join(env.path, exe))) {
          env.interpreter = join(env.path, exe);
          break;
        }
      }
    }
    if (env.kind == "venv" || env.kind == "virtualenv") {
      env.interpreter_problem = venv_interpreter_problem(env, venv_home);
      env.interpreter_base_unseen =
          !env.interpreter_problem.empty() && !system_.is_live() && (venv_home.empty() || !system_.is_dir(venv_home));
    }
    // Site-packages.
    std::vector<std::string> candidates;
    std::string user_site;  ///< site.USER_SITE, where this Python reads it
    std::string mm = env.python_version ? std::to_string(env.python_version->major()) + "." +
                                              std::to_string(env.python_version->minor())
                                        : std::string();
    std::set<std::string> user_sites;  ///< the candidates that are a user site
    if (win_ && env.kind == "store" && !mm.empty()) {
      candidates.push_back(join(env.path, "Python" + std::to_string(env.python_version->major()) +
                                              std::to_string(env.python_version->minor()) + "\\site-packages"));
    } else if (win_) {
      candidates.push_back(join(env.path, "Lib\\site-packages"));
      if (include_user_site) user_site = user_site_of(env.python_version);
      if (!user_site.empty()) {
        candidates.push_back(user_site);
        user_sites.insert(user_site);
      }
    } else {
      std::vector<std::string> versions;
      if (!mm.empty()) {
        versions.push_back(mm);
      } else {
        versions = lib_versions(env.path);
      }
      for (const auto& v : versions) {
        for (const char* lib : {"lib", "lib64"}) {
          candidates.push_back(join(env.path, lib, "python" + v + "/site-packages"));
          candidates.push_back(join(env.path, lib, "python" + v + "/dist-packages"));
        }
        if (env.path == "/usr") {
          candidates.push_back("/usr/lib/python3/dist-packages");
          candidates.push_back("/usr/local/lib/python" + v + "/dist-packages");
        }
        if (include_user_site && !user_base().empty()) {
          candidates.push_back(join(user_base(), "lib/python" + v + "/site-packages"));
          user_sites.insert(candidates.back());
        }
      }
    }
    std::set<std::string> seen;
    for (const auto& c : candidates) {
      auto canon = system_.canonical(c);
      if (!canon) {
        if (canon.error().kind != ErrorKind::not_found) {
          problem(c, "cannot resolve site-packages: " + error_text(canon.error()));
        }
        continue;
      }
      if (!system_.is_dir(*canon) || !seen.insert(*canon).second) continue;
      env.site_packages.push_back(c);
      scan_site_packages(system_, c, env, budget_, facts_.problems);
    }
    apply_user_site(env, user_sites);
    apply_pythonpath(env, seen);
    if (std::any_of(env.frameworks.begin(), env.frameworks.end(),
                    [](const FrameworkFacts& f) { return f.name == "tensorflow"; })) {
      scan_tf_plugins(system_, plugin_folders(env, venv_home, venv_sees_system_site), facts_.os.arch, env,
                      facts_.problems);
    }
  }

  /// Why a venv's interpreter cannot start: bin/python3 and bin/python are links to a base Python
  /// that is gone (`pyenv uninstall`, an upgraded Homebrew or apt Python); on the live machine also
  /// a pyvenv.cfg `home` that does not exist (a --root tree is often a partial copy). Empty: none.
  std::string venv_interpreter_problem(const PythonEnvFacts& env, const std::string& venv_home) {
    if (!win_) {
      const std::string bin = join(env.path, "bin");
      std::vector<std::string> dangling;
      for (const DirEntry& e : list(bin)) {
        if (e.name != "python3" && e.name != "python") continue;
        if (system_.is_file(join(bin, e.name))) return {};  // one that starts is enough
        if (e.is_symlink) dangling.push_back("bin/" + e.name);
      }
      if (!dangling.empty()) {
        std::sort(dangling.begin(), dangling.end());
        return gpudoctor::join(dangling, " and ") + " " + (dangling.size() == 1 ? "is a link" : "are links") +
               " to an interpreter that does not exist";
      }
    }
    if (system_.is_live() && !venv_home.empty() && !system_.is_dir(venv_home)) {
      return "pyvenv.cfg's home, " + venv_home + ", does not exist: the Python this venv was made from is gone";
    }
    return {};
  }

  /// The user site comes before the installation's site-packages on sys.path (the `site` module:
  /// USER_SITE is added first, unless PYTHONNOUSERSITE is set): a framework `pip install --user`
  /// put there is what `import` takes, and the installation's copy moves to `shadowed`.
  void apply_user_site(PythonEnvFacts& env, const std::set<std::string>& user_sites) {
    if (user_sites.empty()) return;
    const auto in_user_site = [&](const FrameworkFacts& fw) { return user_sites.count(fw.location) != 0; };
    for (size_t i = 0; i < env.frameworks.size(); ++i) {
      if (!in_user_site(env.frameworks[i])) continue;
      const std::string folder = import_package(env.frameworks[i]);
      if (folder.empty()) continue;
      for (size_t j = 0; j < env.frameworks.size(); ++j) {
        const FrameworkFacts& other = env.frameworks[j];
        if (j == i || in_user_site(other) || !other.reached_via.empty() || import_package(other) != folder) continue;
        env.frameworks[i].reached_via = "user site";
        env.shadowed.push_back(other);
        env.frameworks.erase(env.frameworks.begin() + static_cast<std::ptrdiff_t>(j));
        if (j < i) --i;
        break;
      }
    }
  }

  /// PYTHONPATH's entries come before site-packages on sys.path (Python docs, "The initialization
  /// of the sys.path module search path"): a framework there is what `import` takes. For each
  /// framework of the environment, the first PYTHONPATH entry holding the same top-level package
  /// replaces it in `frameworks` (reached_via "PYTHONPATH"); the environment's own copy moves to
  /// `shadowed`. `own`: the environment's site-packages, resolved. The variable is the one this
  /// run sees: the live process's, or --env-file's under --root.
  void apply_pythonpath(PythonEnvFacts& env, const std::set<std::string>& own) {
    constexpr size_t kMaxPythonpathEntries = 32;
    std::vector<std::string> entries = system_.env_list("PYTHONPATH");
    if (entries.size() > kMaxPythonpathEntries) {
      system_.note_bound("PYTHONPATH", std::to_string(entries.size()) + " entries; only the first " +
                                           std::to_string(kMaxPythonpathEntries) + " were searched for frameworks");
      entries.resize(kMaxPythonpathEntries);
    }
    std::set<std::string> decided;  ///< import folders already taken from an earlier entry
    for (const std::string& entry : entries) {
      if (entry.empty()) continue;  // the working directory: not knowable here
      auto real = system_.canonical(entry);
      if (!real || !system_.is_dir(*real)) continue;
      if (own.count(*real) != 0) {
        // The environment's own site-packages named on PYTHONPATH: its frameworks are taken here.
        for (const FrameworkFacts& fw : env.frameworks) {
          if (fw.reached_via.empty() && system_.canonical(fw.location).value_or("") == *real) {
            decided.insert(import_package(fw));
          }
        }
        continue;
      }
      auto [scan, inserted] = pythonpath_scans_.try_emplace(*real);
      if (inserted) scan_site_packages(system_, entry, scan->second, budget_, facts_.problems);
      for (const FrameworkFacts& other : scan->second.frameworks) {
        const std::string folder = import_package(other);
        if (folder.empty() || decided.count(folder) != 0) continue;
        auto own_copy = std::find_if(env.frameworks.begin(), env.frameworks.end(), [&](const FrameworkFacts& fw) {
          return (fw.reached_via.empty() || fw.reached_via == "user site") && import_package(fw) == folder;
        });
        if (own_copy == env.frameworks.end()) continue;
        decided.insert(folder);
        env.shadowed.push_back(std::move(*own_copy));
        *own_copy = other;
        own_copy->reached_via = "PYTHONPATH";
      }
    }
  }

  /// site.USER_BASE: PYTHONUSERBASE, else ~/.local (%APPDATA%\Python on Windows); "" when unknown.
  std::string user_base() const {
    if (auto b = system_.env("PYTHONUSERBASE"); b && !b->empty()) return *b;
    if (win_) {
      if (auto a = system_.env("APPDATA"); a && !a->empty()) return join(*a, "Python");
      return home_ ? join(*home_, "AppData\\Roaming\\Python") : std::string();
    }
    return home_ ? join(*home_, ".local") : std::string();
  }

  /// site.USER_SITE of this Python version ("" when the version or the user base is unknown).
  std::string user_site_of(const std::optional<Version>& version) const {
    const std::string base = user_base();
    if (!version || base.empty()) return {};
    const std::string major = std::to_string(version->major());
    const std::string minor = std::to_string(version->minor());
    return win_ ? join(base, "Python" + major + minor + "\\site-packages")
                : join(base, "lib/python" + major + "." + minor + "/site-packages");
  }

  /// The folders `import tensorflow` reads tensorflow-plugins from (tensorflow/__init__.py),
  /// each once (by its resolved path) with the strongest way it is reached
  /// (TfPlugin::reached_via): the environment's site-packages; PYTHONPATH's entries with
  /// "site-packages" in their name; a venv's base Python's, when it sees them (site.
  /// getsitepackages()); site.USER_SITE, which TensorFlow before 2.5 reads always, 2.5 to 2.18
  /// where this Python enables it (not a plain venv, not PYTHONNOUSERSITE), 2.19 on always (every
  /// sysconfig scheme, posix_user included); and the other user schemes 2.19's loop adds.
  std::vector<PluginFolder> plugin_folders(const PythonEnvFacts& env, const std::string& venv_home,
                                           bool venv_sees_system_site) const {
    const bool no_user_site = system_.env("PYTHONNOUSERSITE").value_or("") != "";
    const bool is_venv = env.kind == "venv" || env.kind == "virtualenv";
    const bool enabled = !no_user_site && (!is_venv || venv_sees_system_site);
    // Strongest first: a folder reached two ways keeps the first.
    static const std::vector<std::string> kOrder = {"site-packages", "PYTHONPATH",  "system site-packages",
                                                    "user site",     "user scheme", "other user scheme"};
    const auto rank = [](const std::string& via) {
      return std::find(kOrder.begin(), kOrder.end(), via) - kOrder.begin();
    };
    std::vector<PluginFolder> folders;
    std::map<std::string, size_t> by_real;  ///< resolved path -> index in folders
    const auto add = [&](const std::string& dir, const std::string& via) {
      if (dir.empty()) return;
      auto real = system_.canonical(dir);
      if (!real || !system_.is_dir(*real)) return;
      auto [it, inserted] = by_real.emplace(*real, folders.size());
      if (inserted) {
        folders.push_back({dir, via});
      } else if (rank(via) < rank(folders[it->second].reached_via)) {
        folders[it->second].reached_via = via;
      }
    };
    const std::string user = user_site_of(env.python_version);
    for (const std::string& site : env.site_packages) {
      if (site != user) add(site, "site-packages");  // the user site is labelled below
    }
    const std::string pythonpath = system_.env("PYTHONPATH").value_or("");
    for (std::string_view entry : split(pythonpath, win_ ? ';' : ':')) {
      if (contains(entry, "site-packages")) add(std::string(entry), "PYTHONPATH");
    }
    if (is_venv && venv_sees_system_site && !venv_home.empty() && env.python_version) {
      for (const std::string& dir : base_site_packages(venv_home, *env.python_version)) {
        add(dir, "system site-packages");
      }
    }
    add(user, enabled ? "user site" : "user scheme");
    if (!win_ && !user_base().empty()) {
      add(join(user_base(), "lib/python/site-packages"), "other user scheme");  // osx_framework_user
      add(join(user_base(), "Python/site-packages"), "other user scheme");      // nt_user
    }
    return folders;
  }

  /// site.getsitepackages() of a venv's base Python (pyvenv.cfg's home: its bin folder on POSIX,
  /// its install folder on Windows), Debian's dist-packages included.
  std::vector<std::string> base_site_packages(const std::string& venv_home, const Version& python) const {
    const std::string mm = std::to_string(python.major()) + "." + std::to_string(python.minor());
    if (win_) return {venv_home, join(venv_home, "Lib\\site-packages")};
    std::string prefix = venv_home;
    while (prefix.size() > 1 && prefix.ends_with('/')) prefix.pop_back();
    if (prefix.ends_with("/bin")) prefix.resize(prefix.size() - 4);
    if (prefix.empty()) prefix = "/";
    return {join(prefix, "lib/python" + mm + "/site-packages"), join(prefix, "lib/python" + mm + "/dist-packages"),
            join(prefix, "lib/python3/dist-packages"), join(prefix, "local/lib/python" + mm + "/dist-packages")};
  }

  const SystemView& system_;
  const PythonSearch& search_;
  Facts& facts_;
  bool win_;
  std::optional<std::string> home_;
  std::vector<PythonEnvFacts> envs_;
  std::map<std::string, size_t> index_;
  std::set<std::string> conda_roots_;
  std::map<std::string, std::vector<std::string>> lib_versions_;
  /// Version from a name (python3.11, Python311, pyenv's 3.11.7) and which name it was.
  std::map<size_t, std::pair<std::string, std::string>> hints_;
  ScanBudget budget_;
  /// What each PYTHONPATH entry (resolved) holds: scanned once for every environment.
  std::map<std::string, PythonEnvFacts> pythonpath_scans_;
  bool too_many_reported_ = false;
  int home_entries_ = 0;
};

}  // namespace

void probe_python(const SystemView& system, Facts& facts, const PythonSearch& search) {
  PythonProbe(system, search, facts).run();
}

}  // namespace gpudoctor
