#include "gpu/nccl_debug_log.hpp"

namespace gpudoctor::gpu {
namespace {

/// The kind of one "via ..." text, and whether it used GPUDirect RDMA.
std::string kind_of(std::string_view via, bool& gdr) {
  if (via.starts_with("P2P/")) return kNcclP2p;
  if (via.starts_with("SHM/")) return kNcclShm;
  if (via.starts_with("NET/")) {
    std::string_view rest = via.substr(4);
    std::string_view name = rest.substr(0, rest.find('/'));
    gdr = gdr || rest.find("/GDRDMA") != std::string_view::npos;
    if (name == "IB") return kNcclInfiniBand;
    if (name == "Socket") return kNcclSocket;
    // A net plugin (AWS Libfabric, ...): its own name, printable characters only.
    std::string shown;
    for (char c : name.substr(0, 40)) shown += (c >= 0x20 && c < 0x7f) ? c : '?';
    return std::string(kNcclNetPlugin) + " NET/" + shown;
  }
  return {};
}

}  // namespace

NcclTransports parse_nccl_transports(std::string_view log) {
  NcclTransports t;
  log = log.substr(0, 64U << 20);
  while (!log.empty()) {
    size_t nl = log.find('\n');
    std::string_view line = log.substr(0, nl);
    log.remove_prefix(nl == std::string_view::npos ? log.size() : nl + 1);
    size_t info = line.find("NCCL INFO Channel ");
    if (info == std::string_view::npos) continue;
    size_t via = line.find(" via ", info);
    if (via == std::string_view::npos || line.find(" -> ", info) > via) continue;
    std::string kind = kind_of(line.substr(via + 5), t.gpu_direct_rdma);
    if (kind.empty()) continue;
    ++t.connections[kind];
  }
  for (const auto& [kind, n] : t.connections) {
    if (t.slowest.empty() || nccl_link_order(kind) < nccl_link_order(t.slowest)) t.slowest = kind;
  }
  return t;
}

}  // namespace gpudoctor::gpu
