#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: the doctor on a real driver, the GPU-labelled tests, `verify`
# (text and JSON), `verify --framework pytorch` and `jax`, `bench` (its BF16 GEMM and copy against
# PyTorch, perf/bench_vs_torch_gpu.py; cuBLASLt and FP8 alone; with several GPUs the topology
# against nvidia-smi topo -m) with `watch` sampling beside it, `bench --framework pytorch` and
# `jax` (the training step, quick and default), the HTML report of all of it, and a short table
# last. Every step's output is kept under build/device-check/ (override with DEVICE_CHECK_OUT).
#
#   scripts/device-check.sh               builds the dev preset here, then checks
#   scripts/device-check.sh --prepare     builds the device preset (self-contained: glibc only)
#                                          for a GPU machine without the build packages
#   scripts/device-check.sh --prebuilt    checks with what --prepare built (carried there)
#
# The lent GPU machine has CMake and nvcc but none of Debian's -dev packages and no network, so
# there the check runs --prebuilt: `run` with carry build/device/gpudoctor and
# build/device/tests/integration/gpu/gpu_tests, command `scripts/device-check.sh --prebuilt`.
# DEVICE_CHECK_BUDGET_S (seconds) stops starting steps past that time and caps each step's
# timeout, so the table is printed inside the caller's limit; where $OUT is a folder, the table,
# the logs (one archive) and the HTML report are copied there. DEVICE_CHECK_BENCH_ARGS is added to
# the bench runs of our own figures (small sizes for a dry run against the fake libraries, which
# compute on the CPU: docs/verify.md). DEVICE_CHECK_FRAMEWORKS (default "pytorch jax") names the
# frameworks verified and benched; DEVICE_CHECK_PREBUILT_DIR (default build/device) the tree that
# --prebuilt takes gpudoctor and gpu_tests from (tests/fakes/device_check_fake_test.cpp runs the
# whole script against the fake libraries with the dev tree's). Exit status: 0 when every step
# passed, 1 otherwise, 2 for a bad argument.
set -u
cd "$(dirname "$0")/.." || exit 1
mode=build
case "${1:-}" in
  '') ;;
  --prepare | --prebuilt) mode=${1#--} ;;
  *)
    echo "usage: $0 [--prepare | --prebuilt]" >&2
    exit 2
    ;;
esac
jobs=$(nproc 2>/dev/null || echo 2)
prebuilt=${DEVICE_CHECK_PREBUILT_DIR:-build/device}
device_bin=$prebuilt/gpudoctor
device_tests=$prebuilt/tests/integration/gpu/gpu_tests
frameworks=${DEVICE_CHECK_FRAMEWORKS-pytorch jax}

if [ "$mode" = prepare ]; then
  cmake --preset device >/dev/null && cmake --build --preset device -j"$jobs" || exit 1
  # Anything beyond glibc would be missing on the GPU machine.
  for f in "$device_bin" "$device_tests"; do
    extra=$(ldd "$f" | grep -Ev 'linux-vdso|ld-linux|/libc\.so|/libm\.so|/libdl\.so|/libpthread\.so|/librt\.so')
    if [ -n "$extra" ]; then
      echo "$f needs more than glibc:" >&2
      echo "$extra" >&2
      exit 1
    fi
  done
  du -b "$device_bin" "$device_tests"
  echo "carry: [\"$device_bin\", \"$device_tests\"]; command: scripts/device-check.sh --prebuilt"
  exit 0
fi

out=${DEVICE_CHECK_OUT:-build/device-check}
mkdir -p "$out"
budget=${DEVICE_CHECK_BUDGET_S:-0}
bench_args=${DEVICE_CHECK_BENCH_ARGS:-}
started=$(date +%s)
rows=()
failed=0

# The card, asked once and under a timeout: the table is written after every step, and a wedged
# driver can hang nvidia-smi.
card=$( (timeout 20 nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null ||
  echo "nvidia-smi not found or not answering") | paste -sd ';' -)

# The table so far, printed and (where $OUT is a folder) copied there with the logs after every
# step: a run cut off at the caller's limit still returns what it did.
table() {
  echo
  echo "device check $(date -u '+%Y-%m-%d %H:%M UTC') on: $card ($(($(date +%s) - started)) s)"
  printf '%-22s %-14s %-8s %s\n' step result time log
  for row in "${rows[@]}"; do
    IFS='|' read -r name status seconds log <<<"$row"
    printf '%-22s %-14s %-8s %s\n' "$name" "$status" "$seconds" "$log"
  done
}
save() {
  table >"$out/table.txt"
  if [ -n "${OUT:-}" ] && [ -d "${OUT:-}" ]; then
    cp "$out/table.txt" "$OUT/device-check-table.txt"
    [ -f "$out/report.html" ] && cp "$out/report.html" "$OUT/device-check-report.html"
    tar -czf "$OUT/device-check-logs.tar.gz" -C "$(dirname "$out")" "$(basename "$out")" 2>/dev/null
  fi
  return 0
}

# step NAME TIMEOUT_S COMMAND...: runs it with its output in $out/NAME.log, under a timeout (cut
# to what the budget leaves), and adds a row to the table. Each step is a session of its own, and
# whatever of it is left when it ends is killed: a timed-out step must not keep the GPU busy under
# the next one. A test binary's skipped tests are counted in its result ("ok, 3 skipped"); the
# doctor's exit status 1 means it has findings (its report says which), not that it failed.
step() {
  local name=$1 limit=$2
  shift 2
  local start status rc=0 pid
  start=$(date +%s)
  if [ "$budget" -gt 0 ]; then
    local left=$((budget - (start - started)))
    if [ "$left" -lt 15 ]; then
      rows+=("$name|not run|-|the time budget (${budget} s) is spent")
      failed=1
      save
      return 1
    fi
    [ "$left" -lt "$limit" ] && limit=$left
  fi
  if command -v setsid >/dev/null; then
    setsid timeout -k 10 "$limit" "$@" >"$out/$name.log" 2>&1 &
  else
    timeout -k 10 "$limit" "$@" >"$out/$name.log" 2>&1 &
  fi
  pid=$!
  wait "$pid" || rc=$?
  command -v pkill >/dev/null && pkill -KILL -s "$pid" 2>/dev/null
  local skipped
  skipped=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) tests\{0,1\}, listed below:.*/\1/p' "$out/$name.log")
  if [ "$rc" -eq 0 ] && [ -n "$skipped" ]; then
    status="ok, $skipped skipped"
  elif [ "$rc" -eq 0 ]; then
    status=ok
  elif [ "$rc" -eq 1 ] && [ "${name%%-*}" = doctor ]; then
    status="findings (1)"
  elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    status="TIMEOUT (${limit} s)"
    failed=1
  else
    status="FAILED ($rc)"
    failed=1
  fi
  rows+=("$name|$status|$(($(date +%s) - start)) s|$out/$name.log")
  save
  return "$rc"
}

if [ "$mode" = prebuilt ]; then
  if [ ! -x "$device_bin" ] || [ ! -x "$device_tests" ]; then
    echo "--prebuilt: $device_bin and $device_tests are missing (scripts/device-check.sh --prepare, then carry them)" >&2
    exit 1
  fi
  bin=$device_bin
  rows+=("build|prebuilt|-|$($bin --version | sed -n 's/^commit: *//p'), device preset")
else
  bin=build/dev/gpudoctor
  step build 1200 sh -c "cmake --preset dev >/dev/null && cmake --build --preset dev -j$jobs --target gpudoctor gpu_tests"
fi
case $bin in
  /*) ;;
  *) bin=$PWD/$bin ;;
esac

# What the machine is; only nvidia-smi and gpudoctor must answer.
step machine 60 sh -c "nvidia-smi && $bin --version && { python3 -c 'import torch; print(\"torch\", torch.__version__, torch.version.cuda, torch.cuda.is_available())' || true; } && { python3 -c 'import jax; print(\"jax\", jax.__version__, jax.devices())' || true; }"
step doctor 60 "$bin" doctor
step doctor-json 60 sh -c "'$bin' --json doctor >'$out/doctor.json'"
step verify-json 180 sh -c "'$bin' --json verify >'$out/verify.json'"

# The whole bench with watch sampling beside it, so that the report shows the card under load.
"$bin" watch --loop 0.5 --count 600 --jsonl "$out/watch.jsonl" >"$out/watch.log" 2>&1 &
watcher=$!
step bench-json 240 sh -c "'$bin' --json bench --no-history $bench_args >'$out/bench.json'"
kill "$watcher" 2>/dev/null
wait "$watcher" 2>/dev/null
# BF16 GEMM and device copy against torch.matmul and torch's copy_, same sizes, same run.
if grep -q 'torch .* True$' "$out/machine.log" 2>/dev/null; then
  step bench-vs-torch 120 python3 perf/bench_vs_torch_gpu.py "$bin" --from "$out/bench.json"
else
  rows+=("bench-vs-torch|not run|-|no PyTorch with CUDA in python3 (machine.log)")
fi
# The report now, so that the budget leaves it. Its exit status is the doctor's (its own step
# above): written is what counts here.
step report 60 sh -c "'$bin' report --html '$out/report.html' --from-json '$out/doctor.json' --verify '$out/verify.json' \
  --bench '$out/bench.json' --watch '$out/watch.jsonl'; [ \$? -le 1 ] && [ -s '$out/report.html' ]"
# cuBLASLt on its own: FP16/BF16 tensor-core GEMM and FP8 E4M3 (on a card below CC 8.9 the FP8
# figure must be "skipped" with "not supported on CC x.y"), each against the datasheet peak.
step bench-cublaslt 120 sh -c "'$bin' --json bench --no-history --gpu-only --only gemmlt,gemm_fp8 $bench_args >'$out/bench-cublaslt.json'"
# With two GPUs or more: NVML's topology matrix (peer copies against their links, and NCCL), held
# against nvidia-smi topo -m cell by cell.
gpus=$(timeout 20 nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ "$gpus" -ge 2 ]; then
  step bench-topology 120 sh -c "'$bin' --json bench --no-history --gpu-only --only peer >'$out/bench-topology.json'"
  step topo-vs-nvidia-smi 30 sh -c "nvidia-smi topo -m >'$out/nvidia-smi-topo.txt' && python3 perf/bench_topology_vs_nvidia_smi.py '$out/bench-topology.json' '$out/nvidia-smi-topo.txt'"
else
  rows+=("bench-topology|not run|-|$gpus GPU(s): the topology needs two")
fi
for framework in $frameworks; do
  step "verify-$framework" 180 "$bin" verify --framework "$framework"
done
# The GPU-labelled tests: verify and bench --quick again, with their assertions.
if [ "$mode" = prebuilt ]; then
  step gpu-tests 200 env GPUDOCTOR_TEST_BINARY="$bin" "$device_tests"
else
  step gpu-tests 200 ctest --preset dev -L gpu --output-on-failure
fi
# `bench --quick` alone: the issue wants it under 30 s on one GPU, and the step's time is its wall
# time; each figure's own (wall_seconds) says what that time is made of.
quick_flag=--quick
case " $bench_args " in *" --quick "*) quick_flag= ;; esac
step bench-quick 90 sh -c "'$bin' --json bench --no-history $quick_flag $bench_args >'$out/bench-quick.json'"
# The training step through each framework (ResNet-18 quick; ResNet-50: CPU, GPU FP32, mixed
# precision; data-parallel with several GPUs), quick first, which is cheap.
for framework in $frameworks; do
  step "bench-$framework-quick" 180 "$bin" bench --no-history --quick --framework "$framework"
done
for framework in $frameworks; do
  step "bench-$framework" 300 sh -c "'$bin' --json bench --no-history --framework $framework >'$out/bench-$framework.json'"
done

# The figures that the issues' checks name, then the table (a caller that keeps only the end of
# the output still has both).
for log in bench-vs-torch gpu-tests; do
  [ -f "$out/$log.log" ] && { echo "== $log"; tail -n 40 "$out/$log.log"; }
done
if [ -s "$out/bench-quick.json" ] && command -v python3 >/dev/null; then
  echo "== bench-quick: seconds per figure (its whole child)"
  python3 -c 'import json, sys
for m in json.load(open(sys.argv[1]))["measurements"]:
    print("%6.1f s  %s  %s" % (m.get("wall_seconds", 0), m["key"], m["status"]))' "$out/bench-quick.json" 2>&1 | tail -n 40
fi
save
# The saved table, not a second one: its clock line would differ from the copy in $OUT.
cat "$out/table.txt"
exit "$failed"
