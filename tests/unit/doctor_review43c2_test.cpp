// Regression tests for the outside review of session 43 (C2): the doctor on real environments
// installed from PyPI, where a fix it printed would not work (review items 02, 06, 07, 08, 12, 15,
// 17). Each test builds the facts the reviewer's run gave (docs/knowledge-base.md, the section
// "Outside review of session 43 (C2)").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "check/checks.hpp"
#include "check/compat_checks.hpp"
#include "check_test_support.hpp"
#include "core/text.hpp"
#include "kb/knowledge_base.hpp"

namespace gpudoctor {
namespace {

using testing::find;
using testing::ids;
using testing::kb;
using testing::machine;
using testing::v;

const char* const kH100 = "NVIDIA H100 80GB HBM3";
const char* const kVenv = "/tmp/rev43c/venv-torch";

FrameworkFacts framework(const char* name, const char* package, const char* version) {
  FrameworkFacts fw;
  fw.name = name;
  fw.package = package;
  fw.version = v(version);
  fw.location = std::string(kVenv) + "/lib/python3.11/site-packages";
  return fw;
}

/// `pip install torch` of the review: 2.15.0+cu132 with its CUDA 13 wheels.
FrameworkFacts torch215() {
  FrameworkFacts t = framework("torch", "torch", "2.15.0+cu132");
  t.cuda_build = true;
  t.variant = "cu132";
  t.cuda_version = v("13.2");
  t.cudnn_version = v("9.26.0.51");
  return t;
}

PythonEnvFacts venv(std::vector<FrameworkFacts> frameworks) {
  PythonEnvFacts e;
  e.path = kVenv;
  e.kind = "venv";
  e.python_version = v("3.11.7");
  e.python_version_source = "pyvenv.cfg";
  e.site_packages = {std::string(kVenv) + "/lib/python3.11/site-packages"};
  e.frameworks = std::move(frameworks);
  return e;
}

void add_cu13_wheels(PythonEnvFacts& e) {
  e.nvidia_wheels.push_back(NvidiaWheel{"nvidia-cudnn-cu13", v("9.26.0.51"), "cudnn", 13});
  e.nvidia_wheels.push_back(NvidiaWheel{"nvidia-nccl-cu13", v("2.30.7"), "nccl", 13});
}

/// jax 0.10.2 whose plugin is of another release (`pip install --no-deps jax-cuda13-plugin==0.10.1`):
/// what summarize_jax makes of it (a conflict, no usable plugin).
std::vector<FrameworkFacts> jax_with_refused_plugin() {
  FrameworkFacts jax = framework("jax", "jax", "0.10.2");
  jax.cuda_build = false;
  jax.variant = "cpu";
  jax.conflicts.push_back(
      "jax-cuda13-plugin 0.10.1 does not match jaxlib 0.10.2 (jaxlib compares the whole version); JAX will not use it");
  FrameworkFacts plugin = framework("jax-cuda-plugin", "jax-cuda13-plugin", "0.10.1");
  plugin.variant = "cuda13";
  FrameworkFacts pjrt = framework("jax-cuda-pjrt", "jax-cuda13-pjrt", "0.10.2");
  pjrt.variant = "cuda13";
  return {jax, plugin, pjrt};
}

bool any_fix_says(const std::vector<Finding>& fs, const std::string& text) {
  return std::any_of(fs.begin(), fs.end(), [&](const Finding& f) { return contains(f.fix, text); });
}

// 02: the refused plugin was told twice, the second time as a "CPU-only build" whose fix,
// `pip install -U "jax[cuda12]"`, installs CUDA 12 cuDNN/NCCL over torch's CUDA 13 files.
TEST(Review43c2, AJaxPluginJaxRefusesIsOneFindingWithTheInstalledMajor) {
  Facts f = machine(Platform::linux, kH100, "580.95.05");
  PythonEnvFacts e = venv(jax_with_refused_plugin());
  e.frameworks.push_back(torch215());
  add_cu13_wheels(e);
  f.python_envs.push_back(e);
  const auto fs = run_checks(f, &kb());
  const Finding* conflict = find(fs, "framework-install-conflict");
  ASSERT_NE(conflict, nullptr) << ids(fs);
  EXPECT_TRUE(contains(conflict->fix, "pip install -U \"jax[cuda13]==0.10.2\"")) << conflict->fix;
  EXPECT_EQ(find(fs, "framework-cpu-only"), nullptr) << ids(fs);
  EXPECT_FALSE(any_fix_says(fs, "cuda12")) << ids(fs);
  const Finding* env = find(fs, "python-env");
  ASSERT_NE(env, nullptr);
  EXPECT_FALSE(contains(env->title, "CPU-only")) << env->title;
  EXPECT_TRUE(contains(env->title, "cuda13 plugin not usable")) << env->title;
}

// 02, near miss: a JAX with no CUDA plugin at all is still a CPU-only install; its fix takes the
// CUDA major the environment's nvidia-* wheels already have.
TEST(Review43c2, ACpuOnlyJaxBesideCuda13WheelsIsToldTheCuda13Extra) {
  Facts f = machine(Platform::linux, kH100, "580.95.05");
  FrameworkFacts jax = framework("jax", "jax", "0.10.2");
  jax.cuda_build = false;
  jax.variant = "cpu";
  PythonEnvFacts e = venv({jax, torch215()});
  add_cu13_wheels(e);
  f.python_envs.push_back(e);
  const auto fs = run_checks(f, &kb());
  const Finding* cpu = find(fs, "framework-cpu-only");
  ASSERT_NE(cpu, nullptr) << ids(fs);
  EXPECT_TRUE(contains(cpu->fix, "pip install -U \"jax[cuda13]\"")) << cpu->fix;
  EXPECT_FALSE(contains(cpu->fix, "cuda12")) << cpu->fix;
  // A conflict that is not about a plugin (none installed) leaves the CPU-only finding.
  f.python_envs.front().frameworks.front().conflicts.push_back("jaxlib 0.10.3 is newer than jax 0.10.2");
  const auto again = run_checks(f, &kb());
  EXPECT_NE(find(again, "framework-cpu-only"), nullptr);
}

// 02, near miss: with no CUDA wheels in the environment, the driver's CUDA picks the extra.
TEST(Review43c2, ACpuOnlyJaxInAnEmptyEnvironmentIsToldTheDriversMajor) {
  FrameworkFacts jax = framework("jax", "jax", "0.10.2");
  jax.cuda_build = false;
  jax.variant = "cpu";
  for (auto [cuda, extra] : {std::pair{"12.4", "cuda12"}, std::pair{"13.0", "cuda13"}}) {
    Facts f = machine(Platform::linux, kH100, "580.95.05");
    f.driver.cuda_driver_version = v(cuda);
    f.python_envs.push_back(venv({jax}));
    const auto fs = run_checks(f, &kb());
    const Finding* cpu = find(fs, "framework-cpu-only");
    ASSERT_NE(cpu, nullptr);
    EXPECT_TRUE(contains(cpu->fix, std::string("\"jax[") + extra + "]\"")) << cpu->fix;
  }
}

// 06: torch 2.15 has only CUDA 13 builds; "install a build for an older CUDA" named none. The
// fix now names what the plan resolves for this driver (PyTorch 2.14 cu126) and its command.
TEST(Review43c2, TorchOnADriverTooOldForEveryBuildOfItsReleaseIsToldThePlansBuild) {
  Facts f = machine(Platform::linux, kH100, "535.104.05");
  f.python_envs.push_back(venv({torch215()}));
  const auto fs = compatibility_findings(f, kb());
  const Finding* d = find(fs, "driver-too-old-for-framework");
  ASSERT_NE(d, nullptr) << ids(fs);
  EXPECT_FALSE(contains(d->fix, "install a build for an older CUDA")) << d->fix;
  for (const char* fact : {"PyTorch 2.14", "cu126", "--index-url https://download.pytorch.org/whl/cu126",
                           "gpudoctor plan --framework pytorch", ">= 580"}) {
    EXPECT_TRUE(contains(d->fix, fact)) << fact << " not in: " << d->fix;
  }
}

// 07: the same pip CUDA 13.2 wheels were given 595.58.03 (the toolkit's own driver) and 580 (the
// framework's); pip wheels run by minor-version compatibility, so their family floor applies.
TEST(Review43c2, PipCudaWheelsAskForTheirFamilysFloor) {
  struct Case {
    const char* driver;
    const char* cuda;
    const char* floor;
    const char* toolkit_driver;
  };
  for (const Case& c :
       {Case{"535.104.05", "13.2.86", "580", "595.58.03"}, Case{"520.61.05", "12.9.79", "525.60.13", "575.57.08"}}) {
    Facts f = machine(Platform::linux, kH100, c.driver);
    ToolkitFacts wheels{.path = std::string(kVenv) + "/lib/python3.11/site-packages",
                        .version = v(c.cuda),
                        .version_source = "dist-info",
                        .kind = "pip-wheels"};
    f.toolkits.push_back(wheels);
    ToolkitFacts system{
        .path = "/usr/local/cuda-x", .version = v(c.cuda), .version_source = "version.json", .kind = "system"};
    f.toolkits.push_back(system);
    const auto fs = compatibility_findings(f, kb());
    int seen = 0;
    for (const Finding& x : fs) {
      if (x.id != "driver-too-old-for-toolkit") continue;
      ++seen;
      const bool pip = contains(x.title, wheels.path);
      // Near miss: a system toolkit someone compiles with still asks for its own driver.
      EXPECT_TRUE(contains(x.fix, std::string(">= ") + (pip ? c.floor : c.toolkit_driver) + ",")) << x.fix;
      EXPECT_EQ(contains(x.fix, c.toolkit_driver), !pip) << x.fix;
    }
    EXPECT_EQ(seen, 2) << ids(fs);
  }
}

// 08: TensorFlow on an H100 was told to "use a release whose build has kernels for this GPU";
// no release has sm_90 SASS (the knowledge base's recorded lists), every one runs by PTX JIT.
TEST(Review43c2, TensorflowOnAGpuNoReleaseHasKernelsForSaysPtxIsHowEveryReleaseRuns) {
  Facts f = machine(Platform::linux, kH100, "580.95.05");
  FrameworkFacts t = framework("tensorflow", "tensorflow", "2.21.0");
  t.cuda_build = true;
  f.python_envs.push_back(venv({t}));
  auto fs = compatibility_findings(f, kb());
  const Finding* p = find(fs, "gpu-arch-ptx-only");
  ASSERT_NE(p, nullptr) << ids(fs);
  EXPECT_FALSE(contains(p->fix, "whose build has kernels")) << p->fix;
  for (const char* fact : {"No TensorFlow release has native sm_90", "CUDA_CACHE_MAXSIZE"})
    EXPECT_TRUE(contains(p->fix, fact)) << fact << " not in: " << p->fix;
  // The driver too old for the JIT: the update is the fix, and again no other release.
  f.driver.version = v("550.54.15");
  fs = compatibility_findings(f, kb());
  const Finding* jit = find(fs, "gpu-arch-ptx-driver-too-old");
  ASSERT_NE(jit, nullptr) << ids(fs);
  EXPECT_FALSE(contains(jit->fix, "whose build has kernels")) << jit->fix;
  EXPECT_TRUE(contains(jit->fix, "No TensorFlow release has native sm_90")) << jit->fix;
}

// 08, near miss: TF 2.15 on an A100 (sm_80 by PTX only) while later releases have sm_80 SASS:
// the fix still sends the user to those releases.
TEST(Review43c2, TensorflowOnAGpuALaterReleaseHasKernelsForKeepsTheReleaseFix) {
  Facts f = machine(Platform::linux, "NVIDIA A100-SXM4-80GB", "580.95.05");
  FrameworkFacts t = framework("tensorflow", "tensorflow", "2.15.1");
  t.cuda_build = true;
  f.python_envs.push_back(venv({t}));
  const auto fs = compatibility_findings(f, kb());
  const Finding* p = find(fs, "gpu-arch-ptx-only");
  ASSERT_NE(p, nullptr) << ids(fs);
  EXPECT_TRUE(contains(p->fix, "whose build has kernels")) << p->fix;
  EXPECT_FALSE(contains(p->fix, "No TensorFlow release")) << p->fix;
}

// 08, near miss by a recorded list only: a release whose wheel's recorded list gives the GPU SASS
// sends the user there, although no release of a derived list (the toolkit's) covers it. Today's
// tables have no such GPU (every recorded SASS below 9.0 is also in CUDA 11.2's list, and no
// wheel records sm_90), so a 2.21 wheel that recorded sm_90 stands for the next release that
// does. Mutation row s43c2-07 (the `native` case dropped) survived until this test.
TEST(Review43c2, TensorflowOnAGpuOnlyARecordedListCoversKeepsTheReleaseFix) {
  KnowledgeBase edited = kb();
  for (TfBuild& b : edited.tensorflow.builds) {
    if (b.os == "linux" && b.version == v("2.21")) b.archs.push_back(v("9.0"));
  }
  Facts f = machine(Platform::linux, kH100, "580.95.05");
  FrameworkFacts t = framework("tensorflow", "tensorflow", "2.15.1");
  t.cuda_build = true;
  f.python_envs.push_back(venv({t}));
  const auto fs = compatibility_findings(f, edited);
  const Finding* p = find(fs, "gpu-arch-ptx-only");
  ASSERT_NE(p, nullptr) << ids(fs);
  EXPECT_TRUE(contains(p->fix, "whose build has kernels")) << p->fix;
  EXPECT_FALSE(contains(p->fix, "No TensorFlow release")) << p->fix;
}

/// fakes/driver_not_loaded.ini as the doctor reads it: NVML says the module is not loaded, the
/// user-space driver answers cuDriverGetVersion.
Facts module_not_loaded(const char* user_space_cuda) {
  Facts f = machine(Platform::linux, kH100, nullptr);
  f.driver.nvidia_module_loaded = false;
  f.driver.cuda_driver_version = v(user_space_cuda);
  f.driver.cuda_driver_version_source = "cuDriverGetVersion";
  f.python_envs.push_back(venv({torch215()}));
  f.toolkits.push_back(ToolkitFacts{.path = std::string(kVenv) + "/lib/python3.11/site-packages",
                                    .version = v("13.2.86"),
                                    .version_source = "dist-info",
                                    .kind = "pip-wheels"});
  return f;
}

// 12: with the module not loaded, a CUDA 13 venv got a tick although the user-space driver
// supports CUDA 12.4 at most (the real torch: "driver ... too old (found version 12040)").
TEST(Review43c2, AUserSpaceDriverOfAnOlderCudaMajorIsHeldAgainstTheVenvWithTheModuleUnloaded) {
  const auto fs = compatibility_findings(module_not_loaded("12.4"), kb());
  const Finding* fw = find(fs, "driver-too-old-for-framework");
  ASSERT_NE(fw, nullptr) << ids(fs);
  EXPECT_EQ(fw->severity, Severity::error);
  EXPECT_TRUE(contains(fw->detail, "loading the module is not enough")) << fw->detail;
  EXPECT_TRUE(contains(fw->fix, ">= 580")) << fw->fix;
  // The other way out is a build this user-space driver runs (session 44's re-read: the plan was
  // resolved without a driver and named torch 2.15's CUDA 13 build, the one that cannot run).
  EXPECT_TRUE(contains(fw->fix, "the newest build for this driver")) << fw->fix;
  EXPECT_FALSE(contains(fw->fix, "CUDA 13")) << fw->fix;
  EXPECT_FALSE(contains(fw->fix, "cu13")) << fw->fix;
  const Finding* tk = find(fs, "driver-too-old-for-toolkit");
  ASSERT_NE(tk, nullptr) << ids(fs);
  EXPECT_EQ(tk->severity, Severity::error);
  EXPECT_EQ(find(fs, "driver-floor-for-framework"), nullptr) << ids(fs);
}

// 12, near miss: a user-space driver of CUDA 13 runs the venv once the module loads.
TEST(Review43c2, AUserSpaceDriverOfTheSameCudaMajorIsNoError) {
  const auto fs = compatibility_findings(module_not_loaded("13.0"), kb());
  EXPECT_EQ(find(fs, "driver-too-old-for-framework"), nullptr) << ids(fs);
  EXPECT_EQ(find(fs, "driver-too-old-for-toolkit"), nullptr) << ids(fs);
  EXPECT_NE(find(fs, "driver-floor-for-framework"), nullptr) << ids(fs);
}

// 15: jax[cuda12] below its floor was offered "(or use jax[cuda12] on an older driver)".
TEST(Review43c2, JaxBelowItsDriverFloorIsNeverOfferedItsOwnExtra) {
  auto run = [](const char* driver, const char* extra) {
    Facts f = machine(Platform::linux, kH100, driver);
    FrameworkFacts jax = framework("jax", "jax", "0.10.2");
    jax.cuda_build = true;
    jax.variant = extra;
    f.python_envs.push_back(venv({jax}));
    const auto fs = compatibility_findings(f, kb());
    const Finding* d = find(fs, "driver-too-old-for-framework");
    return d == nullptr ? std::string("none: ") + ids(fs) : d->fix;
  };
  const std::string cuda12 = run("520.61.05", "cuda12");
  EXPECT_TRUE(contains(cuda12, ">= 525.60.13")) << cuda12;
  EXPECT_FALSE(contains(cuda12, "jax[cuda12]")) << cuda12;
  EXPECT_TRUE(contains(cuda12, "no JAX CUDA extra runs on driver 520.61.05")) << cuda12;
  // Near miss: jax[cuda13] on a 550 driver may still be offered cuda12, which runs there.
  const std::string cuda13 = run("550.54.15", "cuda13");
  EXPECT_TRUE(contains(cuda13, "`\"jax[cuda12]\"`, which needs >= 525.60.13")) << cuda13;
}

// 17: the tensorflow-cpu fix wrote `pip install tensorflow[and-cuda]` unquoted (zsh: "no matches
// found"); it is quoted and pinned like the other fixes.
TEST(Review43c2, TheTensorflowCpuFixQuotesAndPinsTheExtra) {
  Facts f = machine(Platform::linux, kH100, "580.95.05");
  FrameworkFacts t = framework("tensorflow", "tensorflow-cpu", "2.21.0");
  t.cuda_build = false;
  f.python_envs.push_back(venv({t}));
  const auto fs = run_checks(f, &kb());
  const Finding* cpu = find(fs, "framework-cpu-only");
  ASSERT_NE(cpu, nullptr);
  EXPECT_TRUE(contains(cpu->fix, "pip uninstall -y tensorflow-cpu && pip install \"tensorflow[and-cuda]==2.21.0\""))
      << cpu->fix;
}

/// Every `name[extra]` in a backticked span (a command to copy) of `text` that is not quoted.
std::vector<std::string> unquoted_extras(const std::string& text) {
  std::vector<std::string> out;
  // An extra is a word (PEP 685: letters, digits, - and _): `sizes[i]`, `[0-9]` are not extras.
  static const std::regex spec(R"([A-Za-z][A-Za-z0-9_.-]*\[[a-z][a-z0-9_,-]{2,}\])");
  size_t open = 0;
  while ((open = text.find('`', open)) != std::string::npos) {
    const size_t close = text.find('`', open + 1);
    if (close == std::string::npos) break;
    const std::string span = text.substr(open + 1, close - open - 1);
    for (auto it = std::sregex_iterator(span.begin(), span.end(), spec); it != std::sregex_iterator(); ++it) {
      const size_t at = static_cast<size_t>(it->position(0));
      const char before = at == 0 ? ' ' : span[at - 1];
      if (before != '"' && before != '\'') out.push_back(it->str(0));
    }
    open = close + 1;
  }
  return out;
}

// 17, the family: no fix text in the checks' sources or the explain rules writes an extras spec
// unquoted inside a command, where zsh would glob it.
TEST(Review43c2, NoCommandInTheSourcesOrRulesLeavesAnExtrasSpecUnquoted) {
  namespace fs = std::filesystem;
  EXPECT_EQ(unquoted_extras("run `pip install tensorflow[and-cuda]` now").size(), 1U);
  EXPECT_TRUE(unquoted_extras("`print(nvidia.nccl.__path__[0])` and `-sizes[i] <= index`").empty());
  EXPECT_TRUE(unquoted_extras("run `pip install \"tensorflow[and-cuda]\"` or `pip install 'jax[cuda12]'`").empty());
  const fs::path root = GPUDOCTOR_SOURCE_DIR;
  std::vector<std::string> found;
  for (const char* dir : {"src/check", "src/kb", "data/explain", "data/compat"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      if (!e.is_regular_file()) continue;
      std::ifstream in(e.path());
      std::string line;
      for (int n = 1; std::getline(in, line); ++n) {
        // Comments that are not fix texts (a TOML `#` line) still show a command to copy.
        for (const std::string& s : unquoted_extras(line))
          found.push_back(e.path().lexically_relative(root).string() + ":" + std::to_string(n) + " " + s);
      }
    }
  }
  EXPECT_TRUE(found.empty()) << join(found, "\n");
}

}  // namespace
}  // namespace gpudoctor
