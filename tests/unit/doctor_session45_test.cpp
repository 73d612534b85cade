// Session 45: every fix that runs pip for an environment runs that environment's pip. A bare `pip`
// is whichever comes first on PATH: with a venv not activated, a conda base and a system Python,
// `pip install ...` lands in another environment and the finding stays.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "check/checks.hpp"
#include "check/gpu_driver_checks.hpp"
#include "check/onnxruntime_fix.hpp"
#include "check/which_pip.hpp"
#include "check_test_support.hpp"
#include "core/text.hpp"

namespace gpudoctor {
namespace {

using testing::find;
using testing::ids;
using testing::machine;
using testing::v;

constexpr const char* kPython = "/home/u/.venvs/x/bin/python3";

PythonEnvFacts env_at(const char* python, FrameworkFacts fw) {
  PythonEnvFacts e = testing::env_with(python, std::move(fw));
  e.interpreter = kPython;
  return e;
}

FrameworkFacts package(const char* name, const char* version, bool cuda) {
  FrameworkFacts fw = testing::cuda_framework(name, version);
  fw.cuda_build = cuda;
  return fw;
}

/// Each `pip install` / `pip uninstall` in `fix` runs `pip`: `ENV -m pip ...`, never a bare pip,
/// except where the fix sends the user to another environment (inside WSL2, a conda recipe).
std::vector<std::string> bare_pips(const std::string& fix, const std::string& pip) {
  std::vector<std::string> out;
  for (const char* verb : {"pip install", "pip uninstall"}) {
    for (size_t at = fix.find(verb); at != std::string::npos; at = fix.find(verb, at + 1)) {
      if (at >= pip.size() - 3 && fix.compare(at - (pip.size() - 3), pip.size() - 3, pip, 0, pip.size() - 3) == 0)
        continue;
      const std::string before = fix.substr(at < 120 ? 0 : at - 120, at < 120 ? at : 120);
      if (contains(before, "WSL2") || contains(before, "conda install")) continue;
      out.push_back(fix.substr(at < 20 ? 0 : at - 20, 60));
    }
  }
  return out;
}

/// A CUDA 12 cuDNN `version` found in `dir`, from `origin` ("pip-wheel", "system").
LibraryFacts cudnn_in(const std::string& dir, const char* version, const char* origin) {
  LibraryFacts lib;
  lib.name = "cudnn";
  lib.version = v(version);
  lib.path = dir;
  lib.origin = origin;
  lib.cuda_major = 12;
  return lib;
}

struct Case {
  const char* name;
  Facts facts;
  const char* finding;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  {
    Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 3060", "535.104.05");
    f.python_envs.push_back(env_at("3.11.4", testing::cuda_framework("tensorflow", "2.15.0")));
    out.push_back({"TensorFlow without its CUDA libraries", f, "tf-cuda-libs-missing"});
  }
  for (const char* name : {"torch", "tensorflow", "onnxruntime", "jax"}) {
    Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 3060", "570.133.07");
    f.python_envs.push_back(env_at("3.11.4", package(name, name[0] == 'j' ? "0.4.30" : "2.15.0", false)));
    out.push_back({name, f, "framework-cpu-only"});
  }
  {
    Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 3060", "570.133.07");
    FrameworkFacts audio = testing::cuda_framework("torchaudio", "2.8.0+cu128");
    audio.cuda_build.reset();
    audio.variant = "cu128";
    audio.requires_torch = v("2.8.0");
    f.python_envs.push_back(env_at("3.12.3", audio));
    out.push_back({"torchaudio without torch", f, "torch-companion-without-torch"});
  }
  {
    Facts f = machine(Platform::linux, "Tesla K80", "470.256.02");
    FrameworkFacts t = testing::torch("2.5.1+cu124", "cu124");
    t.cuda_version = v("12.4");
    f.python_envs.push_back(env_at("3.12.3", t));
    out.push_back({"torch 2.5 on a K80", f, "gpu-arch-unsupported-by-framework"});
  }
  {
    Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 3060", "570.133.07");
    PythonEnvFacts e = env_at("3.11.9", testing::cuda_framework("tensorflow", "2.14.1", "cuda12"));
    FrameworkFacts keras;
    keras.name = "keras";
    keras.package = "keras";
    keras.version = v("3.3.3");
    keras.location = e.path + "/lib/site-packages";
    e.frameworks.push_back(keras);
    f.python_envs.push_back(e);
    out.push_back({"Keras 3 beside TensorFlow 2.14", f, "keras-mismatch"});
  }
  {
    // cuDNN 9.27's wheel starts at compute capability 7.5: the V100 is told the older wheel, for
    // the environment whose folder holds it.
    Facts f = machine(Platform::linux, "NVIDIA V100", "580.95.05");
    PythonEnvFacts e = env_at("3.11.4", testing::torch("2.8.0+cu128", "cu128"));
    f.libraries.push_back(
        cudnn_in(e.path + "/lib/python3.11/site-packages/nvidia/cudnn/lib", "9.27.0.42", "pip-wheel"));
    f.python_envs.push_back(e);
    out.push_back({"a cuDNN wheel without kernels for the card", f, "cudnn-no-kernels-for-gpu"});
  }
  return out;
}

TEST(DoctorSession45, EveryPipInAFixIsTheEnvironmentsOwn) {
  PythonEnvFacts probe;
  probe.interpreter = kPython;
  const std::string pip = env_pip(probe);
  for (const Case& c : cases()) {
    const auto fs = run_checks(c.facts, &testing::builtin_kb());
    const Finding* m = find(fs, c.finding);
    ASSERT_NE(m, nullptr) << c.name << ": " << ids(fs);
    EXPECT_TRUE(contains(m->fix, pip + " ")) << c.name << ": " << m->fix;
    for (const Finding& each : fs) {
      for (const std::string& bare : bare_pips(each.fix, pip))
        ADD_FAILURE() << c.name << ", " << each.id << ": a bare pip in \"..." << bare << "...\"";
    }
  }
}

// A distribution's package (apt's python3-tensorflow, CPU-only): the system pip refuses to replace
// it (PEP 668), so the fix makes a venv and runs that venv's pip, with nothing in it to uninstall.
TEST(DoctorSession45, ADistributionsPackageIsReplacedInANewVenvWithItsOwnPip) {
  for (const char* name : {"tensorflow", "torch", "onnxruntime"}) {
    Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 3060", "570.133.07");
    PythonEnvFacts e = env_at("3.11.2", package(name, "2.15.0", false));
    e.path = "/usr";
    e.interpreter = "/usr/bin/python3";
    e.frameworks.back().location = "/usr/lib/python3/dist-packages";
    f.python_envs.push_back(e);
    const auto fs = run_checks(f, &testing::builtin_kb());
    const Finding* m = find(fs, "framework-cpu-only");
    ASSERT_NE(m, nullptr) << name << ": " << ids(fs);
    EXPECT_TRUE(contains(m->fix, "and, in it: ")) << m->fix;
    EXPECT_FALSE(contains(m->fix, "/usr/bin/python3 -m pip")) << name << ": the system pip stops: " << m->fix;
    EXPECT_FALSE(contains(m->fix, "uninstall")) << name << ": nothing to uninstall in a new venv: " << m->fix;
    EXPECT_TRUE(contains(m->fix, "`pip install")) << m->fix;
  }
  // The near miss: a pip-installed CPU build in a venv keeps its own pip and the uninstall.
  Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 3060", "570.133.07");
  f.python_envs.push_back(env_at("3.11.2", package("tensorflow", "2.15.0", false)));
  const auto fs = run_checks(f, &testing::builtin_kb());
  const Finding* m = find(fs, "framework-cpu-only");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_TRUE(contains(m->fix, std::string(kPython) + " -m pip uninstall -y tensorflow && ")) << m->fix;
}

// A conda base holds its envs/ folder: the cuDNN wheel in /opt/conda/envs/x is that env's, and
// its fix runs that env's pip, not base's (which is a prefix of the path too).
TEST(DoctorSession45, AWheelsEnvironmentIsTheInnermostThatHoldsIt) {
  Facts f = machine(Platform::linux, "NVIDIA V100", "580.95.05");
  PythonEnvFacts base = env_at("3.12.3", testing::torch("2.8.0+cu128", "cu128"));
  base.path = "/opt/conda";
  base.interpreter = "/opt/conda/bin/python";
  PythonEnvFacts inner = base;
  inner.path = "/opt/conda/envs/x";
  inner.interpreter = "/opt/conda/envs/x/bin/python";
  f.libraries.push_back(
      cudnn_in(inner.path + "/lib/python3.12/site-packages/nvidia/cudnn/lib", "9.27.0.42", "pip-wheel"));
  f.python_envs = {base, inner};
  const auto fs = run_checks(f, &testing::builtin_kb());
  const Finding* m = find(fs, "cudnn-no-kernels-for-gpu");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_TRUE(contains(m->fix, "/opt/conda/envs/x/bin/python -m pip install")) << m->fix;
}

// cuDNN 9.17's support matrix stopped listing Maxwell, Pascal and Volta, but its wheel still has
// their SASS: a GTX 1080 Ti with the 9.17.1.4 wheel has kernels, as with 9.16 and 9.18.
TEST(DoctorSession45, Cudnn917HasKernelsForPascalAsItsWheelSays) {
  for (const char* version : {"9.16.0.29", "9.17.1.4", "9.18.1.3"}) {
    Facts f = machine(Platform::linux, "NVIDIA GeForce GTX 1080 Ti", "580.95.05");
    f.libraries.push_back(cudnn_in("/usr/lib/x86_64-linux-gnu", version, "system"));
    const auto fs = run_checks(f, &testing::builtin_kb());
    EXPECT_EQ(find(fs, "cudnn-no-kernels-for-gpu"), nullptr) << version << ": " << ids(fs);
  }
}

// The onnxruntime-gpu wheels fix, for a release with the extras and one without.
TEST(DoctorSession45, OnnxRuntimesLibrariesFixRunsTheEnvironmentsPip) {
  const std::string pip = "/opt/e/bin/python3 -m pip";
  for (const char* version : {"1.22.0", "1.20.1"}) {
    FrameworkFacts ort = package("onnxruntime", version, true);
    ort.cuda_version = v("12.4");
    ort.cudnn_version = v("9.1");
    const std::string fix = onnxruntime_libraries_fix(ort, Platform::linux, pip);
    EXPECT_TRUE(contains(fix, pip + " install ")) << version << ": " << fix;
    EXPECT_TRUE(bare_pips(fix, pip).empty()) << version << ": " << fix;
  }
}

// With two environments on Windows and the fix already running this one's pip, the sentence that
// warns about a bare pip is not added; a fix with a bare pip (WSL2's) still gets nothing wrong.
TEST(DoctorSession45, TheBarePipWarningIsForABarePipOnly) {
  Facts f = machine(Platform::windows, "NVIDIA GeForce RTX 3060", "546.12");
  PythonEnvFacts env;
  env.path = "C:\\Users\\u\\venv";
  env.interpreter = "C:\\Users\\u\\venv\\Scripts\\python.exe";
  env.kind = "venv";
  f.python_envs = {env, env};
  const std::string own = "Run `" + env_pip(env) + " install x`.";
  EXPECT_EQ(with_windows_which_pip(own, env, f), own);
  const std::string bare = "Run `pip install x`.";
  EXPECT_TRUE(contains(with_windows_which_pip(bare, env, f), "a bare `pip` is the first on PATH"));
}

// A WSL2 tree gives no driver version (the driver is the Windows host's; --registry has it): the
// CUDA builds' driver floors went unchecked, so "no issues" must not stand unqualified. With a CUDA
// framework to hold against a floor it is a warning; with nothing to check, information.
TEST(DoctorSession45, AnUnreadHostDriverIsSaidOnWsl2AsOnWindows) {
  for (Platform p : {Platform::wsl2, Platform::windows}) {
    Facts f = machine(p, "NVIDIA GeForce RTX 4070", nullptr);
    const bool windows = p == Platform::windows;
    f.driver.files.push_back(DriverFile{windows ? "nvcuda.dll" : "libcuda.so.1",
                                        windows ? "C:\\Windows\\System32\\nvcuda.dll" : "/usr/lib/wsl/lib/libcuda.so.1",
                                        std::nullopt});
    const auto bare = gpu_driver_findings(f);
    const Finding* info = find(bare, "driver-version-unknown");
    ASSERT_NE(info, nullptr) << (windows ? "windows: " : "wsl2: ") << ids(bare);
    EXPECT_EQ(info->severity, Severity::info);
    FrameworkFacts t = testing::torch("2.7.0+cu128", "cu128");
    t.cuda_version = v("12.8");
    f.python_envs.push_back(env_at("3.12.3", t));
    const auto with_torch = gpu_driver_findings(f);
    const Finding* w = find(with_torch, "driver-version-unknown");
    ASSERT_NE(w, nullptr) << ids(with_torch);
    EXPECT_EQ(w->severity, Severity::warning) << "torch 2.7.0+cu128's driver floor was not checked";
    EXPECT_TRUE(contains(w->detail, "torch 2.7.0+cu128")) << w->detail;
  }
  // A driver version known: nothing of the kind (the near miss).
  Facts known = machine(Platform::wsl2, "NVIDIA GeForce RTX 4070", "572.16");
  known.driver.files.push_back(DriverFile{"libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1", std::nullopt});
  const auto with_version = gpu_driver_findings(known);
  EXPECT_EQ(find(with_version, "driver-version-unknown"), nullptr) << ids(with_version);
}

}  // namespace
}  // namespace gpudoctor
