#pragma once
/// Pure parsers of the sysfs attributes that describe a node's network ports
/// (/sys/class/infiniband/<dev>/ports/<n>/*, /sys/class/net/<if>/*). The text is untrusted (a
/// --root tree, a fixture): anything not recognised is unknown, never an exception. A fuzz
/// target of tests/fuzz/.
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor {

/// An HCA port's `rate`: "400 Gb/sec (4X NDR)", "2.5 Gb/sec (1X SDR)", "25 Gb/sec (1X EDR)".
struct HcaRate {
  std::optional<double> gbps;  ///< 0 < rate ≤ 100,000 Gb/s; else unknown
  std::optional<int> width;    ///< lanes: 1, 2, 4, 8 or 12 ("4X"); else unknown
};
HcaRate parse_hca_rate(std::string_view text);

/// An interface's `speed` in Mb/s ("100000\n"), as Gb/s. Unknown for -1 (SPEED_UNKNOWN, a link
/// that is down), 4294967295 (the same, read as unsigned), 0, junk and anything past 10 Tb/s.
std::optional<double> parse_ethernet_speed_gbps(std::string_view text);

/// An HCA port's `state` / `phys_state`: "4: ACTIVE" -> "ACTIVE", "5: LinkUp" -> "LinkUp"; a
/// bare word is kept as it is. Printable, at most 32 characters; "" for junk.
std::string parse_hca_state(std::string_view text);

}  // namespace gpudoctor
