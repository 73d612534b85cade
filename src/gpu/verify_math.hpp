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

#include "gpu/reference_check.hpp"

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

Reference conv_forward_reference(const ConvShape& shape, const std::vector<float>& x, const std::vector<float>& w);
/// The gradient with respect to the input, given the output's gradient dy.
Reference conv_backward_data_reference(const ConvShape& shape, const std::vector<float>& dy,
                                       const std::vector<float>& w);

/// How `got` compares with `ref` when each element may be off by `terms * u * magnitude`.
BoundCheck compare_with_bound(const std::vector<float>& got, const Reference& ref, int terms, double unit_roundoff);

/// FNV-1a over bytes: the round trip's checksum.
std::uint64_t fnv1a(const void* data, size_t size);

}  // namespace gpudoctor::gpu
