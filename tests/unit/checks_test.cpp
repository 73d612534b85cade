#include "check/checks.hpp"

#include <gtest/gtest.h>

#include "check_test_support.hpp"
#include "kb/annotate_facts.hpp"

namespace gpudoctor {
namespace {

using testing::find;
using testing::find_copy;
using testing::has;
using testing::v;

GpuFacts pci_gpu(const char* driver) {
  GpuFacts g;
  g.name = "GA102 [GeForce RTX 3090]";
  g.source = "pci";
  g.pci_bus_id = "0000:01:00.0";
  g.kernel_driver = driver;
  return g;
}

Facts healthy_linux() {
  Facts f;
  f.live = true;
  f.driver.version = v("550.54.14");
  f.driver.version_source = "/proc/driver/nvidia/version";
  f.driver.nvidia_module_loaded = true;
  f.driver.files = {{"libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", v("550.54.14")},
                    {"libnvidia-ml.so.1", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1", v("550.54.14")}};
  f.gpus.push_back(pci_gpu("nvidia"));
  return f;
}

TEST(Checks, HealthyMachineHasNoErrors) {
  auto fs = run_checks(healthy_linux(), nullptr);
  EXPECT_NE(worst(fs), Severity::error);
  ASSERT_NE(find(fs, "driver"), nullptr);
  EXPECT_EQ(find(fs, "driver-missing"), nullptr);
}

TEST(Checks, NoGpuIsAnErrorLiveAndInfoForATree) {
  Facts f;
  f.live = true;
  auto live = run_checks(f, nullptr);
  ASSERT_NE(find(live, "no-nvidia-gpu"), nullptr);
  EXPECT_EQ(find(live, "no-nvidia-gpu")->severity, Severity::error);
  ASSERT_NE(find(live, "driver-not-installed"), nullptr);
  f.live = false;
  auto tree = run_checks(f, nullptr);
  EXPECT_EQ(find(tree, "no-nvidia-gpu"), nullptr);
  ASSERT_NE(find(tree, "no-gpu-recorded"), nullptr);
  EXPECT_NE(worst(tree), Severity::error);
}

TEST(Checks, NouveauAndMissingDriver) {
  Facts f;
  f.live = true;
  f.driver.nouveau_loaded = true;
  f.gpus.push_back(pci_gpu("nouveau"));
  auto fs = run_checks(f, nullptr);
  ASSERT_NE(find(fs, "nouveau-loaded"), nullptr);
  ASSERT_NE(find(fs, "driver-missing"), nullptr);
  EXPECT_EQ(find(fs, "driver-missing")->severity, Severity::error);
}

TEST(Checks, DriverWithoutLibcudaAndVersionMismatch) {
  Facts f = healthy_linux();
  f.driver.files[0].path.clear();
  auto fs = run_checks(f, nullptr);
  ASSERT_NE(find(fs, "libcuda-missing"), nullptr);
  Facts g = healthy_linux();
  g.driver.files[0].version = v("535.104.05");
  auto gs = run_checks(g, nullptr);
  ASSERT_NE(find(gs, "driver-library-mismatch"), nullptr);
  EXPECT_NE(find(gs, "driver-library-mismatch")->title.find("535.104.05"), std::string::npos);
}

TEST(Checks, Wsl2WithALinuxDriverInside) {
  Facts f;
  f.live = false;
  f.platform = Platform::wsl2;
  f.os.wsl2 = true;
  f.os.wsl_lib_dir = true;
  f.driver.files = {{"libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", v("535.104.05")}};
  auto fs = run_checks(f, nullptr);
  ASSERT_NE(find(fs, "wsl2-linux-driver-installed"), nullptr);
  // The WSL-provided library alone is the healthy layout.
  f.driver.files = {{"libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1", std::nullopt}};
  EXPECT_FALSE(has(run_checks(f, nullptr), "wsl2-linux-driver-installed"));
}

TEST(Checks, EmptyCudaVisibleDevicesHidesEverything) {
  Facts f = healthy_linux();
  f.env.push_back({"CUDA_VISIBLE_DEVICES", ""});
  auto fs = run_checks(f, nullptr);
  ASSERT_NE(find(fs, "cuda-visible-devices-hides-all"), nullptr);
  EXPECT_EQ(worst(fs), Severity::error);
  Facts g = healthy_linux();
  g.env.push_back({"CUDA_VISIBLE_DEVICES", "0,1"});
  EXPECT_FALSE(has(run_checks(g, nullptr), "cuda-visible-devices-hides-all"));
}

/// An environment holding one CPU-only torch.
PythonEnvFacts env_with_cpu_torch(const char* path, const char* kind, const char* version, const char* location = "") {
  PythonEnvFacts env;
  env.path = path;
  env.kind = kind;
  FrameworkFacts torch;
  torch.name = "torch";
  torch.package = "torch";
  torch.version = v(version);
  torch.cuda_build = false;
  torch.location = location;
  env.frameworks.push_back(torch);
  return env;
}

TEST(Checks, CpuOnlyFrameworkMattersOnlyWithAGpu) {
  Facts f = healthy_linux();
  f.python_envs.push_back(env_with_cpu_torch("/home/u/.venv", "venv", "2.3.1+cpu"));
  f.python_envs.back().frameworks.back().variant = "cpu";
  auto fs = run_checks(f, nullptr);
  ASSERT_NE(find(fs, "framework-cpu-only"), nullptr);
  EXPECT_EQ(find(fs, "framework-cpu-only")->severity, Severity::error);
  EXPECT_NE(find(fs, "framework-cpu-only")->fix.find("download.pytorch.org"), std::string::npos);
  f.gpus.clear();
  auto no_gpu = run_checks(f, nullptr);
  EXPECT_EQ(find(no_gpu, "framework-cpu-only")->severity, Severity::info);
}

// Debian bookworm's python3-torch 1.13.1+dfsg-4 as apt installs it: torch/version.py says
// '1.13.0a0', cuda = None, in /usr/lib/python3/dist-packages. pip refuses the system Python
// there (PEP 668, "externally-managed-environment"): the fix must not be a bare pip command.
TEST(Checks, CpuOnlyFrameworkFromTheDistributionIsReplacedInAVenv) {
  Facts f = healthy_linux();
  f.python_envs.push_back(
      env_with_cpu_torch("/usr", "system", "1.13.0a0+gitunknown", "/usr/lib/python3/dist-packages"));
  auto fs = run_checks(f, nullptr);
  const Finding* cpu = find(fs, "framework-cpu-only");
  ASSERT_NE(cpu, nullptr);
  EXPECT_TRUE(cpu->fix.starts_with("It is the distribution's package")) << cpu->fix;
  EXPECT_NE(cpu->fix.find("python3 -m venv"), std::string::npos) << cpu->fix;
  EXPECT_NE(cpu->fix.find("download.pytorch.org"), std::string::npos) << cpu->fix;
  // pip's own installs into the system Python (/usr/local/...) keep the plain fix.
  f.python_envs.back().frameworks.back().location = "/usr/local/lib/python3.11/dist-packages";
  auto local = run_checks(f, nullptr);
  EXPECT_EQ(find(local, "framework-cpu-only")->fix.find("python3 -m venv"), std::string::npos);
}

TEST(Checks, SeveralToolkitsThatDisagree) {
  Facts f = healthy_linux();
  ToolkitFacts a{
      "/usr/local/cuda-12.4", {"/usr/local/cuda", "/usr/local/cuda-12.4"}, v("12.4"), "version.json", true, "system"};
  ToolkitFacts b{
      "/usr/local/cuda-11.8", {"/usr/local/cuda-11.8", "CUDA_HOME"}, v("11.8"), "version.json", true, "system"};
  f.toolkits = {a, b};
  auto fs = run_checks(f, nullptr);
  ASSERT_NE(find(fs, "several-toolkits"), nullptr);
  EXPECT_EQ(find(fs, "several-toolkits")->severity, Severity::warning);
  // Different releases that no route disagrees about (nothing points at 11.8): only info.
  f.toolkits[1].found_via = {"/usr/local/cuda-11.8"};
  EXPECT_EQ(find_copy(run_checks(f, nullptr), "several-toolkits").value().severity, Severity::info);
}

TEST(Checks, StubLibcudaOnTheLoaderPath) {
  Facts f = healthy_linux();
  f.env.push_back({"LD_LIBRARY_PATH", "/usr/local/cuda/lib64:/usr/local/cuda/lib64/stubs"});
  auto fs = run_checks(f, nullptr);
  ASSERT_NE(find(fs, "cuda-stubs-on-loader-path"), nullptr);
}

/// A cuDNN copy the library probe found through LD_LIBRARY_PATH.
LibraryFacts ld_library_path_cudnn(const char* version, const char* dir) {
  LibraryFacts lib;
  lib.name = "cudnn";
  lib.version = v(version);
  lib.path = dir;
  lib.origin = "ld-library-path";
  return lib;
}

TEST(Checks, PipWheelShadowedByLdLibraryPath) {
  Facts f = healthy_linux();
  PythonEnvFacts env;
  env.path = "/home/u/venv";
  env.kind = "venv";
  env.nvidia_wheels.push_back({"nvidia-cudnn-cu12", v("9.1.0.70"), "cudnn", 12});
  f.python_envs.push_back(env);
  f.libraries.push_back(ld_library_path_cudnn("9.0.0", "/opt/cudnn-9.0/lib"));
  // Same SONAME (libcudnn.so.9), older: it is loaded instead of the wheel's.
  auto fs = run_checks(f, nullptr);
  ASSERT_NE(find(fs, "pip-library-shadowed"), nullptr);
  EXPECT_EQ(find(fs, "pip-library-shadowed")->severity, Severity::error);
  // Newer with the same SONAME: still not what was installed, a warning.
  f.libraries[0].version = v("9.3.0");
  ASSERT_TRUE(has(run_checks(f, nullptr), "pip-library-shadowed"));
  EXPECT_EQ(find_copy(run_checks(f, nullptr), "pip-library-shadowed").value().severity, Severity::warning);
  // Another major (libcudnn.so.8) cannot stand in for libcudnn.so.9: nothing is shadowed.
  f.libraries[0].version = v("8.9.7");
  EXPECT_FALSE(has(run_checks(f, nullptr), "pip-library-shadowed"));
  // The same release series: fine.
  f.libraries[0].version = v("9.1.1");
  EXPECT_FALSE(has(run_checks(f, nullptr), "pip-library-shadowed"));
}

/// A venv with the nvidia-cudnn-cu12 9.26 wheel and cuDNN 9.20 on LD_LIBRARY_PATH in
/// /opt/cudnn-9.20/lib, whose framework loads libcudnn.so.9 as `load` says.
std::optional<Finding> shadowed(const char* framework, const LibraryLoad& load) {
  Facts f = healthy_linux();
  PythonEnvFacts env;
  env.path = "/home/u/venv";
  env.kind = "venv";
  env.nvidia_wheels.push_back({"nvidia-cudnn-cu12", v("9.26.0.51"), "cudnn", 12});
  FrameworkFacts fw;
  fw.name = framework;
  fw.package = framework;
  fw.version = v(std::string_view(framework) == "torch" ? "2.15.0" : "2.20.0");
  fw.cuda_build = true;
  fw.loads = {load};
  env.frameworks.push_back(fw);
  f.python_envs.push_back(env);
  f.libraries.push_back(ld_library_path_cudnn("9.20.0", "/opt/cudnn-9.20/lib"));
  return find_copy(run_checks(f, nullptr), "pip-library-shadowed");
}

// PyTorch's libraries carry DT_RPATH to the environment's nvidia wheels (read from the 2.9.1,
// 2.14.1 and 2.15.0 wheels), searched before LD_LIBRARY_PATH, and JAX preloads them by path: an
// LD_LIBRARY_PATH copy shadows the wheel only for a framework whose loads say so (TensorFlow's
// RUNPATH comes after LD_LIBRARY_PATH).
TEST(Checks, AWheelShadowedOnlyForWhatLoadsTheOtherCopy) {
  auto with = [](const char* framework, const char* via) {
    const std::string wheel_dir = "/home/u/venv/lib/python3.12/site-packages/nvidia/cudnn/lib";
    return shadowed(framework, {"libcudnn.so.9",
                                std::string_view(via) == "LD_LIBRARY_PATH" ? "/opt/cudnn-9.20/lib/libcudnn.so.9"
                                                                           : wheel_dir + "/libcudnn.so.9",
                                via});
  };
  auto torch = with("torch", "pip wheel");
  ASSERT_TRUE(torch.has_value());
  EXPECT_EQ(torch->severity, Severity::info) << torch->title;
  EXPECT_NE(torch->detail.find("torch"), std::string::npos) << torch->detail;
  EXPECT_NE(torch->detail.find("RPATH"), std::string::npos) << torch->detail;
  auto tf = with("tensorflow", "LD_LIBRARY_PATH");
  ASSERT_TRUE(tf.has_value());
  EXPECT_EQ(tf->severity, Severity::error);
  EXPECT_NE(tf->detail.find("tensorflow"), std::string::npos) << tf->detail;
  EXPECT_NE(tf->fix.find("Remove /opt/cudnn-9.20/lib from LD_LIBRARY_PATH"), std::string::npos) << tf->fix;
}

// Found in review: LD_LIBRARY_PATH=/opt/cudnn/lib with /opt/cudnn -> cudnn-9.20. The library
// probe records the real directory, the load the named one; TensorFlow is still misled (its
// RUNPATH comes after LD_LIBRARY_PATH), and the fix names what the user put there.
TEST(Checks, AWheelShadowedThroughALinkedDirectoryIsStillAnError) {
  auto found = shadowed("tensorflow",
                        {"libcudnn.so.9", "/opt/cudnn/lib/libcudnn.so.9", "LD_LIBRARY_PATH", "/opt/cudnn-9.20/lib"});
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->severity, Severity::error) << found->title << " / " << found->detail;
  EXPECT_NE(found->fix.find("Remove /opt/cudnn/lib from LD_LIBRARY_PATH"), std::string::npos) << found->fix;
}

// Found in review.
TEST(ReviewRegression, CpuOnlyJaxOnAGpuMachineIsAnError) {
  Facts f;
  f.live = true;
  f.gpus.push_back(GpuFacts{.name = "NVIDIA RTX A6000", .source = "proc"});
  PythonEnvFacts env{.path = "/home/u/.venv", .kind = "venv"};
  FrameworkFacts jax{.name = "jax", .package = "jax", .version = *Version::parse("0.6.2")};
  jax.cuda_build = false;
  jax.variant = "cpu";
  env.frameworks.push_back(jax);
  f.python_envs.push_back(env);
  auto fs = run_checks(f, nullptr);
  ASSERT_NE(find(fs, "framework-cpu-only"), nullptr);
  EXPECT_EQ(find(fs, "framework-cpu-only")->severity, Severity::error);
  EXPECT_NE(find(fs, "framework-cpu-only")->fix.find("jax[cuda12]"), std::string::npos);
}

// Found in review.
TEST(ReviewRegression, InstallConflictsAreErrorsNotUnreadableMetadata) {
  Facts f;
  PythonEnvFacts env{.path = "/home/u/.venv", .kind = "venv"};
  FrameworkFacts jax{.name = "jax", .package = "jax", .version = *Version::parse("0.6.2")};
  jax.conflicts.push_back("jax-cuda12-plugin 0.5.0 does not match jaxlib 0.6.2; JAX will not use it");
  env.frameworks.push_back(jax);
  f.python_envs.push_back(env);
  auto fs = run_checks(f, nullptr);
  ASSERT_NE(find(fs, "framework-install-conflict"), nullptr);
  EXPECT_EQ(find(fs, "framework-install-conflict")->severity, Severity::error);
  EXPECT_EQ(find(fs, "framework-metadata-unreadable"), nullptr);
}

// Found in review: a cuda13 install's conflict was told to install jax[cuda12], which leaves the
// mismatched cuda13 plugin in place and adds a second one.
TEST(ReviewRegression, AJaxConflictsFixNamesTheInstalledPluginsCudaMajorAndJaxsVersion) {
  Facts f;
  PythonEnvFacts env{.path = "/home/u/.venv", .kind = "venv"};
  FrameworkFacts jax{.name = "jax", .package = "jax", .version = *Version::parse("0.12.0.1")};
  jax.conflicts.push_back("jax-cuda13-plugin 0.12.1 does not match jaxlib 0.12.0.1; JAX will not use it");
  FrameworkFacts plugin{
      .name = "jax-cuda-plugin", .package = "jax-cuda13-plugin", .version = *Version::parse("0.12.1")};
  plugin.variant = "cuda13";
  env.frameworks = {jax, plugin};
  f.python_envs.push_back(env);
  const auto fs = run_checks(f, nullptr);
  const Finding* c = find(fs, "framework-install-conflict");
  ASSERT_NE(c, nullptr);
  EXPECT_NE(c->fix.find("pip install -U \"jax[cuda13]==0.12.0.1\""), std::string::npos) << c->fix;
  EXPECT_EQ(c->fix.find("cuda12"), std::string::npos) << c->fix;
}

// Found in review: with tf-nightly beside tensorflow, uninstalling tensorflow alone left
// tf-nightly's half of the mixed files.
TEST(ReviewRegression, AConflictsFixUninstallsEveryDistributionSharingThePackage) {
  Facts f;
  PythonEnvFacts env{.path = "/home/u/.venv", .kind = "venv"};
  FrameworkFacts tf{.name = "tensorflow", .package = "tensorflow", .version = *Version::parse("2.21.0")};
  tf.conflicts.push_back("several TensorFlow distributions share one tensorflow/ package");
  tf.sharing = {"tensorflow", "tf-nightly"};
  FrameworkFacts torch{.name = "torch", .package = "torch", .version = *Version::parse("2.9.0")};
  torch.conflicts.push_back("several torch dist-info directories (2.8.0, 2.9.0)");
  env.frameworks = {tf, torch};
  f.python_envs.push_back(env);
  auto fs = run_checks(f, nullptr);
  std::vector<std::string> fixes;
  for (const auto& x : fs) {
    if (x.id == "framework-install-conflict") fixes.push_back(x.fix);
  }
  ASSERT_EQ(fixes.size(), 2u);
  EXPECT_NE(fixes[0].find("`pip uninstall -y tensorflow tf-nightly`"), std::string::npos) << fixes[0];
  EXPECT_NE(fixes[1].find("`pip uninstall -y torch`"), std::string::npos) << fixes[1];
  EXPECT_NE(fixes[1].find("repeat"), std::string::npos) << fixes[1];
}

// Found in review.
TEST(ReviewRegression, IdenticalGpusGiveOneVerdictWithAllTheirEvidence) {
  auto kb = KnowledgeBase::load("");
  ASSERT_TRUE(kb) << kb.error().message;
  Facts f;
  f.live = true;
  f.driver.version = *Version::parse("570.133.07");
  f.driver.nvidia_module_loaded = true;
  for (const char* bus : {"0000:01:00.0", "0000:02:00.0", "0000:03:00.0"}) {
    f.gpus.push_back(
        GpuFacts{.name = "NVIDIA GeForce GTX 1080 Ti", .source = "proc", .pci_bus_id = bus, .kernel_driver = "nvidia"});
  }
  PythonEnvFacts env{.path = "/home/u/.venv", .kind = "venv"};
  FrameworkFacts torch{.name = "torch", .package = "torch", .version = *Version::parse("2.8.0+cu128")};
  torch.cuda_build = true;
  torch.cuda_version = *Version::parse("12.8");
  torch.variant = "cu128";
  env.frameworks.push_back(torch);
  f.python_envs.push_back(env);
  annotate_facts(f, *kb);  // as the doctor gathers facts
  auto fs = run_checks(f, &*kb);
  int count = 0;
  for (const auto& x : fs) count += x.id == "gpu-arch-unsupported-by-framework";
  EXPECT_EQ(count, 1) << "three identical cards, one verdict";
}

}  // namespace
}  // namespace gpudoctor
