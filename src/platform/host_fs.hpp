#pragma once
/// The few host filesystem calls SystemView needs, one implementation per host OS
/// (host_fs_posix.cpp, host_fs_win32.cpp). Paths here are host paths.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace gpudoctor::host_fs {

enum class Kind { regular, directory, symlink, other };

struct Entry {
  std::string name;
  Kind kind = Kind::other;  ///< without following links
};

/// lstat-like: does not follow a final symlink.
Result<Kind> kind_of(const std::string& path);
/// stat-like: follows symlinks (host semantics; use only where the root is "/").
Result<Kind> kind_of_followed(const std::string& path);
Result<std::uint64_t> size_of(const std::string& path);
Result<std::string> read_link(const std::string& path);
Result<std::vector<Entry>> list(const std::string& path, size_t max_entries);
/// Reads a regular file, at most max_bytes; refuses FIFOs, devices and sockets.
Result<std::string> read(const std::string& path, size_t max_bytes);
/// The same with links followed: for files under a directory the user named (--kb), which are
/// theirs to link. Still refuses FIFOs, devices and sockets, without blocking on them; *cut
/// says whether more than max_bytes was there.
Result<std::string> read_followed(const std::string& path, size_t max_bytes, bool* cut);
/// Reads a file the user named (an --env-file, a log): links are followed and a FIFO or
/// process substitution (<(...)) is read too, since the path is the user's own. At most
/// max_bytes; *cut says whether more was there.
Result<std::string> read_user_file(const std::string& path, size_t max_bytes, bool* cut);

/// An open descriptor (a directory opened O_PATH on Linux, or a file), closed with the last
/// reference. Lookups go relative to a directory's handle, one component at a time, so a rename
/// elsewhere cannot redirect them. On Windows, a HANDLE held open (the directory cannot be
/// renamed meanwhile) and the extended-length path it was opened by (host_fs_win32.cpp).
class Handle {
 public:
  explicit Handle(std::intptr_t native, std::string path = {}) : native_(native), path_(std::move(path)) {}
  ~Handle();
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  [[nodiscard]] int fd() const { return static_cast<int>(native_); }
  [[nodiscard]] std::intptr_t native() const { return native_; }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::intptr_t native_;
  std::string path_;
};
using HandleRef = std::shared_ptr<const Handle>;

/// Why someone other than root and this process's user could change the file at `path` (links
/// resolved) or any folder above it, which would let them put another file there; empty when
/// no one can: a library found by searching, before it is loaded. Group-writable is allowed for
/// the user's own private group, and any folder with the sticky bit (/tmp). Windows: the
/// file's, its folder's and every ancestor's access list (host_fs_win32.cpp).
std::string writable_by_others(const std::string& path);
/// Opens a directory the user named (--root): links in it are followed, it is theirs.
Result<HandleRef> open_dir(const std::string& path);
/// Windows: the root of drive `letter` ("D:\\") of a local disk (fixed, removable, optical, RAM
/// disk), with no dialog for a drive without its disk. A network drive is refused (not_found,
/// with that reason): a disconnected share stalls every call for tens of seconds. Elsewhere:
/// not_found.
Result<HandleRef> open_drive_root(char letter);
/// The entry `name` (one component) in dir, not following a final link.
Result<Kind> kind_at(const Handle& dir, const std::string& name);
/// Opens the subdirectory `name`; fails (ELOOP/ENOTDIR) if it is, or became, a link.
Result<HandleRef> open_dir_at(const Handle& dir, const std::string& name);
Result<std::string> read_link_at(const Handle& dir, const std::string& name);
/// Lists the directory handle itself; *cut says whether it had more than max_entries entries.
Result<std::vector<Entry>> list_at(const Handle& dir, size_t max_entries, bool* cut);
/// Whether `name` in dir, links followed by the host, is a directory (only for root "/").
bool is_dir_followed_at(const Handle& dir, const std::string& name);
Result<std::uint64_t> size_at(const Handle& dir, const std::string& name);
/// Reads the regular file `name` in dir without following a link there (one that appeared
/// since the lookup fails with ELOOP); at most max_bytes from byte `offset` on, *cut says
/// whether more was there.
Result<std::string> read_at(const Handle& dir, const std::string& name, size_t max_bytes, bool* cut,
                            std::uint64_t offset = 0);

/// Kernel-side confinement (Linux 5.6+ openat2 with RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS):
/// relative_path is resolved by the kernel inside root, links included, atomically. The
/// error kind is unsupported where the kernel (or a seccomp filter) lacks openat2: the caller
/// then walks one component at a time.
enum class OpenAs { path_only, directory, file };
Result<HandleRef> open_in_root(const Handle& root, const std::string& relative_path, OpenAs as);
/// fstat of an open descriptor.
Result<Kind> kind_of(const Handle& handle);
/// The size of an open descriptor's file (fstat's st_size).
Result<std::uint64_t> size_of(const Handle& handle);
/// The identity (device, inode) of an open descriptor: the same file opened twice compares equal.
Result<std::pair<std::uint64_t, std::uint64_t>> identity(const Handle& handle);
/// Reads a handle opened with OpenAs::file, from byte `offset` on.
Result<std::string> read_handle(const Handle& file, size_t max_bytes, bool* cut, std::uint64_t offset = 0);
/// A descriptor 0-2 that the caller closed would be handed to the next file opened, and
/// output would land in it: each closed one is held by /dev/null opened read-only, so writes to
/// a closed stdout fail (EBADF) and are reported.
void keep_standard_streams_apart();
/// The environment of this process (UTF-8 on Windows too).
std::vector<std::pair<std::string, std::string>> process_environment();
/// Sets a variable in this process's own environment, for a vendor library loaded after it that
/// reads it once (NCCL_DEBUG, OMP_NUM_THREADS). On Windows both the process block and the C
/// runtime's copy, since a DLL may read either.
void set_own_environment(const std::string& name, const std::string& value);
/// This machine's name (gethostname; GetComputerNameExW), empty if it cannot be had.
std::string host_name();

}  // namespace gpudoctor::host_fs
