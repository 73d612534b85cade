// Renderers: text (colour only when asked) and JSON (schema, order, junk-safe strings).
#include "render/explain_render.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

const char* kLog =
    "W py_utils.cc:38] TF-TRT Warning: Could not find TensorRT\n"
    "AssertionError: Torch not compiled with CUDA enabled \xff\xfe junk\n";

TEST(ExplainRender, TextColourOnlyWhenAsked) {
  const auto r = explain_text(testing::builtin_matcher(), kLog, ExplainMachine{});
  const std::string plain = render_explain_text(r, ExplainTextOptions{.color = false});
  const std::string colour = render_explain_text(r, ExplainTextOptions{.color = true});
  EXPECT_EQ(plain.find('\x1b'), std::string::npos);
  EXPECT_NE(colour.find("\x1b[31m"), std::string::npos);
  EXPECT_NE(plain.find("1 problem(s) recognised"), std::string::npos) << plain;
  EXPECT_LT(plain.find("[wrong-framework-build]"), plain.find("Harmless messages"));
  EXPECT_NE(plain.find("line 2"), std::string::npos);
}

TEST(ExplainRender, TextForNothingFound) {
  const auto r = explain_text(testing::builtin_matcher(), "all good\n", ExplainMachine{});
  EXPECT_EQ(render_explain_text(r, {}), "No known problem found in 1 line.\n");
}

// A line cut at 16 KiB may have held the message that matters: said beside answers too (it
// was said only when nothing matched, so a lost answer went unnoticed).
TEST(ExplainRender, ACutLineIsSaidAlsoBesideAnswers) {
  const std::string log = std::string(kLog) + std::string(20 * 1024, 'x') + " Torch not compiled with CUDA enabled\n";
  const auto r = explain_text(testing::builtin_matcher(), log, ExplainMachine{});
  ASSERT_EQ(r.input.lines_truncated, 1u);
  ASSERT_FALSE(r.matches.empty());
  const std::string plain = render_explain_text(r, ExplainTextOptions{.color = false});
  EXPECT_NE(plain.find("1 very long line(s) were read only in their first and last 16 KiB"), std::string::npos)
      << plain;
  const auto none = explain_text(testing::builtin_matcher(), std::string(20 * 1024, 'y') + "\n", ExplainMachine{});
  EXPECT_NE(render_explain_text(none, {}).find("very long line"), std::string::npos);
}

TEST(ExplainRender, JsonSchemaBestFirst) {
  const auto r = explain_text(testing::builtin_matcher(), kLog, ExplainMachine{});
  const auto j = nlohmann::json::parse(render_explain_json(r));
  EXPECT_EQ(j.at("schema_version"), kExplainSchemaVersion);
  EXPECT_EQ(j.at("probed"), false);
  EXPECT_EQ(j.at("input").at("lines"), 2);
  const auto& ms = j.at("matches");
  ASSERT_EQ(ms.size(), 2u);
  for (const auto& m : ms) {
    for (const char* key : {"rule", "category", "severity", "lines", "cause", "fix", "harmless", "sources"}) {
      EXPECT_TRUE(m.contains(key)) << key;
    }
  }
  EXPECT_EQ(ms[0].at("category"), "wrong-framework-build");
  EXPECT_EQ(ms[0].at("lines"), nlohmann::json::array({2}));
  EXPECT_TRUE(ms[0].at("machine").is_null());
  EXPECT_EQ(ms[1].at("harmless"), true);
  // The junk bytes of the log never make the JSON invalid.
  EXPECT_TRUE(ms[0].at("excerpts")[0].is_string());
}

}  // namespace
}  // namespace gpudoctor
