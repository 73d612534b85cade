#include "gpu/bench_runner.hpp"

#include <ctime>

#include "core/timestamp.hpp"
#include "gpu/cpu_bench.hpp"
#include "gpu/driver_query.hpp"
#include "gpu/gpu_bench.hpp"

namespace gpudoctor::gpu {

std::string bench_utc_now() {
  return utc_timestamp(static_cast<std::int64_t>(std::time(nullptr)));
}

BenchSizes bench_sizes(const std::string& mode) {
  if (mode == "quick") {
    return BenchSizes{.sgemm_n = 1024,
                      .conv_n = 4,
                      .gpu_gemm_n = 4096,
                      .gpu_conv = {16, 64, 56, 64},
                      .gpu_copy_bytes = 256LL << 20,
                      .host_copy_bytes = 64LL << 20};
  }
  if (mode == "full") {
    return BenchSizes{.sgemm_n = 4096,
                      .conv_n = 16,
                      .gpu_gemm_n = 16384,
                      .gpu_conv = {64, 64, 56, 64},
                      .gpu_copy_bytes = 4LL << 30,
                      .host_copy_bytes = 1LL << 30};
  }
  return BenchSizes{};
}

BenchReport run_bench(const BenchOptions& o) {
  BenchReport report;
  report.mode = o.mode;
  report.started_utc = bench_utc_now();
  report.cpu_threads = o.cpu_threads > 0 ? o.cpu_threads : usable_cpu_count();
  const std::string threads = "threads=" + std::to_string(report.cpu_threads);
  const std::string budget = o.mode;
  auto run_one = [&](const std::string& key, const std::string& unit, std::vector<std::string> args) {
    if (o.on_start) o.on_start(key + "." + unit);
    std::vector<ChildOutcome> outcome = run_isolated({{"cpu-bench", std::move(args)}}, o.deadline);
    report.measurements.push_back(measurement_from_child(key, unit, outcome.at(0)));
    if (o.on_measurement) o.on_measurement(report.measurements.back());
  };
  if (o.cpu) {
    std::vector<std::string> sgemm{"sgemm", std::to_string(o.sizes.sgemm_n), budget, threads};
    if (o.openblas.empty()) {
      for (const std::string& lib : openblas_names()) sgemm.push_back("lib=" + lib);
    }
    for (const std::string& lib : o.openblas) sgemm.push_back("named=" + lib);
    for (const std::string& lib : o.openblas_bundled) sgemm.push_back("bundled=" + lib);
    for (const std::string& why : o.openblas_refused) sgemm.push_back("refused=" + why);
    run_one("cpu.sgemm_fp32", "gflops", std::move(sgemm));
    run_one("cpu.conv_fp32", "gflops",
            {"conv", std::to_string(o.sizes.conv_n), "64", "56", "56", "64", budget, threads});
  }
  if (o.gpu) run_gpu_benches(o, report);
  report.claims = bench_claims(report);
  return report;
}

}  // namespace gpudoctor::gpu
