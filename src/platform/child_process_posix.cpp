#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "platform/child_process.hpp"

extern char** environ;

namespace gpudoctor {

// Named, not anonymous: the Impl structs below hold descriptors, and a member whose type is in an
// anonymous namespace is a warning where this file is built together with others (unity builds).
namespace posix_child {

/// Owns one descriptor.
class OwnedFd {
 public:
  OwnedFd() = default;
  explicit OwnedFd(int fd) : fd_(fd) {}
  OwnedFd(OwnedFd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  OwnedFd& operator=(OwnedFd&& o) noexcept {
    if (this != &o) {
      reset();
      fd_ = std::exchange(o.fd_, -1);
    }
    return *this;
  }
  OwnedFd(const OwnedFd&) = delete;
  OwnedFd& operator=(const OwnedFd&) = delete;
  ~OwnedFd() { reset(); }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  [[nodiscard]] int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

}  // namespace posix_child

namespace {

using Clock = ChildProcess::Clock;
using posix_child::OwnedFd;

// The process groups of running children. A child in a group of its own does not get the
// terminal's Ctrl-C, and one left behind when gpudoctor ends would keep a GPU busy (or hung)
// with nobody to read it or enforce its deadline. So a signal that ends gpudoctor (SIGINT,
// SIGTERM, SIGHUP, where nobody else handles it) kills these groups first. Fixed slots of
// lock-free atomics: all a signal handler may touch. A child beyond the slots is not
// remembered; its deadline still applies while gpudoctor lives.
constexpr size_t kGroupSlots = 256;
std::atomic<pid_t> g_running_groups[kGroupSlots];
static_assert(std::atomic<pid_t>::is_always_lock_free);

void remember_group(pid_t group) {
  for (auto& slot : g_running_groups) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, group)) return;
  }
}

/// At the leader's reaping: the id may be reused by an unrelated group once its members are
/// gone, so it is never killed by this list after that.
void forget_group(pid_t group) {
  for (auto& slot : g_running_groups) {
    pid_t expected = group;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

void kill_groups_then_end(int sig) {
  for (auto& slot : g_running_groups) {
    const pid_t group = slot.load();
    if (group > 0) ::kill(-group, SIGKILL);
  }
  // Then the signal's own default action, so that the exit status says what ended us.
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void kill_groups_on_ending_signals() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction current {};
      if (::sigaction(sig, nullptr, &current) != 0) continue;
      // Ignored (nohup, a watched command's Ctrl-C) or someone else's handler: left alone.
      if ((current.sa_flags & SA_SIGINFO) != 0 || current.sa_handler != SIG_DFL) continue;
      struct sigaction handler {};
      handler.sa_handler = kill_groups_then_end;
      sigemptyset(&handler.sa_mask);
      ::sigaction(sig, &handler, nullptr);
    }
  });
}

/// A close-on-exec pipe whose ends are never 0, 1 or 2: dup2 onto a standard descriptor in
/// the spawn actions would otherwise be a no-op that leaves close-on-exec set.
bool make_pipe(OwnedFd& read_end, OwnedFd& write_end) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  for (int& fd : fds) {
    if (fd <= 2) {
      int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
      ::close(fd);
      fd = moved;
    }
  }
  read_end = OwnedFd(fds[0]);
  write_end = OwnedFd(fds[1]);
  return read_end && write_end;
}

std::string signal_text(int sig) {
  std::string text;
  if (const char* abbrev = ::sigabbrev_np(sig))
    text = std::string("SIG") + abbrev;
  else
    text = "signal " + std::to_string(sig);
  if (const char* description = ::strsignal(sig)) text += std::string(" (") + description + ")";
  return text;
}

ErrorKind kind_for_spawn_errno(int e) {
  switch (e) {
    case ENOENT:
    case ENOTDIR:
      return ErrorKind::not_found;
    case EACCES:
    case EPERM:
    case ENOEXEC:
    case EISDIR:
      return ErrorKind::permission_denied;
    default:
      return ErrorKind::io_error;
  }
}

/// Our environment with `changes` applied.
std::vector<std::string> changed_environment(const std::vector<EnvChange>& changes) {
  std::map<std::string, std::string> vars;
  std::vector<std::string> order;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string_view entry(*e);
    size_t eq = entry.find('=');
    std::string name(entry.substr(0, eq));
    if (vars.emplace(name, std::string(entry)).second) order.push_back(name);
  }
  for (const EnvChange& c : changes) {
    if (!c.value) {
      vars.erase(c.name);
      continue;
    }
    if (vars.find(c.name) == vars.end()) order.push_back(c.name);
    vars[c.name] = c.name + "=" + *c.value;
  }
  std::vector<std::string> out;
  for (const std::string& name : order) {
    auto it = vars.find(name);
    if (it != vars.end()) out.push_back(it->second);
  }
  return out;
}

constexpr size_t kReadChunk = 64 * 1024;

#ifdef __linux__
struct ProcStat {
  pid_t ppid = -1;
  char state = '?';  ///< R, S, D, T (stopped), Z (zombie), ...
};

/// One process's parent and state from /proc/PID/stat ("PID (COMM) STATE PPID ..."; COMM may
/// hold spaces and parentheses, so the fields start after the last ')'); none when it is gone.
std::optional<ProcStat> proc_stat(pid_t pid) {
  char path[32];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  OwnedFd fd(::open(path, O_RDONLY | O_CLOEXEC));
  if (!fd) return std::nullopt;
  char buf[512];
  ssize_t n = ::read(fd.get(), buf, sizeof buf - 1);
  if (n <= 0) return std::nullopt;
  std::string_view text(buf, static_cast<size_t>(n));
  size_t close = text.rfind(')');
  if (close == std::string_view::npos || close + 4 >= text.size()) return std::nullopt;
  ProcStat st;
  st.state = text[close + 2];
  std::string_view rest = text.substr(close + 4);  // past ") S "
  auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), st.ppid);
  if (ec != std::errc()) return std::nullopt;
  return st;
}

/// SIGSTOP is delivered asynchronously: a process may still finish a fork() after kill()
/// returns. Waits (at most about 200 ms in all) until each has stopped, died or is stuck in the
/// kernel, so that the next scan sees every child it made.
void wait_until_stopped(const std::vector<pid_t>& pids) {
  for (int round = 0; round < 200; ++round) {
    bool all = true;
    for (pid_t p : pids) {
      auto st = proc_stat(p);
      if (st && st->state != 'T' && st->state != 't' && st->state != 'Z' && st->state != 'X' && st->state != 'D') {
        all = false;
        break;
      }
    }
    if (all) return;
    ::usleep(1000);
  }
}

/// Every process below root, gathered while stopping each one found (SIGSTOP, waited for),
/// until a scan finds none new: a stopped process cannot fork, so the set is then closed.
/// Bounded: a tree that keeps growing for 16 scans is killed as far as it was found.
std::vector<pid_t> stop_descendants(pid_t root) {
  std::set<pid_t> found{root};
  std::vector<pid_t> stopped;
  wait_until_stopped({root});
  for (int scan = 0; scan < 16; ++scan) {
    std::multimap<pid_t, pid_t> children;
    if (DIR* proc = ::opendir("/proc")) {
      while (dirent* e = ::readdir(proc)) {
        int pid = 0;
        std::string_view name(e->d_name);
        auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), pid);
        if (ec != std::errc() || end != name.data() + name.size()) continue;
        if (auto st = proc_stat(pid); st && st->ppid > 0) children.emplace(st->ppid, pid);
      }
      ::closedir(proc);
    }
    std::vector<pid_t> added;
    std::vector<pid_t> queue(found.begin(), found.end());
    while (!queue.empty()) {
      pid_t p = queue.back();
      queue.pop_back();
      auto [first, last] = children.equal_range(p);
      for (auto it = first; it != last; ++it) {
        if (!found.insert(it->second).second) continue;
        ::kill(it->second, SIGSTOP);
        added.push_back(it->second);
        queue.push_back(it->second);
      }
    }
    if (added.empty()) break;
    wait_until_stopped(added);
    stopped.insert(stopped.end(), added.begin(), added.end());
  }
  return stopped;
}
#endif

}  // namespace

struct ChildProcess::Impl : ChildProcess::State {
  pid_t pid = -1;
  bool own_group = true;
  OwnedFd stdin_fd;
  OwnedFd streams[2];  ///< stdout, stderr read ends
  std::string pending[2];
  /// Tells when the child ends without a periodic waitpid (Linux 5.3+); absent: a 10 ms tick.
  OwnedFd pidfd;

  /// waitpid without waiting; true when the child was reaped now.
  bool try_reap() {
    if (ended) return false;
    int st = 0;
    pid_t r = ::waitpid(pid, &st, WNOHANG);
    if (r == 0 || (r < 0 && errno == EINTR)) return false;
    if (own_group) forget_group(pid);
    ended = true;
    ended_at = Clock::now();
    pidfd.reset();
    if (r < 0) {
      // ECHILD: SIGCHLD is ignored and the kernel reaped it; its status is lost.
      status = ExitStatus{};
    } else if (WIFSIGNALED(st)) {
      status = ExitStatus{.crashed = true, .code = WTERMSIG(st)};
    } else {
      status = ExitStatus{.crashed = false, .code = WIFEXITED(st) ? WEXITSTATUS(st) : -1};
    }
    return true;
  }

  /// One read from a ready pipe; false when it closed.
  void read_stream(int i, bool& activity) {
    char buf[kReadChunk];
    size_t room = kMaxPendingBytes - std::min(kMaxPendingBytes, pending[i].size());
    ssize_t n = ::read(streams[i].get(), buf, std::min(room, sizeof buf));
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
    activity = true;
    if (n <= 0) {
      streams[i].reset();
      return;
    }
    pending[i].append(buf, static_cast<size_t>(n));
  }
};

Result<ChildProcess> ChildProcess::spawn(const ChildSpec& spec) {
  auto impl = std::make_unique<Impl>();
  impl->own_group = spec.own_group;
  OwnedFd child_ends[3];
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  auto cleanup = [&] {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  };
  const ChildStdio modes[3] = {spec.in, spec.out, spec.err};
  for (int fd = 0; fd < 3; ++fd) {
    if (modes[fd] == ChildStdio::inherit) continue;
    if (modes[fd] == ChildStdio::null) {
      posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0);
      continue;
    }
    OwnedFd ours;
    bool ok = fd == 0 ? make_pipe(child_ends[0], ours) : make_pipe(ours, child_ends[fd]);
    if (!ok) {
      int e = errno;
      cleanup();
      return Error{ErrorKind::io_error, std::strerror(e), "pipe", e};
    }
    posix_spawn_file_actions_adddup2(&actions, child_ends[fd].get(), fd);
    if (fd == 0) {
      impl->stdin_fd = std::move(ours);
    } else {
      ::fcntl(ours.get(), F_SETFL, ::fcntl(ours.get(), F_GETFL) | O_NONBLOCK);
      impl->streams[fd - 1] = std::move(ours);
    }
  }
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  // Descriptors a library opened without close-on-exec must not leak into the child either.
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
  // The child starts with no blocked signals (the calling thread may block some) and with the
  // signals we may ignore (SIGPIPE; SIGINT and SIGQUIT while a watched command runs) at
  // their defaults.
  short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int sig : {SIGPIPE, SIGINT, SIGQUIT}) sigaddset(&defaults, sig);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  if (spec.own_group) {
    flags |= POSIX_SPAWN_SETPGROUP;
    posix_spawnattr_setpgroup(&attr, 0);
    kill_groups_on_ending_signals();
  }
  posix_spawnattr_setflags(&attr, flags);

  std::vector<char*> args;
  args.reserve(spec.argv.size() + 1);
  for (const auto& a : spec.argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> env_text;
  std::vector<char*> envp;
  char** env = environ;
  if (!spec.env.empty()) {
    env_text = changed_environment(spec.env);
    for (auto& e : env_text) envp.push_back(e.data());
    envp.push_back(nullptr);
    env = envp.data();
  }
  pid_t pid = -1;
  int rc = 0;
  const std::string& program = spec.program.empty() ? spec.argv[0] : spec.program;
  if (spec.program.empty() && program.find('/') == std::string::npos) {
    rc = ::posix_spawnp(&pid, program.c_str(), &actions, &attr, args.data(), env);
  } else {
    rc = ::posix_spawn(&pid, program.c_str(), &actions, &attr, args.data(), env);
  }
  cleanup();
  if (rc != 0) {
    return Error{kind_for_spawn_errno(rc), std::string("cannot run: ") + std::strerror(rc), program, rc};
  }
  impl->pid = pid;
  if (spec.own_group) remember_group(pid);
#ifdef SYS_pidfd_open
  // pidfd_open's descriptor is close-on-exec by definition.
  impl->pidfd = OwnedFd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
#endif
  return ChildProcess(impl.release());
}

bool wait_any(std::span<ChildProcess* const> children, Clock::time_point until) {
  bool activity = false;
  bool tick = false;
  std::vector<pollfd> fds;
  struct Polled {
    ChildProcess::Impl* child;
    int stream;  ///< 0, 1; -1 for the pidfd
  };
  std::vector<Polled> polled;
  for (ChildProcess* c : children) {
    ChildProcess::Impl& p = *c->impl_;
    if (p.try_reap()) activity = true;
    for (int i = 0; i < 2; ++i) {
      if (!p.streams[i]) continue;
      if (p.pending[i].size() >= ChildProcess::kMaxPendingBytes) {
        activity = true;  // the caller must take it first
        continue;
      }
      fds.push_back({p.streams[i].get(), POLLIN, 0});
      polled.push_back({&p, i});
    }
    if (!p.ended) {
      if (p.pidfd) {
        fds.push_back({p.pidfd.get(), POLLIN, 0});
        polled.push_back({&p, -1});
      } else {
        tick = true;
      }
    }
  }
  if (fds.empty() && !tick) return activity;
  long long wait_ms = 0;
  if (!activity) {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now()).count();
    wait_ms = std::max<long long>(0, left);
    if (tick) wait_ms = std::min<long long>(wait_ms, 10);
    wait_ms = std::min<long long>(wait_ms, 1'000'000);
  }
  int n = ::poll(fds.data(), fds.size(), static_cast<int>(wait_ms));
  for (size_t k = 0; n > 0 && k < fds.size(); ++k) {
    if (fds[k].revents == 0) continue;
    if (polled[k].stream >= 0) polled[k].child->read_stream(polled[k].stream, activity);
  }
  for (ChildProcess* c : children) {
    if (c->impl_->try_reap()) activity = true;
  }
  return activity;
}

std::string ChildProcess::take_output(ChildStream stream) {
  return std::exchange(impl_->pending[stream == ChildStream::out ? 0 : 1], std::string());
}

bool ChildProcess::reading(ChildStream stream) const {
  return static_cast<bool>(impl_->streams[stream == ChildStream::out ? 0 : 1]);
}

void ChildProcess::stop_reading() {
  for (OwnedFd& f : impl_->streams) f.reset();
}

const ChildProcess::State& ChildProcess::state() const {
  return *impl_;
}

void ChildProcess::kill() {
  Impl& p = *impl_;
#ifdef __linux__
  // Descendants that left the group (setsid) are found through their parents, so the child
  // is stopped first and killed last: while it lives, its orphans are its own (keep_descendants).
  if (p.own_group && !p.ended) {
    ::kill(p.pid, SIGSTOP);
    for (pid_t d : stop_descendants(p.pid)) ::kill(d, SIGKILL);
  }
#endif
  // The group outlives its leader: its id is not reused while members are left.
  if (p.own_group) ::kill(-p.pid, SIGKILL);
  if (p.ended) return;
  ::kill(p.pid, SIGKILL);
  int st = 0;
  pid_t r;
  do {
    r = ::waitpid(p.pid, &st, 0);
  } while (r < 0 && errno == EINTR);
  if (p.own_group) forget_group(p.pid);
  p.ended = true;
  p.ended_at = Clock::now();
  p.pidfd.reset();
  p.status = r == p.pid && WIFEXITED(st) ? ExitStatus{.crashed = false, .code = WEXITSTATUS(st)}
                                         : ExitStatus{.crashed = true, .code = SIGKILL};
  // Whatever was written before the kill is still in the pipe.
  for (int i = 0; i < 2; ++i) {
    bool ignored = false;
    while (p.streams[i] && p.pending[i].size() < kMaxPendingBytes) {
      size_t before = p.pending[i].size();
      p.read_stream(i, ignored);
      if (p.pending[i].size() == before) break;
    }
  }
}

Status ChildProcess::write_stdin(std::string_view data) {
  Impl& p = *impl_;
  if (!p.stdin_fd) return Error{ErrorKind::io_error, "stdin is not a pipe, or was closed", "stdin", 0};
  // A child that has gone would send us SIGPIPE: block it in this thread, and take back the
  // one the write raised, so that EPIPE comes back as an error instead.
  sigset_t pipe_set;
  sigset_t old_mask;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  sigset_t pending_before;
  sigpending(&pending_before);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old_mask);
  int error = 0;
  while (!data.empty()) {
    ssize_t n = ::write(p.stdin_fd.get(), data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      error = errno;
      break;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  if (error == EPIPE && !sigismember(&pending_before, SIGPIPE)) {
    timespec zero{};
    while (::sigtimedwait(&pipe_set, nullptr, &zero) < 0 && errno == EINTR) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  if (error != 0) return Error{ErrorKind::io_error, std::strerror(error), "stdin", error};
  return Ok{};
}

void ChildProcess::close_stdin() {
  impl_->stdin_fd.reset();
}

long ChildProcess::id() const {
  return impl_->pid;
}

void ChildProcess::ImplDeleter::operator()(Impl* impl) const {
  delete impl;
}

std::string describe(const ExitStatus& status) {
  if (status.crashed) return "died from " + signal_text(status.code);
  return "exited with status " + std::to_string(status.code);
}

Result<std::string> current_executable() {
  // The link itself, not where it points: exec of it works even after the file was replaced.
  constexpr const char* kSelf = "/proc/self/exe";
  if (::access(kSelf, X_OK) != 0) {
    return Error{ErrorKind::not_found, std::string("cannot find this executable: ") + std::strerror(errno), kSelf,
                 errno};
  }
  return std::string(kSelf);
}

Status replace_process(const std::vector<std::string>& argv) {
  if (argv.empty()) return Error{ErrorKind::not_found, "nothing to run", ""};
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));  // execv's type, not written
  args.push_back(nullptr);
  ::execv(args[0], args.data());
  return Error{errno == ENOENT ? ErrorKind::not_found : ErrorKind::io_error, std::strerror(errno), argv[0], errno};
}

struct ParentPipe::Impl {
  OwnedFd in;
  OwnedFd out;
};

ParentPipe ParentPipe::take() {
  ParentPipe pipe;
  pipe.impl_ = std::make_unique<Impl>();
  pipe.impl_->in = OwnedFd(::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3));
  pipe.impl_->out = OwnedFd(::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3));
  int devnull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (devnull >= 0) {
    ::dup2(devnull, STDIN_FILENO);
    ::dup2(devnull, STDOUT_FILENO);
    ::close(devnull);
  }
  return pipe;
}

ParentPipe::ParentPipe(ParentPipe&&) noexcept = default;
ParentPipe::~ParentPipe() = default;

bool ParentPipe::write_output(std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(impl_->out.get(), data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

size_t ParentPipe::read_input(char* buffer, size_t size) {
  for (;;) {
    ssize_t n = ::read(impl_->in.get(), buffer, size);
    if (n < 0 && errno == EINTR) continue;
    return n > 0 ? static_cast<size_t>(n) : 0;
  }
}

void exit_after(std::chrono::seconds seconds) {
  ::signal(SIGALRM, SIG_DFL);
  ::alarm(static_cast<unsigned>(seconds.count()));
}

void keep_descendants() {
#ifdef __linux__
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
}

struct InterruptsToChild::Saved {
  struct sigaction old_int {};
  struct sigaction old_quit {};
};

InterruptsToChild::InterruptsToChild() : saved_(std::make_unique<Saved>()) {
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGINT, &ignore, &saved_->old_int);
  ::sigaction(SIGQUIT, &ignore, &saved_->old_quit);
}

InterruptsToChild::~InterruptsToChild() {
  ::sigaction(SIGINT, &saved_->old_int, nullptr);
  ::sigaction(SIGQUIT, &saved_->old_quit, nullptr);
}

int shell_exit_status(const ExitStatus& status) {
  return status.crashed ? 128 + status.code : status.code;
}

bool pass_through(ChildStream to, std::string_view data) {
  const int fd = to == ChildStream::out ? STDOUT_FILENO : STDERR_FILENO;
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

}  // namespace gpudoctor
