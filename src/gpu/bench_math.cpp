#include "gpu/bench_math.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace gpudoctor::gpu {
namespace {

double median_of(std::vector<double>& v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t mid = v.size() / 2;
  return v.size() % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2.0;
}

std::string check_summary(const BoundCheck& c) {
  char text[200];
  std::snprintf(text, sizeof text,
                "%zu sampled elements against a double-precision CPU reference, max error %.3g (bound %.3g)%s",
                c.checked, c.worst_error, c.worst_bound,
                c.outside == 0 ? "" : (", " + std::to_string(c.outside) + " outside the bound").c_str());
  return text;
}

/// Index `i` of `samples` spread over [0, total): first and last included, a stride between.
size_t pick(size_t i, size_t samples, size_t total) {
  if (samples <= 1 || total <= 1) return 0;
  return static_cast<size_t>((static_cast<unsigned long long>(i) * (total - 1)) / (samples - 1));
}

/// One sampled element of C = A * B: its index, the exact (double) dot product and sum |a||b|.
struct SampledDot {
  size_t at = 0;
  double want = 0;
  double magnitude = 0;
};

/// The sampled elements' dot products, in sample order, each summed over k in order. Walking a
/// column of row-major B strides n floats per term, a cache and TLB miss each: 1.2 s for the
/// 24,414 samples of a 4096^3 GEMM. So B is copied a panel of columns at a time into contiguous
/// columns (each of its rows read once per panel) and every sample in the panel reads its column
/// from there.
std::vector<SampledDot> sampled_dots(const float* a, const float* b, int m, int n, int k, size_t samples) {
  constexpr size_t kPanel = 64;
  const auto rows = static_cast<size_t>(std::max(m, 0));
  const auto cols = static_cast<size_t>(std::max(n, 0));
  const auto depth = static_cast<size_t>(std::max(k, 0));
  const size_t total = rows * cols;
  std::vector<SampledDot> dots(std::min(samples, total));
  if (dots.empty()) return dots;
  std::vector<std::vector<size_t>> by_panel((cols + kPanel - 1) / kPanel);
  for (size_t s = 0; s < dots.size(); ++s) {
    dots[s].at = pick(s, dots.size(), total);
    by_panel[dots[s].at % cols / kPanel].push_back(s);
  }
  std::vector<float> panel(kPanel * depth);  // column j of the panel at panel[j * depth]
  for (size_t p = 0; p < by_panel.size(); ++p) {
    if (by_panel[p].empty()) continue;
    const size_t first = p * kPanel;
    const size_t width = std::min(kPanel, cols - first);
    for (size_t i = 0; i < depth; ++i) {
      const float* row = b + i * cols + first;
      for (size_t j = 0; j < width; ++j) panel[j * depth + i] = row[j];
    }
    for (size_t s : by_panel[p]) {
      SampledDot& d = dots[s];
      const float* a_row = a + d.at / cols * depth;
      const float* b_col = panel.data() + (d.at % cols - first) * depth;
      for (size_t i = 0; i < depth; ++i) {
        const double term = static_cast<double>(a_row[i]) * static_cast<double>(b_col[i]);
        d.want += term;
        d.magnitude += std::fabs(term);
      }
    }
  }
  return dots;
}

}  // namespace

double monotonic_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

SampleStats summarize(std::vector<double> seconds) {
  SampleStats s;
  s.n = seconds.size();
  if (seconds.empty()) return s;
  s.median = median_of(seconds);
  s.min = seconds.front();
  s.max = seconds.back();
  std::vector<double> deviation;
  deviation.reserve(seconds.size());
  for (double t : seconds) deviation.push_back(std::fabs(t - s.median));
  s.mad = median_of(deviation);
  s.spread_pct = s.median > 0 ? s.mad / s.median * 100.0 : 0;
  return s;
}

std::vector<double> sample_times(const std::function<double()>& once, const SamplingPolicy& p) {
  for (int i = 0; i < p.warmup; ++i) (void)once();
  std::vector<double> times;
  double total = 0;
  while (static_cast<int>(times.size()) < std::max(p.max_iterations, 1)) {
    double t = once();
    times.push_back(t);
    total += t;
    const auto n = static_cast<int>(times.size());
    if (total >= p.max_seconds && n >= 1) break;
    if (n >= p.min_iterations && total >= p.min_seconds && summarize(times).spread_pct <= p.stable_pct) break;
  }
  return times;
}

double gemm_flops(double m, double n, double k) {
  return 2.0 * m * n * k;
}
double copy_bytes(double count, double size) {
  return 2.0 * count * size;
}
double triad_bytes(double count, double size) {
  return 3.0 * count * size;
}
double algbw_gbps(double bytes, double seconds) {
  return seconds > 0 ? bytes / seconds / 1e9 : 0;
}
double allreduce_busbw(double algbw, int ranks) {
  return ranks > 0 ? algbw * 2.0 * (ranks - 1) / ranks : 0;
}
double scaling_efficiency(double one, double many, int n) {
  return one > 0 && n > 0 ? many / (n * one) : 0;
}

void fill_rate(BenchMeasurement& m, const SampleStats& stats, double work, double scale) {
  m.iterations = static_cast<int>(stats.n);
  m.spread_pct = stats.spread_pct;
  m.seconds_median = stats.median;
  if (stats.n == 0 || stats.median <= 0 || stats.min <= 0) return;
  m.value = work / stats.median / scale;
  m.min = work / stats.max / scale;
  m.max = work / stats.min / scale;
}

size_t check_samples(long long terms) {
  constexpr long long kBudget = 100'000'000;
  return static_cast<size_t>(std::max(256LL, kBudget / std::max(terms, 1LL)));
}

namespace {

BoundCheck bound_check_of(const std::vector<SampledDot>& dots, const float* c, int k, double u, double terms_factor,
                          double output_u, double input_u) {
  BoundCheck check;
  for (const SampledDot& d : dots) {
    check.add(d.at, c[d.at], d.want,
              (terms_factor * k * u + 2 * input_u) * d.magnitude + output_u * std::fabs(d.want) + 1e-30);
  }
  check.finish();
  check.summary = check_summary(check);
  return check;
}

double relative_error_of(const std::vector<SampledDot>& dots, const float* c) {
  double error2 = 0;
  double want2 = 0;
  for (const SampledDot& d : dots) {
    const double error = static_cast<double>(c[d.at]) - d.want;
    error2 += error * error;
    want2 += d.want * d.want;
  }
  return want2 > 0 ? std::sqrt(error2 / want2) : (error2 > 0 ? INFINITY : 0.0);
}

}  // namespace

BoundCheck check_gemm_sampled(const float* a, const float* b, const float* c, int m, int n, int k, size_t samples,
                              double u, double terms_factor, double output_u, double input_u) {
  return bound_check_of(sampled_dots(a, b, m, n, k, samples), c, k, u, terms_factor, output_u, input_u);
}

double gemm_sampled_relative_error(const float* a, const float* b, const float* c, int m, int n, int k,
                                   size_t samples) {
  return relative_error_of(sampled_dots(a, b, m, n, k, samples), c);
}

BoundCheck check_gemm_sampled_with_relative_error(const float* a, const float* b, const float* c, int m, int n, int k,
                                                  size_t samples, double u, double terms_factor,
                                                  double& relative_error) {
  const std::vector<SampledDot> dots = sampled_dots(a, b, m, n, k, samples);
  relative_error = relative_error_of(dots, c);
  return bound_check_of(dots, c, k, u, terms_factor, 0, 0);
}

BoundCheck check_conv_sampled(const ConvShape& sh, const float* x, const float* w, const float* y, size_t samples,
                              double u, double terms_factor, double output_u) {
  BoundCheck check;
  const int oh = sh.out_h();
  const int ow = sh.out_w();
  const size_t total = static_cast<size_t>(sh.n) * sh.k * oh * ow;
  samples = std::min(samples, total);
  const int terms = sh.c * sh.r * sh.s;
  for (size_t s = 0; s < samples; ++s) {
    size_t at = pick(s, samples, total);
    const int ox = static_cast<int>(at % static_cast<size_t>(ow));
    const int oy = static_cast<int>(at / static_cast<size_t>(ow) % static_cast<size_t>(oh));
    const int kk = static_cast<int>(at / (static_cast<size_t>(ow) * oh) % static_cast<size_t>(sh.k));
    const int nn = static_cast<int>(at / (static_cast<size_t>(ow) * oh * sh.k));
    double want = 0;
    double magnitude = 0;
    for (int cc = 0; cc < sh.c; ++cc) {
      for (int r = 0; r < sh.r; ++r) {
        for (int q = 0; q < sh.s; ++q) {
          const int iy = oy + r - sh.pad;
          const int ix = ox + q - sh.pad;
          if (iy < 0 || iy >= sh.h || ix < 0 || ix >= sh.w) continue;
          double xv = x[((static_cast<size_t>(nn) * sh.c + cc) * sh.h + iy) * sh.w + ix];
          double wv = w[((static_cast<size_t>(kk) * sh.c + cc) * sh.r + r) * sh.s + q];
          want += xv * wv;
          magnitude += std::fabs(xv * wv);
        }
      }
    }
    check.add(at, y[at], want, terms_factor * terms * u * magnitude + output_u * std::fabs(want) + 1e-30);
  }
  check.finish();
  check.summary = check_summary(check);
  return check;
}

int gemm_n_that_fits(int n, double bytes_per_element, std::uint64_t usable) {
  if (usable == 0 || bytes_per_element <= 0) return n;
  auto need = [&](int side) { return static_cast<double>(side) * side * bytes_per_element; };
  if (need(n) <= static_cast<double>(usable)) return n;
  const auto side = static_cast<int>(std::sqrt(static_cast<double>(usable) / bytes_per_element));
  return std::min(n, std::max(256, side / 256 * 256));
}

int gemm_n_under_watchdog(int n, bool watchdog) {
  return watchdog ? std::min(n, 4096) : n;
}

long long array_bytes_that_fit(long long bytes, int arrays, std::uint64_t usable) {
  if (usable == 0 || arrays <= 0) return bytes;
  const auto each = static_cast<long long>(usable / static_cast<std::uint64_t>(arrays));
  if (bytes <= each) return bytes;
  constexpr long long kMiB = 1LL << 20;
  return std::min(bytes, std::max(kMiB, each / kMiB * kMiB));
}

std::uint64_t usable_device_memory(std::uint64_t free_bytes) {
  return free_bytes / 10 * 8;
}

// Both conversions run on every element of a GEMM's inputs (2 x 16.7 M at 4096^3), so they work
// on the bits (the libm ilogb/ldexp/nearbyint version took 2 s of a --quick run's FP8 figure).
std::uint8_t float_to_e4m3(float f) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &f, 4);
  const auto sign = static_cast<std::uint8_t>((bits >> 24) & 0x80U);
  const std::uint32_t mag = bits & 0x7FFFFFFFU;
  if (mag > 0x7F800000U) return 0x7F;                                     // NaN
  if (mag >= 0x43E00000U) return static_cast<std::uint8_t>(sign | 0x7E);  // 448 and up (and Inf) saturate
  if (mag >= 0x3C800000U) {
    // A normal (2^-6 and up): keep 3 of the 23 mantissa bits, rounding to nearest even; a carry
    // out of the mantissa steps the exponent, as it should. Then rebias 127 -> 7.
    const std::uint32_t kept = (mag + 0x7FFFFU + ((mag >> 20) & 1U)) >> 20;
    return static_cast<std::uint8_t>(sign | std::min<std::uint32_t>(kept - ((127U - 7U) << 3), 0x7EU));
  }
  // Below 2^-6: multiples of 2^-9 (8 of them reach 2^-6, the first normal's code). Scaling by
  // 512 is exact, and nearbyint rounds to nearest even in the default mode.
  const float magnitude = std::fabs(f) * 512.0F;
  return static_cast<std::uint8_t>(sign | static_cast<std::uint8_t>(std::nearbyint(magnitude)));
}

namespace {
float e4m3_value(unsigned v) {
  const unsigned exp = (v >> 3) & 0xFU;
  const unsigned mantissa = v & 0x7U;
  if (exp == 0xF && mantissa == 0x7) return NAN;
  const double magnitude = exp == 0 ? std::ldexp(static_cast<double>(mantissa), -9)
                                    : std::ldexp(1.0 + mantissa / 8.0, static_cast<int>(exp) - 7);
  return static_cast<float>((v & 0x80) != 0 ? -magnitude : magnitude);
}
}  // namespace

float e4m3_to_float(std::uint8_t v) {
  static const std::array<float, 256> kValues = [] {
    std::array<float, 256> values{};
    for (unsigned code = 0; code < 256; ++code) values[code] = e4m3_value(code);
    return values;
  }();
  return kValues[v];
}

// NVML's nvmlDeviceGetNvLinkVersion answers with nvmlNvlinkVersion_t, not the generation: 1 is
// NVLink 1.0, 2 is 2.0, 3 is 2.2, 4 is 3.0, 5 is 3.1, 6 is 4.0, 7 is 5.0 (NVML's enum; an A100 and
// an RTX 3090 both answer 5: hwloc#658, nvtop#469).
std::string nvlink_version_name(unsigned nvml_version) {
  static const char* const names[] = {"", "1.0", "2.0", "2.2", "3.0", "3.1", "4.0", "5.0"};
  return nvml_version < std::size(names) ? names[nvml_version] : "";
}

double nvlink_gbps_per_link(unsigned nvml_version, int cc_major, int cc_minor) {
  switch (nvml_version) {
    case 1:
      return 20;  // P100: 160 GB/s over 4 links, both ways
    case 2:
    case 3:
    case 6:
      return 25;  // V100 300/6, H100 900/18, both ways: 50 GB/s per link, 25 one way
    case 4:
    case 5:
      // A100 (GA100, CC 8.0): 600/12, 25 one way. GA102 (CC 8.6: RTX 3090, A6000, A40): 112.5 GB/s
      // over 4 links both ways (GA102 whitepaper), 14.0625 one way.
      return cc_major == 8 && cc_minor == 6 ? 14.0625 : 25;
    case 7:
      return 50;  // B200: 1800/18
    default:
      return 0;
  }
}

double pcie_link_gbps(unsigned gen, unsigned width) {
  // GT/s per lane, and the share left after line encoding: 8b/10b, then 128b/130b; Gen 6 (PAM4)
  // sends 256-byte flits of which 14 bytes are CRC and FEC (glennklockwood.com/garden/PCIe-Gen6):
  // about 121 GB/s one way on x16, not the 128 of PCI-SIG's headline.
  static constexpr double kRate[] = {0, 2.5, 5.0, 8.0, 16.0, 32.0, 64.0};
  if (gen == 0 || gen >= std::size(kRate) || width == 0 || width > 32) return 0;
  const double efficiency = gen <= 2 ? 0.8 : gen <= 5 ? 128.0 / 130.0 : 242.0 / 256.0;
  return kRate[gen] * efficiency / 8.0 * width;
}

}  // namespace gpudoctor::gpu
