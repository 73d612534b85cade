#include "platform/system_view.hpp"

#include <algorithm>
#include <deque>

#include "core/text.hpp"
#include "platform/host_fs.hpp"

namespace gpudoctor {
namespace {

constexpr int kMaxSymlinkHops = 40;

bool is_drive_prefix(std::string_view s) {
  return s.size() >= 2 && s[1] == ':' && std::isalpha(static_cast<unsigned char>(s[0]));
}

std::string host_join(const std::string& root, const std::vector<std::string>& comps) {
  std::string out = root;
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  if (out == "/") out.clear();
  for (const std::string& c : comps) {
    out += '/';
    out += c;
  }
  return out.empty() ? "/" : out;
}

}  // namespace

const char* to_string(Platform p) {
  switch (p) {
    case Platform::linux:
      return "linux";
    case Platform::windows:
      return "windows";
    case Platform::wsl2:
      return "wsl2";
  }
  return "linux";
}

std::optional<Platform> parse_platform(std::string_view text) {
  std::string t = to_lower(trim(text));
  if (t == "linux") return Platform::linux;
  if (t == "windows" || t == "win" || t == "win32") return Platform::windows;
  if (t == "wsl2" || t == "wsl") return Platform::wsl2;
  return std::nullopt;
}

SystemView::SystemView(Options options) : options_(std::move(options)) {
  if (options_.root.empty()) options_.root = "/";
}

SystemView SystemView::host(const ProcessRunner* runner) {
  Options o;
  o.root = "/";
  o.live = true;
  o.runner = runner;
  for (auto& [k, v] : host_fs::process_environment()) o.env.emplace(k, v);
#ifdef _WIN32
  o.platform = Platform::windows;
  return SystemView(std::move(o));
#else
  SystemView view(o);
  o.platform = detect_platform(view);
  return SystemView(std::move(o));
#endif
}

std::vector<std::string> SystemView::target_components(std::string_view path) const {
  std::vector<std::string> out;
  if (is_windows()) {
    if (is_drive_prefix(path)) {
      char drive = static_cast<char>(std::toupper(static_cast<unsigned char>(path[0])));
      path.remove_prefix(2);
      // Drive C: is the root itself; any other drive lives in a folder named after it.
      if (drive != 'C') out.push_back(std::string("drive-") + static_cast<char>(std::tolower(drive)));
    }
    std::string p(path);
    std::replace(p.begin(), p.end(), '\\', '/');
    for (auto piece : split(p, '/')) {
      if (!piece.empty()) out.emplace_back(piece);
    }
    return out;
  }
  for (auto piece : split(path, '/')) {
    if (!piece.empty()) out.emplace_back(piece);
  }
  return out;
}

Result<SystemView::Resolved> SystemView::resolve(std::string_view path) const {
  std::deque<std::string> pending;
  for (auto& c : target_components(path)) pending.push_back(std::move(c));
  std::vector<std::string> done;
  int hops = 0;
  while (!pending.empty()) {
    std::string c = std::move(pending.front());
    pending.pop_front();
    if (c.empty() || c == ".") continue;
    if (++resolve_steps_ > options_.max_resolve_steps) {
      return Error{ErrorKind::too_large, "stopped: this tree needs too much path resolution", std::string(path), 0};
    }
    if (c == "..") {
      if (!done.empty()) done.pop_back();  // never above the root
      continue;
    }
    done.push_back(c);
    std::string candidate = host_join(options_.root, done);
    auto kind = host_fs::kind_of(candidate);
    if (!kind && kind.error().kind == ErrorKind::not_found && is_windows()) {
      // Windows names are case-insensitive: find the entry that differs only in case.
      done.pop_back();
      auto entries = host_fs::list(host_join(options_.root, done), kMaxDirEntries);
      bool found = false;
      if (entries) {
        for (const auto& e : *entries) {
          if (iequals(e.name, c)) {
            done.push_back(e.name);
            found = true;
            break;
          }
        }
      }
      if (!found) {
        return Error{ErrorKind::not_found, "no such file or directory", std::string(path), 2};
      }
      candidate = host_join(options_.root, done);
      kind = host_fs::kind_of(candidate);
    }
    if (!kind) {
      Error e = kind.error();
      e.origin = std::string(path);
      return e;
    }
    if (*kind != host_fs::Kind::symlink) continue;
    if (++hops > kMaxSymlinkHops) {
      return Error{ErrorKind::invalid_data, "too many levels of symbolic links", std::string(path), 40};
    }
    auto target = host_fs::read_link(candidate);
    if (!target) return target.error();
    done.pop_back();
    std::string t = *target;
    bool absolute = starts_with(t, "/") || (is_windows() && is_drive_prefix(t));
    // An absolute link means "from the target's root", never the host's: re-root it.
    if (absolute) done.clear();
    auto comps = target_components(t);
    for (auto it = comps.rbegin(); it != comps.rend(); ++it) pending.push_front(*it);
  }
  return Resolved{host_join(options_.root, done), std::move(done)};
}

Result<std::string> SystemView::canonical(std::string_view path) const {
  auto r = resolve(path);
  if (!r) return r.error();
  if (is_windows()) {
    // The folder that stands for another drive ("drive-d") reads as that drive again ("D:").
    size_t first = 0;
    std::string out = "C:";
    if (!r->components.empty() && r->components[0].size() == 7 && starts_with(r->components[0], "drive-")) {
      out = std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(r->components[0][6])))) + ":";
      first = 1;
    }
    for (size_t i = first; i < r->components.size(); ++i) out += "\\" + r->components[i];
    if (r->components.size() == first) out += "\\";
    return out;
  }
  std::string out;
  for (const auto& c : r->components) out += "/" + c;
  return out.empty() ? "/" : out;
}

Result<std::string> SystemView::read_file(std::string_view path, size_t max_bytes) const {
  auto r = resolve(path);
  if (!r) return r.error();
  // Checked before opening: opening a device node can have side effects (a watchdog, a tape).
  auto kind = host_fs::kind_of(r->host);
  if (kind && *kind != host_fs::Kind::regular) {
    return Error{ErrorKind::invalid_data, "not a regular file", std::string(path), 0};
  }
  auto data = host_fs::read(r->host, max_bytes);
  if (!data) {
    Error e = data.error();
    e.origin = std::string(path);
    return e;
  }
  return data;
}

Result<FileStat> SystemView::stat(std::string_view path) const {
  auto r = resolve(path);
  if (!r) return r.error();
  auto kind = host_fs::kind_of(r->host);
  if (!kind) return kind.error();
  FileStat st;
  st.is_dir = *kind == host_fs::Kind::directory;
  st.is_regular = *kind == host_fs::Kind::regular;
  if (st.is_regular) {
    auto size = host_fs::size_of(r->host);
    if (size) st.size_bytes = *size;
  }
  return st;
}

bool SystemView::is_dir(std::string_view path) const {
  auto st = stat(path);
  return st && st->is_dir;
}

bool SystemView::is_file(std::string_view path) const {
  auto st = stat(path);
  return st && st->is_regular;
}

Result<std::vector<DirEntry>> SystemView::list_dir(std::string_view path) const {
  auto r = resolve(path);
  if (!r) return r.error();
  auto entries = host_fs::list(r->host, kMaxDirEntries);
  if (!entries) {
    Error e = entries.error();
    e.origin = std::string(path);
    return e;
  }
  std::vector<DirEntry> out;
  out.reserve(entries->size());
  for (const auto& e : *entries) {
    DirEntry d{e.name, e.kind == host_fs::Kind::directory, e.kind == host_fs::Kind::symlink};
    if (d.is_symlink) {
      // On the live machine the host's own link resolution is the target's (and much
      // cheaper); under another root every link is resolved inside that root.
      if (options_.root == "/") {
        auto k = host_fs::kind_of_followed(r->host + "/" + e.name);
        d.is_dir = k && *k == host_fs::Kind::directory;
      } else {
        d.is_dir = is_dir(join(path, e.name));
      }
    }
    out.push_back(std::move(d));
  }
  std::sort(out.begin(), out.end(), [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  return out;
}

std::optional<std::string> SystemView::env(std::string_view name) const {
  if (is_windows()) {
    // Windows variable names are case-insensitive ("Path" vs "PATH").
    for (const auto& [k, v] : options_.env) {
      if (iequals(k, name)) return v;
    }
    return std::nullopt;
  }
  auto it = options_.env.find(std::string(name));
  if (it == options_.env.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> SystemView::env_list(std::string_view name) const {
  std::vector<std::string> out;
  auto v = env(name);
  if (!v) return out;
  for (auto piece : split(*v, is_windows() ? ';' : ':')) {
    if (!trim(piece).empty()) out.emplace_back(trim(piece));
  }
  return out;
}

std::optional<std::string> SystemView::home() const {
  if (is_windows()) {
    if (auto p = env("USERPROFILE")) return p;
    return std::nullopt;
  }
  auto h = env("HOME");
  if (h && !h->empty()) return h;
  return std::nullopt;
}

std::string SystemView::join(std::string_view a, std::string_view b) const {
  char sep = is_windows() ? '\\' : '/';
  std::string out(a);
  if (!out.empty() && out.back() != '/' && out.back() != '\\') out += sep;
  out += b;
  return out;
}

Platform detect_platform(const SystemView& view) {
  // A Windows tree: the Windows folder, in whatever case the image stores it.
  if (auto top = view.list_dir("/")) {
    for (const auto& e : *top) {
      if (!e.is_dir || !iequals(e.name, "Windows")) continue;
      if (auto sub = view.list_dir("/" + e.name)) {
        for (const auto& s : *sub) {
          if (s.is_dir && iequals(s.name, "System32")) return Platform::windows;
        }
      }
    }
  }
  // WSL2 kernels say so in their release string ("...-microsoft-standard-WSL2").
  auto release = view.read_file("/proc/sys/kernel/osrelease", 4096);
  if (release && (contains(to_lower(*release), "microsoft") || contains(*release, "WSL"))) return Platform::wsl2;
  return Platform::linux;
}

namespace {

bool is_separator(char c, bool windows) {
  return c == '/' || (windows && c == '\\');
}

std::string_view without_trailing_separators(std::string_view p, bool windows) {
  while (p.size() > 1 && is_separator(p.back(), windows)) p.remove_suffix(1);
  return p;
}

size_t last_separator(std::string_view p, bool windows) {
  return windows ? p.find_last_of("/\\") : p.rfind('/');
}

}  // namespace

std::string SystemView::parent(std::string_view path) const {
  const bool windows = is_windows();
  std::string_view p = without_trailing_separators(path, windows);
  size_t s = last_separator(p, windows);
  if (s == std::string_view::npos) return {};
  if (s == 0) return "/";
  if (windows && s == 2 && p[1] == ':') return std::string(p.substr(0, 3));
  return std::string(p.substr(0, s));
}

std::string SystemView::base_name(std::string_view path) const {
  const bool windows = is_windows();
  std::string_view p = without_trailing_separators(path, windows);
  size_t s = last_separator(p, windows);
  return std::string(s == std::string_view::npos ? p : p.substr(s + 1));
}

EnvFile parse_env_file(std::string_view text) {
  EnvFile out;
  int n = 0;
  for (std::string_view raw : lines(text)) {
    ++n;
    std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#') continue;
    if (starts_with(line, "export ")) line = trim(line.substr(7));
    auto eq = line.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      out.problems.push_back("line " + std::to_string(n) + ": not KEY=VALUE: " + printable(line, 80));
      continue;
    }
    std::string key(trim(line.substr(0, eq)));
    out.env[key] = std::string(unquote(line.substr(eq + 1)));
  }
  return out;
}

}  // namespace gpudoctor
