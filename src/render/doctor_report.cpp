#include "render/doctor_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/text.hpp"
#include "model/build_info.hpp"
#include "model/json_codec.hpp"
#include "render/finding_words.hpp"
#include "render/json_text.hpp"

namespace gpudoctor {
namespace {

std::string paint(const std::string& text, Severity s, bool color) {
  if (!color) return text;
  const char* code = s == Severity::error     ? "\x1b[31m"
                     : s == Severity::warning ? "\x1b[33m"
                     : s == Severity::ok      ? "\x1b[32m"
                                              : "\x1b[2m";
  return code + text + "\x1b[0m";
}

/// Indents every line of a possibly multi-line text. Every field may carry names from the
/// diagnosed tree, so each line is made terminal-safe: a directory named with escape codes
/// must not retitle the terminal or forge a "✓" line.
void append_block(std::string& out, const std::string& text, const char* indent) {
  for (auto line : lines(text)) out += fmt::format("{}{}\n", indent, terminal_safe(line));
}

}  // namespace

std::string render_doctor_text(const Facts& facts, const std::vector<Finding>& findings, const TextStyle& style) {
  std::string out;
  out += fmt::format("gpudoctor {} — {}{}\n\n", build_info().version,
                     facts.live ? "this machine" : "tree " + terminal_safe(facts.root),
                     facts.platform == Platform::linux ? "" : fmt::format(" ({})", to_string(facts.platform)));
  int areas_with_errors = 0;
  int areas_with_warnings = 0;
  auto render_area = [&](FindingArea area) {
    std::vector<const Finding*> mine;
    for (const auto& f : findings) {
      if (f.area == area) mine.push_back(&f);
    }
    if (mine.empty()) return;
    Severity w = Severity::ok;
    for (const auto* f : mine) w = std::max(w, f->severity);
    if (w == Severity::error) ++areas_with_errors;
    if (w == Severity::warning) ++areas_with_warnings;
    // ✓ only over something checked and fine: an area of notes alone (no driver, a GPU whose
    // line points at a problem elsewhere) is headed by a note, not a tick.
    bool any_ok = std::ranges::any_of(mine, [](const Finding* f) { return f->severity == Severity::ok; });
    Severity head = w == Severity::info && any_ok ? Severity::ok : w;
    out += fmt::format("[{}] {}\n", paint(severity_mark(head), head, style.color), area_title(area));
    for (const auto* f : mine) {
      bool problem = f->severity >= Severity::warning;
      // A list folded into one line says where the list is, unless -v already shows it.
      bool folded = !problem && !style.verbose && !f->detail.empty() && f->id == "python-envs-without-framework";
      out += fmt::format("    {} {}{}\n", paint(severity_mark(f->severity), f->severity, style.color),
                         terminal_safe(f->title), folded ? " (-v lists them)" : "");
      if (!f->detail.empty() && (problem || style.verbose)) append_block(out, f->detail, "      ");
      if (!f->fix.empty()) append_block(out, "Fix: " + f->fix, "      ");
      if (style.verbose && !f->evidence.empty()) {
        std::vector<std::string> ev;
        for (const auto& e : f->evidence) {
          if (!e.empty()) ev.push_back(e);
        }
        if (!ev.empty()) out += fmt::format("      evidence: {}\n", terminal_safe(join(ev, ", ")));
      }
      if (!f->source.empty() && (problem || style.verbose)) {
        out += fmt::format("      source: {}\n", terminal_safe(f->source));
      }
    }
  };
  for (FindingArea a : kFindingAreas) render_area(a);
  out += "\n";
  if (areas_with_errors == 0 && areas_with_warnings == 0) {
    out += "• No issues found.\n";
  } else {
    out += fmt::format("{} Doctor found problems: {} area(s) with errors, {} with warnings.\n",
                       areas_with_errors ? "✗" : "!", areas_with_errors, areas_with_warnings);
  }
  return out;
}

std::string render_doctor_json(const Facts& facts, const std::vector<Finding>& findings) {
  nlohmann::ordered_json doc;
  doc["schema_version"] = kDoctorSchemaVersion;
  doc["tool"] = {{"name", "gpudoctor"}, {"version", build_info().version}, {"commit", build_info().git_commit}};
  int counts[4] = {0, 0, 0, 0};
  for (const auto& f : findings) ++counts[static_cast<int>(f.severity)];
  doc["summary"] = {{"status", to_string(worst(findings))},
                    {"errors", counts[static_cast<int>(Severity::error)]},
                    {"warnings", counts[static_cast<int>(Severity::warning)]},
                    {"infos", counts[static_cast<int>(Severity::info)]},
                    {"oks", counts[static_cast<int>(Severity::ok)]}};
  doc["facts"] = facts_to_json(facts);
  doc["findings"] = findings_to_json(findings);
  return json_text(doc);
}

}  // namespace gpudoctor
