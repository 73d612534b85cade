#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan) and runs each for a few seconds, seeded
# with the fixture files. Usage: scripts/fuzz.sh [SECONDS_PER_TARGET]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j"$(nproc)"
corpus_root="build/fuzz/corpus"
mkdir -p "$corpus_root"
failed=0
ran=0
for target in build/fuzz/tests/fuzz/fuzz_*; do
  [ -x "$target" ] || continue
  name="$(basename "$target")"
  ran=$((ran + 1))
  corpus="$corpus_root/$name"
  mkdir -p "$corpus"
  # Seed each corpus with small real files from the fixtures (any file: parsers take anything).
  # (|| true: head closing the pipe early must not end the script under pipefail.)
  if [ -d tests/fixtures ] && [ -z "$(ls -A "$corpus")" ]; then
    { find tests/fixtures -type f -size -64k 2>/dev/null || true; } | head -200 | while read -r f; do
      cp -n "$f" "$corpus/seed-$(echo "$f" | md5sum | cut -c1-12)" 2>/dev/null || true
    done || true
  fi
  if "$target" "$corpus" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=0 \
      >"build/fuzz/$name.log" 2>&1; then
    echo "fuzz: $name ok ($(grep -c . "build/fuzz/$name.log") log lines)"
  else
    echo "fuzz: $name FAILED; see build/fuzz/$name.log"; tail -30 "build/fuzz/$name.log"
    failed=1
  fi
done
# A build that produced no fuzz target (a renamed target, a glob that stopped matching) has
# fuzzed nothing: that is a failure, never a pass.
if [ "$ran" = 0 ]; then
  echo "fuzz: no fuzz target found under build/fuzz/tests/fuzz/; nothing was fuzzed"
  exit 1
fi
echo "fuzz: $ran targets"
exit $failed
