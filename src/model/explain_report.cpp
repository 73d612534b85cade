#include "model/explain_report.hpp"

namespace gpudoctor {

const char* to_string(RuleSeverity s) {
  switch (s) {
    case RuleSeverity::info:
      return "info";
    case RuleSeverity::warning:
      return "warning";
    case RuleSeverity::error:
      return "error";
  }
  return "error";
}

const char* to_string(LogEncoding e) {
  switch (e) {
    case LogEncoding::unknown:
      return "unknown";
    case LogEncoding::utf8:
      return "utf-8";
    case LogEncoding::utf16le:
      return "utf-16le";
    case LogEncoding::utf16be:
      return "utf-16be";
  }
  return "unknown";
}

}  // namespace gpudoctor
