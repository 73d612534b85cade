#include "model/bench_report.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace gpudoctor {
namespace {

/// A figure's value in `unit`: tflops and gflops convert, nothing else does.
std::optional<double> value_in(const BenchMeasurement* m, const std::string& unit) {
  if (m == nullptr || !m->ok()) return std::nullopt;
  if (m->unit == unit) return m->value;
  if (m->unit == "tflops" && unit == "gflops") return *m->value * 1000.0;
  if (m->unit == "gflops" && unit == "tflops") return *m->value / 1000.0;
  return std::nullopt;
}

BenchClaim ratio_claim(const BenchReport& r, std::string what, std::string guide, const std::string& top,
                       const std::string& bottom) {
  BenchClaim c{.what = std::move(what), .guide = std::move(guide), .ratio = std::nullopt, .basis = ""};
  const BenchMeasurement* a = find_measurement(r, top);
  const BenchMeasurement* b = find_measurement(r, bottom);
  std::string a_key = a != nullptr ? a->json_key() : top;
  std::string b_key = b != nullptr ? b->json_key() : bottom;
  auto av = value_in(a, "gflops");
  auto bv = value_in(b, "gflops");
  if (!av || !bv || *bv <= 0) {
    std::string missing = !av ? top : bottom;
    c.basis =
        "not measured here: " + missing + (find_measurement(r, missing) == nullptr ? " was not run" : " did not pass");
    return c;
  }
  c.ratio = *av / *bv;
  c.basis = a_key + " over " + b_key;
  return c;
}

}  // namespace

std::optional<double> BenchMeasurement::fraction_of_ceiling() const {
  if (!ok() || !ceiling || *ceiling <= 0) return std::nullopt;
  return *value / *ceiling;
}

const BenchMeasurement* find_measurement(const BenchReport& report, const std::string& key) {
  for (const auto& m : report.measurements) {
    if (m.key == key) return &m;
  }
  return nullptr;
}

std::vector<BenchClaim> bench_claims(const BenchReport& r) {
  const std::string gemm_guide = "the guides: a GPU is 10-50x faster than the CPU";
  const std::string mixed_guide = "the guides: mixed precision gives 1.5-3x";
  std::vector<BenchClaim> claims;
  claims.push_back(ratio_claim(r, "GPU/CPU on GEMM (FP32 both)", gemm_guide, "gpu0.gemm_fp32", "cpu.sgemm_fp32"));
  claims.push_back(ratio_claim(r, "GPU (TF32) / CPU (FP32) on GEMM", gemm_guide, "gpu0.gemm_tf32", "cpu.sgemm_fp32"));
  claims.push_back(ratio_claim(r, "GPU/CPU on convolution (FP32 both)", gemm_guide, "gpu0.conv_fp32", "cpu.conv_fp32"));
  claims.push_back(
      ratio_claim(r, "mixed precision on GEMM: BF16 over FP32", mixed_guide, "gpu0.gemm_bf16", "gpu0.gemm_fp32"));
  claims.push_back(
      ratio_claim(r, "mixed precision on GEMM: FP16 over FP32", mixed_guide, "gpu0.gemm_fp16", "gpu0.gemm_fp32"));
  claims.push_back(
      ratio_claim(r, "mixed precision on GEMM: BF16 over TF32", mixed_guide, "gpu0.gemm_bf16", "gpu0.gemm_tf32"));
  claims.push_back(ratio_claim(r, "mixed precision on convolution: FP16 over FP32", mixed_guide, "gpu0.conv_fp16",
                               "gpu0.conv_fp32"));
  return claims;
}

std::vector<BenchChange> compare_runs(const BenchReport& previous, const BenchReport& current, double floor_pct) {
  std::vector<BenchChange> changes;
  for (const auto& now : current.measurements) {
    if (!now.ok()) continue;
    const BenchMeasurement* before = find_measurement(previous, now.key);
    if (before == nullptr || !before->ok() || before->unit != now.unit || *before->value <= 0) continue;
    BenchChange c;
    c.key = now.json_key();
    c.previous = *before->value;
    c.current = *now.value;
    c.change_pct = (c.current - c.previous) / c.previous * 100.0;
    c.noise_pct = std::max(floor_pct, 3.0 * std::max(before->spread_pct, now.spread_pct));
    // Every figure is a rate: higher is better.
    if (c.change_pct < -c.noise_pct)
      c.verdict = "regression";
    else if (c.change_pct > c.noise_pct)
      c.verdict = "improvement";
    else
      c.verdict = "same";
    changes.push_back(std::move(c));
  }
  return changes;
}

bool bench_passed(const BenchReport& report) {
  if (!report.problems.empty()) return false;
  for (const auto& m : report.measurements) {
    if (m.status == kBenchFailed || m.status == kBenchCrashed || m.status == kBenchTimeout) return false;
    if (m.status == kBenchOk && !m.check_passed) return false;
  }
  return true;
}

}  // namespace gpudoctor
