#!/usr/bin/env python3
"""Regenerates data/explain/error-codes.toml: every error code of the CUDA runtime and driver,
cuDNN, cuBLAS, cuSPARSE, cuFFT, cuSOLVER, NCCL and NVML, read from the vendors' own headers
(name, number, the header's doc comment) and from the libraries' own message tables (the text
cudaGetErrorString / ncclGetErrorString print, which is what logs show).

Run by hand when a new toolkit is installed (not in CI):

    scripts/gen-error-catalog.py [--cuda /usr/local/cuda] [--nvml-header PATH/nvml.h
                                 --nvml-source 'nvidia-nvml-dev-cu12 12.9.79']

Older headers (OLDER: CUDA 11.8 and 12.9 runtime, cuBLAS 11, cuDNN 8.9 from PyPI's component
wheels) add the codes the current ones dropped; codes whose number changed are printed (cuDNN 9
renumbered every status: CUDNN_STATUS_BAD_PARAM was 3, is 2000). --no-older skips them (no
network); it regenerates the file as it was before OLDER existed.

nvml.h is not part of the toolkit: it comes in PyPI's nvidia-nvml-dev-cu12 wheel
(`pip download --no-deps nvidia-nvml-dev-cu12`, unzip, nvidia/nvml_dev/include/nvml.h).

Each code becomes a `[[code]]` table (the catalog, with provenance) and a `[[rule]]` marked
`catalog = true` that recognises the code by enum name, by number in an error context, and by
its message text. Hand-written rules in the other data/explain files take precedence: a
catalog rule is dropped from an answer when a hand-written rule matched the same lines.
Curated causes and fixes for the codes people meet most are in CURATED below; the others get
the header's description and a generic fix.
"""
import argparse
import ctypes
import datetime
import importlib.util
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent.parent

# family -> (header, enum type name, library for message strings, label)
FAMILIES = {
    "cudart": ("driver_types.h", "cudaError", "CUDA runtime"),
    "cuda-driver": ("cuda.h", "cudaError_enum", "CUDA driver API"),
    "cudnn": ("cudnn_graph.h", "cudnnStatus_t", "cuDNN"),
    "cublas": ("cublas_api.h", "cublasStatus_t", "cuBLAS"),
    "cusparse": ("cusparse.h", "cusparseStatus_t", "cuSPARSE"),
    "cufft": ("cufft.h", "cufftResult_t", "cuFFT"),
    "cusolver": ("cusolver_common.h", "cusolverStatus_t", "cuSOLVER"),
    "nccl": ("nccl.h", "ncclResult_t", "NCCL"),
    "nvml": ("nvml.h", "nvmlReturn_enum", "NVML"),
}

# Older releases' headers, from PyPI's component wheels (read by range requests, cached under
# ~/.cache/gpudoctor/headers): codes they have that the current headers dropped or renamed are
# added, with that header as provenance, since logs of older frameworks still print them.
OLDER = [
    ("cudart", "nvidia-cuda-runtime-cu11", "11.8.89", "nvidia/cuda_runtime/include/driver_types.h"),
    ("cuda-driver", "nvidia-cuda-runtime-cu11", "11.8.89", "nvidia/cuda_runtime/include/cuda.h"),
    ("cudart", "nvidia-cuda-runtime-cu12", "12.9.79", "nvidia/cuda_runtime/include/driver_types.h"),
    ("cuda-driver", "nvidia-cuda-runtime-cu12", "12.9.79", "nvidia/cuda_runtime/include/cuda.h"),
    ("cublas", "nvidia-cublas-cu11", "11.11.3.6", "nvidia/cublas/include/cublas_api.h"),
    ("cudnn", "nvidia-cudnn-cu11", "8.9.6.50", "nvidia/cudnn/include/cudnn_ops_infer.h"),
]
HEADER_CACHE = pathlib.Path.home() / ".cache" / "gpudoctor" / "headers"

# Older CUDA runtimes' own message texts (cudaGetErrorString of that libcudart, from PyPI's
# component wheel): a text that differs from the current runtime's is recognised too, since logs
# of older frameworks print it (session 40: the sweep found code 27's CUDA 11 text).
OLDER_RUNTIME_LIBS = [
    ("nvidia-cuda-runtime-cu11", "11.8.89", "nvidia/cuda_runtime/lib/libcudart.so.11.0"),
]
# Texts of runtimes older than any wheel on PyPI (CUDA 10.x and before, the runtime of PyTorch 1.x
# and TensorFlow 1.x), as those frameworks' logs print them after "CUDA error: " or THCudaCheck's
# "error=46 : ". Each is quoted from the issue threads named (session 40 review, log 22).
OLDER_LOG_MESSAGES = {
    # https://github.com/iffiX/machin/issues/25 (PyTorch 1.x: "RuntimeError: CUDA error: all
    # CUDA-capable devices are busy or unavailable"), https://github.com/idiap/jade-hpc/issues/59
    # ("THCudaCheck FAIL file=.../THCTensorRandom.cu line=25 error=46 : all CUDA-capable devices
    # are busy or unavailable"); CUDA 11.7's libcudart already prints the current text.
    ("cudart", 46): ["all CUDA-capable devices are busy or unavailable"],
}


def wheel_member(package, version, member):
    """One file of a wheel on PyPI (through gen-message-catalog.py's range reader), cached."""
    return wheel_member_path(package, version, member).read_text(errors="replace")


def wheel_member_path(package, version, member):
    """The cached copy of one file of a wheel on PyPI (a header, or a library to load)."""
    cached = HEADER_CACHE / f"{package}-{version}" / pathlib.Path(member).name
    if not cached.exists():
        spec = importlib.util.spec_from_file_location("gen_message_catalog", HERE / "scripts/gen-message-catalog.py")
        g = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(g)
        import zipfile
        _, url, _ = g.wheel_url(package, version, "py3")
        with zipfile.ZipFile(g.RangeFile(url)) as zf:
            data = zf.read(member)
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_bytes(data)
    return cached


DRIVER_FIX = ("Run `nvidia-smi`: if it fails, (re)install the NVIDIA driver for your GPU and reboot; "
              "in a container, start it with `--gpus all`.")
OOM_FIX = ("Free GPU memory (other processes: `nvidia-smi`), lower the batch size, or let the framework "
           "grow its memory (TensorFlow: `tf.config.experimental.set_memory_growth`; JAX: "
           "`XLA_PYTHON_CLIENT_PREALLOCATE=false`).")
NCCL_FIX = ("Rerun with `NCCL_DEBUG=INFO` (and `NCCL_DEBUG_SUBSYS=INIT,NET`) to see the failing step; check "
            "that every rank uses the same NCCL version, that `/dev/shm` is large enough in containers "
            "(`--shm-size=1g` or `--ipc=host`), and the network interface (`NCCL_SOCKET_IFNAME`).")

PEER_CAUSE = ('Peer-to-peer access between these two GPUs is not possible on this machine: they sit under different PCIe root complexes or CPU sockets without NVLink, the platform (IOMMU, PCIe ACS, a virtual machine) blocks it, or the GPUs do not offer it. A program that enables peer access without asking cudaDeviceCanAccessPeer first fails with this code.')
PEER_FIX = ('`nvidia-smi topo -m` and `nvidia-smi topo -p2p r` show which pairs can reach each other. Use a release of the program that checks cudaDeviceCanAccessPeer, or run it on GPUs that can (CUDA_VISIBLE_DEVICES); for NCCL, `NCCL_P2P_DISABLE=1` goes through host memory instead. In a VM or with ACS enabled, P2P needs the hypervisor or the firmware to allow it.')

# Curated: (category, priority, tailor, cause, fix) for the codes people meet most. The
# causes come from the vendors' documentation of each code and the frameworks' issue threads.
CURATED = {
    ("cudart", "cudaErrorNoKernelImageForDevice"): (
        "gpu-arch-unsupported", 70, "gpu-arch",
        "The program (or the framework build) has no machine code (SASS) for this GPU's compute "
        "capability and no PTX the driver could compile for it.",
        "Install a build of the framework compiled for your GPU's compute capability (the doctor and "
        "`gpudoctor plan` name one), or build it from source for that architecture."),
    ("cuda-driver", "CUDA_ERROR_NO_BINARY_FOR_GPU"): (
        "gpu-arch-unsupported", 70, "gpu-arch",
        "The module has no machine code (SASS) for this GPU and no PTX that could be compiled for it.",
        "Install a build compiled for your GPU's compute capability (`gpudoctor plan` names one)."),
    # CuPy prints the driver's name and text of a module it compiled at run time (NVRTC) and could
    # not load: "CUDA_ERROR_INVALID_SOURCE: device kernel image is invalid" (cupy_backends
    # CUDADriverError: cuGetErrorName + ": " + cuGetErrorString). On an RTX 4080 (sm_89) with a CuPy
    # older than v11 the maintainer's answer was a newer CuPy (https://github.com/cupy/cupy/issues/8045).
    ("cuda-driver", "CUDA_ERROR_INVALID_SOURCE"): (
        "gpu-arch-unsupported", 62, "",
        "The driver could not load a kernel module, usually one a library compiled at run time with NVRTC "
        "(CuPy, PyCUDA-style code): the CuPy (or the NVRTC/CUDA it uses) is older than this GPU and does not "
        "know its compute capability (an RTX 40 series GPU, compute capability 8.9, needs CuPy v11 or later), "
        "or the NVRTC is newer than the driver, or the kernel source itself does not compile.",
        "`python -c \"import cupy; cupy.show_config()\"` shows the CuPy, CUDA and NVRTC versions. Upgrade CuPy "
        "to a release whose compatibility matrix lists your GPU's compute capability "
        "(`pip install -U cupy-cuda12x`, or `cupy-cuda11x` for CUDA 11; https://docs.cupy.dev/en/stable/install.html), "
        "and keep the CUDA it uses no newer than the driver supports (`nvidia-smi` shows that CUDA version)."),
    ("cudart", "cudaErrorSystemNotReady"): (
        "driver-missing", 72, "driver",
        "The system is not ready for CUDA work: on NVSwitch systems (HGX/DGX A100, H100, H200, B200) the "
        "NVIDIA Fabric Manager service is not running or its version differs from the driver's.",
        "Install `nvidia-fabricmanager` of exactly the driver's version and start it: "
        "`sudo systemctl enable --now nvidia-fabricmanager`; check `systemctl status nvidia-fabricmanager`."),
    ("cuda-driver", "CUDA_ERROR_SYSTEM_NOT_READY"): (
        "driver-missing", 72, "driver",
        "The system is not ready for CUDA work: on NVSwitch systems (HGX/DGX A100, H100, H200, B200) the "
        "NVIDIA Fabric Manager service is not running or its version differs from the driver's.",
        "Install `nvidia-fabricmanager` of exactly the driver's version and start it: "
        "`sudo systemctl enable --now nvidia-fabricmanager`; check `systemctl status nvidia-fabricmanager`."),
    ("cudart", "cudaErrorSystemDriverMismatch"): (
        "driver-too-old", 72, "driver",
        "The CUDA forward-compatibility libraries (cuda-compat) in use do not match the installed kernel driver.",
        "Remove the cuda-compat package from the library path (or install the one matching the driver), "
        "or upgrade the driver so that no compat package is needed."),
    ("cuda-driver", "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"): (
        "driver-too-old", 72, "driver",
        "The CUDA forward-compatibility libraries (cuda-compat) in use do not match the installed kernel driver.",
        "Remove the cuda-compat package from the library path (or install the one matching the driver), "
        "or upgrade the driver so that no compat package is needed."),
    ("cudart", "cudaErrorCompatNotSupportedOnDevice"): (
        "driver-too-old", 70, "driver",
        "CUDA forward compatibility (running a newer CUDA on an older driver) is supported only on data-centre "
        "GPUs; this GPU needs a driver new enough for the CUDA version.",
        "Upgrade the NVIDIA driver to one that supports the program's CUDA version."),
    ("cuda-driver", "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"): (
        "driver-too-old", 70, "driver",
        "CUDA forward compatibility (running a newer CUDA on an older driver) is supported only on data-centre "
        "GPUs; this GPU needs a driver new enough for the CUDA version.",
        "Upgrade the NVIDIA driver to one that supports the program's CUDA version."),
    ("cudart", "cudaErrorInsufficientDriver"): (
        "driver-too-old", 72, "driver",
        "The installed NVIDIA driver is older than the CUDA runtime the program was built with needs.",
        "Upgrade the NVIDIA driver (the doctor names the minimum for your CUDA version), or install a framework "
        "build for an older CUDA."),
    ("cuda-driver", "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"): (
        "driver-too-old", 70, "driver",
        "The PTX was generated by a newer CUDA toolkit than this driver supports, so the driver cannot JIT-compile it.",
        "Upgrade the NVIDIA driver, or use a build (or ptxas/XLA) from a CUDA version the driver supports."),
    ("cudart", "cudaErrorUnsupportedPtxVersion"): (
        "driver-too-old", 70, "driver",
        "The PTX was generated by a newer CUDA toolkit than this driver supports, so the driver cannot JIT-compile it.",
        "Upgrade the NVIDIA driver, or use a build (or ptxas/XLA) from a CUDA version the driver supports."),
    ("cuda-driver", "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED"): (
        "driver-missing", 70, "driver",
        "cuInit could not initialise the driver library: usually no NVIDIA driver is loaded on this machine "
        "(libcuda.so is a stub or from another driver version), or the kernel module does not match it.",
        DRIVER_FIX),
    ("cudart", "cudaErrorSharedObjectInitFailed"): (
        "driver-missing", 70, "driver",
        "CUDA could not initialise the driver library: usually no NVIDIA driver is loaded on this machine "
        "(libcuda.so is a stub or from another driver version), or the kernel module does not match it.",
        DRIVER_FIX),
    ("cudart", "cudaErrorMemoryAllocation"): (
        "out-of-memory", 60, "memory", "The GPU ran out of memory.", OOM_FIX),
    ("cuda-driver", "CUDA_ERROR_OUT_OF_MEMORY"): (
        "out-of-memory", 60, "memory", "The GPU ran out of memory.", OOM_FIX),
    ("cublas", "CUBLAS_STATUS_ALLOC_FAILED"): (
        "out-of-memory", 65, "memory", "cuBLAS could not allocate GPU memory for its workspace.", OOM_FIX),
    ("cublas", "CUBLAS_STATUS_NOT_INITIALIZED"): (
        "out-of-memory", 62, "memory",
        "cuBLAS could not create its handle: most often the GPU memory is already taken (another process, or "
        "a framework that preallocated it), less often a cuBLAS from another CUDA version than the runtime's.",
        OOM_FIX + " If memory is free, check that the cuBLAS library matches the CUDA runtime (`gpudoctor`)."),
    ("cudnn", "CUDNN_STATUS_NOT_INITIALIZED"): (
        "cudnn-version-mismatch", 62, "cudnn",
        "cuDNN could not be initialised: a cuDNN of another version than the framework was built with, or no "
        "free GPU memory for its handle.",
        "Install the cuDNN the framework was built with (`gpudoctor` shows both); if that matches, free GPU "
        "memory or enable memory growth."),
    ("cudnn", "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED"): (
        "cudnn-missing", 70, "cudnn",
        "One of cuDNN 9's sub-libraries (libcudnn_engines_*, libcudnn_ops, libcudnn_cnn ...) could not be loaded: "
        "an incomplete cuDNN install, or two cuDNN copies mixed on the library path.",
        "Reinstall cuDNN from one source (the `nvidia-cudnn-cu12`/`-cu13` wheel or the system package) and make "
        "sure the library path does not mix copies."),
    ("cudnn", "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH"): (
        "cudnn-version-mismatch", 72, "cudnn",
        "cuDNN's sub-libraries come from different cuDNN versions (two copies mixed on the library path).",
        "Keep one cuDNN: remove the other copy from LD_LIBRARY_PATH / PATH, or reinstall the wheel."),
    ("nvml", "NVML_ERROR_LIB_RM_VERSION_MISMATCH"): (
        "driver-missing", 75, "driver",
        "The NVIDIA user-space libraries and the loaded kernel module are from different driver versions, "
        "usually after a driver update without a reboot.",
        "Reboot (or unload and reload the nvidia kernel modules) so that the kernel module matches the libraries."),
    ("nvml", "NVML_ERROR_DRIVER_NOT_LOADED"): ("driver-missing", 72, "driver",
                                                "The NVIDIA kernel driver is not loaded.", DRIVER_FIX),
    ("nvml", "NVML_ERROR_LIBRARY_NOT_FOUND"): ("driver-missing", 70, "driver",
                                                "libnvidia-ml.so (part of the driver) was not found.", DRIVER_FIX),
    ("nvml", "NVML_ERROR_GPU_IS_LOST"): (
        "other", 70, "driver",
        "The GPU fell off the bus or stopped responding (power, overheating, PCIe riser, or a hardware fault).",
        "Check `dmesg` for Xid 79 errors, power and cooling; reboot; if it repeats, reseat or test the card."),
    ("cudart", "cudaErrorDevicesUnavailable"): (
        "other", 65, "driver",
        "Every GPU is busy or unavailable: the GPUs are in Exclusive-Process compute mode and another process holds them.",
        "Find the process with `nvidia-smi` and stop it, or set the compute mode back: `sudo nvidia-smi -c DEFAULT`."),
    # Peer access refused between two GPUs is a multi-GPU topology problem, not a program error.
    ("cudart", "cudaErrorPeerAccessUnsupported"): (
        "multi-gpu/nccl", 60, "", PEER_CAUSE, PEER_FIX),
    ("cuda-driver", "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"): (
        "multi-gpu/nccl", 60, "", PEER_CAUSE, PEER_FIX),
}
for key in ["ncclUnhandledCudaError", "ncclSystemError", "ncclInternalError", "ncclRemoteError",
            "ncclInvalidUsage", "ncclInvalidArgument"]:
    CURATED[("nccl", key)] = ("multi-gpu/nccl", 62, "nccl", None, NCCL_FIX)

DEFAULT_CATEGORY = {"nccl": "multi-gpu/nccl"}

# The vendors' reference page of each family's codes (the rule's first source; the header it
# was read from is the second).
DOCS = {
    "cudart": "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html",
    "cuda-driver": "https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html",
    "cudnn": "https://docs.nvidia.com/deeplearning/cudnn/backend/latest/api/cudnn-graph-library.html",
    "cublas": "https://docs.nvidia.com/cuda/cublas/index.html#cublasstatus-t",
    "cusparse": "https://docs.nvidia.com/cuda/cusparse/index.html",
    "cufft": "https://docs.nvidia.com/cuda/cufft/index.html",
    "cusolver": "https://docs.nvidia.com/cuda/cusolver/index.html",
    "nccl": "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/api/types.html",
    "nvml": "https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceEnumvs.html",
}

# Number-in-context patterns per family: the code printed as a number after the library's name
# or a call of it. {n} is the number; it ends at a non-digit, not a word boundary, because
# widely copied checkCudaErrors macros print "CUDA error = 999at main.cu:196". Numba prints
# driver codes first: "[222] Call to cuLinkAddData results in ...", Ollama "cuda driver library init
# failure: 3". Only these families print bare numbers often.
NUMBER_PATTERNS = {
    "cudart": [r"(?i)\bcuda(?:\s+runtime)?\s+error\b[^\d\n]*(?:\(|code\W{{0,2}}|error\W{{0,2}}|[:=#]\s?){n}(?:\D|$)",
               r"\bcuda[A-Z]\w*\(?\)?\s+(?:returned|failed)\W{{0,3}}(?:with\s+)?(?:error\s+)?(?:code\s+)?{n}(?:\D|$)"],
    "cuda-driver": [r"\bcu(?:Init|Ctx|Device|Mem|Module|Launch|Stream|Event|Driver|Graph|Link|Func)\w*\b[^\d\n]*"
                    r"(?:\(|code\W{{0,2}}|ERROR\W{{0,2}}|error\W{{0,2}}|[:=#]\s?){n}(?:\D|$)",
                    r"\bCUresult\W{{1,3}}{n}(?:\D|$)",
                    r"\[{n}\] Call to cu\w+ results in",
                    r"\bcuda driver library init failure:\s*{n}(?:\D|$)"],
    # Ollama (discover/gpu.go): "nvml vram init failure: 9" is nvmlInit's return code.
    "nvml": [r"\bnvml (?:vram )?init failure:\s*{n}(?:\D|$)"],
}


def parse_enum(text, type_name):
    """(name, number, doc) of each member of the enum called type_name."""
    m = re.search(r"(?:typedef\s+)?enum\s+(?:__device_builtin__\s+)?" + re.escape(type_name) + r"\s*\{(.*?)\}", text, re.S)
    if not m:
        m = re.search(r"typedef\s+enum\s*\{(.*?)\}\s*" + re.escape(type_name) + r"\s*;", text, re.S)
    if not m:
        return []
    body = m.group(1)
    out = []
    doc = ""
    pos = 0
    token = re.compile(r"/\*\*?<?(.*?)\*/|//[!/]?<?([^\n]*)|([A-Za-z_]\w*)\s*=\s*(-?(?:0x[0-9A-Fa-f]+|\d+))\s*,?", re.S)
    last = None
    for t in token.finditer(body, pos):
        comment = t.group(1) if t.group(1) is not None else t.group(2)
        if comment is not None:
            c = " ".join(line.strip().lstrip("*").strip() for line in comment.splitlines())
            c = re.sub(r"\s+", " ", c).strip()
            # a trailing comment (on the member's own line) documents the member before it
            line_start = body.rfind("\n", 0, t.start())
            trailing = last is not None and "=" in body[line_start:t.start()]
            if trailing:
                out[-1] = (last[0], last[1], c)
                last = out[-1]
            else:
                doc = c
            continue
        name, num = t.group(3), int(t.group(4), 0)
        last = (name, num, doc)
        out.append(last)
        doc = ""
    return out


def cudart_messages(path):
    """number -> the text cudaGetErrorString returns, asked of libcudart itself (it needs no GPU
    and no driver). Pairing names with messages in the library's strings table went wrong where
    the linker shares one text between codes or orders them otherwise: cudaErrorInvalidDeviceFunction
    got "invalid configuration argument", cudaErrorInvalidResourceHandle "the operation cannot be
    performed in the present state", and 54 codes got none."""
    try:
        lib = ctypes.CDLL(str(path))
    except OSError as e:
        print(f"{path}: {e}: the CUDA runtime codes get no message text", file=sys.stderr)
        return lambda num: ""
    lib.cudaGetErrorString.restype = ctypes.c_char_p
    lib.cudaGetErrorString.argtypes = [ctypes.c_int]

    def message(num):
        text = (lib.cudaGetErrorString(num) or b"").decode("utf-8", "replace")
        return "" if text == "unrecognized error code" else text
    return message


def toml_str(s):
    return "'''" + s + "'''" if "'''" not in s and "\n" not in s else '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def q(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def sentence(doc, limit=600):
    doc = re.sub(r"\\[a-z]+\s+|::", "", doc).strip()
    if len(doc) > limit:
        doc = doc[:limit].rsplit(". ", 1)[0] + "."
    if doc and not doc.endswith("."):
        doc += "."
    return doc


def message_patterns(fam, msg):
    """The patterns that recognise one message text of a code (the current runtime's, or an older one's)."""
    lit = re.escape(msg).replace(r"\ ", " ")
    if msg and (len(msg) >= 24 or fam == "nvml"):
        # Only distinctive texts: "unknown error" or "invalid argument" alone name nothing.
        # \b: "mapping of buffer object failed" must not match inside "unmapping of ...".
        word = r"\b" if msg[0].isalnum() else ""
        return [word + lit if fam != "nvml" else r"NVML[^\n]*" + lit]
    if msg and fam == "cudart":
        # PyTorch's C10_CUDA_CHECK (and ggml) prints "CUDA error: " + cudaGetErrorString(code) (then,
        # pasted on one line, its "CUDA kernel errors might be ..." hint): after that prefix,
        # and only there, a short message names its code.
        # The same after other libraries' prefixes: CTranslate2's "CUDA failed with error "
        # (libctranslate2 4.5.0, read with strings) and ONNX Runtime's "CUDA failure N: "
        # (core/providers/cuda/cuda_call.cc, "... ; GPU=0 ; hostname=..." after it).
        # PyTorch 1.x (aten/src/THC/THCGeneral.cpp, __THCudaCheck and __THCudaCheckWarn):
        # "THCudaCheck FAIL file=%s line=%i error=%i : %s". Read by its text, not its number: a
        # PyTorch built with CUDA 10.0 or older prints the runtime's old numbering (error=4 was
        # cudaErrorLaunchFailure, now 719; session 40 re-read). The same check's exception, THC's
        # older and PyTorch <= 1.x's "cuda runtime error (%d) : %s" (_THError, which adds " at
        # file:line" after the text), likewise (session 41).
        return [r"\b(?:CUDA error: |CUDA failed with error |CUDA failure \d+: |"
                r"THCudaCheck(?:Warn)? FAIL\b.*\berror=\d+ : |cuda runtime error \(\d+\) : )" + lit +
                r"(?:\s?[.;,]|\s*$|\s+CUDA kernel errors| at \S)"]
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuda", default="/usr/local/cuda")
    ap.add_argument("--nvml-header", default="")
    ap.add_argument("--nvml-source", default="", help="where nvml.h came from, e.g. 'nvidia-nvml-dev-cu12 12.9.79'")
    ap.add_argument("--out", default=str(HERE / "data/explain/error-codes.toml"))
    ap.add_argument("--no-older", action="store_true", help="skip the older headers from PyPI (OLDER)")
    a = ap.parse_args()
    inc = pathlib.Path(a.cuda) / "include"
    cuda_h = (inc / "cuda.h").read_text(errors="replace")
    cuda_version = int(re.search(r"#define CUDA_VERSION (\d+)", cuda_h).group(1))
    toolkit = f"CUDA {cuda_version // 1000}.{cuda_version % 1000 // 10}"
    versions = {"cudart": toolkit, "cuda-driver": toolkit, "cublas": toolkit, "cusparse": toolkit,
                "cufft": toolkit, "cusolver": toolkit}
    cudnn_v = (inc / "cudnn_version.h").read_text(errors="replace")
    versions["cudnn"] = "cuDNN " + ".".join(re.search(rf"#define CUDNN_{k} (\d+)", cudnn_v).group(1)
                                            for k in ("MAJOR", "MINOR", "PATCHLEVEL"))
    nccl_h = (inc / "nccl.h").read_text(errors="replace")
    versions["nccl"] = "NCCL " + ".".join(re.search(rf"#define NCCL_{k} (\d+)", nccl_h).group(1)
                                          for k in ("MAJOR", "MINOR", "PATCH"))
    headers = {f: inc / h for f, (h, _, _) in FAMILIES.items()}
    if a.nvml_header:
        headers["nvml"] = pathlib.Path(a.nvml_header)
        versions["nvml"] = a.nvml_source or "nvml.h"
    elif (inc / "nvml.h").exists():
        versions["nvml"] = toolkit
    else:
        del headers["nvml"]
        print("no nvml.h: NVML codes skipped (pass --nvml-header)", file=sys.stderr)

    cudart_message = cudart_messages(pathlib.Path(a.cuda) / "lib64/libcudart.so")
    older_texts = {}  # (family, number) -> older message texts that differ from the current one
    for package, version, member in ([] if a.no_older else OLDER_RUNTIME_LIBS):
        older = cudart_messages(wheel_member_path(package, version, member))
        for num in range(1, 1000):
            text = older(num)
            if text and text != cudart_message(num):
                older_texts.setdefault(("cudart", num), []).append(text)
    for key, texts in OLDER_LOG_MESSAGES.items():
        older_texts.setdefault(key, []).extend(t for t in texts if t not in older_texts.get(key, []))
    nccl_msgs = {}
    lib = pathlib.Path(a.cuda) / "lib64/libnccl.so"
    if lib.exists():
        s = subprocess.run(["strings", str(lib)], capture_output=True, text=True).stdout.splitlines()
        # ncclGetErrorString's table, in ncclResult_t order from 1 (checked: the first is the
        # message of ncclUnhandledCudaError).
        for i, line in enumerate(s):
            if line.startswith("unhandled cuda error"):
                for k in range(7):
                    nccl_msgs[k + 1] = s[i + k]
                break
    # What nvmlErrorString prints for the codes logs show (nvidia-smi's "Failed to initialize
    # NVML: ..."); libnvidia-ml is part of the driver, absent on a build machine.
    nvml_msgs = {"NVML_ERROR_LIB_RM_VERSION_MISMATCH": "Driver/library version mismatch",
                 "NVML_ERROR_DRIVER_NOT_LOADED": "Driver Not Loaded",
                 "NVML_ERROR_GPU_IS_LOST": "GPU is lost"}

    today = datetime.date.today().isoformat()
    lines = ["# GENERATED by scripts/gen-error-catalog.py on " + today + " from the headers and libraries",
             "# named in each entry's `header`/`sources`. Do not edit: change CURATED in the script and rerun.",
             "# [[code]]: the catalog (name, number, family, header doc text, message text, provenance).",
             "# [[rule]] with catalog = true: recognises each code in logs; hand-written rules win.", ""]
    rules = []
    count = 0
    for fam, (hname, tname, label) in FAMILIES.items():
        if fam not in headers:
            continue
        path = headers[fam]
        members = parse_enum(path.read_text(errors="replace"), tname)
        if not members:
            print(f"{fam}: enum {tname} not found in {path}", file=sys.stderr)
            continue
        src = f"{path.name} ({versions.get(fam, '')})"
        sourced = [(m, src) for m in members]
        known = {name: num for name, num, _ in members}
        for ofam, package, version, member in ([] if a.no_older else OLDER):
            if ofam != fam:
                continue
            osrc = f"{pathlib.Path(member).name} ({package} {version})"
            for name, num, doc in parse_enum(wheel_member(package, version, member), tname):
                if name not in known:
                    known[name] = num
                    sourced.append(((name, num, doc), osrc))
                elif known[name] != num:
                    print(f"{fam}: {name} is {num} in {osrc}, {known[name]} in {src}", file=sys.stderr)
        for (name, num, doc), src in sourced:
            if num == 0 or name.endswith(("SUCCESS", "Success")) or "Num" in name or name.endswith("_ENUM") \
                    or "FORCE" in name or name.startswith("cudaErrorApiFailureBase"):
                continue
            msg = ""
            if fam == "cudart":
                msg = cudart_message(num)
            elif fam == "nccl":
                msg = nccl_msgs.get(num, "")
            elif fam == "nvml":
                msg = nvml_msgs.get(name, "")
            count += 1
            lines += ["[[code]]", f"family = {q(fam)}", f"name = {q(name)}", f"number = {num}",
                      f"header = {q(src)}"]
            if doc:
                lines.append(f"description = {q(sentence(doc, 1200))}")
            if msg:
                lines.append(f"message = {q(msg)}")
            lines.append("")
            rules.append((fam, label, name, num, doc, msg, src))

    for fam, label, name, num, doc, msg, src in rules:
        cur = CURATED.get((fam, name))
        category = cur[0] if cur else DEFAULT_CATEGORY.get(fam, "other")
        priority = cur[1] if cur else 45
        tailor = cur[2] if cur else ""
        desc = sentence(doc) if doc else (msg[0].upper() + msg[1:] + "." if msg else "")
        cause = (cur[3] if cur and cur[3] else
                 f"{label} returned {name} ({num})" + (f": {desc}" if desc else "."))
        fix = cur[4] if cur else (
            f"This is what {label} reported; the lines before it in the log usually say which call failed. "
            "Run `gpudoctor` to check the driver, CUDA and library versions this program uses.")
        pats = [r"\b" + name + r"\b"]
        for text in [msg] + older_texts.get((fam, num), []):
            pats += message_patterns(fam, text)
        for p in NUMBER_PATTERNS.get(fam, []):
            pats.append(p.format(n=num))
        example = f"{'CUDA error' if fam == 'cudart' else 'failed call to cuInit' if fam == 'cuda-driver' else label + ' error'}: {name}"
        r = ["[[rule]]", f"id = {q('code/' + fam + '/' + name)}", "catalog = true",
             f"title = {q(f'{label} error {name} ({num})')}", f"category = {q(category)}",
             'severity = "error"', f"priority = {priority}"]
        if tailor:
            r.append(f"tailor = {q(tailor)}")
        r.append("patterns = [" + ", ".join(toml_str(p) for p in pats) + "]")
        r.append(f"cause = {q(cause)}")
        r.append(f"fix = {q(fix)}")
        r.append(f"sources = [{q(DOCS[fam])}, {q(src)}]")
        r.append(f"examples = [{q(example)}]")
        lines += r + [""]
    pathlib.Path(a.out).write_text("\n".join(lines), encoding="utf-8")
    print(f"{count} codes -> {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
