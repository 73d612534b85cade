// Issue 10 item 2 for PyTorch and JAX: every CUDA library a framework build opens, resolved as
// the loader resolves it for that environment. The fixtures' nvidia wheels hold the files the
// real wheels' RECORDs list (libcublasLt.so.12 beside libcublas.so.12, ...), so a healthy
// install resolves completely and a missing file is named.
#include <gtest/gtest.h>

#include <filesystem>

#include "check/checks.hpp"
#include "check_test_support.hpp"
#include "core/text.hpp"
#include "kb_test_support.hpp"
#include "probe/inventory.hpp"
#include "probe/python/dist_info.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using testing::find;
using testing::ids;
using testing::TempTree;
using testing::view_of;

/// A copy of one fixture's environment into a private scratch tree.
void copy_env(TempTree& t, const std::string& fixture, const std::string& env_rel) {
  const std::string from = std::string(GPUDOCTOR_FIXTURES_DIR) + "/" + fixture + "/root/" + env_rel;
  std::filesystem::create_directories((t.path() / env_rel).parent_path());
  std::filesystem::copy(from, t.path() / env_rel,
                        std::filesystem::copy_options::recursive | std::filesystem::copy_options::copy_symlinks);
}

struct Doctor {
  Facts facts;
  std::vector<Finding> findings;
};

Doctor doctor(const TempTree& t, const std::string& env_rel, EnvMap env = {}, bool gpu = false) {
  env["VIRTUAL_ENV"] = "/" + env_rel;
  SystemView sys = view_of(t, Platform::linux, env);
  InventoryOptions inv;
  if (gpu) inv.declared_gpus = {"NVIDIA GeForce RTX 3060"};
  Doctor d;
  d.facts = collect_facts(sys, inv);
  d.findings = run_checks(d.facts, &testing::builtin_kb());
  return d;
}

const FrameworkFacts* framework(const Facts& f, const std::string& name) {
  for (const auto& e : f.python_envs) {
    for (const auto& fw : e.frameworks) {
      if (fw.name == name) return &fw;
    }
  }
  return nullptr;
}

std::vector<std::string> sonames(const FrameworkFacts& fw) {
  std::vector<std::string> out;
  for (const auto& l : fw.loads) out.push_back(l.soname);
  return out;
}

const std::string kTorchEnv = "home/alex/projects/vision/.venv";
const std::string kTorchSp = kTorchEnv + "/lib/python3.10/site-packages/";

TEST(FrameworkLibraries, HealthyTorchResolvesEveryLibraryFromItsWheels) {
  TempTree t;
  copy_env(t, "linux-torch-healthy", kTorchEnv);
  const Doctor d = doctor(t, kTorchEnv);
  const FrameworkFacts* torch = framework(d.facts, "torch");
  ASSERT_NE(torch, nullptr);
  // torch 2.3.1+cu121 pins nvidia-cudnn-cu12==8.9.2.26: cuDNN 8.
  for (const char* lib :
       {"libcudart.so.12", "libcublas.so.12", "libcublasLt.so.12", "libcufft.so.11", "libcusolver.so.11",
        "libcusparse.so.12", "libcupti.so.12", "libnccl.so.2", "libcudnn.so.8"}) {
    const auto names = sonames(*torch);
    EXPECT_NE(std::find(names.begin(), names.end(), lib), names.end()) << lib;
  }
  for (const LibraryLoad& l : torch->loads) {
    EXPECT_EQ(l.via, "pip wheel") << l.soname << " -> " << l.path;
    EXPECT_TRUE(contains(l.path, "/site-packages/nvidia/")) << l.path;
  }
  EXPECT_EQ(find(d.findings, "framework-cuda-libraries-missing"), nullptr) << ids(d.findings);
}

TEST(FrameworkLibraries, TorchMissingOneWheelFileFailsAtImportWithOrWithoutAGpu) {
  TempTree t;
  copy_env(t, "linux-torch-healthy", kTorchEnv);
  std::filesystem::remove(t.path() / (kTorchSp + "nvidia/cublas/lib/libcublasLt.so.12"));
  for (bool gpu : {false, true}) {
    const Doctor d = doctor(t, kTorchEnv, {}, gpu);
    const Finding* m = find(d.findings, "framework-cuda-libraries-missing");
    ASSERT_NE(m, nullptr) << ids(d.findings);
    EXPECT_EQ(m->severity, Severity::error) << "import torch fails, GPU or not";
    EXPECT_TRUE(contains(m->title, "PyTorch")) << m->title;
    EXPECT_TRUE(contains(m->title, "libcublasLt.so.12")) << m->title;
    EXPECT_FALSE(contains(m->title, "libcudart.so.12")) << "found ones are not missing: " << m->title;
    EXPECT_TRUE(contains(m->detail, "import torch")) << m->detail;
    // The same index the build came from.
    EXPECT_TRUE(contains(m->fix, "torch==2.3.1+cu121")) << m->fix;
    EXPECT_TRUE(contains(m->fix, "--index-url https://download.pytorch.org/whl/cu121")) << m->fix;
  }
}

TEST(FrameworkLibraries, TorchLibrariesLaterBuildsAddedComeFromItsRequirements) {
  TempTree t;
  copy_env(t, "linux-torch-healthy", kTorchEnv);
  // torch 2.8.0's requirements (METADATA of the PyPI wheel): cuSPARSELt and cuFile wheels, so
  // libtorch_cuda.so links libcusparseLt.so.0 and libcufile.so.0.
  t.write(kTorchSp + "torch-2.3.1+cu121.dist-info/METADATA",
          "Metadata-Version: 2.4\nName: torch\nVersion: 2.3.1+cu121\n"
          "Requires-Dist: nvidia-cudnn-cu12==9.10.2.21; platform_system == \"Linux\"\n"
          "Requires-Dist: nvidia-cusparselt-cu12==0.7.1; platform_system == \"Linux\"\n"
          "Requires-Dist: nvidia-cufile-cu12==1.13.1.3; platform_system == \"Linux\"\n"
          "Requires-Dist: nvshmem-tools; extra == \"nvshmem\"\n");
  t.write(kTorchSp + "nvidia/cudnn/lib/libcudnn.so.9", "");
  const Doctor d = doctor(t, kTorchEnv);
  const FrameworkFacts* torch = framework(d.facts, "torch");
  ASSERT_NE(torch, nullptr);
  const auto names = sonames(*torch);
  for (const char* lib : {"libcusparseLt.so.0", "libcufile.so.0", "libcudnn.so.9"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), lib), names.end()) << lib << " in " << join(names, ", ");
  }
  EXPECT_EQ(std::find(names.begin(), names.end(), "libnvshmem_host.so.3"), names.end()) << "only an extra names it";
  const Finding* m = find(d.findings, "framework-cuda-libraries-missing");
  ASSERT_NE(m, nullptr) << ids(d.findings);
  EXPECT_TRUE(contains(m->title, "libcusparseLt.so.0, libcufile.so.0")) << m->title;
  t.write(kTorchSp + "nvidia/cusparselt/lib/libcusparseLt.so.0", "");
  t.write(kTorchSp + "nvidia/cufile/lib/libcufile.so.0", "");
  const Doctor fixed = doctor(t, kTorchEnv);
  EXPECT_EQ(find(fixed.findings, "framework-cuda-libraries-missing"), nullptr) << ids(fixed.findings);
}

TEST(FrameworkLibraries, TorchPrefersItsWheelsOverLdLibraryPathTensorflowDoesNot) {
  TempTree t;
  copy_env(t, "linux-torch-healthy", kTorchEnv);
  // A CUDA 12 toolkit first on LD_LIBRARY_PATH: torch's DT_RPATH (and its preloading of the
  // nvidia wheels) comes before it; TensorFlow's RUNPATH after it.
  t.write("opt/cuda-12.1/lib64/libcudart.so.12", "");
  const Doctor d = doctor(t, kTorchEnv, EnvMap{{"LD_LIBRARY_PATH", "/opt/cuda-12.1/lib64"}});
  const FrameworkFacts* torch = framework(d.facts, "torch");
  ASSERT_NE(torch, nullptr);
  ASSERT_FALSE(torch->loads.empty());
  EXPECT_EQ(torch->loads.front().soname, "libcudart.so.12");
  EXPECT_EQ(torch->loads.front().via, "pip wheel") << torch->loads.front().path;
}

// LD_LIBRARY_PATH names the toolkit's lib64, a link to targets/x86_64-linux/lib (as the CUDA
// installers make it): the library probe records the copy by its real folder, the loader's
// search by the link. The cuDNN torch loads there is still the copy judged: 8.6 below the 8.9
// torch 2.3.1+cu121 was built with ("cuDNN version incompatibility" at its first convolution).
// Before, the two paths did not match and torch's cuDNN was not judged at all.
TEST(FrameworkLibraries, ACudnnReachedThroughALinkedFolderIsStillJudged) {
  TempTree t;
  copy_env(t, "linux-torch-healthy", kTorchEnv);
  std::filesystem::remove_all(t.path() / (kTorchSp + "nvidia/cudnn"));
  std::filesystem::remove_all(t.path() / (kTorchSp + "nvidia_cudnn_cu12-8.9.2.26.dist-info"));
  t.write("usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudnn.so.8.6.0", "");
  std::filesystem::create_directories(t.path() / "usr/local/cuda-12.1/targets/x86_64-linux/lib");
  std::filesystem::create_symlink("libcudnn.so.8.6.0",
                                  t.path() / "usr/local/cuda-12.1/targets/x86_64-linux/lib/libcudnn.so.8");
  std::filesystem::create_directory_symlink("targets/x86_64-linux/lib", t.path() / "usr/local/cuda-12.1/lib64");
  std::filesystem::create_directory_symlink("cuda-12.1", t.path() / "usr/local/cuda");
  const Doctor d = doctor(t, kTorchEnv, EnvMap{{"LD_LIBRARY_PATH", "/usr/local/cuda/lib64"}}, true);
  const FrameworkFacts* torch = framework(d.facts, "torch");
  ASSERT_NE(torch, nullptr);
  const LibraryLoad* cudnn = nullptr;
  for (const LibraryLoad& l : torch->loads) {
    if (l.soname == "libcudnn.so.8") cudnn = &l;
  }
  ASSERT_NE(cudnn, nullptr);
  EXPECT_EQ(cudnn->path, "/usr/local/cuda/lib64/libcudnn.so.8");
  EXPECT_EQ(cudnn->real_dir, "/usr/local/cuda-12.1/targets/x86_64-linux/lib");
  const Finding* m = find(d.findings, "torch-cudnn-too-old");
  ASSERT_NE(m, nullptr) << ids(d.findings);
  EXPECT_TRUE(contains(m->title, "8.6")) << m->title;
}

TEST(FrameworkLibraries, BundledAndCondaCopiesAreFound) {
  TempTree t;
  // A CUDA 12 torch with its libraries bundled under auditwheel's hashed names, no wheels.
  const std::string sp = "venv/lib/python3.11/site-packages/";
  t.write("venv/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.9\n");
  t.write(sp + "torch-2.3.1+cu121.dist-info/METADATA",
          "Metadata-Version: 2.1\nName: torch\nVersion: 2.3.1+cu121\n"
          "Requires-Dist: nvidia-cudnn-cu12==8.9.2.26; platform_system == \"Linux\"\n");
  t.write(sp + "torch/version.py", "__version__ = '2.3.1+cu121'\ncuda = '12.1'\nhip = None\n");
  for (const char* f : {"libcudart-9335f6a2.so.12", "libcublas-37d11411.so.12", "libcublasLt-f97bfc2c.so.12",
                        "libcufft-1a3c5b87.so.11", "libcusolver-71b1b01d.so.11", "libcusparse-a3f3fdb4.so.12",
                        "libcupti-bd28c5ba.so.12", "libnccl-5f21f2d1.so.2", "libcudnn.so.8"}) {
    t.write(sp + "torch/lib/" + f, "");
  }
  const Doctor d = doctor(t, "venv");
  const FrameworkFacts* torch = framework(d.facts, "torch");
  ASSERT_NE(torch, nullptr);
  ASSERT_EQ(torch->loads.size(), 9u) << join(sonames(*torch), ", ");
  for (const LibraryLoad& l : torch->loads) EXPECT_EQ(l.via, "bundled") << l.soname << " -> " << l.path;
  EXPECT_EQ(find(d.findings, "framework-cuda-libraries-missing"), nullptr) << ids(d.findings);
}

const std::string kJaxEnv = "home/alex/research/jax-exp/.venv";
const std::string kJaxSp = kJaxEnv + "/lib/python3.12/site-packages/";

/// Parts of the torch 2.3.1 fixture's site-packages put into the JAX environment's, as a
/// `pip install torch==2.3.1` there puts them.
void add_torch_parts(const TempTree& t, std::initializer_list<const char*> parts) {
  const std::string torch_sp = std::string(GPUDOCTOR_FIXTURES_DIR) + "/linux-torch-healthy/root/" + kTorchSp;
  for (const char* part : parts) {
    std::filesystem::copy(torch_sp + part, t.path() / (kJaxSp + part), std::filesystem::copy_options::recursive);
  }
}

TEST(FrameworkLibraries, HealthyJaxResolvesEveryLibraryItsPluginOpens) {
  TempTree t;
  copy_env(t, "linux-jax-cuda12", kJaxEnv);
  const Doctor d = doctor(t, kJaxEnv);
  const FrameworkFacts* jax = framework(d.facts, "jax");
  ASSERT_NE(jax, nullptr);
  const auto names = sonames(*jax);
  // The cuDNN major from the plugin's own requirement (nvidia-cudnn-cu12<10.0,>=9.8).
  for (const char* lib : {"libcudart.so.12", "libcublas.so.12", "libcublasLt.so.12", "libcufft.so.11",
                          "libcusolver.so.11", "libcusparse.so.12", "libcupti.so.12", "libcudnn.so.9"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), lib), names.end()) << lib << " in " << join(names, ", ");
  }
  for (const LibraryLoad& l : jax->loads) EXPECT_EQ(l.via, "pip wheel") << l.soname << " -> " << l.path;
  EXPECT_EQ(find(d.findings, "framework-cuda-libraries-missing"), nullptr) << ids(d.findings);
  // Only the "jax" entry carries the loads; the plugin entries are parts of it.
  const FrameworkFacts* plugin = framework(d.facts, "jax-cuda-plugin");
  ASSERT_NE(plugin, nullptr);
  EXPECT_TRUE(plugin->loads.empty());
}

TEST(FrameworkLibraries, TorchWhoseCudnnWheelAnotherFrameworkReplacedIsToldWhyAndNotToBreakTheOther) {
  // torch 2.3.1+cu121 pins nvidia-cudnn-cu12==8.9.2.26; `pip install "jax[cuda12]"` into the
  // same environment afterwards upgrades it to 9.x (measured 2026-12-02, pip 23.2.1: "torch 2.3.1
  // requires nvidia-cudnn-cu12==8.9.2.26; platform_system == "Linux" and platform_machine ==
  // "x86_64", but you have nvidia-cudnn-cu12 9.28.0.42 which is incompatible.").
  TempTree t;
  copy_env(t, "linux-jax-cuda12", kJaxEnv);
  add_torch_parts(t, {"torch", "torch-2.3.1+cu121.dist-info"});
  const Doctor d = doctor(t, kJaxEnv, {}, true);
  const Finding* m = find(d.findings, "framework-cuda-libraries-missing");
  ASSERT_NE(m, nullptr) << ids(d.findings);
  EXPECT_TRUE(contains(m->title, "PyTorch 2.3.1+cu121 cannot load libcudnn.so.8")) << m->title;
  EXPECT_TRUE(contains(m->detail, "nvidia-cudnn-cu12 9.10.2.21")) << m->detail;
  EXPECT_TRUE(contains(m->detail, "libcudnn.so.9")) << m->detail;
  EXPECT_TRUE(contains(m->detail, "JAX 0.6.2")) << "the framework that uses the other cuDNN: " << m->detail;
  // Reinstalling torch would put cuDNN 8 back and break JAX: one environment each.
  EXPECT_TRUE(contains(m->fix, "environment of its own")) << m->fix;
  EXPECT_TRUE(contains(m->fix, "torch==2.3.1+cu121")) << m->fix;
  // JAX itself is fine: its cuDNN 9 is there.
  for (const Finding& f : d.findings) {
    if (f.id == "framework-cuda-libraries-missing") EXPECT_FALSE(contains(f.title, "JAX")) << f.title;
  }

  // The same torch with the wheel replaced and no other framework: told what replaced it.
  TempTree alone;
  copy_env(alone, "linux-torch-healthy", kTorchEnv);
  std::filesystem::rename(alone.path() / (kTorchSp + "nvidia_cudnn_cu12-8.9.2.26.dist-info"),
                          alone.path() / (kTorchSp + "nvidia_cudnn_cu12-9.1.0.70.dist-info"));
  alone.write(kTorchSp + "nvidia_cudnn_cu12-9.1.0.70.dist-info/METADATA",
              "Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\nVersion: 9.1.0.70\n");
  std::filesystem::remove(alone.path() / (kTorchSp + "nvidia/cudnn/lib/libcudnn.so.8"));
  alone.write(kTorchSp + "nvidia/cudnn/lib/libcudnn.so.9", "");
  const Doctor a = doctor(alone, kTorchEnv);
  const Finding* m2 = find(a.findings, "framework-cuda-libraries-missing");
  ASSERT_NE(m2, nullptr) << ids(a.findings);
  EXPECT_TRUE(contains(m2->detail, "nvidia-cudnn-cu12 9.1.0.70")) << m2->detail;
  EXPECT_TRUE(contains(m2->fix, "pip check")) << m2->fix;
}

// Case C of the real two-framework installs (2026-12-02): `pip install torch==2.5.1`, then
// `tensorflow[and-cuda]==2.18.1` upgrades cuDNN, cuBLAS, ... within their majors; both import,
// and pip prints "torch 2.5.1 requires nvidia-cudnn-cu12==9.1.0.70, but you have ... 9.3.0.75
// which is incompatible". The doctor said nothing of it; `pip check` fails there.
TEST(FrameworkLibraries, APinnedWheelUpgradedWithinItsMajorIsWhatPipCheckSays) {
  TempTree t;
  copy_env(t, "linux-torch-healthy", kTorchEnv);
  t.write("lib64/ld-linux-x86-64.so.2", "");  // an x86_64 machine: torch's pins apply there
  std::filesystem::rename(t.path() / (kTorchSp + "nvidia_cudnn_cu12-8.9.2.26.dist-info"),
                          t.path() / (kTorchSp + "nvidia_cudnn_cu12-8.9.7.29.dist-info"));
  t.write(kTorchSp + "nvidia_cudnn_cu12-8.9.7.29.dist-info/METADATA",
          "Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\nVersion: 8.9.7.29\n");
  const Doctor d = doctor(t, kTorchEnv, {}, true);
  EXPECT_EQ(d.facts.os.arch, "x86_64");
  const Finding* p = find(d.findings, "pip-requirement-unmet");
  ASSERT_NE(p, nullptr) << ids(d.findings);
  EXPECT_TRUE(
      contains(p->detail, "torch requires nvidia-cudnn-cu12==8.9.2.26, nvidia-cudnn-cu12 8.9.7.29 is installed"))
      << p->detail;
  EXPECT_TRUE(contains(p->detail, "newer release of the same major")) << p->detail;
  // The library itself still loads: no error about it.
  EXPECT_EQ(find(d.findings, "framework-cuda-libraries-missing"), nullptr) << ids(d.findings);
  // The same tree as installed: nothing to say.
  TempTree healthy;
  copy_env(healthy, "linux-torch-healthy", kTorchEnv);
  healthy.write("lib64/ld-linux-x86-64.so.2", "");
  const Doctor h = doctor(healthy, kTorchEnv, {}, true);
  EXPECT_EQ(find(h.findings, "pip-requirement-unmet"), nullptr) << ids(h.findings);
}

// The reverse order, measured 2026-12-02: `pip install "jax[cuda12]"` (cuDNN 9.28.0.42), then
// `pip install torch==2.3.1` uninstalls it for nvidia-cudnn-cu12 8.9.2.26 without a word, and
// `pip check` says "No broken requirements found" (the plugin asks for cuDNN 9 only under its
// with-cuda extra). The doctor said JAX "will load" the 8.9.2.26 wheel, which it never opens
// (it opens libcudnn.so.9), and told it to `pip install -U "jax[cuda12]"`, which puts cuDNN 9
// back and breaks `import torch` ("libcudnn.so.8: cannot open shared object file").
TEST(FrameworkLibraries, JaxWhoseCudnnWheelTorchReplacedIsNotSaidToLoadItNorToBreakTorch) {
  TempTree t;
  copy_env(t, "linux-jax-cuda12", kJaxEnv);
  std::filesystem::remove_all(t.path() / (kJaxSp + "nvidia_cudnn_cu12-9.10.2.21.dist-info"));
  std::filesystem::remove_all(t.path() / (kJaxSp + "nvidia/cudnn/lib"));
  add_torch_parts(t,
                  {"torch", "torch-2.3.1+cu121.dist-info", "nvidia_cudnn_cu12-8.9.2.26.dist-info", "nvidia/cudnn/lib"});
  const Doctor d = doctor(t, kJaxEnv, {}, true);
  const Finding* m = find(d.findings, "framework-cuda-libraries-missing");
  ASSERT_NE(m, nullptr) << ids(d.findings);
  EXPECT_TRUE(contains(m->title, "JAX")) << m->title;
  EXPECT_TRUE(contains(m->title, "libcudnn.so.9")) << m->title;
  EXPECT_TRUE(contains(m->detail, "nvidia-cudnn-cu12 8.9.2.26")) << m->detail;
  EXPECT_TRUE(contains(m->detail, "PyTorch 2.3.1")) << m->detail;
  EXPECT_TRUE(contains(m->fix, "environment of its own")) << m->fix;
  // JAX never opens the cuDNN 8 wheel: no verdict about a cuDNN it "will load".
  EXPECT_EQ(find(d.findings, "jax-cudnn-mismatch"), nullptr) << ids(d.findings);
  for (const Finding& f : d.findings) {
    EXPECT_FALSE(contains(f.fix, "pip install -U \"jax[cuda12]\"")) << f.id << ": " << f.fix;
    if (f.id == "framework-cuda-libraries-missing") EXPECT_FALSE(contains(f.title, "PyTorch")) << f.title;
  }
}

TEST(FrameworkLibraries, JaxWithoutItsCudaRuntimeFallsBackToTheCpu) {
  TempTree t;
  copy_env(t, "linux-jax-cuda12", kJaxEnv);
  std::filesystem::remove(t.path() / (kJaxSp + "nvidia/cuda_runtime/lib/libcudart.so.12"));
  const Doctor without_gpu = doctor(t, kJaxEnv);
  const Finding* info = find(without_gpu.findings, "framework-cuda-libraries-missing");
  ASSERT_NE(info, nullptr) << ids(without_gpu.findings);
  EXPECT_EQ(info->severity, Severity::info) << "no GPU: JAX runs on the CPU as it would anyway";
  const Doctor with_gpu = doctor(t, kJaxEnv, {}, true);
  const Finding* err = find(with_gpu.findings, "framework-cuda-libraries-missing");
  ASSERT_NE(err, nullptr) << ids(with_gpu.findings);
  EXPECT_EQ(err->severity, Severity::error);
  EXPECT_TRUE(contains(err->title, "JAX")) << err->title;
  EXPECT_TRUE(contains(err->title, "libcudart.so.12")) << err->title;
  EXPECT_TRUE(contains(err->fix, "jax[cuda12]==0.6.2")) << err->fix;
}

TEST(FrameworkLibraries, RequirementFloorReadsTheLowerBoundOfAnyClause) {
  const std::string md =
      "Metadata-Version: 2.1\nName: jax-cuda12-plugin\n"
      "Requires-Dist: jax-cuda12-pjrt==0.6.2\n"
      "Requires-Dist: nvidia-cudnn-cu12<10.0,>=9.8; extra == \"with-cuda\"\n\n"
      "Requires-Dist: nvidia-cudnn-cu12>=1.0 (in the description, not a header)\n";
  auto floor = requirement_floor(md, "nvidia-cudnn-cu");
  ASSERT_TRUE(floor.has_value());
  EXPECT_EQ(floor->name, "nvidia-cudnn-cu12");
  EXPECT_EQ(floor->version, "9.8");
  EXPECT_FALSE(pinned_requirement(md, "nvidia-cudnn-cu").has_value()) << "no == pin";
  auto pin = pinned_requirement("Requires-Dist: cuda-toolkit[cublas,cudart]==13.2.2; platform_system == \"Linux\"\n",
                                "cuda-toolkit");
  ASSERT_TRUE(pin.has_value());
  EXPECT_EQ(pin->version, "13.2.2");
}

// TensorFlow's dlopen searches LD_LIBRARY_PATH, then the RUNPATH of libtensorflow_framework.so.2,
// then the system: from 2.14 that RUNPATH names the nvidia wheels of its own site-packages; 2.11
// to 2.13 name only $ORIGIN (readelf -d on the PyPI wheels), and no pip wheel of TensorFlow names
// a conda environment's lib/. Wheels or conda libraries beside it are then not found.
struct TfTree {
  const char* version;
  const char* cuda;        ///< build_info's cuda_version
  bool wheels = false;     ///< nvidia-*-cuNN wheels in its site-packages
  bool conda_lib = false;  ///< the CUDA libraries in the conda environment's lib/
  bool conda_tf = false;   ///< conda-meta says conda installed TensorFlow
};

Doctor tf_doctor(const TfTree& c) {
  TempTree t;
  const std::string env = c.conda_lib || c.conda_tf ? "home/u/miniconda3/envs/tf" : "home/u/tf/.venv";
  const std::string sp = env + "/lib/python3.11/site-packages/";
  if (c.conda_lib || c.conda_tf) {
    t.write(env + "/conda-meta/python-3.11.9-h955ad1f_0.json", "{}");
    t.write(env + "/conda-meta/history", "");
    t.write(env + "/bin/python3.11", "");
    if (c.conda_tf) t.write(env + "/conda-meta/tensorflow-base-2.15.0-cuda120py311h.json", "{}");
  } else {
    t.write(env + "/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.9\n");
  }
  t.write(sp + "tensorflow-" + std::string(c.version) + ".dist-info/METADATA",
          "Metadata-Version: 2.1\nName: tensorflow\nVersion: " + std::string(c.version) + "\n");
  t.write(sp + "tensorflow/python/platform/build_info.py",
          "build_info = {'cuda_version': '" + std::string(c.cuda) +
              "', 'cudnn_version': '8', 'is_cuda_build': True, 'is_rocm_build': False}\n");
  const bool cuda11 = std::string_view(c.cuda).starts_with("11");
  const std::vector<std::pair<std::string, std::string>> libs =
      cuda11 ? std::vector<std::pair<std::string, std::string>>{{"cuda_runtime", "libcudart.so.11.0"},
                                                                {"cublas", "libcublas.so.11"},
                                                                {"cublas", "libcublasLt.so.11"},
                                                                {"cufft", "libcufft.so.10"},
                                                                {"cusolver", "libcusolver.so.11"},
                                                                {"cusparse", "libcusparse.so.11"},
                                                                {"cudnn", "libcudnn.so.8"}}
             : std::vector<std::pair<std::string, std::string>>{
                   {"cuda_runtime", "libcudart.so.12"}, {"cublas", "libcublas.so.12"},
                   {"cublas", "libcublasLt.so.12"},     {"cufft", "libcufft.so.11"},
                   {"cusolver", "libcusolver.so.11"},   {"cusparse", "libcusparse.so.12"},
                   {"cudnn", "libcudnn.so.8"}};
  for (const auto& [dir, file] : libs) {
    if (c.wheels) t.write(sp + "nvidia/" + dir + "/lib/" + file, "");
    if (c.conda_lib) t.write(env + "/lib/" + file, "");
  }
  EnvMap vars;
  if (c.conda_lib || c.conda_tf) vars["CONDA_PREFIX"] = "/" + env;
  vars["VIRTUAL_ENV"] = c.conda_lib || c.conda_tf ? "" : "/" + env;
  SystemView sys = view_of(t, Platform::linux, vars);
  InventoryOptions inv;
  inv.declared_gpus = {"NVIDIA GeForce RTX 3060"};
  Doctor d;
  d.facts = collect_facts(sys, inv);
  d.findings = run_checks(d.facts, &testing::builtin_kb());
  return d;
}

TEST(FrameworkLibraries, TensorflowFindsOnlyWhatItsRunpathNames) {
  // 2.15 with its wheels: the RUNPATH finds them.
  Doctor ok = tf_doctor({.version = "2.15.1", .cuda = "12.2", .wheels = true});
  const FrameworkFacts* tf = framework(ok.facts, "tensorflow");
  ASSERT_NE(tf, nullptr) << ids(ok.findings);
  ASSERT_FALSE(tf->loads.empty());
  for (const LibraryLoad& l : tf->loads) EXPECT_EQ(l.via, "pip wheel") << l.soname;
  EXPECT_EQ(find(ok.findings, "framework-cuda-libraries-missing"), nullptr) << ids(ok.findings);
  // 2.12 with the same wheels and no LD_LIBRARY_PATH: its RUNPATH is $ORIGIN alone.
  Doctor old = tf_doctor({.version = "2.12.1", .cuda = "11.8", .wheels = true});
  EXPECT_NE(find(old.findings, "framework-cuda-libraries-missing"), nullptr) << ids(old.findings);
  // pip's TensorFlow 2.15 in a conda environment whose lib/ holds the libraries: not searched.
  Doctor pip_in_conda = tf_doctor({.version = "2.15.1", .cuda = "12.2", .conda_lib = true});
  EXPECT_NE(find(pip_in_conda.findings, "framework-cuda-libraries-missing"), nullptr) << ids(pip_in_conda.findings);
  // conda's own TensorFlow: its RPATH names the environment's lib/.
  Doctor conda = tf_doctor({.version = "2.15.1", .cuda = "12.2", .conda_lib = true, .conda_tf = true});
  const FrameworkFacts* ctf = framework(conda.facts, "tensorflow");
  ASSERT_NE(ctf, nullptr) << ids(conda.findings);
  ASSERT_FALSE(ctf->loads.empty());
  EXPECT_EQ(ctf->loads.front().via, "conda env") << ctf->loads.front().path;
  EXPECT_EQ(find(conda.findings, "framework-cuda-libraries-missing"), nullptr) << ids(conda.findings);
}

// onnxruntime-gpu 1.20.2's provider carries no RPATH, and 1.20 has no preload_dlls(): the nvidia-*
// wheels of its environment serve it only after `import torch` loaded them. With no torch there, they
// are not found (the review of session 36: the Windows and Linux fixes named preload_dlls and the
// [cuda,cudnn] extras for 1.20.2, neither of which it has).
TEST(FrameworkLibraries, OnnxruntimeBefore121FindsTheWheelsOnlyAfterTorch) {
  const std::string ort_env = "home/alex/ort/.venv";
  const std::string ort_sp = ort_env + "/lib/python3.11/site-packages/";
  TempTree t;
  copy_env(t, "linux-ort-cu12-with-cuda11", ort_env);
  std::filesystem::copy(std::string(GPUDOCTOR_FIXTURES_DIR) + "/linux-torch-healthy/root/" + kTorchSp + "nvidia",
                        t.path() / (ort_sp + "nvidia"), std::filesystem::copy_options::recursive);
  const Doctor alone = doctor(t, ort_env, {}, true);
  const FrameworkFacts* ort = framework(alone.facts, "onnxruntime");
  ASSERT_NE(ort, nullptr);
  for (const LibraryLoad& l : ort->loads) {
    if (l.soname == "libcudart.so.12") EXPECT_TRUE(l.path.empty()) << l.path << " " << l.via;
  }
  const Finding* f = find(alone.findings, "framework-cuda-libraries-missing");
  ASSERT_NE(f, nullptr) << ids(alone.findings);
  EXPECT_TRUE(contains(f->fix, "nvidia-cublas-cu12")) << f->fix;
  EXPECT_TRUE(contains(f->fix, "LD_LIBRARY_PATH")) << f->fix;
  EXPECT_FALSE(contains(f->fix, "[cuda,cudnn]==1.20.2")) << f->fix;

  // With torch in the environment, `import torch` first loads them: found, said so.
  copy_env(t, "linux-torch-healthy", kTorchSp + "torch");
  std::filesystem::copy(
      std::string(GPUDOCTOR_FIXTURES_DIR) + "/linux-torch-healthy/root/" + kTorchSp + "torch-2.3.1+cu121.dist-info",
      t.path() / (ort_sp + "torch-2.3.1+cu121.dist-info"), std::filesystem::copy_options::recursive);
  std::filesystem::rename(t.path() / (kTorchSp + "torch"), t.path() / (ort_sp + "torch"));
  const Doctor with_torch = doctor(t, ort_env, {}, true);
  ort = framework(with_torch.facts, "onnxruntime");
  ASSERT_NE(ort, nullptr);
  for (const LibraryLoad& l : ort->loads) {
    if (l.soname == "libcudart.so.12") EXPECT_TRUE(contains(l.via, "import torch")) << l.path << " " << l.via;
  }
}

}  // namespace
}  // namespace gpudoctor
