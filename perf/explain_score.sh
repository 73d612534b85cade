#!/usr/bin/env bash
# Top-1 / top-3 of `gpudoctor explain --no-probe` on the corpus (tests/corpus/error-logs.jsonl):
# every case's log_excerpt is explained and its labelled category looked for among the first
# three answers. Reports all cases and the held-out quarter (every 4th case in file order,
# fixed before rules were written; see docs/explain.md), and the cases left without an answer.
#
#   perf/explain_score.sh [BINARY] [CORPUS.jsonl]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$here/build/dev/gpudoctor}"
corpus="${2:-$here/tests/corpus/error-logs.jsonl}"
[[ -x "$bin" ]] || { echo "no binary at $bin" >&2; exit 2; }
python3 - "$bin" "$corpus" <<'PY'
import json, subprocess, sys
binary, corpus = sys.argv[1], sys.argv[2]
cases = [json.loads(l) for l in open(corpus, encoding="utf-8") if l.strip()]
stats = {"all": [0, 0, 0, 0], "held-out quarter": [0, 0, 0, 0]}
misses = []
for i, c in enumerate(cases):
    out = subprocess.run([binary, "--json", "explain", "--no-probe", "-"], input=c["log_excerpt"].encode(),
                         capture_output=True, timeout=60).stdout
    cats = []
    for m in json.loads(out)["matches"]:
        if m["category"] not in cats:
            cats.append(m["category"])
    for key in ["all"] + (["held-out quarter"] if i % 4 == 3 else []):
        s = stats[key]
        s[0] += 1
        s[1] += bool(cats) and cats[0] == c["category"]
        s[2] += c["category"] in cats[:3]
        s[3] += not cats
    if not cats or cats[0] != c["category"]:
        misses.append(f"  {c['id']}: want {c['category']}, got {cats[:3] or 'no answer'}")
for key, (n, t1, t3, none) in stats.items():
    print(f"{key}: {n} cases, top-1 {t1}/{n} ({100 * t1 / n:.0f}%), top-3 {t3}/{n} ({100 * t3 / n:.0f}%), "
          f"no answer {none}")
print("not first:")
print("\n".join(misses) or "  none")
PY
