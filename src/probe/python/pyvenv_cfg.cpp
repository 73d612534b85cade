#include "probe/python/pyvenv_cfg.hpp"

#include "core/text.hpp"
#include "probe/python/python_literal.hpp"

namespace gpudoctor {

PyvenvCfg parse_pyvenv_cfg(std::string_view text) {
  PyvenvCfg cfg;
  if (pyfile::refuse_binary(text, "pyvenv.cfg is not text (binary content)", cfg.problems)) return cfg;
  int n = 0;
  for (std::string_view raw : lines(text)) {
    ++n;
    std::string_view line = trim(raw);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      if (cfg.problems.size() < 5) {
        cfg.problems.push_back("line " + std::to_string(n) + " is not key = value: " + printable(line, 60));
      }
      continue;
    }
    cfg.values[to_lower(trim(line.substr(0, eq)))] = printable(trim(line.substr(eq + 1)), 400);
  }
  auto get = [&](const char* key) -> std::string {
    auto it = cfg.values.find(key);
    return it == cfg.values.end() ? std::string() : it->second;
  };
  cfg.python_version = get("version");
  if (cfg.python_version.empty()) cfg.python_version = get("version_info");
  // "3.11.7.final.0" -> "3.11.7"
  if (size_t f = cfg.python_version.find(".final"); f != std::string::npos) {
    cfg.python_version.resize(f);
  }
  cfg.home = get("home");
  cfg.include_system_site_packages = iequals(get("include-system-site-packages"), "true");
  if (!get("uv").empty()) {
    cfg.creator = "uv";
  } else if (!get("virtualenv").empty()) {
    cfg.creator = "virtualenv";
  } else if (!cfg.values.empty()) {
    cfg.creator = "venv";
  }
  if (cfg.home.empty()) cfg.problems.push_back("pyvenv.cfg has no home = line");
  return cfg;
}

}  // namespace gpudoctor
