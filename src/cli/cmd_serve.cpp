// `gpudoctor serve`: /metrics (Prometheus), /report.json (the doctor's report, refreshed on a
// schedule), /verify.json (verify --quick on request, with --allow-verify), /bench.json (the
// last bench run in this host's history) and /healthz over HTTP with Debian's cpp-httplib. One SamplingLoop samples the
// GPUs every interval through the GPU agent; a scrape only renders the latest snapshot, so
// any number of scrapers cost one sample per interval, and a GPU that stops answering delays
// the sampler thread, never a scrape. Read and write timeouts bound what a slow or broken
// client can hold.
#include <httplib.h>
#ifndef _WIN32
#include <sys/socket.h>
#endif

#include <CLI/CLI.hpp>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "check/checks.hpp"
#include "cli/commands_list.hpp"
#include "cli/fleet_node.hpp"
#include "cli/gather_facts.hpp"
#include "cli/output.hpp"
#include "cli/serve_http.hpp"
#include "monitor/sampler.hpp"
#include "platform/bench_history.hpp"
#include "platform/child_process.hpp"
#include "platform/host_fs.hpp"
#include "platform/stop_signal.hpp"
#include "render/bench_render.hpp"
#include "render/doctor_report.hpp"
#include "render/monitor_render.hpp"

namespace gpudoctor {
namespace {

/// A request's line, headers and body arrive within this of its first byte, or the connection
/// is closed (cli/serve_http.hpp): a scrape is a few hundred bytes, the largest request 64 KiB.
constexpr std::chrono::milliseconds kRequestDeadline{5000};

struct ServeArgs {
  std::string listen = "127.0.0.1:9400";
  double interval_s = 1;
  double report_interval_s = 300;
  long deadline_ms = 3000;
  int threads = 256;
  bool allow_verify = false;
  double verify_every_s = 300;
  double verify_deadline_s = 120;
  std::string bench_history;  ///< "": bench's default history
  std::string bench_mode = "quick";
};

/// "127.0.0.1:9400", "[::1]:9400", ":9400" (every address): the host and the port, or false.
bool split_listen(const std::string& text, std::string& host, int& port) {
  size_t colon = text.rfind(':');
  if (colon == std::string::npos) return false;
  host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host.empty()) host = "0.0.0.0";
  std::string_view p(text.data() + colon + 1, text.size() - colon - 1);
  auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), port);
  return ec == std::errc() && end == p.data() + p.size() && port >= 0 && port <= 65535;
}

std::string hostname() {
  std::string name = host_fs::host_name();
  return name.empty() ? "unknown" : name;
}

/// The doctor's report, made again every report interval on its own thread.
class ReportCache {
 public:
  void store(std::string json, std::vector<Finding> findings) {
    std::lock_guard lock(mutex_);
    json_ = std::make_shared<const std::string>(std::move(json));
    findings_ = std::make_shared<const std::vector<Finding>>(std::move(findings));
    time_ms_ =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
  }
  struct View {
    std::shared_ptr<const std::string> json;
    std::shared_ptr<const std::vector<Finding>> findings;
    std::int64_t time_ms = 0;
  };
  View get() const {
    std::lock_guard lock(mutex_);
    return {json_, findings_, time_ms_};
  }
  /// Waits `period` or until stop(); true when stopped.
  bool wait(std::chrono::duration<double> period) {
    std::unique_lock lock(mutex_);
    return stop_cv_.wait_for(lock, period, [this] { return stop_; });
  }
  void stop() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    stop_cv_.notify_all();
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  std::shared_ptr<const std::string> json_;
  std::shared_ptr<const std::vector<Finding>> findings_;
  std::int64_t time_ms_ = 0;
};

using Clock = std::chrono::steady_clock;

/// An answer made once and shared: its HTTP status and JSON body.
struct Answer {
  int status = 200;
  std::shared_ptr<const std::string> body;
};

Answer answer(int status, nlohmann::ordered_json doc) {
  return {status, std::make_shared<const std::string>(
                      doc.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n")};
}

/// /verify.json: `gpudoctor verify --quick --json` in a child, started by a request but never
/// more than one at a time nor more often than once per `every`, and ended at its deadline. A
/// request only ever reads the last result or starts the next run, so however many clients ask,
/// the GPUs see at most one quick verify per period (serve is no amplifier of GPU work).
class VerifyOnDemand {
 public:
  VerifyOnDemand(std::string gpudoctor, Clock::duration every, Clock::duration deadline)
      : gpudoctor_(std::move(gpudoctor)), every_(every), deadline_(deadline) {}
  ~VerifyOnDemand() {
    if (worker_.joinable()) worker_.join();  // bounded by the run's deadline
  }
  VerifyOnDemand(const VerifyOnDemand&) = delete;
  VerifyOnDemand& operator=(const VerifyOnDemand&) = delete;

  /// The last result while it is fresh; otherwise 503 (and the run started when none is).
  Answer get() {
    std::lock_guard lock(mutex_);
    if (last_.body && Clock::now() - finished_ < every_) return last_;
    if (!running_) {
      running_ = true;
      if (worker_.joinable()) worker_.join();  // the last run's thread, already done
      worker_ = std::thread([this] {
        auto doc = run_quick_json(gpudoctor_, "verify", {}, Clock::now() + deadline_);
        std::lock_guard done(mutex_);
        last_ = answer(200, std::move(doc));
        finished_ = Clock::now();
        running_ = false;
      });
    }
    return answer(503,
                  {{"status", to_string(FleetRunStatus::running)}, {"error", "verify --quick is running; ask again"}});
  }

 private:
  const std::string gpudoctor_;
  const Clock::duration every_;
  const Clock::duration deadline_;
  std::mutex mutex_;
  bool running_ = false;
  Answer last_;
  Clock::time_point finished_;
  std::thread worker_;
};

/// /bench.json: the last bench run of one mode on this host, from bench's history (serve never
/// runs a benchmark: it takes the GPUs for seconds from whatever the node is running). Read at
/// most once every few seconds, whatever the number of requests.
class BenchFromHistory {
 public:
  BenchFromHistory(std::string path, std::string mode) : path_(std::move(path)), mode_(std::move(mode)) {}
  Answer get() {
    std::lock_guard lock(mutex_);
    if (last_.body && Clock::now() - read_ < std::chrono::seconds(5)) return last_;
    last_ = read();
    read_ = Clock::now();
    return last_;
  }

 private:
  Answer read() const {
    std::error_code ec;
    // Never created here: BenchHistory::open would make an empty one.
    if (path_.empty() || !std::filesystem::is_regular_file(path_, ec)) {
      return answer(404, {{"status", to_string(FleetRunStatus::no_result)},
                          {"error", "no bench history on this host (" + (path_.empty() ? "HOME unset" : path_) +
                                        "): run `gpudoctor bench --quick` there"}});
    }
    auto history = BenchHistory::open(path_);
    if (!history) return answer(500, {{"status", "failed"}, {"error", "bench history: " + history.error().message}});
    auto last = history->last(mode_, host_fs::host_name());
    if (!last) return answer(500, {{"status", "failed"}, {"error", "bench history: " + last.error().message}});
    if (!*last) {
      return answer(404, {{"status", to_string(FleetRunStatus::no_result)},
                          {"error", "no " + mode_ + " bench run of this host in " + path_ +
                                        ": run `gpudoctor bench --quick` there"}});
    }
    return {200, std::make_shared<const std::string>(render_bench_json(**last))};
  }
  const std::string path_;
  const std::string mode_;
  std::mutex mutex_;
  Answer last_;
  Clock::time_point read_;
};

int run_serve(CommandContext& ctx, const ServeArgs& a) {
  std::string host;
  int port = 0;
  if (!split_listen(a.listen, host, port)) return usage_error("serve", "--listen takes ADDR:PORT, e.g. 127.0.0.1:9400");
  if (!(a.interval_s > 0) || !(a.report_interval_s > 0) || a.deadline_ms <= 0 || a.threads < 1 || a.threads > 256 ||
      !(a.verify_every_s >= 10) || !(a.verify_deadline_s > 0) || a.verify_deadline_s > 3600) {
    return usage_error("serve",
                       "--interval, --report-interval and --deadline-ms take positive numbers; "
                       "--threads 1 to 256; --verify-every at least 10 s; --verify-deadline 1 to 3600 s");
  }
  const SystemView* system = ctx.system();
  const KnowledgeBase* kb = ctx.kb();
  if (system == nullptr || kb == nullptr) return kExitUsage;
  const InventoryOptions inventory = ctx.inventory_options();

  // SIGINT and SIGTERM (Ctrl-C on Windows) go to one thread that stops the server: set up
  // here, before any thread starts, so that every thread inherits the mask.
  StopSignal stop_signal;

  monitor::SamplerOptions options;
  options.deadline = std::chrono::milliseconds(a.deadline_ms);
  monitor::SamplingLoop loop(
      options, std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::duration<double>(a.interval_s)));
  ReportCache report;
  std::thread reporter([&] {
    do {
      Facts facts = gather_facts(*system, inventory, *kb);
      std::vector<Finding> findings = run_checks(facts, kb);
      // Rendered before the findings move into the cache: as two arguments of one call, the
      // move could come first (GCC's order) and /report.json had no findings (review 43B, 01).
      std::string json = render_doctor_json(facts, findings);
      report.store(std::move(json), std::move(findings));
    } while (!report.wait(std::chrono::duration<double>(a.report_interval_s)));
  });

  std::unique_ptr<VerifyOnDemand> verify;
  if (a.allow_verify) {
    auto self = current_executable();
    if (!self) return usage_error("serve", "--allow-verify: cannot find this executable: " + self.error().message);
    auto seconds = [](double s) {
      return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
    };
    verify = std::make_unique<VerifyOnDemand>(*self, seconds(a.verify_every_s), seconds(a.verify_deadline_s));
  }
  BenchFromHistory bench(a.bench_history.empty()
                             ? BenchHistory::default_path(std::getenv("XDG_DATA_HOME"), std::getenv("HOME"))
                             : a.bench_history,
                         a.bench_mode);

  const std::string host_label = hostname();
  std::atomic<std::uint64_t> scrapes{0};
  const auto stale_after =
      std::chrono::milliseconds(a.deadline_ms) +
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::duration<double>(3 * a.interval_s));

  ServeHttpServer server(static_cast<size_t>(a.threads), kRequestDeadline);
#ifndef _WIN32
  // cpp-httplib 0.11 listens with a backlog of 5, which a burst of scrapers overflows (the
  // kernel then retries their SYN after 1 s). The socket is kept here and, once bound, listened
  // on again with the system's maximum (Linux applies a second listen() to the queue length;
  // Windows ignores it, so its defaults stay).
  int listen_fd = -1;
  server.set_socket_options([&listen_fd](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    listen_fd = sock;
  });
#endif
  server.set_read_timeout(1, 0);
  server.set_write_timeout(2, 0);
  server.set_keep_alive_timeout(5);
  server.set_keep_alive_max_count(100);
  server.set_payload_max_length(64 * 1024);
  // The body is rendered once per new sample or report and shared by the scrapes in between;
  // only the scrape counter is rendered per request.
  struct RenderedMetrics {
    SnapshotPtr snapshot;
    std::int64_t report_time_ms = -1;
    std::shared_ptr<const std::string> body;
  };
  std::mutex rendered_mutex;
  RenderedMetrics rendered;
  server.Get("/metrics", [&](const httplib::Request&, httplib::Response& res) {
    SnapshotPtr latest = loop.latest();
    ReportCache::View view = report.get();
    std::shared_ptr<const std::string> body;
    {
      std::lock_guard lock(rendered_mutex);
      if (!rendered.body || rendered.snapshot != latest || rendered.report_time_ms != view.time_ms) {
        PrometheusContext c;
        c.hostname = host_label;
        c.samples = loop.samples();
        c.failed_samples = loop.failed_samples();
        if (view.findings) {
          c.doctor_findings = *view.findings;
          c.doctor_time_ms = view.time_ms;
        }
        rendered = {latest, view.time_ms, std::make_shared<const std::string>(render_prometheus(latest.get(), c))};
      }
      body = rendered.body;
    }
    PrometheusContext counter;
    counter.hostname = host_label;
    counter.scrapes = ++scrapes;
    res.set_content(*body + render_prometheus(nullptr, counter), "text/plain; version=0.0.4; charset=utf-8");
  });
  server.Get("/report.json", [&](const httplib::Request&, httplib::Response& res) {
    ReportCache::View view = report.get();
    if (!view.json) {
      res.status = 503;
      res.set_content("{\"status\":\"the first report is being made\"}\n", "application/json");
      return;
    }
    res.set_content(*view.json, "application/json");
  });
  server.Get("/verify.json", [&](const httplib::Request&, httplib::Response& res) {
    Answer got = verify ? verify->get()
                        : answer(403, {{"status", to_string(FleetRunStatus::not_offered)},
                                       {"error", "this serve was started without --allow-verify"}});
    res.status = got.status;
    if (got.status == 503) res.set_header("Retry-After", "1");
    res.set_content(*got.body, "application/json");
  });
  server.Get("/bench.json", [&](const httplib::Request&, httplib::Response& res) {
    Answer got = bench.get();
    res.status = got.status;
    res.set_content(*got.body, "application/json");
  });
  server.Get("/healthz", [&](const httplib::Request&, httplib::Response& res) {
    SnapshotPtr latest = loop.latest();
    const auto now_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    if (!latest || now_ms - latest->time_ms > stale_after.count()) {
      res.status = 503;
      res.set_content(latest ? "stale: the sampler has not finished a sample lately\n" : "starting\n", "text/plain");
      return;
    }
    res.set_content(latest->status == LibraryStatus::ok
                        ? "ok\n"
                        : "ok (GPU query: " + std::string(to_string(latest->status)) + ")\n",
                    "text/plain");
  });
  server.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("gpudoctor serve: /metrics /report.json /verify.json /bench.json /healthz\n", "text/plain");
  });

  int bound = port == 0 ? server.bind_to_any_port(host) : (server.bind_to_port(host, port) ? port : -1);
#ifndef _WIN32
  if (bound >= 0 && listen_fd >= 0) ::listen(listen_fd, SOMAXCONN);
#endif
  if (bound < 0) {
    print_error("gpudoctor serve: cannot listen on {}: {}\n", a.listen, std::strerror(errno));
    report.stop();
    reporter.join();
    return kExitProblems;
  }
  const std::string shown = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  write_output("gpudoctor serve: listening on http://" + shown + ":" + std::to_string(bound) + "/metrics\n");

  std::atomic<bool> stopping{false};
  std::thread waiter([&] {
    stop_signal.wait();
    stopping = true;
    server.stop();
  });
  server.listen_after_bind();
  if (!stopping) stop_signal.release();  // the server ended by itself
  waiter.join();
  report.stop();
  reporter.join();
  return kExitOk;  // a verify still running is waited for (its deadline) by VerifyOnDemand
}

}  // namespace

Command serve_command() {
  auto args = std::make_shared<ServeArgs>();
  Command c;
  c.name = "serve";
  c.summary = "Prometheus metrics (dcgm-exporter names), /report.json, /verify.json, /bench.json, /healthz over HTTP";
  c.setup = [args](CLI::App& sub) {
    sub.add_option("--listen", args->listen,
                   "ADDR:PORT to listen on (default 127.0.0.1:9400, loopback only; port 0 "
                   "picks a free one)");
    sub.add_option("--interval", args->interval_s, "Seconds between GPU samples, shared by every scrape (default 1)");
    sub.add_option("--report-interval", args->report_interval_s,
                   "Seconds between runs of the doctor's report behind /report.json (default 300)");
    sub.add_option("--deadline-ms", args->deadline_ms,
                   "A GPU query slower than this is a GPU that stopped answering (default 3000)");
    sub.add_option("--threads", args->threads,
                   "Most HTTP worker threads, one per open connection (default 256; they start when needed and end "
                   "after 30 s idle)");
    sub.add_flag("--allow-verify", args->allow_verify,
                 "Answer GET /verify.json by running `verify --quick` here (one at a time, at most once per "
                 "--verify-every; for `fleet --from --verify`). Off by default: it puts work on the GPUs");
    sub.add_option("--verify-every", args->verify_every_s,
                   "Seconds a /verify.json result is reused before a request runs verify again (default 300, at "
                   "least 10)");
    sub.add_option("--verify-deadline", args->verify_deadline_s,
                   "Seconds one verify --quick may take before it is killed (default 120)");
    sub.add_option("--bench-history", args->bench_history,
                   "The bench history /bench.json reads (default: bench's, $XDG_DATA_HOME/gpudoctor/bench.sqlite)");
    sub.add_option("--bench-mode", args->bench_mode,
                   "The bench mode /bench.json gives, as the history names it (default quick)");
  };
  c.run = [args](CommandContext& ctx) { return run_serve(ctx, *args); };
  return c;
}

}  // namespace gpudoctor
