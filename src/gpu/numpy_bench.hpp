#pragma once
/// bench's CPU SGEMM held against numpy.matmul on the same size in the same run (issue 16: "where
/// a framework is installed, the same operation through that framework measured in the same
/// run"): the environment's own interpreter times float32 a @ b in a child with a deadline (the
/// seam of verify --framework, framework_verify.hpp), with bench's sampling policy and threads.
/// The CPU has no datasheet peak the doctor can derive honestly (no reliable clock under turbo or
/// in a VM), so numpy's figure is the SGEMM's ceiling.
#include <chrono>
#include <string>

#include "gpu/bench_math.hpp"
#include "gpu/framework_verify.hpp"
#include "model/bench_report.hpp"

namespace gpudoctor::gpu {

/// The figure's key: "cpu.numpy_matmul_fp32", unit gflops.
inline constexpr const char* kNumpyMatmulKey = "cpu.numpy_matmul_fp32";

/// The Python the child runs (`python -c SCRIPT numpy CONFIG_JSON`); its last line is
/// "GPUDOCTOR-RESULT {json}" with the iteration times and the check's worst error.
const char* numpy_bench_script();

/// The figure from what the interpreter wrote (pure: the tests feed it recorded output).
BenchMeasurement numpy_bench_from_output(const FrameworkTarget& target, int n, const Result<ProcessOutput>& output,
                                         long long elapsed_ms);

BenchMeasurement run_numpy_bench(const ProcessRunner& runner, const FrameworkTarget& target, int n, int threads,
                                 const SamplingPolicy& policy, std::chrono::milliseconds deadline);

/// cpu.sgemm_fp32 held against numpy's figure of the same run: its ceiling and where it came from.
/// Nothing when either did not pass.
void hold_sgemm_against_numpy(BenchReport& report);

}  // namespace gpudoctor::gpu
