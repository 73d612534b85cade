#include "probe/library_dirs.hpp"

#include <algorithm>
#include <set>

#include "core/text.hpp"
#include "probe/version_files.hpp"

namespace gpudoctor {
namespace {

constexpr int kMaxConfIncludes = 64;

void read_ld_conf(const SystemView& system, const std::string& path, int& budget, std::vector<std::string>& out) {
  if (--budget < 0) return;
  auto text = system.read_file(path, 64 * 1024);
  if (!text) return;
  for (std::string_view line : lines(*text)) {
    line = trim(line);
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = trim(line.substr(0, hash));
    if (line.empty()) continue;
    if (line.starts_with("include ")) {
      // Only the common "include /etc/ld.so.conf.d/*.conf" glob form is expanded.
      std::string pattern(trim(line.substr(8)));
      auto star = pattern.find('*');
      if (star == std::string::npos) {  // "include /etc/ld.so.conf.d/cuda.conf": one file
        read_ld_conf(system, pattern, budget, out);
        continue;
      }
      std::string dir = pattern.substr(0, pattern.rfind('/', star));
      std::string suffix = pattern.substr(star + 1);
      auto entries = system.list_dir(dir);
      if (!entries) continue;
      for (const auto& e : *entries) {
        if (!e.is_dir && e.name.ends_with(suffix)) read_ld_conf(system, dir + "/" + e.name, budget, out);
      }
      continue;
    }
    if (line.starts_with("/")) out.emplace_back(line);
  }
}

std::string_view without_trailing_slash(std::string_view p) {
  while (p.size() > 1 && p.back() == '/') p.remove_suffix(1);
  return p;
}

}  // namespace

std::vector<LibraryDir> loader_search_dirs(const SystemView& system) {
  std::vector<LibraryDir> out;
  std::set<std::string> seen;
  auto add = [&](const std::string& path, const char* why) {
    if (path.empty() || !seen.insert(path).second) return;
    if (!system.is_dir(path)) return;
    out.push_back({path, why});
  };
  if (system.is_windows()) {
    std::string windir = system.env("SystemRoot").value_or("C:\\Windows");
    add(windir + "\\System32", "System32");
    for (const auto& p : system.env_list("PATH")) add(p, "PATH");
    return out;
  }
  for (const auto& p : system.env_list("LD_LIBRARY_PATH")) add(p, "LD_LIBRARY_PATH");
  std::vector<std::string> conf;
  int budget = kMaxConfIncludes;
  read_ld_conf(system, "/etc/ld.so.conf", budget, conf);
  for (const auto& p : conf) add(p, "ld.so.conf");
  for (const char* p : {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
                        "/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"}) {
    add(p, "default");
  }
  if (system.platform() == Platform::wsl2 || system.is_dir("/usr/lib/wsl/lib")) {
    add("/usr/lib/wsl/lib", "wsl");
  }
  return out;
}

std::string wsl_lib_loader_via(const SystemView& system,
                               const std::vector<std::pair<std::string, std::string>>& cache_entries) {
  const std::string wsl = "/usr/lib/wsl/lib";
  auto is_wsl = [&](std::string_view p) { return without_trailing_slash(p) == wsl; };
  for (const auto& p : system.env_list("LD_LIBRARY_PATH")) {
    if (is_wsl(p)) return "LD_LIBRARY_PATH";
  }
  std::vector<std::string> conf;
  int budget = kMaxConfIncludes;
  if (system.is_file("/etc/ld.so.conf")) {
    read_ld_conf(system, "/etc/ld.so.conf", budget, conf);
  } else if (auto entries = system.list_dir("/etc/ld.so.conf.d")) {
    for (const auto& e : *entries) {
      if (!e.is_dir && e.name.ends_with(".conf")) read_ld_conf(system, "/etc/ld.so.conf.d/" + e.name, budget, conf);
    }
  }
  if (std::any_of(conf.begin(), conf.end(), is_wsl)) return "ld.so.conf";
  for (const auto& [name, path] : cache_entries) {
    if (path.starts_with(wsl + "/")) return "ld.so.cache";
  }
  return {};
}

LoaderPaths read_loader_paths(const SystemView& system) {
  return LoaderPaths{loader_search_dirs(system), loader_cache_entries(system)};
}

std::vector<std::pair<std::string, std::string>> loader_cache_entries(const SystemView& system) {
  std::vector<std::pair<std::string, std::string>> out;
  if (system.is_windows()) return out;
  auto data = system.read_file("/etc/ld.so.cache", 8 << 20);
  if (!data) return out;
  // Only the CUDA stack's libraries matter here; the rest of the cache is never copied.
  static const std::vector<std::string_view> kPrefixes = {"libcud", "libnccl", "libnvinfer", "libcublas",
                                                          "libnvidia-ml"};
  for (auto& [name, path] : parse_ld_so_cache(*data, kPrefixes)) out.emplace_back(name, path);
  return out;
}

}  // namespace gpudoctor
