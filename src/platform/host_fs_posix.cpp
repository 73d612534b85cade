#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "platform/host_fs.hpp"

#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define GPUDOCTOR_HAVE_OPENAT2 1
#endif

extern char** environ;

namespace gpudoctor::host_fs {
namespace {

Error errno_error(int err, const std::string& path, const char* what) {
  ErrorKind kind = ErrorKind::io_error;
  if (err == ENOENT || err == ENOTDIR) kind = ErrorKind::not_found;
  if (err == EACCES || err == EPERM) kind = ErrorKind::permission_denied;
  if (err == ELOOP) kind = ErrorKind::invalid_data;
  return Error{kind, std::string(what) + ": " + std::strerror(err), path, err};
}

Kind kind_from_mode(mode_t mode) {
  if (S_ISREG(mode)) return Kind::regular;
  if (S_ISDIR(mode)) return Kind::directory;
  if (S_ISLNK(mode)) return Kind::symlink;
  return Kind::other;
}

/// Closes a descriptor on every path out.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

Result<Kind> kind_of(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return errno_error(errno, path, "lstat");
  return kind_from_mode(st.st_mode);
}

Result<Kind> kind_of_followed(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return errno_error(errno, path, "stat");
  return kind_from_mode(st.st_mode);
}

Result<std::uint64_t> size_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return errno_error(errno, path, "stat");
  return static_cast<std::uint64_t>(st.st_size);
}

Result<std::string> read_link(const std::string& path) {
  std::string buf(4096, '\0');
  ssize_t n = ::readlink(path.c_str(), buf.data(), buf.size());
  if (n < 0) return errno_error(errno, path, "readlink");
  buf.resize(static_cast<size_t>(n));
  return buf;
}

Result<std::vector<Entry>> list(const std::string& path, size_t max_entries) {
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) return errno_error(errno, path, "opendir");
  std::vector<Entry> out;
  while (out.size() < max_entries) {
    errno = 0;
    dirent* de = ::readdir(dir);
    if (de == nullptr) break;
    std::string name = de->d_name;
    if (name == "." || name == "..") continue;
    Entry e{name, Kind::other};
    switch (de->d_type) {
      case DT_REG:
        e.kind = Kind::regular;
        break;
      case DT_DIR:
        e.kind = Kind::directory;
        break;
      case DT_LNK:
        e.kind = Kind::symlink;
        break;
      case DT_UNKNOWN: {
        auto k = kind_of(path + "/" + name);
        if (k) e.kind = *k;
        break;
      }
      default:
        break;
    }
    out.push_back(std::move(e));
  }
  ::closedir(dir);
  return out;
}

namespace {

Kind kind_from_dirent(unsigned char type) {
  switch (type) {
    case DT_REG:
      return Kind::regular;
    case DT_DIR:
      return Kind::directory;
    case DT_LNK:
      return Kind::symlink;
    default:
      return Kind::other;
  }
}

/// Reads an open descriptor to its end or max_bytes; one byte more is asked for, so a file
/// exactly max_bytes long is not reported as cut.
Result<std::string> read_fd(int fd, const std::string& path, size_t max_bytes, size_t size_hint, bool* cut) {
  std::string out;
  out.resize(std::min<size_t>(max_bytes, size_hint > 0 ? size_hint : size_t{64 * 1024}) + 1);
  size_t used = 0;
  while (used <= max_bytes) {
    if (used == out.size()) out.resize(std::min(max_bytes + 1, out.size() * 2 + 4096));
    ssize_t n = ::read(fd, out.data() + used, out.size() - used);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno_error(errno, path, "read");
    }
    if (n == 0) break;
    used += static_cast<size_t>(n);
  }
  if (cut != nullptr) *cut = used > max_bytes;
  out.resize(std::min(used, max_bytes));
  return out;
}

Result<std::string> read_regular_fd(int fd, const std::string& path, size_t max_bytes, bool* cut,
                                    std::uint64_t offset = 0) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return errno_error(errno, path, "fstat");
  if (!S_ISREG(st.st_mode)) return Error{ErrorKind::invalid_data, "not a regular file", path, 0};
  const auto size = static_cast<std::uint64_t>(std::max<off_t>(st.st_size, 0));
  if (offset == 0) return read_fd(fd, path, max_bytes, static_cast<size_t>(size), cut);  // /proc files say 0
  if (offset >= size) {
    if (cut != nullptr) *cut = false;
    return std::string();
  }
  if (::lseek(fd, static_cast<off_t>(offset), SEEK_SET) < 0) return errno_error(errno, path, "seek");
  return read_fd(fd, path, max_bytes, static_cast<size_t>(size - offset), cut);
}

}  // namespace

Result<std::string> read(const std::string& path, size_t max_bytes) {
  Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW)};
  if (f.fd < 0) return errno_error(errno, path, "open");
  return read_regular_fd(f.fd, path, max_bytes, nullptr);
}

Result<std::string> read_followed(const std::string& path, size_t max_bytes, bool* cut) {
  Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (f.fd < 0) return errno_error(errno, path, "open");
  return read_regular_fd(f.fd, path, max_bytes, cut);
}

Result<std::string> read_user_file(const std::string& path, size_t max_bytes, bool* cut) {
  // Blocking on purpose: a FIFO from <(...) is read as its writer produces it.
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY)};
  if (f.fd < 0) return errno_error(errno, path, "open");
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) return errno_error(errno, path, "fstat");
  if (S_ISDIR(st.st_mode)) return Error{ErrorKind::invalid_data, "is a directory", path, EISDIR};
  return read_fd(f.fd, path, max_bytes, S_ISREG(st.st_mode) ? static_cast<size_t>(st.st_size) : 0, cut);
}

Handle::~Handle() {
  if (native_ >= 0) ::close(static_cast<int>(native_));
}

namespace {
#ifdef O_PATH
constexpr int kPathFlag = O_PATH;
#else
constexpr int kPathFlag = O_RDONLY;
#endif
}  // namespace

Result<HandleRef> open_dir(const std::string& path) {
  int fd = ::open(path.c_str(), kPathFlag | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return errno_error(errno, path, "open");
  return std::make_shared<const Handle>(fd);
}

namespace {

/// The group is this user's own: a user private group (Debian's and Fedora's default, where
/// umask 002 makes every file the user creates group-writable), named after the user, their
/// primary group, with no other members listed. (Another account whose passwd entry has this
/// gid as its primary group is a member too; enumerating every account to rule that out could
/// take minutes on a directory service, and such an account is a misconfiguration.) The answer
/// is kept per group for the process: each lookup may ask LDAP or SSSD.
bool private_group_of_user(gid_t gid) {
  static std::mutex mutex;
  static std::map<gid_t, bool> known;
  std::lock_guard lock(mutex);
  if (auto it = known.find(gid); it != known.end()) return it->second;
  auto lookup = [gid]() {
    std::vector<char> buf(16384);
    struct passwd pw {};
    struct passwd* pw_found = nullptr;
    if (::getpwuid_r(::geteuid(), &pw, buf.data(), buf.size(), &pw_found) != 0 || pw_found == nullptr) return false;
    if (pw.pw_gid != gid) return false;
    const std::string user = pw.pw_name;
    // A group's member list may be long: grow the buffer a few times, then give up (not private).
    for (size_t size = 16384; size <= (size_t{1} << 20); size *= 4) {
      std::vector<char> gbuf(size);
      struct group gr {};
      struct group* gr_found = nullptr;
      const int rc = ::getgrgid_r(gid, &gr, gbuf.data(), gbuf.size(), &gr_found);
      if (rc == ERANGE) continue;
      if (rc != 0 || gr_found == nullptr || user != gr.gr_name) return false;
      for (char** m = gr.gr_mem; m != nullptr && *m != nullptr; ++m) {
        if (user != *m) return false;
      }
      return true;
    }
    return false;
  };
  return known.emplace(gid, lookup()).first->second;
}

/// Why someone other than root and this user could change what is at `path`; empty when no one.
std::string others_can_write(const std::string& path, const struct stat& st) {
  if (st.st_uid != 0 && st.st_uid != ::geteuid()) return path + " belongs to user id " + std::to_string(st.st_uid);
  const bool dir = S_ISDIR(st.st_mode);
  // In a sticky folder only an entry's owner (and the folder's, and root) may rename or remove it.
  const bool sticky = dir && (st.st_mode & S_ISVTX) != 0;
  if ((st.st_mode & S_IWOTH) != 0 && !sticky) return path + " is writable by every user";
  if ((st.st_mode & S_IWGRP) != 0 && !sticky) {
    // With a POSIX access ACL the group bits are the ACL's mask: write there may be granted to
    // any named user or group (setfacl), whatever the owning group is.
    if (::getxattr(path.c_str(), "system.posix_acl_access", nullptr, 0) >= 0)
      return path + " has an access control list that may let others write (getfacl)";
    if (!private_group_of_user(st.st_gid)) return path + " is writable by group id " + std::to_string(st.st_gid);
  }
  return {};
}

/// The check of `real` (a resolved path) and every folder above it.
std::string chain_writable_by_others(const std::string& real, struct stat st) {
  if (std::string why = others_can_write(real, st); !why.empty()) return why;
  for (size_t slash = real.rfind('/'); slash != std::string::npos && slash > 0; slash = real.rfind('/', slash - 1)) {
    const std::string dir = real.substr(0, slash);
    if (::stat(dir.c_str(), &st) != 0) return dir + ": " + std::strerror(errno);
    if (std::string why = others_can_write(dir, st); !why.empty()) return why;
  }
  if (::stat("/", &st) != 0) return std::string("/: ") + std::strerror(errno);
  return others_can_write("/", st);
}

std::string resolved(const std::string& path, std::string& out) {
  char* real = ::realpath(path.c_str(), nullptr);
  if (real == nullptr) return path + ": " + std::strerror(errno);
  out = real;
  std::free(real);
  return {};
}

}  // namespace

std::string writable_by_others(const std::string& path) {
  // The file as the loader will reach it (links resolved), and every folder above it: whoever
  // may write to one of them could rename a folder and put another library in its place. And
  // the folder the name itself is in, when the name is a link: whoever may write there could
  // point the link elsewhere.
  std::string real;
  if (std::string why = resolved(path, real); !why.empty()) return why;
  struct stat st {};
  if (::stat(real.c_str(), &st) != 0) return real + ": " + std::strerror(errno);
  if (!S_ISREG(st.st_mode)) return real + " is not a regular file";
  if (std::string why = chain_writable_by_others(real, st); !why.empty()) return why;
  const size_t slash = path.rfind('/');
  std::string folder;
  if (std::string why = resolved(slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash)), folder);
      !why.empty())
    return why;
  if (folder == real.substr(0, real.rfind('/')) || (folder == "/" && real.rfind('/') == 0)) return {};
  if (::stat(folder.c_str(), &st) != 0) return folder + ": " + std::strerror(errno);
  return chain_writable_by_others(folder, st);
}

Result<HandleRef> open_drive_root(char letter) {
  return Error{ErrorKind::not_found, "no drive letters on this host", std::string(1, letter) + ":", ENOENT};
}

Result<Kind> kind_at(const Handle& dir, const std::string& name) {
  struct stat st {};
  if (::fstatat(dir.fd(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return errno_error(errno, name, "lstat");
  return kind_from_mode(st.st_mode);
}

Result<HandleRef> open_dir_at(const Handle& dir, const std::string& name) {
  int fd = ::openat(dir.fd(), name.c_str(), kPathFlag | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return errno_error(errno, name, "open");
  return std::make_shared<const Handle>(fd);
}

Result<std::string> read_link_at(const Handle& dir, const std::string& name) {
  std::string buf(4096, '\0');
  ssize_t n = ::readlinkat(dir.fd(), name.c_str(), buf.data(), buf.size());
  if (n < 0) return errno_error(errno, name, "readlink");
  buf.resize(static_cast<size_t>(n));
  return buf;
}

Result<std::vector<Entry>> list_at(const Handle& dir, size_t max_entries, bool* cut) {
  // An O_PATH descriptor cannot be read: open the directory itself ("."), relative to it.
  int fd = ::openat(dir.fd(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return errno_error(errno, ".", "opendir");
  DIR* d = ::fdopendir(fd);
  if (d == nullptr) {
    int err = errno;
    ::close(fd);
    return errno_error(err, ".", "opendir");
  }
  std::vector<Entry> out;
  if (cut != nullptr) *cut = false;
  while (dirent* de = ::readdir(d)) {
    std::string name = de->d_name;
    if (name == "." || name == "..") continue;
    if (out.size() >= max_entries) {
      if (cut != nullptr) *cut = true;
      break;
    }
    Entry e{name, kind_from_dirent(de->d_type)};
    if (de->d_type == DT_UNKNOWN) {
      if (auto k = kind_at(dir, name)) e.kind = *k;
    }
    out.push_back(std::move(e));
  }
  ::closedir(d);
  return out;
}

bool is_dir_followed_at(const Handle& dir, const std::string& name) {
  struct stat st {};
  return ::fstatat(dir.fd(), name.c_str(), &st, 0) == 0 && S_ISDIR(st.st_mode);
}

Result<std::uint64_t> size_at(const Handle& dir, const std::string& name) {
  struct stat st {};
  if (::fstatat(dir.fd(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return errno_error(errno, name, "stat");
  return static_cast<std::uint64_t>(st.st_size);
}

Result<std::string> read_at(const Handle& dir, const std::string& name, size_t max_bytes, bool* cut,
                            std::uint64_t offset) {
  Fd f{::openat(dir.fd(), name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW)};
  if (f.fd < 0) return errno_error(errno, name, "open");
  return read_regular_fd(f.fd, name, max_bytes, cut, offset);
}

Result<HandleRef> open_in_root(const Handle& root, const std::string& relative_path, OpenAs as) {
#if defined(GPUDOCTOR_HAVE_OPENAT2) && defined(SYS_openat2)
  struct open_how how {};
  // openat2 refuses (EINVAL) any flag O_PATH ignores, O_NOCTTY among them.
  how.flags = O_CLOEXEC;
  if (as == OpenAs::path_only) how.flags |= O_PATH;
  if (as == OpenAs::directory) how.flags |= O_PATH | O_DIRECTORY;
  if (as == OpenAs::file) how.flags |= O_RDONLY | O_NONBLOCK | O_NOCTTY;
  how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
  const std::string rel = relative_path.empty() ? "." : relative_path;
  for (;;) {
    long fd = ::syscall(SYS_openat2, root.fd(), rel.c_str(), &how, sizeof(how));
    if (fd >= 0) return std::make_shared<const Handle>(static_cast<int>(fd));
    // EAGAIN: a rename raced the lookup and the kernel refused to guess; ask again.
    if (errno == EAGAIN || errno == EINTR) continue;
    // ENOSYS: a kernel before 5.6; EPERM: a container's seccomp filter that does not know it.
    if (errno == ENOSYS || errno == EPERM) break;
    return errno_error(errno, relative_path, "open");
  }
#else
  (void)root;
  (void)relative_path;
  (void)as;
#endif
  return Error{ErrorKind::unsupported, "openat2 is not available", relative_path, ENOSYS};
}

Result<Kind> kind_of(const Handle& handle) {
  struct stat st {};
  if (::fstat(handle.fd(), &st) != 0) return errno_error(errno, "", "fstat");
  return kind_from_mode(st.st_mode);
}

Result<std::uint64_t> size_of(const Handle& handle) {
  struct stat st {};
  if (::fstat(handle.fd(), &st) != 0) return errno_error(errno, "", "fstat");
  return static_cast<std::uint64_t>(st.st_size);
}

Result<std::pair<std::uint64_t, std::uint64_t>> identity(const Handle& handle) {
  struct stat st {};
  if (::fstat(handle.fd(), &st) != 0) return errno_error(errno, "", "fstat");
  return std::make_pair(static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino));
}

Result<std::string> read_handle(const Handle& file, size_t max_bytes, bool* cut, std::uint64_t offset) {
  return read_regular_fd(file.fd(), "", max_bytes, cut, offset);
}

void keep_standard_streams_apart() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);  // the lowest free descriptor: fd
    if (null_fd >= 0 && null_fd != fd) {
      ::dup2(null_fd, fd);
      ::close(null_fd);
    }
  }
}

std::vector<std::pair<std::string, std::string>> process_environment() {
  std::vector<std::pair<std::string, std::string>> out;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string kv = *e;
    auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    out.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  return out;
}

void set_own_environment(const std::string& name, const std::string& value) {
  ::setenv(name.c_str(), value.c_str(), 1);
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

}  // namespace gpudoctor::host_fs
