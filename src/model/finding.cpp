#include "model/finding.hpp"

#include <algorithm>

namespace gpudoctor {

const char* to_string(Severity s) {
  switch (s) {
    case Severity::ok:
      return "ok";
    case Severity::info:
      return "info";
    case Severity::warning:
      return "warning";
    case Severity::error:
      return "error";
  }
  return "info";
}

Severity worst(const std::vector<Finding>& findings) {
  Severity out = Severity::ok;
  for (const auto& f : findings) out = std::max(out, f.severity);
  return out;
}

}  // namespace gpudoctor
