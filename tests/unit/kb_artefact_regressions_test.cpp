/// Regression tests for knowledge-base rows found wrong by an audit against the released
/// artefacts (issue 9, "Wrong today"). Each names the artefact that settles it.
#include <gtest/gtest.h>

#include <algorithm>

#include "kb/knowledge_base.hpp"
#include "kb/resolver.hpp"
#include "kb_test_support.hpp"
#include "model/facts.hpp"

namespace gpudoctor {
namespace {

const KnowledgeBase& kb() {
  return testing::builtin_kb();
}

using testing::v;

const TorchVariant& variant(const char* release, const char* tag) {
  const TorchRelease* rel = kb().torch_release(v(release));
  EXPECT_NE(rel, nullptr) << release;
  static const TorchVariant kNone{};
  if (rel == nullptr) return kNone;
  const TorchVariant* var = kb().torch_variant(*rel, tag);
  EXPECT_NE(var, nullptr) << release << " " << tag;
  return var != nullptr ? *var : kNone;
}

// PyPI has cp310-cp314 wheels for 2.13 and 2.14 and no cp315 one; 2.15.0 is the first with 3.15.
TEST(KbArtefactRegression, Torch213And214PythonRangeEndsAt314) {
  for (const char* series : {"2.13", "2.14"}) {
    const TorchRelease* rel = kb().torch_release(v(series));
    ASSERT_NE(rel, nullptr) << series;
    EXPECT_TRUE(rel->python.contains(v("3.14"))) << series;
    EXPECT_FALSE(rel->python.contains(v("3.15"))) << series << ": no cp315 wheel exists";
  }
  const TorchRelease* r215 = kb().torch_release(v("2.15"));
  ASSERT_NE(r215, nullptr) << "PyTorch 2.15 missing";
  EXPECT_TRUE(r215->python.contains(v("3.15")));
  EXPECT_FALSE(r215->python.contains(v("3.10"))) << "2.15.0 requires Python >= 3.11";
}

// torch-2.11.0 (cu130, the PyPI default) METADATA: nvidia-cudnn-cu13==9.19.0.56.
TEST(KbArtefactRegression, Torch211Cu130PinsCudnn91900056) {
  const TorchVariant& var = variant("2.11", "cu130");
  ASSERT_TRUE(var.cudnn.has_value());
  EXPECT_EQ(*var.cudnn, v("9.19.0.56"));
}

// 2.8-2.10 cu128 wheels carry sm_70 (Volta reintroduced); 2.11 cu128 dropped it again.
TEST(KbArtefactRegression, V100PlanTorch210DoesNotSayNoKernelsFor70) {
  for (const char* series : {"2.8", "2.9", "2.10"}) {
    EXPECT_EQ(kb().torch_coverage(variant(series, "cu128"), v("7.0"), Platform::linux), ArchCoverage::native) << series;
  }
  EXPECT_EQ(kb().torch_coverage(variant("2.11", "cu128"), v("7.0"), Platform::linux), ArchCoverage::none);

  PlanRequest r;
  r.os = Platform::linux;
  r.gpu_name = "V100";
  r.frameworks.push_back(*parse_framework_request("torch==2.10"));
  Plan p = resolve(r, kb());
  ASSERT_EQ(p.frameworks.size(), 1u);
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best.has_value());
  EXPECT_EQ(fp.best->version, v("2.10"));
  for (const PlanOption& o : fp.rejected) {
    EXPECT_NE(o.variant, "cu128") << "cu128 of 2.10 has sm_70 kernels, yet was rejected: " << o.summary();
  }
}

// Blackwell sub-generations: 10.0/12.0 from CUDA 12.8, 10.3/12.1 from 12.9, 11.0 from 13.0.
TEST(KbArtefactRegression, BlackwellSubGenerationsFirstToolkit) {
  struct Case {
    const char* cc;
    const char* first_cuda;
  };
  for (const Case c :
       {Case{"10.0", "12.8"}, Case{"12.0", "12.8"}, Case{"10.3", "12.9"}, Case{"12.1", "12.9"}, Case{"11.0", "13.0"}}) {
    const ArchGeneration* g = kb().generation_of(v(c.cc));
    ASSERT_NE(g, nullptr) << c.cc;
    EXPECT_EQ(g->name, "Blackwell");
    EXPECT_EQ(g->first_cuda, v(c.first_cuda)) << c.cc;
  }
}

// cuDNN 9.0.0 support matrix: dynamic linking on CUDA 12.0-12.3, static linking only with 12.3.
TEST(KbArtefactRegression, Cudnn90StaticLinkingOnlyWith123) {
  const auto it = std::find_if(kb().cudnn_builds.begin(), kb().cudnn_builds.end(), [](const CudnnBuild& b) {
    return b.cuda_major == 12 && b.cudnn.contains(v("9.0.0")) && !b.cudnn.contains(v("9.1.0"));
  });
  ASSERT_NE(it, kb().cudnn_builds.end());
  EXPECT_NE(it->note.find("static linking is supported only with CUDA 12.3"), std::string::npos) << it->note;
  EXPECT_NE(it->note.find("Dynamic linking works with CUDA 12.0-12.3"), std::string::npos) << it->note;
  EXPECT_EQ(it->note.find("12.3 with static linking only"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
