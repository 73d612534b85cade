// `gpudoctor verify` on this machine as it is. On the build machines (no driver, CUDA 13
// toolkit with cuDNN 9 and NCCL 2 under /usr/local/cuda) the report must say exactly that:
// no driver, and the real libraries loaded with the versions they report themselves.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

const nlohmann::json* library(const nlohmann::json& report, const std::string& name) {
  for (const auto& l : report["libraries"]) {
    if (l["name"] == name) return &l;
  }
  return nullptr;
}

bool has_driver() {
  return ::access("/dev/nvidiactl", F_OK) == 0 || ::access("/proc/driver/nvidia/version", F_OK) == 0;
}

class VerifyLive : public ::testing::TestWithParam<const char*> {};

TEST_P(VerifyLive, NoDriverButTheRealCuda13LibrariesLoadWithTheirVersions) {
  if (::access("/usr/local/cuda/lib64/libcublas.so.13", F_OK) != 0) {
    GTEST_SKIP() << "no CUDA 13 toolkit at /usr/local/cuda: the real libraries cannot be checked here";
  }
  if (has_driver()) GTEST_SKIP() << "this machine has an NVIDIA driver: scripts/device-check.sh covers it";
  auto r = testing::run_gpudoctor({"--json", "verify", "--libs-from", GetParam()});
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.json["passed"], false);
  const auto& first = r.json["steps"][0];
  EXPECT_EQ(first["name"], "driver");
  EXPECT_EQ(first["status"], "failed");
  EXPECT_NE(first["detail"].get<std::string>().find("no NVIDIA driver"), std::string::npos) << first["detail"];
  for (const auto& s : r.json["steps"]) {
    if (s["name"] != "driver") EXPECT_EQ(s["status"], "skipped") << s["name"];
  }
  struct Want {
    const char* name;
    const char* version_prefix;
    const char* call;
  };
  for (const Want& w : {Want{"cublas", "13.", "cublasGetVersion_v2"}, Want{"cublasLt", "13.", "cublasLtGetVersion"},
                        Want{"cudnn", "9.", "cudnnGetVersion"}, Want{"nccl", "2.", "ncclGetVersion"},
                        Want{"nvrtc", "13.", "nvrtcVersion"}}) {
    const auto* l = library(r.json, w.name);
    ASSERT_NE(l, nullptr) << w.name;
    EXPECT_EQ((*l)["status"], "ok") << w.name << ": " << (*l)["error"];
    std::string version = (*l)["version"];
    EXPECT_EQ(version.rfind(w.version_prefix, 0), 0U) << w.name << " " << version;
    EXPECT_EQ((*l)["version_call"], w.call);
    std::string path = (*l)["path"];
    EXPECT_EQ(path.rfind("/usr/local/cuda", 0), 0U) << w.name << " loaded from " << path;
  }
  // cuDNN 9's own sub-libraries, each loaded from beside libcudnn.so.9.
  for (const char* sub : {"cudnn_graph", "cudnn_ops", "cudnn_cnn", "cudnn_engines_precompiled"}) {
    const auto* l = library(r.json, sub);
    ASSERT_NE(l, nullptr) << sub;
    EXPECT_EQ((*l)["status"], "ok") << sub << ": " << (*l)["error"];
  }
}

INSTANTIATE_TEST_SUITE_P(Sources, VerifyLive, ::testing::Values("system", "toolkit"));

TEST(VerifyLiveText, SaysNoDriverInWords) {
  if (has_driver()) GTEST_SKIP() << "this machine has an NVIDIA driver";
  auto r = testing::run_gpudoctor({"verify", "--quick"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("no NVIDIA driver: libcuda.so.1 is not on the loader's path"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace gpudoctor
