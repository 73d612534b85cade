#pragma once
#include <vector>

#include "model/facts.hpp"
#include "model/finding.hpp"

namespace gpudoctor {

/// CUDA toolkits: which exist, which one each route (/usr/local/cuda, CUDA_HOME, PATH,
/// LD_LIBRARY_PATH) picks, stub libcuda on the loader path.
std::vector<Finding> toolkit_findings(const Facts& facts);
/// cuDNN / NCCL / cuBLAS / TensorRT copies: several versions, pip wheels shadowed by
/// LD_LIBRARY_PATH.
std::vector<Finding> library_findings(const Facts& facts);

}  // namespace gpudoctor
