#!/usr/bin/env bash
# Installs what gpudoctor needs to build and test on Debian 12 (bookworm). Idempotent: packages
# already present are not reinstalled. Usage: scripts/setup-debian.sh [build|test]
set -euo pipefail

mode="${1:-build}"
build_pkgs=(
  cmake ninja-build g++ pkg-config ccache
  libcli11-dev libfmt-dev nlohmann-json3-dev libtomlplusplus-dev libspdlog-dev libre2-dev
  pci.ids
)
test_pkgs=(
  libgtest-dev libgmock-dev clang libclang-rt-14-dev clang-format shellcheck hyperfine
  python3-venv python3-pip
)
pkgs=("${build_pkgs[@]}")
if [ "$mode" = "test" ]; then
  pkgs+=("${test_pkgs[@]}")
fi

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  if [ "$(id -u)" != 0 ]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
