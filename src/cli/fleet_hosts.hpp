#pragma once
/// `gpudoctor fleet --from hosts.txt`: the fleet gathered from running `gpudoctor serve`
/// endpoints (GET /report.json, and /verify.json, /bench.json when asked) instead of MPI
/// ranks, for clusters that run the exporter.
/// Every answer is untrusted: each host has a deadline and a size limit, and whatever it
/// answers (nothing, garbage, too much) becomes that node's status, never a failure of the run.
#include <chrono>
#include <vector>

#include "cli/fleet_node.hpp"

namespace gpudoctor {

struct FleetFetchOptions {
  std::chrono::milliseconds host_deadline{10000};  ///< one host: connecting, answering, retrying a 503
  std::chrono::milliseconds deadline{120000};      ///< the whole gathering
  int parallel = 32;                               ///< hosts asked at once
  size_t max_bytes = 8 << 20;                      ///< the most of one answer read
  /// `fleet --from --verify`: each host's GET /verify.json (serve --allow-verify runs verify
  /// --quick), within verify_deadline; `--bench`: its GET /bench.json (the last quick bench in
  /// its history), within host_deadline.
  bool verify = false;
  bool bench = false;
  std::chrono::milliseconds verify_deadline{90000};
};

struct FleetFetch {
  std::vector<FleetNode> nodes;  ///< one per host, in the file's order
  /// Hosts still being asked at the overall deadline: their threads are left blocked, so the
  /// caller ends the process once the report is out (nothing else would stop them).
  bool abandoned = false;
};

/// Asks every host, at most `parallel` at once. Fails only where this build has no HTTP client.
Result<FleetFetch> fetch_fleet_reports(const std::vector<FleetHost>& hosts, const FleetFetchOptions& options);

}  // namespace gpudoctor
