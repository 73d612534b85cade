#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "gpu/isolated_child.hpp"

namespace gpudoctor::gpu {
namespace {

class FdChannel final : public ChildChannel {
 public:
  explicit FdChannel(int fd) : fd_(fd) {}
  void write_line(std::string_view line) override {
    std::string data(line);
    data += '\n';
    const char* p = data.data();
    size_t left = data.size();
    while (left > 0) {
      ssize_t n = ::write(fd_, p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;  // the parent went away; nothing more to say
      p += n;
      left -= static_cast<size_t>(n);
    }
  }

 private:
  int fd_;
};

struct Child {
  pid_t pid = -1;
  int fd = -1;
  bool reading = false;
  bool reaped = false;
  int status = 0;
  std::chrono::steady_clock::time_point ended;
  ChildOutcome outcome;
};

std::string signal_text(int sig) {
  std::string text;
  if (const char* abbrev = ::sigabbrev_np(sig))
    text = std::string("SIG") + abbrev;
  else
    text = "signal " + std::to_string(sig);
  if (const char* description = ::strsignal(sig)) text += std::string(" (") + description + ")";
  return text;
}

[[noreturn]] void run_child(const IsolatedTask& task, int write_fd, std::chrono::milliseconds deadline) {
  ::setpgid(0, 0);
  // A backstop should the parent die before it can kill us.
  ::alarm(static_cast<unsigned>(deadline.count() / 1000 + 2));
  ::signal(SIGPIPE, SIG_DFL);
  // Vendor libraries must not write into the doctor's stdout (it may be --json).
  int devnull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (devnull >= 0) {
    ::dup2(devnull, STDIN_FILENO);
    ::dup2(devnull, STDOUT_FILENO);
    ::close(devnull);
  }
  FdChannel channel(write_fd);
  try {
    task.body(task.args, channel);
  } catch (...) {
    // An exception must never unwind into the parent's copy of the stack.
    ::_exit(3);
  }
  // _exit: no atexit handlers, no flushing of the stdio buffers copied from the parent.
  ::_exit(0);
}

void drain(Child& c, size_t max_output_bytes) {
  char buf[8192];
  for (;;) {
    ssize_t n = ::read(c.fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0 || errno != EAGAIN) c.reading = false;
      return;
    }
    std::string& out = c.outcome.output;
    if (out.size() < max_output_bytes) {
      out.append(buf, std::min(static_cast<size_t>(n), max_output_bytes - out.size()));
    }
  }
}

void try_reap(Child& c, std::chrono::steady_clock::time_point now) {
  if (c.reaped || c.pid <= 0) return;
  pid_t r = ::waitpid(c.pid, &c.status, WNOHANG);
  // ECHILD: someone set SIGCHLD to SIG_IGN and the kernel reaped it; its status is lost.
  if (r < 0 && errno == ECHILD) c.status = 0;
  if (r == c.pid || (r < 0 && errno == ECHILD)) {
    c.reaped = true;
    c.ended = now;
  }
}

}  // namespace

std::vector<ChildOutcome> run_isolated(const std::vector<IsolatedTask>& tasks, std::chrono::milliseconds deadline,
                                       size_t max_output_bytes) {
  using Clock = std::chrono::steady_clock;
  std::vector<Child> children(tasks.size());
  auto start = Clock::now();
  for (size_t i = 0; i < tasks.size(); ++i) {
    Child& c = children[i];
    int fds[2] = {-1, -1};
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      c.outcome.error = Error{ErrorKind::io_error, std::strerror(errno), "pipe", errno};
      continue;
    }
    pid_t pid = ::fork();
    if (pid < 0) {
      int e = errno;
      ::close(fds[0]);
      ::close(fds[1]);
      c.outcome.error = Error{ErrorKind::io_error, std::strerror(e), "fork", e};
      continue;
    }
    if (pid == 0) {
      ::close(fds[0]);
      for (size_t j = 0; j < i; ++j) {
        if (children[j].fd >= 0) ::close(children[j].fd);
      }
      run_child(tasks[i], fds[1], deadline);
    }
    ::setpgid(pid, pid);  // also here, so a kill right after fork reaches the group
    ::close(fds[1]);
    ::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    c.pid = pid;
    c.fd = fds[0];
    c.reading = true;
  }

  auto end = start + deadline;
  for (;;) {
    auto now = Clock::now();
    bool busy = false;
    bool waiting_for_exit = false;
    std::vector<pollfd> fds;
    std::vector<Child*> polled;
    for (Child& c : children) {
      if (c.pid <= 0) continue;
      try_reap(c, now);
      if (c.reaped && c.reading) drain(c, max_output_bytes);  // whatever is left, then done
      if (c.reaped) c.reading = false;
      if (c.reading) {
        fds.push_back({c.fd, POLLIN, 0});
        polled.push_back(&c);
      }
      if (!c.reaped) {
        busy = true;
        if (!c.reading) waiting_for_exit = true;
      }
    }
    if (!busy) break;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - now).count();
    if (left <= 0) break;
    // A child that closed its pipe is about to exit; look again soon rather than at the end.
    int wait_ms = static_cast<int>(waiting_for_exit ? std::min<long long>(left, 5) : left);
    int n = ::poll(fds.data(), fds.size(), wait_ms);
    if (n < 0 && errno != EINTR) break;
    for (size_t k = 0; k < fds.size() && n > 0; ++k) {
      if (fds[k].revents != 0) drain(*polled[k], max_output_bytes);
    }
  }

  std::vector<ChildOutcome> outcomes;
  outcomes.reserve(children.size());
  for (Child& c : children) {
    if (c.pid > 0) {
      if (!c.reaped) {
        ::kill(-c.pid, SIGKILL);
        ::kill(c.pid, SIGKILL);
        while (::waitpid(c.pid, &c.status, 0) < 0 && errno == EINTR) {
        }
        c.ended = Clock::now();
        drain(c, max_output_bytes);
        c.outcome.error =
            Error{ErrorKind::timeout,
                  "no answer within " + std::to_string(deadline.count()) + " ms; child process killed", "", 0};
      } else if (WIFSIGNALED(c.status)) {
        int sig = WTERMSIG(c.status);
        c.outcome.error = Error{ErrorKind::crashed, "child process died from " + signal_text(sig), "", sig};
      } else if (WIFEXITED(c.status) && WEXITSTATUS(c.status) != 0) {
        int code = WEXITSTATUS(c.status);
        c.outcome.error =
            Error{ErrorKind::crashed, "child process exited with status " + std::to_string(code), "", code};
      }
      c.outcome.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(c.ended - start);
    }
    if (c.fd >= 0) ::close(c.fd);
    outcomes.push_back(std::move(c.outcome));
  }
  return outcomes;
}

}  // namespace gpudoctor::gpu
