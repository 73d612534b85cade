#include "check/fleet_network.hpp"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include "core/text.hpp"
#include "model/nccl_links.hpp"
#include "model/network_links.hpp"

namespace gpudoctor {
namespace {

bool hca(const NetworkLink& l) {
  return l.kind == "infiniband" || l.kind == "roce";
}

/// A node's fastest up link among those `wanted` accepts, how many such links are up, and how
/// many of them run at that fastest rate (rails NCCL can use side by side).
struct FastestLink {
  const NetworkLink* link = nullptr;
  double gbps = 0;
  int up = 0;
  int at_that_rate = 0;
};
template <class Wanted>
FastestLink fastest_up(const Facts& facts, Wanted wanted) {
  FastestLink out;
  for (const NetworkLink& l : facts.network) {
    if (!l.up || !wanted(l)) continue;
    ++out.up;
    auto rate = network_rate_gbps(l);
    if (rate && *rate > out.gbps) {
      out.link = &l;
      out.gbps = *rate;
      out.at_that_rate = 0;
    }
    if (rate && *rate == out.gbps) ++out.at_that_rate;
  }
  return out;
}

/// The ports a node's NCCL traffic to other nodes went through, by the slowest kind of link NCCL
/// chose there: the HCAs for NET/IB, the Ethernet interfaces for sockets; with no transport known (or a plugin), the
/// HCAs where a node has one up, else its Ethernet. Nullopt: the all-reduce crossed no network (SHM, P2P).
std::optional<FastestLink> crossing_link(const FleetNode& n, const std::string& transport) {
  if (transport.starts_with(kNcclSocket)) return fastest_up(n.facts, [](const NetworkLink& l) { return !hca(l); });
  if (transport.starts_with(kNcclInfiniBand)) return fastest_up(n.facts, hca);
  if (transport.starts_with(kNcclShm) || transport.starts_with(kNcclP2p)) return std::nullopt;
  FastestLink ib = fastest_up(n.facts, hca);
  return ib.up > 0 ? ib : fastest_up(n.facts, [](const NetworkLink& l) { return !hca(l); });
}

}  // namespace

std::string network_fingerprint(const Facts& facts) {
  // (fabric first: InfiniBand, RoCE, Ethernet) -> (rate, width, state) -> count.
  std::map<std::pair<int, std::string>, std::map<std::tuple<int, std::string, std::string, std::string>, int>> by_kind;
  for (const NetworkLink& l : facts.network) {
    auto rate = network_rate_gbps(l);
    std::string state = l.up ? "up" : l.state.empty() ? "state unknown" : "not up";
    int order = l.kind == "infiniband" ? 0 : l.kind == "roce" ? 1 : l.kind == "ethernet" ? 2 : 3;
    ++by_kind[{order, network_kind_name(l.kind)}]
             [{l.up ? 0 : 1, rate ? network_number(*rate) + " Gb/s" : "rate unknown",
               l.width ? " " + std::to_string(*l.width) + "X" : "", state}];
  }
  if (by_kind.empty()) return "none";
  std::vector<std::string> kinds;
  for (const auto& [key, ports] : by_kind) {
    const std::string& kind = key.second;
    std::vector<std::string> items;
    for (const auto& [port, count] : ports) {
      const auto& [up_first, rate, width, state] = port;
      items.push_back(fmt::format("{} × {}{} {}", count, rate, width, state));
    }
    kinds.push_back(kind + " " + join(items, ", "));
  }
  return join(kinds, "; ");
}

void compare_fleet_network(FleetReport& report) {
  FleetNccl& f = report.nccl;
  if (!f.ran || f.status != FleetRunStatus::passed || f.busbw_gbps <= 0) return;
  size_t ran = 0;
  for (const auto& n : report.nodes) ran += n.nccl.ran && n.nccl.status == FleetRunStatus::passed ? 1 : 0;
  // On one node the all-reduce crosses no network; on several, the slowest node's fastest port
  // of the kind NCCL used bounds it (one port: a node with several can use them together).
  if (ran >= 2) {
    const FleetNode* slowest = nullptr;
    FastestLink slowest_link;
    std::vector<std::string> unknown;
    bool crossed = true;
    for (const auto& n : report.nodes) {
      if (!n.nccl.ran || n.nccl.status != FleetRunStatus::passed) continue;
      auto link = crossing_link(n, n.nccl.transport.empty() ? f.slowest_transport : n.nccl.transport);
      if (!link) {
        crossed = false;
        break;
      }
      if (link->link == nullptr) {
        unknown.push_back(n.name);
        continue;
      }
      if (slowest == nullptr || link->gbps < slowest_link.gbps) {
        slowest = &n;
        slowest_link = *link;
      }
    }
    if (crossed && !unknown.empty()) {
      f.network_detail = fmt::format("no network ceiling: {} node(s) reported no up port with a known rate ({})",
                                     unknown.size(), join(unknown, ", "));
    } else if (crossed && slowest != nullptr) {
      const NetworkLink& l = *slowest_link.link;
      f.network_ceiling_gbps = slowest_link.gbps / 8;
      f.network_fraction = f.busbw_gbps / *f.network_ceiling_gbps;
      f.network_node = slowest->name;
      f.network_link = network_kind_name(l.kind) + " " + network_link_name(l) + ", " + network_link_rate(l);
      f.network_links_up = slowest_link.at_that_rate;
      f.network_detail = fmt::format(
          "bus bandwidth {:.3g} GB/s is {:.0f} % of {:.4g} GB/s, the rate of {}'s fastest up port ({}) ÷ 8{}",
          f.busbw_gbps, *f.network_fraction * 100, *f.network_ceiling_gbps, printable(slowest->name, 80),
          f.network_link,
          slowest_link.at_that_rate > 1
              ? fmt::format("; it has {} such ports up at that rate, which NCCL can use side by side, so this bounds "
                            "one port, not the node",
                            slowest_link.at_that_rate)
              : "");
    }
  }
  // NCCL over sockets on a node whose HCA is up: it could not use the HCA.
  FleetFinding sockets{
      .id = "nccl-sockets-with-hca-up",
      .severity = Severity::warning,
      .title = "NCCL chose sockets (NET/Socket) although an InfiniBand or RoCE port is up",
      .fix =
          "NCCL uses an HCA through libibverbs: check that NCCL_IB_DISABLE is not set and NCCL_NET does not "
          "name Socket, that rdma-core's libibverbs and its provider (libmlx5) are installed, and in a "
          "container that /dev/infiniband is passed in; NCCL_DEBUG=INFO says why NET/IB was not chosen."};
  for (const auto& n : report.nodes) {
    if (n.nccl.ran && n.nccl.status == FleetRunStatus::passed && n.nccl.transport.starts_with(kNcclSocket) &&
        fastest_up(n.facts, hca).up > 0)
      sockets.nodes.push_back(n.name);
  }
  if (!sockets.nodes.empty()) report.findings.push_back(std::move(sockets));
}

}  // namespace gpudoctor
