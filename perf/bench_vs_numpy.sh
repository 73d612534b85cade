#!/usr/bin/env bash
# bench's CPU baseline against the frameworks on the same sizes, in the same run:
#   SGEMM:        `gpudoctor bench --quick --json` (OpenBLAS from Debian, dlopen'd in a child)
#                 vs numpy.matmul on float32 (numpy's PyPI wheel bundles its own OpenBLAS,
#                 scipy-openblas; the script prints which)
#   convolution:  bench's oneDNN FP32 convolution vs jax.lax.conv_general_dilated on the CPU
#                 (XLA's CPU backend). PyTorch's CPU wheel is not on PyPI (the PyPI torch wheel
#                 pulls gigabytes of CUDA libraries), so JAX's CPU wheel stands in.
# The tools run alternately, ROUNDS times each, and each side's figure is the median of its rounds
# (within a round each takes the median of its timed iterations after a warm-up). Twice: on every
# core (the figure bench reports), and on one thread (`bench --cpu-threads 1`,
# OPENBLAS_NUM_THREADS=1 / XLA's one intra-op thread), which compares the kernels alone: on a
# machine shared with other work, several threads measure the neighbours as much as the library.
# numpy and jax go into a throwaway virtualenv under .cache/ (made on first use).
# The SGEMM is measured twice by bench: through Debian's OpenBLAS (its default) and, with
# --openblas, through the very library numpy.matmul runs (the wheel's); the exit status is the
# second comparison's, within 10 % on all cores and on one thread.
# Usage: perf/bench_vs_numpy.sh [ROUNDS]   (GPUDOCTOR=path/to/gpudoctor to use another build)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
venv=".cache/bench-venv"
bin="${GPUDOCTOR:-build/dev/gpudoctor}"
if [ ! -x "$bin" ]; then
  cmake --preset dev >/dev/null
  cmake --build --preset dev --target gpudoctor -j2 >/dev/null
fi
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import numpy, jax" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q numpy jax
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# The OpenBLAS numpy.matmul itself runs: bench measures it too (--openblas), so that one comparison
# has the same library on both sides and only the measuring differs.
numpy_blas="$(find "$venv"/lib/python3*/site-packages/numpy.libs -name '*openblas*.so*' | head -n 1)"
n=1024          # bench --quick's SGEMM size
conv_n=4        # bench --quick's convolution batch: 4x64x56x56, 64 filters 3x3, pad 1
for r in $(seq "$rounds"); do
 for threads in all 1; do
  if [ "$threads" = all ]; then
    bench_threads=()
    env_threads=()
  else
    bench_threads=(--cpu-threads 1)
    env_threads=(OPENBLAS_NUM_THREADS=1 XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
  fi
  "$bin" --json bench --quick --no-history "${bench_threads[@]}" >"$out/bench-$threads-$r.json" || true
  "$bin" --json bench --quick --cpu-only --no-history "${bench_threads[@]}" --openblas "$numpy_blas" \
    >"$out/bench-np-$threads-$r.json" || true
  env "${env_threads[@]}" "$venv/bin/python" - "$n" "$conv_n" >"$out/py-$threads-$r.json" <<'PY'
import json, sys, time, statistics
import numpy as np
n, conv_n = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(3)
a = rng.uniform(-1, 1, (n, n)).astype(np.float32)
b = rng.uniform(-1, 1, (n, n)).astype(np.float32)

def timed(fn, warmup=1, min_iter=5, min_s=0.3, max_s=1.5):
    # bench --quick's policy: warm-up, then at least 5 iterations and 0.3 s, at most 1.5 s.
    for _ in range(warmup):
        fn()
    times = []
    while True:
        t0 = time.perf_counter(); fn(); times.append(time.perf_counter() - t0)
        if sum(times) >= max_s or (len(times) >= min_iter and sum(times) >= min_s):
            break
    return statistics.median(times)

t = timed(lambda: np.matmul(a, b))
res = {"numpy_sgemm_gflops": 2 * n**3 / t / 1e9, "numpy": np.__version__}
try:
    cfg = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    res["numpy_blas"] = f'{cfg.get("name")} {cfg.get("version")}'
except Exception as e:  # older numpy
    res["numpy_blas"] = f"unknown ({e})"
import jax, jax.numpy as jnp
x = jnp.asarray(rng.uniform(-1, 1, (conv_n, 64, 56, 56)).astype(np.float32))
w = jnp.asarray(rng.uniform(-1, 1, (64, 64, 3, 3)).astype(np.float32))
conv = jax.jit(lambda x, w: jax.lax.conv_general_dilated(x, w, (1, 1), ((1, 1), (1, 1)),
                                                         dimension_numbers=("NCHW", "OIHW", "NCHW")))
t = timed(lambda: conv(x, w).block_until_ready())
res["jax_conv_gflops"] = 2 * conv_n * 64 * 56 * 56 * 64 * 9 / t / 1e9
res["jax"] = jax.__version__
res["jax_backend"] = jax.default_backend()
print(json.dumps(res))
PY
 done
done
python3 - "$out" "$rounds" <<'PY'
import json, sys, statistics
out, rounds = sys.argv[1], int(sys.argv[2])
ok = True
for threads in ("all", "1"):
    bench = [json.load(open(f"{out}/bench-{threads}-{r}.json")) for r in range(1, rounds + 1)]
    py = [json.load(open(f"{out}/py-{threads}-{r}.json")) for r in range(1, rounds + 1)]
    def med(xs): return statistics.median([x for x in xs if x is not None])
    same = [json.load(open(f"{out}/bench-np-{threads}-{r}.json")) for r in range(1, rounds + 1)]
    ours = med([b["results"].get("cpu.sgemm_fp32.gflops") for b in bench])
    ours_np = med([b["results"].get("cpu.sgemm_fp32.gflops") for b in same])
    numpy = med([p["numpy_sgemm_gflops"] for p in py])
    conv = med([b["results"].get("cpu.conv_fp32.gflops") for b in bench])
    jaxc = med([p["jax_conv_gflops"] for p in py])
    m = {x["key"]: x for x in bench[-1]["measurements"]}
    print(f"== threads: {bench[-1].get('cpu_threads')} ({threads}); rounds: {rounds}; CPU: {bench[-1].get('cpu_model')}")
    print(f"SGEMM 1024^3 FP32   gpudoctor {ours:8.1f} GFLOP/s   numpy.matmul {numpy:8.1f} GFLOP/s   ratio {ours/numpy:.3f}")
    print(f"   per round: gpudoctor {[round(b['results'].get('cpu.sgemm_fp32.gflops') or 0, 1) for b in bench]}, "
          f"numpy {[round(p['numpy_sgemm_gflops'], 1) for p in py]}")
    print(f"conv 4x64x56x56 3x3 gpudoctor {conv:8.1f} GFLOP/s   jax (XLA CPU) {jaxc:8.1f} GFLOP/s   ratio {conv/jaxc:.3f}")
    print(f"SGEMM, same library gpudoctor {ours_np:8.1f} GFLOP/s through numpy's own OpenBLAS (--openblas)   "
          f"ratio to numpy.matmul {ours_np/numpy:.3f}")
    print(f"   per round: {[round(b['results'].get('cpu.sgemm_fp32.gflops') or 0, 1) for b in same]}")
    within = abs(ours_np / numpy - 1) <= 0.10
    print(f"   same library within 10% of numpy: {'yes' if within else 'NO'}; "
          f"Debian's OpenBLAS within 10%: {'yes' if abs(ours / numpy - 1) <= 0.10 else 'no'}")
    ok = ok and within
print(f"gpudoctor's BLAS: {m['cpu.sgemm_fp32']['library']}")
print(f"the same library: {same[-1]['measurements'][0]['library']}")
print(f"numpy {py[-1]['numpy']}: {py[-1]['numpy_blas']} (the wheel's own OpenBLAS)")
print(f"gpudoctor's convolution: {m['cpu.conv_fp32']['library']}")
print(f"jax {py[-1]['jax']} on {py[-1]['jax_backend']} (XLA's CPU convolution)")
sys.exit(0 if ok else 1)
PY
