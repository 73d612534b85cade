// libFuzzer entry point shared by every fuzz executable; GPUDOCTOR_FUZZ_PARSER (set per
// executable by CMake) picks the parser from the explicit list in fuzz_targets.cpp.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const gpudoctor::fuzz::Target* target = [] {
    for (const auto& t : gpudoctor::fuzz::targets()) {
      if (std::strcmp(t.name, GPUDOCTOR_FUZZ_PARSER) == 0) return &t;
    }
    std::fprintf(stderr, "no fuzz parser named %s\n", GPUDOCTOR_FUZZ_PARSER);
    std::abort();
  }();
  target->run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
