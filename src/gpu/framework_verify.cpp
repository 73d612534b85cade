#include "gpu/framework_verify.hpp"

#include <nlohmann/json.hpp>

#include "core/text.hpp"

namespace gpudoctor::gpu {

const char* framework_script() {
  // Kept to the standard library plus the framework (and numpy, which each of them needs).
  return R"PY(
import json, sys, traceback
fw = sys.argv[1]
out = {"framework": fw, "version": None, "devices": [], "placed_on": None, "matmul_error": None,
       "conv_error": None, "mixed_precision": None, "error": None, "loaded": []}
def maxerr(a, b):
    import numpy as np
    return float(np.max(np.abs(np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64))))
try:
    if fw == "pytorch":
        import torch
        out["version"] = torch.__version__
        n = torch.cuda.device_count() if torch.cuda.is_available() else 0
        out["devices"] = [torch.cuda.get_device_name(i) for i in range(n)] or ["cpu"]
        dev = "cuda:0" if n else "cpu"
        out["placed_on"] = dev
        a, b = torch.randn(256, 256), torch.randn(256, 256)
        out["matmul_error"] = maxerr((a.to(dev) @ b.to(dev)).cpu().numpy(), (a.double() @ b.double()).numpy())
        x, w = torch.randn(2, 3, 10, 10), torch.randn(4, 3, 3, 3)
        got = torch.nn.functional.conv2d(x.to(dev), w.to(dev), padding=1).cpu()
        out["conv_error"] = maxerr(got.numpy(), torch.nn.functional.conv2d(x.double(), w.double(), padding=1).numpy())
        if n:
            with torch.autocast("cuda", dtype=torch.float16):
                h = a.to(dev) @ b.to(dev)
            out["mixed_precision"] = {"dtype": str(h.dtype), "error": maxerr(h.float().cpu().numpy(), (a.double() @ b.double()).numpy())}
    elif fw == "jax":
        import jax, jax.numpy as jnp, numpy as np
        out["version"] = jax.__version__
        devs = jax.devices()
        out["devices"] = [f"{d.platform}:{d.id} {getattr(d, 'device_kind', '')}".strip() for d in devs]
        d0 = devs[0]
        out["placed_on"] = f"{d0.platform}:{d0.id}"
        rng = np.random.default_rng(1)
        a, b = rng.standard_normal((256, 256), dtype=np.float32), rng.standard_normal((256, 256), dtype=np.float32)
        got = jnp.matmul(jax.device_put(a, d0), jax.device_put(b, d0), precision=jax.lax.Precision.HIGHEST)
        out["matmul_error"] = maxerr(np.asarray(got), a.astype(np.float64) @ b.astype(np.float64))
        x, w = rng.standard_normal((2, 3, 10, 10), dtype=np.float32), rng.standard_normal((4, 3, 3, 3), dtype=np.float32)
        conv = jax.lax.conv_general_dilated(jax.device_put(x, d0), jax.device_put(w, d0), (1, 1), ((1, 1), (1, 1)),
                                            precision=jax.lax.Precision.HIGHEST)
        ref = np.zeros((2, 4, 10, 10))
        xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
        for i in range(3):
            for j in range(3):
                ref += np.einsum("nchw,kc->nkhw", xp[:, :, i:i + 10, j:j + 10], w[:, :, i, j].astype(np.float64))
        out["conv_error"] = maxerr(np.asarray(conv), ref)
        if d0.platform == "gpu" or d0.platform == "cuda":
            h = jax.device_put(a.astype(jnp.float16), d0) @ jax.device_put(b.astype(jnp.float16), d0)
            out["mixed_precision"] = {"dtype": str(h.dtype), "error": maxerr(np.asarray(h), a.astype(np.float64) @ b.astype(np.float64))}
    elif fw == "tensorflow":
        import tensorflow as tf, numpy as np
        out["version"] = tf.__version__
        gpus = tf.config.list_physical_devices("GPU")
        out["devices"] = [g.name for g in gpus] or ["/physical_device:CPU:0"]
        dev = "/GPU:0" if gpus else "/CPU:0"
        out["placed_on"] = dev
        rng = np.random.default_rng(1)
        a, b = rng.standard_normal((256, 256)).astype(np.float32), rng.standard_normal((256, 256)).astype(np.float32)
        tf.config.experimental.enable_tensor_float_32_execution(False)
        with tf.device(dev):
            got = tf.matmul(a, b)
            x = rng.standard_normal((2, 10, 10, 3)).astype(np.float32)
            w = rng.standard_normal((3, 3, 3, 4)).astype(np.float32)
            conv = tf.nn.conv2d(x, w, 1, "SAME")
        out["matmul_error"] = maxerr(got.numpy(), a.astype(np.float64) @ b.astype(np.float64))
        if gpus:
            with tf.device(dev):
                h = tf.matmul(tf.cast(a, tf.float16), tf.cast(b, tf.float16))
            out["mixed_precision"] = {"dtype": h.dtype.name, "error": maxerr(h.numpy(), a.astype(np.float64) @ b.astype(np.float64))}
        with tf.device("/CPU:0"):
            out["conv_error"] = maxerr(conv.numpy(), tf.nn.conv2d(x.astype(np.float64), w.astype(np.float64), 1, "SAME").numpy())
    else:
        out["error"] = "unknown framework " + fw
except BaseException as e:
    out["error"] = f"{type(e).__name__}: {e}"
    traceback.print_exc()
try:
    import os
    seen = []
    if sys.platform == "win32":
        import ctypes
        from ctypes import wintypes
        k32, psapi = ctypes.WinDLL("kernel32"), ctypes.WinDLL("psapi")
        k32.GetCurrentProcess.restype = wintypes.HANDLE
        mods, need = (wintypes.HMODULE * 4096)(), wintypes.DWORD()
        if psapi.EnumProcessModules(k32.GetCurrentProcess(), mods, ctypes.sizeof(mods), ctypes.byref(need)):
            for m in mods[:min(4096, need.value // ctypes.sizeof(wintypes.HMODULE))]:
                buf = ctypes.create_unicode_buffer(1024)
                if k32.GetModuleFileNameW(wintypes.HMODULE(m), buf, 1024):
                    seen.append(buf.value)
    else:
        for line in open("/proc/self/maps"):
            parts = line.split()
            if len(parts) >= 6 and ".so" in parts[5] and parts[5] not in seen:
                seen.append(parts[5])
    # By file name, not path: the NVIDIA libraries and the framework's core, not each of
    # TensorFlow's 60 Python extension modules that live under site-packages/tensorflow.
    keys = ("cuda", "cudnn", "cublas", "nccl", "nvrtc", "nvjitlink", "cufft", "cusparse", "cusolver", "curand",
            "cupti", "nvshmem", "nvidia", "libtorch", "torch_", "c10", "libtensorflow", "tensorflow_internal",
            "xla_extension", "_jax.", "libjax")
    out["loaded"] = [p for p in seen if any(k in os.path.basename(p).lower() for k in keys)]
except OSError:
    pass
print("GPUDOCTOR-RESULT " + json.dumps(out), flush=True)
)PY";
}

namespace {

using json = nlohmann::ordered_json;

std::string number(const json& j) {
  if (!j.is_number()) return "?";
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", j.get<double>());
  return text;
}

}  // namespace

std::string framework_result_text(std::string_view out) {
  std::string_view found;
  for (std::string_view rest = out; !rest.empty();) {
    size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    constexpr std::string_view kPrefix = "GPUDOCTOR-RESULT ";
    if (line.starts_with(kPrefix)) found = line.substr(kPrefix.size());
  }
  return std::string(found);
}

Result<ProcessOutput> run_framework_script(const ProcessRunner& runner, const FrameworkTarget& target,
                                           const char* script, const std::vector<std::string>& args,
                                           std::chrono::milliseconds deadline, long long& elapsed_ms) {
  std::vector<std::string> argv{target.interpreter, "-c", script, target.framework};
  argv.insert(argv.end(), args.begin(), args.end());
  auto start = std::chrono::steady_clock::now();
  auto output = runner.run(argv, deadline);
  elapsed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  return output;
}

FrameworkRun framework_step_from_output(const FrameworkTarget& target, const Result<ProcessOutput>& output,
                                        long long elapsed_ms) {
  FrameworkRun run;
  VerifyStep& s = run.step;
  s.name = "framework " + target.framework;
  s.elapsed_ms = elapsed_ms;
  s.notes.push_back("environment: " + target.env + " (" + target.interpreter + ")");
  if (!output) {
    const Error& e = output.error();
    s.status = e.kind == ErrorKind::timeout ? StepStatus::timeout : StepStatus::crashed;
    s.detail = e.message;
    return run;
  }
  run.stderr_text = output->err;
  json result = json::parse(framework_result_text(output->out), nullptr, false);
  if (!result.is_object()) {
    s.status = output->exit_code < 0 || output->exit_code > 128 ? StepStatus::crashed : StepStatus::failed;
    s.detail = "the interpreter ended (status " + std::to_string(output->exit_code) + ") without a result";
    return run;
  }
  auto text = [&](const char* key) {
    auto it = result.find(key);
    return it != result.end() && it->is_string() ? printable(it->get<std::string>(), 300) : std::string();
  };
  std::string version = text("version");
  std::string placed = text("placed_on");
  std::string devices;
  if (auto d = result.find("devices"); d != result.end() && d->is_array()) {
    for (const auto& x : *d) {
      if (x.is_string()) devices += (devices.empty() ? "" : ", ") + printable(x.get<std::string>(), 100);
    }
  }
  if (auto l = result.find("loaded"); l != result.end() && l->is_array()) {
    for (const auto& x : *l) {
      if (!x.is_string()) continue;
      run.loaded.push_back(x.get<std::string>());
      s.notes.push_back("loaded " + printable(x.get<std::string>(), 300));
    }
  }
  std::string who = target.framework + (version.empty() ? "" : " " + version);
  if (std::string error = text("error"); !error.empty()) {
    s.status = StepStatus::failed;
    s.detail = who + ": " + error;
    return run;
  }
  s.notes.insert(s.notes.begin() + 1, "devices: " + devices);
  std::string checks = "matmul max error " + number(result.value("matmul_error", json())) + ", convolution max error " +
                       number(result.value("conv_error", json()));
  if (auto m = result.find("mixed_precision"); m != result.end() && m->is_object()) {
    checks += ", " + printable(m->value("dtype", std::string("half")), 40) + " matmul max error " +
              number(m->value("error", json()));
  }
  // The errors against float64 for 256-long float32 dot products of N(0,1) values: well under
  // 1e-3 when right, order 1 or NaN when wrong.
  double worst = 0;
  for (const char* key : {"matmul_error", "conv_error"}) {
    auto it = result.find(key);
    worst = std::max(worst, it != result.end() && it->is_number() ? it->get<double>() : 1e9);
  }
  const bool on_gpu =
      placed.find("cuda") != std::string::npos || placed.find("GPU") != std::string::npos || placed.starts_with("gpu");
  if (worst > 1e-2) {
    s.status = StepStatus::failed;
    s.detail = who + " on " + placed + ": wrong result: " + checks;
  } else if (!on_gpu) {
    s.status = StepStatus::failed;
    s.detail = who + " sees no GPU and ran on the CPU (" + placed + "): CPU fallback; " + checks;
  } else {
    s.status = StepStatus::passed;
    s.detail = who + " on " + placed + ": " + checks;
  }
  return run;
}

namespace {

std::string_view base_name(std::string_view path) {
  size_t slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view dir_name(std::string_view path) {
  size_t slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

/// Whether `path` is a file for `soname`: the soname itself or the soname with more version
/// digits (libcudnn.so.9 -> libcudnn.so.9.1.0 through the loader's link).
bool is_file_for(const std::string& soname, std::string_view path) {
  std::string_view name = base_name(path);
  return name == soname || (name.starts_with(soname) && name[soname.size()] == '.');
}

}  // namespace

std::vector<std::string> loads_against_expected(const std::vector<LibraryLoad>& expected,
                                                const std::vector<std::string>& loaded, int* differ) {
  std::vector<std::string> lines;
  int same = 0;
  *differ = 0;
  for (const LibraryLoad& want : expected) {
    // A process can map two copies of one soname (LD_PRELOAD, a dlopen by full path): each counts.
    std::vector<std::string> copies;
    for (const auto& path : loaded) {
      if (is_file_for(want.soname, path)) copies.push_back(path);
    }
    if (copies.empty()) continue;
    bool as_expected = !want.path.empty() && is_file_for(want.soname, want.path);
    for (const auto& c : copies) as_expected = as_expected && dir_name(c) == dir_name(want.path);
    if (as_expected) {
      ++same;
      continue;
    }
    ++*differ;
    std::string where;
    for (const auto& c : copies) where += (where.empty() ? "" : " and ") + printable(c, 300);
    lines.push_back("not as the doctor expected: " + want.soname + " was loaded from " + where +
                    (copies.size() > 1 ? " (" + std::to_string(copies.size()) + " copies in one process)" : "") +
                    (want.path.empty() ? "; the doctor found no copy the loader would take"
                                       : "; the doctor expected " + printable(want.path, 300) +
                                             (want.via.empty() ? "" : " (" + want.via + ")")));
  }
  if (same > 0)
    lines.insert(lines.begin(), "loaded as the doctor expected: " + std::to_string(same) + " of the " +
                                    std::to_string(same + *differ) +
                                    " CUDA libraries it resolved that this run loaded");
  return lines;
}

FrameworkRun run_framework_check(const ProcessRunner& runner, const FrameworkTarget& target,
                                 std::chrono::milliseconds deadline) {
  long long elapsed_ms = 0;
  auto output = run_framework_script(runner, target, framework_script(), {}, deadline, elapsed_ms);
  return framework_step_from_output(target, output, elapsed_ms);
}

}  // namespace gpudoctor::gpu
