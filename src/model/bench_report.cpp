#include "model/bench_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

namespace gpudoctor {

const char* to_string(BenchStatus s) {
  switch (s) {
    case BenchStatus::none:
      return "";
    case BenchStatus::ok:
      return "ok";
    case BenchStatus::skipped:
      return "skipped";
    case BenchStatus::failed:
      return "failed";
    case BenchStatus::crashed:
      return "crashed";
    case BenchStatus::timeout:
      return "timeout";
  }
  return "";
}

BenchStatus parse_bench_status(std::string_view name) {
  for (BenchStatus s :
       {BenchStatus::ok, BenchStatus::skipped, BenchStatus::failed, BenchStatus::crashed, BenchStatus::timeout}) {
    if (name == to_string(s)) return s;
  }
  return BenchStatus::none;
}
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
  // Same unit: as they are (images/s over images/s); otherwise both in GFLOP/s.
  const bool same_unit = a != nullptr && b != nullptr && a->unit == b->unit;
  auto av = value_in(a, same_unit ? a->unit : "gflops");
  auto bv = value_in(b, same_unit ? b->unit : "gflops");
  if (!av || !bv || *bv <= 0) {
    std::string missing = !av ? top : bottom;
    const BenchMeasurement* m = find_measurement(r, missing);
    c.basis = "not measured here: " + missing +
              (m == nullptr                        ? " was not run"
               : m->status == BenchStatus::skipped ? " was skipped (" + m->detail + ")"
                                                   : " did not pass");
    return c;
  }
  c.ratio = *av / *bv;
  c.basis = a_key + " over " + b_key;
  return c;
}

/// The GPUs' models joined by ", " when they are not all the same model; empty when they are
/// (or when the framework did not name them).
std::string unlike_gpus(const std::vector<std::string>& gpus) {
  if (std::all_of(gpus.begin(), gpus.end(), [&](const std::string& g) { return g == gpus.front(); })) return {};
  std::string text;
  for (const std::string& g : gpus) text += (text.empty() ? "" : ", ") + g;
  return text;
}

/// The framework claims for each "<framework>.<model>" that has training-step figures.
void framework_claims(const BenchReport& r, std::vector<BenchClaim>& claims) {
  std::vector<std::string> prefixes;
  for (const auto& m : r.measurements) {
    if (m.unit != "images_per_s") continue;
    std::string prefix = m.key.substr(0, m.key.find('_'));
    if (std::find(prefixes.begin(), prefixes.end(), prefix) == prefixes.end()) prefixes.push_back(prefix);
  }
  for (const std::string& p : prefixes) {
    const std::string framework = p.substr(0, p.find('.'));
    const std::string model = p.substr(p.find('.') + 1);
    const std::string name = model == "resnet50" ? "ResNet-50" : (model == "resnet18" ? "ResNet-18" : model);
    const std::string what = name + " training, " + framework + ": ";
    const BenchMeasurement* one = find_measurement(r, p + "_fp32.gpu0");
    // The guides' figures are against plain FP32; the frameworks' FP32 on Ampere and newer is TF32
    // in the convolutions unless turned off, which takes much of mixed precision's gain first.
    const bool tf32 = one != nullptr && one->tf32.value_or(false);
    const std::string tf32_basis =
        "; the FP32 step was allowed TF32 (the framework's default on CC 8.0 and newer), not plain FP32";
    claims.push_back(ratio_claim(r, what + (tf32 ? "GPU (FP32, TF32 allowed) / CPU (FP32)" : "GPU/CPU (FP32 both)"),
                                 "the guides: ResNet-50, 8 hours on a CPU, 12 minutes on a GPU (40x)", p + "_fp32.gpu0",
                                 p + "_fp32.cpu"));
    if (tf32 && claims.back().ratio) claims.back().basis += tf32_basis;
    std::string half = find_measurement(r, p + "_fp16.gpu0") != nullptr ? "fp16" : "bf16";
    claims.push_back(
        ratio_claim(r, what + "mixed precision (" + half + ") over FP32" + (tf32 ? " with TF32 allowed" : ""),
                    "the guides: mixed precision gives 1.5-3x", p + "_" + half + ".gpu0", p + "_fp32.gpu0"));
    if (tf32 && claims.back().ratio) claims.back().basis += tf32_basis;
    // Data-parallel: "<p>_fp32.gpusN" against N times one GPU.
    BenchClaim scaling{.what = what + "data-parallel scaling efficiency",
                       .guide = "the guides: 92% scaling on two GPUs",
                       .ratio = std::nullopt,
                       .basis = ""};
    const BenchMeasurement* many = nullptr;
    int n = 0;
    for (const auto& m : r.measurements) {
      const std::string head = p + "_fp32.gpus";
      if (m.key.starts_with(head) && m.key.size() > head.size()) many = &m, n = std::atoi(m.key.c_str() + head.size());
    }
    if (one == nullptr || !one->ok()) {
      scaling.basis =
          "not measured here: " + p + "_fp32.gpu0 " + (one == nullptr ? "was not run (no GPU)" : "did not pass");
    } else if (many == nullptr) {
      scaling.basis = "cannot measure: one GPU";
    } else if (!many->ok() || n < 2) {
      scaling.basis = "not measured here: " + many->key + " did not pass";
    } else if (std::string models = unlike_gpus(many->gpus); !models.empty()) {
      // A synchronous step waits for the slowest GPU, and only GPU 0 was measured alone: n times
      // GPU 0 is no baseline for GPUs of different models.
      scaling.basis = "cannot compare: the GPUs are of different models (" + models +
                      "); a synchronous data-parallel step runs at the slowest GPU's pace, and only GPU 0 was "
                      "measured alone";
    } else {
      scaling.what += " on " + std::to_string(n) + " GPUs";
      scaling.ratio = *many->value / (n * *one->value);
      scaling.basis = many->json_key() + " over " + std::to_string(n) + " x " + one->json_key();
    }
    claims.push_back(std::move(scaling));
  }
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
  framework_claims(r, claims);
  return claims;
}

/// The library file a figure's `library` text ends with ("..., 2 thread(s), /usr/lib/.../libopenblas.so.0",
/// "cuBLASLt 13.1.0 /usr/local/cuda/lib64/libcublasLt.so.13"), with its version numbers taken out
/// ("/usr/local/cuda-#/targets/x#_#-linux/lib/libcublasLt.so.#"): the loader's path is resolved to
/// the versioned file, so an update in place changes the path but not which library it is.
/// Empty when the text names no file.
std::string library_file(const std::string& library) {
  const size_t space = library.find_last_of(' ');
  std::string last = space == std::string::npos ? library : library.substr(space + 1);
  if (last.find_first_of("/\\") == std::string::npos) return {};
  std::string out;
  for (size_t i = 0; i < last.size();) {
    if (last[i] < '0' || last[i] > '9') {
      out += last[i++];
      continue;
    }
    // A run of digits and the dots between them: 13, 13.1.0.3, 0.3.26.
    while (i < last.size() && ((last[i] >= '0' && last[i] <= '9') ||
                               (last[i] == '.' && i + 1 < last.size() && last[i + 1] >= '0' && last[i + 1] <= '9')))
      ++i;
    out += '#';
  }
  return out;
}

namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

const BenchMeasurement* ok_measurement(const BenchReport& r, const std::string& key) {
  const BenchMeasurement* m = find_measurement(r, key);
  return m != nullptr && m->ok() ? m : nullptr;
}

}  // namespace

std::vector<BenchChange> compare_runs(const BenchReport& previous, const BenchReport& current, double floor_pct) {
  return compare_runs(std::vector<BenchReport>{previous}, current, floor_pct, [](const std::string&) { return true; });
}

std::vector<BenchChange> compare_runs(const std::vector<BenchReport>& earlier, const BenchReport& current,
                                      double floor_pct, const std::function<bool(const std::string&)>& selected) {
  std::vector<BenchChange> changes;
  for (const auto& now : current.measurements) {
    if (!now.ok()) continue;
    // The newest earlier run that measured it decides whether it can be compared at all.
    const BenchMeasurement* before = nullptr;
    for (const BenchReport& r : earlier) {
      if ((before = ok_measurement(r, now.key)) != nullptr) break;
    }
    if (before == nullptr || before->unit != now.unit || *before->value <= 0) continue;
    BenchChange c;
    c.key = now.json_key();
    c.current = *now.value;
    // Every figure is a rate: higher is better. A figure measured through another library file
    // (the system's OpenBLAS, then an activated venv's bundled copy) says nothing about the
    // machine; the same file in a new version (a cuBLAS update) is compared: that is the question.
    const std::string before_file = library_file(before->library);
    const std::string now_file = library_file(now.library);
    const bool other_library = !before_file.empty() && !now_file.empty() && before_file != now_file;
    // NVIDIA_TF32_OVERRIDE or a framework setting: another precision.
    const bool other_tf32 = before->tf32 && now.tf32 && *before->tf32 != *now.tf32;
    std::vector<double> values;
    double spread = now.spread_pct;
    for (const BenchReport& r : earlier) {
      const BenchMeasurement* m = ok_measurement(r, now.key);
      if (m == nullptr || m->unit != now.unit || *m->value <= 0) continue;
      if (other_library || other_tf32) {  // judged against the newest alone, and not judged
        if (m != before) continue;
      } else if ((!now_file.empty() && !library_file(m->library).empty() && library_file(m->library) != now_file) ||
                 (m->tf32 && now.tf32 && *m->tf32 != *now.tf32)) {
        continue;
      }
      values.push_back(*m->value);
      spread = std::max(spread, m->spread_pct);
    }
    if (values.empty()) continue;  // `before` is among them unless its own figure is unusable
    c.previous = median_of(values);
    c.runs = static_cast<int>(values.size());
    c.change_pct = (c.current - c.previous) / c.previous * 100.0;
    std::vector<double> deviations;
    for (double v : values) deviations.push_back(std::abs(v - c.previous) / c.previous * 100.0);
    const double between_runs = median_of(deviations);
    c.noise_pct = std::max({floor_pct, 3.0 * spread, 3.0 * between_runs});
    if (other_library)
      c.verdict = "library changed";
    else if (other_tf32)
      c.verdict = "TF32 changed";
    else if (c.change_pct < -c.noise_pct)
      c.verdict = "regression";
    else if (c.change_pct > c.noise_pct)
      c.verdict = "improvement";
    else
      c.verdict = "same";
    changes.push_back(std::move(c));
  }
  // What an earlier run measured and this run, asked for it, did not: lost GPUs after a driver
  // update, a library that no longer loads. The newest earlier run that measured it is named.
  std::vector<std::string> seen;
  for (const BenchReport& r : earlier) {
    for (const auto& m : r.measurements) {
      if (!m.ok() || *m.value <= 0 || !selected(m.key) || ok_measurement(current, m.key) != nullptr) continue;
      if (std::find(seen.begin(), seen.end(), m.key) != seen.end()) continue;
      seen.push_back(m.key);
      BenchChange c;
      c.key = m.json_key();
      c.previous = *m.value;
      c.current = 0;
      c.change_pct = -100;
      c.verdict = "not measured";
      if (const BenchMeasurement* now = find_measurement(current, m.key)) {
        c.detail = std::string(to_string(now->status)) + (now->detail.empty() ? "" : ": " + now->detail);
      } else {
        c.detail = "this run has no such figure (the earlier run of " + r.started_utc + " measured it)";
      }
      changes.push_back(std::move(c));
    }
  }
  return changes;
}

std::optional<std::string> busy_machine_note(std::string_view loadavg, int cpus) {
  const size_t end = loadavg.find(' ');
  const std::string first(loadavg.substr(0, end));
  char* stop = nullptr;
  const double load = std::strtod(first.c_str(), &stop);
  if (first.empty() || stop != first.c_str() + first.size() || !std::isfinite(load) || cpus <= 0) return std::nullopt;
  if (load < std::max(1.0, 0.1 * cpus)) return std::nullopt;
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", load);
  return "the machine was busy before this run (load average " + std::string(text) + " on " + std::to_string(cpus) +
         " CPU(s)): other work shares the CPUs, so the CPU figures may be low and differ from run to run";
}

bool is_regression(const BenchChange& change) {
  return change.verdict == "regression" || change.verdict == "not measured";
}

bool bench_passed(const BenchReport& report) {
  if (!report.problems.empty()) return false;
  for (const auto& m : report.measurements) {
    if (m.status == BenchStatus::failed || m.status == BenchStatus::crashed || m.status == BenchStatus::timeout)
      return false;
    if (m.status == BenchStatus::ok && !m.check_passed) return false;
  }
  return true;
}

}  // namespace gpudoctor
