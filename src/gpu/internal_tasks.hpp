#pragma once
/// The explicit table of tasks gpudoctor runs in a child of itself (isolated_child.hpp):
/// `gpudoctor --internal-task NAME ARGS...`. main() asks run_internal_task first, before the
/// command line is parsed, so the flag is no command and never shows in --help. A test binary
/// passes its own test-only tasks as `extra`.
#include <span>
#include <string_view>

#include "gpu/isolated_child.hpp"

namespace gpudoctor::gpu {

inline constexpr std::string_view kInternalTaskFlag = "--internal-task";
/// Seconds after which a one-shot task ends itself, should its parent die without killing it.
inline constexpr std::string_view kTaskDeadlineVariable = "GPUDOCTOR_TASK_DEADLINE_S";

struct TaskEntry {
  std::string_view name;
  ChildBody body;
};

/// gpudoctor's own tasks: "nvml" and "cuda-driver" (driver_query.hpp), "gpu-agent"
/// (gpu_agent.hpp).
std::span<const TaskEntry> product_tasks();

/// When argv is `PROGRAM --internal-task NAME ARGS...`: runs NAME, found in product_tasks()
/// and then `extra`, with its stdout as the channel, and ends the process (0 done, 2 no such
/// task, 3 the body threw) with _Exit: no atexit handler or static destructor of a vendor
/// library runs, as one that hangs would turn a complete answer into a timeout. Otherwise it
/// returns at once: not an internal task.
void run_internal_task(int argc, char** argv, std::span<const TaskEntry> extra = {});

}  // namespace gpudoctor::gpu
