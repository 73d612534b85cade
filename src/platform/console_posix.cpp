#include <unistd.h>

#include "platform/console.hpp"

namespace gpudoctor::console {

void use_utf8_output() {}

bool stdout_shows_colour() {
  return ::isatty(STDOUT_FILENO) == 1;
}

Arguments::Arguments(int argc, char** argv) : strings_(argv, argv + argc) {
  for (std::string& s : strings_) pointers_.push_back(s.data());
  pointers_.push_back(nullptr);
}

}  // namespace gpudoctor::console
