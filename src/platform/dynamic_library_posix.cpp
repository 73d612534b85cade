#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>

#include "platform/dynamic_library.hpp"

namespace gpudoctor {
namespace {

std::string last_dlerror() {
  const char* text = ::dlerror();
  return text != nullptr ? std::string(text) : std::string("unknown dynamic loader error");
}

/// glibc words a missing file as "<name>: cannot open shared object file: No such file or
/// directory". The same words about a *dependency* start with the dependency's name, and that
/// case is a load failure of the library we asked for, not its absence.
bool is_not_found(const std::string& message, const std::string& requested) {
  return message.find("No such file or directory") != std::string::npos && message.rfind(requested + ":", 0) == 0;
}

/// e_machine values of the architectures a GPU machine is likely to meet.
std::string machine_name(unsigned machine) {
  switch (machine) {
    case 3:
      return "i386";
    case 20:
      return "ppc";
    case 21:
      return "ppc64";
    case 40:
      return "arm";
    case 62:
      return "x86_64";
    case 183:
      return "aarch64";
    case 243:
      return "riscv";
    default:
      return "machine " + std::to_string(machine);
  }
}

/// glibc skips an ELF file built for another machine as if it were not there, and says "No
/// such file or directory" even for an explicit path. When the file does exist, say what it is.
std::optional<std::string> explain_existing_file(const std::string& path) {
  if (path.find('/') == std::string::npos) return std::nullopt;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return std::nullopt;
  unsigned char header[20] = {};
  size_t n = std::fread(header, 1, sizeof header, f);
  std::fclose(f);
  std::string text = "the file exists but the loader skipped it";
  if (n == sizeof header && std::memcmp(header,
                                        "\x7f"
                                        "ELF",
                                        4) == 0) {
    bool little = header[5] == 1;
    unsigned machine = little ? header[18] | (header[19] << 8U) : (header[18] << 8U) | header[19];
    text += ": an ELF object for " + machine_name(machine);
#if defined(__x86_64__)
    text += ", this process is x86_64";
#elif defined(__aarch64__)
    text += ", this process is aarch64";
#endif
  }
  return text;
}

std::string absolute_path_of(void* handle, const std::string& requested) {
  std::string loaded;
  struct link_map* map = nullptr;
  if (::dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr && map->l_name != nullptr &&
      map->l_name[0] != '\0') {
    loaded = map->l_name;
  }
  if (loaded.empty()) return requested;
  // l_name is the path the loader opened: absolute for a search-path hit, as given for an
  // explicit relative path. realpath makes it absolute and resolves the soname link
  // (libcuda.so.1 -> libcuda.so.550.54.15), which carries the version.
  std::unique_ptr<char, decltype(&::free)> real(::realpath(loaded.c_str(), nullptr), &::free);
  return real ? std::string(real.get()) : loaded;
}

}  // namespace

std::string DynamicLibrary::file_holding(const void* address) {
  Dl_info info{};
  if (address == nullptr || ::dladdr(address, &info) == 0 || info.dli_fname == nullptr) return {};
  std::unique_ptr<char, decltype(&::free)> real(::realpath(info.dli_fname, nullptr), &::free);
  return real ? std::string(real.get()) : std::string(info.dli_fname);
}

Result<DynamicLibrary> DynamicLibrary::open(const std::string& name_or_path) {
  if (name_or_path.empty()) {
    return Error{ErrorKind::not_found, "empty library name", "", 0};
  }
  ::dlerror();  // clear any stale message
  void* handle = ::dlopen(name_or_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    std::string message = last_dlerror();
    ErrorKind kind = is_not_found(message, name_or_path) ? ErrorKind::not_found : ErrorKind::load_failed;
    if (kind == ErrorKind::not_found) {
      if (auto why = explain_existing_file(name_or_path)) {
        kind = ErrorKind::load_failed;
        message += " (" + *why + ")";
      }
    }
    return Error{kind, std::move(message), name_or_path, 0};
  }
  std::string path = absolute_path_of(handle, name_or_path);
  return DynamicLibrary(handle, name_or_path, std::move(path));
}

void DynamicLibrary::close() {
  if (handle_ != nullptr) ::dlclose(handle_);
  handle_ = nullptr;
}

void* DynamicLibrary::symbol(const char* name) const {
  if (handle_ == nullptr || name == nullptr) return nullptr;
  return ::dlsym(handle_, name);
}

}  // namespace gpudoctor
