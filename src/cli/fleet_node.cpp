#include "cli/fleet_node.hpp"

#include <nlohmann/json.hpp>

#include "core/text.hpp"
#include "model/json_codec.hpp"
#include "platform/process_runner.hpp"

namespace gpudoctor {

std::string run_node_doctor(const NodeDoctorRun& run) {
  nlohmann::ordered_json msg = {{"node", run.node}, {"rank", run.rank}, {"status", "ok"}, {"error", ""}};
  std::vector<std::string> argv{run.gpudoctor, "doctor", "--json", "--no-color"};
  argv.insert(argv.end(), run.args.begin(), run.args.end());
  if (!run.command.empty()) argv = run.command;
  HostProcessRunner runner;
  auto out = runner.run(argv, run.deadline);
  if (!out) {
    const Error& e = out.error();
    msg["status"] = e.kind == ErrorKind::timeout ? "timeout" : e.kind == ErrorKind::crashed ? "crashed" : "failed";
    msg["error"] = printable(e.message, 300);
  } else {
    auto doc = nlohmann::ordered_json::parse(out->out, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("facts")) {
      msg["status"] = "failed";
      msg["error"] =
          printable("doctor exited " + std::to_string(out->exit_code) + " without a report: " + out->err, 300);
    } else {
      msg["report"] = std::move(doc);
    }
  }
  return msg.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

FleetNode fleet_node_from_message(const std::string& text, int rank) {
  FleetNode node;
  node.rank = rank;
  node.name = "rank " + std::to_string(rank);
  auto msg = nlohmann::ordered_json::parse(text, nullptr, false);
  if (msg.is_discarded() || !msg.is_object()) {
    node.status = "failed";
    node.error = "rank " + std::to_string(rank) + " sent a message that is not JSON";
    return node;
  }
  if (auto it = msg.find("node"); it != msg.end() && it->is_string() && !it->get<std::string>().empty())
    node.name = printable(it->get<std::string>(), 200);
  auto str = [&](const char* key) {
    auto it = msg.find(key);
    return it != msg.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  node.status = str("status");
  node.error = str("error");
  if (node.status == "ok") {
    auto report = msg.find("report");
    if (report == msg.end() || !doctor_report_from_json(*report, node.facts, node.findings)) {
      node.status = "failed";
      node.error = "the message holds no doctor report";
    }
  } else if (node.status.empty()) {
    node.status = "failed";
  }
  return node;
}

std::string per_rank_path(const std::string& pattern, int rank) {
  std::string out = pattern;
  for (size_t at = out.find("{}"); at != std::string::npos; at = out.find("{}", at)) {
    out.replace(at, 2, std::to_string(rank));
  }
  return out;
}

}  // namespace gpudoctor
