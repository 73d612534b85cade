// Unseen logs, session 37 review (B): answers that were right only for another version, another
// cause of the same message, or that ranked a rarer cause first; and two messages no rule knew.
// Each rule was written from where its message is printed (PyTorch's torch/__init__.py and
// c10/cuda, JAX's jax_plugins/cuda/__init__.py, flash-attention's setup.py, the Kubernetes
// scheduler's noderesources plugin, Numba's cudadrv/nvvm.py); docs/explain.md, "Unseen logs,
// session 37 review (B)".
#include <gtest/gtest.h>

#include <string>

#include "explain/explain_machine.hpp"
#include "explain/explain_session.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain;
using testing::find_rule;
using testing::leads_with;
using testing::problem_count;

// --- Item 4: torch 2.4.0's fbgemm.dll needs libomp140.x86_64.dll (pytorch#131662, fixed in 2.4.1).
const char* const kFbgemmComfyLog =
    "K:\\ComfyUI_windows_portable_nvidia_or_cpu_nightly_pytorch\\ComfyUI_windows_portable_nightly_pytorch>"
    ".\\python_embeded\\python.exe -s ComfyUI\\main.py --cpu --windows-standalone-build\n"
    "Traceback (most recent call last):\n"
    "  File \"K:\\ComfyUI\\python_embeded\\Lib\\site-packages\\torch\\__init__.py\", line 148, in <module>\n"
    "    raise err\n"
    "OSError: [WinError 126] The specified module could not be found.\xe3\x80\x82 Error loading "
    "\"K:\\ComfyUI\\python_embeded\\Lib\\site-packages\\torch\\lib\\fbgemm.dll\" or one of its dependencies.\n";

TEST(ExplainReview37b, Torch240FbgemmNeedsLibompAndTheFixIsTorch241NotTheVcRedistributable) {
  const ExplainReport r = explain(kFbgemmComfyLog);
  ASSERT_TRUE(leads_with(r, "torch-windows-fbgemm-dll")) << testing::rule_list(r);
  EXPECT_EQ(find_rule(r, "framework-native-library-missing"), nullptr) << testing::rule_list(r);
  const ExplainMatch& top = r.matches.front();
  EXPECT_TRUE(testing::mentions(top.cause, "libomp140.x86_64.dll")) << top.cause;
  EXPECT_TRUE(testing::mentions(top.cause, "2.4.0")) << top.cause;
  EXPECT_TRUE(testing::mentions(top.fix, "torch>=2.4.1")) << top.fix;
  // The run used --cpu: no CUDA wheel index is pushed on it.
  const std::string all = testing::told(r);
  EXPECT_FALSE(testing::mentions(all, "whl/cu128")) << all;
  EXPECT_FALSE(testing::mentions(all, "index-url https://download.pytorch.org/whl/cu")) << all;
  EXPECT_EQ(problem_count(r), 1u);

  // The format torch/__init__.py (_load_dll_libraries) prints, on a plain venv path and a CUDA build.
  const ExplainReport venv = explain(
      "OSError: [WinError 126] The specified module could not be found. Error loading "
      "\"C:\\Users\\me\\venv\\Lib\\site-packages\\torch\\lib\\fbgemm.dll\" or one of its dependencies.\n");
  ASSERT_TRUE(leads_with(venv, "torch-windows-fbgemm-dll")) << testing::rule_list(venv);
}

// Another release than 2.4.0 in the log: its fbgemm.dll imports only the Visual C++ runtime, so the
// libomp reading is contradicted and the runtime leads.
TEST(ExplainReview37b, FbgemmWithAnotherTorchReleaseLeadsWithTheVisualCppRuntime) {
  const std::string log =
      "Successfully installed torch-2.5.1+cu124\n"
      "OSError: [WinError 126] The specified module could not be found. Error loading "
      "\"C:\\Users\\me\\venv\\Lib\\site-packages\\torch\\lib\\fbgemm.dll\" or one of its dependencies.\n";
  const ExplainReport r = explain(log);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().rule, "torch-windows-fbgemm-dll/vc-runtime") << testing::rule_list(r);
  const ExplainReport pinned = explain(
      "Successfully installed torch-2.4.0+cpu\n"
      "OSError: [WinError 126] The specified module could not be found. Error loading "
      "\"C:\\venv\\Lib\\site-packages\\torch\\lib\\fbgemm.dll\" or one of its dependencies.\n");
  ASSERT_TRUE(leads_with(pinned, "torch-windows-fbgemm-dll")) << testing::rule_list(pinned);
  EXPECT_TRUE(testing::mentions(pinned.matches.front().fix, "whl/cpu")) << pinned.matches.front().fix;
}

// Near miss: another DLL of torch\lib keeps the general answer.
TEST(ExplainReview37b, AnotherTorchDllIsNotTheFbgemmAnswer) {
  const ExplainReport r = explain(
      "OSError: [WinError 126] The specified module could not be found. Error loading "
      "\"C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll\" or one of its dependencies.\n");
  EXPECT_EQ(find_rule(r, "torch-windows-fbgemm-dll"), nullptr) << testing::rule_list(r);
  EXPECT_NE(find_rule(r, "framework-native-library-missing"), nullptr) << testing::rule_list(r);
}

// --- Item 9: JAX's "Unable to load cuSPARSE" with the wheels installed: an older nvJitLink first.
const char* const kJaxCusparseLog =
    "ERROR:2025-07-08 12:39:34,990 jax._src.xla_bridge:444] Jax plugin configuration error: Exception when calling "
    "jax_plugins.xla_cuda12.initialize()\n"
    "RuntimeError: Unable to load cuSPARSE. Is it installed?\n"
    "WARNING:2025-07-08 12:39:34,994 jax._src.xla_bridge:794] An NVIDIA GPU may be present on this machine, but a "
    "CUDA-enabled jaxlib is not installed. Falling back to cpu.\n";

TEST(ExplainReview37b, JaxCusparseWithWheelsAndAnOlderNvjitlinkOnTheLibraryPathLeadsWithThePath) {
  // The reporter's LD_DEBUG output (jax#30050): the wheel's cuSPARSE needs libnvJitLink.so.12 and the
  // loader searches LD_LIBRARY_PATH (an HPC SDK's CUDA 12.4) first.
  const std::string log = std::string(kJaxCusparseLog) +
                          "      4709:\tfile=libnvJitLink.so.12 [0];  needed by "
                          "/home/u/mamba/envs/s2fft/lib/python3.11/site-packages/nvidia/cusparse/lib/libcusparse.so.12 "
                          "[0]\n"
                          "      4709:\t search path=/opt/nvidia/hpc_sdk/Linux_x86_64/24.5/cuda/12.4/lib64:"
                          "/opt/nvidia/hpc_sdk/Linux_x86_64/24.5/math_libs/12.4/lib64\t\t(LD_LIBRARY_PATH)\n";
  const ExplainReport r = explain(log);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().rule, "jax-cuda-library-not-loadable/older-dependency-first") << testing::rule_list(r);
  const ExplainMatch& top = r.matches.front();
  EXPECT_TRUE(testing::mentions(top.cause, "libnvJitLink.so.12")) << top.cause;
  EXPECT_TRUE(testing::mentions(top.fix, "LD_LIBRARY_PATH")) << top.fix;
  EXPECT_FALSE(testing::mentions(top.fix, "pip install -U \"jax[cuda12]\"")) << top.fix;

  // uv's install list shows the wheels (jax#28929), and `echo $LD_LIBRARY_PATH` a system CUDA.
  const std::string uv = std::string(" + jax-cuda12-plugin==0.6.1\n + nvidia-cusparse-cu12==12.5.9.5\n") +
                         " + nvidia-nvjitlink-cu12==12.9.41\n" + kJaxCusparseLog;
  const ExplainReport w = explain(uv);
  ASSERT_FALSE(w.matches.empty());
  EXPECT_EQ(w.matches.front().rule, "jax-cuda-library-not-loadable/older-dependency-first") << testing::rule_list(w);
  const ExplainReport p = explain(std::string("$ echo $LD_LIBRARY_PATH\n/usr/local/cuda-12.1/lib64:\n") +
                                  "RuntimeError: Unable to initialize backend 'cuda': Unable to load cuSOLVER. Is it "
                                  "installed?\n");
  ASSERT_FALSE(p.matches.empty());
  EXPECT_EQ(p.matches.front().rule, "jax-cuda-library-not-loadable/older-dependency-first") << testing::rule_list(p);
}

// Near miss: the bare message keeps the wheels-missing answer first, the path reading after it.
TEST(ExplainReview37b, JaxCusparseAloneStillLeadsWithTheMissingWheel) {
  const ExplainReport r = explain(kJaxCusparseLog);
  ASSERT_TRUE(leads_with(r, "jax-cuda-library-not-loadable")) << testing::rule_list(r);
  EXPECT_TRUE(testing::mentions(r.matches.front().fix, "jax[cuda12]")) << r.matches.front().fix;
  EXPECT_NE(find_rule(r, "jax-cuda-library-not-loadable/older-dependency-first"), nullptr) << testing::rule_list(r);
}

// --- Item 10: an extension's missing symbol spelled with std::__cxx11: the C++11 ABI flag.
const char* const kFlashAbiLine =
    "ImportError: /data/u/miniconda3/envs/q/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu"
    ".so: undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE\n";

TEST(ExplainReview37b, FlashAttnCxx11SymbolNamesTheAbiFlagAndTheFalseWheel) {
  const std::string log = std::string(
                              "Traceback (most recent call last):\n"
                              "  File \"/data/u/site-packages/flash_attn/flash_attn_interface.py\", line 15, in "
                              "<module>\n"
                              "    import flash_attn_2_cuda as flash_attn_gpu\n") +
                          kFlashAbiLine;
  const ExplainReport r = explain(log);
  ASSERT_TRUE(leads_with(r, "torch-extension-cxx11-abi-mismatch")) << testing::rule_list(r);
  EXPECT_EQ(find_rule(r, "torch-extension-abi-mismatch"), nullptr) << testing::rule_list(r);
  const ExplainMatch& top = r.matches.front();
  EXPECT_TRUE(testing::mentions(top.cause, "_GLIBCXX_USE_CXX11_ABI")) << top.cause;
  EXPECT_TRUE(testing::mentions(top.fix, "cxx11abiFALSE")) << top.fix;
  EXPECT_TRUE(testing::mentions(top.fix, "torch._C._GLIBCXX_USE_CXX11_ABI")) << top.fix;
  EXPECT_EQ(problem_count(r), 1u);

  // A torch of the old ABI in the log (pip 2.4.1) confirms it; a 2.7 torch (new ABI) makes it
  // another release instead.
  const ExplainReport old_abi = explain(std::string("Successfully installed torch-2.4.1\n") + kFlashAbiLine);
  ASSERT_TRUE(leads_with(old_abi, "torch-extension-cxx11-abi-mismatch")) << testing::rule_list(old_abi);
  const ExplainReport new_abi = explain(std::string("Successfully installed torch-2.7.1+cu128\n") + kFlashAbiLine);
  ASSERT_FALSE(new_abi.matches.empty());
  EXPECT_EQ(new_abi.matches.front().rule, "torch-extension-cxx11-abi-mismatch/other-release")
      << testing::rule_list(new_abi);
  EXPECT_FALSE(testing::mentions(new_abi.matches.front().fix, "cxx11abiFALSE")) << new_abi.matches.front().fix;

  // The source's other shape: a torch:: function taking a std::string, from a custom op.
  const ExplainReport op = explain(
      "OSError: /venv/lib/python3.10/site-packages/my_ops/_C.so: undefined symbol: "
      "_ZN5torch3jit17parseSchemaOrNameERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE\n");
  ASSERT_TRUE(leads_with(op, "torch-extension-cxx11-abi-mismatch")) << testing::rule_list(op);
}

// Near miss: a torch symbol without __cxx11 keeps the release-mismatch answer.
TEST(ExplainReview37b, TorchSymbolWithoutCxx11IsStillAnotherRelease) {
  const ExplainReport r = explain(
      "ImportError: /usr/local/lib/python3.10/dist-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: "
      "undefined symbol: _ZN2at4_ops15sum_IntList_out4callERKNS_6TensorEN3c1016OptionalArrayRefIlEEbSt8optionalINS5_"
      "10ScalarTypeEERS2_\n");
  ASSERT_TRUE(leads_with(r, "torch-extension-abi-mismatch")) << testing::rule_list(r);
  EXPECT_EQ(find_rule(r, "torch-extension-cxx11-abi-mismatch"), nullptr) << testing::rule_list(r);
}

// --- Item 11: "No CUDA GPUs are available" when the program picks its GPUs itself.
TEST(ExplainReview37b, NoCudaGpusAfterTheProgramPicksAGpuLeadsWithCudaVisibleDevices) {
  const ExplainReport r = explain(
      "(corgs) user@host:CoR-GS$ bash scripts/run_360.sh\n"
      "Traceback (most recent call last):\n"
      "  File \"./exp/CoR-GS/utils/general_utils.py\", line 139, in safe_state\n"
      "    torch.cuda.set_device(torch.device(\"cuda:0\"))\n"
      "  File \"./.local/lib/python3.8/site-packages/torch/cuda/__init__.py\", line 293, in _lazy_init\n"
      "    torch._C._cuda_init()\n"
      "RuntimeError: No CUDA GPUs are available\n");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().rule, "torch-no-cuda-gpus/program-picks-gpu") << testing::rule_list(r);
  EXPECT_TRUE(testing::mentions(r.matches.front().fix, "CUDA_VISIBLE_DEVICES")) << r.matches.front().fix;
  EXPECT_NE(find_rule(r, "torch-no-cuda-gpus"), nullptr) << testing::rule_list(r);  // still listed
  // A script that sets the variable itself (the source's other way to choose).
  const ExplainReport env = explain(
      "+ CUDA_VISIBLE_DEVICES=7 python train.py --config configs/a.yaml\n"
      "RuntimeError: No CUDA GPUs are available\n");
  ASSERT_FALSE(env.matches.empty());
  EXPECT_EQ(env.matches.front().rule, "torch-no-cuda-gpus/program-picks-gpu") << testing::rule_list(env);
}

// Near miss: the bare message keeps the driver reading first.
TEST(ExplainReview37b, NoCudaGpusAloneKeepsTheDriverFirst) {
  const ExplainReport r = explain("RuntimeError: No CUDA GPUs are available\n");
  ASSERT_TRUE(leads_with(r, "torch-no-cuda-gpus")) << testing::rule_list(r);
  EXPECT_EQ(find_rule(r, "torch-no-cuda-gpus/program-picks-gpu"), nullptr) << testing::rule_list(r);
}

// WSL without adapters: the cheap check (is it WSL 2 at all) comes first in the fix.
TEST(ExplainReview37b, WslWithoutAdaptersChecksTheWslVersionFirst) {
  const ExplainReport r = explain(
      "nvidia-container-cli: initialization error: WSL environment detected but no adapters were found: unknown\n");
  ASSERT_TRUE(leads_with(r, "wsl-container-no-adapters")) << testing::rule_list(r);
  const std::string& fix = r.matches.front().fix;
  const size_t wsl = fix.find("wsl -l -v");
  ASSERT_NE(wsl, std::string::npos) << fix;
  EXPECT_LT(wsl, fix.find("nvidia-smi")) << fix;
}

// --- Probe gap: the Kubernetes scheduler's "Insufficient nvidia.com/gpu".
TEST(ExplainReview37b, KubernetesInsufficientGpuIsNoNodeAdvertisingAFreeGpu) {
  for (const std::string& log : {
           std::string("  Warning  FailedScheduling  2m  default-scheduler  0/1 nodes are available: 1 Insufficient "
                       "nvidia.com/gpu. preemption: 0/1 nodes are available: 1 No preemption victims found for "
                       "incoming pod.\n"),
           // Older schedulers (before 1.17): "0/%v nodes are available to run pod %v: %v."
           std::string("0/3 nodes are available to run pod gpu-job: 1 node(s) had taints that the pod didn't "
                       "tolerate, 2 Insufficient nvidia.com/gpu.\n"),
           // The cluster autoscaler's NotTriggerScaleUp event gives the same reason without the prefix.
           std::string("  Normal   NotTriggerScaleUp  30s  cluster-autoscaler  pod didn't trigger scale-up: 1 "
                       "Insufficient nvidia.com/gpu\n"),
       }) {
    const ExplainReport r = explain(log);
    ASSERT_TRUE(leads_with(r, "k8s-insufficient-nvidia-gpu")) << log << testing::rule_list(r);
    const std::string all = testing::told(r);
    EXPECT_TRUE(testing::mentions(all, "kubectl describe node")) << all;
    EXPECT_TRUE(testing::mentions(all, "nvidia-device-plugin")) << all;
    EXPECT_TRUE(testing::mentions(all, "Allocatable")) << all;
    if (log.find("nodes are available") != std::string::npos) {
      EXPECT_TRUE(testing::mentions(r.matches.front().cause, " node(s) short of it")) << r.matches.front().cause;
    }
  }
}

TEST(ExplainReview37b, KubernetesInsufficientCpuIsNotAGpuAnswer) {
  const ExplainReport r = explain("0/3 nodes are available: 1 Insufficient cpu, 2 Insufficient memory.\n");
  EXPECT_EQ(find_rule(r, "k8s-insufficient-nvidia-gpu"), nullptr) << testing::rule_list(r);
}

// --- Probe gap: Numba's "libNVVM cannot be found".
TEST(ExplainReview37b, NumbaLibnvvmNotFoundNamesWhereNumbaLooks) {
  for (const std::string& log : {
           std::string("numba.cuda.cudadrv.error.NvvmSupportError: libNVVM cannot be found. Do `conda install "
                       "cudatoolkit`:\n"
                       "libnvvm.so: cannot open shared object file: No such file or directory\n"),
           // numba-cuda (NVIDIA's package) up to 0.28 words it so.
           std::string("NvvmSupportError: libNVVM cannot be found. Please install the cuda-toolkit conda package:\n"
                       "libnvvm.so: cannot open shared object file: No such file or directory\n"),
       }) {
    const ExplainReport r = explain(log);
    ASSERT_TRUE(leads_with(r, "numba-libnvvm-not-found")) << log << testing::rule_list(r);
    const ExplainMatch& top = r.matches.front();
    EXPECT_EQ(top.category, "toolkit-missing");
    EXPECT_TRUE(testing::mentions(top.cause, "CUDA_HOME")) << top.cause;
    EXPECT_TRUE(testing::mentions(top.fix, "cuda-nvcc")) << top.fix;
    EXPECT_TRUE(testing::mentions(top.fix, "numba-cuda[cu12]")) << top.fix;
    EXPECT_EQ(problem_count(r), 1u) << testing::rule_list(r);
  }
}

TEST(ExplainReview37b, NumbaNvvmCompileErrorIsNotTheMissingLibrary) {
  const ExplainReport r = explain("numba.cuda.cudadrv.error.NvvmError: Failed to compile\n");
  EXPECT_EQ(find_rule(r, "numba-libnvvm-not-found"), nullptr) << testing::rule_list(r);
}

}  // namespace
}  // namespace gpudoctor
