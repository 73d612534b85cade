#pragma once
/// How a node's network ports (Facts::network) are named in findings and reports, shared by the
/// doctor's checks and the fleet's comparison so that both say the same words.
#include <optional>
#include <string>
#include <string_view>

#include "model/facts.hpp"

namespace gpudoctor {

/// "InfiniBand", "RoCE", "Ethernet"; any other kind as it is (printable).
std::string network_kind_name(std::string_view kind);
/// "mlx5_0 port 1", "eth0" (printable, cut).
std::string network_link_name(const NetworkLink& link);
/// A link's rate, or nullopt when unknown or implausible (not in 0 < rate ≤ 100,000 Gb/s): a
/// rate read back from another node's JSON is not trusted further than that.
std::optional<double> network_rate_gbps(const NetworkLink& link);
/// "400 Gb/s, 4X" / "100 Gb/s" / "rate unknown".
std::string network_link_rate(const NetworkLink& link);
/// A number as people write it: "400", "2.5", "12.5", "0.1".
std::string network_number(double value);

}  // namespace gpudoctor
