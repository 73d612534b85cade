#!/usr/bin/env bash
# The newcomer path on a truly fresh Debian 12, by hand (not in CI: it downloads a base system
# and every build package, and compiles with a cold cache): debootstrap a minbase bookworm, copy
# the committed project in with `git archive`, run `scripts/run.sh` inside it as the README says,
# and time each step. Passes when the doctor prints its report (exit 0, or 1 for an error found:
# a chroot has no GPU). Needs root, debootstrap and deb.debian.org.
# Usage: scripts/fresh-debian-check.sh [WORKDIR]   (default: a new /tmp/gpudoctor-fresh.XXXXXX,
#        kept afterwards: WORKDIR/report.txt, WORKDIR/run.log; an existing WORKDIR/root is reused)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then echo "fresh-debian-check: needs root (debootstrap, chroot)" >&2; exit 2; fi
if ! command -v debootstrap >/dev/null; then
  echo "fresh-debian-check: needs debootstrap (apt-get install debootstrap)" >&2
  exit 2
fi
work="${1:-$(mktemp -d /tmp/gpudoctor-fresh.XXXXXX)}"
root="$work/root"
mkdir -p "$work"

t0=$(date +%s)
if [ ! -x "$root/usr/bin/apt-get" ]; then
  echo "fresh-debian-check: debootstrap --variant=minbase bookworm $root"
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1
fi
t1=$(date +%s)
rm -rf "$root/src/gpudoctor"
mkdir -p "$root/src/gpudoctor"
git archive HEAD | tar -x -C "$root/src/gpudoctor"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# /proc for the doctor and the compiler; where mounting is not allowed, run without it.
mounted=0
if mount -t proc proc "$root/proc" 2>/dev/null; then mounted=1; fi
trap '[ "$mounted" = 1 ] && umount "$root/proc"' EXIT

echo "fresh-debian-check: scripts/run.sh in the chroot (log: $work/run.log)"
rc=0
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
  bash -c 'cd /src/gpudoctor && scripts/run.sh --no-color' >"$work/report.txt" 2>"$work/run.log" || rc=$?
t2=$(date +%s)
echo "fresh-debian-check: debootstrap $((t1 - t0)) s, run.sh (packages + build + doctor) $((t2 - t1)) s, exit $rc"
head -n 5 "$work/report.txt"
if [ "$rc" -gt 1 ]; then
  tail -n 30 "$work/run.log" >&2
  echo "fresh-debian-check: FAILED (exit $rc)" >&2
  exit 1
fi
grep -q "Doctor found problems\|No issues found" "$work/report.txt" || { echo "fresh-debian-check: no report" >&2; exit 1; }
echo "fresh-debian-check: ok"
