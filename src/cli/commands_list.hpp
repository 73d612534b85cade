#pragma once
/// One factory per command, each in its own cmd_<name>.cpp.
#include "cli/command.hpp"

namespace gpudoctor {

Command doctor_command();
Command plan_command();
Command matrix_command();
Command kb_command();
Command explain_command();
Command verify_command();
Command bench_command();
Command report_command();
Command fleet_command();
Command watch_command();
Command serve_command();

}  // namespace gpudoctor
