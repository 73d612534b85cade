#pragma once
/// The scenario file that drives the fake libnvidia-ml.so.1 and libcuda.so.1, named by the
/// environment variable GPUDOCTOR_FAKE_DRIVER and read at the first call. Format (INI):
///
///   [nvml]    driver_version = 550.54.15      cuda_driver_version = 12040
///   [cuda]    driver_version = 12040          device_count = 2
///   [device]  one section per GPU: name, uuid, cc = 9.0, memory_total_bytes,
///             pci_bus_id = 00000000:18:00.0, pci_device_id = 0x233010de, persistence_mode = 1
///   [cublas], [cudnn], [nccl], [nvrtc], [kernel]: the runtime fakes' settings (version = ...,
///             result = wrong makes the library compute a wrong answer that verify must catch)
///             and recorded time series, one value per sample, comma-separated (the last
///             value holds on): gpu_util, mem_util, memory_used_bytes, temperature_c, power_mw,
///             power_limit_mw, sm_clock_mhz, mem_clock_mhz, throttle_reasons, pcie_tx_kbps,
///             pcie_rx_kbps, ecc_uncorrected, retired_single_bit, retired_double_bit,
///             remapped_uncorrectable, processes (a step is
///             "PID:BYTES;PID:BYTES", BYTES "na" for not available, "-" for none). A series
///             the device lacks answers NVML_ERROR_NOT_SUPPORTED. A sample step is one
///             nvmlDeviceGetCount call; [nvml] hang_after_samples = N makes call N+1 hang.
///   [calls]   <symbol>[@<device index>] = <action>, where action is a return code (a number
///             or a name such as NVML_ERROR_DRIVER_NOT_LOADED / CUDA_ERROR_NO_DEVICE),
///             "hang" (never returns) or "crash" (raises SIGSEGV).
///
/// Without the variable, or with an unreadable file, every init call fails with the
/// library's "unknown error" code, so a test that forgot its scenario cannot pass by chance.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fake_driver {

/// "hang": never returns (pause() on POSIX, Sleep(INFINITE) in the Windows DLLs).
[[noreturn]] void hang_forever();

struct Device {
  std::string name;
  std::string uuid;
  int cc_major = 0;
  int cc_minor = 0;
  unsigned long long memory_total_bytes = 0;
  std::string pci_bus_id;
  unsigned pci_device_id = 0;
  int persistence_mode = 0;
  std::map<std::string, std::vector<std::string>> series;
};

struct Scenario {
  bool loaded = false;
  std::map<std::string, std::string> nvml;
  std::map<std::string, std::string> cuda;
  std::vector<Device> devices;
  std::map<std::string, std::string> calls;
  /// Every other section, by name: the runtime libraries' fakes read theirs.
  std::map<std::string, std::map<std::string, std::string>> sections;
};

/// `key` of `section` as text, `fallback` when absent.
std::string setting(const std::string& section, const std::string& key, const std::string& fallback = "");
/// True when the scenario asks `section` to compute a wrong result (result = wrong).
bool wrong_result(const std::string& section);

/// Parsed once per process.
const Scenario& scenario();

/// Applies the [calls] entry for `symbol` (or `symbol@device`): hangs, crashes, or returns
/// the configured code. nullopt when the call should behave normally.
std::optional<int> override_for(const char* symbol, int device = -1);

/// A number, or an error name from the table the fakes know; `fallback` for anything else.
int code_from_text(const std::string& text, int fallback);

}  // namespace fake_driver
