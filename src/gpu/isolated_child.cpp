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
  /// stderr's head and tail: the real error often comes last, after a library's warnings.
  HeadAndTail diagnostics{kMaxChildDiagnosticBytes / 2};
};

void append_bounded(std::string& to, const std::string& chunk, size_t max_bytes) {
  if (to.size() < max_bytes) to.append(chunk, 0, std::min(chunk.size(), max_bytes - to.size()));
}

void collect(Running& r, size_t max_output_bytes) {
  append_bounded(r.outcome.output, r.process->take_output(ChildStream::out), max_output_bytes);
  r.diagnostics.add(r.process->take_output(ChildStream::err));
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
    // stdin the null device, stdout the channel, stderr a pipe: a library's own messages go
    // into the report (ChildOutcome::diagnostics), not raw onto the user's terminal.
    auto started = ChildProcess::start(ChildSpec{
        .argv = internal_task_argv(tasks[i].name, tasks[i].args),
        .program = *self,
        .err = ChildStdio::pipe,
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
        while ((p.reading(ChildStream::out) || p.reading(ChildStream::err)) && p.wait(Clock::now())) {
          collect(r, max_output_bytes);
        }
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
    r.outcome.diagnostics = r.diagnostics.text(true);
    outcomes.push_back(std::move(r.outcome));
  }
  return outcomes;
}

}  // namespace gpudoctor::gpu
