#pragma once
/// `gpudoctor verify --framework`: a short script run by a Python environment's own
/// interpreter, in a child with a deadline. It imports the framework, lists the devices it
/// sees, runs a matrix product and a convolution on its first GPU (or on the CPU when it sees
/// none) against the same on the CPU, mixed precision where the GPU has it, and reports what
/// the process loaded (/proc/self/maps). The framework's stderr is kept for the explain rules
/// (the caller's: the gpu layer does not read the knowledge base).
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "model/facts.hpp"
#include "model/verify_report.hpp"
#include "platform/process_runner.hpp"

namespace gpudoctor::gpu {

struct FrameworkTarget {
  std::string framework;    ///< "pytorch", "jax", "tensorflow"
  std::string env;          ///< the environment's path
  std::string interpreter;  ///< its python
};

struct FrameworkRun {
  VerifyStep step;                  ///< name "framework <name>"; passed only when the work ran on a GPU, checked
  std::string stderr_text;          ///< the framework's own words, for explain
  size_t stderr_dropped = 0;        ///< bytes cut from the middle of a long stderr
  std::vector<std::string> loaded;  ///< the CUDA and framework libraries the process mapped, as the kernel names them
};

/// The libraries the process loaded set against where the doctor said the loader would find
/// them (FrameworkFacts::loads). `expected` paths are canonical (symbolic links resolved, as
/// /proc/self/maps names files). One line per library of `expected` that the process loaded:
/// "as expected" lines folded into one count, a copy from elsewhere named with both paths.
/// Libraries the script did not need (not loaded) are not judged. `*differ` counts the others.
std::vector<std::string> loads_against_expected(const std::vector<LibraryLoad>& expected,
                                                const std::vector<std::string>& loaded, int* differ);

/// The Python the child runs (`python -c SCRIPT FRAMEWORK`); it prints one line
/// "GPUDOCTOR-RESULT {json}" last.
const char* framework_script();

/// The JSON text of the last "GPUDOCTOR-RESULT {json}" line of a script's stdout; empty when none.
std::string framework_result_text(std::string_view out);

/// `python -c SCRIPT FRAMEWORK ARGS...` in the target's own interpreter, in a child with a
/// deadline (the runner's); the time it took in `elapsed_ms`. verify's and bench's scripts both run so.
Result<ProcessOutput> run_framework_script(const ProcessRunner& runner, const FrameworkTarget& target,
                                           const char* script, const std::vector<std::string>& args,
                                           std::chrono::milliseconds deadline, long long& elapsed_ms);

FrameworkRun run_framework_check(const ProcessRunner& runner, const FrameworkTarget& target,
                                 std::chrono::milliseconds deadline);

/// The step from what the interpreter wrote (pure: the tests feed it recorded output).
FrameworkRun framework_step_from_output(const FrameworkTarget& target, const Result<ProcessOutput>& output,
                                        long long elapsed_ms);

}  // namespace gpudoctor::gpu
