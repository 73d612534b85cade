/// Regression tests for the wrong "✓" verdicts found by the KB audit (notes/kb-audit.md, B1-B7):
/// each test is named after the bug it pins down.
#include <gtest/gtest.h>

#include "kb/knowledge_base.hpp"
#include "kb/resolver.hpp"

namespace gpudoctor {
namespace {

const KnowledgeBase& kb() {
  static const KnowledgeBase k = [] {
    auto r = KnowledgeBase::load("");
    if (!r) ADD_FAILURE() << r.error().message;
    return r ? std::move(r).value() : KnowledgeBase{};
  }();
  return k;
}

Version v(const char* s) {
  return *Version::parse(s);
}

PlanRequest described(Platform os, const char* gpu, std::vector<const char*> fws, const char* driver = nullptr) {
  PlanRequest r;
  r.os = os;
  r.gpu_name = gpu;
  if (driver) r.driver = v(driver);
  for (const char* f : fws) r.frameworks.push_back(*parse_framework_request(f));
  return r;
}

bool has_issue(const PlanOption& o, const std::string& id) {
  return std::any_of(o.issues.begin(), o.issues.end(), [&](const PlanIssue& i) { return i.id == id; });
}

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
      Plan p = resolve(described(Platform::linux, gpu, {fw}, "535.104.05"), kb());
      for (const PlanOption* o : shown(p)) {
        EXPECT_TRUE(has_issue(*o, "driver-too-old")) << gpu << " " << fw << ": " << o->summary();
        ASSERT_TRUE(o->driver_min) << o->summary();
        EXPECT_GE(*o->driver_min, v("570.26")) << o->summary();
      }
    }
  }
  Plan w = resolve(described(Platform::windows, "RTX 5090", {"torch==2.8"}, "536.25"), kb());
  ASSERT_TRUE(w.frameworks[0].best);
  EXPECT_EQ(w.frameworks[0].best->driver_min, v("570.65"));
  EXPECT_TRUE(has_issue(*w.frameworks[0].best, "driver-too-old"));
}

TEST(ResolverAudit, B1BlackwellDriverStepWithoutDriverNames570) {
  Plan p = resolve(described(Platform::linux, "RTX 5090", {"torch==2.8"}), kb());
  ASSERT_TRUE(p.frameworks[0].best);
  const PlanStep* s = step(*p.frameworks[0].best, "driver");
  ASSERT_NE(s, nullptr);
  EXPECT_NE(s->title.find(">= 570.26"), std::string::npos) << s->title;
}

TEST(ResolverAudit, B1HopperAndAdaNeedTheir118Driver) {
  Plan h = resolve(described(Platform::linux, "H100", {"torch==2.0"}, "470.82.01"), kb());
  ASSERT_TRUE(h.frameworks[0].best);
  EXPECT_EQ(h.frameworks[0].best->driver_min, v("520.61.05"));
  EXPECT_TRUE(has_issue(*h.frameworks[0].best, "driver-too-old"));
  Plan a = resolve(described(Platform::windows, "RTX 4090", {"tensorflow==2.10"}, "470.82.01"), kb());
  ASSERT_TRUE(a.frameworks[0].best);
  EXPECT_GE(*a.frameworks[0].best->driver_min, v("520.06"));
  // Older architectures keep the CUDA family floor (Ampere's first toolkit 11.0 is below it).
  Plan r = resolve(described(Platform::linux, "RTX 3060", {"torch==2.8"}), kb());
  ASSERT_TRUE(r.frameworks[0].best);
  EXPECT_EQ(r.frameworks[0].best->driver_min, v("525.60.13"));
}

// ---- B3: unknown GPUs ----------------------------------------------------------------------

TEST(ResolverAudit, B3UnknownGpuIsNeverVerified) {
  for (const char* gpu : {"Tesla K80", "NVIDIA GeForce GTX 1050 Ti", "GTX 780", ""}) {
    Plan p = resolve(described(Platform::linux, gpu, {"pytorch", "tensorflow", "jax"}), kb());
    EXPECT_FALSE(p.cc) << gpu;
    for (const PlanOption* o : shown(p)) {
      EXPECT_FALSE(o->verified()) << gpu << ": " << o->summary();
      EXPECT_TRUE(has_issue(*o, "gpu-coverage-unknown")) << o->summary();
      EXPECT_EQ(o->coverage, "unknown");
    }
  }
  Plan k = resolve(described(Platform::linux, "Tesla K80", {"pytorch"}), kb());
  EXPECT_FALSE(k.gpu_suggestions.empty());
}

// ---- B4: Jetson ----------------------------------------------------------------------------

TEST(ResolverAudit, B4JetsonIsNotJudgedByTheX86List) {
  // Nano 5.3 is in the x86 cu126 list (5.0) but not in the aarch64 one (8.0, 9.0).
  for (const char* gpu : {"Jetson Nano", "Jetson TX2", "Jetson AGX Xavier"}) {
    Plan p = resolve(described(Platform::linux, gpu, {"pytorch"}), kb());
    for (const PlanOption* o : shown(p)) {
      EXPECT_FALSE(o->verified()) << gpu << ": " << o->summary();
      EXPECT_NE(o->coverage, "native") << gpu << ": " << o->summary();
    }
    for (const char* fw : {"jax", "tensorflow"}) {
      Plan q = resolve(described(Platform::linux, gpu, {fw}), kb());
      for (const PlanOption* o : shown(q)) EXPECT_FALSE(o->verified()) << gpu << ": " << o->summary();
    }
  }
  EXPECT_TRUE(is_jetson("Orin (nvgpu)", v("8.7")));
  EXPECT_FALSE(is_jetson("NVIDIA GeForce RTX 3060", v("8.6")));
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
  Plan p = resolve(described(Platform::linux, "Jetson AGX Orin", {"pytorch"}), kb());
  ASSERT_TRUE(p.frameworks[0].best);
  const PlanStep* s = step(*p.frameworks[0].best, "driver");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->title.find("Install NVIDIA"), std::string::npos) << s->title;
  EXPECT_TRUE(has_issue(*p.frameworks[0].best, "jetson-driver-from-jetpack"));
}

// ---- B2: TF rows without a recorded arch list ----------------------------------------------

TEST(ResolverAudit, B2UnrecordedTfArchListIsNotNative) {
  const TfBuild* b221 = kb().tf_build(v("2.21"), Platform::linux);
  ASSERT_NE(b221, nullptr);
  EXPECT_EQ(kb().tf_coverage(*b221, v("5.2")), ArchCoverage::derived);
  EXPECT_EQ(kb().tf_coverage(*b221, v("8.6")), ArchCoverage::derived);
  const TfBuild* n = kb().tf_recorded_neighbour(*b221);
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->version, v("2.20"));
  // GTX 980: 2.20 (recorded) has no sm_52, so 2.21/2.19/2.18 (same CUDA 12.5) are doubtful,
  // and nothing TF offers is a plain ✓.
  Plan p = resolve(described(Platform::linux, "GTX 980", {"tensorflow"}), kb());
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best);
  EXPECT_FALSE(fp.best->verified()) << fp.best->summary();
  EXPECT_FALSE(has_issue(*fp.best, "gpu-arch-doubtful")) << fp.best->summary() << ": " << issue_ids(*fp.best);
  EXPECT_NE(fp.best->version, v("2.21"));
  Plan q = resolve(described(Platform::linux, "GTX 980", {"tensorflow==2.21"}), kb());
  ASSERT_TRUE(q.frameworks[0].best);
  EXPECT_TRUE(has_issue(*q.frameworks[0].best, "gpu-arch-doubtful"));
}

TEST(ResolverAudit, B2RecordedTfBuildIsPreferredAndVerified) {
  Plan p = resolve(described(Platform::linux, "RTX 3060", {"tensorflow"}), kb());
  ASSERT_TRUE(p.frameworks[0].best);
  EXPECT_TRUE(p.frameworks[0].best->verified()) << issue_ids(*p.frameworks[0].best);
  EXPECT_EQ(p.frameworks[0].best->version, v("2.20"));
  EXPECT_EQ(p.frameworks[0].best->coverage, "native");
}

// ---- B5 / B7: PTX-only routes --------------------------------------------------------------

TEST(ResolverAudit, B5PtxOnlyOnDriverOlderThanTheBuildToolkit) {
  Plan p = resolve(described(Platform::linux, "H100", {"tensorflow==2.20"}, "535.104.05"), kb());
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best);
  EXPECT_FALSE(fp.best->verified());
  EXPECT_TRUE(has_issue(*fp.best, "gpu-arch-ptx-only"));
  EXPECT_TRUE(has_issue(*fp.best, "driver-too-old")) << issue_ids(*fp.best);
  ASSERT_TRUE(fp.best->driver_min);
  EXPECT_GE(*fp.best->driver_min, *kb().min_driver_for_cuda(v("12.5"), Platform::linux));
}

TEST(ResolverAudit, B7Rtx5090Tf220PtxRouteIsNotBestVerified) {
  Plan p = resolve(described(Platform::linux, "RTX 5090", {"tensorflow"}), kb());
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best);
  EXPECT_FALSE(fp.best->verified());
  EXPECT_TRUE(has_issue(*fp.best, "gpu-arch-ptx-only")) << issue_ids(*fp.best);
  EXPECT_GE(*fp.best->driver_min, v("570.26"));
}

// ---- B6: WSL2 driver floor -----------------------------------------------------------------

TEST(ResolverAudit, B6Wsl2RoutesForCuda11AreNotVerified) {
  Plan p = resolve(described(Platform::windows, "RTX 3060", {"tensorflow==2.13"}), kb());
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best);
  EXPECT_EQ(fp.best->route, Platform::wsl2);
  EXPECT_FALSE(fp.best->verified());
  EXPECT_TRUE(has_issue(*fp.best, "wsl2-driver-floor-unsourced"));
  EXPECT_EQ(fp.best->driver_min, v("528.33"));
  // CUDA 12 builds in WSL2 are covered by the sourced floor.
  Plan q = resolve(described(Platform::windows, "RTX 3060", {"tensorflow==2.15"}), kb());
  ASSERT_TRUE(q.frameworks[0].best);
  EXPECT_FALSE(has_issue(*q.frameworks[0].best, "wsl2-driver-floor-unsourced"));
  EXPECT_TRUE(q.frameworks[0].best->verified()) << issue_ids(*q.frameworks[0].best);
}

TEST(ResolverAudit, B6Wsl2Cuda10AlternativeIsFlagged) {
  Plan p = resolve(described(Platform::windows, "GTX 1080", {"tensorflow==2.0"}, "411.31"), kb());
  bool seen = false;
  for (const PlanOption* o : shown(p)) {
    if (o->route != Platform::wsl2) continue;
    seen = true;
    EXPECT_FALSE(o->verified()) << o->summary();
    EXPECT_TRUE(has_issue(*o, "driver-too-old")) << o->summary();
  }
  EXPECT_TRUE(seen);
}

// ---- Cosmetic: extras in --framework --------------------------------------------------------

TEST(ResolverAudit, FrameworkRequestWithExtrasIsAccepted) {
  auto r = parse_framework_request("tensorflow[and-cuda]==2.19");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->name, "tensorflow");
  ASSERT_TRUE(r->spec);
  EXPECT_TRUE(r->spec->contains(v("2.19")));
  auto j = parse_framework_request("jax[cuda12]");
  ASSERT_TRUE(j);
  EXPECT_EQ(j->name, "jax");
  EXPECT_FALSE(parse_framework_request("tensorflow[and-cuda"));
}

}  // namespace
}  // namespace gpudoctor
