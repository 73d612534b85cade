#pragma once
/// Which pip a fix means: with several Pythons, a bare `pip` is whichever comes first on PATH, not
/// necessarily the environment the finding is about.
#include <string>
#include <string_view>

#include "model/facts.hpp"

namespace gpudoctor {

/// `ENV/bin/python -m pip`: the pip of exactly this environment, whatever PATH holds; a bare `pip`
/// when the interpreter is unknown. Single-quoted when the path has a character a POSIX shell reads. On Windows an
/// installed Python's is `py -X.Y -m pip` (the Store's `pythonX.Y`), a venv's path with a space PowerShell's
/// `& "..."`.
std::string env_pip(const PythonEnvFacts& env);

/// A sentence to append to a fix that runs pip for `env` ("Run pip as this Python's (`py -3.11
/// -m pip ...` ...)"); empty off Windows or with one Python environment.
std::string windows_which_pip(const PythonEnvFacts& env, const Facts& facts);

/// Whether `text` has a `pip ...` that is not `... -m pip ...`: whichever pip PATH finds first.
bool runs_bare_pip(std::string_view text);

/// `fix` with windows_which_pip appended when it runs a bare pip.
std::string with_windows_which_pip(std::string fix, const PythonEnvFacts& env, const Facts& facts);

}  // namespace gpudoctor
