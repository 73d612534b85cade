#include "cli/command.hpp"
#include "cli/commands_list.hpp"

namespace gpudoctor {

std::vector<Command> all_commands() {
  return {
      doctor_command(), plan_command(), matrix_command(), kb_command(), explain_command(),
  };
}

}  // namespace gpudoctor
