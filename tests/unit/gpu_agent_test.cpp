// The GPU agent (gpu/gpu_agent.hpp) through the real exec path: the test binary started again
// as `--internal-task test-agent`, which serves the product's ops and test-only ones that
// crash, hang or die on request (tests/test_main.cpp).
#include "gpu/gpu_agent.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "gpu/internal_tasks.hpp"
#include "platform/process_runner.hpp"

namespace gpudoctor::gpu {
namespace {

using namespace std::chrono_literals;

AgentOptions test_agent() {
  AgentOptions o;
  o.task = "test-agent";
  return o;
}

TEST(GpuAgent, AnswersRequestsOneAfterAnother) {
  Agent agent(test_agent());
  ASSERT_TRUE(agent.start());
  for (int i = 0; i < 3; ++i) {
    auto lines = agent.request("echo", {"one", std::to_string(i)}, 5s);
    ASSERT_TRUE(lines) << lines.error().message;
    EXPECT_EQ(*lines, (std::vector<std::string>{"one", std::to_string(i)}));
  }
  EXPECT_EQ(agent.starts(), 1);  // one process answered them all
}

TEST(GpuAgent, AnswerLinesThatLookLikeTheEndMarkerArriveIntact) {
  Agent agent(test_agent());
  auto lines = agent.request("echo", {".", ".error not really", "..", ""}, 5s);
  ASSERT_TRUE(lines) << lines.error().message;
  EXPECT_EQ(*lines, (std::vector<std::string>{".", ".error not really", "..", ""}));
}

TEST(GpuAgent, UnknownOperationIsRefusedAndTheAgentStays) {
  Agent agent(test_agent());
  auto refused = agent.request("no-such-op", {}, 5s);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::unsupported);
  EXPECT_EQ(refused.error().message, "no operation named no-such-op");
  EXPECT_TRUE(agent.running());
  EXPECT_TRUE(agent.request("echo", {"still here"}, 5s));
  EXPECT_EQ(agent.starts(), 1);
}

// D19: a vendor library's stderr goes into the answer's diagnostics, not onto our terminal.
TEST(GpuAgent, StderrOfTheAgentIsKeptForTheReportNotPassedThrough) {
  char path[] = "/tmp/gpudoctor-agent-stderr-XXXXXX";
  int capture = ::mkstemp(path);
  ASSERT_GE(capture, 0);
  ::unlink(path);
  int saved = ::dup(STDERR_FILENO);
  ::dup2(capture, STDERR_FILENO);
  ChildOutcome answered;
  {
    Agent agent(test_agent());
    answered = agent.exchange("stderr", {}, 5s);
  }
  ::dup2(saved, STDERR_FILENO);
  ::close(saved);
  char buf[256] = {};
  ssize_t n = ::pread(capture, buf, sizeof buf - 1, 0);
  ::close(capture);
  EXPECT_EQ(n, 0) << "reached our stderr: " << buf;
  EXPECT_FALSE(answered.error.has_value());
  EXPECT_EQ(answered.output, "answered\n");
  EXPECT_NE(answered.diagnostics.find("NVRM: a vendor library talking on stderr"), std::string::npos)
      << answered.diagnostics;
}

TEST(GpuAgent, CrashIsAnErrorAndTheNextRequestRestartsIt) {
  Agent agent(test_agent());
  ChildOutcome crashed = agent.exchange("crash", {}, 5s);
  ASSERT_TRUE(crashed.error.has_value());
  EXPECT_EQ(crashed.error->kind, ErrorKind::crashed);
#if !defined(__SANITIZE_ADDRESS__)
  EXPECT_EQ(crashed.error->code, SIGSEGV);
  EXPECT_EQ(crashed.error->message, "child process died from SIGSEGV (Segmentation fault)");
#endif
  EXPECT_EQ(crashed.output, "about to crash\n");  // what it said before is kept
  EXPECT_FALSE(agent.running());
  auto after = agent.request("echo", {"again"}, 5s);
  ASSERT_TRUE(after) << after.error().message;
  EXPECT_EQ(*after, std::vector<std::string>{"again"});
  EXPECT_EQ(agent.starts(), 2);
}

TEST(GpuAgent, HangIsKilledAtTheRequestDeadline) {
  Agent agent(test_agent());
  ASSERT_TRUE(agent.start());
  auto start = std::chrono::steady_clock::now();
  // 1.5 s: under CI's loaded ASan stage a 300 ms deadline could fall before the line was read.
  ChildOutcome hung = agent.exchange("hang", {"said before hanging"}, 1500ms);
  auto took = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(hung.error.has_value());
  EXPECT_EQ(hung.error->kind, ErrorKind::timeout);
  EXPECT_EQ(hung.error->message, "no answer within 1500 ms; child process killed");
  EXPECT_EQ(hung.output, "said before hanging\n");
  EXPECT_GE(took, 1490ms);
  EXPECT_LT(took, 3500ms);
  EXPECT_TRUE(agent.request("echo", {"fresh"}, 5s));
  EXPECT_EQ(agent.starts(), 2);
}

TEST(GpuAgent, DeathWhileIdleIsRestartedOnceForTheNextRequest) {
  Agent agent(test_agent());
  auto answered = agent.request("die-soon", {}, 5s);
  ASSERT_TRUE(answered) << answered.error().message;
  // Gone (a zombie: we have not reaped it), and the Agent has not looked yet: the request
  // below finds the pipe broken, then starts a new agent once.
  const std::string stat = "/proc/" + std::to_string(agent.pid()) + "/stat";
  auto zombie = [&] {
    std::ifstream in(stat);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    size_t close = text.rfind(')');
    return close != std::string::npos && close + 2 < text.size() && text[close + 2] == 'Z';
  };
  for (int i = 0; i < 500 && !zombie(); ++i) std::this_thread::sleep_for(10ms);
  ASSERT_TRUE(zombie()) << "the agent did not die";
  auto lines = agent.request("echo", {"to a new agent"}, 5s);
  ASSERT_TRUE(lines) << lines.error().message;
  EXPECT_EQ(*lines, std::vector<std::string>{"to a new agent"});
  EXPECT_EQ(agent.starts(), 2);
}

TEST(GpuAgent, AProgramThatIsNoAgentIsNamed) {
  AgentOptions o;
  o.task = "test-echo";  // writes nothing and ends: not an agent
  Agent agent(o);
  Status s = agent.start();
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::crashed);
}

TEST(GpuAgent, NvmlOpAnswersAsTheOneShotTask) {
  // No NVML on this machine, or a real one: either way the agent's answer reads as a report.
  Agent agent(test_agent());
  NvmlReport r = query_nvml(agent, {"libgpudoctor-no-such-nvml.so.1"}, 5s);
  EXPECT_EQ(r.status, LibraryStatus::not_found);
  EXPECT_EQ(r.error, "libgpudoctor-no-such-nvml.so.1: cannot open shared object file: No such file or directory");
  CudaDriverReport c = query_cuda_driver(agent, {"libgpudoctor-no-such-cuda.so.1"}, 5s);
  EXPECT_EQ(c.status, LibraryStatus::not_found);
  EXPECT_EQ(agent.starts(), 1);
}

TEST(InternalTasks, TheProductTableNamesItsTasks) {
  std::vector<std::string> names;
  for (const TaskEntry& t : product_tasks()) names.emplace_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"nvml", "cuda-driver", "gpu-agent", "runtime-library", "verify-step",
                                             "cpu-bench", "gpu-bench"}));
}

TEST(InternalTasks, UnknownTaskEndsWithStatusTwo) {
  auto outcomes = run_isolated({{"no-such-task", {}}}, 5000ms);
  ASSERT_TRUE(outcomes[0].error.has_value());
  EXPECT_EQ(outcomes[0].error->kind, ErrorKind::crashed);
  EXPECT_EQ(outcomes[0].error->code, 2);
}

TEST(InternalTasks, GpudoctorRunsThemBeforeItsCommandLineAndHidesThem) {
  HostProcessRunner runner;
  auto task = runner.run({GPUDOCTOR_BINARY, "--internal-task", "nvml", "libgpudoctor-no-such-nvml.so.1"}, 10s);
  ASSERT_TRUE(task) << task.error().message;
  EXPECT_EQ(task->exit_code, 0) << task->err;  // CLI11 would have refused the flag (2)
  EXPECT_NE(task->out.find(R"({"call":"dlopen libgpudoctor-no-such-nvml.so.1"})"), std::string::npos) << task->out;
  auto help = runner.run({GPUDOCTOR_BINARY, "--help"}, 10s);
  ASSERT_TRUE(help);
  EXPECT_EQ(help->out.find("internal-task"), std::string::npos);
  auto unnamed = runner.run({GPUDOCTOR_BINARY, "--internal-task"}, 10s);
  ASSERT_TRUE(unnamed);
  EXPECT_EQ(unnamed->exit_code, 2);
}

}  // namespace
}  // namespace gpudoctor::gpu
