#include "probe/probes.hpp"

namespace gpudoctor {

void probe_env(const SystemView& /*system*/, Facts& /*facts*/) {}

}  // namespace gpudoctor
