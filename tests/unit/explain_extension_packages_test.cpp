// Packages with CUDA code of their own built against one PyTorch (xFormers, bitsandbytes), vLLM's
// dtype check and torch.autocast's refused dtype (data/explain/extension-packages.toml,
// performance.toml). The lines are real pastes (named per test); before these rules none of them
// got an answer. Then building such code: the linker, the compiler, Triton's launcher, flash-attn's
// setup.py and pip's isolated build environment (none of these lines had an answer before
// session 16).
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "core/text.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::builtin_matcher;
using testing::category_rank;
using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

// An optimum-intel notebook's output: xFormers built for 2.0.1+cu118 under a 2.1.2+cpu PyTorch,
// next to bitsandbytes' CPU library.
TEST(ExplainExtensionPackages, XformersAndBitsandbytesBuiltForAnotherTorch) {
  const auto r = explain_no_facts(
      "/home/ea/env/lib/python3.8/site-packages/bitsandbytes/cextension.py:34: UserWarning: The installed version "
      "of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit multiplication, and GPU "
      "quantization are unavailable.\n"
      "/home/ea/env/lib/python3.8/site-packages/bitsandbytes/libbitsandbytes_cpu.so: undefined symbol: "
      "cadam32bit_grad_fp32\n"
      "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
      "    PyTorch 2.0.1+cu118 with CUDA 1108 (you have 2.1.2+cpu)\n"
      "    Python  3.8.18 (you have 3.8.10)\n");
  ASSERT_TRUE(leads_with(r, "bitsandbytes-cpu-library"));
  const ExplainMatch* x = find_rule(r, "xformers-built-for-other-torch");
  ASSERT_NE(x, nullptr);
  EXPECT_TRUE(contains(x->cause, "2.0.1+cu118")) << x->cause;
  EXPECT_TRUE(contains(x->cause, "2.1.2+cpu")) << x->cause;
  EXPECT_TRUE(contains(x->fix, "download.pytorch.org")) << x->fix;
  EXPECT_TRUE(contains(r.matches.front().fix, "python -m bitsandbytes")) << r.matches.front().fix;
}

TEST(ExplainExtensionPackages, NoOperatorFoundPointsAtTheReasonsBelowIt) {
  const auto r = explain_no_facts(
      "NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n"
      "     query       : shape=(2, 4096, 8, 40) (torch.float16)\n"
      "`cutlassF` is not supported because:\n"
      "    xFormers wasn't build with CUDA support\n");
  ASSERT_TRUE(leads_with(r, "xformers-built-for-other-torch"));
  EXPECT_NE(find_rule(r, "xformers-no-operator"), nullptr);
}

TEST(ExplainExtensionPackages, VllmBfloat16OnATuringGpuIsDtypeHalf) {
  const auto r = explain_no_facts(
      "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has "
      "compute capability 7.5. You can use float16 instead by explicitly setting the`dtype` flag in CLI, for "
      "example: --dtype=half.");
  ASSERT_TRUE(leads_with(r, "vllm-bf16-needs-sm80"));
  EXPECT_TRUE(contains(r.matches.front().cause, "Tesla T4")) << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().fix, "--dtype half")) << r.matches.front().fix;
}

// An IPEX quantisation log (CPU) and a note on torch_npu; CUDA's wording is the same.
TEST(ExplainExtensionPackages, AutocastWithAnUnsupportedDtypeIsOffNotBroken) {
  const auto r = explain_no_facts(
      "/root/miniconda3/envs/amx_lab/lib/python3.10/site-packages/torch/amp/autocast_mode.py:283: UserWarning: In "
      "CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
      "CPU Autocast only supports dtype of torch.bfloat16, torch.float16 currently.\n");
  ASSERT_TRUE(leads_with(r, "torch-autocast-dtype-disabled"));
  EXPECT_EQ(r.matches.front().severity, RuleSeverity::warning);
  EXPECT_TRUE(contains(r.matches.front().fix, "enabled=False")) << r.matches.front().fix;
}

// Triton links its launcher with `gcc main.c -lcuda -L<dirs>` (python/triton/runtime/build.py);
// the dirs are where `ldconfig -p` lists libcuda.so.1, and -lcuda needs libcuda.so there. The
// log of a torch.compile run (pytorch#103417, state-spaces/mamba#123 and Seg-Zero#63 word it so).
TEST(ExplainExtensionPackages, TritonLinkingWithoutLibcudaSoNamesTheVariableAndTheLink) {
  const auto r = explain_no_facts(
      "/usr/bin/ld: cannot find -lcuda: No such file or directory\n"
      "collect2: error: ld returned 1 exit status\n"
      "  File \"/venv/lib/python3.12/site-packages/triton/runtime/build.py\", line 50, in _build\n"
      "    ret = subprocess.check_call(cc_cmd)\n"
      "subprocess.CalledProcessError: Command '['/usr/bin/gcc', '/tmp/tmpe7nu9b0l/main.c', '-O3', '-shared', "
      "'-fPIC', '-o', '/tmp/tmpe7nu9b0l/cuda_utils.cpython-312-x86_64-linux-gnu.so', '-lcuda', "
      "'-L/venv/lib/python3.12/site-packages/triton/backends/nvidia/lib', '-L/lib/x86_64-linux-gnu']' returned "
      "non-zero exit status 1.\n");
  ASSERT_TRUE(leads_with(r, "link-libcuda-missing"));
  EXPECT_EQ(r.matches.front().lines.size(), 1u);  // the linker's line; Triton's only reports gcc's exit
  EXPECT_NE(find_rule(r, "triton-launcher-build-failed"), nullptr);
  EXPECT_TRUE(contains(r.matches.front().fix, "TRITON_LIBCUDA_PATH=")) << r.matches.front().fix;
  EXPECT_TRUE(contains(r.matches.front().fix, "ln -s libcuda.so.1")) << r.matches.front().fix;
  EXPECT_TRUE(contains(r.matches.front().fix, "lib64/stubs")) << r.matches.front().fix;

  // In Jupyter the linker's own line goes to the server's terminal: Triton's line alone names no
  // cause (its gcc command holds -lcuda whatever failed; ExplainRootCause.*).
  const auto notebook = explain_no_facts(
      "CalledProcessError: Command '['/usr/bin/gcc', '/tmp/tmpx/main.c', '-O3', '-shared', '-fPIC', '-o', "
      "'/tmp/tmpx/__triton_launcher.cpython-310-x86_64-linux-gnu.so', '-lcuda', '-L/usr/lib/x86_64-linux-gnu']' "
      "returned non-zero exit status 1.\n");
  EXPECT_TRUE(leads_with(notebook, "triton-launcher-build-failed"));
  // Other spellings: lld, conda's binutils, the linker without the errno text.
  for (const char* line :
       {"ld.lld: error: unable to find library -lcuda", "/opt/conda/x86_64-conda-linux-gnu/bin/ld: cannot find -lcuda",
        "/usr/bin/ld: cannot find -l:libcuda.so.1: No such file or directory"}) {
    EXPECT_TRUE(leads_with(explain_no_facts(line), "link-libcuda-missing")) << line;
  }
  // -lcudart is the toolkit's library, not the driver's.
  const auto cudart = explain_no_facts("/usr/bin/ld: cannot find -lcudart: No such file or directory\n");
  ASSERT_TRUE(leads_with(cudart, "link-cuda-toolkit-library-missing"));
  EXPECT_EQ(find_rule(cudart, "link-libcuda-missing"), nullptr);
  EXPECT_EQ(cudart.matches.front().category, "toolkit-missing");
}

TEST(ExplainExtensionPackages, TritonFindingNoLibcudaAtAllIsTheDriver) {
  const auto r = explain_no_facts(
      "AssertionError: libcuda.so cannot found!\n"
      "Please make sure GPU is set up and then run \"/sbin/ldconfig\" (requires sudo) to refresh the linker cache.\n");
  ASSERT_TRUE(leads_with(r, "triton-libcuda-not-found"));
  EXPECT_EQ(r.matches.front().category, "driver-missing");
  EXPECT_TRUE(contains(r.matches.front().fix, "sudo ldconfig")) << r.matches.front().fix;
  // Triton 2.x (python/triton/common/build.py) asserted libcuda.so and listed the libcuda.so.1 it
  // found: the driver is there, the link name is what is missing.
  const auto v2 = explain_no_facts(
      "AssertionError: libcuda.so cannot found!\n"
      "Possible files are located at ['/usr/lib/x86_64-linux-gnu/libcuda.so.1'].Please create a symlink of "
      "libcuda.so to any of the file.\n");
  ASSERT_TRUE(leads_with(v2, "link-libcuda-missing"));
  EXPECT_TRUE(contains(v2.matches.front().cause, "/usr/lib/x86_64-linux-gnu/libcuda.so.1")) << v2.matches.front().cause;
}

// gcc, clang and MSVC each word a missing header their own way; any CUDA toolkit header is the
// same answer, cuDNN's and Python's are others, and a header of another library is none of them.
TEST(ExplainExtensionPackages, MissingHeadersAreTheToolkitCudnnOrPython) {
  for (const char* line : {
           "fatal error: cuda_runtime.h: No such file or directory",
           "csrc/flash_attn/flash_api.cpp:7:10: fatal error: cuda.h: No such file or directory",
           "/tmp/x/kernel.cu:2:10: fatal error: cublas_v2.h: No such file or directory",
           "src/ext.cpp:4:10: fatal error: 'cuda_runtime_api.h' file not found",
           "C:\\src\\ext.cpp(4): fatal error C1083: Cannot open include file: 'cuda_runtime.h': No such file or "
           "directory",
           "fatal error: cub/cub.cuh: No such file or directory",
       }) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "cuda-header-missing")) << line;
    EXPECT_EQ(r.matches.front().category, "toolkit-missing");
    EXPECT_TRUE(contains(r.matches.front().fix, "CUDA_HOME")) << r.matches.front().fix;
  }
  const auto cudnn = explain_no_facts("fatal error: cudnn.h: No such file or directory\n");
  ASSERT_TRUE(leads_with(cudnn, "cudnn-header-missing"));
  EXPECT_EQ(find_rule(cudnn, "cuda-header-missing"), nullptr);
  EXPECT_TRUE(leads_with(explain_no_facts("/tmp/tmpab/main.c:5:10: fatal error: Python.h: No such file or directory"),
                         "python-headers-missing"));
  EXPECT_TRUE(explain_no_facts("fatal error: boost/shared_ptr.hpp: No such file or directory\n").matches.empty());
}

// The compiler's wrappers (setuptools' "command 'X' failed", torch's "Error compiling objects for
// extension", ninja's "build stopped") and pip's "Failed building wheel" rank below the error
// they report; flash-attn's own answer replaces pip's generic one on the same lines.
TEST(ExplainExtensionPackages, BuildWrappersLeaveTheLeadToTheCompilersError) {
  const auto r = explain_no_facts(
      "      csrc/flash_attn/flash_api.cpp:7:10: fatal error: cuda_runtime_api.h: No such file or directory\n"
      "      compilation terminated.\n"
      "      ninja: build stopped: subcommand failed.\n"
      "      RuntimeError: Error compiling objects for extension\n"
      "      [end of output]\n"
      "  note: This error originates from a subprocess, and is likely not a problem with pip.\n"
      "  ERROR: Failed building wheel for flash-attn\n"
      "  Running setup.py clean for flash-attn\n"
      "Failed to build flash-attn\n"
      "ERROR: Could not build wheels for flash-attn, which is required to install pyproject.toml-based projects\n");
  ASSERT_TRUE(leads_with(r, "cuda-header-missing"));
  const ExplainMatch* wrapper = find_rule(r, "extension-compile-failed");
  const ExplainMatch* flash = find_rule(r, "flash-attn-build-failed");
  ASSERT_NE(wrapper, nullptr);
  ASSERT_NE(flash, nullptr);
  EXPECT_LT(wrapper->score, r.matches.front().score);
  EXPECT_LT(flash->score, r.matches.front().score);
  EXPECT_EQ(find_rule(r, "pip-wheel-build-failed"), nullptr);
  EXPECT_TRUE(contains(flash->fix, "--no-build-isolation")) << flash->fix;
  EXPECT_TRUE(contains(flash->cause, "prebuilt wheel")) << flash->cause;

  // Alone, the wrapper says where to look and claims no cause.
  const auto alone = explain_no_facts("error: command '/usr/local/cuda/bin/nvcc' failed with exit code 1\n");
  ASSERT_TRUE(leads_with(alone, "extension-compile-failed"));
  EXPECT_LE(alone.matches.front().score, 50);
  EXPECT_EQ(alone.matches.front().category, "other");
  EXPECT_TRUE(contains(alone.matches.front().cause, "/usr/local/cuda/bin/nvcc")) << alone.matches.front().cause;
  EXPECT_TRUE(leads_with(explain_no_facts("ERROR: Failed building wheel for flash_attn"), "flash-attn-build-failed"));
}

// flash-attn's setup.py: "FlashAttention is only supported on CUDA 11.7 and above" (11.6, 11.4 and
// 11 in older releases; FlashAttention-3's hopper/setup.py: 12.3), from `$CUDA_HOME/bin/nvcc -V`.
TEST(ExplainExtensionPackages, FlashAttnRefusingAnOldNvccNamesTheFloorAndCudaHome) {
  for (const char* line : {"RuntimeError: FlashAttention is only supported on CUDA 11.7 and above.  Note: make sure "
                           "nvcc has a supported version by running nvcc -V.",
                           "RuntimeError: FlashAttention is only supported on CUDA 11.6 and above.  Note: make sure "
                           "nvcc has a supported version by running nvcc -V.",
                           "RuntimeError: FlashAttention-3 is only supported on CUDA 12.3 and above"}) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "flash-attn-cuda-too-old")) << line;
    EXPECT_EQ(r.matches.front().category, "toolkit-missing");
    EXPECT_TRUE(contains(r.matches.front().fix, "export CUDA_HOME=")) << r.matches.front().fix;
    EXPECT_TRUE(contains(r.matches.front().fix, "github.com/Dao-AILab/flash-attention/releases"));
  }
  EXPECT_TRUE(contains(
      explain_no_facts("FlashAttention is only supported on CUDA 11.7 and above").matches.front().cause, "CUDA 11.7"));
}

// A missing torch is the wrong environment at run time, and pip's build isolation while pip builds
// a CUDA extension (the build's lines show it: the log fact "pip-build", with machine facts or not).
TEST(ExplainExtensionPackages, NoTorchInsidePipsBuildIsBuildIsolation) {
  const std::string pip_log =
      "  Installing build dependencies ... done\n"
      "  Getting requirements to build wheel ... error\n"
      "  error: subprocess-exited-with-error\n"
      "  \xC3\x97 Getting requirements to build wheel did not run successfully.\n"
      "  \xE2\x94\x82 exit code: 1\n"
      "  \xE2\x95\xB0\xE2\x94\x80> [20 lines of output]\n"
      "      Traceback (most recent call last):\n"
      "        File \"/venv/lib/python3.11/site-packages/pip/_vendor/pyproject_hooks/_in_process/_in_process.py\", "
      "line 353, in <module>\n"
      "          main()\n"
      "        File \"/tmp/pip-build-env-8ft2qz1h/overlay/lib/python3.11/site-packages/setuptools/build_meta.py\", "
      "line 334, in get_requires_for_build_wheel\n"
      "        File \"<string>\", line 22, in <module>\n"
      "      ModuleNotFoundError: No module named 'torch'\n"
      "      [end of output]\n";
  const auto r = explain_no_facts(pip_log);
  ASSERT_TRUE(leads_with(r, "torch-not-importable/build-isolation"));
  EXPECT_TRUE(contains(r.matches.front().fix, "--no-build-isolation")) << r.matches.front().fix;
  EXPECT_EQ(r.matches.front().facts_verdict, "supported");
  EXPECT_NE(find_rule(r, "pip-wheel-build-failed"), nullptr);

  Facts f;
  f.platform = Platform::linux;
  const auto probed = explain_text(testing::builtin_matcher(), pip_log, ExplainMachine{Platform::linux, &f});
  EXPECT_TRUE(leads_with(probed, "torch-not-importable/build-isolation"));

  // At run time, the environment; build isolation, which needs a build the log does not show, is
  // not listed (session 36: a log event the whole log did not show did not happen).
  const auto run = explain_no_facts(
      "Traceback (most recent call last):\n  File \"train.py\", line 1, in <module>\n    import torch\n"
      "ModuleNotFoundError: No module named 'torch'\n");
  ASSERT_TRUE(leads_with(run, "torch-not-importable"));
  EXPECT_EQ(find_rule(run, "torch-not-importable/build-isolation"), nullptr);
  EXPECT_TRUE(explain_no_facts("ModuleNotFoundError: No module named 'torchvision'\n").matches.empty());
  // A pasted line annotated by its author says where it came from.
  EXPECT_TRUE(leads_with(explain_no_facts("ModuleNotFoundError: No module named 'torch' (while building flash-attn)"),
                         "torch-not-importable/build-isolation"));
}

// uv names the build dependency the package did not declare (uv-build-frontend/src/error.rs).
TEST(ExplainExtensionPackages, UvNamingAnUndeclaredBuildDependencyIsBuildIsolation) {
  const auto r = explain_no_facts(
      "      hint: This error likely indicates that `flash-attn@2.7.4.post1` depends on `torch`, but doesn't "
      "declare it as a build dependency. If `flash-attn` is a first-party package, consider adding `torch` to its "
      "`build-system.requires`. Otherwise, `uv pip install torch` into the environment and re-run with "
      "`--no-build-isolation`.\n");
  ASSERT_TRUE(leads_with(r, "build-isolation-missing-module"));
  EXPECT_TRUE(contains(r.matches.front().cause, "flash-attn@2.7.4.post1 imports torch")) << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().fix, "uv pip install PKG --no-build-isolation")) << r.matches.front().fix;
}

// nvcc reports its killed front end, gcc its killed cc1plus: memory, with flash-attn's MAX_JOBS.
TEST(ExplainExtensionPackages, AKilledCompilerIsMemoryAndMaxJobs) {
  for (const char* line : {"nvcc error   : 'cicc' died due to signal 9 (Kill signal)",
                           "c++: fatal error: Killed signal terminated program cc1plus"}) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "compiler-killed-out-of-memory")) << line;
    EXPECT_TRUE(contains(r.matches.front().fix, "MAX_JOBS=")) << r.matches.front().fix;
  }
}

// Wordings of known problems that had no answer: torchvision's two CUDA-check messages (older
// "different CUDA versions", and "Couldn't load custom C++ ops"), nvcc missing in the words of
// the shell, Ubuntu's command-not-found and Chinese Windows, and Triton's missing C compiler.
TEST(ExplainExtensionPackages, MoreWordingsOfKnownBuildProblems) {
  const std::pair<const char*, const char*> cases[] = {
      {"RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA versions. PyTorch has "
       "CUDA Version=11.7 and torchvision has CUDA Version=11.8. Please reinstall the torchvision that matches your "
       "PyTorch install.",
       "torchvision-built-for-another-torch"},
      {"RuntimeError: Couldn't load custom C++ ops. This can happen if your PyTorch and torchvision versions are "
       "incompatible, or if you had errors while compiling torchvision from source.",
       "torchvision-built-for-another-torch"},
      {"/bin/sh: 1: /usr/local/cuda/bin/nvcc: No such file or directory", "nvcc-not-found"},
      {"Command 'nvcc' not found, but can be installed with:", "nvcc-not-found"},
      {"'nvcc' 不是内部或外部命令，也不是可运行的程序", "nvcc-not-found"},
      {"RuntimeError: Failed to find C compiler. Please specify via CC environment variable.", "triton-no-c-compiler"},
  };
  for (const auto& [line, rule] : cases) EXPECT_TRUE(leads_with(explain_no_facts(line), rule)) << line;
}

// The dispatcher's words (c10 OperatorEntry::reportError) for a torchvision operator with no
// CUDA kernel: a CPU-only torchvision beside a CUDA torch.
TEST(ExplainExtensionPackages, TorchvisionOperatorWithoutACudaKernelIsTheWrongTorchvision) {
  const auto r = explain_no_facts(
      "NotImplementedError: Could not run 'torchvision::nms' with arguments from the 'CUDA' backend. This could "
      "be because the operator doesn't exist for this backend, or was omitted during the selective/custom build "
      "process (if using custom build).\n");
  ASSERT_TRUE(leads_with(r, "torchvision-built-for-another-torch"));
}

// torch/utils/cpp_extension.py _get_cuda_arch_flags: an architecture this PyTorch's list does not
// have, from TORCH_CUDA_ARCH_LIST (or, in old releases, from the GPU itself).
TEST(ExplainExtensionPackages, UnknownCudaArchIsAPytorchOlderThanTheArchitecture) {
  const auto r = explain_no_facts(
      "  File \"/usr/lib/python3/dist-packages/torch/utils/cpp_extension.py\", line 1793, in _get_cuda_arch_flags\n"
      "    raise ValueError(f\"Unknown CUDA arch ({arch}) or GPU not supported\")\n"
      "ValueError: Unknown CUDA arch (12.0+PTX) or GPU not supported\n");
  ASSERT_TRUE(leads_with(r, "torch-extension-unknown-cuda-arch"));
  EXPECT_TRUE(contains(r.matches.front().cause, "12.0+PTX")) << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().fix, "TORCH_CUDA_ARCH_LIST")) << r.matches.front().fix;
}

// The same wrong-environment answer as torch's for the other frameworks' modules.
TEST(ExplainExtensionPackages, NoModuleNamedTensorflowOrJaxIsTheWrongEnvironment) {
  for (const char* module : {"tensorflow", "jax"}) {
    const auto r = explain_no_facts(std::string("ModuleNotFoundError: No module named '") + module + "'\n");
    ASSERT_TRUE(leads_with(r, "framework-not-importable")) << module;
    EXPECT_TRUE(contains(r.matches.front().fix, std::string("pip show ") + module)) << r.matches.front().fix;
  }
  // Another module of the same family is not the framework itself.
  EXPECT_EQ(find_rule(explain_no_facts("ModuleNotFoundError: No module named 'tensorflow_addons'\n"),
                      "framework-not-importable"),
            nullptr);
}

// torch/utils/cpp_extension.py verify_ninja_availability, on a JIT build of an extension.
TEST(ExplainExtensionPackages, NinjaMissingForAJitExtensionBuild) {
  const auto r = explain_no_facts("RuntimeError: Ninja is required to load C++ extensions\n");
  ASSERT_TRUE(leads_with(r, "torch-extension-ninja-missing"));
  EXPECT_TRUE(contains(r.matches.front().fix, "pip install ninja")) << r.matches.front().fix;
}

// nvcc's deprecation notices are warnings: the build goes on.
TEST(ExplainExtensionPackages, NvccDeprecatedArchitecturesAreAHarmlessNotice) {
  for (const char* line :
       {"nvcc warning : The 'compute_35', 'compute_37', 'sm_35', and 'sm_37' architectures are deprecated, and may be "
        "removed in a future release (Use -Wno-deprecated-gpu-targets to suppress warning).\n",
        "nvcc warning : Support for offline compilation for architectures prior to '<compute/sm/lto>_75' will be "
        "removed in a future release (Use -Wno-deprecated-gpu-targets to suppress warning).\n"}) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "nvcc-architecture-deprecated")) << line;
    EXPECT_TRUE(r.matches.front().harmless);
  }
}

// Serialized TensorRT engines are tied to the TensorRT version and the GPU that built them.
TEST(ExplainExtensionPackages, TensorrtEngineFromAnotherVersionOrGpuMustBeRebuilt) {
  const auto tag = explain_no_facts(
      "[06/29/2022-16:20:45] [TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::35] Error Code 1: Serialization "
      "(Serialization assertion safeVersionRead == safeSerializationVersion failed.Version tag does not match. Note: "
      "Current Version: 0, Serialized Engine Version: 43)\n"
      "[06/29/2022-16:20:45] [TRT] [E] 4: [runtime.cpp::deserializeCudaEngine::50] Error Code 4: Internal Error "
      "(Engine deserialization failed.)\n");
  ASSERT_TRUE(leads_with(tag, "tensorrt-engine-incompatible"));
  EXPECT_TRUE(contains(tag.matches.front().fix, "trtexec")) << tag.matches.front().fix;
  const auto device = explain_no_facts(
      "[TRT] [E] 6: The engine plan file is generated on an incompatible device, expecting compute 8.6 got compute "
      "8.0, please rebuild.\n");
  ASSERT_TRUE(leads_with(device, "tensorrt-engine-incompatible"));
  EXPECT_TRUE(contains(device.matches.front().cause, "8.6")) << device.matches.front().cause;
}

TEST(ExplainExtensionPackages, TensorrtUnsupportedSmIsTensorrtOlderThanTheGpu) {
  const auto r = explain_no_facts(
      "INTERNAL_ERROR: Assertion failed: Unsupported SM.\n../rtSafe/cuda/caskUtils.cpp:80\nAborting...\n");
  ASSERT_TRUE(leads_with(r, "tensorrt-unsupported-sm"));
  EXPECT_EQ(r.matches.front().category, "gpu-arch-unsupported");
}

// bitsandbytes' cuda_setup looks for libcuda.so by name; WSL2 keeps it in /usr/lib/wsl/lib.
TEST(ExplainExtensionPackages, BitsandbytesWithoutLibcudaIsTheDriverLibraryNotFound) {
  const std::string log =
      "UserWarning: The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, 8-bit "
      "multiplication, and GPU quantization are unavailable.\n"
      "CUDA SETUP: WARNING! libcuda.so not found! Do you have a CUDA driver installed? If you are on a cluster, make "
      "sure you are on a CUDA machine!\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "bitsandbytes-libcuda-not-found"));
  const auto wsl = explain_text(builtin_matcher(), log, ExplainMachine{Platform::wsl2});
  EXPECT_EQ(category_rank(wsl, "wsl2-specific"), 1u);
}

// CTranslate2 asks compute capability 7.0 or newer of a GPU for efficient float16; on the CPU
// it has none.
TEST(ExplainExtensionPackages, CtranslateFloat16NeedsAVoltaOrNewerGpu) {
  const auto error = explain_no_facts(
      "ValueError: Requested float16 compute type, but the target device or backend do not support efficient "
      "float16 computation.\n");
  ASSERT_TRUE(leads_with(error, "ctranslate2-float16-unsupported"));
  EXPECT_EQ(error.matches.front().category, "gpu-arch-unsupported");
  EXPECT_TRUE(contains(error.matches.front().fix, "int8")) << error.matches.front().fix;
  const auto warning = explain_no_facts(
      "[ctranslate2] [thread 144] [warning] The compute type inferred from the saved model is float16, but the "
      "target device or backend do not support efficient float16 computation. The model weights have been "
      "automatically converted to use the float32 compute type instead.\n");
  ASSERT_TRUE(leads_with(warning, "ctranslate2-float16-converted"));
  EXPECT_TRUE(contains(warning.matches.front().fix, "device=\"cuda\"")) << warning.matches.front().fix;
}

TEST(ExplainExtensionPackages, AnMmcvOpWithoutItsCudaImplementationIsAMmcvBuiltWithoutCuda) {
  // mmcv's device registry (ops/csrc/common/pytorch_device_registry.hpp) names the op and the
  // device it has no kernel for: a CUDA device means mmcv was built without its CUDA ops.
  auto r = explain_no_facts(
      "  File \"/home/me/.conda/envs/mm/lib/python3.8/site-packages/mmcv/ops/nms.py\", line 28, in forward\n"
      "RuntimeError: nms_impl: implementation for device cuda:0 not found.\n");
  ASSERT_TRUE(leads_with(r, "mmcv-op-without-device-kernel"));
  EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
  EXPECT_NE(r.matches.front().cause.find("nms_impl"), std::string::npos) << r.matches.front().cause;
  // The CPU has no kernel for some ops at all: that is the op, not the build.
  r = explain_no_facts(
      "RuntimeError: diff_iou_rotated_sort_vertices_forward_impl: implementation for device cpu not "
      "found.\n");
  ASSERT_TRUE(leads_with(r, "mmcv-op-without-cpu-kernel"));
  EXPECT_EQ(r.matches.front().category, "other");
}

// DGL's device registry (src/runtime/c_runtime_api.cc, DeviceAPIManager::GetAPI) refuses a device
// type its build has no API for, in the package's own words: a CPU build of DGL.
TEST(ExplainExtensionPackages, DglWithoutItsCudaDeviceApiIsACpuBuildOfDgl) {
  for (const char* line :
       {"dgl._ffi.base.DGLError: [10:31:07] /opt/dgl/src/runtime/c_runtime_api.cc:82: Check failed: allow_missing: "
        "Device API cuda is not enabled. Please install the cuda version of dgl.",
        "DGLError: [09:02:44] /tmp/dgl/src/runtime/c_runtime_api.cc:88: Check failed: allow_missing: Device API gpu "
        "is not enabled. Please install the cuda version of dgl."}) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "dgl-cpu-build")) << line;
    EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
    EXPECT_NE(r.matches.front().fix.find("data.dgl.ai/wheels"), std::string::npos) << r.matches.front().fix;
  }
}

// bitsandbytes before 0.43 (cuda_setup/main.py) looked for Linux's libcudart.so on every
// platform; on native Windows its paths print as WindowsPath(...), and no Windows binary existed.
TEST(ExplainExtensionPackages, OldBitsandbytesSearchingLibcudartOnWindowsIsNativeWindows) {
  const auto windows = explain_no_facts(
      "CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in backup paths...\n"
      "The following directories listed in your path were found to be non-existent: "
      "{WindowsPath('C:/Users/me/miniconda3/envs/lora/lib')}\n");
  ASSERT_FALSE(windows.matches.empty());
  EXPECT_EQ(windows.matches.front().category, "windows-native-gpu-unsupported") << windows.matches.front().rule;
  EXPECT_EQ(windows.matches.front().rule, "bitsandbytes-libcudart-not-found/windows-before-0.43");
  // On Linux the same search is the runtime library off the loader's path.
  const auto linux_log = explain_no_facts(
      "CUDA_SETUP: WARNING! libcudart.so not found in any environmental path. Searching in backup paths...\n"
      "The following directories listed in your path were found to be non-existent: "
      "{PosixPath('/usr/local/cuda/lib64')}\n");
  ASSERT_TRUE(leads_with(linux_log, "bitsandbytes-libcudart-not-found"));
  EXPECT_EQ(linux_log.matches.front().category, "path-or-env-misconfigured");
}

}  // namespace
}  // namespace gpudoctor
