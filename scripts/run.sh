#!/usr/bin/env bash
# Installs the build dependencies, builds a release gpudoctor and runs the doctor on this
# machine. Extra arguments go to gpudoctor (e.g. scripts/run.sh --json). Needs nothing the
# tests need (the release preset builds no tests; scripts/check-run-path.sh keeps it so).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh build || exit 4
if [ ! -x build/release/gpudoctor ]; then
  echo "run: building gpudoctor (first time only; a few minutes)" >&2
fi
# Quiet unless something goes wrong: then the whole log, compiler errors included.
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! { cmake --preset release && cmake --build --preset release -j"$(nproc)" --target gpudoctor; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "run: the build failed (log above)" >&2
  exit 4
fi
rm -f "$log"
exec build/release/gpudoctor "$@"
