#pragma once
/// What one fleet rank does and what rank 0 makes of it, without MPI (gpudoctor-fleet's
/// src/fleet/ only moves the text): the node runs `gpudoctor doctor --json` as a child with a
/// deadline, so a doctor that crashes or hangs costs its report, not the rank, and rank 0 still
/// hears why; rank 0 reads each message back into a FleetNode.
#include <chrono>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/result.hpp"
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
  /// `fleet --verify` / `--bench`: after the doctor, `verify --quick --json` and `bench --quick
  /// --json --no-history` (with these extra options), each a child within what is left of the
  /// deadline.
  bool verify = false;
  bool bench = false;
  std::vector<std::string> verify_args;
  std::vector<std::string> bench_args;
};

/// Runs the doctor (and verify, bench) and returns the message for rank 0: JSON {node, rank,
/// status, error, report[, verify][, bench]}.
std::string run_node_doctor(const NodeDoctorRun& run);

/// `gpudoctor verify|bench --quick --json OPTIONS` as a child, ended at `end`: its JSON
/// document, or {status: timeout|crashed|failed|no-result, error} saying why there is none.
/// A rank's --verify/--bench, and serve's /verify.json.
nlohmann::ordered_json run_quick_json(const std::string& gpudoctor, const char* command,
                                      const std::vector<std::string>& options,
                                      std::chrono::steady_clock::time_point end);

/// verify's JSON (or run_quick_json's {status, error}) read for the fleet: passed, or which steps
/// did not pass and why.
FleetRun verify_run_from_json(const nlohmann::ordered_json& j);
/// bench's JSON (or {status, error}) read for the fleet: each figure measured, or why none.
FleetRun bench_run_from_json(const nlohmann::ordered_json& j);

/// A message read back. Text that is not a message gives a node with status "failed".
FleetNode fleet_node_from_message(const std::string& text, int rank);

/// "DIR/rank{}" with {} replaced by the rank: a per-rank --root or --env-file for tests and
/// for diagnosing several images at once.
std::string per_rank_path(const std::string& pattern, int rank);

/// `fleet --nccl` on rank 0: a new ncclUniqueId (hex) from a child that loads NCCL, or why not.
Result<std::string> make_nccl_unique_id(std::chrono::milliseconds deadline);

/// One node's part of the fleet's all-reduce: its GPUs are ranks rank0 .. rank0+count-1 of a
/// communicator of `nranks`, made from rank 0's id.
struct NodeNcclRun {
  std::string id;
  int nranks = 0;
  int rank0 = 0;
  int gpus = 0;  ///< this node's GPUs that take part (its first `gpus` devices)
  long long bytes = 64LL << 20;
  int iters = 5;
  std::chrono::milliseconds deadline{120000};
};

/// Runs the node's part in a child (gpu/verify_steps.hpp, "nccl-fleet") and returns the
/// message for rank 0: JSON {status, detail, notes}.
std::string run_node_nccl(const NodeNcclRun& run);

/// Rank 0's reading of a node's NCCL message. Text that is not one gives status "failed".
FleetNcclRun nccl_run_from_message(const std::string& text);

/// One `gpudoctor serve` endpoint of a hosts file (`fleet --from`).
struct FleetHost {
  std::string name;  ///< the line as written, trimmed: the node's name in the report
  std::string host;
  int port = 9400;  ///< serve's default
};

/// The most endpoints one hosts file may name, and the most bytes it may hold.
inline constexpr size_t kMaxFleetHosts = 100000;
inline constexpr size_t kMaxFleetHostsFileBytes = 16 << 20;

/// A hosts file's text: one endpoint a line (`host`, `host:port`, `[v6addr]:port`,
/// `http://host:port`, an optional trailing `/`), `#` comments, blank lines; a host named twice
/// counts once. A line that is none of these is an error naming its line number.
Result<std::vector<FleetHost>> parse_fleet_hosts(std::string_view text);

/// A node from what an endpoint answered to GET /report.json: the doctor's JSON, or (status
/// "failed") why the answer is not one. Untrusted: any text gives a node, never an exception.
FleetNode fleet_node_from_report_json(const std::string& name, int index, const std::string& body);

}  // namespace gpudoctor
