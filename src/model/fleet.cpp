#include "model/fleet.hpp"

namespace gpudoctor {

const char* to_string(FleetRunStatus s) {
  switch (s) {
    case FleetRunStatus::none:
      return "";
    case FleetRunStatus::passed:
      return "passed";
    case FleetRunStatus::failed:
      return "failed";
    case FleetRunStatus::crashed:
      return "crashed";
    case FleetRunStatus::timeout:
      return "timeout";
    case FleetRunStatus::no_result:
      return "no-result";
    case FleetRunStatus::no_report:
      return "no-report";
    case FleetRunStatus::not_run:
      return "not-run";
    case FleetRunStatus::not_offered:
      return "not-offered";
    case FleetRunStatus::running:
      return "running";
  }
  return "";
}

FleetRunStatus parse_fleet_run_status(std::string_view name) {
  for (FleetRunStatus s : {FleetRunStatus::passed, FleetRunStatus::failed, FleetRunStatus::crashed,
                           FleetRunStatus::timeout, FleetRunStatus::no_result, FleetRunStatus::no_report,
                           FleetRunStatus::not_run, FleetRunStatus::not_offered, FleetRunStatus::running}) {
    if (name == to_string(s)) return s;
  }
  return FleetRunStatus::none;
}

const char* to_string(NodeStatus s) {
  switch (s) {
    case NodeStatus::ok:
      return "ok";
    case NodeStatus::failed:
      return "failed";
    case NodeStatus::crashed:
      return "crashed";
    case NodeStatus::timeout:
      return "timeout";
    case NodeStatus::no_report:
      return "no-report";
  }
  return "failed";
}

const char* to_string(FleetSource s) {
  switch (s) {
    case FleetSource::mpi:
      return "mpi";
    case FleetSource::serve:
      return "serve";
  }
  return "mpi";
}

FleetSource parse_fleet_source(std::string_view name) {
  return name == to_string(FleetSource::serve) ? FleetSource::serve : FleetSource::mpi;
}

NodeStatus parse_node_status(std::string_view name) {
  for (NodeStatus s : {NodeStatus::ok, NodeStatus::crashed, NodeStatus::timeout, NodeStatus::no_report}) {
    if (name == to_string(s)) return s;
  }
  return NodeStatus::failed;
}

}  // namespace gpudoctor
