#include "explain/explain_session.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>

namespace gpudoctor {

namespace {

/// Facts that confirm every condition of a candidate move it this much up; facts that refute
/// one move it down as much. Larger than the gap between a rule and its alternatives, so the
/// machine decides when it can.
constexpr int kFactsWeight = 40;

}  // namespace

namespace {

bool is_name_char(char ch) {
  return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
}

/// Longest `{name|fallback}` recognised; longer braces are literal text.
constexpr size_t kMaxPlaceholderChars = 200;

/// A placeholder at text[i] ('{'): its name, its fallback (after '|'), and the index past
/// '}'. False when text[i] does not start one (literal brace).
bool parse_placeholder(std::string_view text, size_t i, std::string_view& name,
                       std::optional<std::string_view>& fallback, size_t& end) {
  const size_t close = text.find('}', i + 1);
  if (close == std::string_view::npos || close - i - 1 > kMaxPlaceholderChars) return false;
  std::string_view inner = text.substr(i + 1, close - i - 1);
  const size_t bar = inner.find('|');
  name = inner.substr(0, bar);
  if (name.empty() || name.size() > 40 || !std::all_of(name.begin(), name.end(), is_name_char)) return false;
  fallback.reset();
  if (bar != std::string_view::npos) fallback = inner.substr(bar + 1);
  end = close + 1;
  return true;
}

/// Drops a space left before punctuation or before another space once a placeholder went.
void tidy_before(std::string& out, std::string_view rest) {
  if (out.empty() || out.back() != ' ') return;
  if (rest.empty() || std::string_view(" ,.;:)").find(rest.front()) != std::string_view::npos) out.pop_back();
}

}  // namespace

std::string fill_placeholders(std::string_view text, const CaptureMap& captures) {
  std::string out;
  out.reserve(text.size() + 32);
  struct Clause {
    size_t at;          ///< position of '(' in out
    bool drop = false;  ///< a placeholder in it had no value and no fallback
  };
  std::vector<Clause> open;
  bool dropped = false;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '{') {
      std::string_view name;
      std::optional<std::string_view> fallback;
      size_t end = 0;
      if (parse_placeholder(text, i, name, fallback, end)) {
        auto it = captures.find(std::string(name));
        if (it != captures.end() && !it->second.empty()) {
          for (size_t k = 0; k < it->second.size(); ++k) {
            if (k > 0) out += ", ";
            out += it->second[k];
          }
        } else if (fallback) {
          out += *fallback;
        } else if (!open.empty()) {
          open.back().drop = true;  // "(... {x} ...)": the whole clause goes
        } else {
          dropped = true;
          tidy_before(out, text.substr(end));
        }
        i = end;
        continue;
      }
    } else if (c == '(') {
      open.push_back(Clause{out.size()});
    } else if (c == ')' && !open.empty()) {
      const Clause clause = open.back();
      open.pop_back();
      if (clause.drop) {
        // Also the space before it: "notes X (clause) it" -> "notes X it".
        const size_t from = clause.at > 0 && out[clause.at - 1] == ' ' ? clause.at - 1 : clause.at;
        out.erase(from);
        dropped = true;
        ++i;
        continue;
      }
    }
    out.push_back(c);
    ++i;
  }
  // An unclosed clause that lost its value: drop it to the end rather than leave a stump.
  for (const Clause& clause : open) {
    if (clause.drop && clause.at <= out.size()) {
      out.erase(clause.at);
      dropped = true;
      break;
    }
  }
  if (dropped) {
    while (!out.empty() && out.back() == ' ') out.pop_back();
    while (!out.empty() && out.front() == ' ') out.erase(0, 1);
  }
  return out;
}

ExplainReport rank_hits(const RuleBase& base, const std::vector<RuleHits>& hits, const ExplainMachine& machine) {
  ExplainReport report;
  report.probed = machine.facts != nullptr;
  // Lines a hand-written rule recognised: the catalog's generic answer for an error code on
  // such a line would only repeat it with less context.
  std::vector<std::uint64_t> known_lines;
  for (const RuleHits& h : hits) {
    if (h.rule_index < base.rules.size() && !base.rules[h.rule_index].catalog) {
      known_lines.insert(known_lines.end(), h.lines.begin(), h.lines.end());
    }
  }
  std::sort(known_lines.begin(), known_lines.end());
  // Catalog rules with more lines first, so that one matching a subset of another's lines
  // (the runtime's 303 on one line, the driver's 303 on that line and another) is the one
  // dropped.
  std::vector<const RuleHits*> order;
  for (const RuleHits& h : hits) order.push_back(&h);
  std::stable_sort(order.begin(), order.end(), [&](const RuleHits* a, const RuleHits* b) {
    const bool ca = a->rule_index < base.rules.size() && base.rules[a->rule_index].catalog;
    const bool cb = b->rule_index < base.rules.size() && base.rules[b->rule_index].catalog;
    return ca && cb && a->lines.size() > b->lines.size();
  });
  std::vector<std::uint64_t> catalog_lines;  ///< lines of catalog rules already taken, sorted
  for (const RuleHits* hp : order) {
    const RuleHits& h = *hp;
    if (h.rule_index >= base.rules.size()) continue;
    const Rule& rule = base.rules[h.rule_index];
    if (rule.catalog) {
      if (!h.lines.empty() && std::all_of(h.lines.begin(), h.lines.end(), [&](std::uint64_t l) {
            return std::binary_search(known_lines.begin(), known_lines.end(), l);
          })) {
        continue;
      }
      // One code printed by two libraries' names on the same lines (the runtime's and the
      // driver's 303): one answer.
      if (!h.lines.empty() && std::all_of(h.lines.begin(), h.lines.end(), [&](std::uint64_t l) {
            return std::binary_search(catalog_lines.begin(), catalog_lines.end(), l);
          })) {
        continue;
      }
      catalog_lines.insert(catalog_lines.end(), h.lines.begin(), h.lines.end());
      std::sort(catalog_lines.begin(), catalog_lines.end());
    }
    const std::string note = machine_note(rule, h.captures, machine);
    for (size_t k = 0; k < rule.candidates.size(); ++k) {
      const RuleCandidate& c = rule.candidates[k];
      ExplainMatch m;
      m.rule = c.id;
      m.title = rule.title;
      m.category = c.category;
      m.severity = c.severity;
      m.harmless = c.harmless;
      m.alternative = k > 0;
      m.count = h.count;
      m.lines = h.lines;
      m.excerpts = h.excerpts;
      m.captures = h.captures;
      m.cause = fill_placeholders(c.cause, h.captures);
      m.fix = fill_placeholders(c.fix, h.captures);
      m.machine = note;
      m.sources = rule.sources;
      m.score = c.priority;
      bool any_no = false;
      bool all_yes = !c.when.empty();
      for (const auto& cond : c.when) {
        const Truth t = evaluate_condition(cond, h.captures, machine);
        if (t == Truth::no) any_no = true;
        if (t != Truth::yes) all_yes = false;
      }
      if (any_no) {
        m.score -= kFactsWeight;
        m.facts_verdict = "contradicted";
      } else if (all_yes) {
        m.score += kFactsWeight;
        m.facts_verdict = "supported";
      }
      report.matches.push_back(std::move(m));
    }
  }
  // Real problems first, whatever their score: a harmless line never hides a real one. Then
  // by score, then the earliest line (the first error usually causes the later ones).
  std::stable_sort(report.matches.begin(), report.matches.end(), [](const ExplainMatch& a, const ExplainMatch& b) {
    if (a.harmless != b.harmless) return !a.harmless;
    if (a.score != b.score) return a.score > b.score;
    const auto la = a.lines.empty() ? UINT64_MAX : a.lines.front();
    const auto lb = b.lines.empty() ? UINT64_MAX : b.lines.front();
    if (la != lb) return la < lb;
    return a.rule < b.rule;
  });
  return report;
}

ExplainSession::ExplainSession(const RuleMatcher& matcher)
    : matcher_(matcher),
      scanner_(matcher),
      joiner_([this](std::string_view line, std::uint64_t line_no) { scanner_.add_line(line, line_no); }),
      second_joiner_([this](std::string_view line, std::uint64_t line_no) { scanner_.add_line(line, line_no); }),
      decoder_([this](std::string_view line, std::uint64_t) { take_line(line, joiner_); }),
      second_decoder_([this](std::string_view line, std::uint64_t) { take_line(line, second_joiner_); }) {}

void ExplainSession::take_line(std::string_view line, LineJoiner& joiner) {
  // Short lines are never pasted logs; the search costs a memchr-speed pass over the others.
  constexpr size_t kMinEscapedLogBytes = 160;
  size_t at = line.size() >= kMinEscapedLogBytes ? line.find("\\n") : std::string_view::npos;
  // Two escapes at least, and no Windows path with single backslashes (`C:\Windows\nvcuda.dll`
  // holds a "\n" that is not a line end).
  if (at != std::string_view::npos &&
      (line.find("\\n", at + 2) == std::string_view::npos || line.find(":\\") != std::string_view::npos)) {
    at = std::string_view::npos;
  }
  if (at == std::string_view::npos) {
    joiner.add(line, ++lines_);
    return;
  }
  ++lines_;
  while (at != std::string_view::npos) {
    joiner.add(line.substr(0, at), lines_);
    line.remove_prefix(at + 2);
    at = line.find("\\n");
  }
  joiner.add(line, lines_);
}

ExplainReport ExplainSession::finish(const ExplainMachine& machine) {
  decoder_.finish();
  second_decoder_.finish();
  joiner_.finish();
  second_joiner_.finish();
  scanner_.finish();
  std::vector<RuleHits> hits = scanner_.hits();
  ExplainMachine with_log = machine;
  take_log_facts(matcher_.base(), hits, with_log.log);
  ExplainReport report = rank_hits(matcher_.base(), hits, with_log);
  report.input = decoder_.stats();
  const LogDecoderStats& second = second_decoder_.stats();
  report.input.bytes_in += second.bytes_in;
  report.input.lines += second.lines;
  report.input.lines_truncated += second.lines_truncated;
  report.input.control_bytes += second.control_bytes;
  return report;
}

std::vector<std::string> check_rule_examples(const RuleMatcher& matcher) {
  std::vector<std::string> problems;
  for (const Rule& rule : matcher.base().rules) {
    for (const std::string& example : rule.examples) {
      // What the rule itself matched, before ranking (which may defer a catalog rule to a
      // hand-written rule for the same line).
      LogScanner scanner(matcher);
      scanner.add_line(example, 1);
      scanner.finish();
      const auto hits = scanner.hits();
      const bool found = std::any_of(hits.begin(), hits.end(),
                                     [&](const RuleHits& h) { return &matcher.base().rules[h.rule_index] == &rule; });
      if (!found) {
        problems.push_back("rule '" + rule.id + "' (" + rule.origin +
                           ") does not recognise its example: " + example.substr(0, 200));
      }
    }
  }
  return problems;
}

ExplainReport explain_text(const RuleMatcher& matcher, std::string_view text, const ExplainMachine& machine) {
  ExplainSession session(matcher);
  session.feed(text);
  return session.finish(machine);
}

}  // namespace gpudoctor
