#include "explain/error_code_query.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace gpudoctor {

namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string line_for(const ErrorCode& c) {
  // The shape the libraries' callers print, so that hand-written rules for the code (which
  // know more than the catalog) recognise it too.
  if (c.family == "cudart") return "CUDA error: " + c.name + (c.message.empty() ? "" : ": " + c.message);
  if (c.family == "cuda-driver") return "failed call to cuInit: " + c.name;
  return c.name + (c.message.empty() ? "" : ": " + c.message);
}

}  // namespace

std::optional<std::string> error_code_query(const RuleBase& base, std::string_view arg) {
  if (arg.empty() || arg.size() > 80) return std::nullopt;
  long long number = 0;
  const char* first = arg.data();
  const char* last = arg.data() + arg.size();
  const auto [ptr, ec] = std::from_chars(first, last, number);
  if (ec == std::errc() && ptr == last) {
    for (const char* family : {"cudart", "cuda-driver"}) {
      for (const ErrorCode& c : base.codes) {
        if (c.family == family && c.number == number) return line_for(c);
      }
    }
    std::string text;
    for (const ErrorCode& c : base.codes) {
      if (c.number == number) text += line_for(c) + "\n";
    }
    if (!text.empty()) return text;
    return std::nullopt;
  }
  for (const ErrorCode& c : base.codes) {
    if (iequals(c.name, arg)) return line_for(c);
  }
  return std::nullopt;
}

}  // namespace gpudoctor
