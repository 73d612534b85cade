#pragma once
#include <string_view>
#include <vector>

namespace gpudoctor::fuzz {

struct Target {
  const char* name;
  void (*run)(std::string_view input);
};

/// The explicit list of fuzzed parsers (fuzz_targets.cpp); tests/fuzz/CMakeLists.txt builds
/// one executable per name.
const std::vector<Target>& targets();

}  // namespace gpudoctor::fuzz
