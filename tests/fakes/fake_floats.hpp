// The fakes' own 16-bit float conversions, by the fields (round to nearest even): not gpudoctor's,
// so that a bug in its conversions cannot hide behind the same code here.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace fake_floats {

inline float from_half(std::uint16_t h) {
  unsigned sign = (h >> 15) & 1U;
  unsigned exp = (h >> 10) & 0x1FU;
  unsigned mant = h & 0x3FFU;
  float magnitude = 0;
  if (exp == 0) {
    magnitude = std::ldexp(static_cast<float>(mant), -24);
  } else {
    std::uint32_t bits = ((exp + 112U) << 23) | (mant << 13);
    std::memcpy(&magnitude, &bits, 4);
  }
  return sign != 0U ? -magnitude : magnitude;
}

inline std::uint16_t to_half(float f) {
  std::uint32_t b = 0;
  std::memcpy(&b, &f, 4);
  auto sign = static_cast<std::uint16_t>((b >> 16) & 0x8000U);
  int exp = static_cast<int>((b >> 23) & 0xFFU) - 127 + 15;
  if (exp <= 0) return static_cast<std::uint16_t>(sign | std::lrint(std::ldexp(std::fabs(f), 24)));
  if (exp >= 31) return static_cast<std::uint16_t>(sign | 0x7C00U);
  std::uint32_t mant = b & 0x7FFFFFU;
  std::uint32_t h = sign | (static_cast<std::uint32_t>(exp) << 10) | (mant >> 13);
  std::uint32_t rest = mant & 0x1FFFU;
  if (rest > 0x1000U || (rest == 0x1000U && (h & 1U) != 0)) ++h;
  return static_cast<std::uint16_t>(h);
}

inline float from_bf16(std::uint16_t h) {
  std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
  float f = 0;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline std::uint16_t to_bf16(float f) {
  std::uint32_t b = 0;
  std::memcpy(&b, &f, 4);
  b += 0x7FFFU + ((b >> 16) & 1U);
  return static_cast<std::uint16_t>(b >> 16);
}

}  // namespace fake_floats
