#pragma once
/// `gpudoctor report --html`: one self-contained page (inline CSS and SVG; no script, font or
/// image from anywhere, which a Content-Security-Policy meta tag also forbids) from the
/// doctor's report, the install plan and, where given, the figures of bench, verify and fleet.
/// Rendered from the mustache templates in src/render/templates/ by Debian's mstch, which
/// HTML-escapes every value: no string from the diagnosed machine becomes markup.
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "model/facts.hpp"
#include "model/finding.hpp"
#include "model/fleet.hpp"
#include "model/plan.hpp"

namespace gpudoctor {

struct HtmlReportInput {
  const Facts& facts;
  const std::vector<Finding>& findings;
  const Plan* plan = nullptr;  ///< the install plan for these facts; nullptr: no plan section
  /// JSON documents of other commands, each rendered as its own section when given (null
  /// otherwise); the shapes read are in docs/html-report.md.
  const nlohmann::ordered_json* bench = nullptr;
  const nlohmann::ordered_json* verify = nullptr;
  /// `gpudoctor fleet --json` read back (model/json_codec's fleet_report_from_json).
  const FleetReport* fleet = nullptr;
};

std::string render_doctor_html(const HtmlReportInput& input);

}  // namespace gpudoctor
