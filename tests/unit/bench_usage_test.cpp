// What bench and watch say to the user about their own options and claims: a size given as 0
// (which stands for "not given" inside) is refused like any other value out of range, more CPU
// threads than the process may use is said, and a --gpu-only run's text lists the GPU/CPU claims
// with what they lack, as its JSON does.
#include <gtest/gtest.h>

#include "gpu/cpu_bench.hpp"
#include "model/bench_report.hpp"
#include "render/bench_render.hpp"
#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

struct ZeroCase {
  std::vector<std::string> args;
  std::string option;
};

TEST(BenchUsage, ZeroIsRefusedWhereTheDefaultWouldHaveBeenTakenSilently) {
  const std::vector<std::string> bench{"bench", "--quick", "--cpu-only", "--no-history"};
  const ZeroCase cases[] = {
      {{"--sgemm-size", "0"}, "--sgemm-size"},           {{"--conv-batch", "0"}, "--conv-batch"},
      {{"--cpu-threads", "0"}, "--cpu-threads"},         {{"--gpu-gemm-size", "0"}, "--gpu-gemm-size"},
      {{"--gpu-copy-mib", "0"}, "--gpu-copy-mib"},       {{"--host-copy-mib", "0"}, "--host-copy-mib"},
      {{"--framework-image", "0"}, "--framework-image"}, {{"--sgemm-size", "16385"}, "--sgemm-size"},
      {{"--gpu-gemm-size", "63"}, "--gpu-gemm-size"},
  };
  for (const ZeroCase& c : cases) {
    std::vector<std::string> args = bench;
    args.insert(args.end(), c.args.begin(), c.args.end());
    auto r = testing::run_gpudoctor(args);
    EXPECT_EQ(r.exit_code, 2) << c.args[0] << " " << c.args[1] << ": " << r.out << r.err;
    EXPECT_NE(r.err.find(c.option), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("not in range"), std::string::npos) << r.err;
  }
  // watch: -l 0 and --count 0 are refused before any GPU is looked at.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"watch", "-l", "0"}, std::vector<std::string>{"watch", "--count", "0"},
        std::vector<std::string>{"watch", "--count", "-1"}}) {
    auto r = testing::run_gpudoctor(args, std::chrono::seconds(20));
    EXPECT_EQ(r.exit_code, 2) << args[1] << " " << args[2] << ": " << r.out << r.err;
    EXPECT_NE(r.err.find("above 0"), std::string::npos) << r.err;
  }
}

TEST(BenchUsage, TheSmallestValuesInRangeStillRun) {
  auto r = testing::run_gpudoctor({"--json", "bench", "--quick", "--cpu-only", "--no-history", "--sgemm-size", "1",
                                   "--conv-batch", "1", "--cpu-threads", "1"});
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  EXPECT_EQ(r.json["cpu_threads"], 1);
  EXPECT_EQ(r.json["notes"].dump().find("oversubscribed"), std::string::npos) << r.json["notes"].dump();
  auto w = testing::run_gpudoctor({"--json", "watch", "-l", "0.05", "--count", "1"}, std::chrono::seconds(30));
  EXPECT_NE(w.exit_code, 2) << w.err;
}

TEST(BenchUsage, MoreThreadsThanCpusIsSaid) {
  const int cpus = gpu::usable_cpu_count();
  auto r = testing::run_gpudoctor({"--json", "bench", "--quick", "--cpu-only", "--no-history", "--sgemm-size", "32",
                                   "--conv-batch", "1", "--cpu-threads", std::to_string(cpus + 1)});
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  const std::string notes = r.json["notes"].dump();
  EXPECT_NE(notes.find("--cpu-threads " + std::to_string(cpus + 1) + " is more than the " + std::to_string(cpus)),
            std::string::npos)
      << notes;
}

BenchMeasurement passed_figure(const std::string& key, const std::string& unit, double value) {
  return BenchMeasurement{.key = key, .unit = unit, .status = BenchStatus::ok, .value = value};
}

TEST(BenchUsage, GpuOnlyTextSaysWhatTheGpuCpuClaimsLack) {
  BenchReport gpu_only;
  gpu_only.mode = "quick";
  gpu_only.measurements = {passed_figure("gpu0.gemm_fp32", "tflops", 20),
                           passed_figure("gpu0.gemm_bf16", "tflops", 300)};
  gpu_only.claims = bench_claims(gpu_only);
  const std::string text = render_bench_text(gpu_only, false);
  EXPECT_NE(text.find("GPU/CPU on GEMM (FP32 both): not measured here: cpu.sgemm_fp32 was not run"), std::string::npos)
      << text;
  EXPECT_NE(text.find("BF16 over FP32: 15.0x"), std::string::npos) << text;
  // Nothing measured for any claim (a CPU-only run): one line says why, not each claim.
  BenchReport cpu_only;
  cpu_only.mode = "quick";
  cpu_only.measurements = {passed_figure("cpu.sgemm_fp32", "gflops", 100)};
  cpu_only.claims = bench_claims(cpu_only);
  const std::string cpu_text = render_bench_text(cpu_only, false);
  EXPECT_EQ(cpu_text.find("GPU/CPU on GEMM"), std::string::npos) << cpu_text;
  EXPECT_NE(cpu_text.find("none: they need GPU figures"), std::string::npos) << cpu_text;
}

}  // namespace
}  // namespace gpudoctor
