#pragma once
/// The kernels verify and bench run (src/gpu/kernels/*.ptx), compiled into the binary by
/// cmake/embed_run.cmake as PTX text that the driver's JIT compiles for whatever GPU it finds:
/// no cubins, no CUDA SDK at build time. tests/unit/ptx_modules_test.cpp assembles every one.
#include <string_view>
#include <vector>

namespace gpudoctor {

struct PtxModule {
  std::string_view path;     ///< file name under src/gpu/kernels/ ("affine.ptx")
  std::string_view content;  ///< NUL-terminated, as cuModuleLoadDataEx wants it
};

const std::vector<PtxModule>& ptx_modules();

}  // namespace gpudoctor

namespace gpudoctor::gpu {

/// The module `name` ("affine.ptx"), NUL-terminated; "" if the build lacks it (the driver then
/// answers with a load error, which the step reports).
const char* ptx_module(std::string_view name);

}  // namespace gpudoctor::gpu
