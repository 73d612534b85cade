#include "cli/command.hpp"
#include "gpu/internal_tasks.hpp"
#include "platform/console.hpp"

int main(int argc, char** argv) {
  gpudoctor::console::Arguments args(argc, argv);  // UTF-8, on Windows too
  // Before the command line is parsed: an internal task (a child of ours running vendor
  // code) is no command, and --help does not list it.
  gpudoctor::gpu::run_internal_task(args.argc(), args.argv());
  return gpudoctor::run_cli(args.argc(), args.argv());
}
