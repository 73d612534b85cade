#include "cli/command.hpp"
#include "gpu/internal_tasks.hpp"

int main(int argc, char** argv) {
  // Before the command line is parsed: an internal task (a child of ours running vendor
  // code) is no command, and --help does not list it.
  gpudoctor::gpu::run_internal_task(argc, argv);
  return gpudoctor::run_cli(argc, argv);
}
