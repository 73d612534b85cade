#pragma once
/// Renderers for `gpudoctor explain`: pure functions of the report.
#include <string>

#include "model/explain_report.hpp"

namespace gpudoctor {

inline constexpr int kExplainSchemaVersion = 1;

struct ExplainTextOptions {
  bool color = false;       ///< ANSI colour (only on a terminal)
  size_t max_matches = 12;  ///< the rest are summarised in one line
};

std::string render_explain_text(const ExplainReport& report, const ExplainTextOptions& options);
/// `{schema_version, probed, input: {...}, matches: [...]}`, matches best first.
std::string render_explain_json(const ExplainReport& report);

}  // namespace gpudoctor
