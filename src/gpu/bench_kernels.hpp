#pragma once
/// bench's device-memory kernels (src/gpu/kernels/stream.ptx): copy b[i] = a[i] and triad
/// a[i] = b[i] + s * c[i] over FP32, grid-stride loops.
#include "gpu/ptx_modules.hpp"

namespace gpudoctor::gpu {

inline constexpr const char* kCopyKernelName = "gpudoctor_copy";
inline constexpr const char* kTriadKernelName = "gpudoctor_triad";

/// One module with both entries: (out, in, n) and (a, b, c, s, n).
inline const char* stream_kernels_ptx() {
  return ptx_module("stream.ptx");
}

}  // namespace gpudoctor::gpu
