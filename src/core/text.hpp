#pragma once
/// Small string helpers shared by parsers. All take untrusted text and never throw.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

/// '0'..'9' only, whatever the locale (std::isdigit depends on it and takes an int).
constexpr bool is_ascii_digit(char c) {
  return c >= '0' && c <= '9';
}
/// A C string from a library, cut at `max` bytes even when it is not terminated; "" for null.
std::string bounded_c_string(const char* text, size_t max = 512);
std::string_view trim(std::string_view s);
bool contains(std::string_view s, std::string_view needle);
bool iequals(std::string_view a, std::string_view b);
std::string to_lower(std::string_view s);
std::string to_upper(std::string_view s);
std::vector<std::string_view> split(std::string_view s, char sep);
/// Lines without their terminators ("\n" or "\r\n").
std::vector<std::string_view> lines(std::string_view s);
/// The value of `key = "value"` / `key: value` style lines is left to each parser; this
/// strips one level of matching single or double quotes.
std::string_view unquote(std::string_view s);
/// What may not reach a terminal raw, whatever the source: C0 controls and DEL, C1 controls
/// (U+0080..U+009F, among them U+009B, a one-character CSI), bidirectional overrides and
/// isolates (U+202A..U+202E, U+2066..U+2069, U+200E/F, U+061C: text that reads differently
/// from what it is), and bytes that are not valid UTF-8 (a raw 0x9B is a CSI on 8-bit terminals).
bool is_unsafe_code_point(char32_t cp);
/// Replaces what is not safe text (see is_unsafe_code_point) with '?', and cuts after
/// max_len bytes at a character boundary with "…": the result is always valid UTF-8.
std::string printable(std::string_view s, size_t max_len = 200);
/// printable(), but of a text longer than max_len its first and last max_len/2 bytes with " … "
/// between: a child's stderr ends with its real error, after the warnings.
std::string printable_ends(std::string_view s, size_t max_len);
/// Text safe to print on a terminal: unsafe characters from untrusted names become visible
/// escapes ("\x1b" for C0 and invalid bytes, "\u009b" / "\u202e" for C1 and bidi controls);
/// newlines too. Nothing is cut; the result is valid UTF-8.
std::string terminal_safe(std::string_view s);
/// The last line of defence, applied to everything the tool writes (stdout, stderr, logs):
/// keeps newlines, tabs and the tool's own colour sequences (ESC [ digits ; m) and escapes every
/// other unsafe character as "\u001b" (valid inside a JSON string too), every invalid byte as
/// U+FFFD. Idempotent on text the renderers already made safe.
std::string output_safe(std::string_view s);
/// The longest prefix of s of at most max_bytes that does not end inside a UTF-8 sequence.
std::string_view utf8_prefix(std::string_view s, size_t max_bytes);
/// Joins with a separator.
std::string join(const std::vector<std::string>& parts, std::string_view sep);
/// Joins at most `most` parts (most >= 2): the first most-1, then "... (N in all)", then the
/// last, so a list read from a hostile tree (20,000 dist-info folders) cannot make one line
/// of output as long as the tree is wide.
std::string join_bounded(const std::vector<std::string>& parts, std::string_view sep, size_t most);

}  // namespace gpudoctor
