#pragma once
/// A fleet: every node's doctor report gathered to one place (gpudoctor-fleet's rank 0), and
/// what comparing them found. Plain data; check/fleet_compare.hpp fills the report,
/// render/fleet_report.hpp prints it and model/json_codec writes and reads its JSON.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/facts.hpp"
#include "model/finding.hpp"

namespace gpudoctor {

/// How a node's extra run (verify, bench, its part of the NCCL all-reduce) or the fleet's NCCL
/// all-reduce ended; in JSON by these names ("" for none).
enum class FleetRunStatus {
  none,       ///< not asked for
  passed,     ///< "passed"
  failed,     ///< "failed": ran, and something failed
  crashed,    ///< "crashed": the run died from a signal
  timeout,    ///< "timeout": killed at its deadline
  no_result,  ///< "no-result": it ended without a result
  no_report,  ///< "no-report": the node sent nothing for it
  not_run,    ///< "not-run": the fleet's all-reduce could not start
  // What a node's serve answers instead of a run (docs/watch-serve.md):
  not_offered,  ///< "not-offered": serve was started without --allow-verify
  running,      ///< "running": its verify was still running at the deadline
};
const char* to_string(FleetRunStatus s);
/// The status of that name; none for any other text (a fleet document is the user's file).
FleetRunStatus parse_fleet_run_status(std::string_view name);

/// Whether a node's doctor report reached rank 0; in JSON by these names.
enum class NodeStatus {
  ok,         ///< "ok": a doctor report arrived
  failed,     ///< "failed": the doctor's output was not a report
  crashed,    ///< "crashed": the doctor died from a signal
  timeout,    ///< "timeout": killed at its deadline
  no_report,  ///< "no-report": the rank sent nothing before rank 0's deadline
};
const char* to_string(NodeStatus s);
/// The status of that name; failed for any other text (never a report that did not arrive).
NodeStatus parse_node_status(std::string_view name);

/// How the reports came to the fleet; in JSON by these names.
enum class FleetSource {
  mpi,    ///< "mpi": gpudoctor-fleet's ranks
  serve,  ///< "serve": `fleet --from`, each host's /report.json
};
const char* to_string(FleetSource s);
/// The source of that name; mpi for any other text (the document's default).
FleetSource parse_fleet_source(std::string_view name);

/// One of a node's extra runs (`fleet --verify`: verify --quick, `--bench`: bench --quick) as
/// rank 0 got it.
struct FleetRun {
  bool ran = false;  ///< asked for
  FleetRunStatus status = FleetRunStatus::none;
  std::string detail;  ///< why not passed, in words
  /// bench: each figure measured ("gpu0.gemm_bf16.tflops" -> the median), in the run's order.
  std::vector<std::pair<std::string, double>> figures;
  std::string mode;         ///< bench: "quick", "default", "full"; "" unknown
  std::string started_utc;  ///< bench: when it ran ("2026-12-01T10:58:03Z"); "" unknown
};

/// One node's part of the fleet's NCCL all-reduce (`fleet --nccl`).
struct FleetNcclRun {
  bool ran = false;
  FleetRunStatus status = FleetRunStatus::none;
  std::string detail;
  double seconds = 0;     ///< one all-reduce, as this node timed it
  double busbw_gbps = 0;  ///< nccl-tests' bus bandwidth from this node's time
  std::string transport;  ///< the slowest kind of link NCCL chose here (gpu/nccl_debug_log.hpp), "" unknown
  std::vector<std::pair<std::string, int>> connections;  ///< kind -> connections, from NCCL's INFO lines
};

/// One node's result as it reached rank 0.
struct FleetNode {
  std::string name;  ///< host name ("host/rank3" when every rank stands for a node)
  int rank = 0;      ///< MPI rank that reported it
  NodeStatus status = NodeStatus::ok;
  std::string error;  ///< the reason in words, for every status but ok
  std::string group;  ///< the FleetGroup id its fingerprint fell in; "" when it did not report
  Facts facts;
  std::vector<Finding> findings;
  FleetRun verify;
  FleetRun bench;
  FleetNcclRun nccl;
};

/// The fleet's NCCL all-reduce across every node's GPUs, summed up at rank 0.
struct FleetNccl {
  bool ran = false;
  FleetRunStatus status = FleetRunStatus::none;  ///< passed when every node's part passed, else failed or not_run
  std::string detail;                            ///< why not passed, or what ran
  int gpus = 0;                                  ///< ranks of the communicator
  long long bytes = 0;
  /// nccl-tests' bus bandwidth of the collective: from the slowest node's time, since the
  /// collective is as fast as its slowest link.
  double busbw_gbps = 0;
  std::string slowest_node;
  std::string slowest_transport;  ///< the slowest kind of link NCCL chose anywhere
  std::vector<std::string> slowest_transport_nodes;
  /// The network the all-reduce crossed (check/fleet_network.hpp): the slowest node's fastest up
  /// port of the kind NCCL used there, its rate ÷ 8 in GB/s. Unknown on one node, within SHM or
  /// P2P only, or when a node reported no up port of a known rate (network_detail says which).
  std::optional<double> network_ceiling_gbps;
  std::optional<double> network_fraction;  ///< busbw_gbps ÷ network_ceiling_gbps
  std::string network_node;                ///< the node whose port sets the ceiling
  std::string network_link;                ///< "InfiniBand mlx5_0 port 1, 400 Gb/s, 4X"
  std::optional<int> network_links_up;     ///< ports of that kind up at that rate there (rails)
  std::string network_detail;              ///< the comparison in words, or why there is none
};

/// One benchmark figure across the nodes that measured it: the robust centre and spread that
/// name the outliers (a figure far from the median by the median absolute deviation).
struct FleetBenchFigure {
  std::string key;  ///< "gpu0.gemm_bf16.tflops"
  size_t nodes = 0;
  double median = 0;
  double mad = 0;  ///< median absolute deviation from the median
  double min = 0;
  double max = 0;
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
  /// With serve, a node's rank is its place in the hosts file, from 0.
  FleetSource source = FleetSource::mpi;
  int ranks = 0;  ///< MPI ranks launched, or hosts asked
  /// Why this report was printed before every node's result was in (rank 0's last snapshot when
  /// the job was ended under it); empty for a finished run.
  std::string incomplete;
  std::vector<FleetNode> nodes;  ///< every node, reporting or not, in rank order
  std::vector<FleetGroup> groups;
  std::vector<FleetDifference> differences;
  std::vector<FleetFinding> findings;  ///< warnings and errors, worst first
  std::vector<FleetOutlier> outliers;
  std::vector<FleetBenchFigure> bench;  ///< with --bench: every figure measured on 2 or more nodes
  FleetNccl nccl;                       ///< with --nccl
};

}  // namespace gpudoctor
