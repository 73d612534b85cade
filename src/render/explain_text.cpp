#include <fmt/core.h>

#include <algorithm>

#include "core/text.hpp"
#include "render/explain_render.hpp"

namespace gpudoctor {

namespace {

struct Palette {
  const char* red = "";
  const char* yellow = "";
  const char* green = "";
  const char* dim = "";
  const char* bold = "";
  const char* reset = "";
};

Palette palette(bool color) {
  if (!color) return {};
  return {"\x1b[31m", "\x1b[33m", "\x1b[32m", "\x1b[2m", "\x1b[1m", "\x1b[0m"};
}

/// Says how many lines were cut at the decoder's limit, and which were not UTF-8 and how they
/// were read; empty when neither.
std::string truncation_note(const ExplainReport& report) {
  std::string out;
  if (report.input.lines_truncated != 0) {
    out += fmt::format("({} very long line(s) were read only in their first and last 16 KiB.)\n",
                       report.input.lines_truncated);
  }
  if (report.input.lines_recoded != 0) {
    out += fmt::format("({} line(s) were not UTF-8 and were read as {}.)\n", report.input.lines_recoded,
                       report.input.codepage);
  }
  if (report.input.bytes_replaced != 0) {
    out += fmt::format(
        "({} byte(s) were neither UTF-8 nor {}: messages with them may be missed; save the log as "
        "UTF-8, or run Python with -X utf8.)\n",
        report.input.bytes_replaced,
        report.input.codepage.empty() ? std::string("a known code page") : report.input.codepage);
  }
  return out;
}

std::string line_list(const ExplainMatch& m) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < m.lines.size() && i < 8; ++i) parts.push_back(std::to_string(m.lines[i]));
  std::string s = join(parts, ", ");
  if (m.count > parts.size()) s += fmt::format(" (+{} more)", m.count - parts.size());
  return s;
}

}  // namespace

std::string render_explain_text(const ExplainReport& report, const ExplainTextOptions& options) {
  const Palette p = palette(options.color);
  std::string out;
  // One answer per group of lines: its leading candidate (not an alternative) says whether it
  // is a problem or harmless; the alternatives are other possible causes of the same lines.
  size_t problems = 0;
  size_t harmless = 0;
  size_t candidates = 0;
  bool in_problem = false;
  for (const auto& m : report.matches) {
    if (!m.alternative) {
      in_problem = !m.harmless;
      ++(in_problem ? problems : harmless);
    }
    if (in_problem) ++candidates;
  }
  for (const auto& problem : report.problems) out += fmt::format("note: {}\n", printable(problem, 300));
  if (report.matches.empty()) {
    out +=
        fmt::format("No known problem found in {} line{}.\n", report.input.lines, report.input.lines == 1 ? "" : "s");
    out += truncation_note(report);
    return out;
  }
  out += fmt::format("{}{} problem(s) recognised{} ({} possible cause(s)), {} harmless message(s), in {} line(s){}{}\n",
                     p.bold, problems, p.reset, candidates, harmless, report.input.lines,
                     report.probed               ? std::string("; ranked with this machine's facts")
                     : report.facts_note.empty() ? std::string("; from the text alone (--no-probe)")
                                                 : "; from the text alone (" + report.facts_note + ")",
                     report.input.encoding == LogEncoding::utf16le || report.input.encoding == LogEncoding::utf16be
                         ? std::string("; input was ") + to_string(report.input.encoding)
                         : std::string());
  // Also beside answers: a message past the cut was not seen, and may be the one that matters.
  out += truncation_note(report) + "\n";
  size_t shown = 0;
  bool harmless_header = false;
  for (const ExplainMatch& m : report.matches) {
    if (shown >= options.max_matches) break;
    if (m.harmless && !m.alternative && !harmless_header) {
      out += fmt::format("{}Harmless messages (no action needed):{}\n", p.dim, p.reset);
      harmless_header = true;
    }
    ++shown;
    const char* colour = m.harmless ? p.green : m.severity == RuleSeverity::error ? p.red : p.yellow;
    const char* mark = m.harmless ? "ok" : m.severity == RuleSeverity::error ? "✗" : "!";
    out += fmt::format("{}{} {}. [{}] {}{}{}\n", colour, mark, shown, m.category, printable(m.title, 200),
                       m.alternative ? " (another possible cause)" : "", p.reset);
    out += fmt::format("   {}rule {} · line {}{}\n", p.dim, m.rule, line_list(m), p.reset);
    if (!m.excerpts.empty() && !m.alternative) {
      out += fmt::format("   {}> {}{}\n", p.dim, printable(m.excerpts.front(), 160), p.reset);
    }
    out += fmt::format("   cause: {}\n", printable(m.cause, 2000));
    out += fmt::format("   fix:   {}\n", printable(m.fix, 2000));
    if (!m.machine.empty()) out += fmt::format("   this machine: {}\n", printable(m.machine, 2000));
    // Log-event conditions are read from the log itself: under --no-probe nothing of the machine
    // is known, so the verdict is the log's.
    const char* const known = m.facts_from_log ? "what the log shows" : "what is known of this machine";
    if (m.facts_verdict == "supported") out += std::string("   (") + known + " points to this cause)\n";
    if (m.facts_verdict == "contradicted") out += std::string("   (") + known + " makes this cause unlikely)\n";
    if (!m.sources.empty()) out += fmt::format("   {}source: {}{}\n", p.dim, m.sources.front(), p.reset);
    out += "\n";
  }
  if (report.matches.size() > shown) {
    out += fmt::format("... and {} more (use --json for all).\n", report.matches.size() - shown);
  }
  return out;
}

}  // namespace gpudoctor
