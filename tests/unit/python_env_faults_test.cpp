// Review 43C, items 10, 11, 13, 14: Python environments that cannot run what the doctor reports
// in them. Each test runs the built gpudoctor on a copy of the healthy GPU fixture (RTX 4090,
// driver 550) with one venv added at /work/venv, the way the reviewer broke theirs.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/text.hpp"
#include "run_gpudoctor.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;
using testing::run_gpudoctor;
using testing::TempTree;

constexpr const char* kVenv = "work/venv";
constexpr const char* kSite = "work/venv/lib/python3.11/site-packages/";
/// PyTorch 2.15.0+cu132's torch/version.py, as the wheel installs it.
constexpr const char* kTorchVersionPy =
    "__version__ = '2.15.0+cu132'\ndebug = False\ncuda: Optional[str] = '13.2'\ngit_version = 'abc'\nhip = None\n";
/// A TensorFlow 2.21 build_info.py: a CUDA build, or (tensorflow-cpu) not.
std::string tf_build_info(bool cuda) {
  return cuda ? "build_info = {'cuda_version': '12.5.1', 'cudnn_version': '9', 'is_cuda_build': True, "
                "'is_rocm_build': False, 'cuda_compute_capabilities': ['sm_60', 'sm_80', 'compute_90']}\n"
              : "build_info = {'is_cuda_build': False, 'is_rocm_build': False}\n";
}

/// The healthy fixture's machine (its own venv left out), no environment variables but HOME, and
/// a venv at /work/venv with Python 3.11 whose bin/python3 is a real file.
void make_machine(TempTree& t, const std::string& env_lines = "") {
  const fs::path from = fs::path(GPUDOCTOR_FIXTURES_DIR) / "linux-torch-healthy/root";
  fs::copy(from, t.path() / "root", fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  fs::remove_all(t.path() / "root/home");
  t.write("env", "HOME=/home/nobody\n" + env_lines);
  t.write(std::string("root/") + kVenv + "/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.7\n");
  t.write("root/usr/bin/python3.11", "");
  fs::create_directories(t.path() / "root" / kVenv / "bin");
  fs::create_symlink("/usr/bin/python3.11", t.path() / "root" / kVenv / "bin/python3");
}

void add_torch_dist(TempTree& t, const std::string& site = kSite) {
  t.write("root/" + site + "torch-2.15.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: torch\nVersion: 2.15.0\n");
}

testing::RunResult doctor(const TempTree& t) {
  return run_gpudoctor({"--root", t.str() + "/root", "--env-file", t.str() + "/env", "--platform", "linux", "--env",
                        std::string("/") + kVenv, "--json"});
}

/// Every finding of the run with this id.
std::vector<nlohmann::json> findings(const testing::RunResult& r, const std::string& id) {
  std::vector<nlohmann::json> out;
  for (const auto& f : r.json["findings"]) {
    if (f["id"] == id) out.push_back(f);
  }
  return out;
}

/// The frameworks of /work/venv in the facts.
nlohmann::json venv_facts(const testing::RunResult& r) {
  for (const auto& e : r.json["facts"]["python_envs"]) {
    if (e["path"] == std::string("/") + kVenv) return e;
  }
  return nlohmann::json::object();
}

TEST(PythonEnvFaults, MachineWithAHealthyVenvHasNoError) {
  TempTree t;
  make_machine(t);
  add_torch_dist(t);
  t.write(std::string("root/") + kSite + "torch/version.py", kTorchVersionPy);
  const auto r = doctor(t);
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  for (const char* id :
       {"framework-package-missing", "framework-unregistered", "python-interpreter-missing", "framework-shadowed"}) {
    EXPECT_TRUE(findings(r, id).empty()) << id;
  }
}

// Item 10: torch/ moved away, its dist-info left: `import torch` fails.
TEST(PythonEnvFaults, PackageFolderGoneBesideItsDistInfoIsAnErrorWithAPinnedReinstall) {
  TempTree t;
  make_machine(t);
  add_torch_dist(t);
  const auto r = doctor(t);
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const auto missing = findings(r, "framework-package-missing");
  ASSERT_EQ(missing.size(), 1u) << r.out;
  EXPECT_EQ(missing[0]["severity"], "error");
  EXPECT_TRUE(contains(missing[0]["detail"].get<std::string>(), "`import torch` fails")) << missing[0].dump();
  // The environment's own pip (session 44): a bare `pip` is whichever is first on PATH.
  EXPECT_TRUE(contains(missing[0]["fix"].get<std::string>(),
                       "`/work/venv/bin/python3 -m pip install --force-reinstall --no-deps \"torch==2.15.0\"`"))
      << missing[0].dump();
  // One cause, one finding: the missing version.py is part of it.
  EXPECT_TRUE(findings(r, "framework-metadata-unreadable").empty()) << r.out;
}

// Near miss: `pip install -e` keeps the dist-info here and the package in the project.
TEST(PythonEnvFaults, EditableInstallWithoutAPackageFolderHereIsNotMissing) {
  TempTree t;
  make_machine(t);
  add_torch_dist(t);
  t.write(std::string("root/") + kSite + "torch-2.15.0.dist-info/direct_url.json",
          "{\"url\": \"file:///src/pytorch\", \"dir_info\": {\"editable\": true}}");
  const auto r = doctor(t);
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  EXPECT_TRUE(findings(r, "framework-package-missing").empty()) << r.out;
}

// Item 11: an importable torch (and TensorFlow, JAX) whose dist-info is gone is inventoried from
// its package folder, and said to be unknown to pip.
TEST(PythonEnvFaults, FrameworkWithoutDistInfoIsFoundByItsPackageFolder) {
  TempTree t;
  make_machine(t);
  const std::string site = std::string("root/") + kSite;
  t.write(site + "torch/version.py", kTorchVersionPy);
  t.write(site + "tensorflow/python/platform/build_info.py", tf_build_info(true));
  t.write(site + "tensorflow/tools/pip_package/setup.py", "import os\n_VERSION = '2.21.0'\ncuda_version = 12\n");
  t.write(site + "jaxlib/version.py", "_version = \"0.10.2\"\n");
  const auto r = doctor(t);
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  const nlohmann::json env = venv_facts(r);
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& fw : env["frameworks"]) by_name[fw["name"].get<std::string>()] = fw;
  ASSERT_TRUE(by_name.count("torch")) << venv_facts(r).dump();
  EXPECT_EQ(by_name["torch"]["version"], "2.15.0+cu132");
  EXPECT_EQ(by_name["torch"]["cuda_version"], "13.2");
  EXPECT_TRUE(contains(by_name["torch"]["unregistered"].get<std::string>(), "torch/version.py"));
  ASSERT_TRUE(by_name.count("tensorflow")) << venv_facts(r).dump();
  EXPECT_EQ(by_name["tensorflow"]["version"], "2.21.0");
  EXPECT_EQ(by_name["tensorflow"]["cuda_build"], true);
  ASSERT_TRUE(by_name.count("jaxlib")) << venv_facts(r).dump();
  EXPECT_EQ(by_name["jaxlib"]["version"], "0.10.2");
  const auto unregistered = findings(r, "framework-unregistered");
  ASSERT_EQ(unregistered.size(), 3u) << r.out;
  EXPECT_EQ(unregistered[0]["severity"], "warning");
  // PyTorch's torch 2.15 (CUDA 13.2) is now judged against this machine's 550 driver.
  bool torch_judged = false;
  for (const auto& f : r.json["findings"]) {
    if (f["severity"] == "error" && contains(f["title"].get<std::string>(), "PyTorch 2.15")) torch_judged = true;
  }
  EXPECT_TRUE(torch_judged) << r.out;
}

// Near miss: with its dist-info the same torch is one registered framework.
TEST(PythonEnvFaults, FrameworkWithDistInfoIsNotCountedTwice) {
  TempTree t;
  make_machine(t);
  add_torch_dist(t);
  t.write(std::string("root/") + kSite + "torch/version.py", kTorchVersionPy);
  const auto r = doctor(t);
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  const nlohmann::json env = venv_facts(r);
  int torches = 0;
  for (const auto& fw : env["frameworks"]) torches += fw["name"] == "torch" ? 1 : 0;
  EXPECT_EQ(torches, 1) << venv_facts(r).dump();
  EXPECT_TRUE(findings(r, "framework-unregistered").empty()) << r.out;
}

// Item 13: the venv's bin/python3 points at a Python that was removed.
TEST(PythonEnvFaults, VenvWhoseInterpreterLinkDanglesIsAnError) {
  TempTree t;
  make_machine(t);
  fs::remove(t.path() / "root/usr/bin/python3.11");
  const auto r = doctor(t);
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const auto gone = findings(r, "python-interpreter-missing");
  ASSERT_EQ(gone.size(), 1u) << r.out;
  EXPECT_EQ(gone[0]["severity"], "error");
  EXPECT_TRUE(contains(gone[0]["detail"].get<std::string>(), "bin/python3 is a link to an interpreter"))
      << gone[0].dump();
  EXPECT_TRUE(contains(gone[0]["fix"].get<std::string>(), "`python3.11 -m venv --clear /work/venv`")) << gone[0].dump();
}

// Near miss: a venv whose bin/ holds no interpreter at all (a copied tree) is not judged.
TEST(PythonEnvFaults, VenvWithoutABinFolderIsNotJudged) {
  TempTree t;
  make_machine(t);
  fs::remove(t.path() / "root" / kVenv / "bin/python3");
  fs::remove(t.path() / "root/usr/bin/python3.11");
  const auto r = doctor(t);
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  EXPECT_TRUE(findings(r, "python-interpreter-missing").empty()) << r.out;
}

// Item 14: PYTHONPATH names another site-packages whose CPU-only TensorFlow hides the venv's.
TEST(PythonEnvFaults, PythonpathCopyShadowingTheVenvsCudaBuildIsAnError) {
  TempTree t;
  make_machine(t, "PYTHONPATH=/opt/empty:/opt/tfcpu/site-packages\n");
  const std::string site = std::string("root/") + kSite;
  t.write(site + "tensorflow-2.21.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: tensorflow\n");
  t.write(site + "tensorflow/python/platform/build_info.py", tf_build_info(true));
  fs::create_directories(t.path() / "root/opt/empty");
  t.write("root/opt/tfcpu/site-packages/tensorflow_cpu-2.21.0.dist-info/METADATA", "Metadata-Version: 2.1\n");
  t.write("root/opt/tfcpu/site-packages/tensorflow/python/platform/build_info.py", tf_build_info(false));
  const auto r = doctor(t);
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  const auto shadowed = findings(r, "framework-shadowed");
  ASSERT_EQ(shadowed.size(), 1u) << r.out;
  EXPECT_EQ(shadowed[0]["severity"], "error");
  const std::string title = shadowed[0]["title"].get<std::string>();
  EXPECT_TRUE(contains(title,
                       "takes tensorflow-cpu 2.21.0 (CPU-only build) from PYTHONPATH at "
                       "/opt/tfcpu/site-packages, not the environment's tensorflow 2.21.0 (CUDA build"))
      << title;
  EXPECT_TRUE(contains(shadowed[0]["fix"].get<std::string>(), "out of PYTHONPATH")) << shadowed[0].dump();
  // One cause, one finding: the CPU-only copy is not told again with a pip fix.
  EXPECT_TRUE(findings(r, "framework-cpu-only").empty()) << r.out;
  const nlohmann::json env = venv_facts(r);
  ASSERT_EQ(env["shadowed"].size(), 1u) << env.dump();
  EXPECT_EQ(env["shadowed"][0]["package"], "tensorflow");
}

// Near misses: PYTHONPATH naming the venv's own site-packages, or a folder without that package,
// hides nothing.
TEST(PythonEnvFaults, PythonpathWithTheVenvsOwnSitePackagesHidesNothing) {
  for (const std::string pythonpath :
       {std::string("/") + kSite + ":/opt/tfcpu/site-packages", std::string("/opt/other/site-packages")}) {
    TempTree t;
    make_machine(t, "PYTHONPATH=" + pythonpath + "\n");
    const std::string site = std::string("root/") + kSite;
    t.write(site + "tensorflow-2.21.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: tensorflow\n");
    t.write(site + "tensorflow/python/platform/build_info.py", tf_build_info(true));
    t.write("root/opt/tfcpu/site-packages/tensorflow_cpu-2.21.0.dist-info/METADATA", "Metadata-Version: 2.1\n");
    t.write("root/opt/tfcpu/site-packages/tensorflow/python/platform/build_info.py", tf_build_info(false));
    t.write("root/opt/other/site-packages/numpy/__init__.py", "");
    const auto r = doctor(t);
    ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
    EXPECT_TRUE(findings(r, "framework-shadowed").empty()) << pythonpath << "\n" << r.out;
    EXPECT_FALSE(venv_facts(r).contains("shadowed")) << pythonpath;
  }
}

// Session 44: `pip install --user tensorflow-cpu` over the system Python's CUDA TensorFlow. The user
// site comes before the installation's site-packages on sys.path, so the CPU copy is what runs; it
// was listed beside the CUDA one as two frameworks of one environment.
TEST(PythonEnvFaults, AUserSiteCopyShadowingTheSystemsCudaBuildIsAnError) {
  for (const bool no_user_site : {false, true}) {
    TempTree t;
    make_machine(t, no_user_site ? "PYTHONNOUSERSITE=1\n" : "");
    const std::string system_site = "root/usr/local/lib/python3.11/dist-packages/";
    t.write(system_site + "tensorflow-2.21.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: tensorflow\n");
    t.write(system_site + "tensorflow/python/platform/build_info.py", tf_build_info(true));
    const std::string user_site = "root/home/nobody/.local/lib/python3.11/site-packages/";
    t.write(user_site + "tensorflow_cpu-2.21.0.dist-info/METADATA", "Metadata-Version: 2.1\n");
    t.write(user_site + "tensorflow/python/platform/build_info.py", tf_build_info(false));
    const auto r = doctor(t);
    ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
    const auto shadowed = findings(r, "framework-shadowed");
    if (no_user_site) {
      // Near miss: the user site left out (not even read), the system's CUDA build is what runs.
      EXPECT_TRUE(shadowed.empty()) << r.out;
      EXPECT_TRUE(findings(r, "framework-cpu-only").empty()) << r.out;
      continue;
    }
    ASSERT_EQ(shadowed.size(), 1u) << r.out;
    EXPECT_EQ(shadowed[0]["severity"], "error");
    const std::string title = shadowed[0]["title"].get<std::string>();
    EXPECT_TRUE(contains(title,
                         "takes tensorflow-cpu 2.21.0 (CPU-only build) from user site at "
                         "/home/nobody/.local/lib/python3.11/site-packages, not the environment's "
                         "tensorflow 2.21.0 (CUDA build"))
        << title;
    const std::string fix = shadowed[0]["fix"].get<std::string>();
    EXPECT_TRUE(contains(fix, " -m pip uninstall tensorflow-cpu`")) << fix;
    EXPECT_TRUE(contains(fix, "PYTHONNOUSERSITE=1")) << fix;
    EXPECT_TRUE(findings(r, "framework-cpu-only").empty()) << r.out;
  }
}

}  // namespace
}  // namespace gpudoctor
