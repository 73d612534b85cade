#include "check/compat_checks.hpp"

#include <gtest/gtest.h>

#include <regex>

#include "check_test_support.hpp"
#include "kb/knowledge_base.hpp"

namespace gpudoctor {
namespace {

using testing::kb;

using testing::v;

using testing::env_with;
using testing::machine;

FrameworkFacts tf(const char* version) {
  FrameworkFacts fw;
  fw.name = "tensorflow";
  fw.package = "tensorflow";
  fw.version = v(version);
  fw.cuda_build = true;
  return fw;
}

using testing::torch;

/// TF in an env with the CUDA 12.5 / cuDNN 9.3 pip wheels TF 2.18-2.21 install.
PythonEnvFacts tf_with_cu12_wheels(FrameworkFacts t) {
  PythonEnvFacts e = env_with("3.11.4", std::move(t));
  e.nvidia_wheels.push_back(NvidiaWheel{"nvidia-cudnn-cu12", v("9.3.0.75"), "cudnn", 12});
  e.nvidia_wheels.push_back(NvidiaWheel{"nvidia-cuda-runtime-cu12", v("12.5.82"), "cudart", 12});
  return e;
}

/// TF 2.20 as its own build info describes it: sm_60..sm_89 + compute_90.
FrameworkFacts tf220_recorded() {
  FrameworkFacts t = tf("2.20.0");
  t.compute_capabilities = {"sm_60", "sm_70", "sm_80", "sm_89", "compute_90"};
  return t;
}

using testing::find;
using testing::has;
using testing::ids;

LibraryFacts cudnn_at(const char* version, const char* origin, const char* dir) {
  LibraryFacts cudnn;
  cudnn.name = "cudnn";
  cudnn.version = v(version);
  cudnn.origin = origin;
  cudnn.path = dir;
  return cudnn;
}

TEST(CompatChecks, Tf215WithSystemCudnn86) {
  Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 3060", "535.104.05");
  f.libraries.push_back(cudnn_at("8.6.0", "system", "/usr/lib/x86_64-linux-gnu"));
  ToolkitFacts tk;
  tk.path = "/usr/local/cuda-12.2";
  tk.version = v("12.2.2");
  f.toolkits.push_back(tk);
  f.python_envs.push_back(env_with("3.11.4", tf("2.15.0")));
  auto fs = compatibility_findings(f, kb());
  const Finding* m = find(fs, "tf-cudnn-mismatch");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_EQ(m->severity, Severity::error);
  EXPECT_NE(m->title.find("8.9"), std::string::npos) << m->title;
  EXPECT_NE(m->title.find("8.6"), std::string::npos) << m->title;
  EXPECT_FALSE(m->fix.empty());
  EXPECT_FALSE(m->source.empty());
  EXPECT_EQ(find(fs, "tf-cuda-mismatch"), nullptr);
  EXPECT_EQ(find(fs, "driver-too-old-for-framework"), nullptr);
}

// Real tensorflow 2.15.1 (build_info: cuda_version '12.2', cudnn_version '8') on a machine whose
// only cuDNN is 9.19.0 from a CUDA 13 toolkit. TF opens libcudnn.so.8 by name: it never loads
// cuDNN 9. The detail said "the cuDNN it will load (...) is a different major version".
TEST(CompatChecks, Tf215WithOnlyCudnn9SaysItIsNotLoaded) {
  Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 3060", "580.65.06");
  f.libraries.push_back(cudnn_at("9.19.0", "toolkit", "/usr/local/cuda-13.0/lib"));
  FrameworkFacts t = tf("2.15.1");
  t.cuda_version = v("12.2");
  t.cudnn_version = v("8");
  f.python_envs.push_back(env_with("3.11.7", t));
  auto fs = compatibility_findings(f, kb());
  const Finding* m = find(fs, "tf-cudnn-mismatch");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_EQ(m->detail.find("it will load"), std::string::npos) << m->detail;
  EXPECT_NE(m->detail.find("libcudnn.so.8"), std::string::npos) << m->detail;
  EXPECT_NE(m->detail.find("not loaded"), std::string::npos) << m->detail;
}

// `pip install "tensorflow[and-cuda]==2.18.1"` (nvidia-cudnn-cu12 9.3.0.75), then `pip install
// torch==2.3.1`: pip replaces the wheel with torch's pin, 8.9.2.26. Measured 2026-12-02 with
// torch==2.5.1 in its place (9.3.0.75 -> 9.1.0.70): pip says nothing and `pip check` finds "No
// broken requirements", as TF asks for cuDNN under its and-cuda extra. Reinstalling
// tensorflow[and-cuda] puts cuDNN 9 back and `import torch` (2.3.1) then fails on libcudnn.so.8
// (measured with jax[cuda12]): the fix is one environment each.
TEST(CompatChecks, TfWhoseCudnnWheelTorchReplacedIsNotToldToBreakTorch) {
  Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 3060", "580.65.06");
  const std::string sp = "/home/u/venv/lib/python3.11/site-packages";
  FrameworkFacts t = tf("2.18.1");
  t.cuda_version = v("12.5.1");
  t.cudnn_version = v("9");
  t.location = sp;
  t.loads.push_back(LibraryLoad{"libcudnn.so.9", "", ""});
  FrameworkFacts torch = testing::cuda_framework("torch", "2.3.1");
  torch.cuda_version = v("12.1");
  torch.cudnn_version = v("8.9.2.26");
  torch.location = sp;
  torch.loads.push_back(LibraryLoad{"libcudnn.so.8", sp + "/nvidia/cudnn/lib/libcudnn.so.8", "pip wheel"});
  PythonEnvFacts e = env_with("3.11.7", t);
  e.path = "/home/u/venv";
  e.frameworks.push_back(torch);
  e.nvidia_wheels.push_back(NvidiaWheel{"nvidia-cudnn-cu12", v("8.9.2.26"), "cudnn", 12});
  f.python_envs.push_back(e);
  auto fs = compatibility_findings(f, kb());
  const Finding* m = find(fs, "tf-cudnn-mismatch");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_NE(m->detail.find("not loaded"), std::string::npos) << m->detail;
  EXPECT_NE(m->fix.find("environment of its own"), std::string::npos) << m->fix;
  EXPECT_NE(m->fix.find("PyTorch 2.3.1"), std::string::npos) << m->fix;
}

// A cuDNN wheel of another major beside a system cuDNN of the one TensorFlow opens: TF 2.18.1
// opens libcudnn.so.9, which nvidia-cudnn-cu11 (libcudnn.so.8) does not hold, so the loader goes
// on to the system's 9.3. The check took the wheel first and said "needs cuDNN 9.3, found
// 8.9.6.50" (the helper's audit, reproduced with the built binary on such a tree).
TEST(CompatChecks, TfPassesOverACudnnWheelOfAnotherMajorForTheSystemCopy) {
  auto run = [](bool system_copy) {
    Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 3060", "580.65.06");
    if (system_copy) {
      LibraryFacts sys = cudnn_at("9.3.0", "system", "/usr/lib/x86_64-linux-gnu");
      sys.loader_order = 0;
      f.libraries.push_back(sys);
    }
    FrameworkFacts t = tf("2.18.1");
    t.cuda_version = v("12.5.1");
    t.cudnn_version = v("9");
    PythonEnvFacts e = env_with("3.11.7", t);
    e.nvidia_wheels.push_back(NvidiaWheel{"nvidia-cudnn-cu11", v("8.9.6.50"), "cudnn", 11});
    e.nvidia_wheels.push_back(NvidiaWheel{"nvidia-cuda-runtime-cu12", v("12.5.82"), "cudart", 12});
    f.python_envs.push_back(e);
    return compatibility_findings(f, kb());
  };
  auto with_system = run(true);
  EXPECT_FALSE(has(with_system, "tf-cudnn-mismatch")) << ids(with_system);
  auto wheel_only = run(false);
  const Finding* m = find(wheel_only, "tf-cudnn-mismatch");
  ASSERT_NE(m, nullptr) << ids(wheel_only);
  EXPECT_NE(m->title.find("8.9.6.50"), std::string::npos) << m->title;
}

TEST(CompatChecks, Tf215WithMatchingWheelsIsQuiet) {
  // An RTX 2080 (7.5): TF 2.15's wheel has sm_75 (an RTX 3060 gets only its compute_80 PTX).
  Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 2080", "535.104.05");
  LibraryFacts old;  // an old system cuDNN does not matter: the env's wheel wins
  old.name = "cudnn";
  old.version = v("8.6.0");
  old.origin = "system";
  f.libraries.push_back(old);
  PythonEnvFacts e = env_with("3.11.4", tf("2.15.0.post1"));
  e.nvidia_wheels.push_back(NvidiaWheel{"nvidia-cudnn-cu12", v("8.9.4.25"), "cudnn", 12});
  e.nvidia_wheels.push_back(NvidiaWheel{"nvidia-cuda-runtime-cu12", v("12.2.140"), "cudart", 12});
  f.python_envs.push_back(e);
  // No toolkit installed: fine, the framework brings its own wheels.
  auto fs = compatibility_findings(f, kb());
  EXPECT_TRUE(fs.empty()) << ids(fs);
}

TEST(CompatChecks, TfWithoutAnyCudaLibraries) {
  Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 3060", "535.104.05");
  f.python_envs.push_back(env_with("3.11.4", tf("2.15.0")));
  auto fs = compatibility_findings(f, kb());
  const Finding* m = find(fs, "tf-cuda-libs-missing");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_NE(m->fix.find("tensorflow[and-cuda]"), std::string::npos);
}

TEST(CompatChecks, Tf215OnNativeWindowsGetsNoGpu) {
  Facts f = machine(Platform::windows, "NVIDIA GeForce RTX 3060", "546.12");
  f.python_envs.push_back(env_with("3.11.4", tf("2.15.0")));
  auto fs = compatibility_findings(f, kb());
  const Finding* m = find(fs, "tf-native-windows-no-gpu");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_EQ(m->severity, Severity::error);
  EXPECT_NE(m->fix.find("WSL2"), std::string::npos);
  // The native recipe comes from the knowledge base (last native-Windows GPU release and the
  // CUDA / cuDNN / Python it was tested with), never from text in the code.
  const Version& last = kb().tensorflow.windows_gpu_last;
  const TfBuild* w = kb().tf_build(last, Platform::windows);
  ASSERT_TRUE(w != nullptr && w->cuda && w->cudnn);
  for (const std::string& fact :
       {"native TensorFlow " + last.str(), "CUDA " + w->cuda->truncated(2).str(), "cuDNN " + w->cudnn->str(),
        "cudnn=" + w->cudnn->str(), "Python " + w->python.text()}) {
    EXPECT_NE(m->fix.find(fact), std::string::npos) << fact << " not in: " << m->fix;
  }
  // No misleading cuDNN advice for a build that cannot use CUDA at all.
  EXPECT_EQ(find(fs, "tf-cudnn-mismatch"), nullptr);
  EXPECT_EQ(find(fs, "tf-cuda-libs-missing"), nullptr);
}

TEST(CompatChecks, Tf210OnNativeWindowsIsAGpuBuild) {
  Facts f = machine(Platform::windows, "NVIDIA GeForce RTX 3060", "546.12");
  f.python_envs.push_back(env_with("3.10.11", tf("2.10.1")));
  auto fs = compatibility_findings(f, kb());
  EXPECT_EQ(find(fs, "tf-native-windows-no-gpu"), nullptr) << ids(fs);
}

TEST(CompatChecks, TorchCu121OnDriver470) {
  Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 3060", "470.82.01");
  f.python_envs.push_back(env_with("3.11.4", torch("2.2.1+cu121", "cu121")));
  auto fs = compatibility_findings(f, kb());
  const Finding* m = find(fs, "driver-too-old-for-framework");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_EQ(m->severity, Severity::error);
  EXPECT_NE(m->detail.find("525.60.13"), std::string::npos) << m->detail;
}

TEST(CompatChecks, TorchVariantFromLocalVersionTag) {
  Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 3060", "470.82.01");
  f.python_envs.push_back(env_with("3.11.4", torch("2.2.1+cu121", "")));
  EXPECT_TRUE(has(compatibility_findings(f, kb()), "driver-too-old-for-framework"));
}

TEST(CompatChecks, PascalWithTorchCu128) {
  Facts f = machine(Platform::linux, "NVIDIA GeForce GTX 1080 Ti", "570.124.06");
  f.python_envs.push_back(env_with("3.12.3", torch("2.8.0+cu128", "cu128")));
  auto fs = compatibility_findings(f, kb());
  const Finding* m = find(fs, "gpu-arch-unsupported-by-framework");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_EQ(m->severity, Severity::error);
  EXPECT_NE(m->title.find("sm_61"), std::string::npos);
  EXPECT_NE(m->fix.find("whl/cu126"), std::string::npos) << m->fix;
}

TEST(CompatChecks, PascalWithTorchCu126IsFine) {
  Facts f = machine(Platform::linux, "NVIDIA GeForce GTX 1080 Ti", "570.124.06");
  f.python_envs.push_back(env_with("3.12.3", torch("2.8.0+cu126", "cu126")));
  EXPECT_TRUE(compatibility_findings(f, kb()).empty());
}

TEST(CompatChecks, Rtx50WithOldTorchAndTf) {
  Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 5090", "575.57.08");
  f.python_envs.push_back(env_with("3.11.4", torch("2.5.1+cu124", "cu124")));
  auto fs = compatibility_findings(f, kb());
  ASSERT_NE(find(fs, "gpu-arch-unsupported-by-framework"), nullptr) << ids(fs);
  // TF 2.20's own build info lists sm_60..sm_89 + compute_90: PTX only on sm_120.
  Facts g = machine(Platform::linux, "NVIDIA GeForce RTX 5090", "575.57.08");
  g.python_envs.push_back(tf_with_cu12_wheels(tf220_recorded()));
  auto gs = compatibility_findings(g, kb());
  const Finding* m = find(gs, "gpu-arch-ptx-only");
  ASSERT_NE(m, nullptr) << ids(gs);
  EXPECT_EQ(m->severity, Severity::warning);
}

TEST(CompatChecks, PythonOutsideFrameworkRange) {
  Facts f = machine(Platform::linux, nullptr, nullptr);
  f.python_envs.push_back(env_with("3.13.1", torch("2.3.1+cu121", "cu121")));
  auto fs = compatibility_findings(f, kb());
  const Finding* m = find(fs, "framework-python-unsupported");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_NE(m->detail.find(">=3.8,<=3.12"), std::string::npos) << m->detail;
}

TEST(CompatChecks, APythonWhoseWheelsShipBeforeTorchCompileSupportsItIsSupportedButCompileIsNot) {
  // torch 2.2.2 and 2.3.1 ship cp312 wheels (METADATA: Classifier Python :: 3.12) whose
  // torch.compile raises "Dynamo is not supported on Python 3.12+" (their torch/__init__.py);
  // 2.5.1 the same for 3.13. RELEASE.md calls those Pythons experimental.
  for (const auto& [torch_version, python] : std::vector<std::pair<std::string, std::string>>{
           {"2.2.2+cu121", "3.12.1"}, {"2.3.1+cu121", "3.12.4"}, {"2.5.1+cu124", "3.13.0"}}) {
    Facts f = machine(Platform::linux, nullptr, nullptr);
    f.python_envs.push_back(env_with(python.c_str(), torch(torch_version.c_str(), torch_version.substr(6).c_str())));
    auto fs = compatibility_findings(f, kb());
    EXPECT_EQ(find(fs, "framework-python-unsupported"), nullptr) << torch_version << " " << ids(fs);
    const Finding* c = find(fs, "torch-compile-python-unsupported");
    ASSERT_NE(c, nullptr) << torch_version << " " << ids(fs);
    EXPECT_EQ(c->severity, Severity::info);
    EXPECT_TRUE(c->detail.find("Dynamo is not supported on Python " + python.substr(0, 4) + "+") != std::string::npos)
        << c->detail;
  }
  // One Python older, or a release whose torch.compile supports it: nothing to say.
  for (const auto& [torch_version, python] : std::vector<std::pair<std::string, std::string>>{
           {"2.3.1+cu121", "3.11.9"}, {"2.4.1+cu124", "3.12.4"}, {"2.6.0+cu124", "3.13.0"}}) {
    Facts f = machine(Platform::linux, nullptr, nullptr);
    f.python_envs.push_back(env_with(python.c_str(), torch(torch_version.c_str(), torch_version.substr(6).c_str())));
    auto fs = compatibility_findings(f, kb());
    EXPECT_EQ(find(fs, "torch-compile-python-unsupported"), nullptr) << torch_version << " on " << python;
  }
}

TEST(CompatChecks, DriverTooOldForToolkit) {
  Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 3060", "470.82.01");
  ToolkitFacts tk;
  tk.path = "/usr/local/cuda-12.4";
  tk.version = v("12.4.1");
  f.toolkits.push_back(tk);
  ToolkitFacts ok;
  ok.path = "/usr/local/cuda-11.4";
  ok.version = v("11.4.4");
  f.toolkits.push_back(ok);
  auto fs = compatibility_findings(f, kb());
  const Finding* m = find(fs, "driver-too-old-for-toolkit");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_NE(m->title.find("12.4.1"), std::string::npos);
  EXPECT_EQ(std::count_if(fs.begin(), fs.end(), [](const Finding& x) { return x.id == "driver-too-old-for-toolkit"; }),
            1);
  // 11.4.4 on 470.82.01 is exactly its toolkit driver: nothing to say.
  for (const Finding& x : fs) EXPECT_EQ(x.title.find("11.4.4"), std::string::npos) << x.title;
}

TEST(CompatChecks, MinorVersionCompatIsInfo) {
  Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 3060", "525.60.13");
  ToolkitFacts tk;
  tk.path = "/usr/local/cuda-12.2";
  tk.version = v("12.2.2");
  f.toolkits.push_back(tk);
  auto fs = compatibility_findings(f, kb());
  const Finding* m = find(fs, "toolkit-minor-version-compat");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_EQ(m->severity, Severity::info);
}

// A toolkit whose own driver the knowledge base does not record gets "unknown", not silence
// (which reads as fine); a recorded one on its own driver gets nothing.
TEST(CompatChecks, ToolkitWithoutDriverRowIsUnknown) {
  auto run = [](const char* cuda, const char* driver) {
    Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 4090", driver);
    ToolkitFacts tk;
    tk.path = std::string("/usr/local/cuda-") + cuda;
    tk.version = v(cuda);
    f.toolkits.push_back(tk);
    return compatibility_findings(f, kb());
  };
  auto fs = run("13.4.1", "610.43.02");
  const Finding* m = find(fs, "toolkit-driver-unknown");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_EQ(m->severity, Severity::info);
  EXPECT_NE(m->detail.find("unknown"), std::string::npos) << m->detail;
  EXPECT_NE(m->detail.find("580"), std::string::npos) << m->detail;
  EXPECT_TRUE(has(run("13.3.1", "610.43.02"), "toolkit-driver-unknown"));
  EXPECT_FALSE(has(run("13.3.0", "610.43.02"), "toolkit-driver-unknown"));
  // A major the table does not know at all: a warning, the driver was not checked.
  auto next = run("14.0.0", "620.10");
  const Finding* w = find(next, "toolkit-driver-unknown");
  ASSERT_NE(w, nullptr) << ids(next);
  EXPECT_EQ(w->severity, Severity::warning);
  // Older than every row: any newer driver runs it; nothing to say.
  EXPECT_FALSE(has(run("9.2.148", "610.43.02"), "toolkit-driver-unknown"));
}

TEST(CompatChecks, Cuda13CannotTargetPascal) {
  Facts f = machine(Platform::linux, "NVIDIA GeForce GTX 1070", "580.65.06");
  ToolkitFacts tk;
  tk.path = "/usr/local/cuda-13.0";
  tk.version = v("13.0.0");
  f.toolkits.push_back(tk);
  ASSERT_TRUE(has(compatibility_findings(f, kb()), "toolkit-cannot-target-gpu"));
}

TEST(CompatChecks, UnknownGpuAndJaxOnWindows) {
  Facts f = machine(Platform::windows, "NVIDIA GeForce RTX 9999 Hyper", "560.94");
  FrameworkFacts j;
  j.name = "jaxlib";
  j.version = v("0.4.30");
  j.variant = "cuda12";
  f.python_envs.push_back(env_with("3.11.4", j));
  auto fs = compatibility_findings(f, kb());
  const Finding* u = find(fs, "gpu-model-unknown");
  ASSERT_NE(u, nullptr) << ids(fs);
  EXPECT_NE(u->detail.find("Nearest known names"), std::string::npos);
  EXPECT_NE(find(fs, "jax-native-windows-no-gpu"), nullptr) << ids(fs);
}

TEST(CompatChecks, JaxWithCudaPluginAsTheProbesReportIt) {
  // The python probe gives "jax" the plugin's variant; jaxlib itself stays "cpu".
  Facts f = machine(Platform::linux, "NVIDIA GeForce GTX 1080", "570.124.06");
  FrameworkFacts jax;
  jax.name = "jax";
  jax.version = v("0.7.0");
  jax.cuda_build = true;
  jax.variant = "cuda13";
  PythonEnvFacts e = env_with("3.12.3", jax);
  FrameworkFacts jaxlib;
  jaxlib.name = "jaxlib";
  jaxlib.version = v("0.7.0");
  jaxlib.variant = "cpu";
  jaxlib.cuda_build = false;
  e.frameworks.push_back(jaxlib);
  FrameworkFacts plugin;
  plugin.name = "jax-cuda-plugin";
  plugin.version = v("0.7.0");
  plugin.variant = "cuda13";
  e.frameworks.push_back(plugin);
  f.python_envs.push_back(e);
  auto fs = compatibility_findings(f, kb());
  const Finding* a = find(fs, "gpu-arch-unsupported-by-framework");
  ASSERT_NE(a, nullptr) << ids(fs);  // cuda13 needs CC >= 7.5; Pascal is 6.1
  EXPECT_NE(a->fix.find("jax[cuda12]"), std::string::npos);
  EXPECT_NE(find(fs, "driver-too-old-for-framework"), nullptr) << ids(fs);  // 570 < 580
  EXPECT_EQ(
      std::count_if(fs.begin(), fs.end(), [](const Finding& x) { return x.id == "gpu-arch-unsupported-by-framework"; }),
      1);
}

// Found in review: the PJRT plugin of jax 0.4.30-0.5.3 (xla_cuda_plugin.so, read from PyPI) has
// SASS up to sm_90 and sm_90 PTX only; 0.6.0 is the first with sm_120. The doctor judged JAX by
// its compute-capability floor alone and said nothing on an RTX 5090.
TEST(CompatChecks, JaxWhosePluginHasNoKernelsForTheGpuIsSaid) {
  auto with = [](const char* release) {
    Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 5090", "580.95.05");
    FrameworkFacts jax;
    jax.name = "jax";
    jax.version = v(release);
    jax.cuda_build = true;
    jax.variant = "cuda12";
    PythonEnvFacts e = env_with("3.12.3", jax);
    FrameworkFacts pjrt;
    pjrt.name = "jax-cuda-pjrt";
    pjrt.version = v(release);
    pjrt.variant = "cuda12";
    e.frameworks.push_back(pjrt);
    f.python_envs.push_back(e);
    return compatibility_findings(f, kb());
  };
  const auto old = with("0.4.30");
  const Finding* ptx = find(old, "gpu-arch-ptx-only");
  ASSERT_NE(ptx, nullptr) << ids(old);
  EXPECT_EQ(ptx->severity, Severity::warning);
  EXPECT_NE(ptx->title.find("sm_120"), std::string::npos) << ptx->title;
  EXPECT_NE(ptx->fix.find("0.6.0"), std::string::npos) << ptx->fix;
  EXPECT_FALSE(testing::has(with("0.6.0"), "gpu-arch-ptx-only"));
  // Older than every plugin row: no newer arch than the oldest row's, so no sm_120 either.
  EXPECT_TRUE(testing::has(with("0.4.20"), "gpu-arch-ptx-only")) << ids(with("0.4.20"));
}

TEST(CompatChecks, EveryFindingIsWellFormed) {
  // A machine that trips many rules at once.
  Facts f = machine(Platform::linux, "NVIDIA GeForce GTX 1080", "470.82.01");
  ToolkitFacts tk;
  tk.path = "/usr/local/cuda-13.0";
  tk.version = v("13.0.0");
  f.toolkits.push_back(tk);
  LibraryFacts cudnn;
  cudnn.name = "cudnn";
  cudnn.version = v("7.6.5");
  cudnn.origin = "system";
  f.libraries.push_back(cudnn);
  f.python_envs.push_back(env_with("3.13.0", tf("2.15.0")));
  f.python_envs.push_back(env_with("3.12.0", torch("2.8.0+cu128", "cu128")));
  auto fs = compatibility_findings(f, kb());
  EXPECT_GE(fs.size(), 5u) << ids(fs);
  std::regex kebab("^[a-z0-9]+(-[a-z0-9]+)*$");
  for (const Finding& x : fs) {
    EXPECT_TRUE(std::regex_match(x.id, kebab)) << x.id;
    EXPECT_FALSE(x.title.empty()) << x.id;
    EXPECT_FALSE(x.detail.empty()) << x.id;
    EXPECT_FALSE(x.source.empty()) << x.id;
    if (x.severity == Severity::error || x.severity == Severity::warning) EXPECT_FALSE(x.fix.empty()) << x.id;
    EXPECT_FALSE(x.evidence.empty()) << x.id;
  }
}

TEST(CompatChecks, EmptyFactsGiveNothing) {
  Facts f;
  EXPECT_TRUE(compatibility_findings(f, kb()).empty());
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

TEST(CompatChecks, ImplausibleBuildInfoIsIgnored) {
  // Old Windows TF wrote values like "64_112"; they must not become "CUDA 64". (RTX 2080:
  // TF 2.10's wheel has sm_75, so no PTX-only warning.)
  Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 2080", "535.104.05");
  ToolkitFacts tk;
  tk.path = "/usr/local/cuda-11.2";
  tk.version = v("11.2.2");
  f.toolkits.push_back(tk);
  FrameworkFacts t = tf("2.10.0");
  t.cuda_version = Version::parse("64_112");
  t.cudnn_version = Version::parse("64_8");
  LibraryFacts cudnn;
  cudnn.name = "cudnn";
  cudnn.version = v("8.1.1");
  cudnn.origin = "toolkit";
  f.libraries.push_back(cudnn);
  f.python_envs.push_back(env_with("3.10.11", t));
  auto fs = compatibility_findings(f, kb());
  EXPECT_TRUE(fs.empty()) << ids(fs);
}

// ---- Regression tests for the KB audit (commits f2a3cc8, 8360ae7) ----

/// A finding `id` of that severity whose detail or fix names `text` (a driver floor, a doubt).
void expect_finding(const std::vector<Finding>& fs, const std::string& id, Severity severity, const std::string& text) {
  const Finding* d = find(fs, id);
  ASSERT_NE(d, nullptr) << ids(fs);
  EXPECT_EQ(d->severity, severity);
  EXPECT_NE((d->detail + " " + d->fix).find(text), std::string::npos) << d->detail << " / " << d->fix;
}

void expect_error_naming(const std::vector<Finding>& fs, const std::string& id, const std::string& text) {
  expect_finding(fs, id, Severity::error, text);
}

TEST(CompatChecks, B1BlackwellOnPre570DriverIsTooOld) {
  Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 5090", "535.104.05");
  f.python_envs.push_back(env_with("3.11.4", torch("2.8.0+cu128", "cu128")));
  expect_error_naming(compatibility_findings(f, kb()), "driver-too-old-for-gpu", "570.26");
  // Windows floor, and a new enough driver is quiet.
  Facts w = machine(Platform::windows, "NVIDIA GeForce RTX 5090", "536.25");
  expect_error_naming(compatibility_findings(w, kb()), "driver-too-old-for-gpu", "570.65");
  Facts ok = machine(Platform::linux, "NVIDIA GeForce RTX 5090", "570.26");
  EXPECT_FALSE(has(compatibility_findings(ok, kb()), "driver-too-old-for-gpu"));
}

TEST(CompatChecks, B1HopperOnPre520DriverIsTooOld) {
  Facts f = machine(Platform::linux, "NVIDIA H100 80GB HBM3", "470.82.01");
  expect_error_naming(compatibility_findings(f, kb()), "driver-too-old-for-gpu", "520.61.05");
  // Ampere on 470 is fine (first toolkit 11.0).
  Facts a = machine(Platform::linux, "NVIDIA GeForce RTX 3060", "470.82.01");
  EXPECT_FALSE(has(compatibility_findings(a, kb()), "driver-too-old-for-gpu"));
}

TEST(CompatChecks, B4JetsonTorchIsNotJudgedByTheX86List) {
  // cu126 of 2.12 lists 5.0 for x86 (which would cover Nano's 5.3) but only 8.0/9.0 for aarch64.
  Facts f = machine(Platform::linux, "NVIDIA Jetson Nano", nullptr);
  f.os.arch = "aarch64";
  f.python_envs.push_back(env_with("3.11.4", torch("2.12.0+cu126", "cu126")));
  auto fs = compatibility_findings(f, kb());
  EXPECT_NE(find(fs, "gpu-arch-unsupported-by-framework"), nullptr) << ids(fs);
  // A release with no aarch64 list: coverage cannot be checked, and says so.
  Facts g = machine(Platform::linux, "NVIDIA Jetson AGX Orin", nullptr);
  g.python_envs.push_back(env_with("3.11.4", torch("2.8.0+cu128", "cu128")));
  auto gs = compatibility_findings(g, kb());
  EXPECT_NE(find(gs, "gpu-arch-unverified"), nullptr) << ids(gs);
}

TEST(CompatChecks, B2Tf221HasNoKernelsForMaxwell) {
  // TF 2.21's build_info.py lists sm_60 and up (harvested from the wheel): a 5.2 GPU gets none.
  Facts f = machine(Platform::linux, "NVIDIA GeForce GTX 980", "580.65.06");
  f.python_envs.push_back(tf_with_cu12_wheels(tf("2.21.0")));
  auto fs = compatibility_findings(f, kb());
  EXPECT_NE(find(fs, "gpu-arch-unsupported-by-framework"), nullptr) << ids(fs);
  // With the installed build's own list read the doctor uses it, not the table.
  Facts g = f;
  g.python_envs[0].frameworks[0].compute_capabilities = {"sm_50", "sm_60"};
  EXPECT_FALSE(has(compatibility_findings(g, kb()), "gpu-arch-unsupported-by-framework"));
}

TEST(CompatChecks, B5PtxOnlyOnDriverOlderThanTheBuildToolkit) {
  Facts f = machine(Platform::linux, "NVIDIA H100 80GB HBM3", "535.104.05");
  f.python_envs.push_back(tf_with_cu12_wheels(tf220_recorded()));
  auto fs = compatibility_findings(f, kb());
  expect_error_naming(fs, "gpu-arch-ptx-driver-too-old", "555.");
  EXPECT_EQ(find(fs, "gpu-arch-ptx-only"), nullptr) << ids(fs);
}

TEST(CompatChecks, B3UnknownGpuWithFrameworksIsAWarning) {
  Facts f = machine(Platform::linux, "Quadro K6000", "470.82.01");
  expect_finding(compatibility_findings(f, kb()), "gpu-model-unknown", Severity::info, "skipped");
  f.python_envs.push_back(env_with("3.11.4", torch("2.14.0+cu132", "cu132")));
  expect_finding(compatibility_findings(f, kb()), "gpu-model-unknown", Severity::warning, "could not be checked");
}

TEST(CompatChecks, B6Wsl2DriverBelowTheSourcedFloor) {
  Facts f = machine(Platform::wsl2, "NVIDIA GeForce RTX 3060", "472.12");
  expect_finding(compatibility_findings(f, kb()), "driver-below-wsl2-floor", Severity::warning, "528.33");
  Facts ok = machine(Platform::wsl2, "NVIDIA GeForce RTX 3060", "528.33");
  EXPECT_FALSE(has(compatibility_findings(ok, kb()), "driver-below-wsl2-floor"));
  Facts lin = machine(Platform::linux, "NVIDIA GeForce RTX 3060", "472.12");
  EXPECT_FALSE(has(compatibility_findings(lin, kb()), "driver-below-wsl2-floor"));
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

// cuDNN's own kernels (cudnn.toml: the architectures in each release's binaries): 9.27's wheels
// start at 7.5, so a V100 (7.0) has none; an RTX 4090 (8.9) runs the 8.6 code; a cuDNN whose
// release lists 7.0 is fine on the V100.
LibraryFacts cudnn_copy(const char* version, std::optional<int> cuda_major) {
  LibraryFacts lib;
  lib.name = "cudnn";
  lib.version = testing::v(version);
  lib.path = "/home/u/.venvs/x/lib/python3.11/site-packages/nvidia/cudnn/lib";
  lib.origin = "pip-wheel";
  lib.cuda_major = cuda_major;
  return lib;
}

TEST(CompatChecks, CudnnWithoutKernelsForTheCardIsAnError) {
  Facts v100 = testing::machine(Platform::linux, "NVIDIA V100", "580.95.05");
  ASSERT_TRUE(v100.gpus[0].cc_major) << "the V100 is in the knowledge base";
  v100.libraries.push_back(cudnn_copy("9.27.0.42", 12));
  auto findings = compatibility_findings(v100, testing::builtin_kb());
  const Finding* f = testing::find(findings, "cudnn-no-kernels-for-gpu");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::error);
  EXPECT_NE(f->title.find("cuDNN 9.27.0.42"), std::string::npos) << f->title;
  EXPECT_NE(f->source.find("[artefact]"), std::string::npos) << f->source;
  EXPECT_NE(f->fix.find("pip install \"nvidia-cudnn-cu12==9.26.*\""), std::string::npos) << f->fix;

  // A copy not from pip is not fixed with pip.
  Facts system_copy = testing::machine(Platform::linux, "NVIDIA V100", "580.95.05");
  LibraryFacts sys = cudnn_copy("9.27.0.42", 12);
  sys.origin = "system";
  sys.path = "/usr/lib/x86_64-linux-gnu";
  system_copy.libraries.push_back(sys);
  auto system_findings = compatibility_findings(system_copy, testing::builtin_kb());
  const Finding* s = testing::find(system_findings, "cudnn-no-kernels-for-gpu");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->fix.find("pip install"), std::string::npos) << s->fix;
  EXPECT_NE(s->fix.find("cuDNN 9.26"), std::string::npos) << s->fix;

  // Found in review: the fix must name a release that serves the card. cu13 has sm_70 only in
  // 9.18-9.20 (pip's "<9.26" would take 9.25, without it); for a GTX 1080 no cu13 release has
  // kernels, cu12's 9.28 has.
  Facts v100_13 = testing::machine(Platform::linux, "NVIDIA V100", "580.95.05");
  v100_13.libraries.push_back(cudnn_copy("9.26.0.51", 13));
  const auto f13 = compatibility_findings(v100_13, testing::builtin_kb());
  const Finding* v13 = testing::find(f13, "cudnn-no-kernels-for-gpu");
  ASSERT_NE(v13, nullptr) << testing::ids(f13);
  EXPECT_NE(v13->fix.find("pip install \"nvidia-cudnn-cu13==9.20.*\""), std::string::npos) << v13->fix;
  Facts pascal = testing::machine(Platform::linux, "NVIDIA GeForce GTX 1080", "580.95.05");
  pascal.libraries.push_back(cudnn_copy("9.26.0.51", 13));
  const auto fp = compatibility_findings(pascal, testing::builtin_kb());
  const Finding* p = testing::find(fp, "cudnn-no-kernels-for-gpu");
  ASSERT_NE(p, nullptr) << testing::ids(fp);
  EXPECT_EQ(p->fix.find("nvidia-cudnn-cu13"), std::string::npos) << p->fix;
  EXPECT_NE(p->fix.find("CUDA 12"), std::string::npos) << p->fix;
  EXPECT_NE(p->fix.find("9.28"), std::string::npos) << p->fix;

  // An older release built for 7.0 has kernels for it; the CUDA major unknown, both rows of 9.27 agree.
  Facts older = testing::machine(Platform::linux, "NVIDIA V100", "580.95.05");
  older.libraries.push_back(cudnn_copy("9.20.0.48", 12));
  EXPECT_FALSE(testing::has(compatibility_findings(older, testing::builtin_kb()), "cudnn-no-kernels-for-gpu"));
  Facts unknown_major = testing::machine(Platform::linux, "NVIDIA V100", "580.95.05");
  unknown_major.libraries.push_back(cudnn_copy("9.27.0.42", std::nullopt));
  EXPECT_TRUE(testing::has(compatibility_findings(unknown_major, testing::builtin_kb()), "cudnn-no-kernels-for-gpu"));

  // 8.9 is served by 8.6's SASS; a card newer than the list is left to the PTX.
  for (const char* card : {"NVIDIA GeForce RTX 4090", "NVIDIA H100 80GB HBM3"}) {
    Facts newer = testing::machine(Platform::linux, card, "580.95.05");
    ASSERT_TRUE(newer.gpus[0].cc_major) << card;
    newer.libraries.push_back(cudnn_copy("9.27.0.42", 12));
    EXPECT_FALSE(testing::has(compatibility_findings(newer, testing::builtin_kb()), "cudnn-no-kernels-for-gpu"))
        << card;
  }
}

/// A cuDNN copy outside pip whose binaries say which CUDA it was built for.
LibraryFacts system_cudnn(const char* path, std::optional<int> cuda_major) {
  LibraryFacts lib = cudnn_copy("9.19.0.56", cuda_major);
  lib.origin = "system";
  lib.path = path;
  if (cuda_major) lib.cuda_major_source = "libcudnn_adv.so.9 names libcublasLt.so." + std::to_string(*cuda_major);
  return lib;
}

TEST(CompatChecks, CudnnBuiltForCuda13OnADriverBelow580IsAnError) {
  // CUDA 13's minor-version floor is 580 (compat/cuda_drivers.toml [[family]] "13").
  Facts below = testing::machine(Platform::linux, "NVIDIA H100 80GB HBM3", "575.57.08");
  below.libraries.push_back(system_cudnn("/usr/local/cudnn/lib", 13));
  auto findings = compatibility_findings(below, testing::builtin_kb());
  const Finding* f = testing::find(findings, "cudnn-driver-too-old");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::error);
  EXPECT_NE(f->title.find("cuDNN 9.19.0.56 at /usr/local/cudnn/lib"), std::string::npos) << f->title;
  EXPECT_NE(f->title.find("CUDA 13"), std::string::npos) << f->title;
  EXPECT_NE(f->title.find("driver 575.57.08"), std::string::npos) << f->title;
  EXPECT_NE(f->detail.find("needs driver >= 580"), std::string::npos) << f->detail;
  EXPECT_NE(f->detail.find("libcudnn_adv.so.9 names libcublasLt.so.13"), std::string::npos) << f->detail;
  EXPECT_NE(f->fix.find(">= 580"), std::string::npos) << f->fix;
  EXPECT_NE(f->fix.find("nvidia-cudnn-cu12"), std::string::npos) << "a 575 driver runs CUDA 12: " << f->fix;
  EXPECT_NE(f->source.find("minor-version-compatibility"), std::string::npos) << f->source;

  // At the floor: no finding. A CUDA 12 build on the same old driver: none either.
  Facts at = testing::machine(Platform::linux, "NVIDIA H100 80GB HBM3", "580");
  at.libraries.push_back(system_cudnn("/usr/local/cudnn/lib", 13));
  EXPECT_FALSE(testing::has(compatibility_findings(at, testing::builtin_kb()), "cudnn-driver-too-old"));
  Facts cu12 = testing::machine(Platform::linux, "NVIDIA H100 80GB HBM3", "575.57.08");
  cu12.libraries.push_back(system_cudnn("/usr/local/cudnn/lib", 12));
  EXPECT_FALSE(testing::has(compatibility_findings(cu12, testing::builtin_kb()), "cudnn-driver-too-old"));

  // Unknown stays unknown: no CUDA major read, or no driver version.
  Facts unknown = testing::machine(Platform::linux, "NVIDIA H100 80GB HBM3", "575.57.08");
  unknown.libraries.push_back(system_cudnn("/usr/local/cudnn/lib", std::nullopt));
  EXPECT_FALSE(testing::has(compatibility_findings(unknown, testing::builtin_kb()), "cudnn-driver-too-old"));
  Facts no_driver = testing::machine(Platform::linux, "NVIDIA H100 80GB HBM3", nullptr);
  no_driver.libraries.push_back(system_cudnn("/usr/local/cudnn/lib", 13));
  EXPECT_FALSE(testing::has(compatibility_findings(no_driver, testing::builtin_kb()), "cudnn-driver-too-old"));

  // A copy inside a CUDA 13 toolkit: the toolkit's own driver finding speaks for it.
  Facts in_toolkit = testing::machine(Platform::linux, "NVIDIA H100 80GB HBM3", "575.57.08");
  ToolkitFacts tk;
  tk.path = "/usr/local/cuda-13.0";
  tk.version = testing::v("13.0");
  in_toolkit.toolkits.push_back(tk);
  LibraryFacts inside = system_cudnn("/usr/local/cuda-13.0/lib64", 13);
  inside.origin = "toolkit";
  in_toolkit.libraries.push_back(inside);
  auto tk_findings = compatibility_findings(in_toolkit, testing::builtin_kb());
  EXPECT_TRUE(testing::has(tk_findings, "driver-too-old-for-toolkit"));
  EXPECT_FALSE(testing::has(tk_findings, "cudnn-driver-too-old"));
}

TEST(CompatChecks, AFrameworkLoadingACudnnOfAnotherCudaMajorIsNamed) {
  auto with_cudnn = [](std::optional<int> cudnn_major) {
    Facts f = testing::machine(Platform::linux, "NVIDIA H100 80GB HBM3", "580.95.05");
    FrameworkFacts tf = testing::cuda_framework("tensorflow", "2.20.0");
    tf.cuda_version = testing::v("12.5.1");
    tf.cudnn_version = testing::v("9");
    tf.loads = {{"libcudart.so.12", "/usr/lib/x86_64-linux-gnu/libcudart.so.12", "ld.so.cache"},
                {"libcudnn.so.9", "/usr/local/cudnn/lib/libcudnn.so.9", "LD_LIBRARY_PATH"}};
    f.python_envs.push_back(testing::env_with("3.11", tf));
    f.libraries.push_back(system_cudnn("/usr/local/cudnn/lib", cudnn_major));
    return compatibility_findings(f, testing::builtin_kb());
  };
  auto findings = with_cudnn(13);
  const Finding* f = testing::find(findings, "cudnn-cuda-major-mismatch");
  ASSERT_NE(f, nullptr) << testing::ids(findings);
  EXPECT_EQ(f->severity, Severity::warning);
  EXPECT_NE(f->title.find("TensorFlow 2.20.0"), std::string::npos) << f->title;
  EXPECT_NE(f->title.find("CUDA 13 from /usr/local/cudnn/lib"), std::string::npos) << f->title;
  EXPECT_NE(f->detail.find("libcudnn_adv.so.9 names libcublasLt.so.13"), std::string::npos) << f->detail;
  EXPECT_NE(f->fix.find("nvidia-cudnn-cu12"), std::string::npos) << f->fix;
  EXPECT_FALSE(testing::has(with_cudnn(12), "cudnn-cuda-major-mismatch"));
  EXPECT_FALSE(testing::has(with_cudnn(std::nullopt), "cudnn-cuda-major-mismatch")) << "unknown stays unknown";
}

// Found in review: LD_LIBRARY_PATH names the copy through a link (/opt/cudnn -> cudnn-9.1, the
// way /usr/local/cuda -> cuda-X.Y is named). The library probe records the real directory and
// the load the named one: the two must still be seen as one copy, and the fix must name the
// directory the user put on LD_LIBRARY_PATH.
TEST(CompatChecks, ACudnnReachedThroughALinkedDirectoryIsStillJudged) {
  Facts f = testing::machine(Platform::linux, "NVIDIA H100 80GB HBM3", "580.95.05");
  FrameworkFacts tf = testing::cuda_framework("tensorflow", "2.20.0");
  tf.cuda_version = testing::v("12.5.1");
  tf.cudnn_version = testing::v("9");
  tf.loads = {{"libcudnn.so.9", "/opt/cudnn/lib/libcudnn.so.9", "LD_LIBRARY_PATH", "/opt/cudnn-9.1/lib"}};
  f.python_envs.push_back(testing::env_with("3.11", tf));
  f.libraries.push_back(system_cudnn("/opt/cudnn-9.1/lib", 13));
  const auto findings = compatibility_findings(f, testing::builtin_kb());
  const Finding* m = testing::find(findings, "cudnn-cuda-major-mismatch");
  ASSERT_NE(m, nullptr) << testing::ids(findings);
  EXPECT_NE(m->fix.find("take /opt/cudnn/lib out of the loader's way"), std::string::npos) << m->fix;
}

// Found in review: torch 2.15.0 (CUDA 13, pins nvidia-cudnn-cu13==9.26.0.51) given the cu12 wheel.
// The fix must remove the other major's wheel first (both wheels install nvidia/cudnn/lib, so
// uninstalling either later deletes the other's files) and install the pinned release.
TEST(CompatChecks, AnotherMajorsCudnnWheelIsReplacedNotAddedTo) {
  Facts f = testing::machine(Platform::linux, "NVIDIA GeForce RTX 3090", "580.95.05");
  FrameworkFacts torch = testing::cuda_framework("torch", "2.15.0");
  torch.cuda_version = testing::v("13.2");
  // One requirement line per platform, as METADATA may give them.
  torch.nvidia_requires = {{"nvidia-cudnn-cu13", "==9.26.0.51", R"(platform_machine == "x86_64")"},
                           {"nvidia-cudnn-cu13", "==9.26.0.51", R"(platform_machine == "aarch64")"}};
  const std::string dir = "/home/u/.venv/lib/python3.12/site-packages/nvidia/cudnn/lib";
  torch.loads = {{"libcudnn.so.9", dir + "/libcudnn.so.9", "pip wheel"}};
  f.python_envs.push_back(testing::env_with("3.12", torch));
  LibraryFacts wheel = system_cudnn(dir.c_str(), 12);
  wheel.origin = "pip-wheel";
  f.libraries.push_back(wheel);
  const auto findings = compatibility_findings(f, testing::builtin_kb());
  const Finding* m = testing::find(findings, "cudnn-cuda-major-mismatch");
  ASSERT_NE(m, nullptr) << testing::ids(findings);
  EXPECT_NE(m->fix.find("pip uninstall -y nvidia-cudnn-cu12"), std::string::npos) << m->fix;
  // Review 43C item 04: without --no-deps, --force-reinstall also moves torch's pinned cuBLAS and
  // NVRTC to their newest releases (cuDNN requires nvidia-cublas unversioned).
  EXPECT_NE(m->fix.find("pip install --force-reinstall --no-deps \"nvidia-cudnn-cu13==9.26.0.51\""), std::string::npos)
      << m->fix;
  // The cu12 wheel listed (pip install --no-deps nvidia-cudnn-cu12 over torch's), no framework of
  // CUDA 12 beside torch: still the replacement, not a second environment.
  f.python_envs.front().nvidia_wheels.push_back(
      {.package = "nvidia-cudnn-cu12", .version = *Version::parse("9.28.0.42"), .library = "cudnn", .cuda_major = 12});
  const auto listed = compatibility_findings(f, testing::builtin_kb());
  const Finding* r = testing::find(listed, "cudnn-cuda-major-mismatch");
  ASSERT_NE(r, nullptr) << testing::ids(listed);
  EXPECT_NE(r->fix.find("pip uninstall -y nvidia-cudnn-cu12"), std::string::npos) << r->fix;
  EXPECT_EQ(r->fix.find("environment of its own"), std::string::npos) << r->fix;
}

// torch/backends/cudnn/__init__.py _init() (read from the 2.10.0 to 2.15.0 wheels): the cuDNN
// loaded must be of the compiled major and at least its minor, else torch.backends.cudnn raises
// "cuDNN version incompatibility" (PYTORCH_SKIP_CUDNN_COMPATIBILITY_CHECK=1 skips it); and from
// 2.10 a cuDNN of 9.11 or newer is refused when any visible GPU is below compute capability 7.5.
struct TorchCudnnCase {
  const char* gpu;
  const char* second_gpu = nullptr;
  const char* torch_version = "2.15.0";
  const char* compiled = "9.26.0.51";    ///< the METADATA pin: the build's cuDNN
  const char* wheel = "9.26.0.51";       ///< the nvidia-cudnn wheel torch loads
  const char* skip = nullptr;            ///< PYTORCH_SKIP_CUDNN_COMPATIBILITY_CHECK
  const char* requires_cudnn = nullptr;  ///< the METADATA's nvidia-cudnn requirement, name and pin
};

std::vector<Finding> torch_cudnn_findings(const TorchCudnnCase& c) {
  Facts f = machine(Platform::linux, c.gpu, "580.95.05");
  if (c.second_gpu != nullptr) f.gpus.push_back(machine(Platform::linux, c.second_gpu, "580.95.05").gpus.front());
  FrameworkFacts t = torch(c.torch_version, "cu126");
  t.cuda_version = v("12.6");
  t.cudnn_version = v(c.compiled);
  if (c.requires_cudnn != nullptr) {
    std::string_view r(c.requires_cudnn);
    t.nvidia_requires = {{std::string(r.substr(0, r.find('='))), std::string(r.substr(r.find('='))), ""}};
  }
  PythonEnvFacts e = env_with("3.12.3", t);
  const std::string dir = e.path + "/lib/python3.12/site-packages/nvidia/cudnn/lib";
  e.frameworks.front().loads = {{"libcudnn.so.9", dir + "/libcudnn.so.9", "pip wheel"}};
  e.nvidia_wheels.push_back(NvidiaWheel{"nvidia-cudnn-cu12", v(c.wheel), "cudnn", 12});
  f.python_envs.push_back(e);
  f.libraries.push_back(cudnn_at(c.wheel, "pip-wheel", dir.c_str()));
  if (c.skip != nullptr) f.env.push_back({"PYTORCH_SKIP_CUDNN_COMPATIBILITY_CHECK", c.skip});
  return compatibility_findings(f, kb());
}

TEST(CompatChecks, TorchRefusesACudnnOfAnOlderMinorThanItWasBuiltWith) {
  auto fs = torch_cudnn_findings({.gpu = "NVIDIA H100 80GB HBM3", .wheel = "9.20.0.48"});
  const Finding* m = find(fs, "torch-cudnn-too-old");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_EQ(m->severity, Severity::error);
  EXPECT_NE(m->title.find("9.20.0.48"), std::string::npos) << m->title;
  EXPECT_NE(m->detail.find("compiled  against (9, 26, 0)"), std::string::npos) << m->detail;
  EXPECT_NE(m->fix.find("nvidia-cudnn-cu12==9.26.0.51"), std::string::npos) << m->fix;
  // The fix installs what the METADATA pins, under the wheel's own name.
  auto pinned = torch_cudnn_findings(
      {.gpu = "NVIDIA H100 80GB HBM3", .wheel = "9.20.0.48", .requires_cudnn = "nvidia-cudnn-cu13==9.26.0.51"});
  ASSERT_NE(find(pinned, "torch-cudnn-too-old"), nullptr) << ids(pinned);
  EXPECT_NE(find(pinned, "torch-cudnn-too-old")->fix.find("\"nvidia-cudnn-cu13==9.26.0.51\""), std::string::npos)
      << find(pinned, "torch-cudnn-too-old")->fix;
  // A newer minor, and an older patch of the same minor, are accepted.
  EXPECT_FALSE(
      has(torch_cudnn_findings({.gpu = "NVIDIA H100 80GB HBM3", .wheel = "9.28.0.42"}), "torch-cudnn-too-old"));
  EXPECT_FALSE(has(torch_cudnn_findings({.gpu = "NVIDIA H100 80GB HBM3", .compiled = "9.26.5.1", .wheel = "9.26.0.51"}),
                   "torch-cudnn-too-old"));
  // The variable torch reads turns the refusal off: said, not an error.
  auto skipped = torch_cudnn_findings({.gpu = "NVIDIA H100 80GB HBM3", .wheel = "9.20.0.48", .skip = "1"});
  const Finding* s = find(skipped, "torch-cudnn-too-old");
  ASSERT_NE(s, nullptr) << ids(skipped);
  EXPECT_EQ(s->severity, Severity::info);
  auto not_skipped = torch_cudnn_findings({.gpu = "NVIDIA H100 80GB HBM3", .wheel = "9.20.0.48", .skip = "0"});
  ASSERT_NE(find(not_skipped, "torch-cudnn-too-old"), nullptr) << ids(not_skipped);
  EXPECT_EQ(find(not_skipped, "torch-cudnn-too-old")->severity, Severity::error);
}

TEST(CompatChecks, TorchRefusesCudnn911OrNewerWhenAnyGpuIsBelowComputeCapability75) {
  // torch 2.14 cu126 pins cuDNN 9.10.2.21, which a GTX 1080 Ti may use.
  EXPECT_FALSE(has(torch_cudnn_findings({.gpu = "NVIDIA GeForce GTX 1080 Ti",
                                         .torch_version = "2.14.1",
                                         .compiled = "9.10.2.21",
                                         .wheel = "9.10.2.21"}),
                   "torch-cudnn-refuses-gpu"));
  // A newer cuDNN wheel beside it (another package's pin) is refused for every GPU of the process.
  auto fs = torch_cudnn_findings({.gpu = "NVIDIA GeForce RTX 3090",
                                  .second_gpu = "NVIDIA GeForce GTX 1080 Ti",
                                  .torch_version = "2.14.1",
                                  .compiled = "9.10.2.21",
                                  .wheel = "9.20.0.48"});
  const Finding* m = find(fs, "torch-cudnn-refuses-gpu");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_EQ(m->severity, Severity::error);
  EXPECT_NE(m->title.find("GTX 1080 Ti"), std::string::npos) << m->title;
  EXPECT_NE(m->detail.find("SM < 7.5"), std::string::npos) << m->detail;
  EXPECT_NE(m->fix.find("CUDA_VISIBLE_DEVICES"), std::string::npos) << m->fix;
  EXPECT_NE(m->source.find("torch/backends/cudnn/__init__.py"), std::string::npos) << m->source;
  // Before 2.10 torch has no such check; on Turing and newer there is nothing to refuse.
  EXPECT_FALSE(has(torch_cudnn_findings({.gpu = "NVIDIA GeForce GTX 1080 Ti",
                                         .torch_version = "2.9.1",
                                         .compiled = "9.10.2.21",
                                         .wheel = "9.20.0.48"}),
                   "torch-cudnn-refuses-gpu"));
  EXPECT_FALSE(has(
      torch_cudnn_findings(
          {.gpu = "NVIDIA GeForce RTX 2080", .torch_version = "2.14.1", .compiled = "9.10.2.21", .wheel = "9.20.0.48"}),
      "torch-cudnn-refuses-gpu"));
}

}  // namespace
}  // namespace gpudoctor
