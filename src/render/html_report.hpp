#pragma once
/// `gpudoctor report --html`: one self-contained page (inline CSS and SVG; no script, font or
/// image from anywhere, which a Content-Security-Policy meta tag also forbids) from the
/// doctor's report, the install plan and, where given, the figures of bench, verify and fleet.
/// Rendered from the mustache templates in src/render/templates/ by Debian's mstch, which
/// HTML-escapes every value: no string from the diagnosed machine becomes markup.
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "model/bench_report.hpp"
#include "model/facts.hpp"
#include "model/finding.hpp"
#include "model/fleet.hpp"
#include "model/plan.hpp"
#include "model/verify_report.hpp"
#include "model/watch_summary.hpp"

namespace gpudoctor {

struct HtmlReportInput {
  const Facts& facts;
  const std::vector<Finding>& findings;
  const Plan* plan = nullptr;  ///< the install plan for these facts; nullptr: no plan section
  /// Other commands' results, each rendered as its own section when given (null otherwise).
  const BenchReport* bench = nullptr;
  const VerifyReport* verify = nullptr;
  /// `gpudoctor fleet --json` read back (model/json_codec's fleet_report_from_json).
  const FleetReport* fleet = nullptr;
  const WatchSummary* watch = nullptr;  ///< a `watch --jsonl` log summed up; charts over time
};

std::string render_doctor_html(const HtmlReportInput& input);

}  // namespace gpudoctor
