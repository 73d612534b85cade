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

using testing::kb;

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

// jax_cuda13_plugin METADATA (every release since 0.7.2): with-cuda requires nvidia-cudnn-cu13
// >=9.12.0.46; jax_cuda12_plugin since 0.11.2: nvidia-cudnn-cu12 >=9.10.2.21. The install
// guide's ">=9.8" let a cuDNN 9.10 pass for jax[cuda13] (a wrong ✓).
TEST(KbArtefactRegression, JaxExtrasCudnnFloorsAreThePluginsPins) {
  const JaxVariant* c13 = kb().jax_variant("cuda13");
  const JaxVariant* c12 = kb().jax_variant("cuda12");
  ASSERT_NE(c13, nullptr);
  ASSERT_NE(c12, nullptr);
  EXPECT_FALSE(c13->cudnn.contains(v("9.10.2.21"))) << c13->cudnn.text();
  EXPECT_TRUE(c13->cudnn.contains(v("9.12.0.46"))) << c13->cudnn.text();
  EXPECT_FALSE(c12->cudnn.contains(v("9.8.0.87"))) << c12->cudnn.text();
  EXPECT_TRUE(c12->cudnn.contains(v("9.10.2.21"))) << c12->cudnn.text();
  // An older release keeps its own, lower floor: jax 0.6.2's plugin asks for >=9.8.
  const VersionSpec* old = kb().jax_cudnn(*c12, v("0.6.2"));
  ASSERT_NE(old, nullptr);
  EXPECT_TRUE(old->contains(v("9.8.0.87"))) << old->text();
}

// jax METADATA Requires-Python and the jaxlib cp3XY wheels: 0.4.30 >=3.9, 0.4.31 >=3.10,
// 0.7.0 >=3.11, 0.11.0 >=3.12; 0.11.1 adds cp315. jax-cuda13-plugin wheels start at 0.7.2.
TEST(KbArtefactRegression, JaxReleasesKeepTheirPythonFloors) {
  struct Case {
    const char* jax;
    const char* lowest;
    const char* below;
    const char* highest;
  };
  for (const Case c : {Case{"0.4.30", "3.9", "3.8", "3.12"}, Case{"0.4.31", "3.10", "3.9", "3.12"},
                       Case{"0.6.2", "3.10", "3.9", "3.13"}, Case{"0.7.0", "3.11", "3.10", "3.13"},
                       Case{"0.11.0", "3.12", "3.11", "3.14"}, Case{"0.12.0.1", "3.12", "3.11", "3.15"}}) {
    const JaxRelease* r = kb().jax_release(v(c.jax));
    ASSERT_NE(r, nullptr) << c.jax;
    EXPECT_TRUE(r->python.contains(v(c.lowest))) << c.jax << " " << r->python.text();
    EXPECT_TRUE(r->python.contains(v(c.highest))) << c.jax << " " << r->python.text();
    EXPECT_FALSE(r->python.contains(v(c.below))) << c.jax << " " << r->python.text();
  }
  auto has = [](const JaxRelease* r, const char* extra) {
    return r != nullptr && std::find(r->extras.begin(), r->extras.end(), extra) != r->extras.end();
  };
  EXPECT_FALSE(has(kb().jax_release(v("0.7.1")), "cuda13"));
  EXPECT_TRUE(has(kb().jax_release(v("0.7.2")), "cuda13"));
}

// A plan for Python 3.10 gets a JAX release that has wheels for 3.10 (0.6.2, cuda12), not the
// newest JAX, which needs Python >= 3.12.
TEST(KbArtefactRegression, JaxPlanForPython310PinsARelease) {
  PlanRequest r;
  r.os = Platform::linux;
  r.gpu_name = "RTX 3060";
  r.python = v("3.10");
  r.frameworks.push_back(*parse_framework_request("jax"));
  Plan p = resolve(r, kb());
  ASSERT_EQ(p.frameworks.size(), 1u);
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best.has_value());
  EXPECT_FALSE(fp.best->python_change) << fp.best->summary();
  EXPECT_EQ(fp.best->variant, "cuda12");
  EXPECT_EQ(fp.best->install_spec, "jax[cuda12]==0.6.2");
  EXPECT_TRUE(VersionSpec::parse(fp.best->python_range)->contains(v("3.10"))) << fp.best->python_range;
}

// NVIDIA's driver table after 13.1: 13.1 Update 1 590.48.01, 13.2 595.45.04, 13.2 Update 1
// 595.58.03, 13.3 610.43.02 (Linux; Windows N/A).
TEST(KbArtefactRegression, DriverRowsAfterCuda131) {
  struct Case {
    const char* cuda;
    const char* linux;
  };
  for (const Case c : {Case{"13.1.1", "590.48.01"}, Case{"13.2.0", "595.45.04"}, Case{"13.2.1", "595.58.03"},
                       Case{"13.3.0", "610.43.02"}}) {
    const CudaDriverRow* row = kb().driver_row_for_cuda(v(c.cuda));
    ASSERT_NE(row, nullptr) << c.cuda;
    EXPECT_EQ(row->cuda, v(c.cuda));
    ASSERT_TRUE(row->linux.has_value());
    EXPECT_EQ(*row->linux, v(c.linux)) << c.cuda;
    EXPECT_FALSE(row->windows.has_value()) << c.cuda;
  }
  // "13.2" without an update: the newest update's driver is the safe floor.
  EXPECT_EQ(kb().min_driver_for_cuda(v("13.2"), Platform::linux), v("595.58.03"));
}

// 13.3 Update 1, 13.4 and 13.5 exist but their driver rows were not retrieved: unknown, never
// 13.3 GA's driver (which would pass a driver older than the update's own).
TEST(KbArtefactRegression, UnrecordedToolkitDriversAreUnknown) {
  for (const char* cuda : {"13.3", "13.3.1", "13.3.73", "13.4", "13.4.1", "13.4.2", "13.5.0"}) {
    EXPECT_EQ(kb().driver_row_for_cuda(v(cuda)), nullptr) << cuda;
    EXPECT_FALSE(kb().min_driver_for_cuda(v(cuda), Platform::linux).has_value()) << cuda;
  }
  EXPECT_EQ(kb().min_driver_for_cuda(v("13.3.0"), Platform::linux), v("610.43.02"));
  // The minor-version-compatibility floor of the family still holds for all of them.
  EXPECT_EQ(kb().family_min_driver(v("13.4.1"), Platform::linux), v("580"));
}

// GPUs people own that the table did not know (each: a plan with `--gpu NAME` would say
// "not in the knowledge base" and skip every architecture check).
TEST(KbArtefactRegression, GpusPeopleOwnAreKnown) {
  struct Case {
    const char* name;
    const char* cc;
  };
  for (const Case c :
       {Case{"NVIDIA A10G", "8.6"}, Case{"NVIDIA GeForce GTX 1050 Ti", "6.1"},
        Case{"NVIDIA GeForce RTX 2070 SUPER", "7.5"}, Case{"Quadro P2000", "6.1"}, Case{"Quadro P620", "6.1"},
        Case{"NVIDIA RTX A1000 Laptop GPU", "8.6"}, Case{"NVIDIA RTX 4000 SFF Ada Generation", "8.9"},
        Case{"NVIDIA H800", "9.0"}, Case{"NVIDIA H20", "9.0"}, Case{"NVIDIA L20", "8.9"}}) {
    auto cc = kb().compute_capability(c.name);
    ASSERT_TRUE(cc.has_value()) << c.name;
    EXPECT_EQ(*cc, v(c.cc)) << c.name;
  }
}

// PyTorch 2.7 cu128 (Linux) starts at 7.5: a GTX 1080 or V100 gets no kernels from it (the
// table said nothing, so the toolkit's 5.0+ list was assumed: a wrong ✓).
TEST(KbArtefactRegression, Torch27Cu128StartsAt75) {
  EXPECT_EQ(kb().torch_coverage(variant("2.7", "cu128"), v("6.1"), Platform::linux), ArchCoverage::none);
  EXPECT_EQ(kb().torch_coverage(variant("2.7", "cu128"), v("7.0"), Platform::linux), ArchCoverage::none);
  EXPECT_EQ(kb().torch_coverage(variant("2.7", "cu128"), v("7.5"), Platform::linux), ArchCoverage::native);
  EXPECT_EQ(kb().torch_coverage(variant("2.7", "cu126"), v("6.1"), Platform::linux), ArchCoverage::native);
}

}  // namespace
}  // namespace gpudoctor
