// D8, D15, D20: nothing is cut silently. Each bound reached while reading a target is a finding
// that says what was not read, and the verdict is then not "no issues".
#include <gtest/gtest.h>

#include <string>

#include "hostile_support.hpp"
#include "platform/system_view.hpp"
#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

using testing::copy_fixture;
using testing::run_gpudoctor;
using testing::ScratchDir;

bool mentions_not_fully_read(const testing::RunResult& r) {
  return r.out.find("not fully read") != std::string::npos;
}

TEST(Bounds, D8_EnvFilePastTheBoundIsAFindingAndNoHalfLineIsKept) {
  ScratchDir scratch;
  ASSERT_FALSE(scratch.path().empty());
  auto t = copy_fixture(scratch, "linux-torch-healthy", "t");
  std::string env = testing::ScratchDir::path_text(t / "env");
  for (int i = 0; i < 11000; ++i) env += "# " + std::string(98, 'c') + "\n";
  env += "CUDA_VISIBLE_DEVICES=\n";
  scratch.write("big.env", env);
  auto r = run_gpudoctor({"--root", (t / "root").string(), "--env-file", (scratch.path() / "big.env").string()});
  EXPECT_TRUE(mentions_not_fully_read(r)) << r.out;
  EXPECT_EQ(r.out.find("No issues found"), std::string::npos) << r.out;
}

TEST(Bounds, D8_LargeDirectoryListingIsAFinding) {
  ScratchDir scratch;
  ASSERT_FALSE(scratch.path().empty());
  auto t = copy_fixture(scratch, "linux-torch-healthy", "t");
  const auto sp = t / "root/home/alex/projects/vision/.venv/lib/python3.10/site-packages";
  ASSERT_TRUE(std::filesystem::is_directory(sp));
  for (size_t i = 0; i < SystemView::kMaxDirEntries + 10; ++i) {
    std::filesystem::create_directory(sp / ("pkg" + std::to_string(i) + "-1.0.dist-info"));
  }
  auto r = run_gpudoctor({"--root", (t / "root").string(), "--env-file", (t / "env").string()});
  EXPECT_TRUE(mentions_not_fully_read(r)) << r.out;
  EXPECT_EQ(r.out.find("No issues found"), std::string::npos);
}

TEST(Bounds, D8_ReadFileRecordsACutButReadHeadDoesNot) {
  ScratchDir scratch;
  ASSERT_FALSE(scratch.path().empty());
  scratch.write("root/big", std::string(100, 'x'));
  scratch.write("root/exact", std::string(10, 'x'));
  SystemView::Options o;
  o.root = (scratch.path() / "root").string();
  SystemView view(o);
  EXPECT_EQ(view.read_file("/exact", 10).value_or(""), std::string(10, 'x'));
  EXPECT_TRUE(view.bounds_hit().empty()) << "a file exactly at the bound is not cut";
  EXPECT_EQ(view.read_head("/big", 10).value_or("").size(), 10u);
  EXPECT_TRUE(view.bounds_hit().empty());
  EXPECT_EQ(view.read_file("/big", 10).value_or("").size(), 10u);
  ASSERT_EQ(view.bounds_hit().size(), 1u);
  EXPECT_EQ(view.bounds_hit()[0].path, "/big");
}

TEST(Bounds, D20_NulBytesInAnEnvFileAreProblemsNotVariables) {
  using namespace std::string_literals;
  EnvFile f = parse_env_file("A=1\nCUDA_VISIBLE_DEVICES=0\0,1\nB\0C=2\nD=4\n"s);
  EXPECT_EQ(f.env.count("CUDA_VISIBLE_DEVICES"), 0u);
  EXPECT_EQ(f.env.size(), 2u);
  EXPECT_EQ(f.problems.size(), 2u);
}

TEST(Bounds, D15_MalformedEnvLinesGiveABoundedReport) {
  std::string text;
  for (int i = 0; i < 100000; ++i) text += "x\n";
  EnvFile f = parse_env_file(text);
  EXPECT_EQ(f.problems.size(), EnvFile::kMaxProblems + 1);
  EXPECT_NE(f.problems.back().find("more malformed lines"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
