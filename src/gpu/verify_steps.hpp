#pragma once
/// The steps of `gpudoctor verify`, each run in a child of its own (`gpudoctor --internal-task
/// verify-step STEP DEVICE LIB=PATH...`) with a deadline, so that a driver that crashes or hangs
/// in one step becomes that step's finding. The child announces every vendor call
/// ({"call": ...}) before making it and ends with {"step": ...} (model/verify_report.hpp).
///
///   driver          cuInit, the device count, the device's name and compute capability
///   context         the device's primary context (the one the runtime, cuBLAS, cuDNN, NCCL use)
///   memory          4 MiB host -> device -> host, checksum and every byte compared
///   kernel          the embedded PTX JIT-compiled and launched; every element checked
///   sgemm, hgemm    cuBLAS FP32 and FP16 (FP32 accumulate) GEMM against a CPU reference
///   cudnn-conv      cuDNN convolution forward and backward-data against a CPU reference
///   nccl-allreduce  NCCL all-reduce across every visible GPU (device -1), checked
///   peer-access     peer copies between every pair of GPUs that can (device -1)
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gpu/isolated_child.hpp"
#include "model/verify_report.hpp"

namespace gpudoctor::gpu {

/// Every step, in the order verify runs them on a GPU; the last two run once, across GPUs.
std::span<const char* const> verify_step_names();

/// The child's command line arguments: step, device, then "lib=path" for each library
/// ("cuda", "cublas", "cudnn", "nccl").
std::vector<std::string> verify_step_args(const std::string& step, int device,
                                          const std::map<std::string, std::string>& libraries);

/// The "name=path" arguments from index `from` on, as a map (verify's and bench's children).
std::map<std::string, std::string> parse_library_args(const std::vector<std::string>& args, size_t from);

/// The "verify-step" task body.
void verify_step_body(const std::vector<std::string>& args, ChildChannel& out);

/// The parent's side: the step as the child reported it, or the crash, timeout or silence
/// that ended it, naming the vendor call in progress. `device_count` receives what the driver
/// step counted.
VerifyStep verify_step_from_child(const std::string& step, int device, const ChildOutcome& outcome,
                                  std::optional<int>* device_count = nullptr);

}  // namespace gpudoctor::gpu
