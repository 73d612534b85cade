// scripts/device-check.sh --prebuilt, the one run a lent GPU machine gets, against the fake driver
// and runtime libraries with this tree's gpudoctor and gpu_tests: every step runs in its order,
// the table and what comes back through $OUT are made, the time budget stops steps rather than
// the run. A script that broke here would waste the GPU machine's whole lease.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "run_gpudoctor.hpp"
#include "test_files.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;
using testing::read_text;
using testing::run_shell;
using testing::shell_quote;

/// The table's rows, step name -> result ("ok", "FAILED (1)", "not run" ...).
std::map<std::string, std::string> table_rows(const std::string& out) {
  std::map<std::string, std::string> rows;
  const auto head = out.find("\nstep ");
  if (head == std::string::npos) return rows;
  std::istringstream lines(out.substr(head + 1));
  std::string line;
  std::getline(lines, line);  // the header
  while (std::getline(lines, line)) {
    if (line.size() < 40) continue;
    // printf '%-22s %-14s %-8s %s': name, result (one to three words), time, log.
    std::string result = line.substr(23, 14);
    result.erase(result.find_last_not_of(' ') + 1);
    rows[line.substr(0, line.find(' '))] = result;
  }
  return rows;
}

class DeviceCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::scratch_dir_for_test("gpudoctor-device-check");
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "returned");
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  testing::RunResult device_check(const std::string& env, const std::string& args = "--prebuilt") {
    const std::string line =
        "LD_LIBRARY_PATH=" + shell_quote(GPUDOCTOR_FAKE_LIB_DIR) +
        " GPUDOCTOR_FAKE_DRIVER=" + shell_quote(std::string(GPUDOCTOR_FAKE_SCENARIOS_DIR) + "/verify_healthy.ini") +
        " DEVICE_CHECK_PREBUILT_DIR=" + shell_quote(GPUDOCTOR_BUILD_DIR) +
        " DEVICE_CHECK_OUT=" + shell_quote((dir_ / "logs").string()) +
        " OUT=" + shell_quote((dir_ / "returned").string()) +
        " DEVICE_CHECK_FRAMEWORKS= DEVICE_CHECK_BENCH_ARGS='--quick --sgemm-size 96 --conv-batch 1"
        " --gpu-gemm-size 64 --gpu-copy-mib 1 --host-copy-mib 1 --gpu-conv-shape 1,4,8,4' " +
        env + " bash " + shell_quote(std::string(GPUDOCTOR_SOURCE_DIR) + "/scripts/device-check.sh") + " " + args;
    // Two small benches, two verifies and the doctor, each in children; ASan on a loaded 2-core
    // machine is the slow case. The deadline guards a hang.
    return run_shell(line, std::chrono::minutes(4));
  }

  fs::path dir_;
};

TEST_F(DeviceCheck, EveryStepRunsAndTheTableAndFilesComeBack) {
  // A `date` whose seconds move on at every call: a table printed twice (once saved, once shown)
  // would differ in its elapsed time, as it did on a loaded CI machine when a second passed.
  const fs::path bin = dir_ / "bin";
  fs::create_directories(bin);
  {
    std::ofstream date(bin / "date");
    date << "#!/bin/sh\n"
            "if [ \"$1\" = +%s ]; then\n"
            "  n=$(cat \"$0.count\" 2>/dev/null || echo 0); n=$((n + 1)); echo \"$n\" >\"$0.count\"\n"
            "  echo $((1700000000 + n))\n"
            "else exec /bin/date \"$@\"; fi\n";
  }
  fs::permissions(bin / "date", fs::perms::owner_all);
  auto r = device_check("PATH=" + shell_quote(bin.string()) + ":\"$PATH\"");
  // Without nvidia-smi the machine step fails, so the run does; a usage error would be 2.
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto rows = table_rows(r.out);
  ASSERT_FALSE(rows.empty()) << r.out;
  EXPECT_EQ(rows["build"], "prebuilt");
  for (const char* name : {"verify-json", "bench-json", "bench-cublaslt", "report", "bench-quick"}) {
    EXPECT_EQ(rows[name], "ok") << name << "\n" << r.out;
  }
  // Here the GPU tests skip (no driver); the one that checks the carried binary runs.
  EXPECT_EQ(rows["gpu-tests"], "ok, 3 skipped") << r.out;
  EXPECT_NE(read_text(dir_ / "logs" / "gpu-tests.log").find("[       OK ] GpuTestsSetup.TheGpudoctorUnderTestAnswers"),
            std::string::npos);
  EXPECT_EQ(rows["machine"].rfind("FAILED", 0), 0U) << "nvidia-smi is not here: " << rows["machine"];
  EXPECT_TRUE(rows["doctor"] == "ok" || rows["doctor"] == "findings (1)") << rows["doctor"];
  EXPECT_EQ(rows["bench-topology"], "not run") << "0 GPUs through nvidia-smi";
  EXPECT_EQ(rows.count("verify-pytorch"), 0U) << "DEVICE_CHECK_FRAMEWORKS is empty";

  const fs::path logs = dir_ / "logs";
  auto verify = nlohmann::json::parse(read_text(logs / "verify.json"), nullptr, false);
  ASSERT_TRUE(verify.is_object());
  EXPECT_EQ(verify["passed"], true);
  auto bench = nlohmann::json::parse(read_text(logs / "bench.json"), nullptr, false);
  ASSERT_TRUE(bench.is_object());
  bool bf16 = false;
  for (const auto& m : bench["measurements"]) bf16 = bf16 || (m["key"] == "gpu0.gemm_bf16" && m["status"] == "ok");
  EXPECT_TRUE(bf16) << "the figure perf/bench_vs_torch_gpu.py compares";
  // bench --quick's figures each say how long their child took, and the script lists them.
  EXPECT_NE(r.out.find("== bench-quick: seconds per figure"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" s  gpu0.gemm_bf16  ok"), std::string::npos) << r.out;
  // watch sampled beside the bench: the report's charts over time.
  EXPECT_FALSE(read_text(logs / "watch.jsonl").empty());

  const fs::path back = dir_ / "returned";
  EXPECT_NE(r.out.find(read_text(back / "device-check-table.txt")), std::string::npos);
  const std::string html = read_text(back / "device-check-report.html");
  EXPECT_NE(html.find("NVIDIA H100 80GB HBM3"), std::string::npos) << "the fake cards in the report";
  auto listing = run_shell("tar -tzf " + shell_quote((back / "device-check-logs.tar.gz").string()));
  EXPECT_NE(listing.out.find("logs/verify.json"), std::string::npos) << listing.out << listing.err;
  EXPECT_NE(listing.out.find("logs/bench-json.log"), std::string::npos) << listing.out;
}

TEST_F(DeviceCheck, ASpentBudgetSkipsStepsAndStillPrintsTheTable) {
  auto r = device_check("DEVICE_CHECK_BUDGET_S=1");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  auto rows = table_rows(r.out);
  EXPECT_EQ(rows["verify-json"], "not run") << r.out;
  EXPECT_EQ(rows["bench-json"], "not run") << r.out;
  EXPECT_NE(r.out.find("the time budget (1 s) is spent"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir_ / "returned" / "device-check-table.txt"));
}

TEST_F(DeviceCheck, PrebuiltWithoutTheBinariesSaysHowToMakeThem) {
  auto r = device_check("DEVICE_CHECK_PREBUILT_DIR=" + shell_quote((dir_ / "nothing").string()));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--prepare"), std::string::npos) << r.err;
  EXPECT_EQ(device_check("", "--no-such-option").exit_code, 2);
}

// gpu_tests runs where the build tree's path does not exist: the carried gpudoctor is the one run.
TEST(GpuTestsBinary, TheBinaryNamedByGpudoctorTestBinaryIsTheOneRun) {
  ::setenv("GPUDOCTOR_TEST_BINARY", "/bin/echo", 1);
  auto r = testing::run_gpudoctor({"carried"});
  auto shell = testing::run_gpudoctor_shell("'as shell text'");
  ::unsetenv("GPUDOCTOR_TEST_BINARY");
  EXPECT_EQ(r.out, "carried\n");
  EXPECT_EQ(shell.out, "as shell text\n");
  EXPECT_NE(testing::run_gpudoctor({"--version"}).out.find("gpudoctor"), std::string::npos) << "unset: the built one";
}

}  // namespace
}  // namespace gpudoctor
