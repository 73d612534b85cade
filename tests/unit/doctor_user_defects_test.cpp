// Regression tests for the defects a new user met running the doctor beside its peers on real
// installs (issue 10), one test per defect, named after it.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "check/checks.hpp"
#include "check_test_support.hpp"
#include "core/text.hpp"
#include "kb/annotate_facts.hpp"
#include "kb/knowledge_base.hpp"
#include "kb_test_support.hpp"
#include "platform/system_view.hpp"
#include "probe/inventory.hpp"
#include "probe/probes.hpp"
#include "probe/python/dist_info.hpp"
#include "render/doctor_report.hpp"
#include "run_gpudoctor.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using testing::TempTree;
using testing::v;

using testing::kb;

using testing::view_of;

using testing::all;
using testing::find;
using testing::ids;

Facts gpu_machine() {
  Facts f;
  f.platform = Platform::linux;
  GpuFacts g;
  g.name = "NVIDIA GeForce RTX 3060";
  g.source = "proc";
  g.pci_bus_id = "0000:01:00.0";
  f.gpus.push_back(g);
  f.driver.version = v("550.54.14");
  f.driver.version_source = "/proc/driver/nvidia/version";
  f.driver.nvidia_module_loaded = true;
  f.driver.files.push_back(DriverFile{"libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", v("550.54.14")});
  return f;
}

PythonEnvFacts venv(const std::string& path, FrameworkFacts fw) {
  PythonEnvFacts e;
  e.path = path;
  e.kind = "venv";
  e.python_version = v("3.11.9");
  e.found_via = {"project venv under home"};
  fw.location = path + "/lib/python3.11/site-packages";
  e.site_packages = {fw.location};
  e.frameworks.push_back(std::move(fw));
  return e;
}

FrameworkFacts tf215() {
  FrameworkFacts fw;
  fw.name = "tensorflow";
  fw.package = "tensorflow";
  fw.version = v("2.15.1");
  fw.cuda_build = true;
  fw.cuda_version = v("12.2");
  fw.cudnn_version = v("8");
  return fw;
}

/// TF 2.15 with a pip cuDNN 9 wheel (what `pip install -U nvidia-cudnn-cu12` leaves behind).
Facts tf215_with_cudnn9_wheel(const std::string& env_path) {
  Facts f = gpu_machine();
  PythonEnvFacts e = venv(env_path, tf215());
  e.nvidia_wheels.push_back(NvidiaWheel{"nvidia-cudnn-cu12", v("9.1.0.70"), "cudnn", 12});
  e.nvidia_wheels.push_back(NvidiaWheel{"nvidia-cuda-runtime-cu12", v("12.2.140"), "cudart", 12});
  f.python_envs.push_back(e);
  LibraryFacts lib;
  lib.name = "cudnn";
  lib.version = v("9.1.0.70");
  lib.origin = "pip-wheel";
  lib.path = env_path + "/lib/python3.11/site-packages/nvidia/cudnn/lib";
  f.libraries.push_back(lib);
  return f;
}

// (3) The cuDNN wheel that causes the error and the TensorFlow install that cannot use the GPU
// were both shown with ✓ right under the error.
TEST(DoctorUserDefects, AnItemInvolvedInAnErrorIsNeverShownAsFine) {
  Facts f = tf215_with_cudnn9_wheel("/home/u/tf");
  auto fs = run_checks(f, &kb());
  const Finding* err = find(fs, "tf-cudnn-mismatch");
  ASSERT_NE(err, nullptr) << ids(fs);
  ASSERT_EQ(err->severity, Severity::error);
  for (const char* id : {"python-env", "library"}) {
    const Finding* item = find(fs, id);
    ASSERT_NE(item, nullptr) << id << ": " << ids(fs);
    EXPECT_NE(item->severity, Severity::ok) << item->title;
    EXPECT_NE(item->title.find(err->title), std::string::npos) << item->title;
  }
  std::string text = render_doctor_text(f, fs, TextStyle{.color = false, .verbose = false});
  for (auto line : lines(text)) {
    if (contains(line, "/home/u/tf")) EXPECT_FALSE(contains(line, "✓")) << line;
  }
}

// (4) Findings did not name the environment, and the same finding in two environments was
// merged into one.
TEST(DoctorUserDefects, EachFindingNamesItsEnvironmentAndTwoEnvsAreNotMerged) {
  Facts f = tf215_with_cudnn9_wheel("/home/u/a");
  Facts g = tf215_with_cudnn9_wheel("/home/u/b");
  f.python_envs.push_back(g.python_envs.front());
  f.libraries.push_back(g.libraries.front());
  auto fs = run_checks(f, &kb());
  auto errs = all(fs, "tf-cudnn-mismatch");
  ASSERT_EQ(errs.size(), 2U) << ids(fs);
  EXPECT_TRUE(contains(errs[0]->title, "/home/u/a")) << errs[0]->title;
  EXPECT_TRUE(contains(errs[1]->title, "/home/u/b")) << errs[1]->title;
}

// (5) "remove the mismatched cuDNN from LD_LIBRARY_PATH" when LD_LIBRARY_PATH is unset and the
// copy is a pip wheel.
TEST(DoctorUserDefects, FixSaysNothingAboutLdLibraryPathWhenItIsNotTheCause) {
  Facts f = tf215_with_cudnn9_wheel("/home/u/tf");
  auto fs = run_checks(f, &kb());
  const Finding* err = find(fs, "tf-cudnn-mismatch");
  ASSERT_NE(err, nullptr) << ids(fs);
  EXPECT_FALSE(contains(err->fix, "LD_LIBRARY_PATH")) << err->fix;
  EXPECT_TRUE(contains(err->fix, "tensorflow[and-cuda]==2.15.1")) << err->fix;

  // The same mismatch caused by a copy that LD_LIBRARY_PATH puts first does name it.
  Facts h = gpu_machine();
  h.python_envs.push_back(venv("/home/u/tf", tf215()));
  LibraryFacts old;
  old.name = "cudnn";
  old.version = v("8.6.0");
  old.origin = "ld-library-path";
  old.path = "/opt/cudnn-8.6/lib";
  old.loader_order = 0;
  h.libraries.push_back(old);
  h.env.push_back(EnvVarFacts{"LD_LIBRARY_PATH", "/opt/cudnn-8.6/lib"});
  auto hs = run_checks(h, &kb());
  const Finding* e2 = find(hs, "tf-cudnn-mismatch");
  ASSERT_NE(e2, nullptr) << ids(hs);
  EXPECT_TRUE(contains(e2->fix, "/opt/cudnn-8.6/lib off LD_LIBRARY_PATH")) << e2->fix;
}

// (6) JAX with a too-old cuDNN was a warning although JAX falls back to the CPU, while
// TensorFlow's mismatch is an error.
TEST(DoctorUserDefects, JaxWithTooOldCudnnIsAnErrorLikeTensorflow) {
  Facts f = gpu_machine();
  FrameworkFacts jax;
  jax.name = "jax";
  jax.version = v("0.6.2");
  jax.cuda_build = true;
  jax.variant = "cuda12";
  PythonEnvFacts e = venv("/home/u/jax", jax);
  e.nvidia_wheels.push_back(NvidiaWheel{"nvidia-cudnn-cu12", v("9.5.1.17"), "cudnn", 12});
  f.python_envs.push_back(e);
  auto fs = run_checks(f, &kb());
  const Finding* m = find(fs, "jax-cudnn-mismatch");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_EQ(m->severity, Severity::error);
  EXPECT_FALSE(contains(m->fix, "LD_LIBRARY_PATH")) << m->fix;
  EXPECT_EQ(worst(fs), Severity::error);
}

// (9) "2 copies of cudnn with different versions" in every venv with the pip wheels beside the
// toolkit's copies, where nothing is wrong.
TEST(DoctorUserDefects, SeveralCopiesAreSaidOnlyWhenTheLoaderPicksTheWrongOne) {
  Facts f = gpu_machine();
  LibraryFacts toolkit;
  toolkit.name = "cudnn";
  toolkit.version = v("9.19.0.56");
  toolkit.origin = "toolkit";
  toolkit.path = "/usr/local/cuda-13.0/lib64";
  f.libraries.push_back(toolkit);
  LibraryFacts wheel = toolkit;
  wheel.version = v("9.10.2.21");
  wheel.origin = "pip-wheel";
  wheel.path = "/home/u/.venv/lib/python3.11/site-packages/nvidia/cudnn/lib";
  f.libraries.push_back(wheel);
  auto fs = run_checks(f, &kb());
  EXPECT_EQ(find(fs, "several-cudnn"), nullptr) << ids(fs);

  // Two copies of libcudnn.so.9 both on the loader's search path: the first hides the second.
  f.libraries[0].loader_order = 1;
  LibraryFacts system = toolkit;
  system.version = v("9.1.0.70");
  system.origin = "system";
  system.path = "/usr/lib/x86_64-linux-gnu";
  system.loader_order = 0;
  f.libraries.push_back(system);
  fs = run_checks(f, &kb());
  const Finding* s = find(fs, "several-cudnn");
  ASSERT_NE(s, nullptr) << ids(fs);
  EXPECT_EQ(s->severity, Severity::warning);
  EXPECT_TRUE(contains(s->title, "9.1.0.70 from /usr/lib/x86_64-linux-gnu")) << s->title;
}

// (8) "(-v lists them)" was printed under -v.
TEST(DoctorUserDefects, VerboseOutputDoesNotPromiseWhatItAlreadyShows) {
  Facts f = gpu_machine();
  for (const char* p : {"/home/u/a", "/home/u/b"}) {
    PythonEnvFacts e;
    e.path = p;
    e.kind = "venv";
    f.python_envs.push_back(e);
  }
  auto fs = run_checks(f, &kb());
  std::string quiet = render_doctor_text(f, fs, TextStyle{.color = false, .verbose = false});
  std::string verbose = render_doctor_text(f, fs, TextStyle{.color = false, .verbose = true});
  EXPECT_TRUE(contains(quiet, "(-v lists them)")) << quiet;
  EXPECT_FALSE(contains(verbose, "(-v lists them)")) << verbose;
  EXPECT_TRUE(contains(verbose, "/home/u/b")) << verbose;
}

// (10) "CUDA 13.0.96" from the runtime component while nvcc says 13.0.88.
TEST(DoctorUserDefects, ToolkitVersionIsTheReleaseNvccReports) {
  TempTree t;
  // The layout of /usr/local/cuda-13.0 on the build machines: a toolkit assembled from wheels.
  t.write("usr/local/cuda-13.0/bin/nvcc", "");
  t.mkdir("usr/local/cuda-13.0/dist-info/nvidia_cuda_runtime-13.0.96.dist-info");
  t.mkdir("usr/local/cuda-13.0/dist-info/nvidia_cuda_nvcc-13.0.88.dist-info");
  t.mkdir("usr/local/cuda-13.0/dist-info/nvidia_cublas-13.1.0.3.dist-info");
  t.write("usr/local/cuda-13.0/include/cuda.h", "#define CUDA_VERSION 13000\n");
  // And a runfile install's version.json, where cuda_cudart comes before cuda_nvcc.
  t.write("usr/local/cuda-12.4/bin/nvcc", "");
  t.write("usr/local/cuda-12.4/version.json",
          R"J({"cuda_cudart": {"name": "CUDA Runtime (cudart)", "version": "12.4.127"},
              "cuda_nvcc": {"name": "CUDA NVCC", "version": "12.4.131"}})J");
  SystemView sys = view_of(t);
  Facts f;
  probe_toolkits(sys, read_loader_paths(sys), f);
  std::map<std::string, std::string> got;
  for (const auto& tk : f.toolkits) got[tk.path] = tk.version ? tk.version->str() : "";
  EXPECT_EQ(got["/usr/local/cuda-13.0"], "13.0.88");
  EXPECT_EQ(got["/usr/local/cuda-12.4"], "12.4.131");
}

// Seen on the H200 machine, 2026-12-04: an NVIDIA-installed CUDA 13.0 has no version.json, and its
// cuda.h (1.1 MB) is past the read limit; the doctor warned "not fully read" on a healthy install.
// Its CUDA_VERSION define is in the first 15 kB: only the head is wanted.
TEST(DoctorUserDefects, ALargeCudaHeaderIsReadForItsVersionWithoutAWarning) {
  TempTree t;
  t.write("usr/local/cuda-13.0/bin/nvcc", "");
  std::string header = "/* cuda.h */\n#define CUDA_VERSION 13000\n";
  header += std::string(1200 * 1024, ' ');
  t.write("usr/local/cuda-13.0/include/cuda.h", header);
  SystemView sys = view_of(t);
  Facts f;
  probe_toolkits(sys, read_loader_paths(sys), f);
  ASSERT_FALSE(f.toolkits.empty());
  ASSERT_TRUE(f.toolkits[0].version.has_value());
  EXPECT_EQ(f.toolkits[0].version->str(), "13.0");
  EXPECT_TRUE(sys.bounds_hit().empty()) << sys.bounds_hit().front().path << ": " << sys.bounds_hit().front().what;
}

// (7) No way to point the doctor at an environment, and the project's .venv was not looked at.
TEST(DoctorUserDefects, EnvironmentsNamedOnTheCommandLineAndInTheProjectAreFound) {
  TempTree t;
  auto make_venv = [&](const std::string& dir) {
    t.write(dir + "/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.9\n");
    t.mkdir(dir + "/lib/python3.11/site-packages");
    t.write(dir + "/bin/python", "");
  };
  make_venv("work/project/.venv");
  make_venv("work/project/venv");
  make_venv("elsewhere/env-a");
  make_venv("elsewhere/env-b");
  // A conda env named in the project's environment.yml.
  t.mkdir("opt/conda/conda-meta");
  t.mkdir("opt/conda/envs/vision/conda-meta");
  t.mkdir("opt/conda/envs/vision/lib/python3.11/site-packages");
  t.write("work/project/environment.yml", "name: vision\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.11\n");
  SystemView sys = view_of(t);
  Facts f;
  PythonSearch search;
  search.project_dir = "/work/project";
  search.env_dirs = {"/elsewhere/env-a"};
  search.interpreters = {"/elsewhere/env-b/bin/python"};
  probe_python(sys, f, search);
  std::map<std::string, std::vector<std::string>> via;
  for (const auto& e : f.python_envs) via[e.path] = e.found_via;
  auto has = [&](const std::string& path, const std::string& how) {
    auto it = via.find(path);
    return it != via.end() && std::find(it->second.begin(), it->second.end(), how) != it->second.end();
  };
  EXPECT_TRUE(has("/work/project/.venv", "./.venv"));
  EXPECT_TRUE(has("/work/project/venv", "./venv"));
  EXPECT_TRUE(has("/elsewhere/env-a", "--env"));
  EXPECT_TRUE(has("/elsewhere/env-b", "--python"));
  EXPECT_TRUE(has("/opt/conda/envs/vision", "environment.yml name vision"));

  // A named environment that is not there is said, not skipped.
  Facts g;
  PythonSearch missing;
  missing.env_dirs = {"/nowhere"};
  probe_python(sys, g, missing);
  EXPECT_TRUE(std::any_of(g.problems.begin(), g.problems.end(),
                          [](const ProbeProblem& p) { return contains(p.message, "--env names /nowhere"); }));
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

// (1) A declared GPU on a machine (or tree) with no driver said "No issues found", exit 0.
TEST(DoctorUserDefects, DeclaredGpuWithoutDriverIsAnErrorNamingTheDriver) {
  for (const char* os : {"ubuntu", "debian", "windows"}) {
    Facts f;
    f.platform = std::string(os) == "windows" ? Platform::windows : Platform::linux;
    f.os.id = os;
    GpuFacts g;
    g.name = "NVIDIA GeForce RTX 3060";
    g.source = "declared";
    f.gpus.push_back(g);
    f.driver.files.push_back(
        DriverFile{f.platform == Platform::windows ? "nvcuda.dll" : "libcuda.so.1", "", std::nullopt});
    annotate_facts(f, kb());  // as the doctor gathers facts
    auto fs = run_checks(f, &kb());
    const Finding* e = find(fs, "driver-missing-for-declared-gpu");
    ASSERT_NE(e, nullptr) << os << ": " << ids(fs);
    EXPECT_EQ(e->severity, Severity::error);
    EXPECT_TRUE(contains(e->fix, "RTX 3060")) << e->fix;
    // The Ampere floor (Linux 450.36.06; Windows has its own number).
    if (f.platform == Platform::linux) EXPECT_TRUE(contains(e->fix, "450.36.06")) << e->fix;
    if (std::string(os) == "ubuntu") EXPECT_TRUE(contains(e->fix, "ubuntu-drivers")) << e->fix;
    if (std::string(os) == "debian") EXPECT_TRUE(contains(e->fix, "nvidia-driver")) << e->fix;
    if (std::string(os) == "windows") EXPECT_TRUE(contains(e->fix, "nvidia.com")) << e->fix;
    EXPECT_EQ(find(fs, "driver-not-installed"), nullptr) << ids(fs);
    EXPECT_EQ(worst(fs), Severity::error);
  }
}

// (2) TensorFlow 2.15 without [and-cuda] and no libcudart.so.12 anywhere got only the cuDNN
// finding. The fixture's venv is a real TF 2.15 layout (build_info.py: CUDA 12.2, cuDNN 8).
TEST(DoctorUserDefects, TensorflowWithoutItsCudaRuntimeNamesEveryLibraryItCannotLoad) {
  const std::string fixture = std::string(GPUDOCTOR_FIXTURES_DIR) + "/linux-tf215-cudnn86-mismatch/root";
  const std::string venv_rel = "home/alex/tf/venv";
  TempTree t;
  t.mkdir("home/alex/tf");
  std::filesystem::copy(fixture + "/" + venv_rel, t.path() / venv_rel,
                        std::filesystem::copy_options::recursive | std::filesystem::copy_options::copy_symlinks);
  auto doctor = [&](const TempTree& tree) {
    SystemView sys = view_of(tree, Platform::linux, EnvMap{{"VIRTUAL_ENV", "/" + venv_rel}});
    InventoryOptions inv;
    inv.declared_gpus = {"NVIDIA GeForce RTX 3060"};
    Facts f = collect_facts(sys, inv);
    return std::make_pair(f, run_checks(f, &kb()));
  };
  auto [facts, fs] = doctor(t);
  const Finding* m = find(fs, "framework-cuda-libraries-missing");
  ASSERT_NE(m, nullptr) << ids(fs);
  EXPECT_EQ(m->severity, Severity::error);
  for (const char* lib : {"libcudart.so.12", "libcublas.so.12", "libcublasLt.so.12", "libcufft.so.11",
                          "libcusolver.so.11", "libcusparse.so.12", "libcudnn.so.8"}) {
    EXPECT_TRUE(contains(m->title, lib)) << lib << " not in: " << m->title;
  }
  EXPECT_TRUE(contains(m->title, "/" + venv_rel)) << m->title;
  EXPECT_TRUE(contains(m->fix, "tensorflow[and-cuda]==2.15.0")) << m->fix;

  // The same environment with the wheels [and-cuda] installs (their real file names): found.
  const std::string sp = venv_rel + "/lib/python3.10/site-packages/nvidia/";
  for (const char* file : {"cuda_runtime/lib/libcudart.so.12", "cublas/lib/libcublas.so.12",
                           "cublas/lib/libcublasLt.so.12", "cufft/lib/libcufft.so.11", "cusolver/lib/libcusolver.so.11",
                           "cusparse/lib/libcusparse.so.12", "cudnn/lib/libcudnn.so.8"}) {
    t.write(sp + file, "");
  }
  auto [facts2, fs2] = doctor(t);
  EXPECT_EQ(find(fs2, "framework-cuda-libraries-missing"), nullptr) << ids(fs2);
  ASSERT_FALSE(facts2.python_envs.empty());
  bool seen_loads = false;
  for (const auto& e : facts2.python_envs) {
    for (const auto& fw : e.frameworks) {
      for (const auto& l : fw.loads) {
        seen_loads = true;
        EXPECT_EQ(l.via, "pip wheel") << l.soname;
      }
    }
  }
  EXPECT_TRUE(seen_loads);
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

// (11) torch's cuDNN build version was null in the JSON, and CUDA 13's cuFFT/cuSOLVER/cuSPARSE
// wheels (named without -cu13) had cuda_major null.
TEST(DoctorUserDefects, TorchCudnnAndCuda13WheelMajorsAreReadFromTheWheel) {
  TempTree t;
  const std::string sp = "home/u/.venv/lib/python3.12/site-packages/";
  t.write("home/u/.venv/pyvenv.cfg", "home = /usr/bin\nversion = 3.12.3\n");
  t.write(sp + "torch/version.py", "__version__ = '2.9.0+cu130'\ncuda: Optional[str] = '13.0'\nhip = None\n");
  // torch's METADATA pins the cuDNN wheel it was built with, in the form the real wheels write
  // (see the torch 2.4.0 METADATA in the linux-pip-cudnn-shadowed fixture); the versions here
  // are illustrative. The description follows the first empty line.
  t.write(sp + "torch-2.9.0+cu130.dist-info/METADATA",
          "Metadata-Version: 2.4\nName: torch\nVersion: 2.9.0+cu130\n"
          "Requires-Dist: filelock\n"
          "Requires-Dist: nvidia-cuda-runtime==13.0.96; platform_system == \"Linux\"\n"
          "Requires-Dist: nvidia-cudnn-cu13==9.13.0.50; platform_system == \"Linux\"\n"
          "\nRequires-Dist: nvidia-cudnn-cu13==1.0 (in the description: ignored)\n");
  // CUDA 13 wheels as pip installs them: no -cu13 in the name, files under nvidia/cu13/
  // (RECORD lines shaped as in the real nvidia-cufft 12.0.0.61 wheel under /usr/local/cuda/dist-info).
  for (const char* w : {"nvidia_cufft-12.0.0.61", "nvidia_cusolver-12.0.4.66", "nvidia_cusparse-12.6.3.3"}) {
    std::string lib = std::string(w).substr(7, std::string(w).find('-') - 7);
    t.write(sp + w + ".dist-info/METADATA", "Name: x\n");
    t.write(sp + w + ".dist-info/RECORD",
            "nvidia/cu13/include/" + lib + ".h,sha256=x,1\nnvidia/cu13/lib/lib" + lib + ".so.12,sha256=y,2\n");
  }
  SystemView sys = view_of(t);
  Facts f;
  PythonSearch search;
  search.env_dirs = {"/home/u/.venv"};
  probe_python(sys, f, search);
  ASSERT_FALSE(f.python_envs.empty());
  const PythonEnvFacts& env = f.python_envs.front();
  bool torch_seen = false;
  for (const auto& fw : env.frameworks) {
    if (fw.name != "torch") continue;
    torch_seen = true;
    ASSERT_TRUE(fw.cudnn_version.has_value());
    EXPECT_EQ(fw.cudnn_version->str(), "9.13.0.50");
  }
  EXPECT_TRUE(torch_seen);
  int cu13 = 0;
  for (const auto& w : env.nvidia_wheels) {
    EXPECT_EQ(w.cuda_major, std::optional<int>(13)) << w.package;
    ++cu13;
  }
  EXPECT_EQ(cu13, 3);

  EXPECT_EQ(cuda_major_from_record("nvidia/cufft/lib/libcufft.so.11,sha256=x,1\n"), std::nullopt);
  EXPECT_EQ(pinned_requirement("Requires-Dist: nvidia-cudnn-cu12>=9\n", "nvidia-cudnn-cu"), std::nullopt);
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

// (1) through the command line, with --root; and (8): -v writes debug logs on stderr only.
TEST(DoctorUserDefects, DeclaredGpuInATreeWithoutDriverFailsTheRunAndVerboseLogsToStderr) {
  TempTree t;
  t.write("etc/os-release", "ID=ubuntu\nVERSION_ID=\"24.04\"\nPRETTY_NAME=\"Ubuntu 24.04.1 LTS\"\n");
  auto r = testing::run_gpudoctor({"--root", t.str(), "--gpu", "NVIDIA GeForce RTX 3060", "--json", "-v"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  ASSERT_TRUE(r.json.is_object()) << r.out;
  bool found = false;
  for (const auto& f : r.json["findings"]) {
    if (f["id"] == "driver-missing-for-declared-gpu") found = f["severity"] == "error";
  }
  EXPECT_TRUE(found) << r.out;
  EXPECT_TRUE(contains(r.err, "gpudoctor: debug: probe python")) << r.err;
  EXPECT_FALSE(contains(r.out, "debug:"));
}

}  // namespace
}  // namespace gpudoctor
