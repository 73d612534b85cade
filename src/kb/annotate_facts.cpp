#include "kb/annotate_facts.hpp"

#include <string>

#include "core/text.hpp"

namespace gpudoctor {

namespace {

/// The PCI ID database names a device "<chip> [<marketing name>]" ("GA106 [GeForce RTX 3060]",
/// "GH100 [H100 SXM5 80GB]"); the knowledge base knows the marketing name as NVIDIA writes it
/// ("NVIDIA GeForce RTX 3060"). Empty when the name has no bracketed part.
std::string marketing_name_of_pci_name(const std::string& pci_name) {
  auto open = pci_name.find('[');
  auto close = pci_name.rfind(']');
  if (open == std::string::npos || close == std::string::npos || close <= open + 1) return {};
  return "NVIDIA " + pci_name.substr(open + 1, close - open - 1);
}

}  // namespace

void annotate_facts(Facts& facts, const KnowledgeBase& kb) {
  for (GpuFacts& g : facts.gpus) {
    // A sysfs device the machine's own pci.ids did not name (driver_files_probe.cpp).
    if (g.source == "pci" && g.name.starts_with(kUnnamedPciDevice)) {
      if (auto it = kb.pci_names.find(g.pci_device_id); it != kb.pci_names.end()) g.name = it->second;
    }
    if (g.name.empty()) continue;
    // The knowledge base's model: by the name as reported, or a PCI name's marketing part.
    GpuMatch m = kb.find_gpu(g.name);
    std::string as;
    if (m.model == nullptr && g.source == "pci") {
      std::string marketing = marketing_name_of_pci_name(g.name);
      if (!marketing.empty() && (m = kb.find_gpu(marketing)).model != nullptr) as = ", as " + marketing;
    }
    if (m.model == nullptr) continue;
    g.kb_name = m.model->name;
    if (!g.cc_major) {
      g.cc_major = m.model->cc.major();
      g.cc_minor = m.model->cc.minor();
      g.compute_capability_source = "knowledge base (compat/gpus.toml" + as + ")";
    }
  }
  DriverFacts& d = facts.driver;
  if (!d.cuda_driver_version && d.version) {
    // Newest toolkit whose packaged driver this driver meets; WSL2 uses the Windows driver.
    bool windows = facts.platform != Platform::linux;
    for (const CudaDriverRow& row : kb.cuda_drivers) {  // newest first
      const std::optional<Version>& floor = windows ? row.windows : row.linux;
      if (floor && *floor <= *d.version) {
        d.cuda_driver_version = row.cuda.truncated(2);
        d.cuda_driver_version_source =
            "knowledge base (compat/cuda_drivers.toml: CUDA " + row.release + " needs driver " + floor->str() + ")";
        break;
      }
    }
  }
}

}  // namespace gpudoctor
