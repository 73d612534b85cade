// The one launcher (platform/child_process.hpp): each test would fail were a part of it
// broken: bounds, deadlines over a whole process group, exit and signal mapping, stdin,
// descriptors, and starting children while another thread runs.
#include "platform/child_process.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

#include "explain/watched_command.hpp"
#include "gpu/isolated_child.hpp"
#include "test_files.hpp"

namespace gpudoctor {
namespace testing {
extern std::mutex g_task_lock;  // tests/test_main.cpp
}  // namespace testing
namespace {

using namespace std::chrono_literals;
using Clock = ChildProcess::Clock;

/// Gone, or a zombie nobody reaped yet (a container's init may be slow to): not running.
bool process_gone(pid_t pid) {
  if (::kill(pid, 0) != 0) return errno == ESRCH;
  std::string stat = testing::read_text("/proc/" + std::to_string(pid) + "/stat");
  size_t close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] == 'Z';
}

bool gone_within(pid_t pid, std::chrono::milliseconds limit) {
  auto until = Clock::now() + limit;
  while (Clock::now() < until) {
    if (process_gone(pid)) return true;
    std::this_thread::sleep_for(10ms);
  }
  return process_gone(pid);
}

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "gpudoctor-child-" + std::to_string(::getpid()) + "-" + name;
}

TEST(ChildProcess, ExitStatusAndSignalAreMapped) {
  auto seven = run_to_end({.argv = {"sh", "-c", "exit 7"}}, 5s, 1024);
  ASSERT_TRUE(seven) << seven.error().message;
  EXPECT_FALSE(seven->status.crashed);
  EXPECT_EQ(seven->status.code, 7);
  EXPECT_EQ(describe(seven->status), "exited with status 7");
  EXPECT_EQ(shell_exit_status(seven->status), 7);

  auto aborted = run_to_end({.argv = {"sh", "-c", "kill -ABRT $$"}}, 5s, 1024);
  ASSERT_TRUE(aborted) << aborted.error().message;
  EXPECT_TRUE(aborted->status.crashed);
  EXPECT_EQ(aborted->status.code, SIGABRT);
  EXPECT_EQ(describe(aborted->status), "died from SIGABRT (Aborted)");
  EXPECT_EQ(shell_exit_status(aborted->status), 128 + SIGABRT);
}

TEST(ChildProcess, MissingProgramsAndNonExecutablesAreNamed) {
  auto missing = ChildProcess::start({.argv = {"gpudoctor-no-such-program-xyz"}});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::not_found);
  EXPECT_EQ(missing.error().origin, "gpudoctor-no-such-program-xyz");
  auto missing_path = ChildProcess::start({.argv = {"/nonexistent/program"}});
  ASSERT_FALSE(missing_path);
  EXPECT_EQ(missing_path.error().kind, ErrorKind::not_found);
  auto directory = ChildProcess::start({.argv = {"/"}});
  ASSERT_FALSE(directory);
  EXPECT_EQ(directory.error().kind, ErrorKind::permission_denied);
  auto empty = ChildProcess::start({.argv = {}});
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().kind, ErrorKind::invalid_data);
}

TEST(ChildProcess, OutputIsBoundedWhileUnread) {
  auto child = ChildProcess::start({.argv = {"sh", "-c", "head -c 5000000 /dev/zero"}});
  ASSERT_TRUE(child);
  // Never taken: the launcher stops reading at its bound instead of growing. (Under load the
  // child may not have written that much yet: at most the bound, never more.)
  for (int i = 0; i < 100; ++i) child->wait(Clock::now() + 20ms);
  EXPECT_FALSE(child->ended());  // blocked on the full pipe
  size_t held = child->take_output(ChildStream::out).size();
  EXPECT_LE(held, ChildProcess::kMaxPendingBytes);
  EXPECT_GT(held, 0u);
  auto all = run_to_end({.argv = {"sh", "-c", "head -c 5000000 /dev/zero; echo tail >&2"}}, 10s, 4096);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->out.size(), 4096u);
  EXPECT_EQ(all->out_dropped, 5000000u - 4096u);
  EXPECT_EQ(all->err, "tail\n");
  EXPECT_EQ(all->err_dropped, 0u);
  // Review 44A, 09: the first and the last half are kept, the last from a whole line on: a
  // program's last words (a traceback, a result line) come after its chatter.
  auto lines =
      run_to_end({.argv = {"sh", "-c", "echo first; head -c 5000000 /dev/zero; echo; echo last words"}}, 10s, 4096);
  ASSERT_TRUE(lines);
  EXPECT_TRUE(lines->out.starts_with("first\n")) << lines->out.substr(0, 20);
  EXPECT_TRUE(lines->out.ends_with("\nlast words\n")) << lines->out.substr(lines->out.size() - 20);
  EXPECT_LE(lines->out.size(), 4096u);
  EXPECT_GT(lines->out_dropped, 5000000u - 4096u);
}

TEST(ChildProcess, DeadlineKillsTheWholeGroup) {
  // The grandchild holds the pipe and would outlive a kill of the child alone.
  std::string pid_file = temp_path("grandchild");
  auto start = Clock::now();
  auto r = run_to_end({.argv = {"sh", "-c", "sleep 30 & echo $! > '" + pid_file + "'; wait"}}, 1000ms, 1024);
  auto took = Clock::now() - start;
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::timeout);
  EXPECT_GE(took, 990ms);  // 1 s: the shell writes the pid file first, on a loaded CI too
  EXPECT_LT(took, 3500ms);
  pid_t grandchild = std::atoi(testing::read_text(pid_file).c_str());
  std::remove(pid_file.c_str());
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(gone_within(grandchild, 2s)) << "grandchild " << grandchild << " survived the deadline";
}

TEST(ChildProcess, KillReachesTheGroupAfterTheChildEnded) {
  auto child = ChildProcess::start({.argv = {"sh", "-c", "sleep 30 & echo $!"}});
  ASSERT_TRUE(child);
  std::string out;
  while (out.find('\n') == std::string::npos && child->wait(Clock::now() + 2s)) {
    out += child->take_output(ChildStream::out);
  }
  pid_t grandchild = std::atoi(out.c_str());
  ASSERT_GT(grandchild, 0);
  while (!child->ended()) child->wait(Clock::now() + 1s);
  EXPECT_FALSE(process_gone(grandchild));
  child->kill();
  EXPECT_TRUE(gone_within(grandchild, 2s));
}

// A signal that ends gpudoctor kills the groups of its running children, from a list of 256
// slots. An ended child's group must leave the list when it is reaped: else the list fills (a
// child started later would outlive Ctrl-C), and an ended group's id, which the system may give
// to an unrelated group, would be killed. Run in a forked helper, which the signal ends.
TEST(ChildProcess, AnEndingSignalReachesAChildStartedAfterHundredsHaveEnded) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t helper = ::fork();
  ASSERT_GE(helper, 0);
  if (helper == 0) {
    ::close(fds[0]);
    for (int i = 0; i < 300; ++i) {
      if (!run_to_end({.argv = {"true"}}, 10s, 64)) ::_exit(3);
    }
    auto sleeper = ChildProcess::start({.argv = {"sh", "-c", "echo $$; exec sleep 30"}});
    if (!sleeper) ::_exit(4);
    std::string out;
    while (out.find('\n') == std::string::npos && sleeper->wait(Clock::now() + 2s)) {
      out += sleeper->take_output(ChildStream::out);
    }
    const pid_t pid = std::atoi(out.c_str());
    if (::write(fds[1], &pid, sizeof pid) != static_cast<ssize_t>(sizeof pid)) ::_exit(5);
    ::close(fds[1]);
    ::raise(SIGTERM);
    ::_exit(6);  // not reached: the handler ends the helper with SIGTERM's own action
  }
  ::close(fds[1]);
  pid_t sleeper = 0;
  const ssize_t got = ::read(fds[0], &sleeper, sizeof sleeper);
  ::close(fds[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(helper, &status, 0), helper);
  ASSERT_EQ(got, static_cast<ssize_t>(sizeof sleeper)) << "the helper exited with " << status;
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  ASSERT_GT(sleeper, 0);
  EXPECT_TRUE(gone_within(sleeper, 3s)) << "child " << sleeper << " outlived the signal that ended its parent";
  if (!process_gone(sleeper)) ::kill(sleeper, SIGKILL);
}

TEST(ChildProcess, StdinIsTheNullDeviceUnlessPiped) {
  // `cat` would wait forever on an inherited terminal; on the null device it ends at once.
  auto null_in = run_to_end({.argv = {"sh", "-c", "cat; echo done"}}, 5s, 1024);
  ASSERT_TRUE(null_in);
  EXPECT_EQ(null_in->out, "done\n");

  auto child = ChildProcess::start({.argv = {"cat"}, .in = ChildStdio::pipe});
  ASSERT_TRUE(child);
  ASSERT_TRUE(child->write_stdin("through the pipe\n"));
  child->close_stdin();
  std::string out;
  auto until = Clock::now() + 5s;
  while ((!child->ended() || child->reading(ChildStream::out)) && Clock::now() < until) {
    child->wait(until);
    out += child->take_output(ChildStream::out);
  }
  EXPECT_EQ(out, "through the pipe\n");
  EXPECT_EQ(child->exit_status().code, 0);
}

TEST(ChildProcess, WritingToAChildThatIsGoneIsAnErrorNotSigpipe) {
  auto child = ChildProcess::start({.argv = {"sh", "-c", "exec 0<&-; exit 0"}, .in = ChildStdio::pipe});
  ASSERT_TRUE(child);
  while (!child->ended()) child->wait(Clock::now() + 1s);
  Status s = child->write_stdin("nobody reads this\n");
  ASSERT_FALSE(s);  // and this process is still alive to say so
  EXPECT_EQ(s.error().kind, ErrorKind::io_error);
  EXPECT_EQ(s.error().code, EPIPE);
}

TEST(ChildProcess, EnvironmentChanges) {
  ::setenv("GPUDOCTOR_TEST_UNSET_ME", "still here", 1);
  auto r = run_to_end({.argv = {"sh", "-c", "echo \"$GPUDOCTOR_TEST_SET-${GPUDOCTOR_TEST_UNSET_ME:-gone}\""},
                       .env = {{"GPUDOCTOR_TEST_SET", "set"}, {"GPUDOCTOR_TEST_UNSET_ME", std::nullopt}}},
                      5s, 1024);
  ::unsetenv("GPUDOCTOR_TEST_UNSET_ME");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->out, "set-gone\n");
}

TEST(ChildProcess, NoDescriptorLeaksIntoTheChild) {
  // One a careless library opened without close-on-exec: still not in the child.
#if !defined(__GLIBC__) || __GLIBC__ < 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ < 34)
  GTEST_SKIP() << "closing every inherited descriptor needs posix_spawn_file_actions_addclosefrom_np (glibc 2.34+)";
#endif
  int leaky = ::open("/dev/null", O_RDONLY);
  ASSERT_GE(leaky, 0);
  ASSERT_EQ(::dup2(leaky, 57), 57);
  ::close(leaky);
  auto r =
      run_to_end({.argv = {"sh", "-c", "if [ -e /proc/$$/fd/57 ]; then echo leaked; else echo clean; fi"}}, 5s, 1024);
  ::close(57);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->out, "clean\n");
}

std::set<int> open_descriptors() {
  std::set<int> fds;
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) {
    fds.insert(std::atoi(e.path().filename().c_str()));
  }
  return fds;
}

TEST(ChildProcess, OurOwnDescriptorsAreCloseOnExec) {
  // Matters to any other code that starts a program without closing everything first.
  std::set<int> before = open_descriptors();
  auto child = ChildProcess::start({.argv = {"cat"}, .in = ChildStdio::pipe});
  ASSERT_TRUE(child);
  std::set<int> after = open_descriptors();
  int ours = 0;
  for (int fd : after) {
    if (before.count(fd) != 0) continue;
    int flags = ::fcntl(fd, F_GETFD);
    if (flags < 0) continue;  // the directory listing's own descriptor, closed by now
    ++ours;
    EXPECT_NE(flags & FD_CLOEXEC, 0) << "descriptor " << fd << " is inherited by every exec";
  }
  EXPECT_GE(ours, 3);  // stdin, stdout and stderr pipes (and a pidfd where the kernel has them)
  child->close_stdin();
}

TEST(ChildProcess, StartsWhileAnotherThreadHoldsALock) {
  // The reason for starting a fresh process instead of fork(): a forked child inherits every
  // lock another thread held at that moment, held forever, and deadlocks when it takes one (a
  // loader's, an allocator's, a library's). Here a thread keeps a lock that the task body
  // takes, as watch's sampler or serve's HTTP threads will hold theirs.
  std::atomic<bool> stop{false};
  std::thread holder([&] {
    while (!stop) {
      {
        std::lock_guard<std::mutex> g(testing::g_task_lock);
        std::this_thread::sleep_for(2ms);
      }
      std::this_thread::yield();
    }
  });
  int ok = 0;
  auto start = Clock::now();
  for (int i = 0; i < 20; ++i) {
    auto outcomes = gpu::run_isolated({{"test-take-lock", {}}}, 3000ms);
    if (!outcomes[0].error && outcomes[0].output == "locked\n") ++ok;
  }
  stop = true;
  holder.join();
  EXPECT_EQ(ok, 20);
  EXPECT_LT(Clock::now() - start, 20s);
}

TEST(WatchedCommand, InterruptGoesToTheCommandNotToUs) {
  // The command stays in our process group, so a terminal's Ctrl-C reaches it; we ignore it
  // meanwhile and report what the command made of it. Sent here by the command itself.
  std::string seen;
  auto status = run_watched_command({"sh", "-c", "kill -INT $PPID; kill -INT $$; sleep 5"},
                                    [&](int, std::string_view chunk) { seen += chunk; });
  ASSERT_TRUE(status) << status.error().message;
  EXPECT_EQ(*status, 128 + SIGINT);
}

TEST(WatchedCommand, OutputIsObservedAndStatusKept) {
  std::string out;
  std::string err;
  auto status = run_watched_command({"sh", "-c", "echo to-out; echo to-err >&2; exit 4"},
                                    [&](int stream, std::string_view chunk) { (stream == 1 ? out : err) += chunk; });
  ASSERT_TRUE(status);
  EXPECT_EQ(*status, 4);
  EXPECT_EQ(out, "to-out\n");
  EXPECT_EQ(err, "to-err\n");
}

TEST(WindowsCommandLine, QuotesAsTheCRuntimeReadsBack) {
  EXPECT_EQ(windows_command_line({"nvidia-smi", "-q"}), "nvidia-smi -q");
  EXPECT_EQ(windows_command_line({"C:\\Program Files\\x.exe", ""}), "\"C:\\Program Files\\x.exe\" \"\"");
  EXPECT_EQ(windows_command_line({"a\"b"}), "\"a\\\"b\"");
  EXPECT_EQ(windows_command_line({"dir\\"}), "dir\\");  // no quoting, backslash literal
  EXPECT_EQ(windows_command_line({"dir with space\\"}), "\"dir with space\\\\\"");
  EXPECT_EQ(windows_command_line({"x\\\"y"}), "\"x\\\\\\\"y\"");
}

}  // namespace
}  // namespace gpudoctor
