#pragma once
/// Runs a command for `gpudoctor explain -- CMD ARGS...`: its stdout and stderr pass through
/// to ours unchanged (the user sees the program as if run directly) while every chunk is
/// also handed to the explainer. Started by the one launcher, platform/child_process.hpp.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace gpudoctor {

/// stream: 1 = the command's stdout, 2 = its stderr.
using OutputObserver = std::function<void(int stream, std::string_view chunk)>;

/// Runs argv (argv[0] looked up on PATH) and waits for it. Returns its exit status, 128 + the
/// signal number when a signal killed it. Errors: not_found (no such program), io_error.
/// While it runs, Ctrl-C goes to the command, not to us, so the log it wrote is still
/// explained.
Result<int> run_watched_command(const std::vector<std::string>& argv, const OutputObserver& observe);

}  // namespace gpudoctor
