// Session 38: answers the session 37 notes left wrong for one framework or one direction.
// - ONNX Runtime's logs (log-fact-onnxruntime: `[E:onnxruntime:`, onnxruntime/capi/ frames) that
//   name a missing cudart or cuDNN on a line of their own were answered with TensorFlow's install
//   commands (`pip install tensorflow[and-cuda]`, TF <= 2.10's conda line) by cudart-missing and
//   cudnn-library-missing, as cuda-library-missing was until session 37.
// - The reverse C++ ABI case: an extension built with the old ABI (_GLIBCXX_USE_CXX11_ABI=0, a
//   flash-attn cxx11abiFALSE wheel) under a PyTorch with the new one (pip wheels since 2.7, 2.6's
//   cu126) misses the old spelling of std::string, `Ss` (g++ -D_GLIBCXX_USE_CXX11_ABI=0 mangles
//   c10::Error(SourceLocation, std::string) as _ZN3c105ErrorC1ENS_14SourceLocationESs; =1 as
//   ...ENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE). flash-attention#1644: torch 2.7.0+cu128.
// - CuPy and NVRTC, read where CuPy prints them (cupy/cupy@6b6d956): CuPy 13 and older load NVRTC
//   by soname and raise "CuPy failed to load <lib>: <error>" (cupy_backends/cuda/_softlink.pyx),
//   from a system CUDA Toolkit only; CuPy 14 and other NVIDIA packages find libraries through
//   cuda.pathfinder, whose DynamicLibNotFoundError reads 'Failure finding "libnvrtc.so": ...'
//   (NVIDIA/cuda-python find_nvidia_dynamic_lib.py). CuPy's install guide lists the NVRTC
//   compile errors of missing CUDA headers and of a CUDA it cannot detect.
// - PyTorch 2.1+'s OOM without a "this process" entry (in a container NVML gives host PIDs, so every
//   process, this one too, is a "Process N"; or NVML lists none): what PyTorch itself reserved is
//   still in the message ("Of the allocated memory A is allocated by PyTorch, and U is reserved by
//   PyTorch but unallocated"), so a card mostly held outside it is still recognised.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "explain/explain_session.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;

/// TensorFlow's install advice: its pip command, its Windows conda line, its tested-configuration page.
bool names_tensorflow(const std::string& text) {
  return testing::mentions(text, "pip install tensorflow") || testing::mentions(text, "TensorFlow >=") ||
         testing::mentions(text, "TF <=") || testing::mentions(text, "tensorflow.org/install") ||
         testing::mentions(text, "TensorFlow itself says");
}

TEST(ExplainSession38, OnnxRuntimeCudartLineGetsNoTensorFlowCommand) {
  const auto r = explain_no_facts(
      "Traceback (most recent call last):\n"
      "  File \"/home/u/venv/lib/python3.10/site-packages/onnxruntime/capi/onnxruntime_inference_collection.py\", "
      "line 419, in __init__\n"
      "    self._create_inference_session(providers, provider_options, disabled_optimizers)\n"
      "OSError: libcudart.so.12: cannot open shared object file: No such file or directory\n");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_FALSE(names_tensorflow(testing::told(r))) << testing::told(r);
  const ExplainMatch* ort = find_rule(r, "cudart-missing/onnxruntime");
  ASSERT_NE(ort, nullptr) << testing::rule_list(r);
  EXPECT_TRUE(testing::says_all(ort->fix, {"onnxruntime-gpu[cuda,cudnn]", "preload_dlls"}));
  EXPECT_TRUE(testing::mentions(ort->cause, "libcudart.so.12")) << ort->cause;

  // TensorFlow's own line keeps TensorFlow's command.
  const auto tf = explain_no_facts(
      "2023-05-01 10:00:00.000000: W tensorflow/compiler/xla/stream_executor/platform/default/dso_loader.cc:64] "
      "Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object "
      "file: No such file or directory\n");
  EXPECT_TRUE(testing::mentions(testing::told(tf), "tensorflow[and-cuda]")) << testing::told(tf);
}

TEST(ExplainSession38, OnnxRuntimeCudnnLineGetsNoTensorFlowCommand) {
  const auto r = explain_no_facts(
      "2024-05-01 12:00:00.000 [E:onnxruntime:Default, provider_bridge_ort.cc:1744 "
      "onnxruntime::TryGetProviderInfo_CUDA] "
      "D:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1426 "
      "onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 \"\" when "
      "trying to load \"C:\\Python311\\Lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll\"\n"
      "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!\n");
  ASSERT_FALSE(r.matches.empty());
  EXPECT_FALSE(names_tensorflow(testing::told(r))) << testing::told(r);
  const ExplainMatch* ort = find_rule(r, "cudnn-library-missing/onnxruntime");
  ASSERT_NE(ort, nullptr) << testing::rule_list(r);
  EXPECT_TRUE(testing::mentions(ort->fix, "preload_dlls")) << ort->fix;
  EXPECT_TRUE(testing::mentions(ort->cause, "cudnn_ops_infer64_8.dll")) << ort->cause;
  // A Windows line: no Linux directories.
  EXPECT_FALSE(testing::mentions(ort->fix, "LD_LIBRARY_PATH")) << ort->fix;

  const auto tf =
      explain_no_facts("Could not load dynamic library 'cudnn64_8.dll'; dlerror: cudnn64_8.dll not found\n");
  EXPECT_TRUE(testing::mentions(testing::told(tf), "TF <= 2.10")) << testing::told(tf);
}

constexpr std::string_view kS38OldAbiExtension =
    "ImportError: /home/u/.local/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: "
    "undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationESs\n";

TEST(ExplainSession38, OldAbiExtensionUnderANewAbiTorchIsTheAbiNotTheRelease) {
  // The torch the log names uses the C++11 ABI: the extension's old ABI is the cause.
  const auto r = explain_no_facts(std::string("torch.__version__ = 2.7.0+cu128\n") + std::string(kS38OldAbiExtension));
  ASSERT_TRUE(testing::leads_with(r, "torch-extension-pre-cxx11-abi-mismatch")) << testing::rule_list(r);
  const ExplainMatch& m = r.matches.front();
  EXPECT_EQ(m.facts_verdict, "supported");
  EXPECT_TRUE(testing::mentions(m.cause, "_GLIBCXX_USE_CXX11_ABI=0")) << m.cause;
  EXPECT_TRUE(testing::mentions(m.fix, "cxx11abiTRUE")) << m.fix;
  EXPECT_FALSE(testing::mentions(m.fix, "cxx11abiFALSE build")) << m.fix;
  EXPECT_EQ(find_rule(r, "torch-extension-abi-mismatch"), nullptr) << testing::rule_list(r);

  // const std::string& (RKSs) in torchCheckFail, the other common one.
  const auto check = explain_no_facts(
      "ImportError: /opt/venv/lib/python3.12/site-packages/my_ops/_C.so: undefined symbol: "
      "_ZN3c106detail14torchCheckFailEPKcS2_jRKSs\n");
  ASSERT_TRUE(testing::leads_with(check, "torch-extension-pre-cxx11-abi-mismatch")) << testing::rule_list(check);

  // A torch with the old ABI (2.4 from PyPI): both use it, so another release is the cause.
  const auto old = explain_no_facts(std::string("torch 2.4.1+cu121\n") + std::string(kS38OldAbiExtension));
  ASSERT_FALSE(old.matches.empty());
  EXPECT_EQ(old.matches.front().rule, "torch-extension-pre-cxx11-abi-mismatch/other-release")
      << testing::rule_list(old);

  // A symbol with no std::string (no Ss) stays the release answer; "Ss" inside a name is not the ABI.
  const auto plain = explain_no_facts(
      "ImportError: /x/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: "
      "_ZN3c104cuda9SetDeviceEi\n");
  ASSERT_TRUE(testing::leads_with(plain, "torch-extension-abi-mismatch")) << testing::rule_list(plain);
  const auto name =
      explain_no_facts("ImportError: /x/_C.so: undefined symbol: _ZN2at4_ops10ClassSsOps4callERKNS_6TensorE\n");
  ASSERT_TRUE(testing::leads_with(name, "torch-extension-abi-mismatch")) << testing::rule_list(name);
}

TEST(ExplainSession38, CupyFailedToLoadNvrtcIsCupysLoaderNotAWrongBuild) {
  // cuml#7314's chained form: the ctypes OSError inside CuPy's SoftLink, then CuPy's RuntimeError.
  const auto r = explain_no_facts(
      "Traceback (most recent call last):\n"
      "  File \"cupy_backends/cuda/_softlink.pyx\", line 25, in cupy_backends.cuda._softlink.SoftLink.__init__\n"
      "  File \"/usr/lib/python3.12/ctypes/__init__.py\", line 379, in __init__\n"
      "    self._handle = _dlopen(self._name, mode)\n"
      "OSError: libnvrtc.so.12: cannot open shared object file: No such file or directory\n"
      "\n"
      "The above exception was the direct cause of the following exception:\n"
      "\n"
      "RuntimeError: CuPy failed to load libnvrtc.so.12: OSError: libnvrtc.so.12: cannot open shared object file: No "
      "such file or directory\n");
  ASSERT_TRUE(testing::leads_with(r, "cupy-library-not-loaded")) << testing::rule_list(r);
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(testing::mentions(m.cause, "CUDA Toolkit")) << m.cause;
  EXPECT_TRUE(testing::says_all(m.fix, {"cupy-cuda12x[ctk]", "LD_LIBRARY_PATH"}));
  // One answer: not also "a package built for another CUDA".
  EXPECT_EQ(find_rule(r, "python-import-cuda-lib-version-missing"), nullptr) << testing::rule_list(r);
  EXPECT_EQ(find_rule(r, "cuda-library-missing"), nullptr) << testing::rule_list(r);

  // Windows (ComfyUI-fastblend#4): no Linux advice.
  const auto win = explain_no_facts(
      "CuPy failed to load nvrtc64_120_0.dll: FileNotFoundError: Could not find module 'nvrtc64_120_0.dll' (or one "
      "of its dependencies). Try using the full path with constructor syntax.\n");
  ASSERT_TRUE(testing::leads_with(win, "cupy-library-not-loaded")) << testing::rule_list(win);
  EXPECT_FALSE(testing::mentions(win.matches.front().fix, "LD_LIBRARY_PATH")) << win.matches.front().fix;
  EXPECT_TRUE(testing::mentions(win.matches.front().fix, "CUDA_PATH")) << win.matches.front().fix;
  EXPECT_EQ(find_rule(win, "cuda-library-missing"), nullptr) << testing::rule_list(win);
}

TEST(ExplainSession38, PathfinderNotFindingALibraryNamesTheWheelAndCudaHome) {
  const auto r = explain_no_facts(
      "cuda.pathfinder._dynamic_libs.load_dl_common.DynamicLibNotFoundError: Failure finding \"libnvrtc.so\": No "
      "such file: libnvrtc.so*, No such file: /usr/local/cuda/lib64/libnvrtc.so\n"
      "  listdir(\"/usr/local/cuda/lib64\"):\n"
      "    DIRECTORY DOES NOT EXIST\n");
  ASSERT_TRUE(testing::leads_with(r, "cuda-pathfinder-library-not-found")) << testing::rule_list(r);
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(testing::mentions(m.cause, "libnvrtc.so")) << m.cause;
  EXPECT_TRUE(testing::says_all(m.fix, {"cuda-toolkit[nvrtc]", "CUDA_HOME"}));
}

TEST(ExplainSession38, NvrtcHeaderAndBuiltinsErrorsAreNamed) {
  // CuPy's install guide: on CUDA 12.2+ kernels need the CUDA Runtime's headers.
  const auto headers = explain_no_facts(
      "cupy.cuda.compiler.CompileException: /tmp/tmpq1w2e3/0a1b2c.cubin.cu(1): catastrophic error: cannot open "
      "source file \"vector_types.h\"\n");
  ASSERT_TRUE(testing::leads_with(headers, "nvrtc-cuda-headers-not-found")) << testing::rule_list(headers);
  EXPECT_TRUE(testing::mentions(headers.matches.front().fix, "nvidia-cuda-runtime-cu12"))
      << headers.matches.front().fix;
  EXPECT_TRUE(testing::mentions(headers.matches.front().fix, "cuda-cudart-dev")) << headers.matches.front().fix;
  const auto fp16 = explain_no_facts("error: identifier \"__half_raw\" is undefined\n");
  ASSERT_TRUE(testing::leads_with(fp16, "nvrtc-cuda-headers-not-found")) << testing::rule_list(fp16);

  const auto builtins = explain_no_facts("nvrtc: error: failed to load builtins\n");
  ASSERT_TRUE(testing::leads_with(builtins, "nvrtc-builtins-not-loaded")) << testing::rule_list(builtins);
}

TEST(ExplainSession38, TwoCupyPackagesInOneEnvironmentAreNamed) {
  const auto r = explain_no_facts(
      "/venv/lib/python3.11/site-packages/cupy/_environment.py:216: UserWarning: \n"
      "--------------------------------------------------------------------------------\n"
      "\n"
      "  CuPy may not function correctly because multiple CuPy packages are installed\n"
      "  in your environment:\n"
      "\n"
      "    cupy-cuda11x, cupy-cuda12x\n");
  ASSERT_TRUE(testing::leads_with(r, "cupy-multiple-packages")) << testing::rule_list(r);
  EXPECT_TRUE(testing::mentions(r.matches.front().fix, "pip uninstall")) << r.matches.front().fix;
}

TEST(ExplainSession38, OomWithOnlyHostPidsStillSeesMemoryHeldOutsideThisPyTorch) {
  // Two host PIDs: this process (about its 12.35 GiB of PyTorch) and another holding 11 GiB.
  const auto r = explain_no_facts(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU 0 has a total capacity of 23.69 "
      "GiB of which 21.06 MiB is free. Process 3019 has 11.00 GiB memory in use. Process 51234 has 12.66 GiB memory "
      "in use. Of the allocated memory 12.20 GiB is allocated by PyTorch, and 150.00 MiB is reserved by PyTorch but "
      "unallocated. If reserved but unallocated memory is large try setting "
      "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.\n");
  ASSERT_TRUE(testing::leads_with(r, "torch-cuda-oom-held-outside-pytorch")) << testing::rule_list(r);
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(testing::says_all(m.cause, {"Process 3019 has 11.00 GiB", "12.20 GiB"}));
  EXPECT_TRUE(testing::mentions(m.fix, "host")) << m.fix;
  EXPECT_EQ(find_rule(r, "torch-cuda-oom"), nullptr) << testing::rule_list(r);

  // NVML listed nothing (no "Process" entry at all): the same reading from PyTorch's own numbers.
  const auto none = explain_no_facts(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 "
      "GiB of which 1.05 GiB is free. Of the allocated memory 30.12 GiB is allocated by PyTorch, and 1.20 GiB is "
      "reserved by PyTorch but unallocated.\n");
  ASSERT_TRUE(testing::leads_with(none, "torch-cuda-oom-held-outside-pytorch")) << testing::rule_list(none);

  // This process's PyTorch holds nearly all of it (session 37's container case): the memory answer.
  const auto own = explain_no_facts(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 546.00 MiB. GPU 0 has a total capacity of 15.77 "
      "GiB of which 514.19 MiB is free. Process 562167 has 15.25 GiB memory in use. Of the allocated memory 13.73 GiB "
      "is allocated by PyTorch, with 46.00 MiB allocated in private pools (e.g., CUDA Graphs), and 736.86 MiB is "
      "reserved by PyTorch but unallocated.\n");
  ASSERT_TRUE(testing::leads_with(own, "torch-cuda-oom")) << testing::rule_list(own);
  EXPECT_EQ(find_rule(own, "torch-cuda-oom-held-outside-pytorch"), nullptr) << testing::rule_list(own);

  // With "this process" listed, torch-cuda-oom-other-process reads it; this rule stays out.
  const auto listed = explain_no_facts(
      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 256.00 MiB. GPU 0 has a total capacity of 23.65 "
      "GiB of which 118.44 MiB is free. Process 24689 has 12.31 GiB memory in use. Including non-PyTorch memory, this "
      "process has 11.21 GiB memory in use. Of the allocated memory 10.62 GiB is allocated by PyTorch, and 145.20 MiB "
      "is reserved by PyTorch but unallocated.\n");
  ASSERT_TRUE(testing::leads_with(listed, "torch-cuda-oom-other-process")) << testing::rule_list(listed);
  EXPECT_EQ(find_rule(listed, "torch-cuda-oom-held-outside-pytorch"), nullptr) << testing::rule_list(listed);
}

}  // namespace
}  // namespace gpudoctor
