// apt and dpkg installing the driver, CUDA or cuDNN (data/explain/system-packages.toml): which
// repository a package comes from decides the fix, and packages that are not NVIDIA's get no
// NVIDIA answer.
#include <gtest/gtest.h>

#include <string>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

TEST(ExplainSystemPackages, AnUnknownCudaPackageNeedsNvidiasRepository) {
  for (const char* line : {"E: Unable to locate package cuda-toolkit-12-4", "E: Unable to locate package libcudnn8",
                           "E: Package 'cudnn9-cuda-12' has no installation candidate",
                           "E: Version '8.9.7.29-1+cuda12.2' for 'libcudnn8' was not found"}) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "apt-nvidia-repo-package-unknown")) << line;
    EXPECT_NE(r.matches.front().fix.find("cuda-keyring"), std::string::npos);
    EXPECT_EQ(find_rule(r, "apt-nvidia-driver-package-unknown"), nullptr) << line;
  }
}

TEST(ExplainSystemPackages, AnUnknownDriverPackageNeedsTheDistributionsComponent) {
  const auto r = explain_no_facts("E: Package 'nvidia-driver-535' has no installation candidate\n");
  ASSERT_TRUE(leads_with(r, "apt-nvidia-driver-package-unknown"));
  EXPECT_NE(r.matches.front().fix.find("restricted"), std::string::npos);
  EXPECT_NE(r.matches.front().fix.find("non-free"), std::string::npos);
  EXPECT_EQ(find_rule(r, "apt-nvidia-repo-package-unknown"), nullptr);
}

TEST(ExplainSystemPackages, OtherPackagesGetNoNvidiaAnswer) {
  const auto r = explain_no_facts(
      "E: Unable to locate package python3-pip\n"
      " libc6-dev : Depends: libc6 (= 2.35-0ubuntu3.1) but 2.35-0ubuntu3.4 is to be installed\n"
      "dpkg: error processing archive /var/cache/apt/archives/foo_1.0_amd64.deb (--unpack): trying to overwrite "
      "'/usr/share/doc/foo/README', which is also in package bar\n");
  for (const char* rule : {"apt-nvidia-repo-package-unknown", "apt-nvidia-driver-package-unknown",
                           "apt-nvidia-unmet-dependencies", "dpkg-nvidia-file-conflict"}) {
    EXPECT_EQ(find_rule(r, rule), nullptr) << rule;
  }
}

TEST(ExplainSystemPackages, UnmetDependenciesNameTheDependencyToLookAt) {
  const auto r = explain_no_facts(
      "The following packages have unmet dependencies:\n"
      " cuda : Depends: cuda-12-4 (>= 12.4.1) but it is not going to be installed\n"
      "E: Unable to correct problems, you have held broken packages.\n");
  ASSERT_TRUE(leads_with(r, "apt-nvidia-unmet-dependencies"));
  EXPECT_NE(r.matches.front().fix.find("apt-cache policy cuda-12-4"), std::string::npos) << r.matches.front().fix;
}

TEST(ExplainSystemPackages, TwoPackagesOwningOneDriverFileIsTwoPackagings) {
  const auto r = explain_no_facts(
      "dpkg: error processing archive /var/cache/apt/archives/libnvidia-compute-535_535.129.03-0ubuntu1_amd64.deb "
      "(--unpack): trying to overwrite '/usr/lib/x86_64-linux-gnu/libnvidia-ml.so', which is also in package "
      "libnvidia-extra-535\n");
  ASSERT_TRUE(leads_with(r, "dpkg-nvidia-file-conflict"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_NE(m.fix.find("dpkg -S '/usr/lib/x86_64-linux-gnu/libnvidia-ml.so'"), std::string::npos) << m.fix;
  EXPECT_NE(m.fix.find("libnvidia-extra-535"), std::string::npos) << m.fix;
}

}  // namespace
}  // namespace gpudoctor
