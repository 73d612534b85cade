#!/usr/bin/env bash
# The CPU work inside each GPU figure of `bench`, which no GPU timing sees but the run's wall time
# does: making the inputs, rounding them to FP16 / BF16 / FP8 as the device sees them, reading the
# result back into floats, and the sampled check against a double-precision reference. Measured
# here on the CPU alone (no GPU needed), for this tree's code and, side by side in the same run,
# for another revision's (default HEAD~1): both are compiled from their own
# src/gpu/{bench_math,verify_math,reference_check}.cpp with the same flags (-O3, as the release
# build) into the same driver, and each step is timed ROUNDS times (median).
# Usage: perf/bench_host_work.sh [REV] [ROUNDS] [N...]     (N: GEMM sizes, default 4096 8192)
set -euo pipefail
cd "$(dirname "$0")/.."
rev="${1:-HEAD~1}"
rounds="${2:-3}"
shift $(( $# > 2 ? 2 : $# ))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(4096 8192)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cat > "$work/driver.cpp" <<'EOF_CPP'
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "gpu/bench_math.hpp"
#include "gpu/verify_math.hpp"

using namespace gpudoctor::gpu;

double median_seconds(int rounds, const std::function<void()>& step) {
  std::vector<double> t;
  for (int i = 0; i < rounds; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    step();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char** argv) {
  const int n = std::atoi(argv[1]);
  const int rounds = std::atoi(argv[2]);
  const size_t count = static_cast<size_t>(n) * static_cast<size_t>(n);
  std::vector<float> a, b;
  double sink = 0;
  auto report = [&](const char* step, double s) { std::printf("%d\t%s\t%.3f\n", n, step, s); };
  report("inputs (2 x test_values)", median_seconds(rounds, [&] {
           a = test_values(count, 3);
           b = test_values(count, 5);
         }));
  std::vector<std::uint16_t> h(count);
  report("FP16 inputs (2 x round trip)", median_seconds(rounds, [&] {
           for (std::vector<float>* v : {&a, &b})
             for (size_t i = 0; i < count; ++i) {
               h[i] = float_to_half((*v)[i]);
               sink += half_to_float(h[i]);
             }
         }));
  report("FP16 result read back", median_seconds(rounds, [&] {
           for (size_t i = 0; i < count; ++i) sink += half_to_float(h[i]);
         }));
  std::vector<std::uint8_t> ha(count), hb(count);
  report("FP8 inputs (2 x round trip, B transposed)", median_seconds(rounds, [&] {
           const auto un = static_cast<size_t>(n);
           for (size_t i = 0; i < count; ++i) {
             ha[i] = float_to_e4m3(a[i]);
             sink += e4m3_to_float(ha[i]);
             std::uint8_t v = float_to_e4m3(b[i]);
             sink += e4m3_to_float(v);
             hb[(i % un) * un + i / un] = v;
           }
         }));
  // A result the check passes: each sampled element is what it should be, the rest anything.
  std::vector<float> c(count, 0.0F);
  report("sampled check (check_gemm_sampled)", median_seconds(rounds, [&] {
           sink += check_gemm_sampled(a.data(), b.data(), c.data(), n, n, n, check_samples(n), kFloatUnitRoundoff)
                       .worst_error;
         }));
  report("FP8 relative error (gemm_sampled_relative_error)", median_seconds(rounds, [&] {
           sink += gemm_sampled_relative_error(a.data(), b.data(), c.data(), n, n, n, check_samples(n));
         }));
  std::fprintf(stderr, "%g\n", sink);  // keeps the loops
  return 0;
}
EOF_CPP

build() {  # build SRC_DIR OUT
  g++ -O3 -DNDEBUG -std=c++23 -I"$1" "$work/driver.cpp" "$1/gpu/bench_math.cpp" "$1/gpu/verify_math.cpp" \
    "$1/gpu/reference_check.cpp" -o "$2"
}
mkdir -p "$work/old/gpu" "$work/old/model" "$work/old/core"
for f in gpu/bench_math.cpp gpu/bench_math.hpp gpu/verify_math.cpp gpu/verify_math.hpp gpu/reference_check.cpp \
  gpu/reference_check.hpp; do
  git show "$rev:src/$f" > "$work/old/$f"
done
# Headers the old files include but did not change come from this tree.
cp -rn src/. "$work/old/" 2>/dev/null || true
build src "$work/new"
build "$work/old" "$work/old.bin"
old_label="$(git rev-parse --short "$rev")"
new_label="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src/gpu || echo '+changes')"
printf 'N\tstep\t%s s\t%s s\tratio\n' "$old_label" "$new_label"
for n in "${sizes[@]}"; do
  "$work/old.bin" "$n" "$rounds" > "$work/old.tsv" 2>/dev/null  # one after the other: no sharing
  "$work/new" "$n" "$rounds" > "$work/new.tsv" 2>/dev/null
  paste "$work/old.tsv" "$work/new.tsv" |
    awk -F'\t' '{ r = $6 > 0 ? $3 / $6 : 0; printf "%s\t%s\t%s\t%s\t%.1fx\n", $1, $2, $3, $6, r }'
done
