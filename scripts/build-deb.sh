#!/usr/bin/env bash
# Builds the Debian package dist/gpudoctor_<version>_<arch>.deb from the release preset; its
# Depends come from the shared libraries the binary links (dpkg-shlibdeps). Needs dpkg-dev and
# file besides the build list (scripts/setup-debian.sh test installs them).
# Usage: scripts/build-deb.sh [--check] [BUILD_DIR]
#   BUILD_DIR  default build/release, the tree scripts/run.sh builds (no second compile)
#   --check    then test the package: Depends covers every library the binary needs, apt can
#              resolve them here, and the doctor runs from the unpacked package
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/check-lib.sh
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
build="${1:-build/release}"

cmake --preset release -B "$build" >/dev/null
quietly build-deb cmake --build "$build" --target gpudoctor -j"$(nproc)"
rm -rf "$build/packages"
quietly build-deb cpack --config "$build/CPackConfig.cmake" -B "$PWD/$build/packages"
debs=("$build"/packages/gpudoctor_*.deb)
[ -f "${debs[0]}" ] || { echo "build-deb: cpack made no .deb" >&2; exit 1; }
mkdir -p dist
cp "${debs[0]}" dist/
deb="dist/$(basename "${debs[0]}")"
echo "build-deb: $deb"
[ "$check" = 1 ] || exit 0

# Every shared library the binary needs must be in Depends, by the package that ships it.
depends=$(dpkg-deb -f "$deb" Depends)
echo "build-deb: Depends: $depends"
dep_names=$(sed 's/([^)]*)//g; s/|/,/g' <<<"$depends" | tr ',' '\n' | tr -d ' ')
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
bin="$root/usr/bin/gpudoctor"
for lib in $(readelf -d "$bin" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do
  path=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ && !p {print $NF; p = 1}')
  real=$(readlink -f "$path")
  # By directory and name: with the merged /usr, dpkg may know it under /lib or /usr/lib.
  pkg=$(dpkg-query -S "*/$(basename "$(dirname "$real")")/$(basename "$real")" | sed -n 1p | cut -d: -f1)
  # Depends may name the package or a virtual one it provides (libspdlog1.10-fmt9).
  ok=0
  for name in "$pkg" $(dpkg-query -W -f='${Provides}' "$pkg" | tr -d ' ' | tr ',' ' ' | sed 's/([^)]*)//g'); do
    if grep -qxF "$name" <<<"$dep_names"; then ok=1; fi
  done
  if [ "$ok" = 0 ]; then
    echo "build-deb: the binary needs $lib (package $pkg) but Depends lacks it" >&2
    exit 1
  fi
done
# apt can satisfy Depends on this Debian (simulated: nothing is installed).
apt-get install -s -qq --no-install-recommends "./$deb" >/dev/null
# The unpacked binary runs the doctor: exit 0, or 1 when it finds an error (no GPU here).
"$bin" --version | sed -n 1p
doctor_runs build-deb "$bin"
