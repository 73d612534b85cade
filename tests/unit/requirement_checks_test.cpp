#include "check/requirement_checks.hpp"

#include <gtest/gtest.h>

#include "check_test_support.hpp"
#include "core/text.hpp"
#include "kb_test_support.hpp"
#include "probe/python/dist_info.hpp"

namespace gpudoctor {
namespace {

using testing::cuda_framework;
using testing::env_with;
using testing::find;
using testing::machine;

MarkerEnvironment linux_x86(const char* python = "3.12.3") {
  Facts f = machine(Platform::linux, nullptr, nullptr);
  f.os.arch = "x86_64";
  PythonEnvFacts e;
  e.python_version = testing::v(python);
  return marker_environment(f, e);
}

// The markers real wheels carry (torch 2.9.0 and 2.15.0's METADATA, read through
// `pip install --dry-run --report`; tensorflow's and-cuda extra).
TEST(RequirementMarkers, TheMarkersOfRealWheels) {
  const MarkerEnvironment env = linux_x86();
  EXPECT_EQ(evaluate_marker(R"(platform_system == "Linux" and platform_machine == "x86_64")", env), true);
  EXPECT_EQ(evaluate_marker(R"(platform_system == "Linux" and python_version < "3.15")", env), true);
  EXPECT_EQ(evaluate_marker(R"(platform_system == "Linux" and python_version < "3.12")", env), false);
  EXPECT_EQ(evaluate_marker(R"(extra == "and-cuda")", env), false);
  EXPECT_EQ(evaluate_marker("", env), true);
}

TEST(RequirementMarkers, AnotherMachineOrSystemIsFalse) {
  MarkerEnvironment arm = linux_x86();
  arm.platform_machine = "aarch64";
  EXPECT_EQ(evaluate_marker(R"(platform_system == "Linux" and platform_machine == "x86_64")", arm), false);
  Facts win = machine(Platform::windows, nullptr, nullptr);
  win.os.arch = "AMD64";
  PythonEnvFacts e;
  e.python_version = testing::v("3.11.9");
  const MarkerEnvironment w = marker_environment(win, e);
  EXPECT_EQ(evaluate_marker(R"(platform_system == "Linux")", w), false);
  EXPECT_EQ(evaluate_marker(R"(sys_platform == 'win32' and os_name == "nt")", w), true);
  // WSL2 is Linux to pip.
  Facts wsl = machine(Platform::wsl2, nullptr, nullptr);
  EXPECT_EQ(evaluate_marker(R"(platform_system == "Linux")", marker_environment(wsl, e)), true);
}

TEST(RequirementMarkers, WhatCannotBeToldStaysUnknown) {
  const MarkerEnvironment env = linux_x86();
  EXPECT_EQ(evaluate_marker(R"(implementation_name == "cpython")", env), std::nullopt);
  // Unknown and true is unknown; unknown and false is false; unknown or true is true.
  EXPECT_EQ(evaluate_marker(R"(implementation_name == "cpython" and platform_system == "Linux")", env), std::nullopt);
  EXPECT_EQ(evaluate_marker(R"(implementation_name == "cpython" and platform_system == "Windows")", env), false);
  EXPECT_EQ(evaluate_marker(R"(implementation_name == "cpython" or platform_system == "Linux")", env), true);
  MarkerEnvironment no_arch = env;
  no_arch.platform_machine.clear();
  EXPECT_EQ(evaluate_marker(R"(platform_machine == "x86_64")", no_arch), std::nullopt);
}

TEST(RequirementMarkers, ParenthesesOrAndIn) {
  const MarkerEnvironment env = linux_x86();
  EXPECT_EQ(evaluate_marker(
                R"((platform_system == "Windows" or platform_system == "Linux") and python_version >= "3.9")", env),
            true);
  EXPECT_EQ(evaluate_marker(R"(platform_machine in "x86_64 AMD64")", env), true);
  EXPECT_EQ(evaluate_marker(R"(platform_machine not in "aarch64 arm64")", env), true);
  EXPECT_EQ(evaluate_marker(R"(python_full_version >= "3.12.1")", env), true);
  // Versions compare as versions, not as text ("3.9" < "3.10").
  EXPECT_EQ(evaluate_marker(R"(python_version > "3.9")", linux_x86("3.10.4")), true);
}

TEST(RequirementMarkers, MalformedOrHostileMarkersAreUnknown) {
  const MarkerEnvironment env = linux_x86();
  EXPECT_EQ(evaluate_marker(R"(platform_system ==)", env), std::nullopt);
  EXPECT_EQ(evaluate_marker(R"(platform_system == "Linux)", env), std::nullopt);
  EXPECT_EQ(evaluate_marker(R"((platform_system == "Linux")", env), std::nullopt);
  EXPECT_EQ(evaluate_marker(R"(platform_system == "Linux" and)", env), std::nullopt);
  EXPECT_EQ(evaluate_marker(R"(platform_system == "Linux" "x")", env), std::nullopt);
  EXPECT_EQ(evaluate_marker("platform_system == \"Linux\" ; rm -rf /", env), std::nullopt);
  std::string deep = std::string(40, '(') + R"(platform_system == "Linux")" + std::string(40, ')');
  EXPECT_EQ(evaluate_marker(deep, env), std::nullopt);
  std::string longer = R"(platform_system == "Linux")";
  for (int i = 0; i < 200; ++i) longer += R"( or platform_system == "Linux")";
  EXPECT_EQ(evaluate_marker(longer, env), std::nullopt) << "an overlong marker is not read";
}

TEST(DistRequirements, TheFormsMetadataUses) {
  auto r =
      parse_requirement(R"(nvidia-cudnn-cu12==9.10.2.21; platform_system == "Linux" and platform_machine == "x86_64")");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->name, "nvidia-cudnn-cu12");
  EXPECT_EQ(r->specifier, "==9.10.2.21");
  EXPECT_EQ(r->marker, R"(platform_system == "Linux" and platform_machine == "x86_64")");
  r = parse_requirement(R"(nvidia-cudnn-cu12 ==9.1.0.70 ; platform_system == "Linux")");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->specifier, "==9.1.0.70");
  r = parse_requirement(R"(cuda-toolkit[cublas,cudart]==13.2.2; platform_system == "Linux")");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->name, "cuda-toolkit");
  EXPECT_EQ(r->specifier, "==13.2.2");
  r = parse_requirement("Nvidia_NCCL.cu12 (>=2.18,<3)");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->name, "nvidia-nccl-cu12");
  EXPECT_EQ(r->specifier, ">=2.18,<3");
  EXPECT_EQ(r->marker, "");
  r = parse_requirement("numpy");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->specifier, "");
  EXPECT_FALSE(parse_requirement("pkg @ https://example.com/pkg.whl"));
  EXPECT_FALSE(parse_requirement("==1.0"));
  EXPECT_FALSE(parse_requirement("pkg[unclosed ==1"));
}

/// torch 2.9.0 as PyPI ships it: every NVIDIA wheel pinned, on Linux x86_64.
Facts torch_env(const char* cudnn_installed, const char* arch = "x86_64") {
  Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 4090", "580.65.06");
  f.os.arch = arch;
  FrameworkFacts torch = cuda_framework("torch", "2.9.0", "cu128");
  const char* marker = R"(platform_system == "Linux" and platform_machine == "x86_64")";
  torch.nvidia_requires = {{"nvidia-cudnn-cu12", "==9.10.2.21", marker},
                           {"nvidia-cublas-cu12", "==12.8.4.1", marker},
                           {"nvidia-nccl-cu12", "==2.27.5", R"(extra == "distributed")"}};
  PythonEnvFacts e = env_with("3.12.3", torch);
  e.interpreter = e.path + "/bin/python";
  e.nvidia_wheels = {{"nvidia-cudnn-cu12", testing::v(cudnn_installed), "cudnn", 12},
                     {"nvidia-cublas-cu12", testing::v("12.8.4.1"), "cublas", 12},
                     {"nvidia-nccl-cu12", testing::v("2.21.5"), "nccl", 12}};
  f.python_envs.push_back(e);
  return f;
}

TEST(RequirementChecks, PinnedWheelsInstalledAsPinnedSayNothing) {
  EXPECT_TRUE(requirement_findings(torch_env("9.10.2.21")).empty());
}

TEST(RequirementChecks, ANewerMinorOfAPinnedWheelIsNamedAsPipCheckWouldNameIt) {
  auto out = requirement_findings(torch_env("9.14.0.64"));
  ASSERT_EQ(out.size(), 1U);
  const Finding& f = out.front();
  EXPECT_EQ(f.id, "pip-requirement-unmet");
  EXPECT_EQ(f.severity, Severity::warning);
  EXPECT_NE(f.title.find("pip check"), std::string::npos) << f.title;
  EXPECT_NE(f.detail.find("torch requires nvidia-cudnn-cu12==9.10.2.21, nvidia-cudnn-cu12 9.14.0.64 is installed"),
            std::string::npos)
      << f.detail;
  EXPECT_NE(f.detail.find("newer release of the same major"), std::string::npos) << f.detail;
  // Only the unmet pin, and not the extra's nccl.
  EXPECT_EQ(f.detail.find("cublas"), std::string::npos) << f.detail;
  EXPECT_EQ(f.detail.find("nccl"), std::string::npos) << f.detail;
  EXPECT_NE(f.fix.find(R"(/home/u/.venvs/x/bin/python -m pip install "nvidia-cudnn-cu12==9.10.2.21")"),
            std::string::npos)
      << f.fix;
}

// Found in review: torch's pin told one environment to downgrade cuDNN below what TensorFlow
// beside it requires (through its [and-cuda] extra), which would break TensorFlow instead.
TEST(RequirementChecks, APinAnotherFrameworkOfTheEnvironmentExcludesIsNotTheFix) {
  Facts f = torch_env("9.14.0.64");
  FrameworkFacts tf = cuda_framework("tensorflow", "2.21.0", "cuda12");
  tf.nvidia_requires = {{"nvidia-cudnn-cu12", "<10.0,>=9.14.0.64", R"(extra == "and-cuda")"}};
  f.python_envs.front().frameworks.push_back(tf);
  auto out = requirement_findings(f);
  ASSERT_EQ(out.size(), 1U);
  const Finding& w = out.front();
  EXPECT_EQ(w.fix.find("pip install \"nvidia-cudnn-cu12==9.10.2.21\""), std::string::npos) << w.fix;
  EXPECT_NE(w.fix.find("tensorflow 2.21.0 requires nvidia-cudnn-cu12<10.0,>=9.14.0.64"), std::string::npos) << w.fix;
}

TEST(RequirementChecks, AnOlderWheelIsNotCalledHarmless) {
  auto out = requirement_findings(torch_env("9.1.0.70"));
  ASSERT_EQ(out.size(), 1U);
  EXPECT_EQ(out.front().detail.find("newer release"), std::string::npos) << out.front().detail;
  EXPECT_EQ(out.front().detail.find("usually loads and works"), std::string::npos) << out.front().detail;
}

TEST(RequirementChecks, APinForAnotherMachineDoesNotCount) {
  EXPECT_TRUE(requirement_findings(torch_env("9.14.0.64", "aarch64")).empty());
  EXPECT_TRUE(requirement_findings(torch_env("9.14.0.64", "")).empty());  // arch unknown: no verdict
}

/// TensorFlow 2.16 as PyPI ships it: its extensions are built against NumPy 1.x (`numpy<2.0.0`).
Facts tf_with_numpy(const char* numpy, const char* spec = "<2.0.0,>=1.23.5; python_version <= \"3.11\"") {
  Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 4090", "580.65.06");
  f.os.arch = "x86_64";
  FrameworkFacts tf = cuda_framework("tensorflow", "2.16.2");
  std::string_view sv(spec);
  size_t semi = sv.find(';');
  tf.numpy_requires = {{"numpy", std::string(sv.substr(0, semi)),
                        semi == std::string_view::npos ? "" : std::string(trim(sv.substr(semi + 1)))}};
  PythonEnvFacts e = env_with("3.11.9", tf);
  e.interpreter = e.path + "/bin/python";
  e.packages = {{"numpy", testing::v(numpy), e.path + "/lib/site-packages"}};
  f.python_envs.push_back(e);
  return f;
}

TEST(RequirementChecks, NumpyOfAnotherMajorThanTheBuildsIsAnImportFailure) {
  EXPECT_TRUE(requirement_findings(tf_with_numpy("1.26.4")).empty());
  auto out = requirement_findings(tf_with_numpy("2.1.3"));
  ASSERT_EQ(out.size(), 1U);
  const Finding& f = out.front();
  EXPECT_EQ(std::pair(f.id, f.severity), std::pair(std::string("numpy-requirement-unmet"), Severity::error));
  EXPECT_NE(f.title.find("NumPy 2.1.3"), std::string::npos) << f.title;
  EXPECT_NE(f.detail.find("tensorflow requires numpy<2.0.0,>=1.23.5"), std::string::npos) << f.detail;
  EXPECT_NE(f.fix.find(R"(/home/u/.venvs/x/bin/python -m pip install "numpy<2.0.0,>=1.23.5")"), std::string::npos)
      << f.fix;
  // A floor of another major (JAX 0.12: numpy>=2.2) is the same failure the other way.
  auto low = requirement_findings(tf_with_numpy("1.26.4", ">=2.2"));
  ASSERT_EQ(low.size(), 1U);
  EXPECT_EQ(low.front().severity, Severity::error);
  // Outside the range within one major: pip check fails, NumPy's ABI holds; a warning.
  auto same = requirement_findings(tf_with_numpy("2.2.6", "<2.1.0,>=1.26.0"));
  ASSERT_EQ(same.size(), 1U);
  EXPECT_EQ(same.front().severity, Severity::warning);
  // A requirement whose marker does not hold here is not judged.
  EXPECT_TRUE(requirement_findings(tf_with_numpy("2.1.3", "<2.0.0; python_version >= \"3.12\"")).empty());
}

/// A framework with no numpy requirement in its METADATA (torch never declares one; jaxlib says
/// numpy>=1.22) beside a NumPy.
Facts framework_with_numpy(const char* package, const char* version, const char* numpy) {
  Facts f = machine(Platform::linux, "NVIDIA GeForce RTX 4090", "580.65.06");
  f.os.arch = "x86_64";
  FrameworkFacts fw = cuda_framework(package, version);
  fw.package = package;
  if (std::string_view(package) == "jaxlib") fw.numpy_requires = {{"numpy", ">=1.22", ""}};
  PythonEnvFacts e = env_with("3.11.9", fw);
  e.interpreter = e.path + "/bin/python";
  e.packages = {{"numpy", testing::v(numpy), e.path + "/lib/site-packages"}};
  f.python_envs.push_back(e);
  return f;
}

// torch up to 2.2.2 and jaxlib up to 0.4.25 were built against NumPy 1 headers only (their
// extensions name only numpy.core._multiarray_umath; python.toml [[numpy_abi]]), and their
// METADATA does not bound numpy, so `pip install numpy` gives them NumPy 2 silently. torch then
// says "Numpy is not available" on every from_numpy/numpy(); jax 0.4.25 crashed on its first op.
TEST(RequirementChecks, AReleaseBuiltForNumpy1UnderNumpy2IsAnError) {
  const KnowledgeBase& kb = testing::builtin_kb();
  auto torch = requirement_findings(framework_with_numpy("torch", "2.2.2+cu121", "2.0.2"), &kb);
  const Finding* m = find(torch, "numpy-abi-too-new");
  ASSERT_NE(m, nullptr) << testing::ids(torch);
  EXPECT_EQ(m->severity, Severity::error);
  EXPECT_NE(m->title.find("built for NumPy 1, and NumPy 2.0.2"), std::string::npos) << m->title;
  EXPECT_NE(m->detail.find("Numpy is not available"), std::string::npos) << m->detail;
  EXPECT_NE(m->fix.find(R"(/home/u/.venvs/x/bin/python -m pip install "numpy<2")"), std::string::npos) << m->fix;
  EXPECT_NE(m->source.find("[artefact]"), std::string::npos) << m->source;
  // The first release built against NumPy 2, and NumPy 1 under the old one: nothing to say.
  EXPECT_FALSE(
      testing::has(requirement_findings(framework_with_numpy("torch", "2.3.0", "2.0.2"), &kb), "numpy-abi-too-new"));
  EXPECT_FALSE(
      testing::has(requirement_findings(framework_with_numpy("torch", "2.2.2", "1.26.4"), &kb), "numpy-abi-too-new"));
  // jaxlib's own numpy>=1.22 holds for NumPy 2, so only the build's headers tell.
  auto jaxlib = requirement_findings(framework_with_numpy("jaxlib", "0.4.25", "2.0.2"), &kb);
  EXPECT_NE(find(jaxlib, "numpy-abi-too-new"), nullptr) << testing::ids(jaxlib);
  EXPECT_EQ(find(jaxlib, "numpy-requirement-unmet"), nullptr) << testing::ids(jaxlib);
  EXPECT_FALSE(
      testing::has(requirement_findings(framework_with_numpy("jaxlib", "0.4.26", "2.0.2"), &kb), "numpy-abi-too-new"));
  // Without the knowledge base there is no claim.
  EXPECT_FALSE(
      testing::has(requirement_findings(framework_with_numpy("torch", "2.2.2", "2.0.2")), "numpy-abi-too-new"));
}

}  // namespace
}  // namespace gpudoctor
