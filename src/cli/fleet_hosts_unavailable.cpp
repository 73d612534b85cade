// `fleet --from` in a build without cpp-httplib (the portable build): it says why it cannot run.
#include "cli/fleet_hosts.hpp"

namespace gpudoctor {

Result<FleetFetch> fetch_fleet_reports(const std::vector<FleetHost>&, const FleetFetchOptions&) {
  return Error{ErrorKind::unsupported,
               "this build has no HTTP client (built without cpp-httplib); install the Debian package of "
               "gpudoctor, or build with libcpp-httplib-dev",
               "fleet --from", 0};
}

}  // namespace gpudoctor
