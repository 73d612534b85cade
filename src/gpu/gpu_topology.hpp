#pragma once
/// The GPUs' topology matrix for bench (what `nvidia-smi topo -m` prints), read from NVML in the
/// multi-GPU bench child: NVLinks between each pair (or through NVSwitch), else the closest
/// common PCIe ancestor, NVML's P2P read status, and what each link allows one way.
#include <functional>
#include <string>
#include <vector>

#include "model/bench_report.hpp"

namespace gpudoctor::gpu {

/// "0000:18:00" from "00000000:18:00.0", "0000:18:00.0" or (domain, bus, device); "" for junk.
std::string normalize_bus_id(const std::string& text);
std::string bus_id_of(int domain, int bus, int device);

/// NVML_TOPOLOGY_* as nvidia-smi prints it: 0 and 10 "PIX", 20 "PXB", 30 "PHB", 40 "NODE", 50 "SYS".
std::string topology_level_text(int level);
/// nvmlGpuP2PStatus_t as nvidia-smi topo -p2p prints it: "OK", "CNS", "GNS", "TNS", "DIS", "NS", "U".
std::string p2p_status_text(int status);

/// A GPU's maximum PCIe link as NVML reports it ("possible with this device and system": a gen 4
/// card in a gen 3 slot is gen 3; nvmlDeviceGetMaxPcieLinkGeneration/Width), and what it allows
/// one way after encoding (pcie_link_gbps); zeros when unknown.
struct PcieLink {
  unsigned gen = 0;
  unsigned width = 0;
  double gbps = 0;
};
/// That link of the GPU at `bus_id` (normalize_bus_id's form), read through a fresh NVML; zeros
/// when NVML is missing or no GPU has that bus id.
PcieLink read_max_pcie_link(const std::vector<std::string>& nvml_names, const std::string& bus_id);
/// "PCIe gen 4 x16 (31.51 GB/s one way)".
std::string pcie_link_text(const PcieLink& link);

/// The topology of CUDA ordinals 0..n-1, `cuda_bus_ids[d]` each ordinal's bus id ("" when CUDA did
/// not say; then NVML's order is assumed and the note says so). `call` names each NVML call first
/// (the child's progress line). With no NVML, the matrix is empty and the note says why.
BenchTopology read_gpu_topology(const std::vector<std::string>& nvml_names,
                                const std::vector<std::string>& cuda_bus_ids,
                                const std::function<void(const char*)>& call);

}  // namespace gpudoctor::gpu
