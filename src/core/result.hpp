#pragma once
/// Result<T>: a value or an Error that keeps its kind, code and origin, used at every probe
/// and backend boundary. "Missing", "permission denied" and "corrupt" are different findings;
/// std::optional would lose which one it was. Not std::expected: g++ 12 and mingw g++ 12 accept
/// it under -std=c++23, but clang 14 (the fuzz preset) rejects libstdc++ 12's <expected>.
#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace gpudoctor {

enum class ErrorKind {
  not_found,          ///< file, directory, library or symbol absent
  permission_denied,  ///< present but not readable
  invalid_data,       ///< present but malformed (garbage version file, binary junk)
  too_large,          ///< larger than the limit we read
  io_error,           ///< any other OS-level failure
  load_failed,        ///< dlopen/LoadLibrary refused the file (wrong arch, missing deps)
  symbol_missing,     ///< a required entry point is absent
  call_failed,        ///< a vendor call returned an error code
  timeout,            ///< a child process or call exceeded its deadline
  crashed,            ///< a child process died from a signal
  unsupported,        ///< not possible in this mode (e.g. loading a library under --root)
};

const char* to_string(ErrorKind kind);
/// The kind of that name (to_string's); nothing for any other text.
std::optional<ErrorKind> parse_error_kind(std::string_view name);

struct Error {
  ErrorKind kind = ErrorKind::io_error;
  std::string message;  ///< human-readable, already specific ("dlopen: ... wrong ELF class")
  std::string origin;   ///< where: a path, a library, a function name
  int code = 0;         ///< errno, nvmlReturn_t, CUresult, exit status, signal number
};

/// The message, or the kind's name when there is none.
std::string error_text(const Error& e);

template <class T>
class Result {
 public:
  Result(T value) : data_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : data_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool has_value() const { return data_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & {
    assert(has_value());
    return std::get<0>(data_);
  }
  const T& value() const& {
    assert(has_value());
    return std::get<0>(data_);
  }
  T&& value() && {
    assert(has_value());
    return std::get<0>(std::move(data_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const {
    assert(!has_value());
    return std::get<1>(data_);
  }

  template <class U>
  T value_or(U&& fallback) const& {
    return has_value() ? value() : static_cast<T>(std::forward<U>(fallback));
  }

 private:
  std::variant<T, Error> data_;
};

/// Result<void> analogue.
struct Ok {};
using Status = Result<Ok>;

}  // namespace gpudoctor
