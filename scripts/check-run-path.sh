#!/usr/bin/env bash
# Keeps scripts/run.sh honest on a machine where the test packages are installed: builds the
# release preset (what run.sh builds) in its own tree with the test packages hidden from CMake,
# runs the doctor from it, and checks that every tool, library and CMake package the configure
# found belongs to a Debian package that `scripts/setup-debian.sh build` installs (the build list
# and what it pulls in). Usage: scripts/check-run-path.sh [BUILD_DIR] (default build/run-path)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/check-lib.sh
build="${1:-build/run-path}"

# 1. The run path builds with GoogleTest, GMock, Google Benchmark and MPI (gpudoctor-fleet's,
#    a test package) hidden.
cmake --preset release -B "$build" --no-warn-unused-cli \
  -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_GMock=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON >/dev/null
quietly check-run-path cmake --build "$build" --target gpudoctor -j"$(nproc)"

# 2. The doctor runs: 0 (no error) or 1 (an error found, right on a machine without a GPU).
doctor_runs check-run-path "$build/gpudoctor"

# 3. Every file the configure found (compiler, ninja, ccache, pkg-config, CMake package
#    directories, libraries) is owned by a package in the build list's dependency closure.
#    (CMAKE_INSTALL_* are where to install, not something found.)
found=$(grep -v '^CMAKE_INSTALL_' "$build/CMakeCache.txt" |
  sed -n 's/^[A-Za-z0-9_]*:\(FILEPATH\|PATH\)=\(\/.*\)$/\2/p' |
  grep -v -e '-NOTFOUND$' -e "^$PWD" | sort -u)
owners=()
while IFS= read -r path; do
  real=$(readlink -f "$path")
  owner=$(dpkg-query -S "$real" 2>/dev/null | sed -n 1p | cut -d: -f1 | cut -d, -f1 || true)
  if [ -z "$owner" ]; then
    echo "check-run-path: $path ($real) belongs to no Debian package" >&2
    exit 1
  fi
  owners+=("$owner=$path")
done <<<"$found"
mapfile -t build_pkgs < <(scripts/setup-debian.sh build --list)
python3 - "${build_pkgs[@]}" -- "${owners[@]}" <<'PY'
# The dependency closure of the build list over the installed packages (Depends, Pre-Depends,
# every installed alternative, Provides), plus the Essential packages every Debian has.
import subprocess, sys
args = sys.argv[1:]
roots, owners = args[:args.index("--")], args[args.index("--") + 1:]
out = subprocess.run(["dpkg-query", "-W", "-f",
                      "${Package}\t${Status}\t${Essential}\t${Depends}, ${Pre-Depends}\t${Provides}\n"],
                     capture_output=True, text=True, check=True).stdout
deps, provides, essential = {}, {}, set()
for line in out.splitlines():
    name, status, ess, dep, prov = line.split("\t")
    if not status.endswith("installed") or "not-installed" in status:
        continue
    deps[name] = [a.split()[0].split(":")[0] for d in dep.split(",") for a in d.split("|") if a.strip()]
    for p in prov.split(","):
        if p.strip():
            provides.setdefault(p.split()[0], []).append(name)
    if ess == "yes":
        essential.add(name)
seen, todo = set(), list(roots) + sorted(essential)
while todo:
    n = todo.pop()
    for m in ([n] if n in deps else []) + provides.get(n, []):
        if m not in seen:
            seen.add(m)
            todo.extend(deps[m])
bad = [o for o in owners if o.split("=", 1)[0] not in seen]
for o in bad:
    pkg, path = o.split("=", 1)
    print(f"check-run-path: the configure used {path} from package {pkg}, which "
          "`scripts/setup-debian.sh build` does not install: add it to the build list", file=sys.stderr)
if bad:
    sys.exit(1)
print(f"check-run-path: the {len(owners)} files the configure found all come from the build list")
PY
