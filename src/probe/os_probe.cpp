#include "probe/probes.hpp"

namespace gpudoctor {

void probe_os(const SystemView& /*system*/, Facts& /*facts*/) {}

}  // namespace gpudoctor
