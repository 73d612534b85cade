#pragma once
/// Small string helpers shared by parsers. All take untrusted text and never throw.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

std::string_view trim(std::string_view s);
bool starts_with(std::string_view s, std::string_view prefix);
bool ends_with(std::string_view s, std::string_view suffix);
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
/// Replaces bytes that are not printable UTF-8/ASCII, so junk never reaches a terminal.
std::string printable(std::string_view s, size_t max_len = 200);
/// Text safe to print on a terminal: control characters (escape sequences, carriage returns,
/// newlines) from untrusted names become visible "\x1b"-style escapes; nothing is cut.
std::string terminal_safe(std::string_view s);
/// Joins with a separator.
std::string join(const std::vector<std::string>& parts, std::string_view sep);

}  // namespace gpudoctor
