#include <gtest/gtest.h>

#include "kb/knowledge_base.hpp"
#include "kb_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::kb;

using testing::v;

TEST(KbLookup, GpuNamesAsNvidiaSmiPrintsThem) {
  EXPECT_EQ(kb().compute_capability("NVIDIA GeForce RTX 3060"), v("8.6"));
  EXPECT_EQ(kb().compute_capability("NVIDIA GeForce RTX 3060 Laptop GPU"), v("8.6"));
  EXPECT_EQ(kb().compute_capability("rtx 3060"), v("8.6"));
  EXPECT_EQ(kb().compute_capability("NVIDIA A100-SXM4-80GB"), v("8.0"));
  EXPECT_EQ(kb().compute_capability("NVIDIA H100 80GB HBM3"), v("9.0"));
  EXPECT_EQ(kb().compute_capability("Tesla V100-SXM2-32GB"), v("7.0"));
  EXPECT_EQ(kb().compute_capability("NVIDIA GeForce GTX 1080 Ti"), v("6.1"));
  EXPECT_EQ(kb().compute_capability("NVIDIA GeForce RTX 5090"), v("12.0"));
  EXPECT_EQ(kb().compute_capability("NVIDIA RTX 6000 Ada Generation"), v("8.9"));
  EXPECT_EQ(kb().compute_capability("Quadro RTX 6000"), v("7.5"));
  EXPECT_EQ(kb().compute_capability("NVIDIA RTX PRO 6000 Blackwell Workstation Edition"), v("12.0"));
}

TEST(KbLookup, SimilarNamesAreNotConfused) {
  // Ti and non-Ti are different rows; Maxwell TITAN X and Pascal TITAN X differ in CC.
  EXPECT_EQ(kb().find_gpu("NVIDIA GeForce RTX 3060 Ti").model->name, "NVIDIA GeForce RTX 3060 Ti");
  EXPECT_EQ(kb().compute_capability("NVIDIA GeForce GTX TITAN X"), v("5.2"));
  EXPECT_EQ(kb().compute_capability("NVIDIA TITAN X (Pascal)"), v("6.1"));
  EXPECT_FALSE(kb().compute_capability("RTX 6000"));  // Quadro RTX 6000 (7.5) or RTX 6000 Ada (8.9)?
}

TEST(KbLookup, UnknownGpuGetsNearestSuggestions) {
  GpuMatch m = kb().find_gpu("NVIDIA GeForce RTX 3070 Tie");
  EXPECT_EQ(m.model, nullptr);
  ASSERT_FALSE(m.suggestions.empty());
  EXPECT_NE(m.suggestions.front().find("3070"), std::string::npos) << m.suggestions.front();
  auto near = kb().nearest_gpu_names("GTX 1080", 3);
  ASSERT_EQ(near.size(), 3u);
  EXPECT_NE(near.front().find("1080"), std::string::npos);
  EXPECT_EQ(kb().find_gpu("").model, nullptr);
  EXPECT_EQ(kb().find_gpu("\x01\xff garbage !!!").model, nullptr);
  EXPECT_EQ(kb().find_gpu(std::string(10000, 'x')).model, nullptr);
}

TEST(KbLookup, ComputeCapabilityParsing) {
  EXPECT_EQ(parse_compute_capability("sm_86"), v("8.6"));
  EXPECT_EQ(parse_compute_capability("compute_90"), v("9.0"));
  EXPECT_EQ(parse_compute_capability("sm_120"), v("12.0"));
  EXPECT_EQ(parse_compute_capability("sm_90a"), v("9.0"));
  EXPECT_EQ(parse_compute_capability("8.9"), v("8.9"));
  EXPECT_FALSE(parse_compute_capability("sm_"));
  EXPECT_FALSE(parse_compute_capability("banana"));
  EXPECT_FALSE(parse_compute_capability("8.9.1"));
}

TEST(KbLookup, MinimumDriverPerToolkitRelease) {
  EXPECT_EQ(kb().min_driver_for_cuda(v("12.2.2"), Platform::linux), v("535.104.05"));
  EXPECT_EQ(kb().min_driver_for_cuda(v("12.2.0"), Platform::windows), v("536.25"));
  // Unknown update: the newest update's driver is the safe floor.
  EXPECT_EQ(kb().min_driver_for_cuda(v("12.2"), Platform::linux), v("535.104.05"));
  // Component patch numbers (12.2.140) map to the newest update not above them.
  EXPECT_EQ(kb().min_driver_for_cuda(v("12.2.140"), Platform::linux), v("535.104.05"));
  EXPECT_EQ(kb().min_driver_for_cuda(v("11.8"), Platform::wsl2), v("520.06"));
  EXPECT_EQ(kb().min_driver_for_cuda(v("10.2.89"), Platform::linux), v("440.33"));
  // 13.x Windows: N/A in the table (driver no longer bundled).
  EXPECT_FALSE(kb().min_driver_for_cuda(v("13.0.2"), Platform::windows));
  EXPECT_FALSE(kb().min_driver_for_cuda(v("12.7"), Platform::linux));  // never released
  EXPECT_FALSE(kb().min_driver_for_cuda(v("99.1"), Platform::linux));
}

TEST(KbLookup, MinorVersionCompatibilityFloors) {
  EXPECT_EQ(kb().family_min_driver(v("12.6"), Platform::linux), v("525.60.13"));
  // Sources disagree (528.33 vs 527.41): the conservative, higher value is encoded.
  EXPECT_EQ(kb().family_min_driver(v("12.1"), Platform::windows), v("528.33"));
  EXPECT_EQ(kb().family_min_driver(v("11.2"), Platform::linux), v("450.80.02"));
  EXPECT_EQ(kb().family_min_driver(v("13.0"), Platform::linux), v("580"));
  // Before CUDA 11 there is no minor-version compatibility: the toolkit's own driver.
  EXPECT_EQ(kb().family_min_driver(v("10.1"), Platform::linux), v("418.39"));
}

TEST(KbLookup, ToolkitArchitectures) {
  auto has = [&](const char* cuda, const char* cc) {
    const ToolkitArch* t = kb().toolkit_arch(v(cuda));
    if (t == nullptr) return false;
    return std::any_of(t->sass.begin(), t->sass.end(), [&](const Version& a) { return a == v(cc); });
  };
  EXPECT_TRUE(has("11.8", "8.9"));
  EXPECT_FALSE(has("11.7", "8.9"));
  EXPECT_TRUE(has("12.8", "12.0"));
  EXPECT_FALSE(has("12.6", "12.0"));
  EXPECT_TRUE(has("12.9", "6.1"));   // Pascal runs CUDA 12.x
  EXPECT_FALSE(has("13.0", "6.1"));  // ... but CUDA 13 dropped it
  EXPECT_FALSE(has("12.0", "3.7"));
  EXPECT_TRUE(has("13.2", "7.5"));
}

TEST(KbLookup, TensorflowRowsMatchTheTestedBuildTable) {
  const TfBuild* b = kb().tf_build(v("2.15.0"), Platform::linux);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(*b->cuda, v("12.2"));
  EXPECT_EQ(*b->cudnn, v("8.9"));
  EXPECT_TRUE(b->python.contains(v("3.11")));
  EXPECT_FALSE(b->python.contains(v("3.12")));
  const TfBuild* b14 = kb().tf_build(v("2.14.1"), Platform::linux);
  ASSERT_NE(b14, nullptr);
  // What the build was compiled with and checks (libtensorflow_framework.so.2), not the [and-cuda]
  // pin 8.7.0.84, which is newer and also accepted.
  EXPECT_EQ(*b14->cudnn, v("8.6"));
  // WSL2 uses the Linux rows.
  EXPECT_EQ(kb().tf_build(v("2.15"), Platform::wsl2), b);
  const TfBuild* w = kb().tf_build(v("2.15"), Platform::windows);
  ASSERT_NE(w, nullptr);
  EXPECT_FALSE(w->gpu);
  const TfBuild* w10 = kb().tf_build(v("2.10.1"), Platform::windows);
  ASSERT_NE(w10, nullptr);
  EXPECT_TRUE(w10->gpu);
  EXPECT_EQ(*w10->cuda, v("11.2"));
  EXPECT_EQ(*w10->cudnn, v("8.1"));
  EXPECT_TRUE(kb().tf_native_windows_gpu(v("2.10.0")));
  EXPECT_FALSE(kb().tf_native_windows_gpu(v("2.11.0")));
  // No row in tensorflow.org's Windows tables; read from the 2.13.0 win_amd64 wheels (review 44B).
  ASSERT_NE(kb().tf_build(v("2.13"), Platform::windows), nullptr);
  EXPECT_FALSE(kb().tf_build(v("2.13"), Platform::windows)->gpu);
  ASSERT_NE(kb().tf_and_cuda(v("2.15.0")), nullptr);
  EXPECT_EQ(kb().tf_and_cuda(v("2.15.0"))->recommended, "2.15.1");
  EXPECT_EQ(kb().tf_and_cuda(v("2.13.0")), nullptr);
}

TEST(KbLookup, TorchVariantsAndArchitectures) {
  const TorchRelease* r = kb().torch_release(v("2.8.0"));
  ASSERT_NE(r, nullptr);
  const TorchVariant* cu128 = kb().torch_variant(*r, "cu128");
  const TorchVariant* cu126 = kb().torch_variant(*r, "cu126");
  ASSERT_NE(cu128, nullptr);
  ASSERT_NE(cu126, nullptr);
  EXPECT_EQ(kb().torch_coverage(*cu128, v("6.1"), Platform::linux), ArchCoverage::none);
  // 2.8-2.10 cu128 reintroduced Volta (sm_70): the wheels' get_arch_list() starts at sm_70.
  EXPECT_EQ(kb().torch_coverage(*cu128, v("7.0"), Platform::linux), ArchCoverage::native);
  EXPECT_EQ(kb().torch_coverage(*cu126, v("6.1"), Platform::linux), ArchCoverage::native);
  EXPECT_EQ(kb().torch_coverage(*cu128, v("12.0"), Platform::linux), ArchCoverage::native);
  EXPECT_EQ(kb().torch_coverage(*cu126, v("12.0"), Platform::linux), ArchCoverage::none);
  EXPECT_EQ(kb().torch_coverage(*cu128, v("8.9"), Platform::linux), ArchCoverage::native);
  // 2.9 cu128: from 2.8 on, cu128 has no Maxwell/Pascal.
  const TorchVariant* c29 = kb().torch_variant(*kb().torch_release(v("2.9")), "cu128");
  ASSERT_NE(c29, nullptr);
  EXPECT_EQ(kb().torch_coverage(*c29, v("6.1"), Platform::linux), ArchCoverage::none);
  // 2.14 cu130 carries PTX for 12.0 on Linux only.
  const TorchVariant* c130 = kb().torch_variant(*kb().torch_release(v("2.14")), "cu130");
  ASSERT_NE(c130, nullptr);
  EXPECT_EQ(kb().torch_coverage(*c130, v("12.1"), Platform::linux), ArchCoverage::native);
  EXPECT_EQ(kb().torch_index_url("cu126"), "https://download.pytorch.org/whl/cu126");
  EXPECT_EQ(kb().torch_release(v("1.13")), nullptr);
}

TEST(KbLookup, CoverageByList) {
  std::vector<Version> tf220{v("6.0"), v("7.0"), v("8.0"), v("8.9")};
  EXPECT_EQ(KnowledgeBase::coverage_by_list(v("8.6"), tf220, v("9.0")), ArchCoverage::native);
  EXPECT_EQ(KnowledgeBase::coverage_by_list(v("12.0"), tf220, v("9.0")), ArchCoverage::ptx_jit);
  EXPECT_EQ(KnowledgeBase::coverage_by_list(v("5.2"), tf220, v("9.0")), ArchCoverage::none);
  EXPECT_EQ(KnowledgeBase::coverage_by_list(v("7.5"), tf220, std::nullopt), ArchCoverage::native);
}

}  // namespace
}  // namespace gpudoctor
