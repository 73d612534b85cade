// The fleet's network (check/fleet_network.hpp through compare_fleet): a node whose port came up
// slower is an outlier in a group of its own, the NCCL bus bandwidth against the slowest node's
// fastest port, and NCCL over sockets while an HCA is up.
#include "check/fleet_network.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "check/fleet_compare.hpp"
#include "model/json_codec.hpp"
#include "model/nccl_links.hpp"
#include "render/fleet_report.hpp"
#include "render/html_report.hpp"

namespace gpudoctor {
namespace {

NetworkLink ib(const std::string& dev, double gbps, int width, bool up = true) {
  return {.kind = "infiniband",
          .device = dev,
          .port = 1,
          .rate_gbps = gbps,
          .width = width,
          .state = up ? "ACTIVE" : "DOWN",
          .up = up};
}
NetworkLink eth(const std::string& name, std::optional<double> gbps, bool up = true) {
  return {.kind = "ethernet", .device = name, .rate_gbps = gbps, .state = up ? "up" : "down", .up = up};
}

/// A node of the fleet with an NDR HCA and a management port, whose NCCL part passed.
FleetNode network_node(const std::string& name, double busbw = 40, const char* transport = kNcclInfiniBand) {
  FleetNode n;
  n.name = name;
  n.facts.driver.version = Version::parse("580.95.05");
  n.facts.gpus.push_back({.name = "NVIDIA H200"});
  n.facts.network = {ib("mlx5_0", 400, 4), eth("eno1", 1)};
  n.nccl = {
      .ran = true, .status = FleetRunStatus::passed, .seconds = 0.01, .busbw_gbps = busbw, .transport = transport};
  return n;
}

FleetReport fleet(std::vector<FleetNode> nodes) {
  FleetReport r;
  r.nodes = std::move(nodes);
  r.nccl.ran = true;
  r.nccl.gpus = static_cast<int>(r.nodes.size());
  compare_fleet(r);
  return r;
}

TEST(FleetNetwork, TheFingerprintItemCountsPortsWithoutNames) {
  Facts f;
  EXPECT_EQ(network_fingerprint(f), "none");
  f.network = {ib("mlx5_0", 400, 4), ib("mlx5_1", 400, 4), ib("mlx5_2", 400, 4, false), eth("eno1", 1),
               eth("eno2", std::nullopt, false)};
  EXPECT_EQ(network_fingerprint(f),
            "InfiniBand 2 × 400 Gb/s 4X up, 1 × 400 Gb/s 4X not up; Ethernet 1 × 1 Gb/s up, 1 × rate unknown not up");
  Facts renamed = f;
  for (auto& l : renamed.network) l.device = "x" + l.device;
  EXPECT_EQ(network_fingerprint(renamed), network_fingerprint(f));
}

TEST(FleetNetwork, ANodeWithASlowerPortIsAnOutlierInItsOwnGroup) {
  std::vector<FleetNode> nodes = {network_node("n0"), network_node("n1"), network_node("n2"), network_node("n3")};
  nodes[3].facts.network[0] = ib("mlx5_0", 100, 1);  // trained at one lane
  FleetReport r = fleet(std::move(nodes));
  ASSERT_EQ(r.groups.size(), 2u);
  EXPECT_EQ(r.groups[1].nodes, std::vector<std::string>{"n3"});
  EXPECT_TRUE(r.groups[1].outlier);
  ASSERT_EQ(r.differences.size(), 1u);
  EXPECT_EQ(r.differences[0].key, "network");
  EXPECT_EQ(r.differences[0].values,
            (std::vector<std::string>{"InfiniBand 1 × 400 Gb/s 4X up; Ethernet 1 × 1 Gb/s up",
                                      "InfiniBand 1 × 100 Gb/s 1X up; Ethernet 1 × 1 Gb/s up"}));
  EXPECT_TRUE(std::any_of(r.outliers.begin(), r.outliers.end(), [](const FleetOutlier& o) {
    return o.node == "n3" && o.reason.find("network InfiniBand 1 × 100 Gb/s 1X up") != std::string::npos;
  }));
}

TEST(FleetNetwork, TheBusBandwidthAgainstTheSlowestNodesFastestPort) {
  std::vector<FleetNode> nodes = {network_node("n0", 22), network_node("n1", 20), network_node("n2", 21)};
  nodes[2].facts.network = {ib("mlx5_0", 200, 4), ib("mlx5_1", 100, 4), ib("mlx5_2", 200, 4), eth("eno1", 1)};
  FleetReport r = fleet(std::move(nodes));
  const FleetNccl& f = r.nccl;
  EXPECT_EQ(f.status, FleetRunStatus::passed);
  EXPECT_DOUBLE_EQ(f.busbw_gbps, 20);
  ASSERT_TRUE(f.network_ceiling_gbps.has_value());
  EXPECT_DOUBLE_EQ(*f.network_ceiling_gbps, 25);  // 200 Gb/s ÷ 8
  EXPECT_DOUBLE_EQ(f.network_fraction.value_or(0), 0.8);
  EXPECT_EQ(f.network_node, "n2");
  EXPECT_EQ(f.network_link, "InfiniBand mlx5_0 port 1, 200 Gb/s, 4X");
  EXPECT_EQ(f.network_links_up, 2);
  EXPECT_NE(f.network_detail.find("80 % of 25 GB/s"), std::string::npos) << f.network_detail;
  EXPECT_NE(f.network_detail.find("2 such ports up at that rate"), std::string::npos) << f.network_detail;
  std::string text = render_fleet_text(r);
  EXPECT_NE(text.find("80 % of 25 GB/s"), std::string::npos) << text;
}

TEST(FleetNetwork, SocketsWhileAnHcaIsUpIsAFindingAndItsEthernetTheCeiling) {
  std::vector<FleetNode> nodes = {network_node("n0", 9), network_node("n1", 9), network_node("n2", 0.9, kNcclSocket)};
  nodes[2].facts.network.push_back(eth("enp65s0f1", 10));
  FleetReport r = fleet(std::move(nodes));
  auto it = std::find_if(r.findings.begin(), r.findings.end(),
                         [](const FleetFinding& x) { return x.id == "nccl-sockets-with-hca-up"; });
  ASSERT_NE(it, r.findings.end());
  EXPECT_EQ(it->severity, Severity::warning);
  EXPECT_EQ(it->nodes, std::vector<std::string>{"n2"});
  EXPECT_DOUBLE_EQ(r.nccl.network_ceiling_gbps.value_or(0), 1.25);  // its fastest Ethernet, 10 Gb/s
  EXPECT_EQ(r.nccl.network_node, "n2");
  EXPECT_EQ(r.nccl.network_links_up, 1);  // 10 Gb/s and 1 Gb/s: not rails of one rate
  EXPECT_EQ(r.nccl.network_detail.find("such ports"), std::string::npos) << r.nccl.network_detail;
  EXPECT_NEAR(r.nccl.network_fraction.value_or(0), 0.72, 1e-9);
  // Sockets with no HCA up anywhere is no such finding.
  std::vector<FleetNode> plain = {network_node("a", 1, kNcclSocket), network_node("b", 1, kNcclSocket)};
  for (auto& n : plain) n.facts.network = {eth("eno1", 25)};
  FleetReport p = fleet(std::move(plain));
  EXPECT_TRUE(std::none_of(p.findings.begin(), p.findings.end(),
                           [](const FleetFinding& x) { return x.id == "nccl-sockets-with-hca-up"; }));
  EXPECT_DOUBLE_EQ(p.nccl.network_ceiling_gbps.value_or(0), 25.0 / 8);
}

TEST(FleetNetwork, NoCeilingWhereTheDataDoesNotGiveOne) {
  // A node with no port of a known rate: unknown, and said.
  std::vector<FleetNode> nodes = {network_node("n0"), network_node("n1")};
  nodes[1].facts.network = {eth("eno1", std::nullopt)};
  nodes[1].nccl.transport.clear();
  FleetReport r = fleet(std::move(nodes));
  EXPECT_FALSE(r.nccl.network_ceiling_gbps.has_value());
  EXPECT_NE(r.nccl.network_detail.find("no network ceiling: 1 node(s)"), std::string::npos) << r.nccl.network_detail;
  EXPECT_NE(r.nccl.network_detail.find("n1"), std::string::npos);
  // Within shared memory or NVLink only, no network was crossed.
  FleetReport shm = fleet({network_node("a", 100, kNcclShm), network_node("b", 100, kNcclP2p)});
  EXPECT_FALSE(shm.nccl.network_ceiling_gbps.has_value());
  EXPECT_TRUE(shm.nccl.network_detail.empty());
  // One node: its all-reduce crosses no network either.
  FleetReport one = fleet({network_node("a")});
  EXPECT_FALSE(one.nccl.network_ceiling_gbps.has_value());
  // A failed all-reduce has no bandwidth to compare.
  std::vector<FleetNode> failed = {network_node("a"), network_node("b")};
  failed[1].nccl.status = FleetRunStatus::failed;
  EXPECT_FALSE(fleet(std::move(failed)).nccl.network_ceiling_gbps.has_value());
}

TEST(FleetNetwork, TheCeilingTravelsInTheFleetJsonAndReachesTheHtmlReport) {
  std::vector<FleetNode> nodes = {network_node("n0", 20), network_node("n1", 20)};
  nodes[1].facts.network[0] = ib("mlx5_0<script>", 200, 4);
  FleetReport r = fleet(std::move(nodes));
  ASSERT_TRUE(r.nccl.network_ceiling_gbps.has_value());
  auto doc = nlohmann::ordered_json::parse(render_fleet_json(r));
  EXPECT_EQ(doc["nccl"]["network_ceiling_gbps"], 25);
  EXPECT_EQ(doc["nccl"]["network_links_up"], 1);
  FleetReport back;
  ASSERT_TRUE(fleet_report_from_json(doc, back));
  EXPECT_EQ(back.nccl.network_ceiling_gbps, r.nccl.network_ceiling_gbps);
  EXPECT_EQ(back.nccl.network_fraction, r.nccl.network_fraction);
  EXPECT_EQ(back.nccl.network_node, "n1");
  EXPECT_EQ(back.nccl.network_link, r.nccl.network_link);
  EXPECT_EQ(back.nccl.network_detail, r.nccl.network_detail);
  Facts facts;
  std::vector<Finding> findings;
  std::string page = render_doctor_html({.facts = facts, .findings = findings, .fleet = &back});
  EXPECT_NE(page.find("80 % of 25 GB&#x2F;s"), std::string::npos);  // mstch escapes the slash
  EXPECT_EQ(page.find("mlx5_0<script>"), std::string::npos);
  // No ceiling: none of the keys is written, so older fleet reports read and write the same.
  FleetReport none = fleet({network_node("a", 100, kNcclShm), network_node("b", 100, kNcclShm)});
  auto plain = nlohmann::ordered_json::parse(render_fleet_json(none));
  for (const char* key : {"network_ceiling_gbps", "network_fraction", "network_node", "network_link",
                          "network_links_up", "network_detail"})
    EXPECT_FALSE(plain["nccl"].contains(key)) << key;
}

}  // namespace
}  // namespace gpudoctor
