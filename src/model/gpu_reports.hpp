#pragma once
/// What the driver's libraries said when asked in a child (gpu/driver_query.hpp, the GPU
/// agent): plain data, so that probes read it, the JSON codec carries it between processes
/// and machines (model/json_codec.hpp), and the coming verify and watch report it.
///
/// Status vocabulary: LibraryStatus (gpu/driver_query.hpp says what each means).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace gpudoctor {

/// How asking a vendor library went; in JSON by these names ("" for none).
enum class LibraryStatus {
  none,         ///< not asked (yet)
  ok,           ///< "ok"
  not_found,    ///< "not-found": no such library on the loader's path
  load_failed,  ///< "load-failed": found but refused, or a required entry point missing
  init_failed,  ///< "init-failed": initialisation or enumeration returned an error
  timeout,      ///< "timeout": the child was killed at its deadline
  crashed,      ///< "crashed": the child died, or answered junk
  skipped,      ///< "skipped": not asked on purpose (the doctor under --root)
};
const char* to_string(LibraryStatus s);
/// The status of that name; none for any other text (another process's answer is untrusted).
LibraryStatus parse_library_status(std::string_view name);

/// Which exported name filled a slot ("init" <- "nvmlInit"): tells an old driver from a new.
struct BoundSymbol {
  std::string slot;
  std::string symbol;
};

struct GpuDeviceReport {
  unsigned index = 0;
  std::string name;
  std::string uuid;
  std::string pci_bus_id;     ///< "0000:18:00.0": NVML's 8-digit domain cut to sysfs' 4, lower-case
  std::string pci_device_id;  ///< "2330": hex, lower-case, no 0x
  std::optional<int> cc_major;
  std::optional<int> cc_minor;
  std::optional<std::uint64_t> memory_total_bytes;
  std::optional<bool> persistence_mode;
  /// Memory health, where the GPU has ECC (NVML answers "not supported" elsewhere).
  std::optional<std::uint64_t> ecc_uncorrected_volatile;  ///< uncorrected ECC errors since the driver loaded
  std::optional<unsigned> retired_pages;                  ///< pages retired, single- and double-bit causes
};

struct LibraryReport {
  LibraryStatus status = LibraryStatus::none;
  std::string error;  ///< why status is not "ok", in words with the call and code names
  /// What kind of failure (by its name in JSON, "" when none).
  std::optional<ErrorKind> error_kind;
  int code = 0;                         ///< nvmlReturn_t / CUresult / signal / errno of the failure, 0 if none
  std::string path;                     ///< absolute path of the library actually loaded
  std::vector<BoundSymbol> bound;       ///< which exported name filled each slot
  std::vector<std::string> problems;    ///< non-fatal failures of single calls, in words
  std::string last_call;                ///< the vendor call in progress when the child stopped
  std::optional<unsigned> last_device;  ///< the device that call was about, where it was about one
};

struct NvmlReport : LibraryReport {
  std::string driver_version;              ///< "550.54.15"
  std::optional<int> cuda_driver_version;  ///< 12040 = CUDA 12.4
  std::optional<unsigned> device_count;
  std::vector<GpuDeviceReport> devices;
};

struct CudaDriverReport : LibraryReport {
  std::optional<int> driver_version;  ///< cuDriverGetVersion: 12040 = CUDA 12.4
  std::optional<int> device_count;
};

}  // namespace gpudoctor
