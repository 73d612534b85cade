// gpudoctor-fleet: `mpirun -np N gpudoctor-fleet [options] [-- doctor options]`. One rank per
// node runs the doctor (as a child with a deadline) and sends its report to rank 0 as the
// model's JSON; rank 0 groups the nodes by fingerprint, prints what differs, collapses identical
// findings and names the outliers, including ranks that sent nothing before the deadline.
// A separate executable, built only where CMake finds MPI, so that gpudoctor itself never
// needs an MPI library to start (docs/fleet.md says why this and not dlopen).
#include <fcntl.h>
#include <mpi.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "check/fleet_compare.hpp"
#include "cli/command.hpp"
#include "cli/fleet_node.hpp"
#include "cli/output.hpp"
#include "core/text.hpp"
#include "gpu/internal_tasks.hpp"
#include "render/fleet_report.hpp"

namespace gpudoctor {
namespace {

constexpr int kReportTag = 18;
constexpr int kNcclPlanTag = 19;    ///< rank 0 -> each leader: {"run", "id", "nranks", "rank0", "gpus"}
constexpr int kNcclResultTag = 20;  ///< each leader -> rank 0: run_node_nccl's message
constexpr int kDoneTag = 21;        ///< rank 0 -> every rank, empty: the report is out, finalize

struct FleetArgs {
  bool json = false;
  std::string output;  ///< --output FILE; "" stdout
  double deadline_s = 120;
  std::string root_per_rank;
  std::string env_file_per_rank;
  bool every_rank_a_node = false;
  std::string gpudoctor;
  int simulate_nodes = 0;
  /// "RANK:crash", "RANK:hang" (the doctor), "RANK:silent" (the rank), "RANK:die" (the rank process
  /// kills itself at half the deadline, its report unsent: mpirun then ends the job)
  std::vector<std::string> faults;
  bool timing = false;
  bool verify = false;
  bool bench = false;
  std::vector<std::string> verify_args;
  std::vector<std::string> bench_args;
  bool nccl = false;
  long long nccl_bytes = 64LL << 20;
  int nccl_iters = 5;
  double nccl_deadline_s = 120;
  std::vector<std::string> doctor_args;
};

using Clock = std::chrono::steady_clock;

// The report of a job ended under rank 0. When a rank process dies (the OOM killer's SIGKILL, a
// SIGSEGV, a node lost), Open MPI's mpirun ends every other rank: SIGTERM, then SIGKILL
// (odls_base_sigkill_timeout, 1 s by default; with Debian 12's Open MPI 4.1.4 rank 0 was measured
// to live under 10 ms after the SIGTERM). Ctrl-C on mpirun, Slurm's scancel and a time limit end
// it the same way. No MPI call, allocation or rendering fits in that, so rank 0 keeps the report
// of what has arrived rendered (two buffers: one complete while the other is written), and the
// handler only write()s the complete one, which is async-signal-safe. Through mpirun, rank 0's
// stdout is a pseudo-terminal that mpirun stops reading once it ends the job: measured, 2 to 10 KB
// of a longer report arrived. A fleet's JSON is longer, so --output FILE keeps the report in a
// file instead, replaced whole at each update; the handler then only says so on stderr.
std::string g_ended_report[2];
std::string g_ended_note;                        ///< with --output: the line the handler writes to stderr
volatile std::sig_atomic_t g_ended_ready = -1;   ///< the complete buffer; -1 none; 2 the final report is being printed
volatile std::sig_atomic_t g_ended_in_file = 0;  ///< --output holds the last update (its write succeeded)
volatile std::sig_atomic_t g_ended_entered = 0;  ///< the handler runs once (SIGINT after SIGTERM)
bool g_test_term_in_write = false;               ///< --test-fault 0:term-in-write: SIGTERM before the rename
std::string g_replace_tmp;                       ///< --output's new file, named once before it is first written
volatile std::sig_atomic_t g_replace_open = 0;   ///< g_replace_tmp exists: a signal now removes it
constexpr int kEndedByFinalReport = 2;

extern "C" void print_ended_report(int signal_number) {
  if (g_ended_entered != 0) return;
  g_ended_entered = 1;
  const int ready = g_ended_ready;
  std::atomic_signal_fence(std::memory_order_acquire);  // the buffer's text after the index that names it
  if (ready == kEndedByFinalReport) {                   // the finished report is on its way: let it be
    g_ended_entered = 0;
    return;
  }
  auto put = [](int fd, const std::string& text) {
    const char* p = text.data();
    size_t left = text.size();
    while (left > 0) {
      const ssize_t n = write(fd, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      p += n;
      left -= static_cast<size_t>(n);
    }
  };
  if (g_ended_in_file != 0) {
    put(STDERR_FILENO, g_ended_note);
  } else if (ready == 0 || ready == 1) {  // no --output, or its last write failed: stdout
    put(STDOUT_FILENO, g_ended_report[ready]);
  }
  // Ended between the new file's open() and its rename(): nothing of it is left beside the report
  // (unlink is async-signal-safe; only a SIGKILL there leaves one, removed by the next run of this pid).
  if (g_replace_open != 0) unlink(g_replace_tmp.c_str());
  _exit(128 + signal_number);
}

/// Replaces `path` with `text` in one step (a new file beside it, then rename()), so that a job
/// ended at any moment leaves the previous report or this one, never a part of one. The new file
/// is created exclusively and never through a link. False with errno set when it could not be.
bool replace_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp-" + std::to_string(getpid());
  if (g_replace_tmp.empty()) g_replace_tmp = tmp;  // one --output per run: the same name each time
  std::atomic_signal_fence(std::memory_order_release);
  g_replace_open = g_replace_tmp == tmp ? 1 : 0;
  struct Closed {
    ~Closed() { g_replace_open = 0; }
  } closed;
  struct stat old = {};
  const bool had = lstat(path.c_str(), &old) == 0;
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0 && errno == EEXIST && unlink(tmp.c_str()) == 0) {  // a stale one of an earlier run
    fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  }
  if (fd < 0) return false;
  if (had) fchmod(fd, old.st_mode & 07777);  // a report the user made private stays private
  const char* p = text.data();
  size_t left = text.size();
  while (left > 0) {
    const ssize_t n = write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    p += n;
    left -= static_cast<size_t>(n);
  }
  const int saved = errno;
  // The job ended with an update written, not yet renamed (one kept already, so the file holds it).
  if (g_test_term_in_write && (g_ended_ready == 0 || g_ended_ready == 1)) std::raise(SIGTERM);
  if (close(fd) != 0 || left > 0 || rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = left > 0 ? saved : errno;
    unlink(tmp.c_str());
    errno = e;
    return false;
  }
  return true;
}

void install_ended_report_handler() {
  struct sigaction sa = {};
  sa.sa_handler = print_ended_report;
  sigemptyset(&sa.sa_mask);
  for (int s : {SIGTERM, SIGINT, SIGHUP}) sigaddset(&sa.sa_mask, s);  // one at a time
  sa.sa_flags = SA_RESTART;
  for (int s : {SIGTERM, SIGINT, SIGHUP}) sigaction(s, &sa, nullptr);
}

/// The three signals, for every thread MPI_Init starts (Open MPI's progress threads): blocked
/// before it, unblocked after it in this thread only, so that the handler runs here and never
/// beside the thread that flips the buffers.
void block_ended_report_signals(int how) {
  sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGTERM, SIGINT, SIGHUP}) sigaddset(&set, s);
  pthread_sigmask(how, &set, nullptr);
}

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
                    .rank = rank,
                    .verify = a.verify,
                    .bench = a.bench,
                    .verify_args = a.verify_args,
                    .bench_args = a.bench_args};
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

std::string receive_text(int source, int tag) {
  MPI_Status status;
  MPI_Probe(source, tag, MPI_COMM_WORLD, &status);
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  std::string text(static_cast<size_t>(count), '\0');
  MPI_Recv(text.data(), count, MPI_CHAR, source, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return text;
}

void send_text(const std::string& text, int dest, int tag) {
  MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, dest, tag, MPI_COMM_WORLD);
}

/// A rank other than 0, its part done, waits for rank 0's word before MPI_Finalize. Debian 12's
/// OpenMPI 4.1.4 mpirun segfaults or deadlocks in PMIx_server_finalize when MPI_Abort comes while
/// other ranks sit in MPI_Finalize's fence (3 of 10 runs of a 5-line program); ranks that are
/// merely alive are killed cleanly. So rank 0 either says "done" to all, or aborts while all wait.
/// Bounded past rank 0's own deadlines, so that a rank 0 that vanished without a trace is not
/// waited on for ever.
void wait_for_rank0_done(const FleetArgs& a) {
  const double bound_s = a.deadline_s + (a.nccl ? a.nccl_deadline_s : 0) + 60;
  auto start = Clock::now();
  int found = 0;
  while (found == 0 && seconds_since(start) < bound_s) {
    MPI_Iprobe(0, kDoneTag, MPI_COMM_WORLD, &found, MPI_STATUS_IGNORE);
    if (found == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (found != 0) MPI_Recv(nullptr, 0, MPI_CHAR, 0, kDoneTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/// A leader's part of --nccl: rank 0's plan, then this node's GPUs in the all-reduce.
void nccl_leader(const FleetArgs& a) {
  auto plan = nlohmann::ordered_json::parse(receive_text(0, kNcclPlanTag), nullptr, false);
  if (!plan.is_object() || !plan.value("run", false)) return;
  NodeNcclRun run{.id = plan.value("id", std::string()),
                  .nranks = plan.value("nranks", 0),
                  .rank0 = plan.value("rank0", 0),
                  .gpus = plan.value("gpus", 0),
                  .bytes = a.nccl_bytes,
                  .iters = a.nccl_iters,
                  .deadline = std::chrono::milliseconds(static_cast<long>(a.nccl_deadline_s * 1000 * 2 / 3))};
  send_text(run_node_nccl(run), 0, kNcclResultTag);
}

/// Rank 0's part of --nccl (nccl-tests' bootstrap over MPI): the unique id made in a child,
/// each node's first rank from the GPU counts in the reports, the plans sent, its own node's
/// part run, and every node's result awaited until --nccl-deadline. False when a node sent
/// no result (the job is then ended with MPI_Abort, as for a missing report).
bool nccl_rank0(const FleetArgs& a, const std::vector<int>& leaders, std::map<int, std::vector<FleetNode>>& by_rank,
                const std::map<int, int>& not_reported, FleetNccl& nccl) {
  auto start = Clock::now();
  nccl.ran = true;
  nccl.bytes = a.nccl_bytes;
  std::map<int, int> gpus;  // leader -> its GPUs in the communicator, as its report counts them
  for (int r : leaders) {
    const auto& nodes = by_rank[r];
    int n =
        nodes.empty() || nodes.front().status != NodeStatus::ok ? 0 : static_cast<int>(nodes.front().facts.gpus.size());
    if (n > 0) gpus[r] = n;
  }
  std::string why_not;
  if (!not_reported.empty()) {
    why_not = "not run: rank " + std::to_string(not_reported.begin()->first) + " did not report";
  } else if (!gpus.contains(0)) {
    why_not = "not run: rank 0's node reported no GPU";
  }
  std::string id;
  if (why_not.empty()) {
    auto made = make_nccl_unique_id(std::chrono::milliseconds(static_cast<long>(a.nccl_deadline_s * 1000 / 4)));
    if (made) {
      id = *made;
    } else {
      why_not = made.error().message;
    }
  }
  std::map<int, int> first_rank;
  for (const auto& [r, n] : gpus) {
    first_rank[r] = nccl.gpus;
    nccl.gpus += n;
  }
  // Every leader still there gets a plan, "run": false included, so that none waits for ever.
  for (int r : leaders) {
    if (r == 0 || not_reported.contains(r)) continue;
    nlohmann::ordered_json plan = {{"run", false}};
    if (why_not.empty() && gpus.contains(r)) {
      plan = {{"run", true}, {"id", id}, {"nranks", nccl.gpus}, {"rank0", first_rank[r]}, {"gpus", gpus[r]}};
    }
    send_text(plan.dump(), r, kNcclPlanTag);
  }
  if (!why_not.empty()) {
    nccl.status = why_not.starts_with("not run") ? FleetRunStatus::not_run : FleetRunStatus::failed;
    nccl.detail = why_not;
    return true;
  }
  const auto child_deadline = std::chrono::milliseconds(static_cast<long>(a.nccl_deadline_s * 1000 * 2 / 3));
  by_rank[0].front().nccl = nccl_run_from_message(run_node_nccl({.id = id,
                                                                 .nranks = nccl.gpus,
                                                                 .rank0 = 0,
                                                                 .gpus = gpus[0],
                                                                 .bytes = a.nccl_bytes,
                                                                 .iters = a.nccl_iters,
                                                                 .deadline = child_deadline}));
  std::set<int> waiting;
  for (const auto& [r, n] : gpus) {
    if (r != 0) waiting.insert(r);
  }
  while (!waiting.empty() && seconds_since(start) < a.nccl_deadline_s) {
    int found = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kNcclResultTag, MPI_COMM_WORLD, &found, &status);
    if (found == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      continue;
    }
    std::string text = receive_text(status.MPI_SOURCE, kNcclResultTag);
    if (waiting.erase(status.MPI_SOURCE) == 0) continue;
    by_rank[status.MPI_SOURCE].front().nccl = nccl_run_from_message(text);
  }
  for (int r : waiting) {
    by_rank[r].front().nccl = {.ran = true,
                               .status = FleetRunStatus::no_report,
                               .detail = "rank " + std::to_string(r) + " sent no NCCL result within " +
                                         std::to_string(static_cast<int>(a.nccl_deadline_s)) + " s"};
  }
  return waiting.empty();
}

int run(int argc, char** argv) {
  FleetArgs a;
  CLI::App app{"gpudoctor-fleet: the doctor on every node of an MPI job, one report at rank 0"};
  app.add_flag("--json", a.json, "One JSON document for the whole fleet (docs/fleet.md)");
  app.add_option("--output", a.output,
                 "Write the report to this file, not stdout; while rank 0 waits it holds what has arrived, marked "
                 "incomplete, so a job ended under rank 0 leaves that");
  app.add_option("--deadline", a.deadline_s, "Seconds rank 0 waits for every node's report (default 120)");
  app.add_option("--root-per-rank", a.root_per_rank, "Diagnose the tree PATTERN ({} = rank) instead of /");
  app.add_option("--env-file-per-rank", a.env_file_per_rank, "The --env-file PATTERN ({} = rank) for each tree");
  app.add_flag("--every-rank-a-node", a.every_rank_a_node,
               "Treat every rank as its own node (tests; several images on one machine)");
  app.add_option("--gpudoctor", a.gpudoctor, "The gpudoctor to run (default: the one beside this program)");
  app.add_option("--simulate-nodes", a.simulate_nodes, "Send this many node reports in all, copies (performance)");
  app.add_option("--test-fault", a.faults, "RANK:crash|hang|silent|die, 0:term-in-write, for tests (repeatable)");
  app.add_flag("--timing", a.timing, "Print rank 0's gather, compare and render seconds on stderr");
  app.add_flag("--verify", a.verify, "Each node also runs `verify --quick`; failures are named");
  app.add_flag("--bench", a.bench,
               "Each node also runs `bench --quick`; figures far from the fleet's median are named");
  app.add_option("--verify-arg", a.verify_args, "An option for each node's verify (repeatable)");
  app.add_option("--bench-arg", a.bench_args, "An option for each node's bench (repeatable), e.g. --cpu-only");
  app.add_flag("--nccl", a.nccl,
               "An NCCL all-reduce across every node's GPUs (bootstrapped over MPI): bus bandwidth and the "
               "links NCCL chose");
  app.add_option("--nccl-bytes", a.nccl_bytes, "Bytes of the all-reduce (default 64 MiB)");
  app.add_option("--nccl-iters", a.nccl_iters, "Timed all-reduces (default 5)");
  app.add_option("--nccl-deadline", a.nccl_deadline_s, "Seconds for the all-reduce phase (default 120)");
  app.add_option("doctor-args", a.doctor_args, "After --: options passed to each node's doctor");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  }
  if (a.nccl && (a.simulate_nodes > 0 || a.nccl_bytes < 4 || a.nccl_iters < 1 || !(a.nccl_deadline_s > 0))) {
    print_error("gpudoctor-fleet: --nccl takes --nccl-bytes >= 4, --nccl-iters >= 1, and not --simulate-nodes\n");
    return kExitUsage;
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
      auto messages = node_messages(a, rank, leader_index(rank), static_cast<int>(leaders.size()), host);
      if (fault_of(a, rank) == "die") {
        // The rank process itself dies, its report unsent, after the others have had time to report.
        std::this_thread::sleep_until(start + std::chrono::milliseconds(static_cast<long>(a.deadline_s * 1000 / 2)));
        std::raise(SIGKILL);
      }
      for (const auto& m : messages) {
        MPI_Send(m.data(), static_cast<int>(m.size()), MPI_CHAR, 0, kReportTag, MPI_COMM_WORLD);
      }
      if (a.nccl) nccl_leader(a);
    }
    wait_for_rank0_done(a);
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
  // Every node as it stands: the reports received, and each rank still expected as not reported.
  auto assemble = [&](std::map<int, std::vector<FleetNode>> nodes, const std::string& why_missing) {
    FleetReport out;
    out.ranks = size;
    for (const auto& [r, left] : expected) {
      FleetNode n;
      n.rank = r;
      n.name = "rank " + std::to_string(r);
      n.status = NodeStatus::no_report;
      n.error =
          "rank " + std::to_string(r) + " sent " + (left > 1 ? "too few reports" : "no report") + " " + why_missing;
      nodes[r].push_back(std::move(n));
    }
    for (auto& [r, list] : nodes) {
      for (auto& n : list) out.nodes.push_back(std::move(n));
    }
    return out;
  };
  // The report printed if the job is ended now (print_ended_report), brought up to date while
  // rank 0 waits: a copy of every report, so not after each one in a big fleet (at most every
  // quarter second, and never more than a fifth of the time).
  auto last_kept = Clock::time_point{};
  double keep_cost_s = 0;
  int kept = 0;       // --timing: how often the report was brought up to date
  double kept_s = 0;  // and what that cost in all
  auto keep_ended_report = [&](const std::string& what) {
    const auto t0 = Clock::now();
    const double at_s = seconds_since(start);
    FleetReport ended = assemble(by_rank, fmt::format("by {:.1f} s after the start, when this report was last brought "
                                                      "up to date before the job was ended",
                                                      at_s));
    ended.incomplete = fmt::format(
        "this is what rank 0 had {:.1f} s after the start, {}: the job was ended then by a signal from mpirun or the "
        "scheduler (in an --output file: or it is still running). mpirun ends every rank when one rank process dies "
        "(the OOM killer, a crash, a lost node), and its own message names that rank; Ctrl-C, scancel and a time "
        "limit end the job the same way.",
        at_s, what);
    compare_fleet(ended);
    const std::string text = output_safe(a.json ? render_fleet_json(ended) : render_fleet_text(ended));
    if (!a.output.empty()) {
      const bool ok = replace_file(a.output, text);
      // Said when writing starts to fail, the first update included (the stop's re-read: a file
      // that could never be written was silent until the end).
      if (!ok && (g_ended_in_file != 0 || kept == 0)) {
        print_error("gpudoctor-fleet: cannot write {}: {}\n", a.output, std::strerror(errno));
      }
      g_ended_in_file = ok ? 1 : 0;
    }
    // Also kept here: stdout is where the handler turns when the file could not be written.
    const int next = g_ended_ready == 0 ? 1 : 0;
    g_ended_report[next] = text;
    std::atomic_signal_fence(std::memory_order_release);  // the text before the index that names it
    g_ended_ready = next;
    last_kept = Clock::now();
    keep_cost_s = seconds_since(t0);
    ++kept;
    kept_s += keep_cost_s;
  };
  if (!a.output.empty()) {
    g_ended_note = "gpudoctor-fleet: the job was ended before the report was finished; " + output_safe(a.output) +
                   " holds what rank 0 had by then (marked incomplete)\n";
  }
  g_test_term_in_write = fault_of(a, 0) == "term-in-write";
  install_ended_report_handler();
  keep_ended_report("before every node had reported");
  bool received_since_kept = false;
  auto gather_start = Clock::now();
  std::string buffer;
  size_t bytes = 0;
  double parse_s = 0;  // of gather_s: reading the reports back into the model
  while (!expected.empty() && seconds_since(start) < a.deadline_s) {
    int found = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kReportTag, MPI_COMM_WORLD, &found, &status);
    if (found == 0) {
      if (received_since_kept && seconds_since(last_kept) >= std::max(0.25, 4 * keep_cost_s)) {
        keep_ended_report("before every node had reported");
        received_since_kept = false;
      }
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
    received_since_kept = true;
  }
  double gather_s = seconds_since(gather_start);
  bool missing = !expected.empty();
  if (a.nccl) {
    keep_ended_report("during the NCCL all-reduce (not in this report)");
    missing = !nccl_rank0(a, leaders, by_rank, expected, report.nccl) || missing;
  }
  auto nccl = std::move(report.nccl);
  report = assemble(std::move(by_rank),
                    "within " + std::to_string(static_cast<int>(a.deadline_s)) + " s (hung, crashed or unreachable)");
  report.nccl = std::move(nccl);
  auto compare_start = Clock::now();
  compare_fleet(report);
  double compare_s = seconds_since(compare_start);
  auto render_start = Clock::now();
  std::string text = a.json ? render_fleet_json(report) : render_fleet_text(report);
  double render_s = seconds_since(render_start);
  g_ended_ready = kEndedByFinalReport;
  bool wrote = true;
  if (a.output.empty()) {
    write_output(text);
  } else if (!replace_file(a.output, output_safe(text))) {
    // Never nowhere: the report goes to stdout, and the exit status says the file was not written.
    print_error("gpudoctor-fleet: cannot write {}: {}; the report follows on stdout\n", a.output, std::strerror(errno));
    write_output(text);
    wrote = false;
  }
  std::fflush(stdout);
  for (int s : {SIGTERM, SIGINT, SIGHUP}) std::signal(s, SIG_DFL);  // as before, from here on (MPI_Abort)
  if (a.timing) {
    print_error(
        "gpudoctor-fleet: {} node reports; gather {:.3f} s ({} bytes received, {:.3f} s of it parsing), "
        "compare {:.3f} s, render {:.3f} s; the report for an ended job kept {} time(s), {:.3f} s\n",
        report.nodes.size(), gather_s, bytes, parse_s, compare_s, render_s, kept, kept_s);
  }
  bool errors = false;
  for (const auto& n : report.nodes)
    errors = errors || n.status != NodeStatus::ok || worst(n.findings) == Severity::error;
  int code = errors || !wrote ? kExitProblems : kExitOk;
  if (missing) {
    // A rank that never reported may never reach MPI_Finalize either: end the job, report printed.
    std::fflush(nullptr);
    MPI_Abort(MPI_COMM_WORLD, code);
  }
  for (int r = 1; r < size; ++r) MPI_Send(nullptr, 0, MPI_CHAR, r, kDoneTag, MPI_COMM_WORLD);
  MPI_Finalize();
  return code;
}

}  // namespace
}  // namespace gpudoctor

int main(int argc, char** argv) {
  // --nccl's children (gpudoctor-fleet --internal-task ...): vendor code runs there, not here.
  gpudoctor::gpu::run_internal_task(argc, argv);
  gpudoctor::block_ended_report_signals(SIG_BLOCK);
  MPI_Init(&argc, &argv);
  gpudoctor::block_ended_report_signals(SIG_UNBLOCK);
  return gpudoctor::run(argc, argv);
}
