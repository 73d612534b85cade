#pragma once
/// The doctor's report: text in the style of `flutter doctor` (✓ ! ✗ per area, the fix under
/// each problem) and one JSON document. Pure functions of facts and findings.
#include <string>
#include <vector>

#include "model/facts.hpp"
#include "model/finding.hpp"

namespace gpudoctor {

/// Version of the JSON document's layout; bumped on any incompatible change (docs/doctor-json.md).
inline constexpr int kDoctorSchemaVersion = 1;

struct TextStyle {
  bool color = false;
  bool verbose = false;  ///< also list ok/info findings' details and evidence
};

std::string render_doctor_text(const Facts& facts, const std::vector<Finding>& findings, const TextStyle& style);
std::string render_doctor_json(const Facts& facts, const std::vector<Finding>& findings);

}  // namespace gpudoctor
