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

# 3. Every file the configure read or found is owned by a package in the build list's dependency
#    closure. Two sources: the cache's paths (compiler, ninja, ccache, libraries), and every
#    file a fresh configure opened or looked at (strace): a CMake package's own find_package of
#    something else caches only a directory like /usr/include, owned by every -dev package, which
#    is how Debian's dnnl-config.cmake needing OpenCL's headers (not installed by the build list;
#    libdnnl-dev only recommends them) got past this check once. (CMAKE_INSTALL_* are where to
#    install, not something found.)
cached=$(grep -v '^CMAKE_INSTALL_' "$build/CMakeCache.txt" |
  sed -n 's/^[A-Za-z0-9_]*:\(FILEPATH\|PATH\)=\(\/.*\)$/\2/p' |
  grep -v -e '-NOTFOUND$' -e "^$PWD" | sort -u)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
strace -f -qq -e trace=openat,stat,newfstatat,lstat,access,faccessat2,execve -o "$scratch/trace" \
  cmake --preset release -B "$scratch/build" --no-warn-unused-cli \
  -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_GMock=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON >"$scratch/log" 2>&1 ||
  { cat "$scratch/log" >&2; echo "check-run-path: the traced configure failed" >&2; exit 1; }
mapfile -t build_pkgs < <(scripts/setup-debian.sh build --list)
printf '%s\n' "$cached" >"$scratch/cached"
python3 - "$scratch/trace" "$scratch/cached" "$PWD" "$scratch" "${build_pkgs[@]}" -- <<'PY'
import os, re, subprocess, sys
trace, cached, repo, scratch = sys.argv[1:5]
args = sys.argv[5:]
roots = args[:args.index("--")]

# What the configure used: the cache's paths, and every file the traced configure opened, ran or
# found (a successful call on an absolute path) outside the project, the scratch folder and the
# kernel's pseudo-files.
used = {line.strip() for line in open(cached) if line.strip()}
call = re.compile(r'^(\d+)\s+(\w+)\((?:AT_FDCWD, |-?\d+, )?"(/[^"]*)".*\)\s+=\s+(-?\d+)')
git_pids = set()  # git reads its repository (outside the tree for a worktree): not build input
for line in open(trace, errors="replace"):
    m = call.match(line)
    if not m or int(m.group(4)) < 0:
        continue
    pid, fn, path = m.group(1), m.group(2), m.group(3)
    if fn == "execve" and os.path.basename(path) == "git":
        git_pids.add(pid)
    if pid in git_pids or path.startswith(("/proc/", "/sys/", "/dev/", repo + "/", scratch + "/")):
        continue
    if os.path.isfile(path):
        used.add(path)
# Not build inputs: the loader's cache, locale data and settings files (no package owns some of
# them), and git, which cmake/build_info.cmake asks for the commit when it is there (a tree
# copied without git builds with the commit unknown, as scripts/fresh-debian-check.sh does).
ignored = ("/etc/ld.so.cache", "/etc/gitconfig", "/etc/ccache.conf", "/usr/bin/git")
home = os.path.expanduser("~")
used = {p for p in used
        if p not in ignored and not p.startswith((home + "/", "/tmp/", "/usr/lib/locale/", "/usr/share/locale/"))}

def candidates(path):
    """The names dpkg may list the file under: itself, its real path, the merged-/usr twin."""
    out = [path, os.path.realpath(path)]
    for p in list(out):
        if p.startswith("/usr/") and p.split("/")[2] in ("lib", "lib64", "bin", "sbin"):
            out.append(p[4:])
    return list(dict.fromkeys(out))

names = sorted({c for p in used for c in candidates(p)})
owners = {}
res = subprocess.run(["dpkg-query", "-S", *names], capture_output=True, text=True)
for line in res.stdout.splitlines():
    pkgs, _, path = line.partition(": ")
    if path in names:
        owners.setdefault(path, set()).update(p.strip().split(":")[0] for p in pkgs.split(","))

out = subprocess.run(["dpkg-query", "-W", "-f",
                      "${Package}\t${Status}\t${Essential}\t${Depends}, ${Pre-Depends}\t${Provides}\n"],
                     capture_output=True, text=True, check=True).stdout
# The dependency closure of the build list over the installed packages (Depends, Pre-Depends,
# every installed alternative, Provides), plus the Essential packages every Debian has.
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

bad = 0
for path in sorted(used):
    # The name's own owner first: libOpenCL.so (a -dev package's link) is not its target's package.
    found = next((owners[c] for c in candidates(path) if c in owners), set())
    if not found:
        print(f"check-run-path: the configure used {path}, which belongs to no Debian package", file=sys.stderr)
        bad += 1
    elif not found & seen:
        print(f"check-run-path: the configure used {path} from package {', '.join(sorted(found))}, which "
              "`scripts/setup-debian.sh build` does not install: add it to the build list, or stop "
              "using it", file=sys.stderr)
        bad += 1
if bad:
    sys.exit(1)
print(f"check-run-path: the {len(used)} files the configure read or found all come from the build list")
PY
