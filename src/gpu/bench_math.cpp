#include "gpu/bench_math.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

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

BoundCheck check_gemm_sampled(const float* a, const float* b, const float* c, int m, int n, int k, size_t samples,
                              double u, double terms_factor, double output_u, double input_u) {
  BoundCheck check;
  const size_t total = static_cast<size_t>(m) * static_cast<size_t>(n);
  samples = std::min(samples, total);
  for (size_t s = 0; s < samples; ++s) {
    size_t at = pick(s, samples, total);
    size_t row = at / static_cast<size_t>(n);
    size_t col = at % static_cast<size_t>(n);
    double want = 0;
    double magnitude = 0;
    for (int i = 0; i < k; ++i) {
      double term = static_cast<double>(a[row * static_cast<size_t>(k) + static_cast<size_t>(i)]) *
                    static_cast<double>(b[static_cast<size_t>(i) * static_cast<size_t>(n) + col]);
      want += term;
      magnitude += std::fabs(term);
    }
    check.add(at, c[at], want, (terms_factor * k * u + 2 * input_u) * magnitude + output_u * std::fabs(want) + 1e-30);
  }
  check.finish();
  check.summary = check_summary(check);
  return check;
}

double gemm_sampled_relative_error(const float* a, const float* b, const float* c, int m, int n, int k,
                                   size_t samples) {
  const size_t total = static_cast<size_t>(m) * static_cast<size_t>(n);
  samples = std::min(samples, total);
  double error2 = 0;
  double want2 = 0;
  for (size_t s = 0; s < samples; ++s) {
    size_t at = pick(s, samples, total);
    size_t row = at / static_cast<size_t>(n);
    size_t col = at % static_cast<size_t>(n);
    double want = 0;
    for (int i = 0; i < k; ++i) {
      want += static_cast<double>(a[row * static_cast<size_t>(k) + static_cast<size_t>(i)]) *
              static_cast<double>(b[static_cast<size_t>(i) * static_cast<size_t>(n) + col]);
    }
    const double error = static_cast<double>(c[at]) - want;
    error2 += error * error;
    want2 += want * want;
  }
  return want2 > 0 ? std::sqrt(error2 / want2) : (error2 > 0 ? INFINITY : 0.0);
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

std::uint8_t float_to_e4m3(float f) {
  if (std::isnan(f)) return 0x7F;
  const std::uint8_t sign = std::signbit(f) ? 0x80 : 0x00;
  double a = std::fabs(static_cast<double>(f));
  constexpr double kMax = 448.0;
  constexpr double kMinNormal = 1.0 / 64;  // 2^-6
  // The spacing of E4M3 values around `a`: 2^-9 below the normals, 2^(e-3) within binade e.
  double quantum = a < kMinNormal ? 1.0 / 512 : std::ldexp(1.0, std::ilogb(a) - 3);
  double r = std::nearbyint(a / quantum) * quantum;  // the default rounding mode: nearest even
  if (r > kMax) r = kMax;
  if (r == 0) return sign;
  if (r < kMinNormal) return static_cast<std::uint8_t>(sign | static_cast<unsigned>(r * 512));
  const int e = std::ilogb(r);
  const auto mantissa = static_cast<unsigned>((std::ldexp(r, -e) - 1.0) * 8);
  return static_cast<std::uint8_t>(sign | static_cast<unsigned>((e + 7) << 3) | mantissa);
}

float e4m3_to_float(std::uint8_t v) {
  const unsigned exp = (v >> 3) & 0xFU;
  const unsigned mantissa = v & 0x7U;
  double magnitude = 0;
  if (exp == 0xF && mantissa == 0x7) return NAN;
  if (exp == 0)
    magnitude = std::ldexp(static_cast<double>(mantissa), -9);
  else
    magnitude = std::ldexp(1.0 + mantissa / 8.0, static_cast<int>(exp) - 7);
  return static_cast<float>((v & 0x80) != 0 ? -magnitude : magnitude);
}

double nvlink_gbps_per_link(unsigned version) {
  switch (version) {
    case 1:
      return 20;  // P100: 160 GB/s over 4 links
    case 2:
    case 3:
    case 4:
      return 25;  // V100 300/6, A100 600/12, H100 900/18: 50 GB/s per link both ways
    case 5:
      return 50;  // B200: 1800 over 18
    default:
      return 0;
  }
}

double pcie_link_gbps(unsigned gen, unsigned width) {
  // GT/s per lane, and the share left after line encoding.
  static constexpr double kRate[] = {0, 2.5, 5.0, 8.0, 16.0, 32.0};
  if (gen == 0 || gen >= std::size(kRate) || width == 0 || width > 32) return 0;
  const double efficiency = gen <= 2 ? 0.8 : 128.0 / 130.0;
  return kRate[gen] * efficiency / 8.0 * width;
}

}  // namespace gpudoctor::gpu
