// `serve` in a build without cpp-httplib (the portable glibc-only build, or a machine without
// Debian's libcpp-httplib-dev): the command exists and says why it cannot run.
#include "cli/commands_list.hpp"
#include "cli/output.hpp"

namespace gpudoctor {

Command serve_command() {
  Command c;
  c.name = "serve";
  c.summary = "Prometheus metrics, /report.json and /healthz over HTTP (not in this build)";
  c.run = [](CommandContext&) {
    print_error(
        "gpudoctor serve: this build has no HTTP server (built without cpp-httplib); install the "
        "Debian package of gpudoctor, or build with libcpp-httplib-dev\n");
    return kExitProblems;
  };
  return c;
}

}  // namespace gpudoctor
