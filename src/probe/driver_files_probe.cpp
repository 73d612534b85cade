#include "probe/probes.hpp"

namespace gpudoctor {

void probe_driver_files(const SystemView& /*system*/, Facts& /*facts*/) {}

}  // namespace gpudoctor
