// libFuzzer entry point of gpudoctor_fuzz. The parser it fuzzes is the name it was started under
// (fuzz_<parser>, a link scripts/fuzz.sh makes), so that the reproducer command libFuzzer prints
// names the parser; `gpudoctor_fuzz --list` prints the names, one a line.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "fuzz_targets.hpp"

namespace {

const gpudoctor::fuzz::Target* g_target = nullptr;

std::string_view base_name(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  const auto& targets = gpudoctor::fuzz::targets();
  const std::string_view self = *argc > 0 ? base_name((*argv)[0]) : std::string_view();
  if (*argc > 1 && std::strcmp((*argv)[1], "--list") == 0) {
    for (const auto& t : targets) std::printf("%s\n", t.name);
    std::exit(0);
  }
  constexpr std::string_view kPrefix = "fuzz_";
  if (self.starts_with(kPrefix)) {
    for (const auto& t : targets) {
      if (self.substr(kPrefix.size()) == t.name) g_target = &t;
    }
  }
  if (g_target == nullptr) {
    std::fprintf(stderr, "%.*s: start me as fuzz_<parser> (a link to me); the parsers:\n",
                 static_cast<int>(self.size()), self.data());
    for (const auto& t : targets) std::fprintf(stderr, "  %s\n", t.name);
    std::exit(2);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  g_target->run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
