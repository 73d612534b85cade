#pragma once
/// Runs every probe against one SystemView and returns the facts. Probes never print and
/// never judge; a probe that cannot do its work records a ProbeProblem and the run goes on.
#include <string>
#include <vector>

#include "model/facts.hpp"
#include "platform/system_view.hpp"
#include "probe/probes.hpp"

namespace gpudoctor {

struct InventoryOptions {
  std::vector<std::string> declared_gpus;  ///< --gpu MODEL
  PythonSearch python;                     ///< --env, --python and the project folder
  /// On the live machine: load NVML / libcuda (each in a child process with a deadline).
  bool query_driver_libraries = true;
};

Facts collect_facts(const SystemView& system, const InventoryOptions& options);

}  // namespace gpudoctor
