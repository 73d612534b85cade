// What goes wrong before the GPU is ever touched: pip cannot find the build asked for, cannot
// build it or runs out of disk, the framework's binary needs CPU instructions the machine lacks,
// or a compiled module meets a NumPy of another ABI.
#include <gtest/gtest.h>

#include <string>

#include "core/text.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::builtin_kb;
using testing::builtin_matcher;
using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

// tensorflow/core/platform/cpu_feature_guard.cc (CheckFeatureOrDie) aborts with this line when
// the binary was built for an instruction set the CPU (or the VM, or Rosetta) does not offer.
TEST(ExplainInstall, TensorflowBuiltForAvxOnACpuWithoutIt) {
  const auto r = explain_no_facts(
      "2019-04-20 17:20:03.915545: F tensorflow/core/platform/cpu_feature_guard.cc:37] The TensorFlow library was "
      "compiled to use AVX instructions, but these aren't available on your machine.\n"
      "Aborted (core dumped)\n");
  ASSERT_TRUE(leads_with(r, "tf-cpu-instructions-missing"));
  EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
  EXPECT_NE(r.matches.front().cause.find("AVX"), std::string::npos) << r.matches.front().cause;
  EXPECT_FALSE(r.matches.front().harmless);
}

TEST(ExplainInstall, IllegalInstructionAloneIsAHedgedCpuAnswer) {
  const auto r = explain_no_facts(">>> import tensorflow as tf\nIllegal instruction (core dumped)\n");
  ASSERT_TRUE(leads_with(r, "illegal-instruction-cpu"));
  EXPECT_EQ(find_rule(r, "tf-cpu-instructions-missing"), nullptr);
}

// "+cu118" is a local version label: such builds exist only on download.pytorch.org, never on
// PyPI, so pip without that index cannot find them whatever the Python version.
TEST(ExplainInstall, ALocalCudaVersionIsOnlyOnPytorchsOwnIndex) {
  const auto r = explain_no_facts(
      "ERROR: Could not find a version that satisfies the requirement torch==2.0.1+cu118 (from versions: 2.2.0, "
      "2.2.1, 2.3.0)\nERROR: No matching distribution found for torch==2.0.1+cu118\n");
  ASSERT_TRUE(leads_with(r, "pip-pytorch-local-version-not-on-pypi"));
  EXPECT_NE(r.matches.front().fix.find("https://download.pytorch.org/whl/cu118"), std::string::npos)
      << r.matches.front().fix;
  const auto plain = explain_no_facts("ERROR: No matching distribution found for torch==1.13.1\n");
  EXPECT_EQ(find_rule(plain, "pip-pytorch-local-version-not-on-pypi"), nullptr);
}

// conda's __cuda virtual package exists only where conda could load libcuda and cuInit succeeded
// (conda/plugins/virtual_packages/cuda.py); a CUDA build then cannot be solved. libsolv words it
// "nothing provides %s needed by %s" (src/problems.c), libmamba's tree "..., which is missing on
// the system" (libmamba/src/solver/problems_graph.cpp).
TEST(ExplainInstall, CondaWithoutTheCudaVirtualPackageNamesTheDriverAndTheOverride) {
  const auto solv = explain_no_facts(
      "Could not solve for environment specs\n"
      "Encountered problems while solving:\n"
      "  - nothing provides __cuda needed by tensorflow-2.10.0-cuda112py310he87a039_0\n");
  ASSERT_TRUE(leads_with(solv, "conda-cuda-virtual-package-missing"));
  EXPECT_EQ(solv.matches.front().category, "driver-missing");
  EXPECT_NE(solv.matches.front().cause.find("tensorflow-2.10.0-cuda112py310he87a039_0"), std::string::npos);
  EXPECT_NE(solv.matches.front().fix.find("CONDA_OVERRIDE_CUDA=12.4"), std::string::npos);

  const auto tree = explain_no_facts(
      "error    libmamba Could not solve for environment specs\n"
      "    The following packages are incompatible\n"
      "    \u251c\u2500 pytorch 2.0.1 is installable with the potential options\n"
      "    \u2502  \u2514\u2500 pytorch 2.0.1 would require\n"
      "    \u2502     \u2514\u2500 __cuda >=11.8 , which is missing on the system;\n"
      "critical libmamba Could not solve for environment specs\n");
  ASSERT_TRUE(leads_with(tree, "conda-cuda-virtual-package-missing"));
  EXPECT_NE(tree.matches.front().cause.find("(__cuda >=11.8)"), std::string::npos) << tree.matches.front().cause;
}

TEST(ExplainInstall, CondaMissingCudaWithADriverLoadedIsADriverTooOld) {
  const std::string log = "  - nothing provides __cuda >=12 needed by pytorch-2.5.1-cuda126_py312h1763f6d_303\n";
  Facts f;
  f.platform = Platform::linux;
  f.driver.nvidia_module_loaded = true;
  const auto r = explain_text(testing::builtin_matcher(), log, ExplainMachine{Platform::linux, &f});
  ASSERT_TRUE(leads_with(r, "conda-cuda-virtual-package-missing/driver-too-old"));
  EXPECT_EQ(r.matches.front().category, "driver-too-old");
  EXPECT_NE(r.matches.front().cause.find("(__cuda >=12)"), std::string::npos) << r.matches.front().cause;
}

// pip's summaries of a failed source build (operations/build/wheel.py, exceptions/build.py,
// commands/install.py): a pointer to the build output, never ahead of the error in it.
TEST(ExplainInstall, PipBuildFailureIsAPointerBelowTheBuildsError) {
  for (const char* line :
       {"ERROR: Failed building wheel for mamba-ssm",
        "ERROR: Failed to build installable wheels for some pyproject.toml based projects "
        "(causal-conv1d)",
        "  \xC3\x97 python setup.py egg_info did not run successfully.",
        "  \xE2\x95\xB0\xE2\x94\x80\xE2\x96\xB6 Call to `setuptools.build_meta:__legacy__.build_wheel` "
        "failed (exit status: 1)"}) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "pip-wheel-build-failed")) << line;
    EXPECT_EQ(r.matches.front().category, "other");
  }
  const auto r = explain_no_facts(
      "      /tmp/pip-install-x/mamba-ssm/csrc/selective_scan.cpp:6:10: fatal error: cuda.h: No such file or "
      "directory\n"
      "      error: command '/usr/bin/g++' failed with exit code 1\n"
      "  ERROR: Failed building wheel for mamba-ssm\n");
  ASSERT_TRUE(leads_with(r, "cuda-header-missing"));
  const ExplainMatch* pip = find_rule(r, "pip-wheel-build-failed");
  ASSERT_NE(pip, nullptr);
  EXPECT_TRUE(contains(pip->cause, "mamba-ssm")) << pip->cause;
}

// pip's OSError report (commands/install.py create_os_error_message; "EnvironmentError" before
// 21.0): where pip writes, TMPDIR and the cache.
TEST(ExplainInstall, PipOutOfDiskSpaceNamesTmpdirAndTheCache) {
  for (const char* line : {
           "ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device",
           "ERROR: Could not install packages due to an EnvironmentError: [Errno 28] No space left on device",
       }) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "pip-no-space-left")) << line;
    EXPECT_EQ(r.matches.size(), 1u);  // the generic answer is superseded on pip's line
    EXPECT_TRUE(contains(r.matches.front().fix, "TMPDIR=")) << r.matches.front().fix;
    EXPECT_TRUE(contains(r.matches.front().fix, "--no-cache-dir")) << r.matches.front().fix;
  }
  const auto other = explain_no_facts("OSError: [Errno 28] No space left on device: '/data/ckpt/step_900.pt'\n");
  ASSERT_TRUE(leads_with(other, "no-space-left-on-device"));
  EXPECT_TRUE(contains(other.matches.front().cause, "/data/ckpt/step_900.pt")) << other.matches.front().cause;
}

// NumPy 2.x's numpy/core/_multiarray_umath.py prints this (wrapped, its version on the second
// line) when a module built for 1.x asks for _ARRAY_API; the 1.x headers then raise
// "_ARRAY_API not found" and "numpy.core.multiarray failed to import". An OpenCV import.
TEST(ExplainInstall, NumPy2UnderAModuleBuiltForNumPy1) {
  const auto r = explain_no_facts(
      "\n"
      "A module that was compiled using NumPy 1.x cannot be run in\n"
      "NumPy 2.1.3 as it may crash. To support both 1.x and 2.x\n"
      "versions of NumPy, modules must be compiled with NumPy 2.0.\n"
      "Some module may need to rebuild instead e.g. with 'pybind11>=2.12'.\n"
      "\n"
      "If you are a user of the module, the easiest solution will be to\n"
      "downgrade to 'numpy<2' or try to upgrade the affected module.\n"
      "We expect that some modules will need time to support NumPy 2.\n"
      "\n"
      "Traceback (most recent call last):  File \"/app/run.py\", line 3, in <module>\n"
      "    import cv2\n"
      "AttributeError: _ARRAY_API not found\n"
      "ImportError: numpy.core.multiarray failed to import\n");
  ASSERT_TRUE(leads_with(r, "numpy2-module-built-for-numpy1"));
  EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
  EXPECT_TRUE(contains(r.matches.front().cause, "NumPy 2.1.3")) << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().fix, "pip install \"numpy<2\"")) << r.matches.front().fix;
  // Each line alone, and the message pasted as one line.
  for (const char* line : {"AttributeError: _ARRAY_API not found",
                           "A module that was compiled using NumPy 1.x cannot be run in NumPy 2.0.0 as it may crash. "
                           "To support both 1.x and 2.x versions of NumPy, modules must be compiled with NumPy 2.0.",
                           "UserWarning: Failed to initialize NumPy: _ARRAY_API not found (Triggered internally at "
                           "../torch/csrc/utils/tensor_numpy.cpp:84.)",
                           // Cython's size check: PyArray_Descr is 96 bytes in 1.x's headers, 88 in 2.x.
                           "ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 96 "
                           "from C header, got 88 from PyObject"}) {
    const auto one = explain_no_facts(line);
    ASSERT_TRUE(leads_with(one, "numpy2-module-built-for-numpy1")) << line;
    EXPECT_EQ(find_rule(one, "torch-numpy-unavailable"), nullptr) << line;
  }
  const auto multiarray = explain_no_facts("ImportError: numpy.core.multiarray failed to import\n");
  ASSERT_TRUE(leads_with(multiarray, "numpy-c-api-import-failed"));
  EXPECT_TRUE(contains(multiarray.matches.front().fix, "numpy<2")) << multiarray.matches.front().fix;
  // NumPy 1.15's harmless RuntimeWarning of the same words (no "from C header") is not this.
  EXPECT_EQ(find_rule(explain_no_facts("RuntimeWarning: numpy.dtype size changed, may indicate binary "
                                       "incompatibility. Expected 96, got 88"),
                      "numpy2-module-built-for-numpy1"),
            nullptr);
  // NumPy 2's headers spell numpy._core: that module was built for NumPy 2.
  EXPECT_TRUE(leads_with(explain_no_facts("ImportError: numpy._core.multiarray failed to import"),
                         "numpy2-headers-import-failed"));
}

// The headers' C API version check: the module was built with a newer NumPy than is installed.
TEST(ExplainInstall, NumPyOlderThanTheModuleIsAnUpgrade) {
  const auto r = explain_no_facts(
      "/opt/conda/lib/python3.8/site-packages/torch/_masked/__init__.py:223: UserWarning: Failed to initialize "
      "NumPy: module compiled against API version 0xf but this version of numpy is 0xe (Triggered internally at  "
      "/opt/pytorch/pytorch/torch/csrc/utils/tensor_numpy.cpp:68.)\n"
      "RuntimeError: Numpy is not available\n");
  ASSERT_TRUE(leads_with(r, "numpy-older-than-module"));
  EXPECT_TRUE(contains(r.matches.front().fix, "pip install -U numpy")) << r.matches.front().fix;
  const ExplainMatch* torch = find_rule(r, "torch-numpy-unavailable");
  ASSERT_NE(torch, nullptr);  // "Numpy is not available" is another line: its answer follows
  EXPECT_LT(torch->score, r.matches.front().score);

  const auto alone = explain_no_facts("RuntimeError: Numpy is not available\n");
  ASSERT_TRUE(leads_with(alone, "torch-numpy-unavailable"));
  EXPECT_TRUE(contains(alone.matches.front().fix, "numpy<2")) << alone.matches.front().fix;
}

// conda env create's wording for a pin no channel has (environment.yml).
TEST(ExplainInstall, CondaEnvCreateResolvePackageNotFound) {
  const auto r = explain_no_facts(
      "Collecting package metadata (repodata.json): done\n"
      "Solving environment: failed\n\n"
      "ResolvePackageNotFound: \n"
      "  - cudatoolkit=10.1\n");
  EXPECT_TRUE(leads_with(r, "conda-package-unavailable"));
}

// libstdc++'s own header failing under nvcc: nvcc 11.5's front end with gcc 11's headers.
TEST(ExplainInstall, LibstdcxxHeaderRejectedByNvccIsTheToolkitAndGccPair) {
  const auto r = explain_no_facts(
      "/usr/include/c++/11/bits/std_function.h:435:145: error: parameter packs not expanded with ‘...’:\n"
      "  435 |         function(_Functor&& __f)\n"
      "/usr/include/c++/11/bits/std_function.h:435:145: note:         ‘_ArgTypes’\n");
  ASSERT_TRUE(leads_with(r, "nvcc-libstdcxx-headers-rejected"));
  EXPECT_TRUE(contains(r.matches.front().fix, "-ccbin g++-10")) << r.matches.front().fix;
  // The same error in the user's own code is a C++ error, not this.
  EXPECT_EQ(find_rule(explain_no_facts("src/kernels.cu:12:7: error: parameter packs not expanded with '...':\n"),
                      "nvcc-libstdcxx-headers-rejected"),
            nullptr);
}

// CMakeDetermineCUDACompiler.cmake's messages when nvcc is not found or does not work.
TEST(ExplainInstall, CmakeWithoutAWorkingNvccSaysHowToPointAtIt) {
  const auto r = explain_no_facts(
      "-- The CUDA compiler identification is unknown\n"
      "CMake Error at /usr/share/cmake-3.23/Modules/CMakeDetermineCUDACompiler.cmake:633 (message):\n"
      "  Failed to detect a default CUDA architecture.\n");
  ASSERT_TRUE(leads_with(r, "cmake-cuda-compiler-not-found"));
  EXPECT_TRUE(contains(r.matches.front().fix, "CMAKE_CUDA_COMPILER")) << r.matches.front().fix;
  EXPECT_TRUE(
      leads_with(explain_no_facts("No CMAKE_CUDA_COMPILER could be found.\n"), "cmake-cuda-compiler-not-found"));
}

TEST(ExplainInstall, NvccWithoutClExeIsTheVisualStudioEnvironment) {
  const auto r = explain_no_facts(
      "pycuda.driver.CompileError: nvcc compilation of kernel.cu failed\nstdout:\n"
      "nvcc fatal   : Cannot find compiler 'cl.exe' in PATH\n");
  ASSERT_TRUE(leads_with(r, "nvcc-no-msvc"));
  EXPECT_EQ(r.matches.front().category, "path-or-env-misconfigured");
}

// nvcc's "Unsupported gpu architecture": an old toolkit, or an older nvcc first on PATH.
TEST(ExplainInstall, UnsupportedGpuArchitectureMayBeAnOlderNvccFirstOnPath) {
  const auto r = explain_no_facts("nvcc fatal   : Unsupported gpu architecture 'compute_61'\n");
  ASSERT_TRUE(leads_with(r, "nvrtc-invalid-arch"));
  EXPECT_NE(find_rule(r, "nvrtc-invalid-arch/older-nvcc-on-path"), nullptr);
}

// torch.utils.cpp_extension's CUDA check: the toolkit found, or the torch it builds against.
TEST(ExplainInstall, ExtensionCudaMismatchMayBeTheToolkitOnPath) {
  const auto r = explain_no_facts(
      "RuntimeError:\nThe detected CUDA version (12.2) mismatches the version that was used to compile\n"
      "PyTorch (11.7). Please make sure to use the same CUDA versions.\n");
  ASSERT_NE(find_rule(r, "cuda-version-mismatch-extension"), nullptr);
  EXPECT_NE(find_rule(r, "cuda-version-mismatch-extension/toolkit-on-path"), nullptr);
}

// nvcc's message as some reports type it: lower case, no colon.
TEST(ExplainInstall, UnsupportedGpuArchitectureInAnyCase) {
  EXPECT_TRUE(
      leads_with(explain_no_facts("nvcc fatal unsupported gpu architecture 'compute_86'\n"), "nvrtc-invalid-arch"));
}

// nvcc refuses an architecture newer than its release and one its release dropped: the answer
// must not tell a CUDA 13 user with compute_50 in the build to install a newer toolkit. Which
// toolkits compile for the architecture comes from compat/cuda_arch.toml.
TEST(ExplainInstall, UnsupportedGpuArchitectureSaysWhichToolkitsCompileForIt) {
  const ExplainMachine no_facts{Platform::linux, nullptr, &builtin_kb()};
  auto fix_for = [&](const std::string& arch, const ExplainMachine& m) {
    const auto r = explain_text(builtin_matcher(), "nvcc fatal   : Unsupported gpu architecture '" + arch + "'\n", m);
    EXPECT_TRUE(leads_with(r, "nvrtc-invalid-arch")) << arch;
    return r.matches.empty() ? std::string{} : r.matches.front().fix;
  };
  const struct {
    const char* arch;
    const char* says;
  } cases[] = {
      // Dropped: Maxwell to Volta by 13.0, Kepler's 3.5 by 12.0, 3.0 by 11.0.
      {"compute_50", "compiled by CUDA up to 12.9; CUDA 13.0 and later do not (Maxwell, Pascal and Volta"},
      {"sm_35", "up to 11.8; CUDA 12.0 and later do not"},
      {"compute_30", "up to 10.2; CUDA 11.0 and later do not"},
      // Newer than the toolkit: the first release that knows it.
      {"compute_86", "compute_86 (compute capability 8.6) needs CUDA 11.1 or later"},
      {"compute_120", "needs CUDA 12.8 or later"},
      // The suffixed forms have floors of their own: 'a' from CUDA 12.0 (9.0a), 'f' from 12.9,
      // LTO-IR from 11.2; an 'a' below Hopper is no target at all.
      {"compute_90a", "compute capability 9.0) needs CUDA 12.0 or later"},
      {"sm_100f", "needs CUDA 12.9 or later"},
      {"lto_80", "needs CUDA 11.2 or later"},
      {"compute_86a",
       "compute_86a is not a target of any CUDA toolkit: the 'a' variants exist for compute capability "
       "9.0 and later; ask for compute_86 instead"},
      // 13.0 renamed Thor's 10.1 to 11.0: the reason is the renaming, not Maxwell to Volta.
      {"compute_101", "CUDA 13.0 and later do not (renamed compute_110: ask for that)"},
  };
  for (const auto& c : cases) {
    const std::string fix = fix_for(c.arch, no_facts);
    EXPECT_TRUE(contains(fix, c.says)) << c.arch << ": " << fix;
    EXPECT_EQ(contains(fix, "needs CUDA"), contains(c.says, "needs CUDA")) << c.arch << ": " << fix;
  }
  EXPECT_FALSE(contains(fix_for("compute_101", no_facts), "Maxwell"));
  // On a machine with CUDA 13.0's nvcc: whether it is the answer.
  Facts f;
  f.platform = Platform::linux;
  ToolkitFacts tk;
  tk.path = "/usr/local/cuda-13.0";
  tk.version = Version::parse("13.0.88");
  tk.has_nvcc = true;
  f.toolkits.push_back(tk);
  const ExplainMachine cuda13{Platform::linux, &f, &builtin_kb()};
  std::string fix = fix_for("compute_61", cuda13);
  EXPECT_TRUE(contains(fix, "On this machine CUDA 13.0.88 at /usr/local/cuda-13.0 does not.")) << fix;
  fix = fix_for("compute_89", cuda13);
  EXPECT_TRUE(contains(fix, "On this machine CUDA 13.0.88 at /usr/local/cuda-13.0 does: build with it")) << fix;
  // CUDA 11.8 compiles for 9.0 but not for 9.0a: it is the nvcc that refused.
  f.toolkits.front().version = Version::parse("11.8.89");
  fix = fix_for("compute_90a", cuda13);
  EXPECT_TRUE(contains(fix, "On this machine CUDA 11.8.89 at /usr/local/cuda-13.0 does not.")) << fix;
  f.toolkits.front().version = Version::parse("13.0.88");
  // A toolkit without nvcc (the runtime wheels) compiles nothing.
  f.toolkits.front().has_nvcc = false;
  fix = fix_for("compute_89", cuda13);
  EXPECT_FALSE(contains(fix, "On this machine")) << fix;
}

// nvcc's message quoted without its prefix is still nvcc's; another compiler's target is not.
TEST(ExplainInstall, UnsupportedGpuArchitectureWithoutNvccsPrefix) {
  EXPECT_TRUE(leads_with(
      explain_no_facts("when I install it I meet the error:\"Unsupported gpu architecture 'compute_75'\".\n"),
      "nvrtc-invalid-arch"));
  EXPECT_EQ(find_rule(explain_no_facts("Unsupported gpu architecture 'gfx1030'\n"), "nvrtc-invalid-arch"), nullptr);
}

TEST(ExplainInstall, AnApplicationsOwnPythonVersionCheckIsAPythonVersionAnswer) {
  // SD.Next's installer and AUTOMATIC1111's launcher check the Python version themselves.
  for (const char* line : {
           "07:57:11-501772 ERROR    Incompatible Python version: 3.11.4 required 3.[9, 10]",
           "This program is tested with 3.10.6 Python, but you have 3.12.3.",
       }) {
    const auto r = explain_no_facts(line);
    ASSERT_FALSE(r.matches.empty()) << line;
    EXPECT_EQ(r.matches.front().category, "python-version-unsupported") << line;
  }
  EXPECT_TRUE(explain_no_facts("Python version: 3.11.4").matches.empty());
}

TEST(ExplainInstall, ALibrarySayingItsBuildHasNoGpuSupportIsTheBuild) {
  // OpenCV's DNN module, LightGBM, AutoGPTQ: each says its own build lacks CUDA.
  for (const char* line : {
           "[ WARN:0] global dnn.cpp (1314) cv::dnn::dnn4_v20191024::Net::Impl::setUpNet DNN module was not built "
           "with CUDA backend; switching to CPU",
           "lightgbm.basic.LightGBMError: GPU Tree Learner was not enabled in this build, Please recompile with CMake "
           "option -DUSE_GPU=1",
           "CUDA extension not installed.",
       }) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "library-built-without-gpu")) << line;
    EXPECT_EQ(r.matches.front().category, "wrong-framework-build") << line;
  }
  // PyTorch's own wording keeps its own rule.
  EXPECT_TRUE(leads_with(explain_no_facts("AssertionError: Torch not compiled with CUDA enabled"),
                         "torch-not-compiled-with-cuda"));
}

// The shell quoting the path it could not run ('...nvcc': No such file or directory), as a
// build's subprocess error prints it; with a toolkit installed, the variable points elsewhere.
TEST(ExplainInstall, AQuotedNvccPathThatIsNotThereIsNvccNotFound) {
  const auto r = explain_no_facts("/bin/sh: 1: ':/usr/local/cuda-11.3/bin/nvcc': No such file or directory\n");
  ASSERT_TRUE(leads_with(r, "nvcc-not-found"));
  EXPECT_NE(find_rule(r, "nvcc-not-found/env"), nullptr);
  const auto plain = explain_no_facts("/usr/local/cuda-12.1/bin/nvcc': No such file or directory\n");
  EXPECT_TRUE(leads_with(plain, "nvcc-not-found"));
}

}  // namespace
}  // namespace gpudoctor
