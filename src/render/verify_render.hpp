#pragma once
/// Renderers for `gpudoctor verify`: text and JSON (with schema_version). Pure functions of
/// the VerifyReport; they never probe and never print.
#include <string>

#include "model/verify_report.hpp"

namespace gpudoctor {

constexpr int kVerifySchemaVersion = 1;

std::string render_verify_text(const VerifyReport& report, bool color);
std::string render_verify_json(const VerifyReport& report);
/// One line for a step as it finishes (progress on a terminal, and the text report's rows).
std::string render_verify_step_line(const VerifyStep& step, bool color);

}  // namespace gpudoctor
