#pragma once
/// The transports NCCL chose, read from its own NCCL_DEBUG=INFO output: every connection it
/// sets up prints one "Channel ... via KIND" line (NVIDIA/nccl src/transport/p2p.cc, shm.cc,
/// net.cc), e.g.
///   host:1234:1240 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC
///   host:1234:1240 [0] NCCL INFO Channel 02/0 : 0[0] -> 1[1] via P2P/CUMEM/read
///   host:1234:1240 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [send] via NET/IB/0/GDRDMA
///   host:1234:1240 [0] NCCL INFO Channel 00 : 0[18000] -> 1[2a000] via SHM/direct/direct
///   host:1234:1240 [0] NCCL INFO Channel 01/0 : 3[0] -> 0[0] [receive] via NET/Socket/1
/// Pure text in, counts out: no NCCL needed, so the parse is unit-tested on these formats.
#include <map>
#include <string>
#include <string_view>

#include "model/nccl_links.hpp"

namespace gpudoctor::gpu {

struct NcclTransports {
  /// Connections per kind (model/nccl_links.hpp's names; a plugin's as "network plugin NET/<name>").
  std::map<std::string, int> connections;
  bool gpu_direct_rdma = false;  ///< a NET connection said /GDRDMA
  /// The slowest kind seen (sockets before plugins before InfiniBand before SHM before P2P),
  /// "" when no connection line was found.
  std::string slowest;
};

/// Reads NCCL's debug output (any number of lines, other lines ignored; at most 64 MiB looked at).
NcclTransports parse_nccl_transports(std::string_view log);

}  // namespace gpudoctor::gpu
