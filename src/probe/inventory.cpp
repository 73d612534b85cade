#include "probe/inventory.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
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

/// Runs one probe and logs (under -v) how long it took and what it added.
template <typename Probe>
void timed(const char* what, Facts& facts, Probe&& probe) {
  auto start = std::chrono::steady_clock::now();
  size_t problems = facts.problems.size();
  probe();
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
  spdlog::debug("probe {}: {:.1f} ms, {} problem(s)", what, static_cast<double>(us) / 1000.0,
                facts.problems.size() - problems);
}

void log_facts(const Facts& facts) {
  spdlog::debug("driver: version {} from '{}', nvidia module loaded: {}, NVML: '{}', libcuda: '{}'",
                facts.driver.version ? facts.driver.version->str() : "unknown", facts.driver.version_source,
                facts.driver.nvidia_module_loaded, to_string(facts.driver.nvml_status),
                to_string(facts.driver.libcuda_status));
  for (const DriverFile& f : facts.driver.files) {
    spdlog::debug("driver file {}: {}", f.name, f.path.empty() ? "not found" : f.path);
  }
  for (const GpuFacts& g : facts.gpus) spdlog::debug("gpu: {} [{}] {}", g.name, g.source, g.pci_bus_id);
  for (const ToolkitFacts& t : facts.toolkits) {
    spdlog::debug("toolkit: {} version {} from {} (found via {})", t.path, t.version ? t.version->str() : "unknown",
                  t.version_source, join(t.found_via, ", "));
  }
  for (const LibraryFacts& l : facts.libraries) {
    spdlog::debug("library: {} {} at {} [{}] from {}{}", l.name, l.version ? l.version->str() : "unknown", l.path,
                  l.origin, l.version_source,
                  l.loader_order ? fmt::format(", loader search position {}", *l.loader_order) : std::string());
  }
  for (const PythonEnvFacts& e : facts.python_envs) {
    for (const FrameworkFacts& fw : e.frameworks) {
      spdlog::debug("framework: {} {} in {} (facts from {})", fw.package.empty() ? fw.name : fw.package,
                    fw.version.str(), e.path, fw.evidence);
    }
  }
  for (const ProbeProblem& p : facts.problems) spdlog::debug("problem ({}): {}: {}", p.probe, p.path, p.message);
}

}  // namespace

Facts collect_facts(const SystemView& system, const InventoryOptions& options) {
  Facts facts;
  facts.platform = system.platform();
  facts.root = system.root();
  facts.live = system.is_live();
  spdlog::debug("inventory of {} ({}, {})", facts.root, to_string(facts.platform),
                facts.live ? "live machine" : "a tree: nothing is run or loaded");
  timed("os", facts, [&] { probe_os(system, facts); });
  // The loader's search path and cache, read once for the three probes that need them.
  const LoaderPaths loader = read_loader_paths(system);
  spdlog::debug("loader: {} search directories, {} loader cache entries", loader.search_dirs.size(),
                loader.cache_entries.size());
  timed("driver files", facts, [&] { probe_driver_files(system, loader, facts); });
  timed("windows", facts, [&] { probe_windows(system, facts); });
  if (system.is_live() && options.query_driver_libraries) {
    timed("driver runtime (NVML, libcuda)", facts, [&] { probe_driver_runtime(system, facts); });
  }
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
  PythonSearch python = options.python;
  if (facts.windows) {
    for (const PythonRegistration& r : facts.windows->pythons) {
      if (r.exists)
        python.registered.emplace_back(r.install_path, "PEP 514 " + r.hive + " " + r.company + "\\" + r.tag);
    }
  }
  timed("python", facts, [&] { probe_python(system, facts, python); });
  timed("toolkits", facts, [&] { probe_toolkits(system, loader, facts); });
  timed("libraries", facts, [&] { probe_libraries(system, loader, facts); });
  timed("framework libraries", facts, [&] { resolve_framework_libraries(system, loader, facts); });
  timed("windows DLL search", facts, [&] { resolve_windows_dlls(system, facts); });
  timed("environment variables", facts, [&] { probe_env(system, facts); });
  timed("network", facts, [&] { probe_network(system, facts); });
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
  log_facts(facts);
  return facts;
}

}  // namespace gpudoctor
