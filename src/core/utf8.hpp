#pragma once
/// UTF-8 output for the decoders of UTF-16 text (logs in explain, registry exports).
#include <string>

namespace gpudoctor {

/// Appends one code point as UTF-8.
void append_utf8(std::string& out, char32_t cp);

}  // namespace gpudoctor
