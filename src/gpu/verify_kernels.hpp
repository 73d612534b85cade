#pragma once
/// The kernel verify runs (src/gpu/kernels/affine.ptx): out[i] = a * in[i] + i for i < n,
/// parameters (u64 out, u64 in, f32 a, u32 n).
#include <string_view>

#include "gpu/ptx_modules.hpp"

namespace gpudoctor::gpu {

inline constexpr std::string_view kAffineKernelName = "gpudoctor_affine";
/// The PTX module holding kAffineKernelName, NUL-terminated for cuModuleLoadDataEx.
inline const char* affine_kernel_ptx() {
  return ptx_module("affine.ptx");
}

}  // namespace gpudoctor::gpu
