#!/usr/bin/env bash
# The doctor on this machine, side by side with the usual check
#   python -c "import tensorflow as tf; print(tf.config.list_physical_devices('GPU'))"
# in the same run. A release build of gpudoctor and a virtualenv with tensorflow (and its
# dependencies) are made on first use. Usage: perf/doctor_speed.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-30}"
venv="${GPUDOCTOR_PERF_VENV:-build/perf-venv}"
cmake --preset release >/dev/null
cmake --build --preset release --target gpudoctor -j"$(nproc)" >/dev/null
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import importlib.util,sys; sys.exit(importlib.util.find_spec('tensorflow') is None)"; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q tensorflow
fi
export VIRTUAL_ENV="$PWD/$venv"   # the doctor then also reads that environment's TensorFlow
out="$(mktemp -d)"
tf_check="$venv/bin/python -c \"import tensorflow as tf; print(tf.config.list_physical_devices('GPU'))\""
# -i: the doctor exits 1 on this machine (no GPU is an error-level finding).
hyperfine -N -i --warmup 3 --runs "$runs" --export-json "$out/doctor.json" 'build/release/gpudoctor --json' >/dev/null
hyperfine -i --warmup 1 --runs 5 --export-json "$out/tf.json" "$tf_check" >/dev/null
# The doctor exits 1 here (no GPU is an error), so the status of time is not ours to check.
rss() { { /usr/bin/time -v "$@" 2>&1 >/dev/null || true; } | awk -F': ' '/Maximum resident/ {print $2}'; }
doctor_rss=$(for _ in 1 2 3 4 5; do rss build/release/gpudoctor --json; done | sort -n | sed -n 3p)
tf_rss=$(rss "$venv/bin/python" -c "import tensorflow as tf; print(tf.config.list_physical_devices('GPU'))")
python3 - "$out" "$doctor_rss" "$tf_rss" <<'PY'
import json, sys
out, doctor_rss, tf_rss = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
d = json.load(open(f"{out}/doctor.json"))["results"][0]
t = json.load(open(f"{out}/tf.json"))["results"][0]
print("| check | median wall | min | max | peak RSS |")
print("|---|---|---|---|---|")
print(f"| `gpudoctor --json` ({len(d['times'])} runs) | {d['median']*1e3:.1f} ms | {d['min']*1e3:.1f} ms | {d['max']*1e3:.1f} ms | {doctor_rss/1024:.1f} MB |")
print(f"| `import tensorflow; list_physical_devices('GPU')` ({len(t['times'])} runs) | {t['median']*1e3:.0f} ms | {t['min']*1e3:.0f} ms | {t['max']*1e3:.0f} ms | {tf_rss/1024:.0f} MB |")
print(f"\nratio (median wall): the doctor is {t['median']/d['median']:.0f}x faster; peak memory {tf_rss/doctor_rss:.0f}x smaller")
PY
