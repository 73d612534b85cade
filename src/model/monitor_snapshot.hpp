#pragma once
/// What `watch` and `serve` see at one instant: one immutable snapshot per sampling tick
/// (monitor/sampler.hpp makes them, renderers and the diagnoses read them). Every measured
/// field is optional: nullopt means the card, the driver or the host did not say (not
/// supported, no permission, the call failed), which is not the same as zero.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/finding.hpp"
#include "model/gpu_reports.hpp"

namespace gpudoctor {

/// Bytes in a GiB: the unit memory is shown in.
inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

/// NVML's clock-event (throttle) reason bits, from nvml.h (nvmlClocksEventReason*).
namespace throttle {
inline constexpr std::uint64_t kGpuIdle = 0x1;
inline constexpr std::uint64_t kApplicationsClocksSetting = 0x2;
inline constexpr std::uint64_t kSwPowerCap = 0x4;
inline constexpr std::uint64_t kHwSlowdown = 0x8;
inline constexpr std::uint64_t kSyncBoost = 0x10;
inline constexpr std::uint64_t kSwThermalSlowdown = 0x20;
inline constexpr std::uint64_t kHwThermalSlowdown = 0x40;
inline constexpr std::uint64_t kHwPowerBrakeSlowdown = 0x80;
inline constexpr std::uint64_t kDisplayClockSetting = 0x100;
}  // namespace throttle

/// "sw-power-cap,hw-thermal-slowdown" for a mask; "none" for 0.
std::string throttle_reason_names(std::uint64_t mask);

struct GpuProcessSample {
  unsigned pid = 0;
  std::optional<std::uint64_t> used_memory_bytes;  ///< NVML's "not available" is nullopt
  std::string command;                             ///< /proc/PID/cmdline, "" when unreadable
  std::optional<double> cpu_percent;               ///< of one core, since the previous sample

  bool operator==(const GpuProcessSample&) const = default;
};

struct GpuSample {
  unsigned index = 0;
  std::string name;
  std::string uuid;
  std::string pci_bus_id;
  std::optional<unsigned> gpu_util_percent;
  std::optional<unsigned> memory_util_percent;  ///< memory controller busy time, not capacity
  std::optional<std::uint64_t> memory_used_bytes;
  std::optional<std::uint64_t> memory_total_bytes;
  std::optional<unsigned> temperature_c;
  std::optional<double> power_w;
  std::optional<double> power_limit_w;
  std::optional<unsigned> sm_clock_mhz;
  std::optional<unsigned> memory_clock_mhz;
  std::optional<std::uint64_t> throttle_reasons;  ///< mask of throttle::k*
  std::optional<std::uint64_t> pcie_tx_kib_per_s;
  std::optional<std::uint64_t> pcie_rx_kib_per_s;
  std::optional<std::uint64_t> ecc_uncorrected_volatile;
  std::optional<unsigned> retired_pages_single_bit;  ///< pages retired for repeated single-bit ECC errors
  std::optional<unsigned> retired_pages_double_bit;  ///< pages retired for a double-bit ECC error
  std::optional<unsigned> remapped_rows_uncorrectable;
  std::optional<bool> remapping_pending;
  /// nullopt: the process list could not be read; empty: no process on the GPU.
  std::optional<std::vector<GpuProcessSample>> processes;
  std::vector<std::string> problems;  ///< calls that failed for another reason than "not supported"
  /// The NVML error that says the GPU is gone ("NVML_ERROR_GPU_IS_LOST": fallen off the bus;
  /// "NVML_ERROR_RESET_REQUIRED"), when a call answered one; "" while it answers. Its readings
  /// are then not the GPU's.
  std::string lost;

  bool operator==(const GpuSample&) const = default;
};

struct HostSample {
  std::optional<double> cpu_percent;  ///< all cores, since the previous sample
  std::optional<unsigned> cpu_count;
  std::optional<std::uint64_t> memory_total_bytes;
  std::optional<std::uint64_t> memory_available_bytes;
};

struct Snapshot {
  std::int64_t time_ms = 0;  ///< Unix time, milliseconds
  /// The GPU query's outcome.
  LibraryStatus status = LibraryStatus::none;
  std::string error;  ///< why status is not "ok"
  std::string driver_version;
  std::vector<GpuSample> gpus;
  HostSample host;
  int agent_starts = 0;  ///< how often the GPU agent was started so far (restarts = starts - 1)
  /// What the diagnoses (monitor/diagnoses.hpp) concluded over the history up to this sample.
  std::vector<Finding> diagnoses;
};

using SnapshotPtr = std::shared_ptr<const Snapshot>;

/// The sample could not read every GPU: the query failed, or a GPU in it is lost. What watch's
/// exit status, serve's gpudoctor_gpu_query_up and its failure count go by.
bool gpus_not_read(const Snapshot& s);

}  // namespace gpudoctor
