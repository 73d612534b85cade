#pragma once
/// What one fleet rank does and what rank 0 makes of it, without MPI (gpudoctor-fleet's
/// src/fleet/ only moves the text): the node runs `gpudoctor doctor --json` as a child with a
/// deadline, so a doctor that crashes or hangs costs its report, not the rank, and rank 0 still
/// hears why; rank 0 reads each message back into a FleetNode.
#include <chrono>
#include <string>
#include <vector>

#include "model/fleet.hpp"

namespace gpudoctor {

struct NodeDoctorRun {
  std::string gpudoctor;          ///< the gpudoctor executable
  std::vector<std::string> args;  ///< doctor's options (--root, --env-file, ...)
  std::chrono::milliseconds deadline{60000};
  std::string node;  ///< this node's name
  int rank = 0;
  /// Runs this instead of the doctor when set: how the tests make a node's doctor crash or hang.
  std::vector<std::string> command;
};

/// Runs the doctor and returns the message for rank 0: JSON {node, rank, status, error, report}.
std::string run_node_doctor(const NodeDoctorRun& run);

/// A message read back. Text that is not a message gives a node with status "failed".
FleetNode fleet_node_from_message(const std::string& text, int rank);

/// "DIR/rank{}" with {} replaced by the rank: a per-rank --root or --env-file for tests and
/// for diagnosing several images at once.
std::string per_rank_path(const std::string& pattern, int rank);

}  // namespace gpudoctor
