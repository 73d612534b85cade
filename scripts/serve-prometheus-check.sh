#!/usr/bin/env bash
# `gpudoctor serve` scraped by a real Prometheus (Debian's `prometheus`), against the fake
# NVML's recorded series: Prometheus is started on loopback with a temporary config and data
# folder on a free port, scrapes serve every second, and its query API must return
# DCGM_FI_DEV_GPU_UTIL for both fake GPUs with dcgm-exporter's labels; `promtool check metrics`
# must pass on /metrics; /healthz and /report.json must answer. Skips, saying so, without
# prometheus/promtool (scripts/setup-debian.sh test installs them).
# Usage: scripts/serve-prometheus-check.sh [BUILD_DIR]   (default build/dev)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/dev}"
for tool in prometheus promtool curl jq python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "serve-prometheus: SKIPPED: $tool is not installed (scripts/setup-debian.sh test)" >&2
    exit 77
  fi
done
gpudoctor="$build/gpudoctor"
fakes="$build/tests/fakes/lib"
if [ ! -x "$gpudoctor" ] || [ ! -e "$fakes/libnvidia-ml.so.1" ]; then
  echo "serve-prometheus: $gpudoctor or the fake NVML in $fakes is missing: build the dev preset first" >&2
  exit 1
fi
work="$(mktemp -d)"
serve_pid="" prom_pid=""
cleanup() {
  [ -n "$prom_pid" ] && kill "$prom_pid" 2>/dev/null && wait "$prom_pid" 2>/dev/null
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "serve-prometheus: FAILED: $*" >&2
  echo "--- serve's output" >&2
  cat "$work/serve.out" "$work/serve.err" >&2 || true
  echo "--- prometheus' log (tail)" >&2
  tail -n 20 "$work/prometheus.log" >&2 || true
  exit 1
}

# serve on a port the kernel picks; it prints the address it got.
GPUDOCTOR_FAKE_DRIVER="$PWD/tests/fakes/scenarios/watch_series.ini" LD_LIBRARY_PATH="$fakes" \
  "$gpudoctor" serve --listen 127.0.0.1:0 --interval 0.5 --report-interval 60 >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
url=""
for _ in $(seq 100); do
  url="$(sed -n 's|.*listening on \(http://[^ ]*\)/metrics|\1|p' "$work/serve.out")"
  [ -n "$url" ] && break
  kill -0 "$serve_pid" 2>/dev/null || fail "serve exited"
  sleep 0.1
done
[ -n "$url" ] || fail "serve did not say where it listens"
target="${url#http://}"

# Prometheus' own port: a free one, found by binding to port 0 and letting go.
prom_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
cat >"$work/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: gpudoctor
    static_configs:
      - targets: ["$target"]
YAML
promtool check config "$work/prometheus.yml" >/dev/null || fail "promtool rejects the scrape config"
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/data" \
  --web.listen-address="127.0.0.1:$prom_port" >"$work/prometheus.log" 2>&1 &
prom_pid=$!

# promtool's linter on what serve exposes.
curl -fsS --max-time 5 "$url/metrics" >"$work/metrics.txt" || fail "GET /metrics"
# Its only complaints may be about dcgm-exporter's own names, kept on purpose so that its
# dashboards work: camelCase labels (UUID, modelName, Hostname) on DCGM_* series and the
# counter DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS without "_total". A parse error, or any
# complaint about a gpudoctor_* series, fails.
promtool check metrics <"$work/metrics.txt" >"$work/lint.txt" 2>&1 || true
grep -v -E -e "^DCGM_FI_DEV_[A-Z_]+ label names should be written in 'snake_case' not 'camelCase'$" \
  -e '^DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS counter metrics should have "_total" suffix$' \
  "$work/lint.txt" >"$work/lint-left.txt" || true
if [ -s "$work/lint-left.txt" ]; then
  cat "$work/lint-left.txt" >&2
  fail "promtool check metrics"
fi
grep -q '^DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-4a2b8c1e-6f0d-4e6a-9a51-3c7d2e9b1f00",device="nvidia0",modelName="NVIDIA H100 80GB HBM3",Hostname="' \
  "$work/metrics.txt" || fail "DCGM_FI_DEV_GPU_UTIL with dcgm-exporter's labels is missing"
curl -fsS --max-time 5 "$url/healthz" | grep -q '^ok' || fail "/healthz is not ok"

# The query API: both GPUs' utilisation, scraped by Prometheus itself.
series=0
for _ in $(seq 60); do
  if answer="$(curl -fsS --max-time 2 "http://127.0.0.1:$prom_port/api/v1/query?query=DCGM_FI_DEV_GPU_UTIL" 2>/dev/null)"; then
    series="$(jq '.data.result | length' <<<"$answer")"
    [ "$series" = 2 ] && break
  fi
  kill -0 "$prom_pid" 2>/dev/null || fail "prometheus exited"
  sleep 0.5
done
[ "$series" = 2 ] || fail "Prometheus returned $series series of DCGM_FI_DEV_GPU_UTIL, expected 2"
jq -e '[.data.result[].metric.UUID] | sort == ["GPU-4a2b8c1e-6f0d-4e6a-9a51-3c7d2e9b1f00","GPU-9e1f3d5a-2b7c-4c8d-8e0f-1a2b3c4d5e6f"]' \
  <<<"$answer" >/dev/null || fail "the series do not carry the fake GPUs' UUIDs: $answer"
up="$(curl -fsS --max-time 2 "http://127.0.0.1:$prom_port/api/v1/query?query=up" | jq -r '.data.result[0].value[1]')"
[ "$up" = 1 ] || fail "Prometheus says the target is not up ($up)"

# The doctor's report, made on the report thread's schedule.
for _ in $(seq 100); do
  code="$(curl -s -o "$work/report.json" -w '%{http_code}' --max-time 5 "$url/report.json")"
  [ "$code" = 200 ] && break
  sleep 0.2
done
[ "$code" = 200 ] || fail "/report.json answered $code"
jq -e '.schema_version' "$work/report.json" >/dev/null || fail "/report.json is not the doctor's report"
# The deployment files: the scrape config is valid, and every metric the Grafana dashboard
# queries is one serve exposes (the DCGM_* ones with dcgm-exporter's labels).
promtool check config deploy/prometheus-scrape.yml >/dev/null || fail "deploy/prometheus-scrape.yml is invalid"
for metric in $(jq -r '.panels[].targets[].expr' deploy/grafana-dashboard.json | grep -oE '(DCGM_FI_[A-Z_]+|gpudoctor_[a-z_]+)' | sort -u); do
  grep -q "^$metric{" "$work/metrics.txt" || fail "the dashboard queries $metric, which /metrics lacks"
done

# Clients that connect and never send a request each hold an HTTP worker until the keep-alive
# timeout (5 s): 100 of them, more than a fixed pool of 32 workers, and a scrape still answers
# at once, because the pool starts a worker when none is idle (core/worker_pool.hpp).
idle=()
for _ in $(seq 100); do
  exec {fd}<>"/dev/tcp/${target%:*}/${target##*:}"
  idle+=("$fd")
done
took="$(curl -fsS -o /dev/null -w '%{time_total}' --max-time 5 "$url/metrics")" || fail "/metrics with 100 idle clients"
for fd in "${idle[@]}"; do exec {fd}>&-; done
awk -v t="$took" 'BEGIN { exit !(t < 1.0) }' || fail "/metrics took ${took}s with 100 idle clients connected"
echo "serve-prometheus: /metrics answered in ${took}s with 100 idle clients connected"

# Clients that hang up right after asking, 50 times over: serve keeps answering.
for _ in $(seq 50); do
  exec {abrupt}<>"/dev/tcp/${target%:*}/${target##*:}"
  printf 'GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n' >&"$abrupt"
  exec {abrupt}>&-
done
curl -fsS --max-time 5 "$url/healthz" | grep -q '^ok' || fail "serve stopped answering after clients hung up"

# A GPU that never answers (every utilisation read hangs): the scrape still answers at once,
# says the query is down, and the agent is restarted for each sample.
kill "$serve_pid"
wait "$serve_pid" 2>/dev/null || true
serve_pid=""
printf '[nvml]\ndriver_version = 550.54.15\n[device]\nname = NVIDIA A100\nuuid = GPU-h\nmemory_total_bytes = 1000\ngpu_util = 40\n[calls]\nnvmlDeviceGetUtilizationRates = hang\n' >"$work/hang.ini"
GPUDOCTOR_FAKE_DRIVER="$work/hang.ini" LD_LIBRARY_PATH="$fakes" "$gpudoctor" serve --listen 127.0.0.1:0 \
  --interval 0.2 --deadline-ms 400 --report-interval 600 >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
url=""
for _ in $(seq 100); do
  url="$(sed -n 's|.*listening on \(http://[^ ]*\)/metrics|\1|p' "$work/serve.out")"
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || fail "serve (hanging GPU) did not say where it listens"
down=0 starts=0
for _ in $(seq 40); do
  took="$(curl -fsS -o "$work/hang-metrics.txt" -w '%{time_total}' --max-time 5 "$url/metrics")" || fail "/metrics while the GPU hangs"
  awk -v t="$took" 'BEGIN { exit !(t < 1.0) }' || fail "/metrics took ${took}s while the GPU hangs"
  grep -q '^gpudoctor_gpu_query_up{[^}]*} 0$' "$work/hang-metrics.txt" && down=1
  starts="$(sed -n 's/^gpudoctor_agent_starts_total{[^}]*} //p' "$work/hang-metrics.txt")"
  [ "$down" = 1 ] && [ "${starts:-0}" -ge 2 ] && break
  sleep 0.2
done
[ "$down" = 1 ] || fail "gpudoctor_gpu_query_up never went to 0 while the GPU hung"
[ "${starts:-0}" -ge 2 ] || fail "the GPU agent was not restarted after the hang (starts: $starts)"
grep -q 'gpudoctor_watch_diagnoses{[^}]*id="watch-gpu-not-answering"' "$work/hang-metrics.txt" ||
  fail "no watch-gpu-not-answering diagnosis in /metrics while the GPU hung"

echo "serve-prometheus: Prometheus scraped serve: 2 GPU series of DCGM_FI_DEV_GPU_UTIL; promtool check metrics:" \
  "no complaint beyond dcgm-exporter's own names ($(wc -l <"$work/lint.txt") lines of those); the dashboard's" \
  "metrics are all exposed; idle clients and a hanging GPU do not slow a scrape"
