#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "kb/knowledge_base.hpp"
#include "kb/matrix_query.hpp"
#include "kb_test_support.hpp"
#include "render/matrix_render.hpp"

namespace gpudoctor {
namespace {

using testing::kb;

using testing::v;

TEST(KbMatrix, JsonContract) {
  MatrixFilter f;
  auto j = nlohmann::json::parse(render_matrix_json(matrix_view(kb(), f)));
  EXPECT_EQ(j["schema_version"], 1);
  ASSERT_TRUE(j["frameworks"].is_array());
  ASSERT_GT(j["frameworks"].size(), 60u);
  for (const auto& r : j["frameworks"]) {
    for (const char* key : {"framework", "version", "os", "python", "cuda", "cudnn", "source"}) {
      EXPECT_TRUE(r.contains(key)) << key << " in " << r.dump();
    }
    EXPECT_FALSE(r["source"].get<std::string>().empty());
  }
  ASSERT_GT(j["drivers"].size(), 40u);
  for (const auto& r : j["drivers"]) {
    for (const char* key : {"cuda", "driver_linux", "driver_windows", "source"}) {
      EXPECT_TRUE(r.contains(key)) << key << " in " << r.dump();
    }
  }
  // Driver versions keep NVIDIA's two-digit fields.
  bool found = false;
  for (const auto& r : j["drivers"]) {
    if (r["cuda"] == "11.4.4") {
      found = true;
      EXPECT_EQ(r["driver_linux"], "470.82.01");
    }
  }
  EXPECT_TRUE(found);
}

TEST(KbMatrix, FiltersNarrowRows) {
  MatrixFilter f;
  f.framework = Framework::tensorflow;
  f.os = Platform::windows;
  auto rows = matrix_framework_rows(kb(), f);
  ASSERT_FALSE(rows.empty());
  for (const MatrixRow& r : rows) {
    EXPECT_EQ(r.framework, Framework::tensorflow);
    EXPECT_EQ(r.os, "windows");
    if (v(r.version.c_str()) > v("2.10")) EXPECT_TRUE(r.cuda.empty()) << r.version;  // CPU only
  }
  f.python = v("3.11");
  f.os.reset();
  f.cuda = v("12.2");
  rows = matrix_framework_rows(kb(), f);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].version, "2.15");
  EXPECT_EQ(rows[0].cudnn, "8.9");
}

// `matrix --framework 'tensorflow<=2.15'` listed every TensorFlow row until 2026-12-07: the range
// was parsed and dropped. Rows are kept when the request admits a release of their series (JAX: of
// their run of releases), read as `plan` reads it (PEP 440).
TEST(KbMatrix, AFrameworkRangeKeepsOnlyItsRows) {
  MatrixFilter f;
  f.framework = Framework::tensorflow;
  f.versions = VersionSpec::parse_requirement("<=2.15");
  auto rows = matrix_framework_rows(kb(), f);
  ASSERT_FALSE(rows.empty());
  bool saw_215 = false;
  for (const MatrixRow& r : rows) {
    EXPECT_LE(v(r.version.c_str()).truncated(2), v("2.15")) << r.version;
    saw_215 = saw_215 || v(r.version.c_str()).truncated(2) == v("2.15");
  }
  EXPECT_TRUE(saw_215);
  f.framework = Framework::pytorch;
  f.versions = VersionSpec::parse_requirement("==2.5.1");
  rows = matrix_framework_rows(kb(), f);
  ASSERT_FALSE(rows.empty());
  for (const MatrixRow& r : rows) EXPECT_EQ(r.version, "2.5") << r.version;
  f.framework = Framework::jax;
  f.versions = VersionSpec::parse_requirement(">=0.6.1,<0.7");
  rows = matrix_framework_rows(kb(), f);
  ASSERT_FALSE(rows.empty());
  for (const MatrixRow& r : rows) EXPECT_EQ(r.version.rfind("0.6", 0), 0u) << r.version;
  // The near miss: no range, every row.
  f.versions.reset();
  EXPECT_GT(matrix_framework_rows(kb(), f).size(), rows.size());
}

TEST(KbMatrix, GpuFilterDropsBuildsWithoutKernels) {
  MatrixFilter f;
  f.framework = Framework::pytorch;
  f.gpu_name = "GTX 1080";
  f.cc = v("6.1");
  for (const MatrixRow& r : matrix_framework_rows(kb(), f)) {
    if (v(r.version.c_str()) >= v("2.8")) EXPECT_NE(r.variant, "cu128") << r.version;
    EXPECT_NE(r.variant.substr(0, 4), "cu13") << r.version << " " << r.variant;
  }
}

/// Audit B2/B4: TF rows without a recorded list are "derived", never "native"; a Jetson board
/// is never "native" by the x86 PyTorch list.
TEST(KbMatrix, GpuColumnNeverClaimsNativeWithoutAList) {
  MatrixFilter f;
  f.framework = Framework::tensorflow;
  f.os = Platform::linux;
  f.gpu_name = "GTX 980";
  f.cc = v("5.2");
  int derived = 0;
  for (const MatrixRow& r : matrix_framework_rows(kb(), f)) {
    auto version = Version::parse(r.version);
    const TfBuild* b = version ? kb().tf_build(*version, Platform::linux) : nullptr;
    if (b == nullptr || b->archs.empty()) EXPECT_NE(r.gpu, "native") << r.version;
    derived += r.gpu == "derived" ? 1 : 0;
  }
  EXPECT_GT(derived, 0);
  f.framework = Framework::pytorch;
  f.gpu_name = "Jetson Nano";
  f.cc = v("5.3");
  for (const MatrixRow& r : matrix_framework_rows(kb(), f)) EXPECT_NE(r.gpu, "native") << r.version << " " << r.variant;
}

TEST(KbMatrix, TextViews) {
  MatrixFilter f;
  f.drivers = true;
  f.arch = true;
  f.cudnn = true;
  f.sources = true;
  std::string t = render_matrix_text(matrix_view(kb(), f));
  EXPECT_NE(t.find("535.104.05"), std::string::npos);
  EXPECT_NE(t.find("Minor-version compatibility"), std::string::npos);
  EXPECT_NE(t.find("NVIDIA GeForce RTX 3060"), std::string::npos);
  EXPECT_NE(t.find("cuDNN support matrix"), std::string::npos);
  EXPECT_NE(t.find("Kitware/CMake"), std::string::npos);
}

// Issue 9: the matrix shows TensorFlow's compiled architectures, which variant plain
// `pip install torch` gets, JAX releases with their Python range, and a driver table that
// does not suggest a CUDA 12 build stops working on a newer driver.
TEST(KbMatrix, ColumnsFromTheReleasedWheels) {
  MatrixFilter f;
  auto rows = matrix_framework_rows(kb(), f);
  const MatrixRow* tf221 = nullptr;
  const MatrixRow* torch210 = nullptr;
  const MatrixRow* torch210_126 = nullptr;
  std::vector<const MatrixRow*> jax;
  for (const MatrixRow& r : rows) {
    if (r.framework == Framework::tensorflow && r.version == "2.21" && r.os == "linux") tf221 = &r;
    if (r.framework == Framework::pytorch && r.version == "2.10" && r.variant == "cu128") torch210 = &r;
    if (r.framework == Framework::pytorch && r.version == "2.10" && r.variant == "cu126") torch210_126 = &r;
    if (r.framework == Framework::jax) jax.push_back(&r);
  }
  ASSERT_NE(tf221, nullptr);
  EXPECT_EQ(tf221->archs, "6.0 7.0 8.0 8.9 +PTX 9.0");
  ASSERT_NE(torch210, nullptr);
  EXPECT_EQ(torch210->pypi_default, "linux-x86_64");
  ASSERT_NE(torch210_126, nullptr);
  EXPECT_EQ(torch210_126->pypi_default, "");
  ASSERT_GT(jax.size(), 5u);
  // 0.12.1 (harvested 2026-12-06) has only the cuda13 extra: its own row, then 0.11.2-0.12.0.1.
  EXPECT_EQ(jax.front()->version, "0.12.1");
  EXPECT_EQ(jax.front()->python, "3.12-3.15");
  EXPECT_EQ(jax[1]->version, "0.11.2-0.12.0.1");
  // A Python filter keeps the JAX releases that have wheels for it.
  f.framework = Framework::jax;
  f.python = v("3.10");
  auto j310 = matrix_framework_rows(kb(), f);
  ASSERT_FALSE(j310.empty());
  for (const MatrixRow& r : j310) EXPECT_TRUE(VersionSpec::parse(r.python)->contains(v("3.10"))) << r.version;

  MatrixFilter d;
  d.drivers = true;
  std::string t = render_matrix_text(matrix_view(kb(), d));
  EXPECT_EQ(t.find("compat_upper"), std::string::npos);
  EXPECT_EQ(t.find("< 580"), std::string::npos) << "reads as: CUDA 12 needs a driver below 580";
  EXPECT_NE(t.find("580 (still runs 12.x)"), std::string::npos) << t;
}

// tensorflow-addons' [[addons]] rows: a table beside the TensorFlow rows it pins to, in text and
// JSON, only for the TensorFlow releases the filter keeps.
TEST(KbMatrix, TensorflowAddonsBesideTheTensorflowRows) {
  MatrixFilter f;
  MatrixView all = matrix_view(kb(), f);
  ASSERT_EQ(all.addons.size(), kb().tensorflow.addons.size());
  EXPECT_EQ(all.addons.front().addons.str(), kb().tensorflow.addons.back().addons.str());  // newest first
  std::string t = render_matrix_text(all);
  const TfAddons& newest = kb().tensorflow.addons.back();
  EXPECT_NE(t.find("tensorflow-addons -> the TensorFlow each series supports"), std::string::npos) << t;
  auto line_at = t.find("\n" + newest.addons.str() + " ");
  ASSERT_NE(line_at, std::string::npos) << t;
  std::string line = t.substr(line_at + 1, t.find('\n', line_at + 1) - line_at - 1);
  EXPECT_NE(line.find(newest.tensorflow.text()), std::string::npos) << line;
  EXPECT_NE(line.find(newest.end_of_life), std::string::npos) << line;
  auto j = nlohmann::json::parse(render_matrix_json(all));
  ASSERT_EQ(j["tensorflow_addons"].size(), kb().tensorflow.addons.size());
  const auto& first = j["tensorflow_addons"][0];
  EXPECT_EQ(first["tensorflow_addons"], newest.addons.str());
  EXPECT_EQ(first["tensorflow"], newest.tensorflow.text());
  EXPECT_EQ(first["end_of_life"], newest.end_of_life);
  EXPECT_EQ(first["source"], newest.source);
  // Only the series whose range holds a TensorFlow release shown: TF 2.15 -> 0.23 alone (0.22's
  // range ends before 2.15.0: ">=2.12.0,<2.15.0").
  f.framework = Framework::tensorflow;
  f.python = v("3.11");
  f.cuda = v("12.2");
  MatrixView one = matrix_view(kb(), f);
  ASSERT_EQ(one.frameworks.size(), 1u);
  std::vector<std::string> shown;
  for (const TfAddons& a : one.addons) shown.push_back(a.addons.str());
  EXPECT_EQ(shown, std::vector<std::string>{"0.23"});
  // No TensorFlow shown, no table.
  f = MatrixFilter{};
  f.framework = Framework::pytorch;
  MatrixView torch = matrix_view(kb(), f);
  EXPECT_TRUE(torch.addons.empty());
  EXPECT_EQ(render_matrix_text(torch).find("tensorflow-addons"), std::string::npos);
  EXPECT_TRUE(nlohmann::json::parse(render_matrix_json(torch))["tensorflow_addons"].empty());
}

}  // namespace
}  // namespace gpudoctor
