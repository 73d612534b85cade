#include <gtest/gtest.h>

#include "kb/knowledge_base.hpp"
#include "kb/resolver.hpp"
#include "model/facts.hpp"

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

bool has_issue(const PlanOption& o, const std::string& id) {
  return std::any_of(o.issues.begin(), o.issues.end(), [&](const PlanIssue& i) { return i.id == id; });
}

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
  // Best: WSL2 with TF 2.15 via [and-cuda] (2.15.0.post1: tensorrt removed), Python 3.11 kept.
  ASSERT_TRUE(fp.best.has_value());
  EXPECT_EQ(fp.best->route, Platform::wsl2);
  EXPECT_EQ(fp.best->version, v("2.15"));
  EXPECT_EQ(fp.best->variant, "and-cuda");
  EXPECT_FALSE(fp.best->python_change);
  EXPECT_NE(all_commands(*fp.best).find("tensorflow[and-cuda]==2.15.0.post1"), std::string::npos);
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
  EXPECT_TRUE(has_issue(*tf.frameworks[0].best, "gpu-arch-unverified"));
  // Without a version: TF 2.20 is preferred, its wheel is known to ship PTX (compute_90).
  Plan any = resolve(described(Platform::linux, "RTX 5080", "3.12", {"tensorflow"}), kb());
  ASSERT_TRUE(any.frameworks[0].best.has_value());
  EXPECT_EQ(any.frameworks[0].best->version, v("2.20"));
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
  EXPECT_EQ(a->name, "tensorflow");
  EXPECT_TRUE(a->spec->contains(v("2.15.1")));
  EXPECT_FALSE(a->spec->contains(v("2.16.0")));
  EXPECT_EQ(parse_framework_request("torch")->name, "pytorch");
  EXPECT_EQ(parse_framework_request("JAX")->name, "jax");
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
  PlanRequest r = request_from_facts(f, kb());
  EXPECT_TRUE(r.from_facts);
  EXPECT_EQ(r.os, Platform::wsl2);
  EXPECT_EQ(r.cc, v("8.6"));
  EXPECT_EQ(r.python, v("3.11.4"));
  ASSERT_EQ(r.frameworks.size(), 1u);
  EXPECT_EQ(r.frameworks[0].name, "pytorch");
  Plan p = resolve(r, kb());
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  // WSL2: the driver floor is the Windows one.
  EXPECT_EQ(p.frameworks[0].best->driver_min->major(), 528);
}

}  // namespace
}  // namespace gpudoctor
