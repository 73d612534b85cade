#pragma once
// What the fake runtime libraries (fake_cublas.cpp, fake_cudnn.cpp, fake_nccl.cpp,
// fake_nvrtc.cpp) and the compute half of fake_cuda.cpp share: exported C entry points that
// first obey the scenario's [calls] (error code, hang, crash). Fake device memory is host
// memory: a CUdeviceptr is the host address, so the fakes compute on it directly.
#include <cstdint>

#include "fake_scenario.hpp"

#define FAKE_API extern "C" __attribute__((visibility("default")))

#define FAKE_CALL(symbol)                                                \
  do {                                                                   \
    if (auto forced = fake_driver::override_for(symbol)) return *forced; \
  } while (0)

namespace fake_driver {

template <class T>
T* host(std::uint64_t device_pointer) {
  return reinterpret_cast<T*>(static_cast<std::uintptr_t>(device_pointer));
}
template <class T>
T* host(const void* device_pointer) {
  return static_cast<T*>(const_cast<void*>(device_pointer));
}

/// The scenario's number for `key` in `section`, `fallback` when absent or not a number.
long long number(const std::string& section, const std::string& key, long long fallback);

}  // namespace fake_driver
