#include "gpu/gpu_topology.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "gpu/bench_math.hpp"
#include "gpu/nvml_api.hpp"

namespace gpudoctor::gpu {

std::string bus_id_of(int domain, int bus, int device) {
  if (domain < 0 || bus < 0 || bus > 0xFF || device < 0 || device > 0x1F) return "";
  char text[32];
  std::snprintf(text, sizeof text, "%04x:%02x:%02x", static_cast<unsigned>(domain) & 0xFFFFU,
                static_cast<unsigned>(bus), static_cast<unsigned>(device));
  return text;
}

std::string normalize_bus_id(const std::string& text) {
  unsigned domain = 0;
  unsigned bus = 0;
  unsigned device = 0;
  int used = 0;
  if (text.size() > 40 || std::sscanf(text.c_str(), "%x:%x:%x%n", &domain, &bus, &device, &used) != 3) return "";
  return bus_id_of(static_cast<int>(domain & 0xFFFFU), static_cast<int>(bus), static_cast<int>(device));
}

std::string topology_level_text(int level) {
  switch (level) {
    case 0:   // NVML_TOPOLOGY_INTERNAL: two GPUs on one board, behind its own switch
    case 10:  // NVML_TOPOLOGY_SINGLE
      return "PIX";
    case 20:
      return "PXB";
    case 30:
      return "PHB";
    case 40:
      return "NODE";
    case 50:
      return "SYS";
    default:
      return "?";
  }
}

std::string p2p_status_text(int status) {
  static const char* const kNames[] = {"OK", "CNS", "GNS", "TNS", "DIS", "NS", "U"};
  return status >= 0 && status < 7 ? kNames[status] : "U";
}

namespace {

struct NvLink {
  std::string remote;  ///< normalized bus id of the far end
  unsigned version = 0;
};

/// NVML's own PCI bus id of `device`, normalized; "" when NVML cannot say.
std::string nvml_bus_id(const NvmlApi& api, nvmlDevice_t device) {
  if (api.device_pci_info == nullptr) return "";
  nvmlPciInfo_t pci{};
  if (api.device_pci_info(device, &pci) != kNvmlSuccess) return "";
  pci.busId[sizeof pci.busId - 1] = '\0';
  pci.busIdLegacy[sizeof pci.busIdLegacy - 1] = '\0';
  return normalize_bus_id(pci.busId[0] != '\0' ? pci.busId : pci.busIdLegacy);
}

std::string gbps_text(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

PcieLink max_pcie_link(const NvmlApi& api, nvmlDevice_t device) {
  PcieLink link;
  if (device == nullptr || api.device_max_pcie_gen == nullptr || api.device_max_pcie_width == nullptr ||
      api.device_max_pcie_gen(device, &link.gen) != kNvmlSuccess ||
      api.device_max_pcie_width(device, &link.width) != kNvmlSuccess) {
    return {};
  }
  link.gbps = pcie_link_gbps(link.gen, link.width);
  return link;
}

}  // namespace

std::string pcie_link_text(const PcieLink& link) {
  return "PCIe gen " + std::to_string(link.gen) + " x" + std::to_string(link.width) + " (" + gbps_text(link.gbps) +
         " GB/s one way)";
}

PcieLink read_max_pcie_link(const std::vector<std::string>& nvml_names, const std::string& bus_id) {
  auto loaded = load_nvml(nvml_names);
  unsigned all = 0;
  if (bus_id.empty() || !loaded || loaded->init() != kNvmlSuccess || loaded->device_count(&all) != kNvmlSuccess)
    return {};
  for (unsigned k = 0; k < std::min(all, 64U); ++k) {
    nvmlDevice_t device = nullptr;
    if (loaded->device_handle_by_index(k, &device) == kNvmlSuccess && nvml_bus_id(*loaded, device) == bus_id)
      return max_pcie_link(*loaded, device);
  }
  return {};
}

BenchTopology read_gpu_topology(const std::vector<std::string>& nvml_names,
                                const std::vector<std::string>& cuda_bus_ids,
                                const std::function<void(const char*)>& call) {
  BenchTopology t;
  const size_t count = cuda_bus_ids.size();
  call("dlopen NVML");
  auto loaded = load_nvml(nvml_names);
  if (!loaded) {
    t.note = "no topology matrix: NVML: " + loaded.error().message;
    return t;
  }
  const NvmlApi& api = *loaded;
  unsigned all = 0;
  call("nvmlInit_v2");
  if (int rc = api.init(); rc != kNvmlSuccess) {
    t.note = "no topology matrix: nvmlInit: " + nvml_error_name(rc);
    return t;
  }
  call("nvmlDeviceGetCount_v2");
  if (int rc = api.device_count(&all); rc != kNvmlSuccess || all == 0) {
    t.note = "no topology matrix: nvmlDeviceGetCount: " + (rc != kNvmlSuccess ? nvml_error_name(rc) : "no device");
    return t;
  }
  all = std::min(all, 64U);
  std::vector<nvmlDevice_t> devices(all, nullptr);
  std::vector<std::string> buses(all);
  call("nvmlDeviceGetPciInfo_v3");
  for (unsigned k = 0; k < all; ++k) {
    if (api.device_handle_by_index(k, &devices[k]) == kNvmlSuccess) buses[k] = nvml_bus_id(api, devices[k]);
  }
  // Which NVML device each CUDA ordinal is: by bus id, since CUDA orders devices fastest first.
  std::vector<unsigned> nv(count, 0);
  bool matched = true;
  for (size_t d = 0; d < count && matched; ++d) {
    auto it = cuda_bus_ids[d].empty() ? buses.end() : std::find(buses.begin(), buses.end(), cuda_bus_ids[d]);
    matched = it != buses.end();
    if (matched) nv[d] = static_cast<unsigned>(it - buses.begin());
  }
  if (matched) {
    t.note = "CUDA ordinals matched to NVML's devices by PCI bus id";
  } else if (all >= count) {
    for (size_t d = 0; d < count; ++d) nv[d] = static_cast<unsigned>(d);
    t.note =
        "CUDA's PCI bus ids did not all match NVML's: NVML's order assumed (CUDA_DEVICE_ORDER=PCI_BUS_ID makes them "
        "agree)";
  } else {
    t.note = "no topology matrix: NVML sees " + std::to_string(all) + " GPU(s), CUDA " + std::to_string(count);
    return t;
  }
  // Each device's active NVLinks and where they go (a bus id that is no GPU is an NVSwitch).
  std::vector<std::vector<NvLink>> links(all);
  if (api.device_nvlink_state != nullptr && api.device_nvlink_remote_pci != nullptr) {
    call("nvmlDeviceGetNvLinkState");
    for (unsigned k = 0; k < all; ++k) {
      for (unsigned l = 0; l < kNvmlNvlinkMaxLinks && devices[k] != nullptr; ++l) {
        nvmlEnableState_t active = 0;
        nvmlPciInfo_t pci{};
        if (api.device_nvlink_state(devices[k], l, &active) != kNvmlSuccess || active != 1 ||
            api.device_nvlink_remote_pci(devices[k], l, &pci) != kNvmlSuccess) {
          continue;
        }
        pci.busId[sizeof pci.busId - 1] = '\0';
        NvLink link{.remote = normalize_bus_id(pci.busId), .version = 0};
        if (api.device_nvlink_version != nullptr) (void)api.device_nvlink_version(devices[k], l, &link.version);
        links[k].push_back(std::move(link));
      }
    }
  }
  auto is_gpu = [&](const std::string& bus) { return std::find(buses.begin(), buses.end(), bus) != buses.end(); };
  call("nvmlDeviceGetTopologyCommonAncestor");
  t.bus_ids.resize(count);
  t.links.assign(count, std::vector<std::string>(count, "?"));
  t.p2p_read.assign(count, std::vector<std::string>(count, "U"));
  t.link_gbps.assign(count, std::vector<double>(count, 0.0));
  t.link_basis.assign(count, std::vector<std::string>(count, ""));
  for (size_t i = 0; i < count; ++i) {
    t.bus_ids[i] = buses[nv[i]];
    for (size_t j = 0; j < count; ++j) {
      if (i == j) {
        t.links[i][j] = t.p2p_read[i][j] = "X";
        continue;
      }
      nvmlDevice_t a = devices[nv[i]];
      nvmlDevice_t b = devices[nv[j]];
      int direct = 0;
      int switch_a = 0;
      int switch_b = 0;
      unsigned direct_version = 0;
      unsigned switch_version = 0;
      for (const NvLink& l : links[nv[i]]) {
        if (l.remote == buses[nv[j]]) ++direct, direct_version = l.version;
        if (!is_gpu(l.remote)) ++switch_a, switch_version = l.version;
      }
      for (const NvLink& l : links[nv[j]]) switch_b += is_gpu(l.remote) ? 0 : 1;
      const int bonded = direct > 0 ? direct : std::min(switch_a, switch_b);
      const unsigned version = direct > 0 ? direct_version : switch_version;
      if (bonded > 0) {
        t.links[i][j] = "NV" + std::to_string(bonded);
        int cc_major = 0;
        int cc_minor = 0;
        if (api.device_compute_capability == nullptr || a == nullptr ||
            api.device_compute_capability(a, &cc_major, &cc_minor) != kNvmlSuccess) {
          cc_major = cc_minor = 0;
        }
        const double per_link = nvlink_gbps_per_link(version, cc_major, cc_minor);
        const std::string generation = nvlink_version_name(version);
        t.link_gbps[i][j] = bonded * per_link;
        t.link_basis[i][j] = std::to_string(bonded) + " NVLink" +
                             (!generation.empty() ? " " + generation
                              : version > 0       ? " (NVML version " + std::to_string(version) + ")"
                                                  : std::string()) +
                             " link(s)" + (direct > 0 ? "" : " through NVSwitch") +
                             (per_link > 0 ? " x " + gbps_text(per_link) + " GB/s one way"
                                           : ": no per-link rate known for this NVLink version");
      } else {
        int level = -1;
        if (api.device_common_ancestor != nullptr && a != nullptr && b != nullptr &&
            api.device_common_ancestor(a, b, &level) != kNvmlSuccess) {
          level = -1;
        }
        t.links[i][j] = topology_level_text(level);
        const PcieLink la = max_pcie_link(api, a);
        const PcieLink lb = max_pcie_link(api, b);
        if (la.gbps > 0 && lb.gbps > 0) {
          const PcieLink& slower = la.gbps <= lb.gbps ? la : lb;
          t.link_gbps[i][j] = slower.gbps;
          t.link_basis[i][j] = "PCIe gen " + std::to_string(slower.gen) + " x" + std::to_string(slower.width) +
                               " (the slower GPU's link, " + gbps_text(slower.gbps) + " GB/s one way)";
        }
      }
      int status = -1;
      if (api.device_p2p_status != nullptr && a != nullptr && b != nullptr &&
          api.device_p2p_status(a, b, kNvmlP2pCapsIndexRead, &status) == kNvmlSuccess) {
        t.p2p_read[i][j] = p2p_status_text(status);
      }
    }
  }
  return t;
}

}  // namespace gpudoctor::gpu
