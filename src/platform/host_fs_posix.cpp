#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "platform/host_fs.hpp"

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

Result<std::string> read(const std::string& path, size_t max_bytes) {
  Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW)};
  if (f.fd < 0) return errno_error(errno, path, "open");
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) return errno_error(errno, path, "fstat");
  if (!S_ISREG(st.st_mode)) {
    return Error{ErrorKind::invalid_data, "not a regular file", path, 0};
  }
  std::string out;
  out.resize(std::min<size_t>(max_bytes, st.st_size > 0 ? static_cast<size_t>(st.st_size) : size_t{64 * 1024}));
  size_t used = 0;
  while (used < max_bytes) {
    if (used == out.size()) out.resize(std::min(max_bytes, out.size() * 2 + 4096));
    ssize_t n = ::read(f.fd, out.data() + used, out.size() - used);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno_error(errno, path, "read");
    }
    if (n == 0) break;
    used += static_cast<size_t>(n);
  }
  out.resize(used);
  return out;
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

}  // namespace gpudoctor::host_fs
