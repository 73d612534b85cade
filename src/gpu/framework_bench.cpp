#include "gpu/framework_bench.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/text.hpp"
#include "gpu/bench_math.hpp"

namespace gpudoctor::gpu {

using json = nlohmann::ordered_json;

FrameworkBenchConfig framework_bench_config(const std::string& mode) {
  FrameworkBenchConfig c;
  if (mode == "quick") {
    c.model = "resnet18";
    c.image = 112;
    c.cpu_batch = 4;
    c.gpu_batch = 64;
    c.warmup = 1;
    c.min_steps = 3;
    c.min_seconds = 1;
    c.max_seconds = 5;
  } else if (mode == "full") {
    c.cpu_batch = 16;
    c.gpu_batch = 128;
    c.warmup = 3;
    c.min_steps = 10;
    c.max_steps = 200;
    c.min_seconds = 10;
    c.max_seconds = 60;
  }
  return c;
}

std::string framework_bench_config_json(const FrameworkBenchConfig& c) {
  json config{{"model", c.model},
              {"image", c.image},
              {"cpu_batch", c.cpu_batch},
              {"gpu_batch", c.gpu_batch},
              {"gpu_batch_scaled", c.gpu_batch_scaled},
              {"warmup", c.warmup},
              {"min_steps", c.min_steps},
              {"max_steps", c.max_steps},
              {"min_seconds", c.min_seconds},
              {"max_seconds", c.max_seconds},
              {"cpu", c.cpu},
              {"gpu", c.gpu}};
  if (!c.test_config.empty()) config.update(json::parse(c.test_config));
  return config.dump();
}

const char* framework_bench_script() {
  // The standard library, the framework and numpy. Each figure's error stays with that figure.
  return R"PY(
import json, math, os, sys, threading, time, traceback
fw, cfg = sys.argv[1], json.loads(sys.argv[2])
MODEL, IMG, CLASSES = cfg["model"], cfg["image"], 1000
BLOCKS = {"resnet50": (True, [3, 4, 6, 3]), "resnet18": (False, [2, 2, 2, 2])}[MODEL]
out = {"framework": fw, "version": None, "model": MODEL, "model_source": None, "gpus": [], "figures": [], "error": None}
emitted = threading.Lock()
def emit():
    """Prints the result once: at the end of the script or from the watchdog, not both."""
    if not emitted.acquire(blocking=False):
        return False
    print("GPUDOCTOR-RESULT " + json.dumps(out), flush=True)
    return True
children = []  # processes the script started (DDP ranks): the watchdog ends them
def watchdog(seconds):
    """A step that never returns (NCCL waiting for a peer that cannot reach it, a driver stuck in a
    kernel) must not cost the figures already measured: shortly before the parent's deadline the
    figure in progress is marked as timed out, the rest is printed, and the script ends."""
    time.sleep(seconds)
    for f in out["figures"]:
        if not f["times"] and f["error"] is None:
            f["error"] = f"TimeoutError: did not finish within {seconds:.0f} s (the framework deadline is " \
                         f"{cfg['deadline_s']:.0f} s: --framework-timeout-ms)"
    for p in children:
        try:
            p.kill()
        except Exception:
            pass
    try:
        if not emit():
            time.sleep(10)  # the script is printing its own result: let it finish
    finally:
        os._exit(0)
if cfg.get("deadline_s"):
    # The result must be out before the parent kills the interpreter: a fifth of the deadline,
    # at most 30 s, is left for that.
    threading.Thread(target=watchdog, args=(cfg["deadline_s"] - min(30.0, cfg["deadline_s"] / 5),),
                     daemon=True).start()
SAMPLE_SRC = r'''
def sample(step):
    """Untimed warm-up (compilation, autotuning), then timed steps until the policy is met; each
    step's loss comes back to the host, which waits for the device."""
    losses = [step() for _ in range(cfg["warmup"])]
    times, spent = [], 0.0
    while len(times) < cfg["min_steps"] or (spent < cfg["min_seconds"] and spent < cfg["max_seconds"]):
        t0 = time.perf_counter()
        losses.append(step())
        times.append(time.perf_counter() - t0)
        spent += times[-1]
        if len(times) >= cfg["max_steps"]:
            break
    return times, losses
'''
exec(SAMPLE_SRC)
def scale_gpu_batch(memory_bytes, what):
    """The per-GPU batch for a card on which the framework may use memory_bytes: the configured
    one, doubled from 24 GiB and quadrupled from 48 GiB unless the batch was given. Returns the
    words the figures' details carry."""
    if not cfg.get("gpu_batch_scaled") or not memory_bytes:
        return ""
    gib = memory_bytes / 2**30
    factor = 4 if gib >= 48 else 2 if gib >= 24 else 1
    if factor == 1:
        return ""
    cfg["gpu_batch"] *= factor
    return f"; batch {factor}x the default for {gib:.0f} GiB of {what} (--framework-batch CPU,GPU sets it)"
def out_of_memory(e):
    """The device's memory ran out: PyTorch's OutOfMemoryError ("CUDA out of memory"), XLA's
    RESOURCE_EXHAUSTED ("Out of memory while trying to allocate"), TensorFlow's
    ResourceExhaustedError ("OOM when allocating tensor")."""
    text = f"{type(e).__name__}: {e}"
    return any(w in text for w in ("OutOfMemory", "out of memory", "Out of memory", "RESOURCE_EXHAUSTED",
                                   "ResourceExhausted", "OOM when allocating"))
def release_memory():
    import gc
    gc.collect()
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available():
        torch.cuda.empty_cache()
def tf32_overridden():
    """NVIDIA_TF32_OVERRIDE=0 turns TF32 off in cuBLAS and cuDNN, under every framework."""
    return os.environ.get("NVIDIA_TF32_OVERRIDE") == "0"
OVERRIDDEN = "no TF32 (NVIDIA_TF32_OVERRIDE=0)"
def figure(key, batch, detail, run, per_gpu_batch=False, tf32=None, gpus=None):
    """Runs one figure. per_gpu_batch: `run` uses cfg["gpu_batch"], so a step that runs out of
    GPU memory is tried again at half the batch (down to 4), which the later figures keep: the
    default batch does not fit every card, and a figure at a smaller batch says more than none.
    tf32: on an FP32 GPU figure, whether the framework lets it run in TF32 (None elsewhere); gpus:
    the models of the GPUs it runs on."""
    f = {"key": key, "batch": batch, "detail": detail, "times": [], "losses": [], "error": None, "tf32": tf32,
         "gpus": gpus or []}
    out["figures"].append(f)
    while True:
        smaller = False
        try:
            f["times"], f["losses"] = run()
            # NaN is not JSON: a loss that is not a number goes as null, and the figure fails.
            f["losses"] = [x if math.isfinite(x) else None for x in map(float, f["losses"])]
        except BaseException as e:
            if per_gpu_batch and out_of_memory(e) and cfg["gpu_batch"] >= 8:
                smaller = True
                f["detail"] += f"; batch {cfg['gpu_batch']} ran out of GPU memory"
                cfg["gpu_batch"] //= 2
                f["batch"] = cfg["gpu_batch"]
                f["detail"] += f", so {cfg['gpu_batch']}"
            else:
                f["error"] = f"{type(e).__name__}: {str(e)[:600]}"
                traceback.print_exc()
        if not smaller:
            return
        release_memory()  # after the except block, which held the failed step's frames
PT_MODEL = r'''
import contextlib, torch, torch.nn as nn, torch.nn.functional as F
def conv_bn(cin, cout, k, stride):
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout))
class Block(nn.Module):
    def __init__(self, cin, width, stride, bottleneck):
        super().__init__()
        cout = width * 4 if bottleneck else width
        if bottleneck:  # ResNet v1.5: the stride on the 3x3
            self.body = nn.Sequential(conv_bn(cin, width, 1, 1), nn.ReLU(), conv_bn(width, width, 3, stride), nn.ReLU(),
                                      conv_bn(width, cout, 1, 1))
        else:
            self.body = nn.Sequential(conv_bn(cin, width, 3, stride), nn.ReLU(), conv_bn(width, cout, 3, 1))
        self.short = conv_bn(cin, cout, 1, stride) if stride != 1 or cin != cout else nn.Identity()
    def forward(self, x):
        return F.relu(self.body(x) + self.short(x))
def resnet(bottleneck, counts, classes):
    layers, cin = [conv_bn(3, 64, 7, 2), nn.ReLU(), nn.MaxPool2d(3, 2, 1)], 64
    for i, n in enumerate(counts):
        for j in range(n):
            layers.append(Block(cin, 64 << i, 2 if i > 0 and j == 0 else 1, bottleneck))
            cin = (64 << i) * (4 if bottleneck else 1)
    return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, classes))
def make_step(dev, batch, dtype, wrap=None):
    torch.manual_seed(0)
    model = resnet(BLOCKS[0], BLOCKS[1], CLASSES).to(dev)
    fmt = torch.channels_last if dev.type == "cuda" else torch.contiguous_format
    model = model.to(memory_format=fmt)
    if wrap is not None:
        model = wrap(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = torch.randn(batch, 3, IMG, IMG, device=dev).contiguous(memory_format=fmt)
    y = torch.randint(0, CLASSES, (batch,), device=dev)
    scaler = None
    if dtype == torch.float16:  # torch.amp.GradScaler since 2.3; torch.cuda.amp's before
        # 2^16, the default, overflows and skips every step of a short run (seen on the CPU: 4 of 4).
        amp = torch.amp if hasattr(torch.amp, "GradScaler") else torch.cuda.amp
        scaler = amp.GradScaler(dev.type, init_scale=1024) if amp is torch.amp else amp.GradScaler(init_scale=1024)
    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast(dev.type, dtype=dtype) if dtype is not None else contextlib.nullcontext():
            loss = F.cross_entropy(model(x), y)
        if scaler is None:
            loss.backward()
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        return loss.item()
    return step
'''
PT_WORKER = r'''
import json, os, sys, time
cfg = json.loads(sys.argv[1])
rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
if cfg.get("dp_platform") == "cpu":  # tests: DDP over gloo, one thread per process
    torch.set_num_threads(1)
    dev, backend, ids = torch.device("cpu"), "gloo", None
else:
    torch.cuda.set_device(rank)
    torch.backends.cudnn.benchmark = True
    # NCCL where this torch has it; Windows builds do not, and DDP there runs over gloo.
    backend = "nccl" if torch.distributed.is_nccl_available() else "gloo"
    dev, ids = torch.device("cuda", rank), [rank]
if cfg.get("dp_fail_rank") == rank:  # tests: a rank that dies before the group forms
    sys.exit(3)
torch.distributed.init_process_group(backend, rank=rank, world_size=world)
step = make_step(dev, cfg["gpu_batch"], None, lambda m: torch.nn.parallel.DistributedDataParallel(m, device_ids=ids))
def synced():
    loss = step()
    torch.distributed.barrier()
    return loss
times, losses = sample(synced)
torch.distributed.destroy_process_group()
if rank == 0:
    print("GPUDOCTOR-DDP " + json.dumps({"times": times, "losses": losses}), flush=True)
'''
def pytorch_ddp(ranks):
    # One process per rank, as torchrun starts them; the first to fail ends the others, which
    # would otherwise wait in the process group until the deadline.
    import socket, subprocess, tempfile
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code = "import json, math, os, sys, time\n" + "MODEL, IMG, CLASSES, BLOCKS = %r, %d, %d, %r\n" % (
        MODEL, IMG, CLASSES, BLOCKS) + "cfg = json.loads(sys.argv[1])\n" + SAMPLE_SRC + PT_MODEL + PT_WORKER
    procs, outs = [], []
    try:
        for r in range(ranks):
            env = dict(os.environ, RANK=str(r), WORLD_SIZE=str(ranks), LOCAL_RANK=str(r), MASTER_ADDR="127.0.0.1",
                       MASTER_PORT=str(port))
            outs.append(tempfile.TemporaryFile("w+"))
            procs.append(subprocess.Popen([sys.executable, "-c", code, json.dumps(cfg)], env=env, stdout=outs[-1]))
            children.append(procs[-1])
        while True:
            codes = [p.poll() for p in procs]  # every one: any() would stop at the first running
            if None not in codes or any(c not in (None, 0) for c in codes):
                break
            time.sleep(0.1)
        bad = [i for i, p in enumerate(procs) if p.returncode not in (None, 0)]
        if bad:
            raise RuntimeError(f"DDP rank(s) {bad} exited with {[procs[i].returncode for i in bad]}")
        outs[0].seek(0)
        for line in outs[0].read().splitlines():
            if line.startswith("GPUDOCTOR-DDP "):
                r = json.loads(line[len("GPUDOCTOR-DDP "):])
                return r["times"], r["losses"]
        raise RuntimeError("rank 0 gave no result")
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        for f in outs:
            f.close()
def pytorch():
    exec(PT_MODEL, globals())
    import torch
    out["version"] = torch.__version__
    out["model_source"] = "defined in the script (torchvision's ResNet v1.5 layout; torchvision not used)"
    n = torch.cuda.device_count() if torch.cuda.is_available() and cfg["gpu"] else 0
    out["gpus"] = [torch.cuda.get_device_name(i) for i in range(n)]
    torch.backends.cudnn.benchmark = True
    name = MODEL
    if cfg["cpu"]:
        figure(name + "_fp32.cpu", cfg["cpu_batch"], f"{torch.get_num_threads()} threads",
               lambda: sample(make_step(torch.device("cpu"), cfg["cpu_batch"], None)))
    # tests: the GPU figures' code on the CPU (autocast, GradScaler, DDP over gloo), keys unchanged
    on_cpu = cfg.get("dp_platform") == "cpu"
    if on_cpu:
        torch.set_num_threads(1)  # two spinning OpenMP threads on a busy 2-core machine: 10x slower
        n = cfg.get("dp_ranks", 2)
        out["gpus"] = [f"cpu (test mode, rank {i})" for i in range(n)]
    if n == 0:
        return
    dev = torch.device("cpu") if on_cpu else torch.device("cuda", 0)
    mark = "test mode, on the CPU: " if on_cpu else ""
    # The smallest card's memory: the data-parallel figure runs the same batch on every GPU.
    scaled = "" if on_cpu else scale_gpu_batch(min(torch.cuda.get_device_properties(i).total_memory for i in range(n)),
                                               "GPU memory" + (" on the smallest GPU" if n > 1 else ""))
    # TF32 needs CC 8.0; cuDNN may use it in FP32 convolutions unless told not to (PyTorch allows
    # it by default there; its matmuls default to plain FP32). PyTorch 2.9 added
    # torch.backends.cudnn.conv.fp32_precision, and reading allow_tf32 after code mixed the two
    # APIs raises: a failed read costs the word, never the figures. ROCm builds are not judged.
    cc = None if on_cpu or getattr(torch.version, "hip", None) else torch.cuda.get_device_capability(0)
    try:
        conv = getattr(torch.backends.cudnn, "conv", None)
        precision = getattr(conv, "fp32_precision", None) if conv is not None else None
        # "tf32" or "ieee"; "none" inherits from torch.backends.cudnn's, which allow_tf32 resolves.
        allowed = precision == "tf32" if precision in ("tf32", "ieee") else bool(torch.backends.cudnn.allow_tf32)
    except Exception:
        allowed = None
    tf32 = cc is not None and cc[0] >= 8 and allowed is True and not tf32_overridden()
    tf32_words = ("TF32 allowed in convolutions (PyTorch's default on CC 8.0 and newer)" if tf32
                  else f"no TF32 (CC {cc[0]}.{cc[1]} has none)" if cc is not None and cc[0] < 8
                  else OVERRIDDEN if cc is not None and tf32_overridden()
                  else "TF32 setting unreadable" if cc is not None and allowed is None
                  else "no TF32")
    models = [] if on_cpu else out["gpus"]
    layout = "NCHW" if on_cpu else "channels_last"
    figure(name + "_fp32.gpu0", cfg["gpu_batch"], f"{mark}FP32, {tf32_words}, {layout}{scaled}",
           lambda: sample(make_step(dev, cfg["gpu_batch"], None)), per_gpu_batch=True, tf32=tf32, gpus=models[:1])
    if on_cpu:
        half = torch.float16 if cfg.get("half") == "fp16" else torch.bfloat16
    else:
        # BF16 where the card has BF16 tensor cores (CC 8.0+); before Ampere, FP16 is its mixed
        # precision (is_bf16_supported() also says yes to BF16 emulated on the CUDA cores).
        half = torch.bfloat16 if torch.cuda.get_device_capability(0)[0] >= 8 else torch.float16
    hname = "bf16" if half == torch.bfloat16 else "fp16"
    figure(f"{name}_{hname}.gpu0", cfg["gpu_batch"],
           f"{mark}mixed precision: torch.autocast {hname}, FP32 weights" + (", GradScaler" if hname == "fp16" else "") +
           scaled,
           lambda: sample(make_step(dev, cfg["gpu_batch"], half)), per_gpu_batch=True, gpus=models[:1])
    if n > 1:
        figure(f"{name}_fp32.gpus{n}", cfg["gpu_batch"] * n,
               f"{mark}DistributedDataParallel ({'NCCL' if not on_cpu and torch.distributed.is_nccl_available() else 'gloo'}), one process per "
               f"{'rank' if on_cpu else 'GPU'}, {cfg['gpu_batch']} images per {'rank' if on_cpu else 'GPU'}",
               lambda: pytorch_ddp(n), tf32=tf32, gpus=models[:n])
JAX_MODEL = r'''
import jax, jax.numpy as jnp, numpy as np
def init(key):
    params, keys = {}, iter(jax.random.split(key, 200))
    def conv(name, k, cin, cout):
        params[name] = {"w": jax.random.normal(next(keys), (k, k, cin, cout), jnp.float32) * math.sqrt(2.0 / (k * k * cin)),
                        "g": jnp.ones(cout), "b": jnp.zeros(cout)}
    conv("stem", 7, 3, 64)
    cin, arch = 64, []
    for i, n in enumerate(BLOCKS[1]):
        for j in range(n):
            w, stride = 64 << i, 2 if i > 0 and j == 0 else 1
            cout, p = w * (4 if BLOCKS[0] else 1), f"s{i}b{j}"
            if BLOCKS[0]:
                conv(p + "c1", 1, cin, w); conv(p + "c2", 3, w, w); conv(p + "c3", 1, w, cout)
            else:
                conv(p + "c1", 3, cin, w); conv(p + "c2", 3, w, cout)
            if stride != 1 or cin != cout:
                conv(p + "sc", 1, cin, cout)
            arch.append((p, stride, stride != 1 or cin != cout))
            cin = cout
    params["fc"] = {"w": jax.random.normal(next(keys), (cin, CLASSES), jnp.float32) * 0.01, "b": jnp.zeros(CLASSES)}
    return params, arch
def conv_bn(p, x, stride, dtype):
    k = p["w"].shape[0]
    x = jax.lax.conv_general_dilated(x, p["w"].astype(dtype), (stride, stride), [(k // 2, k // 2)] * 2,
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))
    m = jnp.mean(x.astype(jnp.float32), (0, 1, 2))
    v = jnp.var(x.astype(jnp.float32), (0, 1, 2))
    return ((x - m.astype(dtype)) * (jax.lax.rsqrt(v + 1e-5) * p["g"]).astype(dtype) + p["b"].astype(dtype))
def forward(params, arch, x, dtype):
    x = jax.nn.relu(conv_bn(params["stem"], x.astype(dtype), 2, dtype))
    x = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 3, 3, 1), (1, 2, 2, 1), [(0, 0), (1, 1), (1, 1), (0, 0)])
    for p, stride, proj in arch:
        s = conv_bn(params[p + "sc"], x, stride, dtype) if proj else x
        if BLOCKS[0]:
            h = jax.nn.relu(conv_bn(params[p + "c1"], x, 1, dtype))
            h = jax.nn.relu(conv_bn(params[p + "c2"], h, stride, dtype))
            h = conv_bn(params[p + "c3"], h, 1, dtype)
        else:
            h = jax.nn.relu(conv_bn(params[p + "c1"], x, stride, dtype))
            h = conv_bn(params[p + "c2"], h, 1, dtype)
        x = jax.nn.relu(h + s)
    x = jnp.mean(x.astype(jnp.float32), (1, 2))
    return x @ params["fc"]["w"] + params["fc"]["b"]
def make_step(devices, batch, dtype):
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    mesh = Mesh(np.array(devices), ("data",))
    rep, split = NamedSharding(mesh, P()), NamedSharding(mesh, P("data"))
    params, arch = init(jax.random.PRNGKey(0))
    params = jax.device_put(params, rep)
    mom = jax.tree_util.tree_map(jnp.zeros_like, params)
    rng = np.random.default_rng(0)
    x = jax.device_put(rng.standard_normal((batch, IMG, IMG, 3), dtype=np.float32), split)
    y = jax.device_put(rng.integers(0, CLASSES, batch), split)
    def loss_fn(params, x, y):
        logits = forward(params, arch, x, dtype)
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], 1))
    @jax.jit
    def train(params, mom, x, y):
        loss, g = jax.value_and_grad(loss_fn)(params, x, y)
        mom = jax.tree_util.tree_map(lambda m, g: 0.9 * m + g, mom, g)
        return jax.tree_util.tree_map(lambda p, m: p - 0.01 * m, params, mom), mom, loss
    state = [params, mom]
    def step():
        state[0], state[1], loss = train(state[0], state[1], x, y)
        return float(loss)
    return step
'''
def jax_bench():
    exec(JAX_MODEL, globals())
    import jax, jax.numpy as jnp
    out["version"] = jax.__version__
    out["model_source"] = "defined in the script (ResNet v1.5 layout, jax.lax; batch statistics, no running averages)"
    gpus = [d for d in jax.devices() if d.platform in ("gpu", "cuda")] if cfg["gpu"] else []
    if cfg.get("dp_platform") == "cpu":  # tests: the data-parallel path on forced host devices
        gpus = jax.devices("cpu")
    out["gpus"] = [f"{d.platform}:{d.id} {getattr(d, 'device_kind', '')}".strip() for d in gpus]
    name = MODEL
    if cfg["cpu"]:
        figure(name + "_fp32.cpu", cfg["cpu_batch"], "XLA CPU", lambda: sample(make_step(jax.devices("cpu")[:1], cfg["cpu_batch"], jnp.float32)))
    if not gpus:
        return
    scaled = ""
    if cfg.get("dp_platform") != "cpu":
        try:  # what XLA's allocator may use (75 % of the card by default)
            limits = [(d.memory_stats() or {}).get("bytes_limit") for d in gpus]
            scaled = scale_gpu_batch(None if None in limits else min(limits),
                                     "memory JAX may use" + (" on the smallest GPU" if len(gpus) > 1 else ""))
        except Exception:
            pass
    on_cpu = cfg.get("dp_platform") == "cpu"
    try:
        cc = None if on_cpu else float(getattr(gpus[0], "compute_capability", None))
    except (TypeError, ValueError):
        cc = None
    # On the GPU, XLA allows TF32 at precision DEFAULT and HIGH (xla/service/gpu/matmul_utils.cc,
    # IsTf32Allowed: compute_precision <= 1): "default", "fastest", "bfloat16", "high",
    # "tensorfloat32", "bfloat16_3x" and the tf32 algorithm presets. Only HIGHEST ("highest",
    # "float32") and the F32 presets ask for FP32 arithmetic.
    precision = str(getattr(jax.config, "jax_default_matmul_precision", None) or "default").lower()
    level = precision[len("precision."):] if precision.startswith("precision.") else precision
    fp32_asked = level in ("highest", "float32") or level.startswith("f32_f32")
    tf32 = cc is not None and cc >= 8 and not fp32_asked and not tf32_overridden()
    models = [] if on_cpu else [getattr(d, "device_kind", "") for d in gpus]
    figure(name + "_fp32.gpu0", cfg["gpu_batch"],
           (f"FP32, matmul precision {precision}: XLA may use TF32 on CC 8.0 and newer" if tf32
            else f"FP32, matmul precision {precision}" + (f", {OVERRIDDEN}" if tf32_overridden() else "")) + scaled,
           lambda: sample(make_step(gpus[:1], cfg["gpu_batch"], jnp.float32)), per_gpu_batch=True, tf32=tf32,
           gpus=models[:1])
    # BF16 where the card has BF16 tensor cores (CC 8.0+); before Ampere XLA would emulate it,
    # and FP16 is the card's mixed precision.
    bf16 = on_cpu or cc is None or cc >= 8
    hname, htype = ("bf16", jnp.bfloat16) if bf16 else ("fp16", jnp.float16)
    figure(f"{name}_{hname}.gpu0", cfg["gpu_batch"],
           f"mixed precision: {'bfloat16' if bf16 else 'float16'} compute, FP32 weights and loss" + scaled,
           lambda: sample(make_step(gpus[:1], cfg["gpu_batch"], htype)), per_gpu_batch=True, gpus=models[:1])
    if len(gpus) > 1:
        n = len(gpus)
        figure(f"{name}_fp32.gpus{n}", cfg["gpu_batch"] * n,
               f"jax.sharding: batch split over {n} devices, weights replicated, {cfg['gpu_batch']} images per device",
               lambda: sample(make_step(gpus, cfg["gpu_batch"] * n, jnp.float32)), tf32=tf32, gpus=models)
def tensorflow():
    import tensorflow as tf
    out["version"] = tf.__version__
    out["model_source"] = "defined in the script with tf.keras layers (ResNet v1.5 layout; keras.applications not used)"
    gpus = tf.config.list_physical_devices("GPU") if cfg["gpu"] else []
    out["gpus"] = [g.name for g in gpus]
    gpu_dev, mark, mirrored = "/GPU:0", "", lambda: tf.distribute.MirroredStrategy()
    if cfg.get("dp_platform") == "cpu":  # tests: the GPU figures' code on logical CPU devices
        ranks = cfg.get("dp_ranks", 2)
        cpu0 = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu0, [tf.config.LogicalDeviceConfiguration()] * ranks)
        gpus = tf.config.list_logical_devices("CPU")
        out["gpus"] = [g.name for g in gpus]
        gpu_dev, mark = "/CPU:0", "test mode, on the CPU: "
        mirrored = lambda: tf.distribute.MirroredStrategy([g.name for g in gpus])
    L = tf.keras.layers
    def build():
        def conv_bn(x, cout, k, stride):
            x = L.Conv2D(cout, k, stride, padding="same", use_bias=False)(x)
            return L.BatchNormalization()(x)
        inp = L.Input((IMG, IMG, 3))
        x = L.MaxPooling2D(3, 2, padding="same")(L.ReLU()(conv_bn(inp, 64, 7, 2)))
        cin = 64
        for i, n in enumerate(BLOCKS[1]):
            for j in range(n):
                w, stride = 64 << i, 2 if i > 0 and j == 0 else 1
                cout = w * (4 if BLOCKS[0] else 1)
                s = conv_bn(x, cout, 1, stride) if stride != 1 or cin != cout else x
                if BLOCKS[0]:
                    h = L.ReLU()(conv_bn(x, w, 1, 1))
                    h = conv_bn(L.ReLU()(conv_bn(h, w, 3, stride)), cout, 1, 1)
                else:
                    h = conv_bn(L.ReLU()(conv_bn(x, w, 3, stride)), cout, 3, 1)
                x, cin = L.ReLU()(L.Add()([h, s])), cout
        x = L.GlobalAveragePooling2D()(x)
        return tf.keras.Model(inp, L.Dense(CLASSES, dtype="float32")(x))
    def make_step(device, batch, policy, strategy=None):
        tf.keras.mixed_precision.set_global_policy(policy)
        tf.keras.utils.set_random_seed(0)
        scope = strategy.scope() if strategy else tf.device(device)
        with scope:
            model = build()
            opt = tf.keras.optimizers.SGD(0.01, momentum=0.9)
            if policy == "mixed_float16":
                # 2^15, the default, overflows and skips the first steps of a short run.
                opt = tf.keras.mixed_precision.LossScaleOptimizer(opt, initial_scale=1024)
            if hasattr(opt, "build"):  # the slots now, not in the first (distributed) step
                opt.build(model.trainable_variables)
        with tf.device(device or "/CPU:0"):
            x = tf.random.normal((batch, IMG, IMG, 3))
            y = tf.random.uniform((batch,), 0, CLASSES, tf.int32)
        lossf = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
        mixed = policy == "mixed_float16"
        keras2 = mixed and hasattr(opt, "get_scaled_loss")  # Keras 3 scales with scale_loss, unscales in apply
        replicas = strategy.num_replicas_in_sync if strategy else 1
        def one(x, y):
            with tf.GradientTape() as tape:
                loss = tf.nn.compute_average_loss(lossf(y, model(x, training=True)), global_batch_size=batch * replicas)
                scaled = (opt.get_scaled_loss(loss) if keras2 else opt.scale_loss(loss)) if mixed else loss
            g = tape.gradient(scaled, model.trainable_variables)
            if keras2:
                g = opt.get_unscaled_gradients(g)
            opt.apply_gradients(zip(g, model.trainable_variables))
            return loss
        @tf.function
        def train():
            if strategy:
                return strategy.reduce("SUM", strategy.run(one, args=(x, y)), axis=None)
            return one(x, y)
        def step():
            with tf.device(device) if device else strategy.scope():
                return float(train())
        return step
    name = MODEL
    if cfg["cpu"]:
        figure(name + "_fp32.cpu", cfg["cpu_batch"], "TensorFlow CPU",
               lambda: sample(make_step("/CPU:0", cfg["cpu_batch"], "float32")))
    if not gpus:
        return
    models, cc = [], None
    if not mark:
        try:  # {"device_name": "NVIDIA A100-SXM4-80GB", "compute_capability": (8, 0)}
            details = [tf.config.experimental.get_device_details(g) for g in gpus]
            models = [str(d.get("device_name", "")) for d in details]
            cc = details[0].get("compute_capability")
        except Exception:
            pass
    # TensorFlow allows TF32 in convolutions and matmuls by default (2.4 and newer) on CC 8.0+.
    tf32 = (cc is not None and cc[0] >= 8 and tf.config.experimental.tensor_float_32_execution_enabled()
            and not tf32_overridden())
    figure(name + "_fp32.gpu0", cfg["gpu_batch"],
           f"{mark}FP32" + (" (TF32 allowed: TensorFlow's default on CC 8.0 and newer)" if tf32 else
                            f" ({OVERRIDDEN})" if cc is not None and tf32_overridden() else
                            " (TF32 not in use)" if cc is not None else " (TensorFlow may use TF32 on CC 8.0 and newer)"),
           lambda: sample(make_step(gpu_dev, cfg["gpu_batch"], "float32")), per_gpu_batch=True, tf32=tf32,
           gpus=models[:1])
    figure(name + "_fp16.gpu0", cfg["gpu_batch"], f"{mark}mixed precision: keras policy mixed_float16, loss scaling",
           lambda: sample(make_step(gpu_dev, cfg["gpu_batch"], "mixed_float16")), per_gpu_batch=True, gpus=models[:1])
    tf.keras.mixed_precision.set_global_policy("float32")
    if len(gpus) > 1:
        n = len(gpus)
        figure(f"{name}_fp32.gpus{n}", cfg["gpu_batch"] * n,
               f"{mark}tf.distribute.MirroredStrategy over {n} devices, {cfg['gpu_batch']} images per device",
               lambda: sample(make_step(None, cfg["gpu_batch"], "float32", mirrored())), tf32=tf32, gpus=models)
try:
    {"pytorch": pytorch, "jax": jax_bench, "tensorflow": tensorflow}[fw]()
except BaseException as e:
    out["error"] = f"{type(e).__name__}: {str(e)[:600]}"
    traceback.print_exc()
emit()
)PY";
}

namespace {

std::string model_name(const std::string& model) {
  if (model == "resnet50") return "ResNet-50";
  if (model == "resnet18") return "ResNet-18";
  return model;
}

std::string short_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

}  // namespace

FrameworkBenchRun framework_bench_from_output(const FrameworkTarget& target, const FrameworkBenchConfig& config,
                                              const Result<ProcessOutput>& output, long long elapsed_ms) {
  FrameworkBenchRun run;
  const std::string prefix = target.framework + "." + config.model;
  const std::string where = "environment " + target.env + " (" + target.interpreter + ")";
  auto whole_run = [&](BenchStatus status, const std::string& detail) {
    BenchMeasurement m;
    m.key = prefix + "_fp32." + (config.cpu ? "cpu" : "gpu0");
    m.unit = "images_per_s";
    m.status = status;
    m.detail = detail + "; " + where;
    run.measurements.push_back(std::move(m));
  };
  if (!output) {
    const Error& e = output.error();
    whole_run(e.kind == ErrorKind::timeout ? BenchStatus::timeout : BenchStatus::crashed,
              target.framework + " training step: " + e.message + " after " + std::to_string(elapsed_ms) + " ms");
    return run;
  }
  run.stderr_text = output->err;
  json result = json::parse(framework_result_text(output->out), nullptr, false);
  if (!result.is_object()) {
    whole_run(output->exit_code < 0 || output->exit_code > 128 ? BenchStatus::crashed : BenchStatus::failed,
              "the interpreter ended (status " + std::to_string(output->exit_code) + ") without a result");
    return run;
  }
  auto text = [](const json& j, const char* key, size_t limit) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? printable(it->get<std::string>(), limit) : std::string();
  };
  const std::string version = text(result, "version", 80);
  const std::string library = target.framework + (version.empty() ? "" : " " + version) + ", " + where;
  if (std::string source = text(result, "model_source", 300); !source.empty())
    run.notes.push_back(target.framework + ": " + model_name(config.model) + " " + source);
  if (auto g = result.find("gpus"); g != result.end() && g->is_array()) {
    std::string names;
    for (const auto& x : *g) {
      if (x.is_string()) names += (names.empty() ? "" : ", ") + printable(x.get<std::string>(), 100);
    }
    run.notes.push_back(target.framework + " sees " + std::to_string(g->size()) + " GPU(s)" +
                        (names.empty() ? "" : ": " + names));
  }
  if (std::string error = text(result, "error", 600); !error.empty()) {
    whole_run(BenchStatus::failed, library + ": " + error);
    return run;
  }
  auto figures = result.find("figures");
  if (figures == result.end() || !figures->is_array()) return run;
  for (const json& f : *figures) {
    if (!f.is_object()) continue;
    BenchMeasurement m;
    std::string key = text(f, "key", 80);
    // The script names its figures "<model>_<precision>.<device>"; anything else is not ours.
    if (!key.starts_with(config.model + "_") ||
        key.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_.") != std::string::npos)
      continue;
    m.key = target.framework + "." + key;
    m.unit = "images_per_s";
    m.library = library;
    const int batch = f.contains("batch") && f["batch"].is_number_integer() ? f["batch"].get<int>() : 0;
    if (key.ends_with(".gpu0") && batch > 0) run.gpu_batch = batch;
    m.detail = model_name(config.model) + " training step (forward, backward, SGD with momentum), batch " +
               std::to_string(batch) + " of synthetic 3x" + std::to_string(config.image) + "x" +
               std::to_string(config.image) + " images, 1000 classes; " + text(f, "detail", 300);
    if (key.find("_fp32.gpu") != std::string::npos && f.contains("tf32") && f["tf32"].is_boolean())
      m.tf32 = f["tf32"].get<bool>();
    if (auto g = f.find("gpus"); g != f.end() && g->is_array()) {
      for (const auto& x : *g) {
        if (x.is_string() && m.gpus.size() < 64) m.gpus.push_back(printable(x.get<std::string>(), 100));
      }
    }
    if (std::string error = text(f, "error", 600); !error.empty()) {
      m.status = error.starts_with("TimeoutError") ? BenchStatus::timeout : BenchStatus::failed;
      m.detail += ": " + error;
      run.measurements.push_back(std::move(m));
      continue;
    }
    std::vector<double> times;
    std::vector<double> losses;
    for (const char* name : {"times", "losses"}) {
      auto it = f.find(name);
      if (it == f.end() || !it->is_array()) continue;
      for (const auto& x : *it) {
        (name[0] == 't' ? times : losses).push_back(x.is_number() ? x.get<double>() : std::nan(""));
      }
    }
    bool finite = !losses.empty();
    for (double l : losses) finite = finite && std::isfinite(l);
    for (double t : times) finite = finite && std::isfinite(t) && t > 0;
    if (times.empty() || batch <= 0 || !finite) {
      m.status = BenchStatus::failed;
      m.check = "no usable step times or a loss that is not a number";
      run.measurements.push_back(std::move(m));
      continue;
    }
    SampleStats stats = summarize(times);
    fill_rate(m, stats, batch, 1.0);
    m.status = BenchStatus::ok;
    m.check_passed = losses.back() < losses.front();
    m.check = "loss over " + std::to_string(losses.size()) +
              " steps on the same batch: " + short_number(losses.front()) + " -> " + short_number(losses.back()) +
              (m.check_passed ? ", finite and falling" : ", NOT falling: the step does not learn");
    run.measurements.push_back(std::move(m));
  }
  return run;
}

FrameworkBenchRun run_framework_bench(const ProcessRunner& runner, const FrameworkTarget& target,
                                      const FrameworkBenchConfig& config, std::chrono::milliseconds deadline) {
  long long elapsed_ms = 0;
  // The script's watchdog prints what it has before this deadline ends it.
  json script_config = json::parse(framework_bench_config_json(config));
  if (!script_config.contains("deadline_s"))
    script_config["deadline_s"] = static_cast<double>(deadline.count()) / 1000.0;
  auto output =
      run_framework_script(runner, target, framework_bench_script(), {script_config.dump()}, deadline, elapsed_ms);
  return framework_bench_from_output(target, config, output, elapsed_ms);
}

}  // namespace gpudoctor::gpu
