// Logs that are NOT in the corpus, written from the shapes real tools print (PyTorch, TF,
// JAX/XLA, NCCL, nvidia-container-cli, pip, Windows loader), to check that the rules describe
// problem classes rather than corpus lines. Score reported; each case must rank its category
// in the first three.
#include <gtest/gtest.h>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

struct Case {
  const char* category;
  const char* log;
};

const Case kCases[] = {
    {"cuda-lib-missing",
     "2021-05-03 10:11:12.123456: W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load "
     "dynamic library 'libcusparse.so.11'; dlerror: libcusparse.so.11: cannot open shared object file: No such file or "
     "directory"},
    {"toolkit-missing", "OSError: libcudart.so.12: cannot open shared object file: No such file or directory"},
    {"driver-missing", "Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 550.107"},
    {"container/docker-runtime",
     "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]]."},
    {"multi-gpu/nccl",
     "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, unhandled cuda error, "
     "NCCL version 2.14.3"},
    {"multi-gpu/nccl",
     "[E ProcessGroupNCCL.cpp:828] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, "
     "OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800342 milliseconds before timing out."},
    {"out-of-memory",
     "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 "
     "bytes."},
    {"out-of-memory", "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`"},
    {"gpu-arch-unsupported",
     "UserWarning: \nNVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch "
     "installation.\nThe current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 "
     "sm_90."},
    {"cudnn-missing", "ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory"},
    {"python-version-unsupported",
     "ERROR: Could not find a version that satisfies the requirement torch==1.13.1 (from versions: 2.2.0, "
     "2.2.1)\nERROR: No matching distribution found for torch==1.13.1"},
    {"driver-too-old",
     "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.4, please update your driver to a newer "
     "version, or use an earlier cuda container: unknown."},
    {"container/docker-runtime", "root@4f2c1a9be0d1:/workspace# nvidia-smi\nFailed to initialize NVML: Unknown Error"},
    {"driver-missing",
     "W0000 00:00:1712.55 cuda_driver.cc:152] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is "
     "detected"},
    {"cudnn-missing",
     "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: "
     "No such file or directory\nAborted (core dumped)"},
    {"cudnn-version-mismatch",
     "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (8, 9, 2) but found runtime version "
     "(8, 5, 0). PyTorch already comes bundled with cuDNN."},
    {"wrong-framework-build", "Successfully installed filelock-3.13.1 sympy-1.12 torch-2.1.0+cpu"},
    {"driver-too-old",
     "RuntimeError: CUDA error: the provided PTX was compiled with an unsupported toolchain.\nCUDA kernel errors might "
     "be asynchronously reported at some other API call"},
    {"gpu-arch-unsupported",
     "nvcc fatal   : Unsupported gpu architecture 'compute_89'\nninja: build stopped: subcommand failed."},
    {"multi-gpu/nccl",
     "node1:1234:1234 [0] NCCL INFO Bootstrap : Using eth0\nnode1:1234:1250 [0] bootstrap.cc:45 NCCL WARN Bootstrap : "
     "no socket interface found"},
    {"cudnn-version-mismatch",
     "E0000 00:00:1730000000.000000 12345 cuda_dnn.cc:535] Loaded runtime CuDNN library: 8.9.4 but source was compiled "
     "with: 9.3.0.  CuDNN library needs to have matching major version and equal or higher minor version."},
    {"ptxas/xla/libdevice-missing",
     "tensorflow.python.framework.errors_impl.InternalError: libdevice not found at ./libdevice.10.bc "
     "[Op:__inference_train_step_1234]"},
    {"ptxas/xla/libdevice-missing",
     "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: ptxas exited with non-zero error code 65280, output: "},
    {"container/docker-runtime",
     "UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Error 804: forward compatibility "
     "was attempted on non supported HW"},
    {"driver-missing", "OSError: libcuda.so.1: cannot open shared object file: No such file or directory"},
    {"memory-growth/allocator",
     "2019-06-01 12:00:00.000000: E tensorflow/stream_executor/cuda/cuda_dnn.cc:329] Could not create cudnn handle: "
     "CUDNN_STATUS_INTERNAL_ERROR"},
    {"out-of-memory",
     "2022-03-01 W tensorflow/core/common_runtime/bfc_allocator.cc:457] Allocator (GPU_0_bfc) ran out of memory trying "
     "to allocate 2.00GiB (rounded to 2147483648)requested by op "
     "Conv2D\ntensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with "
     "shape[64,256,128,128] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc"},
    {"windows-native-gpu-unsupported",
     "ERROR: Could not find a version that satisfies the requirement jaxlib==0.4.20+cuda12.cudnn89; extra == "
     "\"cuda12_pip\""},
    {"wsl2-specific", "ldconfig: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link"},
    {"numa-warning-harmless",
     "2024-01-01 I external/local_xla/xla/stream_executor/cuda/cuda_executor.cc:887] could not open file to read NUMA "
     "node: /sys/bus/pci/devices/0000:2b:00.0/numa_node\nYour kernel may have been built without NUMA support."},
    {"numa-warning-harmless",
     "2021-08-21 10:32:12.586804: I tensorflow/core/common_runtime/pluggable_device/pluggable_device_factory.cc:305] "
     "Could not identify NUMA node of platform GPU ID 0, defaulting to 0. Your kernel may not have been built with "
     "NUMA support."},
};

TEST(ExplainGeneralisation, UnseenLogsRankTheirCategory) {
  size_t top1 = 0;
  size_t top3 = 0;
  const size_t n = std::size(kCases);
  for (const Case& c : kCases) {
    const auto r = explain_text(testing::builtin_matcher(), c.log, ExplainMachine{});
    const size_t rank = testing::category_rank(r, c.category);
    if (rank == 1) ++top1;
    if (rank >= 1 && rank <= 3) ++top3;
    EXPECT_TRUE(rank >= 1 && rank <= 3) << c.category << " ranked " << rank << " for: " << c.log
                                        << "\n  first: " << (r.matches.empty() ? "(nothing)" : r.matches.front().rule);
  }
  std::cout << "[generalisation] " << top1 << "/" << n << " first, " << top3 << "/" << n << " in the first three\n";
}

}  // namespace
}  // namespace gpudoctor
