#!/usr/bin/env bash
# Throughput of `gpudoctor explain --no-probe` over a large, realistic generated log, side by
# side with `grep -E -f patterns.txt` (the same rule patterns, translated to POSIX ERE) over
# the same file, both pinned to one core. Also records peak memory (/usr/bin/time -v).
#
#   perf/explain_throughput.sh [BINARY] [SIZE_MB] [WORKDIR]
#   defaults: build/release/gpudoctor, 300, a fresh temporary directory (removed at the end)
#   BASELINE=OLD_BINARY: also times that build's start-up on one line, in the same run
#
# Build the binary first: cmake --preset release && cmake --build build/release -j2 --target gpudoctor
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$here/build/release/gpudoctor}"
size_mb="${2:-300}"
work="${3:-}"
cleanup=0
if [[ -z "$work" ]]; then
  work="$(mktemp -d)"
  cleanup=1
fi
[[ -x "$bin" ]] || { echo "no binary at $bin (build the release preset first)" >&2; exit 2; }
log="$work/train.log"
patterns="$work/patterns.txt"

# 1. The log: training-run noise (progress bars with \r, TF/XLA info lines, ANSI-coloured
#    logger lines, JSON metrics) with the corpus' real error lines sprinkled in, about one
#    known line per 2,000.
python3 - "$here/tests/corpus/error-logs.jsonl" "$log" "$size_mb" <<'PY'
import json, random, sys
corpus, out, size_mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
known = []
for line in open(corpus, encoding="utf-8"):
    if line.strip():
        known += [l for l in json.loads(line)["log_excerpt"].splitlines() if l.strip()]
rng = random.Random(42)
noise = [
    "2024-05-10 11:33:{s:02d}.{u:06d}: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1928] step {i} done in {ms} ms",
    "Epoch {e}/100  {i}/5000 [=====>........................] - ETA: 4:12 - loss: 0.{ms} - accuracy: 0.8812\r",
    "\x1b[32mINFO\x1b[0m [{s:02d}:{u}] dataloader worker {w} prefetched batch {i}",
    '{{"step": {i}, "loss": 0.{ms}, "lr": 0.0003, "grad_norm": 1.02, "tokens_per_s": {u}}}',
    "[rank{w}]:[W{s}] torch/distributed/fsdp: all-gather bucket {i} of size {u} bytes",
    "I0510 11:33:{s:02d}.{u:06d} 139973430083584 train.py:{ms}] global_step={i} examples/sec={u}",
]
target = size_mb << 20
written = 0
i = 0
with open(out, "w", encoding="utf-8", newline="\n") as f:
    buf = []
    while written < target:
        if rng.random() < 1 / 2000:
            s = rng.choice(known)
        else:
            s = rng.choice(noise).format(i=i, s=i % 60, u=rng.randrange(10**6), ms=rng.randrange(1000),
                                         e=i % 100, w=i % 16)
        s += "\n"
        buf.append(s)
        written += len(s.encode("utf-8"))
        i += 1
        if len(buf) >= 10000:
            f.write("".join(buf)); buf = []
    f.write("".join(buf))
PY

# 2. The same patterns for grep: RE2 -> POSIX ERE (named and non-capturing groups become plain
#    groups, \d -> [0-9], lazy quantifiers become greedy, inline flags dropped). The count is
#    the same; grep does not extract captures or rank, so it is a lower bound on the work.
python3 - "$here/data/explain" "$patterns" <<'PY'
import re, sys, pathlib, tomllib
out = []
for p in sorted(pathlib.Path(sys.argv[1]).glob("*.toml")):
    doc = tomllib.loads(p.read_text(encoding="utf-8"))
    for rule in doc.get("rule", []):
        pats = rule.get("patterns", [])
        if isinstance(pats, str):
            pats = [pats]
        for pat in pats:
            e = re.sub(r"\(\?P<\w+>", "(", pat)
            e = e.replace("(?:", "(").replace("(?i)", "")
            e = e.replace(r"\d", "[0-9]")
            e = re.sub(r"([*+?}])\?", r"\1", e)
            out.append(e)
pathlib.Path(sys.argv[2]).write_text("\n".join(out) + "\n", encoding="utf-8")
print(f"{len(out)} patterns", file=sys.stderr)
PY

bytes=$(stat -c %s "$log")
echo "log: $log, $bytes bytes; patterns: $(wc -l < "$patterns")"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"

# 3. Timing, one core each, the file in the page cache (warm-up run).
# --output=pipe: GNU grep stops at the first match when its output is /dev/null (hyperfine's
# default), which would time nothing.
hyperfine --warmup 1 --runs 5 -i --output=pipe --export-json "$work/hyperfine.json" \
  "taskset -c 0 $bin explain --no-probe $log" \
  "taskset -c 0 grep -E -c -f $patterns $log"
python3 - "$work/hyperfine.json" "$bytes" <<'PY'
import json, sys
data = json.load(open(sys.argv[1])); n = int(sys.argv[2])
for r in data["results"]:
    name = r["command"].split()[3].split("/")[-1]
    cpu = r["user"] + r["system"]
    print(f"{name:>10}: median wall {r['median']:.3f} s -> {n / r['median'] / 1e6:.0f} MB/s; "
          f"mean CPU (user+sys) {cpu:.3f} s -> {n / cpu / 1e6:.0f} MB/s")
PY

# 4. Peak memory of explain (constant: it must not grow with the log).
/usr/bin/time -v "$bin" explain --no-probe "$log" > /dev/null 2> "$work/time.txt" || true
grep -E "Maximum resident set size|Elapsed" "$work/time.txt"
head -c $((bytes / 10)) "$log" > "$work/small.log"
/usr/bin/time -v "$bin" explain --no-probe "$work/small.log" > /dev/null 2> "$work/time-small.txt" || true
echo "a tenth of the log: $(grep 'Maximum resident set size' "$work/time-small.txt")"
"$bin" explain --no-probe "$log" | head -3 || true

# 5. Start-up: one known line, where loading and compiling the rules is nearly all the work.
#    BASELINE=/path/to/an/older/gpudoctor adds that build to the same run.
printf 'RuntimeError: CUDA error: out of memory\n' > "$work/one-line.log"
startup=("taskset -c 0 $bin explain --no-probe $work/one-line.log" "taskset -c 0 grep -E -c -f $patterns $work/one-line.log")
if [[ -n "${BASELINE:-}" ]]; then startup+=("taskset -c 0 $BASELINE explain --no-probe $work/one-line.log"); fi
hyperfine -N --warmup 3 --runs 30 -i --export-markdown "$work/startup.md" "${startup[@]}" > /dev/null
cat "$work/startup.md"

if [[ $cleanup == 1 ]]; then rm -rf "$work"; fi
