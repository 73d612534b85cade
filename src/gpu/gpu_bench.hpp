#pragma once
/// bench's GPU half: each figure in a child ("gpu-bench" internal task) through the runtime
/// layer verify uses (cuda_compute_api.hpp, cublas_api.hpp, cudnn_api.hpp, nccl_api.hpp),
/// timed with CUDA events, checked against the CPU.
#include <string>
#include <vector>

#include "gpu/bench_runner.hpp"
#include "gpu/isolated_child.hpp"

namespace gpudoctor::gpu {

/// Finds the GPUs through the driver (a cuda-driver child) and runs every GPU benchmark of the
/// options' mode on each, appending to `report`; with no usable driver, one note says why.
void run_gpu_benches(const BenchOptions& options, BenchReport& report);

/// The "gpu-bench" task body: args = op, device, budget, size, then lib=PATH pairs.
void gpu_bench_body(const std::vector<std::string>& args, ChildChannel& out);

}  // namespace gpudoctor::gpu
