#pragma once
/// A fleet: every node's doctor report gathered to one place (gpudoctor-fleet's rank 0), and
/// what comparing them found. Plain data; check/fleet_compare.hpp fills the report and
/// render/fleet_report.hpp prints it.
#include <string>
#include <utility>
#include <vector>

#include "model/facts.hpp"
#include "model/finding.hpp"

namespace gpudoctor {

/// One node's result as it reached rank 0.
struct FleetNode {
  std::string name;  ///< host name ("host/rank3" when every rank stands for a node)
  int rank = 0;      ///< MPI rank that reported it
  /// "ok": a doctor report arrived. Otherwise why none did: "failed" (the doctor's output was
  /// not a report), "crashed" (the doctor died from a signal), "timeout" (killed at its
  /// deadline), "no-report" (the rank sent nothing before rank 0's deadline).
  std::string status = "ok";
  std::string error;  ///< the reason in words, for every status but "ok"
  Facts facts;
  std::vector<Finding> findings;
};

/// Nodes whose fingerprints are identical.
struct FleetGroup {
  std::string id;                                          ///< "A", "B", ... largest group first
  std::vector<std::string> nodes;                          ///< node names, in rank order
  std::vector<std::pair<std::string, std::string>> print;  ///< the fingerprint: item -> value
  bool outlier = false;                                    ///< smaller than a group holding most nodes
};

/// A fingerprint item whose value differs between groups: one value per group, in group order.
struct FleetDifference {
  std::string key;
  std::vector<std::string> values;
};

/// One finding as it appears across the fleet: the same id, severity and title on several
/// nodes is shown once, with the nodes it is on.
struct FleetFinding {
  std::string id;
  Severity severity = Severity::info;
  std::string title;
  std::string fix;
  std::vector<std::string> nodes;
};

struct FleetOutlier {
  std::string node;
  std::string reason;
};

struct FleetReport {
  int ranks = 0;                 ///< MPI ranks launched
  std::vector<FleetNode> nodes;  ///< every node, reporting or not, in rank order
  std::vector<FleetGroup> groups;
  std::vector<FleetDifference> differences;
  std::vector<FleetFinding> findings;  ///< warnings and errors, worst first
  std::vector<FleetOutlier> outliers;
};

}  // namespace gpudoctor
