#pragma once
/// Text in a Windows code page, as UTF-8. Python on Windows writes redirected output in the ANSI
/// code page unless UTF-8 mode is on (936/GBK on a Chinese system, 932 on a Japanese one, 949 on a
/// Korean one, 1252 in Western Europe), so a pasted log's localised messages and the user's
/// paths come in those bytes. glibc's iconv converts on Linux, MultiByteToWideChar on Windows.
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor {

enum class Codepage { gbk, shift_jis, uhc, cp1252 };

/// "GBK (code page 936)" and the like, for notes to the user.
const char* describe(Codepage cp);

class CodepageConverter {
 public:
  explicit CodepageConverter(Codepage cp);
  ~CodepageConverter();
  CodepageConverter(const CodepageConverter&) = delete;
  CodepageConverter& operator=(const CodepageConverter&) = delete;

  /// The bytes as UTF-8; nullopt when they are not valid in the code page, or this host cannot
  /// convert from it (no iconv module for it).
  std::optional<std::string> to_utf8(std::string_view bytes);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace gpudoctor
