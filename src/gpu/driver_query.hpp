#pragma once
/// What NVML and libcuda say on the live machine, asked in isolated child processes
/// (isolated_child.hpp) with one deadline for both. The reports are model types; the probe
/// (probe/driver_runtime_probe.cpp) turns them into DriverFacts and GpuFacts.
///
/// Status vocabulary (as DriverFacts::nvml_status): "ok", "not-found" (no such library on
/// the loader's path), "load-failed" (found but refused, or a required entry point missing),
/// "init-failed" (nvmlInit / cuInit, or device enumeration, returned an error: `error` names
/// the call and the code, e.g. "NVML_ERROR_DRIVER_NOT_LOADED", so checks can tell "no driver"
/// from "no GPU" from "driver too old"), "timeout", "crashed".
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpu/cuda_driver_api.hpp"
#include "gpu/entry_points.hpp"
#include "gpu/isolated_child.hpp"
#include "gpu/nvml_api.hpp"
#include "model/gpu_reports.hpp"

namespace gpudoctor::gpu {

/// The most GPUs read from NVML or the driver; more is a broken library, not a machine.
inline constexpr unsigned kMaxDevices = 64;

struct DriverQueryOptions {
  /// For NVML and libcuda together (they run side by side). nvmlInit on a large machine with
  /// persistence mode off can take a second or two; a wedged driver takes forever.
  std::chrono::milliseconds deadline{5000};
  std::vector<std::string> nvml_names;  ///< empty: default_nvml_names()
  std::vector<std::string> cuda_names;  ///< empty: default_cuda_driver_names()
};

// The reports are model types (model/gpu_reports.hpp): other layers read and serialise them.
using gpudoctor::CudaDriverReport;
using gpudoctor::GpuDeviceReport;
using gpudoctor::LibraryReport;
using gpudoctor::NvmlReport;

struct DriverRuntimeReport {
  NvmlReport nvml;
  CudaDriverReport cuda;
};

/// Asks both libraries, each in its own child process, at the same time.
DriverRuntimeReport query_driver_runtime(const DriverQueryOptions& options);

/// The libraries a child keeps loaded between queries: one query for a one-shot task, many
/// for the GPU agent (gpu_agent.hpp). The first query's library names win; init runs until
/// it succeeds once.
struct DriverSession {
  std::optional<NvmlApi> nvml;
  bool nvml_initialised = false;
  std::optional<CudaDriverApi> cuda;
  bool cuda_initialised = false;
};

/// One query, lines as the child bodies below write them. args = library names.
void query_nvml(DriverSession& session, const std::vector<std::string>& args, ChildChannel& out);
void query_cuda_driver(DriverSession& session, const std::vector<std::string>& args, ChildChannel& out);

/// The one-shot child bodies (a fresh DriverSession each), run in-process. `out` receives progress lines ({"call":
/// ...}) before every vendor call and the report so far ({"report": ...}) after each step, so a hang or a crash still
/// tells which call it was and what was already known. args = library names.
void nvml_child_body(const std::vector<std::string>& args, ChildChannel& out);
void cuda_child_body(const std::vector<std::string>& args, ChildChannel& out);

/// The parent's side: what a child wrote and how it ended, as a report. A killed or crashed
/// child keeps what it reported before; unreadable output is a crash ("invalid_data" kind).
NvmlReport nvml_report_from_child(const ChildOutcome& outcome);
CudaDriverReport cuda_report_from_child(const ChildOutcome& outcome);

/// The status word for an error kind: timeout -> "timeout", crashed / invalid_data ->
/// "crashed", not_found -> "not-found", load_failed / symbol_missing -> "load-failed",
/// anything else -> "init-failed".
LibraryStatus status_for(ErrorKind kind);

/// "00000000:18:00.0" -> "0000:18:00.0"; lower-case; unrecognised text is returned as is.
std::string normalize_pci_bus_id(std::string_view nvml_bus_id);

}  // namespace gpudoctor::gpu
