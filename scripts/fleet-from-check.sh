#!/usr/bin/env bash
# `gpudoctor fleet --from HOSTS` against real `gpudoctor serve` processes on loopback: three serve
# the linux-torch-healthy fixture, one linux-driver-too-old (the odd node out); beside them a
# server that accepts and never answers, one that answers garbage, one that answers 9 MiB, and a
# port nobody listens on. The fleet must group the four, name the odd one, give each broken host
# its reason, and finish within its per-host deadline plus a margin. No MPI needed.
# Usage: scripts/fleet-from-check.sh [BUILD-DIR]. Exit 77 (skipped) without python3 or without
# an HTTP client in the build.
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
  rm -rf "$work"
}
trap cleanup EXIT
fixtures="$PWD/tests/fixtures"

# serve on ports the kernel picks; each prints the address it got.
start_serve() {  # NAME FIXTURE
  "$gpudoctor" serve --root "$fixtures/$2/root" --env-file "$fixtures/$2/env" --listen 127.0.0.1:0 \
    --interval 5 --report-interval 3600 >"$work/$1.out" 2>"$work/$1.err" &
  pids+=($!)
}
for i in 0 1 2; do start_serve "serve$i" linux-torch-healthy; done
start_serve serve3 linux-driver-too-old

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
timeout 60 "$gpudoctor" fleet --from "$work/hosts.txt" --host-deadline 4 --json >"$work/fleet.json" 2>"$work/fleet.err" ||
  rc=$?
took=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$start" "$(date +%s.%N)")
if [ "$rc" != 1 ]; then
  cat "$work/fleet.err" >&2
  echo "fleet-from-check: exit $rc, expected 1 (broken hosts, and errors on the odd node)" >&2
  exit 1
fi
timeout 60 "$gpudoctor" fleet --from "$work/hosts.txt" --host-deadline 4 >"$work/fleet.txt" 2>&1 || true

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
keys = [d["key"] for d in doc["differences"]]
if "driver" not in keys:
    problems.append(f"driver not among the differences {keys}")
text = open(f"{work}/fleet.txt").read()
if "from 8 serve endpoint(s), 4 reported" not in text:
    problems.append("the text report's head: " + text.splitlines()[0])
if took > 4 + 6:
    problems.append(f"took {took} s with a 4 s per-host deadline")
if problems:
    print("fleet-from-check: FAILED\n  " + "\n  ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"fleet-from-check: ok: 4 serve endpoints grouped, {hosts[3]} the odd one out; hang, garbage, "
      f"9 MiB and missing hosts named; {took} s (per-host deadline 4 s)")
PY
