#pragma once
// Row-major C = A * B (A m x k, B k x n) summed in double and rounded once to float: the result a
// GPU GEMM should come within its bound of, for the sampled checks' tests.
#include <cstddef>
#include <vector>

namespace gpudoctor::gpu {

inline std::vector<float> exact_row_major_product(const std::vector<float>& a, const std::vector<float>& b, int m,
                                                  int n, int k) {
  std::vector<float> c(static_cast<size_t>(m) * static_cast<size_t>(n));
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double sum = 0;
      for (int q = 0; q < k; ++q) {
        sum += static_cast<double>(a[static_cast<size_t>(i) * k + q]) * b[static_cast<size_t>(q) * n + j];
      }
      c[static_cast<size_t>(i) * n + j] = static_cast<float>(sum);
    }
  }
  return c;
}

}  // namespace gpudoctor::gpu
