#include "core/result.hpp"

namespace gpudoctor {

std::string error_text(const Error& e) {
  return e.message.empty() ? std::string(to_string(e.kind)) : e.message;
}

const char* to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::not_found:
      return "not_found";
    case ErrorKind::permission_denied:
      return "permission_denied";
    case ErrorKind::invalid_data:
      return "invalid_data";
    case ErrorKind::too_large:
      return "too_large";
    case ErrorKind::io_error:
      return "io_error";
    case ErrorKind::load_failed:
      return "load_failed";
    case ErrorKind::symbol_missing:
      return "symbol_missing";
    case ErrorKind::call_failed:
      return "call_failed";
    case ErrorKind::timeout:
      return "timeout";
    case ErrorKind::crashed:
      return "crashed";
    case ErrorKind::unsupported:
      return "unsupported";
  }
  return "unknown";
}

std::optional<ErrorKind> parse_error_kind(std::string_view name) {
  for (ErrorKind k : {ErrorKind::not_found, ErrorKind::permission_denied, ErrorKind::invalid_data, ErrorKind::too_large,
                      ErrorKind::io_error, ErrorKind::load_failed, ErrorKind::symbol_missing, ErrorKind::call_failed,
                      ErrorKind::timeout, ErrorKind::crashed, ErrorKind::unsupported}) {
    if (name == to_string(k)) return k;
  }
  return std::nullopt;
}

}  // namespace gpudoctor
