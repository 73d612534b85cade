#pragma once
/// What verify and bench share when they hold a GPU's answer against a double-precision CPU
/// reference: the convolution's shape, and the check of each element against its own error bound
/// (Higham 3.1: terms * u * sum|a||b|, which grows with the terms, not with the answer, so
/// cancellation cannot fail a right result).
#include <cstddef>
#include <string>

namespace gpudoctor::gpu {

/// NCHW convolution, cross-correlation, stride 1, zero padding `pad`, filters KCRS. The defaults
/// are verify's small shape; bench names its own.
struct ConvShape {
  int n = 2, c = 3, h = 10, w = 10, k = 4, r = 3, s = 3, pad = 1;
  [[nodiscard]] int out_h() const { return h + 2 * pad - r + 1; }
  [[nodiscard]] int out_w() const { return w + 2 * pad - s + 1; }
  [[nodiscard]] double flops() const;      ///< 2 * N * K * out_h * out_w * C * R * S
  [[nodiscard]] std::string text() const;  ///< "8x64x56x56, 64 filters 3x3, pad 1"
};

/// Elements held against their bounds: passed when at least one was checked and none was outside
/// (NaN and Inf are outside); the worst is the element with the largest error over its bound.
struct BoundCheck {
  bool passed = false;
  size_t checked = 0;
  size_t outside = 0;
  size_t worst = 0;  ///< its index in the result
  double worst_error = 0;
  double worst_bound = 0;
  double worst_ratio = -1;  ///< worst error over its bound (-1: nothing checked)
  std::string summary;      ///< written by the check that filled it

  void add(size_t index, double got, double want, double bound);
  /// passed, from what was added.
  void finish() { passed = checked > 0 && outside == 0; }
};

}  // namespace gpudoctor::gpu
