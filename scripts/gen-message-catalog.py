#!/usr/bin/env python3
"""Regenerates tests/catalog/messages.jsonl: the GPU-related error and warning messages of
TensorFlow, PyTorch, JAX and NCCL as their released wheels print them, with provenance (package,
release, file inside the wheel), so that explain's rules are checked against the messages'
own sources rather than against example logs (tests/unit/explain_catalog_test.cpp).

Run by hand (not in CI; it needs PyPI):

    scripts/gen-message-catalog.py [--out tests/catalog/messages.jsonl] [--only tensorflow]

--only re-reads only the packages whose name contains the word and keeps the other packages'
entries of the existing output file as they are (so adding one package does not re-read the
others' many GB of wheels). --python-only likewise re-reads only the Python members (a change to
how Python files are read does not need the shared libraries again).

Each wheel is read where it lies on PyPI with HTTP range requests: the zip's central directory,
then only the members named in RELEASES (a few Python files, the shared libraries that hold the
CUDA code), so the 0.4-0.9 GB wheels are never stored whole. What is extracted from a member is
cached under ~/.cache/gpudoctor/message-catalog/ (delete it to read the wheels again).

Python files are parsed (ast): each string constant and f-string (its holes become `{}`) is a
candidate. Shared libraries give the `strings` of the library (binutils) (the printf/absl
format strings and the pieces that C++ streams join). A candidate is kept when it names the GPU
stack (GPU_WORDS) and reads as an error, warning or notice (MESSAGE_WORDS), is prose (three
words or more) and is not code (no C++ symbol, no flag description). NCCL's library is read
without the GPU_WORDS test: its WARN format strings rarely name NCCL or CUDA (the "NCCL WARN"
prefix is added when they are printed), and all of libnccl's prose is NCCL's.
"""
import argparse
import ast
import hashlib
import io
import json
import pathlib
import re
import subprocess
import sys
import threading
import urllib.request
import zipfile

HERE = pathlib.Path(__file__).resolve().parent.parent
CACHE = pathlib.Path.home() / ".cache" / "gpudoctor" / "message-catalog"

# (package, version, python tag, member regexes). Members: the Python files that raise or log
# the GPU messages and the shared libraries built with CUDA. Versions cover the releases whose
# wording the rules must know: TF 1.x (CUDA 10.0), 2.4 (11.0), 2.10 (11.2, last Windows GPU),
# 2.15 (12.2, last before Keras 3), latest; torch 1.13 (11.7), 2.1 (12.1), latest; JAX 0.4.16
# (first jax wheel on PyPI), 0.4.30 (plugin era), latest.
TF_PY = r"tensorflow(_core)?/python/(platform/[a-z_]+|framework/(config|errors_impl|test_util|device)|eager/context|client/device_lib)\.py$"
TF_SO = r"tensorflow(_core)?/(python/_pywrap_tensorflow_internal\.so|libtensorflow_framework\.so\.\d+|libtensorflow_cc\.so\.\d+)$"
# torch.distributed and torchrun: where users' multi-GPU launches fail (process groups, rendezvous,
# the launcher and its elastic agent, DDP), plus AMP's scaler, cuDNN's switches and the DataLoader.
TORCH_PY = (r"torch/(cuda/(__init__|memory|nccl|random|streams)\.py|__init__\.py|utils/cpp_extension\.py|"
            r"distributed/(distributed_c10d|rendezvous|run|launch|constants|utils)\.py|"
            r"distributed/elastic/(rendezvous/[a-z_]+|multiprocessing/errors/[a-z_]+|agent/server/api)\.py|"
            r"nn/parallel/distributed\.py|cuda/amp/grad_scaler\.py|amp/grad_scaler\.py|"
            r"backends/cudnn/__init__\.py|utils/data/dataloader\.py)$")
TORCH_SO = r"torch/lib/(libtorch_cuda|libc10_cuda|libtorch_python|libtorch_cuda_cu|libtorch_cuda_cpp|libc10)\.so$"
JAX_PY = r"jax/(_src/(xla_bridge|compiler|dispatch|lib/__init__|cloud_tpu_init)|__init__)\.py$"
JAXLIB_SO = r"jaxlib/(xla_extension\.so|_jax\.so|cuda/_[a-z]+\.so)$"
JAXLIB_PY = r"jaxlib/(gpu_[a-z_]+|plugin_support|xla_client)\.py$"
PJRT_SO = r"jax_plugins/xla_cuda12/xla_cuda_plugin\.so$"
PLUGIN_PY = r"jax_cuda12_plugin/(__init__|_versions)?\.py$|jax_plugins/xla_cuda12/__init__\.py$"
NCCL_SO = r"nvidia/nccl/lib/libnccl\.so\.2$"

RELEASES = [
    ("tensorflow-gpu", "1.15.5", "cp37", [TF_PY, TF_SO]),
    ("tensorflow", "2.4.4", "cp38", [TF_PY, TF_SO]),
    ("tensorflow", "2.10.1", "cp310", [TF_PY, TF_SO]),
    ("tensorflow", "2.15.1", "cp311", [TF_PY, TF_SO]),
    ("tensorflow", "2.20.0", "cp311", [TF_PY, TF_SO]),
    ("torch", "1.13.1", "cp310", [TORCH_PY, TORCH_SO]),
    ("torch", "2.1.2", "cp311", [TORCH_PY, TORCH_SO]),
    ("torch", "2.10.0", "cp311", [TORCH_PY, TORCH_SO]),
    ("jax", "0.4.16", "py3", [JAX_PY]),
    ("jax", "0.4.30", "py3", [JAX_PY]),
    ("jax", "0.9.2", "py3", [JAX_PY]),
    ("jaxlib", "0.4.30", "cp311", [JAXLIB_PY, JAXLIB_SO]),
    ("jaxlib", "0.9.2", "cp311", [JAXLIB_PY, JAXLIB_SO]),
    ("jax-cuda12-pjrt", "0.4.30", "py3", [PJRT_SO]),
    ("jax-cuda12-pjrt", "0.9.2", "py3", [PJRT_SO]),
    ("jax-cuda12-plugin", "0.4.30", "cp311", [PLUGIN_PY, r"jax_cuda12_plugin/_[a-z]+\.so$"]),
    ("jax-cuda12-plugin", "0.9.2", "cp311", [PLUGIN_PY, r"jax_cuda12_plugin/_[a-z]+\.so$"]),
    # NCCL as the frameworks pin it: 2.14.3 (torch 1.13, cu11 wheel), 2.18.1 (torch 2.1),
    # 2.21.5 (torch 2.5/2.6), the newest cu12 and cu13 wheels.
    ("nvidia-nccl-cu11", "2.14.3", "py3", [NCCL_SO]),
    ("nvidia-nccl-cu12", "2.18.1", "py3", [NCCL_SO]),
    ("nvidia-nccl-cu12", "2.21.5", "py3", [NCCL_SO]),
    ("nvidia-nccl-cu12", "2.32.3", "py3", [NCCL_SO]),
    ("nvidia-nccl-cu13", "2.32.3", "py3", [NCCL_SO]),
]

FRAMEWORK = {"tensorflow": "tensorflow", "tensorflow-gpu": "tensorflow", "torch": "pytorch",
             "nvidia-nccl-cu11": "nccl", "nvidia-nccl-cu12": "nccl", "nvidia-nccl-cu13": "nccl"}
# Libraries whose every prose string is GPU-stack prose: the GPU_WORDS test is not applied.
ALL_GPU = {"nccl"}

GPU_WORDS = re.compile(
    r"cuda|cudnn|cublas|cufft|cusolver|cusparse|curand|nccl|nvml|\bgpus?\b|nvidia|\bdriver\b|"
    r"\bptx|ptxas|nvlink|nvjitlink|nvcc|compute capability|\bsm_\d|tensorrt|\bTF-TRT|"
    r"dynamic librar|device ordinal|\bStreamExecutor", re.I)
MESSAGE_WORDS = re.compile(
    r"fail|error|cannot|can't|could not|couldn't|unable|not found|not available|invalid|insufficient|"
    r"mismatch|unsupported|not supported|out of memory|\boom\b|no kernel image|too old|older than|"
    r"newer than|requires?|missing|not compiled|incompatible|exceed|timed? ?out|abort|illegal|"
    r"denied|not initialized|no (cuda|gpu|nvidia)|skipping|ignor|falling back|fall back|"
    r"successfully opened|created device|visible gpu|is optimized to use|found device|"
    r"deprecat|warning|unknown|not (be )?used|disabled|degrad|slow", re.I)
# Not messages: symbols, flag documentation, protobuf field docs, C++ type names.
NOT_MESSAGE = re.compile(
    r"^[\w:<>,*& ]+\(|_ZN|\bstd::|\babsl::|::\w+\(|^--?\w|^\s*(If|When) (true|set|enabled)\b|"
    r"\bxla_gpu_\w+\b.*\b(If|Whether)\b|^\w+(\.\w+)+$|[{};]\s*$|^\s*#|\bDEFINE_|\bTORCH_CHECK\b|"
    r"^[A-Z_]{3,}$")


def simple_index(package):
    req = urllib.request.Request(f"https://pypi.org/simple/{package}/",
                                 headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.load(r)["files"]


def wheel_url(package, version, tag):
    name = package.replace("-", "_")
    best = None
    for f in simple_index(package):
        fn = f["filename"]
        if not fn.startswith(f"{name}-{version}-") or not fn.endswith(".whl"):
            continue
        if tag != "py3" and f"-{tag}-" not in fn:
            continue
        if "x86_64" not in fn and "none-any" not in fn:
            continue
        if "linux" not in fn and "none-any" not in fn:
            continue
        best = (fn, f["url"], f.get("hashes", {}).get("sha256", ""))
    if not best:
        raise SystemExit(f"no Linux x86_64 wheel for {package}=={version} ({tag})")
    return best


class RangeFile(io.RawIOBase):
    """A wheel on PyPI as a seekable file: reads become HTTP range requests of whole blocks."""
    BLOCK = 4 << 20

    def __init__(self, url):
        super().__init__()
        self.url, self.pos, self.blocks = url, 0, {}
        req = urllib.request.Request(url, method="HEAD")
        with urllib.request.urlopen(req, timeout=60) as r:
            self.size = int(r.headers["Content-Length"])

    def seekable(self):
        return True

    def readable(self):
        return True

    def tell(self):
        return self.pos

    def seek(self, off, whence=0):
        self.pos = {0: off, 1: self.pos + off, 2: self.size + off}[whence]
        return self.pos

    def _block(self, i):
        if i not in self.blocks:
            if len(self.blocks) > 8:
                self.blocks.pop(next(iter(self.blocks)))
            lo = i * self.BLOCK
            hi = min(self.size, lo + self.BLOCK) - 1
            req = urllib.request.Request(self.url, headers={"Range": f"bytes={lo}-{hi}"})
            with urllib.request.urlopen(req, timeout=300) as r:
                self.blocks[i] = r.read()
        return self.blocks[i]

    def readinto(self, b):
        n = min(len(b), self.size - self.pos)
        done = 0
        while done < n:
            i, off = divmod(self.pos, self.BLOCK)
            chunk = self._block(i)[off:off + n - done]
            b[done:done + len(chunk)] = chunk
            done += len(chunk)
            self.pos += len(chunk)
        return done


# Python files whose every raised, warned or logged message concerns the GPU stack (the
# GPU_WORDS test is not applied to those messages): CUDA, cuDNN, AMP's scaler, torch.distributed
# and torchrun, DDP.
GPU_PY_FILES = re.compile(r"torch/(cuda|distributed|backends/cudnn)/|torch/nn/parallel/distributed\.py$|"
                          r"torch/amp/grad_scaler\.py$")
# General files read for one GPU-launch topic: their sited messages on that topic are kept.
TOPIC_PY_FILES = {"torch/utils/data/dataloader.py": re.compile(r"\bworkers?\b|shared memory|/dev/shm", re.I)}
# logger.warning(...), log.error(...), logging.critical(...): the levels that report a problem.
LOG_LEVELS = {"warning", "warn", "error", "exception", "critical", "fatal"}


def _text(node, names):
    """The message an expression builds, holes as {} ("" when it builds none): literals, f-strings,
    `+` joins, "..." % args, "...".format(...), and a local name assigned such a text."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else "{}"
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "{}"
                       for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _text(node.left, names), _text(node.right, names)
        return left + right if left or right else ""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _text(node.left, names)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return _text(node.func.value, names)
    if isinstance(node, ast.Name) and node.id in names:
        return names[node.id]
    return ""


def _callee(call):
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")


def _message_arg(node):
    """The message argument of a raise X(msg), warnings.warn(msg) or logger.<level>(msg) call, or
    of an error a helper returns (`return _error("...")`, `return ValueError("...")`: torch's
    rendezvous builds its errors so)."""
    if isinstance(node, ast.Raise):
        call = node.exc
        if isinstance(call, ast.Call) and call.args:
            return call.args[0]
        return None
    if isinstance(node, ast.Return):
        call = node.value
        if isinstance(call, ast.Call) and call.args and re.search(r"(?i)(error|exception)$", _callee(call)):
            return call.args[0]
        return None
    if not isinstance(node, ast.Call) or not node.args:
        return None
    f = node.func
    if isinstance(f, ast.Name) and f.id == "warn":
        return node.args[0]
    if not isinstance(f, ast.Attribute):
        return None
    owner = f.value.attr if isinstance(f.value, ast.Attribute) else getattr(f.value, "id", "")
    if f.attr == "warn" and owner == "warnings":
        return node.args[0]
    if f.attr in LOG_LEVELS and "log" in owner.lower():
        return node.args[0]
    return None


def _lines(texts):
    # Adjacent literals are already one constant; split multi-line texts into their lines.
    return [line for s in texts for line in s.splitlines()]


def python_strings(source):
    """String constants of a Python file (an f-string's holes become {}), and apart from them the
    sited messages: the texts that a raise, warnings.warn or logging call prints."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return [m.group(2) for m in re.finditer(r"([\"'])((?:(?!\1)[^\\\n]|\\.){12,})\1", source)], []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            out.append(_text(node, {}))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.append(node.value)
    sited = []
    scopes = [tree] + [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for scope in scopes:
        # msg = "..." (or msg += "...") then raise X(msg): the name's text, within one function. A
        # name assigned twice is left alone (which text reaches the call depends on the flow: a
        # debug message assigned to the same name must not pass for the raised one).
        names, assigned = {}, {}
        for node in ast.walk(scope):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                name = node.targets[0].id
                assigned[name] = assigned.get(name, 0) + 1
                text = _text(node.value, names)
                if text:
                    names[name] = text
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id in names:
                names[node.target.id] += _text(node.value, names) or "{}"
        names = {name: text for name, text in names.items() if assigned.get(name) == 1}
        for node in ast.walk(scope):
            arg = _message_arg(node)
            if arg is not None:
                sited.append(_text(arg, names))
    return _lines(out), _lines(t for t in sited if t)


def binary_strings(stream):
    """`strings -n 16` of a member, streamed through binutils' strings (C speed)."""
    proc = subprocess.Popen(["strings", "-n", "16"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    out = []
    reader = threading.Thread(target=lambda: out.extend(proc.stdout.read().decode("ascii", "replace").splitlines()))
    reader.start()
    while True:
        chunk = stream.read(16 << 20)
        if not chunk:
            break
        proc.stdin.write(chunk)
    proc.stdin.close()
    reader.join()
    proc.wait()
    return out


def is_message(s, gpu_words=True, sited=False):
    """sited: the text is what a raise, warnings.warn or logging call prints, so it is an error or
    warning by where it sits: neither MESSAGE_WORDS nor the not-code test (NOT_MESSAGE, made for
    strings tables: "DataLoader worker (pid ..." reads as a signature) is asked of it."""
    s = s.strip()
    if not (16 <= len(s) <= 400) or len(s.split()) < 3 or not re.search(r"[a-z]", s):
        return False
    if gpu_words and not GPU_WORDS.search(s):
        return False
    if not sited and (not MESSAGE_WORDS.search(s) or NOT_MESSAGE.search(s)):
        return False
    # Mostly letters and spaces: prose, not a table or an encoded blob.
    letters = sum(c.isalpha() or c == " " for c in s)
    return letters >= 0.7 * len(s)


def member_messages(zf, info, wheel, gpu_words=True):
    # Without the GPU_WORDS test another set is kept; the plain key is the one the cache had before.
    # Python files are keyed anew since their sited messages are kept ("/sited").
    python = info.filename.endswith(".py")
    variant = ("" if gpu_words else "/all-prose") + ("/sited" if python else "")
    key = hashlib.sha256(f"{wheel}/{info.filename}{variant}".encode()).hexdigest()[:24]
    cached = CACHE / f"{key}.json"
    if cached.exists():
        return json.loads(cached.read_text())
    with zf.open(info) as f:
        if python:
            found, sited = python_strings(f.read().decode("utf-8", "replace"))
        else:
            found, sited = binary_strings(f), []
    gpu_file = GPU_PY_FILES.search(info.filename)
    topic = next((t for name, t in TOPIC_PY_FILES.items() if info.filename.endswith(name)), None)
    kept = {s.strip() for s in found if is_message(s, gpu_words)}
    kept |= {s.strip() for s in sited
             if is_message(s, gpu_words and not gpu_file and not (topic and topic.search(s)), sited=True)}
    kept = sorted(kept)
    CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(kept))
    return kept


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(HERE / "tests/catalog/messages.jsonl"))
    ap.add_argument("--only", help="only packages whose name contains this")
    ap.add_argument("--python-only", action="store_true",
                    help="re-read only the Python members; keep the shared libraries' entries as they are")
    args = ap.parse_args()

    catalog = {}  # (framework, text) -> sources
    out = pathlib.Path(args.out)
    def read_again(source):
        package, member = source.split(" ", 1)[0], source.rsplit(" ", 1)[1]
        return (not args.only or args.only in package) and (not args.python_only or member.endswith(".py"))

    if (args.only or args.python_only) and out.exists():
        # Keep what the other packages (or members) contributed; those read again replace theirs.
        for line in out.read_text().splitlines():
            entry = json.loads(line)
            kept = [s for s in entry["sources"] if not read_again(s)]
            if kept:
                catalog[(entry["framework"], entry["text"])] = kept
    for package, version, tag, members in RELEASES:
        if args.only and args.only not in package:
            continue
        fn, url, _ = wheel_url(package, version, tag)
        print(f"{package} {version}: {fn}", file=sys.stderr)
        zf = zipfile.ZipFile(RangeFile(url))
        wanted = [i for i in zf.infolist() if any(re.search(m, i.filename) for m in members)
                  and (not args.python_only or i.filename.endswith(".py"))]
        framework = FRAMEWORK.get(package, "jax")
        for info in wanted:
            msgs = member_messages(zf, info, fn, framework not in ALL_GPU)
            print(f"  {info.filename}: {info.file_size >> 20} MiB, {len(msgs)} messages", file=sys.stderr)
            for text in msgs:
                catalog.setdefault((framework, text), []).append(f"{package} {version}: {info.filename}")

    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w") as f:
        for (framework, text), sources in sorted(catalog.items()):
            kind = "python" if any(s.endswith(".py") for s in sources) else "library"
            f.write(json.dumps({"framework": framework, "kind": kind, "text": text,
                                "sources": sorted(set(sources))}, ensure_ascii=False) + "\n")
    print(f"{len(catalog)} messages -> {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
