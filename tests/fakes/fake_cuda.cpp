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
