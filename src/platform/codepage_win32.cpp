#include "platform/codepage.hpp"
#include "platform/win32_text.hpp"

namespace gpudoctor {

struct CodepageConverter::State {
  UINT id = 0;
};

CodepageConverter::CodepageConverter(Codepage cp) : state_(std::make_unique<State>()) {
  switch (cp) {
    case Codepage::gbk:
      state_->id = 936;
      break;
    case Codepage::shift_jis:
      state_->id = 932;
      break;
    case Codepage::uhc:
      state_->id = 949;
      break;
    case Codepage::cp1252:
      state_->id = 1252;
      break;
  }
}

CodepageConverter::~CodepageConverter() = default;

std::optional<std::string> CodepageConverter::to_utf8(std::string_view bytes) {
  if (bytes.empty()) return std::string();
  const int len = static_cast<int>(bytes.size());
  const int n = ::MultiByteToWideChar(state_->id, MB_ERR_INVALID_CHARS, bytes.data(), len, nullptr, 0);
  if (n <= 0) return std::nullopt;
  std::wstring wide(static_cast<size_t>(n), L'\0');
  ::MultiByteToWideChar(state_->id, MB_ERR_INVALID_CHARS, bytes.data(), len, wide.data(), n);
  return win32::narrow(wide);
}

}  // namespace gpudoctor
