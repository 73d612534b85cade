#pragma once
/// Every byte the tool writes to stdout or stderr leaves through here: sanitised by
/// output_safe() (no escape sequence, C1 control or bidi override from any input reaches the
/// terminal, and the text is valid UTF-8), and checked: a write that fails (a full disk, a
/// closed stdout) throws OutputError, which run_cli turns into one message and one exit status.
#include <fmt/core.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gpudoctor {

/// A write to stdout or stderr failed; errno_value says why.
class OutputError : public std::runtime_error {
 public:
  explicit OutputError(int errno_value);
  [[nodiscard]] int errno_value() const { return errno_value_; }

 private:
  int errno_value_;
};

/// Writes text (sanitised) to stream and flushes it; throws OutputError on failure.
void write_output(std::string_view text, std::FILE* stream = stdout);

/// A message for the user on stderr, sanitised like everything else.
template <typename... Args>
void print_error(fmt::format_string<Args...> format, Args&&... args) {
  write_output(fmt::format(format, std::forward<Args>(args)...), stderr);
}

}  // namespace gpudoctor
