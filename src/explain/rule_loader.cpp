#include "explain/rule_loader.hpp"

#include <fmt/core.h>
#include <re2/re2.h>
#include <re2/set.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>

#include "core/text.hpp"
#include "kb/data_files.hpp"

namespace gpudoctor {

const std::vector<std::string>& explain_categories() {
  static const std::vector<std::string> kCategories = {
      "driver-missing",
      "driver-too-old",
      "toolkit-missing",
      "cudnn-missing",
      "cudnn-version-mismatch",
      "cuda-lib-missing",
      "wrong-framework-build",
      "windows-native-gpu-unsupported",
      "gpu-arch-unsupported",
      "python-version-unsupported",
      "out-of-memory",
      "memory-growth/allocator",
      "path-or-env-misconfigured",
      "wsl2-specific",
      "ptxas/xla/libdevice-missing",
      "tensorrt-warning-harmless",
      "numa-warning-harmless",
      "duplicate-factory-registration-harmless",
      "multi-gpu/nccl",
      "container/docker-runtime",
      "other",
  };
  return kCategories;
}

bool is_explain_category(std::string_view category) {
  const auto& c = explain_categories();
  return std::find(c.begin(), c.end(), category) != c.end();
}

namespace {

/// Limits that keep a hostile rule file from costing unbounded time or memory.
constexpr size_t kMaxPatternBytes = 4096;
constexpr size_t kMaxPatternsPerRule = 32;
constexpr size_t kMaxRules = 4096;
constexpr size_t kMaxTextBytes = 8192;

std::string string_or(const toml::node_view<const toml::node>& n, std::string fallback = {}) {
  if (auto s = n.value<std::string>()) return *s;
  return fallback;
}

bool string_list(const toml::node_view<const toml::node>& n, std::vector<std::string>& out, std::string& problem,
                 const char* key) {
  if (!n) return true;
  if (auto s = n.value<std::string>()) {
    out.push_back(*s);
    return true;
  }
  const toml::array* arr = n.as_array();
  if (arr == nullptr) {
    problem = fmt::format("'{}' must be a string or a list of strings", key);
    return false;
  }
  for (const auto& item : *arr) {
    auto s = item.value<std::string>();
    if (!s) {
      problem = fmt::format("'{}' must hold only strings", key);
      return false;
    }
    out.push_back(*s);
  }
  return true;
}

std::optional<RuleSeverity> parse_severity(std::string_view s) {
  if (s == "error") return RuleSeverity::error;
  if (s == "warning") return RuleSeverity::warning;
  if (s == "info") return RuleSeverity::info;
  return std::nullopt;
}

/// Reads the candidate fields shared by a rule and its alternatives. `base` supplies the
/// defaults an alternative inherits.
bool read_candidate(const toml::table& t, const RuleCandidate* base, RuleCandidate& c, std::string& problem) {
  toml::node_view<const toml::node> v{t};
  if (base != nullptr) c = *base;
  c.when.clear();
  if (auto cat = v["category"].value<std::string>()) c.category = *cat;
  if (!is_explain_category(c.category)) {
    problem = fmt::format("category '{}' is not one of the known categories", c.category);
    return false;
  }
  if (auto sev = v["severity"].value<std::string>()) {
    auto s = parse_severity(*sev);
    if (!s) {
      problem = fmt::format("severity '{}' must be error, warning or info", *sev);
      return false;
    }
    c.severity = *s;
  }
  if (auto h = v["harmless"].value<bool>()) {
    c.harmless = *h;
    if (c.harmless && !v["severity"]) c.severity = RuleSeverity::info;
  }
  if (auto p = v["priority"].value<int64_t>()) {
    c.priority = static_cast<int>(std::clamp<int64_t>(*p, 0, 100));
  } else if (base != nullptr) {
    c.priority = std::max(0, base->priority - 10);
  }
  if (!string_list(v["when"], c.when, problem, "when")) return false;
  c.cause = string_or(v["cause"], base ? base->cause : "");
  c.fix = string_or(v["fix"], base ? base->fix : "");
  if (c.cause.empty() || c.fix.empty()) {
    problem = "'cause' and 'fix' are required";
    return false;
  }
  if (c.cause.size() > kMaxTextBytes || c.fix.size() > kMaxTextBytes) {
    problem = "'cause' or 'fix' is too long";
    return false;
  }
  return true;
}

bool valid_regex(const std::string& pattern, std::string& problem) {
  if (pattern.empty() || pattern.size() > kMaxPatternBytes) {
    problem = fmt::format("a pattern must have 1 to {} bytes", kMaxPatternBytes);
    return false;
  }
  // Parsed only, not compiled: RE2::Set::Add parses, where constructing an RE2 also compiles
  // it, and the matcher compiles every pattern again into its one set. Compiling here as
  // well cost a sixth of explain's start-up.
  RE2::Options o;
  o.set_log_errors(false);
  RE2::Set parse_only(o, RE2::UNANCHORED);
  std::string error;
  if (parse_only.Add(pattern, &error) < 0) {
    problem = fmt::format("pattern '{}' is not valid RE2: {}", printable(pattern, 120), error);
    return false;
  }
  return true;
}

bool read_rule(const toml::table& t, const std::string& origin, Rule& r, std::string& problem) {
  toml::node_view<const toml::node> v{t};
  r.id = string_or(v["id"]);
  if (r.id.empty()) {
    problem = "a rule needs an 'id'";
    return false;
  }
  r.title = string_or(v["title"], r.id);
  r.tailor = string_or(v["tailor"]);
  r.origin = origin;
  r.catalog = v["catalog"].value_or(false);
  r.fact = v["fact"].value_or(false);
  if (!string_list(v["patterns"], r.patterns, problem, "patterns")) return false;
  if (!string_list(v["pattern"], r.patterns, problem, "pattern")) return false;
  if (r.patterns.empty() || r.patterns.size() > kMaxPatternsPerRule) {
    problem = fmt::format("a rule needs 1 to {} patterns", kMaxPatternsPerRule);
    return false;
  }
  for (const auto& p : r.patterns) {
    if (!valid_regex(p, problem)) return false;
  }
  if (!string_list(v["frameworks"], r.frameworks, problem, "frameworks")) return false;
  if (!string_list(v["sources"], r.sources, problem, "sources")) return false;
  if (!string_list(v["examples"], r.examples, problem, "examples")) return false;
  if (!string_list(v["supersedes"], r.supersedes, problem, "supersedes")) return false;
  if (!string_list(v["explains"], r.explains, problem, "explains")) return false;
  if (!string_list(v["split_by"], r.split_by, problem, "split_by")) return false;
  if (r.split_by.size() > 8) {
    problem = "'split_by' names at most 8 captures";
    return false;
  }
  // A name that is no named group of the rule's patterns would never split anything: a typo.
  for (const std::string& name : r.split_by) {
    const bool named = std::any_of(r.patterns.begin(), r.patterns.end(), [&](const std::string& p) {
      return p.find("(?P<" + name + ">") != std::string::npos || p.find("(?<" + name + ">") != std::string::npos;
    });
    if (!named) {
      problem = fmt::format("'split_by' names '{}', which is no named group of the rule's patterns", name);
      return false;
    }
  }
  if (const toml::node_view<const toml::node> min = v["min_lines"]) {
    const std::optional<int64_t> n = min.value<int64_t>();
    if (!n || *n < 1 || *n > 1000) {
      problem = "'min_lines' must be a whole number from 1 to 1000";
      return false;
    }
    r.min_lines = static_cast<std::uint64_t>(*n);
  }
  if (r.sources.empty()) {
    problem = "a rule needs at least one source";
    return false;
  }
  if (const toml::table* req = v["require"].as_table()) {
    for (const auto& [key, node] : *req) {
      auto s = node.value<std::string>();
      if (!s) {
        problem = "'require' values must be patterns (strings)";
        return false;
      }
      if (!valid_regex(*s, problem)) return false;
      r.require.emplace_back(std::string(key.str()), *s);
    }
  }
  if (v["require_older"]) {
    std::vector<std::string> names;
    if (!string_list(v["require_older"], names, problem, "require_older")) return false;
    if (names.size() != 2 || names[0].empty() || names[1].empty() || names[0] == names[1]) {
      problem = "'require_older' must name two different captures: [older, newer]";
      return false;
    }
    r.require_older = {names[0], names[1]};
  }
  if (const toml::node_view<const toml::node> shares = v["require_share"]) {
    // One table or a list of them: { sum = [captures], of = capture, at_least = x, at_most = y }.
    std::vector<const toml::table*> tables;
    if (const toml::table* one = shares.as_table()) tables.push_back(one);
    if (const toml::array* many = shares.as_array()) {
      for (const auto& node : *many) tables.push_back(node.as_table());
    }
    if (tables.empty()) {
      problem = "'require_share' must be a table or a list of tables";
      return false;
    }
    for (const toml::table* st : tables) {
      if (st == nullptr) {
        problem = "'require_share' must be a table or a list of tables";
        return false;
      }
      Rule::ShareRequirement share;
      const toml::node_view<const toml::node> sv{*st};
      if (!string_list(sv["sum"], share.sum, problem, "require_share.sum")) return false;
      share.of = string_or(sv["of"]);
      const std::optional<double> at_least = sv["at_least"].value<double>();
      const std::optional<double> at_most = sv["at_most"].value<double>();
      if (share.sum.empty() || share.of.empty() || (!at_least && !at_most) || (at_least && *at_least < 0) ||
          (at_most && *at_most < 0)) {
        problem = "'require_share' needs sum = [captures], of = capture and at_least or at_most (>= 0)";
        return false;
      }
      share.at_least = at_least.value_or(0);
      share.at_most = at_most.value_or(-1);
      r.require_share.push_back(std::move(share));
    }
  }
  RuleCandidate own;
  own.id = r.id;
  if (!read_candidate(t, nullptr, own, problem)) return false;
  r.candidates.push_back(std::move(own));
  if (const toml::array* alts = v["alternative"].as_array()) {
    for (const auto& node : *alts) {
      const toml::table* at = node.as_table();
      if (at == nullptr) {
        problem = "'alternative' must be a list of tables ([[rule.alternative]])";
        return false;
      }
      RuleCandidate alt;
      std::string alt_id = string_or(toml::node_view<const toml::node>{*at}["id"]);
      if (alt_id.empty()) {
        problem = "an alternative needs an 'id'";
        return false;
      }
      // An alternative does not inherit its rule's harmlessness unless it says so.
      RuleCandidate base = r.candidates.front();
      base.harmless = false;
      if (!read_candidate(*at, &base, alt, problem)) {
        problem = fmt::format("alternative '{}': {}", alt_id, problem);
        return false;
      }
      alt.id = r.id + "/" + alt_id;
      r.candidates.push_back(std::move(alt));
    }
  }
  return true;
}

}  // namespace

void parse_rule_file(std::string_view text, const std::string& origin, RuleLoadResult& out) {
  toml::table doc;
#if TOML_EXCEPTIONS
  try {
    doc = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    out.problems.push_back(fmt::format("{}: not valid TOML: {}", origin, e.description()));
    return;
  }
#else
  auto parsed = toml::parse(text, origin);
  if (!parsed) {
    out.problems.push_back(fmt::format("{}: not valid TOML: {}", origin, parsed.error().description()));
    return;
  }
  doc = std::move(parsed).table();
#endif
  if (const toml::array* rules = doc["rule"].as_array()) {
    for (const auto& node : *rules) {
      const toml::table* t = node.as_table();
      if (t == nullptr) {
        out.problems.push_back(fmt::format("{}: 'rule' must be a list of tables ([[rule]])", origin));
        break;
      }
      if (out.base.rules.size() >= kMaxRules) {
        out.problems.push_back(fmt::format("{}: more than {} rules; the rest ignored", origin, kMaxRules));
        break;
      }
      Rule r;
      std::string problem;
      if (!read_rule(*t, origin, r, problem)) {
        std::string id = string_or(toml::node_view<const toml::node>{*t}["id"], "?");
        out.problems.push_back(fmt::format("{}: rule '{}': {}", origin, printable(id, 80), problem));
        continue;
      }
      auto [seen, fresh] = out.defined.try_emplace(r.id, RuleLoadResult::Defined{out.base.rules.size(), origin});
      if (fresh) {
        out.base.rules.push_back(std::move(r));
        continue;
      }
      RuleLoadResult::Defined& d = seen->second;
      if (d.this_layer) {
        out.problems.push_back(fmt::format("{}: rule '{}' is also defined in {}; the later one is used", origin,
                                           printable(r.id, 80), d.file));
      }
      d.file = origin;
      d.this_layer = true;
      out.base.rules[d.index] = std::move(r);
    }
  }
  if (const toml::array* codes = doc["code"].as_array()) {
    for (const auto& node : *codes) {
      const toml::table* t = node.as_table();
      if (t == nullptr || out.base.codes.size() >= kMaxRules) break;
      toml::node_view<const toml::node> v{*t};
      ErrorCode c;
      c.family = string_or(v["family"]);
      c.name = string_or(v["name"]);
      c.number = v["number"].value_or<int64_t>(0);
      c.description = string_or(v["description"]);
      c.message = string_or(v["message"]);
      c.header = string_or(v["header"]);
      if (c.name.empty() || c.family.empty()) {
        out.problems.push_back(fmt::format("{}: a [[code]] needs a family and a name", origin));
        continue;
      }
      out.base.codes.push_back(std::move(c));
    }
  }
  if (doc.contains("tensorflow_build")) {
    // Explain once kept its own copy of TensorFlow's tested builds; the one table is now the
    // knowledge base's. Say so rather than silently ignore a user's old file.
    out.problems.push_back(
        fmt::format("{}: [[tensorflow_build]] is no longer read here; TensorFlow's tested builds come from "
                    "compat/tensorflow.toml (docs/knowledge-base.md)",
                    origin));
  }
}

Result<RuleLoadResult> load_rule_base(const std::string& kb_dir) {
  auto files = load_data_files("explain/", kb_dir);
  if (!files) return files.error();
  RuleLoadResult out;
  // Built-in files first, then the user's, so that a user rule replaces a built-in rule of
  // the same id whatever the file names.
  for (const bool builtin : {true, false}) {
    for (auto& entry : out.defined) entry.second.this_layer = false;
    for (const DataFile& f : *files) {
      if (!f.path.ends_with(".toml") || (f.origin == "built-in") != builtin) continue;
      parse_rule_file(f.content, builtin ? f.path : f.origin, out);
    }
  }
  // this_layer now marks what the user's files defined.
  for (const auto& entry : out.defined) {
    if (entry.second.this_layer) out.base.rules[entry.second.index].from_kb_dir = true;
  }
  return out;
}

}  // namespace gpudoctor
