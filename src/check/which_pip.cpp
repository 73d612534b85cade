#include "check/which_pip.hpp"

#include <cctype>

namespace gpudoctor {

std::string env_pip(const PythonEnvFacts& env) {
  if (env.interpreter.empty()) return "pip";
  const bool windows = env.interpreter.find('\\') != std::string::npos || env.interpreter.ends_with(".exe");
  if (!windows) {
    // Single quotes keep every character but the quote itself literal in a POSIX shell ($, `, &).
    const bool plain = env.interpreter.find_first_not_of(
                           "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                           "0123456789/._+-:@%,=") == std::string::npos;
    if (plain) return env.interpreter + " -m pip";
    std::string quoted = "'";
    for (char c : env.interpreter) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "' -m pip";
  }
  const bool quote = env.interpreter.find_first_of(" \t'") != std::string::npos;
  // An installed Python's launcher works in cmd and PowerShell alike ("C:\Program Files\..."
  // quoted is a string to PowerShell, not a command); the Store's has an alias per version.
  if ((env.kind == "system" || env.kind == "store") && env.python_version) {
    const std::string xy = env.python_version->truncated(2).str();
    return (env.kind == "store" ? "python" + xy : "py -" + xy) + " -m pip";
  }
  return (quote ? "& \"" + env.interpreter + "\"" : env.interpreter) + " -m pip";  // PowerShell's call operator
}

// The review of session 36: torch in Python 3.11, a newer 3.12 first on PATH.
std::string windows_which_pip(const PythonEnvFacts& env, const Facts& facts) {
  if (facts.platform != Platform::windows || facts.python_envs.size() < 2) return "";
  if ((env.kind == "system" || env.kind == "store") && env.python_version) {
    // The Store's Python has no py launcher, but an app execution alias per version.
    const std::string xy = env.python_version->truncated(2).str();
    const std::string run = env.kind == "store" ? "python" + xy : "py -" + xy;
    return " Run pip as this Python's (`" + run + " -m pip ...` instead of `pip ...`): a bare `pip` is the first " +
           "on PATH, and " + std::to_string(facts.python_envs.size()) + " Python environments were found.";
  }
  if (env.kind == "conda") {
    return " Run it in this environment (`conda activate " + env.path +
           "` first): a bare `pip` is the first on PATH, and " + std::to_string(facts.python_envs.size()) +
           " Python environments were found.";
  }
  return " Run it in this environment (`" + env.path + "\\Scripts\\Activate.ps1` first, or `" + env.path +
         "\\Scripts\\python.exe -m pip ...`): a bare `pip` is the first on PATH, and " +
         std::to_string(facts.python_envs.size()) + " Python environments were found.";
}

bool runs_bare_pip(std::string_view text) {
  for (size_t at = text.find("pip "); at != std::string_view::npos; at = text.find("pip ", at + 1)) {
    const bool word = at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_' ||
                                   text[at - 1] == '-' || text[at - 1] == '.');
    if (word && !(at >= 3 && text.substr(at - 3, 3) == "-m ")) return true;
  }
  return false;
}

std::string with_windows_which_pip(std::string fix, const PythonEnvFacts& env, const Facts& facts) {
  if (runs_bare_pip(fix)) fix += windows_which_pip(env, facts);
  return fix;
}

}  // namespace gpudoctor
