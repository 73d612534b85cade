#include "probe/inventory.hpp"

#include "probe/probes.hpp"

namespace gpudoctor {

Facts collect_facts(const SystemView& system, const InventoryOptions& options) {
  Facts facts;
  facts.platform = system.platform();
  facts.root = system.root();
  facts.live = system.is_live();
  probe_os(system, facts);
  probe_driver_files(system, facts);
  if (system.is_live() && options.query_driver_libraries) probe_driver_runtime(system, facts);
  for (const std::string& model : options.declared_gpus) {
    GpuFacts g;
    g.name = model;
    g.source = "declared";
    facts.gpus.push_back(std::move(g));
  }
  // Python first: toolkits and libraries also live inside environments (conda, pip wheels).
  probe_python(system, facts);
  probe_toolkits(system, facts);
  probe_libraries(system, facts);
  probe_env(system, facts);
  return facts;
}

}  // namespace gpudoctor
