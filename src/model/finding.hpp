#pragma once
/// A verdict: what a check concluded, in words a person can act on.
#include <string>
#include <vector>

namespace gpudoctor {

enum class Severity { ok, info, warning, error };

const char* to_string(Severity s);

/// The report section a finding belongs to, in the order the text report shows them.
enum class FindingArea { system, gpu, driver, cuda, libraries, python, env };

/// Every area, in report order.
inline constexpr FindingArea kFindingAreas[] = {FindingArea::system, FindingArea::gpu,       FindingArea::driver,
                                                FindingArea::cuda,   FindingArea::libraries, FindingArea::python,
                                                FindingArea::env};

/// The area's id in JSON: "system", "gpu", "driver", "cuda", "libraries", "python", "env".
const char* to_string(FindingArea a);

struct Finding {
  std::string id;  ///< stable, kebab-case: "driver-missing", "tf-cudnn-mismatch"
  Severity severity = Severity::info;
  FindingArea area = FindingArea::system;  ///< report section
  std::string title;                       ///< one line
  std::string detail;                      ///< why, with the facts that led here
  std::string fix;                         ///< what to do; empty for ok/info findings that need nothing
  std::vector<std::string> evidence;       ///< paths and values the verdict rests on
  std::string source;                      ///< where the rule comes from (URL or knowledge-base file), if any

  bool operator==(const Finding&) const = default;
};

/// Highest severity among findings (ok when empty).
Severity worst(const std::vector<Finding>& findings);

}  // namespace gpudoctor
