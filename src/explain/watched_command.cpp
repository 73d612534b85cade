#include "explain/watched_command.hpp"

#include <chrono>

#include "platform/child_process.hpp"

namespace gpudoctor {

Result<int> run_watched_command(const std::vector<std::string>& argv, const OutputObserver& observe) {
  if (argv.empty()) return Error{ErrorKind::invalid_data, "no command given after --", "", 0};
  // Run as a shell would: our stdin, our process group (the terminal's Ctrl-C reaches it
  // while we ignore it), its output through our pipes.
  InterruptsToChild interrupts;
  auto started = ChildProcess::start(ChildSpec{.argv = argv, .in = ChildStdio::inherit, .own_group = false});
  if (!started) return started.error();
  ChildProcess& child = *started;
  // The command is done when it exits, not when every descendant has closed the pipes: a
  // background grandchild (`sleep 60 &`) may hold them open. Once the command has exited, what
  // is already written is drained for a short grace period, then the pipes are let go.
  constexpr auto kGrace = std::chrono::milliseconds(200);
  constexpr auto kForever = std::chrono::hours(24);
  while (child.reading(ChildStream::out) || child.reading(ChildStream::err)) {
    const auto now = ChildProcess::Clock::now();
    if (child.ended() && now >= child.ended_at() + kGrace) {
      child.stop_reading();
      break;
    }
    child.wait(child.ended() ? child.ended_at() + kGrace : now + kForever);
    for (ChildStream stream : {ChildStream::out, ChildStream::err}) {
      std::string chunk = child.take_output(stream);
      if (chunk.empty()) continue;
      // Pass through first, unchanged, so the user sees the output as it comes.
      pass_through(stream, chunk);
      observe(stream == ChildStream::out ? 1 : 2, chunk);
    }
  }
  while (!child.ended()) child.wait(ChildProcess::Clock::now() + kForever);
  return shell_exit_status(child.exit_status());
}

}  // namespace gpudoctor
