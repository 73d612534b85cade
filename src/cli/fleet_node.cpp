#include "cli/fleet_node.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/text.hpp"
#include "gpu/isolated_child.hpp"
#include "gpu/verify_steps.hpp"
#include "model/bench_report.hpp"
#include "model/json_codec.hpp"
#include "model/verify_report.hpp"
#include "platform/process_runner.hpp"

namespace gpudoctor {

using Clock = std::chrono::steady_clock;

namespace {

/// How a child that did not finish ended, in the words of the node's message (the enums' names).
template <class Status>
Status status_of_unfinished(const Error& e) {
  if (e.kind == ErrorKind::timeout) return Status::timeout;
  if (e.kind == ErrorKind::crashed) return Status::crashed;
  return Status::failed;
}

}  // namespace

nlohmann::ordered_json run_quick_json(const std::string& gpudoctor, const char* command,
                                      const std::vector<std::string>& options, Clock::time_point end) {
  // Not the doctor's --root/--env-file: verify and bench measure the live machine, not a tree.
  std::vector<std::string> argv{gpudoctor, command, "--quick", "--json", "--no-color"};
  argv.insert(argv.end(), options.begin(), options.end());
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now());
  if (left.count() <= 0) return {{"status", to_string(FleetRunStatus::timeout)}, {"error", "no time left for it"}};
  HostProcessRunner runner;
  auto out = runner.run(argv, left);
  if (!out) {
    const Error& e = out.error();
    return {{"status", to_string(status_of_unfinished<FleetRunStatus>(e))}, {"error", printable(e.message, 300)}};
  }
  auto doc = nlohmann::ordered_json::parse(out->out, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return {{"status", to_string(FleetRunStatus::no_result)},
            {"error", printable(std::string(command) + " exited " + std::to_string(out->exit_code) +
                                    " without a JSON report: " + out->err,
                                300)}};
  }
  return doc;
}

FleetRun verify_run_from_json(const nlohmann::ordered_json& j) {
  FleetRun r{.ran = true};
  if (!j.is_object()) return {.ran = true, .status = FleetRunStatus::no_result, .detail = "not a verify report"};
  if (auto s = j.find("steps"); s == j.end() || !s->is_array()) {
    auto st = j.find("status");
    auto err = j.find("error");
    r.status =
        st != j.end() && st->is_string() ? parse_fleet_run_status(st->get<std::string>()) : FleetRunStatus::no_result;
    if (r.status == FleetRunStatus::none) r.status = FleetRunStatus::no_result;  // a word not ours
    r.detail = err != j.end() && err->is_string() ? printable(err->get<std::string>(), 300) : "not a verify report";
    return r;
  }
  VerifyReport report;
  for (const auto& step : j["steps"]) {
    VerifyStep v;
    step_from_json(step, v);
    report.steps.push_back(std::move(v));
  }
  if (auto p = j.find("problems"); p != j.end() && p->is_array()) {
    for (const auto& x : *p) {
      if (x.is_string()) report.problems.push_back(x.get<std::string>());
    }
  }
  r.status = verify_passed(report) ? FleetRunStatus::passed : FleetRunStatus::failed;
  std::vector<std::string> why;
  for (const auto& s : report.steps) {
    if (s.status == StepStatus::passed || s.status == StepStatus::skipped) continue;
    why.push_back(s.name + (s.device ? " on GPU " + std::to_string(*s.device) : "") + " " + to_string(s.status) +
                  (s.detail.empty() ? "" : ": " + s.detail));
  }
  for (const auto& p : report.problems) why.push_back(p);
  if (r.status == FleetRunStatus::failed && why.empty()) why.emplace_back("no step ran");
  r.detail = printable(join(why, "; "), 400);
  return r;
}

FleetRun bench_run_from_json(const nlohmann::ordered_json& j) {
  FleetRun r{.ran = true};
  if (!j.is_object() || !j.contains("measurements")) {
    auto st = j.is_object() ? j.find("status") : j.end();
    auto err = j.is_object() ? j.find("error") : j.end();
    r.status = j.is_object() && st != j.end() && st->is_string() ? parse_fleet_run_status(st->get<std::string>())
                                                                 : FleetRunStatus::no_result;
    if (r.status == FleetRunStatus::none) r.status = FleetRunStatus::no_result;  // a word not ours
    r.detail = j.is_object() && err != j.end() && err->is_string() ? printable(err->get<std::string>(), 300)
                                                                   : "not a bench report";
    return r;
  }
  BenchReport report;
  bench_report_from_json(j, report);
  for (const auto& m : report.measurements) {
    if (m.ok() && std::isfinite(*m.value)) r.figures.emplace_back(printable(m.json_key(), 80), *m.value);
  }
  r.mode = printable(report.mode, 20);
  r.started_utc = printable(report.started_utc, 40);
  r.status = bench_passed(report) ? FleetRunStatus::passed : FleetRunStatus::failed;
  std::vector<std::string> why;
  for (const auto& m : report.measurements) {
    if (m.status == BenchStatus::failed || m.status == BenchStatus::crashed || m.status == BenchStatus::timeout)
      why.push_back(m.key + " " + to_string(m.status) + (m.detail.empty() ? "" : ": " + m.detail));
  }
  for (const auto& p : report.problems) why.push_back(p);
  r.detail = printable(join(why, "; "), 400);
  return r;
}

std::string run_node_doctor(const NodeDoctorRun& run) {
  const auto end = Clock::now() + run.deadline;
  nlohmann::ordered_json msg = {
      {"node", run.node}, {"rank", run.rank}, {"status", to_string(NodeStatus::ok)}, {"error", ""}};
  std::vector<std::string> argv{run.gpudoctor, "doctor", "--json", "--no-color"};
  argv.insert(argv.end(), run.args.begin(), run.args.end());
  if (!run.command.empty()) argv = run.command;
  HostProcessRunner runner;
  auto out = runner.run(argv, run.deadline);
  if (!out) {
    const Error& e = out.error();
    msg["status"] = to_string(status_of_unfinished<NodeStatus>(e));
    msg["error"] = printable(e.message, 300);
  } else {
    auto doc = nlohmann::ordered_json::parse(out->out, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("facts")) {
      msg["status"] = to_string(NodeStatus::failed);
      msg["error"] =
          printable("doctor exited " + std::to_string(out->exit_code) + " without a report: " + out->err, 300);
    } else {
      msg["report"] = std::move(doc);
    }
  }
  if (run.verify) msg["verify"] = run_quick_json(run.gpudoctor, "verify", run.verify_args, end);
  if (run.bench) {
    std::vector<std::string> options{"--no-history"};
    options.insert(options.end(), run.bench_args.begin(), run.bench_args.end());
    msg["bench"] = run_quick_json(run.gpudoctor, "bench", options, end);
  }
  return msg.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

FleetNode fleet_node_from_message(const std::string& text, int rank) {
  FleetNode node;
  node.rank = rank;
  node.name = "rank " + std::to_string(rank);
  auto msg = nlohmann::ordered_json::parse(text, nullptr, false);
  if (msg.is_discarded() || !msg.is_object()) {
    node.status = NodeStatus::failed;
    node.error = "rank " + std::to_string(rank) + " sent a message that is not JSON";
    return node;
  }
  if (auto it = msg.find("node"); it != msg.end() && it->is_string() && !it->get<std::string>().empty())
    node.name = printable(it->get<std::string>(), 200);
  auto str = [&](const char* key) {
    auto it = msg.find(key);
    return it != msg.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  node.status = parse_node_status(str("status"));  // anything but a known word: failed
  node.error = str("error");
  if (node.status == NodeStatus::ok) {
    auto report = msg.find("report");
    if (report == msg.end() || !doctor_report_from_json(*report, node.facts, node.findings)) {
      node.status = NodeStatus::failed;
      node.error = "the message holds no doctor report";
    }
  }
  if (auto v = msg.find("verify"); v != msg.end()) node.verify = verify_run_from_json(*v);
  if (auto b = msg.find("bench"); b != msg.end()) node.bench = bench_run_from_json(*b);
  return node;
}

Result<std::string> make_nccl_unique_id(std::chrono::milliseconds deadline) {
  auto outcomes = gpu::run_isolated({{"verify-step", gpu::verify_step_args("nccl-id", -1, {})}}, deadline);
  VerifyStep step = gpu::verify_step_from_child("nccl-id", -1, outcomes.front());
  if (step.status == StepStatus::passed && !step.notes.empty() && step.notes.front().starts_with("id=")) {
    return step.notes.front().substr(3);
  }
  return Error{ErrorKind::call_failed,
               "no NCCL unique id: " + (step.detail.empty() ? std::string(to_string(step.status)) : step.detail),
               "ncclGetUniqueId", 0};
}

std::string run_node_nccl(const NodeNcclRun& run) {
  // NCCL's INFO lines go to a private file the child reads (never to its channel).
  std::string dir = (std::filesystem::temp_directory_path() / "gpudoctor-nccl-XXXXXX").string();
#ifdef _WIN32
  const bool have_dir = false;  // NCCL exists for Linux only: there is no log to read here
#else
  const bool have_dir = ::mkdtemp(dir.data()) != nullptr;
#endif
  std::map<std::string, std::string> args{{"id", run.id},
                                          {"nranks", std::to_string(run.nranks)},
                                          {"rank0", std::to_string(run.rank0)},
                                          {"gpus", std::to_string(run.gpus)},
                                          {"bytes", std::to_string(run.bytes)},
                                          {"iters", std::to_string(run.iters)}};
  if (have_dir) args["log"] = dir + "/nccl.log";
  auto outcomes = gpu::run_isolated({{"verify-step", gpu::verify_step_args("nccl-fleet", -1, args)}}, run.deadline);
  VerifyStep step = gpu::verify_step_from_child("nccl-fleet", -1, outcomes.front());
  if (have_dir) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  nlohmann::ordered_json msg = {
      {"status", to_string(step.status)}, {"detail", printable(step.detail, 400)}, {"notes", step.notes}};
  return msg.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

FleetNcclRun nccl_run_from_message(const std::string& text) {
  FleetNcclRun r{.ran = true};
  auto msg = nlohmann::ordered_json::parse(text, nullptr, false);
  if (msg.is_discarded() || !msg.is_object() || !msg.contains("status") || !msg["status"].is_string()) {
    r.status = FleetRunStatus::failed;
    r.detail = "not an NCCL result";
    return r;
  }
  r.status = parse_fleet_run_status(msg["status"].get<std::string>());
  if (r.status == FleetRunStatus::none) r.status = FleetRunStatus::failed;  // a word not ours
  if (auto d = msg.find("detail"); d != msg.end() && d->is_string()) r.detail = printable(d->get<std::string>(), 400);
  auto notes = msg.find("notes");
  if (notes == msg.end() || !notes->is_array()) return r;
  for (const auto& n : *notes) {
    if (!n.is_string()) continue;
    std::string note = n.get<std::string>();
    if (note.starts_with("transport=")) {
      r.transport = printable(note.substr(10), 80);
    } else if (note.starts_with("connections=")) {
      std::string kind_count = note.substr(12);
      size_t colon = kind_count.rfind(':');
      if (colon != std::string::npos)
        r.connections.emplace_back(printable(kind_count.substr(0, colon), 80),
                                   std::atoi(kind_count.c_str() + colon + 1));
    } else if (note.starts_with("seconds=")) {
      // "seconds=S algbw_gbps=A busbw_gbps=B"
      double seconds = 0;
      double algbw = 0;
      double busbw = 0;
      if (std::sscanf(note.c_str(), "seconds=%lf algbw_gbps=%lf busbw_gbps=%lf", &seconds, &algbw, &busbw) == 3 &&
          std::isfinite(seconds) && std::isfinite(busbw)) {
        r.seconds = seconds;
        r.busbw_gbps = busbw;
      }
    }
  }
  return r;
}

std::string per_rank_path(const std::string& pattern, int rank) {
  std::string out = pattern;
  for (size_t at = out.find("{}"); at != std::string::npos; at = out.find("{}", at)) {
    out.replace(at, 2, std::to_string(rank));
  }
  return out;
}

namespace {

/// "host", "host:port", "[v6]:port" (after any "http://" and trailing "/"), or false.
bool split_endpoint(std::string_view text, FleetHost& out) {
  if (text.starts_with("http://")) text.remove_prefix(7);
  while (text.ends_with('/')) text.remove_suffix(1);
  std::string_view host = text;
  std::string_view port;
  if (text.starts_with('[')) {
    size_t close = text.find(']');
    if (close == std::string_view::npos) return false;
    host = text.substr(1, close - 1);
    std::string_view rest = text.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return false;
      port = rest.substr(1);
    }
  } else if (size_t colon = text.find(':'); colon != std::string_view::npos) {
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  if (host.empty() || host.size() > 253) return false;
  for (char c : host) {
    // Names and addresses only: nothing that could start a path, a query or user info.
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' || c == ':')) return false;
  }
  if (!port.empty()) {
    int p = 0;
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), p);
    if (ec != std::errc() || end != port.data() + port.size() || p < 1 || p > 65535) return false;
    out.port = p;
  }
  out.host = std::string(host);
  return true;
}

}  // namespace

Result<std::vector<FleetHost>> parse_fleet_hosts(std::string_view text) {
  if (text.size() > kMaxFleetHostsFileBytes)
    return Error{ErrorKind::too_large, "the hosts file is larger than 16 MiB", "", 0};
  std::vector<FleetHost> hosts;
  std::set<std::pair<std::string, int>> seen;
  size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    if (size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) line.remove_prefix(1);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.remove_suffix(1);
    if (line.empty()) continue;
    FleetHost h{.name = std::string(line)};
    if (line.starts_with("https://"))
      return Error{ErrorKind::invalid_data,
                   "line " + std::to_string(line_no) + ": https is not supported (serve speaks plain HTTP)", "", 0};
    if (!split_endpoint(line, h)) {
      return Error{ErrorKind::invalid_data,
                   "line " + std::to_string(line_no) + ": not HOST[:PORT]: " + printable(line, 80), "", 0};
    }
    if (!seen.emplace(h.host, h.port).second) continue;
    if (hosts.size() == kMaxFleetHosts)
      return Error{ErrorKind::too_large, "more than " + std::to_string(kMaxFleetHosts) + " hosts", "", 0};
    hosts.push_back(std::move(h));
  }
  return hosts;
}

FleetNode fleet_node_from_report_json(const std::string& name, int index, const std::string& body) {
  FleetNode node;
  node.name = printable(name, 200);
  node.rank = index;
  auto doc = nlohmann::ordered_json::parse(body, nullptr, false);
  if (doc.is_discarded()) {
    node.status = NodeStatus::failed;
    node.error = "its /report.json is not JSON: " + printable(body, 80);
  } else if (!doctor_report_from_json(doc, node.facts, node.findings)) {
    node.status = NodeStatus::failed;
    node.error = "its /report.json is JSON but not a gpudoctor report";
  }
  return node;
}

}  // namespace gpudoctor
