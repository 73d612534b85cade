#include "model/verify_report.hpp"

namespace gpudoctor {

const char* to_string(StepStatus s) {
  switch (s) {
    case StepStatus::none:
      return "";
    case StepStatus::passed:
      return "passed";
    case StepStatus::failed:
      return "failed";
    case StepStatus::skipped:
      return "skipped";
    case StepStatus::crashed:
      return "crashed";
    case StepStatus::timeout:
      return "timeout";
    case StepStatus::not_found:
      return "not-found";
  }
  return "";
}

StepStatus parse_step_status(std::string_view name) {
  for (StepStatus s : {StepStatus::passed, StepStatus::failed, StepStatus::skipped, StepStatus::crashed,
                       StepStatus::timeout, StepStatus::not_found}) {
    if (name == to_string(s)) return s;
  }
  return StepStatus::none;
}

bool verify_passed(const VerifyReport& report) {
  if (!report.problems.empty()) return false;
  bool ran = false;
  for (const VerifyStep& s : report.steps) {
    if (s.status == StepStatus::skipped) continue;
    if (!s.passed()) return false;
    ran = true;
  }
  return ran;
}

namespace {

std::string three(long long major, long long minor, long long patch) {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

}  // namespace

std::string packed_version_text(long long code) {
  if (code <= 0) return "";
  if (code >= 10000) return three(code / 10000, (code / 100) % 100, code % 100);
  return three(code / 1000, (code / 100) % 10, code % 100);
}

std::string cublas_version_text(long long code) {
  if (code <= 0) return "";
  if (code >= 100000) return three(code / 10000, (code / 100) % 100, code % 100);
  return three(code / 1000, (code / 100) % 10, code % 100);
}

}  // namespace gpudoctor
