#include <windows.h>
// after windows.h
#include <shellapi.h>

#include "platform/console.hpp"
#include "platform/win32_text.hpp"

#ifndef ENABLE_VIRTUAL_TERMINAL_PROCESSING
#define ENABLE_VIRTUAL_TERMINAL_PROCESSING 0x0004
#endif

namespace gpudoctor::console {

void use_utf8_output() {
  // Fails harmlessly without a console (output to a pipe or file is UTF-8 bytes anyway).
  ::SetConsoleOutputCP(CP_UTF8);
}

bool stdout_shows_colour() {
  HANDLE out = ::GetStdHandle(STD_OUTPUT_HANDLE);
  DWORD mode = 0;
  if (out == nullptr || out == INVALID_HANDLE_VALUE || ::GetConsoleMode(out, &mode) == 0) return false;
  if ((mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0) return true;
  // A console older than Windows 10 1511 refuses the flag: plain text there.
  return ::SetConsoleMode(out, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0;
}

Arguments::Arguments(int argc, char** argv) {
  int n = 0;
  LPWSTR* wide = ::CommandLineToArgvW(::GetCommandLineW(), &n);
  if (wide != nullptr && n == argc) {
    for (int i = 0; i < n; ++i) strings_.push_back(win32::narrow(wide[i]));
  } else {
    strings_.assign(argv, argv + argc);  // the C runtime's own reading, if the two disagree
  }
  if (wide != nullptr) ::LocalFree(wide);
  for (std::string& s : strings_) pointers_.push_back(s.data());
  pointers_.push_back(nullptr);
}

}  // namespace gpudoctor::console
