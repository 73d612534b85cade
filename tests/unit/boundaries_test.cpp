// Every floor and range check at its edge: exactly at the floor is fine, one step below is
// not. The floors are read from the knowledge base, never written here, so a table update
// moves the test with it.
#include <gtest/gtest.h>

#include "check/compat_checks.hpp"
#include "check_test_support.hpp"
#include "kb/knowledge_base.hpp"

namespace gpudoctor {
namespace {

using testing::builtin_kb;
using testing::v;

/// The version one step below: the last non-zero component decremented (535.104.05 ->
/// 535.104.04, 528.33 -> 528.32, 525 -> 524).
Version just_below(const Version& x) {
  std::vector<int> parts = x.parts();
  for (size_t i = parts.size(); i-- > 0;) {
    if (parts[i] > 0) {
      --parts[i];
      break;
    }
  }
  std::string s;
  for (size_t i = 0; i < parts.size(); ++i) s += (i ? "." : "") + std::to_string(parts[i]);
  return v(s.c_str());
}

TEST(JustBelow, IsTheNextLowerVersion) {
  EXPECT_EQ(just_below(v("528.33")), v("528.32"));
  EXPECT_LT(just_below(v("525.60.13")), v("525.60.13"));
}

using testing::env_with;
using testing::ids;
using testing::machine;

using testing::has;
using testing::torch;

/// Runs the checks with the framework/toolkit setup `add` on a machine with `driver`.
template <typename Add>
std::vector<Finding> on_driver(Platform p, const char* gpu, const Version& driver, Add add) {
  Facts f = machine(p, gpu, driver);
  add(f);
  return compatibility_findings(f, builtin_kb());
}

TEST(Boundaries, FrameworkDriverFloorExactlyAtIsEnough) {
  auto floor = builtin_kb().family_min_driver(v("12.1"), Platform::linux);
  ASSERT_TRUE(floor);
  auto add = [](Facts& f) { f.python_envs.push_back(env_with("3.11.4", torch("2.3.1+cu121", "cu121"))); };
  auto at = on_driver(Platform::linux, "NVIDIA GeForce RTX 3060", *floor, add);
  EXPECT_FALSE(has(at, "driver-too-old-for-framework")) << "driver " << floor->str() << ": " << ids(at);
  auto below = on_driver(Platform::linux, "NVIDIA GeForce RTX 3060", just_below(*floor), add);
  EXPECT_TRUE(has(below, "driver-too-old-for-framework")) << ids(below);
}

ToolkitFacts toolkit(const char* version) {
  ToolkitFacts tk;
  tk.path = "/usr/local/cuda";
  tk.version = v(version);
  tk.kind = "system";
  return tk;
}

TEST(Boundaries, ToolkitFamilyFloorAndFullDriverExactlyAt) {
  const auto& kb = builtin_kb();
  auto family = kb.family_min_driver(v("12.2"), Platform::linux);
  auto full = kb.min_driver_for_cuda(v("12.2"), Platform::linux);
  ASSERT_TRUE(family && full);
  ASSERT_LT(*family, *full);
  auto add = [](Facts& f) { f.toolkits.push_back(toolkit("12.2.2")); };
  auto at_family = on_driver(Platform::linux, "NVIDIA GeForce RTX 3060", *family, add);
  EXPECT_FALSE(has(at_family, "driver-too-old-for-toolkit")) << ids(at_family);
  EXPECT_TRUE(has(at_family, "toolkit-minor-version-compat")) << ids(at_family);
  auto below = on_driver(Platform::linux, "NVIDIA GeForce RTX 3060", just_below(*family), add);
  EXPECT_TRUE(has(below, "driver-too-old-for-toolkit")) << ids(below);
  auto at_full = on_driver(Platform::linux, "NVIDIA GeForce RTX 3060", *full, add);
  EXPECT_FALSE(has(at_full, "toolkit-minor-version-compat")) << ids(at_full);
  EXPECT_FALSE(has(at_full, "driver-too-old-for-toolkit")) << ids(at_full);
}

TEST(Boundaries, Wsl2IsJudgedByTheWindowsDriverFloors) {
  const auto& kb = builtin_kb();
  auto linux_floor = kb.family_min_driver(v("12.2"), Platform::linux);
  auto windows_floor = kb.family_min_driver(v("12.2"), Platform::windows);
  ASSERT_TRUE(linux_floor && windows_floor);
  ASSERT_LT(*linux_floor, *windows_floor) << "the test needs a Windows floor above the Linux one";
  auto add = [](Facts& f) {
    f.toolkits.push_back(toolkit("12.2.2"));
    f.python_envs.push_back(env_with("3.11.4", torch("2.3.1+cu121", "cu121")));
  };
  // A driver that passes the Linux floor but not the Windows one: an error under WSL2 only.
  auto wsl = on_driver(Platform::wsl2, "NVIDIA GeForce RTX 3060", *linux_floor, add);
  EXPECT_TRUE(has(wsl, "driver-too-old-for-toolkit")) << ids(wsl);
  EXPECT_TRUE(has(wsl, "driver-too-old-for-framework")) << ids(wsl);
  auto lin = on_driver(Platform::linux, "NVIDIA GeForce RTX 3060", *linux_floor, add);
  EXPECT_FALSE(has(lin, "driver-too-old-for-toolkit")) << ids(lin);
  EXPECT_FALSE(has(lin, "driver-too-old-for-framework")) << ids(lin);
  auto wsl_at = on_driver(Platform::wsl2, "NVIDIA GeForce RTX 3060", *windows_floor, add);
  EXPECT_FALSE(has(wsl_at, "driver-too-old-for-toolkit")) << ids(wsl_at);
  EXPECT_FALSE(has(wsl_at, "driver-too-old-for-framework")) << ids(wsl_at);
}

TEST(Boundaries, Wsl2SourcedFloorExactlyAt) {
  const auto& floor = builtin_kb().tensorflow.wsl2_min_driver;
  ASSERT_TRUE(floor);
  auto none = [](Facts&) {};
  EXPECT_FALSE(has(on_driver(Platform::wsl2, "NVIDIA GeForce RTX 3060", *floor, none), "driver-below-wsl2-floor"));
  EXPECT_TRUE(
      has(on_driver(Platform::wsl2, "NVIDIA GeForce RTX 3060", just_below(*floor), none), "driver-below-wsl2-floor"));
}

TEST(Boundaries, ArchitectureDriverFloorExactlyAt) {
  const auto& kb = builtin_kb();
  auto cc = kb.compute_capability("NVIDIA GeForce RTX 5090");
  ASSERT_TRUE(cc);
  for (Platform p : {Platform::linux, Platform::windows}) {
    auto floor = kb.arch_driver_floor(*cc, p);
    ASSERT_TRUE(floor);
    auto none = [](Facts&) {};
    EXPECT_FALSE(has(on_driver(p, "NVIDIA GeForce RTX 5090", floor->driver, none), "driver-too-old-for-gpu"))
        << floor->driver.str();
    EXPECT_TRUE(
        has(on_driver(p, "NVIDIA GeForce RTX 5090", just_below(floor->driver), none), "driver-too-old-for-gpu"));
  }
}

TEST(Boundaries, JaxDriverFloorExactlyAt) {
  const auto& kb = builtin_kb();
  const JaxVariant* jv = kb.jax_variant("cuda12");
  ASSERT_NE(jv, nullptr);
  Version floor = jv->driver_linux;
  if (auto fam = kb.family_min_driver(jv->built_cuda, Platform::linux); fam && *fam > floor) floor = *fam;
  auto add = [](Facts& f) {
    f.python_envs.push_back(env_with("3.12.4", testing::cuda_framework("jax", "0.6.2", "cuda12")));
  };
  auto at = on_driver(Platform::linux, "NVIDIA RTX A6000", floor, add);
  EXPECT_FALSE(has(at, "driver-too-old-for-framework")) << floor.str() << ": " << ids(at);
  auto below = on_driver(Platform::linux, "NVIDIA RTX A6000", just_below(floor), add);
  EXPECT_TRUE(has(below, "driver-too-old-for-framework")) << ids(below);
}

TEST(Boundaries, PythonRangeEndsAreInside) {
  // torch's Python range for a release, from the table: both ends are supported, one minor
  // past either end is not.
  const auto& kb = builtin_kb();
  const TorchRelease* r = kb.torch_release(v("2.3.1"));
  ASSERT_NE(r, nullptr);
  auto lo = r->python.lowest();
  auto hi = r->python.highest();
  ASSERT_TRUE(lo && hi) << r->python.text();
  auto run = [&](const Version& py) {
    Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 3060", v("550.54.14"));
    PythonEnvFacts e = env_with("3.11.4", torch("2.3.1+cu121", "cu121"));
    e.python_version = py;
    f.python_envs.push_back(e);
    return compatibility_findings(f, kb);
  };
  const Version lo2 = lo->truncated(2);
  const Version hi2 = hi->truncated(2);
  EXPECT_FALSE(has(run(lo2), "framework-python-unsupported")) << lo2.str();
  EXPECT_FALSE(has(run(hi2), "framework-python-unsupported")) << hi2.str();
  EXPECT_TRUE(has(run(Version::of({hi2.major(), hi2.minor() + 1})), "framework-python-unsupported"));
  EXPECT_TRUE(has(run(Version::of({lo2.major(), lo2.minor() - 1})), "framework-python-unsupported"));
}

}  // namespace
}  // namespace gpudoctor
