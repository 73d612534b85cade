#pragma once
/// The probes, one function per area, each in its own <area>_probe.cpp. Each adds what it
/// finds to Facts and records what it could not read in Facts::problems.
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
/// Python environments and the frameworks in them (read from files, never imported).
void probe_python(const SystemView& system, Facts& facts);
/// Environment variables that change GPU behaviour.
void probe_env(const SystemView& system, Facts& facts);

}  // namespace gpudoctor
