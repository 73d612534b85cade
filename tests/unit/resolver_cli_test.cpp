#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "run_gpudoctor.hpp"

/// `gpudoctor plan` and `matrix` through the real binary: exit statuses and bad input.
namespace {

using gpudoctor::testing::RunResult;

/// The binary with shell-quoted arguments, stderr folded into stdout.
RunResult run(const std::string& args) {
  return gpudoctor::testing::run_gpudoctor_shell(args + " 2>&1");
}

TEST(ResolverCli, BlogRecipeJson) {
  RunResult r = run("--json --gpu 'RTX 3060' plan --os windows --python 3.11 --framework tensorflow==2.15");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema_version"], 1);
  const auto& fw = j["frameworks"][0];
  EXPECT_EQ(fw["best"]["os"], "wsl2");
  EXPECT_EQ(fw["rejected"][0]["issues"][0]["id"], "tf-native-windows-no-gpu");
  EXPECT_EQ(j["gpu"]["compute_capability"], "8.6");
}

TEST(ResolverCli, BadInputIsAUsageError) {
  for (const char* args :
       {"plan --os macos", "plan --os linux --driver banana", "plan --os linux --python 3",
        "plan --os linux --framework caffe", "plan --os linux --framework 'tensorflow==x'",
        "plan --os linux --script zsh", "matrix --cuda abc", "matrix --os beos", "matrix --framework mxnet"}) {
    RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find("gpudoctor"), std::string::npos) << args;
  }
}

// matrix accepted "--python 4.1" (and "1.0") that plan refused: both read the option through
// one parser now, and refuse the same text with the same words.
TEST(ResolverCli, MatrixAndPlanRefuseTheSamePythonText) {
  for (const char* bad : {"4.1", "1.0", "3", "x.y"}) {
    RunResult m = run(std::string("matrix --python ") + bad);
    RunResult p = run(std::string("plan --os linux --python ") + bad);
    EXPECT_EQ(m.exit_code, 2) << bad << "\n" << m.out;
    EXPECT_EQ(p.exit_code, 2) << bad << "\n" << p.out;
    EXPECT_NE(m.out.find("is not a Python version"), std::string::npos) << m.out;
    EXPECT_NE(p.out.find("is not a Python version"), std::string::npos) << p.out;
  }
}

TEST(ResolverCli, NothingWorksExitsOne) {
  RunResult r = run("--gpu 'RTX 3060' plan --os linux --python 3.11 --framework tensorflow==9.9");
  EXPECT_EQ(r.exit_code, 1) << r.out;
}

TEST(ResolverCli, UnknownGpuSuggests) {
  RunResult r = run("--gpu 'RTX 3060 Tie' matrix --framework pytorch");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("NVIDIA GeForce RTX 3060 Ti"), std::string::npos) << r.out;
}

TEST(ResolverCli, MatrixJsonRows) {
  RunResult r = run("--json matrix --framework tensorflow --os windows --python 3.10");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_FALSE(j["frameworks"].empty());
  for (const auto& row : j["frameworks"]) {
    EXPECT_EQ(row["os"], "windows");
    EXPECT_FALSE(row["source"].get<std::string>().empty());
  }
}

// The range given with --framework filters the rows (until 2026-12-07 it was parsed and dropped).
TEST(ResolverCli, MatrixFrameworkRangeFiltersTheRows) {
  RunResult r = run("--json matrix --framework 'torch==2.5.1' --os linux");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_FALSE(j["frameworks"].empty());
  for (const auto& row : j["frameworks"]) EXPECT_EQ(row["version"], "2.5") << row.dump();
  RunResult bad = run("matrix --framework 'torch<=2.5.*'");
  EXPECT_EQ(bad.exit_code, 2) << bad.out << bad.err;
}

}  // namespace
