#include "cli/command.hpp"

int main(int argc, char** argv) {
  return gpudoctor::run_cli(argc, argv);
}
