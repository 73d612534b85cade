#pragma once
/// A request to stop a long-running command (serve), delivered to one waiting thread: SIGINT and
/// SIGTERM on POSIX (stop_signal_posix.cpp), Ctrl-C, Ctrl-Break and the console closing on
/// Windows (stop_signal_win32.cpp).
namespace gpudoctor {

class StopSignal {
 public:
  /// Create before any thread starts: on POSIX it blocks the signals in this thread, which every
  /// later thread inherits, and ignores SIGPIPE (a client that hangs up is that connection's error).
  StopSignal();
  ~StopSignal();
  StopSignal(const StopSignal&) = delete;
  StopSignal& operator=(const StopSignal&) = delete;
  /// Blocks until a stop is requested or release() is called; true for a request.
  bool wait();
  /// Wakes wait() without a request (the work ended by itself).
  void release();

 private:
  struct State;
  State* state_;
};

}  // namespace gpudoctor
