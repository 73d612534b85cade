#pragma once
/// DynamicLibrary: a vendor library loaded at run time (dlopen / LoadLibraryExW), so gpudoctor
/// builds and runs with no NVIDIA software installed. One file per host OS for what the OS
/// does (dynamic_library_posix.cpp, dynamic_library_win32.cpp: open, symbol, close) and one
/// shared by both (dynamic_library.cpp: open_first, moves); this header has no #ifdefs.
///
/// Only the live machine loads libraries, and only inside an isolated child process
/// (gpu/isolated_child.hpp): a vendor constructor may crash or hang.
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace gpudoctor {

class DynamicLibrary {
 public:
  /// Opens a library by file name ("libnvidia-ml.so.1", searched the way the system loader
  /// searches) or by path (anything with a separator). POSIX: RTLD_NOW | RTLD_LOCAL, so a
  /// library with unresolved symbols fails here rather than at the first call, and its
  /// symbols never leak into the global namespace.
  /// Errors: not_found (no such file on the search path), load_failed (found but refused:
  /// not an ELF/PE file, wrong architecture, a dependency missing); message holds the loader's
  /// own text (dlerror / FormatMessage), origin the name asked for.
  static Result<DynamicLibrary> open(const std::string& name_or_path);

  /// Tries each name in order and returns the first that loads (the SONAME before the
  /// unversioned development link). When none loads, the most telling error wins: a library
  /// that was found but refused beats one that was not found at all.
  static Result<DynamicLibrary> open_first(const std::vector<std::string>& names);

  DynamicLibrary(DynamicLibrary&& other) noexcept;
  DynamicLibrary& operator=(DynamicLibrary&& other) noexcept;
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;
  ~DynamicLibrary();

  /// The address of an exported symbol, or nullptr when the library does not export it.
  [[nodiscard]] void* symbol(const char* name) const;
  /// The absolute path the loader actually opened (symlinks resolved): for a doctor, which copy
  /// was loaded is often the answer. Falls back to the requested name if the OS will not say.
  [[nodiscard]] const std::string& path() const { return path_; }
  /// The name or path that was asked for.
  [[nodiscard]] const std::string& requested() const { return requested_; }
  /// The absolute path of the loaded file that holds `address` (a symbol() result): not always
  /// this library's own, since a symbol may come from one it depends on (a BLAS shim such as
  /// FlexiBLAS forwarding to the real one). Empty when the OS will not say.
  [[nodiscard]] static std::string file_holding(const void* address);

 private:
  DynamicLibrary(void* handle, std::string requested, std::string path)
      : handle_(handle), requested_(std::move(requested)), path_(std::move(path)) {}
  void close();

  void* handle_ = nullptr;
  std::string requested_;
  std::string path_;
};

}  // namespace gpudoctor
