#!/usr/bin/env bash
# Installs what gpudoctor needs on Debian 12 (bookworm). Idempotent: packages already present are
# not reinstalled. Usage: scripts/setup-debian.sh [build|test] [--list]
#   build: what scripts/run.sh needs to build and run the tool, nothing more
#   test:  that plus what scripts/test.sh needs (tests, lint, packaging checks)
#   --list: print the packages of that mode, one a line, and install nothing
# scripts/check-run-path.sh keeps the build list honest: every file the release configure finds
# must come from a package installed by it.
set -euo pipefail

mode="${1:-build}"
list=0
if [ "${2:-}" = "--list" ]; then list=1; fi
build_pkgs=(
  cmake ninja-build g++ pkg-config ccache
  libcli11-dev libfmt-dev nlohmann-json3-dev libtomlplusplus-dev libspdlog-dev libre2-dev
  pci.ids
  # report --html: mustache templates (mstch is a static library over Boost's headers)
  libmstch-dev libboost-dev
  # `serve`'s HTTP server and watch's terminal UI (CMake leaves each out without it)
  libcpp-httplib-dev libncurses-dev
  # bench: its history (SQLite), and the CPU baseline's libraries (loaded at run time; oneDNN's
  # header gives the C types)
  libsqlite3-dev libopenblas-dev libdnnl-dev
)
test_pkgs=(
  libgtest-dev libgmock-dev clang libclang-rt-14-dev clang-format shellcheck hyperfine
  # scripts/check-run-path.sh traces the release configure to see every file it reads
  strace
  python3-venv python3-pip
  # packaging checks: the .deb (cpack: dpkg-shlibdeps, file) and the wheel
  dpkg-dev file
  # gpudoctor.exe built with mingw-w64 from Debian's sources and run under wine
  # (scripts/build-windows.sh, scripts/windows-check.sh): RE2's build regenerates its Unicode
  # tables from unicode-data (as Debian's does); SQLite's amalgamation needs tclsh
  g++-mingw-w64-x86-64 wine64 unicode-data tcl
  # llvm-ar indexes the cross build's COFF archives in under a second where binutils' takes minutes
  llvm
  # the HTML report opened in headless Chromium (scripts/html-report-check.sh)
  chromium
  # gpudoctor-fleet built against OpenMPI and run under mpirun (scripts/fleet-check.sh)
  openmpi-bin libopenmpi-dev
  # the same launched by Slurm's srun (scripts/fleet-slurm-check.sh starts a private one-node
  # cluster in a scratch folder; Debian's units start nothing without /etc/slurm/slurm.conf)
  slurmd slurmctld slurm-client munge
  # `serve` scraped by a real Prometheus (scripts/serve-prometheus-check.sh)
  prometheus curl jq
  # watch's terminal UI driven in a terminal and captured (tests/fakes/watch_fake_test.cpp)
  tmux
)
case "$mode" in
  build) pkgs=("${build_pkgs[@]}") ;;
  test) pkgs=("${build_pkgs[@]}" "${test_pkgs[@]}") ;;
  *) echo "usage: $0 [build|test] [--list]" >&2; exit 2 ;;
esac
if [ "$list" = 1 ]; then
  printf '%s\n' "${pkgs[@]}"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" != 0 ]; then sudo_cmd=(sudo); fi
missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# scripts/build-windows.sh builds the Windows dependencies from Debian's sources (apt-get source).
src_list=/etc/apt/sources.list.d/gpudoctor-deb-src.sources
need_src=0
if [ "$mode" = test ] && [ ! -e "$src_list" ] && ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  need_src=1
fi
if [ ${#missing[@]} -gt 0 ] || [ "$need_src" = 1 ]; then
  echo "setup: installing ${missing[*]:-nothing new} (about a minute on a fresh Debian 12)" >&2
  # dpkg's hundreds of progress lines only on failure.
  log="$(mktemp)"
  trap 'rm -f "$log"' EXIT
  if [ "$need_src" = 1 ]; then
    echo "setup: adding Debian's source packages ($src_list) for scripts/build-windows.sh" >&2
    # shellcheck disable=SC1091  # the running system's
    . /etc/os-release
    printf '%s\n' "# gpudoctor's scripts/setup-debian.sh test: sources for scripts/build-windows.sh (apt-get source)" \
      "Types: deb-src" "URIs: http://deb.debian.org/debian" "Suites: $VERSION_CODENAME $VERSION_CODENAME-updates" \
      "Components: main" "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" "" \
      "Types: deb-src" "URIs: http://deb.debian.org/debian-security" "Suites: $VERSION_CODENAME-security" \
      "Components: main" "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" |
      "${sudo_cmd[@]}" tee "$src_list" >/dev/null
  fi
  if ! { "${sudo_cmd[@]}" apt-get update -qq &&
    { [ ${#missing[@]} = 0 ] ||
      DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; }; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "setup: installing packages failed (log above)" >&2
    exit 1
  fi
fi
