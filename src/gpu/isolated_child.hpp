#pragma once
/// Running vendor code where it cannot take gpudoctor down with it. Loading NVML or libcuda
/// runs their constructors, and their calls talk to a kernel driver that may be wedged: a
/// crash or a hang there must become a finding, never the doctor's own crash or hang.
///
/// Each task runs in a child process with a deadline and writes lines back through a
/// channel. POSIX (isolated_child_posix.cpp): fork(), the body runs in the child. Windows (to
/// do): CreateProcess on this executable with `--internal-task <name> <args...>`, the body
/// found in an explicit table by name and writing to stdout; hence tasks are a name, string
/// arguments and a plain function, with no captured state to carry across.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace gpudoctor::gpu {

/// The child's side of the pipe.
class ChildChannel {
 public:
  virtual ~ChildChannel() = default;
  /// Writes `line` and a newline at once, so a child killed mid-way leaves whole lines.
  virtual void write_line(std::string_view line) = 0;
};

using ChildBody = void (*)(const std::vector<std::string>& args, ChildChannel& out);

struct IsolatedTask {
  std::string name;               ///< "nvml", "cuda-driver": the Windows variant's table key
  std::vector<std::string> args;  ///< everything the body needs, as text
  ChildBody body = nullptr;
};

struct ChildOutcome {
  std::string output;  ///< all the child wrote, even when it was killed afterwards
  /// Empty when the child exited with status 0. Otherwise timeout (killed at the deadline),
  /// crashed (died from a signal: code = signal; or exited non-zero: code = status),
  /// io_error (could not start it).
  std::optional<Error> error;
  std::chrono::milliseconds elapsed{0};
};

inline constexpr size_t kMaxChildOutputBytes = 1 << 20;

/// Runs all tasks at the same time, each in its own child, and waits at most `deadline` in
/// all. Results are in task order. Call before the process starts threads: after fork() only
/// the calling thread exists in the child (the doctor is single-threaded when it probes).
std::vector<ChildOutcome> run_isolated(const std::vector<IsolatedTask>& tasks, std::chrono::milliseconds deadline,
                                       size_t max_output_bytes = kMaxChildOutputBytes);

}  // namespace gpudoctor::gpu
