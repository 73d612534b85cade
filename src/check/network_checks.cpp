#include "check/network_checks.hpp"

#include "model/network_links.hpp"

namespace gpudoctor {
namespace {

constexpr const char* kSysfsInfiniBandAbi =
    "https://www.kernel.org/doc/Documentation/ABI/stable/sysfs-class-infiniband (ports/N/rate: "
    "\"<rate> Gb/sec (<width>X <speed>)\")";

std::string sysfs_path(const NetworkLink& l) {
  return l.port > 0 ? "/sys/class/infiniband/" + l.device + "/ports/" + std::to_string(l.port)
                    : "/sys/class/net/" + l.device;
}

}  // namespace

std::vector<Finding> network_findings(const Facts& facts) {
  std::vector<Finding> out;
  for (const NetworkLink& l : facts.network) {
    std::string state = l.state.empty() ? "state unknown" : l.up ? "up" : "not up (" + l.state + ")";
    if (!l.up && !l.state.empty() && !l.phys_state.empty()) state.insert(state.size() - 1, ", " + l.phys_state);
    out.push_back(Finding{
        .id = "network-link",
        .severity = l.up ? Severity::ok : Severity::info,
        .area = FindingArea::system,
        .title = network_kind_name(l.kind) + " " + network_link_name(l) + ": " + network_link_rate(l) + ", " + state,
        .evidence = {sysfs_path(l)}});
  }
  for (const NetworkLink& l : facts.network) {
    // RoCE's width follows its Ethernet lanes (a 25 GbE port reads "1X"), so only InfiniBand.
    if (l.kind != "infiniband" || !l.up || l.width != 1) continue;
    out.push_back(Finding{
        .id = "network-link-narrow",
        .severity = Severity::warning,
        .area = FindingArea::system,
        .title = "InfiniBand " + network_link_name(l) + " is up at 1X width (" + network_link_rate(l) + ")",
        .detail = "InfiniBand HCA ports are built for 4X links (2X on split cables); this one trained with one lane, "
                  "so it carries a quarter of its usual rate or less, and so does every NCCL ring through it. The "
                  "usual causes are a damaged or badly seated cable or transceiver, or a lane that failed to train.",
        .fix = "Reseat or replace the cable and transceiver; `ibstat` and `iblinkinfo` show the width each end "
               "negotiated; `gpudoctor fleet` compares this node's ports with the others'.",
        .evidence = {sysfs_path(l) + "/rate", l.rate_text},
        .source = kSysfsInfiniBandAbi});
  }
  return out;
}

}  // namespace gpudoctor
