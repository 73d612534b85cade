#include "probe/inventory.hpp"

#include <algorithm>
#include <unordered_map>

#include "core/text.hpp"
#include "probe/probes.hpp"

namespace gpudoctor {
namespace {

/// "00000000:01:00.0" (NVML) and "0000:01:00.0" (sysfs, /proc) name the same device.
std::string bus_key(const std::string& bus_id) {
  std::string b = to_lower(trim(bus_id));
  auto colon = b.find(':');
  if (colon != std::string::npos && b.find(':', colon + 1) != std::string::npos) b = b.substr(colon + 1);
  return b;
}

/// One entry per physical GPU: NVML's answer wins for name, capability and memory; files add
/// what NVML does not say (the kernel driver bound, the PCI device id).
void merge_gpus(std::vector<GpuFacts>& gpus) {
  std::vector<GpuFacts> out;
  std::unordered_map<std::string, size_t> by_bus;  // bus key -> index in out: linear, not quadratic
  for (GpuFacts& g : gpus) {
    const std::string key = g.pci_bus_id.empty() ? std::string() : bus_key(g.pci_bus_id);
    auto found = key.empty() ? by_bus.end() : by_bus.find(key);
    if (found == by_bus.end()) {
      if (!key.empty()) by_bus.emplace(key, out.size());
      out.push_back(std::move(g));
      continue;
    }
    GpuFacts* same = &out[found->second];
    GpuFacts& keep = same->source == "nvml" || g.source != "nvml" ? *same : g;
    GpuFacts& other = &keep == same ? g : *same;
    if (keep.kernel_driver.empty()) keep.kernel_driver = other.kernel_driver;
    if (keep.pci_device_id.empty()) keep.pci_device_id = other.pci_device_id;
    if (keep.uuid.empty()) keep.uuid = other.uuid;
    if (&keep == &g) *same = std::move(g);
  }
  gpus = std::move(out);
}

}  // namespace

Facts collect_facts(const SystemView& system, const InventoryOptions& options) {
  Facts facts;
  facts.platform = system.platform();
  facts.root = system.root();
  facts.live = system.is_live();
  probe_os(system, facts);
  // The loader's search path and cache, read once for the three probes that need them.
  const LoaderPaths loader = read_loader_paths(system);
  probe_driver_files(system, loader, facts);
  if (system.is_live() && options.query_driver_libraries) probe_driver_runtime(system, facts);
  merge_gpus(facts.gpus);
  for (const std::string& model : options.declared_gpus) {
    bool detected =
        std::any_of(facts.gpus.begin(), facts.gpus.end(), [&](const GpuFacts& g) { return iequals(g.name, model); });
    if (detected) continue;  // --gpu naming a card that is already seen adds nothing
    GpuFacts g;
    g.name = model;
    g.source = "declared";
    facts.gpus.push_back(std::move(g));
  }
  // Python first: toolkits and libraries also live inside environments (conda, pip wheels).
  probe_python(system, facts);
  probe_toolkits(system, loader, facts);
  probe_libraries(system, loader, facts);
  probe_env(system, facts);
  // Nothing is cut silently: every bound reached while reading the target is a problem (and so
  // a finding): the verdict cannot be "no issues" while part of the target was not read.
  for (const auto& b : system.bounds_hit()) {
    facts.problems.push_back({"inventory", b.path, "not fully read: " + b.what});
  }
  if (system.bounds_hit_count() > system.bounds_hit().size()) {
    facts.problems.push_back(
        {"inventory", system.root(),
         "not fully read: " + std::to_string(system.bounds_hit_count() - system.bounds_hit().size()) +
             " more files or directories reached a size bound"});
  }
  if (system.resolution_budget_exhausted()) {
    facts.problems.push_back({"inventory", system.root(),
                              "stopped early: resolving this tree's paths and links took too much work; "
                              "the facts above are incomplete"});
  }
  return facts;
}

}  // namespace gpudoctor
