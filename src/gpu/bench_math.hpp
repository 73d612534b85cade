#pragma once
/// bench's method, as pure functions the tests pin down: how many iterations to time and when
/// the median is stable, the statistics reported beside it, the formulas that turn a time into
/// a rate (written down as nccl-tests writes its own), and correctness checks on sampled
/// elements with the error bound verify uses (verify_math.hpp).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpu/reference_check.hpp"
#include "model/bench_report.hpp"

namespace gpudoctor::gpu {

/// Seconds on a monotonic clock (std::chrono::steady_clock).
double monotonic_seconds();

struct SampleStats {
  size_t n = 0;
  double median = 0;  ///< seconds
  double min = 0;
  double max = 0;
  double mad = 0;         ///< median absolute deviation from the median, seconds
  double spread_pct = 0;  ///< mad / median * 100
};

/// Statistics of iteration times; all zero for none.
SampleStats summarize(std::vector<double> seconds);

struct SamplingPolicy {
  int warmup = 2;          ///< untimed runs first: caches, clocks, lazy initialisation
  int min_iterations = 5;  ///< never fewer timed runs
  int max_iterations = 1000;
  double min_seconds = 0.3;  ///< timed runs add up to at least this...
  double max_seconds = 3.0;  ///< ...and stop here even when unstable
  double stable_pct = 2.0;   ///< stop early once the spread is below this
};

/// Runs `once` (which returns the seconds one iteration took: monotonic clock on the CPU, CUDA
/// events on a GPU) `warmup` times untimed, then until the policy says the median is stable
/// or the budget is spent. Returns the timed iterations' seconds.
std::vector<double> sample_times(const std::function<double()>& once, const SamplingPolicy& policy);

/// Floating-point operations of C(MxN) = A(MxK) * B(KxN): 2*M*N*K.
double gemm_flops(double m, double n, double k);
/// Bytes a copy kernel moves for `count` elements of `size` bytes: read + write (STREAM's count).
double copy_bytes(double count, double size);
/// Bytes of a triad a = b + s*c: two reads, one write.
double triad_bytes(double count, double size);
/// nccl-tests' all-reduce bandwidths (doc/PERFORMANCE.md there): algbw = S / t; busbw = algbw *
/// 2(n-1)/n, the bandwidth each link needs, comparable with the hardware's peak.
double algbw_gbps(double bytes, double seconds);
double allreduce_busbw(double algbw, int ranks);
/// Scaling efficiency of n workers over one: throughput_n / (n * throughput_1).
double scaling_efficiency(double one, double many, int n);

/// A measurement's rate figures from its times: value = work / median / scale, min and max
/// from the slowest and fastest iteration. `work` is FLOPs or bytes; `scale` 1e9 for GFLOP/s
/// and GB/s, 1e12 for TFLOP/s.
void fill_rate(BenchMeasurement& m, const SampleStats& stats, double work, double scale);

/// How many elements to check when each costs `terms` products: every one of a small result, and
/// about 1e8 products (a fraction of a second) for a large one, never fewer than 256.
size_t check_samples(long long terms);

/// Row-major C = A * B, `samples` elements picked deterministically across C.
/// `input_u`: the unit roundoff to which the device rounds the inputs itself (TF32: 2^-11), which
/// adds 2 * input_u * sum|a||b| once (each product's two rounded factors), not per term.
/// `output_u`: the unit roundoff of the result's own type when it is narrower than FP32 (an FP16
/// output adds |exact| * 2^-11).
BoundCheck check_gemm_sampled(const float* a, const float* b, const float* c, int m, int n, int k, size_t samples,
                              double unit_roundoff, double terms_factor = 1.0, double output_u = 0, double input_u = 0);

/// A figure's size shrunk to the device memory it may use (`usable` bytes; 0: unknown, nothing
/// shrinks): `--full`'s 16384^3 GEMM and 4 GiB copy arrays do not fit a 12 GB card, and a
/// figure that fails for lack of memory says nothing about the card's speed.
/// The largest N at most `n`, a multiple of 256 (never below 256), whose `bytes_per_element`
/// (summed over the figure's N x N matrices) fit.
int gemm_n_that_fits(int n, double bytes_per_element, std::uint64_t usable);
/// A GEMM's N where a display watchdog ends long kernels (Windows' WDDM resets the driver after
/// 2 s): at most 4096, one call of 0.14 TFLOP, well under a second even on a laptop part or in
/// emulated BF16; `n` without a watchdog.
int gemm_n_under_watchdog(int n, bool watchdog);
/// Bytes per array at most `bytes`, whole MiB (never below 1 MiB), of which `arrays` fit.
long long array_bytes_that_fit(long long bytes, int arrays, std::uint64_t usable);
/// What a figure may use of `free_bytes` on the device: 80 %, the rest left to the libraries'
/// handles and workspaces (cuBLAS's, cuDNN's).
std::uint64_t usable_device_memory(std::uint64_t free_bytes);

/// FP8 E4M3 (OCP FP8, NVIDIA's __nv_fp8_e4m3): 4 exponent bits (bias 7), 3 mantissa bits, no
/// infinities, max 448. Round to nearest even, saturating at +-448 (what cuBLASLt's FP8 inputs
/// are prepared with); NaN stays NaN (0x7F).
std::uint8_t float_to_e4m3(float f);
float e4m3_to_float(std::uint8_t v);
/// The unit roundoff bench's FP8 GEMM check allows for the accumulation: Hopper's FP8 tensor
/// cores keep about 14 bits while accumulating (DeepSeek-V3 technical report, section 3.3.2), far
/// fewer than FP32's 24; with the tensor-core factor 2 the bound covers truncation too.
inline constexpr double kFp8AccumulateUnitRoundoff = 1.0 / (1 << 14);
/// That per-element bound grows with K faster than a random-sign result does, so at large K it
/// would pass even a zero matrix; the FP8 check also holds the sampled elements' relative error
/// (2-norm) under this. The same report measured up to about 2 % at K = 4096.
inline constexpr double kFp8MaxRelativeError = 0.05;
/// ||C - A*B|| / ||A*B|| over the elements check_gemm_sampled picks (row-major, double reference);
/// 1 for a zero result, NaN for a NaN. bench calls the one-pass form below; this one stays for
/// perf/bench_host_work.sh, which times it against revisions that had only it.
double gemm_sampled_relative_error(const float* a, const float* b, const float* c, int m, int n, int k, size_t samples);
/// Both of the above over one pass of the samples (the FP8 figure needs both): the bound check
/// (no output or input rounding terms) and, in `relative_error`, the relative 2-norm error.
BoundCheck check_gemm_sampled_with_relative_error(const float* a, const float* b, const float* c, int m, int n, int k,
                                                  size_t samples, double unit_roundoff, double terms_factor,
                                                  double& relative_error);

/// The NVLink generation ("3.1") of NVML's nvmlDeviceGetNvLinkVersion answer, which is the enum
/// nvmlNvlinkVersion_t (5 is NVLink 3.1), not the generation; "" when unknown.
std::string nvlink_version_name(unsigned nvml_version);
/// Per-direction bandwidth, GB/s, of one NVLink of NVML's version enum on a device of compute
/// capability `cc_major`.`cc_minor`, 0 when unknown. From NVIDIA's per-GPU totals (bidirectional)
/// over its link count: P100 160 GB/s over 4 links (1.0), V100 300 over 6 (2.x), A100 600 over 12
/// (3.x), GA102 112.5 over 4 (3.x at CC 8.6), H100/H200 900 over 18 (4.0), B200 1800 over 18 (5.0).
double nvlink_gbps_per_link(unsigned nvml_version, int cc_major, int cc_minor);
/// Per-direction bandwidth, GB/s, of a PCIe link of generation `gen` and `width` lanes after line
/// encoding (8b/10b for gen 1-2, 128b/130b for gen 3-5, flits less CRC and FEC for gen 6): gen3
/// x16 = 15.75, gen6 x16 = 121. 0 when unknown.
double pcie_link_gbps(unsigned gen, unsigned width);

/// NCHW stride-1 cross-correlation with zero padding, filters KCRS, y NCHW.
/// The CPU convolution bench measures unless told otherwise (a ResNet-50 stage-2 layer, batch 8).
inline constexpr ConvShape kBenchCpuConvShape{.n = 8, .c = 64, .h = 56, .w = 56, .k = 64, .r = 3, .s = 3, .pad = 1};
BoundCheck check_conv_sampled(const ConvShape& shape, const float* x, const float* w, const float* y, size_t samples,
                              double unit_roundoff, double terms_factor = 1.0, double output_u = 0);

}  // namespace gpudoctor::gpu
