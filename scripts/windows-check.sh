#!/usr/bin/env bash
# gpudoctor.exe built and run under wine (docs/windows.md): the CI stage for Windows.
#   1. scripts/build-windows.sh: the static exe (dependencies cached in build/windows-deps/)
#   2. the child-process launcher's own test (tests/windows/child_process_smoke.cpp: job objects,
#      a hung child and its children killed), built with the same compiler
#   3. under wine64, in a WINEPREFIX of its own: --version; the doctor on the wine prefix itself
#      (no NVIDIA GPU: said so, exit status 1 as for any error-level finding); the live driver path through fake nvml.dll and
#      nvcuda.dll (tests/fakes built with mingw) in the prefix's System32; the doctor on every Windows-shaped fixture
#      (tests/fixtures/windows-*) with --root --platform windows, whose findings (id and
#      severity) and exit status must equal the Linux binary's on the same tree, once more from a
#      non-ASCII folder whose files' paths are longer than MAX_PATH (which wine does not
#      enforce); plan (report and PowerShell script) and explain on corpus logs, equal to the
#      Linux binary's output; bench's CPU SGEMM through the OpenBLAS DLL of numpy's win_amd64
#      wheel (PyPI, cached), found in a venv given with --env.
# Usage: scripts/windows-check.sh LINUX_BUILD_DIR   (default build/dev: its gpudoctor is compared)
# Exits 77 (skipped), saying why, when mingw-w64, wine64 or jq is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
linux_bin="${1:-build/dev}/gpudoctor"
wine=""
for w in wine64 /usr/lib/wine/wine64; do
  if command -v "$w" >/dev/null 2>&1; then
    wine="$w"
    break
  fi
done
if [ -z "$wine" ] || ! command -v jq >/dev/null 2>&1; then
  echo "windows-check: SKIPPED: needs wine64 and jq (scripts/setup-debian.sh test)" >&2
  exit 77
fi
if [ ! -x "$linux_bin" ]; then
  echo "windows-check: $linux_bin is missing (build the dev preset first)" >&2
  exit 1
fi
start=$SECONDS
rc=0
# Unoptimised: what is checked here is behaviour, and an optimised build of everything costs CI
# minutes it does not have (scripts/build-windows.sh alone builds the Release exe).
exe="$(GPUDOCTOR_WINDOWS_BUILD_TYPE="${GPUDOCTOR_WINDOWS_BUILD_TYPE-}" scripts/build-windows.sh build/windows-check)" || rc=$?
if [ "$rc" != 0 ]; then exit "$rc"; fi
built=$((SECONDS - start))

out="$(mktemp -d)"
export WINEPREFIX="$out/prefix" WINEDEBUG=-all
wineserver="$(dirname "$(command -v "$wine")")/wineserver"
cleanup() {
  # Let wine's server finish writing its prefix before the folder goes.
  if [ -x "$wineserver" ]; then "$wineserver" -k >/dev/null 2>&1 || true; fi
  rm -rf "$out"
}
trap cleanup EXIT
failures=0
fail() {
  echo "windows-check: FAILED: $*" >&2
  failures=$((failures + 1))
}
# Runs the exe under wine with a bound on time; stdout to $1, exit status in $status.
run_exe() {
  local to="$1"
  shift
  status=0
  # The build machine's environment (CUDA_HOME, LD_LIBRARY_PATH) is not the Windows machine's.
  timeout 300 env -i PATH="$PATH" HOME="$HOME" LANG=C.UTF-8 WINEPREFIX="$WINEPREFIX" WINEDEBUG=-all \
    ${GPUDOCTOR_FAKE_DRIVER:+GPUDOCTOR_FAKE_DRIVER="$GPUDOCTOR_FAKE_DRIVER"} "$wine" "$exe" "$@" >"$to" 2>"$to.err" || status=$?
  tr -d '\r' <"$to" >"$to.unix" && mv "$to.unix" "$to"
}
# shellcheck disable=SC1003  # a backslash, not an escaped quote
winpath() { printf 'Z:%s' "$(realpath "$1" | tr '/' '\\')"; }

# 2. the launcher's own test (a few files; ccache makes it cheap after the first run)
ccache x86_64-w64-mingw32-g++-posix -std=c++20 -O1 -Isrc -c tests/windows/child_process_smoke.cpp -o "$out/smoke.o"
for f in platform/child_process platform/child_process_win32 core/result; do
  ccache x86_64-w64-mingw32-g++-posix -std=c++20 -O1 -Isrc -c "src/$f.cpp" -o "$out/$(basename "$f").o"
done
x86_64-w64-mingw32-g++-posix -static "$out"/*.o -o "$out/smoke.exe"
if ! timeout 300 "$wine" "$out/smoke.exe"; then fail "the child-process launcher's test under wine"; fi
# The access-list check before a bundled OpenBLAS DLL is loaded (host_fs_win32.cpp).
mkdir -p "$out/acl"
ccache x86_64-w64-mingw32-g++-posix -std=c++20 -O1 -Isrc -c tests/windows/host_fs_acl_smoke.cpp -o "$out/acl/smoke.o"
for f in platform/host_fs_win32 core/result; do
  ccache x86_64-w64-mingw32-g++-posix -std=c++20 -O1 -Isrc -c "src/$f.cpp" -o "$out/acl/$(basename "$f").o"
done
x86_64-w64-mingw32-g++-posix -static "$out"/acl/*.o -o "$out/acl-smoke.exe" -ladvapi32 -lntdll
if ! timeout 120 "$wine" "$out/acl-smoke.exe"; then fail "the access-list check's test under wine"; fi

# 3. --version: says what it is and what it leaves out.
run_exe "$out/version" --version
if [ "$status" != 0 ] || ! grep -q '^target: *Windows-x86_64' "$out/version" || ! grep -q 'left out:' "$out/version"; then
  fail "--version (exit $status): $(cat "$out/version" "$out/version.err")"
fi

# The doctor on this wine prefix: "No NVIDIA GPU found", an error as on a Linux machine without
# one (README: exit status 1 for an error-level finding).
run_exe "$out/live" --no-color
if [ "$status" != 1 ] || ! grep -q 'No NVIDIA GPU found' "$out/live"; then
  fail "doctor on the wine prefix (exit $status, expected 1 and 'No NVIDIA GPU found'): $(head -c 3000 "$out/live"; cat "$out/live.err")"
fi

# The live driver path: nvml.dll and nvcuda.dll built with mingw from the Linux fakes' own code
# (tests/fakes), put in the prefix's System32 where the driver installs them, answering from the
# healthy scenario (two H100s, driver 550.54.15). The exe loads them in its GPU agent child.
for lib in nvml:fake_nvml nvcuda:fake_cuda; do
  ccache x86_64-w64-mingw32-g++-posix -std=c++20 -O1 -shared -static -Itests/fakes -Isrc \
    "tests/fakes/${lib#*:}.cpp" tests/fakes/fake_scenario.cpp -o "$WINEPREFIX/drive_c/windows/system32/${lib%%:*}.dll"
done
GPUDOCTOR_FAKE_DRIVER="$(winpath tests/fakes/scenarios/healthy.ini)" run_exe "$out/fake" --json
if ! jq -e '[.. | strings | select(test("550\\.54\\.15"))] | length > 0' "$out/fake" >/dev/null 2>&1 ||
  ! grep -q 'H100' "$out/fake"; then
  fail "doctor with the fake nvml.dll/nvcuda.dll (exit $status): no H100 or driver 550.54.15 in $(head -c 3000 "$out/fake"; cat "$out/fake.err")"
fi
rm -f "$WINEPREFIX/drive_c/windows/system32/"{nvml,nvcuda}.dll

# The driver's version from its DLL's version resource when no registry says it: a fake nvml.dll
# given a VERSIONINFO (file version 31.0.15.4633, as driver 546.33 installs it) by windres, in a
# Windows tree without a registry export; both binaries must read 546.33 from it.
pever="$out/pe-version"
mkdir -p "$pever/root/Windows/System32"
printf '1 VERSIONINFO\nFILEVERSION 31,0,15,4633\nPRODUCTVERSION 31,0,15,4633\nBEGIN\nEND\n' >"$pever/version.rc"
x86_64-w64-mingw32-windres "$pever/version.rc" -O coff -o "$pever/version.o"
ccache x86_64-w64-mingw32-g++-posix -std=c++20 -O1 -shared -static -Itests/fakes -Isrc \
  tests/fakes/fake_nvml.cpp tests/fakes/fake_scenario.cpp "$pever/version.o" -o "$pever/root/Windows/System32/nvml.dll"
printf 'SystemRoot=C:\\Windows\n' >"$pever/env"
"$linux_bin" --root "$pever/root" --env-file "$pever/env" --platform windows --json >"$out/pever.linux.json" || true
run_exe "$out/pever.win.json" --root "$(winpath "$pever/root")" --env-file "$(winpath "$pever/env")" --platform windows --json
for side in linux win; do
  if [ "$(jq -r '.facts.driver.version' "$out/pever.$side.json" 2>/dev/null)" != "546.33" ]; then
    fail "driver version from nvml.dll's version resource ($side): $(jq -c '.facts.driver' "$out/pever.$side.json" 2>&1 | head -c 500)"
  fi
done

# The fixtures: the exe's findings equal the Linux binary's, tree by tree.
findings() { jq -c '[.findings[] | {id, severity}] | sort_by(.id, .severity)' "$1"; }
compared=0
for dir in tests/fixtures/windows-*/; do
  name="$(basename "$dir")"
  mapfile -t args <"$dir/args"
  # The tree's `reg export` (UTF-16 or UTF-8), read by the exe's own registry-file parser.
  lreg=() wreg=()
  if [ -f "$dir/registry.reg" ]; then
    lreg=(--registry "$dir/registry.reg")
    wreg=(--registry "$(winpath "$dir/registry.reg")")
  fi
  lstatus=0
  "$linux_bin" --root "$dir/root" --env-file "$dir/env" "${lreg[@]}" "${args[@]}" --json >"$out/$name.linux.json" || lstatus=$?
  run_exe "$out/$name.win.json" --root "$(winpath "$dir/root")" --env-file "$(winpath "$dir/env")" "${wreg[@]}" "${args[@]}" --json
  if [ "$status" != "$lstatus" ]; then fail "$name: exit status $status under wine, $lstatus on Linux"; fi
  if ! jq -e '.findings | length > 0' "$out/$name.win.json" >/dev/null 2>&1; then
    fail "$name: no findings from the exe: $(head -c 2000 "$out/$name.win.json"; cat "$out/$name.win.json.err")"
    continue
  fi
  if [ "$(findings "$out/$name.win.json")" != "$(findings "$out/$name.linux.json")" ]; then
    fail "$name: findings differ: exe $(findings "$out/$name.win.json") linux $(findings "$out/$name.linux.json")"
  fi
  compared=$((compared + 1))
done
if [ "$compared" = 0 ]; then fail "no Windows fixture compared"; fi

# Wide and long paths: the same tree under a folder named in Greek and CJK, nested deep enough that
# its files' paths pass MAX_PATH (260). The UTF-8 command line must carry the name (a mangled
# one fails here). Wine does not enforce MAX_PATH, so this cannot catch a lost \\?\ prefix
# (dropping it still passed): that part waits for a Windows machine.
deep="$out/Δοκιμή-測試"
for i in 1 2 3 4 5 6; do deep="$deep/$(printf 'folder%02d-%040d' "$i" 0)"; done
mkdir -p "$deep"
cp -r tests/fixtures/windows-tf215-native/root "$deep/root"
cp tests/fixtures/windows-tf215-native/registry.reg "$deep/registry.reg"
mapfile -t args <tests/fixtures/windows-tf215-native/args
run_exe "$out/deep.json" --root "$(winpath "$deep/root")" --env-file "$(winpath tests/fixtures/windows-tf215-native/env)" \
  --registry "$(winpath "$deep/registry.reg")" "${args[@]}" --json
if [ "$(findings "$out/deep.json")" != "$(findings "$out/windows-tf215-native.linux.json")" ]; then
  fail "a ${#deep}-byte non-ASCII root: findings differ: $(findings "$out/deep.json"; head -c 2000 "$out/deep.json.err")"
fi

# Confinement by handle (issue 11, D1): links inside a --root tree must not lead the exe out of
# it. A copy of windows-torch-cu124-conda whose torch\version.py is a link to a file outside the
# tree, and whose environment "leak" is a link to a folder outside it, both holding a version
# marked LEAKED. Wine shows a Unix link to a file as a plain file and opens its target whatever
# FILE_OPEN_REPARSE_POINT says, so this catches an exe that opens names by path (the walk before
# this check read the outside file); the Linux binary, on the same tree, must not read it either.
hostile="$out/hostile"
fixture=tests/fixtures/windows-torch-cu124-conda
mkdir -p "$hostile/outside/env/Lib/site-packages/torch"
cp -r "$fixture/root" "$hostile/root"
printf "__version__ = '6.6.6+LEAKED'\ncuda = '66.6'\n" >"$hostile/outside/version.py"
cp "$hostile/outside/version.py" "$hostile/outside/env/Lib/site-packages/torch/version.py"
cp -r "$fixture/root/Users/bob/miniconda3/envs/torch/conda-meta" "$hostile/outside/env/conda-meta"
sp="$hostile/root/Users/bob/miniconda3/envs/torch/Lib/site-packages"
rm "$sp/torch/version.py"
ln -s "$hostile/outside/version.py" "$sp/torch/version.py"
ln -s "$hostile/outside/env" "$hostile/root/Users/bob/miniconda3/envs/leak"
mapfile -t args <"$fixture/args"
"$linux_bin" --root "$hostile/root" --env-file "$fixture/env" --registry "$fixture/registry.reg" "${args[@]}" --json \
  >"$out/hostile.linux.json" || true
run_exe "$out/hostile.win.json" --root "$(winpath "$hostile/root")" --env-file "$(winpath "$fixture/env")" \
  --registry "$(winpath "$fixture/registry.reg")" "${args[@]}" --json
if ! jq -e '.findings | length > 0' "$out/hostile.win.json" >/dev/null 2>&1; then
  fail "hostile tree: no report from the exe: $(head -c 2000 "$out/hostile.win.json"; cat "$out/hostile.win.json.err")"
elif grep -q LEAKED "$out/hostile.win.json" "$out/hostile.win.json.err"; then
  fail "hostile tree: the exe read a file outside --root through a link: $(grep -o '[^"]*LEAKED[^"]*' "$out/hostile.win.json" | head -n 3)"
fi
if grep -q LEAKED "$out/hostile.linux.json"; then fail "hostile tree: the Linux binary read a file outside --root"; fi
if [ "$(findings "$out/hostile.win.json")" != "$(findings "$out/hostile.linux.json")" ]; then
  fail "hostile tree: findings differ: exe $(findings "$out/hostile.win.json") linux $(findings "$out/hostile.linux.json")"
fi

# Import tables written by a real linker (probe/pe_imports.cpp): a torch_cuda.dll built with
# mingw-w64 that imports cudart64_12.dll and msvcp140_atomic_wait.dll (import libraries made
# with dlltool from .def files), dropped into a copy of windows-torch-cu124-conda, whose System32
# holds an older Redistributable without msvcp140_atomic_wait.dll. Both binaries must name it,
# read through their own file layer (the exe's ranged reads are Win32's).
imp="$out/imports"
mkdir -p "$imp/build"
cp -r "$fixture/root" "$imp/root"
printf 'LIBRARY cudart64_12.dll\nEXPORTS\ncudaFree\n' >"$imp/build/cudart.def"
printf 'LIBRARY msvcp140_atomic_wait.dll\nEXPORTS\n__std_atomic_wait_direct\n' >"$imp/build/wait.def"
printf 'extern int cudaFree(void*);\nextern int __std_atomic_wait_direct(void);\n__declspec(dllexport) int f(void) { return cudaFree(0) + __std_atomic_wait_direct(); }\n' >"$imp/build/torch_cuda.c"
if x86_64-w64-mingw32-dlltool -d "$imp/build/cudart.def" -l "$imp/build/libcudart.a" &&
  x86_64-w64-mingw32-dlltool -d "$imp/build/wait.def" -l "$imp/build/libwait.a" &&
  x86_64-w64-mingw32-gcc -shared -o "$imp/build/torch_cuda.dll" "$imp/build/torch_cuda.c" \
    "$imp/build/libcudart.a" "$imp/build/libwait.a" 2>"$imp/build/cc.log"; then
  isp="$imp/root/Users/bob/miniconda3/envs/torch/Lib/site-packages"
  cp "$imp/build/torch_cuda.dll" "$isp/torch/lib/torch_cuda.dll"
  "$linux_bin" --root "$imp/root" --env-file "$fixture/env" --registry "$fixture/registry.reg" "${args[@]}" --json \
    >"$out/imports.linux.json" || true
  run_exe "$out/imports.win.json" --root "$(winpath "$imp/root")" --env-file "$(winpath "$fixture/env")" \
    --registry "$(winpath "$fixture/registry.reg")" "${args[@]}" --json
  wait_missing='[.findings[] | select(.id == "msvc-runtime-missing" and (.title | test("msvcp140_atomic_wait.dll")))] | length == 1'
  for os in linux win; do
    if ! jq -e "$wait_missing" "$out/imports.$os.json" >/dev/null 2>&1; then
      fail "imports ($os): msvcp140_atomic_wait.dll, imported by a mingw-built torch_cuda.dll, is not named: $(jq -c '[.findings[] | {id, title}]' "$out/imports.$os.json" 2>&1 | head -c 1500; head -c 1000 "$out/imports.$os.json.err" 2>/dev/null)"
    fi
  done
  if [ "$(findings "$out/imports.win.json")" != "$(findings "$out/imports.linux.json")" ]; then
    fail "imports: findings differ: exe $(findings "$out/imports.win.json") linux $(findings "$out/imports.linux.json")"
  fi
else
  fail "imports: mingw-w64 could not build the importing DLL: $(tail -n 5 "$imp/build/cc.log")"
fi

# plan for a Windows machine: the report and the PowerShell script, as the Linux binary makes them.
plan=(plan --os windows --gpu "RTX 3060" --python 3.11 --framework tensorflow==2.15)
for form in --json "--script powershell"; do
  # shellcheck disable=SC2086  # the form is two words for the script
  "$linux_bin" "${plan[@]}" $form >"$out/plan.linux" || true
  # shellcheck disable=SC2086
  run_exe "$out/plan.win" "${plan[@]}" $form
  if [ ! -s "$out/plan.win" ] || ! cmp -s "$out/plan.win" "$out/plan.linux"; then
    fail "plan $form differs from the Linux binary's: $(diff "$out/plan.linux" "$out/plan.win" | head -n 20)"
  fi
done

# explain on the corpus's Windows logs (--no-probe: the log alone), as the Linux binary explains them.
jq -r 'select(.platform == "windows") | .log_excerpt' tests/corpus/error-logs.jsonl | head -n 5 >"$out/windows.log"
"$linux_bin" explain "$out/windows.log" --no-probe --json >"$out/explain.linux" || true
run_exe "$out/explain.win" explain "$(winpath "$out/windows.log")" --no-probe --json
if ! jq -e '.' "$out/explain.win" >/dev/null 2>&1 || ! cmp -s "$out/explain.win" "$out/explain.linux"; then
  fail "explain differs from the Linux binary's: $(diff "$out/explain.linux" "$out/explain.win" | head -n 20)"
fi

# Logs in a Windows code page, as Python on a Chinese or a Western Windows writes redirected
# output (GBK, 1252): MultiByteToWideChar must read them as glibc's iconv does on Linux.
printf 'ImportError: DLL load failed while importing _C: \xd2\xb3\xc3\xe6\xce\xc4\xbc\xfe\xcc\xab\xd0\xa1\xa3\xac\xce\xde\xb7\xa8\xcd\xea\xb3\xc9\xb2\xd9\xd7\xf7\xa1\xa3\r\n' >"$out/gbk.log"
printf 'OSError: [WinError 126] x. Error loading "C:\\Users\\j\xfcrgen\\v\\torch\\lib\\c10.dll" or one of its dependencies.\r\n' >"$out/cp1252.log"
for page in gbk cp1252; do
  "$linux_bin" explain "$out/$page.log" --no-probe --json >"$out/$page.linux" || true
  run_exe "$out/$page.win" explain "$(winpath "$out/$page.log")" --no-probe --json
  if ! jq -e '.input.lines_recoded == 1 and (.matches | length) > 0' "$out/$page.linux" >/dev/null 2>&1; then
    fail "explain did not read the $page log in its code page: $(head -c 600 "$out/$page.linux")"
  elif ! cmp -s "$out/$page.win" "$out/$page.linux"; then
    fail "explain of a $page log differs from the Linux binary's: $(diff "$out/$page.linux" "$out/$page.win" | head -n 20)"
  fi
done

# A venv on another drive than the system's (wine's Z:, where this folder is; a user's D:\venvs):
# the live doctor must see it. Its view was rooted at C:\, so every other drive was missing.
venv="$out/numpy-venv"
mkdir -p "$venv/Lib/site-packages" "$venv/Scripts"
printf 'home = C:\\Python312\ninclude-system-site-packages = false\nversion = 3.12.10\n' >"$venv/pyvenv.cfg"
run_exe "$out/venv.json" --env "$(winpath "$venv")" --json
if ! jq -e --arg p "$(winpath "$venv")" '[.facts.python_envs[] | select(.path == $p and .kind == "venv")] | length == 1' \
  "$out/venv.json" >/dev/null 2>&1; then
  fail "--env $(winpath "$venv") (another drive): the venv is not found: $(jq -c '.facts.python_envs' "$out/venv.json" 2>&1 | head -c 1000; grep -o 'names [^"]*' "$out/venv.json" | head -n 2)"
fi

# bench's CPU SGEMM on Windows through the OpenBLAS that numpy's win_amd64 wheel bundles (an
# ILP64 DLL, names prefixed scipy_ and suffixed 64_; the wheel from PyPI, cached in .cache/wheels),
# found as a user's machine offers it: no libopenblas.dll on the loader's path, numpy in a venv
# given with --env. Without the venv the figure is skipped, saying where OpenBLAS is looked for.
numpy_pin="numpy==2.5.5"
wheels=.cache/wheels
mkdir -p "$wheels"
numpy_wheel() { find "$wheels" -maxdepth 1 -name 'numpy-2.5.5-cp312-cp312-win_amd64.whl' | head -n 1; }
if [ -z "$(numpy_wheel)" ]; then
  python3 -m pip download --disable-pip-version-check -q --retries 1 --timeout 15 --no-deps --only-binary=:all: \
    --platform win_amd64 --python-version 3.12 -d "$wheels" "$numpy_pin" >"$out/pip.log" 2>&1 || true
fi
# Exit 3: the wheel itself is damaged (not a zip, or no OpenBLAS DLL in it); any other failure
# (a full disk, no python3) is not the cached wheel's fault and leaves it in the cache.
unzip_status=0
if [ -n "$(numpy_wheel)" ]; then
  python3 - "$(numpy_wheel)" "$venv/Lib/site-packages" >"$out/unzip.log" 2>&1 <<'PY' || unzip_status=$?
import sys, zipfile
try:
    wheel = zipfile.ZipFile(sys.argv[1])
    names = [n for n in wheel.namelist()
             if n.startswith("numpy.libs/") and "openblas" in n.lower() and n.lower().endswith(".dll")]
except zipfile.BadZipFile as e:
    print(f"not a zip file: {e}")
    sys.exit(3)
if not names:
    print("no numpy.libs/*openblas*.dll in the wheel")
    sys.exit(3)
for name in names:
    wheel.extract(name, sys.argv[2])
PY
fi
if [ -z "$(numpy_wheel)" ]; then
  echo "windows-check: PART SKIPPED: bench under wine needs $numpy_pin's win_amd64 wheel, not in $wheels and not downloaded: $(tail -n 1 "$out/pip.log")" >&2
elif [ "$unzip_status" = 3 ]; then
  # A damaged download would fail every later run the same way: it goes, and this run fails.
  fail "numpy's wheel $(numpy_wheel) is unreadable (removed from the cache): $(tail -n 2 "$out/unzip.log")"
  rm -f "$(numpy_wheel)"
elif [ "$unzip_status" != 0 ]; then
  fail "could not unpack numpy's OpenBLAS DLL from $(numpy_wheel) (exit $unzip_status; the wheel stays cached): $(tail -n 2 "$out/unzip.log")"
else
  bench=(--json bench --quick --cpu-only --no-history --sgemm-size 128 --conv-batch 1)
  sgemm='.measurements[] | select(.key == "cpu.sgemm_fp32")'
  # Under /tmp (mode 1777; wine shows it to Windows as writable by Everyone, who could swap the
  # DLL) the copy is refused, and the figure says by whom.
  run_exe "$out/bench-tmp.json" --env "$(winpath "$venv")" "${bench[@]}"
  if ! jq -e "$sgemm | .status == \"skipped\" and (.detail | test(\"not used, others could change them: .*numpy.libs: .*Everyone\"))" \
    "$out/bench-tmp.json" >/dev/null 2>&1; then
    fail "a bundled OpenBLAS under a folder Everyone may change should be refused, naming who: $(head -c 2000 "$out/bench-tmp.json")"
  fi
  # The same venv where only its owner can write, all the way up (this build tree).
  trusted="build/windows-check/numpy-venv"
  rm -rf "$trusted" && mkdir -p "$(dirname "$trusted")" && cp -r "$venv" "$trusted"
  venv="$trusted"
  run_exe "$out/bench.json" --env "$(winpath "$venv")" "${bench[@]}"
  if jq -e "$sgemm | .status == \"skipped\" and (.detail | test(\"others could change them\"))" "$out/bench.json" >/dev/null 2>&1; then
    echo "windows-check: PART SKIPPED: bench through numpy's DLL: this checkout lies under a folder others may change ($(jq -r "$sgemm | .detail" "$out/bench.json" | grep -o 'others could change them.*' | head -c 300))" >&2
  elif [ "$status" != 0 ] || ! jq -e "$sgemm | .status == \"ok\" and .check_passed and (.library | test(\"ILP64\"))
      and (.library | test(\"numpy.libs\"))" "$out/bench.json" >/dev/null 2>&1; then
    fail "bench's CPU SGEMM through numpy's OpenBLAS DLL (exit $status): $(head -c 3000 "$out/bench.json"; head -c 2000 "$out/bench.json.err")"
  elif ! jq -e '.measurements[] | select(.key == "cpu.conv_fp32") | .status == "skipped"' "$out/bench.json" >/dev/null; then
    fail "bench's CPU convolution should be skipped by the Windows build: $(head -c 2000 "$out/bench.json")"
  else
    echo "windows-check: bench under wine: $(jq -r "$sgemm | \"\\(.value | floor) GFLOP/s through \\(.library)\"" "$out/bench.json")" >&2
  fi
  run_exe "$out/bench-none.json" "${bench[@]}"
  if ! jq -e "$sgemm | .status == \"skipped\" and (.detail | test(\"libopenblas.dll\"))" "$out/bench-none.json" >/dev/null 2>&1; then
    fail "bench without any OpenBLAS should skip the SGEMM, naming libopenblas.dll: $(head -c 2000 "$out/bench-none.json")"
  fi
fi

echo "windows-check: exe built in ${built} s; $compared fixture trees compared; $((SECONDS - start)) s in all" >&2
if [ "$failures" -gt 0 ]; then exit 1; fi
