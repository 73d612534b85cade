#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

#include "explain/watched_command.hpp"

namespace gpudoctor {

namespace {

bool write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

Result<int> run_watched_command(const std::vector<std::string>& argv, const OutputObserver& observe) {
  if (argv.empty()) return Error{ErrorKind::invalid_data, "no command given after --", "", 0};
  if (argv[0].find('/') != std::string::npos) {
    // A path: checked first, because execvp runs a file it cannot execute (ENOEXEC) with
    // /bin/sh, and a non-executable one must be 126, as a shell says it.
    struct stat st {};
    if (::stat(argv[0].c_str(), &st) != 0) {
      return Error{ErrorKind::not_found, std::string("cannot run: ") + std::strerror(errno), argv[0], errno};
    }
    if (!S_ISREG(st.st_mode) || ::access(argv[0].c_str(), X_OK) != 0) {
      return Error{ErrorKind::permission_denied, "cannot run: not an executable file", argv[0], EACCES};
    }
  }
  int out_pipe[2];
  int err_pipe[2];
  // A third pipe, close-on-exec, tells the parent whether exec itself failed.
  int exec_pipe[2];
  if (::pipe(out_pipe) != 0) return Error{ErrorKind::io_error, std::strerror(errno), "pipe", errno};
  if (::pipe(err_pipe) != 0) {
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return Error{ErrorKind::io_error, std::strerror(errno), "pipe", errno};
  }
  if (::pipe2(exec_pipe, O_CLOEXEC) != 0) {
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) ::close(fd);
    return Error{ErrorKind::io_error, std::strerror(errno), "pipe", errno};
  }
  std::vector<char*> cargv;
  cargv.reserve(argv.size() + 1);
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);

  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  struct sigaction old_int {};
  struct sigaction old_quit {};
  ::sigaction(SIGINT, &ignore, &old_int);
  ::sigaction(SIGQUIT, &ignore, &old_quit);

  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1], exec_pipe[0], exec_pipe[1]}) ::close(fd);
    ::sigaction(SIGINT, &old_int, nullptr);
    ::sigaction(SIGQUIT, &old_quit, nullptr);
    return Error{ErrorKind::io_error, std::strerror(e), "fork", e};
  }
  if (pid == 0) {
    ::sigaction(SIGINT, &old_int, nullptr);
    ::sigaction(SIGQUIT, &old_quit, nullptr);
    ::dup2(out_pipe[1], 1);
    ::dup2(err_pipe[1], 2);
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1], exec_pipe[0]}) ::close(fd);
    ::execvp(cargv[0], cargv.data());
    const int e = errno;
    (void)!::write(exec_pipe[1], &e, sizeof e);
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  ::close(exec_pipe[1]);
  int exec_errno = 0;
  ssize_t got;
  do {
    got = ::read(exec_pipe[0], &exec_errno, sizeof exec_errno);
  } while (got < 0 && errno == EINTR);
  ::close(exec_pipe[0]);

  struct pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  char buffer[64 * 1024];
  // The command is done when it exits, not when every descendant has closed the pipes: a
  // background grandchild (`sleep 60 &`) may hold them open. Once the command has exited, what
  // is already written is drained for a short grace period, then the pipes are let go.
  int status = 0;
  bool exited = false;
  constexpr auto kGrace = std::chrono::milliseconds(200);
  std::chrono::steady_clock::time_point drain_until{};
  while (open_fds > 0) {
    if (!exited) {
      pid_t w = ::waitpid(pid, &status, WNOHANG);
      if (w == pid) {
        exited = true;
        drain_until = std::chrono::steady_clock::now() + kGrace;
      }
    } else if (std::chrono::steady_clock::now() >= drain_until) {
      break;
    }
    int r = ::poll(fds, 2, 50);
    if (r < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
        continue;
      }
      // Pass through first, unchanged, so the user sees the output as it comes.
      write_all(i == 0 ? 1 : 2, buffer, static_cast<size_t>(n));
      observe(i + 1, std::string_view(buffer, static_cast<size_t>(n)));
    }
  }
  for (auto& f : fds) {
    if (f.fd >= 0) ::close(f.fd);
  }
  while (!exited && ::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGQUIT, &old_quit, nullptr);
  if (got == static_cast<ssize_t>(sizeof exec_errno) && exec_errno != 0) {
    // As shells do: 127 for a command not found, 126 for one found but not executable.
    const ErrorKind kind = exec_errno == ENOENT                            ? ErrorKind::not_found
                           : exec_errno == EACCES || exec_errno == ENOEXEC ? ErrorKind::permission_denied
                                                                           : ErrorKind::io_error;
    return Error{kind, std::string("cannot run: ") + std::strerror(exec_errno), argv[0], exec_errno};
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace gpudoctor
