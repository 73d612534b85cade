// Regression tests for deliberate bugs that the suite once let through (issue 12: a review
// made small mutations in a copy of the code and every test stayed green). Each test is named
// after the bug it catches; scripts/mutation-run.sh re-applies these mutations.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/version.hpp"
#include "explain/explain_session.hpp"
#include "kb_test_support.hpp"
#include "platform/system_view.hpp"
#include "probe/probes.hpp"
#include "probe/version_files.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using testing::v;

TEST(MutationRegression, VersionComparisonUsesTheLongerVersionsParts) {
  // Comparing only the shorter version's parts made these equal.
  EXPECT_LT(v("12.2"), v("12.2.1"));
  EXPECT_GT(v("12.2.1"), v("12.2"));
  EXPECT_NE(v("535"), v("535.104.05"));
  EXPECT_LT(v("535"), v("535.104.05"));
  EXPECT_GT(v("535.104.05"), v("535"));
  // Zero padding still holds.
  EXPECT_EQ(v("12.2"), v("12.2.0.0"));
}

/// Probes a venv holding one jaxlib dist-info of the given version.
FrameworkFacts probe_jaxlib(const std::string& version) {
  testing::TempTree t;
  const std::string sp = "home/u/.venv/lib/python3.11/site-packages/";
  t.write("home/u/.venv/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.4\n");
  t.write(sp + "jaxlib-" + version + ".dist-info/METADATA", "Name: jaxlib\nVersion: " + version + "\n\n");
  t.write(sp + "jaxlib/version.py", "_version = \"" + version.substr(0, version.find('+')) + "\"\n");
  SystemView system = testing::view_of(t, Platform::linux, {{"HOME", "/home/u"}, {"VIRTUAL_ENV", "/home/u/.venv"}});
  Facts f;
  probe_python(system, f);
  for (const auto& e : f.python_envs) {
    for (const auto& fw : e.frameworks) {
      if (fw.name == "jaxlib") return fw;
    }
  }
  ADD_FAILURE() << "jaxlib not found";
  return {};
}

TEST(MutationRegression, JaxlibTagCudnn89IsCudnn8Point9) {
  FrameworkFacts fw = probe_jaxlib("0.4.23+cuda12.cudnn89");
  ASSERT_TRUE(fw.cudnn_version.has_value());
  EXPECT_EQ(fw.cudnn_version->str(), "8.9");
  ASSERT_TRUE(fw.cuda_version.has_value());
  EXPECT_EQ(fw.cuda_version->str(), "12");
  EXPECT_EQ(fw.cuda_build, std::optional<bool>(true));
  EXPECT_EQ(probe_jaxlib("0.4.7+cuda11.cudnn86").cudnn_version.value_or(Version{}).str(), "8.6");
}

TEST(MutationRegression, RepeatedEnvFileKeyKeepsTheLastValue) {
  // As a shell sourcing the file would: the later assignment wins.
  auto e = parse_env_file("CUDA_VISIBLE_DEVICES=0\nPATH=/a\nCUDA_VISIBLE_DEVICES=1\nexport PATH=/b\n");
  EXPECT_EQ(e.env.at("CUDA_VISIBLE_DEVICES"), "1");
  EXPECT_EQ(e.env.at("PATH"), "/b");
  EXPECT_TRUE(e.problems.empty());
}

TEST(MutationRegression, CudnnHeaderWithoutTheExactMacroNameIsNotRead) {
  // CUDNN_MINOR and CUDNN_PATCHLEVEL are present, so only the name check on CUDNN_MAJORX can
  // refuse this header (before, a missing CUDNN_MINOR made the test pass for the wrong reason).
  EXPECT_FALSE(parse_cudnn_header("#define CUDNN_MAJORX 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n"));
  EXPECT_FALSE(parse_nccl_header("#define NCCL_MAJOR_ 2\n#define NCCL_MINOR 21\n#define NCCL_PATCH 5\n"));
  auto ok = parse_cudnn_header(
      "#define CUDNN_MAJORX 7\n#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->str(), "8.9.7");
}

// ---- explain ranking ----

RuleBase two_rules(int priority_a, std::vector<std::string> when_a, int priority_b) {
  RuleBase base;
  for (int i = 0; i < 2; ++i) {
    Rule r;
    r.id = i == 0 ? "rule-a" : "rule-b";
    r.title = r.id;
    RuleCandidate c;
    c.id = r.id;
    c.category = "other";
    c.priority = i == 0 ? priority_a : priority_b;
    if (i == 0) c.when = std::move(when_a);
    r.candidates.push_back(c);
    base.rules.push_back(r);
  }
  return base;
}

RuleHits hit(size_t rule, std::uint64_t line) {
  RuleHits h;
  h.rule_index = rule;
  h.count = 1;
  h.lines = {line};
  return h;
}

TEST(MutationRegression, ExplainTiesGoToTheEarliestLine) {
  RuleBase base = two_rules(50, {}, 50);
  // rule-a matched later in the log (line 9), rule-b earlier (line 3): the earliest first,
  // whatever order the hits come in.
  for (bool swapped : {false, true}) {
    std::vector<RuleHits> hits = {hit(0, 9), hit(1, 3)};
    if (swapped) std::swap(hits[0], hits[1]);
    ExplainReport r = rank_hits(base, hits, ExplainMachine{});
    ASSERT_EQ(r.matches.size(), 2u);
    EXPECT_EQ(r.matches[0].rule, "rule-b");
    EXPECT_EQ(r.matches[1].rule, "rule-a");
  }
}

TEST(MutationRegression, ExplainAnswersTheFactsContradictGoDown) {
  // rule-a has the higher base priority, but it holds only on WSL2 and this is Linux.
  RuleBase base = two_rules(70, {"platform-wsl2"}, 50);
  ExplainMachine linux_machine{.platform = Platform::linux};
  ExplainReport r = rank_hits(base, {hit(0, 1), hit(1, 2)}, linux_machine);
  ASSERT_EQ(r.matches.size(), 2u);
  EXPECT_EQ(r.matches[0].rule, "rule-b");
  EXPECT_EQ(r.matches[1].facts_verdict, "contradicted");
  // On WSL2 the facts support it and it stays first; with no facts the priority decides.
  ExplainMachine wsl{.platform = Platform::wsl2};
  ExplainReport w = rank_hits(base, {hit(0, 1), hit(1, 2)}, wsl);
  EXPECT_EQ(w.matches[0].rule, "rule-a");
  EXPECT_EQ(w.matches[0].facts_verdict, "supported");
  ExplainReport n = rank_hits(base, {hit(0, 1), hit(1, 2)}, ExplainMachine{});
  EXPECT_EQ(n.matches[0].rule, "rule-a");
  EXPECT_EQ(n.matches[0].score, 70);
}

}  // namespace
}  // namespace gpudoctor
