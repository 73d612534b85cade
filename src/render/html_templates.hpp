#pragma once
/// The HTML report's mustache templates (src/render/templates/), compiled into the binary by
/// cmake/embed_run.cmake: the page is data, not strings glued together in C++.
#include <string_view>
#include <vector>

namespace gpudoctor {

struct TemplateFile {
  std::string_view path;  ///< file name under src/render/templates/ ("report.mustache")
  std::string_view content;
};

const std::vector<TemplateFile>& html_templates();

}  // namespace gpudoctor
