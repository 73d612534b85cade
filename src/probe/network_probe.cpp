#include <algorithm>
#include <set>
#include <string>

#include "core/text.hpp"
#include "probe/network_files.hpp"
#include "probe/probes.hpp"

namespace gpudoctor {
namespace {

// Bounds: a node has a handful of HCAs and interfaces; a tree with more is cut, and says so.
constexpr size_t kMaxHcas = 64;
constexpr size_t kMaxPortsPerHca = 16;
constexpr size_t kMaxInterfaces = 256;
constexpr size_t kAttributeBytes = 256;  // every attribute read is one short line

/// A directory entry usable as a device or interface name: printable, short, not hidden.
bool plain_name(const std::string& name) {
  return !name.empty() && name.size() <= 64 && name[0] != '.' && printable(name, 64) == name;
}

std::string attribute(const SystemView& system, const std::string& path) {
  auto text = system.read_file(path, kAttributeBytes);
  return text ? std::string(trim(*text)) : std::string();
}

/// The subdirectories of a directory (links to one included), sorted, plain names only, at most
/// `limit` (the cut recorded).
std::vector<std::string> names_in(const SystemView& system, const std::string& dir, size_t limit, const char* what) {
  std::vector<std::string> out;
  auto entries = system.list_dir(dir);
  if (!entries) return out;
  for (const DirEntry& e : *entries) {
    if (e.is_dir && plain_name(e.name)) out.push_back(e.name);
  }
  std::sort(out.begin(), out.end());
  if (out.size() > limit) {
    system.note_bound(dir, std::to_string(out.size()) + " " + what + "; the first " + std::to_string(limit) + " read");
    out.resize(limit);
  }
  return out;
}

/// Reads each HCA's ports; returns the network interfaces of its RoCE ports (the HCA's PCI
/// function's `net/` folder), which read_ethernet then leaves out: the same port, listed once.
std::set<std::string> read_hca_ports(const SystemView& system, Facts& facts) {
  const std::string base = "/sys/class/infiniband";
  std::set<std::string> roce_interfaces;
  for (const std::string& dev : names_in(system, base, kMaxHcas, "HCAs")) {
    const std::string ports_dir = base + "/" + dev + "/ports";
    std::vector<std::pair<int, std::string>> ports;
    for (const std::string& p : names_in(system, ports_dir, kMaxPortsPerHca, "ports")) {
      // Port directories are numbers from 1 (a switch's port 0 is its management port).
      if (p.size() > 3 || !std::all_of(p.begin(), p.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
      ports.emplace_back(std::stoi(p), p);
    }
    std::sort(ports.begin(), ports.end());
    bool roce_listed = false;  // this HCA's interfaces, read once
    for (const auto& [number, name] : ports) {
      const std::string dir = ports_dir + "/" + name;
      NetworkLink link;
      link.device = dev;
      link.port = number;
      std::string layer = attribute(system, dir + "/link_layer");
      link.kind = iequals(layer, "Ethernet") ? "roce" : "infiniband";  // absent: older kernels, IB only
      std::string rate = attribute(system, dir + "/rate");
      HcaRate parsed = parse_hca_rate(rate);
      link.rate_gbps = parsed.gbps;
      link.width = parsed.width;
      link.rate_text = printable(rate, 40);
      link.state = parse_hca_state(attribute(system, dir + "/state"));
      link.phys_state = parse_hca_state(attribute(system, dir + "/phys_state"));
      link.up = link.state == "ACTIVE";
      if (link.kind == "roce" && !roce_listed) {
        roce_listed = true;
        for (const std::string& net : names_in(system, base + "/" + dev + "/device/net", kMaxInterfaces, "interfaces"))
          roce_interfaces.insert(net);
      }
      facts.network.push_back(std::move(link));
    }
  }
  return roce_interfaces;
}

void read_ethernet(const SystemView& system, Facts& facts, const std::set<std::string>& roce_interfaces) {
  const std::string base = "/sys/class/net";
  for (const std::string& name : names_in(system, base, kMaxInterfaces, "interfaces")) {
    if (name == "lo" || roce_interfaces.contains(name)) continue;
    const std::string dir = base + "/" + name;
    // A physical (or SR-IOV) port has a `device` link to its PCI function; a bridge, bond,
    // VLAN, veth or tunnel has none.
    auto entries = system.list_dir(dir);
    if (!entries ||
        std::none_of(entries->begin(), entries->end(), [](const DirEntry& e) { return e.name == "device"; }))
      continue;
    // ARPHRD_ETHER is 1; IPoIB (32) is the HCA port already listed, anything else is not Ethernet.
    std::string type = attribute(system, dir + "/type");
    if (!type.empty() && type != "1") continue;
    NetworkLink link;
    link.kind = "ethernet";
    link.device = name;
    link.rate_gbps = parse_ethernet_speed_gbps(attribute(system, dir + "/speed"));
    std::string state = to_lower(attribute(system, dir + "/operstate"));
    link.state = parse_hca_state(state);
    link.up = link.state == "up";
    facts.network.push_back(std::move(link));
  }
}

}  // namespace

void probe_network(const SystemView& system, Facts& facts) {
  if (system.is_windows()) return;
  read_ethernet(system, facts, read_hca_ports(system, facts));
}

}  // namespace gpudoctor
