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
  if (!v || v->parts().size() < 2 || v->major() < 2 || v->major() > 3)
    return refused("--python", text, "a Python version (e.g. 3.11)");
  return *v;
}

Result<Version> parse_driver_option(std::string_view text) {
  auto v = Version::parse(text);
  if (!v || v->major() < 100) return refused("--driver", text, "an NVIDIA driver version (e.g. 535.104.05)");
  return *v;
}

Result<Version> parse_cuda_option(std::string_view text) {
  auto v = Version::parse(text);
  if (!v || v->major() > 99) return refused("--cuda", text, "a CUDA version (e.g. 12.2)");
  return *v;
}

}  // namespace gpudoctor
