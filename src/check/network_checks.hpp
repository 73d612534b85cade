#pragma once
#include <vector>

#include "model/facts.hpp"
#include "model/finding.hpp"

namespace gpudoctor {

/// The node's network ports (one line each) and an InfiniBand port that trained at 1X width.
std::vector<Finding> network_findings(const Facts& facts);

}  // namespace gpudoctor
