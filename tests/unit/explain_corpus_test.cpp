// Every case of the real-log corpus (tests/corpus/error-logs.jsonl, copied from
// ../shared/corpus) is a test: its category must be the first answer, or among the first
// three where the text alone cannot tell. Two settings are measured:
//   text only  : --no-probe, nothing known about the machine;
//   platform   : only the platform the log came from is known (what explain always knows on
//                the live machine), when the corpus names it.
// A quarter of the corpus (every 4th case, in file order) is reported separately as the
// held-out set (see docs/explain.md for how honest that split is).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

struct CorpusCase {
  std::string id;
  std::string category;
  std::string platform;
  std::string log;
  size_t index = 0;
};

std::vector<CorpusCase> load_corpus(const std::string& file = "error-logs.jsonl") {
  std::ifstream in(std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/corpus/" + file);
  std::vector<CorpusCase> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line);
    out.push_back(
        CorpusCase{j.at("id"), j.at("category"), j.value("platform", "unknown"), j.at("log_excerpt"), out.size()});
  }
  return out;
}

struct Tally {
  size_t cases = 0, top1 = 0, top3 = 0;
  void add(size_t rank) {
    ++cases;
    if (rank == 1) ++top1;
    if (rank >= 1 && rank <= 3) ++top3;
  }
  [[nodiscard]] std::string str() const {
    return std::to_string(top1) + "/" + std::to_string(cases) + " first, " + std::to_string(top3) + "/" +
           std::to_string(cases) + " in the first three";
  }
};

TEST(ExplainCorpus, EveryCaseIsRecognised) {
  const auto corpus = load_corpus();
  ASSERT_GE(corpus.size(), 60u) << "tests/corpus/error-logs.jsonl missing or short";
  const RuleMatcher& matcher = testing::builtin_matcher();
  Tally text_all, text_held, plat_all, plat_held;
  std::vector<std::string> misses;
  for (const auto& c : corpus) {
    ASSERT_TRUE(is_explain_category(c.category)) << c.id;
    // As the command runs: the knowledge base is always there, facts are not (--no-probe).
    const auto text = explain_text(matcher, c.log, ExplainMachine{.kb = &testing::builtin_kb()});
    const size_t text_rank = testing::category_rank(text, c.category);
    ExplainMachine m;
    m.kb = &testing::builtin_kb();
    m.platform = parse_platform(c.platform);
    const auto plat = explain_text(matcher, c.log, m);
    const size_t plat_rank = testing::category_rank(plat, c.category);
    const bool held = c.index % 4 == 3;
    text_all.add(text_rank);
    plat_all.add(plat_rank);
    if (held) {
      text_held.add(text_rank);
      plat_held.add(plat_rank);
    }
    if (plat_rank != 1 || text_rank != 1) {
      std::string got = text.matches.empty() ? "(nothing)" : text.matches.front().category;
      misses.push_back(c.id + " [" + c.category + "] text-rank " + std::to_string(text_rank) + " platform-rank " +
                       std::to_string(plat_rank) + "; text first: " + got);
    }
    // The requirement: first answer, or among the first three when the text alone cannot
    // tell; the platform is always known on the machine explain runs on.
    EXPECT_TRUE(plat_rank >= 1 && plat_rank <= 3)
        << c.id << ": expected " << c.category << " in the first three, got rank " << plat_rank;
  }
  std::cout << "[corpus] text only : all " << text_all.str() << "; held-out " << text_held.str() << "\n"
            << "[corpus] + platform: all " << plat_all.str() << "; held-out " << plat_held.str() << "\n";
  for (const auto& m : misses) std::cout << "[corpus] not first: " << m << "\n";
  // Near the figures docs/explain.md documents (64/69 first and 68/69 in the first three from
  // the text alone, 66/69 first with the platform): one case of slack each, so a ranking bug
  // that costs two cases fails here.
  EXPECT_GE(text_all.top1 * 100, text_all.cases * 91) << text_all.str();
  EXPECT_GE(text_all.top3 * 100, text_all.cases * 97) << text_all.str();
  EXPECT_GE(plat_all.top1 * 100, plat_all.cases * 94) << plat_all.str();
}

// tests/corpus/issue-threads.jsonl: 181 logs from public issue threads gathered on 2026-12-03,
// each with the cause its thread confirmed, in three rounds. Each round was measured before any
// rule was written from it (98 logs: 41 first, 48 in the first three, 21 unanswered; 43 more:
// 18, 25, 6; 40 more: 14, 15, 10), then rules were written from where their messages come from
// (all 181: 106, 133, 6). Three more rounds followed (docs/explain.md, "How well it does"); the
// sixth, 64 logs of 2026-12-04, brings the file to 407 (246 first, 302 in the first three, 35
// unanswered); the seventh, 41 recent threads on the mainstream frameworks, to 448 (279, 336, 36
// with its rules). Its labels are one reader's and some causes fit two categories, so this is a floor
// against regressions, not a per-case requirement.
TEST(ExplainCorpus, IssueThreadLogsKeepTheirScore) {
  const auto cases = load_corpus("issue-threads.jsonl");
  ASSERT_GE(cases.size(), 448u) << "tests/corpus/issue-threads.jsonl missing or short";
  const RuleMatcher& matcher = testing::builtin_matcher();
  Tally text, plat;
  size_t unanswered = 0;
  for (const auto& c : cases) {
    ASSERT_TRUE(is_explain_category(c.category)) << c.id;
    const auto t = explain_text(matcher, c.log, ExplainMachine{.kb = &testing::builtin_kb()});
    text.add(testing::category_rank(t, c.category));
    if (t.matches.empty()) ++unanswered;
    ExplainMachine m;
    m.kb = &testing::builtin_kb();
    m.platform = parse_platform(c.platform);
    plat.add(testing::category_rank(explain_text(matcher, c.log, m), c.category));
  }
  std::cout << "[issue threads] text only : " << text.str() << ", " << unanswered << " unanswered\n"
            << "[issue threads] + platform: " << plat.str() << "\n";
  // Two cases of slack below the figures in docs/explain.md.
  EXPECT_GE(text.top1, 277u) << text.str();
  EXPECT_GE(text.top3, 333u) << text.str();
  EXPECT_LE(unanswered, 38u);
}

// Every category of the corpus README has at least one rule (the rule base covers them all).
TEST(ExplainCorpus, RuleBaseCoversEveryCategory) {
  const RuleMatcher& matcher = testing::builtin_matcher();
  for (const auto& category : explain_categories()) {
    bool found = false;
    for (const auto& r : matcher.base().rules) {
      for (const auto& c : r.candidates) found = found || c.category == category;
    }
    EXPECT_TRUE(found) << "no rule for category " << category;
  }
  EXPECT_GE(matcher.base().rules.size(), 60u);
}

}  // namespace
}  // namespace gpudoctor
