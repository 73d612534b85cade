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

stage "lint (clang-format, shellcheck)" scripts/lint.sh
stage "build (dev)" bash -c "cmake --preset dev >/dev/null && cmake --build --preset dev -j$jobs"
stage "tests (dev)" ctest --preset dev -LE 'slow|wheels' 
stage "build (asan)" bash -c "cmake --preset asan >/dev/null && cmake --build --preset asan -j$jobs"
stage "tests (asan)" ctest --preset asan -LE 'slow|wheels'
if [ -x scripts/fuzz.sh ]; then stage "fuzz (short)" scripts/fuzz.sh 20; fi
stage "real framework wheels" ctest --preset dev -L wheels

echo
echo "Summary:"
printf '  %s\n' "${summary[@]}"
exit $status
