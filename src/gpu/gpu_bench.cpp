#include "gpu/gpu_bench.hpp"

#include <cmath>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/text.hpp"
#include "gpu/bench_kernels.hpp"
#include "gpu/bench_math.hpp"
#include "gpu/child_lines.hpp"
#include "gpu/cpu_bench.hpp"
#include "gpu/cublas_api.hpp"
#include "gpu/cuda_compute_api.hpp"
#include "gpu/cuda_driver_api.hpp"
#include "gpu/driver_query.hpp"
#include "gpu/verify_math.hpp"
#include "model/json_codec.hpp"

namespace gpudoctor::gpu {
namespace {

using json = nlohmann::ordered_json;

inline constexpr int kCudaR16BF = 14;               ///< cudaDataType CUDA_R_16BF
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
struct Run {
  ChildChannel& out;
  BenchMeasurement m;
  std::map<std::string, std::string> libs;
  std::optional<CudaDriverApi> driver;
  std::optional<CudaComputeApi> cuda;
  CUcontext ctx = nullptr;

  bool fail(std::string why) {
    m.status = kBenchFailed;
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
  std::vector<std::string> names(const char* lib, std::vector<std::string> fallback) const {
    auto it = libs.find(lib);
    return it == libs.end() || it->second.empty() ? fallback : std::vector<std::string>{it->second};
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
    return cu("cuDevicePrimaryCtxRetain", cuda->primary_retain, &ctx, handle) &&
           cu("cuCtxSetCurrent", cuda->ctx_set_current, ctx);
  }

  /// Times `work` (which enqueues on the default stream) with a pair of CUDA events.
  std::optional<SampleStats> time(const std::function<bool()>& work, const SamplingPolicy& policy) {
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
    send_call_line(out, "timed loop (cuEventRecord, cuEventElapsedTime)");
    SampleStats stats = summarize(sample_times(once, policy));
    if (!ok) {
      if (m.status != kBenchFailed) fail("a call failed during the timed loop");
      return std::nullopt;
    }
    return stats;
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

void bench_gemm(Run& r, const std::string& precision, int n, const SamplingPolicy& policy) {
  std::optional<CublasApi> api;
  send_call_line(r.out, "dlopen cuBLAS");
  auto loaded = load_cublas(r.names("cublas", {"libcublas.so"}));
  if (!loaded) {
    r.m.status = loaded.error().kind == ErrorKind::not_found ? kBenchSkipped : kBenchFailed;
    r.m.detail = "cuBLAS: " + loaded.error().message;
    return;
  }
  api.emplace(std::move(loaded).value());
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
  const size_t count = static_cast<size_t>(n) * static_cast<size_t>(n);
  std::vector<float> a = test_values(count, 3);
  std::vector<float> b = test_values(count, 5);
  int type = kCudaR32F;
  int compute = kCublasCompute32F;
  size_t elem = 4;
  std::vector<std::uint16_t> ha(count);
  std::vector<std::uint16_t> hb(count);
  double u = kFloatUnitRoundoff;
  double factor = 1.0;
  if (precision == "tf32") {
    compute = kCublasCompute32FFastTf32;
    u = kTf32UnitRoundoff;  // inputs rounded to 10 mantissa bits
    factor = 2.0;
  } else if (precision == "fp16" || precision == "bf16") {
    const bool bf = precision == "bf16";
    type = bf ? kCudaR16BF : kCudaR16F;
    elem = 2;
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
  CUdeviceptr da = r.alloc(count * elem);
  CUdeviceptr db = da == 0 ? 0 : r.alloc(count * elem);
  CUdeviceptr dc = db == 0 ? 0 : r.alloc(count * 4);
  if (dc == 0) return;
  const void* host_a = elem == 4 ? static_cast<const void*>(a.data()) : ha.data();
  const void* host_b = elem == 4 ? static_cast<const void*>(b.data()) : hb.data();
  if (!r.cu("cuMemcpyHtoD_v2", r.cuda->memcpy_htod, da, host_a, count * elem) ||
      !r.cu("cuMemcpyHtoD_v2", r.cuda->memcpy_htod, db, host_b, count * elem)) {
    return;
  }
  float alpha = 1.0F;
  float beta = 0.0F;
  int last = 0;
  // Row-major C = A * B is column-major C^T = B^T * A^T: B first.
  auto work = [&]() {
    last = api->gemm_ex(handle, kCublasOpN, kCublasOpN, n, n, n, &alpha, ptr<const void>(db), type, n,
                        ptr<const void>(da), type, n, &beta, ptr<void>(dc), kCudaR32F, n, compute, kCublasGemmDefault);
    return last == kCublasSuccess;
  };
  send_call_line(r.out, "cublasGemmEx");
  auto stats = r.time(work, policy);
  if (!stats) {
    if (last != kCublasSuccess) r.fail("cublasGemmEx: " + cublas_status_name(last));
    return;
  }
  std::vector<float> c(count, NAN);
  if (!r.cu("cuMemcpyDtoH_v2", r.cuda->memcpy_dtoh, c.data(), dc, count * 4)) return;
  fill_rate(r.m, *stats, gemm_flops(n, n, n), 1e12);
  SampledCheck check = check_gemm_sampled(a.data(), b.data(), c.data(), n, n, n, 256, u, factor);
  r.m.check = check.summary;
  r.m.check_passed = check.passed;
  r.m.library = "cuBLAS " + cublas_version_text(version) + " " + api->library.path();
  r.m.detail = "cublasGemmEx " + std::to_string(n) + "^3, " + precision + " inputs, FP32 accumulate and output" +
               (precision == "tf32" ? " (CUBLAS_COMPUTE_32F_FAST_TF32)" : "");
  r.m.status = check.passed ? kBenchOk : kBenchFailed;
}

void bench_stream(Run& r, bool triad, long long bytes, const SamplingPolicy& policy) {
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
  auto stats = r.time(work, policy);
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
               " MiB per array (embedded PTX, grid-stride), bytes counted as STREAM does";
  r.m.status = wrong == 0 ? kBenchOk : kBenchFailed;
}

void bench_host_copy(Run& r, bool to_device, bool pinned, long long bytes, const SamplingPolicy& policy) {
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
  auto stats = r.time(work, policy);
  if (!stats) {
    if (last != kCudaSuccess) r.fail(std::string(to_device ? "cuMemcpyHtoD_v2: " : "cuMemcpyDtoH_v2: ") + cuda_error_name(last));
    return;
  }
  std::vector<unsigned char> back(size);
  if (!r.cu("cuMemcpyDtoH_v2", r.cuda->memcpy_dtoh, back.data(), d, size)) return;
  const bool same = fnv1a(back.data(), size) == sent && fnv1a(host, size) == sent;
  fill_rate(r.m, *stats, static_cast<double>(size), 1e9);
  r.m.check = same ? "every byte arrived (FNV-1a of the " + std::to_string(size >> 20) + " MiB)" : "the bytes differ";
  r.m.check_passed = same;
  r.m.detail = std::string(to_device ? "host -> device " : "device -> host ") + std::to_string(size >> 20) + " MiB, " +
               (pinned ? "pinned (cuMemAllocHost)" : "pageable (malloc)") + " host memory";
  r.m.status = same ? kBenchOk : kBenchFailed;
  if (pinned && r.cuda->mem_free_host != nullptr) (void)r.cuda->mem_free_host(host);
}

std::map<std::string, std::string> parse_libs(const std::vector<std::string>& args, size_t from) {
  std::map<std::string, std::string> libs;
  for (size_t i = from; i < args.size(); ++i) {
    size_t eq = args[i].find('=');
    if (eq != std::string::npos) libs[args[i].substr(0, eq)] = args[i].substr(eq + 1);
  }
  return libs;
}

/// What each op measures: its key suffix and unit.
struct GpuOp {
  const char* op;
  const char* key;
  const char* unit;
};
constexpr GpuOp kGpuOps[] = {
    {"gemm-fp32", "gemm_fp32", "tflops"}, {"gemm-tf32", "gemm_tf32", "tflops"},
    {"gemm-fp16", "gemm_fp16", "tflops"}, {"gemm-bf16", "gemm_bf16", "tflops"},
    {"copy", "copy", "gbps"},             {"triad", "triad", "gbps"},
    {"h2d-pinned", "h2d_pinned", "gbps"}, {"d2h-pinned", "d2h_pinned", "gbps"},
    {"h2d-pageable", "h2d_pageable", "gbps"}, {"d2h-pageable", "d2h_pageable", "gbps"},
};

}  // namespace

void gpu_bench_body(const std::vector<std::string>& args, ChildChannel& out) {
  if (args.size() < 4) return;
  Run r{.out = out, .m = {}, .libs = parse_libs(args, 4), .driver = {}, .cuda = {}, .ctx = nullptr};
  const std::string& op = args[0];
  const int device = std::atoi(args[1].c_str());
  const SamplingPolicy policy = bench_policy(args[2]);
  const long long size = std::atoll(args[3].c_str());
  r.m.status = kBenchFailed;
  if (r.enter(device)) {
    if (op.starts_with("gemm-"))
      bench_gemm(r, op.substr(5), static_cast<int>(std::clamp(size, 64LL, 32768LL)), policy);
    else if (op == "copy" || op == "triad")
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
  if (driver.status != "ok" || driver.device_count.value_or(0) <= 0) {
    report.notes.push_back("No GPU figures: " +
                           (driver.status == "not-found"
                                ? std::string("no NVIDIA driver (libcuda not found)")
                                : "the driver (libcuda " + driver.status + ") answered: " +
                                      (driver.error.empty() ? "no GPU" : driver.error)) +
                           ". The CPU figures stand on their own.");
    return;
  }
  std::vector<std::string> libs;
  if (!driver.path.empty()) libs.push_back("cuda=" + driver.path);
  const int count = std::min(*driver.device_count, 64);
  for (int d = 0; d < count; ++d) {
    // The device's name, as the first child reports it: the ceiling's lookup key.
    report.gpu_names.push_back("");
    for (const GpuOp& op : kGpuOps) {
      const std::string key = "gpu" + std::to_string(d) + "." + op.key;
      const std::string op_name = op.op;
      long long size = op_name.starts_with("gemm") ? o.sizes.gpu_gemm_n
                       : (op_name == "copy" || op_name == "triad") ? o.sizes.gpu_copy_bytes
                                                                   : o.sizes.host_copy_bytes;
      if (o.on_start) o.on_start(key + "." + op.unit);
      std::vector<std::string> args{op_name, std::to_string(d), o.mode, std::to_string(size)};
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
  report.notes.push_back(
      "Not measured yet by this build: cuBLASLt and FP8 GEMM, cuDNN convolution, peer bandwidth and the "
      "NCCL all-reduce sweep (docs/bench.md).");
}

}  // namespace gpudoctor::gpu
