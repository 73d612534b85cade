#include "gpu/numpy_bench.hpp"

#include <nlohmann/json.hpp>

#include "core/text.hpp"

namespace gpudoctor::gpu {
namespace {
using json = nlohmann::ordered_json;
}  // namespace

const char* numpy_bench_script() {
  // The thread count is set before numpy loads its BLAS (OpenBLAS and MKL read it then). The
  // check: sampled elements against a float64 product, |c - ref| <= 2 k u sum|a||b| (u = 2^-24), the
  // bound bench's own SGEMM check uses (verify_math.hpp). The stopping rule is sample_times'
  // (bench_math.cpp): iteration times summed, the median of the middle pair, spread <= stable_pct.
  return R"PY(
import json, os, statistics, sys, time
cfg = json.loads(sys.argv[2])
for v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[v] = str(cfg["threads"])
out = {}
try:
    import numpy as np
except Exception as e:
    out["skipped"] = "import numpy: " + repr(e)[:200]
    print("GPUDOCTOR-RESULT " + json.dumps(out), flush=True)
    sys.exit(0)
out["version"] = np.__version__
n = cfg["n"]
rng = np.random.default_rng(0)
a = rng.uniform(-1, 1, (n, n)).astype(np.float32)
b = rng.uniform(-1, 1, (n, n)).astype(np.float32)
for _ in range(cfg["warmup"]):
    c = np.matmul(a, b)
def spread_pct(xs):
    med = statistics.median(xs)
    return statistics.median([abs(x - med) for x in xs]) / med * 100 if med > 0 else 0
times = []
total = 0.0
while len(times) < max(cfg["max_iterations"], 1):
    t = time.perf_counter()
    c = np.matmul(a, b)
    times.append(time.perf_counter() - t)
    total += times[-1]
    if total >= cfg["max_seconds"]:
        break
    if len(times) >= cfg["min_iterations"] and total >= cfg["min_seconds"] and spread_pct(times) <= cfg["stable_pct"]:
        break
pick = np.linspace(0, n - 1, min(n, 16)).astype(int)
ra = a[pick].astype(np.float64)
cb = b[:, pick].astype(np.float64)
ref = ra @ cb
bound = 2 * n * 2.0 ** -24 * (np.abs(ra) @ np.abs(cb))
err = np.abs(c[np.ix_(pick, pick)].astype(np.float64) - ref)
out["times"] = times
out["checked"] = int(err.size)
out["wrong"] = int(np.count_nonzero(~(err <= bound)))
print("GPUDOCTOR-RESULT " + json.dumps(out), flush=True)
)PY";
}

BenchMeasurement numpy_bench_from_output(const FrameworkTarget& target, int n, const Result<ProcessOutput>& output,
                                         long long elapsed_ms) {
  BenchMeasurement m{.key = kNumpyMatmulKey, .unit = "gflops", .status = BenchStatus::failed};
  m.wall_seconds = static_cast<double>(elapsed_ms) / 1000.0;
  const std::string where = "environment " + target.env + " (" + target.interpreter + ")";
  if (!output) {
    m.status = output.error().kind == ErrorKind::timeout ? BenchStatus::timeout : BenchStatus::crashed;
    m.detail = "numpy.matmul: " + output.error().message + "; " + where;
    return m;
  }
  json result = json::parse(framework_result_text(output->out), nullptr, false);
  if (!result.is_object()) {
    m.status = output->exit_code < 0 || output->exit_code > 128 ? BenchStatus::crashed : BenchStatus::failed;
    m.detail = "the interpreter ended (status " + std::to_string(output->exit_code) + ") without a result; " + where;
    return m;
  }
  if (auto s = result.find("skipped"); s != result.end() && s->is_string()) {
    m.status = BenchStatus::skipped;
    m.detail = printable(s->get<std::string>(), 300) + "; " + where;
    return m;
  }
  std::vector<double> times;
  if (auto t = result.find("times"); t != result.end() && t->is_array()) {
    for (const auto& x : *t) {
      if (x.is_number() && x.get<double>() > 0) times.push_back(x.get<double>());
    }
  }
  auto version = result.find("version");
  m.library = "numpy" +
              (version != result.end() && version->is_string() ? " " + printable(version->get<std::string>(), 40)
                                                               : std::string()) +
              ", " + where;
  m.detail = "numpy.matmul " + std::to_string(n) + "^3, float32";
  if (times.empty()) {
    m.detail += ": no iteration timed";
    return m;
  }
  fill_rate(m, summarize(times), gemm_flops(n, n, n), 1e9);
  // The child's output is untrusted: a key of another type is no count (json::value would throw).
  const auto count = [&](const char* key, long long absent) {
    const auto it = result.find(key);
    return it != result.end() && it->is_number_integer() ? it->get<long long>() : absent;
  };
  const long long checked = count("checked", 0);
  const long long wrong = count("wrong", -1);
  m.check_passed = checked > 0 && wrong == 0;
  m.check = m.check_passed ? std::to_string(checked) + " sampled elements within the FP32 bound of a float64 product"
                           : std::to_string(wrong < 0 ? checked : wrong) + " of " + std::to_string(checked) +
                                 " sampled elements outside the FP32 bound";
  m.status = m.check_passed ? BenchStatus::ok : BenchStatus::failed;
  return m;
}

BenchMeasurement run_numpy_bench(const ProcessRunner& runner, const FrameworkTarget& target, int n, int threads,
                                 const SamplingPolicy& policy, std::chrono::milliseconds deadline) {
  const json config{{"n", n},
                    {"threads", threads},
                    {"warmup", policy.warmup},
                    {"min_iterations", policy.min_iterations},
                    {"max_iterations", policy.max_iterations},
                    {"min_seconds", policy.min_seconds},
                    {"max_seconds", policy.max_seconds},
                    {"stable_pct", policy.stable_pct}};
  long long elapsed_ms = 0;
  auto output = run_framework_script(runner, target, numpy_bench_script(), {config.dump()}, deadline, elapsed_ms);
  return numpy_bench_from_output(target, n, output, elapsed_ms);
}

void hold_sgemm_against_numpy(BenchReport& report) {
  const BenchMeasurement* numpy = find_measurement(report, kNumpyMatmulKey);
  if (numpy == nullptr || !numpy->ok()) return;
  for (BenchMeasurement& m : report.measurements) {
    if (m.key != "cpu.sgemm_fp32" || !m.ok()) continue;
    m.ceiling = numpy->value;
    m.ceiling_source = "numpy.matmul on the same size in this run (" + numpy->json_key() + ", " + numpy->library + ")";
  }
}

}  // namespace gpudoctor::gpu
