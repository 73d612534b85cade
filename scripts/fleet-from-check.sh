#!/usr/bin/env bash
# `gpudoctor fleet --from HOSTS` against real `gpudoctor serve` processes on loopback: three serve
# the linux-torch-healthy fixture, one linux-driver-too-old (the odd node out); beside them a
# server that accepts and never answers, one that answers garbage, one that answers 9 MiB, and a
# port nobody listens on. The fleet must group the four, name the odd one, give each broken host
# its reason, and finish within its per-host deadline plus a margin. No MPI needed.
# With --verify --bench: the serves run over the fake libcuda (tests/fakes), the odd node's fake
# kernel answering wrong, so its /verify.json must fail and be named; serve2 has neither
# --allow-verify nor a bench history and must be named for both; the others give the CPU figures
# of one small `bench --quick` recorded in their history. Then a burst of requests must get the
# kept verify result, byte for byte.
# Usage: scripts/fleet-from-check.sh [BUILD-DIR] (KEEP=1 keeps its scratch folder). Exit 77
# (skipped) without python3 or without an HTTP client in the build.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/dev}"
gpudoctor="$build/gpudoctor"
if ! command -v python3 >/dev/null; then
  echo "fleet-from-check: SKIPPED: python3 is not installed" >&2
  exit 77
fi
work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  if [ -n "${KEEP:-}" ]; then echo "kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
fixtures="$PWD/tests/fixtures"
fakes="$PWD/$build/tests/fakes/lib"
healthy="$PWD/tests/fakes/scenarios/verify_healthy.ini"
{
  cat "$healthy"
  printf '[kernel]\nresult = wrong\n'
} >"$work/wrong-kernel.ini"

# One small CPU-only bench --quick, recorded in a history the serves read (1-3 s, while they
# start: a serve reads its history only when asked).
mkdir -p "$work/serve0.data" "$work/serve1.data" "$work/serve3.data"
XDG_DATA_HOME="$work/serve0.data" "$gpudoctor" bench --quick --json --cpu-only --sgemm-size=64 --conv-batch=1 \
  >"$work/bench.json" 2>"$work/bench.err" &
bench_pid=$!
mode="quick (sgemm 64, conv batch 1)"  # the mode bench names these sizes by in its history

# serve on ports the kernel picks; each prints the address it got. Their verify children load
# the fake driver named by the scenario.
start_serve() {  # NAME FIXTURE SCENARIO [SERVE-OPTION...]
  local name="$1" fixture="$2" scenario="$3"
  shift 3
  env LD_LIBRARY_PATH="$fakes" GPUDOCTOR_FAKE_DRIVER="$scenario" TMPDIR="$work" XDG_DATA_HOME="$work/$name.data" \
    "$gpudoctor" serve --root "$fixtures/$fixture/root" --env-file "$fixtures/$fixture/env" --listen 127.0.0.1:0 \
    --interval 5 --report-interval 3600 --bench-mode "$mode" "$@" >"$work/$name.out" 2>"$work/$name.err" &
  pids+=($!)
}
for i in 0 1; do start_serve "serve$i" linux-torch-healthy "$healthy" --allow-verify; done
start_serve serve2 linux-torch-healthy "$healthy"
start_serve serve3 linux-driver-too-old "$work/wrong-kernel.ini" --allow-verify

# The broken hosts, in one Python process: hang (accepts, reads, never answers), garbage, too big.
python3 - "$work" <<'PY' &
import socket, sys, threading, time
work = sys.argv[1]
def serve(name, answer):
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0)); s.listen(16)
    open(f"{work}/{name}.port", "w").write(str(s.getsockname()[1]))
    def loop():
        held = []
        while True:
            c, _ = s.accept(); held.append(c)
            try:
                c.recv(4096)
                if answer is not None:
                    c.sendall(answer); c.close()
            except OSError:
                pass
    threading.Thread(target=loop, daemon=True).start()
serve("hang", None)
junk = b"<html>\x1b[31mnot json</html>"
serve("garbage", b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(junk) + junk)
big = 9 << 20
serve("big", b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % big + b"[" * big)
open(f"{work}/python.ready", "w").write("1")
time.sleep(600)
PY
pids+=($!)
# A port nobody listens on: bound, then let go.
missing="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"

for _ in $(seq 150); do
  ready=0
  for i in 0 1 2 3; do grep -q "listening on" "$work/serve$i.out" 2>/dev/null && ready=$((ready + 1)); done
  [ "$ready" = 4 ] && [ -e "$work/python.ready" ] && break
  sleep 0.1
done
for i in 0 1 2 3; do
  if ! grep -q "listening on" "$work/serve$i.out"; then
    if grep -q "no HTTP server" "$work/serve$i.err"; then
      echo "fleet-from-check: SKIPPED: this build has no HTTP server or client (cpp-httplib)" >&2
      exit 77
    fi
    cat "$work/serve$i.err" >&2
    echo "fleet-from-check: serve$i did not say where it listens" >&2
    exit 1
  fi
done
if ! wait "$bench_pid"; then
  cat "$work/bench.err" >&2
  echo "fleet-from-check: bench --quick failed" >&2
  exit 1
fi
if [ "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["mode"])' "$work/bench.json")" != "$mode" ]; then
  echo "fleet-from-check: bench named its mode otherwise than '$mode'" >&2
  exit 1
fi
for i in 1 3; do cp -r "$work/serve0.data/gpudoctor" "$work/serve$i.data/"; done
{
  echo "# serve endpoints"
  for i in 0 1 2 3; do sed -n 's|.*listening on http://\([^ ]*\)/metrics|\1|p' "$work/serve$i.out"; done
  echo "127.0.0.1:$(cat "$work/hang.port")"
  echo "127.0.0.1:$(cat "$work/garbage.port")"
  echo "127.0.0.1:$(cat "$work/big.port")"
  echo "127.0.0.1:$missing"
} >"$work/hosts.txt"

start=$(date +%s.%N)
rc=0
timeout 60 "$gpudoctor" fleet --from "$work/hosts.txt" --host-deadline 4 --verify --bench --verify-deadline 30 --json \
  >"$work/fleet.json" 2>"$work/fleet.err" || rc=$?
took=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$start" "$(date +%s.%N)")
if [ "$rc" != 1 ]; then
  cat "$work/fleet.err" >&2
  echo "fleet-from-check: exit $rc, expected 1 (broken hosts, and errors on the odd node)" >&2
  exit 1
fi
# The text report, from the answers serve keeps (its report, the verify just run): the hang
# costs its 2 s.
timeout 60 "$gpudoctor" fleet --from "$work/hosts.txt" --host-deadline 2 --verify --bench >"$work/fleet.txt" 2>&1 ||
  true

python3 - "$work" "$took" <<'PY'
import json, sys
work, took = sys.argv[1], float(sys.argv[2])
hosts = [l.strip() for l in open(f"{work}/hosts.txt") if l.strip() and not l.startswith("#")]
doc = json.load(open(f"{work}/fleet.json"))
problems = []
if doc.get("source") != "serve":
    problems.append(f"source {doc.get('source')}, expected serve")
status = {n["node"]: (n["status"], n["error"] or "") for n in doc["nodes"]}
want = {hosts[0]: "ok", hosts[1]: "ok", hosts[2]: "ok", hosts[3]: "ok", hosts[4]: "timeout",
        hosts[5]: "failed", hosts[6]: "failed", hosts[7]: "failed"}
for h, s in want.items():
    if status.get(h, ("absent",))[0] != s:
        problems.append(f"{h}: {status.get(h)}, expected {s}")
for h, words in ((hosts[5], "not JSON"), (hosts[6], "larger than 8 MiB"), (hosts[7], "cannot connect")):
    if words not in status.get(h, ("", ""))[1]:
        problems.append(f"{h}: reason {status.get(h)} does not say '{words}'")
groups = doc["groups"]
if len(groups) != 2 or groups[0]["nodes"] != hosts[:3] or groups[1]["nodes"] != [hosts[3]] or not groups[1]["outlier"]:
    problems.append(f"groups {[(g['nodes'], g['outlier']) for g in groups]}, expected the first three, then the odd one out")
# The odd node's doctor errors arrive through serve's /report.json (its findings were left out
# until review 43B, and the fleet then showed every node as clean).
odd = {n["node"]: n for n in doc["nodes"]}.get(hosts[3], {})
if not odd.get("errors"):
    problems.append(f"{hosts[3]} (driver too old): errors {odd.get('errors')}, expected its doctor's errors")
if not any(f["severity"] == "error" and f["id"] == "driver-too-old-for-framework" and f["nodes"] == [hosts[3]]
           for f in doc["findings"]):
    problems.append(f"no driver-too-old-for-framework error for {hosts[3]} alone among the findings {doc['findings']}")
keys = [d["key"] for d in doc["differences"]]
if "driver" not in keys:
    problems.append(f"driver not among the differences {keys}")
text = open(f"{work}/fleet.txt").read()
if "from 8 serve endpoint(s), 4 reported" not in text:
    problems.append("the text report's head: " + text.splitlines()[0])
if took > 30 + 6:
    problems.append(f"took {took} s with a 30 s verify deadline")
# --verify / --bench through /verify.json and /bench.json.
nodes = {n["node"]: n for n in doc["nodes"]}
def run(h, what):
    return nodes.get(h, {}).get(what) or {}
for h in hosts[:2]:
    if run(h, "verify").get("status") != "passed":
        problems.append(f"{h}: verify {run(h, 'verify')}, expected passed")
if run(hosts[3], "verify").get("status") != "failed" or "kernel" not in run(hosts[3], "verify").get("detail", ""):
    problems.append(f"{hosts[3]} (wrong fake kernel): verify {run(hosts[3], 'verify')}, expected failed in the kernel step")
if run(hosts[2], "verify").get("status") != "not-offered" or "--allow-verify" not in run(hosts[2], "verify").get("detail", ""):
    problems.append(f"{hosts[2]} (no --allow-verify): verify {run(hosts[2], 'verify')}")
if run(hosts[2], "bench").get("status") != "no-result" or "no bench history" not in run(hosts[2], "bench").get("detail", ""):
    problems.append(f"{hosts[2]} (no history): bench {run(hosts[2], 'bench')}")
for h in (hosts[0], hosts[1], hosts[3]):
    if "cpu.sgemm_fp32.gflops" not in (run(h, "bench").get("figures") or {}):
        problems.append(f"{h}: bench {run(h, 'bench')} has no CPU SGEMM figure from its history")
for h in hosts[4:]:
    if run(h, "verify") or run(h, "bench"):
        problems.append(f"{h} sent no report, yet its verify or bench was asked")
sgemm = [b for b in doc.get("bench", []) if b["key"] == "cpu.sgemm_fp32.gflops"]
if not sgemm or sgemm[0]["nodes"] != 3:
    problems.append(f"the fleet's bench figures: {doc.get('bench')}")
reasons = {(o["node"], o["reason"].split(":")[0]) for o in doc["outliers"]}
for h, r in ((hosts[3], "verify failed"), (hosts[2], "verify not-offered"), (hosts[2], "bench no-result")):
    if (h, r) not in reasons:
        problems.append(f"{h} not named an outlier for '{r}': {sorted(reasons)}")
if "verify --quick on each node: 1 failed, 1 not-offered, 2 passed" not in text:
    problems.append("the text report's verify line is missing or wrong")
# The kept result: a burst of requests gets the same bytes, and never a 503 (no new run).
import concurrent.futures, urllib.request, urllib.error
def get(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()
with concurrent.futures.ThreadPoolExecutor(16) as pool:
    answers = list(pool.map(get, [f"http://{hosts[3]}/verify.json"] * 32))
if {a[0] for a in answers} != {200} or len({a[1] for a in answers}) != 1 or b'"kernel"' not in answers[0][1]:
    problems.append(f"a burst of /verify.json: statuses {sorted({a[0] for a in answers})}, {len({a[1] for a in answers})} distinct bodies")
if problems:
    print("fleet-from-check: FAILED\n  " + "\n  ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"fleet-from-check: ok: 4 serve endpoints grouped, {hosts[3]} the odd one out; hang, garbage, "
      f"9 MiB and missing hosts named; {hosts[3]}'s failed verify (wrong fake kernel) and {hosts[2]}'s "
      f"verify not offered and bench history missing named, bench figures from 3; {took} s")
PY
