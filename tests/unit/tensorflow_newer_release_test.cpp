// A TensorFlow newer than the knowledge base is still judged from its own files. From 2.22
// (tensorflow-2.22.0rc0 and tf-nightly 2.23.0.dev20261026 on PyPI) build_info.py keeps only
// is_cuda_build: no cuda_version, cudnn_version or architectures. The wheel still carries the
// CUDA and cuDNN headers it was built with (tensorflow/include/third_party/gpus/cuda/include/cuda.h:
// CUDA_VERSION 12050; .../gpus/cudnn/include/cudnn_version.h: 9.10.0; 2.21.0's say 12050 and 9.3.0,
// as its build_info and the table do). Before, such a release got "not in the knowledge base" and
// nothing else: "No issues found" on a machine where it falls back to the CPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "check/checks.hpp"
#include "check_test_support.hpp"
#include "kb/annotate_facts.hpp"
#include "kb_test_support.hpp"
#include "probe/inventory.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using testing::TempTree;
using testing::view_of;

struct NewTf {
  std::string version = "2.22.0rc0";
  bool headers = true;                ///< the wheel's bundled CUDA/cuDNN headers
  bool build_info_versions = false;   ///< build_info.py as up to 2.21 (cuda_version, cudnn_version)
  bool build_info_cuda_only = false;  ///< build_info.py with cuda_version and no cudnn_version
  std::string build_info;             ///< build_info.py as written, when not empty
  std::string dist = "tensorflow";
  bool and_cuda = true;  ///< its METADATA has the [and-cuda] extra
  std::string cuda_define = "12050";
  std::string cudnn_header = "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 10\n#define CUDNN_PATCHLEVEL 0\n";
  bool wheels = false;  ///< its [and-cuda] wheels installed
  std::string cudnn_wheel = "9.10.2.21";
  std::string driver = "580.95.05";
  std::string gpu = "NVIDIA GeForce RTX 3060";
  /// Its METADATA's Keras requirement, as 2.22.0rc0's (2.21.0: keras>=3.12.0); "" for none.
  std::string keras_requirement = "keras-nightly>=3.12.0.dev";
  std::string keras;  ///< the keras installed beside it; "" for none
};

struct NewTfRun {
  Facts facts;
  std::vector<Finding> findings;
};

NewTfRun doctor(const NewTf& c) {
  TempTree t;
  const std::string env = "home/u/tf/.venv";
  const std::string sp = env + "/lib/python3.12/site-packages/";
  t.write(env + "/pyvenv.cfg", "home = /usr/bin\nversion = 3.12.3\n");
  std::string dir = c.dist;
  std::replace(dir.begin(), dir.end(), '-', '_');
  t.write(sp + dir + "-" + c.version + ".dist-info/METADATA",
          "Metadata-Version: 2.1\nName: " + c.dist + "\nVersion: " + c.version + "\nRequires-Python: >=3.10\n" +
              (c.keras_requirement.empty() ? "" : "Requires-Dist: " + c.keras_requirement + "\n") +
              (c.and_cuda ? "Provides-Extra: and-cuda\n"
                            "Requires-Dist: nvidia-cuda-runtime-cu12<13.0,>=12.5.82; extra == \"and-cuda\"\n"
                            "Requires-Dist: nvidia-cudnn-cu12<10.0,>=9.10.2.21; extra == \"and-cuda\"\n"
                          : ""));
  t.write(
      sp + "tensorflow/python/platform/build_info.py",
      !c.build_info.empty()   ? c.build_info
      : c.build_info_versions ? "build_info = {'cuda_version': '12.5.1', 'cudnn_version': '9', 'is_cuda_build': True}\n"
      : c.build_info_cuda_only ? "build_info = {'cuda_version': '12.5.1', 'is_cuda_build': True}\n"
                               : "import collections\n\nbuild_info = collections.OrderedDict([('is_cuda_build', True), "
                                 "('is_rocm_build', False), ('is_tensorrt_build', False)])\n");
  if (c.headers) {
    // CUDA_VERSION sits past the first 13 KB of the real 1 MB cuda.h.
    t.write(sp + "tensorflow/include/third_party/gpus/cuda/include/cuda.h",
            "/*\n" + std::string(14000, '*') + "\n*/\n#define CUDA_VERSION " + c.cuda_define + "\n" +
                std::string(300000, ' ') + "\n");
    t.write(sp + "tensorflow/include/third_party/gpus/cudnn/include/cudnn_version.h", c.cudnn_header);
  }
  if (c.wheels) {
    for (const char* f : {"cuda_runtime/lib/libcudart.so.12", "cublas/lib/libcublas.so.12",
                          "cublas/lib/libcublasLt.so.12", "cufft/lib/libcufft.so.11", "cusolver/lib/libcusolver.so.11",
                          "cusparse/lib/libcusparse.so.12", "cudnn/lib/libcudnn.so.9"}) {
      t.write(sp + "nvidia/" + f, "");
    }
    t.write(sp + "nvidia_cudnn_cu12-" + c.cudnn_wheel + ".dist-info/METADATA",
            "Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\nVersion: " + c.cudnn_wheel + "\n");
    t.write(sp + "nvidia_cuda_runtime_cu12-12.5.82.dist-info/METADATA",
            "Metadata-Version: 2.1\nName: nvidia-cuda-runtime-cu12\nVersion: 12.5.82\n");
  }
  if (!c.keras.empty()) {
    t.write(sp + "keras-" + c.keras + ".dist-info/METADATA",
            "Metadata-Version: 2.1\nName: keras\nVersion: " + c.keras + "\n");
  }
  t.write("proc/driver/nvidia/version",
          "NVRM version: NVIDIA UNIX x86_64 Kernel Module  " + c.driver + "  Release Build  (dvs-builder@U16)\n");
  EnvMap vars{{"VIRTUAL_ENV", "/" + env}};
  SystemView sys = view_of(t, Platform::linux, vars);
  InventoryOptions inv;
  inv.declared_gpus = {c.gpu};
  NewTfRun r;
  r.facts = collect_facts(sys, inv);
  annotate_facts(r.facts, testing::builtin_kb());  // the declared GPU's compute capability, as the CLI does
  r.findings = run_checks(r.facts, &testing::builtin_kb());
  return r;
}

const FrameworkFacts* tensorflow(const Facts& f) {
  for (const auto& e : f.python_envs) {
    for (const auto& fw : e.frameworks) {
      if (fw.name == "tensorflow") return &fw;
    }
  }
  return nullptr;
}

TEST(TensorflowNewerRelease, ItsBundledHeadersSayWhichCudaAndCudnnItWasBuiltWith) {
  const NewTfRun r = doctor({});
  const FrameworkFacts* tf = tensorflow(r.facts);
  ASSERT_NE(tf, nullptr);
  ASSERT_TRUE(tf->cuda_version.has_value());
  EXPECT_EQ(tf->cuda_version->str(), "12.5");
  ASSERT_TRUE(tf->cudnn_version.has_value());
  EXPECT_EQ(tf->cudnn_version->str(), "9.10.0");
  EXPECT_EQ(tf->variant, "cuda12");
  EXPECT_NE(tf->evidence.find("cuda.h"), std::string::npos) << tf->evidence;
  EXPECT_NE(tf->evidence.find("cudnn_version.h"), std::string::npos) << tf->evidence;
  // So the libraries it opens are resolved as for any build.
  std::vector<std::string> sonames;
  for (const LibraryLoad& l : tf->loads) sonames.push_back(l.soname);
  EXPECT_NE(std::find(sonames.begin(), sonames.end(), "libcudart.so.12"), sonames.end());
  EXPECT_NE(std::find(sonames.begin(), sonames.end(), "libcudnn.so.9"), sonames.end());
}

// build_info.py's versions win; a cuDNN it gives as a major alone takes the header's minor.
TEST(TensorflowNewerRelease, BuildInfoStillWinsWhereItHasTheVersions) {
  const NewTfRun r = doctor({.version = "2.21.0", .build_info_versions = true});
  const FrameworkFacts* tf = tensorflow(r.facts);
  ASSERT_NE(tf, nullptr);
  EXPECT_EQ(tf->cuda_version->str(), "12.5.1");
  EXPECT_EQ(tf->cudnn_version->str(), "9.10.0");
  EXPECT_EQ(tf->evidence.find("cuda.h"), std::string::npos) << tf->evidence;
  EXPECT_NE(tf->evidence.find("cuDNN 9.10.0 from"), std::string::npos) << tf->evidence;
}

TEST(TensorflowNewerRelease, AHeaderFillsOnlyWhatBuildInfoLacks) {
  const NewTfRun r = doctor({.build_info_cuda_only = true});
  const FrameworkFacts* tf = tensorflow(r.facts);
  ASSERT_NE(tf, nullptr);
  EXPECT_EQ(tf->cuda_version->str(), "12.5.1");
  ASSERT_TRUE(tf->cudnn_version.has_value());
  EXPECT_EQ(tf->cudnn_version->str(), "9.10.0");
  EXPECT_EQ(tf->evidence.find("cuda.h"), std::string::npos) << tf->evidence;
}

// tf-nightly's extra is its own: `tensorflow[and-cuda]` would install a second TensorFlow.
TEST(TensorflowNewerRelease, TheFixNamesTheDistributionInstalled) {
  const NewTfRun r = doctor({.version = "2.23.0.dev20261026", .dist = "tf-nightly"});
  const Finding* missing = testing::find(r.findings, "framework-cuda-libraries-missing");
  ASSERT_NE(missing, nullptr) << testing::ids(r.findings);
  EXPECT_NE(missing->fix.find("pip install \"tf-nightly[and-cuda]==2.23.0.dev20261026\""), std::string::npos)
      << missing->fix;
}

TEST(TensorflowNewerRelease, WithoutItsCudaLibrariesItIsAnErrorNotAllFine) {
  const NewTfRun r = doctor({});
  const Finding* missing = testing::find(r.findings, "framework-cuda-libraries-missing");
  ASSERT_NE(missing, nullptr) << testing::ids(r.findings);
  EXPECT_EQ(missing->severity, Severity::error);
  EXPECT_NE(missing->fix.find("pip install \"tensorflow[and-cuda]==2.22.0rc0\""), std::string::npos) << missing->fix;
  EXPECT_NE(missing->detail.find("CUDA 12.5"), std::string::npos) << missing->detail;
  // The release is still named as unknown to the tables, and says what was checked without them.
  const Finding* unknown = testing::find(r.findings, "framework-version-unknown");
  ASSERT_NE(unknown, nullptr) << testing::ids(r.findings);
  EXPECT_EQ(unknown->severity, Severity::info);
  EXPECT_NE(unknown->detail.find("cuda.h"), std::string::npos) << unknown->detail;
}

TEST(TensorflowNewerRelease, WithItsWheelsNothingIsWrong) {
  const NewTfRun r = doctor({.wheels = true});
  // The fake machine's own gaps (no libcuda.so.1 file) are not this check's business.
  for (const Finding& f : r.findings) {
    if (f.area != FindingArea::python) continue;
    EXPECT_NE(f.severity, Severity::error) << f.id << ": " << f.title;
    EXPECT_NE(f.severity, Severity::warning) << f.id << ": " << f.title;
  }
  EXPECT_NE(testing::find(r.findings, "framework-version-unknown"), nullptr) << testing::ids(r.findings);
}

// TensorFlow refuses a cuDNN of the same major and an older minor than it was compiled with
// ("Loaded runtime CuDNN library: 9.3.0 but source was compiled with: 9.10.0").
TEST(TensorflowNewerRelease, AnOlderCudnnMinorThanItsHeadersIsAnError) {
  const NewTfRun r = doctor({.wheels = true, .cudnn_wheel = "9.3.0.75"});
  const Finding* f = testing::find(r.findings, "tf-cudnn-mismatch");
  ASSERT_NE(f, nullptr) << testing::ids(r.findings);
  EXPECT_NE(f->title.find("9.10"), std::string::npos) << f->title;
  EXPECT_NE(f->title.find("9.3"), std::string::npos) << f->title;
}

TEST(TensorflowNewerRelease, ADriverBelowItsCudaFamilyIsAnError) {
  const NewTfRun r = doctor({.wheels = true, .driver = "520.61.05"});
  const Finding* f = testing::find(r.findings, "driver-too-old-for-framework");
  ASSERT_NE(f, nullptr) << testing::ids(r.findings);
  EXPECT_NE(f->detail.find("CUDA 12.5"), std::string::npos) << f->detail;
}

// Nothing to read the build's CUDA from: said, not passed over.
TEST(TensorflowNewerRelease, WithoutHeadersOrVersionsTheUnknownIsSaid) {
  const NewTfRun r = doctor({.headers = false, .and_cuda = false});
  const FrameworkFacts* tf = tensorflow(r.facts);
  ASSERT_NE(tf, nullptr);
  EXPECT_FALSE(tf->cuda_version.has_value());
  const Finding* unknown = testing::find(r.findings, "framework-version-unknown");
  ASSERT_NE(unknown, nullptr) << testing::ids(r.findings);
  EXPECT_NE(unknown->detail.find("not checked"), std::string::npos) << unknown->detail;
}

// tf-nightly 2.22.0.dev20260204's build_info.py says cuDNN "9"; its cudnn_version.h says 9.3.0,
// and it refuses a 9.1 (torch 2.4's nvidia-cudnn-cu12 9.1.0.70) as any 9.3 build does.
TEST(TensorflowNewerRelease, ACudnnMajorFromBuildInfoTakesItsMinorFromTheHeader) {
  const NewTfRun r =
      doctor({.version = "2.22.0.dev20260204",
              .build_info_versions = true,
              .dist = "tf-nightly",
              .cudnn_header = "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 3\n#define CUDNN_PATCHLEVEL 0\n",
              .wheels = true,
              .cudnn_wheel = "9.1.0.70"});
  const FrameworkFacts* tf = tensorflow(r.facts);
  ASSERT_NE(tf, nullptr);
  EXPECT_EQ(tf->cuda_version->str(), "12.5.1");
  EXPECT_EQ(tf->cudnn_version->str(), "9.3.0");
  const Finding* f = testing::find(r.findings, "tf-cudnn-mismatch");
  ASSERT_NE(f, nullptr) << testing::ids(r.findings);
  EXPECT_NE(f->title.find("needs cuDNN 9.3.0, found 9.1"), std::string::npos) << f->title;
  // A range in its METADATA, not a pin: no "tested version" is claimed.
  EXPECT_EQ(f->fix.find("tested"), std::string::npos) << f->fix;
  // A header of another major than build_info.py's is not taken.
  const NewTfRun other =
      doctor({.build_info_versions = true,
              .cudnn_header = "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n"});
  EXPECT_EQ(tensorflow(other.facts)->cudnn_version->str(), "9");
}

// An image that dropped tensorflow/include (443 MB of 2.22's 2.1 GB): its METADATA's [and-cuda]
// requirements still say CUDA 12 (nvidia-cuda-runtime-cu12>=12.5.82) and cuDNN >= 9.10.2.21.
TEST(TensorflowNewerRelease, WithoutItsHeadersItsAndCudaRequirementsSayWhich) {
  const NewTfRun r = doctor({.headers = false});
  const FrameworkFacts* tf = tensorflow(r.facts);
  ASSERT_NE(tf, nullptr);
  ASSERT_TRUE(tf->cuda_version.has_value());
  EXPECT_EQ(tf->cuda_version->str(), "12.5");
  ASSERT_TRUE(tf->cudnn_version.has_value());
  EXPECT_EQ(tf->cudnn_version->str(), "9.10.2.21");
  EXPECT_NE(tf->evidence.find("METADATA"), std::string::npos) << tf->evidence;
  const Finding* missing = testing::find(r.findings, "framework-cuda-libraries-missing");
  ASSERT_NE(missing, nullptr) << testing::ids(r.findings);
  EXPECT_EQ(missing->severity, Severity::error);
}

// A build for CUDA 13 opens the CUDA 13 toolkit's sonames (libcudart.so.13, libcufft.so.12...).
TEST(TensorflowNewerRelease, ACuda13BuildIsCheckedForTheCuda13Libraries) {
  const NewTfRun r = doctor({.cuda_define = "13000"});
  const Finding* missing = testing::find(r.findings, "framework-cuda-libraries-missing");
  ASSERT_NE(missing, nullptr) << testing::ids(r.findings);
  EXPECT_NE(missing->title.find("libcudart.so.13"), std::string::npos) << missing->title;
}

// An old release the tables lack (1.14, CUDA 10.0): no soname list for its CUDA, so the
// libraries are judged as for a known release without one, and the note claims no more.
TEST(TensorflowNewerRelease, WithoutASonameListTheNoteClaimsNoLibraryCheck) {
  const NewTfRun r = doctor({.version = "1.14.0",
                             .headers = false,
                             .build_info = "build_info = {'cuda_version': '10.0', 'cudnn_version': '7', "
                                           "'is_cuda_build': True}\n",
                             .dist = "tensorflow-gpu",
                             .and_cuda = false});
  const Finding* unknown = testing::find(r.findings, "framework-version-unknown");
  ASSERT_NE(unknown, nullptr) << testing::ids(r.findings);
  EXPECT_EQ(unknown->detail.find("the CUDA libraries it opens"), std::string::npos) << unknown->detail;
  EXPECT_NE(testing::find(r.findings, "tf-cuda-libs-missing"), nullptr) << testing::ids(r.findings);
}

// 2.22.0rc0 lists no architectures; its binaries hold sm_60/70/80/89/90 and compute_90, as the
// recorded 2.20 and 2.21 wheels of the same CUDA major do. A GTX 970 (5.2) is then doubtful.
TEST(TensorflowNewerRelease, WithoutAnArchitectureListTheSameCudaMajorsRecordedOneDecides) {
  const NewTfRun old_card = doctor({.wheels = true, .gpu = "NVIDIA GeForce GTX 970"});
  const Finding* f = testing::find(old_card.findings, "gpu-arch-doubtful");
  ASSERT_NE(f, nullptr) << testing::ids(old_card.findings);
  EXPECT_NE(f->title.find("GTX 970"), std::string::npos) << f->title;
  const NewTfRun new_card = doctor({.wheels = true});
  EXPECT_EQ(testing::find(new_card.findings, "gpu-arch-doubtful"), nullptr) << testing::ids(new_card.findings);
}

// tensorflow-rocm installs the same tensorflow/ package, built for AMD GPUs: on an NVIDIA
// machine it runs on the CPU. It was not recognised at all, so nothing was said.
TEST(TensorflowNewerRelease, ARocmBuildIsRecognisedAndCannotUseAnNvidiaGpu) {
  const NewTfRun r = doctor({.version = "2.14.0.600",
                             .headers = false,
                             .build_info = "build_info = {'is_cuda_build': False, 'is_rocm_build': True, "
                                           "'rocm_version': '6.0'}\n",
                             .dist = "tensorflow-rocm",
                             .and_cuda = false});
  const FrameworkFacts* tf = tensorflow(r.facts);
  ASSERT_NE(tf, nullptr);
  EXPECT_EQ(tf->variant, "rocm");
  const Finding* f = testing::find(r.findings, "framework-cpu-only");
  ASSERT_NE(f, nullptr) << testing::ids(r.findings);
  EXPECT_EQ(f->severity, Severity::error);
}

// Keras is judged by the release's own METADATA where the tables have no row for it: TensorFlow
// 2.16 on is built on Keras 3 (tf.keras is Keras 3), so Keras 2 beside it breaks tf.keras.
TEST(TensorflowNewerRelease, KerasIsCheckedAgainstItsOwnRequirement) {
  const NewTfRun old = doctor({.wheels = true, .keras = "2.15.0"});
  const Finding* f = testing::find(old.findings, "keras-mismatch");
  ASSERT_NE(f, nullptr) << testing::ids(old.findings);
  EXPECT_EQ(f->severity, Severity::error);
  EXPECT_NE(f->title.find("keras-nightly>=3.12.0.dev"), std::string::npos) << f->title;
  EXPECT_NE(f->source.find("METADATA"), std::string::npos) << f->source;
  EXPECT_NE(f->fix.find("pip install -U \"keras>=3.12.0.dev\""), std::string::npos) << f->fix;
  // An older Keras 3: tf.keras still imports, pip check does not pass.
  const NewTfRun older3 = doctor({.wheels = true, .keras = "3.10.0"});
  const Finding* w = testing::find(older3.findings, "keras-mismatch");
  ASSERT_NE(w, nullptr) << testing::ids(older3.findings);
  EXPECT_EQ(w->severity, Severity::warning);
  // The Keras it asks for, released or nightly: nothing to say.
  const NewTfRun fits = doctor({.wheels = true, .keras = "3.15.1"});
  EXPECT_EQ(testing::find(fits.findings, "keras-mismatch"), nullptr) << testing::ids(fits.findings);
  // And the note says Keras was checked.
  const Finding* unknown = testing::find(old.findings, "framework-version-unknown");
  ASSERT_NE(unknown, nullptr);
  EXPECT_NE(unknown->detail.find("Keras"), std::string::npos) << unknown->detail;
}

}  // namespace
}  // namespace gpudoctor
