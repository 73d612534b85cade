#pragma once
/// The fleet's network (issue 18): each node's ports as one fingerprint item, and the NCCL
/// all-reduce's bus bandwidth against the network it crossed (the slowest node's fastest link).
#include <string>

#include "model/fleet.hpp"

namespace gpudoctor {

/// A node's ports by kind, rate, width and state, without device names (names differ between
/// identical nodes): "InfiniBand 1 × 400 Gb/s 4X up; Ethernet 1 × 100 Gb/s up, 1 × 1 Gb/s up";
/// "none" when the node reported no port.
std::string network_fingerprint(const Facts& facts);

/// With --nccl (after the nodes' NCCL parts are summed up): FleetNccl's network ceiling and the
/// fraction of it reached, and a finding for each node where NCCL chose sockets while an
/// InfiniBand or RoCE port was up.
void compare_fleet_network(FleetReport& report);

}  // namespace gpudoctor
