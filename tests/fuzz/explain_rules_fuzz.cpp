// libFuzzer entry point: arbitrary text as a user's --kb explain rule file. Loading must
// report problems, never crash; whatever loads must compile and match a few lines.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "explain/explain_session.hpp"
#include "explain/rule_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  gpudoctor::RuleLoadResult loaded;
  gpudoctor::parse_rule_file(text, "fuzz.toml", loaded);
  auto matcher = gpudoctor::RuleMatcher::build(loaded.base);
  if (!matcher) return 0;
  const std::string log =
      "Could not load dynamic library 'cudnn64_8.dll'\nCUDA out of memory. Tried to allocate 2.00 GiB\n" +
      std::string(text.substr(0, 4096));
  (void)gpudoctor::explain_text(**matcher, log, gpudoctor::ExplainMachine{});
  return 0;
}
