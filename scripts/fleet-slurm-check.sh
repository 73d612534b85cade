#!/usr/bin/env bash
# `gpudoctor fleet` launched by Slurm's srun instead of mpirun (Debian's Slurm 22.05, its PMIx
# plugin, Debian's Open MPI built with PMIx): a one-node Slurm cluster of this machine's own,
# started here in a scratch folder (a private munged on its own socket and key, slurmctld and
# slurmd on free ports, the config through SLURM_CONF; nothing under /etc or /run is touched),
# then four job steps:
#   1. srun -n 4 with a fixture tree per rank: rank 0 prints the whole fleet's JSON on stdout
#      (srun forwards it all: no pseudo-terminal cut, unlike mpirun), rank 3 the odd node out;
#   2. the same without --every-rank-a-node: four tasks on one machine are one node;
#   3. rank 3's process SIGKILLs itself: Slurm's PMIx plugin kills the step with SIGKILL (no
#      handler runs), so only --output keeps the report: ranks 0-2 ok, rank 3 no-report, marked
#      incomplete;
#   4. scancel while rank 3 stays silent: Slurm sends SIGTERM, and rank 0's handler prints the
#      report of what it had, whole, on stdout.
# Usage: scripts/fleet-slurm-check.sh [BUILD-DIR]. Exit 77 (skipped) without srun, slurmctld,
# slurmd, munged, Slurm's PMIx plugin, python3, root, or a built gpudoctor-fleet.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/dev}"
fleet="$build/gpudoctor-fleet"
skip() {
  echo "fleet-slurm-check: SKIPPED: $1" >&2
  exit 77
}
for tool in srun scancel sinfo slurmctld slurmd munged python3; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (scripts/setup-debian.sh test: slurmd slurmctld slurm-client munge)"
done
[ -x "$fleet" ] || skip "$fleet not built (CMake found no MPI: libopenmpi-dev)"
# slurmd starts each task as the job's user: it has to run as root.
[ "$(id -u)" = 0 ] || skip "slurmd must run as root to start job steps"
compgen -G "/usr/lib/*/slurm-wlm/mpi_pmix*.so" >/dev/null || skip "Slurm's PMIx plugin (mpi_pmix) is not installed"
# Run inside an allocation or an MPI job, the launcher's variables would point srun and the ranks
# at that one, not at the scratch cluster.
while read -r var; do unset "$var"; done < <(compgen -e | grep -E '^(SLURM|PMIX|PMI|OMPI)_' || true)

work="$(mktemp -d)"
stop_cluster() {
  local pids=() f
  # Job steps first (slurmstepd outlives slurmd), then the daemons; on failure the logs are shown.
  if [ -n "${SLURM_CONF:-}" ]; then timeout 5 scancel --quiet --user "$(id -un)" 2>/dev/null || true; fi
  if [ "${keep_logs:-0}" = 1 ]; then
    tail -n 15 "$work"/*.err "$work"/log/*.log >&2 2>/dev/null || true
  fi
  for f in "$work"/run/slurmd.pid "$work"/run/slurmctld.pid "$work"/munge/pid; do
    [ -s "$f" ] && pids+=("$(cat "$f")")
  done
  if [ ${#pids[@]} -gt 0 ]; then
    kill "${pids[@]}" 2>/dev/null || true
    for _ in $(seq 1 20); do
      kill -0 "${pids[@]}" 2>/dev/null || break
      sleep 0.25
    done
    kill -9 "${pids[@]}" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap stop_cluster EXIT
# bash runs no EXIT trap when a signal ends it: a CI timeout's SIGTERM must not leave root daemons.
trap 'exit 143' TERM
trap 'exit 130' INT
trap 'exit 129' HUP
keep_logs=1  # until the checks pass
mkdir -p "$work"/{state,spool,log,run,munge}
chmod 700 "$work/munge"
head -c 1024 /dev/urandom >"$work/munge/key"
chmod 600 "$work/munge/key"
munged --force --socket="$work/munge/sock" --key-file="$work/munge/key" --log-file="$work/munge/log" \
  --pid-file="$work/munge/pid" --seed-file="$work/munge/seed"
# Two free ports (another run of this script, or a real Slurm, may hold the defaults).
read -r ctld_port d_port < <(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
[x.bind(("127.0.0.1", 0)) for x in s]
print(*[x.getsockname()[1] for x in s])')
# slurmctld runs only on the host its config names, by the short host name; slurmd is told its node.
ctld_host="$(hostname -s)"
node=gpudoctor-check
# Four CPUs declared on whatever this machine has (config_overrides): four tasks on one node.
cat >"$work/slurm.conf" <<EOF
ClusterName=gpudoctor-check
SlurmctldHost=$ctld_host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
AuthInfo=socket=$work/munge/sock
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmUser=root
SlurmdUser=root
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=pmix
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=$node NodeAddr=127.0.0.1 CPUs=4 State=UNKNOWN
PartitionName=check Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
EOF
export SLURM_CONF="$work/slurm.conf"
slurmctld -c
slurmd -N "$node"
up() { timeout 3 sinfo -h -o '%T' 2>/dev/null | grep -q idle; }
for _ in $(seq 1 20); do
  if up; then break; fi
  sleep 0.5
done
if ! up; then
  tail -n 20 "$work/log/slurmctld.log" "$work/log/slurmd.log" >&2 || true
  echo "fleet-slurm-check: the scratch Slurm cluster did not come up" >&2
  exit 1
fi

fixtures="$PWD/tests/fixtures"
for r in 0 1 2; do ln -s "$fixtures/linux-torch-healthy" "$work/rank$r"; done
ln -s "$fixtures/linux-driver-too-old" "$work/rank3"
per_rank=(--root-per-rank "$work/rank{}/root" --env-file-per-rank "$work/rank{}/env" --json)
launch=(timeout -k 10 120 srun -n 4 --mpi=pmix)

rc=0
"${launch[@]}" "$build/gpudoctor" fleet --every-rank-a-node "${per_rank[@]}" --deadline 60 \
  >"$work/fleet.json" 2>"$work/fleet.err" || rc=$?
fleet_rc=$rc
rc=0
"${launch[@]}" "$fleet" "${per_rank[@]}" --deadline 60 >"$work/one.json" 2>"$work/one.err" || rc=$?
one_rc=$rc
rc=0
start=$(date +%s)
"${launch[@]}" "$fleet" --every-rank-a-node "${per_rank[@]}" --output "$work/died.json" --deadline 20 \
  --test-fault 3:die >"$work/died.out" 2>"$work/died.err" || rc=$?
died_rc=$rc died_took=$(($(date +%s) - start))
rc=0
("${launch[@]}" -J gpudoctor-scancel "$fleet" --every-rank-a-node "${per_rank[@]}" --deadline 60 \
  --test-fault 3:silent >"$work/cancelled.json" 2>"$work/cancelled.err" || echo $? >"$work/cancelled.rc") &
# Ranks 0-2 report within about a second (more on a loaded machine); rank 0 keeps that report,
# and scancel ends the step.
sleep 8
scancel -n gpudoctor-scancel
wait
cancelled_rc=$(cat "$work/cancelled.rc" 2>/dev/null || echo 0)

python3 - "$work" "$fleet_rc" "$one_rc" "$died_rc" "$died_took" "$cancelled_rc" <<'PY'
import json, sys
work = sys.argv[1]
fleet_rc, one_rc, died_rc, died_took, cancelled_rc = (int(x) for x in sys.argv[2:])
problems = []

def load(name, what):
    try:
        with open(f"{work}/{name}") as f:
            return json.load(f)
    except Exception as e:  # cut, empty or missing: the finding itself
        problems.append(f"{what}: {name} is not the whole JSON report ({e})")
        return {}

def statuses(r):
    return {n.get("rank"): n.get("status") for n in r.get("nodes", [])}

r = load("fleet.json", "srun -n 4")
if fleet_rc not in (0, 1):
    problems.append(f"srun -n 4: exit {fleet_rc}, expected the doctor's 0 or 1")
if r:
    if len(r.get("nodes", [])) != 4 or set(statuses(r).values()) != {"ok"}:
        problems.append(f"srun -n 4: nodes {statuses(r)}, expected 4 that reported")
    outliers = [o.get("node", "") for o in r.get("outliers", [])]
    if not any("rank3" in o for o in outliers):
        problems.append(f"srun -n 4: rank 3's tree is not named the odd node out (outliers {outliers})")
r = load("one.json", "srun -n 4 on one machine")
if r and len(r.get("nodes", [])) != 1:
    problems.append(f"srun -n 4 on one machine: {len(r.get('nodes', []))} nodes, expected 1 (one rank per node)")
if died_rc in (0, 124):
    problems.append(f"a rank process died: srun exited {died_rc}, expected a failure")
r = load("died.json", "a rank process died (--output)")
if r:
    if statuses(r) != {0: "ok", 1: "ok", 2: "ok", 3: "no-report"}:
        problems.append(f"a rank process died: statuses {statuses(r)}, expected ranks 0-2 ok and rank 3 no-report")
    if not r.get("incomplete"):
        problems.append("a rank process died: the report does not say it is incomplete")
if died_took > 20 + 10:
    problems.append(f"a rank process died: the step took {died_took} s, past its 20 s deadline and a margin")
if cancelled_rc == 0:
    problems.append("scancel: srun exited 0")
r = load("cancelled.json", "scancel")
if r:
    if statuses(r) != {0: "ok", 1: "ok", 2: "ok", 3: "no-report"} or not r.get("incomplete"):
        problems.append(f"scancel: statuses {statuses(r)}, incomplete {bool(r.get('incomplete'))}: expected "
                        "ranks 0-2 ok, rank 3 no-report, marked incomplete")
if problems:
    for p in problems:
        print("fleet-slurm-check: " + p, file=sys.stderr)
    sys.exit(1)
print(f"fleet-slurm-check: ok: under srun (Slurm's PMIx) the fleet's whole JSON arrived and named rank 3; "
      f"4 tasks on one machine were one node; a rank process that died (step killed) left the other "
      f"three in --output in {died_took} s; scancel's SIGTERM printed the incomplete report whole")
PY
keep_logs=0
