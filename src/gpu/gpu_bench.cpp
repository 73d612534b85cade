#include "gpu/gpu_bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "core/text.hpp"
#include "gpu/bench_kernels.hpp"
#include "gpu/bench_math.hpp"
#include "gpu/child_libraries.hpp"
#include "gpu/child_lines.hpp"
#include "gpu/cpu_bench.hpp"
#include "gpu/cublas_api.hpp"
#include "gpu/cuda_compute_api.hpp"
#include "gpu/cuda_driver_api.hpp"
#include "gpu/cudnn_api.hpp"
#include "gpu/driver_query.hpp"
#include "gpu/gpu_topology.hpp"
#include "gpu/nccl_api.hpp"
#include "gpu/nvml_api.hpp"
#include "gpu/verify_math.hpp"
#include "gpu/verify_steps.hpp"
#include "model/json_codec.hpp"

namespace gpudoctor::gpu {
namespace {

using json = nlohmann::ordered_json;

inline constexpr int kCublasCompute32FFastTf32 = 77;  ///< CUBLAS_COMPUTE_32F_FAST_TF32 (cuBLAS 11)

std::uint16_t float_to_bf16(float f) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &f, 4);
  bits += 0x7FFFU + ((bits >> 16) & 1U);  // round to nearest even
  return static_cast<std::uint16_t>(bits >> 16);
}
float bf16_to_float(std::uint16_t h) {
  std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
  float f = 0;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// One benchmark in the child: the loaded driver, the device's context, the measurement.
struct Run : ChildLibraries {
  BenchMeasurement m;
  CUcontext ctx = nullptr;
  int cc_major = 0;  ///< the device's compute capability (cuDeviceGetAttribute 75/76)
  int cc_minor = 0;
  int kernel_timeout = 0;  ///< CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT: a display watchdog is on
  int integrated = 0;      ///< CU_DEVICE_ATTRIBUTE_INTEGRATED: the GPU shares the host's memory (Jetson)
  int ordinal = -1;        ///< the CUDA device entered

  bool fail(std::string why) {
    m.status = BenchStatus::failed;
    m.detail = std::move(why);
    return false;
  }
  template <class Fn, class... Args>
  bool cu(const char* call, Fn fn, Args&&... args) {
    send_call_line(out, call);
    CUresult rc = fn(std::forward<Args>(args)...);
    if (rc == kCudaSuccess) return true;
    return fail(std::string(call) + ": " + cuda_error_name(rc) + " (" + std::to_string(rc) + ")");
  }

  bool enter(int device) {
    auto names_cuda = names("cuda", default_cuda_driver_names());
    send_call_line(out, "dlopen " + names_cuda.front());
    auto d = load_cuda_driver(names_cuda);
    if (!d) return fail("libcuda: " + d.error().message);
    driver.emplace(std::move(d).value());
    auto c = load_cuda_compute(names_cuda);
    if (!c) return fail("libcuda: " + c.error().message);
    cuda.emplace(std::move(c).value());
    if (cuda->event_create == nullptr || cuda->event_record == nullptr || cuda->event_synchronize == nullptr ||
        cuda->event_elapsed == nullptr) {
      return fail("libcuda at " + cuda->library.path() + " lacks the event calls bench times with");
    }
    CUdevice handle = 0;
    char name[256] = {};
    if (!cu("cuInit", driver->init, 0U) || !cu("cuDeviceGet", cuda->device_get, &handle, device) ||
        !cu("cuDeviceGetName", cuda->device_name, name, static_cast<int>(sizeof name - 1), handle)) {
      return false;
    }
    send_json_line(out, json{{"device_name", printable(name, 100)}});
    if (!cu("cuDeviceGetAttribute", cuda->device_attribute, &cc_major, kCuDeviceAttributeComputeCapabilityMajor,
            handle) ||
        !cu("cuDeviceGetAttribute", cuda->device_attribute, &cc_minor, kCuDeviceAttributeComputeCapabilityMinor,
            handle)) {
      return false;
    }
    // A display watchdog (Windows' WDDM, an X server on the GPU) ends a kernel that runs too long.
    if (cuda->device_attribute(&kernel_timeout, kCuDeviceAttributeKernelExecTimeout, handle) != kCudaSuccess)
      kernel_timeout = 0;
    if (cuda->device_attribute(&integrated, kCuDeviceAttributeIntegrated, handle) != kCudaSuccess) integrated = 0;
    ordinal = device;
    return cu("cuDevicePrimaryCtxRetain", cuda->primary_retain, &ctx, handle) &&
           cu("cuCtxSetCurrent", cuda->ctx_set_current, ctx);
  }

  /// Times `work` (which enqueues on the default stream) with a pair of CUDA events.
  /// `call` names the vendor call inside `work`: what a hang or a crash in the loop was in.
  std::optional<SampleStats> time(const std::function<bool()>& work, const SamplingPolicy& policy, const char* call) {
    CUevent start = nullptr;
    CUevent stop = nullptr;
    if (!cu("cuEventCreate", cuda->event_create, &start, 0U) || !cu("cuEventCreate", cuda->event_create, &stop, 0U))
      return std::nullopt;
    bool ok = true;
    auto once = [&]() -> double {
      if (!ok) return 1.0;
      float ms = 0;
      ok = cuda->event_record(start, nullptr) == kCudaSuccess && work() &&
           cuda->event_record(stop, nullptr) == kCudaSuccess && cuda->event_synchronize(stop) == kCudaSuccess &&
           cuda->event_elapsed(&ms, start, stop) == kCudaSuccess;
      return ok ? std::max(static_cast<double>(ms) / 1000.0, 1e-9) : 1.0;
    };
    send_call_line(out, call);
    SampleStats stats = summarize(sample_times(once, policy));
    if (!ok) {
      if (m.status != BenchStatus::failed) fail("a call failed during the timed loop");
      return std::nullopt;
    }
    return stats;
  }

  /// What this figure may allocate (usable_device_memory of cuMemGetInfo's free); 0 when the
  /// driver does not say, and then nothing is shrunk.
  std::uint64_t usable_memory() {
    size_t free_bytes = 0;
    size_t total_bytes = 0;
    if (cuda->mem_get_info == nullptr || cuda->mem_get_info(&free_bytes, &total_bytes) != kCudaSuccess) return 0;
    return usable_device_memory(free_bytes);
  }

  /// A GEMM's N with a display watchdog on: at most 4096, so that one call (0.14 TFLOP) stays far
  /// below the 2 s after which Windows resets the driver, even on a laptop part or in emulated
  /// BF16. `note` gets the words when N is capped.
  int watchdog_cap(int n, std::string& note) const {
    const int capped = gemm_n_under_watchdog(n, kernel_timeout != 0);
    if (capped != n) {
      note += "; " + std::to_string(n) + "^3 capped at " + std::to_string(capped) +
              "^3: a display watchdog ends long kernels on this GPU (CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT; "
              "Windows resets the driver after 2 s)";
    }
    return capped;
  }

  /// The words a shrunk figure's detail ends with.
  static std::string shrunk_note(const std::string& asked, std::uint64_t usable) {
    return "; " + asked + " did not fit in the " + std::to_string(usable >> 20) +
           " MiB it may use (80 % of the free device memory)";
  }

  CUdeviceptr alloc(size_t bytes) {
    CUdeviceptr d = 0;
    return cu("cuMemAlloc_v2", cuda->mem_alloc, &d, bytes) ? d : 0;
  }
};

template <class T>
T* ptr(CUdeviceptr d) {
  return reinterpret_cast<T*>(static_cast<std::uintptr_t>(d));
}

/// Times `gemm` (one GEMM call returning its cuBLAS status, C = N x N at `dc` in `c_type`: FP32,
/// FP16 or BF16), reads C back as floats and fills the rate; nullopt after a failure, which r.m
/// records.
std::optional<std::vector<float>> time_gemm(Run& r, const std::function<int()>& gemm, const char* call, CUdeviceptr dc,
                                            int c_type, int n, const SamplingPolicy& policy) {
  int last = kCublasSuccess;
  auto work = [&]() {
    last = gemm();
    return last == kCublasSuccess;
  };
  auto stats = r.time(work, policy, call);
  if (!stats) {
    if (last == kCublasStatusNotSupported) {
      // The card or this cuBLAS has no such GEMM (cuBLAS 11.3 refused BF16 on a P100,
      // pytorch#57773): what it lacks, not a failure of a healthy machine.
      r.m.status = BenchStatus::skipped;
      r.m.detail = std::string(call) + ": " + cublas_status_name(last) + " (this cuBLAS has no such GEMM on CC " +
                   std::to_string(r.cc_major) + "." + std::to_string(r.cc_minor) + ")";
    } else if (last != kCublasSuccess) {
      r.fail(std::string(call) + ": " + cublas_status_name(last));
    }
    return std::nullopt;
  }
  const size_t count = static_cast<size_t>(n) * static_cast<size_t>(n);
  std::vector<float> c(count, NAN);
  if (c_type == kCudaR32F) {
    if (!r.cu("cuMemcpyDtoH_v2", r.cuda->memcpy_dtoh, c.data(), dc, count * 4)) return std::nullopt;
  } else {
    std::vector<std::uint16_t> h(count);
    if (!r.cu("cuMemcpyDtoH_v2", r.cuda->memcpy_dtoh, h.data(), dc, count * 2)) return std::nullopt;
    for (size_t i = 0; i < count; ++i) c[i] = c_type == kCudaR16BF ? bf16_to_float(h[i]) : half_to_float(h[i]);
  }
  fill_rate(r.m, *stats, gemm_flops(n, n, n), 1e12);
  return c;
}

/// FP16 and BF16 GEMMs write C in their input type, as the frameworks' matmul does (torch.matmul
/// in BF16 returns BF16): half the output traffic of an FP32 C, and the comparison with PyTorch is
/// of the same operation. The check allows C's rounding.
int gemm_output_type(int input_type) {
  return input_type == kCudaR16F || input_type == kCudaR16BF ? input_type : kCudaR32F;
}
double output_unit_roundoff(int c_type) {
  return c_type == kCudaR16BF ? 1.0 / (1 << 8) : c_type == kCudaR16F ? 1.0 / (1 << 11) : 0.0;
}
const char* output_words(int c_type) {
  return c_type == kCudaR16BF  ? "FP32 accumulate, BF16 output"
         : c_type == kCudaR16F ? "FP32 accumulate, FP16 output"
                               : "FP32 accumulate and output";
}

/// What a half-precision figure measures on a card without the tensor cores for it: the figure is
/// real (cuBLAS and cuDNN fall back to the CUDA cores), but it is not what the guides' "mixed
/// precision gives 1.5-3x" is about, and the user should know which precision this card speeds up.
std::string tensor_core_note(const std::string& precision, int cc_major, int cc_minor) {
  const std::string cc = std::to_string(cc_major) + "." + std::to_string(cc_minor);
  if ((precision == "fp16" || precision == "bf16") && cc_major < 7) {
    return "; CC " + cc +
           " has no tensor cores (Volta, CC 7.0, and newer have them): FP16 and BF16 run on the CUDA cores, "
           "without the tensor-core speedup that the guides' \"mixed precision gives 1.5-3x\" counts on";
  }
  if (precision == "bf16" && cc_major < 8) {
    return "; CC " + cc +
           " has no BF16 tensor cores (Ampere, CC 8.0, and newer have them): cuBLAS emulates BF16 on the CUDA "
           "cores, and this card's mixed precision is FP16 (with loss scaling)";
  }
  return {};
}

void bench_gemm(Run& r, const std::string& precision, int n, const SamplingPolicy& policy) {
  if (precision == "tf32" && r.cc_major < 8) {
    // CUBLAS_COMPUTE_32F_FAST_TF32 only allows TF32; without it cuBLAS computes FP32, and the
    // figure would be gemm_fp32's under another name.
    r.m.status = BenchStatus::skipped;
    r.m.detail = "TF32 needs CC 8.0 (Ampere) or newer; on this CC " + std::to_string(r.cc_major) + "." +
                 std::to_string(r.cc_minor) + " card cuBLAS would compute FP32, which gemm_fp32 measures";
    return;
  }
  if (const char* off = std::getenv("NVIDIA_TF32_OVERRIDE");
      precision == "tf32" && off != nullptr && std::string_view(off) == "0") {
    // NVIDIA's libraries turn TF32 off everywhere with it (some clusters set it): the same FP32.
    r.m.status = BenchStatus::skipped;
    r.m.detail =
        "NVIDIA_TF32_OVERRIDE=0 in the environment turns TF32 off in cuBLAS: the figure would be FP32, "
        "which gemm_fp32 measures";
    return;
  }
  std::optional<CublasApi> api;
  send_call_line(r.out, "dlopen cuBLAS");
  auto loaded = load_cublas(r.names("cublas", {"libcublas.so"}));
  if (!loaded) {
    r.m.status = loaded.error().kind == ErrorKind::not_found ? BenchStatus::skipped : BenchStatus::failed;
    r.m.detail = "cuBLAS: " + loaded.error().message;
    return;
  }
  api.emplace(std::move(loaded).value());
  // The file is named from here on, a failure in its set-up included (a cuBLAS of another CUDA
  // major, a stray copy on the library path); the version once a handle can tell it.
  r.m.library = "cuBLAS " + api->library.path();
  if (api->gemm_ex == nullptr) {
    r.fail("cuBLAS at " + api->library.path() + " has no cublasGemmEx");
    return;
  }
  cublasHandle_t handle = nullptr;
  send_call_line(r.out, "cublasCreate_v2");
  if (int rc = api->create(&handle); rc != kCublasSuccess) {
    r.fail("cublasCreate_v2: " + cublas_status_name(rc));
    return;
  }
  int version = 0;
  (void)api->get_version(handle, &version);
  // A, B and C: 4 bytes each in FP32 and TF32, 2 each in FP16 and BF16 (C in the input's type).
  std::string shrunk;
  n = r.watchdog_cap(n, shrunk);
  const int asked = n;
  const std::uint64_t usable = r.usable_memory();
  n = gemm_n_that_fits(n, precision == "fp16" || precision == "bf16" ? 6.0 : 12.0, usable);
  if (n != asked) shrunk += Run::shrunk_note(std::to_string(asked) + "^3", usable);
  const size_t count = static_cast<size_t>(n) * static_cast<size_t>(n);
  std::vector<float> a = test_values(count, 3);
  std::vector<float> b = test_values(count, 5);
  int type = kCudaR32F;
  int compute = kCublasCompute32F;
  size_t elem = 4;
  std::vector<std::uint16_t> ha;  // FP16/BF16 only: a 16384^2 FP32 run need not hold them
  std::vector<std::uint16_t> hb;
  double factor = 1.0;
  double input_u = 0;
  if (precision == "tf32") {
    compute = kCublasCompute32FFastTf32;
    input_u = kTf32UnitRoundoff;  // the GPU rounds the inputs to 10 mantissa bits itself
    factor = 2.0;
  } else if (precision == "fp16" || precision == "bf16") {
    const bool bf = precision == "bf16";
    type = bf ? kCudaR16BF : kCudaR16F;
    elem = 2;
    ha.resize(count);
    hb.resize(count);
    // The reference multiplies the values the GPU sees: the inputs rounded.
    for (size_t i = 0; i < count; ++i) {
      ha[i] = bf ? float_to_bf16(a[i]) : float_to_half(a[i]);
      hb[i] = bf ? float_to_bf16(b[i]) : float_to_half(b[i]);
      a[i] = bf ? bf16_to_float(ha[i]) : half_to_float(ha[i]);
      b[i] = bf ? bf16_to_float(hb[i]) : half_to_float(hb[i]);
    }
    factor = 2.0;
  } else if (precision != "fp32") {
    r.fail("no GEMM precision \"" + printable(precision, 20) + "\"");
    return;
  }
  const int c_type = gemm_output_type(type);
  CUdeviceptr da = r.alloc(count * elem);
  CUdeviceptr db = da == 0 ? 0 : r.alloc(count * elem);
  CUdeviceptr dc = db == 0 ? 0 : r.alloc(count * (c_type == kCudaR32F ? 4 : 2));
  if (dc == 0) return;
  const void* host_a = elem == 4 ? static_cast<const void*>(a.data()) : ha.data();
  const void* host_b = elem == 4 ? static_cast<const void*>(b.data()) : hb.data();
  if (!r.cu("cuMemcpyHtoD_v2", r.cuda->memcpy_htod, da, host_a, count * elem) ||
      !r.cu("cuMemcpyHtoD_v2", r.cuda->memcpy_htod, db, host_b, count * elem)) {
    return;
  }
  float alpha = 1.0F;
  float beta = 0.0F;
  // Row-major C = A * B is column-major C^T = B^T * A^T: B first.
  auto gemm = [&]() {
    return api->gemm_ex(handle, kCublasOpN, kCublasOpN, n, n, n, &alpha, ptr<const void>(db), type, n,
                        ptr<const void>(da), type, n, &beta, ptr<void>(dc), c_type, n, compute, kCublasGemmDefault);
  };
  auto c = time_gemm(r, gemm, "cublasGemmEx", dc, c_type, n, policy);
  if (!c) return;
  BoundCheck check = check_gemm_sampled(a.data(), b.data(), c->data(), n, n, n, check_samples(n), kFloatUnitRoundoff,
                                        factor, output_unit_roundoff(c_type), input_u);
  r.m.check = check.summary;
  r.m.check_passed = check.passed;
  r.m.library = "cuBLAS " + cublas_version_text(version) + " " + api->library.path();
  r.m.detail = "cublasGemmEx " + std::to_string(n) + "^3, " + precision + " inputs, " + output_words(c_type) +
               (precision == "tf32" ? " (CUBLAS_COMPUTE_32F_FAST_TF32)" : "") +
               tensor_core_note(precision, r.cc_major, r.cc_minor) + shrunk;
  r.m.status = check.passed ? BenchStatus::ok : BenchStatus::failed;
}

/// cublasLtMatmul: FP16 or BF16 inputs on the tensor cores (output in the same type), or FP8 E4M3
/// (CC 8.9 and newer, FP32 output); FP32 accumulate, the heuristic's first algorithm. FP8 needs A transposed ("TN",
/// cuBLASLt's only FP8 layout), so B goes up transposed.
void bench_gemm_lt(Run& r, const std::string& precision, int n, const SamplingPolicy& policy) {
  const bool fp8 = precision == "fp8";
  if (precision != "fp16" && precision != "bf16" && !fp8) {
    r.fail("no cuBLASLt precision \"" + printable(precision, 20) + "\"");
    return;
  }
  const std::string cc = std::to_string(r.cc_major) + "." + std::to_string(r.cc_minor);
  if (fp8 && r.cc_major * 10 + r.cc_minor < 89) {
    r.m.status = BenchStatus::skipped;
    r.m.detail = "FP8 (E4M3) GEMM not supported on CC " + cc +
                 ": FP8 tensor cores need CC 8.9 or newer (Ada, Hopper, Blackwell)";
    return;
  }
  if (fp8) n = std::max(16, n / 16 * 16);  // FP8 dimensions must be multiples of 16
  send_call_line(r.out, "dlopen cuBLASLt");
  // A and B (1 byte each in FP8, 2 in FP16/BF16) and C (FP32 for FP8), beside a workspace of up
  // to 32 MiB. The 256s gemm_n_that_fits keeps are multiples of 16.
  std::string shrunk;
  n = r.watchdog_cap(n, shrunk);
  const int asked = n;
  const std::uint64_t may_use = r.usable_memory();
  const std::uint64_t usable = may_use > (32ULL << 20) ? may_use - (32ULL << 20) : (may_use != 0 ? 1 : 0);
  n = gemm_n_that_fits(n, 6.0, usable);  // FP8: 1 + 1 + 4 bytes per element; FP16, BF16: 2 + 2 + 2
  if (n != asked) shrunk += Run::shrunk_note(std::to_string(asked) + "^3", may_use);
  auto loaded = load_cublaslt(r.names("cublasLt", {"libcublasLt.so"}));
  if (!loaded) {
    r.m.status = loaded.error().kind == ErrorKind::not_found ? BenchStatus::skipped : BenchStatus::failed;
    r.m.detail = "cuBLASLt: " + loaded.error().message;
    return;
  }
  const CublasLtApi& api = *loaded;
  r.m.library = "cuBLASLt " + cublas_version_text(static_cast<long long>(api.get_version())) + " " + api.library.path();
  if (api.create == nullptr || api.desc_create == nullptr || api.desc_set == nullptr || api.layout_create == nullptr ||
      api.pref_create == nullptr || api.pref_set == nullptr || api.heuristic == nullptr || api.matmul == nullptr) {
    r.fail("cuBLASLt at " + api.library.path() + " lacks the matmul entry points (cuBLAS 10.1 and newer have them)");
    return;
  }
  int last = kCublasSuccess;
  const char* last_call = "";
  auto ok = [&](const char* call, int rc) {
    send_call_line(r.out, call);
    last = rc;
    last_call = call;
    return rc == kCublasSuccess;
  };
  const int type = fp8 ? kCudaR8FE4M3 : precision == "bf16" ? kCudaR16BF : kCudaR16F;
  const size_t elem = fp8 ? 1 : 2;
  const int c_type = gemm_output_type(type);  // FP8 writes FP32
  const auto un = static_cast<std::uint64_t>(n);
  const int trans_a = fp8 ? kCublasOpT : kCublasOpN;
  const int trans_b = kCublasOpN;
  const std::uint64_t workspace_max = 32ULL << 20;
  void* handle = nullptr;
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t la = nullptr;
  cublasLtMatrixLayout_t lb = nullptr;
  cublasLtMatrixLayout_t lc = nullptr;
  cublasLtMatmulPreference_t pref = nullptr;
  cublasLtMatmulHeuristicResult_t found{};
  int found_count = 0;
  // Row-major C = A * B is column-major C^T = B^T * A^T: cuBLASLt's "A" is our B.
  if (!ok("cublasLtCreate", api.create(&handle)) ||
      !ok("cublasLtMatmulDescCreate", api.desc_create(&desc, kCublasCompute32F, kCudaR32F)) ||
      !ok("cublasLtMatmulDescSetAttribute", api.desc_set(desc, kCublasLtMatmulDescTransA, &trans_a, sizeof trans_a)) ||
      !ok("cublasLtMatmulDescSetAttribute", api.desc_set(desc, kCublasLtMatmulDescTransB, &trans_b, sizeof trans_b)) ||
      !ok("cublasLtMatrixLayoutCreate", api.layout_create(&la, type, un, un, n)) ||
      !ok("cublasLtMatrixLayoutCreate", api.layout_create(&lb, type, un, un, n)) ||
      !ok("cublasLtMatrixLayoutCreate", api.layout_create(&lc, c_type, un, un, n)) ||
      !ok("cublasLtMatmulPreferenceCreate", api.pref_create(&pref)) ||
      !ok("cublasLtMatmulPreferenceSetAttribute",
          api.pref_set(pref, kCublasLtPrefMaxWorkspaceBytes, &workspace_max, sizeof workspace_max)) ||
      !ok("cublasLtMatmulAlgoGetHeuristic",
          api.heuristic(handle, desc, la, lb, lc, lc, pref, 1, &found, &found_count))) {
    r.m.status = last == kCublasStatusNotSupported ? BenchStatus::skipped : BenchStatus::failed;
    r.m.detail = std::string(last_call) + ": " + cublas_status_name(last) +
                 (last == kCublasStatusNotSupported ? " (this cuBLASLt has no " + precision + " GEMM on CC " + cc + ")"
                                                    : std::string());
    return;
  }
  if (found_count < 1 || found.state != kCublasSuccess) {
    r.m.status = BenchStatus::skipped;
    r.m.detail = "cublasLtMatmulAlgoGetHeuristic found no algorithm for a " + precision + " GEMM on CC " + cc;
    return;
  }
  const size_t count = static_cast<size_t>(n) * static_cast<size_t>(n);
  std::vector<float> a = test_values(count, 3);
  std::vector<float> b = test_values(count, 5);
  // The device's inputs, and the reference's: the values rounded as the device sees them.
  std::vector<std::uint8_t> ha(count * elem);
  std::vector<std::uint8_t> hb(count * elem);
  for (size_t i = 0; i < count; ++i) {
    if (fp8) {
      ha[i] = float_to_e4m3(a[i]);
      a[i] = e4m3_to_float(ha[i]);
      std::uint8_t v = float_to_e4m3(b[i]);
      b[i] = e4m3_to_float(v);
      // B transposed: element (row, col) of B at col * n + row.
      hb[(i % static_cast<size_t>(n)) * static_cast<size_t>(n) + i / static_cast<size_t>(n)] = v;
      continue;
    }
    const bool bf = precision == "bf16";
    std::uint16_t va = bf ? float_to_bf16(a[i]) : float_to_half(a[i]);
    std::uint16_t vb = bf ? float_to_bf16(b[i]) : float_to_half(b[i]);
    a[i] = bf ? bf16_to_float(va) : half_to_float(va);
    b[i] = bf ? bf16_to_float(vb) : half_to_float(vb);
    std::memcpy(&ha[i * 2], &va, 2);
    std::memcpy(&hb[i * 2], &vb, 2);
  }
  CUdeviceptr da = r.alloc(count * elem);
  CUdeviceptr db = da == 0 ? 0 : r.alloc(count * elem);
  CUdeviceptr dc = db == 0 ? 0 : r.alloc(count * (c_type == kCudaR32F ? 4 : 2));
  CUdeviceptr dws = dc == 0 || found.workspaceSize == 0 ? dc : r.alloc(found.workspaceSize);
  if (dws == 0 || !r.cu("cuMemcpyHtoD_v2", r.cuda->memcpy_htod, da, ha.data(), count * elem) ||
      !r.cu("cuMemcpyHtoD_v2", r.cuda->memcpy_htod, db, hb.data(), count * elem)) {
    return;
  }
  float alpha = 1.0F;
  float beta = 0.0F;
  auto gemm = [&]() {
    return api.matmul(handle, desc, &alpha, ptr<const void>(db), la, ptr<const void>(da), lb, &beta,
                      ptr<const void>(dc), lc, ptr<void>(dc), lc, &found.algo,
                      found.workspaceSize == 0 ? nullptr : ptr<void>(dws), found.workspaceSize, nullptr);
  };
  auto c = time_gemm(r, gemm, "cublasLtMatmul", dc, c_type, n, policy);
  if (!c) return;
  // FP8 writes FP32 (no output rounding term) and is also held to a relative error, over the same
  // samples in one pass.
  double relative = 0;
  BoundCheck check =
      fp8 ? check_gemm_sampled_with_relative_error(a.data(), b.data(), c->data(), n, n, n, check_samples(n),
                                                   kFp8AccumulateUnitRoundoff, 2.0, relative)
          : check_gemm_sampled(a.data(), b.data(), c->data(), n, n, n, check_samples(n), kFloatUnitRoundoff, 2.0,
                               output_unit_roundoff(c_type));
  if (fp8) {
    char text[120];
    std::snprintf(text, sizeof text, "; relative error %.2g%% over them (limit %.0f%%)", relative * 100,
                  kFp8MaxRelativeError * 100);
    check.summary += text;
    if (!(relative <= kFp8MaxRelativeError)) check.passed = false;
  }
  r.m.check = check.summary;
  r.m.check_passed = check.passed;
  r.m.detail = "cublasLtMatmul " + std::to_string(n) + "^3, " +
               (fp8 ? std::string("FP8 E4M3 inputs (A transposed, scale 1)") : precision + " inputs") + ", " +
               output_words(c_type) + ", CC " + cc + (fp8 ? "; the check allows a 14-bit accumulator" : "") +
               tensor_core_note(precision, r.cc_major, r.cc_minor) + shrunk;
  r.m.status = check.passed ? BenchStatus::ok : BenchStatus::failed;
  if (api.pref_destroy != nullptr) (void)api.pref_destroy(pref);
  if (api.layout_destroy != nullptr)
    (void)api.layout_destroy(la), (void)api.layout_destroy(lb), (void)api.layout_destroy(lc);
  if (api.desc_destroy != nullptr) (void)api.desc_destroy(desc);
  if (api.destroy != nullptr) (void)api.destroy(handle);
}

void bench_stream(Run& r, bool triad, long long bytes, const SamplingPolicy& policy) {
  const long long asked = bytes;
  const std::uint64_t usable = r.usable_memory();
  bytes = array_bytes_that_fit(bytes, triad ? 3 : 2, usable);
  const std::string shrunk =
      bytes == asked ? std::string() : Run::shrunk_note(std::to_string(asked >> 20) + " MiB per array", usable);
  const size_t n = static_cast<size_t>(bytes) / 4;
  char log[2048] = {};
  CUjit_option options[] = {kCuJitErrorLogBuffer, kCuJitErrorLogBufferSizeBytes};
  void* values[] = {log, reinterpret_cast<void*>(static_cast<std::uintptr_t>(sizeof log - 1))};
  CUmodule module = nullptr;
  CUfunction fn = nullptr;
  if (!r.cu("cuModuleLoadDataEx", r.cuda->module_load_data, &module, stream_kernels_ptx(), 2U, options, values) ||
      !r.cu("cuModuleGetFunction", r.cuda->module_function, &fn, module, triad ? kTriadKernelName : kCopyKernelName)) {
    return;
  }
  // Small integers: every result exact, so the check compares exactly.
  std::vector<float> b(n);
  std::vector<float> c(n);
  for (size_t i = 0; i < n; ++i) {
    b[i] = static_cast<float>(i % 1000);
    c[i] = static_cast<float>(i % 7);
  }
  CUdeviceptr da = r.alloc(n * 4);
  CUdeviceptr db = da == 0 ? 0 : r.alloc(n * 4);
  CUdeviceptr dc = db == 0 || !triad ? db : r.alloc(n * 4);
  if (dc == 0 || !r.cu("cuMemcpyHtoD_v2", r.cuda->memcpy_htod, db, b.data(), n * 4) ||
      (triad && !r.cu("cuMemcpyHtoD_v2", r.cuda->memcpy_htod, dc, c.data(), n * 4))) {
    return;
  }
  float s = 3.0F;
  unsigned long long count = n;
  void* copy_params[] = {&da, &db, &count};
  void* triad_params[] = {&da, &db, &dc, &s, &count};
  int last = kCudaSuccess;
  auto work = [&]() {
    last = r.cuda->launch_kernel(fn, 4096U, 1U, 1U, 256U, 1U, 1U, 0U, nullptr, triad ? triad_params : copy_params,
                                 nullptr);
    return last == kCudaSuccess;
  };
  auto stats = r.time(work, policy, "cuLaunchKernel");
  if (!stats) {
    if (last != kCudaSuccess) r.fail("cuLaunchKernel: " + cuda_error_name(last));
    return;
  }
  std::vector<float> got(n, NAN);
  if (!r.cu("cuMemcpyDtoH_v2", r.cuda->memcpy_dtoh, got.data(), da, n * 4)) return;
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i) {
    float want = triad ? b[i] + s * c[i] : b[i];
    if (!(got[i] == want)) ++wrong;
  }
  fill_rate(r.m, *stats, triad ? triad_bytes(static_cast<double>(n), 4) : copy_bytes(static_cast<double>(n), 4), 1e9);
  r.m.check = wrong == 0 ? "all " + std::to_string(n) + " elements exact"
                         : std::to_string(wrong) + " of " + std::to_string(n) + " elements wrong";
  r.m.check_passed = wrong == 0;
  r.m.detail = std::string(triad ? "triad a = b + s*c" : "copy b = a") + " over " + std::to_string(bytes >> 20) +
               " MiB per array (embedded PTX, grid-stride), bytes counted as STREAM does" + shrunk;
  r.m.status = wrong == 0 ? BenchStatus::ok : BenchStatus::failed;
}

void bench_host_copy(Run& r, bool to_device, bool pinned, long long bytes, const SamplingPolicy& policy) {
  const long long asked = bytes;
  const std::uint64_t usable = r.usable_memory();
  bytes = array_bytes_that_fit(bytes, 1, usable);
  const std::string shrunk =
      bytes == asked ? std::string() : Run::shrunk_note(std::to_string(asked >> 20) + " MiB", usable);
  const auto size = static_cast<size_t>(bytes);
  void* host = nullptr;
  std::vector<unsigned char> pageable;
  if (pinned) {
    if (r.cuda->mem_alloc_host == nullptr) {
      r.fail("libcuda lacks cuMemAllocHost");
      return;
    }
    if (!r.cu("cuMemAllocHost_v2", r.cuda->mem_alloc_host, &host, size)) return;
  } else {
    pageable.resize(size);
    host = pageable.data();
  }
  auto* bytes_ptr = static_cast<unsigned char*>(host);
  for (size_t i = 0; i < size; ++i) bytes_ptr[i] = static_cast<unsigned char>(i * 131 + 7);
  const std::uint64_t sent = fnv1a(host, size);
  CUdeviceptr d = r.alloc(size);
  if (d == 0) return;
  if (!to_device && !r.cu("cuMemcpyHtoD_v2", r.cuda->memcpy_htod, d, host, size)) return;
  CUresult last = kCudaSuccess;
  auto work = [&]() {
    last = to_device ? r.cuda->memcpy_htod(d, host, size) : r.cuda->memcpy_dtoh(host, d, size);
    return last == kCudaSuccess;
  };
  auto stats = r.time(work, policy, to_device ? "cuMemcpyHtoD_v2" : "cuMemcpyDtoH_v2");
  if (!stats) {
    if (last != kCudaSuccess)
      r.fail(std::string(to_device ? "cuMemcpyHtoD_v2: " : "cuMemcpyDtoH_v2: ") + cuda_error_name(last));
    return;
  }
  std::vector<unsigned char> back(size);
  if (!r.cu("cuMemcpyDtoH_v2", r.cuda->memcpy_dtoh, back.data(), d, size)) return;
  const bool same = fnv1a(back.data(), size) == sent && fnv1a(host, size) == sent;
  fill_rate(r.m, *stats, static_cast<double>(size), 1e9);
  r.m.check = same ? "every byte arrived (FNV-1a of the " + std::to_string(size >> 20) + " MiB)" : "the bytes differ";
  r.m.check_passed = same;
  r.m.detail = std::string(to_device ? "host -> device " : "device -> host ") + std::to_string(size >> 20) + " MiB, " +
               (pinned ? "pinned (cuMemAllocHost)" : "pageable (malloc)") + " host memory" + shrunk;
  // A Jetson's GPU has no memory of its own: the copy goes from DRAM to DRAM, over no bus, and
  // says nothing about a PCIe link. (Its device memory figures are the same DRAM's bandwidth.)
  if (r.integrated != 0) {
    r.m.detail +=
        "; an integrated GPU (CU_DEVICE_ATTRIBUTE_INTEGRATED): host and device memory are the same DRAM, so "
        "this is a copy within it, not a transfer over a bus";
  } else {
    // Held against the GPU's maximum PCIe link, as the peer copies over PCIe are (the same
    // pcie_link_gbps).
    send_call_line(r.out, "nvmlDeviceGetMaxPcieLinkGeneration");
    const PcieLink link = read_max_pcie_link(r.names("nvml", default_nvml_names()), cuda_bus_id(*r.cuda, r.ordinal));
    if (link.gbps > 0) {
      r.m.ceiling = link.gbps;
      r.m.ceiling_source = "the GPU's maximum link, " + pcie_link_text(link) +
                           " (nvmlDeviceGetMaxPcieLinkGeneration/Width, line encoding removed)";
    }
  }
  r.m.status = same ? BenchStatus::ok : BenchStatus::failed;
  if (pinned && r.cuda->mem_free_host != nullptr) (void)r.cuda->mem_free_host(host);
}

inline constexpr int kCudnnDataHalf = 1;      ///< CUDNN_DATA_HALF
inline constexpr int kCudnnTensorOpMath = 1;  ///< CUDNN_TENSOR_OP_MATH

/// cudnnConvolutionFwdAlgo_t's names, by value.
const char* cudnn_fwd_algo_name(int algo) {
  static const char* const names[] = {
      "implicit GEMM", "implicit precomputed GEMM", "GEMM", "direct", "FFT", "tiled FFT",
      "Winograd",      "non-fused Winograd"};
  return algo >= 0 && algo < 8 ? names[algo] : "unknown";
}

/// The forward algorithms to try, best first: the heuristic's candidates that it says are
/// supported (cudnnGetConvolutionForwardAlgorithm_v7, as frameworks pick without autotuning; their
/// number goes to `from_heuristic`), then every other algorithm in a fixed order. Which ones a cuDNN build runs for a
/// layout and data type differs by release and card: cuDNN 9.14 on an H200 refused implicit precomputed GEMM for FP16
/// NCHW at the workspace query.
std::vector<int> conv_forward_candidates(const CudnnApi& api, cudnnHandle_t handle, CudnnDescriptor x_desc,
                                         CudnnDescriptor w_desc, CudnnDescriptor conv, CudnnDescriptor y_desc,
                                         size_t& from_heuristic) {
  std::vector<int> order;
  from_heuristic = 0;
  if (api.fwd_algorithms != nullptr) {
    CudnnFwdAlgoPerf found[8] = {};
    int count = 0;
    if (api.fwd_algorithms(handle, x_desc, w_desc, conv, y_desc, 8, &count, found) == kCudnnSuccess) {
      for (int i = 0; i < std::min(count, 8); ++i) {
        if (found[i].status == kCudnnSuccess && found[i].algo >= 0 && found[i].algo < 8 &&
            std::find(order.begin(), order.end(), found[i].algo) == order.end()) {
          order.push_back(found[i].algo);
        }
      }
      from_heuristic = order.size();
    }
  }
  for (int algo : {1, 0, 2, 7, 6, 5, 4, 3}) {
    if (std::find(order.begin(), order.end(), algo) == order.end()) order.push_back(algo);
  }
  return order;
}

/// NCHW <-> NHWC of a 4-D array with dimensions (n, c, h, w): to NHWC when `to_nhwc`, else back.
template <class T>
std::vector<T> permute_nchw(const std::vector<T>& in, int n, int c, int h, int w, bool to_nhwc) {
  std::vector<T> out(in.size());
  for (int a = 0; a < n; ++a) {
    for (int ch = 0; ch < c; ++ch) {
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          const size_t nchw = ((static_cast<size_t>(a) * c + ch) * h + y) * w + x;
          const size_t nhwc = ((static_cast<size_t>(a) * h + y) * w + x) * c + ch;
          if (to_nhwc) {
            out[nhwc] = in[nchw];
          } else {
            out[nchw] = in[nhwc];
          }
        }
      }
    }
  }
  return out;
}

/// cuDNN forward convolution, FP32 (FMA math: no TF32) or FP16 (tensor ops, FP32 compute).
void bench_conv(Run& r, bool half, const ConvShape& sh, const SamplingPolicy& policy) {
  send_call_line(r.out, "dlopen cuDNN");
  auto loaded = load_cudnn(r.names("cudnn", {"libcudnn.so"}));
  if (!loaded) {
    r.m.status = loaded.error().kind == ErrorKind::not_found ? BenchStatus::skipped : BenchStatus::failed;
    r.m.detail = "cuDNN: " + loaded.error().message;
    return;
  }
  const CudnnApi& api = *loaded;
  auto version = static_cast<long long>(api.get_version());
  r.m.library = "cuDNN " + packed_version_text(version) + " " + api.library.path();
  int last = kCudnnSuccess;
  const char* last_call = "";
  auto ok = [&](const char* call, int rc) {
    send_call_line(r.out, call);
    last = rc;
    last_call = call;
    return rc == kCudnnSuccess;
  };
  const int type = half ? kCudnnDataHalf : kCudnnDataFloat;
  cudnnHandle_t handle = nullptr;
  CudnnDescriptor x_desc = nullptr;
  CudnnDescriptor y_desc = nullptr;
  CudnnDescriptor w_desc = nullptr;
  CudnnDescriptor conv = nullptr;
  size_t ws_bytes = 0;
  if (!ok("cudnnCreate", api.create(&handle)) || !ok("cudnnCreateTensorDescriptor", api.create_tensor(&x_desc)) ||
      !ok("cudnnCreateTensorDescriptor", api.create_tensor(&y_desc)) ||
      !ok("cudnnCreateFilterDescriptor", api.create_filter(&w_desc)) ||
      !ok("cudnnCreateConvolutionDescriptor", api.create_conv(&conv)) ||
      !ok("cudnnSetConvolution2dDescriptor",
          api.set_conv_2d(conv, sh.pad, sh.pad, 1, 1, 1, 1, kCudnnCrossCorrelation, kCudnnDataFloat)) ||
      (api.set_conv_math != nullptr &&
       !ok("cudnnSetConvolutionMathType", api.set_conv_math(conv, half ? kCudnnTensorOpMath : kCudnnFmaMath)))) {
    r.fail(std::string(last_call) + ": " + cudnn_status_text(api, last));
    return;
  }
  // In each layout (FP16 also tries NHWC, the tensor cores' own, when cuDNN takes no algorithm in
  // NCHW: cuDNN 9.14 on an H200 refused every legacy FP16 NCHW algorithm, 2026-12-04), the first
  // candidate whose workspace query succeeds runs; "not supported" moves on to the next, any other
  // error is the figure's failure.
  // At most 1 GiB of workspace, and no more than the card has left beside the three tensors.
  const std::uint64_t tensor_bytes =
      (static_cast<std::uint64_t>(sh.n) * sh.c * sh.h * sh.w + static_cast<std::uint64_t>(sh.k) * sh.c * sh.r * sh.s +
       static_cast<std::uint64_t>(sh.n) * sh.k * sh.out_h() * sh.out_w()) *
      (half ? 2 : 4);
  const std::uint64_t may_use = r.usable_memory();
  const std::uint64_t workspace_limit =
      may_use == 0 ? 1ULL << 30
                   : std::min<std::uint64_t>(1ULL << 30, may_use > tensor_bytes ? may_use - tensor_bytes : 0);
  size_t from_heuristic = 0;
  int format = kCudnnTensorNchw;
  int algo = -1;
  size_t rank = 0;  // the chosen algorithm's place among the candidates
  std::string refused;
  for (int layout : {kCudnnTensorNchw, kCudnnTensorNhwc}) {
    if (layout == kCudnnTensorNhwc && !half) break;
    if (!ok("cudnnSetTensor4dDescriptor", api.set_tensor_4d(x_desc, layout, type, sh.n, sh.c, sh.h, sh.w)) ||
        !ok("cudnnSetTensor4dDescriptor",
            api.set_tensor_4d(y_desc, layout, type, sh.n, sh.k, sh.out_h(), sh.out_w())) ||
        !ok("cudnnSetFilter4dDescriptor", api.set_filter_4d(w_desc, type, layout, sh.k, sh.c, sh.r, sh.s))) {
      r.fail(std::string(last_call) + ": " + cudnn_status_text(api, last));
      return;
    }
    send_call_line(r.out, "cudnnGetConvolutionForwardAlgorithm_v7");
    const std::vector<int> candidates =
        conv_forward_candidates(api, handle, x_desc, w_desc, conv, y_desc, from_heuristic);
    const char* layout_name = layout == kCudnnTensorNhwc ? " in NHWC" : " in NCHW";
    for (size_t i = 0; i < candidates.size(); ++i) {
      const int candidate = candidates[i];
      if (ok("cudnnGetConvolutionForwardWorkspaceSize",
             api.fwd_workspace(handle, x_desc, w_desc, conv, y_desc, candidate, &ws_bytes))) {
        if (ws_bytes <= workspace_limit) {
          algo = candidate;
          rank = i;
          break;
        }
        refused += (refused.empty() ? "" : ", ") + std::string(cudnn_fwd_algo_name(candidate)) + layout_name + " (a " +
                   std::to_string(ws_bytes >> 20) + " MiB workspace)";
        continue;
      }
      if (last != kCudnnStatusNotSupported9 && last != kCudnnStatusNotSupported8) {
        r.fail(std::string("cudnnGetConvolutionForwardWorkspaceSize (") + cudnn_fwd_algo_name(candidate) + layout_name +
               "): " + cudnn_status_text(api, last));
        return;
      }
      refused += (refused.empty() ? "" : ", ") + std::string(cudnn_fwd_algo_name(candidate)) + layout_name;
    }
    if (algo >= 0) {
      format = layout;
      break;
    }
  }
  if (algo < 0) {
    r.fail("cuDNN supports no forward algorithm for this " + std::string(half ? "FP16" : "FP32") +
           " convolution (passed over: " + refused + ")");
    return;
  }
  const bool nhwc = format == kCudnnTensorNhwc;
  const size_t nx = static_cast<size_t>(sh.n) * sh.c * sh.h * sh.w;
  const size_t nw = static_cast<size_t>(sh.k) * sh.c * sh.r * sh.s;
  const size_t ny = static_cast<size_t>(sh.n) * sh.k * sh.out_h() * sh.out_w();
  std::vector<float> x = test_values(nx, 17);
  std::vector<float> w = test_values(nw, 19);
  std::vector<std::uint16_t> hx(half ? nx : 0);
  std::vector<std::uint16_t> hw(half ? nw : 0);
  for (size_t i = 0; i < hx.size(); ++i) hx[i] = float_to_half(x[i]), x[i] = half_to_float(hx[i]);
  for (size_t i = 0; i < hw.size(); ++i) hw[i] = float_to_half(w[i]), w[i] = half_to_float(hw[i]);
  if (nhwc) {  // the device's copies in NHWC (filters KRSC); the reference keeps NCHW
    hx = permute_nchw(hx, sh.n, sh.c, sh.h, sh.w, true);
    hw = permute_nchw(hw, sh.k, sh.c, sh.r, sh.s, true);
  }
  const size_t elem = half ? 2 : 4;
  CUdeviceptr dx = r.alloc(nx * elem);
  CUdeviceptr dw = dx == 0 ? 0 : r.alloc(nw * elem);
  CUdeviceptr dy = dw == 0 ? 0 : r.alloc(ny * elem);
  CUdeviceptr dws = dy == 0 || ws_bytes == 0 ? dy : r.alloc(ws_bytes);
  if (dws == 0 ||
      !r.cu("cuMemcpyHtoD_v2", r.cuda->memcpy_htod, dx, half ? static_cast<const void*>(hx.data()) : x.data(),
            nx * elem) ||
      !r.cu("cuMemcpyHtoD_v2", r.cuda->memcpy_htod, dw, half ? static_cast<const void*>(hw.data()) : w.data(),
            nw * elem)) {
    return;
  }
  float alpha = 1.0F;
  float beta = 0.0F;
  auto work = [&]() {
    last = api.conv_forward(handle, &alpha, x_desc, ptr<const void>(dx), w_desc, ptr<const void>(dw), conv, algo,
                            ws_bytes == 0 ? nullptr : ptr<void>(dws), ws_bytes, &beta, y_desc, ptr<void>(dy));
    return last == kCudnnSuccess;
  };
  auto stats = r.time(work, policy, "cudnnConvolutionForward");
  if (!stats) {
    if (last != kCudnnSuccess) r.fail("cudnnConvolutionForward: " + cudnn_status_text(api, last));
    return;
  }
  std::vector<float> y(ny, NAN);
  if (half) {
    std::vector<std::uint16_t> hy(ny);
    if (!r.cu("cuMemcpyDtoH_v2", r.cuda->memcpy_dtoh, hy.data(), dy, ny * 2)) return;
    if (nhwc) hy = permute_nchw(hy, sh.n, sh.k, sh.out_h(), sh.out_w(), false);
    for (size_t i = 0; i < ny; ++i) y[i] = half_to_float(hy[i]);
  } else if (!r.cu("cuMemcpyDtoH_v2", r.cuda->memcpy_dtoh, y.data(), dy, ny * 4)) {
    return;
  }
  fill_rate(r.m, *stats, sh.flops(), 1e12);
  // FP16: exact products of the rounded inputs, FP32 accumulation (twice the bound, for tensor
  // cores), the result rounded to half.
  BoundCheck check = check_conv_sampled(sh, x.data(), w.data(), y.data(), check_samples(sh.c * sh.r * sh.s),
                                        kFloatUnitRoundoff, 2.0, half ? 1.0 / (1 << 11) : 0.0);
  r.m.check = check.summary;
  r.m.check_passed = check.passed;
  r.m.detail = "cudnnConvolutionForward " + sh.text() + ", " +
               (half ? "FP16, tensor-op math" : "FP32, FMA math (no TF32)") + (nhwc ? ", NHWC" : ", NCHW") + ", " +
               cudnn_fwd_algo_name(algo) +
               (rank == 0 && from_heuristic > 0 ? " (the heuristic's first)"
                : rank < from_heuristic         ? " (the heuristic's first that this cuDNN supports)"
                : from_heuristic > 0            ? " (none of the heuristic's: the first supported of the rest)"
                                                : " (no heuristic: the first supported)") +
               (refused.empty() ? std::string() : "; passed over: " + refused) +
               (half ? tensor_core_note("fp16", r.cc_major, r.cc_minor) : std::string());
  r.m.status = check.passed ? BenchStatus::ok : BenchStatus::failed;
}

/// Across GPUs, in one child: peer copies between every pair that can (the P2P matrix and each
/// pair's bandwidth), then NCCL all-reduce over a sweep of sizes with nccl-tests' algbw/busbw.
/// Writes one {"measurement"} line per figure; the last is the all-reduce's.
void bench_multi(ChildChannel& out, const std::map<std::string, std::string>& libs, int count, long long max_bytes,
                 const SamplingPolicy& policy) {
  Run r{{.out = out, .libs = libs}};
  std::vector<CUcontext> ctx(static_cast<size_t>(count), nullptr);
  auto finish = [&](BenchMeasurement m) { send_json_line(out, json{{"measurement", measurement_to_json(m)}}); };
  r.m = BenchMeasurement{.key = "gpus.allreduce_busbw", .unit = "gbps", .status = BenchStatus::failed};
  for (int d = 0; d < count; ++d) {
    if (!r.enter(d)) return finish(r.m);
    ctx[static_cast<size_t>(d)] = r.ctx;
  }
  // The topology (NVML) first: each peer copy is held against what its link allows.
  std::vector<std::string> cuda_bus_ids(static_cast<size_t>(count));
  for (int d = 0; d < count; ++d) cuda_bus_ids[static_cast<size_t>(d)] = cuda_bus_id(*r.cuda, d);
  const BenchTopology topology = read_gpu_topology(r.names("nvml", default_nvml_names()), cuda_bus_ids,
                                                   [&](const char* call) { send_call_line(out, call); });
  send_json_line(out, json{{"topology", bench_topology_to_json(topology)}});
  // Peers.
  const size_t peer_bytes = static_cast<size_t>(std::min(max_bytes, 256LL << 20));
  std::string matrix;
  if (r.cuda->can_access_peer != nullptr && r.cuda->enable_peer != nullptr && r.cuda->memcpy_peer != nullptr) {
    for (int i = 0; i < count; ++i) {
      for (int j = 0; j < count; ++j) {
        if (i == j) continue;
        int can = 0;
        (void)r.cuda->can_access_peer(&can, i, j);
        matrix += " " + std::to_string(i) + "->" + std::to_string(j) + (can != 0 ? ":P2P" : ":no");
        if (can == 0) continue;
        Run p{{.out = out, .libs = libs}};
        p.m = BenchMeasurement{.key = "gpu" + std::to_string(i) + ".peer_to_gpu" + std::to_string(j),
                               .unit = "gbps",
                               .status = BenchStatus::failed};
        p.driver.emplace(std::move(*r.driver));
        p.cuda.emplace(std::move(*r.cuda));
        r.driver.reset();
        r.cuda.reset();
        std::vector<unsigned char> host(peer_bytes);
        for (size_t b = 0; b < peer_bytes; ++b) host[b] = static_cast<unsigned char>(b * 7 + static_cast<size_t>(i));
        CUdeviceptr src = 0;
        CUdeviceptr dst = 0;
        CUresult last = kCudaSuccess;
        if (p.cu("cuCtxSetCurrent", p.cuda->ctx_set_current, ctx[static_cast<size_t>(j)]) &&
            (src = p.alloc(peer_bytes)) != 0 &&
            p.cu("cuMemcpyHtoD_v2", p.cuda->memcpy_htod, src, host.data(), peer_bytes) &&
            p.cu("cuCtxSetCurrent", p.cuda->ctx_set_current, ctx[static_cast<size_t>(i)]) &&
            (dst = p.alloc(peer_bytes)) != 0) {
          CUresult rc = p.cuda->enable_peer(ctx[static_cast<size_t>(j)], 0U);
          if (rc == kCudaSuccess || rc == kCudaErrorPeerAccessAlreadyEnabled) {
            auto work = [&]() {
              last =
                  p.cuda->memcpy_peer(dst, ctx[static_cast<size_t>(i)], src, ctx[static_cast<size_t>(j)], peer_bytes);
              return last == kCudaSuccess;
            };
            if (auto stats = p.time(work, policy, "cuMemcpyPeer")) {
              std::vector<unsigned char> back(peer_bytes);
              if (p.cu("cuMemcpyDtoH_v2", p.cuda->memcpy_dtoh, back.data(), dst, peer_bytes)) {
                const bool same = back == host;
                fill_rate(p.m, *stats, static_cast<double>(peer_bytes), 1e9);
                p.m.check = same ? "every byte arrived" : "the bytes differ";
                p.m.check_passed = same;
                p.m.status = same ? BenchStatus::ok : BenchStatus::failed;
                p.m.detail = "cuMemcpyPeer GPU " + std::to_string(j) + " -> GPU " + std::to_string(i) + ", " +
                             std::to_string(peer_bytes >> 20) + " MiB";
                const auto ui = static_cast<size_t>(i);
                const auto uj = static_cast<size_t>(j);
                if (ui < topology.link_gbps.size() && topology.link_gbps[ui][uj] > 0) {
                  p.m.ceiling = topology.link_gbps[ui][uj];
                  p.m.ceiling_source = "the link " + topology.links[ui][uj] + ": " + topology.link_basis[ui][uj];
                }
              }
            } else if (last != kCudaSuccess) {
              p.fail("cuMemcpyPeer: " + cuda_error_name(last));
            }
          } else {
            p.fail("cuCtxEnablePeerAccess: " + cuda_error_name(rc));
          }
        }
        // Each pair's buffers go before the next pair's (and NCCL's) are made: 2(n-1) of them per
        // GPU would otherwise stay allocated until the child ends.
        if (src != 0) (void)p.cuda->mem_free(src);
        if (dst != 0) (void)p.cuda->mem_free(dst);
        finish(p.m);
        r.driver.emplace(std::move(*p.driver));
        r.cuda.emplace(std::move(*p.cuda));
      }
    }
    send_json_line(out, json{{"p2p_matrix", "peer access:" + matrix}});
  }
  // NCCL all-reduce sweep.
  auto loaded = load_nccl(r.names("nccl", {"libnccl.so.2"}));
  if (!loaded) {
    r.m.status = loaded.error().kind == ErrorKind::not_found ? BenchStatus::skipped : BenchStatus::failed;
    r.m.detail = "NCCL: " + loaded.error().message;
    return finish(r.m);
  }
  const NcclApi& nccl = *loaded;
  r.m.library = "NCCL " + nccl.library.path();
  std::vector<int> devices(static_cast<size_t>(count));
  for (int d = 0; d < count; ++d) devices[static_cast<size_t>(d)] = d;
  std::vector<ncclComm_t> comms(static_cast<size_t>(count), nullptr);
  send_call_line(out, "ncclCommInitAll");
  if (int rc = nccl.comm_init_all(comms.data(), count, devices.data()); rc != kNcclSuccess) {
    r.fail("ncclCommInitAll: " + nccl_result_text(nccl, rc));
    return finish(r.m);
  }
  // Each GPU holds a send and a receive buffer of the largest size: at most what the smallest
  // card may use (--full asks for 4 GiB each, which two 8 GB cards do not hold).
  std::uint64_t smallest = 0;
  for (int d = 0; d < count; ++d) {
    if (r.cuda->ctx_set_current(ctx[static_cast<size_t>(d)]) != kCudaSuccess) continue;
    const std::uint64_t usable = r.usable_memory();
    if (usable != 0 && (smallest == 0 || usable < smallest)) smallest = usable;
  }
  const long long asked = max_bytes;
  max_bytes = array_bytes_that_fit(max_bytes, 2, smallest);
  const std::string shrunk =
      max_bytes == asked
          ? std::string()
          : Run::shrunk_note(std::to_string(asked >> 20) + " MiB per buffer", smallest) + " of the smallest GPU";
  const size_t max_count = static_cast<size_t>(max_bytes) / 4;
  std::vector<CUdeviceptr> send(static_cast<size_t>(count));
  std::vector<CUdeviceptr> recv(static_cast<size_t>(count));
  std::vector<CUstream> streams(static_cast<size_t>(count));
  for (int d = 0; d < count; ++d) {
    auto u = static_cast<size_t>(d);
    std::vector<float> mine(max_count);
    for (size_t i = 0; i < max_count; ++i) mine[i] = static_cast<float>((d + 1) * static_cast<int>(i % 7));
    if (!r.cu("cuCtxSetCurrent", r.cuda->ctx_set_current, ctx[u]) || (send[u] = r.alloc(max_count * 4)) == 0 ||
        (recv[u] = r.alloc(max_count * 4)) == 0 ||
        !r.cu("cuMemcpyHtoD_v2", r.cuda->memcpy_htod, send[u], mine.data(), max_count * 4) ||
        !r.cu("cuStreamCreate", r.cuda->stream_create, &streams[u], 0U)) {
      return finish(r.m);
    }
  }
  int last = kNcclSuccess;
  std::string sweep;
  double busbw = 0;
  double algbw = 0;
  size_t largest = 0;
  for (size_t elems = 1U << 10; elems <= max_count; elems *= 8) {
    // Host clock around enqueue + every stream's sync, as nccl-tests times.
    auto once = [&]() -> double {
      double t0 = monotonic_seconds();
      last = nccl.group_start();
      for (int d = 0; d < count && last == kNcclSuccess; ++d) {
        auto u = static_cast<size_t>(d);
        last = nccl.all_reduce(ptr<const void>(send[u]), ptr<void>(recv[u]), elems, kNcclFloat32, kNcclSum, comms[u],
                               static_cast<void*>(streams[u]));
      }
      if (last == kNcclSuccess) last = nccl.group_end();
      for (int d = 0; d < count && last == kNcclSuccess; ++d) {
        auto u = static_cast<size_t>(d);
        if (r.cuda->ctx_set_current(ctx[u]) != kCudaSuccess || r.cuda->stream_synchronize(streams[u]) != kCudaSuccess) {
          last = -1;
        }
      }
      return monotonic_seconds() - t0;
    };
    send_call_line(out, "ncclAllReduce " + std::to_string(elems * 4) + " bytes");
    SampleStats stats = summarize(sample_times(once, policy));
    if (last != kNcclSuccess) {
      r.fail(last == -1 ? "cuStreamSynchronize failed after ncclAllReduce"
                        : "ncclAllReduce: " + nccl_result_text(nccl, last));
      return finish(r.m);
    }
    algbw = algbw_gbps(static_cast<double>(elems) * 4, stats.median);
    busbw = allreduce_busbw(algbw, count);
    largest = elems;
    char row[96];
    std::snprintf(row, sizeof row, "%s%zu B: %.1f/%.1f", sweep.empty() ? "" : ", ", elems * 4, algbw, busbw);
    sweep += row;
    fill_rate(r.m, stats, static_cast<double>(elems) * 4 * 2.0 * (count - 1) / count, 1e9);
  }
  const int ranks_sum = count * (count + 1) / 2;
  size_t wrong = 0;
  for (int d = 0; d < count; ++d) {
    std::vector<float> got(largest);
    auto u = static_cast<size_t>(d);
    if (!r.cu("cuCtxSetCurrent", r.cuda->ctx_set_current, ctx[u]) ||
        !r.cu("cuMemcpyDtoH_v2", r.cuda->memcpy_dtoh, got.data(), recv[u], largest * 4)) {
      return finish(r.m);
    }
    for (size_t i = 0; i < largest; ++i) {
      if (got[i] != static_cast<float>(ranks_sum * static_cast<int>(i % 7))) ++wrong;
    }
  }
  r.m.check = wrong == 0 ? "every element on every GPU exact (the sum of the ranks' values)"
                         : std::to_string(wrong) + " elements wrong across the GPUs";
  r.m.check_passed = wrong == 0;
  r.m.status = wrong == 0 ? BenchStatus::ok : BenchStatus::failed;
  char at[96];
  std::snprintf(at, sizeof at, "; busbw at %zu B (algbw %.3g GB/s); ", largest * 4, algbw);
  r.m.detail = "NCCL all-reduce (sum, FP32) over " + std::to_string(count) + " GPUs" + at +
               "sweep, algbw/busbw GB/s: " + sweep + shrunk;
  finish(r.m);
}

/// What each op measures: its key suffix and unit.
struct GpuOp {
  const char* op;
  const char* key;
  const char* unit;
};
constexpr GpuOp kGpuOps[] = {
    {"gemm-fp32", "gemm_fp32", "tflops"},
    {"gemm-tf32", "gemm_tf32", "tflops"},
    {"gemm-fp16", "gemm_fp16", "tflops"},
    {"gemm-bf16", "gemm_bf16", "tflops"},
    {"gemmlt-fp16", "gemmlt_fp16", "tflops"},
    {"gemmlt-bf16", "gemmlt_bf16", "tflops"},
    {"gemmlt-fp8", "gemm_fp8", "tflops"},
    {"copy", "copy", "gbps"},
    {"triad", "triad", "gbps"},
    {"h2d-pinned", "h2d_pinned", "gbps"},
    {"d2h-pinned", "d2h_pinned", "gbps"},
    {"h2d-pageable", "h2d_pageable", "gbps"},
    {"d2h-pageable", "d2h_pageable", "gbps"},
    {"conv-fp32", "conv_fp32", "tflops"},
    {"conv-fp16", "conv_fp16", "tflops"},
};

/// --only's filter: no words, or one the key contains.
bool wanted(const BenchOptions& o, const std::string& key) {
  return o.only.empty() || std::any_of(o.only.begin(), o.only.end(),
                                       [&](const std::string& w) { return key.find(w) != std::string::npos; });
}

}  // namespace

void gpu_bench_body(const std::vector<std::string>& args, ChildChannel& out) {
  if (args.size() < 4) return;
  if (args[0] == "multi") {
    // args: multi, GPU count, budget, max bytes, lib=...
    bench_multi(out, parse_library_args(args, 4), std::clamp(std::atoi(args[1].c_str()), 2, 64),
                std::clamp(std::atoll(args[3].c_str()), 1LL << 20, 8LL << 30), bench_policy(args[2]));
    return;
  }
  Run r{{.out = out, .libs = parse_library_args(args, 4)}};
  const std::string& op = args[0];
  const int device = std::atoi(args[1].c_str());
  const SamplingPolicy policy = bench_policy(args[2]);
  const long long size = std::atoll(args[3].c_str());
  r.m.status = BenchStatus::failed;
  if (r.enter(device)) {
    if (op.starts_with("gemmlt-"))
      bench_gemm_lt(r, op.substr(7), static_cast<int>(std::clamp(size, 64LL, 32768LL)), policy);
    else if (op.starts_with("gemm-"))
      bench_gemm(r, op.substr(5), static_cast<int>(std::clamp(size, 64LL, 32768LL)), policy);
    else if (op.starts_with("conv-")) {
      // size = batch; then channels, height (= width), filters.
      ConvShape sh{.n = static_cast<int>(std::clamp(size, 1LL, 1024LL)),
                   .c = 64,
                   .h = 56,
                   .w = 56,
                   .k = 64,
                   .r = 3,
                   .s = 3,
                   .pad = 1};
      if (args.size() > 4 && std::sscanf(args[4].c_str(), "%d,%d,%d", &sh.c, &sh.h, &sh.k) == 3) sh.w = sh.h;
      sh.c = std::clamp(sh.c, 1, 4096);
      sh.h = sh.w = std::clamp(sh.h, 3, 4096);
      sh.k = std::clamp(sh.k, 1, 4096);
      bench_conv(r, op == "conv-fp16", sh, policy);
    } else if (op == "copy" || op == "triad")
      bench_stream(r, op == "triad", std::clamp(size, 1LL << 20, 16LL << 30), policy);
    else if (op.starts_with("h2d-") || op.starts_with("d2h-"))
      bench_host_copy(r, op.starts_with("h2d"), op.ends_with("pinned"), std::clamp(size, 1LL << 20, 8LL << 30), policy);
    else
      r.fail("no GPU benchmark named \"" + printable(op, 40) + "\"");
  }
  send_json_line(out, json{{"measurement", measurement_to_json(r.m)}});
}

void run_gpu_benches(const BenchOptions& o, BenchReport& report) {
  CudaDriverReport driver;
  {
    std::vector<ChildOutcome> outcome = run_isolated({{"cuda-driver", o.cuda_names}}, o.deadline);
    driver = cuda_report_from_child(outcome.at(0));
  }
  if (driver.status != LibraryStatus::ok || driver.device_count.value_or(0) <= 0) {
    const std::string why = driver.status == LibraryStatus::not_found
                                ? std::string("no NVIDIA driver (libcuda not found)")
                                : "the driver (libcuda " + std::string(to_string(driver.status)) +
                                      ") answered: " + (driver.error.empty() ? "no GPU" : driver.error);
    // No driver on a CPU machine is a fact; a driver that fails, or GPUs asked for alone that
    // cannot be measured, is a failed run (exit 1), never a pass with nothing measured.
    if ((driver.status != LibraryStatus::ok && driver.status != LibraryStatus::not_found) || !o.cpu) {
      report.problems.push_back("No GPU figures: " + why + ".");
    } else {
      report.notes.push_back("No GPU figures: " + why + ". The CPU figures stand on their own.");
    }
    return;
  }
  std::vector<std::string> libs;
  if (!driver.path.empty()) libs.push_back("cuda=" + driver.path);
  // cuBLAS and cuDNN where verify finds them (--libs-from's choice), each loaded in a child first.
  for (const RuntimeLibraryReport& l : probe_runtime_libraries(o.libraries, o.deadline)) {
    if ((l.name == "cublas" || l.name == "cublasLt" || l.name == "cudnn" || l.name == "nccl") &&
        l.status == LibraryStatus::ok) {
      libs.push_back(l.name + "=" + l.path);
    } else if (l.name == "cublas" || l.name == "cudnn") {
      report.notes.push_back(l.name + " from " + o.libraries.label + ": " + to_string(l.status) +
                             (l.error.empty() ? "" : " (" + l.error + ")"));
    }
  }
  const int count = std::min(*driver.device_count, 64);
  for (int d = 0; d < count; ++d) {
    // The device's name, as the first child reports it: the ceiling's lookup key.
    report.gpu_names.push_back("");
    for (const GpuOp& op : kGpuOps) {
      const std::string key = "gpu" + std::to_string(d) + "." + op.key;
      if (!wanted(o, key)) continue;
      const std::string op_name = op.op;
      long long size = op_name.starts_with("gemm")                 ? o.sizes.gpu_gemm_n
                       : op_name.starts_with("conv")               ? o.sizes.gpu_conv[0]
                       : (op_name == "copy" || op_name == "triad") ? o.sizes.gpu_copy_bytes
                                                                   : o.sizes.host_copy_bytes;
      if (o.on_start) o.on_start(key + "." + op.unit);
      std::vector<std::string> args{op_name, std::to_string(d), o.mode, std::to_string(size)};
      if (op_name.starts_with("conv")) {
        args.push_back(std::to_string(o.sizes.gpu_conv[1]) + "," + std::to_string(o.sizes.gpu_conv[2]) + "," +
                       std::to_string(o.sizes.gpu_conv[3]));
      }
      args.insert(args.end(), libs.begin(), libs.end());
      std::vector<ChildOutcome> outcome = run_isolated({{"gpu-bench", args}}, o.deadline);
      if (report.gpu_names.back().empty()) {
        for (const auto& object : parse_child_lines(outcome.at(0)).objects) {
          if (auto it = object.find("device_name"); it != object.end() && it->is_string())
            report.gpu_names.back() = it->get<std::string>();
        }
      }
      report.measurements.push_back(measurement_from_child(key, op.unit, outcome.at(0)));
      if (o.on_measurement) o.on_measurement(report.measurements.back());
    }
  }
  if (count >= 2 && (wanted(o, "gpu0.peer_to_gpu1") || wanted(o, "gpus.allreduce_busbw"))) {
    if (o.on_start) o.on_start("gpus.allreduce_busbw.gbps");
    std::vector<std::string> args{"multi", std::to_string(count), o.mode, std::to_string(o.sizes.gpu_copy_bytes)};
    args.insert(args.end(), libs.begin(), libs.end());
    ChildOutcome outcome = run_isolated({{"gpu-bench", args}}, o.deadline * 4).at(0);
    ChildLines lines = parse_child_lines(outcome);
    std::vector<BenchMeasurement> found;
    for (const auto& object : lines.objects) {
      if (auto it = object.find("measurement"); it != object.end() && it->is_object()) {
        BenchMeasurement m;
        measurement_from_json(*it, m);
        found.push_back(std::move(m));
      } else if (auto p = object.find("p2p_matrix"); p != object.end() && p->is_string()) {
        report.notes.push_back(p->get<std::string>());
      } else if (auto t = object.find("topology"); t != object.end() && t->is_object()) {
        BenchTopology topology;
        if (bench_topology_from_json(*t, topology)) report.topology = std::move(topology);
      }
    }
    // The all-reduce comes last; a child that died or went silent before it is its failure.
    if (found.empty() || found.back().key != "gpus.allreduce_busbw" || outcome.error) {
      if (!found.empty() && found.back().key == "gpus.allreduce_busbw") found.pop_back();
      BenchMeasurement m{.key = "gpus.allreduce_busbw", .unit = "gbps", .status = BenchStatus::none};
      mark_child_failure(m, outcome, lines);
      found.push_back(std::move(m));
    }
    for (auto& m : found) {
      m.wall_seconds = static_cast<double>(outcome.elapsed.count()) / 1000.0;  // the one child's, shared
      report.measurements.push_back(std::move(m));
      if (o.on_measurement) o.on_measurement(report.measurements.back());
    }
  } else if (count < 2) {
    report.notes.push_back("One GPU: no peer bandwidth and no NCCL all-reduce to measure.");
  }
}

}  // namespace gpudoctor::gpu
