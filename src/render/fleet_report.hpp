#pragma once
/// The fleet report (gpudoctor-fleet's rank 0): text with the groups, a table of what differs
/// between them, the findings collapsed across nodes and the outliers named; and one JSON
/// document (docs/fleet.md), which `report --html --fleet` reads.
#include <string>

#include "model/fleet.hpp"

namespace gpudoctor {

inline constexpr int kFleetSchemaVersion = 1;

std::string render_fleet_text(const FleetReport& report);
std::string render_fleet_json(const FleetReport& report);

}  // namespace gpudoctor
