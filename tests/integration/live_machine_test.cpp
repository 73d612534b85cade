// The doctor on this machine as it is. The build and CI machines have the CUDA 13 toolkit at
// /usr/local/cuda (with cuDNN 9 and NCCL 2) and no GPU and no driver; the doctor must report
// exactly that. Expected values are read here from the files themselves, independently of
// gpudoctor's parsers.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;
using testing::run_gpudoctor;

std::string read_text(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// "#define NAME 9" -> "9", by a regular expression (not gpudoctor's parser).
std::string define_value(const std::string& text, const std::string& name) {
  std::smatch m;
  std::regex re("#define " + name + "\\s+([0-9]+)");
  return std::regex_search(text, m, re) ? m[1].str() : "";
}

bool gpu_machine() {
  return fs::exists("/proc/driver/nvidia/version") || fs::exists("/dev/nvidiactl");
}

TEST(LiveMachine, ReportsTheToolkitCudnnNcclAndNoDriver) {
  if (!fs::exists("/usr/local/cuda/include/cudnn_version.h")) {
    GTEST_SKIP() << "this machine has no CUDA toolkit with cuDNN at /usr/local/cuda";
  }
  if (gpu_machine()) GTEST_SKIP() << "this machine has an NVIDIA driver: the no-driver expectations do not apply";
  auto run = run_gpudoctor({"--json"});
  ASSERT_FALSE(run.json.is_null()) << run.out << run.err;
  const auto& facts = run.json["facts"];

  std::string toolkit = fs::canonical("/usr/local/cuda").string();
  std::string cuda_h = read_text("/usr/local/cuda/include/cuda.h");
  int cuda_version = std::stoi(define_value(cuda_h, "CUDA_VERSION"));
  std::string cuda_mm = std::to_string(cuda_version / 1000) + "." + std::to_string(cuda_version % 1000 / 10);
  bool found_toolkit = false;
  for (const auto& tk : facts["toolkits"]) {
    if (tk["path"] == toolkit) {
      found_toolkit = true;
      ASSERT_TRUE(tk["version"].is_string());
      EXPECT_EQ(tk["version"].get<std::string>().rfind(cuda_mm, 0), 0u) << tk.dump();
      EXPECT_EQ(tk["has_nvcc"], fs::exists("/usr/local/cuda/bin/nvcc"));
    }
  }
  EXPECT_TRUE(found_toolkit) << "toolkit " << toolkit << " missing from " << facts["toolkits"].dump();

  std::string cudnn_h = read_text("/usr/local/cuda/include/cudnn_version.h");
  std::string cudnn = define_value(cudnn_h, "CUDNN_MAJOR") + "." + define_value(cudnn_h, "CUDNN_MINOR") + "." +
                      define_value(cudnn_h, "CUDNN_PATCHLEVEL");
  std::string nccl_h = read_text("/usr/local/cuda/include/nccl.h");
  std::string nccl = define_value(nccl_h, "NCCL_MAJOR") + "." + define_value(nccl_h, "NCCL_MINOR") + "." +
                     define_value(nccl_h, "NCCL_PATCH");
  std::map<std::string, std::string> seen;
  for (const auto& lib : facts["libraries"]) {
    if (lib["version"].is_string()) seen[lib["name"].get<std::string>()] = lib["version"].get<std::string>();
  }
  EXPECT_EQ(seen["cudnn"], cudnn);
  if (fs::exists("/usr/local/cuda/include/nccl.h")) EXPECT_EQ(seen["nccl"], nccl);

  // No GPU, no driver: said plainly, and the exit status says there is an error.
  EXPECT_TRUE(facts["gpus"].empty());
  EXPECT_TRUE(facts["driver"]["version"].is_null());
  std::set<std::string> ids;
  for (const auto& f : run.json["findings"]) ids.insert(f["id"].get<std::string>());
  EXPECT_TRUE(ids.count("no-nvidia-gpu")) << run.out;
  EXPECT_TRUE(ids.count("driver-not-installed")) << run.out;
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.json["schema_version"], 1);
}

TEST(LiveMachine, TextReportHasOneLinePerAreaAndTheFix) {
  if (gpu_machine()) GTEST_SKIP() << "this machine has an NVIDIA driver";
  auto run = run_gpudoctor({"doctor"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("[✗] NVIDIA GPU"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Fix: "), std::string::npos);
  EXPECT_EQ(run.out.find("\x1b["), std::string::npos) << "no colour when stdout is not a terminal";
}

TEST(Cli, VersionUsageAndBadRoot) {
  auto v = run_gpudoctor({"--version"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_NE(v.out.find("gpudoctor "), std::string::npos);
  EXPECT_NE(v.out.find("commit:"), std::string::npos);
  EXPECT_NE(v.out.find("compiler:"), std::string::npos);
  EXPECT_EQ(run_gpudoctor({"--no-such-flag"}).exit_code, 2);
  EXPECT_EQ(run_gpudoctor({"--root", "/nonexistent/dir"}).exit_code, 2);
  EXPECT_EQ(run_gpudoctor({"--root", "/", "--platform", "beos"}).exit_code, 2);
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

TEST(Cli, RootMayBeASymlinkToADirectory) {
  namespace fs = std::filesystem;
  fs::path link = fs::temp_directory_path() / ("gpudoctor-root-link-" + std::to_string(::getpid()));
  fs::remove(link);
  fs::create_directory_symlink(fs::path(GPUDOCTOR_FIXTURES_DIR) / "linux-no-nvidia" / "root", link);
  auto run = testing::run_gpudoctor({"--root", link.string(), "--json"});
  fs::remove(link);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_FALSE(run.json.is_null());
}

}  // namespace
}  // namespace gpudoctor
