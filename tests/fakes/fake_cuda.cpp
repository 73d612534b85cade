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

const fake_driver::Scenario& s() { return fake_driver::scenario(); }

#define FAKE_ENTER(symbol)                                               \
  do {                                                                   \
    if (auto forced = fake_driver::override_for(symbol)) return *forced; \
  } while (0)

int cuda_value(const char* key, int fallback) {
  auto it = s().cuda.find(key);
  return it == s().cuda.end() ? fallback : fake_driver::code_from_text(it->second, fallback);
}

}  // namespace

FAKE_EXPORT CUresult cuGetErrorName(CUresult error, const char** name) {
  FAKE_ENTER("cuGetErrorName");
  if (name == nullptr) return kInvalidValue;
  switch (error) {
    case 0:
      *name = "CUDA_SUCCESS";
      return kSuccess;
    case 3:
      *name = "CUDA_ERROR_NOT_INITIALIZED";
      return kSuccess;
    case 34:
      *name = "CUDA_ERROR_STUB_LIBRARY";
      return kSuccess;
    case 100:
      *name = "CUDA_ERROR_NO_DEVICE";
      return kSuccess;
    case 803:
      *name = "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
      return kSuccess;
    case 999:
      *name = "CUDA_ERROR_UNKNOWN";
      return kSuccess;
    default:
      *name = nullptr;
      return kInvalidValue;
  }
}

FAKE_EXPORT CUresult cuGetErrorString(CUresult error, const char** text) {
  FAKE_ENTER("cuGetErrorString");
  if (text == nullptr) return kInvalidValue;
  switch (error) {
    case 0:
      *text = "no error";
      return kSuccess;
    case 3:
      *text = "initialization error";
      return kSuccess;
    case 34:
      *text = "CUDA driver is a stub library";
      return kSuccess;
    case 100:
      *text = "no CUDA-capable device is detected";
      return kSuccess;
    case 803:
      *text = "system has unsupported display driver / cuda driver combination";
      return kSuccess;
    case 999:
      *text = "unknown error";
      return kSuccess;
    default:
      *text = nullptr;
      return kInvalidValue;
  }
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
