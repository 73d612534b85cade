#!/usr/bin/env python3
"""The PTX verify carries must assemble for Maxwell to Volta (sm_50..sm_72), which CUDA 13's
ptxas no longer serves: this takes ptxas from the CUDA 12 nvidia-cuda-nvcc-cu12 wheel (cached)
and runs PtxModules.PtxasOfCuda12AssemblesEachForMaxwellToVolta with it.

  run_ptxas_cu12_test.py --cache DIR --work DIR --unit-tests PATH

Exit 0 pass, 1 fail, 77 skipped (PyPI unreachable and the wheel not cached).
"""
import argparse
import glob
import os
import subprocess
import sys
import zipfile

SKIP = 77
WHEEL = "nvidia-cuda-nvcc-cu12==12.9.86"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--unit-tests", required=True)
    a = ap.parse_args()
    os.makedirs(a.cache, exist_ok=True)
    os.makedirs(a.work, exist_ok=True)
    pattern = os.path.join(a.cache, "nvidia_cuda_nvcc_cu12-12.9.86-*.whl")
    if not glob.glob(pattern):
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                        "--retries", "1", "--timeout", "15", "-d", a.cache, WHEEL], capture_output=True)
    wheels = glob.glob(pattern)
    if not wheels:
        print(f"[ptxas-cu12] SKIPPED: PyPI unreachable and no cached {WHEEL}", flush=True)
        sys.exit(SKIP)
    ptxas = os.path.join(a.work, "ptxas")
    if not os.path.exists(ptxas):
        with zipfile.ZipFile(wheels[0]) as z, open(ptxas, "wb") as out:
            out.write(z.read("nvidia/cuda_nvcc/bin/ptxas"))
        os.chmod(ptxas, 0o755)
    env = dict(os.environ, GPUDOCTOR_CU12_PTXAS=ptxas)
    r = subprocess.run([a.unit_tests, "--gtest_filter=PtxModules.PtxasOfCuda12AssemblesEachForMaxwellToVolta"],
                       env=env, capture_output=True, text=True)
    print(r.stdout[-2000:], flush=True)
    if r.returncode != 0 or "[  PASSED  ] 1 test" not in r.stdout or "SKIPPED" in r.stdout:
        print("[ptxas-cu12] FAILED", flush=True)
        sys.exit(1)
    print("[ptxas-cu12] ok: sm_50..sm_72 assembled with CUDA 12.9's ptxas", flush=True)


if __name__ == "__main__":
    main()
