// Windows variant of host_fs: wide-character paths with the \\?\ prefix, so a path longer than
// MAX_PATH (260) works without the LongPathsEnabled policy. Windows has no openat(): a Handle is
// an open directory together with the full path it was opened by, and lookups in it go by that
// path. Each directory of a lookup is held open without FILE_SHARE_DELETE, so none of the chain
// can be renamed or removed while the lookup holds it, which is what the descriptors give on
// POSIX: a rename elsewhere cannot redirect the walk.
#include <windows.h>

#include <algorithm>
#include <cstdint>

#include "platform/host_fs.hpp"
#include "platform/win32_text.hpp"

namespace gpudoctor::host_fs {
namespace {

using win32::error_text;
using win32::narrow;
using win32::widen;

Error win_error(DWORD code, const std::string& path, const char* what) {
  ErrorKind kind = ErrorKind::io_error;
  if (code == ERROR_FILE_NOT_FOUND || code == ERROR_PATH_NOT_FOUND || code == ERROR_INVALID_NAME ||
      code == ERROR_BAD_NETPATH || code == ERROR_DIRECTORY) {
    kind = ErrorKind::not_found;
  }
  if (code == ERROR_ACCESS_DENIED || code == ERROR_SHARING_VIOLATION) kind = ErrorKind::permission_denied;
  if (code == ERROR_CANT_RESOLVE_FILENAME) kind = ErrorKind::invalid_data;  // a link loop
  return Error{kind, std::string(what) + ": " + error_text(code), path, static_cast<int>(code)};
}

/// The extended-length form of a path: absolute, backslashes, "\\?\" (or "\\?\UNC\") in front.
std::wstring long_path(const std::string& utf8) {
  std::wstring wide = widen(utf8.empty() ? std::string(".") : utf8);
  std::replace(wide.begin(), wide.end(), L'/', L'\\');
  if (wide.starts_with(L"\\\\?\\")) return wide;
  DWORD n = ::GetFullPathNameW(wide.c_str(), 0, nullptr, nullptr);
  if (n == 0) return wide;
  std::wstring full(n, L'\0');
  n = ::GetFullPathNameW(wide.c_str(), n, full.data(), nullptr);
  full.resize(n);
  if (full.starts_with(L"\\\\.\\") || full.starts_with(L"\\\\?\\")) return full;  // a device path as given
  if (full.starts_with(L"\\\\")) return L"\\\\?\\UNC\\" + full.substr(2);
  return L"\\\\?\\" + full;
}

/// One component for a *_at lookup: a separator or ':' (an alternate data stream, "a:b") in a name
/// from a tree would address something else than the entry of that name.
bool plain_component(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find_first_of("\\/:") == std::string::npos;
}

Kind kind_from_attributes(DWORD attributes) {
  if ((attributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0) return Kind::symlink;
  if ((attributes & FILE_ATTRIBUTE_DIRECTORY) != 0) return Kind::directory;
  if ((attributes & FILE_ATTRIBUTE_DEVICE) != 0) return Kind::other;
  return Kind::regular;
}

/// Closes a handle on every path out.
struct Owned {
  HANDLE h = INVALID_HANDLE_VALUE;
  ~Owned() {
    if (h != INVALID_HANDLE_VALUE) ::CloseHandle(h);
  }
};

constexpr DWORD kShareAll = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

HANDLE open_for_reading(const std::wstring& path, bool follow) {
  return ::CreateFileW(path.c_str(), GENERIC_READ, kShareAll, nullptr, OPEN_EXISTING,
                       FILE_ATTRIBUTE_NORMAL | (follow ? 0 : FILE_FLAG_OPEN_REPARSE_POINT), nullptr);
}

/// Reads a handle to its end or max_bytes (one byte more is asked for, so a file exactly
/// max_bytes long is not reported as cut).
Result<std::string> read_all(HANDLE h, const std::string& path, size_t max_bytes, size_t size_hint, bool* cut) {
  std::string out;
  out.resize(std::min<size_t>(max_bytes, size_hint > 0 ? size_hint : size_t{64 * 1024}) + 1);
  size_t used = 0;
  while (used <= max_bytes) {
    if (used == out.size()) out.resize(std::min(max_bytes + 1, out.size() * 2 + 4096));
    DWORD want = static_cast<DWORD>(std::min<size_t>(out.size() - used, 1u << 30));
    DWORD got = 0;
    if (::ReadFile(h, out.data() + used, want, &got, nullptr) == 0) {
      DWORD code = ::GetLastError();
      if (code == ERROR_BROKEN_PIPE || code == ERROR_HANDLE_EOF) break;  // a pipe's writer is done
      return win_error(code, path, "read");
    }
    if (got == 0) break;
    used += got;
  }
  if (cut != nullptr) *cut = used > max_bytes;
  out.resize(std::min(used, max_bytes));
  return out;
}

/// A regular file on a disk: not a directory, a device (NUL, CON, COM1) or a pipe.
Result<std::string> read_regular(HANDLE h, const std::string& path, size_t max_bytes, bool* cut) {
  BY_HANDLE_FILE_INFORMATION info{};
  if (::GetFileType(h) != FILE_TYPE_DISK || ::GetFileInformationByHandle(h, &info) == 0 ||
      (info.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT)) != 0) {
    return Error{ErrorKind::invalid_data, "not a regular file", path, 0};
  }
  const std::uint64_t size = (std::uint64_t{info.nFileSizeHigh} << 32) | info.nFileSizeLow;
  return read_all(h, path, max_bytes, static_cast<size_t>(std::min<std::uint64_t>(size, max_bytes)), cut);
}

HANDLE native(const Handle& handle) {
  return reinterpret_cast<HANDLE>(handle.native());
}

std::string child_path(const Handle& dir, const std::string& name) {
  return dir.path() + "\\" + name;
}

}  // namespace

Result<Kind> kind_of(const std::string& path) {
  WIN32_FILE_ATTRIBUTE_DATA data{};
  if (::GetFileAttributesExW(long_path(path).c_str(), GetFileExInfoStandard, &data) == 0) {
    return win_error(::GetLastError(), path, "stat");
  }
  return kind_from_attributes(data.dwFileAttributes);
}

Result<Kind> kind_of_followed(const std::string& path) {
  Owned f{::CreateFileW(long_path(path).c_str(), FILE_READ_ATTRIBUTES, kShareAll, nullptr, OPEN_EXISTING,
                        FILE_FLAG_BACKUP_SEMANTICS, nullptr)};
  if (f.h == INVALID_HANDLE_VALUE) return win_error(::GetLastError(), path, "stat");
  BY_HANDLE_FILE_INFORMATION info{};
  if (::GetFileInformationByHandle(f.h, &info) == 0) return win_error(::GetLastError(), path, "stat");
  return kind_from_attributes(info.dwFileAttributes & ~static_cast<DWORD>(FILE_ATTRIBUTE_REPARSE_POINT));
}

Result<std::uint64_t> size_of(const std::string& path) {
  WIN32_FILE_ATTRIBUTE_DATA data{};
  if (::GetFileAttributesExW(long_path(path).c_str(), GetFileExInfoStandard, &data) == 0) {
    return win_error(::GetLastError(), path, "stat");
  }
  return (std::uint64_t{data.nFileSizeHigh} << 32) | data.nFileSizeLow;
}

Result<std::string> read_link(const std::string& path) {
  // The final target as Windows resolves it (a symbolic link or a junction), as an absolute
  // path: SystemView re-roots an absolute target inside the tree.
  Owned f{::CreateFileW(long_path(path).c_str(), FILE_READ_ATTRIBUTES, kShareAll, nullptr, OPEN_EXISTING,
                        FILE_FLAG_BACKUP_SEMANTICS, nullptr)};
  if (f.h == INVALID_HANDLE_VALUE) return win_error(::GetLastError(), path, "readlink");
  std::wstring target(32768, L'\0');
  DWORD n = ::GetFinalPathNameByHandleW(f.h, target.data(), static_cast<DWORD>(target.size()), FILE_NAME_NORMALIZED);
  if (n == 0 || n >= target.size()) return win_error(::GetLastError(), path, "readlink");
  target.resize(n);
  if (target.starts_with(L"\\\\?\\UNC\\")) {
    target = L"\\\\" + target.substr(8);
  } else if (target.starts_with(L"\\\\?\\")) {
    target = target.substr(4);
  }
  return narrow(target);
}

namespace {

Result<std::vector<Entry>> list_path(const std::wstring& dir, const std::string& shown, size_t max_entries, bool* cut) {
  WIN32_FIND_DATAW data{};
  HANDLE find = ::FindFirstFileExW((dir + L"\\*").c_str(), FindExInfoBasic, &data, FindExSearchNameMatch, nullptr,
                                   FIND_FIRST_EX_LARGE_FETCH);
  if (find == INVALID_HANDLE_VALUE) return win_error(::GetLastError(), shown, "opendir");
  std::vector<Entry> out;
  if (cut != nullptr) *cut = false;
  do {
    std::string name = narrow(data.cFileName);
    if (name == "." || name == "..") continue;
    if (out.size() >= max_entries) {
      if (cut != nullptr) *cut = true;
      break;
    }
    out.push_back(Entry{std::move(name), kind_from_attributes(data.dwFileAttributes)});
  } while (::FindNextFileW(find, &data) != 0);
  ::FindClose(find);
  return out;
}

}  // namespace

Result<std::vector<Entry>> list(const std::string& path, size_t max_entries) {
  return list_path(long_path(path), path, max_entries, nullptr);
}

Result<std::string> read(const std::string& path, size_t max_bytes) {
  Owned f{open_for_reading(long_path(path), false)};
  if (f.h == INVALID_HANDLE_VALUE) return win_error(::GetLastError(), path, "open");
  return read_regular(f.h, path, max_bytes, nullptr);
}

Result<std::string> read_followed(const std::string& path, size_t max_bytes, bool* cut) {
  Owned f{open_for_reading(long_path(path), true)};
  if (f.h == INVALID_HANDLE_VALUE) return win_error(::GetLastError(), path, "open");
  return read_regular(f.h, path, max_bytes, cut);
}

Result<std::string> read_user_file(const std::string& path, size_t max_bytes, bool* cut) {
  Owned f{open_for_reading(long_path(path), true)};
  if (f.h == INVALID_HANDLE_VALUE) {
    DWORD code = ::GetLastError();
    if (code == ERROR_ACCESS_DENIED && kind_of_followed(path).value_or(Kind::other) == Kind::directory) {
      return Error{ErrorKind::invalid_data, "is a directory", path, static_cast<int>(code)};
    }
    return win_error(code, path, "open");
  }
  // The user's own path: a named pipe is read as its writer produces it.
  if (::GetFileType(f.h) == FILE_TYPE_PIPE) return read_all(f.h, path, max_bytes, 0, cut);
  return read_regular(f.h, path, max_bytes, cut);
}

Handle::~Handle() {
  if (native_ != 0 && reinterpret_cast<HANDLE>(native_) != INVALID_HANDLE_VALUE) {
    ::CloseHandle(reinterpret_cast<HANDLE>(native_));
  }
}

namespace {

/// Opens a directory and holds it (no FILE_SHARE_DELETE: it cannot be renamed while held).
Result<HandleRef> hold_directory(const std::wstring& wide, const std::string& shown, bool follow) {
  HANDLE h = ::CreateFileW(wide.c_str(), FILE_READ_ATTRIBUTES | FILE_LIST_DIRECTORY, FILE_SHARE_READ | FILE_SHARE_WRITE,
                           nullptr, OPEN_EXISTING,
                           FILE_FLAG_BACKUP_SEMANTICS | (follow ? 0 : FILE_FLAG_OPEN_REPARSE_POINT), nullptr);
  if (h == INVALID_HANDLE_VALUE) return win_error(::GetLastError(), shown, "open");
  auto handle = std::make_shared<const Handle>(reinterpret_cast<std::intptr_t>(h), narrow(wide));
  BY_HANDLE_FILE_INFORMATION info{};
  if (::GetFileInformationByHandle(h, &info) == 0) return win_error(::GetLastError(), shown, "open");
  if ((info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0 && !follow) {
    return Error{ErrorKind::invalid_data, "too many levels of symbolic links", shown, ERROR_CANT_RESOLVE_FILENAME};
  }
  if ((info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) == 0) {
    return Error{ErrorKind::not_found, "not a directory", shown, ERROR_DIRECTORY};
  }
  return handle;
}

}  // namespace

Result<HandleRef> open_dir(const std::string& path) {
  return hold_directory(long_path(path), path, true);
}

Result<Kind> kind_at(const Handle& dir, const std::string& name) {
  if (!plain_component(name)) return Error{ErrorKind::not_found, "not a plain file name", name, ERROR_INVALID_NAME};
  WIN32_FILE_ATTRIBUTE_DATA data{};
  if (::GetFileAttributesExW(widen(child_path(dir, name)).c_str(), GetFileExInfoStandard, &data) == 0) {
    return win_error(::GetLastError(), name, "stat");
  }
  return kind_from_attributes(data.dwFileAttributes);
}

Result<HandleRef> open_dir_at(const Handle& dir, const std::string& name) {
  if (!plain_component(name)) return Error{ErrorKind::not_found, "not a plain file name", name, ERROR_INVALID_NAME};
  return hold_directory(widen(child_path(dir, name)), name, false);
}

Result<std::string> read_link_at(const Handle& dir, const std::string& name) {
  if (!plain_component(name)) return Error{ErrorKind::not_found, "not a plain file name", name, ERROR_INVALID_NAME};
  return read_link(child_path(dir, name));
}

Result<std::vector<Entry>> list_at(const Handle& dir, size_t max_entries, bool* cut) {
  return list_path(widen(dir.path()), ".", max_entries, cut);
}

bool is_dir_followed_at(const Handle& dir, const std::string& name) {
  return plain_component(name) && kind_of_followed(child_path(dir, name)).value_or(Kind::other) == Kind::directory;
}

Result<std::uint64_t> size_at(const Handle& dir, const std::string& name) {
  if (!plain_component(name)) return Error{ErrorKind::not_found, "not a plain file name", name, ERROR_INVALID_NAME};
  return size_of(child_path(dir, name));
}

Result<std::string> read_at(const Handle& dir, const std::string& name, size_t max_bytes, bool* cut) {
  if (!plain_component(name)) return Error{ErrorKind::not_found, "not a plain file name", name, ERROR_INVALID_NAME};
  Owned f{open_for_reading(widen(child_path(dir, name)), false)};
  if (f.h == INVALID_HANDLE_VALUE) return win_error(::GetLastError(), name, "open");
  return read_regular(f.h, name, max_bytes, cut);
}

Result<HandleRef> open_in_root(const Handle&, const std::string& relative_path, OpenAs) {
  // No kernel-side confinement on Windows: SystemView walks one component at a time.
  return Error{ErrorKind::unsupported, "no kernel-side path confinement on Windows", relative_path, 0};
}

Result<Kind> kind_of(const Handle& handle) {
  BY_HANDLE_FILE_INFORMATION info{};
  if (::GetFileInformationByHandle(native(handle), &info) == 0) return win_error(::GetLastError(), "", "fstat");
  return kind_from_attributes(info.dwFileAttributes);
}

Result<std::pair<std::uint64_t, std::uint64_t>> identity(const Handle& handle) {
  BY_HANDLE_FILE_INFORMATION info{};
  if (::GetFileInformationByHandle(native(handle), &info) == 0) return win_error(::GetLastError(), "", "fstat");
  return std::make_pair(std::uint64_t{info.dwVolumeSerialNumber},
                        (std::uint64_t{info.nFileIndexHigh} << 32) | info.nFileIndexLow);
}

Result<std::string> read_handle(const Handle& file, size_t max_bytes, bool* cut) {
  return read_regular(native(file), file.path(), max_bytes, cut);
}

void keep_standard_streams_apart() {
  // Nothing to do: a Windows process's standard handles are not reused numbers that the next
  // file opened could take.
}

std::vector<std::pair<std::string, std::string>> process_environment() {
  std::vector<std::pair<std::string, std::string>> out;
  wchar_t* block = ::GetEnvironmentStringsW();
  if (block == nullptr) return out;
  for (const wchar_t* e = block; *e != L'\0'; e += std::wcslen(e) + 1) {
    std::string kv = narrow(e);
    auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) continue;  // "=C:=C:\x": the per-drive directories
    out.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  ::FreeEnvironmentStringsW(block);
  return out;
}

std::string host_name() {
  wchar_t name[256] = {};
  DWORD size = 256;
  if (::GetComputerNameExW(ComputerNameDnsHostname, name, &size) == 0) return "";
  return narrow(std::wstring(name, size));
}

}  // namespace gpudoctor::host_fs
