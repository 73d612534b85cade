#include "kb/annotate_facts.hpp"

namespace gpudoctor {

void annotate_facts(Facts& facts, const KnowledgeBase& kb) {
  for (GpuFacts& g : facts.gpus) {
    if (g.cc_major || g.name.empty()) continue;
    if (auto cc = kb.compute_capability(g.name)) {
      g.cc_major = cc->major();
      g.cc_minor = cc->minor();
      g.compute_capability_source = "knowledge base (compat/gpus.toml)";
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
