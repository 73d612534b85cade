#!/usr/bin/env bash
# The Windows side of the child-process launcher, checked before a Windows machine does: every
# file of it compiled with mingw-w64 (both thread models, the project's warnings, -Werror), then
# tests/windows/child_process_smoke.cpp built and run under wine. Skips, saying so, when the
# cross compiler or wine is missing (scripts/setup-debian.sh test installs both).
set -euo pipefail
cd "$(dirname "$0")/.."
wine=""
for w in wine64 /usr/lib/wine/wine64 wine; do
  if command -v "$w" >/dev/null 2>&1; then
    wine="$w"
    break
  fi
done
if ! command -v x86_64-w64-mingw32-g++-posix >/dev/null 2>&1 || [ -z "$wine" ]; then
  echo "windows-smoke: SKIPPED: needs g++-mingw-w64-x86-64 and wine64 (scripts/setup-debian.sh test)" >&2
  exit 77
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# nlohmann's headers alone: the rest of /usr/include is the host's C library.
mkdir -p "$out/include"
ln -s /usr/include/nlohmann "$out/include/nlohmann"
warnings=(-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
  -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough -Wno-missing-field-initializers -Werror)
files=(src/platform/child_process.cpp src/platform/child_process_win32.cpp src/platform/process_runner.cpp
  src/platform/dynamic_library_win32.cpp src/explain/watched_command.cpp src/gpu/isolated_child.cpp
  src/gpu/internal_tasks.cpp src/gpu/gpu_agent.cpp src/gpu/driver_query.cpp src/cli/main.cpp)
for model in win32 posix; do
  for f in "${files[@]}"; do
    "x86_64-w64-mingw32-g++-$model" -std=c++20 -fsyntax-only "${warnings[@]}" -Isrc -isystem "$out/include" "$f"
  done
done
echo "windows-smoke: ${#files[@]} files compile with mingw-w64 (win32 and posix thread models)"
x86_64-w64-mingw32-g++-posix -std=c++20 -O1 -static -Isrc tests/windows/child_process_smoke.cpp \
  src/platform/child_process.cpp src/platform/child_process_win32.cpp src/core/result.cpp -o "$out/smoke.exe"
status=0
WINEPREFIX="$out/prefix" WINEDEBUG=-all timeout 300 "$wine" "$out/smoke.exe" || status=$?
# Let wine's server finish writing its prefix before the folder goes.
wineserver="$(dirname "$(command -v "$wine")")/wineserver"
if [ -x "$wineserver" ]; then WINEPREFIX="$out/prefix" "$wineserver" -w || true; fi
exit "$status"
