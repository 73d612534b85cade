// The kernel module's message for a GPU that only a legacy driver branch drives, as the NVIDIA
// module prints it (format strings read from nv-kernel.o_binary of Debian's nvidia-kernel-dkms
// 535.261.03-1 and 555.58.02-4): the branch comes from the message, the fix from the same
// tables and text as the doctor's driver-drops-gpu.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "check/compat_checks.hpp"
#include "explain_test_support.hpp"
#include "kb/driver_branch_advice.hpp"

namespace gpudoctor {
namespace {

using testing::builtin_kb;
using testing::builtin_matcher;
using testing::find_rule;
using testing::leads_with;

// `dmesg` on Debian 12 with a Tesla K80 and the 535 driver: one printk of five lines per GPU,
// the first with its timestamp, the rest indented by dmesg.
constexpr const char* kK80Dmesg =
    "[    4.201137] nvidia: loading out-of-tree module taints kernel.\n"
    "[    4.228811] NVRM: The NVIDIA Tesla K80 GPU installed in this system is\n"
    "               NVRM:  supported through the NVIDIA 470.xx Legacy drivers. Please\n"
    "               NVRM:  visit http://www.nvidia.com/object/unix.html for more\n"
    "               NVRM:  information.  The 535.261.03 NVIDIA driver will ignore\n"
    "               NVRM:  this GPU.  Continuing probe...\n"
    "[    4.228863] NVRM: The NVIDIA Tesla K80 GPU installed in this system is\n"
    "               NVRM:  supported through the NVIDIA 470.xx Legacy drivers. Please\n"
    "               NVRM:  visit http://www.nvidia.com/object/unix.html for more\n"
    "               NVRM:  information.  The 535.261.03 NVIDIA driver will ignore\n"
    "               NVRM:  this GPU.  Continuing probe...\n"
    "[    4.228912] NVRM: No NVIDIA GPU found.\n";

std::string first(const ExplainMatch& m, const std::string& capture) {
  auto it = m.captures.find(capture);
  return it == m.captures.end() || it->second.empty() ? std::string{} : it->second.front();
}

Facts debian12_k80(const char* driver) {
  Facts f;
  f.platform = Platform::linux;
  f.os.id = "debian";
  f.os.version_id = "12";
  f.os.name = "Debian GNU/Linux 12 (bookworm)";
  GpuFacts g;
  g.source = "pci";
  g.name = "GK210GL [Tesla K80]";
  g.pci_bus_id = "0000:05:00.0";
  g.pci_device_id = "102d";
  f.gpus.push_back(g);
  f.driver.version = Version::parse(driver);
  f.driver.version_source = "/usr/lib/x86_64-linux-gnu/libcuda.so.1 (file name)";
  return f;
}

TEST(ExplainLegacyDriver, TheKernelLogOfAK80WithDriver535) {
  const auto r = explain_text(builtin_matcher(), kK80Dmesg, ExplainMachine{Platform::linux, nullptr, &builtin_kb()});
  ASSERT_FALSE(r.matches.empty());
  const ExplainMatch& m = r.matches.front();
  EXPECT_EQ(m.rule, "gpu-needs-legacy-driver");
  EXPECT_EQ(m.category, "driver-missing");
  EXPECT_EQ(first(m, "branch"), "470.xx");
  EXPECT_EQ(first(m, "gpu"), "Tesla K80");
  EXPECT_EQ(first(m, "driver"), "535.261.03");
  EXPECT_NE(m.cause.find("driver 535.261.03"), std::string::npos) << m.cause;
  EXPECT_NE(m.cause.find("Tesla K80"), std::string::npos) << m.cause;
  EXPECT_NE(m.fix.find("470.xx branch"), std::string::npos) << m.fix;
  // Without machine facts: who packages the branch, from compat/driver_branches.toml.
  EXPECT_NE(m.fix.find("debian 12: nvidia-tesla-470-driver"), std::string::npos) << m.fix;
  EXPECT_EQ(m.fix.find("sudo apt-get"), std::string::npos) << m.fix;
  EXPECT_NE(m.fix.find("CUDA 11.4 is the newest toolkit"), std::string::npos) << m.fix;
  // Lines 1, 2 and 4 of both messages.
  EXPECT_EQ(m.count, 6u);
}

TEST(ExplainLegacyDriver, OnTheMachineTheFixIsTheDoctorsOwn) {
  Facts f = debian12_k80("535.261.03");
  const auto r = explain_text(builtin_matcher(), kK80Dmesg, ExplainMachine{Platform::linux, &f, &builtin_kb()});
  const ExplainMatch* m = find_rule(r, "gpu-needs-legacy-driver");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(&*r.matches.begin(), m);
  const DriverBranchPackage* p = builtin_kb().branch_package("debian", "12", 470);
  ASSERT_NE(p, nullptr);
  EXPECT_NE(m->fix.find("sudo apt-get install " + p->package), std::string::npos) << m->fix;
  // The same sentence as the doctor's finding on this machine.
  auto findings = compatibility_findings(f, builtin_kb());
  auto d = std::find_if(findings.begin(), findings.end(), [](const Finding& x) { return x.id == "driver-drops-gpu"; });
  ASSERT_NE(d, findings.end());
  EXPECT_NE(m->fix.find(d->fix), std::string::npos) << m->fix << "\nvs\n" << d->fix;
  EXPECT_NE(m->machine.find("10de:102d"), std::string::npos) << m->machine;
}

TEST(ExplainLegacyDriver, EachLineStampedAndOtherBranches) {
  // Older kernels and journals stamp every line; a GeForce GT 520 (390.xx) under the 470 driver.
  const std::string log =
      "Dec 01 10:02:11 host kernel: NVRM: The NVIDIA GeForce GT 520 GPU installed in this system is\n"
      "Dec 01 10:02:11 host kernel: NVRM:  supported through the NVIDIA 390.xx Legacy drivers. Please\n"
      "Dec 01 10:02:11 host kernel: NVRM:  visit http://www.nvidia.com/object/unix.html for more\n"
      "Dec 01 10:02:11 host kernel: NVRM:  information.  The 470.256.02 NVIDIA driver will ignore\n"
      "Dec 01 10:02:11 host kernel: NVRM:  this GPU.  Continuing probe...\n";
  const auto r = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, nullptr, &builtin_kb()});
  ASSERT_FALSE(r.matches.empty());
  const ExplainMatch& m = r.matches.front();
  EXPECT_EQ(m.rule, "gpu-needs-legacy-driver");
  EXPECT_EQ(first(m, "branch"), "390.xx");
  EXPECT_EQ(first(m, "driver"), "470.256.02");
  EXPECT_NE(m.fix.find("390.xx"), std::string::npos) << m.fix;
  EXPECT_NE(m.fix.find("in place of driver 470"), std::string::npos) << m.fix;
  EXPECT_EQ(m.fix.find("470.xx"), std::string::npos) << m.fix;
  EXPECT_EQ(m.fix.find("nvidia-tesla-470"), std::string::npos) << m.fix;

  // A device the driver knows only by its generation: "You can try the NVIDIA 340.xx ...".
  const std::string unknown =
      "[    3.100000] NVRM: The Unknown NVIDIA GeForce 8 Series GPU installed in this\n"
      "               NVRM:  system is not supported through the 390.157 NVIDIA\n"
      "               NVRM:  driver. You can try the NVIDIA 340.xx Legacy drivers.\n"
      "               NVRM:  Please visit http://www.nvidia.com/object/unix.html\n"
      "               NVRM:  for download information.  The 390.157 NVIDIA driver\n"
      "               NVRM:  will ignore this GPU.  Continuing probe...\n";
  const auto u = explain_text(builtin_matcher(), unknown, ExplainMachine{Platform::linux, nullptr, &builtin_kb()});
  ASSERT_TRUE(leads_with(u, "gpu-needs-legacy-driver"));
  EXPECT_EQ(first(u.matches.front(), "branch"), "340.xx");
  EXPECT_EQ(first(u.matches.front(), "driver"), "390.157");
  EXPECT_NE(u.matches.front().fix.find("340.xx"), std::string::npos) << u.matches.front().fix;
}

TEST(ExplainLegacyDriver, AGpuTooNewForTheDriverIsNotThis) {
  // The opposite problem, printed by the same module: the driver predates the GPU.
  const std::string log =
      "[    5.010203] NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:2684)\n"
      "               NVRM: installed in this system is not supported by the\n"
      "               NVRM: NVIDIA 515.65.01 driver release.\n"
      "               NVRM: Please see 'Appendix A - Supported NVIDIA GPU Products'\n"
      "[    5.010400] NVRM: No NVIDIA GPU found.\n"
      // pasted as one line
      "NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:2684) NVRM: installed in this system is not "
      "supported by the NVRM: NVIDIA 515.65.01 driver release.\n";
  const auto r = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, nullptr, &builtin_kb()});
  EXPECT_EQ(find_rule(r, "gpu-needs-legacy-driver"), nullptr);
}

TEST(ExplainLegacyDriver, NoDeviceOnAMachineWhoseDriverDropsItsGpu) {
  const std::string log = "failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected";
  Facts k80 = debian12_k80("535.261.03");
  const auto r = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, &k80, &builtin_kb()});
  ASSERT_TRUE(leads_with(r, "cuinit-no-device/legacy-gpu"));
  EXPECT_EQ(r.matches.front().facts_verdict, "supported");
  EXPECT_NE(r.matches.front().fix.find("driver-drops-gpu"), std::string::npos);
  // The branch's own driver: the condition is false and that cause contradicted.
  Facts ok = debian12_k80("470.256.02");
  const auto r2 = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, &ok, &builtin_kb()});
  const ExplainMatch* alt = find_rule(r2, "cuinit-no-device/legacy-gpu");
  ASSERT_NE(alt, nullptr);
  EXPECT_EQ(alt->facts_verdict, "contradicted");
  EXPECT_NE(r2.matches.front().rule, "cuinit-no-device/legacy-gpu");
}

// Omniverse Kit's GPU foundation (Isaac Sim, Isaac Lab) checks the driver against its own
// supported range before RTX starts and names both; below the range is an old driver.
TEST(ExplainLegacyDriver, OmniverseRefusingTheDriverNamesTheInstalledOne) {
  const auto r = testing::explain_no_facts(
      "2024-03-02T10:11:12Z [1,234ms] [Error] [gpu.foundation.plugin] The currently installed NVIDIA graphics driver "
      "is unsupported or has known issues.\n"
      "Reason for failure: The minimum Omniverse RTX requirement on Linux\n"
      "Installed driver: 525.60\n"
      "The unsupported driver range: [0.0, 535.129)\n"
      "2024-03-02T10:11:12Z [1,234ms] [Error] [carb.scenerenderer-rtx.plugin] rtx driver verification failed.\n");
  ASSERT_TRUE(leads_with(r, "omniverse-driver-unsupported"));
  EXPECT_EQ(r.matches.front().category, "driver-too-old");
  EXPECT_NE(r.matches.front().cause.find("535.129"), std::string::npos) << r.matches.front().cause;
  // The check reads the version through Vulkan, which misreports drivers above 535.255.
  const ExplainMatch* misread = find_rule(r, "omniverse-driver-unsupported/version-misread");
  ASSERT_NE(misread, nullptr);
  EXPECT_NE(misread->fix.find("--/rtx/verifyDriverVersion/enabled=false"), std::string::npos);
  // Another program's summary line with the same two words is not Omniverse's check.
  EXPECT_EQ(find_rule(testing::explain_no_facts("Installed driver: 535.104\n"), "omniverse-driver-unsupported"),
            nullptr);
}

}  // namespace
}  // namespace gpudoctor
