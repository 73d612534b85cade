#pragma once
/// Runs a program with a deadline and bounded output. The seam exists so that probes can ask
/// "what does nvcc --version print" on the live machine, and tests can answer from a recording.
#include <chrono>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace gpudoctor {

struct ProcessOutput {
  int exit_code = 0;
  std::string out;         ///< stdout: its first and last half of the output limit
  std::string err;         ///< stderr: the same
  size_t out_dropped = 0;  ///< bytes cut from the middle of stdout; 0 when all of it is there
  size_t err_dropped = 0;
};

class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  /// argv[0] is looked up on PATH when it has no slash. Errors: not_found (no such program),
  /// timeout (killed at the deadline), crashed (died from a signal; code = signal).
  virtual Result<ProcessOutput> run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) const = 0;
};

/// The host's real runner: platform/child_process.hpp, stdin the null device.
class HostProcessRunner final : public ProcessRunner {
 public:
  static constexpr size_t kMaxOutputBytes = 1 << 20;
  Result<ProcessOutput> run(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) const override;
};

}  // namespace gpudoctor
