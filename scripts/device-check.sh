#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: builds gpudoctor, runs the GPU-labelled tests, `verify`
# (text and JSON), `verify --framework pytorch` and `jax` once the build has them, `bench` (and
# its BF16 GEMM and copy against PyTorch, perf/bench_vs_torch_gpu.py; cuBLASLt and FP8 alone; with
# several GPUs the topology against nvidia-smi topo -m), `bench --framework pytorch`
# and `jax` (the training step, quick and default), and prints
# a short table last. Every step's output is kept under build/device-check/ (override with
# DEVICE_CHECK_OUT). Exit status: 0 when every step passed, 1 otherwise.
set -u
cd "$(dirname "$0")/.." || exit 1
out=${DEVICE_CHECK_OUT:-build/device-check}
mkdir -p "$out"
jobs=$(nproc 2>/dev/null || echo 2)
rows=()
failed=0

# step NAME COMMAND...: runs it with its output in $out/NAME.log and adds a row to the table.
step() {
  local name=$1
  shift
  local start status
  start=$(date +%s)
  if "$@" >"$out/$name.log" 2>&1; then
    status=ok
  else
    status="FAILED ($?)"
    failed=1
  fi
  rows+=("$name|$status|$(($(date +%s) - start)) s|$out/$name.log")
}

step build sh -c "cmake --preset dev >/dev/null && cmake --build --preset dev -j$jobs --target gpudoctor gpu_tests"
step gpu-tests ctest --preset dev -L gpu --output-on-failure
step verify build/dev/gpudoctor verify
step verify-json sh -c "build/dev/gpudoctor --json verify >'$out/verify.json'"
for framework in pytorch jax; do
  if build/dev/gpudoctor verify --help 2>/dev/null | grep -q -- '--framework'; then
    step "verify-$framework" build/dev/gpudoctor verify --framework "$framework"
  else
    rows+=("verify-$framework|not built yet|-|verify --framework is not in this build")
  fi
done

step bench build/dev/gpudoctor bench --no-history
step bench-json sh -c "build/dev/gpudoctor --json bench --no-history >'$out/bench.json'"
# cuBLASLt on its own: FP16/BF16 tensor-core GEMM and FP8 E4M3 (on a card below CC 8.9 the FP8
# figure must be "skipped" with "not supported on CC x.y"), each against the datasheet peak.
step bench-cublaslt sh -c "build/dev/gpudoctor --json bench --no-history --gpu-only --only gemmlt,gemm_fp8 >'$out/bench-cublaslt.json'"
# With two GPUs or more: NVML's topology matrix (peer copies against their links, and NCCL), held
# against nvidia-smi topo -m cell by cell.
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ "$gpus" -ge 2 ]; then
  step bench-topology sh -c "build/dev/gpudoctor --json bench --no-history --gpu-only --only peer >'$out/bench-topology.json'"
  step topo-vs-nvidia-smi sh -c "nvidia-smi topo -m >'$out/nvidia-smi-topo.txt' && python3 perf/bench_topology_vs_nvidia_smi.py '$out/bench-topology.json' '$out/nvidia-smi-topo.txt'"
else
  rows+=("bench-topology|not run|-|$gpus GPU(s): the topology needs two")
fi
# BF16 GEMM and device copy against torch.matmul and torch's copy_, same sizes, same run.
if python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
  step bench-vs-torch python3 perf/bench_vs_torch_gpu.py build/dev/gpudoctor
else
  rows+=("bench-vs-torch|not run|-|no PyTorch with CUDA in python3")
fi

# The training step through each framework (ResNet-50: CPU, GPU FP32, mixed precision; data-parallel
# with several GPUs), text and JSON; quick first (ResNet-18), which is cheap.
for framework in pytorch jax; do
  step "bench-$framework-quick" build/dev/gpudoctor bench --no-history --quick --framework "$framework"
  step "bench-$framework" sh -c "build/dev/gpudoctor --json bench --no-history --framework $framework >'$out/bench-$framework.json'"
done

card=$( (nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "nvidia-smi not found") | paste -sd ';' -)
echo
echo "device check $(date -u '+%Y-%m-%d %H:%M UTC') on: $card"
printf '%-22s %-14s %-8s %s\n' step result time log
for row in "${rows[@]}"; do
  IFS='|' read -r name status seconds log <<<"$row"
  printf '%-22s %-14s %-8s %s\n' "$name" "$status" "$seconds" "$log"
done
exit "$failed"
