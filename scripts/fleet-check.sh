#!/usr/bin/env bash
# `gpudoctor fleet` (gpudoctor-fleet) under Debian's OpenMPI: 4 ranks on this machine, each diagnosing a fixture tree
# (--root-per-rank), rank 3 a different one: rank 0 must group ranks 0-2, name rank 3 the odd node
# out and list what differs. Then with faults: rank 1's doctor hangs (killed at its deadline),
# rank 2's doctor crashes, rank 3 never reports; rank 0 must still print the report, naming each,
# within its deadline. Usage: scripts/fleet-check.sh [BUILD-DIR]. Exit 77 (skipped) without
# mpirun, python3 or a built gpudoctor-fleet.
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

rc=0
# Through `gpudoctor fleet`, which becomes gpudoctor-fleet in each rank's process.
timeout 120 "${mpi[@]}" "$build/gpudoctor" fleet "${common[@]}" >"$work/fleet.json" 2>"$work/fleet.err" || rc=$?
if [ "$rc" != 1 ]; then
  cat "$work/fleet.err" >&2
  echo "fleet-check: exit $rc, expected 1 (rank 3's tree has error findings)" >&2
  exit 1
fi

start=$(date +%s)
rc=0
timeout 120 "${mpi[@]}" "$fleet" "${common[@]}" --deadline 15 --test-fault 1:hang --test-fault 2:crash \
  --test-fault 3:silent >"$work/faults.json" 2>"$work/faults.err" || rc=$?
took=$(($(date +%s) - start))
if [ "$rc" = 124 ]; then
  echo "fleet-check: rank 0 did not finish within 120 s with a hung rank" >&2
  exit 1
fi

python3 - "$work" "$took" <<'PY'
import json, sys
work, took = sys.argv[1], int(sys.argv[2])
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
for k in ("driver", "GPUs", "cuDNN"):
    if k not in keys:
        problems.append(f"'{k}' not among the differences {keys}")
if not any(o["node"].endswith("/rank3") for o in doc["outliers"]):
    problems.append(f"rank 3 not named an outlier: {doc['outliers']}")
if not any(f["severity"] == "error" and all(n.endswith("/rank3") for n in f["nodes"]) for f in doc["findings"]):
    problems.append("rank 3's driver errors are not among the collapsed findings")

faults = json.load(open(f"{work}/faults.json"))
status = {n["rank"]: n["status"] for n in faults["nodes"]}
want = {0: "ok", 1: "timeout", 2: "crashed", 3: "no-report"}
if status != want:
    problems.append(f"fault run statuses {status}, expected {want}")
if took > 15 + 20:
    problems.append(f"the fault run took {took} s, past its 15 s deadline and a margin")
if problems:
    print("fleet-check: FAILED\n  " + "\n  ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"fleet-check: ok: odd node out found ({groups[1]['nodes'][0]}: {', '.join(keys)} differ); "
      f"hung, crashed and silent ranks reported in {took} s (deadline 15 s)")
PY
