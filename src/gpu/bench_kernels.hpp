#pragma once
/// bench's device-memory kernels as PTX (like verify_kernels.hpp: no cubins, the driver JITs
/// them): copy b[i] = a[i] and triad a[i] = b[i] + s * c[i] over FP32, grid-stride loops.
namespace gpudoctor::gpu {

inline constexpr const char* kCopyKernelName = "gpudoctor_copy";
inline constexpr const char* kTriadKernelName = "gpudoctor_triad";

/// One module with both entries: (out, in, n) and (a, b, c, s, n).
const char* stream_kernels_ptx();

}  // namespace gpudoctor::gpu
