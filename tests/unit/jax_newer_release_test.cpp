/// A JAX release newer than the knowledge base (session 40's refresh, 2026-12-06): the tables end at
/// the last harvested release, and PyPI moves on (jax 0.12.1 came out 2026-11-18). Such a release
/// must never get a ✓ or a silent pass from an older release's rows (its plugin's architecture list,
/// its cuDNN floor): the doctor and the plan say it is not in the knowledge base and judge it by its
/// own files where they say something (the installed plugin's METADATA cuDNN requirement).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "check/compat_checks.hpp"
#include "check_test_support.hpp"
#include "core/text.hpp"
#include "core/version.hpp"
#include "kb/knowledge_base.hpp"
#include "kb/resolver.hpp"
#include "model/facts.hpp"
#include "model/plan.hpp"

namespace gpudoctor {
namespace {

// Far past every harvested release: stays unknown after later refreshes.
constexpr const char* kJaxNewerThanTables = "0.99.0";

/// jax, jax-cuda13-plugin (its METADATA's with-cuda extra asking for `cudnn_req`) and
/// jax-cuda13-pjrt of one release, beside a cuDNN wheel, on an RTX 5090 with driver 590.
std::vector<Finding> jax_newer_findings(const char* release, const char* cudnn_req, const char* cudnn_wheel) {
  Facts f = testing::machine(Platform::linux, "NVIDIA GeForce RTX 5090", "590.48.01");
  PythonEnvFacts e = testing::env_with("3.12.4", testing::cuda_framework("jax", release, "cuda13"));
  FrameworkFacts plugin = testing::cuda_framework("jax-cuda-plugin", release, "cuda13");
  plugin.package = "jax-cuda13-plugin";
  if (cudnn_req != nullptr) {
    plugin.nvidia_requires.push_back(DistRequirement{"nvidia-cudnn-cu13", cudnn_req, "extra == \"with-cuda\""});
  }
  plugin.location = e.path + "/lib/site-packages";
  e.frameworks.push_back(plugin);
  FrameworkFacts pjrt = testing::cuda_framework("jax-cuda-pjrt", release, "cuda13");
  pjrt.package = "jax-cuda13-pjrt";
  pjrt.location = e.path + "/lib/site-packages";
  e.frameworks.push_back(pjrt);
  e.nvidia_wheels.push_back(NvidiaWheel{"nvidia-cudnn-cu13", testing::v(cudnn_wheel), "cudnn", 13});
  f.python_envs.push_back(e);
  return compatibility_findings(f, testing::builtin_kb());
}

TEST(JaxNewerRelease, NoPluginRowMeansCoverageUnknownNotNative) {
  const KnowledgeBase& kb = testing::builtin_kb();
  const JaxVariant* c13 = kb.jax_variant("cuda13");
  ASSERT_NE(c13, nullptr);
  EXPECT_EQ(kb.jax_plugin("cuda13", testing::v(kJaxNewerThanTables)), nullptr);
  // An RTX 5090 (12.0): the newest recorded plugin has sm_120, but a newer one is not recorded.
  EXPECT_EQ(kb.jax_coverage(*c13, testing::v(kJaxNewerThanTables), testing::v("12.0")), ArchCoverage::unknown);
  // Below the variant's floor stays none: JAX's guide says so for every release.
  EXPECT_EQ(kb.jax_coverage(*c13, testing::v(kJaxNewerThanTables), testing::v("7.0")), ArchCoverage::none);
}

// A release row without a [[plugin]] row (the architecture harvest not yet run for it): the plan
// says the plugin's list is not recorded, never "has kernels".
TEST(JaxNewerRelease, ReleaseRowWithoutAPluginRowIsUnrecordedInThePlan) {
  KnowledgeBase no_plugin = testing::builtin_kb();
  for (JaxPlugin& p : no_plugin.jax.plugins) {
    if (p.extra == "cuda13") p.versions = *VersionSpec::parse(">=0.7.2,<=0.12.0.1");
  }
  ASSERT_NE(no_plugin.jax_release(testing::v("0.12.1")), nullptr);
  PlanRequest r;
  r.os = Platform::linux;
  r.gpu_name = "RTX 5090";
  r.cc = testing::v("12.0");
  r.python = testing::v("3.12");
  r.driver = testing::v("590.48.01");
  r.frameworks.push_back(*parse_framework_request("jax==0.12.1"));
  const Plan p = resolve(r, no_plugin);
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  const PlanOption& best = *p.frameworks[0].best;
  EXPECT_FALSE(best.verified()) << best.summary();
  const bool said = std::any_of(best.issues.begin(), best.issues.end(), [](const PlanIssue& i) {
    return i.id == "gpu-arch-unrecorded" && contains(i.message, "not recorded");
  });
  EXPECT_TRUE(said) << best.summary();
}

TEST(JaxNewerRelease, DoctorSaysTheReleaseIsNotInTheKnowledgeBase) {
  const auto fs = jax_newer_findings(kJaxNewerThanTables, "<10.0,>=9.12.0.46", "9.20.0.48");
  const Finding* unknown = testing::find(fs, "framework-version-unknown");
  ASSERT_NE(unknown, nullptr) << testing::ids(fs);
  EXPECT_TRUE(contains(unknown->title, "JAX 0.99.0")) << unknown->title;
  EXPECT_TRUE(contains(unknown->title, "not in the knowledge base")) << unknown->title;
  EXPECT_TRUE(contains(unknown->detail, "architectures")) << unknown->detail;
  // A known release gets no such note.
  const auto known = jax_newer_findings("0.12.0", "<10.0,>=9.12.0.46", "9.20.0.48");
  EXPECT_EQ(testing::find(known, "framework-version-unknown"), nullptr) << testing::ids(known);
}

TEST(JaxNewerRelease, DoctorHoldsItsCudnnToTheInstalledPluginsOwnFloor) {
  // Its plugin asks for cuDNN >= 9.20; 9.15 passes the last recorded release's floor (9.12.0.46),
  // which is not this release's.
  const auto fs = jax_newer_findings(kJaxNewerThanTables, "<10.0,>=9.20.0.48", "9.15.1.9");
  const Finding* m = testing::find(fs, "jax-cudnn-mismatch");
  ASSERT_NE(m, nullptr) << testing::ids(fs);
  EXPECT_TRUE(contains(m->title, "9.20.0.48")) << m->title;
  EXPECT_FALSE(contains(m->source, "0.12.0.1")) << m->source;
  EXPECT_TRUE(contains(m->source, "METADATA")) << m->source;
  // At its own floor: no finding.
  const auto ok = jax_newer_findings(kJaxNewerThanTables, "<10.0,>=9.20.0.48", "9.20.0.48");
  EXPECT_EQ(testing::find(ok, "jax-cudnn-mismatch"), nullptr) << testing::ids(ok);
}

TEST(JaxNewerRelease, PlanForAPinnedNewerReleaseIsNeverAPlainTick) {
  PlanRequest r;
  r.os = Platform::linux;
  r.gpu_name = "RTX 5090";
  r.cc = testing::v("12.0");
  r.python = testing::v("3.12");
  r.driver = testing::v("590.48.01");
  r.frameworks.push_back(*parse_framework_request(std::string("jax==") + kJaxNewerThanTables));
  const Plan p = resolve(r, testing::builtin_kb());
  ASSERT_EQ(p.frameworks.size(), 1u);
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best.has_value());
  EXPECT_FALSE(fp.best->verified()) << fp.best->summary();
  const bool said = std::any_of(fp.best->issues.begin(), fp.best->issues.end(), [](const PlanIssue& i) {
    return i.id == "jax-release-unknown" && contains(i.message, "not in the knowledge base");
  });
  EXPECT_TRUE(said) << fp.best->summary();
  for (const std::string& reason : fp.best->reasons) {
    EXPECT_FALSE(contains(reason, "has kernels for")) << reason;
  }
}

// Versions the harvested runs do not hold though a bound's series does (the session 40 re-read):
// a four-part release past "<=0.12.1" (JAX publishes them: 0.9.0.1, 0.12.0.1), a pre-release, a
// development build, and one between two rows. None is planned or checked with a row's facts.
TEST(JaxNewerRelease, FourPartPreAndDevReleasesAreNotTheRowsRelease) {
  for (const char* version : {"0.12.1.1", "0.12.1rc1", "0.12.2.dev20261201", "0.12.0.2", "0.12.0rc1"}) {
    EXPECT_EQ(testing::builtin_kb().jax_release(testing::v(version)), nullptr) << version;
    PlanRequest r;
    r.os = Platform::linux;
    r.gpu_name = "RTX 5090";
    r.cc = testing::v("12.0");
    r.python = testing::v("3.12");
    r.driver = testing::v("590.48.01");
    r.frameworks.push_back(*parse_framework_request(std::string("jax==") + version));
    const Plan p = resolve(r, testing::builtin_kb());
    ASSERT_EQ(p.frameworks.size(), 1u);
    const FrameworkPlan& fp = p.frameworks[0];
    ASSERT_TRUE(fp.best.has_value()) << version;
    EXPECT_FALSE(fp.best->verified()) << version << ": " << fp.best->summary();
    const auto fs = jax_newer_findings(version, "<10.0,>=9.12.0.46", "9.20.0.48");
    EXPECT_NE(testing::find(fs, "framework-version-unknown"), nullptr) << version << ": " << testing::ids(fs);
  }
  // Near miss: the harvested releases themselves keep their rows.
  for (const char* version : {"0.12.1", "0.12.0.1", "0.4.30"}) {
    EXPECT_NE(testing::builtin_kb().jax_release(testing::v(version)), nullptr) << version;
  }
}

// jax 0.12.1 (PyPI 2026-11-18), harvested 2026-12-06: jax-0.12.1-py3-none-any.whl METADATA
// (Requires-Python >=3.12; every CUDA extra pins its plugin ==0.12.1), jaxlib-0.12.1 cp312-cp315
// wheels, jax_cuda13_plugin-0.12.1 METADATA (nvidia-cudnn-cu13<10.0,>=9.12.0.46). PyPI has no
// jax-cuda12-plugin 0.12.1 (its newest is 0.12.0.1): jax[cuda12]==0.12.1 cannot be installed.
TEST(KbJaxRelease0121, OnlyTheCuda13ExtraHasAPlugin) {
  const JaxRelease* r = testing::builtin_kb().jax_release(testing::v("0.12.1"));
  ASSERT_NE(r, nullptr) << "jax 0.12.1 has no [[release]] row";
  EXPECT_EQ(r->extras, std::vector<std::string>{"cuda13"});
  EXPECT_TRUE(r->python.contains(testing::v("3.12")));
  EXPECT_TRUE(r->python.contains(testing::v("3.15")));
  EXPECT_FALSE(r->python.contains(testing::v("3.11")));
  ASSERT_TRUE(r->cuda13_cudnn.has_value());
  EXPECT_EQ(r->cuda13_cudnn->lowest(), testing::v("9.12.0.46"));
  EXPECT_TRUE(r->source.find("[artefact]") != std::string::npos) << r->source;
}

PlanRequest jax0121_request(const char* gpu, const char* cc, const char* framework) {
  PlanRequest r;
  r.os = Platform::linux;
  r.gpu_name = gpu;
  r.cc = testing::v(cc);
  r.python = testing::v("3.12");
  r.driver = testing::v("590.48.01");
  r.frameworks.push_back(*parse_framework_request(framework));
  return r;
}

// A GTX 1080 (6.1) has only jax[cuda12] (cuda13 starts at 7.5): plain `jax` must pin the last
// release with a cuda12 plugin, 0.12.0.1, since `pip install -U "jax[cuda12]"` now resolves to
// 0.12.1, whose cuda12 plugin does not exist.
TEST(KbJaxRelease0121, PlanPinsTheLastCuda12ReleaseForAPascalCard) {
  const Plan p = resolve(jax0121_request("GTX 1080", "6.1", "jax"), testing::builtin_kb());
  ASSERT_EQ(p.frameworks.size(), 1u);
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  EXPECT_EQ(p.frameworks[0].best->install_spec, "jax[cuda12]==0.12.0.1");
  // An RTX 5090 gets the newest, 0.12.1, through cuda13.
  const Plan q = resolve(jax0121_request("RTX 5090", "12.0", "jax"), testing::builtin_kb());
  ASSERT_TRUE(q.frameworks[0].best.has_value());
  EXPECT_EQ(q.frameworks[0].best->variant, "cuda13");
  EXPECT_EQ(q.frameworks[0].best->version, testing::v("0.12.1"));
  EXPECT_TRUE(q.frameworks[0].best->verified()) << q.frameworks[0].best->summary();
}

// jax==0.12.1 on that GTX 1080: cuda13 has no kernels for it and cuda12 has no plugin at 0.12.1.
TEST(KbJaxRelease0121, PinnedReleaseWithoutACuda12PluginIsRefused) {
  const Plan p = resolve(jax0121_request("GTX 1080", "6.1", "jax==0.12.1"), testing::builtin_kb());
  ASSERT_EQ(p.frameworks.size(), 1u);
  EXPECT_FALSE(p.frameworks[0].best.has_value()) << p.frameworks[0].best->summary();
  bool refused = false;
  for (const PlanOption& o : p.frameworks[0].rejected) {
    for (const PlanIssue& i : o.issues)
      refused = refused || (o.variant == "cuda12" && i.id == "jax-extra-not-released");
  }
  EXPECT_TRUE(refused);
}

}  // namespace
}  // namespace gpudoctor
