#!/usr/bin/env python3
"""`gpudoctor verify --framework jax` on a real, importable JAX (CPU wheels from PyPI, with
their dependencies) in a throwaway virtualenv:

  run_verify_framework_test.py --venv DIR --cache DIR --gpudoctor PATH

On a machine without a GPU, JAX takes its CPU path: verify must run JAX's own interpreter,
report the CPU fallback with the reasons the doctor sees, list what the process loaded, and
exit 1. On a machine with a GPU and no CUDA plugin installed, the same. Then `bench --framework
jax --quick --cpu-only` in the same JAX: the CPU training step's images per second. Wheels are cached in
--cache; exit 77 (skipped) when PyPI is unreachable and the cache lacks them.
"""
import argparse
import json
import os
import subprocess
import sys

SKIP = 77
PINS = ["jax==0.4.38", "jaxlib==0.4.38"]


def log(msg):
    print(f"[verify-framework] {msg}", flush=True)


def fail(msg):
    print(f"[verify-framework] FAILED: {msg}", flush=True)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--venv", required=True)
    ap.add_argument("--cache", required=True)
    ap.add_argument("--gpudoctor", required=True)
    a = ap.parse_args()
    os.makedirs(a.cache, exist_ok=True)
    python = os.path.join(a.venv, "bin", "python")
    if not os.path.exists(python):
        r = subprocess.run([sys.executable, "-m", "venv", a.venv], capture_output=True, text=True)
        if r.returncode != 0:
            log(f"SKIPPED: no venv module: {r.stderr.strip()}")
            sys.exit(SKIP)
    pip = [python, "-m", "pip", "--disable-pip-version-check", "-q"]
    have = subprocess.run(pip + ["show", "jax", "jaxlib"], capture_output=True, text=True).returncode == 0
    if not have:
        r = subprocess.run(pip + ["download", "--retries", "1", "--timeout", "15", "--only-binary=:all:", "-d", a.cache]
                           + PINS, capture_output=True, text=True)
        if r.returncode != 0:
            log("PyPI unreachable: trying the cache")
        r = subprocess.run(pip + ["install", "--no-index", "--find-links", a.cache] + PINS, capture_output=True,
                           text=True)
        if r.returncode != 0:
            log(f"SKIPPED: cannot install {PINS}: {r.stderr.strip()[-300:]}")
            sys.exit(SKIP)
    r = subprocess.run([a.gpudoctor, "--env", a.venv, "--json", "verify", "--framework", "jax",
                        "--step-timeout-ms", "300000"], capture_output=True, text=True, timeout=600)
    try:
        report = json.loads(r.stdout)
    except ValueError:
        fail(f"not JSON (exit {r.returncode}): {r.stdout[:400]} {r.stderr[:400]}")
    steps = [s for s in report["steps"] if s["name"] == "framework jax" and a.venv in " ".join(s["notes"])]
    if len(steps) != 1:
        fail(f"expected one jax step for {a.venv}: {json.dumps(report['steps'])[:600]}")
    s = steps[0]
    log(f"{s['status']}: {s['detail']}")
    gpu = os.path.exists("/proc/driver/nvidia/version")
    if s["status"] != "failed" or "CPU fallback" not in s["detail"]:
        fail(f"expected the CPU fallback{' (a GPU machine without the CUDA plugin)' if gpu else ''}: {s}")
    if "no jax-cuda plugin" not in s["detail"]:
        fail(f"the reason is missing: {s['detail']}")
    if not any(n.startswith("devices: cpu") for n in s["notes"]):
        fail(f"the devices JAX saw are missing: {s['notes']}")
    loaded = [n for n in s["notes"] if n.startswith("loaded ")]
    if not any("xla_extension" in n for n in loaded):
        fail(f"/proc/self/maps should list jaxlib's xla_extension: {loaded}")
    if r.returncode != 1:
        fail(f"exit status {r.returncode}, expected 1 (the CPU fallback is a failure of verify)")
    log(f"ok: {len(loaded)} libraries listed, e.g. {loaded[0]}")
    bench_framework(a)
    bench_numpy_openblas(a)


def bench_framework(a):
    """bench --framework jax: the CPU training step of the --quick model (ResNet-18) in the same
    JAX, at 64x64 and batch 4 to keep CI short; its figure and its loss check."""
    r = subprocess.run([a.gpudoctor, "--env", a.venv, "--json", "bench", "--framework", "jax", "--quick", "--cpu-only",
                        "--no-history", "--framework-image", "64", "--framework-batch", "4"],
                       capture_output=True, text=True, timeout=600)
    try:
        report = json.loads(r.stdout)
    except ValueError:
        fail(f"bench: not JSON (exit {r.returncode}): {r.stdout[:400]} {r.stderr[:400]}")
    key = "jax.resnet18_fp32.cpu"
    ms = [m for m in report["measurements"] if m["key"] == key]
    if len(ms) != 1:
        fail(f"bench: expected one {key}: {json.dumps(report['measurements'])[:800]}")
    m = ms[0]
    log(f"bench {key}: {m['status']} {m.get('value')} images/s ({m['iterations']} steps, spread "
        f"{m['spread_pct']:.1f}%); {m['check']}")
    if m["status"] != "ok" or not m["check_passed"] or not report["results"].get(key + ".images_per_s", 0) > 0:
        fail(f"bench: the CPU step should pass: {m}")
    if a.venv not in m["library"] or "jax 0.4.38" not in m["library"]:
        fail(f"bench: the environment and version are missing: {m['library']}")
    claims = [c for c in report["claims"] if c["what"].startswith("ResNet-18 training, jax: GPU/CPU")]
    if len(claims) != 1 or claims[0].get("ratio") is not None:
        fail(f"bench: with --cpu-only the GPU/CPU claim has no ratio: {claims}")
    if r.returncode != 0:
        fail(f"bench: exit status {r.returncode}, expected 0")


def bench_numpy_openblas(a):
    """bench's CPU SGEMM through the OpenBLAS numpy's wheel bundles (jax pulls numpy in): an ILP64
    build with scipy_..._64_ names, called with 64-bit dimensions and checked. The CPU baseline
    falls back on it where the system has no OpenBLAS (the GPU machine has none)."""
    import glob
    libs = sorted(glob.glob(os.path.join(a.venv, "lib", "python3*", "site-packages", "numpy.libs", "*openblas*.so*")))
    if not libs:
        fail("numpy's wheel bundles no OpenBLAS under numpy.libs: the fallback has nothing to find")
    r = subprocess.run([a.gpudoctor, "--json", "bench", "--quick", "--cpu-only", "--no-history", "--sgemm-size", "256",
                        "--conv-batch", "1", "--openblas", libs[0]], capture_output=True, text=True, timeout=300)
    try:
        report = json.loads(r.stdout)
    except ValueError:
        fail(f"bench --openblas: not JSON (exit {r.returncode}): {r.stdout[:400]} {r.stderr[:400]}")
    m = next(m for m in report["measurements"] if m["key"] == "cpu.sgemm_fp32")
    log(f"bench cpu.sgemm_fp32 through numpy's OpenBLAS: {m['status']} {m.get('value')} GFLOP/s; {m['library']}")
    if m["status"] != "ok" or not m["check_passed"]:
        fail(f"bench --openblas {libs[0]}: {m}")
    if libs[0] not in m["library"] or ", ILP64" not in m["library"]:
        fail(f"bench --openblas: numpy's copy is ILP64 and the library line should say so: {m['library']}")


if __name__ == "__main__":
    main()
