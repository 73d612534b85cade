// Windows variant of host_fs: wide-character paths with the \\?\ prefix, so a path longer than
// MAX_PATH (260) works without the LongPathsEnabled policy. Lookups inside a tree (the *_at calls)
// go by handle, as openat() does on POSIX: each name is opened with NtCreateFile relative to its
// folder's handle (OBJECT_ATTRIBUTES.RootDirectory), one component at a time, with
// FILE_OPEN_REPARSE_POINT, so a symbolic link or junction is opened as itself and reported as a
// link, never followed by the system; a swap of a folder for a link between two steps cannot
// redirect the walk (issue 11, D1). Folders are held open without FILE_SHARE_DELETE, so none of
// the chain can be renamed while a lookup holds it.
#include <windows.h>
// windows.h first
#include <aclapi.h>
#include <sddl.h>
#include <winioctl.h>
#include <winternl.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "platform/host_fs.hpp"
#include "platform/win32_text.hpp"

namespace gpudoctor::host_fs {
namespace {

using win32::error_text;
using win32::narrow;
using win32::widen;

Error win_error(DWORD code, const std::string& path, const char* what) {
  ErrorKind kind = ErrorKind::io_error;
  // ERROR_NOT_READY: a card reader or optical drive without its disk; whatever PATH names there
  // is absent, as before drives were walked from their own root.
  if (code == ERROR_FILE_NOT_FOUND || code == ERROR_PATH_NOT_FOUND || code == ERROR_INVALID_NAME ||
      code == ERROR_BAD_NETPATH || code == ERROR_DIRECTORY || code == ERROR_NOT_READY) {
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
Result<std::string> read_regular(HANDLE h, const std::string& path, size_t max_bytes, bool* cut,
                                 std::uint64_t offset = 0) {
  BY_HANDLE_FILE_INFORMATION info{};
  if (::GetFileType(h) != FILE_TYPE_DISK || ::GetFileInformationByHandle(h, &info) == 0 ||
      (info.dwFileAttributes & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT)) != 0) {
    return Error{ErrorKind::invalid_data, "not a regular file", path, 0};
  }
  const std::uint64_t size = (std::uint64_t{info.nFileSizeHigh} << 32) | info.nFileSizeLow;
  if (offset >= size && offset > 0) {
    if (cut != nullptr) *cut = false;
    return std::string();
  }
  if (offset > 0) {
    LARGE_INTEGER at{};
    at.QuadPart = static_cast<LONGLONG>(offset);
    if (::SetFilePointerEx(h, at, nullptr, FILE_BEGIN) == 0) return win_error(::GetLastError(), path, "seek");
  }
  return read_all(h, path, max_bytes, static_cast<size_t>(std::min<std::uint64_t>(size - offset, max_bytes)), cut);
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

constexpr DWORD kDirectoryAccess = FILE_READ_ATTRIBUTES | FILE_LIST_DIRECTORY | FILE_TRAVERSE;

/// Opens a directory the user named and holds it (no FILE_SHARE_DELETE: it cannot be renamed
/// while held). Links on the way are followed: the path is the user's own.
Result<HandleRef> hold_directory(const std::wstring& wide, const std::string& shown) {
  HANDLE h = ::CreateFileW(wide.c_str(), kDirectoryAccess, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING,
                           FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (h == INVALID_HANDLE_VALUE) return win_error(::GetLastError(), shown, "open");
  auto handle = std::make_shared<const Handle>(reinterpret_cast<std::intptr_t>(h), narrow(wide));
  BY_HANDLE_FILE_INFORMATION info{};
  if (::GetFileInformationByHandle(h, &info) == 0) return win_error(::GetLastError(), shown, "open");
  if ((info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) == 0) {
    return Error{ErrorKind::not_found, "not a directory", shown, ERROR_DIRECTORY};
  }
  return handle;
}

Error not_plain(const std::string& name) {
  return Error{ErrorKind::not_found, "not a plain file name", name, ERROR_INVALID_NAME};
}

Error is_a_link(const std::string& name) {
  return Error{ErrorKind::invalid_data, "too many levels of symbolic links", name, ERROR_CANT_RESOLVE_FILENAME};
}

/// Wine opens a Unix symbolic link's target whatever FILE_OPEN_REPARSE_POINT says, and marks only
/// links to folders as reparse points. Under wine, then, an entry opened by handle must also sit
/// where its folder's final path and its name say, or the name was a link.
bool under_wine() {
  static const bool wine = ::GetProcAddress(::GetModuleHandleW(L"ntdll.dll"), "wine_get_version") != nullptr;
  return wine;
}

/// The object name of an open handle ("\\??\\Z:\\tmp\\tree\\x" under wine): NtQueryObject, since wine's
/// GetFinalPathNameByHandleW fails (ERROR_MORE_DATA) for a path longer than MAX_PATH.
std::wstring final_path(HANDLE h) {
  std::vector<std::uint64_t> storage(8 * 1024);  // 64 KiB, aligned for OBJECT_NAME_INFORMATION
  ULONG got = 0;
  const auto size = static_cast<ULONG>(storage.size() * sizeof(std::uint64_t));
  if (!NT_SUCCESS(::NtQueryObject(h, ObjectNameInformation, storage.data(), size, &got))) return {};
  const auto* info = reinterpret_cast<const OBJECT_NAME_INFORMATION*>(storage.data());
  if (info->Name.Buffer == nullptr) return {};
  return std::wstring(info->Name.Buffer, info->Name.Length / sizeof(wchar_t));
}

bool sits_where_named(HANDLE dir, HANDLE entry, const std::string& name) {
  std::wstring expected = final_path(dir);
  const std::wstring actual = final_path(entry);
  if (expected.empty() || actual.empty()) return false;
  if (!expected.ends_with(L'\\')) expected += L'\\';
  expected += widen(name);
  return ::CompareStringOrdinal(expected.c_str(), static_cast<int>(expected.size()), actual.c_str(),
                                static_cast<int>(actual.size()), TRUE) == CSTR_EQUAL;
}

/// The entry `name` of dir opened by handle (NtCreateFile relative to the folder's handle), as
/// itself: a link or junction is opened as the link, and reported so by `*link`.
Result<HandleRef> open_at(const Handle& dir, const std::string& name, ACCESS_MASK access, ULONG share, ULONG options,
                          const char* what, bool* link) {
  if (!plain_component(name)) return not_plain(name);
  std::wstring wide = widen(name);
  if (wide.size() > 32767) return not_plain(name);
  UNICODE_STRING text{};
  text.Buffer = wide.data();
  text.Length = text.MaximumLength = static_cast<USHORT>(wide.size() * sizeof(wchar_t));
  OBJECT_ATTRIBUTES attributes{};
  InitializeObjectAttributes(&attributes, &text, OBJ_CASE_INSENSITIVE, native(dir), nullptr);
  IO_STATUS_BLOCK io{};
  HANDLE h = nullptr;
  NTSTATUS status = ::NtCreateFile(&h, access | SYNCHRONIZE, &attributes, &io, nullptr, 0, share, FILE_OPEN,
                                   options | FILE_OPEN_REPARSE_POINT | FILE_SYNCHRONOUS_IO_NONALERT, nullptr, 0);
  if (!NT_SUCCESS(status)) return win_error(::RtlNtStatusToDosError(status), name, what);
  auto handle = std::make_shared<const Handle>(reinterpret_cast<std::intptr_t>(h), child_path(dir, name));
  BY_HANDLE_FILE_INFORMATION info{};
  if (::GetFileInformationByHandle(h, &info) == 0) return win_error(::GetLastError(), name, what);
  *link = (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0 ||
          (under_wine() && !sits_where_named(native(dir), h, name));
  return handle;
}

/// The same, refusing a link (ELOOP on POSIX with O_NOFOLLOW).
Result<HandleRef> open_no_link_at(const Handle& dir, const std::string& name, ACCESS_MASK access, ULONG share,
                                  ULONG options, const char* what) {
  bool link = false;
  auto h = open_at(dir, name, access, share, options, what, &link);
  if (h && link) return is_a_link(name);
  return h;
}

/// A symbolic link's or junction's target as stored (FSCTL_GET_REPARSE_POINT): relative text as
/// it is, "\??\C:\x" as "C:\x". Bounded by the buffer; offsets checked against what was read.
Result<std::string> reparse_target(HANDLE h, const std::string& name) {
  constexpr ULONG kSymlink = 0xA000000CUL;     // IO_REPARSE_TAG_SYMLINK
  constexpr ULONG kMountPoint = 0xA0000003UL;  // IO_REPARSE_TAG_MOUNT_POINT (a junction)
  std::string buffer(16 * 1024, '\0');         // MAXIMUM_REPARSE_DATA_BUFFER_SIZE
  DWORD got = 0;
  if (::DeviceIoControl(h, FSCTL_GET_REPARSE_POINT, nullptr, 0, buffer.data(), static_cast<DWORD>(buffer.size()), &got,
                        nullptr) == 0) {
    return win_error(::GetLastError(), name, "readlink");
  }
  auto u16 = [&](size_t at) -> unsigned {
    return at + 2 <= got ? static_cast<unsigned char>(buffer[at]) | (static_cast<unsigned char>(buffer[at + 1]) << 8)
                         : 0u;
  };
  const ULONG tag = got >= 4 ? (u16(0) | (static_cast<ULONG>(u16(2)) << 16)) : 0;
  const size_t path_buffer = tag == kSymlink ? 20 : 16;
  if ((tag != kSymlink && tag != kMountPoint) || got < path_buffer) {
    return Error{ErrorKind::unsupported, "a reparse point that is not a link", name, 0};
  }
  auto text_at = [&](unsigned offset, unsigned length) -> std::optional<std::wstring> {
    const size_t begin = path_buffer + offset;
    if (length % 2 != 0 || begin + length > got) return std::nullopt;
    std::wstring out(length / 2, L'\0');
    std::memcpy(out.data(), buffer.data() + begin, length);
    return out;
  };
  auto target = text_at(u16(12), u16(14));  // the print name: what a user sees
  if (!target || target->empty()) target = text_at(u16(8), u16(10));
  if (!target || target->empty()) return Error{ErrorKind::invalid_data, "a link without a target", name, 0};
  if (target->starts_with(L"\\??\\UNC\\")) {
    *target = L"\\\\" + target->substr(8);
  } else if (target->starts_with(L"\\??\\")) {
    *target = target->substr(4);
  }
  return narrow(*target);
}

std::uint64_t size_from(const BY_HANDLE_FILE_INFORMATION& info) {
  return (std::uint64_t{info.nFileSizeHigh} << 32) | info.nFileSizeLow;
}

}  // namespace

Result<HandleRef> open_dir(const std::string& path) {
  return hold_directory(long_path(path), path);
}

namespace {

/// Whether writing by this SID is no one else's: this process's user, SYSTEM, Administrators
/// and TrustedInstaller (who can change any file anyway).
bool trusted_writer(PSID sid, PSID user) {
  if (user != nullptr && ::EqualSid(sid, user)) return true;
  if (::IsWellKnownSid(sid, WinLocalSystemSid) || ::IsWellKnownSid(sid, WinBuiltinAdministratorsSid)) return true;
  LPWSTR text = nullptr;
  if (!::ConvertSidToStringSidW(sid, &text)) return false;
  const bool installer = std::wstring(text) == L"S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464";
  ::LocalFree(text);
  return installer;
}

/// An account for a message, without LookupAccountSidW (which may wait on an unreachable
/// domain controller): the well-known groups by name, any other SID as its string.
std::string sid_text(PSID sid) {
  static const std::pair<WELL_KNOWN_SID_TYPE, const char*> kKnown[] = {
      {WinWorldSid, "Everyone"},
      {WinAuthenticatedUserSid, "NT AUTHORITY\\Authenticated Users"},
      {WinBuiltinUsersSid, "BUILTIN\\Users"},
      {WinInteractiveSid, "NT AUTHORITY\\INTERACTIVE"},
      {WinAnonymousSid, "NT AUTHORITY\\ANONYMOUS LOGON"},
  };
  for (const auto& [type, name] : kKnown) {
    if (::IsWellKnownSid(sid, type)) return name;
  }
  LPWSTR text = nullptr;
  if (!::ConvertSidToStringSidW(sid, &text)) return "an unknown account";
  std::string out = narrow(text);
  ::LocalFree(text);
  return out;
}

/// This process's user, from its token (a copy the caller frees with LocalFree).
PSID process_user() {
  HANDLE token = nullptr;
  if (!::OpenProcessToken(::GetCurrentProcess(), TOKEN_QUERY, &token)) return nullptr;
  DWORD size = 0;
  ::GetTokenInformation(token, TokenUser, nullptr, 0, &size);
  std::vector<unsigned char> buf(size);
  PSID copy = nullptr;
  if (size > 0 && ::GetTokenInformation(token, TokenUser, buf.data(), size, &size)) {
    PSID sid = reinterpret_cast<TOKEN_USER*>(buf.data())->User.Sid;
    const DWORD len = ::GetLengthSid(sid);
    copy = ::LocalAlloc(LMEM_FIXED, len);
    if (copy != nullptr && !::CopySid(len, copy, sid)) {
      ::LocalFree(copy);
      copy = nullptr;
    }
  }
  ::CloseHandle(token);
  return copy;
}

/// Why someone else could change `path` in a way `rights` names; empty when no one. The owner
/// may rewrite the access list, so it must be a trusted writer too. Deny entries are not
/// weighed (an allow that a deny cancels is still refused: the cautious answer).
std::string others_may(const std::string& path, ACCESS_MASK rights, PSID user) {
  PSID owner = nullptr;
  PACL dacl = nullptr;
  PSECURITY_DESCRIPTOR sd = nullptr;
  std::wstring wide = long_path(path);
  const DWORD rc =
      ::GetNamedSecurityInfoW(wide.c_str(), SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION,
                              &owner, nullptr, &dacl, nullptr, &sd);
  if (rc != ERROR_SUCCESS) return path + ": its access list cannot be read (error " + std::to_string(rc) + ")";
  std::string why;
  if (owner != nullptr && !trusted_writer(owner, user)) {
    why = path + " belongs to " + sid_text(owner);
  } else if (dacl == nullptr) {
    why = path + " has no access list: everyone may change it";
  } else {
    for (DWORD i = 0; i < dacl->AceCount && why.empty(); ++i) {
      void* ace = nullptr;
      if (!::GetAce(dacl, i, &ace)) continue;
      const auto* header = static_cast<const ACE_HEADER*>(ace);
      if ((header->AceFlags & INHERIT_ONLY_ACE) != 0 || header->AceType == ACCESS_DENIED_ACE_TYPE) continue;
      if (header->AceType != ACCESS_ALLOWED_ACE_TYPE) {
        why = path + " has an access entry of a kind gpudoctor does not read (type " + std::to_string(header->AceType) +
              ")";
        break;
      }
      const auto* allowed = static_cast<const ACCESS_ALLOWED_ACE*>(ace);
      PSID sid = const_cast<DWORD*>(&allowed->SidStart);
      // CREATOR OWNER outside an inherit-only entry grants nothing itself.
      if ((allowed->Mask & rights) == 0 || ::IsWellKnownSid(sid, WinCreatorOwnerSid) || trusted_writer(sid, user))
        continue;
      why = path + " may be changed by " + sid_text(sid);
    }
  }
  ::LocalFree(sd);
  return why;
}

}  // namespace

namespace {

/// The path without its "\\?\" prefix ("\\?\C:\x" -> "C:\x"; "\\?\UNC\s\x" -> "\\s\x").
std::string plain_path(std::string path) {
  if (path.rfind("\\\\?\\UNC\\", 0) == 0) return "\\\\" + path.substr(8);
  if (path.rfind("\\\\?\\", 0) == 0) return path.substr(4);
  return path;
}

/// The file's final path, links and junctions resolved (GetFinalPathNameByHandleW); empty when
/// it cannot be opened.
std::string final_path(const std::string& path) {
  HANDLE h = ::CreateFileW(long_path(path).c_str(), FILE_READ_ATTRIBUTES,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                           FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (h == INVALID_HANDLE_VALUE) return {};
  std::wstring buf(32768, L'\0');
  const DWORD n = ::GetFinalPathNameByHandleW(h, buf.data(), static_cast<DWORD>(buf.size()), FILE_NAME_NORMALIZED);
  ::CloseHandle(h);
  if (n == 0 || n >= buf.size()) return {};
  return plain_path(narrow(buf.substr(0, n)));
}

/// The file (or folder, with `folder_rights`) at an absolute drive path and every folder above
/// it up to the drive's root.
std::string chain_may(const std::string& path, ACCESS_MASK own_rights, ACCESS_MASK folder_rights,
                      ACCESS_MASK ancestor_rights, PSID user) {
  if (path.size() < 3 || path[1] != ':' || (path[2] != '\\' && path[2] != '/'))
    return path + ": not a path on a local drive (a network share's access lists are not trusted)";
  std::string why = others_may(path, own_rights, user);
  size_t cut = path.find_last_of("\\/");
  for (bool first = true; why.empty() && cut != std::string::npos && cut >= 2; first = false) {
    std::string dir = path.substr(0, cut);
    if (dir.size() == 2) dir += '\\';  // "C:" is the drive's current folder, not its root
    why = others_may(dir, first ? folder_rights : ancestor_rights, user);
    if (dir.size() == 3) break;
    cut = path.find_last_of("\\/", cut - 1);
  }
  return why;
}

}  // namespace

std::string writable_by_others(const std::string& path) {
  // The file itself; the folder holding it, where a new library could be added beside it; and
  // above it every folder whose entries someone else could rename or remove, or whose access
  // list they could change. Both as named and where links and junctions lead.
  constexpr ACCESS_MASK kTakeOver = DELETE | WRITE_DAC | WRITE_OWNER | GENERIC_ALL | GENERIC_WRITE;
  constexpr ACCESS_MASK kFile = kTakeOver | FILE_WRITE_DATA | FILE_APPEND_DATA;
  constexpr ACCESS_MASK kFolder = kTakeOver | FILE_ADD_FILE | FILE_DELETE_CHILD;
  constexpr ACCESS_MASK kAncestor = kTakeOver | FILE_DELETE_CHILD;
  const std::string named = plain_path(path);
  const std::string real = final_path(named);
  if (real.empty()) return path + ": cannot be opened";
  PSID user = process_user();
  std::string why = chain_may(named, kFile, kFolder, kAncestor, user);
  if (why.empty() && _stricmp(real.c_str(), named.c_str()) != 0) why = chain_may(real, kFile, kFolder, kAncestor, user);
  ::LocalFree(user);
  return why;
}

Result<HandleRef> open_drive_root(char letter) {
  const std::string root = std::string(1, letter) + ":\\";
  switch (::GetDriveTypeW(widen(root).c_str())) {
    case DRIVE_FIXED:
    case DRIVE_REMOVABLE:
    case DRIVE_CDROM:
    case DRIVE_RAMDISK: {
      // A drive without its disk would ask with a dialog box, which stops a diagnostic tool.
      DWORD old_mode = 0;
      ::SetThreadErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX, &old_mode);
      auto opened = open_dir(root);
      ::SetThreadErrorMode(old_mode, nullptr);
      return opened;
    }
    case DRIVE_REMOTE:
      // not_found: a PATH entry there is passed over quietly; an --env there shows this reason.
      return Error{ErrorKind::not_found, "a network drive: not read (a share that does not answer stalls every call)",
                   root, ERROR_PATH_NOT_FOUND};
    default:
      return Error{ErrorKind::not_found, "no such drive", root, ERROR_PATH_NOT_FOUND};
  }
}

Result<Kind> kind_at(const Handle& dir, const std::string& name) {
  bool link = false;
  auto h = open_at(dir, name, FILE_READ_ATTRIBUTES, kShareAll, 0, "stat", &link);
  if (!h) return h.error();
  if (link) return Kind::symlink;
  return kind_of(**h);
}

Result<HandleRef> open_dir_at(const Handle& dir, const std::string& name) {
  return open_no_link_at(dir, name, kDirectoryAccess, FILE_SHARE_READ | FILE_SHARE_WRITE, FILE_DIRECTORY_FILE, "open");
}

Result<std::string> read_link_at(const Handle& dir, const std::string& name) {
  bool link = false;
  auto h = open_at(dir, name, FILE_READ_ATTRIBUTES, kShareAll, 0, "readlink", &link);
  if (!h) return h.error();
  auto target = reparse_target(native(**h), name);
  if (target || (target.error().code != ERROR_NOT_A_REPARSE_POINT && !under_wine())) return target;
  // Wine: a Unix link is no reparse point there; its target as the host resolves it, absolute,
  // which SystemView re-roots inside the tree.
  return read_link(child_path(dir, name));
}

Result<std::vector<Entry>> list_at(const Handle& dir, size_t max_entries, bool* cut) {
  // A handle of its own (the folder opened again, relative to itself): a directory listing's
  // position belongs to the handle, and the folder's handle is shared.
  UNICODE_STRING empty{};
  OBJECT_ATTRIBUTES attributes{};
  InitializeObjectAttributes(&attributes, &empty, OBJ_CASE_INSENSITIVE, native(dir), nullptr);
  IO_STATUS_BLOCK io{};
  HANDLE raw = nullptr;
  NTSTATUS status = ::NtCreateFile(&raw, FILE_LIST_DIRECTORY | SYNCHRONIZE, &attributes, &io, nullptr, 0, kShareAll,
                                   FILE_OPEN, FILE_DIRECTORY_FILE | FILE_SYNCHRONOUS_IO_NONALERT, nullptr, 0);
  if (!NT_SUCCESS(status)) return win_error(::RtlNtStatusToDosError(status), ".", "opendir");
  Owned listing{raw};
  std::vector<Entry> out;
  if (cut != nullptr) *cut = false;
  std::vector<std::uint64_t> storage(8 * 1024);  // 64 KiB, aligned for FILE_FULL_DIR_INFO
  auto* buffer = reinterpret_cast<char*>(storage.data());
  const size_t buffer_size = storage.size() * sizeof(std::uint64_t);
  for (auto klass = FileFullDirectoryRestartInfo;; klass = FileFullDirectoryInfo) {
    if (::GetFileInformationByHandleEx(listing.h, klass, buffer, static_cast<DWORD>(buffer_size)) == 0) {
      DWORD code = ::GetLastError();
      if (code == ERROR_NO_MORE_FILES) break;
      return win_error(code, ".", "readdir");
    }
    for (size_t at = 0;;) {
      const auto* e = reinterpret_cast<const FILE_FULL_DIR_INFO*>(buffer + at);
      std::string name = narrow(std::wstring(e->FileName, e->FileNameLength / sizeof(wchar_t)));
      if (name != "." && name != "..") {
        if (out.size() >= max_entries) {
          if (cut != nullptr) *cut = true;
          return out;
        }
        out.push_back(Entry{std::move(name), kind_from_attributes(e->FileAttributes)});
      }
      if (e->NextEntryOffset == 0) break;
      at += e->NextEntryOffset;
      if (at + sizeof(FILE_FULL_DIR_INFO) > buffer_size) break;
    }
  }
  return out;
}

bool is_dir_followed_at(const Handle& dir, const std::string& name) {
  // Only for the live machine's own root: links are the host's to follow.
  return plain_component(name) && kind_of_followed(child_path(dir, name)).value_or(Kind::other) == Kind::directory;
}

Result<std::uint64_t> size_at(const Handle& dir, const std::string& name) {
  auto h = open_no_link_at(dir, name, FILE_READ_ATTRIBUTES, kShareAll, 0, "stat");
  if (!h) return h.error();
  BY_HANDLE_FILE_INFORMATION info{};
  if (::GetFileInformationByHandle(native(**h), &info) == 0) return win_error(::GetLastError(), name, "stat");
  return size_from(info);
}

Result<std::string> read_at(const Handle& dir, const std::string& name, size_t max_bytes, bool* cut,
                            std::uint64_t offset) {
  auto h = open_no_link_at(dir, name, GENERIC_READ, kShareAll, 0, "open");
  if (!h) return h.error();
  return read_regular(native(**h), name, max_bytes, cut, offset);
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

Result<std::uint64_t> size_of(const Handle& handle) {
  BY_HANDLE_FILE_INFORMATION info{};
  if (::GetFileInformationByHandle(native(handle), &info) == 0) return win_error(::GetLastError(), "", "fstat");
  return size_from(info);
}

Result<std::pair<std::uint64_t, std::uint64_t>> identity(const Handle& handle) {
  BY_HANDLE_FILE_INFORMATION info{};
  if (::GetFileInformationByHandle(native(handle), &info) == 0) return win_error(::GetLastError(), "", "fstat");
  return std::make_pair(std::uint64_t{info.dwVolumeSerialNumber},
                        (std::uint64_t{info.nFileIndexHigh} << 32) | info.nFileIndexLow);
}

Result<std::string> read_handle(const Handle& file, size_t max_bytes, bool* cut, std::uint64_t offset) {
  return read_regular(native(file), file.path(), max_bytes, cut, offset);
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

void set_own_environment(const std::string& name, const std::string& value) {
  ::SetEnvironmentVariableW(widen(name).c_str(), widen(value).c_str());
  ::_putenv_s(name.c_str(), value.c_str());
}

std::string host_name() {
  wchar_t name[256] = {};
  DWORD size = 256;
  if (::GetComputerNameExW(ComputerNameDnsHostname, name, &size) == 0) return "";
  return narrow(std::wstring(name, size));
}

}  // namespace gpudoctor::host_fs
