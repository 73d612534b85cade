#include "probe/network_files.hpp"

#include <charconv>
#include <cmath>

#include "core/text.hpp"

namespace gpudoctor {
namespace {

/// The number at the start of s ("400", "2.5", "-1"), and where it ended.
std::optional<double> leading_number(std::string_view s, size_t* end = nullptr) {
  double value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value, std::chars_format::fixed);
  if (ec != std::errc() || !std::isfinite(value)) return std::nullopt;
  if (end != nullptr) *end = static_cast<size_t>(ptr - s.data());
  return value;
}

}  // namespace

HcaRate parse_hca_rate(std::string_view text) {
  HcaRate out;
  std::string_view s = trim(text.substr(0, 256));
  size_t end = 0;
  auto value = leading_number(s, &end);
  if (!value || *value <= 0 || *value > 100'000) return out;
  std::string_view rest = trim(s.substr(end));
  if (!rest.starts_with("Gb/sec")) return out;  // the only unit the kernel writes
  out.gbps = *value;
  // "(4X NDR)": the lanes before the X.
  auto open = rest.find('(');
  if (open == std::string_view::npos) return out;
  std::string_view inside = rest.substr(open + 1);
  int lanes = 0;
  auto [ptr, ec] = std::from_chars(inside.data(), inside.data() + inside.size(), lanes);
  if (ec == std::errc() && ptr < inside.data() + inside.size() && (*ptr == 'X' || *ptr == 'x') &&
      (lanes == 1 || lanes == 2 || lanes == 4 || lanes == 8 || lanes == 12)) {
    out.width = lanes;
  }
  return out;
}

std::optional<double> parse_ethernet_speed_gbps(std::string_view text) {
  std::string_view s = trim(text.substr(0, 64));
  long long mbps = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), mbps);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  if (mbps <= 0 || mbps > 10'000'000) return std::nullopt;  // -1 and 4294967295: unknown
  return static_cast<double>(mbps) / 1000.0;
}

std::string parse_hca_state(std::string_view text) {
  std::string_view s = trim(text.substr(0, 256));
  if (auto colon = s.find(':'); colon != std::string_view::npos) s = trim(s.substr(colon + 1));
  for (char c : s) {
    bool word = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!word) return "";  // one word, or nothing
  }
  return s.size() > 32 ? "" : std::string(s);
}

}  // namespace gpudoctor
