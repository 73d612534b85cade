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

// A real toolkit is not "not fully read": nvcc is a 30 MB ELF that is only looked at for a
// "#!" wrapper, and CUDA 13's cublas_api.h (324 KiB) has its version at line 82. Both were
// warnings on every machine with CUDA 13 installed (seen on this one, 2026-12-02).
TEST(Bounds, ALargeNvccAndCublasHeaderAreReadForTheirHeadsOnly) {
  ScratchDir scratch;
  ASSERT_FALSE(scratch.path().empty());
  auto t = copy_fixture(scratch, "linux-several-toolkits", "t");
  const auto cuda = t / "root/usr/local/cuda-12.4";
  ASSERT_TRUE(std::filesystem::is_regular_file(cuda / "bin/nvcc"));
  std::filesystem::remove(cuda / "bin/nvcc");
  scratch.write("t/root/usr/local/cuda-12.4/bin/nvcc",
                "\x7f"
                "ELF" +
                    std::string(5 * 1024 * 1024, '\0'));
  std::string header = "#define CUBLAS_VER_MAJOR 12\n#define CUBLAS_VER_MINOR 4\n#define CUBLAS_VER_PATCH 5\n";
  header += std::string(400 * 1024, ' ') + "\n";
  scratch.write("t/root/usr/local/cuda-12.4/include/cublas_api.h", header);
  auto r = run_gpudoctor({"--root", (t / "root").string(), "--env-file", (t / "env").string()});
  EXPECT_FALSE(mentions_not_fully_read(r)) << r.out;
  EXPECT_NE(r.out.find("CUDA 12.4"), std::string::npos) << r.out;
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
