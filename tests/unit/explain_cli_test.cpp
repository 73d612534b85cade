// `gpudoctor explain` end to end: the real binary, files, stdin, --json, --kb, -- CMD.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "run_gpudoctor.hpp"
#include "test_files.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

using testing::RunResult;

class ExplainCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::scratch_dir_for_test("gpudoctor-explain-cli");
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::string& content) {
    fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }

  /// The binary with shell-quoted arguments; stdin is the file, or empty.
  static RunResult run(const std::string& args, const std::string& stdin_file = "") {
    return testing::run_gpudoctor_shell(args +
                                        (stdin_file.empty() ? " </dev/null" : " <" + testing::shell_quote(stdin_file)));
  }

  fs::path dir_;
};

TEST_F(ExplainCli, FileTextOutputAndExitStatus) {
  auto log = write("a.log", "AssertionError: Torch not compiled with CUDA enabled\n");
  RunResult r = run("explain --no-probe '" + log.string() + "'");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("[wrong-framework-build]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("line 1"), std::string::npos);
  EXPECT_EQ(r.out.find("\x1b["), std::string::npos) << "no colour when not a terminal";
}

TEST_F(ExplainCli, HarmlessOnlyLogExitsZero) {
  auto log = write("h.log",
                   "W py_utils.cc:38] TF-TRT Warning: Could not find TensorRT\n"
                   "I tensorflow/core/platform/cpu_feature_guard.cc:182] This TensorFlow binary is optimized "
                   "to use available CPU instructions\n");
  RunResult r = run("explain --no-probe '" + log.string() + "'");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Harmless"), std::string::npos) << r.out;
  // The CPU-feature line names no instructions: its clause goes, no "(not in the log)" stump.
  EXPECT_NE(r.out.find("CPU instructions it could use"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("not in the log"), std::string::npos) << r.out;
}

TEST_F(ExplainCli, JsonFromStdin) {
  auto log = write("b.log",
                   "W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT\n"
                   "RuntimeError: The NVIDIA driver on your system is too old (found version 10010).\n");
  RunResult r = run("--json explain --no-probe -", log.string());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("schema_version"), 1);
  ASSERT_GE(j.at("matches").size(), 2u);
  const auto& first = j["matches"][0];
  EXPECT_EQ(first.at("category"), "driver-too-old");
  EXPECT_EQ(first.at("rule"), "driver-too-old-torch");
  EXPECT_EQ(first.at("severity"), "error");
  EXPECT_EQ(first.at("lines"), nlohmann::json::array({2}));
  EXPECT_TRUE(first.at("cause").is_string());
  EXPECT_TRUE(first.at("fix").is_string());
  EXPECT_EQ(j["matches"].back().at("harmless"), true);
}

TEST_F(ExplainCli, UserRulesFromKbDirectory) {
  write("kb/explain/mine.toml", R"(
[[rule]]
id = "my-cluster-quota"
category = "out-of-memory"
patterns = ['GPU quota exceeded for user (?P<user>\w+)']
cause = "{user} used up the GPU quota"
fix = "ask for more"
sources = ["https://example.org/quota"]
)");
  auto log = write("c.log", "slurm: GPU quota exceeded for user alice\n");
  RunResult r = run("--json --kb '" + (dir_ / "kb").string() + "' explain --no-probe '" + log.string() + "'");
  auto j = nlohmann::json::parse(r.out);
  ASSERT_FALSE(j["matches"].empty()) << r.out << r.err;
  EXPECT_EQ(j["matches"][0]["rule"], "my-cluster-quota");
  EXPECT_EQ(j["matches"][0]["cause"], "alice used up the GPU quota");
}

TEST_F(ExplainCli, BrokenUserRuleIsReportedNotFatal) {
  write("kb/explain/bad.toml", "[[rule]]\nid = \"x\"\npatterns = ['(']\n");
  auto log = write("d.log", "AssertionError: Torch not compiled with CUDA enabled\n");
  RunResult r = run("--kb '" + (dir_ / "kb").string() + "' explain --no-probe '" + log.string() + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("note:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[wrong-framework-build]"), std::string::npos);
}

TEST_F(ExplainCli, BrokenKnowledgeBaseIsAUsageErrorAsForTheDoctor) {
  // explain reads its version facts from the knowledge base: a broken --kb table stops it with
  // the doctor's message and exit 2, with --no-probe as well.
  write("kb/compat/tensorflow.toml", "framework = \"tensorflow\"\n[[build\n");
  auto log = write("e.log", "AssertionError: Torch not compiled with CUDA enabled\n");
  const std::string kb = "--kb '" + (dir_ / "kb").string() + "' ";
  for (const std::string probe : {"--no-probe ", ""}) {
    RunResult r = run(kb + "explain " + probe + "'" + log.string() + "'");
    EXPECT_EQ(r.exit_code, 2) << probe << r.out;
    EXPECT_NE(r.err.find("knowledge base"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("tensorflow.toml"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  RunResult doctor = run(kb + "--root '" + dir_.string() + "'");
  EXPECT_EQ(doctor.exit_code, 2) << doctor.out;
  RunResult missing = run("--kb '" + (dir_ / "no-such-dir").string() + "' explain --no-probe '" + log.string() + "'");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("no-such-dir"), std::string::npos) << missing.err;
}

TEST_F(ExplainCli, MissingFileIsAUsageError) {
  RunResult r = run("explain --no-probe '" + (dir_ / "nope.log").string() + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("nope.log"), std::string::npos);
}

TEST_F(ExplainCli, WatchedCommandPassesOutputThroughAndReturnsItsStatus) {
  RunResult r =
      run("explain --no-probe -- sh -c 'echo hello; echo \"AssertionError: Torch not compiled with CUDA enabled\" >&2; "
          "exit 7'");
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_EQ(r.out, "hello\n");                                                     // stdout untouched
  EXPECT_NE(r.err.find("AssertionError: Torch not compiled"), std::string::npos);  // passed through
  EXPECT_NE(r.err.find("[wrong-framework-build]"), std::string::npos) << r.err;    // then explained
}

TEST_F(ExplainCli, WatchedCommandNotFound) {
  RunResult r = run("explain --no-probe -- /nonexistent/program --flag");
  EXPECT_EQ(r.exit_code, 127);
  EXPECT_NE(r.err.find("/nonexistent/program"), std::string::npos);
}

TEST_F(ExplainCli, LiveProbeModeRunsOnThisMachine) {
  // No GPU and no driver here: the doctor's facts must still be collected without trouble.
  auto log = write("e.log",
                   "Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared "
                   "object file\n");
  RunResult r = run("--json explain '" + log.string() + "'");
  ASSERT_NE(r.out, "") << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("probed"), true);
  ASSERT_FALSE(j["matches"].empty());
  EXPECT_FALSE(j["matches"][0]["machine"].is_null()) << r.out;
}

}  // namespace
}  // namespace gpudoctor
