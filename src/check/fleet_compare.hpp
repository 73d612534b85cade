#pragma once
/// Comparing the nodes of a fleet: a fingerprint per node (GPU models, driver, CUDA, cuDNN,
/// NCCL, frameworks and their builds, GPU-relevant environment variables), nodes with equal
/// fingerprints grouped, the items that differ between groups, identical findings collapsed,
/// and the outliers named. Pure: the same reports give the same answer on any machine.
#include <string>
#include <utility>
#include <vector>

#include "model/fleet.hpp"

namespace gpudoctor {

/// The fingerprint items of one node's facts, in a fixed order.
std::vector<std::pair<std::string, std::string>> fleet_fingerprint(const Facts& facts);

/// Fills groups, differences, findings and outliers of a report whose nodes are set.
void compare_fleet(FleetReport& report);

}  // namespace gpudoctor
