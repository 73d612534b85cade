#pragma once
/// One factory per command, each in its own cmd_<name>.cpp.
#include "cli/command.hpp"

namespace gpudoctor {

Command doctor_command();
Command explain_command();

}  // namespace gpudoctor
