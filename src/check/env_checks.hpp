#pragma once
#include <vector>

#include "model/facts.hpp"
#include "model/finding.hpp"

namespace gpudoctor {

/// Environment variables that hide GPUs, slow them down, or point at missing places.
std::vector<Finding> env_findings(const Facts& facts);

}  // namespace gpudoctor
