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

// ---- Review 45A: malformed --driver/--python, and options that were silently dropped ----------

// "535.xx" was planned as "driver 535xx", "03.12" as `python03.12 -m venv`: exit 2 now, as for "abc".
TEST(ResolverCli, MalformedDriverAndPythonAreRefused) {
  for (const char* d : {"535.xx", "535abc", "535.104.05abc", "99999", "1000", "0535.104.05", "535.104.05.1.2"}) {
    RunResult r = run(std::string("plan --gpu 'RTX 4090' --driver ") + d);
    EXPECT_EQ(r.exit_code, 2) << d << "\n" << r.out;
    EXPECT_NE(r.out.find("is not an NVIDIA driver version"), std::string::npos) << r.out;
  }
  for (const char* py : {"03.12", "3.12.x", "3.012", "3.100", "3.12.4.1"}) {
    RunResult r = run(std::string("plan --gpu 'RTX 4090' --python ") + py);
    EXPECT_EQ(r.exit_code, 2) << py << "\n" << r.out;
    EXPECT_NE(r.out.find("is not a Python version"), std::string::npos) << r.out;
  }
  RunResult future = run("plan --gpu 'RTX 4090' --python 3.99");
  EXPECT_EQ(future.exit_code, 2) << future.out;
  EXPECT_NE(future.out.find("newer than the newest Python release"), std::string::npos) << future.out;
}

// Near misses: the usual spellings still plan.
TEST(ResolverCli, WellFormedDriverAndPythonStillPlan) {
  for (const char* args : {"--driver 535.104.05 --python 3.12", "--driver 550.54 --python 3.12.4",
                           "--driver 552.22 --python 3.10", "--driver 535 --python 3.9"}) {
    RunResult r = run(std::string("plan --gpu 'RTX 4090' --framework pytorch ") + args);
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.out;
  }
}

// `plan --python PATH` with --gpu/--driver became "Python not given"; a missing path fell back to
// PATH's python3 unsaid; --root with --driver/--python/--os became "GPU not given".
TEST(ResolverCli, PythonPathAndRootDoNotMixWithADescribedMachine) {
  RunResult with_gpu = run("plan --python /usr/bin/python3 --gpu 'RTX 4090' --driver 550.54.15");
  EXPECT_EQ(with_gpu.exit_code, 2) << with_gpu.out;
  EXPECT_NE(with_gpu.out.find("give the target's Python version"), std::string::npos) << with_gpu.out;
  RunResult missing = run("plan --python /nonexistent/bin/python --framework pytorch");
  EXPECT_EQ(missing.exit_code, 2) << missing.out;
  EXPECT_NE(missing.out.find("/nonexistent/bin/python, which does not exist"), std::string::npos) << missing.out;
  // Near misses: a path alone reads that interpreter; --root with --gpu stays the tree's plan.
  RunResult alone = run("plan --python /usr/bin/python3 --framework pytorch");
  EXPECT_NE(alone.exit_code, 2) << alone.out;
  RunResult tree = run("--root /nonexistent-tree --gpu 'RTX 4090' plan");
  EXPECT_EQ(tree.out.find("cannot be used with --root"), std::string::npos) << tree.out;
  for (const char* extra : {"--driver 550.54.15", "--python 3.11", "--os windows"}) {
    RunResult r = run(std::string("--root /nonexistent-tree plan ") + extra);
    EXPECT_EQ(r.exit_code, 2) << extra << "\n" << r.out;
    EXPECT_NE(r.out.find("cannot be used with --root"), std::string::npos) << r.out;
  }
}

}  // namespace
