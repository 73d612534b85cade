#include "platform/system_view.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <deque>

#include "core/text.hpp"
#include "core/utf8.hpp"
#include "platform/host_fs.hpp"

namespace gpudoctor {
namespace {

constexpr int kMaxSymlinkHops = 40;

std::string join_components(const std::vector<std::string>& comps) {
  std::string out;
  for (const auto& c : comps) out += "/" + c;
  return out;
}

bool is_drive_prefix(std::string_view s) {
  return s.size() >= 2 && s[1] == ':' && std::isalpha(static_cast<unsigned char>(s[0]));
}

/// Deepest chain of open directories one lookup keeps (each holds a descriptor).
constexpr size_t kMaxDepth = 256;
/// Directories whose case-insensitive index is kept (a Windows tree); beyond, it is rebuilt.
constexpr size_t kMaxCaseIndexes = 256;

}  // namespace

SystemView::SystemView(Options options) : options_(std::move(options)) {
  if (options_.root.empty()) options_.root = "/";
  if (options_.live && is_windows() && is_drive_prefix(options_.root)) {
    system_drive_ = static_cast<char>(std::toupper(static_cast<unsigned char>(options_.root[0])));
    live_drives_ = true;
  }
  auto root = host_fs::open_dir(options_.root);  // the user's own path: links in it are followed
  if (root) {
    root_handle_ = *root;
  } else {
    root_error_ = root.error();
  }
}

void SystemView::note_bound(std::string path, std::string what) const {
  ++bounds_hit_count_;
  if (bounds_hit_.size() < kMaxBoundsKept) bounds_hit_.push_back({std::move(path), std::move(what)});
}

bool SystemView::use_kernel_resolution() const {
  return options_.kernel_resolution && !kernel_resolution_unavailable_ && !is_windows();
}

Result<host_fs::HandleRef> SystemView::open_by_kernel(std::string_view path, host_fs::OpenAs as) const {
  std::string rel;
  for (const auto& c : target_components(path)) {
    if (++resolve_steps_ > options_.max_resolve_steps) {
      return Error{ErrorKind::too_large, "stopped: this tree needs too much path resolution", std::string(path), 0};
    }
    if (!rel.empty()) rel += '/';
    rel += c;
  }
  auto h = host_fs::open_in_root(*root_handle_, rel, as);
  if (!h && h.error().kind == ErrorKind::unsupported) kernel_resolution_unavailable_ = true;
  if (!h) {
    Error e = h.error();
    e.origin = std::string(path);
    // Worded as the component walk words it: the report does not depend on the kernel.
    if (e.code == ELOOP) e.message = "too many levels of symbolic links";
    return e;
  }
  return h;
}

std::optional<std::string> SystemView::find_ignoring_case(const host_fs::Handle& dir, const std::string& dir_key,
                                                          const std::string& name) const {
  auto it = case_index_.find(dir_key);
  if (it == case_index_.end()) {
    if (case_index_.size() >= kMaxCaseIndexes) case_index_.clear();
    std::map<std::string, std::string> index;
    bool cut = false;
    if (auto entries = host_fs::list_at(dir, kMaxDirEntries, &cut)) {
      for (const auto& e : *entries) index.emplace(to_lower(e.name), e.name);
    }
    if (cut) note_bound(dir_key, "more than " + std::to_string(kMaxDirEntries) + " entries; the rest not searched");
    it = case_index_.emplace(dir_key, std::move(index)).first;
  }
  auto found = it->second.find(to_lower(name));
  if (found == it->second.end()) return std::nullopt;
  return found->second;
}

SystemView SystemView::host(const ProcessRunner* runner) {
  Options o;
  o.root = "/";
  o.live = true;
  o.runner = runner;
  for (auto& [k, v] : host_fs::process_environment()) o.env.emplace(k, v);
#ifdef _WIN32
  // The tree's root is the system drive (C: in Windows paths, where Program Files and System32
  // are); another drive is a folder "drive-d" of the root, which the live host does not have.
  auto drive = o.env.find("SystemDrive");
  o.root = (drive != o.env.end() && drive->second.size() == 2 ? drive->second : std::string("C:")) + "\\";
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
      // The root's drive is the root itself. Any other drive is, in a tree, a folder named after
      // it; on the live host its own root, named "D:" (no file name holds a colon), which
      // resolve() starts from.
      if (drive != system_drive_) {
        out.push_back(live_drives_ ? std::string(1, drive) + ":"
                                   : std::string("drive-") + static_cast<char>(std::tolower(drive)));
      }
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
  if (!root_handle_) return *root_error_;
  std::deque<std::string> pending;
  for (auto& c : target_components(path)) pending.push_back(std::move(c));
  // dirs[i] is the open directory reached by done[0..i): every lookup is relative to the last,
  // by name, without following a link, so renames elsewhere cannot redirect it.
  std::vector<host_fs::HandleRef> dirs{root_handle_};
  std::vector<std::string> done;
  size_t floor = 0;  // entries of `done` that ".." never leaves: a live drive's root
  int hops = 0;
  const auto fail = [&](ErrorKind kind, const char* message, int code) {
    return Error{kind, message, std::string(path), code};
  };
  while (!pending.empty()) {
    std::string c = std::move(pending.front());
    pending.pop_front();
    if (c.empty() || c == ".") continue;
    if (++resolve_steps_ > options_.max_resolve_steps) {
      return fail(ErrorKind::too_large, "stopped: this tree needs too much path resolution", 0);
    }
    if (done.empty() && live_drives_ && c.size() == 2 && c[1] == ':') {
      // Another drive of the live Windows host: the walk goes on from that drive's root.
      auto drive = live_drive_root(c[0]);
      if (!drive) {
        Error e = drive.error();
        e.origin = std::string(path);
        return e;
      }
      dirs.assign(1, *drive);
      done.push_back(c);
      floor = 1;
      continue;
    }
    if (c == "..") {
      if (done.size() > floor) {  // never above the root
        done.pop_back();
        dirs.pop_back();
      }
      continue;
    }
    const host_fs::Handle& here = *dirs.back();
    auto kind = host_fs::kind_at(here, c);
    if (!kind && kind.error().kind == ErrorKind::not_found && is_windows()) {
      // Windows names are case-insensitive: find the entry that differs only in case.
      auto actual = find_ignoring_case(here, join_components(done), c);
      if (!actual) return fail(ErrorKind::not_found, "no such file or directory", 2);
      c = *actual;
      kind = host_fs::kind_at(here, c);
    }
    if (!kind) {
      Error e = kind.error();
      e.origin = std::string(path);
      return e;
    }
    if (*kind == host_fs::Kind::symlink) {
      if (++hops > kMaxSymlinkHops) return fail(ErrorKind::invalid_data, "too many levels of symbolic links", 40);
      auto target = host_fs::read_link_at(here, c);
      if (!target) return target.error();
      const std::string& t = *target;
      // An absolute link means "from the target's root", never the host's: re-root it.
      if (t.starts_with("/") || (is_windows() && is_drive_prefix(t))) {
        done.clear();
        dirs.assign(1, root_handle_);
        floor = 0;
      }
      auto comps = target_components(t);
      for (auto it = comps.rbegin(); it != comps.rend(); ++it) pending.push_front(*it);
      continue;
    }
    const bool last =
        std::all_of(pending.begin(), pending.end(), [](const std::string& p) { return p.empty() || p == "."; });
    if (*kind == host_fs::Kind::directory) {
      if (dirs.size() > kMaxDepth) return fail(ErrorKind::too_large, "path too deep", 0);
      auto sub = host_fs::open_dir_at(here, c);
      if (!sub) {
        Error e = sub.error();
        e.origin = std::string(path);
        return e;
      }
      done.push_back(c);
      dirs.push_back(std::move(*sub));
      continue;
    }
    if (!last) return fail(ErrorKind::not_found, "not a directory", 20);
    Resolved r;
    r.parent = dirs.back();
    r.name = c;
    r.kind = *kind;
    done.push_back(c);
    r.components = std::move(done);
    return r;
  }
  Resolved r;
  r.dir = dirs.back();
  r.kind = host_fs::Kind::directory;
  if (dirs.size() >= 2) {
    r.parent = dirs[dirs.size() - 2];
    r.name = done.back();
  }
  r.components = std::move(done);
  return r;
}

Result<host_fs::HandleRef> SystemView::live_drive_root(char letter) const {
  const char drive = static_cast<char>(std::toupper(static_cast<unsigned char>(letter)));
  if (drive < 'A' || drive > 'Z') return Error{ErrorKind::not_found, "no such drive", std::string(1, letter), 2};
  // Opened for each lookup, not kept: a handle held on a drive's root stops its removal, and a
  // long-running serve must see a drive that appears later.
  return host_fs::open_drive_root(drive);
}

Result<std::string> SystemView::canonical(std::string_view path) const {
  auto r = resolve(path);
  if (!r) return r.error();
  if (is_windows()) {
    // Another drive reads as that drive again ("D:"), from the folder that stands for it in a tree.
    size_t first = 0;
    std::string out = std::string(1, system_drive_) + ":";
    if (!r->components.empty() && r->components[0].size() == 2 && r->components[0][1] == ':') {
      out = r->components[0];  // another drive of the live host
      first = 1;
    } else if (!r->components.empty() && r->components[0].size() == 7 && r->components[0].starts_with("drive-")) {
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
  return read_impl(path, max_bytes, true);
}

Result<std::string> SystemView::read_head(std::string_view path, size_t max_bytes) const {
  return read_impl(path, max_bytes, false);
}

Result<std::string> SystemView::read_range(std::string_view path, std::uint64_t offset, size_t max_bytes) const {
  return read_impl(path, max_bytes, false, offset);
}

Result<std::string> SystemView::read_impl(std::string_view path, size_t max_bytes, bool record_cut,
                                          std::uint64_t offset) const {
  if (!root_handle_) return *root_error_;
  bool cut = false;
  auto with_origin = [&](Result<std::string> r) -> Result<std::string> {
    if (!r) {
      Error e = r.error();
      e.origin = std::string(path);
      return e;
    }
    if (cut && record_cut) {
      note_bound(std::string(path), "larger than " + std::to_string(max_bytes) + " bytes; only the first " +
                                        std::to_string(max_bytes) + " were read");
    }
    return r;
  };
  const Error not_regular{ErrorKind::invalid_data, "not a regular file", std::string(path), 0};
  if (use_kernel_resolution()) {
    // Looked at before opening: opening a device node can have side effects (a watchdog, a
    // tape). The file opened is then checked to be the one looked at.
    auto probe = open_by_kernel(path, host_fs::OpenAs::path_only);
    if (probe) {
      auto kind = host_fs::kind_of(**probe);
      if (kind && *kind != host_fs::Kind::regular) return not_regular;
      auto file = open_by_kernel(path, host_fs::OpenAs::file);
      if (!file) return file.error();
      if (host_fs::identity(**probe).value_or(std::pair<std::uint64_t, std::uint64_t>{}) !=
          host_fs::identity(**file).value_or(std::pair<std::uint64_t, std::uint64_t>{1, 1})) {
        return Error{ErrorKind::io_error, "changed while being read", std::string(path), 0};
      }
      return with_origin(host_fs::read_handle(**file, max_bytes, &cut, offset));
    }
    if (probe.error().kind != ErrorKind::unsupported) return probe.error();
  }
  auto r = resolve(path);
  if (!r) return r.error();
  if (r->kind != host_fs::Kind::regular || !r->parent) return not_regular;
  return with_origin(host_fs::read_at(*r->parent, r->name, max_bytes, &cut, offset));
}

Result<FileStat> SystemView::stat(std::string_view path) const {
  if (!root_handle_) return *root_error_;
  FileStat st;
  if (use_kernel_resolution()) {
    auto h = open_by_kernel(path, host_fs::OpenAs::path_only);
    if (h) {
      auto kind = host_fs::kind_of(**h);
      if (!kind) return kind.error();
      st.is_dir = *kind == host_fs::Kind::directory;
      st.is_regular = *kind == host_fs::Kind::regular;
      if (st.is_regular) {
        if (auto size = host_fs::size_of(**h)) st.size_bytes = *size;
      }
      return st;
    }
    if (h.error().kind != ErrorKind::unsupported) return h.error();
  }
  auto r = resolve(path);
  if (!r) return r.error();
  st.is_dir = r->kind == host_fs::Kind::directory;
  st.is_regular = r->kind == host_fs::Kind::regular;
  if (st.is_regular) {
    auto size = host_fs::size_at(*r->parent, r->name);
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
  if (!root_handle_) return *root_error_;
  host_fs::HandleRef dir;
  if (use_kernel_resolution()) {
    auto h = open_by_kernel(path, host_fs::OpenAs::directory);
    if (h) dir = *h;
    if (!h && h.error().kind != ErrorKind::unsupported) return h.error();
  }
  if (!dir) {
    auto r = resolve(path);
    if (!r) return r.error();
    if (!r->dir) return Error{ErrorKind::not_found, "not a directory", std::string(path), 20};
    dir = r->dir;
  }
  bool cut = false;
  auto entries = host_fs::list_at(*dir, kMaxDirEntries, &cut);
  if (!entries) {
    Error e = entries.error();
    e.origin = std::string(path);
    return e;
  }
  if (cut) {
    note_bound(std::string(path), "more than " + std::to_string(kMaxDirEntries) + " entries; only " +
                                      std::to_string(kMaxDirEntries) + " were looked at");
  }
  std::vector<DirEntry> out;
  out.reserve(entries->size());
  for (const auto& e : *entries) {
    DirEntry d{e.name, e.kind == host_fs::Kind::directory, e.kind == host_fs::Kind::symlink};
    if (d.is_symlink) {
      // On the live machine the host's own link resolution is the target's (and much
      // cheaper); under another root every link is resolved inside that root.
      d.is_dir = options_.root == "/" ? host_fs::is_dir_followed_at(*dir, e.name) : is_dir(join(path, e.name));
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

namespace {

/// An env file as UTF-8. Windows PowerShell 5.1's `>` (Out-File) writes UTF-16LE with a
/// byte-order mark ("Unicode", about_Character_Encoding) and `Out-File -Encoding utf8` a UTF-8
/// one; both are what the documented `Get-ChildItem Env: | ... > env.txt` gives. UTF-8 text
/// never holds a NUL, so a NUL second byte is UTF-16LE without its mark.
std::string env_file_text(std::string_view bytes) {
  if (bytes.starts_with("\xFF\xFE")) return utf16le_to_utf8(bytes.substr(2));
  if (bytes.starts_with("\xEF\xBB\xBF")) return std::string(bytes.substr(3));
  if (bytes.size() >= 2 && bytes[0] != '\0' && bytes[1] == '\0') return utf16le_to_utf8(bytes);
  return std::string(bytes);
}

}  // namespace

EnvFile parse_env_file(std::string_view bytes) {
  EnvFile out;
  const std::string text = env_file_text(bytes);
  size_t problems = 0;
  const auto problem = [&](std::string message) {
    if (++problems <= EnvFile::kMaxProblems) out.problems.push_back(std::move(message));
  };
  int n = 0;
  for (std::string_view raw : lines(text)) {
    ++n;
    std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#') continue;
    if (line.find('\0') != std::string_view::npos) {
      // No environment can hold a NUL: the line is damaged, not a variable.
      problem("line " + std::to_string(n) + ": contains a NUL byte; ignored");
      continue;
    }
    if (line.starts_with("export ")) line = trim(line.substr(7));
    auto eq = line.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      problem("line " + std::to_string(n) + ": not KEY=VALUE: " + printable(line, 80));
      continue;
    }
    std::string key(trim(line.substr(0, eq)));
    out.env[key] = std::string(unquote(line.substr(eq + 1)));
  }
  if (problems > EnvFile::kMaxProblems) {
    out.problems.push_back("and " + std::to_string(problems - EnvFile::kMaxProblems) + " more malformed lines");
  }
  return out;
}

}  // namespace gpudoctor
