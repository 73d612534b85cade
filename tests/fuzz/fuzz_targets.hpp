#pragma once
#include <string_view>
#include <vector>

namespace gpudoctor::fuzz {

struct Target {
  const char* name;
  void (*run)(std::string_view input);
};

/// The explicit list of fuzzed parsers (fuzz_targets.cpp); gpudoctor_fuzz fuzzes the one named
/// by the name it is started under (main_fuzz.cpp).
const std::vector<Target>& targets();

}  // namespace gpudoctor::fuzz
