#!/usr/bin/env python3
"""The version of a real Windows cuDNN DLL: reads only bin/cudnn64_N.dll out of NVIDIA's
win_amd64 cuDNN wheels on PyPI (HTTP range requests on the wheel's zip: some 300 KB of a 700 MB
wheel), caches it under <cache>/cudnn-dll/<dist>-<version>/, and runs
CudnnDllVersion.RealWheelDlls, which expects each DLL's version to be its wheel's.

  run_cudnn_dll_test.py --cache DIR --unit-tests PATH

Exit 0 pass, 1 fail, 77 skipped (PyPI unreachable and nothing cached). The DLLs stay in the
cache, outside the repository (NVIDIA's license).
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import urllib.parse
import urllib.request
import zlib

SKIP = 77
WHEELS = [("nvidia-cudnn-cu11", "8.9.4.25", "nvidia/cudnn/bin/cudnn64_8.dll"),
          ("nvidia-cudnn-cu12", "9.10.2.21", "nvidia/cudnn/bin/cudnn64_9.dll")]


def get(url, start, end):
    req = urllib.request.Request(url, headers={"Range": f"bytes={start}-{end}"})
    with urllib.request.urlopen(req, timeout=60) as r:
        if r.status != 206:
            raise OSError(f"no range support ({r.status})")
        return r.read()


def member(url, name):
    """One member of a remote zip: the end of central directory, the central directory, the member."""
    req = urllib.request.Request(url, method="HEAD")
    with urllib.request.urlopen(req, timeout=60) as r:
        size = int(r.headers["Content-Length"])
    tail = get(url, max(0, size - 65536), size - 1)
    eocd = tail.rfind(b"PK\x05\x06")
    cd_size, cd_off = struct.unpack("<II", tail[eocd + 12:eocd + 20])
    if cd_off == 0xFFFFFFFF:
        loc = tail.rfind(b"PK\x06\x07")
        z64_off = struct.unpack("<Q", tail[loc + 8:loc + 16])[0]
        cd_size, cd_off = struct.unpack("<QQ", get(url, z64_off, z64_off + 55)[40:56])
    cd = get(url, cd_off, cd_off + cd_size - 1)
    p = 0
    while cd[p:p + 4] == b"PK\x01\x02":
        method = struct.unpack("<H", cd[p + 10:p + 12])[0]
        csize = struct.unpack("<I", cd[p + 20:p + 24])[0]
        nlen, elen, clen = struct.unpack("<HHH", cd[p + 28:p + 34])
        off = struct.unpack("<I", cd[p + 42:p + 46])[0]
        if cd[p + 46:p + 46 + nlen].decode() == name:
            head = get(url, off, off + 29)
            data_off = off + 30 + sum(struct.unpack("<HH", head[26:30]))
            data = get(url, data_off, data_off + csize - 1)
            return zlib.decompress(data, -15) if method == 8 else data
        p += 46 + nlen + elen + clen
    raise KeyError(name)


def fetch(cache, dist, version, name):
    folder = os.path.join(cache, "cudnn-dll", f"{dist}-{version}")
    path = os.path.join(folder, os.path.basename(name))
    if os.path.exists(path):
        return True
    try:
        meta_url = f"https://pypi.org/pypi/{dist}/json"
        with urllib.request.urlopen(meta_url, timeout=30) as r:
            meta = json.load(r)
        url = next(urllib.parse.urljoin(meta_url, u["url"]) for u in meta["releases"].get(version, [])
                   if u["filename"].endswith("win_amd64.whl"))
        data = member(url, name)
    except (OSError, KeyError, StopIteration, ValueError, zlib.error) as e:
        print(f"[cudnn-dll] cannot fetch {name} of {dist}=={version}: {e}", flush=True)
        return False
    os.makedirs(folder, exist_ok=True)
    with open(path + ".part", "wb") as out:
        out.write(data)
    os.replace(path + ".part", path)
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", required=True)
    ap.add_argument("--unit-tests", required=True)
    a = ap.parse_args()
    got = [fetch(a.cache, *w) for w in WHEELS]
    if not any(got):
        print("[cudnn-dll] SKIPPED: PyPI unreachable and no cached cuDNN DLL", flush=True)
        sys.exit(SKIP)
    env = dict(os.environ, GPUDOCTOR_CUDNN_DLL_DIR=os.path.join(a.cache, "cudnn-dll"))
    r = subprocess.run([a.unit_tests, "--gtest_filter=CudnnDllVersion.RealWheelDlls"], env=env,
                       capture_output=True, text=True)
    print(r.stdout[-2000:], flush=True)
    if r.returncode != 0 or "[  PASSED  ] 1 test" not in r.stdout or "SKIPPED" in r.stdout:
        print("[cudnn-dll] FAILED", flush=True)
        sys.exit(1)
    print(f"[cudnn-dll] ok: {sum(got)} of {len(WHEELS)} wheels' DLLs read", flush=True)


if __name__ == "__main__":
    main()
