#pragma once
/// Running vendor code where it cannot take gpudoctor down with it. Loading NVML or libcuda
/// runs their constructors, and their calls talk to a kernel driver that may be wedged: a
/// crash or a hang there must become a finding, never the doctor's own crash or hang.
///
/// Each task runs in a child process with a deadline: gpudoctor itself, started again as
/// `gpudoctor --internal-task NAME ARGS...` (the same path on POSIX and Windows, and safe
/// while other threads run, unlike fork()). The child finds NAME in an explicit table
/// (internal_tasks.hpp) and its body writes lines back through a channel, its stdout. Hence
/// a task is a name, string arguments and a plain function, with no captured state.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "platform/child_process.hpp"

namespace gpudoctor::gpu {

/// The child's side of its pipes to the parent.
class ChildChannel {
 public:
  virtual ~ChildChannel() = default;
  /// Writes `line` and a newline at once, so a child killed mid-way leaves whole lines.
  virtual void write_line(std::string_view line) = 0;
  /// The next line from the parent (long-lived tasks: gpu_agent.hpp); false at its end.
  virtual bool read_line(std::string& /*line*/, size_t /*max_bytes*/) { return false; }
};

using ChildBody = void (*)(const std::vector<std::string>& args, ChildChannel& out);

struct IsolatedTask {
  std::string name;               ///< "nvml", "cuda-driver": a key of the task table
  std::vector<std::string> args;  ///< everything the body needs, as text
};

struct ChildOutcome {
  std::string output;  ///< all the child wrote, even when it was killed afterwards
  /// What the child wrote on stderr (a vendor library's own messages): of more than
  /// kMaxChildDiagnosticBytes, the first and the last half, with a line between that says how
  /// much of the middle was dropped (HeadAndTail; the real error often comes last): kept for the report, never passed
  /// to our terminal, where it would mix with the report and could carry escape sequences.
  std::string diagnostics;
  /// Empty when the child exited with status 0. Otherwise timeout (killed at the deadline),
  /// crashed (died from a signal: code = signal; or exited non-zero: code = status),
  /// not_found / io_error (could not start it).
  std::optional<Error> error;
  std::chrono::milliseconds elapsed{0};
};

inline constexpr size_t kMaxChildOutputBytes = 1 << 20;
inline constexpr size_t kMaxChildDiagnosticBytes = 64 << 10;

/// Runs all tasks at the same time, each in its own child, and waits at most `deadline` in
/// all. Results are in task order. Any thread may call it.
std::vector<ChildOutcome> run_isolated(const std::vector<IsolatedTask>& tasks, std::chrono::milliseconds deadline,
                                       size_t max_output_bytes = kMaxChildOutputBytes);

/// The command line that runs `name` with `args` in a child: {"gpudoctor", "--internal-task",
/// name, args...}, to be started from current_executable().
std::vector<std::string> internal_task_argv(const std::string& name, const std::vector<std::string>& args);

/// The timeout error every isolated child reports: "no answer within 300 ms; child process
/// killed".
Error child_timeout_error(std::chrono::milliseconds deadline);
/// A child that ended on its own, as an error: nullopt for status 0; crashed otherwise.
std::optional<Error> child_exit_error(const ExitStatus& status);

}  // namespace gpudoctor::gpu
