#include "model/platform.hpp"

#include "core/text.hpp"

namespace gpudoctor {

const char* to_string(Platform p) {
  switch (p) {
    case Platform::linux:
      return "linux";
    case Platform::windows:
      return "windows";
    case Platform::wsl2:
      return "wsl2";
  }
  return "linux";
}

std::optional<Platform> parse_platform(std::string_view text) {
  std::string t = to_lower(trim(text));
  if (t == "linux") return Platform::linux;
  if (t == "windows" || t == "win" || t == "win32") return Platform::windows;
  if (t == "wsl2" || t == "wsl") return Platform::wsl2;
  return std::nullopt;
}

}  // namespace gpudoctor
