// The rules against the messages' own sources: tests/catalog/messages.jsonl holds the
// GPU-related error, warning and notice format strings of TensorFlow, PyTorch and JAX, and
// NCCL's own (libnccl.so of the nvidia-nccl wheels), as their released wheels carry them
// (scripts/gen-message-catalog.py, with the release and file of each). Every message, filled
// in with plausible values, must be explained by a rule, or be listed in
// tests/catalog/unexplained.toml with the reason it is deliberately left alone (a group with
// `framework` lists only that framework's messages), or be in tests/catalog/unreviewed.txt:
// the messages nobody has triaged yet (the list may only shrink; a new catalog message must
// be triaged).
// GPUDOCTOR_CATALOG_REPORT=FILE writes each message's verdict (and the rule) to FILE.
#include <gtest/gtest.h>
#include <re2/re2.h>
#include <toml++/toml.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

struct CatalogMessage {
  std::string framework;
  std::string text;
  std::vector<std::string> sources;
};

std::string catalog_path(std::string_view name) {
  return std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/catalog/" + std::string(name);
}

std::vector<CatalogMessage> load_catalog() {
  std::ifstream in(catalog_path("messages.jsonl"));
  std::vector<CatalogMessage> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto j = nlohmann::json::parse(line);
    out.push_back({j.at("framework"), j.at("text"), j.at("sources").get<std::vector<std::string>>()});
  }
  return out;
}

struct Unexplained {
  std::string pattern;
  std::string reason;
  std::string explained_by;  ///< a piece of a message this rule explains in full (its examples show it)
  std::string framework;     ///< only this framework's messages ("" for all): NCCL's groups are NCCL's
  std::unique_ptr<RE2> re;
  size_t used = 0;
};

std::set<std::string> load_unreviewed() {
  std::ifstream in(catalog_path("unreviewed.txt"));
  std::set<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') out.insert(line);
  }
  return out;
}

std::vector<Unexplained> load_unexplained() {
  std::vector<Unexplained> out;
  const auto table = toml::parse_file(catalog_path("unexplained.toml"));
  if (const auto* groups = table["unexplained"].as_array()) {
    for (const auto& g : *groups) {
      const auto* t = g.as_table();
      Unexplained u;
      u.pattern = (*t)["pattern"].value_or(std::string{});
      u.reason = (*t)["reason"].value_or(std::string{});
      u.explained_by = (*t)["explained_by"].value_or(std::string{});
      u.framework = (*t)["framework"].value_or(std::string{});
      u.re = std::make_unique<RE2>(u.pattern);
      out.push_back(std::move(u));
    }
  }
  return out;
}

/// A format string with sample values in its holes: printf/absl (%s, %d, %zu, %.2f ...),
/// absl::Substitute ($0), Python ({}, {name}, %(name)s). A value the rule would read (a
/// version, a count) is a plausible one; a string hole gets a version-shaped token, the most
/// common string in these messages.
std::string instantiate(std::string_view format) {
  std::string s(format);
  RE2::GlobalReplace(&s, R"(%\([a-z_]+\)[sdr])", "8.9.7");
  RE2::GlobalReplace(&s, R"(%%)", "\x01");
  RE2::GlobalReplace(&s, R"(%(?:\d+\$)?[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|j|t|L|q)?[diouc])", "8");
  RE2::GlobalReplace(&s, R"(%(?:\d+\$)?[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|j|t|L|q)?[xX])", "1f");
  RE2::GlobalReplace(&s, R"(%(?:\d+\$)?[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?L?[eEfFgGaA])", "1.5");
  RE2::GlobalReplace(&s, R"(%(?:\d+\$)?[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?l?[sp])", "8.9.7");
  RE2::GlobalReplace(&s, R"(\$\d)", "8.9.7");
  RE2::GlobalReplace(&s, R"(\{[^{} ]*\})", "8.9.7");
  RE2::GlobalReplace(&s, "\x01", "%");
  return s;
}

/// The rule that explains the message, "" when none: the message as filled in, and (a piece
/// that C++ streams end with a value) with a value after it.
std::string explaining_rule(std::string_view text) {
  const std::string line = instantiate(text);
  for (const std::string& candidate : {line, line + " 8.9.7"}) {
    const ExplainReport r = testing::explain_no_facts(candidate);
    if (!r.matches.empty()) return r.matches.front().rule;
  }
  return "";
}

/// A catalog entry that is only a piece of a message (a shared library's strings table splits
/// a message at its values) is listed with the rule that explains the whole: the piece, without
/// its dangling punctuation, must appear in one of that rule's examples, which the rule is
/// checked to explain (ExplainRules.EveryBuiltInRuleRecognisesItsExamples).
void expect_piece_of_an_example(std::string_view piece, const std::string& rule_id) {
  while (!piece.empty() && std::string_view(" .'(").find(piece.front()) != std::string_view::npos) {
    piece.remove_prefix(1);
  }
  while (!piece.empty() && std::string_view(" '").find(piece.back()) != std::string_view::npos) piece.remove_suffix(1);
  for (const Rule& rule : testing::builtin_matcher().base().rules) {
    if (rule.id != rule_id) continue;
    for (const std::string& example : rule.examples) {
      if (example.find(piece) != std::string::npos) return;
    }
    ADD_FAILURE() << "no example of " << rule_id << " holds the catalog piece: " << piece;
    return;
  }
  ADD_FAILURE() << "unexplained.toml names an unknown rule: " << rule_id;
}

TEST(ExplainCatalog, FormatStringsAreFilledIn) {
  EXPECT_EQ(instantiate("Loaded runtime CuDNN library: %u.%u.%u but source was compiled with: %d.%d.%d."),
            "Loaded runtime CuDNN library: 8.8.8 but source was compiled with: 8.8.8.");
  EXPECT_EQ(instantiate("CUDA backend failed to initialize: {}. ({:.2f})"),
            "CUDA backend failed to initialize: 8.9.7. (8.9.7)");
  EXPECT_EQ(instantiate("Could not load dynamic library '%s'; dlerror: %s"),
            "Could not load dynamic library '8.9.7'; dlerror: 8.9.7");
  EXPECT_EQ(instantiate("free %zu of %llu (%.1f%%) at 0x%x"), "free 8 of 8 (1.5%) at 0x1f");
  EXPECT_EQ(instantiate("Created device $0 with $1 MB memory"), "Created device 8.9.7 with 8.9.7 MB memory");
}

TEST(ExplainCatalog, CatalogHasProvenanceForEveryFramework) {
  const auto catalog = load_catalog();
  ASSERT_GE(catalog.size(), 500u) << "tests/catalog/messages.jsonl missing or short";
  std::map<std::string, size_t> per_framework;
  const RE2 source(R"(^[a-z0-9-]+ \d+\.\d+[.\d]*: \S+\.(py|so(\.\d+)*)$)");
  for (const auto& m : catalog) {
    ++per_framework[m.framework];
    ASSERT_FALSE(m.sources.empty()) << m.text;
    for (const auto& s : m.sources) EXPECT_TRUE(RE2::FullMatch(s, source)) << s;
  }
  EXPECT_GE(per_framework["tensorflow"], 200u);
  EXPECT_GE(per_framework["pytorch"], 100u);
  EXPECT_GE(per_framework["jax"], 100u);
  EXPECT_GE(per_framework["nccl"], 1000u);
}

TEST(ExplainCatalog, EveryMessageIsExplainedOrListedWithAReason) {
  const auto catalog = load_catalog();
  auto unexplained = load_unexplained();
  ASSERT_FALSE(unexplained.empty()) << "tests/catalog/unexplained.toml missing";
  for (const auto& u : unexplained) {
    ASSERT_TRUE(u.re->ok()) << u.pattern << ": " << u.re->error();
    EXPECT_GE(u.reason.size(), 20u) << u.pattern << ": no reason given";
  }
  const char* report_path = std::getenv("GPUDOCTOR_CATALOG_REPORT");
  std::ofstream report;
  if (report_path != nullptr) report.open(report_path);
  const std::set<std::string> unreviewed = load_unreviewed();
  std::set<std::string> unreviewed_seen;
  size_t explained = 0, listed = 0, not_reviewed = 0;
  std::vector<std::string> neither;
  for (const auto& m : catalog) {
    const std::string rule = explaining_rule(m.text);
    std::string verdict;
    if (!rule.empty()) {
      ++explained;
      verdict = "explained\t" + rule;
    } else {
      for (auto& u : unexplained) {
        if (!u.framework.empty() && u.framework != m.framework) continue;
        if (RE2::PartialMatch(m.text, *u.re)) {
          ++u.used;
          ++listed;
          if (!u.explained_by.empty()) expect_piece_of_an_example(m.text, u.explained_by);
          verdict = "unexplained\t" + u.pattern;
          break;
        }
      }
    }
    if (verdict.empty() && unreviewed.count(m.text) != 0) {
      ++not_reviewed;
      unreviewed_seen.insert(m.text);
      verdict = "unreviewed\t";
    }
    if (verdict.empty()) {
      neither.push_back(m.framework + ": " + m.text);
      verdict = "NEITHER\t";
    }
    if (report.is_open()) report << verdict << "\t" << m.framework << "\t" << m.text << "\n";
  }
  std::cout << "[catalog] " << catalog.size() << " messages: " << explained << " explained by a rule, " << listed
            << " listed as unexplained, " << not_reviewed << " not yet reviewed, " << neither.size() << " neither\n";
  for (size_t i = 0; i < neither.size() && i < 40; ++i) ADD_FAILURE() << "neither explained nor listed: " << neither[i];
  EXPECT_TRUE(neither.empty()) << neither.size() << " messages in all";
  for (const auto& u : unexplained) EXPECT_GT(u.used, 0u) << "unexplained.toml entry matches no message: " << u.pattern;
  // The unreviewed list only shrinks: an entry that is now explained (or gone) must go.
  for (const auto& text : unreviewed) {
    EXPECT_EQ(unreviewed_seen.count(text), 1u) << "unreviewed.txt entry is explained, listed or gone: " << text;
  }
}

// Lines from the notices group of unexplained.toml, as a healthy machine prints them: none
// may be read as a cause (several name a "driver version too low" or a missing device that
// only matters for a feature the user does not use).
TEST(ExplainCatalog, NoticesPrintedOnHealthyMachinesAreNoCause) {
  const char* healthy[] = {
      "[Ignore this message unless multi-node NVLink is used] CUDA driver version is too low for extracting fabric "
      "info (550+ required), or multi-node NVLink is not available.",
      "I0000 00:00:1712000000.000000   12345 cuda_executor.cc:1] Skipping GPU Fabric info retrieval; NVIDIA driver "
      "r545+ is required. Current driver version: 535.104.5",
      "No NVML device handle. Skipping nvlink detection.",
      "[W1201 10:00:00.000000000 ProcessGroupNCCL.cpp:1250] WARNING: NCCL communicator hasn't been destroyed. This may "
      "cause memory leaks. To avoid the risk, you can call `destroy_process_group` during normal exit or "
      "`_abort_process_group` when handling failures.",
      "UserWarning: TORCH_CUDA_ARCH_LIST is not set, using TORCH_CUDA_ARCH_LIST='8.6' for visible GPU architectures. "
      "Set os.environ['TORCH_CUDA_ARCH_LIST'] to override.",
      "I tensorflow/core/common_runtime/gpu/gpu_device.cc:1616] Adding visible gpu devices: 0",
      "I tensorflow/stream_executor/platform/default/dso_loader.cc:53] Successfully opened dynamic library "
      "libcudart.so.11.0",
      "Requirement already satisfied: nvidia-ml-py in /usr/lib/python3/dist-packages (12.535.133)",
      "W external/xla/xla/service/gpu/nvptx_compiler.cc:1] Falling back to cuBLAS for this fusion.",
  };
  for (const char* line : healthy) {
    const ExplainReport r = testing::explain_no_facts(line);
    for (const auto& m : r.matches) {
      EXPECT_TRUE(m.harmless) << line << "\n  read as: " << m.rule;
    }
  }
}

}  // namespace
}  // namespace gpudoctor
