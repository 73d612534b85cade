#!/usr/bin/env python3
"""Harvest knowledge-base facts from the released wheels themselves (run by hand, not in CI).

For every release of the packages below it reads, from PyPI's wheels:
  * METADATA (Requires-Python, the pinned nvidia-* wheels, companion pins such as
    torchvision's torch==X) -- from the PEP 658 `.metadata` file where PyPI offers it,
    else from the wheel's zip by HTTP range requests (the way pip's lazy wheel does);
  * torch/version.py (the CUDA tag of the default wheel) for torch;
  * tensorflow/python/platform/build_info.py (CUDA/cuDNN version, compiled SASS/PTX) for TF;
  * the cp3XY tags of the wheels actually uploaded (a Requires-Python bound is only a floor).
Wheels are never downloaded whole: a 500 MB wheel costs a few range requests.

Results go to data/harvest/artefacts.toml (one row per release and platform, each naming the
wheel it was read from and the harvest date). The documented tables in data/compat/ are then
compared against it by tests/unit/kb_harvest_test.cpp, which fails where they disagree.

A cache (default ~/.cache/gpudoctor-harvest, or $GPUDOCTOR_HARVEST_CACHE) keeps what was read
per wheel file name (wheels are immutable), so a later run only fetches new releases.

Usage: scripts/harvest-kb.py [--packages torch,tensorflow,...] [--since 2.0] [--out FILE]
Stdlib only (Python >= 3.9).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import re
import struct
import sys
import urllib.error
import urllib.parse
import urllib.request
import zlib

PYPI = "https://pypi.org/pypi/{name}/json"
TIMEOUT_S = 60
MAX_MEMBER_BYTES = 4 << 20  # METADATA, version.py and build_info.py are a few KB
MAX_TAIL_BYTES = 8 << 20  # zip central directory of a torch wheel is ~2 MB
CACHE_FORMAT = 3  # 2: members cached as raw text; 3: TF's bundled headers (their version defines)

TF_CUDA_H = "tensorflow/include/third_party/gpus/cuda/include/cuda.h"
TF_CUDNN_H = "tensorflow/include/third_party/gpus/cudnn/include/cudnn_version.h"

# Package -> which oldest release series to harvest, and which members to read.
PACKAGES = {
    "torch": {"since": "2.0", "members": ["torch/version.py"]},
    # From 2.22 build_info.py keeps only is_cuda_build; the CUDA and cuDNN headers the wheel was
    # built with still say which (cuda.h CUDA_VERSION, cudnn_version.h CUDNN_MAJOR/MINOR/PATCHLEVEL).
    "tensorflow": {"since": "2.10", "members": ["tensorflow/python/platform/build_info.py", TF_CUDA_H, TF_CUDNN_H]},
    "jax": {"since": "0.4.30", "members": []},
    "jaxlib": {"since": "0.4.30", "members": []},
    "jax-cuda12-plugin": {"since": "0.4.30", "members": []},
    "jax-cuda13-plugin": {"since": "0.7.0", "members": []},
    "torchvision": {"since": "0.15", "members": []},
    "torchaudio": {"since": "2.0", "members": []},
    "keras": {"since": "2.10", "members": []},
    "tf-keras": {"since": "2.15", "members": []},
    "tensorflow-text": {"since": "2.10", "members": []},
    # Its import checks TensorFlow's version (and from 0.24 imports tf_keras) in python/__init__.py;
    # the METADATA says nothing of TensorFlow before 0.24's `tf` extra.
    "tensorflow-probability": {"since": "0.12", "members": ["tensorflow_probability/python/__init__.py"]},
    # Its TF range lives in version.py (the METADATA extras say the same only from 0.20 on); the
    # end-of-life notice in tfa_eol_msg.py (0.20+).
    "tensorflow-addons": {"since": "0.17", "members": ["tensorflow_addons/version.py",
                                                      "tensorflow_addons/utils/tfa_eol_msg.py"]},
}

PLATFORMS = {
    "linux-x86_64": re.compile(r"manylinux.*x86_64"),
    "linux-aarch64": re.compile(r"manylinux.*aarch64"),
    "windows": re.compile(r"win_amd64"),
    "any": re.compile(r"-none-any\.whl$"),
}


def log(msg: str) -> None:
    print(msg, file=sys.stderr)


def vkey(v: str) -> tuple:
    """Sort key of a release string: numeric parts, pre-releases sort as not-a-release."""
    parts = []
    for p in re.split(r"[.+]", v):
        m = re.match(r"(\d+)(.*)", p)
        parts.append((int(m.group(1)), m.group(2)) if m else (-1, p))
    return tuple(parts)


def is_final(v: str) -> bool:
    return re.fullmatch(r"\d+(\.\d+)*(\.post\d+)?", v) is not None


class Http:
    """urllib with a User-Agent, bounded reads and Range support."""

    def get(self, url: str, rng: str | None = None, limit: int = 64 << 20) -> bytes:
        headers = {"User-Agent": "gpudoctor-harvest/1"}
        if rng:
            headers["Range"] = rng
        req = urllib.request.Request(url, headers=headers)
        with urllib.request.urlopen(req, timeout=TIMEOUT_S) as r:
            if rng and r.status != 206:
                raise IOError(f"{url}: server ignored Range (status {r.status})")
            data = r.read(limit + 1)
            if len(data) > limit:
                raise IOError(f"{url}: more than {limit} bytes")
            return data


class LazyWheel:
    """Reads single members of a remote zip with HTTP range requests (EOCD, central
    directory, local header + data), like pip's lazy_wheel."""

    def __init__(self, http: Http, url: str, size: int):
        self.http, self.url, self.size = http, url, size
        self.entries: dict[str, tuple[int, int, int, int]] | None = None

    def _range(self, start: int, end_incl: int) -> bytes:
        return self.http.get(self.url, f"bytes={start}-{end_incl}", limit=end_incl - start + 1)

    def _load_directory(self) -> None:
        tail_len = min(self.size, 65536 + 22)
        tail = self._range(self.size - tail_len, self.size - 1)
        pos = tail.rfind(b"PK\x05\x06")
        if pos < 0:
            raise IOError("no end-of-central-directory record")
        _, _, _, _, count, cd_size, cd_off, _ = struct.unpack("<IHHHHIIH", tail[pos:pos + 22])
        z64 = tail.rfind(b"PK\x06\x06", 0, pos)
        if cd_off == 0xFFFFFFFF or cd_size == 0xFFFFFFFF or count == 0xFFFF:
            if z64 < 0:
                raise IOError("zip64 wheel without zip64 EOCD in the tail")
            count, cd_size, cd_off = struct.unpack("<QQQ", tail[z64 + 32:z64 + 56])
        if cd_size > MAX_TAIL_BYTES:
            raise IOError(f"central directory of {cd_size} bytes")
        cd = self._range(cd_off, cd_off + cd_size - 1)
        entries = {}
        i = 0
        while i + 46 <= len(cd) and cd[i:i + 4] == b"PK\x01\x02":
            (method, _t, _d, _crc, csize, usize, nlen, elen, clen, _dn, _ia, _ea,
             lho) = struct.unpack("<HHHIIIHHHHHII", cd[i + 10:i + 46])
            name = cd[i + 46:i + 46 + nlen].decode("utf-8", "replace")
            extra = cd[i + 46 + nlen:i + 46 + nlen + elen]
            if 0xFFFFFFFF in (csize, usize, lho):
                j = 0
                while j + 4 <= len(extra):
                    hid, hlen = struct.unpack("<HH", extra[j:j + 4])
                    if hid == 1:
                        vals = list(struct.unpack("<%dQ" % (hlen // 8), extra[j + 4:j + 4 + (hlen // 8) * 8]))
                        if usize == 0xFFFFFFFF:
                            usize = vals.pop(0)
                        if csize == 0xFFFFFFFF:
                            csize = vals.pop(0)
                        if lho == 0xFFFFFFFF:
                            lho = vals.pop(0)
                    j += 4 + hlen
            entries[name] = (method, csize, usize, lho)
            i += 46 + nlen + elen + clen
        self.entries = entries

    def names(self) -> list[str]:
        if self.entries is None:
            self._load_directory()
        return list(self.entries)

    def read(self, name: str) -> bytes | None:
        if self.entries is None:
            self._load_directory()
        if name not in self.entries:
            return None
        method, csize, usize, lho = self.entries[name]
        if usize > MAX_MEMBER_BYTES:
            raise IOError(f"{name}: {usize} bytes")
        head = self._range(lho, lho + 29)
        nlen, elen = struct.unpack("<HH", head[26:30])
        start = lho + 30 + nlen + elen
        data = self._range(start, start + csize - 1) if csize else b""
        if method == 8:
            return zlib.decompress(data, -15)
        if method == 0:
            return data
        raise IOError(f"{name}: compression method {method}")

    def extract(self, name: str, out, chunk: int = 32 << 20) -> int:
        """Streams one (large) member into the open file out, a chunk of range request at a
        time, so a 300 MB library never sits in memory whole. Returns the bytes written."""
        if self.entries is None:
            self._load_directory()
        method, csize, usize, lho = self.entries[name]
        head = self._range(lho, lho + 29)
        nlen, elen = struct.unpack("<HH", head[26:30])
        start = lho + 30 + nlen + elen
        inflate = zlib.decompressobj(-15) if method == 8 else None
        if method not in (0, 8):
            raise IOError(f"{name}: compression method {method}")
        written = 0
        for off in range(0, csize, chunk):
            data = self._range(start + off, start + min(off + chunk, csize) - 1)
            data = inflate.decompress(data) if inflate else data
            out.write(data)
            written += len(data)
        if inflate:
            tail = inflate.flush()
            out.write(tail)
            written += len(tail)
        if written != usize:
            raise IOError(f"{name}: {written} bytes inflated, the directory says {usize}")
        return written


def parse_metadata(text: str) -> dict:
    out = {"requires_python": "", "requires_dist": []}
    for line in text.splitlines():
        if not line.strip():
            break  # the body (description) starts after the first blank line
        if line.startswith("Requires-Python:"):
            out["requires_python"] = line.split(":", 1)[1].strip()
        elif line.startswith("Requires-Dist:"):
            out["requires_dist"].append(line.split(":", 1)[1].strip())
    return out


def parse_py_assignments(text: str, dict_entries: bool = True) -> dict:
    """Simple `name = 'value'` / `name: T = 'value'` lines (torch/version.py) and TF's
    build_info dict entries, without executing anything. torch/version.py gets the first only:
    its `__all__ = [..., 'cuda', 'git_version', ...]` reads as a dict entry cuda='git_version'
    (a CPU build's `cuda: Optional[str] = None` has no quoted value), which a harvest with an
    empty cache wrote into every CPU torch row (found 2026-12-06)."""
    out = {}
    for m in re.finditer(r"^(\w+)\s*(?::[^=]*)?=\s*(['\"])(.*?)\2\s*$", text, re.M):
        out[m.group(1)] = m.group(3)
    if not dict_entries:
        return out
    # TF: `build_info = collections.OrderedDict([('cuda_version', '12.2'), ...])` (older: a dict)
    for m in re.finditer(r"['\"](\w+)['\"]\s*[:,]\s*(['\"])(.*?)\2", text):
        out.setdefault(m.group(1), m.group(3))
    for m in re.finditer(r"['\"](\w+)['\"]\s*[:,]\s*(True|False)", text):
        out.setdefault(m.group(1), m.group(2))
    caps = re.search(r"['\"]cuda_compute_capabilities['\"]\s*[:,]\s*\[([^\]]*)\]", text)
    if caps:
        out["cuda_compute_capabilities"] = re.findall(r"['\"]([^'\"]+)['\"]", caps.group(1))
    return out


def wheel_pythons(filenames: list[str]) -> list[str]:
    """CPython minors with a wheel uploaded (free-threaded 't' builds not counted)."""
    vs = set()
    for f in filenames:
        for m in re.finditer(r"-cp(\d)(\d+)-cp\d+(t?)-", f):
            if not m.group(3):
                vs.add(f"{m.group(1)}.{m.group(2)}")
    return sorted(vs, key=vkey)


def cp_minor(filename: str) -> int:
    m = re.search(r"-cp3(\d+)", filename)
    return int(m.group(1)) if m else 0


class Harvester:
    def __init__(self, cache_dir: str):
        self.http = Http()
        self.cache_dir = cache_dir
        os.makedirs(os.path.join(cache_dir, "files"), exist_ok=True)

    def _cache_path(self, filename: str) -> str:
        return os.path.join(self.cache_dir, "files", re.sub(r"[^\w.+-]", "_", filename) + ".json")

    def project(self, name: str) -> dict:
        return json.loads(self.http.get(PYPI.format(name=name)))

    def read_wheel(self, name: str, f: dict, members: list[str]) -> dict:
        path = self._cache_path(f["filename"])
        if os.path.exists(path):
            with open(path, encoding="utf-8") as fh:
                cached = json.load(fh)
            if cached.get("format") == CACHE_FORMAT or not members:
                return cached
        url = urllib.parse.urljoin(PYPI.format(name=name), f["url"])
        rec = {"wheel": f["filename"], "sha256": f.get("digests", {}).get("sha256", ""), "read": [],
               "format": CACHE_FORMAT}
        meta_text = None
        if f.get("core-metadata") or f.get("data-dist-info-metadata"):
            try:
                meta_text = self.http.get(url + ".metadata", limit=MAX_MEMBER_BYTES).decode("utf-8", "replace")
                rec["read"].append("METADATA (PEP 658)")
            except (urllib.error.URLError, IOError) as e:
                log(f"  {f['filename']}: .metadata: {e}; reading the zip")
        lazy = LazyWheel(self.http, url, int(f["size"]))
        if meta_text is None:
            dist = [n for n in lazy.names() if re.fullmatch(r"[^/]+\.dist-info/METADATA", n)]
            if not dist:
                raise IOError(f"{f['filename']}: no .dist-info/METADATA")
            meta_text = lazy.read(dist[0]).decode("utf-8", "replace")
            rec["read"].append("METADATA")
        rec.update(parse_metadata(meta_text))
        for m in members:
            data = lazy.read(m)
            if data is not None:
                rec["read"].append(m)
                text = data.decode("utf-8", "replace")
                if m.endswith(".h"):  # a 1 MB header: only its version defines are wanted
                    text = "\n".join(l for l in text.splitlines() if re.match(r"#define (CUDA_VERSION|CUDNN_)", l))
                rec.setdefault("files", {})[m] = text  # raw: parsed in facts()
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(rec, fh, indent=1, sort_keys=True)
        os.replace(tmp, path)
        return rec

    def harvest(self, name: str, since: str, members: list[str]) -> list[dict]:
        proj = self.project(name)
        rows = []
        for version, files in sorted(proj["releases"].items(), key=lambda kv: vkey(kv[0])):
            if not is_final(version) or vkey(version) < vkey(since):
                continue
            files = [f for f in files if f["filename"].endswith(".whl") and not f.get("yanked")]
            if not files:
                continue
            pythons = wheel_pythons([f["filename"] for f in files])
            for plat, rx in PLATFORMS.items():
                cands = [f for f in files if rx.search(f["filename"])]
                if not cands:
                    continue
                # One wheel per platform: the newest non-free-threaded CPython build.
                cands.sort(key=lambda f: (not re.search(r"-cp\d+t-", f["filename"]), cp_minor(f["filename"])))
                f = cands[-1]
                try:
                    rec = self.read_wheel(name, f, members)
                except (urllib.error.URLError, IOError, ValueError, zlib.error, struct.error) as e:
                    log(f"  {name} {version} {plat}: {e}")
                    continue
                row = {"package": name, "version": version, "platform": plat,
                       "pythons": [p for p in pythons if any(rx.search(x["filename"]) and
                                                             f"-cp{p.replace('.', '')}-" in x["filename"]
                                                             for x in files)],
                       **rec}
                rows.append(row)
            log(f"{name} {version}: {len([r for r in rows if r['version'] == version])} platform(s)")
        return rows


# ---- Facts from the raw records -------------------------------------------------------------

def pin(requires: list[str], pattern: str) -> str:
    """The version of the first Requires-Dist matching pattern: '==9.19.0.56' -> '9.19.0.56',
    other specifiers returned whole ('>=9.8,<10.0')."""
    for r in requires:
        m = re.match(r"\s*(?:" + pattern + r")(?![\w.-])(?:\[[^\]]*\])?\s*\(?(?P<spec>[^;)]*)\)?", r)
        if m:
            spec = m.group("spec").strip()
            return spec[2:] if spec.startswith("==") and "," not in spec else spec
    return ""


def extra_of(req: str) -> str:
    """The extra a requirement belongs to, normalised as PEP 685 says: older METADATA writes
    `extra == 'with_cuda'` where newer writes `with-cuda` (jax-cuda12-plugin 0.4.30-0.5.1)."""
    m = re.search(r"extra\s*==\s*['\"]([^'\"]+)['\"]", req)
    return re.sub(r"[-_.]+", "-", m.group(1)).lower() if m else ""


PLATFORM_ENV = {
    "linux-x86_64": {"platform_system": "Linux", "sys_platform": "linux", "platform_machine": "x86_64"},
    "linux-aarch64": {"platform_system": "Linux", "sys_platform": "linux", "platform_machine": "aarch64"},
    "windows": {"platform_system": "Windows", "sys_platform": "win32", "platform_machine": "AMD64"},
}


def applies(req: str, platform: str) -> bool:
    """False when the requirement's marker names another system or machine than platform.
    Only the ==/!= comparisons of these three variables are read; anything else applies."""
    env = PLATFORM_ENV.get(platform)
    if env is None or ";" not in req:
        return True
    marker = req.split(";", 1)[1]
    for var, op, val in re.findall(r"(platform_system|sys_platform|platform_machine)\s*(==|!=)\s*['\"]([^'\"]*)['\"]",
                                   marker):
        same = env[var].lower() == val.lower()
        if (op == "==" and not same and " or " not in marker) or (op == "!=" and same):
            return False
    return True


def facts(row: dict) -> dict:
    req = [r for r in row.get("requires_dist", []) if applies(r, row["platform"])]
    base = [r for r in req if not extra_of(r)]
    out = {}
    files = {k: parse_py_assignments(v, dict_entries=k != "torch/version.py")
             for k, v in row.get("files", {}).items() if isinstance(v, str)}
    name = row["package"]
    if name == "torch":
        vp = files.get("torch/version.py", {})
        if "torch/version.py" in files:
            out["cuda"] = vp.get("cuda", "cpu")  # `cuda: Optional[str] = None` on CPU builds
        out["cudnn"] = pin(base, r"nvidia-cudnn-cu\d+")
        out["nccl"] = pin(base, r"nvidia-nccl-cu\d+")
        out["triton"] = pin(base, r"triton")
    elif name == "tensorflow":
        bi = files.get("tensorflow/python/platform/build_info.py", {})
        out["is_cuda_build"] = bi.get("is_cuda_build", "")
        out["cuda"] = bi.get("cuda_version", "cpu" if bi and bi.get("is_cuda_build") != "True" else "")
        out["cudnn"] = bi.get("cudnn_version", "")
        raw = row.get("files", {})
        if bi.get("is_cuda_build") == "True" and not out["cuda"]:
            m = re.search(r"^#define CUDA_VERSION (\d+)", raw.get(TF_CUDA_H, ""), re.M)
            out["cuda"] = f"{int(m.group(1)) // 1000}.{int(m.group(1)) % 1000 // 10}" if m else ""
        if bi.get("is_cuda_build") == "True" and not out["cudnn"]:
            d = [re.search(rf"^#define CUDNN_{k} (\d+)", raw.get(TF_CUDNN_H, ""), re.M)
                 for k in ("MAJOR", "MINOR", "PATCHLEVEL")]
            out["cudnn"] = ".".join(x.group(1) for x in d) if all(d) else ""
        out["archs"] = bi.get("cuda_compute_capabilities", [])
        and_cuda = [r for r in req if extra_of(r) == "and-cuda"]
        out["and_cuda_cudnn"] = pin(and_cuda, r"nvidia-cudnn-cu\d+")
        out["and_cuda_cudart"] = pin(and_cuda, r"nvidia-cuda-runtime-cu\d+")
        out["keras"] = pin(base, r"keras")
    elif name in ("torchvision", "torchaudio"):
        out["torch"] = pin(base, r"torch")
    elif name == "jax":
        out["jaxlib"] = pin(base, r"jaxlib")
        for extra in ("cuda12", "cuda13"):
            out[f"{extra}_plugin"] = pin([r for r in req if extra_of(r) == extra], r"jax-%s-plugin" % extra)
    elif name.startswith("jax-cuda"):
        wc = [r for r in req if extra_of(r) == "with-cuda"]
        out["cudnn"] = pin(wc, r"nvidia-cudnn-cu\d+")
        out["cudart"] = pin(wc, r"nvidia-cuda-runtime(-cu\d+)?")
    elif name in ("tf-keras", "tensorflow-text"):
        out["tensorflow"] = pin(base, r"tensorflow")
    elif name == "tensorflow-addons":
        vp = files.get("tensorflow_addons/version.py", {})
        lo = vp.get("INCLUSIVE_MIN_TF_VERSION") or vp.get("MIN_TF_VERSION", "")
        hi = vp.get("EXCLUSIVE_MAX_TF_VERSION") or vp.get("MAX_TF_VERSION", "")
        out["tensorflow"] = f">={lo},<{hi}" if lo and hi else ""
        eol = re.search(r"end of life in (\w+ \d{4})", row.get("files", {}).get("tensorflow_addons/utils/tfa_eol_msg.py", ""))
        out["end_of_life"] = eol.group(1) if eol else ""
    elif name == "tensorflow-probability":
        # TFP asks for TensorFlow only through its `tf` extra (tensorflow>=X, tf-keras>=X).
        tf = [r for r in req if extra_of(r) == "tf"]
        out["tensorflow"] = pin(tf, r"tensorflow")
        out["tf_keras"] = pin(tf, r"tf-keras")
        # What _validate_tf_environment refuses: a TensorFlow below required_tensorflow_version
        # (the commented `#   required_tensorflow_version = '1.15'` is the internal build's).
        init = row.get("files", {}).get("tensorflow_probability/python/__init__.py", "")
        floor = re.search(r"^[ \t]*required_tensorflow_version\s*=\s*['\"]([^'\"]+)['\"]", init, re.M)
        out["import_tensorflow_floor"] = floor.group(1) if floor else ""
        if init:
            out["import_tf_keras"] = "yes" if re.search(r"^[ \t]*import tf_keras\b", init, re.M) else "no"
    return {k: v for k, v in out.items() if v not in ("", [], None)}


# ---- TOML output (stdlib has a reader, not a writer) ------------------------------------------

def toml_value(v) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    s = str(v).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{s}"'


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--packages", default=",".join(PACKAGES))
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "data", "harvest", "artefacts.toml"))
    ap.add_argument("--cache", default=os.environ.get("GPUDOCTOR_HARVEST_CACHE",
                                                      os.path.expanduser("~/.cache/gpudoctor-harvest")))
    ap.add_argument("--dump", action="store_true", help="print the raw records as JSON instead of writing")
    ap.add_argument("--jax-releases", action="store_true",
                    help="print data/compat/jax.toml's [[release]] rows from the harvest file (no network)")
    ap.add_argument("--torch-elf", metavar="VERSION",
                    help="read the compiled architectures of PyPI's torch==VERSION (Linux x86_64) from "
                         "torch/lib/libtorch_cuda.so with cuobjdump ($CUOBJDUMP, else the CUDA toolkit's)")
    ap.add_argument("--cudnn", metavar="SINCE",
                    help="read cuDNN's wheels (nvidia-cudnn-cu12/-cu13) from release SINCE on: METADATA, "
                         "cudnn_version.h and the architectures of libcudnn_engines_precompiled.so.9 (cuobjdump)")
    ap.add_argument("--cudnn-rows", action="store_true",
                    help="print data/compat/cudnn.toml's harvested [[build]] rows from the harvest file (no network)")
    ap.add_argument("--jax-elf", metavar="SINCE",
                    help="read the architectures of the JAX PJRT plugins (jax-cuda12/13-pjrt, xla_cuda_plugin.so) "
                         "from release SINCE on (cuobjdump)")
    ap.add_argument("--all-patches", action="store_true", help="with --cudnn: every patch release, not the newest of each minor")
    ap.add_argument("--driver-branches", nargs="+", metavar="SUITE=DEB",
                    help="write data/compat/driver_branches.toml from the supported-gpus.json of NVIDIA driver .debs "
                         "already downloaded with `apt-get download` (each given as the apt suite it came from, '=', "
                         "its path): which driver branch last supports each PCI device id")
    ap.add_argument("--branches-out", default=os.path.join(os.path.dirname(__file__), "..", "data", "compat",
                                                           "driver_branches.toml"))
    args = ap.parse_args()
    if args.driver_branches:
        return driver_branches(args.driver_branches, args.branches_out)
    if args.cudnn:
        return elf_harvest(Harvester(args.cache), args.cache, "cudnn", args.cudnn, args.out, args.all_patches)
    if args.jax_elf:
        return elf_harvest(Harvester(args.cache), args.cache, "jax", args.jax_elf, args.out, args.all_patches)
    if args.cudnn_rows:
        print(cudnn_rows(args.out))
        return 0
    if args.jax_releases:
        print(jax_release_rows(args.out))
        return 0
    if args.torch_elf:
        return torch_elf(Harvester(args.cache), args.cache, args.torch_elf, args.out)
    h = Harvester(args.cache)
    today = _dt.date.today().isoformat()
    # Keep the rows of packages not harvested this run (a partial run must not drop them).
    previous = []
    if os.path.exists(args.out):
        import tomllib  # Python >= 3.11; only needed to merge with an earlier harvest
        with open(args.out, "rb") as fh:
            previous = tomllib.load(fh).get("artefact", [])
    wanted = [p.strip() for p in args.packages.split(",") if p.strip()]
    rows = []
    for name in wanted:
        if name not in PACKAGES:
            log(f"unknown package {name}")
            return 2
        rows += h.harvest(name, PACKAGES[name]["since"], PACKAGES[name]["members"])
    if args.dump:
        json.dump(rows, sys.stdout, indent=1)
        return 0
    # Rows already harvested keep their first harvest date.
    first_seen = {(r["package"], r["version"], r["platform"]): r.get("harvested", today) for r in previous}
    for r in rows:
        r["harvested"] = first_seen.get((r["package"], r["version"], r["platform"]), today)
    kept = [r for r in previous if r["package"] not in wanted]
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    write_merged(args.out, kept, rows, today)
    return 0


def torch_elf(h: "Harvester", cache: str, version: str, out_path: str) -> int:
    """The SASS/PTX lists of one PyPI torch wheel. The list lives only in the binary, so the one
    member (about 650 MB compressed) is fetched by range requests, listed and deleted; the lists are
    cached as text. An architecture counts when every kernel set has it: a few single kernels for
    sm_89 or the arch-specific sm_90a/100a/120a do not make a build "for" that GPU."""
    import subprocess
    import tempfile
    tool = os.environ.get("CUOBJDUMP", "/usr/local/cuda/bin/cuobjdump")
    # cp312 where there is one (the lists recorded so far), else the newest CPython the release
    # has (2.0.1 ends at cp311); the source names the wheel that was read.
    files = [f for f in h.project("torch")["releases"].get(version, [])
             if re.search(r"-cp3\d+-cp3\d+-manylinux", f["filename"]) and f["filename"].endswith("x86_64.whl")]
    if not files:
        log(f"torch {version}: no CPython Linux x86_64 wheel on PyPI")
        return 2
    f = max(files, key=lambda f: (cp_minor(f["filename"]) == 12, cp_minor(f["filename"])))
    done = os.path.join(cache, "elf", f["filename"] + ".json")
    if not os.path.exists(done):
        url = urllib.parse.urljoin(PYPI.format(name="torch"), f["url"])
        wheel = LazyWheel(h.http, url, f["size"])
        member = next(n for n in wheel.names() if n.endswith("lib/libtorch_cuda.so"))
        global MAX_MEMBER_BYTES
        MAX_MEMBER_BYTES = 4 << 30
        os.makedirs(os.path.dirname(done), exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=os.path.dirname(done), suffix=".so") as so:
            so.write(wheel.read(member))
            so.flush()
            lists = {}
            for kind in ("elf", "ptx"):
                run = subprocess.run([tool, f"--list-{kind}", so.name], capture_output=True, text=True,
                                     check=False, timeout=600)
                out = run.stdout
                # A cuobjdump that stops part way lists a few cubins and exits 1 ("Invalid ELF" from
                # CUDA 13's on CUDA 12.1 builds, "Support for 'sm_37' has been removed"): no list.
                if run.returncode != 0 and "No PTX file found" not in run.stderr:
                    log(f"{f['filename']}: {tool} --list-{kind} failed: {run.stderr.strip()[:300]}")
                    return 2
                counts: dict[str, int] = {}
                for arch in re.findall(r"\.(sm_\d+[a-z]?)\.", out):
                    counts[arch] = counts.get(arch, 0) + 1
                lists[kind] = counts
        with open(done, "w") as fh:
            json.dump({"wheel": f["filename"], "member": member, "tool": tool, **lists}, fh)
    with open(done) as fh:
        r = json.load(fh)
    full = max(r["elf"].values(), default=0)
    sass = sorted((a for a, n in r["elf"].items() if n == full), key=lambda a: int(re.sub(r"\D", "", a)))
    partial = [f"{a}({n})" for a, n in r["elf"].items() if n != full]
    print(f'{r["wheel"]} {r["member"]}: SASS {" ".join(sass)}; PTX {" ".join(sorted(r["ptx"])) or "none"}; '
          f'partial: {" ".join(partial) or "none"}')

    def cc(arch: str) -> str:
        n = re.sub(r"\D", "", arch)
        return f"{n[:-1]}.{n[-1]}"

    # One row per release in the harvest file, beside the METADATA rows (kept across harvests).
    import tomllib
    today = _dt.date.today().isoformat()
    with open(out_path, "rb") as fh:
        previous = tomllib.load(fh).get("artefact", [])
    kept = [d for d in previous if (d["package"], d["version"]) != ("torch-elf", version)]
    kept.append({"package": "torch-elf", "version": version, "platform": "linux-x86_64",
                 "sass": [cc(a) for a in sass], "ptx": sorted(cc(a) for a in r["ptx"]), "partial": partial,
                 "source": f'[artefact] {r["wheel"]} {r["member"]} (cuobjdump --list-elf / --list-ptx)',
                 "harvested": today})
    write_merged(out_path, kept, [], today)
    return 0


CUDNN_HEADER = "nvidia/cudnn/include/cudnn_version.h"
# Wheels whose compiled architectures live only in a binary: which packages, which member holds
# the kernels (cuDNN: the precompiled engines; JAX: the PJRT plugin XLA runs on), which header.
ELF_SETS = {
    "cudnn": {"packages": ["nvidia-cudnn-cu12", "nvidia-cudnn-cu13"],
              "member": r"nvidia/cudnn/lib/libcudnn_engines_precompiled\.so\.9", "header": CUDNN_HEADER},
    "jax": {"packages": ["jax-cuda12-pjrt", "jax-cuda13-pjrt"],
            "member": r"jax_plugins/xla_cuda\d+/xla_cuda_plugin\.so", "header": None},
}


def cuobjdump_counts(tool: str, path: str) -> dict:
    """Kernel images per architecture, {"elf": {"sm_80": n, ...}, "ptx": {...}}."""
    import subprocess
    lists = {}
    for kind in ("elf", "ptx"):
        out = subprocess.run([tool, f"--list-{kind}", path], capture_output=True, text=True,
                             check=False, timeout=1800).stdout
        counts: dict[str, int] = {}
        for arch in re.findall(r"\.((?:sm|compute)_\d+[a-z]?)\.", out):
            arch = arch.replace("compute_", "sm_")
            counts[arch] = counts.get(arch, 0) + 1
        lists[kind] = counts
    return lists


def arch_cc(arch: str) -> str:
    """sm_90a -> 9.0a, sm_100 -> 10.0 (the suffix kept: arch-specific code runs on that CC only)."""
    m = re.fullmatch(r"sm_(\d+)(\d)([a-z]?)", arch)
    return f"{m.group(1)}.{m.group(2)}{m.group(3)}" if m else arch


def elf_harvest(h: "Harvester", cache: str, kind: str, since: str, out_path: str, all_patches: bool = False) -> int:
    """The wheels of ELF_SETS[kind] (cuDNN: nvidia-cudnn-cu12/-cu13; JAX: jax-cuda12/13-pjrt), Linux
    x86_64, every final release from since on: METADATA (Requires-Dist), cudnn_version.h for cuDNN,
    and the SASS/PTX architectures of the kernel library (fetched by range requests into a scratch
    file, listed with cuobjdump, deleted). The lists are cached per wheel; rows go to the harvest
    file. Only the newest patch of each minor unless all_patches (a knowledge-base row is per minor;
    each wheel costs a 150-500 MB download)."""
    import tempfile
    import tomllib
    tool = os.environ.get("CUOBJDUMP", "/usr/local/cuda/bin/cuobjdump")
    today = _dt.date.today().isoformat()
    with open(out_path, "rb") as fh:
        previous = tomllib.load(fh).get("artefact", [])
    first_seen = {(d["package"], d["version"]): d.get("harvested", today) for d in previous}
    new_rows = []
    spec = ELF_SETS[kind]
    for name in spec["packages"]:
        releases = {v: fs for v, fs in h.project(name)["releases"].items()
                    if is_final(v) and vkey(v) >= vkey(since) and any(not f.get("yanked") for f in fs)}
        newest: dict[tuple, str] = {}  # the newest patch of each minor (a row is per minor)
        for v in releases:
            m = tuple(vkey(v)[:2])
            if m not in newest or vkey(v) > vkey(newest[m]):
                newest[m] = v
        for version, files in sorted(releases.items(), key=lambda kv: vkey(kv[0])):
            if version not in newest.values() and not all_patches:
                continue
            f = next((f for f in files if f["filename"].endswith("x86_64.whl") and "manylinux" in f["filename"]
                      and not f.get("yanked")), None)
            if f is None:
                continue
            done = os.path.join(cache, "elf", f["filename"] + ".json")
            if not os.path.exists(done):
                url = urllib.parse.urljoin(PYPI.format(name=name), f["url"])
                wheel = LazyWheel(h.http, url, int(f["size"]))
                meta = next(n for n in wheel.names() if re.fullmatch(r"[^/]+\.dist-info/METADATA", n))
                member = next(n for n in wheel.names() if re.fullmatch(spec["member"], n))
                rec = {"wheel": f["filename"], "sha256": f.get("digests", {}).get("sha256", ""),
                       "member": member, "tool": tool,
                       **parse_metadata(wheel.read(meta).decode("utf-8", "replace"))}
                if spec["header"]:
                    header = wheel.read(spec["header"]).decode("utf-8", "replace")
                    rec["header"] = ".".join(re.search(r"#define\s+CUDNN_%s\s+(\d+)" % k, header).group(1)
                                             for k in ("MAJOR", "MINOR", "PATCHLEVEL"))
                os.makedirs(os.path.dirname(done), exist_ok=True)
                with tempfile.NamedTemporaryFile(dir=os.path.dirname(done), suffix=".so") as so:
                    wheel.extract(member, so)
                    so.flush()
                    rec.update(cuobjdump_counts(tool, so.name))
                if not rec["elf"]:
                    log(f"{f['filename']}: cuobjdump listed nothing (is {tool} a working cuobjdump?)")
                    return 2
                with open(done + ".tmp", "w") as fh:
                    json.dump(rec, fh, indent=1, sort_keys=True)
                os.replace(done + ".tmp", done)
            with open(done) as fh:
                r = json.load(fh)
            order = lambda a: (int(re.sub(r"\D", "", a)), a)  # noqa: E731
            generic = sorted((a for a in r["elf"] if re.fullmatch(r"sm_\d+", a)), key=order)
            specific = sorted((a for a in r["elf"] if not re.fullmatch(r"sm_\d+", a)), key=order)
            major = re.search(r"-cu(?:da)?(\d+)", name).group(1)
            cuda_req = [q for q in r.get("requires_dist", []) if q.startswith("nvidia-")]
            log(f"{name} {version}: SASS {' '.join(generic)} (+{' '.join(specific) or 'none'}); "
                f"PTX {' '.join(sorted(r['ptx'], key=order)) or 'none'}; requires {cuda_req}")
            row = {"package": name, "version": version, "platform": "linux-x86_64", "cuda_major": major}
            if r.get("header"):
                row["header"] = r["header"]
            if cuda_req:
                row["requires"] = cuda_req
            read = ", ".join(["METADATA"] + ([spec["header"]] if spec["header"] else []))
            row.update({"sass": [arch_cc(a) for a in generic], "arch_specific": [arch_cc(a) for a in specific],
                        "ptx": [arch_cc(a) for a in sorted(r["ptx"], key=order)], "sha256": r["sha256"],
                        "source": f'[artefact] {r["wheel"]} (sha256 {r["sha256"]}): {read}, '
                                  f'{r["member"]} (cuobjdump --list-elf / --list-ptx)',
                        "harvested": first_seen.get((name, version), today)})
            new_rows.append(row)
    done_keys = {(d["package"], d["version"]) for d in new_rows}
    kept = [d for d in previous if (d["package"], d["version"]) not in done_keys]
    write_merged(out_path, kept + new_rows, [], today)
    return 0


def cudnn_rows(path: str) -> str:
    """data/compat/cudnn.toml's [[build]] rows, one per cuDNN minor and CUDA major, from the harvested
    nvidia-cudnn-cuNN rows (the newest patch of each minor): cc = the SASS architectures of the
    precompiled engines. The wheel names only its CUDA major, so the CUDA range is "NN.x" and the
    driver floors are that major's minor-version-compatibility minimum (cuda_drivers.toml), both
    marked [derived]."""
    import tomllib
    with open(path, "rb") as fh:
        rows = [r for r in tomllib.load(fh).get("artefact", []) if r["package"].startswith("nvidia-cudnn-cu")]
    with open(os.path.join(os.path.dirname(os.path.abspath(path)), "..", "compat", "cuda_drivers.toml"), "rb") as fh:
        families = {f["cuda"]: f for f in tomllib.load(fh).get("family", [])}
    # Minors NVIDIA's support matrix was copied for keep those rows (the harvest test checks them).
    with open(os.path.join(os.path.dirname(os.path.abspath(path)), "..", "compat", "cudnn.toml"), "rb") as fh:
        documented = {(b["cuda_major"], b["cudnn"]) for b in tomllib.load(fh).get("build", [])
                      if not b["source"].startswith("[artefact]")}
    newest: dict[tuple, dict] = {}
    for r in rows:
        if (r["cuda_major"], ".".join(r["version"].split(".")[:2])) in documented:
            continue
        key = (r["cuda_major"], tuple(vkey(r["version"])[:2]))
        if key not in newest or vkey(r["version"]) > vkey(newest[key]["version"]):
            newest[key] = r
    out = []
    for (major, _), r in sorted(newest.items(), key=lambda kv: (vkey(kv[1]["version"]), kv[0][0]), reverse=True):
        fam = families[major]
        minor = ".".join(r["version"].split(".")[:2])
        extra = "; ".join(x for x in (f'arch-specific SASS {" ".join(r["arch_specific"])}' if r.get("arch_specific") else "",
                                      f'PTX {" ".join(r["ptx"])}' if r.get("ptx") else "") if x)
        out += ["", "[[build]]", f'cudnn = "{minor}"', f'cuda_major = "{major}"', f'cuda = "{major}.x"',
                f'linux = "{fam["linux"]}"', f'windows = "{fam["windows"]}"',
                "cc = [" + ", ".join(f'"{c}"' for c in r["sass"]) + "]",
                f'note = "cc: the SASS in libcudnn_engines_precompiled.so.9 of {r["version"]}' +
                (f" ({extra})" if extra else "") + f". The wheel names only its CUDA major (nvidia-cudnn-cu{major}): "
                f'the CUDA range {major}.x and the driver floors (the {major}.x minor-version-compatibility minimum) '
                'are derived, not NVIDIA\'s support matrix."',
                f'source = "[artefact] {r["source"].removeprefix("[artefact] ")}, harvested {r["harvested"]}; '
                f'[derived] cuda and drivers: cuda_drivers.toml [[family]] {major} ({fam["source"]})"']
    return "\n".join(out)


def jax_release_rows(path: str) -> str:
    """Runs of JAX releases sharing Python range, extras and the extras' cuDNN floors."""
    import tomllib
    with open(path, "rb") as fh:
        rows = tomllib.load(fh).get("artefact", [])

    def row(pkg: str, ver: str, plat: str = "linux-x86_64") -> dict | None:
        return next((r for r in rows if r["package"] == pkg and r["version"] == ver and r["platform"] == plat), None)

    def in_spec(ver: str, spec: str) -> bool:
        for clause in filter(None, (c.strip() for c in spec.split(","))):
            op, bound = clause[:2], clause[2:]
            if op == ">=" and vkey(ver) < vkey(bound) or op == "<=" and vkey(ver) > vkey(bound):
                return False
            if op == "==" and vkey(ver) != vkey(clause[2:]):
                return False
        return bool(spec)

    def plugin_for(extra: str, spec: str) -> dict | None:
        """The newest plugin wheel that jax's pin accepts (jax-only releases reuse an older one)."""
        found = [r for r in rows if r["package"] == f"jax-{extra}-plugin" and r["platform"] == "linux-x86_64"
                 and in_spec(r["version"], spec)]
        return max(found, key=lambda r: vkey(r["version"])) if found else None

    runs: list[list] = []
    for j in sorted((r for r in rows if r["package"] == "jax"), key=lambda r: vkey(r["version"])):
        v = j["version"]
        lib = row("jaxlib", v)
        floor = j.get("requires_python", "").replace(">=", "")
        extras, cudnn = [], {}
        for e in ("cuda12", "cuda13"):
            p = plugin_for(e, j.get(f"{e}_plugin", ""))
            if p:
                extras.append(e)
                if p.get("cudnn"):
                    parts = sorted(p["cudnn"].split(","), key=lambda x: not x.startswith(">"))
                    cudnn[e] = ",".join(parts)
        top = lib["pythons"][-1] if lib and lib.get("pythons") else (runs[-1][1][1] if runs else floor)
        key = ((floor, top), tuple(extras), tuple(sorted(cudnn.items())))
        if runs and runs[-1][1:] == list(key):
            runs[-1][0].append(v)
        else:
            runs.append([[v], *key])
    out = []
    for versions, (floor, top), extras, cudnn in runs:
        lo, hi = versions[0], versions[-1]
        rng = lo if lo == hi else f"{lo}..{hi}"
        plugins = " ".join(f"jax_{e}_plugin" for e in extras)
        out += ["", "[[release]]", f'versions = ">={lo},<={hi}"', f'python = "{floor}-{top}"',
                "extras = [" + ", ".join(f'"{e}"' for e in extras) + "]"]
        out += [f'{e}_cudnn = "{c}"' for e, c in cudnn]
        out += [f'source = "[artefact] jax-{rng} METADATA (Requires-Python), jaxlib-{rng} cp3XY wheels, '
                f'{plugins} METADATA (with-cuda extra), harvested {_dt.date.today().isoformat()}"',
                f'harvested = "{_dt.date.today().isoformat()}"']
    return "\n".join(out)


def write_merged(path: str, kept: list[dict], rows: list[dict], today: str) -> None:
    """kept rows are already facts (from the previous file); rows are raw records."""
    lines_rows = []
    for r in rows:
        d = {"package": r["package"], "version": r["version"], "platform": r["platform"]}
        if r.get("requires_python"):
            d["requires_python"] = r["requires_python"]
        if r.get("pythons"):
            d["pythons"] = r["pythons"]
        d.update(facts(r))
        d["source"] = "[artefact] " + r["wheel"] + " " + ", ".join(r["read"])
        d["harvested"] = r["harvested"]
        lines_rows.append(d)
    all_rows = kept + lines_rows
    all_rows.sort(key=lambda d: (list(PACKAGES).index(d["package"]) if d["package"] in PACKAGES else 99, d["package"],
                                 vkey(d["version"]), d["platform"]))
    lines = [
        "# Facts read from the released wheels by scripts/harvest-kb.py: generated, do not edit.",
        "# One row per release and platform; `source` names the wheel and the members read.",
        "# tests/unit/kb_harvest_test.cpp fails where data/compat/ disagrees with a row here.",
        f'harvested = "{today}"',
        "",
    ]
    for d in all_rows:
        lines.append("[[artefact]]")
        for k, v in d.items():
            lines.append(f"{k} = {toml_value(v)}")
        lines.append("")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines))
    os.replace(tmp, path)


# ---- Driver branches from NVIDIA's own supported-gpus.json (Debian's driver packages) ----------

# Debian suites -> the release a user has in /etc/os-release (VERSION_ID); sid/experimental: none.
DEBIAN_SUITES = {"bookworm": "12", "bookworm-security": "12", "bookworm-updates": "12", "bookworm-backports": "12",
                 "trixie": "13", "trixie-security": "13", "trixie-updates": "13", "trixie-backports": "13"}
MAX_JSON_BYTES = 16 << 20


def deb_supported_gpus(deb: str) -> tuple[dict, str, list]:
    """The control fields, the member path and the chips of supported-gpus.json in one .deb, read
    from its data archive without unpacking it (dpkg-deb --fsys-tarfile)."""
    import gzip
    import subprocess
    import tarfile
    fields = {}
    for k in ("Package", "Version", "Source"):
        fields[k] = subprocess.run(["dpkg-deb", "-f", deb, k], check=True, capture_output=True,
                                   text=True).stdout.strip()
    proc = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", deb], stdout=subprocess.PIPE)
    member, chips = "", None
    with tarfile.open(fileobj=proc.stdout, mode="r|") as tar:
        for ti in tar:
            name = ti.name.removeprefix("./")
            if not ti.isfile() or not re.search(r"/supported-gpus\.json(\.gz)?$", name):
                continue
            if ti.size > MAX_JSON_BYTES:
                raise IOError(f"{deb}: {name} is {ti.size} bytes")
            raw = tar.extractfile(ti).read(MAX_JSON_BYTES + 1)
            if name.endswith(".gz"):
                raw = gzip.decompress(raw)
            member, chips = name, json.loads(raw)["chips"]
    proc.wait()
    if chips is None:
        raise IOError(f"{deb}: no supported-gpus.json")
    return fields, member, chips


def driver_branches(args: list[str], out_path: str) -> int:
    """data/compat/driver_branches.toml: per legacy branch ("470.xx"), the PCI device ids NVIDIA's
    newer drivers no longer drive (supported-gpus.json `legacybranch`), and which Debian package of
    each stable release carries a branch. Every package read must agree on every device; a device one
    package calls legacy and another drives would stop the harvest."""
    import hashlib
    reads = []
    for a in args:
        suite, _, deb = a.partition("=")
        if not deb or not os.path.isfile(deb):
            log(f"expected SUITE=PATH.deb, got {a}")
            return 2
        with open(deb, "rb") as fh:
            sha = hashlib.sha256(fh.read()).hexdigest()
        fields, member, chips = deb_supported_gpus(deb)
        per_dev: dict[str, set] = {}
        for c in chips:
            dev = c["devid"].lower().removeprefix("0x")
            if not re.fullmatch(r"[0-9a-f]{4}", dev):
                raise ValueError(f"{deb}: devid {c['devid']!r}")
            per_dev.setdefault(dev, set()).add(c.get("legacybranch", ""))
        reads.append({"suite": suite, "package": fields["Package"], "version": fields["Version"], "sha256": sha,
                      "member": member, "file": os.path.basename(deb), "devices": per_dev})
        log(f"{fields['Package']} {fields['Version']}: {len(chips)} chips, {len(per_dev)} device ids")
    # The branch each device last had, and every disagreement.
    last: dict[str, str] = {}
    bad = []
    for r in reads:
        for dev, branches in r["devices"].items():
            legacy = {b for b in branches if b}
            if len(branches) > 1:
                bad.append(f"{r['package']} {r['version']}: {dev} both {sorted(branches)}")
            for b in legacy:
                if last.setdefault(dev, b) != b:
                    bad.append(f"{dev}: {last[dev]} and {b} ({r['package']} {r['version']})")
    for r in reads:
        for dev, branches in r["devices"].items():
            # Driven by this package although another calls it legacy before this branch.
            if dev in last and "" in branches and branch_major(last[dev]) < branch_major(r["version"]):
                bad.append(f"{r['package']} {r['version']} drives {dev}, which another package ends at {last[dev]}")
    if bad:
        for b in bad[:20]:
            log("disagreement: " + b)
        return 1
    newest = max(reads, key=lambda r: (branch_major(r["version"]), vkey(r["version"].split("-")[0])))
    today = _dt.date.today().isoformat()
    by_branch: dict[str, list] = {}
    for dev, b in last.items():
        by_branch.setdefault(b, []).append(dev)

    def src(r: dict) -> str:
        return (f"{r['package']} {r['version']} (Debian {r['suite']} non-free, {r['file']} sha256 {r['sha256']}): "
                f"{r['member']}")
    lines = [
        "# Which driver branch last drives each NVIDIA GPU, read from NVIDIA's own supported-gpus.json in",
        "# Debian's driver packages by scripts/harvest-kb.py --driver-branches: generated, do not edit.",
        "# A device listed under a branch is not driven by any later branch (the driver refuses to bind",
        "# it; nvidia-smi does not list it). Devices no package calls legacy are absent: still driven by",
        f"# the newest package read ({newest['package']} {newest['version']}), or not known to it.",
        f'harvested = "{today}"',
        "",
    ]
    for b in sorted(by_branch, key=branch_major, reverse=True):
        stating = [r for r in reads if any(b in v for v in r["devices"].values())]
        first = max(stating, key=lambda r: branch_major(r["version"]))
        devs = sorted(by_branch[b])
        lines += ["[[legacy]]", f'branch = "{b}"', "devices = ["]
        for i in range(0, len(devs), 12):
            lines.append("  " + ", ".join(f'"{d}"' for d in devs[i:i + 12]) + ",")
        lines += ["]", f'source = "[artefact] {src(first)}, chips[].devid with legacybranch {b}; the same in '
                       f'{len(stating) - 1} other package(s) read (compat/driver_branches.toml [[package]])"', ""]
    for r in sorted(reads, key=lambda r: (branch_major(r["version"]), r["package"], r["suite"])):
        release = DEBIAN_SUITES.get(r["suite"], "")
        lines += ["[[package]]", 'distro = "debian"', f'suite = "{r["suite"]}"']
        if release:
            lines.append(f'version_id = "{release}"')
        lines += [f'package = "{r["package"]}"', f'version = "{r["version"]}"',
                  f'branch = "{branch_major(r["version"])}"',
                  f'source = "[artefact] {src(r)}, read {today}"', ""]
    tmp = out_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines))
    os.replace(tmp, out_path)
    return 0


def branch_major(v: str) -> int:
    """470 for "470.xx", "470.256.02-1~deb12u1" or "1:470.256.02-1"."""
    m = re.match(r"(?:\d+:)?(\d+)", v)
    return int(m.group(1)) if m else 0


if __name__ == "__main__":
    sys.exit(main())
