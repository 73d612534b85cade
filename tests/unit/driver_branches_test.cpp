// The last driver branch of each GPU (compat/driver_branches.toml, read from NVIDIA's own
// supported-gpus.json in Debian's driver packages), the generations' last_driver_branch that
// must agree with it, and the doctor rule for a GPU the installed driver no longer drives.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "check/checks.hpp"
#include "check/compat_checks.hpp"
#include "check_test_support.hpp"
#include "core/text.hpp"
#include "kb/knowledge_base.hpp"
#include "kb/resolver.hpp"

namespace gpudoctor {
namespace {

using testing::find;
using testing::has;
using testing::ids;
using testing::v;

using testing::kb;

TEST(KbDriverBranches, EachRowNamesThePackageItWasReadFrom) {
  ASSERT_FALSE(kb().legacy_branches.empty());
  for (const LegacyDriverBranch& b : kb().legacy_branches) {
    EXPECT_TRUE(b.source.starts_with("[artefact] ")) << b.branch;
    EXPECT_NE(b.source.find("sha256 "), std::string::npos) << b.source;
    EXPECT_NE(b.source.find("supported-gpus.json"), std::string::npos) << b.source;
    EXPECT_FALSE(b.devices.empty()) << b.branch;
  }
  for (const DriverBranchPackage& p : kb().branch_packages) {
    EXPECT_NE(p.source.find("sha256 "), std::string::npos) << p.package;
  }
}

TEST(KbDriverBranches, TeslaK80AndKeplerEndAt470) {
  const LegacyDriverBranch* k80 = kb().legacy_branch("102d");  // GK210GL [Tesla K80]
  ASSERT_NE(k80, nullptr);
  EXPECT_EQ(k80->major, 470);
  EXPECT_EQ(k80->branch, "470.xx");
  ASSERT_NE(kb().legacy_branch("1180"), nullptr);  // GK104 [GeForce GTX 680]
  EXPECT_EQ(kb().legacy_branch("1180")->major, 470);
  ASSERT_NE(kb().legacy_branch("11bf"), nullptr);  // GK104GL [GRID K2]: ended earlier
  EXPECT_EQ(kb().legacy_branch("11bf")->major, 367);
  EXPECT_EQ(kb().legacy_branch("1b80"), nullptr);  // GP104 [GeForce GTX 1080]: still driven
  EXPECT_EQ(kb().legacy_branch("2330"), nullptr);  // GH100 [H100 SXM5 80GB]
  EXPECT_EQ(kb().legacy_branch("102D"), nullptr);  // ids are lower case, as the probe writes them
}

TEST(KbDriverBranches, DebianTwelvePackagesThe470Branch) {
  const DriverBranchPackage* p = kb().branch_package("debian", "12", 470);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->package, "nvidia-tesla-470-driver");
  EXPECT_EQ(kb().branch_package("debian", "13", 470), nullptr);  // trixie has no 470 package
  EXPECT_EQ(kb().branch_package("ubuntu", "12", 470), nullptr);
}

TEST(KbDriverBranches, NamedGpusMapToTheirPciDevices) {
  auto k80 = kb().pci_devices_named("Tesla K80");
  EXPECT_EQ(k80, std::vector<std::string>{"102d"});
  EXPECT_EQ(kb().pci_devices_named("NVIDIA Tesla K80"), k80);
  EXPECT_TRUE(kb().pci_devices_named("Tesla K81").empty());
}

TEST(KbDriverBranches, EveryBoardThePciDatabaseNamesFindsItsDevice) {
  // Each marketing name in brackets, as NVML or a person would write it (other case, other
  // spacing), finds its own device: a shortcut in the search must not lose one.
  size_t checked = 0;
  for (const auto& [device, pci_name] : kb().pci_names) {
    const auto open = pci_name.find('[');
    const auto close = pci_name.rfind(']');
    if (open == std::string::npos || close == std::string::npos || close <= open + 1) continue;
    const std::string marketing = pci_name.substr(open + 1, close - open - 1);
    for (std::string_view part : split(marketing, '/')) {
      const std::string name(trim(part));
      if (normalize_gpu_name(name).empty()) continue;
      // One way of writing it per name, in turn (all three for every name cost seconds in ASan).
      const std::string asked = checked % 3 == 0 ? name : checked % 3 == 1 ? to_lower(name) : "NVIDIA  " + name;
      const auto found = kb().pci_devices_named(asked);
      EXPECT_NE(std::find(found.begin(), found.end(), device), found.end()) << asked << " -> " << device;
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000u);
}

// ---- cuda_arch.toml's last_driver_branch against the drivers' own lists --------------------

/// The architecture generation of a PCI device, from its chip in the PCI ID database
/// ("GK210GL [Tesla K80]" -> Kepler); empty for chips no generation row covers.
std::string generation_of_chip(const std::string& pci_name) {
  static const std::vector<std::pair<std::string, std::string>> kChips = {
      {"GK10", "Kepler (GK10x)"}, {"GK11", "Kepler"}, {"GK18", "Kepler"}, {"GK20", "Kepler"},
      {"GK21", "Kepler"},         {"GM", "Maxwell"},  {"GP", "Pascal"},   {"GV", "Volta"},
      {"TU", "Turing"},           {"GA", "Ampere"},   {"AD", "Ada"},      {"GH", "Hopper"},
      {"GB", "Blackwell"}};
  for (const auto& [prefix, gen] : kChips) {
    if (pci_name.starts_with(prefix)) return gen;
  }
  return "";
}

/// Where a generation's last_driver_branch says something the legacy rows contradict: a branch
/// other than the newest its devices end at, or "ongoing"/R580 for a generation whose devices
/// all ended earlier.
std::vector<std::string> branch_disagreements(const KnowledgeBase& base) {
  std::map<std::string, int> newest_end;  // generation -> newest legacy branch of its devices
  for (const auto& [device, name] : base.pci_names) {
    std::string gen = generation_of_chip(name);
    if (gen.empty()) continue;
    if (const LegacyDriverBranch* b = base.legacy_branch(device)) newest_end[gen] = std::max(newest_end[gen], b->major);
  }
  std::vector<std::string> out;
  std::map<std::string, bool> seen;
  for (const ArchGeneration& g : base.generations) {
    if (seen[g.name]) continue;  // Blackwell's three rows share a name
    seen[g.name] = true;
    auto end = newest_end.find(g.name);
    const std::string said = g.last_driver_branch;
    if (end == newest_end.end()) continue;  // every device still driven: nothing to contradict
    const std::string read = "R" + std::to_string(end->second);
    if (said != read) out.push_back(g.name + ": last_driver_branch '" + said + "', the drivers' lists say " + read);
  }
  return out;
}

TEST(KbDriverBranches, GenerationsAgreeWithTheDriversOwnLists) {
  auto bad = branch_disagreements(kb());
  EXPECT_TRUE(bad.empty()) << ::testing::PrintToString(bad);
}

/// Devices of a generation with a stated last branch that the lookup leaves without one. The
/// legacy lists miss many (Quadro K420, 10de:0ff3: 470.256.02 lists it as supported, 535 and
/// 555 do not list it at all, so no package calls it legacy): the generation's branch covers them.
std::vector<std::string> stated_but_driven(const KnowledgeBase& base) {
  std::vector<std::string> out;
  for (const auto& [device, name] : base.pci_names) {
    std::string gen = generation_of_chip(name);
    if (gen.empty() || name.find("Audio") != std::string::npos) continue;
    for (const ArchGeneration& g : base.generations) {
      if (g.name != gen || g.last_driver_branch.empty() || g.cc.empty()) continue;
      if (!base.last_driver_branch(device, "", g.cc.front())) out.push_back(device + " " + name);
      break;
    }
  }
  return out;
}

TEST(KbDriverBranches, NoDeviceOfAnEndedGenerationIsLeftWithoutABranch) {
  auto driven = stated_but_driven(kb());
  EXPECT_TRUE(driven.empty()) << ::testing::PrintToString(driven);
  // Quadro K420 (GK107GL, Kepler GK10x): in no legacy list, so its branch is the generation's.
  ASSERT_EQ(kb().legacy_branch("0ff3"), nullptr);
  auto k420 = kb().last_driver_branch("0ff3", "", v("3.0"));
  ASSERT_TRUE(k420.has_value());
  EXPECT_EQ(k420->major, 470);
  EXPECT_NE(k420->source.find("Kepler (GK10x)"), std::string::npos) << k420->source;
}

TEST(KbDriverBranches, ADisagreementIsCaught) {
  KnowledgeBase planted = kb();
  for (ArchGeneration& g : planted.generations) {
    if (g.name == "Kepler (GK10x)") g.last_driver_branch = "";  // as before the artefact was read
    if (g.name == "Kepler") g.last_driver_branch = "R390";
  }
  auto bad = branch_disagreements(planted);
  ASSERT_EQ(bad.size(), 2u) << ::testing::PrintToString(bad);
  EXPECT_NE(bad[0].find("R470"), std::string::npos) << bad[0];
}

// ---- The doctor: a GPU the installed driver does not drive -----------------------------------

/// A Tesla K80 seen only in sysfs (the driver does not bind it), with a driver known from
/// libcuda's file name, on Debian 12.
Facts k80_with(const char* driver, const char* os_id = "debian", const char* os_version = "12") {
  Facts f;
  f.platform = Platform::linux;
  f.os.id = os_id;
  f.os.version_id = os_version;
  for (const char* bus : {"0000:05:00.0", "0000:06:00.0"}) {
    GpuFacts g;
    g.source = "pci";
    g.name = "GK210GL [Tesla K80]";
    g.pci_bus_id = bus;
    g.pci_device_id = "102d";
    f.gpus.push_back(g);
  }
  f.driver.version = v(driver);
  f.driver.version_source = "/usr/lib/x86_64-linux-gnu/libcuda.so.1 (file name)";
  return f;
}

TEST(DriverDropsGpu, TeslaK80WithDriver535IsAnError) {
  auto fs = compatibility_findings(k80_with("535.261.03"), kb());
  const Finding* f = find(fs, "driver-drops-gpu");
  ASSERT_NE(f, nullptr) << ids(fs);
  EXPECT_EQ(f->severity, Severity::error);
  EXPECT_NE(f->title.find("470.xx"), std::string::npos) << f->title;
  EXPECT_NE(f->title.find("Tesla K80"), std::string::npos) << f->title;
  // The fix names Debian 12's package of the branch, read from the table.
  const DriverBranchPackage* p = kb().branch_package("debian", "12", 470);
  ASSERT_NE(p, nullptr);
  EXPECT_NE(f->fix.find("apt-get install " + p->package), std::string::npos) << f->fix;
  // With 470, the newest toolkit is the one whose own driver is of that branch (CUDA 11.4).
  const CudaDriverRow* row = kb().newest_toolkit_for_branch(470);
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->cuda.truncated(2).str(), "11.4");
  EXPECT_NE(f->detail.find("CUDA " + row->cuda.truncated(2).str() + " is the newest toolkit"), std::string::npos)
      << f->detail;
  EXPECT_NE(f->detail.find("CUDA 11.x builds run"), std::string::npos) << f->detail;
  EXPECT_NE(f->detail.find("CUDA 12 needs " + kb().family_for_cuda(v("12.0"))->linux.str()), std::string::npos)
      << f->detail;
  EXPECT_EQ(f->source, kb().legacy_branch("102d")->source);
  // Both boards' GPUs are named in the evidence, by bus.
  ASSERT_GE(f->evidence.size(), 2u);
  EXPECT_NE(f->evidence[0].find("10de:102d"), std::string::npos);
}

TEST(DriverDropsGpu, TheBranchItselfAndOlderDriversAreFine) {
  EXPECT_FALSE(has(compatibility_findings(k80_with("470.256.02"), kb()), "driver-drops-gpu"));
  EXPECT_FALSE(has(compatibility_findings(k80_with("460.106.00"), kb()), "driver-drops-gpu"));
  // The next branch after 470 already drops it.
  EXPECT_TRUE(has(compatibility_findings(k80_with("495.29.05"), kb()), "driver-drops-gpu"));
}

TEST(DriverDropsGpu, AGpuStillDrivenIsNotFlagged) {
  Facts f = k80_with("535.261.03");
  for (GpuFacts& g : f.gpus) g.pci_device_id = "2503";  // GA106 [GeForce RTX 3060]
  EXPECT_FALSE(has(compatibility_findings(f, kb()), "driver-drops-gpu"));
}

TEST(DriverDropsGpu, ElsewhereTheFixSaysWhichReleasesPackageTheBranch) {
  auto fs = compatibility_findings(k80_with("535.183.01", "arch", ""), kb());
  const Finding* f = find(fs, "driver-drops-gpu");
  ASSERT_NE(f, nullptr) << ids(fs);
  EXPECT_EQ(f->fix.find("sudo apt-get install"), std::string::npos) << f->fix;
  EXPECT_NE(f->fix.find("470"), std::string::npos) << f->fix;
  EXPECT_NE(f->fix.find("debian 12: nvidia-tesla-470-driver"), std::string::npos) << f->fix;
}

TEST(DriverDropsGpu, UbuntuIsToldItsOwnPackageNotDebians) {
  auto fs = compatibility_findings(k80_with("535.183.01", "ubuntu", "22.04"), kb());
  const Finding* f = find(fs, "driver-drops-gpu");
  ASSERT_NE(f, nullptr) << ids(fs);
  EXPECT_NE(f->fix.find("sudo apt-get install nvidia-driver-470`"), std::string::npos) << f->fix;
  EXPECT_NE(f->fix.find("sudo apt-get purge 'nvidia-driver-535*'"), std::string::npos) << f->fix;
  EXPECT_EQ(f->fix.find("debian"), std::string::npos) << f->fix;
}

TEST(DriverDropsGpu, DebianThirteenIsToldItHasNoPackageOfTheBranch) {
  auto fs = compatibility_findings(k80_with("550.163.01", "debian", "13"), kb());
  const Finding* f = find(fs, "driver-drops-gpu");
  ASSERT_NE(f, nullptr) << ids(fs);
  EXPECT_NE(f->fix.find("Debian 13 (trixie) packages no 470.xx driver"), std::string::npos) << f->fix;
  EXPECT_EQ(f->fix.find("apt-get install nvidia-tesla-470-driver"), std::string::npos) << f->fix;
}

TEST(DriverDropsGpu, DebianTwelveIsToldWhichPackagesToPurge) {
  const Finding* f = nullptr;
  auto fs = compatibility_findings(k80_with("535.261.03"), kb());
  f = find(fs, "driver-drops-gpu");
  ASSERT_NE(f, nullptr) << ids(fs);
  // The names are nvidia-driver 535.261.03-1's Depends (the .deb read for the harvest).
  EXPECT_NE(f->fix.find("`sudo apt-get purge nvidia-driver nvidia-driver-libs nvidia-driver-bin nvidia-kernel-dkms"),
            std::string::npos)
      << f->fix;
}

// ---- A generation's last branch when the device lists do not cover the GPU ------------------

/// A GeForce GTX 1080 (GP104, 10de:1b80, compute capability 6.1) on a driver of `driver`.
Facts gtx1080_with(const char* driver) {
  Facts f = k80_with(driver);
  f.gpus.resize(1);
  f.gpus[0].name = "GP104 [GeForce GTX 1080]";
  f.gpus[0].pci_device_id = "1b80";
  f.gpus[0].cc_major = 6;
  f.gpus[0].cc_minor = 1;
  return f;
}

TEST(DriverDropsGpu, APascalCardPastItsGenerationsBranchIsAnError) {
  ASSERT_EQ(kb().legacy_branch("1b80"), nullptr) << "the packages read (up to 555) still drive the GTX 1080";
  auto fs = compatibility_findings(gtx1080_with("590.44.01"), kb());
  const Finding* f = find(fs, "driver-drops-gpu");
  ASSERT_NE(f, nullptr) << ids(fs);
  EXPECT_NE(f->title.find("580.xx"), std::string::npos) << f->title;
  EXPECT_NE(f->source.find("compat/cuda_arch.toml generation Pascal"), std::string::npos) << f->source;
  EXPECT_NE(f->source.find("do not list this GPU"), std::string::npos) << f->source;
  // 580 runs CUDA 13, but CUDA 13 has no Pascal target: the detail says 12.
  EXPECT_EQ(f->detail.find("CUDA 13.x builds run"), std::string::npos) << f->detail;
  EXPECT_NE(f->detail.find("CUDA 12 is the last CUDA for Pascal GPUs"), std::string::npos) << f->detail;
  EXPECT_FALSE(has(compatibility_findings(gtx1080_with("580.65.06"), kb()), "driver-drops-gpu"));
  // A Jetson board's Volta (7.2) takes JetPack's driver: no branch.
  EXPECT_FALSE(kb().last_driver_branch("", "Jetson AGX Xavier", v("7.2")).has_value());
}

// ---- Other fixes must not send a legacy GPU's owner past its branch -------------------------

TEST(DriverDropsGpu, TheToolkitFixOnAK80SaysCuda11NotANewerDriver) {
  Facts f = k80_with("470.256.02");
  ToolkitFacts tk;
  tk.path = "/usr/local/cuda-12.2";
  tk.version = v("12.2.140");
  f.toolkits.push_back(tk);
  auto fs = compatibility_findings(f, kb());
  const Finding* t = find(fs, "driver-too-old-for-toolkit");
  ASSERT_NE(t, nullptr) << ids(fs);
  EXPECT_EQ(t->fix.find("Install NVIDIA driver >="), std::string::npos) << t->fix;
  EXPECT_NE(t->fix.find("No driver after the 470.xx branch drives the"), std::string::npos) << t->fix;
  EXPECT_NE(t->fix.find("for CUDA 11.x"), std::string::npos) << t->fix;
}

TEST(DriverDropsGpu, TheFrameworkFixOnAK80SaysCuda11NotANewerDriver) {
  Facts f = k80_with("470.256.02");
  PythonEnvFacts env;
  env.path = "/opt/venv";
  FrameworkFacts fw;
  fw.name = "torch";
  fw.package = "torch";
  fw.version = v("2.1.0");
  fw.cuda_version = v("12.1");
  fw.cuda_build = true;
  env.frameworks.push_back(fw);
  f.python_envs.push_back(env);
  auto fs = compatibility_findings(f, kb());
  const Finding* t = find(fs, "driver-too-old-for-framework");
  ASSERT_NE(t, nullptr) << ids(fs);
  EXPECT_EQ(t->fix.find("Update the NVIDIA driver"), std::string::npos) << t->fix;
  EXPECT_NE(t->fix.find("No driver after the 470.xx branch"), std::string::npos) << t->fix;
}

TEST(DriverDropsGpu, ADeclaredK80WithNoDriverGetsItsBranchNotDebiansDefault) {
  Facts f = k80_with("535.261.03");
  f.driver = DriverFacts{};
  f.gpus.resize(1);
  f.gpus[0] = GpuFacts{.name = "Tesla K80", .source = "declared"};
  auto fs = compatibility_findings(f, kb());
  const Finding* d = find(fs, "driver-missing-for-declared-gpu");
  ASSERT_NE(d, nullptr) << ids(fs);
  EXPECT_EQ(d->fix.find("install nvidia-driver firmware"), std::string::npos) << d->fix;
  EXPECT_NE(d->fix.find("apt-get install nvidia-tesla-470-driver"), std::string::npos) << d->fix;
  f.os.id = "rhel";
  f.os.version_id = "9";
  auto rhel = compatibility_findings(f, kb());
  d = find(rhel, "driver-missing-for-declared-gpu");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->fix.find("`sudo dnf module install nvidia-driver`"), std::string::npos) << d->fix;
  EXPECT_NE(d->fix.find("470.xx legacy driver"), std::string::npos) << d->fix;
}

TEST(DriverDropsGpu, AK80BesideAnRtx4090IsNotToldToInstall470) {
  Facts f = k80_with("535.261.03");
  GpuFacts rtx;
  rtx.source = "pci";
  rtx.name = "NVIDIA GeForce RTX 4090";
  rtx.pci_bus_id = "0000:81:00.0";
  rtx.pci_device_id = "2684";
  rtx.cc_major = 8;
  rtx.cc_minor = 9;
  f.gpus.push_back(rtx);
  auto fs = compatibility_findings(f, kb());
  const Finding* d = find(fs, "driver-drops-gpu");
  ASSERT_NE(d, nullptr) << ids(fs);
  EXPECT_NE(d->fix.find("No single driver drives both"), std::string::npos) << d->fix;
  EXPECT_NE(d->fix.find("RTX 4090"), std::string::npos) << d->fix;
  EXPECT_EQ(d->fix.find("apt-get install nvidia-tesla-470-driver"), std::string::npos) << d->fix;
}

TEST(DriverDropsGpu, ADeclaredCardIsKnownByItsName) {
  Facts f = k80_with("535.261.03");
  f.gpus.resize(1);
  f.gpus[0] = GpuFacts{.name = "Tesla K80", .source = "declared"};
  auto fs = compatibility_findings(f, kb());
  const Finding* d = find(fs, "driver-drops-gpu");
  ASSERT_NE(d, nullptr) << ids(fs);
  EXPECT_EQ(d->evidence.front(), "--gpu Tesla K80");
  // A name some still-driven board shares claims nothing; an unknown name neither.
  f.gpus[0].name = "GeForce GTX 1080";
  EXPECT_FALSE(has(compatibility_findings(f, kb()), "driver-drops-gpu"));
  f.gpus[0].name = "Tesla K81";
  EXPECT_FALSE(has(compatibility_findings(f, kb()), "driver-drops-gpu"));
}

TEST(DriverDropsGpu, ADeclaredCardsInventoryLineLosesItsTick) {
  Facts f = k80_with("535.261.03");
  f.gpus.resize(1);
  f.gpus[0] = GpuFacts{.name = "Tesla K80", .source = "declared"};
  auto fs = run_checks(f, &kb());
  ASSERT_TRUE(has(fs, "driver-drops-gpu")) << ids(fs);
  const Finding* item = find(fs, "gpu");
  ASSERT_NE(item, nullptr) << ids(fs);
  EXPECT_EQ(item->evidence.front(), "--gpu Tesla K80");
  EXPECT_EQ(item->severity, Severity::info) << item->title;
  EXPECT_NE(item->title.find("see ✗ Driver 535.261.03 does not drive"), std::string::npos) << item->title;
}

TEST(DriverDropsGpu, OnWindowsTheBranchEndsAtTheNextOne) {
  // Windows numbers R470's drivers 471.11 to 475.14; 535 is past it there too.
  Facts f = k80_with("535.261.03");
  f.platform = Platform::windows;
  EXPECT_TRUE(has(compatibility_findings(f, kb()), "driver-drops-gpu"));
  f.driver.version = v("475.14");
  EXPECT_FALSE(has(compatibility_findings(f, kb()), "driver-drops-gpu"));
}

// ---- The plan: never a driver that drops the GPU -------------------------------------------

using testing::has_issue;

std::vector<const PlanOption*> offered(const FrameworkPlan& fp) {
  std::vector<const PlanOption*> out;
  if (fp.best) out.push_back(&*fp.best);
  for (const PlanOption& o : fp.alternatives) out.push_back(&o);
  return out;
}

PlanRequest k80_plan(const char* framework, const char* driver = nullptr) {
  PlanRequest r;
  r.os = Platform::linux;
  r.gpu_name = "Tesla K80";
  r.python = v("3.8");
  if (driver) r.driver = v(driver);
  r.frameworks.push_back(*parse_framework_request(framework));
  return r;
}

TEST(DriverDropsGpu, ThePlanForAK80NeverOffersADriverPastItsBranch) {
  for (const char* fw : {"torch", "tensorflow", "jax"}) {
    Plan p = resolve(k80_plan(fw), kb());
    ASSERT_EQ(p.frameworks.size(), 1u);
    const FrameworkPlan& fp = p.frameworks[0];
    for (const PlanOption* o : offered(fp)) {
      if (!o->gpu || !o->driver_min) continue;
      EXPECT_LE(o->driver_min->major(), 470) << fw << ": " << o->summary();
    }
    // What needs CUDA 12 is rejected for the GPU, with the branch as the reason.
    bool dropped = std::any_of(fp.rejected.begin(), fp.rejected.end(),
                               [](const PlanOption& o) { return has_issue(o, "gpu-dropped-by-driver"); });
    EXPECT_TRUE(dropped) << fw;
  }
  // A GPU of the same plan still driven by new branches: no such issue.
  PlanRequest rtx = k80_plan("torch");
  rtx.gpu_name = "RTX 3060";
  for (const FrameworkPlan& fp : resolve(rtx, kb()).frameworks) {
    for (const PlanOption& o : fp.rejected) EXPECT_FALSE(has_issue(o, "gpu-dropped-by-driver")) << o.summary();
  }
}

TEST(DriverDropsGpu, ThePlanOnAK80WithDriver535SaysToInstallTheBranch) {
  // From the facts: the GPU by its PCI device id (its sysfs name is the PCI database's).
  PlanRequest r = k80_plan("torch==2.0", "535.261.03");
  r.gpu_name = "GK210GL [Tesla K80]";
  r.gpu_pci_device_id = "102d";
  Plan p = resolve(r, kb());
  ASSERT_EQ(p.frameworks.size(), 1u);
  const FrameworkPlan& fp = p.frameworks[0];
  auto options = offered(fp);
  ASSERT_FALSE(options.empty()) << "torch 2.0 cu117/cu118 run on 470";
  for (const PlanOption* o : options) {
    if (!o->gpu) continue;
    EXPECT_TRUE(has_issue(*o, "driver-drops-gpu")) << o->summary();
    auto step = std::find_if(o->steps.begin(), o->steps.end(), [](const PlanStep& s) { return s.id == "driver"; });
    ASSERT_NE(step, o->steps.end()) << o->summary();
    EXPECT_NE(step->title.find("of the 470.xx branch"), std::string::npos) << step->title;
    EXPECT_EQ(step->title.find("is new enough"), std::string::npos) << step->title;
  }
  // With 470 installed, nothing to change.
  r.driver = v("470.256.02");
  const Plan on_470 = resolve(r, kb());  // kept: offered() points into it
  for (const PlanOption* o : offered(on_470.frameworks[0])) {
    EXPECT_FALSE(has_issue(*o, "driver-drops-gpu")) << o->summary();
  }
}

// ---- The plan for a Tesla K80 (3.7): builds whose own lists have sm_37 -------------------------

TEST(KeplerPlans, TheK80GetsTheTorchWhoseWheelHasSm37) {
  PlanRequest r = k80_plan("torch");
  r.python.reset();
  Plan p = resolve(r, kb());
  ASSERT_EQ(p.frameworks.size(), 1u);
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best.has_value());
  const PlanOption& best = *fp.best;
  EXPECT_TRUE(best.verified()) << best.summary();
  EXPECT_EQ(best.coverage, "native") << best.summary();
  // Its list is the one read from the wheel, and it has 3.7.
  const TorchRelease* rel = kb().torch_release(best.version);
  ASSERT_NE(rel, nullptr) << best.summary();
  const TorchVariant* var = kb().torch_variant(*rel, best.variant);
  ASSERT_NE(var, nullptr) << best.summary();
  EXPECT_NE(std::find(var->archs.begin(), var->archs.end(), v("3.7")), var->archs.end()) << best.summary();
  EXPECT_NE(var->archs_source.find("[artefact]"), std::string::npos);
  ASSERT_TRUE(best.cuda.has_value());
  EXPECT_EQ(best.cuda->major(), 11);
  ASSERT_TRUE(best.driver_min.has_value());
  EXPECT_LE(best.driver_min->major(), 470);
  EXPECT_FALSE(best.coverage_assumed) << best.summary();
  // The cu118 builds of later releases live on PyTorch's own index, whose lists are not recorded:
  // assumed from CUDA 11.8's list, they rank after the build read from the wheel.
  const TorchRelease* later = kb().torch_release(v("2.6"));
  ASSERT_NE(later, nullptr);
  const TorchVariant* cu118 = kb().torch_variant(*later, "cu118");
  ASSERT_NE(cu118, nullptr);
  EXPECT_TRUE(cu118->archs.empty());
  PlanRequest asked = k80_plan("torch==2.6");
  asked.python.reset();
  Plan p26 = resolve(asked, kb());
  ASSERT_TRUE(p26.frameworks[0].best.has_value()) << "asked for, the assumed build is still offered";
  EXPECT_EQ(p26.frameworks[0].best->variant, "cu118");
  EXPECT_TRUE(p26.frameworks[0].best->coverage_assumed);
}

TEST(KeplerPlans, TheK80GetsTheTensorflowWhoseWheelHasSm35) {
  PlanRequest r = k80_plan("tensorflow");
  r.python.reset();
  Plan p = resolve(r, kb());
  ASSERT_EQ(p.frameworks.size(), 1u);
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  const PlanOption& best = *p.frameworks[0].best;
  EXPECT_TRUE(best.verified()) << best.summary();
  EXPECT_EQ(best.coverage, "native") << best.summary();
  const TfBuild* b = kb().tf_build(best.version, Platform::linux);
  ASSERT_NE(b, nullptr);
  // sm_35 SASS runs on 3.7 (same major, lower minor); the list is the wheel's build_info.py.
  EXPECT_NE(std::find(b->archs.begin(), b->archs.end(), v("3.5")), b->archs.end()) << best.summary();
  EXPECT_NE(b->archs_source.find("build_info.py"), std::string::npos);
  ASSERT_TRUE(b->cuda.has_value());
  EXPECT_EQ(b->cuda->major(), 11);
  ASSERT_TRUE(best.driver_min.has_value());
  EXPECT_LE(best.driver_min->major(), 470);
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

// ---- The doctor on a K80 with its own 470 driver and today's torch ---------------------------

FrameworkFacts torch_wheel(const char* version, const char* variant, const char* cuda) {
  FrameworkFacts fw;
  fw.name = "torch";
  fw.package = "torch";
  fw.version = v(version);
  fw.cuda_build = true;
  fw.variant = variant;
  fw.cuda_version = v(cuda);
  return fw;
}

TEST(KeplerDoctor, TodaysTorchOnAK80WithItsOwn470Driver) {
  // `pip install torch` of 2.5.1 gives the cu124 wheel: sm_50 and up, CUDA 12.
  Facts f = testing::machine(Platform::linux, "Tesla K80", "470.256.02");
  f.python_envs.push_back(testing::env_with("3.12.3", torch_wheel("2.5.1", "cu124", "12.4")));
  auto fs = compatibility_findings(f, kb());
  EXPECT_FALSE(has(fs, "driver-drops-gpu")) << "470 is the K80's own branch";
  const Finding* arch = find(fs, "gpu-arch-unsupported-by-framework");
  ASSERT_NE(arch, nullptr) << ids(fs);
  // Not 2.5's cu118 (its list is not recorded): the newest release whose wheel has sm_37.
  EXPECT_EQ(arch->fix.find("cu118"), std::string::npos) << arch->fix;
  EXPECT_NE(arch->fix.find("torch==2.0.*"), std::string::npos) << arch->fix;
  EXPECT_NE(arch->fix.find("whl/cu117"), std::string::npos) << arch->fix;
  // The CUDA 12 build needs 525, which no longer drives a K80: never "update the driver".
  const Finding* drv = find(fs, "driver-too-old-for-framework");
  ASSERT_NE(drv, nullptr) << ids(fs);
  EXPECT_EQ(drv->fix.find("Update the NVIDIA driver"), std::string::npos) << drv->fix;
  EXPECT_NE(drv->fix.find("470.xx"), std::string::npos) << drv->fix;
  EXPECT_NE(drv->fix.find("CUDA 11.x"), std::string::npos) << drv->fix;
  // A GPU still driven by new branches keeps the usual advice.
  Facts rtx = testing::machine(Platform::linux, "NVIDIA GeForce RTX 3060", "470.256.02");
  rtx.python_envs.push_back(testing::env_with("3.12.3", torch_wheel("2.5.1", "cu124", "12.4")));
  auto rtx_findings = compatibility_findings(rtx, kb());
  const Finding* d2 = find(rtx_findings, "driver-too-old-for-framework");
  ASSERT_NE(d2, nullptr);
  EXPECT_NE(d2->fix.find("Update the NVIDIA driver"), std::string::npos) << d2->fix;
}

TEST(DriverDropsGpu, ThePlanForAPascalCardOnDriver590SaysTheBranch) {
  PlanRequest r = k80_plan("torch", "590.44.01");
  r.gpu_name = "GP104 [GeForce GTX 1080]";
  r.gpu_pci_device_id = "1b80";
  r.cc = v("6.1");
  Plan p = resolve(r, kb());
  ASSERT_EQ(p.frameworks.size(), 1u);
  auto options = offered(p.frameworks[0]);
  ASSERT_FALSE(options.empty());
  for (const PlanOption* o : options) {
    if (o->gpu) EXPECT_TRUE(has_issue(*o, "driver-drops-gpu")) << o->summary();
  }
}

}  // namespace
}  // namespace gpudoctor
