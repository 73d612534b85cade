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

const char* to_string(FindingArea a) {
  switch (a) {
    case FindingArea::system:
      return "system";
    case FindingArea::gpu:
      return "gpu";
    case FindingArea::driver:
      return "driver";
    case FindingArea::cuda:
      return "cuda";
    case FindingArea::libraries:
      return "libraries";
    case FindingArea::python:
      return "python";
    case FindingArea::env:
      return "env";
  }
  return "system";
}

Severity worst(const std::vector<Finding>& findings) {
  Severity out = Severity::ok;
  for (const auto& f : findings) out = std::max(out, f.severity);
  return out;
}

}  // namespace gpudoctor
