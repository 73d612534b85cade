#include "cli/option_values.hpp"

#include <string>

#include "core/text.hpp"

namespace gpudoctor {
namespace {

Error refused(std::string_view option, std::string_view text, std::string_view what) {
  return Error{ErrorKind::invalid_data,
               std::string(option) + ": '" + printable(text, 60) + "' is not " + std::string(what),
               std::string(option)};
}

/// `text` as dot-separated numbers, `min_parts` to `max_parts` of them, each of 1 to `max_digits`
/// digits; with `no_leading_zero`, "0" is the only part that starts with 0 ("03.12" is not 3.12).
/// What Version::parse reads past ("535.xx" -> 535xx, "3.12.x") is not a version here.
bool dotted_numbers(std::string_view text, size_t min_parts, size_t max_parts, size_t max_digits,
                    bool no_leading_zero) {
  size_t parts = 0;
  size_t start = 0;
  while (true) {
    const size_t dot = text.find('.', start);
    const std::string_view part = text.substr(start, dot == std::string_view::npos ? text.npos : dot - start);
    if (part.empty() || part.size() > max_digits) return false;
    for (char c : part) {
      if (!is_ascii_digit(c)) return false;
    }
    if (no_leading_zero && part.size() > 1 && part.front() == '0') return false;
    ++parts;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts >= min_parts && parts <= max_parts;
}

}  // namespace

Result<Platform> parse_os_option(std::string_view text) {
  if (auto p = parse_platform(text)) return *p;
  return Error{ErrorKind::invalid_data, "--os must be linux, windows or wsl2, not '" + printable(text, 60) + "'",
               "--os"};
}

Result<Version> parse_python_option(std::string_view text) {
  // "3.13t", a free-threaded build: its wheels are other files (cp313t), and the tables do not
  // record which releases ship them (torch 2.5 has none, 2.7-2.11 do); it is not read as 3.13.
  const std::string_view t = trim(text);
  if (t.size() >= 2 && (t.back() == 't' || t.back() == 'T') && is_ascii_digit(t[t.size() - 2])) {
    return Error{ErrorKind::invalid_data,
                 "--python: '" + printable(text, 60) +
                     "' is a free-threaded Python: the knowledge base does not record which releases have "
                     "free-threaded (cp3XYt) wheels; give the version without 't' to see the regular builds",
                 "--python"};
  }
  auto v = Version::parse(text);
  // major.minor[.micro], as python.org numbers releases (3.12, 3.12.4).
  if (!v || !dotted_numbers(t, 2, 3, 2, true) || v->major() < 2 || v->major() > 3)
    return refused("--python", text, "a Python version (e.g. 3.11)");
  return *v;
}

Result<Version> parse_driver_option(std::string_view text) {
  auto v = Version::parse(text);
  // A 3-digit branch, then up to two numbers: 535.104.05 (Linux), 552.22 (Windows), 535.
  const std::string_view t = trim(text);
  if (!v || v->major() < 100 || !dotted_numbers(t, 1, 3, 3, false) || t.front() == '0' ||
      t.substr(0, t.find('.')).size() != 3)
    return refused("--driver", text, "an NVIDIA driver version (e.g. 535.104.05)");
  return *v;
}

Result<Version> parse_cuda_option(std::string_view text) {
  auto v = Version::parse(text);
  if (!v || v->major() > 99) return refused("--cuda", text, "a CUDA version (e.g. 12.2)");
  return *v;
}

}  // namespace gpudoctor
