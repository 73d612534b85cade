#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <csignal>

#include "platform/stop_signal.hpp"

namespace gpudoctor {

struct StopSignal::State {
  sigset_t signals{};
  std::atomic<bool> released{false};
};

StopSignal::StopSignal() : state_(new State) {
  sigemptyset(&state_->signals);
  sigaddset(&state_->signals, SIGINT);
  sigaddset(&state_->signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &state_->signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);  // children get the default back from the launcher
}

StopSignal::~StopSignal() {
  delete state_;
}

bool StopSignal::wait() {
  int sig = 0;
  sigwait(&state_->signals, &sig);
  return !state_->released;
}

void StopSignal::release() {
  state_->released = true;
  // To the process, not a thread: every thread blocks it, so it stays pending until the
  // waiter's sigwait takes it, whether or not that thread waits yet.
  ::kill(::getpid(), SIGTERM);
}

}  // namespace gpudoctor
