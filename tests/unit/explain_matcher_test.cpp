// Rule loading (untrusted TOML) and matching (RE2 set, batches, captures, ranking).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "core/text.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::builtin_matcher;
using testing::category_rank;
using testing::find_rule;

constexpr const char* kUserRule = R"(
[[rule]]
id = "my-oom"
category = "out-of-memory"
severity = "error"
priority = 99
patterns = ['^MYAPP: no memory for (?P<what>\w+)$']
cause = "my app ran out of memory for {what}"
fix = "buy more {what} ({unknown}); {other|ask a friend}"
sources = ["https://example.org/my-oom"]
)";

std::unique_ptr<RuleMatcher> build(const std::string& toml, std::vector<std::string>* problems = nullptr) {
  RuleLoadResult r;
  parse_rule_file(toml, "test.toml", r);
  if (problems) *problems = r.problems;
  auto m = RuleMatcher::build(r.base);
  EXPECT_TRUE(m.has_value());
  return m ? std::move(*m) : nullptr;
}

TEST(ExplainRules, BuiltInRulesLoadCleanlyWithSourcesAndKnownConditions) {
  auto loaded = load_rule_base("");
  ASSERT_TRUE(loaded.has_value());
  EXPECT_TRUE(loaded->problems.empty());
  EXPECT_GE(loaded->base.rules.size(), 60u);
  const auto& names = explain_condition_names();
  for (const auto& r : loaded->base.rules) {
    EXPECT_FALSE(r.sources.empty()) << r.id;
    for (size_t i = 0; i < r.sources.size(); ++i) {
      const std::string& s = r.sources[i];
      // A catalog rule names the vendor's page, then the header it was read from.
      if (r.catalog && i > 0) {
        EXPECT_NE(s.find(".h ("), std::string::npos) << r.id << ": " << s;
      } else {
        EXPECT_EQ(s.rfind("https://", 0), 0u) << r.id << ": " << s;
      }
    }
    for (const auto& c : r.candidates) {
      EXPECT_TRUE(is_explain_category(c.category)) << c.id;
      for (std::string w : c.when) {
        if (!w.empty() && w[0] == '!') w.erase(0, 1);
        EXPECT_NE(std::find(names.begin(), names.end(), w), names.end()) << c.id << ": " << w;
      }
    }
  }
}

TEST(ExplainRules, EveryBuiltInRuleRecognisesItsExamples) {
  for (const auto& r : builtin_matcher().base().rules) EXPECT_FALSE(r.examples.empty()) << r.id;
  const auto problems = check_rule_examples(builtin_matcher());
  for (const auto& p : problems) ADD_FAILURE() << p;
}

TEST(ExplainRules, AnExampleThatDoesNotMatchIsReported) {
  auto m = build(R"(
[[rule]]
id = "typo"
category = "other"
patterns = ['''NCCL failure .*'unhandled system error'\'''']
examples = ["NCCL failure common.cu:874 'unhandled system error'", "NCCL failure x 'unhandled system error''"]
cause = "c"
fix = "f"
sources = ["https://x"]
)");
  ASSERT_TRUE(m);
  ASSERT_EQ(m->base().rules.size(), 1u);
  const auto problems = check_rule_examples(*m);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("common.cu:874"), std::string::npos);
}

TEST(ExplainRules, OnlyTheKbDirectorysRulesHaveTheirExamplesCheckedAtEachRun) {
  // The built-in rules' examples are the test suite's to check (above); each explain --kb run
  // checks the user's alone, which is what the run can change (all of them cost a second).
  constexpr const char* kMisses =
      "[[rule]]\nid = 'misses'\ncategory = 'other'\npatterns = ['wanted']\nexamples = ['not it']\n"
      "cause = 'c'\nfix = 'f'\nsources = ['https://x']\n";
  RuleLoadResult loaded;
  parse_rule_file(kMisses, "explain/builtin.toml", loaded);
  ASSERT_EQ(loaded.base.rules.size(), 1u);
  auto built_in = RuleMatcher::build(loaded.base);
  ASSERT_TRUE(built_in.has_value());
  EXPECT_EQ(check_rule_examples(**built_in).size(), 1u);
  EXPECT_TRUE(check_rule_examples(**built_in, RulesChecked::kb_dir).empty());
  loaded.base.rules[0].from_kb_dir = true;
  auto users = RuleMatcher::build(loaded.base);
  ASSERT_TRUE(users.has_value());
  EXPECT_EQ(check_rule_examples(**users, RulesChecked::kb_dir).size(), 1u);
}

TEST(ExplainRules, KbRuleReplacesBuiltInRuleOfTheSameId) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("gpudoctor-explain-kb-" + std::to_string(::getpid()));
  fs::create_directories(dir / "explain");
  // "a.toml" sorts before every built-in file: the user's rule must still win.
  std::ofstream(dir / "explain" / "a.toml") << R"(
[[rule]]
id = "torch-not-compiled-with-cuda"
category = "other"
patterns = ['Torch not compiled with CUDA enabled']
cause = "site policy: CPU only"
fix = "use the GPU queue"
sources = ["https://intranet.example/gpu"]
)";
  auto loaded = load_rule_base(dir.string());
  fs::remove_all(dir);
  ASSERT_TRUE(loaded.has_value());
  int n = 0;
  for (const auto& r : loaded->base.rules) {
    if (r.id == "torch-not-compiled-with-cuda") {
      ++n;
      EXPECT_EQ(r.candidates.front().cause, "site policy: CPU only");
    }
    // The replaced rule is the user's now; every other stays built-in.
    EXPECT_EQ(r.from_kb_dir, r.id == "torch-not-compiled-with-cuda") << r.id;
  }
  EXPECT_EQ(n, 1);
  EXPECT_TRUE(loaded->problems.empty()) << loaded->problems.front();  // replacing is what --kb is for
  EXPECT_FALSE(load_rule_base("/nonexistent/kb/dir").has_value());
}

// The user's own files are one layer: the same id in two of them is reported, although the
// first of the two quietly replaced a built-in rule.
TEST(ExplainRules, TheSameIdInTwoUserFilesIsReported) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("gpudoctor-explain-kb2-" + std::to_string(::getpid()));
  fs::create_directories(dir / "explain");
  for (const char* name : {"a.toml", "b.toml"}) {
    std::ofstream(dir / "explain" / name) << R"(
[[rule]]
id = "torch-not-compiled-with-cuda"
category = "other"
patterns = ['Torch not compiled with CUDA enabled']
cause = "site policy"
fix = "ask"
sources = ["https://intranet.example/gpu"]
)";
  }
  auto loaded = load_rule_base(dir.string());
  fs::remove_all(dir);
  ASSERT_TRUE(loaded.has_value());
  ASSERT_EQ(loaded->problems.size(), 1u);
  EXPECT_TRUE(contains(loaded->problems.front(), "a.toml")) << loaded->problems.front();
  EXPECT_TRUE(contains(loaded->problems.front(), "b.toml")) << loaded->problems.front();
}

// Two rules of one id in the same layer (two built-in files, or two files of the user's) is a
// mistake, not an override: one would silently hide the other.
TEST(ExplainRules, ARuleDefinedTwiceInOneLayerIsReported) {
  const std::string first = R"(
[[rule]]
id = "dup"
category = "other"
patterns = ['first']
cause = "one"
fix = "one"
sources = ["https://example.org/1"]
)";
  std::string second = first;
  second.replace(second.find("'first'"), 7, "'second'");
  RuleLoadResult r;
  parse_rule_file(first, "explain/a.toml", r);
  parse_rule_file(second, "explain/b.toml", r);
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_TRUE(contains(r.problems.front(), "explain/a.toml")) << r.problems.front();
  EXPECT_TRUE(contains(r.problems.front(), "explain/b.toml")) << r.problems.front();
  EXPECT_TRUE(contains(r.problems.front(), "'dup'")) << r.problems.front();
  ASSERT_EQ(r.base.rules.size(), 1u);
  EXPECT_EQ(r.base.rules.front().patterns.front(), "second");
}

TEST(ExplainRules, UserRuleMatchesWithAnchorsInsideABatch) {
  auto m = build(kUserRule);
  ASSERT_TRUE(m);
  // The anchored line sits in the middle of a batch: ^ and $ are per line.
  std::string log = "noise\nMYAPP: no memory for cheese\nmore noise MYAPP: no memory for x\n";
  auto r = explain_text(*m, log, ExplainMachine{});
  ASSERT_EQ(r.matches.size(), 1u);
  EXPECT_EQ(r.matches[0].lines, std::vector<std::uint64_t>{2});
  EXPECT_EQ(r.matches[0].cause, "my app ran out of memory for cheese");
  // A capture the log did not give: its clause goes, or its fallback stands in.
  EXPECT_EQ(r.matches[0].fix, "buy more cheese; ask a friend");
}

TEST(ExplainRules, TheMatcherKeepsItsOwnRulesWhateverBecomesOfTheCallers) {
  // Patterns are compiled on their own only when first needed, so they must be read from the
  // matcher's copy of the rules, not from the caller's, which may change or go away.
  RuleLoadResult loaded;
  parse_rule_file(kUserRule, "test.toml", loaded);
  ASSERT_EQ(loaded.base.rules.size(), 1u);
  auto m = RuleMatcher::build(loaded.base);
  ASSERT_TRUE(m.has_value());
  // Same length or shorter: the string keeps its buffer, so a pointer into it reads this.
  std::string& caller_pattern = loaded.base.rules[0].patterns[0];
  caller_pattern.replace(0, caller_pattern.size(), "^(?P<what>nothing)$");
  auto r = explain_text(**m, "MYAPP: no memory for cheese\n", ExplainMachine{});
  ASSERT_EQ(r.matches.size(), 1u);
  EXPECT_EQ(r.matches[0].cause, "my app ran out of memory for cheese");
}

TEST(ExplainRules, APatternTooBigToCompileAloneStillMatchesThroughTheSet) {
  // RE2 compiles \pL{1000} within the set's memory but not alone (8 MiB): the line matches,
  // and the rule counts without captures, never silently not at all.
  std::vector<std::string> problems;
  auto m = build(R"(
[[rule]]
id = "wide"
category = "other"
patterns = ['^WIDE: \pL{1000}']
cause = "a wide line"
fix = "f"
sources = ["https://x"]
)",
                 &problems);
  ASSERT_TRUE(m);
  EXPECT_TRUE(problems.empty()) << problems.front();
  auto r = explain_text(*m, "noise\nWIDE: " + std::string(1000, 'a') + "\n", ExplainMachine{});
  ASSERT_EQ(r.matches.size(), 1u);
  EXPECT_EQ(r.matches[0].rule, "wide");
  EXPECT_EQ(r.matches[0].lines, std::vector<std::uint64_t>{2});
}

TEST(ExplainRules, RequireOlderComparesTwoCapturedVersions) {
  // One line shape, opposite problems by which version is older: the rule applies only when the
  // first capture's version is older than the second's, compared as versions (9.10 > 9.9), and
  // never when either is not a version.
  auto m = build(R"(
[[rule]]
id = "too-old"
category = "cudnn-version-mismatch"
severity = "error"
patterns = ['loaded (?P<loaded>\S+) built (?P<built>\S+)']
require_older = ["loaded", "built"]
cause = "{loaded} is older than {built}"
fix = "upgrade"
sources = ["https://example.org/too-old"]
)");
  ASSERT_TRUE(m);
  auto r = explain_text(*m, "loaded 9.9.0 built 9.10.0\n", ExplainMachine{});
  ASSERT_EQ(r.matches.size(), 1u);
  EXPECT_EQ(r.matches[0].cause, "9.9.0 is older than 9.10.0");
  EXPECT_TRUE(explain_text(*m, "loaded 9.10.0 built 9.9.0\n", ExplainMachine{}).matches.empty());
  EXPECT_TRUE(explain_text(*m, "loaded 9.1.0 built 9.1.0\n", ExplainMachine{}).matches.empty());
  EXPECT_TRUE(explain_text(*m, "loaded seven built 9.1.0\n", ExplainMachine{}).matches.empty());

  std::vector<std::string> problems;
  build(R"(
[[rule]]
id = "bad-order"
category = "cudnn-version-mismatch"
severity = "error"
patterns = ['x (?P<a>\S+)']
require_older = ["a"]
cause = "c"
fix = "f"
sources = ["https://example.org/bad"]
)",
        &problems);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("require_older"), std::string::npos) << problems[0];
}

TEST(ExplainRules, OldTensorflowBuildTablesAreReportedNotRead) {
  // TensorFlow's tested builds live in the knowledge base (compat/tensorflow.toml) only; an old
  // explain file that still carries its own copy is told so, and its rules still load.
  std::vector<std::string> problems;
  auto m = build(std::string(kUserRule) + R"(
[[tensorflow_build]]
version = "2.10"
cuda = "11.2"
cudnn = "8.1"
)",
                 &problems);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->base().rules.size(), 1u);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("compat/tensorflow.toml"), std::string::npos) << problems[0];
}

TEST(ExplainRules, BadRulesAreReportedAndSkippedNotFatal) {
  std::vector<std::string> problems;
  auto m = build(R"(
[[rule]]
id = "bad-regex"
category = "other"
patterns = ['(?P<x>unclosed']
cause = "c"
fix = "f"
sources = ["https://x"]

[[rule]]
id = "backreference"
category = "other"
patterns = ['(a)\1']
cause = "c"
fix = "f"
sources = ["https://x"]

[[rule]]
id = "bad-category"
category = "not-a-category"
patterns = ['x']
cause = "c"
fix = "f"
sources = ["https://x"]

[[rule]]
id = "no-source"
category = "other"
patterns = ['x']
cause = "c"
fix = "f"

[[rule]]
id = "good"
category = "other"
patterns = ['good line']
cause = "c"
fix = "f"
sources = ["https://x"]
)",
                 &problems);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->base().rules.size(), 1u);
  EXPECT_EQ(problems.size(), 4u);
  std::vector<std::string> not_toml;
  build("this is [not toml", &not_toml);
  ASSERT_EQ(not_toml.size(), 1u);
  EXPECT_NE(not_toml[0].find("not valid TOML"), std::string::npos);
}

TEST(ExplainRules, PathologicalPatternRunsInLinearTime) {
  // (a+)+$ / (a|aa)*b: catastrophic for a backtracking engine, linear for RE2.
  auto m = build(R"(
[[rule]]
id = "evil"
category = "other"
patterns = ['^(a+)+$x', '(a|aa)*b', '(.*a){20}']
cause = "c"
fix = "f"
sources = ["https://x"]
)");
  ASSERT_TRUE(m);
  std::string line(10000, 'a');
  line += "!";
  std::string log;
  for (int i = 0; i < 100; ++i) log += line + "\n";
  const auto t0 = std::chrono::steady_clock::now();
  auto r = explain_text(*m, log, ExplainMachine{});
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(s, 5.0);
  ASSERT_EQ(r.matches.size(), 1u);  // (.*a){20} matches
}

TEST(ExplainRanking, SeveralProblemsAllReportedRealBeforeHarmless) {
  const std::string log =
      "2023-12-05 09:29:18.697209: E cuda_dnn.cc:9342] Unable to register cuDNN factory: Attempting to register "
      "factory for plugin cuDNN when one has already been registered\n"
      "2023-12-05 09:29:20.002737: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not "
      "find TensorRT\n"
      "I0000 cuda_executor.cc:1015] successful NUMA node read from SysFS had negative value (-1), but there must be at "
      "least one NUMA node, so returning NUMA node zero.\n"
      "W tensorflow/core/common_runtime/gpu/gpu_device.cc:2256] Cannot dlopen some GPU libraries. Please make sure the "
      "missing libraries mentioned above are installed properly\n"
      "Epoch 1/10\n"
      "ResourceExhaustedError: OOM when allocating tensor with shape[256,1024,1024] and type float on "
      "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n";
  auto r = explain_text(builtin_matcher(), log, ExplainMachine{});
  ASSERT_GE(r.matches.size(), 5u);
  EXPECT_EQ(r.matches.front().category, "out-of-memory");
  EXPECT_EQ(r.matches.front().lines, std::vector<std::uint64_t>{6});
  EXPECT_NE(r.matches.front().cause.find("256,1024,1024"), std::string::npos);
  EXPECT_GT(category_rank(r, "path-or-env-misconfigured"), 0u);
  bool seen_harmless = false;
  for (const auto& m : r.matches) {
    if (m.harmless) seen_harmless = true;
    EXPECT_FALSE(seen_harmless && !m.harmless) << "a real problem after a harmless one: " << m.rule;
  }
  EXPECT_GT(category_rank(r, "duplicate-factory-registration-harmless"), 0u);
  EXPECT_GT(category_rank(r, "tensorrt-warning-harmless"), 0u);
  EXPECT_GT(category_rank(r, "numa-warning-harmless"), 0u);
}

TEST(ExplainRanking, HarmlessNoiseAroundOneRealErrorDoesNotHideIt) {
  std::string log;
  for (int i = 0; i < 5000; ++i) {
    log +=
        "I0000 cuda_executor.cc:1015] successful NUMA node read from SysFS had negative value (-1), but there must be "
        "at least one NUMA node\n";
    log += "step " + std::to_string(i) + " loss 0.123\n";
  }
  log += "AssertionError: Torch not compiled with CUDA enabled\n";
  for (int i = 0; i < 100; ++i) log += "W py_utils.cc:38] TF-TRT Warning: Could not find TensorRT\n";
  auto r = explain_text(builtin_matcher(), log, ExplainMachine{});
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
  EXPECT_EQ(r.matches.front().lines, std::vector<std::uint64_t>{10001});
  const ExplainMatch* numa = find_rule(r, "numa-negative-value");
  ASSERT_NE(numa, nullptr);
  EXPECT_TRUE(numa->harmless);
  EXPECT_EQ(numa->count, 5000u);
  EXPECT_EQ(numa->lines.size(), RuleHits::kMaxLinesKept);  // bounded
}

TEST(ExplainRanking, SameLibraryFamilyCollectsAllNames) {
  const std::string log =
      "Could not dlopen library 'libcurand.so.10.0'; dlerror: libcurand.so.10.0: cannot open shared object file\n"
      "Could not dlopen library 'libcusolver.so.10.0'; dlerror: libcusolver.so.10.0: cannot open shared object file\n"
      "Could not dlopen library 'libcudnn.so.7'; dlerror: libcudnn.so.7: cannot open shared object file\n";
  auto r = explain_text(builtin_matcher(), log, ExplainMachine{});
  const ExplainMatch* libs = find_rule(r, "cuda-library-missing");
  ASSERT_NE(libs, nullptr);
  EXPECT_EQ(libs->count, 2u);
  EXPECT_NE(libs->cause.find("libcurand.so.10.0, libcusolver.so.10.0"), std::string::npos) << libs->cause;
  const ExplainMatch* cudnn = find_rule(r, "cudnn-library-missing");
  ASSERT_NE(cudnn, nullptr);
  EXPECT_EQ(cudnn->lines, std::vector<std::uint64_t>{3});
}

TEST(ExplainRanking, EmptyAndBinaryInputFindNothingQuietly) {
  auto empty = explain_text(builtin_matcher(), "", ExplainMachine{});
  EXPECT_TRUE(empty.matches.empty());
  EXPECT_EQ(empty.input.lines, 0u);
  std::string bin;
  for (int i = 0; i < 1 << 16; ++i) bin.push_back(static_cast<char>((i * 7919) & 0xff));
  auto r = explain_text(builtin_matcher(), bin, ExplainMachine{});
  EXPECT_GT(r.input.control_bytes, 0u);
  EXPECT_TRUE(r.matches.empty());
}

TEST(ExplainRanking, FindsErrorsInsideUtf16CrlfAnsiInput) {
  std::u16string text =
      u"\x1b[31mRuntimeError: The NVIDIA driver on your system is too old (found version 11040).\x1b[0m\r\nok\r\n";
  std::string bytes = "\xff\xfe";
  for (char16_t u : text) {
    bytes.push_back(static_cast<char>(u & 0xff));
    bytes.push_back(static_cast<char>(u >> 8));
  }
  auto r = explain_text(builtin_matcher(), bytes, ExplainMachine{});
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "driver-too-old");
  EXPECT_EQ(r.matches.front().captures.at("found").front(), "11040");
  EXPECT_EQ(r.input.encoding, LogEncoding::utf16le);
}

TEST(ExplainRanking, CostPerLineDoesNotGrowWithRuleCount) {
  // 20 rules vs 400 rules over the same noise: one RE2 set pass per batch either way.
  auto make = [](int n) {
    std::string toml;
    for (int i = 0; i < n; ++i) {
      toml += "[[rule]]\nid = \"r" + std::to_string(i) + "\"\ncategory = \"other\"\npatterns = ['unique marker " +
              std::to_string(i) + " (?P<v>\\d+) happened']\ncause = \"c\"\nfix = \"f\"\nsources = [\"https://x\"]\n";
    }
    return toml;
  };
  auto small = build(make(20));
  auto large = build(make(400));
  std::string log;
  for (int i = 0; i < 100000; ++i)
    log += "2024-01-01 12:00:00.000 INFO training step " + std::to_string(i) + " loss 0.5 lr 0.001\n";
  auto time = [&](const RuleMatcher& m) {
    explain_text(m, log.substr(0, 100000), ExplainMachine{});  // warm the DFA
    const auto t0 = std::chrono::steady_clock::now();
    auto r = explain_text(m, log, ExplainMachine{});
    EXPECT_TRUE(r.matches.empty());
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  const double t_small = time(*small);
  const double t_large = time(*large);
  std::cout << "[rules] 20 rules " << t_small << " s, 400 rules " << t_large << " s\n";
  EXPECT_LT(t_large, t_small * 5 + 0.2);  // 20x the rules, far less than 20x the time
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

// A line repeated every few lines (with a new timestamp each time) is replayed from the
// scanner's cache: every occurrence is counted, the excerpts keep the real lines, and a line
// that differs after the timestamp is matched on its own.
TEST(ExplainRules, RepeatedLinesAreCountedAndDistinctOnesStillMatched) {
  auto m = build(R"(
[[rule]]
id = "created"
category = "other"
patterns = ['''Created device (?P<dev>\S+) with (?P<mb>\d+) MB''']
cause = "c"
fix = "f"
sources = ["https://x"]
)");
  ASSERT_TRUE(m);
  std::string log;
  for (int i = 0; i < 4000; ++i) {
    log += "2024-05-10 11:33:" + std::to_string(10 + i % 50) +
           ".123456: I gpu_device.cc:1886] Created device GPU:0 with " + (i == 3999 ? "20" : "10") + " MB memory\n";
    log += std::to_string(i) + "/5000 [=====>....] - ETA: 4:12 - loss: 0.1\nEpoch 3/100\n";
  }
  const ExplainReport r = explain_text(*m, log, ExplainMachine{});
  ASSERT_EQ(r.matches.size(), 1u);
  EXPECT_EQ(r.matches[0].count, 4000u);
  EXPECT_EQ(r.matches[0].lines[1], 4u);
  EXPECT_NE(r.matches[0].excerpts[1].find("11:33:11"), std::string::npos) << r.matches[0].excerpts[1];
  const auto& mb = r.matches[0].captures.at("mb");
  EXPECT_EQ(mb, (std::vector<std::string>{"10", "20"}));
}

// The issue's training log (a TF "Created device" line every fourth line, between a Keras
// progress bar, an epoch line and a logger line) with the full built-in rule set: a repeat
// costs no RE2 work and no capture extraction; only the first batch's copies are matched. The
// work is counted, not timed, so the test holds on a loaded machine (docs/performance.md has
// the throughput).
TEST(ExplainRules, RepeatedMatchingLineIsMatchedAndItsCapturesReadOnce) {
  LogScanner scanner(testing::builtin_matcher());
  constexpr int kSteps = 20000;
  std::string line;
  for (int i = 0; i < kSteps; ++i) {
    line =
        "2024-05-10 11:" + std::to_string(10 + i / 60 % 50) + ":" + std::to_string(10 + i % 50) +
        ".339563: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1886] Created device "
        "/job:localhost/replica:0/task:0/device:GPU:0 with 10 MB memory:  -> device: 0, name: NVIDIA A100-SXM4-40GB, "
        "pci bus id: 0000:00:04.0, compute capability: 8.0";
    scanner.add_line(line, 4 * i + 1);
    line = std::to_string(i % 1875 + 1) + "/1875 [==============================] - ETA: 0s - loss: 0." +
           std::to_string(1000 + i % 9000) + " - accuracy: 0.9";
    scanner.add_line(line, 4 * i + 2);
    scanner.add_line("Epoch " + std::to_string(i % 100 + 1) + "/100", 4 * i + 3);
    scanner.add_line("INFO:tensorflow:global_step/sec: 66.4 step " + std::to_string(i), 4 * i + 4);
  }
  scanner.finish();
  const auto hits = scanner.hits();
  const auto created = std::find_if(hits.begin(), hits.end(), [](const RuleHits& h) {
    return testing::builtin_matcher().base().rules[h.rule_index].id == "tf-gpu-device-created";
  });
  ASSERT_NE(created, hits.end());
  EXPECT_EQ(created->count, static_cast<std::uint64_t>(kSteps));
  EXPECT_EQ(created->captures.at("memory_mb"), std::vector<std::string>{"10"});
  const LogScanner::Work& work = scanner.work();
  std::cout << "[scanner] " << 4 * kSteps << " lines: " << work.set_runs << " set runs, " << work.capture_runs
            << " capture runs, " << work.capture_merges << " capture merges, " << work.cache_replays << " replays\n";
  // Only the copies in the first batch (before the cache knew the line) are matched alone.
  EXPECT_GE(work.cache_replays, static_cast<std::uint64_t>(kSteps) - 100);
  EXPECT_LE(work.capture_runs, 100u);
  EXPECT_LE(work.capture_merges, 100u);
  // The other lines are matched in 16 KiB batches: about one set run per batch, not per line.
  EXPECT_LE(work.set_runs, static_cast<std::uint64_t>(kSteps) / 20);
}

}  // namespace
}  // namespace gpudoctor
