// The network probe (probe/network_probe.cpp, probe/network_files.hpp): the sysfs attributes of
// HCA ports and Ethernet interfaces, parsed from odd and hostile text, a scratch tree read
// through SystemView, the facts' JSON round trip, and the doctor's findings about them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "check/network_checks.hpp"
#include "model/json_codec.hpp"
#include "model/network_links.hpp"
#include "probe/network_files.hpp"
#include "probe/probes.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using testing::TempTree;
using testing::view_of;

TEST(NetworkFiles, HcaRatesAsTheKernelWritesThem) {
  struct Case {
    const char* text;
    double gbps;
    int width;
  };
  for (const Case& c :
       {Case{"400 Gb/sec (4X NDR)\n", 400, 4}, Case{"2.5 Gb/sec (1X SDR)", 2.5, 1}, Case{"56 Gb/sec (4X FDR)", 56, 4},
        Case{"100 Gb/sec (2X HDR)", 100, 2}, Case{"40 Gb/sec (4X FDR10)", 40, 4}, Case{"  25 Gb/sec (1X EDR)  ", 25, 1},
        Case{"300 Gb/sec (12X EDR)", 300, 12}}) {
    HcaRate r = parse_hca_rate(c.text);
    ASSERT_TRUE(r.gbps.has_value()) << c.text;
    EXPECT_DOUBLE_EQ(*r.gbps, c.gbps) << c.text;
    ASSERT_TRUE(r.width.has_value()) << c.text;
    EXPECT_EQ(*r.width, c.width) << c.text;
  }
  // A rate without a width part: the rate is known, the width is not.
  HcaRate bare = parse_hca_rate("200 Gb/sec");
  EXPECT_EQ(bare.gbps, 200);
  EXPECT_FALSE(bare.width.has_value());
}

TEST(NetworkFiles, HostileHcaRatesAreUnknown) {
  for (std::string_view junk :
       {"", "Gb/sec", "-400 Gb/sec (4X NDR)", "0 Gb/sec (4X NDR)", "nan Gb/sec (4X)", "inf Gb/sec (4X)",
        "1e400 Gb/sec (4X)", "400 Mb/sec (4X NDR)", "400", "+400 Gb/sec", "100001 Gb/sec (4X)", "\x1b]0;pwn\x07",
        "4\0000 Gb/sec (4X NDR)", "99999999999999999999999999999999999999 Gb/sec"}) {
    HcaRate r = parse_hca_rate(junk);
    EXPECT_FALSE(r.gbps.has_value()) << junk;
    EXPECT_FALSE(r.width.has_value()) << junk;
  }
  // A width that is no IB width, or a number that overflows, leaves the width unknown only.
  for (std::string_view odd : {"400 Gb/sec (3X NDR)", "400 Gb/sec (0X NDR)", "400 Gb/sec (-4X NDR)",
                               "400 Gb/sec (99999999999999999999X NDR)", "400 Gb/sec (4 NDR)", "400 Gb/sec ("}) {
    HcaRate r = parse_hca_rate(odd);
    EXPECT_EQ(r.gbps, 400) << odd;
    EXPECT_FALSE(r.width.has_value()) << odd;
  }
  // A megabyte of digits: bounded (only the head is looked at), and no number.
  EXPECT_FALSE(parse_hca_rate(std::string(1 << 20, '9')).gbps.has_value());
}

TEST(NetworkFiles, EthernetSpeeds) {
  EXPECT_EQ(parse_ethernet_speed_gbps("100000\n"), 100.0);
  EXPECT_EQ(parse_ethernet_speed_gbps("25000"), 25.0);
  EXPECT_EQ(parse_ethernet_speed_gbps(" 10 "), 0.01);
  for (std::string_view unknown : {"-1", "-1\n", "4294967295", "0", "", "1e5", "100000abc", "0x186a0",
                                   "99999999999999999999999", "20000000", "\xff\xfe", "100 000"}) {
    EXPECT_FALSE(parse_ethernet_speed_gbps(unknown).has_value()) << unknown;
  }
}

TEST(NetworkFiles, HcaStates) {
  EXPECT_EQ(parse_hca_state("4: ACTIVE\n"), "ACTIVE");
  EXPECT_EQ(parse_hca_state("5: LinkUp"), "LinkUp");
  EXPECT_EQ(parse_hca_state("1: DOWN"), "DOWN");
  EXPECT_EQ(parse_hca_state("5: ACTIVE_DEFER"), "ACTIVE_DEFER");
  EXPECT_EQ(parse_hca_state("up"), "up");
  for (std::string_view junk : {"4: ACT IVE", "4: \x1b[31mACTIVE", "ACTIVE\x07", "4: <script>", ""}) {
    EXPECT_EQ(parse_hca_state(junk), "") << junk;
  }
  EXPECT_EQ(parse_hca_state("4: " + std::string(40, 'A')), "");
}

/// One HCA port's attributes, as the kernel lays them out.
void hca_port(const TempTree& t, const std::string& dev, int port, const std::string& rate, const std::string& state,
              const std::string& phys, const std::string& layer) {
  std::string dir = "sys/class/infiniband/" + dev + "/ports/" + std::to_string(port) + "/";
  t.write(dir + "rate", rate + "\n");
  t.write(dir + "state", state + "\n");
  t.write(dir + "phys_state", phys + "\n");
  t.write(dir + "link_layer", layer + "\n");
}

/// An interface; with `device`, a link to a PCI function (left dangling, as a tree copied
/// without /sys/devices has it).
void interface(const TempTree& t, const std::string& name, bool device, const std::string& type,
               const std::string& speed, const std::string& operstate) {
  std::string dir = "sys/class/net/" + name + "/";
  t.write(dir + "type", type + "\n");
  if (!speed.empty()) t.write(dir + "speed", speed + "\n");
  t.write(dir + "operstate", operstate + "\n");
  if (device) t.symlink("../../../devices/pci0000:00/0000:00:03.0", dir + "device");
}

const NetworkLink* link_named(const Facts& f, const std::string& device, int port = 0) {
  auto it = std::find_if(f.network.begin(), f.network.end(),
                         [&](const NetworkLink& l) { return l.device == device && l.port == port; });
  return it == f.network.end() ? nullptr : &*it;
}

TEST(NetworkProbe, ReadsHcaPortsAndPhysicalEthernetOnly) {
  TempTree t;
  hca_port(t, "mlx5_0", 1, "400 Gb/sec (4X NDR)", "4: ACTIVE", "5: LinkUp", "InfiniBand");
  hca_port(t, "mlx5_1", 1, "100 Gb/sec (4X EDR)", "4: ACTIVE", "5: LinkUp", "Ethernet");
  hca_port(t, "mlx5_2", 1, "10 Gb/sec (4X SDR)", "1: DOWN", "2: Polling", "InfiniBand");
  t.mkdir("sys/class/infiniband/mlx5_2/ports/notaport");  // not a number: skipped
  interface(t, "lo", false, "772", "", "unknown");
  interface(t, "eno1", true, "1", "25000", "up");
  interface(t, "eno2", true, "1", "-1", "down");
  interface(t, "ib0", true, "32", "400000", "up");          // IPoIB: the HCA port, already listed
  interface(t, "docker0", false, "1", "10000", "up");       // a bridge: no device
  interface(t, "bond0", false, "1", "50000", "up");         // a bond: no device
  interface(t, "eno3", true, "1", "garbage\x1b[2J", "UP");  // junk speed: unknown; operstate lower-cased
  // The RoCE port's own interface (its PCI function's net/): listed once, as the HCA port.
  t.mkdir("sys/class/infiniband/mlx5_1/device/net/ens1f0np0");
  interface(t, "ens1f0np0", true, "1", "100000", "up");
  hca_port(t, "mlx5_3", 1, "100 Gb/sec (4X EDR)", "4: ACTIVE", "5: LinkUp", "Ethernet");  // a second RoCE card
  t.mkdir("sys/class/infiniband/mlx5_3/device/net/ens2f0np0");
  interface(t, "ens2f0np0", true, "1", "100000", "up");
  Facts f;
  probe_network(view_of(t), f);

  ASSERT_EQ(f.network.size(), 7U);
  const NetworkLink* ib = link_named(f, "mlx5_0", 1);
  ASSERT_NE(ib, nullptr);
  EXPECT_EQ(ib->kind, "infiniband");
  EXPECT_EQ(ib->rate_gbps, 400);
  EXPECT_EQ(ib->width, 4);
  EXPECT_EQ(ib->rate_text, "400 Gb/sec (4X NDR)");
  EXPECT_EQ(ib->state, "ACTIVE");
  EXPECT_EQ(ib->phys_state, "LinkUp");
  EXPECT_TRUE(ib->up);
  ASSERT_NE(link_named(f, "mlx5_1", 1), nullptr);
  EXPECT_EQ(link_named(f, "mlx5_1", 1)->kind, "roce");
  const NetworkLink* down = link_named(f, "mlx5_2", 1);
  ASSERT_NE(down, nullptr);
  EXPECT_FALSE(down->up);
  EXPECT_EQ(down->phys_state, "Polling");
  const NetworkLink* eno1 = link_named(f, "eno1");
  ASSERT_NE(eno1, nullptr);
  EXPECT_EQ(eno1->kind, "ethernet");
  EXPECT_EQ(eno1->rate_gbps, 25);
  EXPECT_TRUE(eno1->up);
  ASSERT_NE(link_named(f, "eno2"), nullptr);
  EXPECT_FALSE(link_named(f, "eno2")->rate_gbps.has_value());
  EXPECT_FALSE(link_named(f, "eno2")->up);
  ASSERT_NE(link_named(f, "eno3"), nullptr);
  EXPECT_FALSE(link_named(f, "eno3")->rate_gbps.has_value());
  EXPECT_TRUE(link_named(f, "eno3")->up);
  for (const char* skipped : {"lo", "ib0", "docker0", "bond0", "ens1f0np0", "ens2f0np0"})
    EXPECT_EQ(link_named(f, skipped), nullptr) << skipped;
  EXPECT_TRUE(f.problems.empty());
}

TEST(NetworkProbe, HostileTreesAreBoundedAndSaySo) {
  TempTree t;
  // A rate file of 1 MiB: 256 bytes are read, and the cut is recorded.
  t.write("sys/class/infiniband/mlx5_0/ports/1/rate", "400 Gb/sec (4X NDR)" + std::string(1 << 20, 'x'));
  t.write("sys/class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE");
  // A port that is a file, a state that is a directory, a FIFO-free link loop.
  t.write("sys/class/infiniband/mlx5_1/ports/1", "not a directory");
  hca_port(t, "mlx5_2", 1, "100 Gb/sec (4X EDR)", "4: ACTIVE", "5: LinkUp", "InfiniBand");
  std::filesystem::remove(t.path() / "sys/class/infiniband/mlx5_2/ports/1/state");
  t.mkdir("sys/class/infiniband/mlx5_2/ports/1/state");
  t.symlink("loop", "sys/class/net/loop");
  // More interfaces than the probe reads.
  for (int i = 0; i < 260; ++i) t.mkdir("sys/class/net/veth" + std::to_string(1000 + i));
  SystemView view = view_of(t);
  Facts f;
  probe_network(view, f);
  const NetworkLink* cut = link_named(f, "mlx5_0", 1);
  ASSERT_NE(cut, nullptr);
  EXPECT_EQ(cut->rate_gbps, 400);
  EXPECT_LE(cut->rate_text.size(), 40U + std::string("…").size());
  const NetworkLink* stateless = link_named(f, "mlx5_2", 1);
  ASSERT_NE(stateless, nullptr);
  EXPECT_EQ(stateless->state, "");
  EXPECT_FALSE(stateless->up);
  EXPECT_EQ(link_named(f, "mlx5_1", 1), nullptr);
  EXPECT_EQ(link_named(f, "loop"), nullptr);
  std::vector<std::string> bounds;
  for (const auto& b : view.bounds_hit()) bounds.push_back(b.path + ": " + b.what);
  EXPECT_TRUE(std::any_of(bounds.begin(), bounds.end(), [](const std::string& b) {
    return b.starts_with("/sys/class/infiniband/mlx5_0/ports/1/rate");
  })) << ::testing::PrintToString(bounds);
  EXPECT_TRUE(std::any_of(bounds.begin(), bounds.end(), [](const std::string& b) {
    return b.starts_with("/sys/class/net: ") && b.ends_with("interfaces; the first 256 read");
  })) << ::testing::PrintToString(bounds);
}

TEST(NetworkProbe, WindowsAndTreesWithoutSysfsHaveNoLinks) {
  TempTree t;
  hca_port(t, "mlx5_0", 1, "400 Gb/sec (4X NDR)", "4: ACTIVE", "5: LinkUp", "InfiniBand");
  Facts windows;
  probe_network(view_of(t, Platform::windows), windows);
  EXPECT_TRUE(windows.network.empty());
  TempTree empty;
  Facts none;
  probe_network(view_of(empty), none);
  EXPECT_TRUE(none.network.empty());
  EXPECT_TRUE(none.problems.empty());
}

TEST(NetworkFacts, RoundTripAndOmittedWhenEmpty) {
  Facts f;
  EXPECT_FALSE(facts_to_json(f).contains("network"));
  f.network.push_back({.kind = "infiniband",
                       .device = "mlx5_0",
                       .port = 1,
                       .rate_gbps = 400,
                       .width = 4,
                       .rate_text = "400 Gb/sec (4X NDR)",
                       .state = "ACTIVE",
                       .phys_state = "LinkUp",
                       .up = true});
  f.network.push_back({.kind = "ethernet", .device = "eno1", .rate_gbps = std::nullopt, .state = "down"});
  auto j = facts_to_json(f);
  ASSERT_TRUE(j.contains("network"));
  EXPECT_EQ(j["network"][0]["rate_gbps"], 400);
  EXPECT_TRUE(j["network"][1]["rate_gbps"].is_null());
  EXPECT_FALSE(j["network"][1].contains("width"));
  Facts back;
  facts_from_json(j, back);
  EXPECT_EQ(back.network, f.network);
}

TEST(NetworkFacts, ImplausibleRatesFromAnotherNodeAreUnknown) {
  for (double junk : {-1.0, 0.0, 1e308, 100'001.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    NetworkLink l{.kind = "infiniband", .device = "mlx5_0", .port = 1, .rate_gbps = junk};
    EXPECT_FALSE(network_rate_gbps(l).has_value()) << junk;
    EXPECT_EQ(network_link_rate(l), "rate unknown");
  }
  NetworkLink hostile{.kind = "ethernet\x1b[2J", .device = "eth\x1b]0;x\x07"};
  EXPECT_EQ(network_link_name(hostile).find('\x1b'), std::string::npos);
  EXPECT_EQ(network_kind_name(hostile.kind).find('\x1b'), std::string::npos);
}

/// An HCA port as the probe records it.
NetworkLink hca(const char* kind, const char* dev, double gbps, int width, const char* state) {
  return {.kind = kind,
          .device = dev,
          .port = 1,
          .rate_gbps = gbps,
          .width = width,
          .state = state,
          .up = std::string_view(state) == "ACTIVE"};
}

TEST(NetworkChecks, OneLinePerLinkAndANarrowInfiniBandPortWarned) {
  Facts f;
  f.network = {hca("infiniband", "mlx5_0", 400, 4, "ACTIVE"), hca("infiniband", "mlx5_1", 100, 1, "ACTIVE"),
               hca("roce", "mlx5_2", 25, 1, "ACTIVE"), hca("infiniband", "mlx5_3", 10, 1, "DOWN")};
  f.network[1].rate_text = "100 Gb/sec (1X NDR)";
  f.network[3].phys_state = "Polling";
  auto fs = network_findings(f);
  std::vector<const Finding*> lines, narrow;
  for (const auto& x : fs) (x.id == "network-link" ? lines : narrow).push_back(&x);
  ASSERT_EQ(lines.size(), 4U);
  EXPECT_EQ(lines[0]->title, "InfiniBand mlx5_0 port 1: 400 Gb/s, 4X, up");
  EXPECT_EQ(lines[0]->severity, Severity::ok);
  EXPECT_EQ(lines[3]->title, "InfiniBand mlx5_3 port 1: 10 Gb/s, 1X, not up (DOWN, Polling)");
  EXPECT_EQ(lines[3]->severity, Severity::info);
  // Only the InfiniBand port that is up at 1X: RoCE's width follows its Ethernet lanes.
  ASSERT_EQ(narrow.size(), 1U);
  EXPECT_EQ(narrow[0]->id, "network-link-narrow");
  EXPECT_EQ(narrow[0]->severity, Severity::warning);
  EXPECT_NE(narrow[0]->title.find("mlx5_1 port 1 is up at 1X"), std::string::npos) << narrow[0]->title;
  EXPECT_FALSE(narrow[0]->source.empty());
}

}  // namespace
}  // namespace gpudoctor
