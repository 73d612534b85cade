#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan) and runs each for a few seconds, seeded
# with the fixture files, one target per core at a time.
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j"$(nproc)"
corpus_root="build/fuzz/corpus"
mkdir -p "$corpus_root"

# fuzz_one TARGET: seeds its corpus (once) and fuzzes it; prints one line, exits non-zero on a
# finding.
# shellcheck disable=SC2317  # called through xargs
fuzz_one() {
  local target="$1" name corpus
  name="$(basename "$target")"
  corpus="$corpus_root/$name"
  mkdir -p "$corpus"
  # Seed each corpus with small real files (any file: parsers take anything): real binaries first,
  # so the PE and ELF readers start from valid headers, import tables and symbol tables rather
  # than from the fixtures' empty stand-in DLLs (wine's PE DLLs, present where the Windows stage's
  # packages are; small system shared libraries), then the fixtures. Every parser gets them: the
  # log decoder fed a wine DLL is how a recoded line past the cap was found (tests/fuzz/findings/).
  # (|| true: head closing the pipe early must not end the script under pipefail.)
  if [ -z "$(ls -A "$corpus")" ]; then
    {
      { find /usr/lib/x86_64-linux-gnu/wine/x86_64-windows -name '*.dll' -size -64k 2>/dev/null || true; } | sort | head -12
      { find /usr/lib/x86_64-linux-gnu -maxdepth 1 -name 'lib*.so.*' -type f -size -64k 2>/dev/null || true; } | sort | head -12
      if [ -d tests/fixtures ]; then
        { find tests/fixtures -type f -size -64k 2>/dev/null || true; } | head -200
      fi
    } | while read -r f; do
      cp -n "$f" "$corpus/seed-$(echo "$f" | md5sum | cut -c1-12)" 2>/dev/null || true
    done || true
  fi
  # Past findings (tests/fuzz/findings/<parser>-<what>.bin) first, each run once: a fixed defect
  # that comes back fails here whatever the fuzzing finds this time.
  local finding
  for finding in tests/fuzz/findings/"${name#fuzz_}"-*.bin; do
    [ -e "$finding" ] || continue
    if ! "$target" "$finding" >"build/fuzz/$name.replay.log" 2>&1; then
      echo "fuzz: $name FAILED on a past finding, $finding; see build/fuzz/$name.replay.log"
      tail -30 "build/fuzz/$name.replay.log"
      return 1
    fi
  done
  if "$target" "$corpus" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=0 \
    >"build/fuzz/$name.log" 2>&1; then
    echo "fuzz: $name ok ($(grep -c . "build/fuzz/$name.log") log lines)"
  else
    echo "fuzz: $name FAILED; see build/fuzz/$name.log"
    tail -30 "build/fuzz/$name.log"
    return 1
  fi
}
export -f fuzz_one
export corpus_root seconds

# One executable fuzzes every parser: started as fuzz_<parser> (a link to it), it fuzzes that one.
dir=build/fuzz/tests/fuzz
names=()
if [ -x "$dir/gpudoctor_fuzz" ]; then mapfile -t names < <("$dir/gpudoctor_fuzz" --list); fi
# A build that produced no fuzz target (a renamed target, an empty list) has fuzzed nothing:
# that is a failure, never a pass.
if [ "${#names[@]}" = 0 ]; then
  echo "fuzz: $dir/gpudoctor_fuzz was not built or names no parser; nothing was fuzzed"
  exit 1
fi
targets=()
for name in "${names[@]}"; do
  case "$name" in
    *[!a-z0-9_]* | "") echo "fuzz: odd parser name '$name'"; exit 1 ;;
  esac
  ln -sfn gpudoctor_fuzz "$dir/fuzz_$name"
  targets+=("$dir/fuzz_$name")
done
failed=0
# Each target is one process: as many at once as there are cores. xargs exits 123 when any failed.
# shellcheck disable=SC2016  # \$1 is bash -c's argument
printf '%s\0' "${targets[@]}" | xargs -0 -n 1 -P "$(nproc)" bash -c 'fuzz_one "$1"' _ || failed=1
echo "fuzz: ${#targets[@]} targets, ${seconds} s each, $(nproc) at a time"
exit $failed
