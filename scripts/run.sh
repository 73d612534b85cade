#!/usr/bin/env bash
# Installs the build dependencies, builds a release gpudoctor and runs the doctor on this
# machine. Extra arguments go to gpudoctor (e.g. scripts/run.sh --json).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh build
cmake --preset release >/dev/null
cmake --build --preset release -j"$(nproc)" --target gpudoctor
exec build/release/gpudoctor "$@"
