#include "gpu/verify_steps.hpp"

#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>

#include "core/text.hpp"
#include "gpu/child_libraries.hpp"
#include "gpu/child_lines.hpp"
#include "gpu/cublas_api.hpp"
#include "gpu/cuda_compute_api.hpp"
#include "gpu/cuda_driver_api.hpp"
#include "gpu/cudnn_api.hpp"
#include "gpu/nccl_api.hpp"
#include "gpu/nccl_debug_log.hpp"
#include "gpu/verify_kernels.hpp"
#include "gpu/verify_math.hpp"
#include "model/json_codec.hpp"
#include "platform/host_fs.hpp"

namespace gpudoctor::gpu {
namespace {

using json = nlohmann::ordered_json;

constexpr const char* kStepNames[] = {"driver", "context",    "memory",         "kernel",     "sgemm",
                                      "hgemm",  "cudnn-conv", "nccl-allreduce", "peer-access"};

/// One step in the child: what it has loaded and what it will report.
struct StepRun : ChildLibraries {
  VerifyStep step;
  std::vector<CUcontext> contexts;  ///< primary context per device, once retained

  void fail(std::string why) {
    step.status = StepStatus::failed;
    step.detail = std::move(why);
  }
  void pass(std::string what) {
    step.status = StepStatus::passed;
    step.detail = std::move(what);
  }
  [[nodiscard]] bool failed() const { return step.status == StepStatus::failed; }

  /// "cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY (2): out of memory"
  std::string cuda_error(const std::string& call, CUresult rc) {
    std::string name;
    if (driver && driver->error_name != nullptr) {
      const char* text = nullptr;
      if (driver->error_name(rc, &text) == kCudaSuccess && text != nullptr)
        name = std::string(text, ::strnlen(text, 100));
    }
    if (name.empty()) name = cuda_error_name(rc);
    std::string message = call + ": " + name + " (" + std::to_string(rc) + ")";
    if (driver && driver->error_string != nullptr) {
      const char* text = nullptr;
      if (driver->error_string(rc, &text) == kCudaSuccess && text != nullptr)
        message += ": " + std::string(text, ::strnlen(text, 200));
    }
    return message;
  }
};

/// Announces `call`, makes it, and fails the step with `describe`'s words when it returns
/// anything but `ok`.
template <class Describe, class Fn, class... Args>
bool checked(StepRun& s, const std::string& call, Describe describe, Fn fn, Args&&... args) {
  send_call_line(s.out, call);
  int rc = fn(std::forward<Args>(args)...);
  if (rc == 0) return true;
  s.fail(describe(call, rc));
  return false;
}

template <class Fn, class... Args>
bool cu(StepRun& s, const std::string& call, Fn fn, Args&&... args) {
  return checked(
      s, call, [&s](const std::string& c, int rc) { return s.cuda_error(c, rc); }, fn, std::forward<Args>(args)...);
}

template <class Api>
bool load_into(StepRun& s, std::optional<Api>& slot, Result<Api> (*load)(const std::vector<std::string>&),
               const std::vector<std::string>& names, const char* what) {
  send_call_line(s.out, "dlopen " + names.front());
  auto loaded = load(names);
  if (!loaded) {
    s.fail(std::string(what) + ": " + loaded.error().message);
    return false;
  }
  slot.emplace(std::move(loaded).value());
  return true;
}

bool load_driver(StepRun& s) {
  auto names = s.names("cuda", default_cuda_driver_names());
  send_call_line(s.out, "dlopen " + names.front());
  auto driver = load_cuda_driver(names);
  if (!driver && driver.error().kind == ErrorKind::not_found) {
    // The one answer that matters most on a machine without a driver: say it in plain words.
    s.fail("no NVIDIA driver: " + names.front() + " is not on the loader's path (" + driver.error().message + ")");
    return false;
  }
  if (!driver) {
    s.fail("libcuda: " + driver.error().message);
    return false;
  }
  s.driver.emplace(std::move(driver).value());
  return load_into(s, s.cuda, &load_cuda_compute, names, "libcuda");
}

/// cuInit and `device`'s primary context made current: what every step after "driver" needs.
bool enter_device(StepRun& s, int device) {
  if (s.contexts.empty()) {
    if (!load_driver(s) || !cu(s, "cuInit", s.driver->init, 0U)) return false;
    int count = 0;
    if (!cu(s, "cuDeviceGetCount", s.driver->device_count, &count)) return false;
    s.contexts.assign(static_cast<size_t>(std::max(count, 0)), nullptr);
  }
  if (device < 0 || static_cast<size_t>(device) >= s.contexts.size()) {
    s.fail("no GPU " + std::to_string(device) + ": the driver sees " + std::to_string(s.contexts.size()));
    return false;
  }
  CUcontext& ctx = s.contexts[static_cast<size_t>(device)];
  if (ctx == nullptr) {
    CUdevice handle = 0;
    if (!cu(s, "cuDeviceGet", s.cuda->device_get, &handle, device)) return false;
    if (!cu(s, "cuDevicePrimaryCtxRetain", s.cuda->primary_retain, &ctx, handle)) return false;
  }
  return cu(s, "cuCtxSetCurrent", s.cuda->ctx_set_current, ctx);
}

std::string hex64(std::uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%016" PRIx64, v);
  return text;
}

// ---- driver, context, memory, kernel ----

void step_driver(StepRun& s, int device) {
  if (!load_driver(s)) return;
  int version = 0;
  send_call_line(s.out, "cuDriverGetVersion");
  std::string speaks;
  if (s.driver->driver_version(&version) == kCudaSuccess && version > 0) {
    speaks = "; the driver speaks CUDA " + std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
  }
  if (!cu(s, "cuInit", s.driver->init, 0U)) return;
  int count = 0;
  if (!cu(s, "cuDeviceGetCount", s.driver->device_count, &count)) return;
  send_json_line(s.out, json{{"device_count", count}});
  if (count <= 0) {
    s.fail("cuDeviceGetCount: the driver sees no GPU" + speaks);
    return;
  }
  if (device >= count) {
    s.fail("no GPU " + std::to_string(device) + ": the driver sees " + std::to_string(count) + speaks);
    return;
  }
  CUdevice handle = 0;
  if (!cu(s, "cuDeviceGet", s.cuda->device_get, &handle, device)) return;
  char name[256] = {};
  if (!cu(s, "cuDeviceGetName", s.cuda->device_name, name, static_cast<int>(sizeof name - 1), handle)) return;
  int major = 0;
  int minor = 0;
  if (!cu(s, "cuDeviceGetAttribute", s.cuda->device_attribute, &major, kCuDeviceAttributeComputeCapabilityMajor,
          handle) ||
      !cu(s, "cuDeviceGetAttribute", s.cuda->device_attribute, &minor, kCuDeviceAttributeComputeCapabilityMinor,
          handle)) {
    return;
  }
  // The board's PCI address, as nvidia-smi and the BMC name it; verify goes on without it.
  s.step.pci_bus_id = cuda_bus_id(*s.cuda, device);
  s.pass(printable(name, 100) + ", compute capability " + std::to_string(major) + "." + std::to_string(minor) +
         (s.step.pci_bus_id.empty() ? "" : ", PCI " + s.step.pci_bus_id) + "; " + std::to_string(count) +
         " GPU(s) visible" + speaks);
}

void step_context(StepRun& s, int device) {
  if (!enter_device(s, device) || !cu(s, "cuCtxSynchronize", s.cuda->ctx_synchronize)) return;
  s.pass("primary context created and made current");
}

void step_memory(StepRun& s, int device) {
  if (!enter_device(s, device)) return;
  constexpr size_t kBytes = 4U << 20;
  std::vector<float> values = test_values(kBytes / sizeof(float), 7);
  std::vector<unsigned char> back(kBytes, 0);
  CUdeviceptr d = 0;
  if (!cu(s, "cuMemAlloc_v2", s.cuda->mem_alloc, &d, kBytes) ||
      !cu(s, "cuMemcpyHtoD_v2", s.cuda->memcpy_htod, d, values.data(), kBytes) ||
      !cu(s, "cuMemcpyDtoH_v2", s.cuda->memcpy_dtoh, back.data(), d, kBytes)) {
    return;
  }
  std::uint64_t sent = fnv1a(values.data(), kBytes);
  std::uint64_t got = fnv1a(back.data(), kBytes);
  size_t differ = 0;
  size_t first = 0;
  const auto* want = reinterpret_cast<const unsigned char*>(values.data());
  for (size_t i = 0; i < kBytes; ++i) {
    if (want[i] != back[i] && differ++ == 0) first = i;
  }
  if (differ != 0 || sent != got) {
    s.fail("4 MiB host -> device -> host: " + std::to_string(differ) + " bytes differ, the first at offset " +
           std::to_string(first) + " (checksum " + hex64(got) + ", sent " + hex64(sent) + ")");
    return;
  }
  (void)s.cuda->mem_free(d);
  s.pass("4 MiB host -> device -> host, every byte back, checksum " + hex64(sent));
}

void step_kernel(StepRun& s, int device) {
  if (!enter_device(s, device)) return;
  constexpr unsigned kN = 1U << 16;
  constexpr float kA = 3.0F;
  std::vector<float> in(kN);
  for (unsigned i = 0; i < kN; ++i) in[i] = static_cast<float>(static_cast<int>(i % 1024) - 512);
  char log[4096] = {};
  CUjit_option options[] = {kCuJitErrorLogBuffer, kCuJitErrorLogBufferSizeBytes};
  void* values[] = {log, reinterpret_cast<void*>(static_cast<std::uintptr_t>(sizeof log - 1))};
  CUmodule module = nullptr;
  send_call_line(s.out, "cuModuleLoadDataEx");
  CUresult rc = s.cuda->module_load_data(&module, affine_kernel_ptx(), 2, options, values);
  if (rc != kCudaSuccess) {
    std::string jit = printable(trim(std::string_view(log, ::strnlen(log, sizeof log))), 300);
    s.fail(s.cuda_error("cuModuleLoadDataEx (the embedded PTX)", rc) + (jit.empty() ? "" : "; JIT log: " + jit));
    return;
  }
  CUfunction function = nullptr;
  const std::string name(kAffineKernelName);
  if (!cu(s, "cuModuleGetFunction", s.cuda->module_function, &function, module, name.c_str())) return;
  CUdeviceptr d_in = 0;
  CUdeviceptr d_out = 0;
  std::vector<float> out(kN, NAN);
  if (!cu(s, "cuMemAlloc_v2", s.cuda->mem_alloc, &d_in, kN * sizeof(float)) ||
      !cu(s, "cuMemAlloc_v2", s.cuda->mem_alloc, &d_out, kN * sizeof(float)) ||
      !cu(s, "cuMemcpyHtoD_v2", s.cuda->memcpy_htod, d_in, in.data(), kN * sizeof(float)) ||
      // NaN first, so that elements the kernel never wrote cannot pass.
      !cu(s, "cuMemcpyHtoD_v2", s.cuda->memcpy_htod, d_out, out.data(), kN * sizeof(float))) {
    return;
  }
  float a = kA;
  unsigned n = kN;
  void* params[] = {&d_out, &d_in, &a, &n};
  if (!cu(s, "cuLaunchKernel", s.cuda->launch_kernel, function, (kN + 255) / 256, 1U, 1U, 256U, 1U, 1U, 0U,
          static_cast<CUstream>(nullptr), params, static_cast<void**>(nullptr)) ||
      !cu(s, "cuCtxSynchronize", s.cuda->ctx_synchronize) ||
      !cu(s, "cuMemcpyDtoH_v2", s.cuda->memcpy_dtoh, out.data(), d_out, kN * sizeof(float))) {
    return;
  }
  size_t wrong = 0;
  size_t first = 0;
  for (unsigned i = 0; i < kN; ++i) {
    // Every value is a small integer: the exact answer, whatever the rounding mode.
    float want = kA * in[i] + static_cast<float>(i);
    if (!(out[i] == want) && wrong++ == 0) first = i;
  }
  if (wrong != 0) {
    char text[160];
    std::snprintf(text, sizeof text, "%zu of %u elements wrong; element %zu is %.9g, expected %.9g", wrong, kN, first,
                  static_cast<double>(out[first]), static_cast<double>(kA * in[first] + static_cast<float>(first)));
    s.fail(std::string(text));
    return;
  }
  s.pass("embedded PTX (sm_50, ISA 6.0) JIT-compiled and launched; all " + std::to_string(kN) +
         " elements of a*x+i exact");
}

// ---- cuBLAS ----

bool load_cublas_into(StepRun& s, std::optional<CublasApi>& api, cublasHandle_t& handle) {
  if (!load_into(s, api, &load_cublas, s.names("cublas", {"libcublas.so"}), "cuBLAS")) return false;
  auto describe = [](const std::string& call, int rc) { return call + ": " + cublas_status_name(rc); };
  return checked(s, "cublasCreate_v2", describe, api->create, &handle);
}

/// Copies `host` to a new device buffer; 0 when it failed (the step says why).
template <class T>
CUdeviceptr to_device(StepRun& s, const std::vector<T>& host) {
  CUdeviceptr d = 0;
  if (!cu(s, "cuMemAlloc_v2", s.cuda->mem_alloc, &d, host.size() * sizeof(T)) ||
      !cu(s, "cuMemcpyHtoD_v2", s.cuda->memcpy_htod, d, host.data(), host.size() * sizeof(T))) {
    return 0;
  }
  return d;
}

bool from_device(StepRun& s, std::vector<float>& host, CUdeviceptr d) {
  return cu(s, "cuMemcpyDtoH_v2", s.cuda->memcpy_dtoh, host.data(), d, host.size() * sizeof(float));
}

template <class T>
T* device_ptr(CUdeviceptr d) {
  return reinterpret_cast<T*>(static_cast<std::uintptr_t>(d));
}

constexpr int kGemmM = 64;
constexpr int kGemmN = 48;
constexpr int kGemmK = 256;

void finish_comparison(StepRun& s, const std::string& what, const BoundCheck& c) {
  if (c.passed)
    s.pass(what + ": " + c.summary);
  else
    s.fail(what + " gave a wrong result: " + c.summary);
}

void step_gemm(StepRun& s, int device, bool half) {
  if (!enter_device(s, device)) return;
  std::optional<CublasApi> api;
  cublasHandle_t handle = nullptr;
  if (!load_cublas_into(s, api, handle)) return;
  if (half && api->gemm_ex == nullptr) {
    s.fail("cuBLAS at " + api->library.path() + " has no cublasGemmEx (added in CUDA 8): too old for half precision");
    return;
  }
  std::vector<float> a = test_values(static_cast<size_t>(kGemmM) * kGemmK, 11);
  std::vector<float> b = test_values(static_cast<size_t>(kGemmK) * kGemmN, 13);
  std::vector<std::uint16_t> ha;
  std::vector<std::uint16_t> hb;
  if (half) {
    // The reference multiplies the values the GPU sees: the inputs rounded to half.
    for (float& v : a) ha.push_back(float_to_half(v)), v = half_to_float(ha.back());
    for (float& v : b) hb.push_back(float_to_half(v)), v = half_to_float(hb.back());
  }
  std::vector<float> c(static_cast<size_t>(kGemmM) * kGemmN, NAN);
  CUdeviceptr da = half ? to_device(s, ha) : to_device(s, a);
  CUdeviceptr db = da == 0 ? 0 : (half ? to_device(s, hb) : to_device(s, b));
  CUdeviceptr dc = db == 0 ? 0 : to_device(s, c);
  if (dc == 0) return;
  float alpha = 1.0F;
  float beta = 0.0F;
  auto describe = [](const std::string& call, int rc) { return call + ": " + cublas_status_name(rc); };
  if (half) {
    int version = 0;
    send_call_line(s.out, "cublasGetVersion_v2");
    (void)api->get_version(handle, &version);
    // cuBLAS 11 made the compute type a cublasComputeType_t; before, it was a cudaDataType.
    int compute = version >= 11000 ? kCublasCompute32F : kCudaR32F;
    if (!checked(s, "cublasGemmEx", describe, api->gemm_ex, handle, kCublasOpN, kCublasOpN, kGemmM, kGemmN, kGemmK,
                 &alpha, device_ptr<const void>(da), kCudaR16F, kGemmM, device_ptr<const void>(db), kCudaR16F, kGemmK,
                 &beta, device_ptr<void>(dc), kCudaR32F, kGemmM, compute, kCublasGemmDefault)) {
      return;
    }
  } else if (!checked(s, "cublasSgemm_v2", describe, api->sgemm, handle, kCublasOpN, kCublasOpN, kGemmM, kGemmN, kGemmK,
                      &alpha, device_ptr<const float>(da), kGemmM, device_ptr<const float>(db), kGemmK, &beta,
                      device_ptr<float>(dc), kGemmM)) {
    return;
  }
  if (!cu(s, "cuCtxSynchronize", s.cuda->ctx_synchronize) || !from_device(s, c, dc)) return;
  Reference ref = gemm_reference(a, b, kGemmM, kGemmN, kGemmK);
  // Half inputs are exact in FP32 products; the accumulation gets twice the FP32 bound, for
  // tensor-core paths that truncate rather than round.
  BoundCheck cmp = compare_with_bound(c, ref, half ? 2 * kGemmK : kGemmK, kFloatUnitRoundoff);
  std::string what = std::string(half ? "FP16 GEMM (cublasGemmEx, FP32 accumulate) " : "SGEMM ") +
                     std::to_string(kGemmM) + "x" + std::to_string(kGemmN) + "x" + std::to_string(kGemmK);
  finish_comparison(s, what, cmp);
}

// ---- cuDNN ----

void step_cudnn(StepRun& s, int device) {
  if (!enter_device(s, device)) return;
  std::optional<CudnnApi> api;
  if (!load_into(s, api, &load_cudnn, s.names("cudnn", {"libcudnn.so"}), "cuDNN")) return;
  send_call_line(s.out, "cudnnGetVersion");
  auto version = static_cast<long long>(api->get_version());
  if (version < 8000) {
    s.fail("cuDNN " + packed_version_text(version) + " at " + api->library.path() +
           " is older than 8.0; verify runs the cuDNN 8 and 9 API, and no current framework loads older");
    return;
  }
  const CudnnApi& dnn = *api;
  auto describe = [&dnn](const std::string& call, int rc) { return call + ": " + cudnn_status_text(dnn, rc); };
  ConvShape shape;
  const int oh = shape.out_h();
  const int ow = shape.out_w();
  cudnnHandle_t handle = nullptr;
  CudnnDescriptor x_desc = nullptr;
  CudnnDescriptor y_desc = nullptr;
  CudnnDescriptor w_desc = nullptr;
  CudnnDescriptor conv = nullptr;
  if (!checked(s, "cudnnCreate", describe, api->create, &handle) ||
      !checked(s, "cudnnCreateTensorDescriptor", describe, api->create_tensor, &x_desc) ||
      !checked(s, "cudnnCreateTensorDescriptor", describe, api->create_tensor, &y_desc) ||
      !checked(s, "cudnnSetTensor4dDescriptor", describe, api->set_tensor_4d, x_desc, kCudnnTensorNchw, kCudnnDataFloat,
               shape.n, shape.c, shape.h, shape.w) ||
      !checked(s, "cudnnSetTensor4dDescriptor", describe, api->set_tensor_4d, y_desc, kCudnnTensorNchw, kCudnnDataFloat,
               shape.n, shape.k, oh, ow) ||
      !checked(s, "cudnnCreateFilterDescriptor", describe, api->create_filter, &w_desc) ||
      !checked(s, "cudnnSetFilter4dDescriptor", describe, api->set_filter_4d, w_desc, kCudnnDataFloat, kCudnnTensorNchw,
               shape.k, shape.c, shape.r, shape.s) ||
      !checked(s, "cudnnCreateConvolutionDescriptor", describe, api->create_conv, &conv) ||
      !checked(s, "cudnnSetConvolution2dDescriptor", describe, api->set_conv_2d, conv, shape.pad, shape.pad, 1, 1, 1, 1,
               kCudnnCrossCorrelation, kCudnnDataFloat)) {
    return;
  }
  // FP32 FMA math where cuDNN lets us ask for it; otherwise Ampere and later may use TF32.
  double u = kTf32UnitRoundoff;
  if (api->set_conv_math != nullptr) {
    if (!checked(s, "cudnnSetConvolutionMathType", describe, api->set_conv_math, conv, kCudnnFmaMath)) return;
    u = kFloatUnitRoundoff;
  }
  std::vector<float> x = test_values(static_cast<size_t>(shape.n) * shape.c * shape.h * shape.w, 17);
  std::vector<float> w = test_values(static_cast<size_t>(shape.k) * shape.c * shape.r * shape.s, 19);
  std::vector<float> dy = test_values(static_cast<size_t>(shape.n) * shape.k * oh * ow, 23);
  std::vector<float> y(dy.size(), NAN);
  std::vector<float> dx(x.size(), NAN);
  CUdeviceptr d_x = to_device(s, x);
  CUdeviceptr d_w = d_x == 0 ? 0 : to_device(s, w);
  CUdeviceptr d_dy = d_w == 0 ? 0 : to_device(s, dy);
  CUdeviceptr d_y = d_dy == 0 ? 0 : to_device(s, y);
  CUdeviceptr d_dx = d_y == 0 ? 0 : to_device(s, dx);
  if (d_dx == 0) return;
  size_t fwd_bytes = 0;
  size_t bwd_bytes = 0;
  if (!checked(s, "cudnnGetConvolutionForwardWorkspaceSize", describe, api->fwd_workspace, handle, x_desc, w_desc, conv,
               y_desc, kCudnnFwdAlgoImplicitGemm, &fwd_bytes) ||
      !checked(s, "cudnnGetConvolutionBackwardDataWorkspaceSize", describe, api->bwd_data_workspace, handle, w_desc,
               y_desc, conv, x_desc, kCudnnBwdDataAlgo1, &bwd_bytes)) {
    return;
  }
  CUdeviceptr workspace = 0;
  size_t ws_bytes = std::max(fwd_bytes, bwd_bytes);
  if (ws_bytes > (256U << 20)) {
    s.fail("cuDNN asks for a " + std::to_string(ws_bytes) + "-byte workspace for a 10x10 convolution");
    return;
  }
  if (ws_bytes > 0 && !cu(s, "cuMemAlloc_v2", s.cuda->mem_alloc, &workspace, ws_bytes)) return;
  float alpha = 1.0F;
  float beta = 0.0F;
  if (!checked(s, "cudnnConvolutionForward", describe, api->conv_forward, handle, &alpha, x_desc,
               device_ptr<const void>(d_x), w_desc, device_ptr<const void>(d_w), conv, kCudnnFwdAlgoImplicitGemm,
               device_ptr<void>(workspace), fwd_bytes, &beta, y_desc, device_ptr<void>(d_y)) ||
      !checked(s, "cudnnConvolutionBackwardData", describe, api->conv_backward_data, handle, &alpha, w_desc,
               device_ptr<const void>(d_w), y_desc, device_ptr<const void>(d_dy), conv, kCudnnBwdDataAlgo1,
               device_ptr<void>(workspace), bwd_bytes, &beta, x_desc, device_ptr<void>(d_dx)) ||
      !cu(s, "cuCtxSynchronize", s.cuda->ctx_synchronize) || !from_device(s, y, d_y) || !from_device(s, dx, d_dx)) {
    return;
  }
  BoundCheck fwd = compare_with_bound(y, conv_forward_reference(shape, x, w), shape.c * shape.r * shape.s, u);
  BoundCheck bwd = compare_with_bound(dx, conv_backward_data_reference(shape, dy, w), shape.k * shape.r * shape.s, u);
  s.step.notes.push_back("forward: " + fwd.summary);
  s.step.notes.push_back("backward data: " + bwd.summary);
  std::string what = "cuDNN " + packed_version_text(version) + " 3x3 convolution, " + std::to_string(shape.n) + "x" +
                     std::to_string(shape.c) + "x" + std::to_string(shape.h) + "x" + std::to_string(shape.w) + " -> " +
                     std::to_string(shape.k) + " channels";
  if (!fwd.passed)
    s.fail(what + ": forward gave a wrong result: " + fwd.summary);
  else if (!bwd.passed)
    s.fail(what + ": backward data gave a wrong result: " + bwd.summary);
  else
    s.pass(what + ": forward and backward data within bounds");
}

// ---- NCCL and peers: across GPUs ----

/// Rank r sends (r + 1) * (i % 7) at element i, so every GPU must receive
/// nranks(nranks+1)/2 * (i % 7), exactly (small integers are exact in float).
bool all_reduce_exact(StepRun& s, const std::vector<float>& got, int gpu, int nranks) {
  const double ranks_sum = static_cast<double>(nranks) * (nranks + 1) / 2;
  for (size_t i = 0; i < got.size(); ++i) {
    auto want = static_cast<float>(ranks_sum * static_cast<double>(i % 7));
    if (got[i] != want) {
      s.fail("NCCL all-reduce over " + std::to_string(nranks) + " GPU(s): GPU " + std::to_string(gpu) + " element " +
             std::to_string(i) + " is " + std::to_string(got[i]) + ", expected " + std::to_string(want));
      return false;
    }
  }
  return true;
}

void step_nccl(StepRun& s) {
  if (!enter_device(s, 0)) return;
  const int count = static_cast<int>(s.contexts.size());
  std::optional<NcclApi> api;
  if (!load_into(s, api, &load_nccl, s.names("nccl", {"libnccl.so"}), "NCCL")) return;
  const NcclApi& nccl = *api;
  auto describe = [&nccl](const std::string& call, int rc) { return call + ": " + nccl_result_text(nccl, rc); };
  std::vector<int> devices(static_cast<size_t>(count));
  for (int d = 0; d < count; ++d) devices[static_cast<size_t>(d)] = d;
  std::vector<ncclComm_t> comms(static_cast<size_t>(count), nullptr);
  if (!checked(s, "ncclCommInitAll", describe, api->comm_init_all, comms.data(), count, devices.data())) return;
  constexpr size_t kCount = 1U << 16;
  std::vector<CUdeviceptr> send(static_cast<size_t>(count));
  std::vector<CUdeviceptr> recv(static_cast<size_t>(count));
  std::vector<CUstream> streams(static_cast<size_t>(count));
  for (int d = 0; d < count; ++d) {
    std::vector<float> mine(kCount);
    for (size_t i = 0; i < kCount; ++i) mine[i] = static_cast<float>((d + 1) * static_cast<int>(i % 7));
    std::vector<float> blank(kCount, NAN);
    auto u = static_cast<size_t>(d);
    if (!enter_device(s, d) || (send[u] = to_device(s, mine)) == 0 || (recv[u] = to_device(s, blank)) == 0 ||
        !cu(s, "cuStreamCreate", s.cuda->stream_create, &streams[u], 0U)) {
      return;
    }
  }
  if (!checked(s, "ncclGroupStart", describe, api->group_start)) return;
  for (int d = 0; d < count; ++d) {
    auto u = static_cast<size_t>(d);
    if (!checked(s, "ncclAllReduce", describe, api->all_reduce, device_ptr<const void>(send[u]),
                 device_ptr<void>(recv[u]), kCount, kNcclFloat32, kNcclSum, comms[u], static_cast<void*>(streams[u]))) {
      return;
    }
  }
  if (!checked(s, "ncclGroupEnd", describe, api->group_end)) return;
  for (int d = 0; d < count; ++d) {
    auto u = static_cast<size_t>(d);
    std::vector<float> got(kCount);
    if (!enter_device(s, d) || !cu(s, "cuStreamSynchronize", s.cuda->stream_synchronize, streams[u]) ||
        !from_device(s, got, recv[u])) {
      return;
    }
    if (!all_reduce_exact(s, got, d, count)) return;
  }
  s.pass("NCCL all-reduce (sum, " + std::to_string(kCount) + " floats) over " + std::to_string(count) +
         " GPU(s): every element on every GPU exact");
}

// ---- NCCL across processes and nodes (fleet --nccl) ----

std::string hex_of(const char* data, size_t n) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    auto b = static_cast<unsigned char>(data[i]);
    out += kDigits[b >> 4U];
    out += kDigits[b & 15U];
  }
  return out;
}

bool bytes_of(const std::string& hex, char* out, size_t n) {
  if (hex.size() != 2 * n) return false;
  auto nibble = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; };
  for (size_t i = 0; i < n; ++i) {
    int hi = nibble(hex[2 * i]);
    int lo = nibble(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = static_cast<char>(hi * 16 + lo);
  }
  return true;
}

std::string lib_arg(const StepRun& s, const char* key) {
  auto it = s.libs.find(key);
  return it == s.libs.end() ? std::string() : it->second;
}

/// "nccl-id": ncclGetUniqueId on fleet --nccl's rank 0; the id (hex) is the step's first note.
void step_nccl_id(StepRun& s) {
  std::optional<NcclApi> api;
  if (!load_into(s, api, &load_nccl, s.names("nccl", {"libnccl.so.2", "libnccl.so"}), "NCCL")) return;
  const NcclApi& nccl = *api;
  auto describe = [&nccl](const std::string& call, int rc) { return call + ": " + nccl_result_text(nccl, rc); };
  if (api->get_unique_id == nullptr || api->comm_init_rank == nullptr) {
    s.fail("this NCCL has no ncclGetUniqueId/ncclCommInitRank");
    return;
  }
  ncclUniqueId id{};
  if (!checked(s, "ncclGetUniqueId", describe, api->get_unique_id, &id)) return;
  s.step.notes.push_back("id=" + hex_of(id.internal, sizeof id.internal));
  s.pass("NCCL unique id made");
}

/// "nccl-fleet": this process's GPUs join one communicator of `nranks` ranks (`rank0` is the
/// first of ours) made from rank 0's id, the way nccl-tests runs across nodes (ncclGetUniqueId
/// on one rank, the id sent over MPI, ncclCommInitRank on every rank in a group); then an
/// all-reduce of `bytes` is checked once and timed `iters` times. NCCL's INFO lines go to the
/// file `log` (never to the channel) and name the transports it chose (nccl_debug_log.hpp).
void step_nccl_fleet(StepRun& s) {
  const int nranks = std::atoi(lib_arg(s, "nranks").c_str());
  const int rank0 = std::atoi(lib_arg(s, "rank0").c_str());
  const long long bytes = std::atoll(lib_arg(s, "bytes").c_str());
  const int iters = std::max(1, std::atoi(lib_arg(s, "iters").c_str()));
  const std::string log = lib_arg(s, "log");
  ncclUniqueId id{};
  if (nranks < 1 || rank0 < 0 || bytes < 4 || !bytes_of(lib_arg(s, "id"), id.internal, sizeof id.internal)) {
    s.fail("nccl-fleet needs id=HEX nranks=N rank0=R bytes=B");
    return;
  }
  // Read by NCCL at its first call: set before it is loaded.
  host_fs::set_own_environment("NCCL_DEBUG", "INFO");  // NCCL reads it at its first call
  if (!log.empty()) host_fs::set_own_environment("NCCL_DEBUG_FILE", log);
  if (!enter_device(s, 0)) return;
  // The GPUs the node's report counted (NVML); CUDA must see as many (CUDA_VISIBLE_DEVICES).
  const int count = std::atoi(lib_arg(s, "gpus").c_str());
  if (count < 1 || static_cast<size_t>(count) > s.contexts.size() || rank0 + count > nranks) {
    s.fail("this node's report counts " + std::to_string(count) + " GPU(s) from rank " + std::to_string(rank0) +
           " of " + std::to_string(nranks) + "; CUDA sees " + std::to_string(s.contexts.size()));
    return;
  }
  std::optional<NcclApi> api;
  if (!load_into(s, api, &load_nccl, s.names("nccl", {"libnccl.so.2", "libnccl.so"}), "NCCL")) return;
  const NcclApi& nccl = *api;
  auto describe = [&nccl](const std::string& call, int rc) { return call + ": " + nccl_result_text(nccl, rc); };
  if (api->comm_init_rank == nullptr) {
    s.fail("this NCCL has no ncclCommInitRank");
    return;
  }
  std::vector<ncclComm_t> comms(static_cast<size_t>(count), nullptr);
  if (!checked(s, "ncclGroupStart", describe, api->group_start)) return;
  for (int d = 0; d < count; ++d) {
    if (!enter_device(s, d) || !checked(s, "ncclCommInitRank", describe, api->comm_init_rank,
                                        &comms[static_cast<size_t>(d)], nranks, id, rank0 + d)) {
      return;
    }
  }
  if (!checked(s, "ncclGroupEnd", describe, api->group_end)) return;
  const auto elements = static_cast<size_t>(bytes / 4);
  std::vector<CUdeviceptr> send(static_cast<size_t>(count));
  std::vector<CUdeviceptr> recv(static_cast<size_t>(count));
  std::vector<CUstream> streams(static_cast<size_t>(count));
  for (int d = 0; d < count; ++d) {
    std::vector<float> mine(elements);
    for (size_t i = 0; i < elements; ++i) mine[i] = static_cast<float>((rank0 + d + 1) * static_cast<int>(i % 7));
    std::vector<float> blank(elements, NAN);
    auto u = static_cast<size_t>(d);
    if (!enter_device(s, d) || (send[u] = to_device(s, mine)) == 0 || (recv[u] = to_device(s, blank)) == 0 ||
        !cu(s, "cuStreamCreate", s.cuda->stream_create, &streams[u], 0U)) {
      return;
    }
  }
  auto all_reduce = [&]() {
    if (!checked(s, "ncclGroupStart", describe, api->group_start)) return false;
    for (int d = 0; d < count; ++d) {
      auto u = static_cast<size_t>(d);
      if (!checked(s, "ncclAllReduce", describe, api->all_reduce, device_ptr<const void>(send[u]),
                   device_ptr<void>(recv[u]), elements, kNcclFloat32, kNcclSum, comms[u],
                   static_cast<void*>(streams[u]))) {
        return false;
      }
    }
    if (!checked(s, "ncclGroupEnd", describe, api->group_end)) return false;
    for (int d = 0; d < count; ++d) {
      if (!enter_device(s, d) ||
          !cu(s, "cuStreamSynchronize", s.cuda->stream_synchronize, streams[static_cast<size_t>(d)])) {
        return false;
      }
    }
    return true;
  };
  if (!all_reduce()) return;  // the first also warms up
  for (int d = 0; d < count; ++d) {
    std::vector<float> got(elements);
    if (!enter_device(s, d) || !from_device(s, got, recv[static_cast<size_t>(d)])) return;
    if (!all_reduce_exact(s, got, d, nranks)) return;
  }
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) {
    if (!all_reduce()) return;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / iters;
  // nccl-tests' formula (doc/PERFORMANCE.md): algbw = bytes / time; an all-reduce moves
  // 2(n-1)/n of the data over the slowest link, so busbw = algbw * 2(n-1)/n.
  double algbw = static_cast<double>(bytes) / seconds / 1e9;
  double busbw = algbw * 2.0 * (nranks - 1) / nranks;
  char figures[160];
  std::snprintf(figures, sizeof figures, "seconds=%.9g algbw_gbps=%.6g busbw_gbps=%.6g", seconds, algbw, busbw);
  s.step.notes.emplace_back(figures);
  NcclTransports t;
  if (!log.empty()) {
    auto text = host_fs::read(log, 64U << 20);
    if (text) t = parse_nccl_transports(*text);
  }
  s.step.notes.push_back("transport=" + t.slowest);
  for (const auto& [kind, n] : t.connections) s.step.notes.push_back("connections=" + kind + ":" + std::to_string(n));
  if (t.gpu_direct_rdma) s.step.notes.emplace_back("gdr=1");
  s.pass("NCCL all-reduce over " + std::to_string(nranks) + " GPU(s), exact; " + figures);
}

void step_peer(StepRun& s) {
  if (!enter_device(s, 0)) return;
  const int count = static_cast<int>(s.contexts.size());
  if (s.cuda->can_access_peer == nullptr || s.cuda->enable_peer == nullptr || s.cuda->memcpy_peer == nullptr) {
    s.fail("libcuda at " + s.cuda->library.path() + " lacks the peer-access calls");
    return;
  }
  for (int d = 0; d < count; ++d) {
    if (!enter_device(s, d)) return;
  }
  int copied = 0;
  constexpr size_t kCount = 1U << 18;
  for (int i = 0; i < count; ++i) {
    for (int j = 0; j < count; ++j) {
      if (i == j) continue;
      int can = 0;
      if (!cu(s, "cuDeviceCanAccessPeer", s.cuda->can_access_peer, &can, i, j)) return;
      std::string pair = "GPU " + std::to_string(i) + " -> GPU " + std::to_string(j);
      if (can == 0) {
        // The driver's answer, not only the wiring's: GPUs under different root complexes, a
        // driver that disables P2P on the card or platform, WSL2. bench's matrix has NVML's reason.
        s.step.notes.push_back(pair + ": no peer access (cuDeviceCanAccessPeer: the driver does not allow it between " +
                               "these GPUs; `gpudoctor bench` shows NVML's reason per pair)");
        continue;
      }
      std::vector<float> values = test_values(kCount, static_cast<std::uint32_t>(31 + i * 8 + j));
      std::vector<float> back(kCount, NAN);
      CUcontext ci = s.contexts[static_cast<size_t>(i)];
      CUcontext cj = s.contexts[static_cast<size_t>(j)];
      if (!enter_device(s, i)) return;
      send_call_line(s.out, "cuCtxEnablePeerAccess");
      CUresult rc = s.cuda->enable_peer(cj, 0U);
      if (rc != kCudaSuccess && rc != kCudaErrorPeerAccessAlreadyEnabled) {
        s.fail(pair + ": " + s.cuda_error("cuCtxEnablePeerAccess", rc));
        return;
      }
      CUdeviceptr src = 0;
      CUdeviceptr dst = 0;
      if (!enter_device(s, j) || (src = to_device(s, values)) == 0 || !enter_device(s, i) ||
          (dst = to_device(s, back)) == 0 ||
          !cu(s, "cuMemcpyPeer", s.cuda->memcpy_peer, dst, ci, src, cj, kCount * sizeof(float)) ||
          !cu(s, "cuCtxSynchronize", s.cuda->ctx_synchronize) || !from_device(s, back, dst)) {
        return;
      }
      if (std::memcmp(back.data(), values.data(), kCount * sizeof(float)) != 0) {
        s.fail(pair + ": the 1 MiB peer copy came back different");
        return;
      }
      s.step.notes.push_back(pair + ": 1 MiB peer copy exact");
      ++copied;
    }
  }
  if (copied == 0) {
    s.step.status = StepStatus::skipped;
    s.step.detail = "no pair of the " + std::to_string(count) + " GPUs can access each other (the topology)";
    return;
  }
  s.pass(std::to_string(copied) + " peer copies between " + std::to_string(count) + " GPUs, each exact");
}

}  // namespace

std::span<const char* const> verify_step_names() {
  return kStepNames;
}

std::map<std::string, std::string> parse_library_args(const std::vector<std::string>& args, size_t from) {
  std::map<std::string, std::string> libs;
  for (size_t i = from; i < args.size(); ++i) {
    size_t eq = args[i].find('=');
    if (eq != std::string::npos) libs[args[i].substr(0, eq)] = args[i].substr(eq + 1);
  }
  return libs;
}

std::vector<std::string> verify_step_args(const std::string& step, int device,
                                          const std::map<std::string, std::string>& libraries) {
  std::vector<std::string> args{step, std::to_string(device)};
  for (const auto& [name, path] : libraries) args.push_back(name + "=" + path);
  return args;
}

void verify_step_body(const std::vector<std::string>& args, ChildChannel& out) {
  if (args.size() < 2) return;
  StepRun s{{.out = out, .libs = parse_library_args(args, 2)}};
  s.step.name = args[0];
  int device = std::atoi(args[1].c_str());
  if (device >= 0) s.step.device = device;
  const std::string& name = s.step.name;
  if (name == "driver")
    step_driver(s, device);
  else if (name == "context")
    step_context(s, device);
  else if (name == "memory")
    step_memory(s, device);
  else if (name == "kernel")
    step_kernel(s, device);
  else if (name == "sgemm" || name == "hgemm")
    step_gemm(s, device, name == "hgemm");
  else if (name == "cudnn-conv")
    step_cudnn(s, device);
  else if (name == "nccl-allreduce")
    step_nccl(s);
  else if (name == "peer-access")
    step_peer(s);
  else if (name == "nccl-id")
    step_nccl_id(s);
  else if (name == "nccl-fleet")
    step_nccl_fleet(s);
  else
    s.fail("no verify step named \"" + printable(name, 40) + "\"");
  send_json_line(out, json{{"step", step_to_json(s.step)}});
}

VerifyStep verify_step_from_child(const std::string& step, int device, const ChildOutcome& outcome,
                                  std::optional<int>* device_count) {
  ChildLines lines = parse_child_lines(outcome);
  VerifyStep result;
  for (const auto& object : lines.objects) {
    if (auto it = object.find("step"); it != object.end() && it->is_object()) {
      result = VerifyStep{};
      step_from_json(*it, result);
    } else if (auto c = object.find("device_count"); c != object.end() && c->is_number_integer() && device_count) {
      *device_count = c->get<int>();
    }
  }
  result.name = step;
  if (device >= 0)
    result.device = device;
  else
    result.device.reset();
  result.elapsed_ms = outcome.elapsed.count();
  std::string where = lines.last_call.empty() ? "" : " in " + lines.last_call;
  result.last_call = lines.last_call;
  if (outcome.error) {
    const Error& e = *outcome.error;
    result.status = e.kind == ErrorKind::timeout ? StepStatus::timeout : StepStatus::crashed;
    result.detail = e.message + where;
  } else if (!lines.junk.empty() || result.status == StepStatus::none) {
    result.status = StepStatus::crashed;
    result.detail = (lines.junk.empty() ? std::string("the child process ended without an answer")
                                        : "unreadable answer from the child process: \"" + lines.junk + "\"") +
                    where;
  }
  if (!outcome.diagnostics.empty()) {
    result.notes.push_back("stderr: " + printable_ends(trim(outcome.diagnostics), 400));
  }
  return result;
}

}  // namespace gpudoctor::gpu
