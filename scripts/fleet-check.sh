#!/usr/bin/env bash
# `gpudoctor fleet` (gpudoctor-fleet) under Debian's OpenMPI: 4 ranks on this machine, each diagnosing a fixture tree
# (--root-per-rank), rank 3 a different one: rank 0 must group ranks 0-2, name rank 3 the odd node
# out and list what differs. Then with faults: rank 1's doctor hangs (killed at its deadline),
# rank 2's doctor crashes, rank 3 never reports; rank 0 must still print the report, naming each,
# within its deadline. The first run also has --nccl: an all-reduce across the 4 ranks' GPUs
# through the fake libnccl/libcuda (tests/fakes, the real dlopen path in a child), ranks 0-2's
# fake NCCL going over InfiniBand and rank 3's over sockets: rank 3 must be named for it; and
# --verify/--bench (verify --quick over the fakes, a small CPU-only bench --quick): rank 3's fake
# kernel answers wrong, so its verify must fail and be named, and every rank's figures arrive.
# Rank 3's tree has its InfiniBand port up at 1X and its 100 GbE port at 10 Gb/s: the network
# differs, the 1X port and NCCL's sockets beside an up HCA are findings, and the all-reduce's
# network ceiling is rank 3's Ethernet.
# Usage: scripts/fleet-check.sh [BUILD-DIR]. Exit 77 (skipped) without mpirun, python3 or a
# built gpudoctor-fleet.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/dev}"
fleet="$build/gpudoctor-fleet"
if ! command -v mpirun >/dev/null; then
  echo "fleet-check: SKIPPED: mpirun is not installed (scripts/setup-debian.sh test: openmpi-bin)" >&2
  exit 77
fi
if [ ! -x "$fleet" ]; then
  echo "fleet-check: SKIPPED: $fleet not built (CMake found no MPI: libopenmpi-dev)" >&2
  exit 77
fi
if ! command -v python3 >/dev/null; then
  echo "fleet-check: SKIPPED: python3 is not installed" >&2
  exit 77
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fixtures="$PWD/tests/fixtures"
for r in 0 1 2; do ln -s "$fixtures/linux-torch-healthy" "$work/rank$r"; done
ln -s "$fixtures/linux-driver-too-old" "$work/rank3"
mpi=(mpirun --oversubscribe --allow-run-as-root -np 4)
common=(--every-rank-a-node --root-per-rank "$work/rank{}/root" --env-file-per-rank "$work/rank{}/env" --json)
fakes="$PWD/$build/tests/fakes/lib"
{
  cat tests/fakes/scenarios/verify_healthy.ini
  echo "net = IB"  # [nccl] is its last section
} >"$work/nccl-ib.ini"
{
  cat tests/fakes/scenarios/verify_healthy.ini
  printf '[kernel]\nresult = wrong\n'
} >"$work/wrong-kernel.ini"
nccl=(--nccl --nccl-bytes 1048576 --nccl-iters 2 --nccl-deadline 60 --verify --bench --bench-arg=--cpu-only
  --bench-arg=--sgemm-size=64 --bench-arg=--conv-batch=1)
fake_env() { # SCENARIO: the fake driver for a rank's children (its own doctor is under --root)
  echo env "LD_LIBRARY_PATH=$fakes" "GPUDOCTOR_FAKE_DRIVER=$1" "TMPDIR=$work"
}

rc=0
# Through `gpudoctor fleet`, which becomes gpudoctor-fleet in each rank's process; MPMD so that
# rank 3 gets the other fake NCCL.
# shellcheck disable=SC2046
timeout -k 10 120 mpirun --oversubscribe --allow-run-as-root \
  -np 3 $(fake_env "$work/nccl-ib.ini") "$build/gpudoctor" fleet "${common[@]}" "${nccl[@]}" : \
  -np 1 $(fake_env "$work/wrong-kernel.ini") "$build/gpudoctor" fleet "${common[@]}" "${nccl[@]}" \
  >"$work/fleet.json" 2>"$work/fleet.err" || rc=$?
if [ "$rc" != 1 ]; then
  cat "$work/fleet.err" >&2
  echo "fleet-check: exit $rc, expected 1 (rank 3's tree has error findings)" >&2
  exit 1
fi

start=$(date +%s)
rc=0
timeout -k 10 120 "${mpi[@]}" "$fleet" "${common[@]}" --deadline 15 --test-fault 1:hang --test-fault 2:crash \
  --test-fault 3:silent >"$work/faults.json" 2>"$work/faults.err" || rc=$?
took=$(($(date +%s) - start))
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
  # (-k: an mpirun that ignores SIGTERM after MPI_Abort is killed, not waited on for ever.)
  echo "fleet-check: mpirun did not finish within 120 s with a hung rank (exit $rc)" >&2
  exit 1
fi
if [ "$rc" != 1 ]; then
  # 1 is rank 0's MPI_Abort code (nodes failed); 139 was mpirun itself crashing at the abort.
  cat "$work/faults.err" >&2
  echo "fleet-check: the fault run's mpirun exited $rc, expected 1" >&2
  exit 1
fi

# A rank *process* that dies (here rank 3 SIGKILLs itself at half its 20 s deadline, its report
# unsent): mpirun then ends every rank, rank 0 included (SIGTERM, then SIGKILL). With --output,
# the file must hold rank 0's report of what it had, saying the job was ended, and mpirun must
# fail. Then the same without --output: the report (text) on stdout, written by rank 0's SIGTERM
# handler; a pseudo-terminal's worth of it arrives, so only its first lines are checked.
start=$(date +%s)
rc=0
timeout -k 10 120 "${mpi[@]}" "$fleet" "${common[@]}" --output "$work/died.json" --deadline 20 \
  --test-fault 3:die >"$work/died.out" 2>"$work/died.err" || rc=$?
died_took=$(($(date +%s) - start))
if [ "$rc" = 0 ] || [ "$rc" = 124 ]; then
  cat "$work/died.err" >&2
  echo "fleet-check: mpirun exited $rc when a rank process died, expected a failure" >&2
  exit 1
fi
if ! grep -q "holds what rank 0 had" "$work/died.err"; then
  cat "$work/died.err" >&2
  echo "fleet-check: a rank process died: rank 0 did not say where its report is" >&2
  exit 1
fi
# Ended between writing an update and renaming it into place (rank 0 raises SIGTERM there, once
# the others have reported and rank 3 stays silent): the file keeps the update before, and nothing
# of the new one is left beside it.
rc=0
timeout -k 10 120 "${mpi[@]}" "$fleet" "${common[@]}" --output "$work/cut.json" --deadline 20 \
  --test-fault 3:silent --test-fault 0:term-in-write >"$work/cut.out" 2>"$work/cut.err" || rc=$?
left=$(find "$work" -maxdepth 1 -name 'cut.json.tmp-*' | wc -l)
if [ "$rc" = 0 ] || [ "$rc" = 124 ] || [ "$left" != 0 ] || ! grep -q "holds what rank 0 had" "$work/cut.err" ||
  ! python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if r.get("incomplete") else 1)' "$work/cut.json"; then
  cat "$work/cut.err" >&2
  echo "fleet-check: ended inside an --output update: exit $rc, $left new file(s) left, or no earlier update kept" >&2
  exit 1
fi
rc=0
timeout -k 10 120 "${mpi[@]}" "$fleet" --every-rank-a-node --root-per-rank "$work/rank{}/root" \
  --env-file-per-rank "$work/rank{}/env" --deadline 16 --test-fault 3:die >"$work/died.txt" 2>"$work/died-text.err" ||
  rc=$?
# The first lines only, but those of a report brought up to date after the other ranks reported
# ("3 reported"), not the one rank 0 keeps before any report arrives.
if [ "$rc" = 0 ] || ! grep -q "^Incomplete: this is what rank 0 had" "$work/died.txt" ||
  ! grep -q "^gpudoctor fleet .* 4 node(s) from 4 rank(s), 3 reported" "$work/died.txt" ||
  ! grep -q "^✗ rank 3 (rank 3): no report" "$work/died.txt"; then
  cat "$work/died.txt" "$work/died-text.err" >&2
  echo "fleet-check: a rank process died (text on stdout): exit $rc, no incomplete report printed" >&2
  exit 1
fi

python3 - "$work" "$took" "$died_took" <<'PY'
import json, sys
work, took, died_took = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
problems = []
doc = json.load(open(f"{work}/fleet.json"))
groups = doc["groups"]
if len(groups) != 2:
    problems.append(f"{len(groups)} groups, expected 2")
else:
    if [n.split("/")[-1] for n in groups[0]["nodes"]] != ["rank0", "rank1", "rank2"]:
        problems.append(f"group A is {groups[0]['nodes']}, expected ranks 0-2")
    if [n.split("/")[-1] for n in groups[1]["nodes"]] != ["rank3"] or not groups[1]["outlier"]:
        problems.append(f"group B is {groups[1]}, expected rank 3 alone, an outlier")
keys = [d["key"] for d in doc["differences"]]
for k in ("driver", "GPUs", "cuDNN", "network"):
    if k not in keys:
        problems.append(f"'{k}' not among the differences {keys}")
if not any(o["node"].endswith("/rank3") for o in doc["outliers"]):
    problems.append(f"rank 3 not named an outlier: {doc['outliers']}")
if not any(f["severity"] == "error" and all(n.endswith("/rank3") for n in f["nodes"]) for f in doc["findings"]):
    problems.append("rank 3's driver errors are not among the collapsed findings")
nccl = doc.get("nccl") or {}
if nccl.get("status") != "passed" or nccl.get("gpus") != 4 or not nccl.get("busbw_gbps", 0) > 0:
    problems.append(f"--nccl: {nccl}, expected passed over 4 GPUs with a bus bandwidth")
if nccl.get("slowest_transport") != "sockets (NET/Socket)" or [n.split("/")[-1] for n in nccl.get("slowest_transport_nodes", [])] != ["rank3"]:
    problems.append(f"--nccl: slowest link {nccl.get('slowest_transport')} on {nccl.get('slowest_transport_nodes')}, expected sockets on rank 3")
if not any(o["node"].endswith("/rank3") and o["reason"].startswith("verify failed: kernel") for o in doc["outliers"]):
    problems.append(f"rank 3's failed verify is not among the outliers: {doc['outliers']}")
if [b["key"] for b in doc.get("bench", [])][:1] != ["cpu.sgemm_fp32.gflops"] or doc["bench"][0]["nodes"] != 4:
    problems.append(f"the fleet's bench figures: {doc.get('bench')}")
if not any(o["node"].endswith("/rank3") and "NCCL chose sockets" in o["reason"] for o in doc["outliers"]):
    problems.append("rank 3's NCCL over sockets is not among the outliers")
# Rank 3's tree has its NDR HCA up at 1X and its 100 GbE port at 10 Gb/s; its NCCL used sockets.
def finding_nodes(fid):
    return [[n.split("/")[-1] for n in f["nodes"]] for f in doc["findings"] if f["id"] == fid]
for fid in ("nccl-sockets-with-hca-up", "network-link-narrow"):
    if finding_nodes(fid) != [["rank3"]]:
        problems.append(f"finding {fid} on {finding_nodes(fid)}, expected rank 3 alone")
ceiling, fraction = nccl.get("network_ceiling_gbps"), nccl.get("network_fraction")
if ceiling != 1.25 or not str(nccl.get("network_node", "")).endswith("/rank3") or fraction is None or \
        abs(fraction - nccl["busbw_gbps"] / 1.25) > 1e-9:
    problems.append(f"--nccl network ceiling {ceiling} GB/s on {nccl.get('network_node')}, fraction {fraction}: "
                    "expected 1.25 GB/s (rank 3's 10 Gb/s port, NCCL over sockets there)")
for n in doc["nodes"]:
    verify, bench = n.get("verify") or {}, n.get("bench") or {}
    if verify.get("status") != ("failed" if n["rank"] == 3 else "passed"):
        problems.append(f"rank {n['rank']}: verify {verify}")
    if "cpu.sgemm_fp32.gflops" not in (bench.get("figures") or {}):
        problems.append(f"rank {n['rank']}: bench {bench} has no CPU SGEMM figure")
    want = "sockets (NET/Socket)" if n["rank"] == 3 else "InfiniBand (NET/IB)"
    if (n.get("nccl") or {}).get("transport") != want:
        problems.append(f"rank {n['rank']}: NCCL transport {(n.get('nccl') or {}).get('transport')}, expected {want}")

faults = json.load(open(f"{work}/faults.json"))
status = {n["rank"]: n["status"] for n in faults["nodes"]}
want = {0: "ok", 1: "timeout", 2: "crashed", 3: "no-report"}
if status != want:
    problems.append(f"fault run statuses {status}, expected {want}")
if took > 15 + 20:
    problems.append(f"the fault run took {took} s, past its 15 s deadline and a margin")
try:
    with open(f"{work}/died.json") as f:
        died_text = f.read()
    died = json.loads(died_text)
except (OSError, ValueError) as e:
    died = {}
    problems.append(f"a rank process died: rank 0 left no report in its --output file ({e})")
if died:
    status = {n["rank"]: n["status"] for n in died["nodes"]}
    if status != {0: "ok", 1: "ok", 2: "ok", 3: "no-report"}:
        problems.append(f"a rank process died: statuses {status}, expected ranks 0-2 ok and rank 3 no-report")
    if "job was ended" not in died.get("incomplete", ""):
        problems.append(f"a rank process died: the report does not say it is incomplete: {died.get('incomplete')!r}")
if died_took > 20 + 10:
    problems.append(f"a rank process died: the run took {died_took} s, past its 20 s deadline and a margin")
if problems:
    print("fleet-check: FAILED\n  " + "\n  ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"fleet-check: ok: odd node out found ({groups[1]['nodes'][0]}: {', '.join(keys)} differ); "
      f"--nccl over 4 fake GPUs passed, rank 3's sockets and failed verify named, bench figures from 4; "
      f"network ceiling {ceiling} GB/s from rank 3's 10 Gb/s port, its 1X HCA and sockets-with-HCA-up named; "
      f"hung, crashed and silent ranks reported in {took} s (deadline 15 s); a rank process that died "
      f"(mpirun ending the job) left rank 0's report of the other three, marked incomplete, in {died_took} s")
PY
