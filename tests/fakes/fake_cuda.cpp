// A fake libcuda.so.1 for tests: cuInit, cuDriverGetVersion, cuDeviceGetCount,
// cuGetErrorName, cuGetErrorString with NVIDIA's signatures, answering from the scenario file
// (fake_scenario.hpp). GPUDOCTOR_FAKE_CUDA_MISSING_REQUIRED builds it without cuDeviceGetCount.
#include <string>

#include "fake_scenario.hpp"

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

using CUresult = int;
constexpr CUresult kSuccess = 0;
constexpr CUresult kInvalidValue = 1;
constexpr CUresult kNotInitialized = 3;
constexpr CUresult kUnknown = 999;

bool g_initialized = false;

const fake_driver::Scenario& s() {
  return fake_driver::scenario();
}

#define FAKE_ENTER(symbol)                                               \
  do {                                                                   \
    if (auto forced = fake_driver::override_for(symbol)) return *forced; \
  } while (0)

int cuda_value(const char* key, int fallback) {
  auto it = s().cuda.find(key);
  return it == s().cuda.end() ? fallback : fake_driver::code_from_text(it->second, fallback);
}

std::string cuda_setting(const char* key) {
  auto it = s().cuda.find(key);
  return it == s().cuda.end() ? std::string() : it->second;
}

/// The codes the fake knows, with the name and the words NVIDIA's libcuda gives them.
struct ErrorText {
  CUresult code;
  const char* name;
  const char* text;
};

constexpr ErrorText kErrors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {34, "CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "system has unsupported display driver / cuda driver combination"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

/// cuGetErrorName / cuGetErrorString: one field of `error`'s row, or CUDA_ERROR_INVALID_VALUE
/// (and nullptr) for a code the table lacks, as the real library answers.
CUresult describe(CUresult error, const char* ErrorText::*field, const char** out) {
  if (out == nullptr) return kInvalidValue;
  for (const ErrorText& row : kErrors) {
    if (row.code == error) {
      *out = row.*field;
      return kSuccess;
    }
  }
  *out = nullptr;
  return kInvalidValue;
}

}  // namespace

FAKE_EXPORT CUresult cuGetErrorName(CUresult error, const char** name) {
  FAKE_ENTER("cuGetErrorName");
  return describe(error, &ErrorText::name, name);
}

FAKE_EXPORT CUresult cuGetErrorString(CUresult error, const char** text) {
  FAKE_ENTER("cuGetErrorString");
  return describe(error, &ErrorText::text, text);
}

FAKE_EXPORT CUresult cuInit(unsigned int flags) {
  FAKE_ENTER("cuInit");
  if (flags != 0) return kInvalidValue;
  if (!s().loaded) return kUnknown;
  g_initialized = true;
  return kSuccess;
}

FAKE_EXPORT CUresult cuDriverGetVersion(int* version) {
  FAKE_ENTER("cuDriverGetVersion");
  if (version == nullptr) return kInvalidValue;
  *version = cuda_value("driver_version", 0);
  return kSuccess;
}

#ifndef GPUDOCTOR_FAKE_CUDA_MISSING_REQUIRED
FAKE_EXPORT CUresult cuDeviceGetCount(int* count) {
  FAKE_ENTER("cuDeviceGetCount");
  if (!g_initialized) return kNotInitialized;
  if (count == nullptr) return kInvalidValue;
  *count = cuda_value("device_count", 0);
  return kSuccess;
}
#endif

// ---- the compute calls verify makes (gpu/cuda_compute_api.hpp) ----
// Device memory is host memory; the kernel "runs" on the host. [kernel] result = wrong and
// [cuda] memcpy = corrupt make them lie, [cuda] peer = 1 lets every GPU reach every other.
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>

#include "fake_runtime.hpp"

namespace {

using CUdeviceptr = unsigned long long;
constexpr CUresult kInvalidDevice = 101;
constexpr CUresult kInvalidPtx = 218;
constexpr CUresult kNotFound = 500;
constexpr CUresult kOutOfMemory = 2;

struct FakeContext {
  int device;
};
FakeContext g_contexts[16];
FakeContext* g_current_context = nullptr;
int g_module_tag = 0;
int g_function_tag = 0;
int g_stream_tag = 0;
int g_stream_module_tag = 0;
int g_copy_tag = 0;
int g_triad_tag = 0;

int device_count() {
  return cuda_value("device_count", 0);
}

}  // namespace

FAKE_API CUresult cuDeviceGet(int* device, int ordinal) {
  FAKE_CALL("cuDeviceGet");
  if (!g_initialized) return kNotInitialized;
  if (ordinal < 0 || ordinal >= device_count() || ordinal >= 16) return kInvalidDevice;
  *device = ordinal;
  return kSuccess;
}

FAKE_API CUresult cuDeviceGetName(char* name, int length, int device) {
  FAKE_CALL("cuDeviceGetName");
  if (device < 0 || device >= device_count()) return kInvalidDevice;
  std::string text = static_cast<size_t>(device) < s().devices.size() ? s().devices[device].name : "Fake GPU";
  std::snprintf(name, static_cast<size_t>(length), "%s", text.c_str());
  return kSuccess;
}

FAKE_API CUresult cuDeviceGetAttribute(int* value, int attribute, int device) {
  FAKE_CALL("cuDeviceGetAttribute");
  if (device < 0 || device >= device_count()) return kInvalidDevice;
  bool known = static_cast<size_t>(device) < s().devices.size();
  if (attribute == 75)
    *value = known ? s().devices[device].cc_major : 8;
  else if (attribute == 76)
    *value = known ? s().devices[device].cc_minor : 0;
  else if (attribute == 33 || attribute == 34 || attribute == 50) {
    // PCI bus / device / domain from the scenario's pci_bus_id, "00000000:18:00.0".
    unsigned domain = 0, bus = 0, dev = 0;
    if (!known || std::sscanf(s().devices[device].pci_bus_id.c_str(), "%x:%x:%x", &domain, &bus, &dev) != 3)
      return kInvalidValue;
    *value = static_cast<int>(attribute == 33 ? bus : attribute == 34 ? dev : domain);
  } else if (attribute == 18) {  // CU_DEVICE_ATTRIBUTE_INTEGRATED: [device] integrated = 1 (a Jetson)
    *value = 0;
    if (known) {
      const auto& series = s().devices[device].series;
      auto it = series.find("integrated");
      *value = it != series.end() && !it->second.empty() && it->second[0] == "1" ? 1 : 0;
    }
  } else
    return kInvalidValue;
  return kSuccess;
}

FAKE_API CUresult cuDevicePrimaryCtxRetain(void** context, int device) {
  FAKE_CALL("cuDevicePrimaryCtxRetain");
  if (device < 0 || device >= device_count() || device >= 16) return kInvalidDevice;
  g_contexts[device].device = device;
  *context = &g_contexts[device];
  return kSuccess;
}

FAKE_API CUresult cuDevicePrimaryCtxRelease_v2(int) {
  return kSuccess;
}
FAKE_API CUresult cuCtxSetCurrent(void* context) {
  FAKE_CALL("cuCtxSetCurrent");
  g_current_context = static_cast<FakeContext*>(context);
  return kSuccess;
}
FAKE_API CUresult cuCtxSynchronize() {
  FAKE_CALL("cuCtxSynchronize");
  return kSuccess;
}

// A device whose [device] memory_total_bytes is set has that much: cuMemAlloc_v2 refuses what
// would pass it (CUDA_ERROR_OUT_OF_MEMORY) and cuMemGetInfo_v2 says what is left. The device is
// the current context's; bench's multi-GPU child holds several.
namespace {
struct Allocation {
  int device;
  size_t bytes;
};
std::map<CUdeviceptr, Allocation> g_allocated;
std::map<int, size_t> g_allocated_bytes;  // by device
int current_device() {
  return g_current_context != nullptr ? g_current_context->device : 0;
}
unsigned long long device_memory_total(int device) {
  const auto& devices = s().devices;
  return device >= 0 && static_cast<size_t>(device) < devices.size() ? devices[device].memory_total_bytes : 0;
}
}  // namespace
FAKE_API CUresult cuMemAlloc_v2(CUdeviceptr* pointer, size_t bytes) {
  FAKE_CALL("cuMemAlloc_v2");
  const int device = current_device();
  const unsigned long long total = device_memory_total(device);
  if (total != 0 && g_allocated_bytes[device] + bytes > total) return kOutOfMemory;
  void* p = std::malloc(bytes == 0 ? 1 : bytes);
  if (p == nullptr) return kOutOfMemory;
  *pointer = reinterpret_cast<std::uintptr_t>(p);
  g_allocated[*pointer] = Allocation{device, bytes};
  g_allocated_bytes[device] += bytes;
  return kSuccess;
}
FAKE_API CUresult cuMemFree_v2(CUdeviceptr pointer) {
  FAKE_CALL("cuMemFree_v2");
  if (auto it = g_allocated.find(pointer); it != g_allocated.end()) {
    g_allocated_bytes[it->second.device] -= it->second.bytes;
    g_allocated.erase(it);
  }
  std::free(fake_driver::host<void>(pointer));
  return kSuccess;
}
FAKE_API CUresult cuMemGetInfo_v2(size_t* free_bytes, size_t* total_bytes) {
  FAKE_CALL("cuMemGetInfo_v2");
  if (free_bytes == nullptr || total_bytes == nullptr) return kInvalidValue;
  const int device = current_device();
  const unsigned long long total = device_memory_total(device);
  *total_bytes = total != 0 ? total : 80ULL << 30;  // unset: an 80 GB card
  *free_bytes = *total_bytes - std::min<size_t>(*total_bytes, g_allocated_bytes[device]);
  return kSuccess;
}
FAKE_API CUresult cuMemcpyHtoD_v2(CUdeviceptr to, const void* from, size_t bytes) {
  FAKE_CALL("cuMemcpyHtoD_v2");
  std::memcpy(fake_driver::host<void>(to), from, bytes);
  if (cuda_setting("memcpy") == "corrupt" && bytes > 100) fake_driver::host<unsigned char>(to)[bytes / 3] ^= 0x10;
  return kSuccess;
}
FAKE_API CUresult cuMemcpyDtoH_v2(void* to, CUdeviceptr from, size_t bytes) {
  FAKE_CALL("cuMemcpyDtoH_v2");
  std::memcpy(to, fake_driver::host<void>(from), bytes);
  return kSuccess;
}

FAKE_API CUresult cuModuleLoadDataEx(void** module, const void* image, unsigned, int*, void**) {
  FAKE_CALL("cuModuleLoadDataEx");
  // What the real JIT needs of verify's module: PTX text with the kernel's entry.
  // Comments count as white space before the first directive (nvcc's own PTX opens with them).
  const char* text = static_cast<const char*>(image);
  while (*text == '\n' || *text == ' ' || *text == '\t' || std::strncmp(text, "//", 2) == 0) {
    if (*text == '/') {
      const char* eol = std::strchr(text, '\n');
      text = eol != nullptr ? eol : text + std::strlen(text);
    } else {
      ++text;
    }
  }
  if (std::strncmp(text, ".version", 8) != 0) return kInvalidPtx;
  if (std::strstr(text, ".entry gpudoctor_affine") != nullptr) {
    *module = &g_module_tag;
    return kSuccess;
  }
  // bench's stream kernels (src/gpu/kernels/stream.ptx).
  if (std::strstr(text, ".entry gpudoctor_copy") != nullptr && std::strstr(text, ".entry gpudoctor_triad") != nullptr) {
    *module = &g_stream_module_tag;
    return kSuccess;
  }
  return kInvalidPtx;
}
FAKE_API CUresult cuModuleGetFunction(void** function, void* module, const char* name) {
  FAKE_CALL("cuModuleGetFunction");
  if (module == &g_stream_module_tag && std::strcmp(name, "gpudoctor_copy") == 0) {
    *function = &g_copy_tag;
    return kSuccess;
  }
  if (module == &g_stream_module_tag && std::strcmp(name, "gpudoctor_triad") == 0) {
    *function = &g_triad_tag;
    return kSuccess;
  }
  if (module != &g_module_tag || std::strcmp(name, "gpudoctor_affine") != 0) return kNotFound;
  *function = &g_function_tag;
  return kSuccess;
}
FAKE_API CUresult cuModuleUnload(void*) {
  return kSuccess;
}

FAKE_API CUresult cuLaunchKernel(void* function, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                 unsigned bz, unsigned, void*, void** params, void**) {
  FAKE_CALL("cuLaunchKernel");
  if (params != nullptr && (function == &g_copy_tag || function == &g_triad_tag)) {
    // bench's kernels: (out, in, u64 n) and (a, b, c, f32 s, u64 n), grid-stride.
    const bool triad = function == &g_triad_tag;
    auto* out = fake_driver::host<float>(*static_cast<CUdeviceptr*>(params[0]));
    auto* b = fake_driver::host<float>(*static_cast<CUdeviceptr*>(params[1]));
    const float* c = triad ? fake_driver::host<float>(*static_cast<CUdeviceptr*>(params[2])) : nullptr;
    float scale = triad ? *static_cast<float*>(params[3]) : 0.0F;
    unsigned long long n = *static_cast<unsigned long long*>(params[triad ? 4 : 2]);
    for (unsigned long long i = 0; i < n; ++i) out[i] = triad ? std::fma(scale, c[i], b[i]) : b[i];
    if (fake_driver::wrong_result("kernel") && n > 0) out[n / 2] += 1.0F;
    return kSuccess;
  }
  if (function != &g_function_tag || params == nullptr) return kInvalidValue;
  // The kernel's parameters, as the PTX declares them: u64 out, u64 in, f32 a, u32 n.
  auto* out = fake_driver::host<float>(*static_cast<CUdeviceptr*>(params[0]));
  auto* in = fake_driver::host<float>(*static_cast<CUdeviceptr*>(params[1]));
  float a = *static_cast<float*>(params[2]);
  unsigned n = *static_cast<unsigned*>(params[3]);
  unsigned long long threads = 1ULL * gx * gy * gz * bx * by * bz;
  for (unsigned long long i = 0; i < threads && i < n; ++i) out[i] = std::fma(a, in[i], static_cast<float>(i));
  if (fake_driver::wrong_result("kernel") && n > 0) out[n / 2] += 1.0F;
  return kSuccess;
}

// Events time the host work the fakes do: a steady clock read at each record.
struct FakeEvent {
  std::chrono::steady_clock::time_point at;
};
FAKE_API CUresult cuEventCreate(FakeEvent** event, unsigned) {
  FAKE_CALL("cuEventCreate");
  *event = new FakeEvent{};
  return kSuccess;
}
FAKE_API CUresult cuEventRecord(FakeEvent* event, void*) {
  FAKE_CALL("cuEventRecord");
  if (event == nullptr) return kInvalidValue;
  event->at = std::chrono::steady_clock::now();
  return kSuccess;
}
FAKE_API CUresult cuEventSynchronize(FakeEvent*) {
  FAKE_CALL("cuEventSynchronize");
  return kSuccess;
}
FAKE_API CUresult cuEventElapsedTime(float* ms, FakeEvent* start, FakeEvent* stop) {
  FAKE_CALL("cuEventElapsedTime");
  if (start == nullptr || stop == nullptr) return kInvalidValue;
  *ms = std::chrono::duration<float, std::milli>(stop->at - start->at).count();
  return kSuccess;
}
FAKE_API CUresult cuMemAllocHost_v2(void** pointer, size_t bytes) {
  FAKE_CALL("cuMemAllocHost_v2");
  *pointer = std::malloc(bytes == 0 ? 1 : bytes);
  return *pointer == nullptr ? kOutOfMemory : kSuccess;
}
FAKE_API CUresult cuMemFreeHost(void* pointer) {
  std::free(pointer);
  return kSuccess;
}

FAKE_API CUresult cuStreamCreate(void** stream, unsigned) {
  FAKE_CALL("cuStreamCreate");
  *stream = &g_stream_tag;
  return kSuccess;
}
FAKE_API CUresult cuStreamSynchronize(void*) {
  FAKE_CALL("cuStreamSynchronize");
  return kSuccess;
}

FAKE_API CUresult cuDeviceCanAccessPeer(int* can, int device, int peer) {
  FAKE_CALL("cuDeviceCanAccessPeer");
  if (device < 0 || device >= device_count() || peer < 0 || peer >= device_count()) return kInvalidDevice;
  *can = cuda_setting("peer") == "1" ? 1 : 0;
  return kSuccess;
}
FAKE_API CUresult cuCtxEnablePeerAccess(void*, unsigned) {
  FAKE_CALL("cuCtxEnablePeerAccess");
  return kSuccess;
}
FAKE_API CUresult cuMemcpyPeer(CUdeviceptr to, void*, CUdeviceptr from, void*, size_t bytes) {
  FAKE_CALL("cuMemcpyPeer");
  std::memcpy(fake_driver::host<void>(to), fake_driver::host<void>(from), bytes);
  return kSuccess;
}
