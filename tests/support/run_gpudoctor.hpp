#pragma once
/// The one way every test binary runs a program (the built gpudoctor, a shell line, shellcheck):
/// through the product's HostProcessRunner, so each run has a deadline, its output is cut at
/// HostProcessRunner::kMaxOutputBytes per stream, and a run that timed out or died from a signal
/// says so instead of passing for an exit status.
#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "platform/process_runner.hpp"

namespace gpudoctor::testing {

struct RunResult {
  int exit_code = -1;   ///< the program's exit status; -1 when it did not exit (see failure)
  std::string out;      ///< stdout, bounded
  std::string err;      ///< stderr, bounded; holds `failure` too when the program did not exit
  std::string failure;  ///< empty, or why there is no exit status (not found, timeout, signal)
  nlohmann::json json;  ///< parsed stdout when it is JSON, else null
};

/// Long enough for a loaded 2-core machine, short enough that a hung child fails its test.
inline constexpr std::chrono::seconds kRunDeadline{60};

inline RunResult run_command(const std::vector<std::string>& argv, std::chrono::milliseconds deadline = kRunDeadline) {
  HostProcessRunner runner;
  auto r = runner.run(argv, deadline);
  RunResult out;
  if (!r) {
    out.failure = r.error().message;
    out.err = out.failure;
    return out;
  }
  out.exit_code = r->exit_code;
  out.out = r->out;
  out.err = r->err;
  out.json = nlohmann::json::parse(r->out, nullptr, false);
  if (out.json.is_discarded()) out.json = nullptr;
  return out;
}

/// A shell command line (quoting, redirections such as `2>&1`), run by /bin/sh.
inline RunResult run_shell(const std::string& script, std::chrono::milliseconds deadline = kRunDeadline) {
  return run_command({"/bin/sh", "-c", script}, deadline);
}

/// `s` as one single-quoted shell word.
inline std::string shell_quote(std::string_view s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// The gpudoctor under test: the one built beside this binary, or $GPUDOCTOR_TEST_BINARY where
/// set (scripts/device-check.sh carries gpu_tests and gpudoctor to a GPU machine, where the
/// build tree's absolute path does not exist).
inline std::string gpudoctor_binary() {
  const char* path = std::getenv("GPUDOCTOR_TEST_BINARY");
  return path != nullptr && *path != '\0' ? path : GPUDOCTOR_BINARY;
}

/// The gpudoctor under test with these arguments, no shell in between.
inline RunResult run_gpudoctor(std::vector<std::string> args, std::chrono::milliseconds deadline = kRunDeadline) {
  args.insert(args.begin(), gpudoctor_binary());
  return run_command(args, deadline);
}

/// The gpudoctor under test with arguments written as shell text (`--gpu 'RTX 3060' 2>&1`).
inline RunResult run_gpudoctor_shell(const std::string& args, std::chrono::milliseconds deadline = kRunDeadline) {
  return run_shell("exec " + shell_quote(gpudoctor_binary()) + " " + args, deadline);
}

}  // namespace gpudoctor::testing
