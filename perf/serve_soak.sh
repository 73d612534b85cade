#!/bin/bash
# serve's memory over hours (issue 17: "its memory stays flat over hours"): runs `gpudoctor serve`
# against the fake NVML (tests/fakes, through the real loading path), scrapes /metrics every
# SCRAPE seconds, and once a minute prints serve's and the GPU agent's RSS with the counters.
# Usage: perf/serve_soak.sh [BUILD_DIR] [MINUTES] [SCRAPE_SECONDS]   (defaults: build/dev 120 1)
# Prints one line per minute: minute, serve RSS kB, agent RSS kB, samples, scrapes.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/dev}"
minutes="${2:-120}"
scrape="${3:-1}"
gpudoctor="$build/gpudoctor"
fakes="$build/tests/fakes/lib"
if [ ! -x "$gpudoctor" ] || [ ! -e "$fakes/libnvidia-ml.so.1" ]; then
  echo "serve-soak: $gpudoctor or $fakes/libnvidia-ml.so.1 missing: build the dev preset first" >&2
  exit 1
fi
work="$(mktemp -d)"
serve_pid=""
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
GPUDOCTOR_FAKE_DRIVER="$PWD/tests/fakes/scenarios/watch_series.ini" LD_LIBRARY_PATH="$fakes" \
  "$gpudoctor" serve --listen 127.0.0.1:0 --interval 0.05 --report-interval 10 >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
url=""
for _ in $(seq 100); do
  url="$(sed -n 's|.*listening on \(http://[^ ]*/metrics\).*|\1|p' "$work/serve.out")"
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "serve-soak: serve did not say where it listens" >&2; cat "$work/serve.err" >&2; exit 1; }
rss() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo "-"; }
agent_pid() { pgrep -P "$serve_pid" | head -n 1; }
metric() { grep -E "^$1(\{| )" "$work/last" | head -n 1 | awk '{print $NF}'; }
echo "# $(date -u +%FT%TZ) serve pid $serve_pid, $url, sampling every 50 ms, a scrape every ${scrape} s"
echo "minute serve_rss_kB agent_rss_kB samples_total scrapes"
scrapes=0
start=$(date +%s)
for m in $(seq 1 "$minutes"); do
  while [ $(( $(date +%s) - start )) -lt $(( m * 60 )) ]; do
    curl -s --max-time 5 "$url" >"$work/last" && scrapes=$((scrapes + 1))
    sleep "$scrape"
  done
  kill -0 "$serve_pid" 2>/dev/null || { echo "serve-soak: serve died" >&2; cat "$work/serve.err" >&2; exit 1; }
  a="$(agent_pid || true)"
  echo "$m $(rss "$serve_pid") $([ -n "$a" ] && rss "$a" || echo -) $(metric gpudoctor_samples_total || echo -) $scrapes"
done
