// Unseen logs, session 39 review: answers that were missing or partial. Each rule was written from
// where its message is printed:
// - ONNX Runtime's LoadLibrary wording on Windows (core/platform/windows/env.cc) and the cuDNN
//   major of its CUDA 12 builds by release (1.17.x and 1.18.0 cuDNN 8, 1.18.1 and later cuDNN 9).
// - ggml-cuda's NO_DEVICE_CODE guard (ggml/src/ggml-cuda/common.cuh no_device_code).
// - CMake's FindCUDAToolkit.cmake "Could not find nvcc, please set CUDAToolkit_ROOT."
// - XLA's coordination service (coordination_service.cc): "Barrier timed out. Barrier_id: ...".
// - XLA's convolution autotuner (gpu_conv_algorithm_picker.cc): profiling failures and the
//   --xla_gpu_strict_conv_algorithm_picker hint.
// - jax's CUDA version check (jax/_src/xla_bridge.py _check_cuda_versions, 0.4.18): "Unable to load
//   cuSOLVER."
// - ptxas's "PTX .version X does not support .target sm_NN" under Triton.
#include <gtest/gtest.h>

#include <string>

#include "explain_test_support.hpp"
#include "model/platform.hpp"
#include "render/explain_render.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;
using testing::leads_without;
using testing::mentions;
using testing::rule_list;
using testing::says_all;
using testing::told;

// Log 24 (onnxruntime#20223): the reporter's one line, without the quotes of ORT's own wording.
TEST(ExplainReview39A, OrtWindowsLoadLibraryError126IsTheCudaProvider) {
  const auto r =
      explain_no_facts("Loadlibrary failed with error 126 when trying to load onnxruntime_providers_cuda.dll\n");
  ASSERT_TRUE(leads_with(r, "onnxruntime-cuda-provider-not-loaded")) << rule_list(r);
  const std::string all = told(r);
  EXPECT_TRUE(says_all(all, {"126", "1.18.1", "cuDNN 8", "cuDNN 9", "PATH"}));
  EXPECT_FALSE(mentions(all, "LD_LIBRARY_PATH")) << all;  // a .dll: Windows only
  // The cuDNN major by release, in the cause and as the upgrade in the fix.
  EXPECT_TRUE(says_all(r.matches.front().cause, {"1.18.0", "1.18.1"}));
  EXPECT_TRUE(says_all(r.matches.front().fix, {"1.18.0 or older", "1.18.1 or later"}));
  // ORT's own wording (quotes, full path) keeps its answer.
  const auto own = explain_no_facts(
      "LoadLibrary failed with error 126 \"\" when trying to load "
      "\"C:\\venv\\Lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll\"\n");
  EXPECT_TRUE(leads_with(own, "onnxruntime-cuda-provider-not-loaded")) << rule_list(own);
  // Another program's DLL is no ONNX Runtime provider.
  const auto other = explain_no_facts("LoadLibrary failed with error 126 when trying to load mylib.dll\n");
  EXPECT_EQ(find_rule(other, "onnxruntime-cuda-provider-not-loaded"), nullptr) << rule_list(other);
}

// Log 23 (onnxruntime#22809): "Require cuDNN 8.*" on a cuDNN 9 system (JetPack 6.1): the build for
// cuDNN 9 comes first, not the pip nvidia wheels (which do not run on Jetson).
TEST(ExplainReview39A, OrtRequiringCudnn8PointsAtTheBuildForCudnn9) {
  const auto r = explain_no_facts(
      "2024-11-12 10:07:56.895559377 [W:onnxruntime:Default, onnxruntime_pybind_state.cc:965 "
      "CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider. Require cuDNN 8.* and CUDA 12.*. "
      "Please install all dependencies as mentioned in the GPU requirements page "
      "(https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements), make sure "
      "they're in the PATH, and that your GPU is supported.\n");
  ASSERT_TRUE(leads_with(r, "onnxruntime-cuda12-cudnn8-build")) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"cuDNN 8", "cuDNN 9"}));
  EXPECT_TRUE(says_all(lead.fix, {"1.18.1", "JetPack", "--cudnn_home"}));
  EXPECT_FALSE(mentions(lead.fix, "onnxruntime-gpu[cuda,cudnn]")) << lead.fix;
  EXPECT_EQ(find_rule(r, "onnxruntime-cuda-provider-not-loaded"), nullptr) << rule_list(r);
  EXPECT_FALSE(mentions(told(r), "onnxruntime-gpu[cuda,cudnn]")) << told(r);
  // Near miss: "Require cuDNN 9.*" keeps the general answer.
  const auto nine = explain_no_facts(
      "[W:onnxruntime:Default, onnxruntime_pybind_state.cc:993 CreateExecutionProviderInstance] Failed to create "
      "CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*. Please install all dependencies.\n");
  EXPECT_TRUE(leads_without(nine, "onnxruntime-cuda-provider-not-loaded", {"onnxruntime-cuda12-cudnn8-build"}));
}

// Log 13 (llama.cpp#5686): ggml's NO_DEVICE_CODE names the architectures the build has.
TEST(ExplainReview39A, GgmlNoDeviceCodeNamesTheBuildsArchitectures) {
  const auto r = explain_no_facts(
      "ggml-cuda.cu:3211: ERROR: CUDA kernel vec_dot_q5_K_q8_1_impl_vmmq has no device code compatible with CUDA "
      "arch 520. ggml-cuda.cu was compiled for: 520\n");
  ASSERT_TRUE(leads_with(r, "ggml-no-device-code")) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"vec_dot_q5_K_q8_1_impl_vmmq", "520"}));
  EXPECT_TRUE(says_all(lead.fix, {"CMAKE_CUDA_ARCHITECTURES", "CMAKE_ARGS", "native"}));
  // HIP's wording of the same guard names no CUDA arch list: not this rule.
  const auto hip = explain_no_facts(
      "ggml-cuda.cu:100: ERROR: HIP kernel mul_mat_q has no device code compatible with HIP arch 1100.\n");
  EXPECT_EQ(find_rule(hip, "ggml-no-device-code"), nullptr) << rule_list(hip);
}

// Log 25 (xorbitsai/inference#1979): FindCUDAToolkit's own message when it finds no nvcc.
TEST(ExplainReview39A, FindCudaToolkitWithoutNvccIsAToolkitWithoutCompiler) {
  const auto r = explain_no_facts(
      "CMAKE_ARGS=\"-DGGML_CUDA=on\" pip install llama-cpp-python -i https://pypi.tuna.tsinghua.edu.cn/simple\n"
      "Could not find nvcc, please set CUDAToolkit_ROOT.\n");
  ASSERT_TRUE(leads_with(r, "cmake-cuda-toolkit-not-found")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"CUDACXX", "-devel", "cuda-nvcc"}));
  // CMake's CUDA language check keeps its own answer.
  const auto lang = explain_no_facts("-- No CMAKE_CUDA_COMPILER could be found.\n");
  EXPECT_EQ(find_rule(lang, "cmake-cuda-toolkit-not-found"), nullptr) << rule_list(lang);
}

// Log 08 (marin-community/marin#1933): the coordination service's barrier names the tasks that did
// not arrive; the cause is in their logs.
TEST(ExplainReview39A, JaxCoordinationBarrierTimeoutPointsAtTheMissingTasks) {
  const std::string log =
      "    client.wait_at_barrier(f\"multihost_broadcast_sync{_sync_counter}\", timeout_in_ms=int(timeout * "
      "1000.0))\n"
      "jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: "
      "multihost_broadcast_sync0. Timed out task names:\n"
      "/job:jax_worker/replica:0/task:3\n"
      "/job:jax_worker/replica:0/task:0\n"
      "\n"
      "Additional GRPC error information from remote target unknown_target_for_coordination_leader while calling "
      "/tensorflow.CoordinationService/Barrier:\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "jax-coordination-barrier-timeout")) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"multihost_broadcast_sync0", "crashed", "/job:jax_worker/replica:0/task:3"}));
  EXPECT_TRUE(says_all(lead.fix, {"num_processes", "coordinator_address", "initialization_timeout"}));
  // jax.distributed.initialize's own barrier.
  const auto connect = explain_no_facts(
      "jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Barrier timed out. Barrier_id: "
      "PjRT_Client_Connect\n");
  EXPECT_TRUE(leads_with(connect, "jax-coordination-barrier-timeout")) << rule_list(connect);
  // Another DEADLINE_EXCEEDED is not a barrier.
  const auto other = explain_no_facts("XlaRuntimeError: DEADLINE_EXCEEDED: Deadline Exceeded\n");
  EXPECT_EQ(find_rule(other, "jax-coordination-barrier-timeout"), nullptr) << rule_list(other);
}

// Log 20 (jax#8506): the conv autotuner's profiling failures and its hint, without its header line.
TEST(ExplainReview39A, XlaConvAlgorithmPickerFailureIsPreallocatedMemoryFirst) {
  const std::string log =
      "in external/org_tensorflow/tensorflow/stream_executor/cuda/cuda_dnn.cc(4139): 'cudnnConvolutionForward( "
      "cudnn.handle(), alpha, input_nd_.handle(), input_data.opaque(), filter_.handle(), filter_data.opaque(), "
      "conv_.handle(), ToConvForwardAlgo(algo), scratch_memory.opaque(), scratch_memory.size(), beta, "
      "output_nd_.handle(), output_data.opaque())'\n"
      "  Profiling failure on cuDNN engine 7#TC: UNKNOWN: CUDNN_STATUS_EXECUTION_FAILED\n"
      "in external/org_tensorflow/tensorflow/stream_executor/cuda/cuda_dnn.cc(4139): 'cudnnConvolutionForward( "
      "cudnn.handle(), alpha)'\n"
      "  Profiling failure on cuDNN engine 7: UNKNOWN: CUDNN_STATUS_EXECUTION_FAILED\n"
      "\n"
      "To ignore this failure and try to use a fallback algorithm (which may have suboptimal performance), use "
      "XLA_FLAGS=--xla_gp\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "xla-conv-algorithm-picker-failed")) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"autotuner", "75%"}));
  EXPECT_TRUE(says_all(lead.fix, {"XLA_PYTHON_CLIENT_MEM_FRACTION", "XLA_PYTHON_CLIENT_PREALLOCATE=false",
                                  "--xla_gpu_strict_conv_algorithm_picker=false"}));
  EXPECT_EQ(find_rule(r, "code/cudnn/CUDNN_STATUS_EXECUTION_FAILED"), nullptr) << rule_list(r);
  // A cuDNN status outside the autotuner keeps the catalog's answer.
  const auto plain = explain_no_facts("cuDNN error: CUDNN_STATUS_EXECUTION_FAILED\n");
  EXPECT_EQ(find_rule(plain, "xla-conv-algorithm-picker-failed"), nullptr) << rule_list(plain);
}

// Log 14 (jax#18027): "Unable to load cuSOLVER." is jax's version check failing to load the
// library: mixed nvidia wheels (a stale nvjitlink), not a missing driver.
TEST(ExplainReview39A, JaxUnableToLoadCusolverIsMixedCudaWheels) {
  const auto r = explain_no_facts(
      ">>> jax.numpy.array(1)\n"
      "CUDA backend failed to initialize: Unable to load cuSOLVER. (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more "
      "info.)\n"
      "Array(1, dtype=int32, weak_type=True)\n");
  ASSERT_TRUE(leads_with(r, "jax-cuda-library-stale-wheels")) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_NE(lead.category, "driver-missing");
  EXPECT_TRUE(says_all(lead.fix, {"pip list", "nvidia-nvjitlink-cu12", "nvidia-cusolver-cu12"}));
  EXPECT_EQ(find_rule(r, "jax-cuda-backend-failed"), nullptr) << rule_list(r);
  // Another reason keeps the general answer.
  const auto other = explain_no_facts(
      "CUDA backend failed to initialize: INTERNAL: something went wrong. (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun "
      "for more info.)\n");
  EXPECT_TRUE(leads_with(other, "jax-cuda-backend-failed")) << rule_list(other);
  // The later plugin's wording ("Is it installed?") keeps its own answer.
  const auto later = explain_no_facts(
      "RuntimeError: Unable to initialize backend 'cuda': Unable to load cuSPARSE. Is it installed? (you may need "
      "to uninstall the failing plugin package, or set JAX_PLATFORMS=cpu to skip this backend.)\n");
  EXPECT_TRUE(leads_with(later, "jax-cuda-library-not-loadable")) << rule_list(later);
}

// Log 26 (pytorch#95082): the PTX Triton wrote declares an ISA version older than the GPU: a Triton
// too old for it, not TRITON_PTXAS_PATH (nothing shows it set). And under --no-probe the text
// does not claim to know the machine.
TEST(ExplainReview39A, TritonPtxVersionTooOldForTargetIsAnOldTriton) {
  const std::string log =
      "RuntimeError: Internal Triton PTX codegen error:\n"
      "ptxas /tmp/filelSnH8K, line 6; error   : PTX .version 7.4 does not support .target sm_89\n"
      "ptxas fatal   : Ptx assembly aborted due to errors\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "ptx-isa-older-than-target")) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"7.4", "sm_89", "7.8"}));
  EXPECT_TRUE(says_all(lead.fix, {"pip install -U torch", "triton"}));
  EXPECT_FALSE(mentions(told(r), "unset TRITON_PTXAS_PATH")) << told(r);
  const std::string text = render_explain_text(r, ExplainTextOptions{.color = false});
  EXPECT_FALSE(mentions(text, "what is known of this machine")) << text;
  // Near miss: Triton's legacy error with another ptxas message keeps its answer.
  const auto legacy = explain_no_facts(
      "RuntimeError: Internal Triton PTX codegen error:\n"
      "ptxas fatal   : Value 'sm_120' is not defined for option 'gpu-name'\n");
  EXPECT_EQ(find_rule(legacy, "ptx-isa-older-than-target"), nullptr) << rule_list(legacy);
}

// Log 02 (Stability-AI/sd3.5#18): reportProcessMemoryInfo's NVML query failed while PyTorch wrote
// an out-of-memory error; on a MIG instance NVML refuses it.
TEST(ExplainReview39A, NvmlAssertInCachingAllocatorIsAHiddenOutOfMemory) {
  const auto r = explain_no_facts(
      "RuntimeError: NVML_SUCCESS == r INTERNAL ASSERT FAILED at \"../c10/cuda/CUDACachingAllocator.cpp\":995, "
      "please report a bug to PyTorch.\n");
  ASSERT_TRUE(leads_with(r, "torch-oom-hidden-by-nvml-assert")) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_EQ(lead.category, "out-of-memory");
  EXPECT_TRUE(says_all(lead.cause, {"nvmlDeviceGetComputeRunningProcesses", "MIG", "out of memory"}));
  EXPECT_TRUE(says_all(lead.fix, {"nvidia-smi -L", "CUDA_VISIBLE_DEVICES=MIG-", "PYTORCH_NO_CUDA_MEMORY_CACHING"}));
  // nvmlInit's own assert is another failure (NVML not usable at all).
  const auto init = explain_no_facts(
      "RuntimeError: NVML_SUCCESS == DriverAPI::get()->nvmlInit_v2_() INTERNAL ASSERT FAILED at "
      "\"../c10/cuda/CUDACachingAllocator.cpp\":1123, please report a bug to PyTorch.\n");
  EXPECT_EQ(find_rule(init, "torch-oom-hidden-by-nvml-assert"), nullptr) << rule_list(init);
}

// Log 03 (pytorch#131650): nvidia-smi's table shows MIG enabled above the device-count assert.
TEST(ExplainReview39A, DeviceCountAssertUnderMigIsOneInstancePerProcess) {
  const std::string table =
      "|   0  NVIDIA A100 80GB PCIe          Off |   00000000:31:00.0 Off |                   On |\n"
      "| N/A   34C    P0             43W /  300W |      53MiB /  81920MiB |     N/A      Default |\n"
      "|                                         |                        |              Enabled |\n"
      "+-----------------------------------------+------------------------+----------------------+\n";
  const std::string assert_line =
      "RuntimeError: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at "
      "\"/opt/conda/conda-bld/pytorch_1720538439675/work/aten/src/ATen/cuda/CUDAContext.cpp\":49, please report\n";
  const auto r = explain_no_facts(table + assert_line);
  ASSERT_TRUE(leads_with(r, "invalid-device-ordinal/mig")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"CUDA_VISIBLE_DEVICES=MIG-<uuid>", "nvidia-smi -L", "one process"}));
  // Without MIG in the log the answer stays the general one, and says nothing of MIG.
  const auto plain = explain_no_facts(assert_line);
  ASSERT_TRUE(leads_with(plain, "invalid-device-ordinal")) << rule_list(plain);
  EXPECT_FALSE(mentions(told(plain), "MIG")) << told(plain);
  // A table with MIG disabled is no MIG.
  std::string disabled = table;
  disabled.replace(disabled.find("Enabled"), 7, "Disabled");
  EXPECT_TRUE(leads_with(explain_no_facts(disabled + assert_line), "invalid-device-ordinal"));
}

// Log 17 (nvidia-docker#1637, cause stated in #1642): Docker as a snap does not read the runtime
// nvidia-ctk registered; nothing in the log says snap, so it is a cause to check, on Linux.
TEST(ExplainReview39A, DockerNoGpuDriverOffersTheSnapDockerToCheck) {
  const std::string log =
      "sudo docker run --rm --gpus all nvidia/cuda:11.4.0-base-ubuntu20.04 nvidia-smi\n"
      "[sudo] password for alyaan: \n"
      "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "docker-no-gpu-driver")) << rule_list(r);
  const auto* snap = find_rule(r, "docker-no-gpu-driver/snap-docker");
  ASSERT_NE(snap, nullptr) << rule_list(r);
  EXPECT_TRUE(says_all(snap->fix, {"snap list docker", "sudo snap remove docker", "nvidia-ctk runtime configure"}));
  // A log known to come from Linux still leads with the toolkit: Linux alone does not make a snap likely.
  EXPECT_TRUE(leads_with(testing::explain_on(Platform::linux, log), "docker-no-gpu-driver"));
  // Docker Desktop on Windows has no snap.
  const auto win = testing::explain_on(Platform::windows, log);
  EXPECT_EQ(find_rule(win, "docker-no-gpu-driver/snap-docker"), nullptr) << rule_list(win);
}

// Log 05 (chenhang98/BPR#13): mmcv 1.x's package with the CUDA ops is mmcv-full.
TEST(ExplainReview39A, MmcvExtMissingNamesMmcvFullForMmcv1) {
  const auto r = explain_no_facts("ModuleNotFoundError: No module named 'mmcv._ext'\n");
  ASSERT_TRUE(leads_with(r, "package-built-without-compiled-part")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"mim install mmcv-full", "pip uninstall mmcv", "mmcv 2.x"}));
}

// Log 22 (accelerate#1851): a model split over GPUs needs no_split_module_classes, not one device.
TEST(ExplainReview39A, TensorsOnTwoGpusAfterDispatchNameNoSplitModuleClasses) {
  const auto r =
      explain_no_facts("RuntimeError: Expected all tensors to be on the same device, but found at least two devices\n");
  ASSERT_TRUE(leads_with(r, "torch-tensors-on-different-devices")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"no_split_module_classes", "load_checkpoint_and_dispatch"}));
}

// The verdict that the log (not the machine) supports a candidate reads as the log's.
TEST(ExplainReview39A, LogOnlyVerdictSaysTheLogNotTheMachine) {
  const auto r = explain_no_facts(
      "RuntimeError: Internal Triton PTX codegen error:\n"
      "ptxas fatal   : Value 'sm_120' is not defined for option 'gpu-name'\n");
  ASSERT_FALSE(r.matches.empty());
  const std::string text = render_explain_text(r, ExplainTextOptions{.color = false});
  EXPECT_FALSE(mentions(text, "what is known of this machine")) << text;
  bool any_supported = false;
  for (const auto& m : r.matches) any_supported = any_supported || m.facts_verdict == "supported";
  ASSERT_TRUE(any_supported) << rule_list(r);
  EXPECT_TRUE(mentions(text, "what the log shows points to this cause")) << text;
}

}  // namespace
}  // namespace gpudoctor
