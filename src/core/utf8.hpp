#pragma once
/// UTF-8 output for the decoders of UTF-16 text (logs in explain, registry exports), and the
/// check that tells a UTF-8 line from one in a Windows code page.
#include <cstddef>
#include <string>
#include <string_view>

namespace gpudoctor {

/// Appends one code point as UTF-8.
void append_utf8(std::string& out, char32_t cp);

/// UTF-16LE code units to UTF-8; an unpaired surrogate becomes U+FFFD, a trailing odd byte is
/// dropped.
std::string utf16le_to_utf8(std::string_view bytes);

/// Index of the first byte that does not start a well-formed UTF-8 sequence (overlong forms,
/// surrogates and code points above U+10FFFF included), or s.size() when all of s is UTF-8.
size_t invalid_utf8_at(std::string_view s);

/// s with every byte that is not part of a well-formed UTF-8 sequence replaced by U+FFFD;
/// `replaced` counts them.
std::string replace_invalid_utf8(std::string_view s, size_t& replaced);

}  // namespace gpudoctor
