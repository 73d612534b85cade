// verify's CPU side (gpu/verify_math.hpp, model/verify_report.hpp): the references agree with
// each other, the bounds pass a right answer and catch a wrong one, and the half conversion
// and the version texts are right on the values that matter.
#include "gpu/verify_math.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>

#include "model/verify_report.hpp"

namespace gpudoctor::gpu {
namespace {

TEST(VerifyMath, HalfConversionOnKnownValues) {
  EXPECT_EQ(float_to_half(1.0F), 0x3C00);
  EXPECT_EQ(float_to_half(-2.0F), 0xC000);
  EXPECT_EQ(float_to_half(65504.0F), 0x7BFF);               // the largest half
  EXPECT_EQ(float_to_half(65520.0F), 0x7C00);               // rounds past it: infinity
  EXPECT_EQ(float_to_half(std::ldexp(1.0F, -24)), 0x0001);  // the smallest subnormal
  EXPECT_EQ(float_to_half(std::ldexp(1.0F, -26)), 0x0000);  // below half of it
  // 1 + 2^-11 lies exactly between two halves: ties go to the even one (1.0).
  EXPECT_EQ(float_to_half(1.0F + std::ldexp(1.0F, -11)), 0x3C00);
  EXPECT_EQ(float_to_half(1.0F + 3 * std::ldexp(1.0F, -11)), 0x3C02);
  EXPECT_EQ(half_to_float(0x3555), 0.333251953125F);
  EXPECT_TRUE(std::isnan(half_to_float(0x7E00)));
  for (float v : test_values(1000, 3)) {
    float back = half_to_float(float_to_half(v));
    EXPECT_LE(std::fabs(back - v), std::ldexp(std::fabs(v), -11) + std::ldexp(1.0F, -25)) << v;
  }
}

// Every one of the 65,536 halves decodes to its value by the format's formula, and every finite
// one encodes back to itself (the round trip bench's FP16 inputs and results go through).
TEST(VerifyMath, EveryHalfDecodesToItsValueAndBack) {
  for (std::uint32_t h = 0; h < 0x10000U; ++h) {
    const auto code = static_cast<std::uint16_t>(h);
    const std::uint32_t exp = (h >> 10) & 0x1FU;
    const std::uint32_t mant = h & 0x3FFU;
    const double magnitude =
        exp == 0 ? std::ldexp(mant, -24) : std::ldexp(1.0 + mant / 1024.0, static_cast<int>(exp) - 15);
    const float got = half_to_float(code);
    if (exp == 31) {
      EXPECT_EQ(std::isnan(got), mant != 0) << h;
      if (mant == 0) EXPECT_EQ(std::fabs(got), INFINITY) << h;
      continue;
    }
    ASSERT_EQ(static_cast<double>(got), (h & 0x8000U) != 0 ? -magnitude : magnitude) << h;
    ASSERT_EQ(std::signbit(got), (h & 0x8000U) != 0) << h;
    ASSERT_EQ(float_to_half(got), code) << h;
  }
}

TEST(VerifyMath, GemmBoundPassesFloatResultAndCatchesOneWrongElement) {
  const int m = 16, n = 8, k = 512;
  auto a = test_values(static_cast<size_t>(m) * k, 1);
  auto b = test_values(static_cast<size_t>(k) * n, 2);
  Reference ref = gemm_reference(a, b, m, n, k);
  std::vector<float> c(static_cast<size_t>(m) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      float sum = 0;  // the plain FP32 loop a GPU could have run
      for (int p = 0; p < k; ++p) sum += a[p * m + i] * b[j * k + p];
      c[j * m + i] = sum;
    }
  BoundCheck ok = compare_with_bound(c, ref, k, kFloatUnitRoundoff);
  EXPECT_TRUE(ok.passed) << ok.summary;
  c[37] += 0.01F;
  BoundCheck bad = compare_with_bound(c, ref, k, kFloatUnitRoundoff);
  EXPECT_FALSE(bad.passed);
  EXPECT_EQ(bad.outside, 1U);
  EXPECT_EQ(bad.worst, 37U);
  c[37] = NAN;
  EXPECT_FALSE(compare_with_bound(c, ref, k, kFloatUnitRoundoff).passed);
  c.pop_back();
  EXPECT_FALSE(compare_with_bound(c, ref, k, kFloatUnitRoundoff).passed) << "a short result must fail";
}

TEST(VerifyMath, ConvReferencesAreAdjoint) {
  // <conv(x, w), dy> == <x, conv_backward_data(dy, w)>: each reference checks the other.
  ConvShape s;
  auto x = test_values(static_cast<size_t>(s.n) * s.c * s.h * s.w, 5);
  auto w = test_values(static_cast<size_t>(s.k) * s.c * s.r * s.s, 6);
  auto dy = test_values(static_cast<size_t>(s.n) * s.k * s.out_h() * s.out_w(), 7);
  Reference y = conv_forward_reference(s, x, w);
  Reference dx = conv_backward_data_reference(s, dy, w);
  double left = 0;
  double right = 0;
  for (size_t i = 0; i < dy.size(); ++i) left += y.value[i] * dy[i];
  for (size_t i = 0; i < x.size(); ++i) right += dx.value[i] * x[i];
  EXPECT_NEAR(left, right, 1e-9 * (std::fabs(left) + 1));
  // And the centre of the output is a full 3x3x3 sum: spot-check one by hand.
  double want = 0;
  for (int c = 0; c < s.c; ++c)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        want += double(x[((0 * s.c + c) * s.h + 4 + i) * s.w + 4 + j]) * w[(c * 3 + i) * 3 + j];
  EXPECT_NEAR(y.value[5 * s.out_w() + 5], want, 1e-12);
}

TEST(VerifyVersionText, EachLibrarysEncoding) {
  EXPECT_EQ(packed_version_text(90100), "9.1.0");   // cuDNN 9
  EXPECT_EQ(packed_version_text(8907), "8.9.7");    // cuDNN 8
  EXPECT_EQ(packed_version_text(22809), "2.28.9");  // NCCL 2.9+
  EXPECT_EQ(packed_version_text(2708), "2.7.8");    // NCCL before 2.9
  EXPECT_EQ(cublas_version_text(130100), "13.1.0");
  EXPECT_EQ(cublas_version_text(11401), "11.4.1");
  EXPECT_EQ(packed_version_text(0), "");
}

VerifyStep step(const char* name, std::optional<int> device, StepStatus status, const char* detail = "",
                const char* last_call = "") {
  return {.name = name,
          .device = device,
          .status = status,
          .detail = detail,
          .last_call = last_call,
          .elapsed_ms = status == StepStatus::skipped ? 0 : 1,
          .notes = {}};
}

TEST(VerifyReportPassed, SkippedStepsDoNotFailButFailuresAndEmptyRunsDo) {
  VerifyReport r;
  EXPECT_FALSE(verify_passed(r)) << "no step ran";
  r.steps.push_back(step("driver", 0, StepStatus::passed));
  r.steps.push_back(step("peer-access", {}, StepStatus::skipped, "one GPU"));
  EXPECT_TRUE(verify_passed(r));
  r.steps.push_back(step("sgemm", 0, StepStatus::timeout, "", "cublasSgemm_v2"));
  EXPECT_FALSE(verify_passed(r));
}

// Review 44A, 05: a step whose library is missing where verify was told to look is a failure,
// not a skip: the layer was never exercised.
TEST(VerifyReportPassed, AStepWhoseLibraryIsMissingFailsTheRun) {
  VerifyReport r;
  r.steps.push_back(step("driver", 0, StepStatus::passed));
  r.steps.push_back(step("sgemm", 0, StepStatus::not_found, "cuBLAS not found on the loader's path"));
  EXPECT_FALSE(verify_passed(r));
  EXPECT_EQ(std::string(to_string(StepStatus::not_found)), "not-found");
}

// A failure outside any step (the child that runs the steps could not start, a library wrote on
// stderr) fails the run even when every step it did run passed: a ✓ over a partial run is wrong.
// (The mutation run's survivor `verify-problems-ignored`.)
TEST(VerifyReportPassed, AProblemOutsideTheStepsFailsARunWhoseStepsPassed) {
  VerifyReport r;
  r.steps.push_back(step("driver", 0, StepStatus::passed));
  ASSERT_TRUE(verify_passed(r));
  r.problems.push_back("the verify child for GPU 1 could not start: fork: Resource temporarily unavailable");
  EXPECT_FALSE(verify_passed(r));
}

}  // namespace
}  // namespace gpudoctor::gpu
