// libFuzzer entry point: arbitrary bytes through the LogDecoder, split at a point the input
// chooses, then through the built-in rules. Must never crash, hang or keep a line longer
// than the cap.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "explain/explain_session.hpp"
#include "explain/log_decoder.hpp"
#include "explain/rule_loader.hpp"

namespace {

const gpudoctor::RuleMatcher* builtin() {
  static std::unique_ptr<gpudoctor::RuleMatcher> m = [] {
    auto loaded = gpudoctor::load_rule_base("");
    if (!loaded) std::abort();
    auto built = gpudoctor::RuleMatcher::build(loaded->base);
    if (!built) std::abort();
    return std::move(*built);
  }();
  return m.get();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const size_t split = size == 0 ? 0 : data[0] % (size + 1);
  gpudoctor::LogDecoder decoder([](std::string_view line, std::uint64_t) {
    if (line.size() > gpudoctor::LogDecoder::kMaxLineBytes) std::abort();
    for (unsigned char c : line) {
      if (c < 0x20 && c != '\t') std::abort();
    }
  });
  decoder.feed(bytes.substr(0, split));
  decoder.feed(bytes.substr(split));
  decoder.finish();

  gpudoctor::ExplainSession session(*builtin());
  session.feed(bytes);
  (void)session.finish(gpudoctor::ExplainMachine{});
  return 0;
}
