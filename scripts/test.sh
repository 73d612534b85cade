#!/usr/bin/env bash
# Installs what the tests need, builds, and runs every test: unit and integration tests (dev
# preset, warnings as errors), the same under AddressSanitizer/UBSan, a short fuzz run of each
# parser, and the real-wheel detection test. Prints one summary line per stage; exits non-zero
# if any stage fails.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
scripts/setup-debian.sh test || exit 1

jobs="$(nproc)"
# ccache keys on paths relative to the checkout, so that the release trees (run path, .deb,
# wheel) share the objects their flags have in common within one run, and a second clone
# reuses the first one's.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
status=0
summary=()
stage_note=""  # set by a stage's command: what to add to its summary line
# stage NAME COMMAND...: runs COMMAND; exit 0 is ok, 77 is skipped (stage_note says why),
# anything else fails the run.
stage() {
  local name="$1" rc start took
  shift
  echo "==> $name"
  stage_note=""
  start=$SECONDS
  "$@"
  rc=$?
  # Each stage's wall time, so that what a stage adds to CI's budget is seen in every run.
  took="$(printf '%4d s' $((SECONDS - start)))"
  if [ "$rc" = 0 ]; then
    summary+=("ok      $took  $name${stage_note:+ ($stage_note)}")
  elif [ "$rc" = 77 ]; then
    summary+=("skipped $took  $name: ${stage_note:-no reason given}")
  else
    summary+=("FAILED  $took  $name${stage_note:+ ($stage_note)}")
    status=1
  fi
}
# skippable COMMAND...: a script that exits 77 when it cannot run here, after printing
# "SKIPPED: why" on stderr; the why goes into the summary, as does a "PART SKIPPED: why" of a
# script that passed without one of its parts.
# shellcheck disable=SC2317  # called through stage
skippable() {
  local err rc
  err="$(mktemp)"
  "$@" 2>"$err"
  rc=$?
  cat "$err" >&2
  if [ "$rc" = 77 ]; then stage_note="$(sed -n 's/.*SKIPPED: //p' "$err" | tail -n 1)"; fi
  # A part that could not run inside a stage that passed: "ok (part skipped: why)".
  if [ "$rc" = 0 ] && grep -q 'PART SKIPPED: ' "$err"; then
    stage_note="part skipped: $(sed -n 's/.*PART SKIPPED: //p' "$err" | paste -sd ';' -)"
  fi
  rm -f "$err"
  return "$rc"
}

# Counts over every ctest run, for the closing line. ctest counts a skipped test among the
# "tests passed"; the skipped ones are taken from its "did not run ... (Skipped)" list.
passed=0 failed=0 skipped=0
# shellcheck disable=SC2317  # called through stage
run_ctest() {  # run_ctest CTEST-ARGS...: ctest that fails when it finds no test
  local log rc total nfail nskip names why
  log="$(mktemp)"
  ctest --no-tests=error "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  total="$(awk '/tests failed out of/ {print $NF}' "$log" | tail -1)"
  nfail="$(awk '/tests failed out of/ {print $(NF-5)}' "$log" | tail -1)"
  names="$(sed -n 's/^[[:space:]]*[0-9]* - \(.*\) (Skipped)$/\1/p' "$log")"
  nskip="$(printf '%s' "$names" | grep -c .)"
  total=${total:-0} nfail=${nfail:-0}
  skipped=$((skipped + nskip))
  failed=$((failed + nfail))
  passed=$((passed + total - nfail - nskip))
  # A test's own reason ("[wheels] SKIPPED: PyPI unreachable") when it printed one.
  why="$(sed -n 's/.*SKIPPED: //p' "$log" | sort -u | paste -sd ';' -)"
  rm -f "$log"
  if [ "$nskip" -gt 0 ]; then stage_note="$nskip skipped: $(printf '%s' "$names" | paste -sd ',' -)${why:+; $why}"; fi
  if [ "$rc" = 0 ] && [ "$total" -gt 0 ] && [ "$nskip" = "$total" ]; then
    stage_note="${why:-every test skipped: $(printf '%s' "$names" | paste -sd ',' -)}"
    return 77
  fi
  return "$rc"
}

stage "lint (clang-format, shellcheck)" scripts/lint.sh
stage "build (dev)" bash -c "cmake --preset dev >/dev/null && cmake --build --preset dev -j$jobs"
stage "tests (dev)" run_ctest --preset dev -LE 'slow|wheels'
stage "windows: gpudoctor.exe built with mingw-w64, run under wine, compared with Linux" skippable scripts/windows-check.sh build/dev
stage "html report in headless chromium" skippable scripts/html-report-check.sh build/dev/gpudoctor
stage "fleet under mpirun (4 ranks, odd node out, faults)" skippable scripts/fleet-check.sh build/dev
stage "fleet under Slurm's srun (a scratch one-node cluster: PMIx, a dead rank, scancel)" skippable scripts/fleet-slurm-check.sh build/dev
stage "fleet --from serve endpoints (odd node out; hang, garbage, too big, missing)" skippable scripts/fleet-from-check.sh build/dev
stage "serve scraped by a real Prometheus (promtool check metrics)" skippable scripts/serve-prometheus-check.sh
stage "slow tests (dev: 1 GB explain stream)" run_ctest --preset dev -L slow
stage "build (asan)" bash -c "cmake --preset asan >/dev/null && cmake --build --preset asan -j$jobs"
stage "tests (asan)" run_ctest --preset asan -LE 'slow|wheels'
stage "fuzz (short: 12 s a target, one per core)" scripts/fuzz.sh 12
# -V: the wheel test's own output, which says why it skipped when it does.
stage "real framework wheels" run_ctest --preset dev -L wheels -V
stage "run path: release build, test packages hidden" scripts/check-run-path.sh
stage "debian package: build, unpack, run" scripts/build-deb.sh --check build/run-path
stage "python wheel: build, fresh venv, run" scripts/build-wheel.sh --check

echo
echo "Summary:"
printf '  %s\n' "${summary[@]}"
echo "tests: $passed passed, $failed failed, $skipped skipped"
echo "time: $((SECONDS / 60)) min $((SECONDS % 60)) s in all (CI allows 45 min)"
exit $status
