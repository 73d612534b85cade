#pragma once
/// The probes, one function per area, each in its own <area>_probe.cpp. Each adds what it
/// finds to Facts and records what it could not read in Facts::problems.
#include <string>
#include <utility>
#include <vector>

#include "model/facts.hpp"
#include "platform/system_view.hpp"
#include "probe/library_dirs.hpp"

namespace gpudoctor {

/// /etc/os-release, kernel, WSL2 markers, container hints.
void probe_os(const SystemView& system, Facts& facts);
/// Kernel driver from files: /proc/driver/nvidia/version, /sys/module/nvidia/version,
/// /proc/modules, PCI devices of vendor 0x10de, libcuda / NVML files on disk.
void probe_driver_files(const SystemView& system, const LoaderPaths& loader, Facts& facts);
/// On the live machine only: NVML and libcuda loaded at run time in a child process with a
/// deadline (gpu/); fills DriverFacts' nvml_* / libcuda_* fields and GPUs.
void probe_driver_runtime(const SystemView& system, Facts& facts);
/// CUDA toolkits, and the cuDNN / NCCL / cuBLAS / TensorRT copies around them.
void probe_toolkits(const SystemView& system, const LoaderPaths& loader, Facts& facts);
void probe_libraries(const SystemView& system, const LoaderPaths& loader, Facts& facts);
/// Where to look for Python environments beyond the standard places (docs/cli.md lists them all).
struct PythonSearch {
  std::vector<std::string> env_dirs;      ///< --env DIR: environment prefixes, searched first
  std::vector<std::string> interpreters;  ///< --python PATH: an interpreter; its prefix is searched
  /// The project folder (the working directory on the live machine; empty for a --root tree):
  /// its .venv, venv and the conda environment its environment.yml names.
  std::string project_dir;
  /// Prefixes the target names itself, with how (a PEP 514 registration in the Windows
  /// registry); a missing one is skipped, not reported (the registration is, by the Windows probe).
  std::vector<std::pair<std::string, std::string>> registered;
};

/// Python environments and the frameworks in them (read from files, never imported).
void probe_python(const SystemView& system, Facts& facts, const PythonSearch& search = PythonSearch{});
/// For each framework's CUDA build (Linux): the CUDA libraries it opens and the file the loader
/// gives it in its environment (FrameworkFacts::loads). Runs after the python probe.
void resolve_framework_libraries(const SystemView& system, const LoaderPaths& loader, Facts& facts);
/// Native Windows: the registry (Windows build, the driver's version and GPUs, PEP 514 Python
/// registrations), the MSVC runtime in System32, py.exe and Microsoft Store Pythons
/// (Facts::windows). Runs before the python probe, which searches the registered Pythons.
void probe_windows(const SystemView& system, Facts& facts);
/// The CUDA toolkits registered under HKLM\SOFTWARE\NVIDIA Corporation\GPU Computing
/// Toolkit\CUDA\v*: (InstallDir, the key it came from).
std::vector<std::pair<std::string, std::string>> registered_cuda_toolkits(const SystemView& system);
/// Native Windows: for each framework's CUDA build, the DLLs it opens, the loader that opens
/// each and what that loader finds (WindowsFacts::dll_loads). Runs after the library probe.
void resolve_windows_dlls(const SystemView& system, Facts& facts);
/// The node's network ports (Linux sysfs): InfiniBand / RoCE HCA ports and Ethernet interfaces
/// backed by a device, with their rate and state (Facts::network).
void probe_network(const SystemView& system, Facts& facts);
/// Environment variables that change GPU behaviour.
void probe_env(const SystemView& system, Facts& facts);

}  // namespace gpudoctor
