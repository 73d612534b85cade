/// `plan` against the released wheels on PyPI (review of 2026-12-05, defects 1, 2, 4, 5, 8): what
/// the JAX PJRT plugins and TensorFlow's Windows wheels were compiled for, the version a pinned
/// JAX plan names, a yanked JAX release, and a ✓ that needs a driver the user cannot install.
#include <gtest/gtest.h>

#include <algorithm>

#include "kb/knowledge_base.hpp"
#include "kb/matrix_query.hpp"
#include "kb/resolver.hpp"
#include "kb_test_support.hpp"
#include "render/plan_render.hpp"

namespace gpudoctor {
namespace {

using testing::has_issue;
using testing::kb;
using testing::v;

Plan plan_for(Platform os, const char* gpu, const char* driver, const char* python, const char* fw) {
  return testing::plan_described(os, gpu, driver, python, fw);
}

bool any_reason(const PlanOption& o, const std::string& needle) {
  return std::any_of(o.reasons.begin(), o.reasons.end(),
                     [&](const std::string& r) { return r.find(needle) != std::string::npos; });
}

/// The option of a route among the best and the alternatives.
const PlanOption* option_on(const FrameworkPlan& fp, Platform route) {
  if (fp.best && fp.best->route == route) return &*fp.best;
  for (const PlanOption& a : fp.alternatives) {
    if (a.route == route) return &a;
  }
  return nullptr;
}

// ---- Defect 1: jax_cuda12_pjrt 0.4.30-0.5.3 has SASS sm_50..sm_90 and PTX sm_90 only ----------

TEST(PlanPypiReview, Jax0430OnRtx5090RunsOnlyThroughPtxJit) {
  Plan p = plan_for(Platform::linux, "RTX 5090", "580.95.05", "3.12", "jax==0.4.30");
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  const PlanOption& b = *p.frameworks[0].best;
  EXPECT_EQ(b.coverage, to_string(ArchCoverage::ptx_jit));
  EXPECT_TRUE(has_issue(b, "gpu-arch-ptx-only"));
  EXPECT_FALSE(b.verified()) << "a wrong ✓: the 0.4.30 plugin has no sm_120 kernels";
  const std::string text = render_plan_text(p, false);
  EXPECT_EQ(text.find("✓ Best"), std::string::npos) << text;
  EXPECT_EQ(text.find("has kernels for compute capability 12.0"), std::string::npos) << text;
}

TEST(PlanPypiReview, Jax053OnRtx5090IsNotNativeButJax060Is) {
  Plan old = plan_for(Platform::linux, "RTX 5090", "580.95.05", "3.12", "jax==0.5.3");
  ASSERT_TRUE(old.frameworks[0].best.has_value());
  EXPECT_FALSE(old.frameworks[0].best->verified());
  Plan first = plan_for(Platform::linux, "RTX 5090", "580.95.05", "3.12", "jax==0.6.0");
  ASSERT_TRUE(first.frameworks[0].best.has_value());
  EXPECT_EQ(first.frameworks[0].best->coverage, to_string(ArchCoverage::native));
  EXPECT_TRUE(first.frameworks[0].best->verified());
}

TEST(PlanPypiReview, JaxBuiltCudaComesFromThePluginsPtxIsa) {
  // PTX ISA 8.3 (CUDA 12.3) in 0.4.30's plugin; 8.7 (CUDA 12.8, the first with sm_120) in 0.6.0's.
  Plan old = plan_for(Platform::linux, "RTX 3090", "580.95.05", "3.12", "jax==0.4.30");
  ASSERT_TRUE(old.frameworks[0].best.has_value());
  EXPECT_EQ(old.frameworks[0].best->cuda, v("12.3"));
  Plan now = plan_for(Platform::linux, "RTX 3090", "580.95.05", "3.12", "jax[cuda12]==0.6.0");
  bool seen = false;
  for (const FrameworkPlan& fp : {now.frameworks[0]}) {
    std::vector<PlanOption> all = fp.alternatives;
    if (fp.best) all.push_back(*fp.best);
    for (const PlanOption& o : all) {
      if (o.variant != "cuda12") continue;
      seen = true;
      EXPECT_EQ(o.cuda, v("12.8"));
      EXPECT_TRUE(any_reason(o, "built with CUDA 12.8"));
    }
  }
  EXPECT_TRUE(seen);
}

TEST(PlanPypiReview, EveryJaxReleaseRunHasItsPluginsArchs) {
  for (const JaxRelease& r : kb().jax.releases) {
    for (const std::string& extra : r.extras) {
      for (const auto& bound : {r.versions.lowest(), r.versions.highest()}) {
        ASSERT_TRUE(bound.has_value()) << r.versions.text();
        EXPECT_NE(kb().jax_plugin(extra, *bound), nullptr) << extra << " " << bound->str();
      }
    }
  }
}

TEST(PlanPypiReview, JaxMatrixOnBlackwellSaysPtxJitBefore060) {
  MatrixFilter f;
  f.framework = Framework::jax;
  f.gpu_name = "RTX 5090";
  f.cc = v("12.0");
  int checked = 0;
  for (const MatrixRow& r : matrix_framework_rows(kb(), f)) {
    auto lo = Version::parse(r.version.substr(0, r.version.find('-')));
    ASSERT_TRUE(lo.has_value()) << r.version;
    if (*lo < v("0.6.0")) {
      EXPECT_EQ(r.gpu, to_string(ArchCoverage::ptx_jit)) << r.version;
      EXPECT_NE(r.archs.find("+PTX 9.0"), std::string::npos) << r.archs;
    } else {
      EXPECT_EQ(r.gpu, to_string(ArchCoverage::native)) << r.version;
    }
    ++checked;
  }
  EXPECT_GE(checked, 5);
}

// ---- Defect 2: TF 2.10 win_amd64: build_info.py sm_35 50 60 70 75 compute_80 -------------------

TEST(PlanPypiReview, Tf210WindowsWheelArchsAreRecorded) {
  const TfBuild* b = kb().tf_build(v("2.10"), Platform::windows);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->archs, (std::vector<Version>{v("3.5"), v("5.0"), v("6.0"), v("7.0"), v("7.5")}));
  EXPECT_EQ(b->ptx, v("8.0"));
  EXPECT_NE(b->archs_source.find("win_amd64"), std::string::npos);
}

TEST(PlanPypiReview, Tf210NativeWindowsOnRtx3060IsPtxJitLikeWsl2) {
  Plan p = plan_for(Platform::windows, "RTX 3060", "560.94", "3.10", "tensorflow==2.10");
  const PlanOption* native = option_on(p.frameworks[0], Platform::windows);
  ASSERT_NE(native, nullptr);
  EXPECT_EQ(native->coverage, to_string(ArchCoverage::ptx_jit));
  EXPECT_FALSE(native->verified());
  EXPECT_FALSE(any_reason(*native, "has kernels for compute capability 8.6"));
}

TEST(PlanPypiReview, Tf210NativeWindowsOnRtx5090KnowsItsPtx) {
  Plan p = plan_for(Platform::windows, "RTX 5090", "580.88", "3.10", "tensorflow==2.10");
  const FrameworkPlan& fp = p.frameworks[0];
  std::vector<PlanOption> all = fp.alternatives;
  if (fp.best) all.push_back(*fp.best);
  all.insert(all.end(), fp.rejected.begin(), fp.rejected.end());
  bool seen = false;
  for (const PlanOption& o : all) {
    if (o.route != Platform::windows || o.version != v("2.10")) continue;
    seen = true;
    EXPECT_FALSE(has_issue(o, "gpu-arch-unverified")) << "the wheel's compute_80 PTX is recorded";
    EXPECT_TRUE(has_issue(o, "gpu-arch-ptx-only"));
  }
  EXPECT_TRUE(seen);
}

// Found in review (2026-12-05): a GTX 750 Ti (5.0) was told "jax[cuda12] has no kernels", but the
// cuda12 plugin carries sm_50 SASS; what stops it is JAX's documented floor (5.2). The cuda13
// plugin really has none (its list starts at sm_75).
TEST(PlanPypiReview, JaxBelowItsFloorSaysTheFloorNotMissingKernels) {
  Plan p = plan_for(Platform::linux, "GTX 750 Ti", "580.95.05", "3.11", "jax");
  const FrameworkPlan& fp = p.frameworks[0];
  EXPECT_FALSE(fp.best.has_value());
  bool cuda12 = false;
  bool cuda13 = false;
  for (const PlanOption& o : fp.rejected) {
    for (const PlanIssue& i : o.issues) {
      if (i.id != "gpu-arch-unsupported") continue;
      EXPECT_TRUE(i.fatal);
      if (o.variant == "cuda12") {
        cuda12 = true;
        EXPECT_EQ(i.message.find("has no kernels"), std::string::npos) << i.message;
        EXPECT_NE(i.message.find("5.2"), std::string::npos) << i.message;
        EXPECT_NE(i.message.find("sm_50"), std::string::npos) << i.message;
      } else if (o.variant == "cuda13") {
        cuda13 = true;
        EXPECT_NE(i.message.find("has no kernels"), std::string::npos) << i.message;
      }
    }
  }
  EXPECT_TRUE(cuda12);
  EXPECT_TRUE(cuda13);
}

// ---- Defect 4: the pinned JAX version, and the yanked 0.4.32 ------------------------------------

TEST(PlanPypiReview, PinnedJaxVersionIsTheOneShown) {
  Plan p = plan_for(Platform::linux, "RTX 2080", "580.95.05", "3.11", "jax==0.9.0");
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  const PlanOption& b = *p.frameworks[0].best;
  EXPECT_EQ(b.version, v("0.9.0"));
  EXPECT_NE(b.summary().find("JAX 0.9.0"), std::string::npos) << b.summary();
  EXPECT_EQ(render_plan_text(p, false).find("JAX 0.10.2"), std::string::npos);
  EXPECT_EQ(render_plan_json(p).find("JAX 0.10.2"), std::string::npos);
}

TEST(PlanPypiReview, PinnedYankedJaxSaysSo) {
  Plan p = plan_for(Platform::linux, "RTX 3090", "580.95.05", "3.12", "jax==0.4.32");
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  EXPECT_TRUE(has_issue(*p.frameworks[0].best, "jax-yanked"));
  EXPECT_NE(render_plan_text(p, false).find("yanked"), std::string::npos);
  Plan ok = plan_for(Platform::linux, "RTX 3090", "580.95.05", "3.12", "jax==0.4.33");
  ASSERT_TRUE(ok.frameworks[0].best.has_value());
  EXPECT_FALSE(has_issue(*ok.frameworks[0].best, "jax-yanked"));
}

// ---- Defect 5: a plan that runs on the given driver ranks first --------------------------------

TEST(PlanPypiReview, A100OnDriver450GetsABuildThatRunsOnIt) {
  Plan p = plan_for(Platform::linux, "A100", "450.80.02", "3.9", "pytorch");
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  const PlanOption& b = *p.frameworks[0].best;
  EXPECT_FALSE(has_issue(b, "driver-too-old")) << b.summary();
  EXPECT_EQ(b.variant, "cu118");
}

TEST(PlanPypiReview, WithoutDriverTheNewestStaysFirst) {
  Plan p = plan_for(Platform::linux, "A100", nullptr, "3.9", "pytorch");
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  EXPECT_GT(p.frameworks[0].best->version, v("2.7"));
}

TEST(PlanPypiReview, Rtx5090On570GetsACuda128Build) {
  Plan p = plan_for(Platform::linux, "RTX 5090", "570.124.06", "3.12", "pytorch");
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  EXPECT_FALSE(has_issue(*p.frameworks[0].best, "driver-too-old")) << p.frameworks[0].best->summary();
}

TEST(PlanPypiReview, BestThatNeedsADriverUpdateHasNoTickAndTheScriptStops) {
  // Nothing runs a Blackwell GPU on a 560 driver: the best needs an update, and says so.
  Plan p = plan_for(Platform::linux, "RTX 5090", "560.35.03", "3.12", "pytorch");
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  ASSERT_TRUE(has_issue(*p.frameworks[0].best, "driver-too-old"));
  const std::string text = render_plan_text(p, false);
  EXPECT_EQ(text.find("✓ Best"), std::string::npos) << text;
  const std::string script = render_plan_script(p, Shell::bash);
  const size_t guard = script.find("exit 1");
  const size_t install = script.find("pip install \"torch");
  ASSERT_NE(guard, std::string::npos) << script;
  ASSERT_NE(install, std::string::npos) << script;
  EXPECT_LT(guard, install) << script;
}

TEST(PlanPypiReview, PowerShellScriptStopsOnAnOldWindowsDriver) {
  Plan p = plan_for(Platform::windows, "RTX 5090", "560.94", "3.12", "pytorch");
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  ASSERT_TRUE(has_issue(*p.frameworks[0].best, "driver-too-old"));
  const std::string script = render_plan_script(p, Shell::powershell);
  const size_t guard = script.find("-lt [version]'");
  const size_t install = script.find("pip install \"torch");
  ASSERT_NE(guard, std::string::npos) << script;
  ASSERT_NE(install, std::string::npos) << script;
  EXPECT_LT(guard, install) << script;
  // A Linux plan's driver step is bash: its PowerShell rendering runs no check.
  Plan lin = plan_for(Platform::linux, "RTX 5090", "560.35.03", "3.12", "pytorch");
  EXPECT_EQ(render_plan_script(lin, Shell::powershell).find("-lt [version]'"), std::string::npos);
}

// ---- Defect 8: JAX's reason line names the release's cuDNN --------------------------------------

TEST(PlanPypiReview, JaxReasonNamesTheReleasesCudnn) {
  Plan p = plan_for(Platform::linux, "RTX 3090", "580.95.05", "3.12", "jax==0.4.30");
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  const PlanOption& b = *p.frameworks[0].best;
  EXPECT_EQ(b.cudnn, v("9.0"));
  EXPECT_FALSE(any_reason(b, "cuDNN 9.8"));
  EXPECT_TRUE(any_reason(b, "cuDNN >= 9.0"));
}

// ---- Defect 3: TensorFlow 2.10-2.13 on Linux with conda's CUDA --------------------------------
// The PyPI wheel dlopens libcudart.so.11.0 and libcudnn.so.8 by name: without TensorFlow's
// recipe line that puts $CONDA_PREFIX/lib on LD_LIBRARY_PATH it finds neither and runs on the
// CPU. For cuDNN 8.6 (2.12, 2.13) the recipe takes the pip wheel, whose lib/ joins the path.

std::string env_commands(const PlanOption& o) {
  std::string all;
  for (const PlanStep& s : o.steps) {
    if (s.id != "env") continue;
    for (const PlanCommand& c : s.commands) all += c.line + "\n";
  }
  return all;
}

TEST(PlanPypiReview, TensorflowWithCondasCudaPutsItOnTheLoaderPath) {
  Plan p213 = plan_for(Platform::linux, "RTX 4090", "550.54.14", "3.8", "tensorflow");
  ASSERT_TRUE(p213.frameworks[0].best.has_value());
  ASSERT_EQ(p213.frameworks[0].best->variant, "system-cuda") << p213.frameworks[0].best->summary();
  const std::string c213 = env_commands(*p213.frameworks[0].best);
  EXPECT_NE(c213.find("python -m pip install nvidia-cudnn-cu11==8.6.0.163"), std::string::npos) << c213;
  EXPECT_EQ(c213.find("cudnn=8.6"), std::string::npos) << "cuDNN 8.6 comes from pip in TensorFlow's recipe";
  EXPECT_NE(c213.find("export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$CONDA_PREFIX/lib/:$CUDNN_PATH/lib"), std::string::npos)
      << c213;
  EXPECT_LT(c213.find("mkdir -p"), c213.find("env_vars.sh")) << c213;
  Plan p210 = plan_for(Platform::linux, "GTX 1080 Ti", "470.256.02", "3.9", "tensorflow==2.10");
  ASSERT_TRUE(p210.frameworks[0].best.has_value());
  const std::string c210 = env_commands(*p210.frameworks[0].best);
  EXPECT_NE(c210.find("cudnn=8.1"), std::string::npos) << c210;
  EXPECT_NE(c210.find("export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$CONDA_PREFIX/lib/'"), std::string::npos) << c210;
  EXPECT_NE(c210.find("source \"$CONDA_PREFIX/etc/conda/activate.d/env_vars.sh\""), std::string::npos) << c210;
}

}  // namespace
}  // namespace gpudoctor
