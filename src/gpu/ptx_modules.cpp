#include "gpu/ptx_modules.hpp"

namespace gpudoctor::gpu {

const char* ptx_module(std::string_view name) {
  for (const PtxModule& m : ptx_modules()) {
    if (m.path == name) return m.content.data();
  }
  return "";
}

}  // namespace gpudoctor::gpu
