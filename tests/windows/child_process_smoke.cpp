// The Windows launcher (platform/child_process_win32.cpp) run for real, under wine, by
// scripts/windows-smoke.sh: exit codes, argument quoting, environment changes, not_found, a
// deadline kill through the job object, a crash as an NTSTATUS, and an internal task's pipes.
// The program starts itself in the modes below. Not built by CMake (no Windows build yet).
#include <windows.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "platform/child_process.hpp"

using namespace gpudoctor;
using namespace std::chrono_literals;

static int failures = 0;
#define CHECK(cond)                                       \
  do {                                                    \
    if (!(cond)) {                                        \
      std::printf("FAIL line %d: %s\n", __LINE__, #cond); \
      ++failures;                                         \
    } else {                                              \
      std::printf("ok   %s\n", #cond);                    \
    }                                                     \
  } while (0)

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "sleep") {
    std::printf("sleeping\n");
    std::fflush(stdout);
    ::Sleep(30000);
    return 0;
  }
  if (mode == "crash") {
    *static_cast<volatile int*>(nullptr) = 1;
    return 0;
  }
  if (mode == "exit7") return 7;
  if (mode == "env") {
    const char* x = std::getenv("GPUDOCTOR_X");
    const char* y = std::getenv("GPUDOCTOR_Y");
    std::printf("%s-%s\n", x ? x : "none", y ? y : "none");
    return 0;
  }
  if (mode == "args") {
    for (int i = 2; i < argc; ++i) std::printf("[%s]", argv[i]);
    std::printf("\n");
    return 0;
  }
  if (mode == "task") {
    ParentPipe pipe = ParentPipe::take();
    std::printf("noise on stdout\n");
    std::fflush(stdout);
    std::string line;
    while (pipe.read_line(line, 1024)) pipe.write_line("got " + line);
    pipe.write_line("clean");
    return 0;
  }
  auto self = current_executable();
  CHECK(self.has_value());
  std::printf("self = %s\n", self ? self->c_str() : "?");
  const std::string& exe = *self;

  auto r = run_to_end({.argv = {"smoke", "exit7"}, .program = exe}, 10s, 1024);
  CHECK(r.has_value() && !r->status.crashed && r->status.code == 7);

  auto a = run_to_end({.argv = {"smoke", "args", "a b", "c\"d", "e\\", ""}, .program = exe}, 10s, 1024);
  CHECK(a.has_value());
  if (a) std::printf("     args -> %s", a->out.c_str());
  CHECK(a.has_value() && a->out == "[a b][c\"d][e\\][]\r\n");

  auto e = run_to_end(
      {.argv = {"smoke", "env"}, .program = exe, .env = {{"GPUDOCTOR_X", "set"}, {"GPUDOCTOR_Y", std::nullopt}}}, 10s,
      1024);
  CHECK(e.has_value() && e->out == "set-none\r\n");

  auto missing = ChildProcess::start({.argv = {"gpudoctor-no-such-program-xyz.exe"}});
  CHECK(!missing.has_value() && missing.error().kind == ErrorKind::not_found);
  if (!missing) std::printf("     %s\n", missing.error().message.c_str());

  auto start = std::chrono::steady_clock::now();
  auto t = run_to_end({.argv = {"smoke", "sleep"}, .program = exe}, 500ms, 1024);
  auto took = std::chrono::steady_clock::now() - start;
  CHECK(!t.has_value() && t.error().kind == ErrorKind::timeout);
  CHECK(took < 5s);
  std::printf("     timeout took %lld ms\n",
              static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(took).count()));

  auto c = run_to_end({.argv = {"smoke", "crash"}, .program = exe}, 10s, 1024);
  CHECK(c.has_value() && c->status.crashed);
  if (c) std::printf("     crash: %s\n", describe(c->status).c_str());

  auto task = ChildProcess::start(
      {.argv = {"smoke", "task"}, .program = exe, .in = ChildStdio::pipe, .err = ChildStdio::inherit});
  CHECK(task.has_value());
  if (task) {
    CHECK(static_cast<bool>(task->write_stdin("hello\n")));
    task->close_stdin();
    std::string out;
    auto until = std::chrono::steady_clock::now() + 10s;
    while ((!task->ended() || task->reading(ChildStream::out)) && std::chrono::steady_clock::now() < until) {
      task->wait(until);
      out += task->take_output(ChildStream::out);
    }
    std::printf("     task said: %s", out.c_str());
    CHECK(out == "got hello\nclean\n");
  }
  std::printf("%d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
