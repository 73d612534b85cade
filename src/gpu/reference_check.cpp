#include "gpu/reference_check.hpp"

#include <cmath>

namespace gpudoctor::gpu {

double ConvShape::flops() const {
  return 2.0 * n * k * out_h() * out_w() * c * r * s;
}

std::string ConvShape::text() const {
  return std::to_string(n) + "x" + std::to_string(c) + "x" + std::to_string(h) + "x" + std::to_string(w) + ", " +
         std::to_string(k) + " filters " + std::to_string(r) + "x" + std::to_string(s) + ", pad " + std::to_string(pad);
}

void BoundCheck::add(size_t index, double got, double want, double bound) {
  double error = std::fabs(got - want);
  ++checked;
  // NaN or Inf fails: !(error <= bound).
  if (!(error <= bound)) ++outside;
  double ratio = error / bound;
  if (!(ratio <= worst_ratio)) {
    worst_ratio = std::isnan(ratio) ? INFINITY : ratio;
    worst = index;
    worst_error = error;
    worst_bound = bound;
  }
}

}  // namespace gpudoctor::gpu
