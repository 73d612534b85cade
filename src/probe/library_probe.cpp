#include "probe/probes.hpp"

namespace gpudoctor {

void probe_libraries(const SystemView& /*system*/, Facts& /*facts*/) {}

}  // namespace gpudoctor
