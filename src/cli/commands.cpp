#include "cli/command.hpp"
#include "cli/commands_list.hpp"

namespace gpudoctor {

// In --help order, most used first; the first one runs when no command is given.
std::vector<Command> all_commands() {
  return {
      doctor_command(), explain_command(), plan_command(),  matrix_command(), kb_command(),    verify_command(),
      bench_command(),  report_command(),  fleet_command(), watch_command(),  serve_command(),
  };
}

}  // namespace gpudoctor
