#include "gpu/framework_verify.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/text.hpp"

namespace gpudoctor::gpu {

const char* framework_script() {
  // Kept to the standard library plus the framework (and numpy, which each of them needs).
  return R"PY(
import json, math, sys, traceback
fw = sys.argv[1]
out = {"framework": fw, "version": None, "devices": [], "placed_on": None, "matmul_error": None,
       "conv_error": None, "mixed_precision": None, "error": None, "loaded": []}
U32, U16 = 2.0 ** -24, 2.0 ** -11  # unit roundoff of binary32 and binary16
def judge(got, ref, mag, coeff):
    # Per element |got - ref| <= 2 * coeff * sum|a||b|: a dot product of length K in unit
    # roundoff u is off by at most gamma_K = K u / (1 - K u) times sum|a||b| (Higham, Accuracy
    # and Stability of Numerical Algorithms, 2nd ed., 3.1); coeff is K u plus what rounding the
    # inputs and the output adds, doubled as verify's sgemm step does (gpu/verify_math.hpp).
    # Returns the max error and the worst error/bound ratio; a NaN or Inf is no figure.
    import numpy as np
    got, ref = np.asarray(got, dtype=np.float64), np.asarray(ref, dtype=np.float64)
    bound = 2.0 * coeff * np.asarray(mag, dtype=np.float64) + 1e-30
    if not bool(np.isfinite(got).all()):
        bad = "nan" if bool(np.isnan(got).any()) else "inf"
        return bad, bad
    err = np.abs(got - ref)
    return float(err.max()), float((err / bound).max())
def check(key, got, ref, mag, coeff):
    out[key + "_error"], out[key + "_ratio"] = judge(got, ref, mag, coeff)
def finite(x):
    # JSON has no NaN (RFC 8259, 6): a NaN figure travels as the string "nan".
    if isinstance(x, float) and not math.isfinite(x): return "nan" if x != x else "inf"
    if isinstance(x, dict): return {k: finite(v) for k, v in x.items()}
    if isinstance(x, list): return [finite(v) for v in x]
    return x
try:
    if fw == "pytorch":
        import torch
        out["version"] = torch.__version__
        # TF32 is PyTorch's default for convolutions (torch.backends.cudnn.allow_tf32; PyTorch docs,
        # "TensorFloat-32 (TF32) on Ampere (and later) devices"), and FP16 GEMMs may reduce in FP16:
        # off, so that the GPU does the FP32 and FP32-accumulate work the bounds assume.
        for mod, attr in ((torch.backends.cuda.matmul, "allow_tf32"), (torch.backends.cudnn, "allow_tf32"),
                          (torch.backends.cuda.matmul, "allow_fp16_reduced_precision_reduction")):
            if hasattr(mod, attr): setattr(mod, attr, False)
        n = torch.cuda.device_count() if torch.cuda.is_available() else 0
        out["devices"] = [torch.cuda.get_device_name(i) for i in range(n)] or ["cpu"]
        dev = "cuda:0" if n else "cpu"
        out["placed_on"] = dev
        a, b = torch.randn(256, 256), torch.randn(256, 256)
        ref, mag = (a.double() @ b.double()).numpy(), (a.double().abs() @ b.double().abs()).numpy()
        check("matmul", (a.to(dev) @ b.to(dev)).cpu().numpy(), ref, mag, a.shape[1] * U32)
        x, w = torch.randn(2, 3, 10, 10), torch.randn(4, 3, 3, 3)
        got = torch.nn.functional.conv2d(x.to(dev), w.to(dev), padding=1).cpu()
        conv_terms = w.shape[1] * w.shape[2] * w.shape[3]
        check("conv", got.numpy(), torch.nn.functional.conv2d(x.double(), w.double(), padding=1).numpy(),
              torch.nn.functional.conv2d(x.double().abs(), w.double().abs(), padding=1).numpy(), conv_terms * U32)
        if n:
            with torch.autocast("cuda", dtype=torch.float16):
                h = a.to(dev) @ b.to(dev)
            # FP16 inputs (u16 each), FP32 accumulation, an FP16 result (u16 of sum|a||b| at most).
            error, ratio = judge(h.float().cpu().numpy(), ref, mag, 3 * U16 + a.shape[1] * U32)
            out["mixed_precision"] = {"dtype": str(h.dtype), "error": error, "ratio": ratio}
    elif fw == "jax":
        import jax, jax.numpy as jnp, numpy as np
        out["version"] = jax.__version__
        devs = jax.devices()
        out["devices"] = [f"{d.platform}:{d.id} {getattr(d, 'device_kind', '')}".strip() for d in devs]
        d0 = devs[0]
        out["placed_on"] = f"{d0.platform}:{d0.id}"
        rng = np.random.default_rng(1)
        a, b = rng.standard_normal((256, 256), dtype=np.float32), rng.standard_normal((256, 256), dtype=np.float32)
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        ref, mag = a64 @ b64, np.abs(a64) @ np.abs(b64)
        got = jnp.matmul(jax.device_put(a, d0), jax.device_put(b, d0), precision=jax.lax.Precision.HIGHEST)
        check("matmul", np.asarray(got), ref, mag, 256 * U32)
        x, w = rng.standard_normal((2, 3, 10, 10), dtype=np.float32), rng.standard_normal((4, 3, 3, 3), dtype=np.float32)
        conv = jax.lax.conv_general_dilated(jax.device_put(x, d0), jax.device_put(w, d0), (1, 1), ((1, 1), (1, 1)),
                                            precision=jax.lax.Precision.HIGHEST)
        cref, cmag = np.zeros((2, 4, 10, 10)), np.zeros((2, 4, 10, 10))
        xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
        for i in range(3):
            for j in range(3):
                cref += np.einsum("nchw,kc->nkhw", xp[:, :, i:i + 10, j:j + 10], w[:, :, i, j].astype(np.float64))
                cmag += np.einsum("nchw,kc->nkhw", np.abs(xp[:, :, i:i + 10, j:j + 10]),
                                  np.abs(w[:, :, i, j].astype(np.float64)))
        check("conv", np.asarray(conv), cref, cmag, 27 * U32)
        if d0.platform == "gpu" or d0.platform == "cuda":
            h = jax.device_put(a.astype(jnp.float16), d0) @ jax.device_put(b.astype(jnp.float16), d0)
            error, ratio = judge(np.asarray(h), ref, mag, 3 * U16 + 256 * U32)
            out["mixed_precision"] = {"dtype": str(h.dtype), "error": error, "ratio": ratio}
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
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        ref, mag = a64 @ b64, np.abs(a64) @ np.abs(b64)
        check("matmul", got.numpy(), ref, mag, 256 * U32)
        if gpus:
            with tf.device(dev):
                h = tf.matmul(tf.cast(a, tf.float16), tf.cast(b, tf.float16))
            error, ratio = judge(h.numpy(), ref, mag, 3 * U16 + 256 * U32)
            out["mixed_precision"] = {"dtype": h.dtype.name, "error": error, "ratio": ratio}
        with tf.device("/CPU:0"):
            x64, w64 = x.astype(np.float64), w.astype(np.float64)
            check("conv", conv.numpy(), tf.nn.conv2d(x64, w64, 1, "SAME").numpy(),
                  tf.nn.conv2d(np.abs(x64), np.abs(w64), 1, "SAME").numpy(), 27 * U32)
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
print("GPUDOCTOR-RESULT " + json.dumps(finite(out), allow_nan=False), flush=True)
)PY";
}

namespace {

using json = nlohmann::ordered_json;

std::string number(const json& j) {
  if (j.is_string() && (j == "nan" || j == "inf")) return j.get<std::string>();  // the script's finite()
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
  FrameworkStepFacts& facts = s.framework.emplace();
  facts.environment = target.env;
  facts.interpreter = target.interpreter;
  facts.framework = target.framework;
  if (!output) {
    const Error& e = output.error();
    s.status = e.kind == ErrorKind::timeout ? StepStatus::timeout : StepStatus::crashed;
    s.detail = e.message;
    return run;
  }
  run.stderr_text = output->err;
  run.stderr_dropped = output->err_dropped;
  json result = json::parse(framework_result_text(output->out), nullptr, false);
  if (!result.is_object()) {
    s.status = output->exit_code < 0 || output->exit_code > 128 ? StepStatus::crashed : StepStatus::failed;
    s.detail = "the interpreter ended (status " + std::to_string(output->exit_code) + ") without a result";
    // Only the first and the last part of a flood are kept: say so rather than blame the interpreter.
    if (output->out_dropped > 0)
      s.detail += " in what was kept of its output (" + std::to_string(output->out_dropped) +
                  " bytes from its middle were dropped)";
    return run;
  }
  auto text = [&](const char* key) {
    auto it = result.find(key);
    return it != result.end() && it->is_string() ? printable(it->get<std::string>(), 300) : std::string();
  };
  facts.version = text("version");
  facts.placed_on = text("placed_on");
  const std::string& placed = facts.placed_on;
  std::string devices;
  if (auto d = result.find("devices"); d != result.end() && d->is_array()) {
    for (const auto& x : *d) {
      if (!x.is_string()) continue;
      facts.devices.push_back(printable(x.get<std::string>(), 100));
      devices += (devices.empty() ? "" : ", ") + facts.devices.back();
    }
  }
  if (auto l = result.find("loaded"); l != result.end() && l->is_array()) {
    for (const auto& x : *l) {
      if (!x.is_string()) continue;
      run.loaded.push_back(x.get<std::string>());
      facts.loaded.push_back(printable(x.get<std::string>(), 300));
      s.notes.push_back("loaded " + facts.loaded.back());
    }
  }
  std::string who = target.framework + (facts.version.empty() ? "" : " " + facts.version);
  if (std::string error = text("error"); !error.empty()) {
    facts.error = error;
    s.status = StepStatus::failed;
    s.detail = who + ": " + error;
    return run;
  }
  s.notes.insert(s.notes.begin() + 1, "devices: " + devices);
  // Each check is judged by its worst error/bound ratio per element (the script's judge()): at
  // most 1 when right. A NaN, an Inf ("nan"/"inf" as text) or a missing ratio is no pass, and
  // `!(ratio <= 1)` is how a NaN that did arrive as a number fails too.
  std::string checks;
  bool right = true;
  auto judged = [&](const json& where, const char* error_key, const char* ratio_key, const char* check,
                    const std::string& dtype, const std::string& what) {
    FrameworkFigure& f = facts.figures.emplace_back(FrameworkFigure{.check = check, .dtype = dtype});
    json error = where.value(error_key, json());
    json ratio = where.value(ratio_key, json());
    if (error.is_number() && std::isfinite(error.get<double>())) f.max_error = error.get<double>();
    if (ratio.is_number() && std::isfinite(ratio.get<double>())) f.bound_ratio = ratio.get<double>();
    if (error.is_string() && (error == "nan" || error == "inf")) f.non_finite = error.get<std::string>();
    right = right && ratio.is_number() && ratio.get<double>() <= 1.0;
    checks += (checks.empty() ? "" : ", ") + what + " max error " + number(error);
    if (f.bound_ratio)
      checks += *f.bound_ratio <= 1 ? " (" + number(*f.bound_ratio * 100) + "% of its bound)"
                                    : " (" + number(*f.bound_ratio) + " times its bound)";
  };
  judged(result, "matmul_error", "matmul_ratio", "matmul", "", "matmul");
  judged(result, "conv_error", "conv_ratio", "conv", "", "convolution");
  if (auto m = result.find("mixed_precision"); m != result.end() && m->is_object()) {
    std::string dtype = printable(m->value("dtype", std::string("half")), 40);
    judged(*m, "error", "ratio", "fp16-matmul", dtype, dtype + " matmul");
  }
  const bool on_gpu =
      placed.find("cuda") != std::string::npos || placed.find("GPU") != std::string::npos || placed.starts_with("gpu");
  // Where it ran is a fact of its own: a wrong result on the CPU is a CPU fallback too.
  facts.cpu_fallback = !on_gpu;
  if (!right) {
    s.status = StepStatus::failed;
    s.detail = who + " on " + placed + ": wrong result: " + checks + (on_gpu ? "" : "; CPU fallback");
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
