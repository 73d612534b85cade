// Session 42 review B: unseen logs from the GPU ecosystem beyond the big three frameworks (docs:
// "Unseen logs, session 42 review B: RAPIDS, Numba, PyCUDA, TensorRT, Apptainer").
// - Numba older than CUDA 12's libNVVM (NVVM_ERROR_IR_VERSION_MISMATCH, log 03).
// - TensorRT 10's "Target GPU SM 120 is not supported by this TensorRT release" (log 05).
// - PyCUDA's "cuInit failed: unknown error" (log 06).
// - onnx-tensorrt's INT64->INT32 cast warning: harmless alone (log 09) and after it a failed engine
//   build, which is the problem (log 10).
// - cuDF/RMM out of memory, with RAPIDS' remedies instead of PyTorch's and TensorFlow's (log 12).
// - Singularity's `exec: --nv: not found` (an option after the image name, log 13) and Apptainer's
//   "Could not find any nv files on this host!" (the reviewer's extra finding).
// - Numba's CUDA_ERROR_NO_DEVICE with Numba's own driver library setting, WSL only where the log
//   shows WSL (log 15); NumbaPerformanceWarning's low-occupancy hint (log 16), harmless.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "explain/explain_session.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;
using testing::leads_without;
using testing::mentions;
using testing::problem_count;
using testing::rule_list;
using testing::says_all;
using testing::told;

// logs/03.txt, https://github.com/numba/numba/issues/8715 (verbatim)
constexpr std::string_view kReview42bNumbaNvvmLog = R"LOG(numba.cuda.cudadrv.error.NvvmError: Failed to compile

IR version 1.6 incompatible with current version 2.0
<unnamed>: error: incompatible IR detected. Possible mix of compiler/IR from different releases.
NVVM_ERROR_IR_VERSION_MISMATCH
)LOG";

// logs/05.txt, https://github.com/DDTRobot/tita_rl_sim2sim2real/issues/7 (verbatim)
constexpr std::string_view kReview42bTrtSm120Log =
    R"LOG([07/19/2025-23:34:55] [I] Finished parsing network model. Parse time: 0.00794659  
[07/19/2025-23:34:55] [E] Error[9]: IBuilder::buildSerializedNetwork: Error Code 9: API Usage Error (Target GPU SM 120 is not supported by this TensorRT release.)  
[07/19/2025-23:34:55] [E] Engine could not be created from network  
[07/19/2025-23:34:55] [E] Building engine failed  
[07/19/2025-23:34:55] [E] Failed to create engine from model or file.  
[07/19/2025-23:34:55] [E] Engine set up failed  
&&&& FAILED TensorRT.trtexec [TensorRT v100700] [b23] # /usr/src/tensorrt/bin/trtexec --onnx=test.onnx --saveEngine=model_gn.engine  
)LOG";

// logs/06.txt, https://github.com/ratt-ru/PyMORESANE/issues/22 (verbatim)
constexpr std::string_view kReview42bPycudaLog =
    R"LOG(File "/usr/lib/python2.7/dist-packages/pymoresane/main.py", line 4, in <module>
    import pymoresane.iuwt as iuwt
  File "/usr/lib/python2.7/dist-packages/pymoresane/iuwt.py", line 9, in <module>
    import pycuda.autoinit
  File "/usr/lib/python2.7/dist-packages/pycuda/autoinit.py", line 5, in <module>
    cuda.init()
Error: cuInit failed: unknown error

> /usr/lib/python2.7/dist-packages/pycuda/autoinit.py(5)<module>()
-> cuda.init()
)LOG";

// logs/09.txt, https://github.com/neuralchen/SimSwap/issues/173 (verbatim)
constexpr std::string_view kReview42bInt64Log =
    R"LOG([W:onnxruntime:Default, tensorrt_execution_provider.h:53 onnxruntime::TensorrtLogger::log] [2021-12-08 16:53:27 WARNING] D:\a\_work\1\s\cmake\external\onnx-tensorrt\onnx2trt_utils.cpp:364: Your ONNX model has been generated with INT64 weights, while TensorRT does not natively support INT64. Attempting to cast down to INT32.
)LOG";

// logs/10.txt, https://github.com/cyrusbehr/YOLOv8-TensorRT-CPP/issues/30 (verbatim)
constexpr std::string_view kReview42bTx2BuildLog =
    R"LOG(nvidia@ubuntu:~/Desktop/HXB/11-4/YOLOv8-TensorRT-CPP/build$ ./detect_object_image --model /home/nvidia/Desktop/HXB/11-4/yolov8n_1527.onnx --input ./bus2.jpg
Searching for engine file with name: yolov8n_1527.engine.NVIDIATegraX2.fp16.1.1
Engine not found, generating. This could take a while...
onnx2trt_utils.cpp:366: Your ONNX model has been generated with INT64 weights, while TensorRT does not natively support INT64. Attempting to cast down to INT32.
terminate called after throwing an instance of 'std::runtime_error'
  what():  Error: Unable to build the TensorRT engine. Try increasing TensorRT log severity to kVERBOSE (in /libs/tensorrt-cpp-api/engine.cpp).
Aborted (core dumped)
)LOG";

// logs/12.txt, https://github.com/NVIDIA/cudf/issues/6126 (verbatim)
constexpr std::string_view kReview42bCudfOomLog = R"LOG(df = cudf.read_csv('/mypath/train-noIndex.csv')
MemoryError: std::bad_alloc: CUDA error at: ../include/rmm/mr/device/cuda_memory_resource.hpp:68: cudaErrorMemoryAllocation out of memory
)LOG";

// logs/13.txt, https://github.com/jade-hpc-gpu/jade-hpc-gpu.github.io/issues/82 (verbatim)
constexpr std::string_view kReview42bSingularityNvLog = R"LOG(Singularity-2.4 loaded
/.singularity.d/actions/exec: 9: exec: --nv: not found
)LOG";

// https://github.com/sylabs/singularity/issues/2805 (the reviewer's extra finding; verbatim)
constexpr std::string_view kReview42bNvFilesLog = R"LOG($ ./scripts/start_singularity.sh --nv

=========== STARTING SINGULARITY CONTAINER ============

INFO: Singularity is already installed.
INFO: Updating repository to the latest version.
Already up to date.
INFO: Mounting /snap directory.
INFO: Starting Singularity container from image robotour_arm64.simg.
INFO: Could not find any nv files on this host!
INFO: The catkin workspace is already initialized.
)LOG";

// logs/15.txt, https://github.com/numba/numba/issues/6777 (verbatim)
constexpr std::string_view kReview42bNumbaNoDeviceLog =
    R"LOG(---------------------------------------------------------------------------
CudaAPIError                              Traceback (most recent call last)
~/miniconda3/envs/rapids-0.18/lib/python3.8/site-packages/numba/cuda/cudadrv/driver.py in initialize(self)
    236             _logger.info('init')
--> 237             self.cuInit(0)
    238         except CudaAPIError as e:

~/miniconda3/envs/rapids-0.18/lib/python3.8/site-packages/numba/cuda/cudadrv/driver.py in safe_cuda_api_call(*args)
    299             retcode = libfn(*args)
--> 300             self._check_error(fname, retcode)
    301         return safe_cuda_api_call

~/miniconda3/envs/rapids-0.18/lib/python3.8/site-packages/numba/cuda/cudadrv/driver.py in _check_error(self, fname, retcode)
    334                     raise CudaDriverError("CUDA initialized before forking")
--> 335             raise CudaAPIError(retcode, msg)
    336 

CudaAPIError: [100] Call to cuInit results in CUDA_ERROR_NO_DEVICE

During handling of the above exception, another exception occurred:

CudaSupportError                          Traceback (most recent call last)
)LOG";

// logs/16.txt, https://github.com/Maghoumi/pytorch-softdtw-cuda/issues/21 (verbatim)
constexpr std::string_view kReview42bOccupancyLog =
    R"LOG(/net/papilio/storage2/bowenz/anaconda3/envs/zbw/lib/python3.9/site-packages/numba/cuda/compiler.py:726: NumbaPerformanceWarning: Grid size (4) < 2 * SM count (164) will likely result in GPU under utilization due to low occupancy.
  warn(NumbaPerformanceWarning(msg))
/net/papilio/storage2/bowenz/anaconda3/envs/zbw/lib/python3.9/site-packages/numba/cuda/compiler.py:726: NumbaPerformanceWarning: Grid size (4) < 2 * SM count (164) will likely result in GPU under utilization due to low occupancy.
  warn(NumbaPerformanceWarning(msg))
/net/papilio/storage2/bowenz/anaconda3/envs/zbw/lib/python3.9/site-packages/numba/cuda/compiler.py:726: NumbaPerformanceWarning: Grid size (4) < 2 * SM count (164) will likely result in GPU under utilization due to low occupancy.
  warn(NumbaPerformanceWarning(msg))
)LOG";

TEST(ExplainReview42B, NumbaNvvmIrVersionMismatchIsNumbaOlderThanTheToolkit) {
  const auto r = explain_no_facts(kReview42bNumbaNvvmLog);
  ASSERT_TRUE(leads_with(r, "numba-nvvm-ir-version-mismatch")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"1.6", "2.0", "CUDA 12"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"pip install -U numba", "0.57", "cudatoolkit=11.8"})) << lead.fix;
  // Each of libNVVM's lines says it alone (the code name without the program log, and the reverse).
  for (const char* line : {"NVVM_ERROR_IR_VERSION_MISMATCH\n",
                           "<unnamed>: error: incompatible IR detected. Possible mix of compiler/IR from different "
                           "releases.\n"}) {
    const auto one = explain_no_facts(line);
    EXPECT_TRUE(leads_with(one, "numba-nvvm-ir-version-mismatch")) << line << rule_list(one);
  }
}

TEST(ExplainReview42B, NearMissAnotherNvvmCompileErrorIsNotTheIrVersion) {
  const auto r = explain_no_facts(
      "numba.cuda.cudadrv.error.NvvmError: Failed to compile\n\n"
      "<unnamed> (48, 19): parse expected comma after load's type\n"
      "NVVM_ERROR_COMPILATION\n");
  EXPECT_EQ(find_rule(r, "numba-nvvm-ir-version-mismatch"), nullptr) << rule_list(r);
}

TEST(ExplainReview42B, TensorRt10TargetSmIsTensorRtOlderThanTheGpu) {
  const auto r = explain_no_facts(kReview42bTrtSm120Log);
  ASSERT_TRUE(leads_without(r, "tensorrt-unsupported-sm", {"tensorrt-engine-build-failed"})) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"SM 120"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"10.8", "CUDA 12.8"})) << lead.fix;
  EXPECT_EQ(problem_count(r), 1U) << rule_list(r);
}

TEST(ExplainReview42B, PycudaCuInitUnknownErrorIsTheUnusableDriver) {
  const auto r = explain_no_facts(kReview42bPycudaLog);
  ASSERT_TRUE(leads_with(r, "cuda-unknown-error")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"virtual machine"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"nvidia-smi", "pass a GPU through"})) << lead.fix;
  // Near miss: PyCUDA's cuInit with another CUDA error is not the unknown error.
  const auto other =
      explain_no_facts("pycuda._driver.RuntimeError: cuInit failed: no CUDA-capable device is detected\n");
  EXPECT_TRUE(leads_with(other, "cuinit-no-device")) << rule_list(other);
  EXPECT_EQ(find_rule(other, "cuda-unknown-error"), nullptr) << rule_list(other);
}

TEST(ExplainReview42B, TensorRtInt64CastWarningAloneIsHarmless) {
  const auto r = explain_no_facts(kReview42bInt64Log);
  ASSERT_TRUE(leads_with(r, "tensorrt-int64-weights-cast")) << rule_list(r);
  EXPECT_TRUE(r.matches.front().harmless);
  EXPECT_EQ(problem_count(r), 0U) << rule_list(r);
  // Near miss: weights that did not fit INT32 were changed; that line is not called harmless.
  const auto clamped = explain_no_facts(
      "[W] [TRT] onnx2trt_utils.cpp:400: One or more weights outside the range of INT32 was clamped\n");
  EXPECT_EQ(find_rule(clamped, "tensorrt-int64-weights-cast"), nullptr) << rule_list(clamped);
}

TEST(ExplainReview42B, FailedEngineBuildLeadsAndTheInt64WarningIsHarmless) {
  const auto r = explain_no_facts(kReview42bTx2BuildLog);
  ASSERT_TRUE(leads_with(r, "tensorrt-engine-build-failed")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_FALSE(lead.harmless);
  EXPECT_TRUE(says_all(lead.fix, {"--verbose", "opset=12", "simplify=True"})) << lead.fix;
  const auto* int64 = find_rule(r, "tensorrt-int64-weights-cast");
  ASSERT_NE(int64, nullptr) << rule_list(r);
  EXPECT_TRUE(int64->harmless);
  EXPECT_EQ(problem_count(r), 1U) << rule_list(r);
}

TEST(ExplainReview42B, RmmOutOfMemoryGetsRapidsRemediesNotFrameworkOnes) {
  const auto r = explain_no_facts(kReview42bCudfOomLog);
  ASSERT_TRUE(leads_without(r, "rmm-out-of-memory", {"cuda-out-of-memory"})) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.fix, {"byte_range", "dask_cudf", "usecols", "managed_memory=True"})) << lead.fix;
  EXPECT_FALSE(mentions(told(r), "set_memory_growth")) << told(r);
  EXPECT_FALSE(mentions(told(r), "empty_cache")) << told(r);
  // RMM's pool, full: the same answer.
  const auto pool = explain_no_facts(
      "MemoryError: std::bad_alloc: out_of_memory: RMM failure at:/opt/conda/include/rmm/mr/device/"
      "pool_memory_resource.hpp:196: Maximum pool size exceeded\n");
  EXPECT_TRUE(leads_with(pool, "rmm-out-of-memory")) << rule_list(pool);
}

TEST(ExplainReview42B, NearMissOtherLibrariesOutOfMemoryKeepTheGeneralAnswer) {
  const auto r =
      explain_no_facts("cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorMemoryAllocation: out of memory\n");
  ASSERT_TRUE(leads_with(r, "cuda-out-of-memory")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "rmm-out-of-memory"), nullptr) << rule_list(r);
  // Another program's pool of the same words is not RMM's.
  const auto other = explain_no_facts("Debug.LogError: Maximum pool size exceeded, destroying missile\n");
  EXPECT_EQ(find_rule(other, "rmm-out-of-memory"), nullptr) << rule_list(other);
}

TEST(ExplainReview42B, SingularityOptionAfterTheImageIsRunAsTheCommand) {
  const auto r = explain_no_facts(kReview42bSingularityNvLog);
  ASSERT_TRUE(leads_with(r, "singularity-option-after-image")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"--nv"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"singularity exec --nv"})) << lead.fix;
  // Apptainer's and Singularity 3's form of the same mistake.
  const auto v3 = explain_no_facts("FATAL:   \"--nv\": executable file not found in $PATH\n");
  EXPECT_TRUE(leads_with(v3, "singularity-option-after-image")) << rule_list(v3);
  // Near miss: a program the image lacks is not an option in the wrong place.
  const auto missing = explain_no_facts("/.singularity.d/actions/exec: 9: exec: python: not found\n");
  EXPECT_EQ(find_rule(missing, "singularity-option-after-image"), nullptr) << rule_list(missing);
}

TEST(ExplainReview42B, ApptainerNvFilesNotFoundIsAHarmlessNote) {
  const auto r = explain_no_facts(kReview42bNvFilesLog);
  ASSERT_TRUE(leads_with(r, "apptainer-nv-files-not-found")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(lead.harmless);
  EXPECT_TRUE(says_all(lead.cause, {"nvliblist.conf", "nvidia-smi"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"GPU node"})) << lead.fix;
  // Near miss: AMD's ROCm files are another platform's.
  const auto rocm = explain_no_facts("INFO:    Could not find any rocm files on this host!\n");
  EXPECT_EQ(find_rule(rocm, "apptainer-nv-files-not-found"), nullptr) << rule_list(rocm);
}

TEST(ExplainReview42B, NumbaNoDeviceNamesNumbasDriverLibraryAndWslOnlyWhereShown) {
  const auto r = explain_no_facts(kReview42bNumbaNoDeviceLog);
  ASSERT_TRUE(leads_without(r, "numba-cuinit-no-device", {"cuinit-no-device"})) << told(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"numba -s", "NUMBA_CUDA_DRIVER"})) << r.matches.front().fix;
  const auto* wsl = find_rule(r, "numba-cuinit-no-device/wsl2");
  ASSERT_NE(wsl, nullptr) << rule_list(r);
  EXPECT_TRUE(says_all(wsl->fix, {"NUMBA_CUDA_DRIVER=/usr/lib/wsl/lib/libcuda.so.1", "LD_LIBRARY_PATH"})) << wsl->fix;
  // With a WSL marker in the log the WSL cause leads.
  const auto in_wsl =
      explain_no_facts(std::string("me@DESKTOP-930EG0A:~$ python app.py\n") + std::string(kReview42bNumbaNoDeviceLog));
  EXPECT_TRUE(leads_with(in_wsl, "numba-cuinit-no-device/wsl2")) << rule_list(in_wsl);
}

TEST(ExplainReview42B, NearMissAnotherLibrarysNoDeviceGetsNoNumbaSetting) {
  const auto r = explain_no_facts(
      "E cuda_driver.cc:282] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n");
  ASSERT_TRUE(leads_with(r, "cuinit-no-device")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "numba-cuinit-no-device"), nullptr) << rule_list(r);
  EXPECT_FALSE(mentions(told(r), "NUMBA_CUDA_DRIVER")) << told(r);
}

TEST(ExplainReview42B, NumbaLowOccupancyWarningIsHarmless) {
  const auto r = explain_no_facts(kReview42bOccupancyLog);
  ASSERT_TRUE(leads_with(r, "numba-performance-warning")) << rule_list(r);
  EXPECT_TRUE(r.matches.front().harmless);
  EXPECT_EQ(problem_count(r), 0U) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS=0"})) << r.matches.front().fix;
  // Later releases word it without the SM count.
  const auto later = explain_no_facts(
      "/usr/local/lib/python3.10/dist-packages/numba/cuda/dispatcher.py:536: NumbaPerformanceWarning: Grid size 10 "
      "will likely result in GPU under-utilization due to low occupancy.\n");
  EXPECT_TRUE(leads_with(later, "numba-performance-warning")) << rule_list(later);
  // Near miss: another library's performance warning is not Numba's hint.
  const auto other = explain_no_facts("UserWarning: Grid size (4) is small; consider a larger batch\n");
  EXPECT_EQ(find_rule(other, "numba-performance-warning"), nullptr) << rule_list(other);
}

}  // namespace
}  // namespace gpudoctor
