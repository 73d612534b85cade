#include "gpu/verify_math.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace gpudoctor::gpu {

std::vector<float> test_values(size_t n, std::uint32_t seed) {
  std::vector<float> v(n);
  std::uint32_t x = seed;
  for (float& f : v) {
    x = x * 1664525U + 1013904223U;  // Numerical Recipes' LCG
    f = static_cast<float>(x >> 8) / static_cast<float>(1U << 23) - 1.0F;
  }
  return v;
}

std::uint16_t float_to_half(float f) {
  std::uint32_t x = 0;
  std::memcpy(&x, &f, 4);
  std::uint32_t sign = (x >> 16) & 0x8000U;
  std::uint32_t mag = x & 0x7FFFFFFFU;
  if (mag >= 0x7F800000U) return static_cast<std::uint16_t>(sign | (mag > 0x7F800000U ? 0x7E00U : 0x7C00U));
  if (mag >= 0x477FF000U) return static_cast<std::uint16_t>(sign | 0x7C00U);  // rounds past 65504
  if (mag < 0x38800000U) {
    // Subnormal half (or zero): shift the full mantissa down and round to nearest even.
    if (mag < 0x33000000U) return static_cast<std::uint16_t>(sign);
    std::uint32_t mant = (mag & 0x7FFFFFU) | 0x800000U;
    // value = mant * 2^(exp - 150); in units of the smallest subnormal (2^-24) that is
    // mant >> (126 - exp), with exp in [102, 112] here: a shift of 14 to 24.
    int shift = 126 - static_cast<int>(mag >> 23);
    std::uint32_t half = mant >> shift;
    std::uint32_t rest = mant & ((1U << shift) - 1);
    std::uint32_t mid = 1U << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1U))) ++half;
    return static_cast<std::uint16_t>(sign | half);
  }
  std::uint32_t h = ((mag - 0x38000000U) >> 13);
  std::uint32_t rest = mag & 0x1FFFU;
  if (rest > 0x1000U || (rest == 0x1000U && (h & 1U))) ++h;
  return static_cast<std::uint16_t>(sign | h);
}

float half_to_float(std::uint16_t h) {
  std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000U) << 16;
  std::uint32_t exp = (h >> 10) & 0x1FU;
  std::uint32_t mant = h & 0x3FFU;
  std::uint32_t bits = 0;
  if (exp == 0) {
    const float f = std::ldexp(static_cast<float>(mant), -24);  // zero or subnormal: rare
    std::memcpy(&bits, &f, 4);
  } else if (exp == 31) {
    bits = mant != 0 ? 0x7FC00000U : 0x7F800000U;
  } else {
    // A normal half is a normal float: rebias the exponent (15 -> 127), widen the mantissa.
    // Bits, not ldexp: bench converts every element of a 4096^2 result.
    bits = ((exp + 112U) << 23) | (mant << 13);
  }
  bits |= sign;
  float f = 0;
  std::memcpy(&f, &bits, 4);
  return f;
}

Reference gemm_reference(const std::vector<float>& a, const std::vector<float>& b, int m, int n, int k) {
  Reference r;
  r.value.assign(static_cast<size_t>(m) * n, 0.0);
  r.magnitude.assign(r.value.size(), 0.0);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      double sum = 0;
      double mag = 0;
      for (int p = 0; p < k; ++p) {
        double t = static_cast<double>(a[static_cast<size_t>(p) * m + i]) * b[static_cast<size_t>(j) * k + p];
        sum += t;
        mag += std::fabs(t);
      }
      r.value[static_cast<size_t>(j) * m + i] = sum;
      r.magnitude[static_cast<size_t>(j) * m + i] = mag;
    }
  }
  return r;
}

namespace {

size_t at4(int a, int b, int c, int d, int nb, int nc, int nd) {
  return ((static_cast<size_t>(a) * nb + b) * nc + c) * nd + d;
}

}  // namespace

namespace {

/// Calls `tap(y_index, x_index)` for every product of the convolution: output element
/// (n, k, y, x) takes input (n, c, iy, ix) times filter (k, c, i, j). Forward sums the taps
/// into y, backward-data sends dy back along the same taps into dx.
template <class Tap>
void for_each_tap(const ConvShape& s, Tap tap) {
  const int oh = s.out_h();
  const int ow = s.out_w();
  for (int n = 0; n < s.n; ++n)
    for (int k = 0; k < s.k; ++k)
      for (int y = 0; y < oh; ++y)
        for (int xo = 0; xo < ow; ++xo)
          for (int c = 0; c < s.c; ++c)
            for (int i = 0; i < s.r; ++i)
              for (int j = 0; j < s.s; ++j) {
                int iy = y + i - s.pad;
                int ix = xo + j - s.pad;
                if (iy < 0 || iy >= s.h || ix < 0 || ix >= s.w) continue;
                tap(at4(n, k, y, xo, s.k, oh, ow), at4(n, c, iy, ix, s.c, s.h, s.w), at4(k, c, i, j, s.c, s.r, s.s));
              }
}

}  // namespace

Reference conv_forward_reference(const ConvShape& s, const std::vector<float>& x, const std::vector<float>& w) {
  Reference r;
  r.value.assign(static_cast<size_t>(s.n) * s.k * s.out_h() * s.out_w(), 0.0);
  r.magnitude.assign(r.value.size(), 0.0);
  for_each_tap(s, [&](size_t out, size_t in, size_t filter) {
    double t = static_cast<double>(x[in]) * w[filter];
    r.value[out] += t;
    r.magnitude[out] += std::fabs(t);
  });
  return r;
}

Reference conv_backward_data_reference(const ConvShape& s, const std::vector<float>& dy, const std::vector<float>& w) {
  Reference r;
  r.value.assign(static_cast<size_t>(s.n) * s.c * s.h * s.w, 0.0);
  r.magnitude.assign(r.value.size(), 0.0);
  for_each_tap(s, [&](size_t out, size_t in, size_t filter) {
    double t = static_cast<double>(dy[out]) * w[filter];
    r.value[in] += t;
    r.magnitude[in] += std::fabs(t);
  });
  return r;
}

BoundCheck compare_with_bound(const std::vector<float>& got, const Reference& ref, int terms, double unit_roundoff) {
  BoundCheck c;
  for (size_t i = 0; i < ref.value.size(); ++i) {
    // 2*terms*u: the accumulation's gamma plus the rounding of the inputs and of the output;
    // the smallest normal float keeps an all-zero element from having a zero bound.
    double bound = 2.0 * terms * unit_roundoff * ref.magnitude[i] + 1e-30;
    c.add(i, i < got.size() ? static_cast<double>(got[i]) : NAN, ref.value[i], bound);
  }
  c.finish();
  c.passed = c.passed && got.size() == ref.value.size();
  char text[200];
  if (c.passed) {
    std::snprintf(text, sizeof text, "max error %.3g (bound %.3g) over %zu elements", c.worst_error, c.worst_bound,
                  ref.value.size());
  } else {
    std::snprintf(text, sizeof text,
                  "%zu of %zu elements outside the bound; element %zu: %.9g, expected %.9g (bound %.3g)", c.outside,
                  ref.value.size(), c.worst, c.worst < got.size() ? static_cast<double>(got[c.worst]) : NAN,
                  c.worst < ref.value.size() ? ref.value[c.worst] : NAN, c.worst_bound);
  }
  c.summary = text;
  return c;
}

std::uint64_t fnv1a(const void* data, size_t size) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < size; ++i) {
    h ^= p[i];
    h *= 1099511628211ULL;
  }
  return h;
}

}  // namespace gpudoctor::gpu
