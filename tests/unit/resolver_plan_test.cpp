#include <gtest/gtest.h>

#include "kb/annotate_facts.hpp"
#include "kb/knowledge_base.hpp"
#include "kb/resolver.hpp"
#include "kb_test_support.hpp"
#include "model/facts.hpp"

namespace gpudoctor {
namespace {

using testing::kb;

using testing::v;

PlanRequest described(Platform os, const char* gpu, const char* python, std::vector<const char*> fws,
                      const char* driver = nullptr) {
  PlanRequest r;
  r.os = os;
  r.gpu_name = gpu;
  if (python) r.python = v(python);
  if (driver) r.driver = v(driver);
  for (const char* f : fws) r.frameworks.push_back(*parse_framework_request(f));
  return r;
}

using testing::has_issue;

std::string all_commands(const PlanOption& o) {
  std::string s;
  for (const PlanStep& st : o.steps) {
    for (const PlanCommand& c : st.commands) s += c.line + "\n";
  }
  return s;
}

/// The classic blog recipe: Windows 11, RTX 3060, Python 3.11, TF 2.15 "with CUDA 12.2 and
/// cuDNN 8.9 copied into the toolkit". Native Windows TF 2.15 gets no GPU.
TEST(ResolverPlan, BlogRecipeWindowsTf215) {
  Plan p = resolve(described(Platform::windows, "RTX 3060", "3.11", {"tensorflow==2.15"}), kb());
  EXPECT_EQ(p.cc, v("8.6"));
  ASSERT_EQ(p.frameworks.size(), 1u);
  const FrameworkPlan& fp = p.frameworks[0];
  // The native-Windows build is rejected, and says why.
  ASSERT_FALSE(fp.rejected.empty());
  const PlanOption& native = fp.rejected.front();
  EXPECT_EQ(native.route, Platform::windows);
  EXPECT_FALSE(native.gpu);
  EXPECT_TRUE(has_issue(native, "tf-native-windows-no-gpu"));
  // Best: WSL2 with TF 2.15 via [and-cuda] (2.15.1, the newest patch: no tensorrt pin). The
  // Python there is Ubuntu 24.04's 3.12, not Windows' 3.11, and outside 2.15's range: a conda
  // environment with Python 3.11, from a Miniforge the plan installs (found in review: the plan
  // ran `python3.11 -m venv` in a distribution that has no python3.11).
  ASSERT_TRUE(fp.best.has_value());
  EXPECT_EQ(fp.best->route, Platform::wsl2);
  EXPECT_EQ(fp.best->version, v("2.15"));
  EXPECT_EQ(fp.best->variant, "and-cuda");
  EXPECT_TRUE(fp.best->python_change);
  EXPECT_EQ(fp.best->python, v("3.11"));
  EXPECT_NE(all_commands(*fp.best).find("bash /tmp/miniforge.sh -b -u"), std::string::npos);
  EXPECT_NE(all_commands(*fp.best).find("conda create -y -n tf215 python=3.11"), std::string::npos);
  EXPECT_NE(all_commands(*fp.best).find("wsl --install -d Ubuntu-24.04"), std::string::npos);
  EXPECT_NE(all_commands(*fp.best).find("tensorflow[and-cuda]==2.15.1"), std::string::npos);
  EXPECT_NE(all_commands(*fp.best).find("wsl --install"), std::string::npos);
  // Alternatives: a newer TF in WSL2, and native TF 2.10 + CUDA 11.2 + cuDNN 8.1 + Python <= 3.10.
  bool newer_wsl = false, native210 = false;
  for (const PlanOption& a : fp.alternatives) {
    if (a.route == Platform::wsl2 && a.version > v("2.15")) newer_wsl = true;
    if (a.route == Platform::windows && a.version == v("2.10")) {
      native210 = true;
      EXPECT_EQ(a.cuda, v("11.2"));
      EXPECT_EQ(a.cudnn, v("8.1"));
      EXPECT_TRUE(a.python_change);
      ASSERT_TRUE(a.python.has_value());
      EXPECT_LE(*a.python, v("3.10"));
      EXPECT_TRUE(has_issue(a, "python-outside-range"));
      std::string cmds = all_commands(a);
      EXPECT_NE(cmds.find("cudatoolkit=11.2 cudnn=8.1.0"), std::string::npos) << cmds;
      EXPECT_NE(cmds.find("tensorflow<2.11"), std::string::npos) << cmds;
    }
  }
  EXPECT_TRUE(newer_wsl);
  EXPECT_TRUE(native210);
}

TEST(ResolverPlan, WindowsTensorflowWithoutVersionPrefersWsl2) {
  Plan p = resolve(described(Platform::windows, "NVIDIA GeForce RTX 4070", "3.12", {"tensorflow"}), kb());
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  EXPECT_EQ(p.frameworks[0].best->route, Platform::wsl2);
  EXPECT_EQ(p.frameworks[0].best->version, v("2.21"));
}

TEST(ResolverPlan, PascalWithTorch28GetsCu126) {
  Plan p = resolve(described(Platform::linux, "NVIDIA GeForce GTX 1080", "3.11", {"torch==2.8"}), kb());
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best.has_value());
  EXPECT_EQ(fp.best->variant, "cu126");
  EXPECT_NE(all_commands(*fp.best).find("--index-url https://download.pytorch.org/whl/cu126"), std::string::npos);
  bool cu128_rejected = false;
  for (const PlanOption& r : fp.rejected) {
    if (r.variant == "cu128") cu128_rejected = has_issue(r, "gpu-arch-unsupported");
  }
  EXPECT_TRUE(cu128_rejected);
}

TEST(ResolverPlan, PascalWithAnyTorchFrom28NeverGetsCu128OrCu13) {
  Plan p = resolve(described(Platform::linux, "GTX 1060", "3.12", {"pytorch>=2.8"}), kb());
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best.has_value());
  EXPECT_EQ(fp.best->variant, "cu126");
  for (const PlanOption& a : fp.alternatives) EXPECT_EQ(a.variant, "cu126") << a.summary();
}

TEST(ResolverPlan, Rtx50NeedsCu128OrNewer) {
  Plan p = resolve(described(Platform::linux, "NVIDIA GeForce RTX 5090", "3.12", {"torch==2.6"}), kb());
  const FrameworkPlan& fp = p.frameworks[0];
  // 2.6's variants top out at CUDA 12.6: no sm_120 kernels at all.
  EXPECT_FALSE(fp.best.has_value());
  ASSERT_FALSE(fp.rejected.empty());
  EXPECT_TRUE(has_issue(fp.rejected.front(), "gpu-arch-unsupported"));
  // Newer releases exist that work: offered as alternatives.
  ASSERT_FALSE(fp.alternatives.empty());
  EXPECT_GE(fp.alternatives.front().cuda.value_or(Version()), v("12.8"));

  Plan tf = resolve(described(Platform::linux, "RTX 5080", "3.12", {"tensorflow==2.15"}), kb());
  ASSERT_TRUE(tf.frameworks[0].best.has_value());
  // 2.15's wheel ships PTX for 8.0 only (build_info.py): a JIT route, never native.
  EXPECT_TRUE(has_issue(*tf.frameworks[0].best, "gpu-arch-ptx-only"));
  EXPECT_FALSE(tf.frameworks[0].best->verified());
  // Without a version: the newest release, whose wheel ships PTX (compute_90).
  Plan any = resolve(described(Platform::linux, "RTX 5080", "3.12", {"tensorflow"}), kb());
  ASSERT_TRUE(any.frameworks[0].best.has_value());
  EXPECT_EQ(any.frameworks[0].best->version, v("2.21"));
  EXPECT_TRUE(has_issue(*any.frameworks[0].best, "gpu-arch-ptx-only"));
}

TEST(ResolverPlan, OldDriverIsNamedAndFixedByAStep) {
  Plan p = resolve(described(Platform::linux, "RTX 3060", "3.11", {"torch==2.5"}, "470.82.01"), kb());
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best.has_value());
  // 470 is below every CUDA 12 floor; cu118 runs on it (11.x floor 450.80.02).
  EXPECT_EQ(fp.best->variant, "cu118");
  EXPECT_FALSE(has_issue(*fp.best, "driver-too-old"));
  bool cu121_needs_driver = false;
  for (const PlanOption& a : fp.alternatives) {
    if (a.variant == "cu124" || a.variant == "cu121") cu121_needs_driver = has_issue(a, "driver-too-old");
  }
  EXPECT_TRUE(cu121_needs_driver);
}

TEST(ResolverPlan, PythonOutsideRangeIsNamed) {
  Plan p = resolve(described(Platform::linux, "RTX 3060", "3.13", {"tensorflow==2.15"}), kb());
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  const PlanOption& b = *p.frameworks[0].best;
  EXPECT_TRUE(b.python_change);
  EXPECT_EQ(b.python, v("3.11"));
  EXPECT_TRUE(has_issue(b, "python-outside-range"));
  EXPECT_NE(all_commands(b).find("conda create -y -n tf215 python=3.11"), std::string::npos);
}

TEST(ResolverPlan, Tf214AndCudaHasNoPython311Wheel) {
  Plan p = resolve(described(Platform::linux, "RTX 3060", "3.11", {"tensorflow==2.14"}), kb());
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  const PlanOption& b = *p.frameworks[0].best;
  EXPECT_TRUE(has_issue(b, "and-cuda-no-wheel-for-python"));
  EXPECT_EQ(b.python, v("3.10"));
  EXPECT_TRUE(b.python_change);
  Plan ok = resolve(described(Platform::linux, "RTX 3060", "3.10", {"tensorflow==2.14"}), kb());
  EXPECT_FALSE(has_issue(*ok.frameworks[0].best, "and-cuda-no-wheel-for-python"));
}

TEST(ResolverPlan, JaxOnWindowsGoesToWsl2AndRespectsComputeCapability) {
  Plan p = resolve(described(Platform::windows, "GTX 1080", "3.12", {"jax"}), kb());
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best.has_value());
  EXPECT_EQ(fp.best->route, Platform::wsl2);
  EXPECT_EQ(fp.best->variant, "cuda12");  // cuda13 needs CC >= 7.5
  Plan l = resolve(described(Platform::linux, "NVIDIA H100", "3.12", {"jax"}), kb());
  ASSERT_TRUE(l.frameworks[0].best.has_value());
  EXPECT_EQ(l.frameworks[0].best->variant, "cuda13");
}

TEST(ResolverPlan, UnknownGpuGivesSuggestionsAndStillPlans) {
  Plan p = resolve(described(Platform::linux, "GeForce RTX 3060 Tie Fighter", "3.11", {"torch"}), kb());
  EXPECT_FALSE(p.cc.has_value());
  EXPECT_FALSE(p.gpu_suggestions.empty());
  ASSERT_FALSE(p.notes.empty());
  EXPECT_EQ(p.notes.front().id, "gpu-unknown-model");
  EXPECT_TRUE(p.frameworks[0].best.has_value());
}

TEST(ResolverPlan, FrameworkRequestParsing) {
  auto a = parse_framework_request("tensorflow==2.15");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->name, Framework::tensorflow);
  EXPECT_TRUE(a->spec->contains(v("2.15.1")));
  EXPECT_FALSE(a->spec->contains(v("2.16.0")));
  EXPECT_EQ(parse_framework_request("torch")->name, Framework::pytorch);
  EXPECT_EQ(parse_framework_request("JAX")->name, Framework::jax);
  EXPECT_FALSE(parse_framework_request("caffe").has_value());
  EXPECT_FALSE(parse_framework_request("tensorflow==two").has_value());
  EXPECT_FALSE(parse_framework_request("").has_value());
  EXPECT_FALSE(parse_framework_request("pytorch>=").has_value());
}

TEST(ResolverPlan, NoVersionMatchesGivesNoBestButAlternatives) {
  Plan p = resolve(described(Platform::linux, "RTX 3060", "3.11", {"tensorflow==9.9"}), kb());
  EXPECT_FALSE(p.frameworks[0].best.has_value());
  EXPECT_FALSE(p.frameworks[0].alternatives.empty());
  EXPECT_FALSE(p.frameworks[0].notes.empty());
}

TEST(ResolverPlan, RequestFromFacts) {
  Facts f;
  f.platform = Platform::wsl2;
  GpuFacts g;
  g.name = "NVIDIA GeForce RTX 3060";
  f.gpus.push_back(g);
  f.driver.version = v("546.12");
  PythonEnvFacts empty;
  empty.python_version = v("3.8.10");
  PythonEnvFacts env;
  env.python_version = v("3.11.4");
  FrameworkFacts fw;
  fw.name = "torch";
  fw.version = v("2.2.1+cu121");
  env.frameworks.push_back(fw);
  f.python_envs = {empty, env};
  annotate_facts(f, kb());  // as every command gathers facts (cli/gather_facts.hpp)
  PlanRequest r = request_from_facts(f);
  EXPECT_TRUE(r.from_facts);
  EXPECT_EQ(r.os, Platform::wsl2);
  EXPECT_EQ(r.cc, v("8.6"));
  EXPECT_EQ(r.python, v("3.11.4"));
  ASSERT_EQ(r.frameworks.size(), 1u);
  EXPECT_EQ(r.frameworks[0].name, Framework::pytorch);
  // Pinned to a series with CUDA 12 wheels (2.15 has CUDA 13 only, whose floors are equal).
  r.frameworks[0].spec = VersionSpec::parse("==2.14");
  Plan p = resolve(r, kb());
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  // WSL2: the driver floor is the Windows one.
  EXPECT_EQ(p.frameworks[0].best->driver_min->major(), 528);
}

// ---- Regression tests for the wrong ✓ verdicts of the KB audit (B1-B7; commit f2a3cc8) ----

std::string issue_ids(const PlanOption& o) {
  std::string s;
  for (const PlanIssue& i : o.issues) s += i.id + " ";
  return s;
}

const PlanStep* step(const PlanOption& o, const std::string& id) {
  for (const PlanStep& s : o.steps) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

/// Every option shown (best and alternatives) of every framework.
std::vector<const PlanOption*> shown(const Plan& p) {
  std::vector<const PlanOption*> out;
  for (const FrameworkPlan& fp : p.frameworks) {
    if (fp.best) out.push_back(&*fp.best);
    for (const PlanOption& a : fp.alternatives) out.push_back(&a);
  }
  return out;
}

// ---- B1: architecture driver floors --------------------------------------------------------

TEST(ResolverAudit, B1BlackwellOnPre570DriverIsNotNewEnough) {
  for (const char* fw : {"torch==2.8", "tensorflow", "jax"}) {
    for (const char* gpu : {"RTX 5090", "B200"}) {
      Plan p = resolve(described(Platform::linux, gpu, nullptr, {fw}, "535.104.05"), kb());
      for (const PlanOption* o : shown(p)) {
        EXPECT_TRUE(has_issue(*o, "driver-too-old")) << gpu << " " << fw << ": " << o->summary();
        ASSERT_TRUE(o->driver_min) << o->summary();
        EXPECT_GE(*o->driver_min, v("570.26")) << o->summary();
      }
    }
  }
  Plan w = resolve(described(Platform::windows, "RTX 5090", nullptr, {"torch==2.8"}, "536.25"), kb());
  ASSERT_TRUE(w.frameworks[0].best);
  EXPECT_EQ(w.frameworks[0].best->driver_min, v("570.65"));
  EXPECT_TRUE(has_issue(*w.frameworks[0].best, "driver-too-old"));
}

TEST(ResolverAudit, B1BlackwellDriverStepWithoutDriverNames570) {
  Plan p = resolve(described(Platform::linux, "RTX 5090", nullptr, {"torch==2.8"}), kb());
  ASSERT_TRUE(p.frameworks[0].best);
  const PlanStep* s = step(*p.frameworks[0].best, "driver");
  ASSERT_NE(s, nullptr);
  EXPECT_NE(s->title.find(">= 570.26"), std::string::npos) << s->title;
}

TEST(ResolverAudit, B1HopperAndAdaNeedTheir118Driver) {
  Plan h = resolve(described(Platform::linux, "H100", nullptr, {"torch==2.0"}, "470.82.01"), kb());
  ASSERT_TRUE(h.frameworks[0].best);
  EXPECT_EQ(h.frameworks[0].best->driver_min, v("520.61.05"));
  EXPECT_TRUE(has_issue(*h.frameworks[0].best, "driver-too-old"));
  Plan a = resolve(described(Platform::windows, "RTX 4090", nullptr, {"tensorflow==2.10"}, "470.82.01"), kb());
  ASSERT_TRUE(a.frameworks[0].best);
  EXPECT_GE(*a.frameworks[0].best->driver_min, v("520.06"));
  // Older architectures keep the CUDA family floor (Ampere's first toolkit 11.0 is below it).
  Plan r = resolve(described(Platform::linux, "RTX 3060", nullptr, {"torch==2.8"}), kb());
  ASSERT_TRUE(r.frameworks[0].best);
  EXPECT_EQ(r.frameworks[0].best->driver_min, v("525.60.13"));
}

// ---- B3: unknown GPUs ----------------------------------------------------------------------

TEST(ResolverAudit, B3UnknownGpuIsNeverVerified) {
  // (The Tesla K80, K40 and K20 were ones until they were recorded.)
  for (const char* gpu : {"Quadro K6000", "GTX 780", ""}) {
    Plan p = resolve(described(Platform::linux, gpu, nullptr, {"pytorch", "tensorflow", "jax"}), kb());
    EXPECT_FALSE(p.cc) << gpu;
    for (const PlanOption* o : shown(p)) {
      EXPECT_FALSE(o->verified()) << gpu << ": " << o->summary();
      EXPECT_TRUE(has_issue(*o, "gpu-coverage-unknown")) << o->summary();
      EXPECT_EQ(o->coverage, "unknown");
    }
  }
  Plan k = resolve(described(Platform::linux, "Quadro K6000", nullptr, {"pytorch"}), kb());
  EXPECT_FALSE(k.gpu_suggestions.empty());
}

// ---- B4: Jetson ----------------------------------------------------------------------------

TEST(ResolverAudit, B4JetsonIsNotJudgedByTheX86List) {
  // Nano 5.3 is in the x86 cu126 list (5.0) but not in the aarch64 one (8.0, 9.0).
  for (const char* gpu : {"Jetson Nano", "Jetson TX2", "Jetson AGX Xavier"}) {
    Plan p = resolve(described(Platform::linux, gpu, nullptr, {"pytorch"}), kb());
    for (const PlanOption* o : shown(p)) {
      EXPECT_FALSE(o->verified()) << gpu << ": " << o->summary();
      EXPECT_NE(o->coverage, "native") << gpu << ": " << o->summary();
    }
    for (const char* fw : {"jax", "tensorflow"}) {
      Plan q = resolve(described(Platform::linux, gpu, nullptr, {fw}), kb());
      for (const PlanOption* o : shown(q)) EXPECT_FALSE(o->verified()) << gpu << ": " << o->summary();
    }
  }
  EXPECT_TRUE(kb().is_jetson("Orin (nvgpu)", v("8.7")));
  EXPECT_FALSE(kb().is_jetson("NVIDIA GeForce RTX 3060", v("8.6")));
  // The Tegra compute capabilities come from the GPU table's Jetson rows, not from code.
  for (const char* cc : {"5.3", "6.2", "7.2", "8.7", "11.0"}) EXPECT_TRUE(kb().is_jetson("", v(cc))) << cc;
  for (const char* cc : {"5.0", "6.1", "7.5", "8.6", "9.0", "12.0"}) EXPECT_FALSE(kb().is_jetson("", v(cc))) << cc;
}

TEST(ResolverAudit, B4JetsonUsesTheAarch64ListAndNoDesktopDriverStep) {
  const TorchRelease* r = kb().torch_release(v("2.14"));
  ASSERT_NE(r, nullptr);
  const TorchVariant* cu126 = kb().torch_variant(*r, "cu126");
  ASSERT_NE(cu126, nullptr);
  EXPECT_EQ(kb().torch_coverage(*cu126, v("5.3"), Platform::linux, true), ArchCoverage::none);
  EXPECT_EQ(kb().torch_coverage(*cu126, v("5.3"), Platform::linux, false), ArchCoverage::native);
  EXPECT_EQ(kb().torch_coverage(*cu126, v("9.0"), Platform::linux, true), ArchCoverage::native);
  const TorchRelease* old = kb().torch_release(v("2.8"));
  ASSERT_NE(old, nullptr);
  EXPECT_EQ(kb().torch_coverage(old->variants.front(), v("8.7"), Platform::linux, true), ArchCoverage::unknown);
  Plan p = resolve(described(Platform::linux, "Jetson AGX Orin", nullptr, {"pytorch"}), kb());
  ASSERT_TRUE(p.frameworks[0].best);
  const PlanStep* s = step(*p.frameworks[0].best, "driver");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->title.find("Install NVIDIA"), std::string::npos) << s->title;
  EXPECT_TRUE(has_issue(*p.frameworks[0].best, "jetson-driver-from-jetpack"));
}

// ---- B2: TF rows without a recorded arch list ----------------------------------------------

TEST(ResolverAudit, B2UnrecordedTfArchListIsNotNative) {
  // 2.9's own list is not recorded (2.10-2.21 are, from build_info.py): bounded by its toolkit.
  const TfBuild* b29 = kb().tf_build(v("2.9"), Platform::linux);
  ASSERT_NE(b29, nullptr);
  ASSERT_TRUE(b29->archs.empty());
  EXPECT_EQ(kb().tf_coverage(*b29, v("8.6")), ArchCoverage::derived);
  const TfBuild* n = kb().tf_recorded_neighbour(*b29);
  ASSERT_NE(n, nullptr);
  EXPECT_FALSE(n->archs.empty());
  // GTX 980 (5.2): 2.21's wheels have sm_60 and up (build_info.py), so no kernels there;
  // the best TensorFlow is one whose recorded list holds sm_50.
  const TfBuild* b221 = kb().tf_build(v("2.21"), Platform::linux);
  ASSERT_NE(b221, nullptr);
  EXPECT_EQ(kb().tf_coverage(*b221, v("5.2")), ArchCoverage::none);
  Plan p = resolve(described(Platform::linux, "GTX 980", nullptr, {"tensorflow"}), kb());
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best);
  EXPECT_EQ(fp.best->coverage, "native") << fp.best->summary();
  EXPECT_LE(fp.best->version, v("2.16")) << fp.best->summary();
}

TEST(ResolverAudit, B2DerivedCoverageIsLabelledAnAssumption) {
  Plan p = resolve(described(Platform::linux, "RTX 3060", nullptr, {"tensorflow==2.9"}), kb());
  ASSERT_TRUE(p.frameworks[0].best);
  EXPECT_EQ(p.frameworks[0].best->coverage, "derived");
  Plan q = resolve(described(Platform::linux, "RTX 3060", nullptr, {"tensorflow==2.20"}), kb());
  ASSERT_TRUE(q.frameworks[0].best);
  EXPECT_EQ(q.frameworks[0].best->coverage, "native");
  EXPECT_TRUE(q.frameworks[0].best->verified());
}

// ---- B5 / B7: PTX-only routes --------------------------------------------------------------

TEST(ResolverAudit, B5PtxOnlyOnDriverOlderThanTheBuildToolkit) {
  Plan p = resolve(described(Platform::linux, "H100", nullptr, {"tensorflow==2.20"}, "535.104.05"), kb());
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best);
  EXPECT_FALSE(fp.best->verified());
  EXPECT_TRUE(has_issue(*fp.best, "gpu-arch-ptx-only"));
  EXPECT_TRUE(has_issue(*fp.best, "driver-too-old")) << issue_ids(*fp.best);
  ASSERT_TRUE(fp.best->driver_min);
  EXPECT_GE(*fp.best->driver_min, *kb().min_driver_for_cuda(v("12.5"), Platform::linux));
}

TEST(ResolverAudit, B7Rtx5090Tf220PtxRouteIsNotBestVerified) {
  Plan p = resolve(described(Platform::linux, "RTX 5090", nullptr, {"tensorflow"}), kb());
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best);
  EXPECT_FALSE(fp.best->verified());
  EXPECT_TRUE(has_issue(*fp.best, "gpu-arch-ptx-only")) << issue_ids(*fp.best);
  EXPECT_GE(*fp.best->driver_min, v("570.26"));
}

// ---- B6: WSL2 driver floor -----------------------------------------------------------------

TEST(ResolverAudit, B6Wsl2RoutesForCuda11AreNotVerified) {
  Plan p = resolve(described(Platform::windows, "RTX 3060", nullptr, {"tensorflow==2.13"}), kb());
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best);
  EXPECT_EQ(fp.best->route, Platform::wsl2);
  EXPECT_FALSE(fp.best->verified());
  EXPECT_TRUE(has_issue(*fp.best, "wsl2-driver-floor-unsourced"));
  EXPECT_EQ(fp.best->driver_min, v("528.33"));
  // CUDA 12 builds in WSL2 are covered by the sourced floor (2.17: sm_80 runs natively on 8.6;
  // 2.15 has only PTX for 8.x, which is a separate warning).
  Plan q = resolve(described(Platform::windows, "RTX 3060", nullptr, {"tensorflow==2.17"}), kb());
  ASSERT_TRUE(q.frameworks[0].best);
  EXPECT_FALSE(has_issue(*q.frameworks[0].best, "wsl2-driver-floor-unsourced"));
  EXPECT_TRUE(q.frameworks[0].best->verified()) << issue_ids(*q.frameworks[0].best);
}

TEST(ResolverAudit, B6Wsl2Cuda10AlternativeIsFlagged) {
  Plan p = resolve(described(Platform::windows, "GTX 1080", nullptr, {"tensorflow==2.0"}, "411.31"), kb());
  bool seen = false;
  for (const PlanOption* o : shown(p)) {
    if (o->route != Platform::wsl2 || !o->cuda || o->cuda->major() >= 12) continue;
    seen = true;
    EXPECT_TRUE(has_issue(*o, "wsl2-driver-floor-unsourced")) << o->summary();
    EXPECT_FALSE(o->verified()) << o->summary();
    EXPECT_TRUE(has_issue(*o, "driver-too-old")) << o->summary();
  }
  EXPECT_TRUE(seen);
}

// ---- Cosmetic: extras in --framework --------------------------------------------------------

TEST(ResolverAudit, FrameworkRequestWithExtrasIsAccepted) {
  auto r = parse_framework_request("tensorflow[and-cuda]==2.19");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->name, Framework::tensorflow);
  ASSERT_TRUE(r->spec);
  EXPECT_TRUE(r->spec->contains(v("2.19")));
  auto j = parse_framework_request("jax[cuda12]");
  ASSERT_TRUE(j);
  EXPECT_EQ(j->name, Framework::jax);
  EXPECT_FALSE(parse_framework_request("tensorflow[and-cuda"));
}

// ---- floors exactly at ----------------------------------------------------------------------

TEST(ResolverPlan, DriverExactlyAtThePlansFloorIsEnough) {
  // The floor the plan itself names; the same driver is enough, one step below is not.
  Plan first = resolve(described(Platform::linux, "RTX 3060", "3.11", {"torch==2.5"}, "470.82.01"), kb());
  std::vector<const PlanOption*> options = shown(first);
  ASSERT_FALSE(options.empty());
  int checked = 0;
  for (const PlanOption* o : options) {
    if (!o->driver_min || o->framework != Framework::pytorch) continue;
    const std::string at = o->driver_min->str();
    std::vector<int> parts = o->driver_min->parts();
    --parts.back();
    std::string below;
    for (size_t i = 0; i < parts.size(); ++i) below += (i ? "." : "") + std::to_string(parts[i]);
    for (const auto& [driver, too_old] : {std::pair{at, false}, std::pair{below, true}}) {
      Plan p = resolve(described(Platform::linux, "RTX 3060", "3.11", {"torch==2.5"}, driver.c_str()), kb());
      for (const PlanOption* q : shown(p)) {
        if (q->variant != o->variant || q->driver_min != o->driver_min) continue;
        EXPECT_EQ(has_issue(*q, "driver-too-old"), too_old) << q->variant << " on driver " << driver;
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 2);
}

TEST(ResolverPlan, WithoutAPythonThePlanTakesTheNewestButOneInRange) {
  // The newest Python a framework lists is its least tried addition: a new environment gets the
  // one before it (kb.python_versions inside the option's range).
  Plan p = resolve(described(Platform::linux, "RTX 3060", nullptr, {"torch==2.5"}, "550.54.14"), kb());
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  const PlanOption& o = *p.frameworks[0].best;
  auto range = VersionSpec::parse(o.python_range);
  ASSERT_TRUE(range) << o.python_range;
  std::vector<Version> in;
  for (const Version& py : kb().python_versions) {
    if (range->contains(py)) in.push_back(py);
  }
  std::sort(in.begin(), in.end());
  ASSERT_GE(in.size(), 3u) << o.python_range;
  ASSERT_TRUE(o.python);
  EXPECT_EQ(*o.python, in[in.size() - 2]) << o.summary();
}

}  // namespace
}  // namespace gpudoctor
