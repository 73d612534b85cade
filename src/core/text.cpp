#include "core/text.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace gpudoctor {

std::string bounded_c_string(const char* text, size_t max) {
  if (text == nullptr) return {};
  return std::string(text, ::strnlen(text, max));
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool contains(std::string_view s, std::string_view needle) {
  return s.find(needle) != std::string_view::npos;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string to_upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      out.push_back(s.substr(start));
      return out;
    }
    out.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

std::vector<std::string_view> lines(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start < s.size()) {
    size_t pos = s.find('\n', start);
    size_t end = pos == std::string_view::npos ? s.size() : pos;
    std::string_view line = s.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.push_back(line);
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return out;
}

std::string_view unquote(std::string_view s) {
  s = trim(s);
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) {
    return s.substr(1, s.size() - 2);
  }
  return s;
}

namespace {

constexpr char kHex[] = "0123456789abcdef";

/// One decoded character: its code point, or kInvalid for a byte that starts no valid UTF-8
/// sequence (overlong forms and surrogates included); len is how many bytes it took.
constexpr char32_t kInvalid = 0xFFFFFFFF;
struct Decoded {
  char32_t cp;
  size_t len;
};

Decoded decode_utf8(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return {c, 1};
  size_t len = 0;
  char32_t cp = 0;
  char32_t min = 0;
  if ((c & 0xE0) == 0xC0) {
    len = 2, cp = c & 0x1F, min = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3, cp = c & 0x0F, min = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4, cp = c & 0x07, min = 0x10000;
  } else {
    return {kInvalid, 1};
  }
  if (i + len > s.size()) return {kInvalid, 1};
  for (size_t k = 1; k < len; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return {kInvalid, 1};
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {kInvalid, 1};
  return {cp, len};
}

void append_u_escape(std::string& out, char32_t cp) {
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(cp >> shift) & 15];
}

void append_x_escape(std::string& out, unsigned char c) {
  out += "\\x";
  out += kHex[c >> 4];
  out += kHex[c & 15];
}

/// Length of one of the tool's own colour sequences at s[i] (ESC [ digits/semicolons m), or 0.
size_t sgr_length(std::string_view s, size_t i) {
  if (i + 2 >= s.size() || s[i] != '\x1b' || s[i + 1] != '[') return 0;
  for (size_t k = i + 2; k < s.size() && k < i + 16; ++k) {
    if (s[k] == 'm') return k - i + 1;
    if (!std::isdigit(static_cast<unsigned char>(s[k])) && s[k] != ';') return 0;
  }
  return 0;
}

}  // namespace

bool is_unsafe_code_point(char32_t cp) {
  if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) return true;
  if (cp == 0x061C || cp == 0x200E || cp == 0x200F) return true;
  if (cp >= 0x202A && cp <= 0x202E) return true;
  if (cp >= 0x2066 && cp <= 0x2069) return true;
  return cp == kInvalid;
}

std::string_view utf8_prefix(std::string_view s, size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  size_t end = max_bytes;
  // Step back over continuation bytes to the start of the character the cut falls in.
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end);
}

std::string printable(std::string_view s, size_t max_len) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const Decoded d = decode_utf8(s, i);
    if (out.size() + d.len > max_len) {
      out += "…";
      break;
    }
    if (d.cp == '\t' || !is_unsafe_code_point(d.cp)) {
      out.append(s.substr(i, d.len));
    } else {
      out += '?';
    }
    i += d.len;
  }
  return out;
}

std::string printable_ends(std::string_view s, size_t max_len) {
  if (s.size() <= max_len) return printable(s, max_len);  // '?' for a byte never lengthens it
  const size_t half = max_len / 2;
  size_t from = s.size() - half;
  while (from < s.size() && (static_cast<unsigned char>(s[from]) & 0xC0) == 0x80) ++from;  // a character's start
  return printable(s.substr(0, half), half) + " … " + printable(s.substr(from), half);
}

std::string terminal_safe(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const Decoded d = decode_utf8(s, i);
    if (d.cp == '\t' || !is_unsafe_code_point(d.cp)) {
      out.append(s.substr(i, d.len));
    } else if (d.cp == kInvalid || d.cp < 0x80) {
      append_x_escape(out, static_cast<unsigned char>(s[i]));
    } else {
      append_u_escape(out, d.cp);
    }
    i += d.len;
  }
  return out;
}

std::string output_safe(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (size_t n = sgr_length(s, i); n > 0) {
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    const Decoded d = decode_utf8(s, i);
    if (d.cp == '\t' || d.cp == '\n' || !is_unsafe_code_point(d.cp)) {
      out.append(s.substr(i, d.len));
    } else if (d.cp == kInvalid) {
      out += "\xEF\xBF\xBD";  // U+FFFD
    } else {
      append_u_escape(out, d.cp);
    }
    i += d.len;
  }
  return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

std::string join_bounded(const std::vector<std::string>& parts, std::string_view sep, size_t most) {
  if (most < 2) most = 2;
  if (parts.size() <= most) return join(parts, sep);
  std::vector<std::string> shown(parts.begin(), parts.begin() + static_cast<std::ptrdiff_t>(most - 1));
  shown.push_back("... (" + std::to_string(parts.size()) + " in all)");
  shown.push_back(parts.back());
  return join(shown, sep);
}

}  // namespace gpudoctor
