#include "probe/probes.hpp"

namespace gpudoctor {

void probe_toolkits(const SystemView& /*system*/, Facts& /*facts*/) {}

}  // namespace gpudoctor
