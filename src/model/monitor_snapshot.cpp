#include "model/monitor_snapshot.hpp"

namespace gpudoctor {

std::string throttle_reason_names(std::uint64_t mask) {
  struct Name {
    std::uint64_t bit;
    const char* name;
  };
  static constexpr Name kNames[] = {
      {throttle::kGpuIdle, "gpu-idle"},
      {throttle::kApplicationsClocksSetting, "applications-clocks"},
      {throttle::kSwPowerCap, "sw-power-cap"},
      {throttle::kHwSlowdown, "hw-slowdown"},
      {throttle::kSyncBoost, "sync-boost"},
      {throttle::kSwThermalSlowdown, "sw-thermal-slowdown"},
      {throttle::kHwThermalSlowdown, "hw-thermal-slowdown"},
      {throttle::kHwPowerBrakeSlowdown, "hw-power-brake"},
      {throttle::kDisplayClockSetting, "display-clocks"},
  };
  std::string out;
  std::uint64_t known = 0;
  for (const Name& n : kNames) {
    known |= n.bit;
    if ((mask & n.bit) == 0) continue;
    if (!out.empty()) out += ',';
    out += n.name;
  }
  if ((mask & ~known) != 0) {
    if (!out.empty()) out += ',';
    out += "other";
  }
  return out.empty() ? "none" : out;
}

bool gpus_not_read(const Snapshot& s) {
  if (s.status != LibraryStatus::ok) return true;
  for (const auto& g : s.gpus) {
    if (!g.lost.empty()) return true;
  }
  return false;
}

}  // namespace gpudoctor
