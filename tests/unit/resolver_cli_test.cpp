#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

/// `gpudoctor plan` and `matrix` through the real binary: exit statuses and bad input.
namespace {

struct CliRun {
  int status = -1;
  std::string out;
};

CliRun run(const std::string& args) {
  CliRun r;
  std::string cmd = std::string(GPUDOCTOR_BINARY) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) r.out.append(buf, n);
  int s = pclose(p);
  r.status = WIFEXITED(s) ? WEXITSTATUS(s) : -1;
  return r;
}

TEST(ResolverCli, BlogRecipeJson) {
  CliRun r = run("--json --gpu 'RTX 3060' plan --os windows --python 3.11 --framework tensorflow==2.15");
  ASSERT_EQ(r.status, 0) << r.out;
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
    CliRun r = run(args);
    EXPECT_EQ(r.status, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find("gpudoctor"), std::string::npos) << args;
  }
}

TEST(ResolverCli, NothingWorksExitsOne) {
  CliRun r = run("--gpu 'RTX 3060' plan --os linux --python 3.11 --framework tensorflow==9.9");
  EXPECT_EQ(r.status, 1) << r.out;
}

TEST(ResolverCli, UnknownGpuSuggests) {
  CliRun r = run("--gpu 'RTX 3060 Tie' matrix --framework pytorch");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("NVIDIA GeForce RTX 3060 Ti"), std::string::npos) << r.out;
}

TEST(ResolverCli, MatrixJsonRows) {
  CliRun r = run("--json matrix --framework tensorflow --os windows --python 3.10");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_FALSE(j["frameworks"].empty());
  for (const auto& row : j["frameworks"]) {
    EXPECT_EQ(row["os"], "windows");
    EXPECT_FALSE(row["source"].get<std::string>().empty());
  }
}

}  // namespace
