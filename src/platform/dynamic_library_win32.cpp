// Windows variant of DynamicLibrary: built into gpudoctor.exe with mingw-w64 and run under wine
// by scripts/windows-check.sh; CMake picks this file only when WIN32.
#include <windows.h>

#include <mutex>
#include <string>
#include <utility>

#include "platform/dynamic_library.hpp"
#include "platform/win32_text.hpp"

namespace gpudoctor {
using win32::error_text;
using win32::narrow;
using win32::widen;

Result<DynamicLibrary> DynamicLibrary::open(const std::string& name_or_path) {
  if (name_or_path.empty()) return Error{ErrorKind::not_found, "empty library name", "", 0};
  // No "cannot find DLL" dialog box may ever stop a diagnostic tool.
  DWORD old_mode = 0;
  ::SetThreadErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX, &old_mode);
  std::wstring wide = widen(name_or_path);
  bool has_dir = name_or_path.find_first_of("\\/") != std::string::npos;
  // The standard search looks in the current folder before PATH: a libopenblas.dll in the folder
  // gpudoctor was started from (a download, a share) would be loaded and run. SetDllDirectory("")
  // takes the current folder out of the search, for this process and the libraries it loads.
  static std::once_flag no_current_folder;
  std::call_once(no_current_folder, [] { ::SetDllDirectoryW(L""); });
  // A bare name: the default search (application dir, System32 ..., then PATH), as the driver
  // installs nvml.dll / nvcuda.dll into System32.
  HMODULE module = ::LoadLibraryExW(wide.c_str(), nullptr,
                                    has_dir ? LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS : 0);
  DWORD code = module == nullptr ? ::GetLastError() : 0;
  ::SetThreadErrorMode(old_mode, nullptr);
  if (module == nullptr) {
    ErrorKind kind = code == ERROR_MOD_NOT_FOUND || code == ERROR_FILE_NOT_FOUND || code == ERROR_PATH_NOT_FOUND
                         ? ErrorKind::not_found
                         : ErrorKind::load_failed;
    return Error{kind, error_text(code), name_or_path, static_cast<int>(code)};
  }
  std::wstring path(32768, L'\0');
  DWORD n = ::GetModuleFileNameW(module, path.data(), static_cast<DWORD>(path.size()));
  std::string loaded = n > 0 ? narrow(path.substr(0, n)) : name_or_path;
  return DynamicLibrary(module, name_or_path, std::move(loaded));
}

std::string DynamicLibrary::file_holding(const void* address) {
  HMODULE module = nullptr;
  if (address == nullptr ||
      !::GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                            static_cast<LPCWSTR>(address), &module)) {
    return {};
  }
  std::wstring path(32768, L'\0');
  DWORD n = ::GetModuleFileNameW(module, path.data(), static_cast<DWORD>(path.size()));
  return n > 0 ? narrow(path.substr(0, n)) : std::string();
}

void DynamicLibrary::close() {
  if (handle_ != nullptr) ::FreeLibrary(static_cast<HMODULE>(handle_));
  handle_ = nullptr;
}

void* DynamicLibrary::symbol(const char* name) const {
  if (handle_ == nullptr || name == nullptr) return nullptr;
  return reinterpret_cast<void*>(::GetProcAddress(static_cast<HMODULE>(handle_), name));
}

}  // namespace gpudoctor
