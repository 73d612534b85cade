// Unseen logs, session 38 review (B): answers that were missing or wrong for installs and builds.
// Each rule was written from where its message is printed, not from the reviewer's one line:
// - TensorFlow's removal stubs (tensorflow/tools/pip_package/redundant_tensorflow_gpu/setup.py,
//   deprecated_tensorflow_gpu/setup.py, redundant_tf_nightly_gpu/setup.py): quoted package names,
//   and the 2.12.0 sdist that newer setuptools rejects before setup.py runs (its setup.cfg's
//   `install_requires = python_version>"3.7"`, read from the sdist pip downloads).
// - conda's CPU builds of PyTorch: the pytorch channel's build strings (pytorch/builder
//   conda/build_pytorch.sh: py${py_ver}_cpu_N vs py${py_ver}_cuda${CUDA}_cudnn${CUDNN}_N), its
//   pytorch-mutex and cpuonly metapackages (conda/pytorch-mutex, conda/cpuonly meta.yaml), and
//   conda-forge's (pytorch-cpu-feedstock recipe/meta.yaml: cpu_{blas}_py..., cuda{ver}_...).
// - CUDA's host_config.h Visual Studio checks per release (read from NVIDIA's nvcc wheels: 11.7 to
//   12.3 reject _MSC_VER >= 1940, 12.4 to 12.9 >= 1950, CUDA 13.0 accepts 1920 to 1949) and the
//   nvcc driver's own "cannot find a supported version" (strings of CUDA 13.0's nvcc).
// - pip's OSError without its long-path HINT (pip's create_os_error_message: the HINT since 21.2,
//   only for ENOENT and a path over 260 characters), and WinError 206.
// - cuDNN 8's "Could not load library zlibwapi.dll. Error code 193": the 32-bit zlib DLL.
// - TensorFlow's Windows builds' "Invoking GPU asm compilation is supported on Cuda non-Windows
//   platforms only" (tensorflow/stream_executor/gpu/asm_compiler.cc): harmless.
#include <gtest/gtest.h>

#include <string>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::explain_on;
using testing::find_rule;
using testing::leads_with;
using testing::mentions;
using testing::problem_count;
using testing::rule_list;
using testing::says_all;
using testing::told;

// Log 06 (dionhaefner/pyhpc-benchmarks#17): the stub's exception, quotes and all, in pip's
// indented build output; the same stub's "deprecated" and tf-nightly-gpu versions (probes p01-p03).
TEST(ExplainReview38B, TensorflowGpuRemovalStubIsRecognisedWithItsQuotes) {
  const std::string reviewer =
      "Using:\n"
      "conda env create -f environment-gpu.yml\n"
      "\n"
      "leads to an error saying:\n"
      "\n"
      " Exception:\n"
      "\n"
      "      =========================================================\n"
      "      The \"tensorflow-gpu\" package has been removed!\n"
      "\n"
      "      Please install \"tensorflow\" instead.\n"
      "\n"
      "      Other than the name, the two packages have been identical\n"
      "      since TensorFlow 2.1, or roughly since Sep 2019. For more\n"
      "      information, see: pypi.org/project/tensorflow-gpu\n"
      "      =========================================================\n"
      "\n"
      "      [end of output]\n";
  for (const std::string& log : {reviewer, std::string("The \"tensorflow-gpu\" package has been removed!\n"),
                                 std::string("The \"tensorflow-gpu\" package has been deprecated!\n"),
                                 std::string("      The \"tf-nightly-gpu\" package has been removed!\n")}) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "pip-tensorflow-gpu-removed")) << log;
    EXPECT_EQ(problem_count(r), 1u) << rule_list(r);
    const std::string& fix = r.matches.front().fix;
    EXPECT_TRUE(mentions(fix, "tensorflow[and-cuda]")) << fix;
    EXPECT_TRUE(mentions(fix, "2.10")) << fix;  // native Windows: GPU ended with 2.10
  }
  EXPECT_TRUE(mentions(explain_no_facts("The \"tf-nightly-gpu\" package has been removed!\n").matches.front().fix,
                       "tf-nightly"));
  // Installing the last real tensorflow-gpu wheel is no such message.
  const auto ok = explain_no_facts("Successfully installed tensorflow-gpu-2.10.1\n");
  EXPECT_EQ(find_rule(ok, "pip-tensorflow-gpu-removed"), nullptr) << rule_list(ok);
}

// Probe p04: with setuptools >= 67 the 2.12.0 stub fails before its setup.py runs, on its own
// setup.cfg (`install_requires = python_version>"3.7"`); pip then says only that the metadata step
// failed. The sdist's name is the cause; the generic build answer is the same failure.
TEST(ExplainReview38B, TensorflowGpuSdistBuildFailureIsTheRemovedPackageNotABuildProblem) {
  const std::string reviewer =
      "Collecting tensorflow-gpu\n"
      "  Using cached tensorflow-gpu-2.12.0.tar.gz (2.6 kB)\n"
      "  Preparing metadata (setup.py) ... error\n"
      "  error: subprocess-exited-with-error\n"
      "  × python setup.py egg_info did not run successfully.\n"
      "      setuptools.extern.packaging.requirements.InvalidRequirement: Expected end or semicolon (after name and no "
      "valid version specifier)\n"
      "          python_version>\"3.7\"\n";
  // What pip 23.2 with a current setuptools prints for `pip install tensorflow-gpu` (run here).
  const std::string pep517 =
      "Collecting tensorflow-gpu==2.12.0\n"
      "  Downloading tensorflow-gpu-2.12.0.tar.gz (2.6 kB)\n"
      "  Installing build dependencies: finished with status 'done'\n"
      "  Getting requirements to build wheel: finished with status 'error'\n"
      "  error: subprocess-exited-with-error\n"
      "  × Getting requirements to build wheel did not run successfully.\n"
      "      packaging._tokenizer.ParserSyntaxError: Expected semicolon (after name with no version specifier) or "
      "end\n"
      "          python_version>\"3.7\"\n"
      "note: This error originates from a subprocess, and is likely not a problem with pip.\n";
  // Older setuptools: setup.py runs and raises the stub's exception during bdist_wheel.
  const std::string legacy =
      "  Building wheel for tensorflow-gpu (setup.py) ... error\n"
      "  error: subprocess-exited-with-error\n"
      "  × python setup.py bdist_wheel did not run successfully.\n"
      "      Exception:\n"
      "      The \"tensorflow-gpu\" package has been removed!\n"
      "  ERROR: Failed building wheel for tensorflow-gpu\n";
  for (const std::string& log : {reviewer, pep517, legacy}) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "pip-tensorflow-gpu-removed")) << log;
    EXPECT_EQ(find_rule(r, "pip-wheel-build-failed"), nullptr) << rule_list(r);
    EXPECT_TRUE(mentions(r.matches.front().fix, "tensorflow")) << r.matches.front().fix;
  }
  // Another package's failed build keeps the generic answer.
  const auto other = explain_no_facts(
      "  Using cached mamba_ssm-2.2.2.tar.gz (85 kB)\n"
      "  × python setup.py egg_info did not run successfully.\n");
  EXPECT_TRUE(leads_with(other, "pip-wheel-build-failed")) << rule_list(other);
}

// Log 07 (tensorflow#60241): the reporter's words for pip's answer; pip's own (probe p36) keeps its
// answer. Neither is the removal stub.
TEST(ExplainReview38B, NoTensorflowGpuVersionIsTheEndedPackage) {
  for (const std::string& log :
       {std::string("### Current Behaviour?\nNo version 2.12.0 of the tensorflow-gpu was found.\n"),
        std::string("ERROR: Could not find a version that satisfies the requirement tensorflow-gpu==2.11 (from "
                    "versions: 2.8.0rc1, 2.8.0, 2.10.0, 2.10.1)\n")}) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "pip-tensorflow-gpu-not-found")) << log << rule_list(r);
    EXPECT_TRUE(says_all(r.matches.front().fix, {"2.10", "WSL2"}));
  }
}

// Logs 15 (pytorch#67108) and 16 (meta-pytorch/data#315), probes p09-p11: the pytorch channel's CPU
// variant in conda's plan, its download table and `conda list`.
TEST(ExplainReview38B, CondaChoseThePytorchChannelsCpuBuild) {
  const std::string plan =
      "conda install pytorch torchvision torchaudio cudatoolkit=11.3 -c pytorch\n"
      "    The following NEW packages will be INSTALLED:\n"
      "    pytorch            pytorch/win-64::pytorch-1.10.0-py3.8_cpu_0\n"
      "    torchaudio         pytorch/win-64::torchaudio-0.10.0-py38_cpu\n"
      "    torchvision        pytorch/win-64::torchvision-0.11.1-py38_cpu\n";
  const std::string list =
      "❯ conda list | grep pytorch\n"
      "cpuonly                   2.0                           0    pytorch\n"
      "ffmpeg                    4.3                  hf484d3e_0    pytorch\n"
      "pytorch                   1.11.0              py3.8_cpu_0    pytorch\n"
      "pytorch-mutex             1.0                         cpu    pytorch\n"
      "torchaudio                0.11.0                 py38_cpu    pytorch\n"
      "torchdata                 0.3.0                      py38    pytorch\n"
      "torchvision               0.12.0                 py38_cpu    pytorch\n";
  for (const std::string& log :
       {plan, list, std::string("    pytorch-1.12.1             |      py3.8_cpu_0       133.8 MB  pytorch\n"),
        std::string("pytorch-mutex             1.0                         cpu    pytorch\n"),
        std::string("  cpuonly            pytorch/noarch::cpuonly-2.0-0\n"),
        std::string("    pytorch-mutex-1.0          |              cpu           3 KB  pytorch\n"),
        // `conda list` rows are long enough to be joined into one line: cpuonly not at its start.
        std::string("ffmpeg                    4.3                  hf484d3e_0    pytorch\n"
                    "cpuonly                   2.0                           0    pytorch\n")}) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "conda-pytorch-cpu-build")) << log << rule_list(r);
    const std::string text = told(r);
    EXPECT_TRUE(says_all(text, {"conda remove cpuonly", "pytorch-cuda=", "-c nvidia", "conda list pytorch"}));
    EXPECT_TRUE(mentions(text, "2.5")) << text;  // the channel's last release
  }
  // The CUDA variant is no such answer.
  for (const char* cuda : {"pytorch                   1.12.1          py3.8_cuda11.3_cudnn8.3.2_0    pytorch\n",
                           "pytorch-mutex             1.0                        cuda    pytorch\n",
                           "    pytorch            pytorch/linux-64::pytorch-2.5.1-py3.12_cuda12.4_cudnn9.1.0_0\n",
                           "conda install pytorch torchvision cpuonly -c pytorch\n"}) {
    const auto r = explain_no_facts(cuda);
    EXPECT_EQ(find_rule(r, "conda-pytorch-cpu-build"), nullptr) << cuda << rule_list(r);
    EXPECT_EQ(find_rule(r, "conda-forge-pytorch-cpu-build"), nullptr) << cuda << rule_list(r);
  }
}

// conda-forge's variants (pytorch-cpu-feedstock recipe/meta.yaml): `cpu_<blas>_py<NN>_h<hash>_<n>`
// (2.1 and later), `cpu_<blas>_py<NN>h<hash>` and `cpu_py<NN>h<hash>` before; the CUDA builds
// `cuda<NNN>_...` need the __cuda virtual package, so without a visible driver the solver picks these.
TEST(ExplainReview38B, CondaForgeCpuVariantOfPytorch) {
  for (const char* line : {"pytorch                   2.5.1           cpu_mkl_py312_h01b4a48_108    conda-forge\n",
                           "    pytorch            conda-forge/linux-64::pytorch-2.1.0-cpu_generic_py311h2f6bd1f_0\n",
                           "    pytorch-2.0.0              |cpu_py39h7df8c77_0        61.3 MB  conda-forge\n",
                           "  libtorch           conda-forge/linux-64::libtorch-2.5.1-cpu_mkl_hd2a8bd0_108\n"}) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "conda-forge-pytorch-cpu-build")) << line << rule_list(r);
    const std::string text = told(r);
    EXPECT_TRUE(says_all(text, {"__cuda", "pytorch=*=cuda*", "CONDA_OVERRIDE_CUDA"}));
    EXPECT_FALSE(mentions(text, "-c nvidia")) << text;  // not the pytorch channel's advice
  }
  const auto cuda = explain_no_facts(
      "pytorch                   2.5.1           cuda126_mkl_py312_h3fa1c2b_308    "
      "conda-forge\n");
  EXPECT_EQ(find_rule(cuda, "conda-forge-pytorch-cpu-build"), nullptr) << rule_list(cuda);
}

// Log 20 (davisking/dlib#1560), probes p05, p41, p06: CUDA 9.x's wording, the nvcc driver's own
// message, CUDA 11.0's range. Visual Studio advice only, never apt.
TEST(ExplainReview38B, VisualStudioRejectedByNvccGetsWindowsAdvicePerRelease) {
  const std::string cuda90 =
      "c:\\program files\\nvidia gpu computing toolkit\\cuda\\v9.0\\include\\crt/host_config.h(133): fatal error "
      "C1189: #error: -- unsupported Microsoft Visual Studio version! Only the versions 2012, 2013, 2015 and 2017 are "
      "supported!\n";
  const std::string cuda91 =
      "c:\\program files\\nvidia gpu computing toolkit\\cuda\\v9.1\\include\\crt/host_config.h(135): fatal error "
      "C1189: #error:  -- unsupported Microsoft Visual Studio version! Only the versions 2012, 2013, 2015 and 2017 are "
      "supported!\n";
  const std::string driver =
      "nvcc fatal   : nvcc cannot find a supported version of Microsoft Visual Studio. Only the versions between 2017 "
      "and 2019 (inclusive) are supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this "
      "version check; however, using an unsupported host compiler may cause compilation failure or incorrect run "
      "time execution. Use at your own risk.\n";
  const std::string cuda110 =
      "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.0\\include\\crt/host_config.h(139): fatal error "
      "C1189: #error:  -- unsupported Microsoft Visual Studio version! Only the versions between 2017 and 2019 "
      "(inclusive) are supported!\n";
  const std::string cuda121 =
      "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.1\\include\\crt/host_config.h(153): fatal error "
      "C1189: #error:  -- unsupported Microsoft Visual Studio version! Only the versions between 2017 and 2022 "
      "(inclusive) are supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this version "
      "check; however, using an unsupported host compiler may cause compilation failure or incorrect run time "
      "execution. Use at your own risk.\n";
  for (const std::string& log : {cuda90, cuda91, driver, cuda110, cuda121}) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "nvcc-msvc-unsupported")) << log;
    EXPECT_EQ(problem_count(r), 1u) << rule_list(r);
    const std::string text = told(r);
    EXPECT_FALSE(mentions(text, "apt install")) << text;
    EXPECT_FALSE(mentions(text, "g++-")) << text;
    EXPECT_TRUE(mentions(text, "-vcvars_ver=")) << text;
  }
  // CUDA 9.x: VS 2015's compiler or VS 2017's 14.11 toolset.
  const std::string nine = told(explain_no_facts(cuda90));
  EXPECT_TRUE(says_all(nine, {"-vcvars_ver=14.11", "2015"}));
  // VS 2022 17.10 (MSVC 14.40, _MSC_VER 1940) is refused by CUDA 12.3 and older.
  const std::string twelve = told(explain_no_facts(cuda121));
  EXPECT_TRUE(says_all(twelve, {"1940", "12.4", "-allow-unsupported-compiler"}));
  // nvcc's own message: no Visual Studio it accepts is installed where it looked.
  EXPECT_TRUE(mentions(told(explain_no_facts(driver)), "Desktop development with C++"))
      << told(explain_no_facts(driver));
  // gcc keeps the Linux answer.
  const auto gcc = explain_no_facts(
      "/usr/local/cuda/include/crt/host_config.h:132:2: error: #error -- unsupported GNU version! gcc versions later "
      "than 12 are not supported!\n");
  ASSERT_TRUE(leads_with(gcc, "nvcc-host-compiler-unsupported")) << rule_list(gcc);
  EXPECT_EQ(find_rule(gcc, "nvcc-msvc-unsupported"), nullptr);
}

// Logs 12 (pytorch#23823, pip < 21 "EnvironmentError") and 28 (zeyad-mansour/lunar#161, a path of
// exactly 260 characters: pip's HINT needs more than 260), probe p08 (WinError 206).
TEST(ExplainReview38B, LongWindowsPathWithoutPipsHintIsStillTheLongPathLimit) {
  const std::string pip19 =
      "pip3 install https://download.pytorch.org/whl/cpu/torch-1.1.0-cp37-cp37m-win_amd64.whl\n"
      "ERROR: Could not install packages due to an EnvironmentError: [Errno 2] No such file or directory: "
      "'C:\\\\Users\\\\[username]\\\\AppData\\\\Local\\\\Packages\\\\PythonSoftwareFoundation.Python.3.7_qbz5n2kfra8p0"
      "\\\\LocalCache\\\\local-packages\\\\Python37\\\\site-packages\\\\caffe2\\\\python\\\\serialized_test\\\\data\\\\"
      "operator_test\\\\collect_and_distribute_fpn_rpn_proposals_op_test.test_collect_and_dist.zip'\n";
  const std::string pip21 =
      "ERROR: Could not install packages due to an OSError: [Errno 2] No such file or directory: "
      "'C:\\\\Users\\\\filip\\\\AppData\\\\Local\\\\Packages\\\\PythonSoftwareFoundation.Python.3.9_qbz5n2kfra8p0\\\\"
      "LocalCache\\\\local-packages\\\\Python39\\\\site-packages\\\\caffe2\\\\python\\\\serialized_test\\\\data\\\\"
      "operator_test\\\\collect_and_distribute_fpn_rpn_proposals_op_test.test_collect_and_dist.zip'\n";
  // The same path as a page shows it, with single backslashes.
  const std::string rendered =
      "ERROR: Could not install packages due to an OSError: [Errno 2] No such file or directory: "
      "'C:\\Users\\filip\\AppData\\Local\\Packages\\PythonSoftwareFoundation.Python.3.9_qbz5n2kfra8p0\\"
      "LocalCache\\local-packages\\Python39\\site-packages\\caffe2\\python\\serialized_test\\data\\"
      "operator_test\\collect_and_distribute_fpn_rpn_proposals_op_test.test_collect_and_dist.zip'\n";
  const std::string win206 =
      "ERROR: Could not install packages due to an OSError: [WinError 206] The filename or extension is too long: "
      "'C:\\\\actions-runner\\\\_work\\\\_temp\\\\conda_environment\\\\Lib\\\\site-packages\\\\torch-2.13.0."
      "dev20260522+"
      "cu130.dist-info\\\\licenses\\\\third_party'\n";
  for (const std::string& log : {pip19, pip21, rendered, win206}) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "pip-windows-long-paths")) << log << rule_list(r);
    EXPECT_TRUE(mentions(r.matches.front().fix, "LongPathsEnabled")) << r.matches.front().fix;
  }
  // A short path is not the long-path limit, Store Python or not; with doubled backslashes the
  // printed path is longer than the real one (this one is 250 characters printed, 233 real).
  for (const char* shortpath :
       {"ERROR: Could not install packages due to an OSError: [Errno 2] No such file or directory: "
        "'C:\\\\Users\\\\me\\\\venv\\\\Lib\\\\site-packages\\\\torch\\\\lib\\\\c10.dll'\n",
        "ERROR: Could not install packages due to an OSError: [Errno 2] No such file or directory: "
        "'C:\\\\Users\\\\filip.nowak1\\\\AppData\\\\Local\\\\Packages\\\\PythonSoftwareFoundation.Python.3.9_q"
        "bz5n2kfra8p0\\\\LocalCache\\\\local-packages\\\\Python39\\\\site-packages\\\\sklearn\\\\datasets\\\\"
        "tests\\\\data\\\\openml\\\\id_40945\\\\api-v1-jdl-dn-titanic-l-2-dv-1-s-dact.json.gz'\n"}) {
    const auto r = explain_no_facts(shortpath);
    EXPECT_EQ(find_rule(r, "pip-windows-long-paths"), nullptr) << shortpath << rule_list(r);
  }
  // CreateProcess's 206 (a command line over 32767 characters) names no path: not this.
  const auto cmdline = explain_no_facts("FileNotFoundError: [WinError 206] The filename or extension is too long\n");
  EXPECT_EQ(find_rule(cmdline, "pip-windows-long-paths"), nullptr) << rule_list(cmdline);
}

// Probe p26 (lightvector/KataGo#828): cuDNN 8's loader found a zlibwapi.dll that is not 64-bit.
TEST(ExplainReview38B, Error193ForZlibwapiIsThe32BitZlibDll) {
  for (const std::string& log :
       {std::string("Could not load library zlibwapi.dll. Error code 193. Please verify that the library is built "
                    "correctly for your processor architecture (32-bit, 64-bit)\n"),
        std::string("Could not load library zlibwapi.dll. Error code 193\n")}) {
    const auto r = explain_on(Platform::windows, log);
    ASSERT_TRUE(leads_with(r, "cudnn-zlib-wrong-architecture")) << rule_list(r);
    EXPECT_EQ(find_rule(r, "windows-dll-bad-format"), nullptr) << rule_list(r);
    const std::string text = told(r);
    EXPECT_TRUE(says_all(text, {"dll_x64", "where zlibwapi.dll"}));
    EXPECT_FALSE(mentions(text, "--force-reinstall")) << text;
  }
  // Another DLL's 193 keeps the general answer.
  const auto other = explain_on(Platform::windows, "Could not load library cudnn_ops_infer64_8.dll. Error code 193\n");
  EXPECT_TRUE(leads_with(other, "windows-dll-bad-format")) << rule_list(other);
}

// Probe p23: TensorFlow's Windows GPU builds cannot run ptxas at all (asm_compiler.cc returns this
// status under PLATFORM_WINDOWS); XLA's helpers log it once and the driver compiles their PTX.
TEST(ExplainReview38B, AsmCompilationOnWindowsIsHarmless) {
  const std::string buffer_comparator =
      "2020-05-25 17:03:22.775625: W tensorflow/compiler/xla/service/gpu/buffer_comparator.cc:592] Internal: Invoking "
      "GPU asm compilation is supported on Cuda non-Windows platforms only\n";
  const std::string redzone =
      "2020-09-05 01:43:57.222017: W tensorflow/stream_executor/gpu/redzone_allocator.cc:314] Internal: Invoking GPU "
      "asm compilation is supported on Cuda non-Windows platforms only\n"
      "Relying on driver to perform ptx compilation.\n"
      "Modify $PATH to customize ptxas location.\n"
      "This message will be only logged once.\n";
  for (const std::string& log : {buffer_comparator, redzone}) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "tf-windows-gpu-asm-unsupported")) << rule_list(r);
    EXPECT_TRUE(r.matches.front().harmless);
    EXPECT_EQ(problem_count(r), 0u) << rule_list(r);
    EXPECT_EQ(find_rule(r, "xla-ptx-compiled-by-driver"), nullptr) << rule_list(r);
    EXPECT_FALSE(mentions(told(r), "nvidia-cuda-nvcc")) << told(r);
  }
  // On Linux the same fallback keeps its answer: there ptxas was looked for and not found.
  const auto linux_log = explain_no_facts(
      "W external/xla/xla/service/gpu/buffer_comparator.cc:1054] INTERNAL: ptxas exited with non-zero error code "
      "65280\n"
      "Relying on driver to perform ptx compilation.\n");
  EXPECT_NE(find_rule(linux_log, "xla-ptx-compiled-by-driver"), nullptr) << rule_list(linux_log);
}

}  // namespace
}  // namespace gpudoctor
