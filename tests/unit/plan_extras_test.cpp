/// A pip extra named in `plan --framework` ("jax[cuda12]==0.9.0", "tensorflow[and-cuda]", "jax[cpu]")
/// is part of what the user asked for. Until 2026-12-06 the parser dropped it and the plan picked its
/// own: `jax[cuda12]==0.9.0` on a 580 driver got jax[cuda13] as the best, and `jax[cpu]` got a GPU
/// install. An extra that picks a wheel variant now restricts the plan to it; one the plan does not
/// model is said, never silently replaced.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/version.hpp"
#include "kb/resolver.hpp"
#include "kb_test_support.hpp"
#include "model/plan.hpp"

namespace gpudoctor {
namespace {

using testing::plan_described;

bool plan_extras_note_says(const FrameworkPlan& fp, const std::string& words) {
  return std::any_of(fp.notes.begin(), fp.notes.end(),
                     [&](const std::string& n) { return n.find(words) != std::string::npos; });
}

TEST(PlanExtras, TheParserKeepsTheExtrasNormalised) {
  auto r = parse_framework_request("JAX[CUDA12_Local, cpu]==0.9.0");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->name, Framework::jax);
  // PEP 685: lower case, runs of -_. as one '-'.
  EXPECT_EQ(r->extras, (std::vector<std::string>{"cuda12-local", "cpu"}));
  ASSERT_TRUE(r->spec);
  EXPECT_TRUE(r->spec->contains(testing::v("0.9.0")));
  auto plain = parse_framework_request("jax==0.9.0");
  ASSERT_TRUE(plain);
  EXPECT_TRUE(plain->extras.empty());
  EXPECT_FALSE(parse_framework_request("jax[]==0.9.0"));
  EXPECT_FALSE(parse_framework_request("jax[cuda 12]"));
}

TEST(PlanExtras, JaxCuda12AskedIsPlannedEvenWhereCuda13WouldBePreferred) {
  // Driver 580 runs both extras; without the extra JAX's own preference (cuda13) leads.
  Plan asked = plan_described(Platform::linux, "RTX 4090", "580.65", "3.12", "jax[cuda12]==0.9.0");
  ASSERT_EQ(asked.frameworks.size(), 1u);
  ASSERT_TRUE(asked.frameworks[0].best);
  EXPECT_EQ(asked.frameworks[0].best->variant, "cuda12");
  EXPECT_EQ(asked.frameworks[0].best->version, testing::v("0.9.0"));
  for (const PlanOption& o : asked.frameworks[0].rejected) EXPECT_EQ(o.variant, "cuda12") << o.summary();
  // The near miss: the same request without an extra keeps JAX's preferred cuda13.
  Plan plain = plan_described(Platform::linux, "RTX 4090", "580.65", "3.12", "jax==0.9.0");
  ASSERT_TRUE(plain.frameworks[0].best);
  EXPECT_EQ(plain.frameworks[0].best->variant, "cuda13");
}

TEST(PlanExtras, AnExtraThatCannotWorkGetsNoBestButTheOtherVariantAsAlternative) {
  // jax 0.12.1 pins a jax-cuda12-plugin==0.12.1 that PyPI never had.
  Plan p = plan_described(Platform::linux, "RTX 4090", "580.65", "3.12", "jax[cuda12]==0.12.1");
  const FrameworkPlan& fp = p.frameworks[0];
  EXPECT_FALSE(fp.best) << fp.best->summary();
  ASSERT_FALSE(fp.rejected.empty());
  EXPECT_EQ(fp.rejected.front().variant, "cuda12");
  bool cuda13_offered = std::any_of(fp.alternatives.begin(), fp.alternatives.end(), [](const PlanOption& o) {
    return o.variant == "cuda13" && o.version == testing::v("0.12.1");
  });
  EXPECT_TRUE(cuda13_offered);
}

TEST(PlanExtras, JaxCpuIsNoGpuInstall) {
  Plan p = plan_described(Platform::linux, "RTX 4090", "580.65", "3.12", "jax[cpu]");
  const FrameworkPlan& fp = p.frameworks[0];
  EXPECT_FALSE(fp.best) << fp.best->summary();
  EXPECT_TRUE(plan_extras_note_says(fp, "jax[cpu]"));
  EXPECT_TRUE(plan_extras_note_says(fp, "without NVIDIA GPU support"));
  EXPECT_FALSE(fp.alternatives.empty());
  // No option of jax[cpu] is blocked, so the plan points at no blockers.
  EXPECT_TRUE(fp.rejected.empty());
  EXPECT_FALSE(plan_extras_note_says(fp, "blockers"));
}

TEST(PlanExtras, AnExtraThePlanDoesNotModelIsSaid) {
  // jax[cuda12-local] takes CUDA from the system: the plan's cuda12 option installs pip's CUDA.
  Plan p = plan_described(Platform::linux, "RTX 4090", "580.65", "3.12", "jax[cuda12-local]==0.9.0");
  const FrameworkPlan& fp = p.frameworks[0];
  EXPECT_TRUE(plan_extras_note_says(fp, "jax[cuda12-local]"));
  EXPECT_TRUE(plan_extras_note_says(fp, "not planned"));
  ASSERT_TRUE(fp.best);
  EXPECT_EQ(fp.best->variant, "cuda12");
}

TEST(PlanExtras, TensorflowAndCudaPicksThePipVariant) {
  // On Windows, tensorflow[and-cuda] exists only in WSL2: the native 2.10 recipe is not what was asked.
  Plan p = plan_described(Platform::windows, "RTX 4090", "580.65", "3.12", "tensorflow[and-cuda]");
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best);
  EXPECT_EQ(fp.best->variant, "and-cuda");
  EXPECT_EQ(fp.best->route, Platform::wsl2);
  // Python 3.8: without the extra the plan keeps the user's Python with 2.13 and conda's CUDA; the
  // extra asks for pip's CUDA, which needs a newer Python.
  Plan py38 = plan_described(Platform::linux, "RTX 3060", "535.54.03", "3.8", "tensorflow[and-cuda]");
  ASSERT_TRUE(py38.frameworks[0].best);
  EXPECT_EQ(py38.frameworks[0].best->variant, "and-cuda");
  Plan py38_plain = plan_described(Platform::linux, "RTX 3060", "535.54.03", "3.8", "tensorflow");
  ASSERT_TRUE(py38_plain.frameworks[0].best);
  EXPECT_EQ(py38_plain.frameworks[0].best->variant, "system-cuda");
  // A release from before the extra existed (2.14): pip warns and ignores it; said, then planned.
  Plan old = plan_described(Platform::linux, "RTX 3060", "535.54", "3.10", "tensorflow[and-cuda]==2.12");
  const FrameworkPlan& ofp = old.frameworks[0];
  ASSERT_TRUE(ofp.best);
  EXPECT_EQ(ofp.best->version, testing::v("2.12"));
  EXPECT_TRUE(plan_extras_note_says(ofp, "has no and-cuda extra")) << ofp.notes.size();
}

TEST(PlanExtras, TorchExtrasDoNotChooseTheCudaBuild) {
  Plan p = plan_described(Platform::linux, "RTX 4090", "580.65", "3.12", "torch[opt-einsum]==2.9");
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best);
  EXPECT_TRUE(plan_extras_note_says(fp, "index URL"));
}

// A local version label ("torch==2.5.1+cu121", as requirements files and the guides write it)
// names the wheel's build. Until 2026-12-06 the label went into the version and nothing matched:
// "Nothing that matches 'torch==2.5.1+cu121' can use the GPU on this machine" for a build that can.
TEST(PlanExtras, TorchLocalLabelPicksThatCudaBuild) {
  auto r = parse_framework_request("torch==2.5.1+cu121");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->local_label, "cu121");
  ASSERT_TRUE(r->spec);
  EXPECT_TRUE(r->spec->contains(testing::v("2.5.1")));
  Plan p = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "torch==2.5.1+cu121");
  ASSERT_TRUE(p.frameworks[0].best);
  EXPECT_EQ(p.frameworks[0].best->variant, "cu121");
  EXPECT_EQ(p.frameworks[0].best->version, testing::v("2.5"));
  EXPECT_FALSE(plan_extras_note_says(p.frameworks[0], "has no"));
  Plan other = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "torch==2.5.1+cu118");
  ASSERT_TRUE(other.frameworks[0].best);
  EXPECT_EQ(other.frameworks[0].best->variant, "cu118");
}

TEST(PlanExtras, TorchCpuLabelIsNoGpuBuildAndAnUnknownLabelIsSaid) {
  Plan cpu = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "torch==2.5.1+cpu");
  EXPECT_FALSE(cpu.frameworks[0].best);
  EXPECT_TRUE(plan_extras_note_says(cpu.frameworks[0], "CPU-only build"));
  EXPECT_FALSE(plan_extras_note_says(cpu.frameworks[0], "is in the knowledge base"));
  Plan odd = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "torch==2.5.1+cu999");
  EXPECT_FALSE(odd.frameworks[0].best);
  EXPECT_TRUE(plan_extras_note_says(odd.frameworks[0], "has no cu999 build"));
  // Only == names a build: a label elsewhere is not a version pip accepts.
  EXPECT_FALSE(parse_framework_request("torch>=2.5.1+cu121"));
}

TEST(PlanExtras, OldJaxlibLocalLabelNamesItsCudaMajor) {
  auto r = parse_framework_request("jaxlib==0.4.30+cuda12.cudnn89");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->local_label, "cuda12.cudnn89");
  Plan p = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "jaxlib==0.4.30+cuda12.cudnn89");
  ASSERT_TRUE(p.frameworks[0].best);
  EXPECT_EQ(p.frameworks[0].best->variant, "cuda12");
  EXPECT_TRUE(plan_extras_note_says(p.frameworks[0], "planned as jax[cuda12]"));
  EXPECT_FALSE(plan_extras_note_says(p.frameworks[0], "not planned"));
  // Two CUDA extras: neither is kept to, and the plan says so.
  Plan two = plan_described(Platform::linux, "RTX 4090", "580.65", "3.12", "jax[cuda12,cuda13,cuda12]");
  EXPECT_TRUE(plan_extras_note_says(two.frameworks[0], "names two CUDA extras"));
}

}  // namespace
}  // namespace gpudoctor
