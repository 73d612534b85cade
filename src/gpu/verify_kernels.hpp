#pragma once
/// The kernels verify runs, carried inside the binary as PTX text that the driver's JIT
/// compiles for whatever GPU it finds. Hand-written for `.target sm_50` and PTX ISA 6.0
/// (CUDA 9), so every driver since then loads it, on every generation from Maxwell to
/// Blackwell; tests/unit/verify_kernels_test.cpp assembles it with the toolkit's ptxas for
/// each architecture that ptxas still serves.
#include <cstdint>
#include <string_view>

namespace gpudoctor::gpu {

/// out[i] = a * in[i] + i for i < n; parameters (u64 out, u64 in, f32 a, u32 n).
inline constexpr std::string_view kAffineKernelName = "gpudoctor_affine";
/// The PTX module holding kAffineKernelName, NUL-terminated for cuModuleLoadDataEx.
const char* affine_kernel_ptx();

}  // namespace gpudoctor::gpu
