#include "model/network_links.hpp"

#include <cmath>
#include <cstdio>

#include "core/text.hpp"

namespace gpudoctor {

std::string network_kind_name(std::string_view kind) {
  if (kind == "infiniband") return "InfiniBand";
  if (kind == "roce") return "RoCE";
  if (kind == "ethernet") return "Ethernet";
  return printable(kind, 20);
}

std::string network_link_name(const NetworkLink& link) {
  std::string name = printable(link.device, 64);
  if (link.port > 0) name += " port " + std::to_string(link.port);
  return name;
}

std::optional<double> network_rate_gbps(const NetworkLink& link) {
  if (!link.rate_gbps || !std::isfinite(*link.rate_gbps) || *link.rate_gbps <= 0 || *link.rate_gbps > 100'000)
    return std::nullopt;
  return link.rate_gbps;
}

std::string network_number(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", value);
  return buf;
}

std::string network_link_rate(const NetworkLink& link) {
  auto rate = network_rate_gbps(link);
  std::string out = rate ? network_number(*rate) + " Gb/s" : "rate unknown";
  if (link.width) out += ", " + std::to_string(*link.width) + "X";
  return out;
}

}  // namespace gpudoctor
