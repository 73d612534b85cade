// bench (gpu/bench_math.hpp, model/bench_report.hpp, platform/bench_history.hpp, the
// "cpu-bench" task): the statistics and formulas on values worked by hand, the sampling policy's
// stopping rules, the sampled checks catching a wrong element, the history in a temporary
// database, --compare's noise rule, and the CPU baseline run for real at a small size.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "exact_gemm.hpp"
#include "gpu/bench_math.hpp"
#include "gpu/bench_runner.hpp"
#include "gpu/cpu_bench.hpp"
#include "gpu/verify_math.hpp"
#include "model/bench_report.hpp"
#include "model/json_codec.hpp"
#include "platform/bench_history.hpp"
#include "render/bench_render.hpp"
#include "run_gpudoctor.hpp"

namespace gpudoctor::gpu {
namespace {

TEST(BenchMath, SummarizeMedianSpreadAndExtremes) {
  SampleStats s = summarize({0.010, 0.012, 0.011, 0.050, 0.009});
  EXPECT_EQ(s.n, 5U);
  EXPECT_DOUBLE_EQ(s.median, 0.011);
  EXPECT_DOUBLE_EQ(s.min, 0.009);
  EXPECT_DOUBLE_EQ(s.max, 0.050);
  // deviations 0.001 0.001 0 0.039 0.002 -> median 0.001; one outlier does not move it.
  EXPECT_NEAR(s.mad, 0.001, 1e-12);
  EXPECT_NEAR(s.spread_pct, 0.001 / 0.011 * 100, 1e-9);
  SampleStats even = summarize({4, 1, 3, 2});
  EXPECT_DOUBLE_EQ(even.median, 2.5);
  EXPECT_EQ(summarize({}).n, 0U);
}

TEST(BenchMath, FormulasAsWrittenDown) {
  EXPECT_DOUBLE_EQ(gemm_flops(1024, 1024, 1024), 2.0 * 1024 * 1024 * 1024);
  // ResNet-50's second 3x3 layer: 64 -> 64 channels at 56x56, one image.
  EXPECT_DOUBLE_EQ(copy_bytes(1000, 4), 8000);
  EXPECT_DOUBLE_EQ(triad_bytes(1000, 4), 12000);
  // nccl-tests: 1 GB in 10 ms is 100 GB/s algbw; on 8 ranks busbw = 100 * 2 * 7 / 8 = 175.
  EXPECT_DOUBLE_EQ(algbw_gbps(1e9, 0.01), 100);
  EXPECT_DOUBLE_EQ(allreduce_busbw(100, 8), 175);
  EXPECT_DOUBLE_EQ(allreduce_busbw(100, 1), 0);
  EXPECT_DOUBLE_EQ(scaling_efficiency(100, 184, 2), 0.92);
  ConvShape shape = kBenchCpuConvShape;
  EXPECT_EQ(shape.out_h(), 56);
  shape.n = 1;
  EXPECT_DOUBLE_EQ(shape.flops(), 2.0 * 64 * 56 * 56 * 64 * 9);
  EXPECT_DOUBLE_EQ(kBenchCpuConvShape.flops(), 8 * shape.flops());
}

TEST(BenchMath, FillRateTurnsTimesIntoRates) {
  BenchMeasurement m;
  fill_rate(m, summarize({0.5, 1.0, 2.0}), 2e9, 1e9);
  ASSERT_TRUE(m.value.has_value());
  EXPECT_DOUBLE_EQ(*m.value, 2.0);  // 2e9 FLOPs in the median 1 s
  EXPECT_DOUBLE_EQ(*m.min, 1.0);    // the slowest iteration
  EXPECT_DOUBLE_EQ(*m.max, 4.0);    // the fastest
  EXPECT_EQ(m.iterations, 3);
  BenchMeasurement none;
  fill_rate(none, summarize({}), 1, 1);
  EXPECT_FALSE(none.value.has_value());
}

TEST(BenchMath, SamplingStopsWhenStableAndAtTheBudget) {
  int calls = 0;
  // Always 0.1 s: stable at once, so min_iterations and min_seconds decide.
  auto steady = [&] {
    ++calls;
    return 0.1;
  };
  SamplingPolicy p{
      .warmup = 2, .min_iterations = 5, .max_iterations = 100, .min_seconds = 0.3, .max_seconds = 10, .stable_pct = 2};
  EXPECT_EQ(sample_times(steady, p).size(), 5U);
  EXPECT_EQ(calls, 7);  // two warm-ups, untimed
  // Cycling 0.10 0.15 0.20 0.25: never stable (MAD/median near 30%), so the time budget ends it.
  // (Two alternating values would not do: with more of one, the median deviation is 0.)
  int i = 0;
  auto noisy = [&] { return 0.1 + 0.05 * (i++ % 4); };
  SamplingPolicy budget{.warmup = 0,
                        .min_iterations = 5,
                        .max_iterations = 1000,
                        .min_seconds = 0.3,
                        .max_seconds = 3.0,
                        .stable_pct = 2};
  std::vector<double> times = sample_times(noisy, budget);
  double total = 0;
  for (double t : times) total += t;
  EXPECT_GE(total, 3.0);
  EXPECT_LT(total, 3.3);
  SamplingPolicy cap{
      .warmup = 0, .min_iterations = 1, .max_iterations = 7, .min_seconds = 100, .max_seconds = 100, .stable_pct = 0};
  EXPECT_EQ(sample_times(noisy, cap).size(), 7U);
}

TEST(BenchMath, SampledGemmCheckPassesRightAndCatchesOneWrongElement) {
  const int m = 33, n = 17, k = 300;
  auto a = test_values(static_cast<size_t>(m) * k, 1);
  auto b = test_values(static_cast<size_t>(k) * n, 2);
  std::vector<float> c(static_cast<size_t>(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int q = 0; q < k; ++q) sum += a[static_cast<size_t>(i) * k + q] * b[static_cast<size_t>(q) * n + j];
      c[static_cast<size_t>(i) * n + j] = sum;
    }
  const size_t all = c.size();
  EXPECT_TRUE(check_gemm_sampled(a.data(), b.data(), c.data(), m, n, k, all, kFloatUnitRoundoff).passed);
  c[static_cast<size_t>(5) * n + 3] += 0.01F;
  BoundCheck bad = check_gemm_sampled(a.data(), b.data(), c.data(), m, n, k, all, kFloatUnitRoundoff);
  EXPECT_FALSE(bad.passed);
  EXPECT_EQ(bad.outside, 1U);
  c[0] = NAN;
  EXPECT_FALSE(check_gemm_sampled(a.data(), b.data(), c.data(), m, n, k, 2, kFloatUnitRoundoff).passed)
      << "the first element is always sampled";
}

// B is read a panel of 64 columns at a time: a result wider than one panel, with a partial last
// one, must check every element against its own row and column (a panel offset off by one
// column would fail right results or pass wrong ones), and the relative error must be 0 when C
// is the rounded exact product.
TEST(BenchMath, SampledGemmCheckReadsEveryPanelOfColumns) {
  const int m = 5, n = 130, k = 77;
  auto a = test_values(static_cast<size_t>(m) * k, 31);
  auto b = test_values(static_cast<size_t>(k) * n, 32);
  std::vector<float> c = exact_row_major_product(a, b, m, n, k);
  const size_t all = c.size();
  BoundCheck ok = check_gemm_sampled(a.data(), b.data(), c.data(), m, n, k, all, kFloatUnitRoundoff);
  EXPECT_TRUE(ok.passed) << ok.summary;
  EXPECT_EQ(ok.checked, all);
  EXPECT_LT(gemm_sampled_relative_error(a.data(), b.data(), c.data(), m, n, k, all), 1e-7);
  for (size_t at : {static_cast<size_t>(64), static_cast<size_t>(2 * n + 129), all - 1}) {
    std::vector<float> wrong = c;
    wrong[at] += 0.01F;
    BoundCheck bad = check_gemm_sampled(a.data(), b.data(), wrong.data(), m, n, k, all, kFloatUnitRoundoff);
    EXPECT_EQ(bad.outside, 1U) << "element " << at;
    EXPECT_EQ(bad.worst, at);
  }
}

// --full on a 12 GB card: the 16384^3 FP32 GEMM (3 GiB) fits, the triad's three 4 GiB arrays do
// not and shrink to whole MiB that do; an unknown free size shrinks nothing.
TEST(BenchMath, FiguresShrinkToTheDeviceMemoryTheyMayUse) {
  constexpr std::uint64_t kGiB = 1ULL << 30;
  const std::uint64_t usable = usable_device_memory(11 * kGiB);  // 8.8 GiB
  EXPECT_EQ(usable, 11 * kGiB / 10 * 8);
  EXPECT_EQ(gemm_n_that_fits(16384, 12, usable), 16384);
  EXPECT_EQ(array_bytes_that_fit(4LL << 30, 3, usable), (static_cast<long long>(usable / 3) >> 20) << 20);
  EXPECT_LE(3 * array_bytes_that_fit(4LL << 30, 3, usable), static_cast<long long>(usable));
  EXPECT_EQ(array_bytes_that_fit(4LL << 30, 2, usable), 4LL << 30) << "copy's two arrays fit";
  // A 2 GiB card: FP32 GEMM at 12 bytes per element of N^2 gives sqrt(1.6 GiB / 12) = 11,965 -> 11,776.
  const std::uint64_t small = usable_device_memory(2 * kGiB);
  EXPECT_EQ(gemm_n_that_fits(16384, 12, small), 11776);
  EXPECT_LE(11776.0 * 11776 * 12, static_cast<double>(small));
  EXPECT_EQ(gemm_n_that_fits(4096, 12, small), 4096) << "never grows";
  EXPECT_EQ(gemm_n_that_fits(16384, 12, 1000), 256) << "not below 256: such a card fails the figure";
  EXPECT_EQ(array_bytes_that_fit(4LL << 30, 3, 1000), 1LL << 20);
  EXPECT_EQ(gemm_n_that_fits(16384, 12, 0), 16384) << "unknown: as asked";
  EXPECT_EQ(array_bytes_that_fit(4LL << 30, 3, 0), 4LL << 30);
  // A display watchdog: --full's and the default's GEMMs come down to 4096^3, --quick's stays.
  EXPECT_EQ(gemm_n_under_watchdog(16384, true), 4096);
  EXPECT_EQ(gemm_n_under_watchdog(8192, true), 4096);
  EXPECT_EQ(gemm_n_under_watchdog(4096, true), 4096);
  EXPECT_EQ(gemm_n_under_watchdog(16384, false), 16384);
}

// TF32: the GPU rounds FP32 inputs to 10 mantissa bits. That error enters once per product, so
// the check allows 2 * 2^-11 * sum|a||b| beside the FP32 accumulation's K*u: a right TF32 result
// passes, and the same result fails a plain FP32 bound.
TEST(BenchMath, Tf32InputRoundingIsAllowedOnceNotPerTerm) {
  const int m = 8, n = 8, k = 64;
  auto a = test_values(static_cast<size_t>(m) * k, 21);
  auto b = test_values(static_cast<size_t>(k) * n, 22);
  auto tf32 = [](float v) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &v, 4);
    bits = (bits + 0xFFFU + ((bits >> 13) & 1U)) & ~0x1FFFU;  // round to nearest even, 10 bits kept
    float r = 0;
    std::memcpy(&r, &bits, 4);
    return r;
  };
  std::vector<float> c(static_cast<size_t>(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int q = 0; q < k; ++q)
        sum += tf32(a[static_cast<size_t>(i) * k + q]) * tf32(b[static_cast<size_t>(q) * n + j]);
      c[static_cast<size_t>(i) * n + j] = sum;
    }
  EXPECT_TRUE(check_gemm_sampled(a.data(), b.data(), c.data(), m, n, k, c.size(), kFloatUnitRoundoff, 2.0, 0.0,
                                 kTf32UnitRoundoff)
                  .passed);
  EXPECT_FALSE(check_gemm_sampled(a.data(), b.data(), c.data(), m, n, k, c.size(), kFloatUnitRoundoff).passed);
}

TEST(BenchMath, CheckSamplesCoverSmallResultsAndBoundTheCost) {
  EXPECT_EQ(check_samples(64), 100'000'000U / 64);  // a 64x64x64 GEMM: all 4096 elements and more
  EXPECT_EQ(check_samples(8192), 100'000'000U / 8192);
  EXPECT_EQ(check_samples(1LL << 40), 256U);
}

TEST(BenchMath, SampledConvCheckAgreesWithVerifysReference) {
  ConvShape sh{.n = 2, .c = 3, .h = 7, .w = 6, .k = 4, .r = 3, .s = 3, .pad = 1};
  const ConvShape& vs = sh;
  auto x = test_values(static_cast<size_t>(2) * 3 * 7 * 6, 5);
  auto w = test_values(static_cast<size_t>(4) * 3 * 9, 6);
  Reference ref = conv_forward_reference(vs, x, w);
  std::vector<float> y(ref.value.begin(), ref.value.end());
  BoundCheck ok = check_conv_sampled(sh, x.data(), w.data(), y.data(), y.size(), kFloatUnitRoundoff);
  EXPECT_TRUE(ok.passed) << ok.summary;
  EXPECT_EQ(ok.checked, y.size());
  y[y.size() - 1] = -y[y.size() - 1] + 1.0F;
  EXPECT_FALSE(check_conv_sampled(sh, x.data(), w.data(), y.data(), 4, kFloatUnitRoundoff).passed)
      << "the last element is always sampled";
}

BenchMeasurement figure(const std::string& key, const std::string& unit, double value, double spread = 1.0) {
  BenchMeasurement m;
  m.key = key;
  m.unit = unit;
  m.status = BenchStatus::ok;
  m.value = value;
  m.min = value * 0.9;
  m.max = value * 1.1;
  m.spread_pct = spread;
  m.iterations = 10;
  m.check = "checked";
  m.check_passed = true;
  return m;
}

TEST(BenchReport, CompareFlagsOnlyChangesBeyondTheNoise) {
  BenchReport before;
  before.measurements = {figure("cpu.sgemm_fp32", "gflops", 100), figure("gpu0.copy", "gbps", 1000, 4.0),
                         figure("cpu.conv_fp32", "gflops", 50)};
  BenchReport now;
  now.measurements = {figure("cpu.sgemm_fp32", "gflops", 80), figure("gpu0.copy", "gbps", 890, 1.0),
                      figure("cpu.conv_fp32", "gflops", 53), figure("gpu0.triad", "gbps", 900)};
  auto changes = compare_runs(before, now, 5.0);
  ASSERT_EQ(changes.size(), 3U) << "gpu0.triad has no earlier figure";
  EXPECT_EQ(changes[0].key, "cpu.sgemm_fp32.gflops");
  EXPECT_EQ(changes[0].verdict, "regression");
  EXPECT_DOUBLE_EQ(changes[0].change_pct, -20);
  // -11% against a noise of 3 x 4% = 12%: within the noise.
  EXPECT_EQ(changes[1].verdict, "same");
  EXPECT_DOUBLE_EQ(changes[1].noise_pct, 12);
  // +6% beyond the 5% floor (3 x 1% spread is less): an improvement.
  EXPECT_EQ(changes[2].verdict, "improvement");
}

// The CPU SGEMM's library depends on the environment bench runs in (the system's OpenBLAS, or
// an activated venv's bundled copy): a figure through another file is not a regression. The
// same file in another version (a cuBLAS update) is still compared.
// A framework's FP32 step with TF32 allowed one run and not the next (NVIDIA_TF32_OVERRIDE=0, a
// framework setting) ran at another precision: no regression of the machine. Runs saved before
// the field existed say nothing, and are compared as before.
TEST(BenchReport, CompareDoesNotJudgeAnFp32FigureWhoseTf32Changed) {
  auto step = [](std::optional<bool> tf32, double value) {
    BenchMeasurement m = figure("pytorch.resnet50_fp32.gpu0", "images_per_s", value);
    m.tf32 = tf32;
    return m;
  };
  BenchReport before;
  BenchReport now;
  before.measurements = {step(true, 2400)};
  now.measurements = {step(false, 1200)};
  auto changes = compare_runs(before, now, 5.0);
  ASSERT_EQ(changes.size(), 1U);
  EXPECT_EQ(changes[0].verdict, "TF32 changed");
  EXPECT_DOUBLE_EQ(changes[0].change_pct, -50);
  now.measurements = {step(true, 1200)};
  EXPECT_EQ(compare_runs(before, now, 5.0).at(0).verdict, "regression");
  before.measurements = {step(std::nullopt, 2400)};
  now.measurements = {step(false, 1200)};
  EXPECT_EQ(compare_runs(before, now, 5.0).at(0).verdict, "regression");
}

TEST(BenchReport, CompareDoesNotJudgeAFigureMeasuredThroughAnotherLibraryFile) {
  BenchReport before;
  before.measurements = {figure("cpu.sgemm_fp32", "gflops", 100), figure("gpu0.gemm_fp32", "tflops", 50)};
  before.measurements[0].library =
      "OpenBLAS 0.3.21 NO_AFFINITY HASWELL, 2 thread(s), /usr/lib/x86_64-linux-gnu/libopenblas.so.0";
  before.measurements[1].library = "cuBLASLt 13.0.1 /usr/local/cuda/lib64/libcublasLt.so.13";
  BenchReport now;
  now.measurements = {figure("cpu.sgemm_fp32", "gflops", 60), figure("gpu0.gemm_fp32", "tflops", 30)};
  now.measurements[0].library =
      "OpenBLAS 0.3.30 USE64BITINT, ILP64, 2 thread(s), /home/u/venv/lib/python3.12/site-packages/numpy.libs/"
      "libscipy_openblas64_-56d6093b.so";
  now.measurements[1].library = "cuBLASLt 13.1.0 /usr/local/cuda/lib64/libcublasLt.so.13";
  auto changes = compare_runs(before, now, 5.0);
  ASSERT_EQ(changes.size(), 2U);
  EXPECT_EQ(changes[0].verdict, "library changed");
  EXPECT_DOUBLE_EQ(changes[0].change_pct, -40);
  EXPECT_EQ(changes[1].verdict, "regression");
  EXPECT_EQ(library_file(now.measurements[1].library), "/usr/local/cuda/lib#/libcublasLt.so.#");
  EXPECT_EQ(library_file("OpenBLAS"), "");
  // The loader's path is the resolved, versioned file: a toolkit or distribution update in place
  // is the same library, and its regression is judged.
  before.measurements[1].library =
      "cuBLASLt 13.0.1 /usr/local/cuda-13.0/targets/x86_64-linux/lib/libcublasLt.so.13.0.1.2";
  now.measurements[1].library = "cuBLASLt 13.1.0 /usr/local/cuda-13.1/targets/x86_64-linux/lib/libcublasLt.so.13.1.0.3";
  before.measurements[0].library =
      "OpenBLAS 0.3.21, 2 thread(s), /usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so";
  now.measurements[0].library =
      "OpenBLAS 0.3.26, 2 thread(s), /usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.26.so";
  changes = compare_runs(before, now, 5.0);
  ASSERT_EQ(changes.size(), 2U);
  EXPECT_EQ(changes[0].verdict, "regression");
  EXPECT_EQ(changes[1].verdict, "regression");
}

TEST(BenchReport, ClaimsComeFromTheFiguresOrSayWhatIsMissing) {
  BenchReport r;
  r.measurements = {figure("cpu.sgemm_fp32", "gflops", 200), figure("gpu0.gemm_fp32", "tflops", 20),
                    figure("gpu0.gemm_bf16", "tflops", 300)};
  auto claims = bench_claims(r);
  ASSERT_FALSE(claims.empty());
  EXPECT_EQ(claims[0].what, "GPU/CPU on GEMM (FP32 both)");
  ASSERT_TRUE(claims[0].ratio.has_value());
  EXPECT_DOUBLE_EQ(*claims[0].ratio, 100.0);  // 20 TFLOP/s over 200 GFLOP/s
  bool found_bf16 = false;
  for (const auto& c : claims) {
    if (c.what == "mixed precision on GEMM: BF16 over FP32") {
      found_bf16 = true;
      ASSERT_TRUE(c.ratio.has_value());
      EXPECT_DOUBLE_EQ(*c.ratio, 15.0);
    }
    if (c.what == "GPU (TF32) / CPU (FP32) on GEMM") {
      EXPECT_FALSE(c.ratio.has_value());
      EXPECT_NE(c.basis.find("gpu0.gemm_tf32 was not run"), std::string::npos) << c.basis;
    }
  }
  EXPECT_TRUE(found_bf16);
}

TEST(BenchReport, JsonKeysNameWhatAndUnitAndReadBack) {
  BenchReport r;
  r.mode = "quick";
  r.started_utc = "2026-12-01T11:00:00Z";
  r.measurements = {figure("cpu.sgemm_fp32", "gflops", 123.5), figure("gpu0.h2d_pinned", "gbps", 25)};
  BenchMeasurement skipped;
  skipped.key = "cpu.conv_fp32";
  skipped.unit = "gflops";
  skipped.status = BenchStatus::skipped;
  skipped.detail = "no oneDNN";
  r.measurements.push_back(skipped);
  auto doc = nlohmann::ordered_json::parse(render_bench_json(r));
  EXPECT_EQ(doc["schema_version"], kBenchSchemaVersion);
  EXPECT_DOUBLE_EQ(doc["results"]["cpu.sgemm_fp32.gflops"].get<double>(), 123.5);
  EXPECT_DOUBLE_EQ(doc["results"]["gpu0.h2d_pinned.gbps"].get<double>(), 25);
  EXPECT_TRUE(doc["results"]["cpu.conv_fp32.gflops"].is_null());
  EXPECT_TRUE(doc["passed"].get<bool>());
  BenchReport back;
  bench_report_from_json(doc, back);
  ASSERT_EQ(back.measurements.size(), 3U);
  EXPECT_EQ(back.measurements[0].json_key(), "cpu.sgemm_fp32.gflops");
  EXPECT_DOUBLE_EQ(*back.measurements[0].value, 123.5);
  EXPECT_EQ(back.measurements[2].status, BenchStatus::skipped);
  EXPECT_EQ(back.mode, "quick");
}

TEST(BenchReport, AFailedCheckFailsTheRun) {
  BenchReport r;
  r.measurements = {figure("cpu.sgemm_fp32", "gflops", 100)};
  EXPECT_TRUE(bench_passed(r));
  r.measurements[0].check_passed = false;
  EXPECT_FALSE(bench_passed(r));
  EXPECT_NE(render_bench_text(r, false).find("FAILED"), std::string::npos);
}

struct TempDir {
  std::string path;
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "gpudoctor-bench-XXXXXX").string();
    path = ::mkdtemp(pattern.data()) != nullptr ? pattern : "";
  }
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};

/// A text file where the history should be: no SQLite database.
bool write_not_a_database(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return false;
  std::fputs("this is not an SQLite database, it is a text file long enough to have a header page", f);
  return std::fclose(f) == 0;
}

TEST(BenchHistory, KeepsRunsAndReturnsTheLastOfAMode) {
  TempDir dir;
  ASSERT_FALSE(dir.path.empty());
  const std::string db = dir.path + "/sub/bench.sqlite";
  {
    auto h = BenchHistory::open(db);
    ASSERT_TRUE(h) << h.error().message;
    auto none = h->last("quick", "node1");
    ASSERT_TRUE(none);
    EXPECT_FALSE(none->has_value());
    BenchReport first;
    first.mode = "quick";
    first.host = "node1";
    first.started_utc = "2026-12-01T10:00:00Z";
    first.measurements = {figure("cpu.sgemm_fp32", "gflops", 100)};
    ASSERT_TRUE(h->add(first));
    BenchReport full;
    full.mode = "full";
    full.host = "node1";
    full.started_utc = "2026-12-01T10:30:00Z";
    full.measurements = {figure("cpu.sgemm_fp32", "gflops", 150)};
    ASSERT_TRUE(h->add(full));
    // Another machine's later quick run, in the same shared file: never compared with node1's.
    BenchReport other = first;
    other.host = "node2";
    other.started_utc = "2026-12-01T11:00:00Z";
    ASSERT_TRUE(h->add(other));
  }
  auto h = BenchHistory::open(db);  // reopened: the runs were written to the file
  ASSERT_TRUE(h);
  EXPECT_EQ(*h->count(), 3);
  auto last = h->last("quick", "node1");
  ASSERT_TRUE(last && last->has_value());
  EXPECT_EQ((*last)->started_utc, "2026-12-01T10:00:00Z");
  ASSERT_EQ((*last)->measurements.size(), 1U);
  EXPECT_DOUBLE_EQ(*(*last)->measurements[0].value, 100);
}

TEST(BenchHistory, ANonDatabaseFileIsAClearError) {
  TempDir dir;
  const std::string db = dir.path + "/bench.sqlite";
  ASSERT_TRUE(write_not_a_database(db));
  auto h = BenchHistory::open(db);
  ASSERT_FALSE(h);
  EXPECT_NE(h.error().message.find("not"), std::string::npos) << h.error().message;
}

/// Runs `sql` on a new SQLite file at `path`; false on any failure.
bool make_database(const std::string& path, const char* sql) {
  sqlite3* db = nullptr;
  bool ok =
      sqlite3_open(path.c_str(), &db) == SQLITE_OK && sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
  sqlite3_close(db);
  return ok;
}

/// The names of the tables in the SQLite file at `path`, sorted, joined by spaces.
std::string tables_of(const std::string& path) {
  sqlite3* db = nullptr;
  std::string names;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_exec(
        db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
        [](void* out, int, char** values, char**) {
          *static_cast<std::string*>(out) += std::string(values[0] != nullptr ? values[0] : "") + " ";
          return 0;
        },
        &names, nullptr);
  }
  sqlite3_close(db);
  return names;
}

// Another program's SQLite file given as the history (a typo in --history) is refused and left as
// it was; bench's own file is marked (application_id), and a file of an older release, with only
// bench's tables and no mark, is still bench's.
TEST(BenchHistory, AnotherProgramsDatabaseIsRefusedAndLeftAsItWas) {
  TempDir dir;
  const std::string app = dir.path + "/app.sqlite";
  ASSERT_TRUE(make_database(app, "CREATE TABLE moz_places(id INTEGER PRIMARY KEY, url TEXT);"));
  auto h = BenchHistory::open(app);
  ASSERT_FALSE(h) << "bench's tables were written into another program's database";
  EXPECT_NE(h.error().message.find("another program's database"), std::string::npos) << h.error().message;
  EXPECT_NE(h.error().message.find("moz_places"), std::string::npos) << h.error().message;
  EXPECT_EQ(tables_of(app), "moz_places ");
  // Marked by another program, though with no table yet.
  const std::string marked = dir.path + "/marked.sqlite";
  ASSERT_TRUE(make_database(marked, "PRAGMA application_id = 1234;"));
  auto m = BenchHistory::open(marked);
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().message.find("application_id 0x000004d2"), std::string::npos) << m.error().message;
  EXPECT_EQ(tables_of(marked), "");
}

TEST(BenchHistory, BenchsOwnFilesOldAndNewAreKept) {
  TempDir dir;
  // A new file: bench's tables and its mark.
  const std::string fresh = dir.path + "/bench.sqlite";
  {
    auto h = BenchHistory::open(fresh);
    ASSERT_TRUE(h) << h.error().message;
    BenchReport r;
    r.mode = "quick";
    r.host = "n";
    r.started_utc = "2026-12-01T10:00:00Z";
    ASSERT_TRUE(h->add(r));
  }
  EXPECT_EQ(tables_of(fresh), "figures runs ");
  {
    sqlite3* db = nullptr;
    int id = 0;
    ASSERT_EQ(sqlite3_open_v2(fresh.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_exec(
        db, "PRAGMA application_id",
        [](void* out, int, char** values, char**) {
          *static_cast<int*>(out) = std::atoi(values[0] != nullptr ? values[0] : "0");
          return 0;
        },
        &id, nullptr);
    sqlite3_close(db);
    EXPECT_EQ(id, 0x47504442) << "bench marks its own file (\"GPDB\")";
  }
  auto again = BenchHistory::open(fresh);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(*again->count(), 1);
  // An empty SQLite file someone made for it, and a history of a release before the mark (bench's
  // two tables, application_id 0): both bench's, the old one's runs kept.
  const std::string empty = dir.path + "/empty.sqlite";
  ASSERT_TRUE(make_database(empty, "PRAGMA user_version = 0;"));
  EXPECT_TRUE(BenchHistory::open(empty));
  const std::string old = dir.path + "/old.sqlite";
  ASSERT_TRUE(make_database(
      old,
      "CREATE TABLE runs (id INTEGER PRIMARY KEY, started_utc TEXT NOT NULL, mode TEXT NOT NULL, host TEXT NOT NULL, "
      "report_json TEXT NOT NULL); CREATE TABLE figures (run_id INTEGER NOT NULL REFERENCES runs(id), key TEXT NOT "
      "NULL, value REAL, spread_pct REAL NOT NULL, status TEXT NOT NULL); CREATE INDEX figures_key ON figures(key); "
      "INSERT INTO runs VALUES (1, '2026-11-01T00:00:00Z', 'quick', 'n', '{}');"));
  auto o = BenchHistory::open(old);
  ASSERT_TRUE(o) << o.error().message;
  EXPECT_EQ(*o->count(), 1);
}

/// The SQLite header's file change counter (offset 24, big-endian): one more per write transaction.
long long change_counter(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return -1;
  unsigned char header[28] = {};
  const size_t got = std::fread(header, 1, sizeof header, f);
  std::fclose(f);
  if (got != sizeof header) return -1;
  return (static_cast<long long>(header[24]) << 24) | (header[25] << 16) | (header[26] << 8) | header[27];
}

// Session 44's re-read: opening a history that is already bench's writes nothing (the mark was
// rewritten at every open, a write that waits on a concurrent bench's transaction).
TEST(BenchHistory, OpeningAMarkedHistoryWritesNothing) {
  TempDir dir;
  const std::string path = dir.path + "/bench.sqlite";
  ASSERT_TRUE(BenchHistory::open(path));
  const long long before = change_counter(path);
  ASSERT_GE(before, 0);
  ASSERT_TRUE(BenchHistory::open(path));
  EXPECT_EQ(change_counter(path), before);
}

TEST(BenchHistory, ASymlinkedHistoryIsRefused) {
  TempDir dir;
  const std::string target = dir.path + "/elsewhere.sqlite";
  const std::string link = dir.path + "/bench.sqlite";
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  auto h = BenchHistory::open(link);
  EXPECT_FALSE(h) << "the history is not written through a symlink";
  EXPECT_FALSE(std::filesystem::exists(target));
}

TEST(BenchHistory, DefaultPathFollowsXdg) {
  EXPECT_EQ(BenchHistory::default_path("/x/data", "/home/u"), "/x/data/gpudoctor/bench.sqlite");
  EXPECT_EQ(BenchHistory::default_path(nullptr, "/home/u"), "/home/u/.local/share/gpudoctor/bench.sqlite");
  EXPECT_EQ(BenchHistory::default_path("relative", nullptr), "");
}

// End to end: a history whose last quick run is far faster than anything this machine can do;
// `bench --compare` names the regression, exits 1, and keeps the new run.
TEST(BenchCompare, ARegressionAgainstTheHistoryIsNamedAndExitsOne) {
  TempDir dir;
  const std::string db = dir.path + "/bench.sqlite";
  {
    auto h = BenchHistory::open(db);
    ASSERT_TRUE(h);
    BenchReport fast;
    fast.mode = "quick (sgemm 64, conv batch 1)";  // the sizes below: its own mode
    char host[256] = {};
    ASSERT_EQ(::gethostname(host, sizeof host - 1), 0);
    fast.host = host;  // this machine's: another's run is never compared with it
    fast.started_utc = "2026-11-30T09:00:00Z";
    fast.measurements = {figure("cpu.sgemm_fp32", "gflops", 1e9)};
    ASSERT_TRUE(h->add(fast));
    BenchReport elsewhere = fast;
    elsewhere.host = std::string(host) + "-other";
    elsewhere.started_utc = "2026-11-30T10:00:00Z";
    ASSERT_TRUE(h->add(elsewhere));
    BenchReport other_sizes = fast;  // later, but another size: never compared with this run
    other_sizes.mode = "quick (sgemm 128, conv batch 1)";
    other_sizes.started_utc = "2026-11-30T11:00:00Z";
    other_sizes.measurements = {figure("cpu.sgemm_fp32", "gflops", 1)};
    ASSERT_TRUE(h->add(other_sizes));
  }
  auto r = testing::run_gpudoctor({"--json", "bench", "--quick", "--cpu-only", "--sgemm-size", "64", "--conv-batch",
                                   "1", "--compare", "--history", db});
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.json["compared_with_utc"], "2026-11-30T09:00:00Z");
  ASSERT_EQ(r.json["changes"].size(), 1U) << r.json["changes"].dump();
  EXPECT_EQ(r.json["changes"][0]["key"], "cpu.sgemm_fp32.gflops");
  EXPECT_EQ(r.json["changes"][0]["verdict"], "regression");
  auto h = BenchHistory::open(db);
  ASSERT_TRUE(h);
  EXPECT_EQ(*h->count(), 4);  // the three kept before, and this run
  EXPECT_EQ(r.json["mode"], "quick (sgemm 64, conv batch 1)");
}

// ---- Found in review (2026-12-06) ---------------------------------------------------------------

// A figure the last run measured and this run could not (the GPUs gone after a driver update)
// is the worst regression there is: it was not named at all, and --compare passed.
TEST(BenchReport, CompareNamesAFigureThatIsNoLongerMeasured) {
  BenchReport before;
  before.measurements = {figure("cpu.sgemm_fp32", "gflops", 100), figure("gpu0.gemm_fp32", "tflops", 50),
                         figure("gpu1.gemm_fp32", "tflops", 50)};
  BenchReport now;
  now.measurements = {figure("cpu.sgemm_fp32", "gflops", 100), figure("gpu0.gemm_fp32", "tflops", 50)};
  BenchMeasurement skipped;
  skipped.key = "gpu1.gemm_fp32";
  skipped.unit = "tflops";
  skipped.status = BenchStatus::skipped;
  skipped.detail = "no GPU 1: the driver reports 1 device";
  now.measurements.push_back(skipped);
  const auto all = [](const std::string&) { return true; };
  auto changes = compare_runs({before}, now, 5.0, all);
  ASSERT_EQ(changes.size(), 3U);
  EXPECT_EQ(changes[2].key, "gpu1.gemm_fp32.tflops");
  EXPECT_EQ(changes[2].verdict, "not measured");
  EXPECT_NE(changes[2].detail.find("the driver reports 1 device"), std::string::npos) << changes[2].detail;
  // Nothing of GPU 0 at all now: named too.
  now.measurements.erase(now.measurements.begin() + 1, now.measurements.end());
  changes = compare_runs({before}, now, 5.0, all);
  ASSERT_EQ(changes.size(), 3U);
  EXPECT_EQ(changes[1].verdict, "not measured");
  // A run that did not ask for a figure (--cpu-only) does not lose it.
  changes = compare_runs({before}, now, 5.0, [](const std::string& key) { return key.starts_with("cpu."); });
  ASSERT_EQ(changes.size(), 1U);
  EXPECT_EQ(changes[0].verdict, "same");
}

// Run-to-run noise is measured from the history: one lucky earlier run made the next normal one a
// "regression" (SGEMM 53.5, 90.2, then 51.2 GFLOP/s on a loaded machine, each run's own spread 2%).
TEST(BenchReport, CompareTakesTheNoiseBetweenRunsFromTheHistory) {
  auto run = [](double sgemm) {
    BenchReport r;
    r.measurements = {figure("cpu.sgemm_fp32", "gflops", sgemm, 2.0)};
    return r;
  };
  const auto all = [](const std::string&) { return true; };
  // Newest first, as the history returns them.
  auto changes = compare_runs({run(90.2), run(53.5)}, run(51.2), 5.0, all);
  ASSERT_EQ(changes.size(), 1U);
  EXPECT_EQ(changes[0].verdict, "same") << changes[0].noise_pct;
  EXPECT_EQ(changes[0].runs, 2);
  EXPECT_DOUBLE_EQ(changes[0].previous, (90.2 + 53.5) / 2);
  // A machine whose runs agree: half the speed is a regression.
  changes = compare_runs({run(100), run(101), run(99)}, run(50), 5.0, all);
  ASSERT_EQ(changes.size(), 1U);
  EXPECT_EQ(changes[0].verdict, "regression");
  EXPECT_DOUBLE_EQ(changes[0].previous, 100);
  EXPECT_EQ(changes[0].runs, 3);
}

// Other work on the CPUs before a run makes its CPU figures low and unlike the next run's (the
// review's loaded VM, load average 5 on 2 CPUs): said beside the figures, from /proc/loadavg.
TEST(BenchReport, ABusyMachineIsSaid) {
  auto note = busy_machine_note("5.21 4.80 3.90 7/312 4242\n", 2);
  ASSERT_TRUE(note);
  EXPECT_NE(note->find("5.2"), std::string::npos) << *note;
  EXPECT_NE(note->find("2 CPU"), std::string::npos) << *note;
  EXPECT_FALSE(busy_machine_note("0.08 0.10 0.09 1/200 99\n", 2));
  // A 64-core server with one busy core is not busy for this purpose.
  EXPECT_FALSE(busy_machine_note("1.50 1.20 1.00 2/900 1\n", 64));
  EXPECT_TRUE(busy_machine_note("12.0 8.0 4.0 13/900 1\n", 64));
  // Junk says nothing.
  EXPECT_FALSE(busy_machine_note("", 2));
  EXPECT_FALSE(busy_machine_note("nan inf x", 2));
}

TEST(BenchHistory, RecentRunsNewestFirstAndOnlyOfTheModeAndHost) {
  TempDir dir;
  auto h = BenchHistory::open(dir.path + "/bench.sqlite");
  ASSERT_TRUE(h) << h.error().message;
  for (int i = 0; i < 7; ++i) {
    BenchReport r;
    r.mode = i == 3 ? "full" : "quick";
    r.host = "node1";
    r.started_utc = "2026-12-01T10:0" + std::to_string(i) + ":00Z";
    ASSERT_TRUE(h->add(r));
  }
  auto recent = h->recent("quick", "node1", 5);
  ASSERT_TRUE(recent) << recent.error().message;
  ASSERT_EQ(recent->size(), 5U);
  EXPECT_EQ(recent->front().started_utc, "2026-12-01T10:06:00Z");
  EXPECT_EQ(recent->back().started_utc, "2026-12-01T10:01:00Z") << "10:03 was a full run";
}

// A history reached through a linked directory ($HOME -> /var/home, HPC homes on /gpfs) is the
// user's own: SQLite's no-follow flag refused a link anywhere in the path, so every bench failed.
TEST(BenchHistory, AHistoryInALinkedDirectoryOpens) {
  TempDir dir;
  ASSERT_TRUE(std::filesystem::create_directory(dir.path + "/real"));
  ASSERT_EQ(::symlink((dir.path + "/real").c_str(), (dir.path + "/home").c_str()), 0);
  auto h = BenchHistory::open(dir.path + "/home/.local/share/gpudoctor/bench.sqlite");
  ASSERT_TRUE(h) << h.error().message;
  EXPECT_TRUE(std::filesystem::exists(dir.path + "/real/.local/share/gpudoctor/bench.sqlite"));
  // The file itself a link: still refused.
  ASSERT_EQ(::symlink((dir.path + "/elsewhere").c_str(), (dir.path + "/real/link.sqlite").c_str()), 0);
  EXPECT_FALSE(BenchHistory::open(dir.path + "/home/link.sqlite"));
  EXPECT_FALSE(std::filesystem::exists(dir.path + "/elsewhere"));
}

// A history that cannot be used is not a failed benchmark: the figures stand, the run says it was
// not saved, and the exit status is 0. Asked to compare, the comparison could not be made: that
// is said as such, not as "a benchmark failed".
TEST(BenchCompare, AnUnusableHistoryIsNotAFailedBenchmark) {
  TempDir dir;
  const std::string db = dir.path + "/bench.sqlite";
  ASSERT_TRUE(write_not_a_database(db));
  const std::vector<std::string> args = {
      "bench", "--quick", "--cpu-only", "--sgemm-size", "64", "--conv-batch", "1", "--history", db};
  std::vector<std::string> json_args = args;
  json_args.insert(json_args.begin(), "--json");
  auto r = testing::run_gpudoctor(json_args);
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.json["passed"], true);
  EXPECT_NE(r.json["notes"].dump().find("not saved"), std::string::npos) << r.json["notes"].dump();
  std::vector<std::string> compare = args;
  compare.push_back("--compare");
  auto t = testing::run_gpudoctor(compare);
  EXPECT_EQ(t.exit_code, 1) << t.out;
  EXPECT_NE(t.out.find("could not compare"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("could not do all it was asked"), std::string::npos) << t.out;
  EXPECT_EQ(t.out.find("a benchmark failed"), std::string::npos) << t.out;
}

// End to end: an earlier run of the same mode measured a GPU figure this machine (no driver
// here) cannot: --compare names it and exits 1; with --cpu-only it is not asked for.
TEST(BenchCompare, AFigureTheLastRunHadIsNamedWhenItIsGone) {
  TempDir dir;
  const std::string db = dir.path + "/bench.sqlite";
  char host[256] = {};
  ASSERT_EQ(::gethostname(host, sizeof host - 1), 0);
  {
    auto h = BenchHistory::open(db);
    ASSERT_TRUE(h);
    BenchReport before;
    before.mode = "quick (sgemm 64, conv batch 1)";
    before.host = host;
    before.started_utc = "2026-11-30T09:00:00Z";
    before.measurements = {figure("cpu.sgemm_fp32", "gflops", 1e-3), figure("gpu0.gemm_fp32", "tflops", 60)};
    ASSERT_TRUE(h->add(before));
  }
  // --cpu-only does not ask for the GPU figures: none is lost.
  auto cpu = testing::run_gpudoctor({"--json", "bench", "--quick", "--cpu-only", "--sgemm-size", "64", "--conv-batch",
                                     "1", "--compare", "--history", db});
  ASSERT_TRUE(cpu.json.is_object()) << cpu.out << cpu.err;
  EXPECT_EQ(cpu.exit_code, 0) << cpu.json["changes"].dump();
  EXPECT_EQ(cpu.json["changes"].dump().find("gpu0"), std::string::npos);
  // The whole run: the figure of the last run that measured it is named, though a CPU-only run
  // came in between.
  auto r = testing::run_gpudoctor(
      {"--json", "bench", "--quick", "--sgemm-size", "64", "--conv-batch", "1", "--compare", "--history", db});
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  EXPECT_EQ(r.exit_code, 1);
  bool named = false;
  for (const auto& c : r.json["changes"])
    named |= c["key"] == "gpu0.gemm_fp32.tflops" && c["verdict"] == "not measured";
  EXPECT_TRUE(named) << r.json["changes"].dump();
}

// The CPU baseline for real, through the child and the real OpenBLAS and oneDNN, at small sizes.
TEST(CpuBench, SgemmAndConvRunInAChildAndPassTheirChecks) {
  BenchOptions o;
  o.mode = "quick";
  o.gpu = false;
  o.sizes.sgemm_n = 192;
  o.sizes.conv_n = 1;
  BenchReport r = run_bench(o);
  ASSERT_EQ(r.measurements.size(), 2U);
  for (const auto& m : r.measurements) {
    if (m.status == BenchStatus::skipped) {
      GTEST_SKIP() << m.key << " could not run here: " << m.detail;
    }
    EXPECT_EQ(m.status, BenchStatus::ok) << m.key << ": " << m.detail;
    EXPECT_TRUE(m.check_passed) << m.check;
    ASSERT_TRUE(m.value.has_value());
    EXPECT_GT(*m.value, 0.1) << m.key;
    EXPECT_GE(m.iterations, 5);
  }
  EXPECT_NE(r.measurements[0].library.find("OpenBLAS"), std::string::npos) << r.measurements[0].library;
  EXPECT_NE(r.measurements[1].library.find("oneDNN"), std::string::npos) << r.measurements[1].library;
}

TEST(CpuBench, AMissingLibraryIsSkippedWithTheReason) {
  std::vector<ChildOutcome> out = run_isolated(
      {{"cpu-bench", {"sgemm", "64", "quick", "lib=/nonexistent/libopenblas.so.0"}}}, std::chrono::seconds(30));
  BenchMeasurement m = measurement_from_child("cpu.sgemm_fp32", "gflops", out.at(0));
  EXPECT_EQ(m.status, BenchStatus::skipped);
  EXPECT_NE(m.detail.find("OpenBLAS"), std::string::npos) << m.detail;
  EXPECT_FALSE(m.value.has_value());
}

// numpy's and scipy's wheels bundle OpenBLAS under names of their own; bench falls back on them
// where the system has none, numpy's first, and takes nothing else from those folders.
TEST(CpuBench, BundledOpenblasIsFoundInNumpyThenScipyWheels) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("gpudoctor-bundled-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::path a = dir / "a" / "site-packages";
  fs::path b = dir / "b" / "site-packages";
  for (const fs::path& p : {a / "numpy.libs", a / "scipy.libs", b / "numpy.libs", b / "numpy.libs" / "openblas.so"})
    fs::create_directories(p);
  for (const fs::path& f :
       {a / "numpy.libs" / "libscipy_openblas64_-4e3987.so", a / "numpy.libs" / "libgfortran-040039e1.so.5.0.0",
        a / "numpy.libs" / "libopenblas-notes.txt", a / "scipy.libs" / "libscipy_openblas-68440149.so",
        b / "numpy.libs" / "libopenblas64_p-r0-5007b62f.3.23.dev.so"}) {
    std::FILE* out = std::fopen(f.c_str(), "w");
    ASSERT_NE(out, nullptr) << f;
    std::fclose(out);
  }
  // Whatever this process's umask: the folders and files writable by their owner only.
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    fs::permissions(e.path(), e.is_directory() ? fs::perms(0755) : fs::perms(0644));
  }
  fs::permissions(dir, fs::perms(0755));
  std::vector<std::string> found = bundled_openblas({a.string(), b.string(), (dir / "missing").string()}).found;
  EXPECT_EQ(found, (std::vector<std::string>{(a / "numpy.libs" / "libscipy_openblas64_-4e3987.so").string(),
                                             (b / "numpy.libs" / "libopenblas64_p-r0-5007b62f.3.23.dev.so").string(),
                                             (a / "scipy.libs" / "libscipy_openblas-68440149.so").string()}));
  EXPECT_TRUE(bundled_openblas({}).found.empty());
  // A copy anyone may replace, or one in a folder anyone may write to, is never offered: it would
  // be loaded and run. Each refusal is said, with the reason.
  fs::permissions(b / "numpy.libs" / "libopenblas64_p-r0-5007b62f.3.23.dev.so", fs::perms(0666));
  fs::permissions(a / "scipy.libs", fs::perms(0777));
  BundledOpenblas r = bundled_openblas({a.string(), b.string()});
  EXPECT_EQ(r.found, (std::vector<std::string>{(a / "numpy.libs" / "libscipy_openblas64_-4e3987.so").string()}));
  ASSERT_EQ(r.refused.size(), 2U);
  EXPECT_NE(r.refused[0].find("libopenblas64_p-r0-5007b62f.3.23.dev.so is writable by every user"), std::string::npos)
      << r.refused[0];
  EXPECT_NE(r.refused[1].find("scipy.libs is writable by every user"), std::string::npos) << r.refused[1];
  fs::remove_all(dir);
}

// Only environments the user points at lend their bundled OpenBLAS: one found by scanning a
// folder anyone may create would have its library run in our child.
TEST(CpuBench, OnlyEnvironmentsTheUserPointsAtLendTheirOpenblas) {
  auto env = [](std::string site, std::vector<std::string> via) {
    PythonEnvFacts e;
    e.site_packages = {std::move(site)};
    e.found_via = std::move(via);
    return e;
  };
  std::vector<PythonEnvFacts> envs{
      env("/chosen/env", {"--env"}),
      env("/usr/lib/python3/dist-packages", {"system lib libpython3.11.so.1.0", "PATH"}),
      env("/scanned/venv", {"./.venv"}),
      env("C:\\Python39\\Lib\\site-packages", {"standard install folder"}),
      env("/home/x/.virtualenvs/a", {"~/.virtualenvs"}),
      env("/opt/conda/envs/b", {"~/.conda/environments.txt"}),
      env("/active", {"VIRTUAL_ENV"}),
      env("/conda", {"CONDA_PREFIX"}),
      env("C:\\Py311\\Lib\\site-packages", {"PEP 514 HKCU PythonCore\\3.11"}),
      env("/given/python", {"--python"}),
  };
  EXPECT_EQ(user_chosen_site_packages(envs),
            (std::vector<std::string>{"/chosen/env", "/usr/lib/python3/dist-packages", "/active", "/conda",
                                      "C:\\Py311\\Lib\\site-packages", "/given/python"}));
}

// Every lib= is tried in order: the first that loads is measured.
TEST(CpuBench, EveryLibraryArgumentIsTriedInOrder) {
  std::vector<ChildOutcome> out = run_isolated(
      {{"cpu-bench", {"sgemm", "64", "quick", "lib=/nonexistent/libopenblas.so.0", "lib=libopenblas.so.0"}}},
      std::chrono::seconds(60));
  BenchMeasurement m = measurement_from_child("cpu.sgemm_fp32", "gflops", out.at(0));
  if (m.status == BenchStatus::skipped) GTEST_SKIP() << "no OpenBLAS here: " << m.detail;
  EXPECT_EQ(m.status, BenchStatus::ok) << m.detail;
  EXPECT_EQ(m.library.find("/nonexistent"), std::string::npos) << m.library;
}

}  // namespace
}  // namespace gpudoctor::gpu
