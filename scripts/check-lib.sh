# Steps shared by scripts/check-run-path.sh, build-deb.sh and build-wheel.sh (sourced, not run).
# shellcheck shell=bash

quietly() {  # quietly WHO COMMAND...: runs COMMAND; its output is shown only when it fails
  local who="$1" log rc=0
  shift
  log=$(mktemp)
  "$@" >"$log" 2>&1 || rc=$?
  if [ "$rc" != 0 ]; then
    cat "$log" >&2
    echo "$who: '$*' failed (exit $rc)" >&2
  fi
  rm -f "$log"
  return "$rc"
}

doctor_runs() {  # doctor_runs WHO BINARY: the doctor exits 0, or 1 (an error found: no GPU here)
  local who="$1" bin="$2" rc=0
  "$bin" --no-color >/dev/null || rc=$?
  if [ "$rc" -gt 1 ]; then
    echo "$who: $bin exited $rc" >&2
    return 1
  fi
  echo "$who: $bin runs the doctor (exit $rc)"
}
