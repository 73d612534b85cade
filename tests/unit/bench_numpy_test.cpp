// bench's CPU SGEMM held against numpy.matmul on the same size in the same run (gpu/numpy_bench.hpp):
// the figure read from the interpreter's output, the SGEMM's ceiling taken from it, and the real
// binary finding numpy in an environment given with --env (a stand-in interpreter that answers
// as the script does) and saying when there is none.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "gpu/numpy_bench.hpp"
#include "run_gpudoctor.hpp"

namespace gpudoctor::gpu {
namespace {

const FrameworkTarget kNumpyEnv{.framework = "numpy", .env = "/v", .interpreter = "/v/bin/python"};

Result<ProcessOutput> numpy_said(const std::string& out, int exit_code = 0) {
  ProcessOutput o;
  o.out = out;
  o.exit_code = exit_code;
  return o;
}

TEST(NumpyBench, TheFigureIsTheMedianRateAndItsCheck) {
  // 2 * 64^3 FLOP in a median 0.5 ms: 1.048576 GFLOP/s.
  BenchMeasurement m = numpy_bench_from_output(
      kNumpyEnv, 64,
      numpy_said("noise\nGPUDOCTOR-RESULT {\"version\": \"2.4.6\", \"times\": [0.0005, 0.0005, 0.0004, 0.0006, "
                 "0.0005], \"checked\": 256, \"wrong\": 0}\n"),
      1200);
  EXPECT_EQ(m.key, "cpu.numpy_matmul_fp32");
  EXPECT_EQ(m.json_key(), "cpu.numpy_matmul_fp32.gflops");
  EXPECT_EQ(m.status, BenchStatus::ok) << m.detail;
  ASSERT_TRUE(m.value.has_value());
  EXPECT_NEAR(*m.value, 1.048576, 1e-9);
  EXPECT_TRUE(m.check_passed);
  EXPECT_EQ(m.iterations, 5);
  EXPECT_NE(m.library.find("numpy 2.4.6"), std::string::npos) << m.library;
  EXPECT_NE(m.library.find("/v/bin/python"), std::string::npos) << m.library;
  EXPECT_DOUBLE_EQ(m.wall_seconds, 1.2);
}

TEST(NumpyBench, AWrongProductAMissingNumpyOrNoResultIsNotAFigure) {
  BenchMeasurement wrong = numpy_bench_from_output(
      kNumpyEnv, 64, numpy_said("GPUDOCTOR-RESULT {\"times\": [0.001], \"checked\": 256, \"wrong\": 3}\n"), 10);
  EXPECT_EQ(wrong.status, BenchStatus::failed);
  EXPECT_FALSE(wrong.check_passed);
  EXPECT_NE(wrong.check.find("3 of 256"), std::string::npos) << wrong.check;
  BenchMeasurement missing = numpy_bench_from_output(
      kNumpyEnv, 64, numpy_said("GPUDOCTOR-RESULT {\"skipped\": \"import numpy: ImportError()\"}\n"), 10);
  EXPECT_EQ(missing.status, BenchStatus::skipped);
  EXPECT_NE(missing.detail.find("import numpy"), std::string::npos);
  BenchMeasurement silent = numpy_bench_from_output(kNumpyEnv, 64, numpy_said("Traceback\n", 1), 10);
  EXPECT_EQ(silent.status, BenchStatus::failed);
  EXPECT_FALSE(silent.value.has_value());
  BenchMeasurement unchecked =
      numpy_bench_from_output(kNumpyEnv, 64, numpy_said("GPUDOCTOR-RESULT {\"times\": [0.001]}\n"), 10);
  EXPECT_EQ(unchecked.status, BenchStatus::failed) << "a product nobody checked is no figure";
  // The child's output is untrusted: counts of another type are no counts, not an exception.
  BenchMeasurement mistyped = numpy_bench_from_output(
      kNumpyEnv, 64, numpy_said("GPUDOCTOR-RESULT {\"times\": [0.001], \"checked\": \"256\", \"wrong\": null}\n"), 10);
  EXPECT_EQ(mistyped.status, BenchStatus::failed);
  EXPECT_FALSE(mistyped.check_passed);
}

BenchMeasurement passed(const std::string& key, double value) {
  return BenchMeasurement{.key = key, .unit = "gflops", .status = BenchStatus::ok, .value = value};
}

TEST(NumpyBench, TheSgemmIsHeldAgainstNumpyOfTheSameRunOnly) {
  BenchReport r;
  r.measurements = {passed("cpu.sgemm_fp32", 90), passed("cpu.conv_fp32", 80), passed("cpu.numpy_matmul_fp32", 120)};
  r.measurements[2].library = "numpy 2.4.6, environment /v";
  hold_sgemm_against_numpy(r);
  ASSERT_TRUE(r.measurements[0].ceiling.has_value());
  EXPECT_DOUBLE_EQ(*r.measurements[0].ceiling, 120);
  EXPECT_DOUBLE_EQ(*r.measurements[0].fraction_of_ceiling(), 0.75);
  EXPECT_NE(r.measurements[0].ceiling_source.find("numpy.matmul"), std::string::npos);
  EXPECT_NE(r.measurements[0].ceiling_source.find("numpy 2.4.6"), std::string::npos);
  EXPECT_FALSE(r.measurements[1].ceiling.has_value()) << "the convolution is no matmul";
  // numpy's figure failed: no ceiling from it.
  BenchReport failed = r;
  failed.measurements[0].ceiling.reset();
  failed.measurements[2].status = BenchStatus::failed;
  hold_sgemm_against_numpy(failed);
  EXPECT_FALSE(failed.measurements[0].ceiling.has_value());
}

struct NumpyScratch {
  std::string path;
  NumpyScratch() {
    std::string pattern = (std::filesystem::temp_directory_path() / "gpudoctor-numpy-XXXXXX").string();
    path = ::mkdtemp(pattern.data()) != nullptr ? pattern : "";
  }
  ~NumpyScratch() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};

// The real binary: a venv given with --env that has numpy; its interpreter (a stand-in) records
// what it was asked and answers 0.5 s per product. Without --env the SGEMM has no ceiling and
// the run says why.
TEST(NumpyBench, TheBinaryMeasuresNumpyInTheGivenEnvironment) {
  NumpyScratch dir;
  ASSERT_FALSE(dir.path.empty());
  const std::string venv = dir.path + "/venv";
  std::filesystem::create_directories(venv + "/bin");
  std::filesystem::create_directories(venv + "/lib/python3.11/site-packages/numpy-2.1.3.dist-info");
  std::ofstream(venv + "/pyvenv.cfg") << "home = /usr/bin\nversion = 3.11.2\n";
  std::ofstream(venv + "/lib/python3.11/site-packages/numpy-2.1.3.dist-info/METADATA")
      << "Name: numpy\nVersion: 2.1.3\n\n";
  const std::string python = venv + "/bin/python";
  std::ofstream(python) << "#!/bin/sh\nprintf '%s\\n' \"$3\" \"$4\" > " << testing::shell_quote(dir.path + "/args")
                        << "\necho 'GPUDOCTOR-RESULT {\"version\": \"2.1.3\", \"times\": [0.5, 0.5, 0.5, 0.5, 0.5], "
                           "\"checked\": 256, \"wrong\": 0}'\n";
  ASSERT_EQ(::chmod(python.c_str(), 0755), 0);
  const std::vector<std::string> args{"--json",       "bench", "--quick",      "--cpu-only", "--no-history",
                                      "--sgemm-size", "64",    "--conv-batch", "1"};
  std::vector<std::string> with_env{"--env", venv};
  with_env.insert(with_env.end(), args.begin(), args.end());
  auto r = testing::run_gpudoctor(with_env);
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  ASSERT_TRUE(r.json["results"].contains("cpu.numpy_matmul_fp32.gflops")) << r.json["measurements"].dump();
  EXPECT_NEAR(r.json["results"]["cpu.numpy_matmul_fp32.gflops"].get<double>(), 2.0 * 64 * 64 * 64 / 0.5 / 1e9, 1e-9);
  std::ifstream asked(dir.path + "/args");
  std::string framework;
  std::string config;
  std::getline(asked, framework);
  std::getline(asked, config);
  EXPECT_EQ(framework, "numpy");
  auto cfg = nlohmann::json::parse(config, nullptr, false);
  ASSERT_TRUE(cfg.is_object()) << config;
  EXPECT_EQ(cfg["n"], 64) << "the SGEMM's own size";
  EXPECT_EQ(cfg["threads"], r.json["cpu_threads"]);
  for (const auto& m : r.json["measurements"]) {
    if (m["key"] != "cpu.sgemm_fp32" || m["status"] != "ok") continue;
    EXPECT_NEAR(m["ceiling"].get<double>(), 2.0 * 64 * 64 * 64 / 0.5 / 1e9, 1e-9);
    EXPECT_NE(m["ceiling_source"].get<std::string>().find("numpy.matmul"), std::string::npos);
  }
  auto without = testing::run_gpudoctor(args);
  ASSERT_TRUE(without.json.is_object()) << without.out << without.err;
  // A Python with numpy on PATH is one the user points at too: then it is measured instead.
  const bool numpy_on_path = without.json["results"].contains("cpu.numpy_matmul_fp32.gflops");
  EXPECT_TRUE(numpy_on_path ||
              without.json["notes"].dump().find("no Python environment with numpy") != std::string::npos)
      << without.json["notes"].dump();
}

}  // namespace
}  // namespace gpudoctor::gpu
