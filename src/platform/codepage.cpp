#include "platform/codepage.hpp"

namespace gpudoctor {

const char* describe(Codepage cp) {
  switch (cp) {
    case Codepage::gbk:
      return "GBK (Windows code page 936, Simplified Chinese)";
    case Codepage::shift_jis:
      return "Shift-JIS (Windows code page 932, Japanese)";
    case Codepage::uhc:
      return "UHC (Windows code page 949, Korean)";
    case Codepage::cp1252:
      return "Windows code page 1252 (Western European)";
  }
  return "?";
}

}  // namespace gpudoctor
