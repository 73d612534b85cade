// The main of every GoogleTest binary. It first answers `TEST_BINARY --internal-task NAME ...`: isolated GPU
// tasks start the running executable again, so the test binary must be able to run them, the
// product's and the test-only ones below, through the same exec path gpudoctor takes.
// Without it, a test binary started as a task would run every test again, in the child.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gpu/gpu_agent.hpp"
#include "gpu/internal_tasks.hpp"

namespace gpudoctor::testing {
/// Held by a thread of the parent in ChildProcess.StartsWhileAnotherThreadHoldsALock: a forked
/// child would inherit it locked forever; a started one has its own.
std::mutex g_task_lock;
}  // namespace gpudoctor::testing

namespace gpudoctor::gpu {
namespace {

void say_args(const std::vector<std::string>& args, ChildChannel& out) {
  for (const auto& a : args) out.write_line(a);
}
void sleep_forever(const std::vector<std::string>& args, ChildChannel& out) {
  out.write_line(args.empty() ? "before" : args[0]);
  for (;;) ::pause();
}
void abort_now(const std::vector<std::string>& /*args*/, ChildChannel& out) {
  out.write_line("about to abort");
  ::raise(SIGABRT);
}
void exit_seven(const std::vector<std::string>& /*args*/, ChildChannel& /*out*/) {
  ::_exit(7);
}
void throw_something(const std::vector<std::string>& /*args*/, ChildChannel& /*out*/) {
  throw std::runtime_error("must end the child, not unwind anywhere else");
}
void write_a_lot(const std::vector<std::string>& /*args*/, ChildChannel& out) {
  std::string line(1000, 'x');
  for (int i = 0; i < 200; ++i) out.write_line(line);
}
void take_lock(const std::vector<std::string>& /*args*/, ChildChannel& out) {
  std::lock_guard<std::mutex> hold(gpudoctor::testing::g_task_lock);
  out.write_line("locked");
}
void print_to_stdout(const std::vector<std::string>& /*args*/, ChildChannel& out) {
  std::printf("a vendor library talking on stdout\n");
  std::fflush(stdout);
  out.write_line("done");
}
void print_to_stderr(const std::vector<std::string>& /*args*/, ChildChannel& out) {
  std::fprintf(stderr,
               "\x1b]0;owned\x07"
               "Failed to initialize NVML: Driver/library version mismatch\n");
  std::fflush(stderr);
  out.write_line("done");
}
// A library that prints pages of warnings (200 KiB, over kMaxChildDiagnosticBytes) and then
// the real error, last.
void flood_stderr_then_error(const std::vector<std::string>& /*args*/, ChildChannel& out) {
  for (int i = 0; i < 4000; ++i) std::fprintf(stderr, "warning %04d: a deprecated call, nothing to worry about\n", i);
  std::fprintf(stderr, "error: CUDA_ERROR_OUT_OF_MEMORY, the real error comes last\n");
  std::fflush(stderr);
  out.write_line("done");
}

// A vendor library's helper that leaves the task's process group (setsid) and would outlive
// the deadline's kill: either as the task's own child, or orphaned by a parent that exited
// (fork twice), which only keep_descendants keeps in the task's tree.
void start_escaping_grandchild(ChildChannel& out) {
  pid_t g = ::fork();
  if (g == 0) {
    ::setsid();
    out.write_line(std::to_string(::getpid()));
    for (;;) ::pause();
  }
}
void setsid_child_then_hang(const std::vector<std::string>& /*args*/, ChildChannel& out) {
  start_escaping_grandchild(out);
  for (;;) ::pause();
}
void orphan_setsid_grandchild_then_hang(const std::vector<std::string>& /*args*/, ChildChannel& out) {
  pid_t a = ::fork();
  if (a == 0) {
    start_escaping_grandchild(out);
    ::_exit(0);
  }
  ::waitpid(a, nullptr, 0);
  for (;;) ::pause();
}

// Agent ops that misbehave on request, to show what the parent makes of it.
const AgentOp kTestAgentOps[] = {
    {"echo", [](AgentState&, const std::vector<std::string>& args, ChildChannel& out) { say_args(args, out); }},
    {"crash",
     [](AgentState&, const std::vector<std::string>&, ChildChannel& out) {
       out.write_line("about to crash");
       ::raise(SIGSEGV);
     }},
    {"hang", [](AgentState&, const std::vector<std::string>& args, ChildChannel& out) { sleep_forever(args, out); }},
    {"stderr",
     [](AgentState&, const std::vector<std::string>&, ChildChannel& out) {
       std::fprintf(stderr, "NVRM: a vendor library talking on stderr\n");
       std::fflush(stderr);
       out.write_line("answered");
     }},
    {"die-soon",
     [](AgentState&, const std::vector<std::string>&, ChildChannel& out) {
       // Answers, then dies while idle, as a driver fault between requests would.
       std::thread([] {
         std::this_thread::sleep_for(std::chrono::milliseconds(50));
         std::_Exit(9);
       }).detach();
       out.write_line("answered");
     }},
};

void test_agent(const std::vector<std::string>& /*args*/, ChildChannel& out) {
  std::vector<AgentOp> ops(agent_ops().begin(), agent_ops().end());
  ops.insert(ops.end(), std::begin(kTestAgentOps), std::end(kTestAgentOps));
  serve_agent(ops, out);
}

const TaskEntry kTestTasks[] = {
    {"test-echo", &say_args},
    {"test-hang", &sleep_forever},
    {"test-abort", &abort_now},
    {"test-exit7", &exit_seven},
    {"test-throw", &throw_something},
    {"test-flood", &write_a_lot},
    {"test-chatty", &print_to_stdout},
    {"test-agent", &test_agent},
    {"test-take-lock", &take_lock},
    {"test-stderr", &print_to_stderr},
    {"test-stderr-flood", &flood_stderr_then_error},
    {"test-setsid-child", &setsid_child_then_hang},
    {"test-setsid-orphan", &orphan_setsid_grandchild_then_hang},
};

}  // namespace
}  // namespace gpudoctor::gpu

int main(int argc, char** argv) {
  gpudoctor::gpu::run_internal_task(argc, argv, gpudoctor::gpu::kTestTasks);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
