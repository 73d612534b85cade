#pragma once
// Shared by the explain tests: the built-in rule base, compiled once per test binary.
#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

#include "explain/explain_session.hpp"
#include "explain/rule_loader.hpp"
#include "kb/knowledge_base.hpp"
#include "kb_test_support.hpp"

namespace gpudoctor::testing {

inline const RuleMatcher& builtin_matcher() {
  static std::unique_ptr<RuleMatcher> matcher = [] {
    auto loaded = load_rule_base("");
    EXPECT_TRUE(loaded.has_value());
    EXPECT_TRUE(loaded->problems.empty()) << (loaded->problems.empty() ? "" : loaded->problems.front());
    auto built = RuleMatcher::build(loaded->base);
    EXPECT_TRUE(built.has_value()) << (built ? "" : built.error().message);
    return std::move(*built);
  }();
  return *matcher;
}

/// The text explained with the built-in rules and no machine facts (as `--no-probe`).
inline ExplainReport explain_no_facts(std::string_view text) {
  return explain_text(builtin_matcher(), text, ExplainMachine{});
}

/// explain_no_facts under the short name some test files use. They take it with a
/// using-declaration, which may be repeated where unity builds put two of them in one batch (a
/// variable defined in each could not).
inline ExplainReport explain(std::string_view text) {
  return explain_no_facts(text);
}

/// The text explained with the built-in rules on a machine known only by its platform
/// (`--no-probe --platform P`).
inline ExplainReport explain_on(Platform platform, std::string_view text) {
  return explain_text(builtin_matcher(), text, ExplainMachine{platform});
}

/// 1-based position of the first match of `category`, 0 when absent.
inline size_t category_rank(const ExplainReport& r, std::string_view category) {
  for (size_t i = 0; i < r.matches.size(); ++i) {
    if (r.matches[i].category == category) return i + 1;
  }
  return 0;
}

/// `category` is among the report's first three answers; else says which answers there were.
inline ::testing::AssertionResult among_first_three(const ExplainReport& r, std::string_view category) {
  const size_t rank = category_rank(r, category);
  if (rank >= 1 && rank <= 3) return ::testing::AssertionSuccess();
  auto failure = ::testing::AssertionFailure() << category << " not among the first three; the answers were:";
  for (const auto& m : r.matches) failure << " " << m.rule << " (" << m.category << ")";
  if (r.matches.empty()) failure << " none";
  return failure;
}

/// The rule ids of the report in order (for the assertions' messages below).
inline std::string rule_list_of(const ExplainReport& r) {
  std::string out;
  for (const auto& m : r.matches) out += m.rule + " ";
  return out;
}

/// The report has an answer and its first is `rule`; else says which answers came first.
inline ::testing::AssertionResult leads_with(const ExplainReport& r, std::string_view rule) {
  if (!r.matches.empty() && r.matches.front().rule == rule) return ::testing::AssertionSuccess();
  auto failure = ::testing::AssertionFailure() << "expected " << rule << " first; the answers were:";
  for (const auto& m : r.matches) failure << " " << m.rule;
  if (r.matches.empty()) failure << " none";
  return failure;
}

/// The report leads with `lead` and has none of `absent` anywhere (the wrong answer is gone, not
/// only ranked down); the failure says which answers came.
inline ::testing::AssertionResult leads_without(const ExplainReport& r, std::string_view lead,
                                                std::initializer_list<std::string_view> absent) {
  auto result = leads_with(r, lead);
  if (!result) return result;
  for (std::string_view a : absent) {
    for (const auto& m : r.matches) {
      if (m.rule == a) return ::testing::AssertionFailure() << a << " is among the answers: " << rule_list_of(r);
    }
  }
  return ::testing::AssertionSuccess();
}

/// Answers counted as problems (the header's count): leading candidates that are not harmless.
inline size_t problem_count(const ExplainReport& r) {
  size_t n = 0;
  for (const auto& m : r.matches) n += (!m.alternative && !m.harmless) ? 1 : 0;
  return n;
}

inline const ExplainMatch* find_rule(const ExplainReport& r, std::string_view rule) {
  for (const auto& m : r.matches) {
    if (m.rule == rule) return &m;
  }
  return nullptr;
}

/// The rule ids of the report in order, for failure messages.
inline std::string rule_list(const ExplainReport& r) {
  return rule_list_of(r);
}

/// Every candidate's cause and fix, one string: what a reader of the report is told.
inline std::string told(const ExplainReport& r) {
  std::string out;
  for (const auto& m : r.matches) out += m.cause + "\n" + m.fix + "\n";
  return out;
}

inline bool mentions(std::string_view text, std::string_view what) {
  return text.find(what) != std::string_view::npos;
}

/// Every one of `words` is in `text`; the failure names those missing and shows the text.
inline ::testing::AssertionResult says_all(std::string_view text, std::initializer_list<std::string_view> words) {
  std::string missing;
  for (std::string_view w : words) {
    if (!mentions(text, w)) missing += (missing.empty() ? "" : ", ") + std::string(w);
  }
  if (missing.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "missing " << missing << " in: " << text;
}

}  // namespace gpudoctor::testing
