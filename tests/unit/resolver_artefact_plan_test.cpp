/// Plan regressions settled by the released wheels (issue 9) and the plan's wording
/// (issue 10, items 15-16): TF's compiled architectures, the newest patch release, and each
/// fact said once in the main lines.
#include <gtest/gtest.h>

#include "kb/knowledge_base.hpp"
#include "kb/resolver.hpp"
#include "kb_test_support.hpp"
#include "render/plan_render.hpp"

namespace gpudoctor {
namespace {

using testing::kb;

using testing::v;

Plan plan_for(Platform os, const char* gpu, const char* python, const char* fw) {
  PlanRequest r;
  r.os = os;
  r.gpu_name = gpu;
  if (python) r.python = v(python);
  r.frameworks.push_back(*parse_framework_request(fw));
  return resolve(r, kb());
}

size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

// build_info.py of TF 2.14: sm_35 50 60 70 75 + compute_80: an RTX 3060 (8.6) runs by PTX JIT.
TEST(ResolverArtefactPlan, Tf214OnRtx3060IsPtxJitNotNative) {
  const TfBuild* b = kb().tf_build(v("2.14"), Platform::linux);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(kb().tf_coverage(*b, v("8.6")), ArchCoverage::ptx_jit);
  EXPECT_EQ(kb().tf_coverage(*b, v("7.5")), ArchCoverage::native);
}

// build_info.py of TF 2.17-2.21: sm_60 70 80 89 + compute_90: no kernels for a GTX 980 (5.2).
TEST(ResolverArtefactPlan, Tf221HasNoKernelsForMaxwell52) {
  const TfBuild* b = kb().tf_build(v("2.21"), Platform::linux);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(kb().tf_coverage(*b, v("5.2")), ArchCoverage::none);
  const TfBuild* b215 = kb().tf_build(v("2.15"), Platform::linux);
  ASSERT_NE(b215, nullptr);
  EXPECT_EQ(kb().tf_coverage(*b215, v("5.2")), ArchCoverage::native);  // sm_50 runs on 5.2
  Plan p = plan_for(Platform::linux, "GTX 980", "3.12", "tensorflow==2.21");
  ASSERT_EQ(p.frameworks.size(), 1u);
  EXPECT_FALSE(p.frameworks[0].best && p.frameworks[0].best->version == v("2.21") && p.frameworks[0].best->gpu)
      << "TF 2.21 recommended for a 5.2 GPU it has no kernels for";
}

// tensorflow 2.15.1's METADATA has no tensorrt pin: the plan installs the newest patch.
TEST(ResolverArtefactPlan, Tf215PlanInstallsNewestPatch2151) {
  Plan p = plan_for(Platform::linux, "RTX 3060", "3.11", "tensorflow==2.15");
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  EXPECT_EQ(p.frameworks[0].best->install_spec, "tensorflow[and-cuda]==2.15.1");
}

// PyPI serves torch 2.15.0: an unpinned plan for a current GPU recommends it.
TEST(ResolverArtefactPlan, TorchPlanRecommendsNewestRelease215) {
  Plan p = plan_for(Platform::linux, "RTX 4090", "3.12", "torch");
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  EXPECT_EQ(p.frameworks[0].best->version, v("2.15"));
}

// Issue 10 item 15: the driver download address printed once per step.
TEST(ResolverArtefactPlan, DriverDownloadAddressPrintedOnce) {
  Plan p = plan_for(Platform::linux, "V100", nullptr, "torch==2.10");
  std::string text = render_plan_text(p, false);
  size_t steps = count(text, "Install NVIDIA Linux driver");
  ASSERT_GE(steps, 1u);
  EXPECT_EQ(count(text, "nvidia.com/Download"), steps) << text;
}

// Issue 10 item 16: provenance history is not in the plan's main lines (it is in Sources).
TEST(ResolverArtefactPlan, BlogRecipePlanHasNoProvenanceChatter) {
  Plan p = plan_for(Platform::windows, "RTX 3060", "3.11", "tensorflow==2.15");
  std::string text = render_plan_text(p, false);
  std::string main = text.substr(0, text.find("Sources:"));
  EXPECT_EQ(main.find("The row said"), std::string::npos) << main;
  EXPECT_EQ(main.find("third-party"), std::string::npos) << main;
  EXPECT_EQ(main.find("not verified against setup.py"), std::string::npos) << main;
  EXPECT_NE(text.find("0fc1acda9"), std::string::npos) << "the history belongs in Sources";
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

// TF's aarch64 wheels are CPU builds (build_info.py is_cuda_build False): a GH200 or DGX Spark
// plan must not recommend tensorflow[and-cuda].
TEST(ResolverArtefactPlan, TfAarch64WheelsAreCpuOnlyOnGh200AndDgxSpark) {
  for (const char* gpu : {"GH200", "NVIDIA GB10"}) {
    Plan p = plan_for(Platform::linux, gpu, "3.12", "tensorflow");
    ASSERT_EQ(p.frameworks.size(), 1u);
    const FrameworkPlan& fp = p.frameworks[0];
    EXPECT_FALSE(fp.best && fp.best->gpu) << gpu << ": " << fp.best->summary();
    for (const PlanOption& o : fp.alternatives) EXPECT_FALSE(o.gpu) << gpu << ": " << o.summary();
  }
  // An x86 Hopper host still gets its GPU plan.
  Plan h = plan_for(Platform::linux, "H100", "3.12", "tensorflow");
  ASSERT_TRUE(h.frameworks[0].best.has_value());
  EXPECT_TRUE(h.frameworks[0].best->gpu);
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

// torchvision 0.20.1's METADATA pins torch==2.5.1: the plan installs the matched trio together.
TEST(ResolverArtefactPlan, TorchPlanInstallsMatchedTorchvisionTorchaudio) {
  Plan p = plan_for(Platform::linux, "RTX 3060", "3.11", "torch==2.5");
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  std::string text = render_plan_text(p, false);
  EXPECT_NE(text.find("\"torch==2.5.*\" \"torchvision==0.20.*\" \"torchaudio==2.5.*\" --index-url"), std::string::npos)
      << text;
}

}  // namespace
}  // namespace gpudoctor
