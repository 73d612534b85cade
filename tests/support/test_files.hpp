#pragma once
/// Reading what a test's program wrote: a whole file as text, empty when it is not there.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace gpudoctor::testing {

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace gpudoctor::testing
