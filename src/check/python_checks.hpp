#pragma once
#include <vector>

#include "model/facts.hpp"
#include "model/finding.hpp"

namespace gpudoctor {

/// Python environments and the frameworks in them: CPU-only builds, unreadable metadata.
std::vector<Finding> python_findings(const Facts& facts);

}  // namespace gpudoctor
