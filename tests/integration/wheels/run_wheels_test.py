#!/usr/bin/env python3
"""Installs real framework wheels into a throwaway venv and runs wheels_detect_test on it.

  run_wheels_test.py --venv DIR --cache DIR --test-binary PATH [--no-torch]

Wheels: tensorflow (pinned), jax + jaxlib + jax-cuda12-plugin + jax-cuda12-pjrt (matching
versions), nvidia-cudnn-cu12, tensorflow-probability (pure Python, 7 MB), torch (PyPI's default Linux build, a CUDA build) unless
--no-torch or GPUDOCTOR_WHEELS_NO_TORCH=1. All with --no-deps: nothing is imported or run.

The expected facts come from the venv itself, independently of gpudoctor: versions from
`pip list` (the dist-info names), TensorFlow's build_info and torch's version.py evaluated by
the venv's own Python with runpy (which runs only that one generated file, not the framework).

Repeat runs reuse the venv while every wheel it was built from is still in the cache;
GPUDOCTOR_WHEELS_REFRESH=1 asks PyPI for newer releases (and rebuilds the venv if any).

Exit status: 0 pass, 1 fail (also when pip's output no longer names the wheel it chose), 77 skipped
(PyPI unreachable and nothing cached, no venv module).
"""
import argparse
import json
import os
import subprocess
import sys
import time

SKIP = 77
TENSORFLOW = "tensorflow==2.20.0"


def log(msg):
    print(f"[wheels] {msg}", flush=True)


def fail(msg):
    print(f"[wheels] FAILED: {msg}", flush=True)
    sys.exit(1)


def skip(msg):
    print(f"[wheels] SKIPPED: {msg}", flush=True)
    sys.exit(SKIP)


def pip(python, *args, check=True, quiet=True):
    cmd = [python, "-m", "pip", "--disable-pip-version-check"] + (["-q"] if quiet else []) + list(args)
    return subprocess.run(cmd, check=check, capture_output=True, text=True)


def wheel_files(cache):
    return {f for f in os.listdir(cache) if f.endswith(".whl")}


def download(python, cache, req, report):
    """Downloads one requirement into the cache; falls back on the cache when offline."""
    before = wheel_files(cache)
    start = time.monotonic()
    r = pip(python, "download", "--retries", "1", "--timeout", "15", "--no-deps", "--only-binary=:all:",
            "-d", cache, req, check=False, quiet=False)
    secs = time.monotonic() - start
    if r.returncode != 0:
        r = pip(python, "download", "--no-deps", "--only-binary=:all:", "--no-index",
                "--find-links", cache, "-d", cache, req, check=False, quiet=False)
        if r.returncode != 0:
            skip(f"PyPI unreachable and no cached wheel for {req}")
        log(f"{req}: PyPI unreachable, using the cached wheel")
        secs = 0.0
    # pip names the file it chose: "Saved <path>" or "File was already downloaded <path>".
    chosen = None
    for line in r.stdout.splitlines():
        line = line.strip()
        for prefix in ("Saved ", "File was already downloaded "):
            if line.startswith(prefix) and line.endswith(".whl"):
                chosen = os.path.basename(line[len(prefix):])
    if chosen is None:
        # pip's output changed (or the download did not say what it saved): the test cannot
        # know which wheel it tests, and that is a failure to look at, not a skip.
        print(r.stdout)
        fail(f"cannot tell which wheel pip chose for {req}: pip's output changed")
    new = wheel_files(cache) - before
    size = os.path.getsize(os.path.join(cache, chosen))
    report.append((req, chosen, size, secs, chosen in new))
    return chosen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--venv", required=True)
    ap.add_argument("--cache", required=True)
    ap.add_argument("--test-binary", required=True)
    ap.add_argument("--no-torch", action="store_true")
    args = ap.parse_args()
    no_torch = args.no_torch or os.environ.get("GPUDOCTOR_WHEELS_NO_TORCH") == "1"
    os.makedirs(args.cache, exist_ok=True)
    host_python = sys.executable

    # A venv built before from wheels that are all still cached is reused as it is: pip spends
    # ~15 s re-hashing 2 GB of cached wheels otherwise. GPUDOCTOR_WHEELS_REFRESH=1 asks PyPI
    # for newer releases.
    marker = os.path.join(args.venv, "gpudoctor-wheels.json")
    if os.path.exists(marker) and os.environ.get("GPUDOCTOR_WHEELS_REFRESH") != "1":
        with open(marker) as m:
            previous = json.load(m)
        torch_wanted = not no_torch
        torch_there = any(w.startswith("torch-") for w in previous)
        if torch_wanted == torch_there and all(os.path.exists(os.path.join(args.cache, w)) for w in previous):
            log("reusing the venv and cached wheels (GPUDOCTOR_WHEELS_REFRESH=1 looks for newer ones)")
            return check(args, host_python)

    report = []
    t0 = time.monotonic()
    jaxlib = download(host_python, args.cache, "jaxlib", report)
    jax_version = jaxlib.split("-")[1]
    reqs = [f"jax=={jax_version}", f"jax-cuda12-plugin=={jax_version}",
            f"jax-cuda12-pjrt=={jax_version}", TENSORFLOW, "nvidia-cudnn-cu12", "tensorflow-probability"]
    if not no_torch:
        reqs.append("torch")
    for req in reqs:
        download(host_python, args.cache, req, report)
    download_secs = time.monotonic() - t0
    total = 0
    for req, f, size, secs, fresh in report:
        total += size
        log(f"{req:28s} {f:75s} {size / 2**20:8.1f} MiB  {'%.1f s' % secs if fresh else 'cached'}")
    log(f"downloads: {total / 2**20:.0f} MiB in {download_secs:.1f} s")

    # The venv: rebuilt only when the set of wheels changes.
    wheels = sorted(f for _, f, _, _, _ in report)
    venv_python = os.path.join(args.venv, "bin", "python")
    current = None
    if os.path.exists(marker):
        with open(marker) as m:
            current = json.load(m)
    t1 = time.monotonic()
    if current != wheels:
        if os.path.exists(args.venv):
            subprocess.run(["rm", "-rf", args.venv], check=True)
        r = subprocess.run([host_python, "-m", "venv", "--without-pip", args.venv], capture_output=True, text=True)
        if r.returncode != 0:
            skip(f"cannot create a virtualenv ({r.stderr.strip()}); install python3-venv")
        # pip from the host runs against the venv through --python (pip >= 22.3) or --target-less
        # --prefix; --python keeps the venv free of pip itself, as a real --no-deps install is.
        paths = [os.path.join(args.cache, w) for w in wheels]
        r = pip(host_python, "--python", venv_python, "install", "--no-deps", "--no-index",
                "--no-compile", *paths, check=False)
        if r.returncode != 0:
            print(r.stdout, r.stderr)
            log("pip install failed")
            return 1
        with open(marker, "w") as m:
            json.dump(wheels, m)
        log(f"installed {len(wheels)} wheels in {time.monotonic() - t1:.1f} s into {args.venv}")
    else:
        log(f"venv {args.venv} already holds these wheels")
    return check(args, host_python)


def check(args, host_python):
    """Writes the expected facts from the venv itself and runs the detection test."""
    venv_python = os.path.join(args.venv, "bin", "python")
    # The expectations, from the venv itself.
    listing = json.loads(pip(host_python, "--python", venv_python, "list", "--format=json", quiet=False).stdout)
    expected = {"packages": {p["name"].lower().replace("_", "-"): p["version"] for p in listing}}
    oracle = r'''
import glob, json, os, runpy, sys, sysconfig
sp = sysconfig.get_paths()["purelib"]
out = {"site_packages": sp, "python": "%d.%d.%d" % sys.version_info[:3]}
bi = os.path.join(sp, "tensorflow", "python", "platform", "build_info.py")
if os.path.exists(bi):
    d = dict(runpy.run_path(bi)["build_info"])
    out["tensorflow_build_info"] = {k: v for k, v in d.items() if isinstance(v, (str, bool, list))}
# The cuDNN headers the wheel was built with and carries (its build_info names cuDNN's major alone).
ch = os.path.join(sp, "tensorflow", "include", "third_party", "gpus", "cudnn", "include", "cudnn_version.h")
if os.path.exists(ch):
    import re
    text = open(ch, encoding="utf-8", errors="replace").read()
    parts = [re.search(r"^#define CUDNN_%s (\d+)" % k, text, re.M) for k in ("MAJOR", "MINOR", "PATCHLEVEL")]
    if all(parts):
        out["tensorflow_cudnn_header"] = ".".join(p.group(1) for p in parts)
tv = os.path.join(sp, "torch", "version.py")
if os.path.exists(tv):
    g = runpy.run_path(tv)
    out["torch_version"] = {"version": g["__version__"], "cuda": g.get("cuda"), "hip": g.get("hip")}
# The cuDNN torch was built with: the nvidia-cudnn pin among its requirements, as pip reads them.
import importlib.metadata as md
try:
    for req in md.distribution("torch").requires or []:
        name = req.split(";")[0].replace(" ", "")
        if name.startswith("nvidia-cudnn-cu") and "==" in name:
            out["torch_cudnn_pin"] = name.split("==", 1)[1]
            break
except md.PackageNotFoundError:
    pass
# Whether the system loader alone (no venv paths) finds TensorFlow's CUDA runtime; TF is
# installed without [and-cuda], so only a system copy could give it one.
import ctypes
try:
    ctypes.CDLL("libcudart.so.12")
    out["system_has_libcudart12"] = True
except OSError:
    out["system_has_libcudart12"] = False
# Issue 10 item 2, PyTorch: the file the dynamic loader picks for each library torch's CUDA
# build links, by ldd (ld.so --list: DT_NEEDED resolved with the objects' own RPATH), in a
# fresh shell's environment (no LD_LIBRARY_PATH).
import shutil, subprocess
lib = os.path.join(sp, "torch", "lib")
if shutil.which("ldd") and os.path.exists(os.path.join(lib, "libtorch_cuda.so")):
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    found = {}
    for obj in ("libtorch_cuda.so", "libtorch_cpu.so", "libc10_cuda.so", "libtorch_cuda_linalg.so"):
        r = subprocess.run(["ldd", os.path.join(lib, obj)], capture_output=True, text=True, env=env)
        for line in r.stdout.splitlines():
            parts = line.split("=>")
            if len(parts) != 2:
                continue
            name, target = parts[0].strip(), parts[1].strip()
            found[name] = None if target.startswith("not found") else os.path.realpath(target.split(" (")[0])
    out["torch_ldd"] = found
    # The libraries torch's own objects link directly (DT_NEEDED), read with readelf.
    if shutil.which("readelf"):
        needed = set()
        for obj in ("libtorch_cuda.so", "libtorch_cpu.so", "libc10_cuda.so", "libtorch_cuda_linalg.so"):
            r = subprocess.run(["readelf", "-d", os.path.join(lib, obj)], capture_output=True, text=True)
            for line in r.stdout.splitlines():
                if "(NEEDED)" in line and "[" in line:
                    needed.add(line.split("[", 1)[1].rstrip("]"))
        out["torch_needed"] = sorted(needed)
# Issue 10 item 2, JAX: what the CUDA plugin itself loads when its backend starts
# (jax_plugins/xla_cudaNN/__init__.py's _load(module, [libs]) calls, read from the file): the
# wheel's copy under nvidia/<module>/lib when there is one, else what dlopen finds by name.
import ast, ctypes
for plugin in sorted(glob.glob(os.path.join(sp, "jax_plugins", "xla_cuda*", "__init__.py"))):
    loads = {}
    for node in ast.walk(ast.parse(open(plugin).read())):
        if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_load" and len(node.args) == 2
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[1], ast.List)):
            module = node.args[0].value
            for elt in node.args[1].elts:
                name = elt.value
                path = os.path.join(sp, "nvidia", module, "lib", name)
                if os.path.exists(path):
                    loads[name] = os.path.realpath(path)
                elif name not in loads or loads[name] is None:
                    try:
                        ctypes.CDLL(name)
                        loads[name] = "system"
                    except OSError as e:
                        # Not found is an error naming the library itself; any other means a
                        # copy was found whose own dependencies failed.
                        loads[name] = None if str(e).startswith(name + ":") else "system"
    out.setdefault("jax_plugin_loads", {}).update(loads)
# tensorflow-probability's own import checks (python/__init__.py, _validate_tf_environment), read
# with Python's parser: the TensorFlow floor it assigns and whether it imports tf_keras.
tfp = os.path.join(sp, "tensorflow_probability", "python", "__init__.py")
if os.path.exists(tfp):
    floor, tf_keras = None, False
    for node in ast.walk(ast.parse(open(tfp).read())):
        if (isinstance(node, ast.Assign) and floor is None and isinstance(node.value, ast.Constant)
                and any(getattr(t, "id", None) == "required_tensorflow_version" for t in node.targets)):
            floor = node.value.value
        if isinstance(node, ast.Import) and any(a.name == "tf_keras" for a in node.names):
            tf_keras = True
    out["tfp_import_checks"] = {"tensorflow_floor": floor, "imports_tf_keras": tf_keras}
print(json.dumps(out))
'''
    r = subprocess.run([venv_python, "-c", oracle], capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stderr)
        return 1
    expected.update(json.loads(r.stdout))
    expected_path = os.path.join(args.venv, "expected.json")
    with open(expected_path, "w") as f:
        json.dump(expected, f, indent=1)
    log(f"expected facts: {expected_path}")

    env = dict(os.environ)
    env["VIRTUAL_ENV"] = os.path.abspath(args.venv)
    env["GPUDOCTOR_WHEELS_EXPECTED"] = expected_path
    t2 = time.monotonic()
    r = subprocess.run([args.test_binary], env=env)
    log(f"detection test: exit {r.returncode} in {time.monotonic() - t2:.2f} s")
    return 0 if r.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
