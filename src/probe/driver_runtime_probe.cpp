#include "probe/probes.hpp"

namespace gpudoctor {

// Placeholder until the run-time NVML/libcuda loader lands (src/gpu/).
void probe_driver_runtime(const SystemView& /*system*/, Facts& facts) {
  facts.driver.nvml_status = "";
}

}  // namespace gpudoctor
