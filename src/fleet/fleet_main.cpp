// gpudoctor-fleet: `mpirun -np N gpudoctor-fleet [options] [-- doctor options]`. One rank per
// node runs the doctor (as a child with a deadline) and sends its report to rank 0 as the
// model's JSON; rank 0 groups the nodes by fingerprint, prints what differs, collapses identical
// findings and names the outliers, including ranks that sent nothing before the deadline.
// A separate executable, built only where CMake finds MPI, so that gpudoctor itself never
// needs an MPI library to start (docs/fleet.md says why this and not dlopen).
#include <mpi.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "check/fleet_compare.hpp"
#include "cli/command.hpp"
#include "cli/fleet_node.hpp"
#include "cli/output.hpp"
#include "render/fleet_report.hpp"

namespace gpudoctor {
namespace {

constexpr int kReportTag = 18;

struct FleetArgs {
  bool json = false;
  double deadline_s = 120;
  std::string root_per_rank;
  std::string env_file_per_rank;
  bool every_rank_a_node = false;
  std::string gpudoctor;
  int simulate_nodes = 0;
  std::vector<std::string> faults;  ///< "RANK:crash", "RANK:hang" (the doctor), "RANK:silent" (the rank)
  bool timing = false;
  std::vector<std::string> doctor_args;
};

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

std::string fault_of(const FleetArgs& a, int rank) {
  for (const auto& f : a.faults) {
    auto colon = f.find(':');
    if (colon != std::string::npos && f.substr(0, colon) == std::to_string(rank)) return f.substr(colon + 1);
  }
  return {};
}

/// The gpudoctor beside this executable, unless --gpudoctor names one.
std::string gpudoctor_path(const FleetArgs& a) {
  if (!a.gpudoctor.empty()) return a.gpudoctor;
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("gpudoctor") : (self.parent_path() / "gpudoctor").string();
}

/// How many of the simulated nodes the leader with this index sends.
int simulated_share(int total, int leaders, int index) {
  return total / leaders + (index < total % leaders ? 1 : 0);
}

/// This rank's messages for rank 0: one, or its share of --simulate-nodes copies renamed.
std::vector<std::string> node_messages(const FleetArgs& a, int rank, int leader_index, int leaders,
                                       const std::string& host) {
  std::string fault = fault_of(a, rank);
  NodeDoctorRun run{.gpudoctor = gpudoctor_path(a),
                    .deadline = std::chrono::milliseconds(static_cast<long>(a.deadline_s * 1000 * 2 / 3)),
                    .node = a.every_rank_a_node ? host + "/rank" + std::to_string(rank) : host,
                    .rank = rank};
  if (!a.root_per_rank.empty()) run.args = {"--root", per_rank_path(a.root_per_rank, rank)};
  if (!a.env_file_per_rank.empty()) {
    run.args.push_back("--env-file");
    run.args.push_back(per_rank_path(a.env_file_per_rank, rank));
  }
  run.args.insert(run.args.end(), a.doctor_args.begin(), a.doctor_args.end());
  // Test faults: a doctor that crashes or hangs is a child that does so.
  if (fault == "crash") run.command = {"/bin/sh", "-c", "kill -SEGV $$"};
  if (fault == "hang") run.command = {"/bin/sh", "-c", "sleep 3600"};
  std::vector<std::string> out;
  std::string message = run_node_doctor(run);
  if (a.simulate_nodes <= 0) return {message};
  int share = simulated_share(a.simulate_nodes, leaders, leader_index);
  auto doc = nlohmann::ordered_json::parse(message);  // run_node_doctor's own JSON
  for (int i = 0; i < share; ++i) {
    doc["node"] = "sim-" + std::to_string(rank) + "-" + std::to_string(i);
    out.push_back(doc.dump());
  }
  return out;
}

int run(int argc, char** argv) {
  FleetArgs a;
  CLI::App app{"gpudoctor-fleet: the doctor on every node of an MPI job, one report at rank 0"};
  app.add_flag("--json", a.json, "One JSON document for the whole fleet (docs/fleet.md)");
  app.add_option("--deadline", a.deadline_s, "Seconds rank 0 waits for every node's report (default 120)");
  app.add_option("--root-per-rank", a.root_per_rank, "Diagnose the tree PATTERN ({} = rank) instead of /");
  app.add_option("--env-file-per-rank", a.env_file_per_rank, "The --env-file PATTERN ({} = rank) for each tree");
  app.add_flag("--every-rank-a-node", a.every_rank_a_node,
               "Treat every rank as its own node (tests; several images on one machine)");
  app.add_option("--gpudoctor", a.gpudoctor, "The gpudoctor to run (default: the one beside this program)");
  app.add_option("--simulate-nodes", a.simulate_nodes, "Send this many node reports in all, copies (performance)");
  app.add_option("--test-fault", a.faults, "RANK:crash|hang|silent, for tests (repeatable)");
  app.add_flag("--timing", a.timing, "Print rank 0's gather, compare and render seconds on stderr");
  app.add_option("doctor-args", a.doctor_args, "After --: options passed to each node's doctor");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  }

  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // One rank per node: the lowest rank of each shared-memory domain leads it.
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &local);
  int local_rank = 0;
  MPI_Comm_rank(local, &local_rank);
  MPI_Comm_free(&local);
  int leader = a.every_rank_a_node || local_rank == 0 ? 1 : 0;
  std::vector<int> leaders_flags(static_cast<size_t>(size), 0);
  // Collective while every rank is surely alive; after this, rank 0 only waits with a deadline.
  MPI_Allgather(&leader, 1, MPI_INT, leaders_flags.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> leaders;
  for (int r = 0; r < size; ++r) {
    if (leaders_flags[static_cast<size_t>(r)] != 0) leaders.push_back(r);
  }
  char host_buf[MPI_MAX_PROCESSOR_NAME] = {};
  int host_len = 0;
  MPI_Get_processor_name(host_buf, &host_len);
  std::string host(host_buf, static_cast<size_t>(host_len));
  auto leader_index = [&](int r) {
    return static_cast<int>(std::find(leaders.begin(), leaders.end(), r) - leaders.begin());
  };
  auto start = Clock::now();

  if (rank != 0) {
    if (leader != 0) {
      if (fault_of(a, rank) == "silent") {
        // A rank that hangs: it never reports; rank 0 names it after its deadline and aborts the job.
        std::this_thread::sleep_for(std::chrono::seconds(3600));
      }
      for (const auto& m : node_messages(a, rank, leader_index(rank), static_cast<int>(leaders.size()), host)) {
        MPI_Send(m.data(), static_cast<int>(m.size()), MPI_CHAR, 0, kReportTag, MPI_COMM_WORLD);
      }
    }
    MPI_Finalize();
    return kExitOk;
  }

  FleetReport report;
  report.ranks = size;
  std::map<int, std::vector<FleetNode>> by_rank;
  std::map<int, int> expected;  // rank -> messages still to come
  for (int r : leaders) {
    expected[r] =
        a.simulate_nodes > 0 ? simulated_share(a.simulate_nodes, static_cast<int>(leaders.size()), leader_index(r)) : 1;
  }
  for (const auto& m : node_messages(a, 0, 0, static_cast<int>(leaders.size()), host)) {
    by_rank[0].push_back(fleet_node_from_message(m, 0));
  }
  expected.erase(0);
  auto gather_start = Clock::now();
  std::string buffer;
  size_t bytes = 0;
  double parse_s = 0;  // of gather_s: reading the reports back into the model
  while (!expected.empty() && seconds_since(start) < a.deadline_s) {
    int found = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kReportTag, MPI_COMM_WORLD, &found, &status);
    if (found == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      continue;
    }
    int count = 0;
    MPI_Get_count(&status, MPI_CHAR, &count);
    buffer.resize(static_cast<size_t>(count));
    MPI_Recv(buffer.data(), count, MPI_CHAR, status.MPI_SOURCE, kReportTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    bytes += buffer.size();
    auto parse_start = Clock::now();
    by_rank[status.MPI_SOURCE].push_back(fleet_node_from_message(buffer, status.MPI_SOURCE));
    parse_s += seconds_since(parse_start);
    if (auto it = expected.find(status.MPI_SOURCE); it != expected.end() && --it->second == 0) expected.erase(it);
  }
  double gather_s = seconds_since(gather_start);
  bool missing = !expected.empty();
  for (const auto& [r, left] : expected) {
    FleetNode n;
    n.rank = r;
    n.name = "rank " + std::to_string(r);
    n.status = "no-report";
    n.error = "rank " + std::to_string(r) + " sent " + (left > 1 ? "too few reports" : "no report") + " within " +
              std::to_string(static_cast<int>(a.deadline_s)) + " s (hung, crashed or unreachable)";
    by_rank[r].push_back(std::move(n));
  }
  for (auto& [r, nodes] : by_rank) {
    for (auto& n : nodes) report.nodes.push_back(std::move(n));
  }
  auto compare_start = Clock::now();
  compare_fleet(report);
  double compare_s = seconds_since(compare_start);
  auto render_start = Clock::now();
  std::string text = a.json ? render_fleet_json(report) : render_fleet_text(report);
  double render_s = seconds_since(render_start);
  write_output(text);
  if (a.timing) {
    print_error(
        "gpudoctor-fleet: {} node reports; gather {:.3f} s ({} bytes received, {:.3f} s of it parsing), "
        "compare {:.3f} s, render {:.3f} s\n",
        report.nodes.size(), gather_s, bytes, parse_s, compare_s, render_s);
  }
  bool errors = false;
  for (const auto& n : report.nodes) errors = errors || n.status != "ok" || worst(n.findings) == Severity::error;
  int code = errors ? kExitProblems : kExitOk;
  if (missing) {
    // A rank that never reported may never reach MPI_Finalize either: end the job, report printed.
    std::fflush(nullptr);
    MPI_Abort(MPI_COMM_WORLD, code);
  }
  MPI_Finalize();
  return code;
}

}  // namespace
}  // namespace gpudoctor

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  return gpudoctor::run(argc, argv);
}
