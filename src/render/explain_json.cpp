#include <nlohmann/json.hpp>

#include "core/text.hpp"
#include "render/explain_render.hpp"
#include "render/json_text.hpp"

namespace gpudoctor {

std::string render_explain_json(const ExplainReport& report) {
  using nlohmann::json;
  json matches = json::array();
  for (const ExplainMatch& m : report.matches) {
    json captures = json::object();
    for (const auto& [name, values] : m.captures) {
      json vs = json::array();
      for (const auto& v : values) vs.push_back(printable(v, 200));
      captures[name] = std::move(vs);
    }
    json excerpts = json::array();
    for (const auto& e : m.excerpts) excerpts.push_back(printable(e, 400));
    matches.push_back(json{
        {"rule", m.rule},
        {"title", m.title},
        {"category", m.category},
        {"severity", to_string(m.severity)},
        {"harmless", m.harmless},
        {"alternative", m.alternative},
        {"lines", m.lines},
        {"line_count", m.count},
        {"excerpts", std::move(excerpts)},
        {"captures", std::move(captures)},
        {"cause", printable(m.cause, 4000)},
        {"fix", printable(m.fix, 4000)},
        {"machine", m.machine.empty() ? json(nullptr) : json(printable(m.machine, 4000))},
        {"facts", m.facts_verdict.empty() ? json(nullptr) : json(m.facts_verdict)},
        {"score", m.score},
        {"sources", m.sources},
    });
  }
  json doc{
      {"schema_version", kExplainSchemaVersion},
      {"probed", report.probed},
      {"facts_note", report.facts_note.empty() ? json(nullptr) : json(report.facts_note)},
      {"input",
       {{"bytes", report.input.bytes_in},
        {"lines", report.input.lines},
        {"lines_truncated", report.input.lines_truncated},
        {"control_bytes", report.input.control_bytes},
        {"encoding", to_string(report.input.encoding)},
        {"lines_recoded", report.input.lines_recoded},
        {"codepage", report.input.codepage.empty() ? json(nullptr) : json(report.input.codepage)},
        {"bytes_replaced", report.input.bytes_replaced}}},
      {"problems", report.problems},
      {"matches", std::move(matches)},
  };
  return json_text(doc);
}

}  // namespace gpudoctor
