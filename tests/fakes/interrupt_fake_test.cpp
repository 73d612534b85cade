// gpudoctor ended by a signal while a GPU child hangs: the child, in a process group of its own
// (so the terminal's Ctrl-C does not reach it), must not outlive it. Against the fake driver's
// "hang" scenario, whose second nvmlDeviceGetName never returns.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include "platform/child_process.hpp"
#include "test_files.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;
using testing::read_text;
using namespace std::chrono_literals;

/// The state letter and parent of /proc/PID/stat; nullopt once the process is gone.
std::optional<std::pair<char, pid_t>> stat_of(pid_t pid) {
  const std::string stat = read_text("/proc/" + std::to_string(pid) + "/stat");
  const size_t close = stat.rfind(')');
  if (close == std::string::npos || close + 4 >= stat.size()) return std::nullopt;
  std::istringstream rest(stat.substr(close + 2));
  char state = 0;
  pid_t parent = 0;
  rest >> state >> parent;
  return std::make_pair(state, parent);
}

/// A living child of `parent`, waited for up to `limit`.
std::optional<pid_t> child_of(pid_t parent, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    for (const auto& entry : fs::directory_iterator("/proc")) {
      const std::string name = entry.path().filename();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      const pid_t pid = std::stoi(name);
      const auto st = stat_of(pid);
      if (st && st->second == parent && st->first != 'Z') return pid;
    }
    std::this_thread::sleep_for(20ms);
  }
  return std::nullopt;
}

bool dead_within(pid_t pid, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  for (;;) {
    const auto st = stat_of(pid);
    if (!st || st->first == 'Z' || st->first == 'X') return true;
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(20ms);
  }
}

TEST(EndingSignal, ASignalThatEndsGpudoctorKillsTheGpuChildItWasWaitingFor) {
  for (int sig : {SIGTERM, SIGINT}) {
    auto started = ChildProcess::start(
        {.argv = {GPUDOCTOR_BINARY, "watch", "--once", "--deadline-ms", "60000"},
         .env = {{"LD_LIBRARY_PATH", std::string(GPUDOCTOR_FAKE_LIB_DIR)},
                 {"GPUDOCTOR_FAKE_DRIVER", std::string(GPUDOCTOR_FAKE_SCENARIOS_DIR) + "/hang.ini"}}});
    ASSERT_TRUE(started) << started.error().message;
    ChildProcess& gpudoctor = *started;
    const auto parent = static_cast<pid_t>(gpudoctor.id());
    // The NVML agent: it hangs in the second GPU's name for the next minute.
    const auto agent = child_of(parent, 20s);
    ASSERT_TRUE(agent.has_value()) << "no child of gpudoctor appeared";
    std::this_thread::sleep_for(300ms);  // into the hanging call
    ::kill(parent, sig);
    const auto until = std::chrono::steady_clock::now() + 10s;
    while (!gpudoctor.ended() && std::chrono::steady_clock::now() < until) gpudoctor.wait(until);
    ASSERT_TRUE(gpudoctor.ended()) << "gpudoctor did not end";
    EXPECT_TRUE(gpudoctor.exit_status().crashed) << "ended by the signal, as before";
    EXPECT_EQ(gpudoctor.exit_status().code, sig);
    const bool agent_dead = dead_within(*agent, 5s);
    if (!agent_dead) ::kill(*agent, SIGKILL);  // never leave it hanging on the machine
    EXPECT_TRUE(agent_dead) << "the hung child " << *agent << " outlived gpudoctor (signal " << sig << ")";
  }
}

}  // namespace
}  // namespace gpudoctor
