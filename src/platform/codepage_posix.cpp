#include <iconv.h>

#include <cerrno>

#include "platform/codepage.hpp"

namespace gpudoctor {

struct CodepageConverter::State {
  iconv_t cd = reinterpret_cast<iconv_t>(-1);
};

namespace {

const char* iconv_name(Codepage cp) {
  switch (cp) {
    case Codepage::gbk:
      return "CP936";
    case Codepage::shift_jis:
      return "CP932";
    case Codepage::uhc:
      return "CP949";
    case Codepage::cp1252:
      return "CP1252";
  }
  return "";
}

}  // namespace

CodepageConverter::CodepageConverter(Codepage cp) : state_(std::make_unique<State>()) {
  state_->cd = iconv_open("UTF-8", iconv_name(cp));
}

CodepageConverter::~CodepageConverter() {
  if (state_->cd != reinterpret_cast<iconv_t>(-1)) iconv_close(state_->cd);
}

std::optional<std::string> CodepageConverter::to_utf8(std::string_view bytes) {
  if (state_->cd == reinterpret_cast<iconv_t>(-1)) return std::nullopt;
  iconv(state_->cd, nullptr, nullptr, nullptr, nullptr);  // a fresh shift state per call
  // At most 3 UTF-8 bytes per input byte in these code pages.
  std::string out(bytes.size() * 3 + 4, '\0');
  char* in = const_cast<char*>(bytes.data());  // iconv's prototype; it does not write there
  size_t in_left = bytes.size();
  char* o = out.data();
  size_t out_left = out.size();
  if (iconv(state_->cd, &in, &in_left, &o, &out_left) == static_cast<size_t>(-1)) return std::nullopt;
  out.resize(out.size() - out_left);
  return out;
}

}  // namespace gpudoctor
