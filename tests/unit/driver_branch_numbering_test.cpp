// A GPU's last driver branch on Windows and WSL2, where a branch's drivers are numbered past it
// (R470: Linux 470.xx, Windows 471.11-472.50 in NVIDIA's toolkit table, compat/cuda_drivers.toml):
// a driver drives the GPU while its major is below the branch after the GPU's last one.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "check/compat_checks.hpp"
#include "check_test_support.hpp"
#include "explain_test_support.hpp"
#include "kb/knowledge_base.hpp"
#include "kb/matrix_query.hpp"
#include "kb/resolver.hpp"

namespace gpudoctor {
namespace {

using testing::find;
using testing::has;
using testing::ids;
using testing::v;

using testing::kb;

/// A Tesla K80 on Windows: declared with --gpu (a driver that does not support the card leaves
/// it without an NVIDIA entry in the registry), the driver from the registry.
Facts windows_k80(const char* driver, Platform platform = Platform::windows) {
  Facts f;
  f.platform = platform;
  f.os.id = platform == Platform::wsl2 ? "ubuntu" : "windows";
  f.os.version_id = platform == Platform::wsl2 ? "24.04" : "";
  f.os.wsl2 = platform == Platform::wsl2;
  GpuFacts g;
  g.source = "declared";
  g.name = "Tesla K80";
  g.kb_name = "Tesla K80";
  g.cc_major = 3;
  g.cc_minor = 7;
  f.gpus.push_back(g);
  f.driver.version = v(driver);
  f.driver.version_source = "registry: DriverVersion";
  return f;
}

TEST(DriverBranchNumbering, TheSequenceComesFromTheTables) {
  // 470 -> 495: CUDA 11.4's own drivers are 470.xx, CUDA 11.5's 495.29.05 (NVIDIA's table).
  EXPECT_EQ(kb().next_driver_branch(470), 495);
  EXPECT_EQ(kb().next_driver_branch(535), 545);
  EXPECT_EQ(kb().next_driver_branch(580), 590);
  // On Linux a driver's major is its branch; on Windows the branch's drivers run up to the next.
  EXPECT_FALSE(kb().driver_past_branch(v("470.256.02"), 470, Platform::linux));
  EXPECT_TRUE(kb().driver_past_branch(v("495.29.05"), 470, Platform::linux));
  EXPECT_TRUE(kb().driver_past_branch(v("472.50"), 470, Platform::linux));  // no such Linux driver
  EXPECT_FALSE(kb().driver_past_branch(v("472.50"), 470, Platform::windows));
  EXPECT_FALSE(kb().driver_past_branch(v("475.14"), 470, Platform::windows));
  EXPECT_TRUE(kb().driver_past_branch(v("496.13"), 470, Platform::windows));
  EXPECT_TRUE(kb().driver_past_branch(v("496.13"), 470, Platform::wsl2));
  // Fermi's R390: Windows 391.35 is its, CUDA 9.2's 397.44 (R396) is past it. Needs the CUDA 9.x
  // rows of NVIDIA's table, without which the next known branch would be 410.
  EXPECT_EQ(kb().next_driver_branch(390), 396);
  EXPECT_FALSE(kb().driver_past_branch(v("391.35"), 390, Platform::windows));
  EXPECT_TRUE(kb().driver_past_branch(v("397.44"), 390, Platform::windows));
  const CudaDriverRow* fermi = kb().newest_toolkit_for_branch(390);
  ASSERT_NE(fermi, nullptr);
  EXPECT_EQ(fermi->cuda.truncated(2).str(), "9.1");
}

TEST(DriverBranchNumbering, AK80OnWindowsWithA5xxDriverIsAnError) {
  auto fs = compatibility_findings(windows_k80("537.13"), kb());
  const Finding* f = find(fs, "driver-drops-gpu");
  ASSERT_NE(f, nullptr) << ids(fs);
  EXPECT_NE(f->title.find("470.xx"), std::string::npos) << f->title;
  // Windows words: NVIDIA's R470 Windows driver, no apt, no kernel log.
  EXPECT_NE(f->fix.find("R470"), std::string::npos) << f->fix;
  EXPECT_NE(f->fix.find("Windows"), std::string::npos) << f->fix;
  EXPECT_EQ(f->fix.find("apt"), std::string::npos) << f->fix;
  EXPECT_EQ(f->detail.find("kernel log"), std::string::npos) << f->detail;
  // The toolkit of the branch with its Windows driver (11.4 Update 4: 472.50), not the Linux one.
  EXPECT_NE(f->detail.find("472.50"), std::string::npos) << f->detail;
  EXPECT_EQ(f->detail.find("470.82.01"), std::string::npos) << f->detail;
  EXPECT_NE(f->detail.find("CUDA 12 needs " + kb().family_for_cuda(v("12.0"))->windows.str()), std::string::npos)
      << f->detail;
}

TEST(DriverBranchNumbering, TheR470WindowsDriversStillDriveIt) {
  for (const char* d : {"471.11", "472.50", "475.14"}) {
    EXPECT_FALSE(has(compatibility_findings(windows_k80(d), kb()), "driver-drops-gpu")) << d;
  }
  EXPECT_TRUE(has(compatibility_findings(windows_k80("496.13"), kb()), "driver-drops-gpu"));
}

TEST(DriverBranchNumbering, InWsl2TheWindowsDriverIsTheOneToChange) {
  auto fs = compatibility_findings(windows_k80("537.13", Platform::wsl2), kb());
  const Finding* f = find(fs, "driver-drops-gpu");
  ASSERT_NE(f, nullptr) << ids(fs);
  EXPECT_NE(f->fix.find("On Windows"), std::string::npos) << f->fix;
  EXPECT_NE(f->fix.find("not inside WSL2"), std::string::npos) << f->fix;
  EXPECT_EQ(f->fix.find("apt-get install"), std::string::npos) << f->fix;
  auto ok = compatibility_findings(windows_k80("475.14", Platform::wsl2), kb());
  EXPECT_FALSE(has(ok, "driver-drops-gpu"));
  // The WSL2 floor (528.33, sourced for CUDA 12) is past R470: its fix must not send the K80's
  // owner to a driver that drops the card.
  const Finding* floor = find(ok, "driver-below-wsl2-floor");
  ASSERT_NE(floor, nullptr) << ids(ok);
  EXPECT_EQ(floor->fix.find("Update the NVIDIA driver"), std::string::npos) << floor->fix;
  EXPECT_NE(floor->fix.find("No driver after the 470.xx branch"), std::string::npos) << floor->fix;
}

TEST(DriverBranchNumbering, APascalCardOnWindowsEndsWithR580sWindowsDrivers) {
  Facts f = windows_k80("582.66");
  f.gpus[0].name = f.gpus[0].kb_name = "NVIDIA GeForce GTX 1080";
  f.gpus[0].cc_major = 6;
  f.gpus[0].cc_minor = 1;
  EXPECT_FALSE(has(compatibility_findings(f, kb()), "driver-drops-gpu"));
  f.driver.version = v("591.44");
  EXPECT_TRUE(has(compatibility_findings(f, kb()), "driver-drops-gpu"));
}

TEST(DriverBranchNumbering, TheToolkitFixOnAWindowsK80SaysCuda11) {
  Facts f = windows_k80("475.14");
  ToolkitFacts tk;
  tk.path = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.2";
  tk.version = v("12.2.140");
  f.toolkits.push_back(tk);
  auto fs = compatibility_findings(f, kb());
  const Finding* t = find(fs, "driver-too-old-for-toolkit");
  ASSERT_NE(t, nullptr) << ids(fs);
  EXPECT_NE(t->fix.find("No driver after the 470.xx branch"), std::string::npos) << t->fix;
}

using testing::has_issue;

TEST(DriverBranchNumbering, TheWindowsPlanForAK80) {
  PlanRequest r;
  r.os = Platform::windows;
  r.gpu_name = "Tesla K80";
  r.cc = v("3.7");
  r.frameworks.push_back(*parse_framework_request("torch"));
  r.driver = v("537.13");
  const Plan p = resolve(r, kb());
  ASSERT_EQ(p.frameworks.size(), 1u);
  const FrameworkPlan& fp = p.frameworks[0];
  bool dropped = std::any_of(fp.rejected.begin(), fp.rejected.end(),
                             [](const PlanOption& o) { return has_issue(o, "gpu-dropped-by-driver"); });
  EXPECT_TRUE(dropped) << "CUDA 12 builds need a Windows driver >= 528.33, past R470";
  ASSERT_TRUE(fp.best.has_value());
  EXPECT_TRUE(has_issue(*fp.best, "driver-drops-gpu")) << fp.best->summary();
  auto step =
      std::find_if(fp.best->steps.begin(), fp.best->steps.end(), [](const PlanStep& s) { return s.id == "driver"; });
  ASSERT_NE(step, fp.best->steps.end());
  // Windows words: NVIDIA's R470 with where its Windows numbers end; no distribution packages.
  EXPECT_NE(step->title.find("of the R470 branch (Windows drivers below 495)"), std::string::npos) << step->title;
  EXPECT_EQ(step->detail.find("distribution"), std::string::npos) << step->detail;
  const PlanIssue* drops = nullptr;
  for (const PlanIssue& i : fp.best->issues) drops = i.id == "driver-drops-gpu" ? &i : drops;
  ASSERT_NE(drops, nullptr);
  EXPECT_NE(drops->message.find("install an R470 Windows driver"), std::string::npos) << drops->message;
  r.driver = v("475.14");
  const Plan ok = resolve(r, kb());
  ASSERT_TRUE(ok.frameworks[0].best.has_value());
  EXPECT_FALSE(has_issue(*ok.frameworks[0].best, "driver-drops-gpu")) << ok.frameworks[0].best->summary();
}

TEST(DriverBranchNumbering, ExplainsConditionOnWindows) {
  const std::string log = "failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected";
  Facts k80 = windows_k80("537.13");
  const auto r =
      explain_text(testing::builtin_matcher(), log, ExplainMachine{Platform::windows, &k80, &testing::builtin_kb()});
  const ExplainMatch* alt = testing::find_rule(r, "cuinit-no-device/legacy-gpu");
  ASSERT_NE(alt, nullptr);
  EXPECT_EQ(alt->facts_verdict, "supported");
  Facts ok = windows_k80("475.14");
  const auto r2 =
      explain_text(testing::builtin_matcher(), log, ExplainMachine{Platform::windows, &ok, &testing::builtin_kb()});
  const ExplainMatch* alt2 = testing::find_rule(r2, "cuinit-no-device/legacy-gpu");
  ASSERT_NE(alt2, nullptr);
  EXPECT_EQ(alt2->facts_verdict, "contradicted");
}

TEST(DriverBranchNumbering, InWsl2AK80IsNotRejectedByAFloorSourcedOnlyForCuda12) {
  // The WSL2 floor (528.33) is sourced for CUDA 12 builds only, and it lies past R470; NVIDIA's WSL
  // guide for CUDA 11.2 enables CUDA on WSL 2 from Kepler on. So a CUDA 11 build is offered,
  // unverified, on the R470 Windows driver, not rejected.
  PlanRequest r;
  r.os = Platform::wsl2;
  r.gpu_name = "Tesla K80";
  r.cc = v("3.7");
  r.driver = v("475.14");
  r.frameworks.push_back(*parse_framework_request("torch"));
  const Plan p = resolve(r, kb());
  ASSERT_EQ(p.frameworks.size(), 1u);
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best.has_value());
  const PlanOption& best = *fp.best;
  EXPECT_FALSE(best.verified()) << best.summary();
  EXPECT_TRUE(has_issue(best, "wsl2-driver-floor-past-branch")) << best.summary();
  ASSERT_TRUE(best.driver_min.has_value());
  EXPECT_LT(best.driver_min->major(), 495) << best.summary();
  EXPECT_FALSE(has_issue(best, "driver-drops-gpu")) << best.summary();
  // CUDA 12 builds still need 528.33 and are rejected for the K80.
  bool dropped = std::any_of(fp.rejected.begin(), fp.rejected.end(),
                             [](const PlanOption& o) { return has_issue(o, "gpu-dropped-by-driver"); });
  EXPECT_TRUE(dropped);
}

// ---- A distribution's own older branch that still drives the GPU --------------------------------

/// A GeForce GTX 1080 (Pascal, last branch 580.xx by its generation) on Linux with `driver`.
Facts debian_gtx1080(const char* driver, const char* version_id) {
  Facts f;
  f.platform = Platform::linux;
  f.os.id = "debian";
  f.os.version_id = version_id;
  GpuFacts g;
  g.source = "pci";
  g.name = "GP104 [GeForce GTX 1080]";
  g.pci_bus_id = "0000:01:00.0";
  g.pci_device_id = "1b80";
  g.cc_major = 6;
  g.cc_minor = 1;
  f.gpus.push_back(g);
  f.driver.version = v(driver);
  f.driver.version_source = "/proc/driver/nvidia/version";
  return f;
}

TEST(PackagedBranch, APascalCardOnDebian12IsToldDebiansOwn535) {
  auto fs = compatibility_findings(debian_gtx1080("590.44.01", "12"), kb());
  const Finding* f = find(fs, "driver-drops-gpu");
  ASSERT_NE(f, nullptr) << ids(fs);
  const DriverBranchPackage* p = kb().branch_package("debian", "12", 535);
  ASSERT_NE(p, nullptr);
  EXPECT_NE(f->fix.find("packages the 535 branch"), std::string::npos) << f->fix;
  EXPECT_NE(f->fix.find("`sudo apt-get install " + p->package + "`"), std::string::npos) << f->fix;
  EXPECT_EQ(f->fix.find("packages no 580.xx driver"), std::string::npos) << f->fix;
  // What 535 gives up against 580: the newest toolkits' own drivers (CUDA 12.2 vs 12.9; CUDA 12
  // is Pascal's last), not a CUDA major.
  EXPECT_NE(f->fix.find("CUDA 12.2 is the newest toolkit whose own driver it is (12.2 Update 2: 535.104.05)"),
            std::string::npos)
      << f->fix;
  EXPECT_NE(f->fix.find("with the 580.xx branch CUDA 12.9"), std::string::npos) << f->fix;
  // The detail's toolkit for 580.xx stops at the generation's last CUDA too.
  EXPECT_EQ(f->detail.find("CUDA 13.0 is the newest toolkit"), std::string::npos) << f->detail;
  EXPECT_NE(f->detail.find("CUDA 12.9 is the newest toolkit"), std::string::npos) << f->detail;
}

TEST(PackagedBranch, Debian13Gets550AndTheK80StillItsOwnBranch) {
  auto fs = compatibility_findings(debian_gtx1080("590.44.01", "13"), kb());
  const Finding* f = find(fs, "driver-drops-gpu");
  ASSERT_NE(f, nullptr) << ids(fs);
  EXPECT_NE(f->fix.find("packages the 550 branch"), std::string::npos) << f->fix;
  // No Debian 13 package is of 470 or older: NVIDIA's 470.xx, as before.
  Facts k80 = debian_gtx1080("550.163.01", "13");
  k80.gpus[0].name = "GK210GL [Tesla K80]";
  k80.gpus[0].pci_device_id = "102d";
  k80.gpus[0].cc_major = 3;
  k80.gpus[0].cc_minor = 7;
  auto ks = compatibility_findings(k80, kb());
  const Finding* k = find(ks, "driver-drops-gpu");
  ASSERT_NE(k, nullptr) << ids(ks);
  EXPECT_NE(k->fix.find("Debian 13 (trixie) packages no 470.xx driver"), std::string::npos) << k->fix;
}

// ---- Kepler 3.5 Teslas: the same answers as the K80 --------------------------------------------

TEST(KeplerTeslas, K20AndK40AreKnownWithTheirBranch) {
  for (const char* name : {"Tesla K40", "Tesla K40m", "Tesla K40c", "Tesla K20Xm", "Tesla K20X", "Tesla K20m"}) {
    auto cc = kb().compute_capability(name);
    ASSERT_TRUE(cc.has_value()) << name;
    EXPECT_EQ(cc->str(), "3.5") << name;
    auto b = kb().last_driver_branch("", name, cc);
    ASSERT_TRUE(b.has_value()) << name;
    EXPECT_EQ(b->branch, "470.xx") << name;
  }
  // By PCI name, from the drivers' own lists where every device of the name is listed.
  auto k20xm = kb().last_driver_branch("", "Tesla K20Xm", v("3.5"));
  ASSERT_TRUE(k20xm.has_value());
  EXPECT_EQ(k20xm->source, kb().legacy_branch("1021")->source);
}

TEST(KeplerTeslas, AK40PlanNeverClaimsTorchKernelsItHasNot) {
  PlanRequest r;
  r.os = Platform::linux;
  r.gpu_name = "Tesla K40";
  r.cc = v("3.5");
  r.frameworks.push_back(*parse_framework_request("tensorflow"));
  r.frameworks.push_back(*parse_framework_request("torch"));
  const Plan p = resolve(r, kb());
  ASSERT_EQ(p.frameworks.size(), 2u);
  // TensorFlow 2.10-2.14 list sm_35: a verified plan on the 470.xx branch.
  const FrameworkPlan& tf = p.frameworks[0];
  ASSERT_TRUE(tf.best.has_value());
  EXPECT_TRUE(tf.best->verified()) << tf.best->summary();
  EXPECT_EQ(tf.best->coverage, "native") << tf.best->summary();
  ASSERT_TRUE(tf.best->driver_min.has_value());
  EXPECT_LE(tf.best->driver_min->major(), 470);
  // No recorded torch list has sm_35: whatever is offered is not verified.
  const FrameworkPlan& torch = p.frameworks[1];
  if (torch.best) EXPECT_FALSE(torch.best->verified()) << torch.best->summary();
  for (const PlanOption& o : torch.alternatives) EXPECT_FALSE(o.verified()) << o.summary();
}

TEST(KeplerTeslas, TheMatrixCallsAnUnrecordedTorchListDerivedNotNative) {
  // As for TensorFlow's rows: a torch variant whose own list is unrecorded (cu118) is an
  // assumption from its toolkit's list, which a K40 or K80 cannot take for kernels.
  for (const char* name : {"Tesla K40", "Tesla K80", "NVIDIA GeForce RTX 3060"}) {
    MatrixFilter f;
    f.framework = Framework::pytorch;
    f.cc = kb().compute_capability(name);
    ASSERT_TRUE(f.cc.has_value()) << name;
    int rows = 0;
    for (const MatrixRow& r : matrix_framework_rows(kb(), f)) {
      ++rows;
      if (r.archs.empty() || r.archs.starts_with(">="))
        EXPECT_NE(r.gpu, "native") << name << ": " << r.version << " " << r.variant;
    }
    EXPECT_GT(rows, 0) << name;
  }
}

}  // namespace
}  // namespace gpudoctor
