#pragma once
/// The terminal the tool writes to and the command line it was given, per host OS
/// (console_posix.cpp, console_win32.cpp). Everything the tool prints is UTF-8.
#include <string>
#include <vector>

namespace gpudoctor::console {

/// Makes the console show UTF-8 output (Windows: the console's output code page; POSIX: nothing
/// to do). Called once, before the first line is written.
void use_utf8_output();

/// Whether stdout is a terminal that shows ANSI colour sequences. Windows: a console on which
/// virtual-terminal processing could be turned on (Windows 10 1511 and later); an older console,
/// a pipe or a file gets plain text.
bool stdout_shows_colour();

/// The command line as UTF-8. Windows hands main() its arguments in the ANSI code page, which
/// cannot hold every path: they are taken again from the wide command line.
class Arguments {
 public:
  Arguments(int argc, char** argv);
  [[nodiscard]] int argc() const { return static_cast<int>(pointers_.size()) - 1; }
  [[nodiscard]] char** argv() { return pointers_.data(); }

 private:
  std::vector<std::string> strings_;
  std::vector<char*> pointers_;  ///< into strings_, ending with nullptr as argv does
};

}  // namespace gpudoctor::console
