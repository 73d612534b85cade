#pragma once
/// The kinds of link NCCL can choose between two ranks, as gpudoctor names them (read from
/// NCCL's INFO lines by gpu/nccl_debug_log.hpp, compared across a fleet by
/// check/fleet_compare.hpp), and their order from slowest to fastest.
#include <array>
#include <string_view>

namespace gpudoctor {

inline constexpr const char* kNcclSocket = "sockets (NET/Socket)";
inline constexpr const char* kNcclNetPlugin = "network plugin";  ///< NET/<name> other than IB and Socket
inline constexpr const char* kNcclInfiniBand = "InfiniBand (NET/IB)";
inline constexpr const char* kNcclShm = "shared memory (SHM)";
inline constexpr const char* kNcclP2p = "NVLink or PCIe peer-to-peer (P2P)";

/// 0 for the slowest kind (sockets) up to 4 (P2P); 5 for text that is none of them.
inline int nccl_link_order(std::string_view kind) {
  constexpr std::array<const char*, 5> kOrder{kNcclSocket, kNcclNetPlugin, kNcclInfiniBand, kNcclShm, kNcclP2p};
  for (size_t i = 0; i < kOrder.size(); ++i) {
    if (kind.starts_with(kOrder[i])) return static_cast<int>(i);
  }
  return static_cast<int>(kOrder.size());
}

}  // namespace gpudoctor
