#pragma once
/// The CPU side of verify's checks: inputs, reference results and error bounds. Pure
/// functions, so the tests prove that a wrong answer is caught and a right one passes.
///
/// Error bounds follow the standard result for a dot product of length K in floating point
/// with unit roundoff u: |computed - exact| <= gamma_K * sum |a_i||b_i|, gamma_K ~ K*u
/// (Higham, Accuracy and Stability of Numerical Algorithms, 3.1). The bound grows with K and
/// with the size of the terms, not with the answer, so cancellation cannot fail a right result.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpudoctor::gpu {

/// Deterministic values in [-1, 1) (a 32-bit LCG): the same inputs on every run.
std::vector<float> test_values(size_t n, std::uint32_t seed);

/// IEEE binary16 <-> binary32, round to nearest even; the host side of the half GEMM.
std::uint16_t float_to_half(float f);
float half_to_float(std::uint16_t h);

inline constexpr double kFloatUnitRoundoff = 1.0 / (1 << 24);
/// TF32 keeps 10 mantissa bits: what a convolution may use when FP32 math cannot be forced.
inline constexpr double kTf32UnitRoundoff = 1.0 / (1 << 11);

/// Column-major C(MxN) = A(MxK) * B(KxN), in double, with the per-element sum |a||b|.
struct Reference {
  std::vector<double> value;
  std::vector<double> magnitude;  ///< sum of |terms| for each element: the bound's scale
};
Reference gemm_reference(const std::vector<float>& a, const std::vector<float>& b, int m, int n, int k);

/// NCHW convolution, cross-correlation, stride 1, zero padding `pad`, filters KCRS.
struct ConvShape {
  int n = 2, c = 3, h = 10, w = 10, k = 4, r = 3, s = 3, pad = 1;
  [[nodiscard]] int out_h() const { return h + 2 * pad - r + 1; }
  [[nodiscard]] int out_w() const { return w + 2 * pad - s + 1; }
};
Reference conv_forward_reference(const ConvShape& shape, const std::vector<float>& x, const std::vector<float>& w);
/// The gradient with respect to the input, given the output's gradient dy.
Reference conv_backward_data_reference(const ConvShape& shape, const std::vector<float>& dy,
                                       const std::vector<float>& w);

/// How `got` compares with `ref` when each element may be off by `terms * u * magnitude`:
/// passed, the worst element and its error against its bound, and how many were outside.
struct Comparison {
  bool passed = false;
  size_t worst = 0;
  double worst_error = 0;
  double worst_bound = 0;
  size_t outside = 0;
  std::string summary;  ///< "max error 1.2e-06 (bound 3.1e-05) over 3072 elements"
};
Comparison compare_with_bound(const std::vector<float>& got, const Reference& ref, int terms, double unit_roundoff);

/// FNV-1a over bytes: the round trip's checksum.
std::uint64_t fnv1a(const void* data, size_t size);

}  // namespace gpudoctor::gpu
