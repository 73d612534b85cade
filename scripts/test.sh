#!/usr/bin/env bash
# Installs what the tests need, builds, and runs every test: unit and integration tests (dev
# preset, warnings as errors), the same under AddressSanitizer/UBSan, a short fuzz run of each
# parser, and the real-wheel detection test. Prints one summary line per stage; exits non-zero
# if any stage fails.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
scripts/setup-debian.sh test || exit 1

jobs="$(nproc)"
status=0
summary=()
stage() {  # stage NAME COMMAND...
  local name="$1"; shift
  echo "==> $name"
  if "$@"; then summary+=("ok     $name"); else summary+=("FAILED $name"); status=1; fi
}
# ctest's own summaries are collected, to close with one count of every test run.
ctest_log="$(mktemp)"
trap 'rm -f "$ctest_log"' EXIT
# shellcheck disable=SC2317  # called through stage
run_ctest() {  # run_ctest CTEST-ARGS...: like ctest, keeping its output for the count
  local rc
  ctest "$@" 2>&1 | tee -a "$ctest_log"
  rc=${PIPESTATUS[0]}
  return "$rc"
}

stage "lint (clang-format, shellcheck)" scripts/lint.sh
stage "build (dev)" bash -c "cmake --preset dev >/dev/null && cmake --build --preset dev -j$jobs"
stage "tests (dev)" run_ctest --preset dev -LE 'slow|wheels'
stage "build (asan)" bash -c "cmake --preset asan >/dev/null && cmake --build --preset asan -j$jobs"
stage "tests (asan)" run_ctest --preset asan -LE 'slow|wheels'
if [ -x scripts/fuzz.sh ]; then stage "fuzz (short)" scripts/fuzz.sh 20; fi
stage "real framework wheels" run_ctest --preset dev -L wheels
stage "run path: release build, test packages hidden" scripts/check-run-path.sh
stage "debian package: build, unpack, run" scripts/build-deb.sh --check build/run-path
stage "python wheel: build, fresh venv, run" scripts/build-wheel.sh --check

# "100% tests passed, 0 tests failed out of 293" lines, summed over the ctest runs.
read -r total failed < <(awk '/tests failed out of/ {t += $NF; f += $(NF-5)} END {print t+0, f+0}' "$ctest_log")
echo
echo "Summary:"
printf '  %s\n' "${summary[@]}"
echo "tests: $((total - failed)) passed, $failed failed"
exit $status
