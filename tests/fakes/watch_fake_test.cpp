// watch and its sampler against the fake libnvidia-ml.so.1 fed a recorded time series
// (scenarios/watch_series.ini), through the real path: the GPU agent child, dlopen, /proc.
// Each test sets GPUDOCTOR_FAKE_DRIVER for the agents and gpudoctor processes it starts.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "monitor/sampler.hpp"
#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

using namespace std::chrono_literals;
using testing::run_gpudoctor;

std::string scenario(const std::string& name) {
  return std::string(GPUDOCTOR_FAKE_SCENARIOS_DIR) + "/" + name + ".ini";
}

class WatchFake : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* path = std::getenv("LD_LIBRARY_PATH");
    if (path == nullptr || std::string(path) != GPUDOCTOR_FAKE_LIB_DIR) {
      GTEST_SKIP() << "needs LD_LIBRARY_PATH=" << GPUDOCTOR_FAKE_LIB_DIR << " from process start; run through ctest";
    }
    dir_ = ::testing::TempDir() + "watch-fake-XXXXXX";
    ASSERT_NE(::mkdtemp(dir_.data()), nullptr);
  }
  void TearDown() override {
    ::unsetenv("GPUDOCTOR_FAKE_DRIVER");
    if (!dir_.empty()) std::system(("rm -rf " + testing::shell_quote(dir_)).c_str());
  }
  static void use(const std::string& scenario_path) { ::setenv("GPUDOCTOR_FAKE_DRIVER", scenario_path.c_str(), 1); }
  std::string write(const std::string& name, const std::string& text) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  std::string dir_;
};

bool has(const Snapshot& s, const std::string& id) {
  for (const auto& d : s.diagnoses) {
    if (d.id == id) return true;
  }
  return false;
}

TEST_F(WatchFake, SnapshotsFollowTheRecordedSeries) {
  use(scenario("watch_series"));
  monitor::Sampler sampler;
  std::vector<SnapshotPtr> got;
  for (int i = 0; i < 5; ++i) got.push_back(sampler.sample());
  for (const auto& s : got) {
    ASSERT_EQ(s->status, LibraryStatus::ok) << s->error;
    ASSERT_EQ(s->gpus.size(), 2U);
  }
  EXPECT_EQ(got[0]->driver_version, "550.54.15");
  const GpuSample& first = got[0]->gpus[0];
  EXPECT_EQ(first.uuid, "GPU-4a2b8c1e-6f0d-4e6a-9a51-3c7d2e9b1f00");
  EXPECT_EQ(first.pci_bus_id, "0000:18:00.0");
  EXPECT_EQ(first.gpu_util_percent, 97U);
  EXPECT_EQ(first.memory_used_bytes, 42949672960ULL);
  EXPECT_EQ(first.temperature_c, 71U);
  EXPECT_EQ(first.power_w, 650.0);
  EXPECT_EQ(first.power_limit_w, 700.0);
  EXPECT_EQ(first.sm_clock_mhz, 1980U);
  EXPECT_EQ(first.throttle_reasons, 0U);  // a real "none"
  EXPECT_EQ(first.ecc_uncorrected_volatile, 0U);
  EXPECT_EQ(first.retired_pages_single_bit, 0U);
  EXPECT_EQ(first.retired_pages_double_bit, 0U);
  EXPECT_EQ(got[4]->gpus[0].retired_pages_double_bit, 1U);  // a count query with no buffer
  EXPECT_EQ(got[4]->gpus[0].gpu_util_percent, 10U);
  EXPECT_EQ(got[4]->gpus[0].throttle_reasons, throttle::kSwThermalSlowdown | throttle::kHwThermalSlowdown);
  // GPU 1's card reports no clocks and no throttle reasons: unknown, not zero.
  const GpuSample& second = got[4]->gpus[1];
  EXPECT_FALSE(second.sm_clock_mhz);
  EXPECT_FALSE(second.throttle_reasons);
  EXPECT_FALSE(second.ecc_uncorrected_volatile);
  EXPECT_FALSE(second.retired_pages_double_bit);
  ASSERT_TRUE(second.processes);
  ASSERT_EQ(second.processes->size(), 2U);
  EXPECT_EQ(second.processes->at(1).pid, 3999903U);
  EXPECT_FALSE(second.processes->at(1).used_memory_bytes);  // NVML's "not available"
  EXPECT_TRUE(second.problems.empty());
  // One agent answered every sample: NVML stayed loaded in it.
  EXPECT_EQ(got[4]->agent_starts, 1);
  EXPECT_TRUE(has(*got[4], "watch-thermal-throttling"));
  EXPECT_TRUE(has(*got[4], "watch-memory-held-by-others"));
  EXPECT_FALSE(has(*got[0], "watch-thermal-throttling"));
}

TEST_F(WatchFake, GpuThatStopsAnsweringIsDiagnosedAndTheAgentRestarted) {
  use(write("hang.ini",
            "[nvml]\ndriver_version = 550.54.15\nhang_after_samples = 2\n[device]\nname = NVIDIA "
            "A100\nuuid = GPU-x\nmemory_total_bytes = 1000\ngpu_util = 40\n"));
  monitor::SamplerOptions options;
  options.deadline = 2000ms;  // an agent's start under ASan on a loaded machine, with room
  monitor::Sampler sampler(options);
  EXPECT_EQ(sampler.sample()->status, LibraryStatus::ok);
  EXPECT_EQ(sampler.sample()->status, LibraryStatus::ok);
  const auto before = std::chrono::steady_clock::now();
  SnapshotPtr hung = sampler.sample();
  EXPECT_LT(std::chrono::steady_clock::now() - before, 10s);  // bounded by the deadline
  EXPECT_EQ(hung->status, LibraryStatus::timeout) << hung->error;
  EXPECT_TRUE(has(*hung, "watch-gpu-not-answering"));
  // The next sample starts a fresh agent, whose NVML answers again.
  SnapshotPtr again = sampler.sample();
  EXPECT_EQ(again->status, LibraryStatus::ok) << again->error;
  EXPECT_EQ(again->agent_starts, 2);
  EXPECT_FALSE(has(*again, "watch-gpu-not-answering"));
}

// Found in review (2026-12-06): under `serve`, a GPU that hung for a sample and answered again
// after the agent's restart never showed: the next sample followed the failed one at once, so the
// failure was published for a few milliseconds, and scrapes saw gpudoctor_gpu_query_up 1 and no
// watch-gpu-not-answering throughout. A failed sample now stays published for one interval, and a
// counter keeps every failure for a scraper that came too late.
TEST_F(WatchFake, AHangThatIsOverByTheNextSampleStaysVisibleForAnInterval) {
  use(write("hang-once.ini",
            "[nvml]\ndriver_version = 550.54.15\nhang_after_samples = 1\n[device]\nname = NVIDIA "
            "A100\nuuid = GPU-x\nmemory_total_bytes = 1000\ngpu_util = 40\n"));
  monitor::SamplerOptions options;
  // A deadline longer than the interval, as `serve --interval 0.5 --deadline-ms 1000`: the hung
  // sample ends after the next one was due.
  options.deadline = 1000ms;
  constexpr auto kInterval = 500ms;
  monitor::SamplingLoop loop(options, kInterval);
  // Every snapshot the loop publishes, in order, until one after a failure.
  std::vector<SnapshotPtr> seen;
  const auto give_up = std::chrono::steady_clock::now() + 20s;
  while (std::chrono::steady_clock::now() < give_up) {
    SnapshotPtr s = loop.latest();
    if (s && (seen.empty() || seen.back() != s)) seen.push_back(s);
    if (seen.size() >= 2 && seen[seen.size() - 2]->status == LibraryStatus::timeout) break;
    std::this_thread::sleep_for(5ms);
  }
  size_t failed = 0;
  while (failed < seen.size() && seen[failed]->status != LibraryStatus::timeout) ++failed;
  ASSERT_LT(failed + 1, seen.size()) << "no sample timed out and was followed by another";
  EXPECT_TRUE(has(*seen[failed], "watch-gpu-not-answering"));
  // The next sample began an interval after the failed one ended (its deadline after it began).
  const auto gap = std::chrono::milliseconds(seen[failed + 1]->time_ms - seen[failed]->time_ms);
  EXPECT_GE(gap, options.deadline + kInterval - 150ms) << gap.count() << " ms";
  EXPECT_GE(loop.failed_samples(), 1U);
}

/// A child running `script` under /bin/sh.
pid_t start_shell(const char* script) {
  pid_t pid = ::fork();
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", script, static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

TEST_F(WatchFake, InputBoundJobIsFoundFromItsRealCpuUse) {
  // Two idle GPUs: on GPU 0 a job that keeps a core busy, on GPU 1 one that sleeps.
  pid_t busy = start_shell("while :; do :; done");
  pid_t sleeping = start_shell("exec sleep 60");
  ASSERT_GT(busy, 0);
  ASSERT_GT(sleeping, 0);
  const std::string gpu =
      "[device]\nname = NVIDIA A100\nmemory_total_bytes = 85520809984\n"
      "memory_used_bytes = 10737418240\ngpu_util = 3,6,2,4,5\n";
  use(write("starved.ini", "[nvml]\ndriver_version = 550.54.15\n" + gpu +
                               "uuid = GPU-busy\nprocesses = " + std::to_string(busy) + ":10737418240\n" + gpu +
                               "uuid = GPU-sleep\nprocesses = " + std::to_string(sleeping) + ":10737418240\n"));
  monitor::SamplerOptions options;
  // Two cores shared with parallel tests (load average 8 seen): the busy job may get a tenth of
  // a core, the sleeping one gets none; the threshold sits between them.
  options.diagnosis.busy_cpu_percent = 5;
  monitor::Sampler sampler(options);
  SnapshotPtr last;
  for (int i = 0; i < 5; ++i) {
    last = sampler.sample();
    std::this_thread::sleep_for(300ms);
  }
  for (pid_t pid : {busy, sleeping}) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
  }
  ASSERT_EQ(last->status, LibraryStatus::ok) << last->error;
  const auto& p = last->gpus.at(0).processes->at(0);
  EXPECT_NE(p.command.find("while :; do :; done"), std::string::npos) << p.command;
  ASSERT_TRUE(p.cpu_percent);
  EXPECT_GT(*p.cpu_percent, 5.0);
  const auto& idle = last->gpus.at(1).processes->at(0);
  ASSERT_TRUE(idle.cpu_percent);
  EXPECT_LT(*idle.cpu_percent, 5.0);
  // Exactly one verdict, naming the busy job.
  std::vector<const Finding*> verdicts;
  for (const auto& d : last->diagnoses) {
    if (d.id == "watch-input-bound") verdicts.push_back(&d);
  }
  ASSERT_EQ(verdicts.size(), 1U);
  EXPECT_NE(verdicts[0]->title.find("GPU 0 "), std::string::npos) << verdicts[0]->title;
  EXPECT_NE(verdicts[0]->title.find("PID " + std::to_string(busy)), std::string::npos) << verdicts[0]->title;
  EXPECT_FALSE(has(*last, "watch-gpu-bound"));
}

/// Times and the host's own readings change from run to run; everything else is the golden.
std::string normalise(std::string text) {
  text = std::regex_replace(text, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)"), "TIME");
  text = std::regex_replace(text, std::regex(R"(host cpu \S+  mem \S+ of \S+ GiB free)"), "host HOST");
  return text;
}

TEST_F(WatchFake, PlainModeMatchesTheGolden) {
  use(scenario("watch_series"));
  auto r = run_gpudoctor({"watch", "-l", "0.05", "--count", "5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string golden_path = std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/golden/watch/watch_series.txt";
  const std::string got = normalise(r.out);
  if (std::getenv("GPUDOCTOR_UPDATE_GOLDEN") != nullptr) std::ofstream(golden_path) << got;
  std::ifstream in(golden_path);
  std::stringstream golden;
  golden << in.rdbuf();
  EXPECT_EQ(got, golden.str()) << "regenerate with GPUDOCTOR_UPDATE_GOLDEN=1 after a reviewed change";
}

TEST_F(WatchFake, CsvAndJsonlLogs) {
  use(scenario("watch_series"));
  const std::string csv = dir_ + "/log.csv";
  const std::string jsonl = dir_ + "/log.jsonl";
  auto r = run_gpudoctor({"watch", "-l", "0.05", "--count", "3", "--csv", csv, "--jsonl", jsonl});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream c(csv);
  std::vector<std::string> rows;
  for (std::string line; std::getline(c, line);) rows.push_back(line);
  ASSERT_EQ(rows.size(), 1U + 3 * 2);  // header, then two GPUs per sample
  EXPECT_TRUE(rows[0].starts_with("time,gpu,uuid,name,gpu_util_percent,"));
  EXPECT_NE(rows[1].find(",0,GPU-4a2b8c1e-6f0d-4e6a-9a51-3c7d2e9b1f00,NVIDIA H100 80GB HBM3,97,60,"), std::string::npos)
      << rows[1];
  EXPECT_NE(rows[6].find(",1,GPU-9e1f3d5a-2b7c-4c8d-8e0f-1a2b3c4d5e6f,NVIDIA H100 80GB HBM3,55,"), std::string::npos)
      << rows[6];
  std::ifstream j(jsonl);
  std::vector<nlohmann::json> lines;
  for (std::string line; std::getline(j, line);) lines.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(lines.size(), 3U);
  EXPECT_EQ(lines[2]["gpus"][0]["temperature_c"], 88);
  EXPECT_TRUE(lines[2]["gpus"][1]["sm_clock_mhz"].is_null());
  EXPECT_EQ(lines[2]["diagnoses"][0]["id"], "watch-thermal-throttling");
}

TEST_F(WatchFake, OnceWithoutADriverSaysSoAndFails) {
  use(dir_ + "/no-such-scenario.ini");  // the fake's "unknown error" from nvmlInit
  auto r = run_gpudoctor({"watch", "--once"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("GPUs not read: nvmlInit: NVML_ERROR_UNKNOWN (init-failed)"), std::string::npos) << r.out;
}

// Review 43A item 01: a GPU whose every call answers NVML_ERROR_GPU_IS_LOST (or whose UUID read
// alone does, the error_on_one_call scenario) was printed as n/a readings, no diagnosis, exit 0.
TEST_F(WatchFake, LostGpuIsDiagnosedAndFailsTheExitStatus) {
  for (const char* name : {"gpu_lost", "error_on_one_call"}) {
    use(scenario(name));
    auto r = run_gpudoctor({"watch", "--once"});
    EXPECT_EQ(r.exit_code, 1) << name << r.out << r.err;
    const std::regex diagnosis(
        "\n✗ GPU 1 (\\(NVIDIA H100 80GB HBM3\\) )?has fallen off the bus: NVML cannot reach it "
        "\\[watch-gpu-lost\\]\n");
    EXPECT_TRUE(std::regex_search(r.out, diagnosis)) << name << r.out;
    EXPECT_EQ(r.out.find("GPU 0 has fallen"), std::string::npos) << name << r.out;
  }
  // The JSON says which GPU and why, for a log.
  use(scenario("gpu_lost"));
  auto r = run_gpudoctor({"--json", "watch", "--once"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["gpus"][1]["lost"], "NVML_ERROR_GPU_IS_LOST");
  EXPECT_FALSE(j["gpus"][0].contains("lost"));
}

// Review 43A item 04: the ECC counters were read but neither printed nor diagnosed.
TEST_F(WatchFake, UncorrectedEccErrorsAndRetiredPagesAreShownAndDiagnosed) {
  use(scenario("ecc_errors"));
  auto r = run_gpudoctor({"watch", "--once"});
  EXPECT_EQ(r.exit_code, 0) << "the GPUs were read: " << r.out << r.err;
  EXPECT_NE(r.out.find("  ecc: uncorrected 3 since the driver loaded  retired pages 1 single-bit, 1 double-bit"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("✗ GPU 1 (NVIDIA H100 80GB HBM3) had 3 uncorrected ECC error(s) since the driver loaded "
                       "[watch-ecc-uncorrected]"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("[watch-memory-retired]"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("GPU 0 (NVIDIA H100 80GB HBM3) had"), std::string::npos) << r.out;
}

// Session 44: the doctor read the same counters and still printed "✓" for a GPU with uncorrected
// ECC errors and retired pages (its JSON, serve's /report.json and fleet --from alike).
TEST_F(WatchFake, TheDoctorReportsUncorrectedEccErrorsAndRetiredPages) {
  use(scenario("ecc_errors"));
  auto r = run_gpudoctor({"--json"});
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  std::vector<std::string> seen;
  for (const auto& f : r.json["findings"]) {
    const std::string id = f["id"];
    if (id != "gpu-ecc-uncorrected" && id != "gpu-memory-retired") continue;
    seen.push_back(id + " " + f["severity"].get<std::string>());
    EXPECT_NE(f["title"].get<std::string>().find("GPU-9e1f3d5a-2b7c-4c8d-8e0f-1a2b3c4d5e6f"), std::string::npos)
        << "the second GPU's, not the first's: " << f.dump();
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"gpu-ecc-uncorrected error", "gpu-memory-retired info"}));
  // Near miss: no ECC counts (healthy.ini answers "not supported"): nothing said.
  use(scenario("healthy"));
  auto plain = run_gpudoctor({"--json"});
  EXPECT_EQ(plain.out.find("gpu-ecc-uncorrected"), std::string::npos);
  EXPECT_EQ(plain.out.find("gpu-memory-retired"), std::string::npos);
}

/// The terminal UI in a real terminal: tmux on a private server socket, its screen captured.
class WatchTui : public WatchFake {
 protected:
  void SetUp() override {
    WatchFake::SetUp();
    if (IsSkipped()) return;
    if (testing::run_shell("command -v tmux").exit_code != 0) {
      GTEST_SKIP() << "SKIPPED: tmux is not installed (scripts/setup-debian.sh test): the terminal UI is untested";
    }
    tmux_ = "tmux -L gpudoctor-test-" + std::to_string(::getpid()) + " ";
  }
  void TearDown() override {
    if (!tmux_.empty()) testing::run_shell(tmux_ + "kill-server 2>/dev/null");
    WatchFake::TearDown();
  }
  std::string screen() { return testing::run_shell(tmux_ + "capture-pane -p -t tui").out; }
  /// The screen once it holds `part`, or what it held after 15 s.
  std::string wait_for(const std::string& part) {
    std::string text;
    for (int i = 0; i < 150; ++i) {
      text = screen();
      if (text.find(part) != std::string::npos) break;
      std::this_thread::sleep_for(100ms);
    }
    return text;
  }
  std::string tmux_;
};

TEST_F(WatchTui, PanelsSparklinesProcessesDiagnosesResizeAndQuit) {
  const std::string command = "env GPUDOCTOR_FAKE_DRIVER=" + testing::shell_quote(scenario("watch_series")) +
                              " LD_LIBRARY_PATH=" + testing::shell_quote(GPUDOCTOR_FAKE_LIB_DIR) + " TERM=xterm " +
                              testing::shell_quote(GPUDOCTOR_BINARY) + " watch; echo EXIT=$?; sleep 60";
  auto started = testing::run_shell(tmux_ + "new-session -d -s tui -x 100 -y 40 " + testing::shell_quote(command));
  ASSERT_EQ(started.exit_code, 0) << started.err;
  // Five samples, one a second: by then GPU 0 is throttled by heat (the recorded series).
  std::string text = wait_for("slowed down by heat");
  EXPECT_NE(text.find("gpudoctor watch  driver 550.54.15"), std::string::npos) << text;
  EXPECT_NE(text.find("GPU 0 NVIDIA H100 80GB HBM3"), std::string::npos) << text;
  EXPECT_NE(text.find("GPU 1 NVIDIA H100 80GB HBM3  util 55%"), std::string::npos) << text;
  EXPECT_NE(text.find("  util  ██▂"), std::string::npos) << text;  // 97%, 96%, then 12%
  EXPECT_NE(text.find("   1  3999903       n/a"), std::string::npos) << text;
  EXPECT_NE(text.find("! GPU 0 (NVIDIA H100 80GB HBM3) is slowed down by heat"), std::string::npos) << text;

  // Narrower: every line is cut at the new width, none wraps into the next.
  ASSERT_EQ(testing::run_shell(tmux_ + "resize-window -t tui -x 50 -y 20").exit_code, 0);
  std::this_thread::sleep_for(1500ms);
  text = screen();
  EXPECT_NE(text.find("GPU 1 NVIDIA H100 80GB HBM3  util 55%"), std::string::npos) << text;
  std::istringstream lines(text);
  for (std::string l; std::getline(lines, l);) {
    size_t cells = 0;
    for (unsigned char c : l) cells += (c & 0xC0U) != 0x80U ? 1 : 0;
    EXPECT_LE(cells, 50U) << l;
  }
  EXPECT_EQ(text.find("(q quits)"), std::string::npos) << "the header wrapped:\n" << text;

  ASSERT_EQ(testing::run_shell(tmux_ + "send-keys -t tui q").exit_code, 0);
  text = wait_for("EXIT=");
  EXPECT_NE(text.find("EXIT=0"), std::string::npos) << text;
  EXPECT_EQ(text.find("GPU 0 NVIDIA"), std::string::npos) << "the screen was not restored:\n" << text;
}

}  // namespace
}  // namespace gpudoctor
