#pragma once
/// Shared by the hostile tests: a copy of a fixture in a scratch folder, and a checker for
/// "nothing unsafe reaches a terminal" written independently of the sanitiser it checks.
#include <filesystem>
#include <string>
#include <string_view>

#include "scratch_dir.hpp"

namespace gpudoctor::testing {

inline const std::filesystem::path kFixtures = GPUDOCTOR_FIXTURES_DIR;

/// Copies fixture `name` (root/ and env) into scratch/<as>; links are copied as links.
inline std::filesystem::path copy_fixture(const ScratchDir& scratch, const std::string& name, const std::string& as) {
  namespace fs = std::filesystem;
  fs::path dst = scratch.path() / as;
  fs::copy(kFixtures / name, dst, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  return dst;
}

/// Empty when text is valid UTF-8 with no control character other than newline and tab, no C1
/// control and no bidi override; else what was found and where.
inline std::string unsafe_for_terminal(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::string at = " at byte " + std::to_string(i);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return "control byte " + std::to_string(c) + at;
      ++i;
      continue;
    }
    size_t len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || i + len > text.size()) return "invalid UTF-8" + at;
    char32_t cp = c & (0x7F >> len);
    for (size_t k = 1; k < len; ++k) {
      const auto d = static_cast<unsigned char>(text[i + k]);
      if ((d & 0xC0) != 0x80) return "invalid UTF-8" + at;
      cp = (cp << 6) | (d & 0x3F);
    }
    if (cp >= 0x80 && cp <= 0x9F) return "C1 control" + at;
    if ((cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F)
      return "bidi control" + at;
    i += len;
  }
  return {};
}

}  // namespace gpudoctor::testing
