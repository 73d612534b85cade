// The platform-free half of DynamicLibrary: choosing among names and owning the handle. Opening,
// closing and symbol lookup live in dynamic_library_posix.cpp / dynamic_library_win32.cpp.
#include "platform/dynamic_library.hpp"

#include <optional>
#include <utility>

namespace gpudoctor {

Result<DynamicLibrary> DynamicLibrary::open_first(const std::vector<std::string>& names) {
  std::optional<Error> best;
  for (const std::string& name : names) {
    auto lib = open(name);
    if (lib) return std::move(lib).value();
    const Error& e = lib.error();
    if (!best || (best->kind == ErrorKind::not_found && e.kind != ErrorKind::not_found)) best = e;
  }
  if (!best) return Error{ErrorKind::not_found, "no library names to try", "", 0};
  return *best;
}

DynamicLibrary::DynamicLibrary(DynamicLibrary&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)),
      requested_(std::move(other.requested_)),
      path_(std::move(other.path_)) {}

DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& other) noexcept {
  if (this != &other) {
    close();
    handle_ = std::exchange(other.handle_, nullptr);
    requested_ = std::move(other.requested_);
    path_ = std::move(other.path_);
  }
  return *this;
}

DynamicLibrary::~DynamicLibrary() {
  close();
}

}  // namespace gpudoctor
