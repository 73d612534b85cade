// Review 43C items 01, 03, 05, 09, 16: the pip nvidia-* wheels of an environment read against their
// RECORDs. Trees shaped as the real wheels install (RECORD paths of nvidia-cudnn-cu12 9.28.0.42,
// nvidia-cudnn-cu13 9.26.0.51, nvidia-cublas 13.4.1.3 / -cu12 12.9.3.13 and the runtimes, as the
// reviewer listed them in /tmp/rev43c's venvs); file sizes stand for the RECORD hashes.
#include <gtest/gtest.h>

#include <algorithm>

#include "check/checks.hpp"
#include "check/nvidia_wheel_checks.hpp"
#include "check_test_support.hpp"
#include "core/text.hpp"
#include "elf_image.hpp"
#include "kb_test_support.hpp"
#include "probe/inventory.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace nvidia_wheel_files_test {
namespace {

using testing::find;
using testing::ids;
using testing::TempTree;
using testing::view_of;

const std::string kEnv = "home/u/mixed/.venv";
const std::string kSp = kEnv + "/lib/python3.11/site-packages/";

struct RecordFile {
  std::string path;  ///< under site-packages
  int size;          ///< in the RECORD
};

/// A wheel's dist-info: METADATA and a RECORD listing these files.
void wheel(TempTree& t, const std::string& dist, const std::vector<RecordFile>& files, const std::string& extra = "") {
  std::string record;
  for (const RecordFile& f : files) record += f.path + ",sha256=x," + std::to_string(f.size) + "\n";
  t.write(kSp + dist + ".dist-info/METADATA", "Name: x\n");
  t.write(kSp + dist + ".dist-info/RECORD", record + extra + dist + ".dist-info/RECORD,,\n");
}

void file(TempTree& t, const std::string& path, int size) {
  t.write(kSp + path, std::string(static_cast<size_t>(size), 'x'));
}

void venv(TempTree& t) {
  t.write(kEnv + "/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.7\n");
}

/// torch 2.15.0+cu132 as PyPI's wheel: CUDA 13.2, cuDNN pinned to nvidia-cudnn-cu13 9.26.0.51.
void torch(TempTree& t) {
  t.write(kSp + "torch/version.py", "__version__ = '2.15.0+cu132'\ncuda: Optional[str] = '13.2'\nhip = None\n");
  t.write(kSp + "torch-2.15.0.dist-info/METADATA",
          "Metadata-Version: 2.4\nName: torch\nVersion: 2.15.0\n"
          "Requires-Dist: nvidia-cudnn-cu13==9.26.0.51; platform_system == \"Linux\"\n");
}

/// tensorflow[and-cuda] 2.21.0: CUDA 12.5.1, cuDNN 9.
void tensorflow(TempTree& t) {
  t.write(kSp + "tensorflow-2.21.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: tensorflow\nVersion: 2.21.0\n");
  t.write(kSp + "tensorflow/python/platform/build_info.py",
          "build_info = {'cuda_version': '12.5.1', 'cudnn_version': '9', 'is_cuda_build': True, "
          "'is_rocm_build': False}\n");
}

struct Doctor {
  Facts facts;
  std::vector<Finding> findings;
};

Doctor doctor(const TempTree& t, EnvMap env = {}) {
  env["VIRTUAL_ENV"] = "/" + kEnv;
  SystemView sys = view_of(t, Platform::linux, env);
  InventoryOptions inv;
  inv.declared_gpus = {"NVIDIA GeForce RTX 3060"};
  Doctor d;
  d.facts = collect_facts(sys, inv);
  d.findings = run_checks(d.facts, &testing::builtin_kb());
  return d;
}

const NvidiaWheel* wheel_of(const Facts& f, const std::string& package) {
  for (const auto& e : f.python_envs) {
    for (const auto& w : e.nvidia_wheels) {
      if (w.package == package) return &w;
    }
  }
  return nullptr;
}

const LibraryFacts* library_at(const Facts& f, const std::string& name, const std::string& dir_rel) {
  for (const auto& l : f.libraries) {
    if (l.name == name && l.path == "/" + kSp + dir_rel) return &l;
  }
  return nullptr;
}

std::vector<const Finding*> all_of(const std::vector<Finding>& findings, const std::string& id) {
  std::vector<const Finding*> out;
  for (const Finding& f : findings) {
    if (f.id == id) out.push_back(&f);
  }
  return out;
}

/// The two cuDNN wheels of #1: the cu12 one (TensorFlow's) installed first, torch's cu13 one over it.
/// `on_disk`: the sizes of the two shared files there now.
Doctor two_cudnn_wheels(int graph_size, int so_size) {
  TempTree t;
  venv(t);
  torch(t);
  tensorflow(t);
  wheel(t, "nvidia_cudnn_cu12-9.28.0.42",
        {{"nvidia/cudnn/lib/libcudnn.so.9", 100}, {"nvidia/cudnn/lib/libcudnn_graph.so.9", 200}});
  wheel(t, "nvidia_cudnn_cu13-9.26.0.51",
        {{"nvidia/cudnn/lib/libcudnn.so.9", 110}, {"nvidia/cudnn/lib/libcudnn_graph.so.9", 210}});
  file(t, "nvidia/cudnn/lib/libcudnn.so.9", so_size);
  file(t, "nvidia/cudnn/lib/libcudnn_graph.so.9", graph_size);
  return doctor(t);
}

// 01: the files are cu13's (their sizes are those of its RECORD): the copy is named 9.26.0.51 for
// CUDA 13, TensorFlow (CUDA 12) is warned, PyTorch is not, and no fix uninstalls the cu13 wheel.
TEST(NvidiaWheelFiles, TwoCudnnWheelsSharingFilesAreNamedByTheFilesOnDisk) {
  const Doctor d = two_cudnn_wheels(210, 110);
  const NvidiaWheel* cu12 = wheel_of(d.facts, "nvidia-cudnn-cu12");
  ASSERT_NE(cu12, nullptr);
  EXPECT_EQ(cu12->overwritten_by, "nvidia-cudnn-cu13");
  EXPECT_NE(cu12->overwritten_source.find("nvidia-cudnn-cu13's RECORD"), std::string::npos) << cu12->overwritten_source;
  EXPECT_EQ(wheel_of(d.facts, "nvidia-cudnn-cu13")->overwritten_by, "");
  const LibraryFacts* lib = library_at(d.facts, "cudnn", "nvidia/cudnn/lib");
  ASSERT_NE(lib, nullptr);
  ASSERT_TRUE(lib->version.has_value());
  EXPECT_EQ(lib->version->str(), "9.26.0.51");
  EXPECT_EQ(lib->cuda_major, std::optional<int>(13));
  const Finding* both = find(d.findings, "nvidia-wheels-overwrite");
  ASSERT_NE(both, nullptr) << ids(d.findings);
  EXPECT_NE(both->title.find("TensorFlow 2.21.0 gets the CUDA 13 build"), std::string::npos) << both->title;
  EXPECT_NE(both->fix.find("move TensorFlow 2.21.0 to an environment of its own"), std::string::npos) << both->fix;
  EXPECT_NE(both->fix.find("pip install --force-reinstall --no-deps \"nvidia-cudnn-cu13==9.26.0.51\""),
            std::string::npos)
      << both->fix;
  const auto mismatch = all_of(d.findings, "cudnn-cuda-major-mismatch");
  ASSERT_EQ(mismatch.size(), 1u) << ids(d.findings);
  EXPECT_TRUE(mismatch.front()->title.starts_with("TensorFlow")) << mismatch.front()->title;
  EXPECT_EQ(mismatch.front()->fix.find("pip uninstall -y nvidia-cudnn-cu13"), std::string::npos)
      << mismatch.front()->fix;
  EXPECT_NE(mismatch.front()->fix.find("environment of its own"), std::string::npos) << mismatch.front()->fix;
}

// Near misses: the cu12 wheel's files on disk (installed last) turn the verdict around; files that
// fit neither RECORD (or both wheels' sizes equal) decide nothing, as before.
TEST(NvidiaWheelFiles, SharedFilesOfTheOtherWheelOrOfNeitherDecideAccordingly) {
  const Doctor cu12 = two_cudnn_wheels(200, 100);
  EXPECT_EQ(wheel_of(cu12.facts, "nvidia-cudnn-cu13")->overwritten_by, "nvidia-cudnn-cu12");
  EXPECT_EQ(wheel_of(cu12.facts, "nvidia-cudnn-cu12")->overwritten_by, "");
  const LibraryFacts* lib = library_at(cu12.facts, "cudnn", "nvidia/cudnn/lib");
  ASSERT_NE(lib, nullptr);
  EXPECT_EQ(lib->version->str(), "9.28.0.42");
  EXPECT_EQ(lib->cuda_major, std::optional<int>(12));
  const auto mismatch = all_of(cu12.findings, "cudnn-cuda-major-mismatch");
  ASSERT_EQ(mismatch.size(), 1u) << ids(cu12.findings);
  EXPECT_TRUE(mismatch.front()->title.starts_with("PyTorch")) << mismatch.front()->title;

  const Doctor neither = two_cudnn_wheels(5, 6);
  EXPECT_EQ(wheel_of(neither.facts, "nvidia-cudnn-cu12")->overwritten_by, "");
  EXPECT_EQ(wheel_of(neither.facts, "nvidia-cudnn-cu13")->overwritten_by, "");
  EXPECT_EQ(find(neither.findings, "nvidia-wheels-overwrite"), nullptr) << ids(neither.findings);
}

// 05: one library entry per real directory, with that directory's wheel: the CUDA 13 cuBLAS and
// runtime in nvidia/cu13/lib, the CUDA 12 ones in nvidia/cublas/lib and nvidia/cuda_runtime/lib.
TEST(NvidiaWheelFiles, EachWheelDirectoryGetsItsOwnWheelsVersion) {
  TempTree t;
  venv(t);
  wheel(t, "nvidia_cublas-13.4.1.3",
        {{"nvidia/cu13/lib/libcublas.so.13", 10}, {"nvidia/cu13/lib/libcublasLt.so.13", 10}});
  wheel(t, "nvidia_cuda_runtime-13.2.86", {{"nvidia/cu13/lib/libcudart.so.13", 10}});
  wheel(t, "nvidia_cublas_cu12-12.9.3.13", {{"nvidia/cublas/lib/libcublas.so.12", 10}});
  wheel(t, "nvidia_cuda_runtime_cu12-12.9.79", {{"nvidia/cuda_runtime/lib/libcudart.so.12", 10}});
  for (const char* f :
       {"nvidia/cu13/lib/libcublas.so.13", "nvidia/cu13/lib/libcublasLt.so.13", "nvidia/cu13/lib/libcudart.so.13",
        "nvidia/cublas/lib/libcublas.so.12", "nvidia/cuda_runtime/lib/libcudart.so.12"}) {
    file(t, f, 10);
  }
  const Doctor d = doctor(t);
  struct Want {
    const char* name;
    const char* dir;
    const char* version;
    int major;
  };
  for (const Want& w :
       {Want{"cublas", "nvidia/cu13/lib", "13.4.1.3", 13}, Want{"cudart", "nvidia/cu13/lib", "13.2.86", 13},
        Want{"cublas", "nvidia/cublas/lib", "12.9.3.13", 12},
        Want{"cudart", "nvidia/cuda_runtime/lib", "12.9.79", 12}}) {
    const LibraryFacts* lib = library_at(d.facts, w.name, w.dir);
    ASSERT_NE(lib, nullptr) << w.name << " " << w.dir;
    ASSERT_TRUE(lib->version.has_value());
    EXPECT_EQ(lib->version->str(), w.version) << w.name << " " << w.dir;
    EXPECT_EQ(lib->cuda_major, std::optional<int>(w.major)) << w.name << " " << w.dir;
  }
  EXPECT_EQ(wheel_of(d.facts, "nvidia-cublas")->lib_dir, "/" + kSp + "nvidia/cu13/lib");
  // The two runtimes are two toolkits at their own folders (both were at nvidia/cuda_runtime).
  std::vector<std::string> runtimes;
  for (const ToolkitFacts& tk : d.facts.toolkits) {
    if (tk.kind == "pip-wheels" && tk.version) runtimes.push_back(tk.version->str() + " " + tk.path);
  }
  std::sort(runtimes.begin(), runtimes.end());
  EXPECT_EQ(runtimes,
            (std::vector<std::string>{"12.9.79 /" + kSp + "nvidia/cuda_runtime", "13.2.86 /" + kSp + "nvidia/cu13"}));
  EXPECT_EQ(find(d.findings, "nvidia-wheel-files-missing"), nullptr) << ids(d.findings);
}

// 16 and 03: a listed wheel whose RECORD files are gone, one sub-library or the whole directory.
// The fix restores them (a plain install is a no-op), and no other package moves (--no-deps).
TEST(NvidiaWheelFiles, WheelFilesGoneWhilePipListsTheWheelAreAnErrorWithAForcedReinstall) {
  TempTree t;
  venv(t);
  wheel(t, "nvidia_cudnn_cu13-9.26.0.51",
        {{"nvidia/cudnn/lib/libcudnn.so.9", 10},
         {"nvidia/cudnn/lib/libcudnn_engines_precompiled.so.9", 10},
         {"nvidia/cudnn/include/cudnn_version.h", 10}},
        // RECORD is untrusted: paths out of the wheel's tree are none of its libraries.
        "nvidia/cudnn/lib/../../../../etc/libx.so.1,sha256=x,1\n/etc/liby.so.1,,\n\"nvidia/cudnn/lib/q.so\",,\n");
  file(t, "nvidia/cudnn/lib/libcudnn.so.9", 10);
  const Doctor d = doctor(t);
  const NvidiaWheel* w = wheel_of(d.facts, "nvidia-cudnn-cu13");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->missing_files, (std::vector<std::string>{"nvidia/cudnn/lib/libcudnn_engines_precompiled.so.9"}));
  EXPECT_EQ(w->missing_count, std::optional<int>(1));
  const Finding* f = find(d.findings, "nvidia-wheel-files-missing");
  ASSERT_NE(f, nullptr) << ids(d.findings);
  EXPECT_EQ(f->severity, Severity::error);
  EXPECT_NE(f->detail.find("libcudnn_engines_precompiled.so.9"), std::string::npos) << f->detail;
  EXPECT_NE(f->fix.find("`pip install --force-reinstall --no-deps \"nvidia-cudnn-cu13==9.26.0.51\"`"),
            std::string::npos)
      << f->fix;

  // Near miss: every file there.
  file(t, "nvidia/cudnn/lib/libcudnn_engines_precompiled.so.9", 10);
  const Doctor whole = doctor(t);
  EXPECT_EQ(find(whole.findings, "nvidia-wheel-files-missing"), nullptr) << ids(whole.findings);
  EXPECT_EQ(wheel_of(whole.facts, "nvidia-cudnn-cu13")->missing_count, std::nullopt);
}

// Session 44's re-read: with several environments a bare `pip` is whichever is first on PATH and
// reinstalls into another one; the fix names this environment's own interpreter.
TEST(NvidiaWheelFiles, TheFixRunsThePipOfTheEnvironmentWhoseFilesAreGone) {
  TempTree t;
  venv(t);
  t.write(kEnv + "/bin/python3", "");
  wheel(t, "nvidia_cudnn_cu13-9.26.0.51",
        {{"nvidia/cudnn/lib/libcudnn.so.9", 10}, {"nvidia/cudnn/lib/libcudnn_ops.so.9", 10}});
  file(t, "nvidia/cudnn/lib/libcudnn.so.9", 10);
  const Doctor d = doctor(t);
  const Finding* f = find(d.findings, "nvidia-wheel-files-missing");
  ASSERT_NE(f, nullptr) << ids(d.findings);
  EXPECT_NE(f->fix.find("`/" + kEnv +
                        "/bin/python3 -m pip install --force-reinstall --no-deps "
                        "\"nvidia-cudnn-cu13==9.26.0.51\"`"),
            std::string::npos)
      << f->fix;
  // An interpreter path with a space stays one word in the shell.
  PythonEnvFacts spaced;
  spaced.interpreter = "/home/u/my envs/a/bin/python3";
  EXPECT_EQ(wheel_install_command(spaced, "nvidia-nccl-cu13", "==2.30.7"),
            "'/home/u/my envs/a/bin/python3' -m pip install \"nvidia-nccl-cu13==2.30.7\"");
}

// A wheel whose libraries sit in two folders: a missing file is named by its path in the wheel,
// not as "not in" the first library's folder (session 44's re-read).
TEST(NvidiaWheelFiles, AMissingFileIsNamedByItsPathInTheWheel) {
  TempTree t;
  venv(t);
  wheel(t, "nvidia_cuda_runtime-13.2.51",
        {{"nvidia/cu13/lib/libcudart.so.13", 10}, {"nvidia/cuda_runtime/lib/libcudart_extra.so.13", 10}});
  file(t, "nvidia/cu13/lib/libcudart.so.13", 10);
  const Doctor d = doctor(t);
  const Finding* f = find(d.findings, "nvidia-wheel-files-missing");
  ASSERT_NE(f, nullptr) << ids(d.findings);
  EXPECT_NE(f->detail.find("nvidia/cuda_runtime/lib/libcudart_extra.so.13"), std::string::npos) << f->detail;
  EXPECT_EQ(f->detail.find("is not in /" + kSp + "nvidia/cu13/lib"), std::string::npos) << f->detail;
}

// Bounded work on a hostile RECORD: thousands of library lines are cut at 256 checked.
TEST(NvidiaWheelFiles, AHugeRecordIsCheckedUpToItsBound) {
  TempTree t;
  venv(t);
  std::vector<RecordFile> many;
  for (int i = 0; i < 5000; ++i) many.push_back({"nvidia/nccl/lib/libnccl.so." + std::to_string(i), 1});
  wheel(t, "nvidia_nccl_cu12-2.32.3", many);
  const Doctor d = doctor(t);
  const NvidiaWheel* w = wheel_of(d.facts, "nvidia-nccl-cu12");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->missing_count, std::optional<int>(256));
  EXPECT_EQ(w->missing_files.size(), 16u);
}

// 03: the pinned wheel listed by pip: only a forced reinstall without its dependencies restores it.
TEST(NvidiaWheelFiles, InstallCommandForcesAListedWheelAndNamesAnUnlistedOne) {
  PythonEnvFacts env;
  env.nvidia_wheels.push_back(
      {.package = "nvidia-cudnn-cu13", .version = *Version::parse("9.26.0.51"), .library = "cudnn"});
  EXPECT_EQ(wheel_install_command(env, "nvidia-cudnn-cu13", "==9.26.0.51"),
            "pip install --force-reinstall --no-deps \"nvidia-cudnn-cu13==9.26.0.51\"");
  // Another version listed (an older minor over the pin): the plain install changes it.
  EXPECT_EQ(wheel_install_command(env, "nvidia-cudnn-cu13", "==9.28.0.42"),
            "pip install \"nvidia-cudnn-cu13==9.28.0.42\"");
  EXPECT_EQ(wheel_install_command(env, "nvidia-nccl-cu13", "==2.30.7", "python -m pip"),
            "python -m pip install \"nvidia-nccl-cu13==2.30.7\"");
}

// 03 through torch's own check: the cu13 wheel's directory gone, torch falls back to an older
// cuDNN on LD_LIBRARY_PATH; the fix must be the forced reinstall (a plain one is a no-op).
TEST(NvidiaWheelFiles, TorchCudnnTooOldWithItsWheelsFilesGoneIsFixedByAForcedReinstall) {
  TempTree t;
  venv(t);
  torch(t);
  wheel(t, "nvidia_cudnn_cu13-9.26.0.51", {{"nvidia/cudnn/lib/libcudnn.so.9", 10}});
  t.write("opt/cudnn/lib/libcudnn.so.9", "");
  t.write("opt/cudnn/include/cudnn_version.h",
          "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n");
  const Doctor d = doctor(t, {{"LD_LIBRARY_PATH", "/opt/cudnn/lib"}});
  const Finding* f = find(d.findings, "torch-cudnn-too-old");
  ASSERT_NE(f, nullptr) << ids(d.findings);
  EXPECT_NE(f->fix.find("pip install --force-reinstall --no-deps \"nvidia-cudnn-cu13==9.26.0.51\""), std::string::npos)
      << f->fix;
  EXPECT_NE(find(d.findings, "nvidia-wheel-files-missing"), nullptr) << ids(d.findings);
}

const FrameworkFacts* framework(const Facts& f, const std::string& name) {
  for (const auto& e : f.python_envs) {
    for (const auto& fw : e.frameworks) {
      if (fw.name == name) return &fw;
    }
  }
  return nullptr;
}

std::string load_path(const FrameworkFacts& fw, const std::string& soname) {
  for (const LibraryLoad& l : fw.loads) {
    if (l.soname == soname) return l.path;
  }
  return "";
}

// 09: CUDA 13's cuSPARSE keeps the soname libcusparse.so.12, in nvidia/cu13/lib, which no
// TensorFlow library searches: TensorFlow gets the cu12 wheel's copy; torch cu13 still its own.
TEST(NvidiaWheelFiles, EachFrameworkResolvesThroughTheDirectoriesItsLibrariesSearch) {
  for (bool elf : {false, true}) {
    TempTree t;
    venv(t);
    torch(t);
    tensorflow(t);
    wheel(t, "nvidia_cusparse-12.7.10.12", {{"nvidia/cu13/lib/libcusparse.so.12", 1}});
    wheel(t, "nvidia_cusparse_cu12-12.5.10.65", {{"nvidia/cusparse/lib/libcusparse.so.12", 1}});
    file(t, "nvidia/cu13/lib/libcusparse.so.12", 1);
    file(t, "nvidia/cusparse/lib/libcusparse.so.12", 1);
    if (elf) {
      // The RUNPATH and RPATH the real libraries carry (readelf -d, review 43C).
      t.write(kSp + "tensorflow/libtensorflow_framework.so.2",
              testing::library({"libc.so.6"}, "$ORIGIN/../nvidia/cusparse/lib:$ORIGIN/../nvidia/cudnn/lib", 29, {}));
      t.write(kSp + "torch/lib/libtorch_global_deps.so",
              testing::library({"libc.so.6"}, "$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN/../../nvidia/cu13/lib:$ORIGIN",
                               15, {}));
    }
    const Doctor d = doctor(t);
    const FrameworkFacts* tf = framework(d.facts, "tensorflow");
    const FrameworkFacts* pt = framework(d.facts, "torch");
    ASSERT_NE(tf, nullptr);
    ASSERT_NE(pt, nullptr);
    EXPECT_EQ(load_path(*tf, "libcusparse.so.12"), "/" + kSp + "nvidia/cusparse/lib/libcusparse.so.12") << elf;
    EXPECT_EQ(load_path(*pt, "libcusparse.so.12"), "/" + kSp + "nvidia/cu13/lib/libcusparse.so.12") << elf;
  }
}

}  // namespace
}  // namespace nvidia_wheel_files_test
}  // namespace gpudoctor
