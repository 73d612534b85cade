"""bench's GPU figures against PyTorch on the same sizes, in the same run (scripts/device-check.sh).

Runs `gpudoctor bench --json`, then torch.matmul in BF16 on the same N and a device-to-device
copy of the same bytes with the same method (warm-up, CUDA events, median), and prints both
with their ratio. Exit status 1 when the BF16 GEMM or the copy is not within 5 % of PyTorch.
Usage: python3 perf/bench_vs_torch_gpu.py path/to/gpudoctor [default|quick|full] [--from BENCH.json]
(--from: a default-size `bench --json` report already made in this run, instead of a second bench)
"""
import json
import re
import statistics
import subprocess
import sys

argv = sys.argv[1:]
report = None
if "--from" in argv:
    i = argv.index("--from")
    report = argv[i + 1]
    del argv[i:i + 2]
binary = argv[0]
mode = argv[1] if len(argv) > 1 else "default"
if report is not None:
    with open(report, encoding="utf-8") as f:
        doc = json.load(f)
else:
    args = [binary, "--no-color", "--json", "bench", "--no-history"] + ([f"--{mode}"] if mode != "default" else [])
    proc = subprocess.run(args, capture_output=True, text=True, timeout=600)
    doc = json.loads(proc.stdout)
m = {x["key"]: x for x in doc["measurements"]}
import torch  # noqa: E402  (after the bench, so torch's CUDA context does not share its time)

# The sizes bench used, from its own words ("cublasGemmEx 8192^3, ...", "copy b = a over 1024 MiB
# per array ..."); bench_sizes()' defaults (quick 4096 / 256 MiB, default 8192 / 1 GiB, full
# 16384 / 4 GiB) where a figure is missing.
n = {"quick": 4096, "default": 8192, "full": 16384}[mode]
copy_bytes = {"quick": 256 << 20, "default": 1 << 30, "full": 4 << 30}[mode]
sized = re.search(r" (\d+)\^3,", m.get("gpu0.gemm_bf16", {}).get("detail") or "")
if sized:
    n = int(sized.group(1))
sized = re.search(r" over (\d+) MiB per array", m.get("gpu0.copy", {}).get("detail") or "")
if sized:
    copy_bytes = int(sized.group(1)) << 20


def timed(fn, warmup=2, min_iter=5, min_s=0.3, max_s=3.0):
    for _ in range(warmup):
        fn()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    while True:
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) / 1000)
        if sum(times) >= max_s or (len(times) >= min_iter and sum(times) >= min_s):
            break
    return statistics.median(times)


# bench's inputs are uniform in [-1, 1) (gpu/verify_math.cpp's test_values); torch's are drawn the
# same way. The distribution matters on a card held at its power limit: on an H200 the GEMMs ran at
# the software power cap (clocks down to 1440 MHz), and a product of [0, 1) values toggles fewer
# bits than one of signed values (NVIDIA's own figures differ between random data and zeros).
a = torch.rand(n, n, device="cuda", dtype=torch.float32).mul_(2).sub_(1).to(torch.bfloat16)
b = torch.rand(n, n, device="cuda", dtype=torch.float32).mul_(2).sub_(1).to(torch.bfloat16)
t = timed(lambda: torch.matmul(a, b))
torch_bf16 = 2 * n**3 / t / 1e12
src = torch.empty(copy_bytes // 4, device="cuda", dtype=torch.float32).fill_(1)
dst = torch.empty_like(src)
t = timed(lambda: dst.copy_(src))
torch_copy = 2 * copy_bytes / t / 1e9  # read + write, as bench counts its copy kernel

ok = True
print(f"card: {torch.cuda.get_device_name(0)}, torch {torch.__version__}, CUDA {torch.version.cuda}")
# BF16 twice: cublasGemmEx and cuBLASLt (torch.matmul reaches one or the other, by its preferred
# BLAS backend); the closer one counts. All three write BF16 results with FP32 accumulation.
within = {}
for key, group, unit, theirs, what in [
        ("gpu0.gemm_bf16", "bf16", "TFLOP/s", torch_bf16, f"torch.matmul bf16 {n}^3"),
        ("gpu0.gemmlt_bf16", "bf16", "TFLOP/s", torch_bf16, f"torch.matmul bf16 {n}^3"),
        ("gpu0.copy", "copy", "GB/s", torch_copy, f"torch copy_ {copy_bytes >> 20} MiB")]:
    ours = m.get(key, {}).get("value")
    if ours is None:
        print(f"{key}: not measured ({m.get(key, {}).get('status')}: {m.get(key, {}).get('detail')})")
        within.setdefault(group, False)
        continue
    ratio = ours / theirs
    print(f"{key:16} gpudoctor {ours:10.1f} {unit}   {what}: {theirs:10.1f} {unit}   ratio {ratio:.3f}")
    within[group] = within.get(group, False) or abs(ratio - 1) <= 0.05
ok = all(within.values())
for key, x in m.items():
    if x["status"] == "ok" and key.startswith("gpu"):
        frac = x.get("fraction_of_ceiling")
        wall = f", {x['wall_seconds']:.1f} s in all" if x.get("wall_seconds") else ""
        print(f"  {key}.{x['unit']} = {x['value']:.1f}" + (f" ({frac * 100:.0f}% of the datasheet{wall})" if frac else
                                                           f" ({wall[2:]})" if wall else ""))
for c in doc.get("claims", []):
    if c.get("ratio"):
        print(f"  claim: {c['what']}: {c['ratio']:.1f}x")
print("within 5% of PyTorch: " + ("yes" if ok else "NO"))
sys.exit(0 if ok else 1)
