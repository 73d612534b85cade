// Placeholders in rule texts: a capture the log did not give must read naturally, never as a
// stump ("instructions ((not in the log))") or a raw "{name}".
#include <gtest/gtest.h>
#include <re2/re2.h>

#include <functional>
#include <map>
#include <set>

#include "core/version.hpp"
#include "explain/explain_session.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::builtin_matcher;

/// Every way a rendered text can show that a placeholder went wrong; empty when it reads clean.
/// A token the rule's own text already holds (code such as `get_arch_list()`) is not one.
std::string glitch(const std::string& text, const std::string& source) {
  static const RE2 kUnreplaced(R"(\{\w{1,40}(\|[^}]*)?\})");
  for (const char* bad : {"(not in the log)", "((", "))", "()", "( ", " )", "  ", " ,", " ;", " :", " ."}) {
    if (text.find(bad) != std::string::npos && source.find(bad) == std::string::npos) {
      return std::string("contains \"") + bad + "\"";
    }
  }
  if (RE2::PartialMatch(text, kUnreplaced)) return "has an unreplaced placeholder";
  if (text.find("{?linux:") != std::string::npos || text.find("{?windows:") != std::string::npos) {
    return "has an unselected platform part";
  }
  if (!text.empty() && (text.front() == ' ' || text.back() == ' ')) return "starts or ends with a space";
  return {};
}

/// The placeholder names a text uses.
std::set<std::string> placeholder_names(const std::string& text) {
  static const RE2 kName(R"(\{(\w{1,40})(?:\|[^}]*)?\})");
  std::set<std::string> out;
  re2::StringPiece in(text);
  std::string name;
  while (RE2::FindAndConsume(&in, kName, &name)) out.insert(name);
  return out;
}

const RuleCandidate* find_candidate(const RuleBase& base, const std::string& id) {
  for (const Rule& rule : base.rules) {
    for (const RuleCandidate& c : rule.candidates) {
      if (c.id == id) return &c;
    }
  }
  return nullptr;
}

TEST(ExplainPlaceholders, FilledDroppedOrFallback) {
  const CaptureMap caps{{"lib", {"cudnn64_8.dll"}}, {"many", {"a", "b"}}};
  const std::pair<const char*, const char*> cases[] = {
      {"{lib} was not found", "cudnn64_8.dll was not found"},
      {"values {many}", "values a, b"},
      // A clause around an absent capture goes, with its space.
      {"notes instructions ({x}) it could use", "notes instructions it could use"},
      {"on the host ({reason}): no driver", "on the host: no driver"},
      // Only the innermost clause: the outer one keeps what it has.
      {"a (b (c {x}) d) e", "a (b d) e"},
      // A clause whose capture is present stays.
      {"load ({lib}) now", "load (cudnn64_8.dll) now"},
      // A fallback stands in for an absent capture, and is ignored when the capture is present.
      {"{gpu|The GPU} is old", "The GPU is old"},
      {"{lib|the library} is missing", "cudnn64_8.dll is missing"},
      // A bare absent placeholder outside parentheses is dropped without leaving double spaces.
      {"pip installed torch {version} without a tag", "pip installed torch without a tag"},
      {"allocate {size}.", "allocate."},
      // An unclosed clause that lost its value is dropped to the end; literal braces stay.
      {"fix it (see {x} for more", "fix it"},
      {"json {\"a\": 1} and {} and {not a name}", "json {\"a\": 1} and {} and {not a name}"},
      {"", ""},
  };
  for (const auto& [text, want] : cases) EXPECT_EQ(fill_placeholders(text, caps), want) << text;
}

TEST(ExplainPlaceholders, EveryRuleTextReadsCleanWithOrWithoutCaptures) {
  const RuleBase& base = builtin_matcher().base();
  size_t texts = 0;
  for (const Rule& rule : base.rules) {
    for (const RuleCandidate& c : rule.candidates) {
      for (const std::string* text : {&c.cause, &c.fix}) {
        ++texts;
        // Every capture present, none (a pattern without the group, an optional group), and
        // each one alone absent.
        CaptureMap all;
        for (const auto& name : placeholder_names(*text)) all[name] = {"VALUE"};
        std::vector<std::pair<std::string, CaptureMap>> cases = {{"all", all}, {"none", {}}};
        for (const auto& [name, value] : all) {
          cases.emplace_back("without " + name, all);
          cases.back().second.erase(name);
        }
        for (const auto& [label, captures] : cases) {
          // Each platform's text, and both when the platform is not known.
          for (std::optional<Platform> p : {std::optional<Platform>(Platform::linux),
                                            std::optional<Platform>(Platform::windows), std::optional<Platform>()}) {
            // And each version part's range: an old PyTorch, a new one, none known.
            for (const char* torch : {"", "1.12.1", "2.5.1"}) {
              std::map<std::string, Version, std::less<>> versions;
              if (*torch != '\0') versions.emplace("pytorch", *Version::parse(torch));
              const std::string out =
                  fill_placeholders(select_version_text(select_platform_text(*text, p), versions), captures);
              EXPECT_EQ(glitch(out, *text), "") << c.id << " (" << label << ", " << (p ? to_string(*p) : "any platform")
                                                << ", torch " << torch << "): " << out;
            }
          }
        }
      }
    }
  }
  EXPECT_GE(texts, 100u);
}

TEST(ExplainPlaceholders, EveryRuleExampleRendersClean) {
  // The captures real lines give: each rule's own examples, explained one at a time.
  const RuleMatcher& matcher = builtin_matcher();
  size_t rendered = 0;
  for (const Rule& rule : matcher.base().rules) {
    for (const std::string& example : rule.examples) {
      const ExplainReport r = explain_text(matcher, example, ExplainMachine{});
      for (const ExplainMatch& m : r.matches) {
        const RuleCandidate* c = find_candidate(matcher.base(), m.rule);
        ASSERT_NE(c, nullptr) << m.rule;
        ++rendered;
        EXPECT_EQ(glitch(m.cause, c->cause), "") << m.rule << " on \"" << example << "\": " << m.cause;
        EXPECT_EQ(glitch(m.fix, c->fix), "") << m.rule << " on \"" << example << "\": " << m.fix;
      }
    }
  }
  EXPECT_GE(rendered, 60u);
}

}  // namespace
}  // namespace gpudoctor
