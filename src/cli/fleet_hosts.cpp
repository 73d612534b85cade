#include "cli/fleet_hosts.hpp"

#include <fmt/format.h>
#include <httplib.h>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/text.hpp"

namespace gpudoctor {
namespace {

using Clock = std::chrono::steady_clock;

std::string seconds_text(std::chrono::milliseconds d) {
  return fmt::format("{:g} s", static_cast<double>(d.count()) / 1000);
}

void set_timeouts(httplib::Client& client, Clock::duration left) {
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(left).count();
  if (us < 1000) us = 1000;
  time_t sec = static_cast<time_t>(us / 1000000);
  time_t usec = static_cast<time_t>(us % 1000000);
  client.set_connection_timeout(sec, usec);
  client.set_read_timeout(sec, usec);
  client.set_write_timeout(sec, usec);
}

FleetNode failed(const FleetHost& h, int index, NodeStatus status, const std::string& why) {
  FleetNode n;
  n.name = printable(h.name, 200);
  n.rank = index;
  n.status = status;
  n.error = why;
  return n;
}

/// What one GET gave: an HTTP answer (its status and body), or why there was none.
struct Got {
  bool answered = false;
  int http = 0;
  std::string body;
  bool timed_out = false;  ///< without an answer: the deadline passed (else: failed)
  std::string why;
};

/// GET `path` within `deadline`, retrying while serve answers 503 (its first report, or a
/// verify, is still being made). The answer is read up to max_bytes, and held to the deadline
/// however slowly it trickles.
Got get_from(const FleetHost& h, const std::string& path, std::chrono::milliseconds deadline, size_t max_bytes) {
  const auto end = Clock::now() + deadline;
  const std::string where = fmt::format("{}:{}", h.host, h.port);
  Got got;
  for (;;) {
    auto left = end - Clock::now();
    if (left <= Clock::duration::zero()) {
      return {.timed_out = true, .why = "no answer to " + path + " within " + seconds_text(deadline) + " (still 503)"};
    }
    httplib::Client client(h.host, h.port);
    client.set_keep_alive(false);
    client.set_follow_location(false);
    set_timeouts(client, left);
    std::string body;
    bool too_big = false;
    bool late = false;
    auto res = client.Get(
        path, httplib::Headers{{"Accept", "application/json"}}, [](const httplib::Response&) { return true; },
        [&](const char* data, size_t n) {
          late = Clock::now() > end;
          too_big = body.size() + n > max_bytes;
          if (late || too_big) return false;
          body.append(data, n);
          return true;
        });
    if (too_big) return {.why = fmt::format("its answer is larger than {} MiB", max_bytes >> 20)};
    if (late || (!res && Clock::now() + std::chrono::milliseconds(50) >= end))
      return {.timed_out = true, .why = "no answer from " + where + " within " + seconds_text(deadline)};
    if (!res) {
      if (res.error() == httplib::Error::Connection)
        return {.why = "cannot connect to " + where + " (nothing listening, or unreachable)"};
      return {.why = "the connection to " + where + " ended without a whole answer (" +
                     httplib::to_string(res.error()) + ")"};
    }
    if (res->status == 503 && Clock::now() + std::chrono::milliseconds(500) < end) {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      continue;
    }
    return {.answered = true, .http = res->status, .body = std::move(body)};
  }
}

/// A node's verify or bench from what its serve answered: its JSON (verify's or bench's report,
/// or serve's {status, error} saying why there is none), else why not in words.
FleetRun run_from(const Got& got, const std::string& path, FleetRun (*read)(const nlohmann::ordered_json&)) {
  if (!got.answered)
    return {.ran = true,
            .status = got.timed_out ? FleetRunStatus::timeout : FleetRunStatus::failed,
            .detail = got.why,
            .figures = {}};
  auto doc = nlohmann::ordered_json::parse(got.body, nullptr, false);
  if (!doc.is_discarded() && doc.is_object() && (got.http == 200 || doc.contains("status"))) return read(doc);
  std::string why = got.http == 200   ? "its " + path + " is not a JSON object"
                    : got.http == 404 ? "HTTP 404 to " + path + " (a serve older than this gpudoctor?)"
                                      : fmt::format("HTTP {} to {}", got.http, path);
  return {.ran = true, .status = FleetRunStatus::failed, .detail = why, .figures = {}};
}

/// One host: its /report.json within the host's deadline, then (when asked, and its report
/// came) its /verify.json within the verify deadline and its /bench.json.
FleetNode fetch_one(const FleetHost& h, int index, const FleetFetchOptions& o) {
  const std::string where = fmt::format("{}:{}", h.host, h.port);
  Got report = get_from(h, "/report.json", o.host_deadline, o.max_bytes);
  if (!report.answered)
    return failed(h, index, report.timed_out ? NodeStatus::timeout : NodeStatus::failed, report.why);
  if (report.http == 503)
    return failed(h, index, NodeStatus::timeout, "no report within " + seconds_text(o.host_deadline) + " (still 503)");
  FleetNode n = report.http == 200 ? fleet_node_from_report_json(h.name, index, report.body)
                                   : failed(h, index, NodeStatus::failed,
                                            fmt::format("{} answered HTTP {} to /report.json", where, report.http));
  if (n.status != NodeStatus::ok) return n;
  if (o.verify)
    n.verify =
        run_from(get_from(h, "/verify.json", o.verify_deadline, o.max_bytes), "/verify.json", verify_run_from_json);
  if (o.bench)
    n.bench = run_from(get_from(h, "/bench.json", o.host_deadline, o.max_bytes), "/bench.json", bench_run_from_json);
  return n;
}

struct Shared {
  std::vector<FleetHost> hosts;
  FleetFetchOptions options;
  std::mutex mutex;
  std::condition_variable done_cv;
  std::vector<std::optional<FleetNode>> results;
  std::atomic<size_t> next{0};
  size_t done = 0;
};

}  // namespace

Result<FleetFetch> fetch_fleet_reports(const std::vector<FleetHost>& hosts, const FleetFetchOptions& options) {
  auto s = std::make_shared<Shared>();
  s->hosts = hosts;
  s->options = options;
  s->results.resize(hosts.size());
  size_t workers = std::min(hosts.size(), static_cast<size_t>(std::max(1, options.parallel)));
  std::vector<std::thread> threads;
  for (size_t w = 0; w < workers; ++w) {
    // Each worker holds the shared state, so one left blocked past the deadline stays safe.
    threads.emplace_back([s] {
      for (size_t i = s->next++; i < s->hosts.size(); i = s->next++) {
        FleetNode n = fetch_one(s->hosts[i], static_cast<int>(i), s->options);
        std::lock_guard lock(s->mutex);
        s->results[i] = std::move(n);
        ++s->done;
        s->done_cv.notify_all();
      }
    });
  }
  FleetFetch out;
  std::unique_lock lock(s->mutex);
  bool all = s->done_cv.wait_for(lock, options.deadline, [&] { return s->done == s->hosts.size(); });
  for (size_t i = 0; i < hosts.size(); ++i) {
    if (s->results[i]) {
      out.nodes.push_back(*s->results[i]);
    } else {
      out.nodes.push_back(
          failed(hosts[i], static_cast<int>(i), NodeStatus::no_report,
                 "not asked or not answered within the fleet's deadline of " + seconds_text(options.deadline)));
    }
  }
  lock.unlock();
  for (auto& t : threads) {
    if (all) {
      t.join();
    } else {
      t.detach();
    }
  }
  out.abandoned = !all;
  return out;
}

}  // namespace gpudoctor
