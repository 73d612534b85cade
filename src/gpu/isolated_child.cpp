#include "gpu/isolated_child.hpp"

#include <algorithm>

#include "gpu/internal_tasks.hpp"

namespace gpudoctor::gpu {

std::vector<std::string> internal_task_argv(const std::string& name, const std::vector<std::string>& args) {
  std::vector<std::string> argv{"gpudoctor", std::string(kInternalTaskFlag), name};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

Error child_timeout_error(std::chrono::milliseconds deadline) {
  return Error{ErrorKind::timeout, "no answer within " + std::to_string(deadline.count()) + " ms; child process killed",
               "", 0};
}

std::optional<Error> child_exit_error(const ExitStatus& status) {
  if (!status.crashed && status.code == 0) return std::nullopt;
  return Error{ErrorKind::crashed, "child process " + describe(status), "", status.code};
}

namespace {

struct Running {
  std::optional<ChildProcess> process;
  bool done = false;
  ChildOutcome outcome;
};

void collect(Running& r, size_t max_output_bytes) {
  std::string chunk = r.process->take_output(ChildStream::out);
  std::string& out = r.outcome.output;
  if (out.size() < max_output_bytes) out.append(chunk, 0, std::min(chunk.size(), max_output_bytes - out.size()));
}

}  // namespace

std::vector<ChildOutcome> run_isolated(const std::vector<IsolatedTask>& tasks, std::chrono::milliseconds deadline,
                                       size_t max_output_bytes) {
  using Clock = ChildProcess::Clock;
  const auto start = Clock::now();
  const auto end = start + deadline;
  std::vector<Running> running(tasks.size());
  auto self = current_executable();
  // A backstop should we die before we can kill it; the job object does this on Windows.
  const auto backstop = std::chrono::duration_cast<std::chrono::seconds>(deadline).count() + 2;
  for (size_t i = 0; i < tasks.size(); ++i) {
    Running& r = running[i];
    if (!self) {
      r.outcome.error = self.error();
      r.done = true;
      continue;
    }
    // stdin the null device, stdout the channel, stderr ours: a library's own error message
    // still reaches the user.
    auto started = ChildProcess::start(ChildSpec{
        .argv = internal_task_argv(tasks[i].name, tasks[i].args),
        .program = *self,
        .err = ChildStdio::inherit,
        .env = {{std::string(kTaskDeadlineVariable), std::to_string(backstop)}},
    });
    if (!started) {
      r.outcome.error = started.error();
      r.done = true;
      continue;
    }
    r.process.emplace(std::move(started).value());
  }

  for (;;) {
    std::vector<ChildProcess*> waiting;
    for (Running& r : running) {
      if (r.done) continue;
      ChildProcess& p = *r.process;
      if (p.ended()) {
        // Whatever is left in the pipe, without waiting for a descendant that holds it.
        while (p.reading(ChildStream::out) && p.wait(Clock::now())) collect(r, max_output_bytes);
        collect(r, max_output_bytes);
        p.stop_reading();
        r.outcome.error = child_exit_error(p.exit_status());
        r.outcome.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(p.ended_at() - start);
        r.done = true;
        continue;
      }
      waiting.push_back(&p);
    }
    if (waiting.empty() || Clock::now() >= end) break;
    wait_any(waiting, end);
    for (Running& r : running) {
      if (!r.done) collect(r, max_output_bytes);
    }
  }

  std::vector<ChildOutcome> outcomes;
  outcomes.reserve(running.size());
  for (Running& r : running) {
    if (!r.done) {
      r.process->kill();
      collect(r, max_output_bytes);
      r.outcome.error = child_timeout_error(deadline);
      r.outcome.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    }
    outcomes.push_back(std::move(r.outcome));
  }
  return outcomes;
}

}  // namespace gpudoctor::gpu
