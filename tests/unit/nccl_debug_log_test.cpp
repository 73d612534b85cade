// The transports NCCL chose, from its NCCL_DEBUG=INFO lines (gpu/nccl_debug_log.hpp). The lines
// follow the INFO formats in NVIDIA/nccl: src/transport/p2p.cc ("via P2P/%s%s%s", CUMEM or
// MNNVL, "/read", "/CE"; legacy "via P2P/IPC"), shm.cc ("Channel %02d : %d[%d] -> %d[%d] via
// SHM/%s/%s"), net.cc ("Channel %02d/%d : %d[%d] -> %d[%d] [send] via NET/%s/%d%s%s%s", the
// net's name, the device, "/GDRDMA", "/Shared"), with the "host:pid:tid [dev] NCCL INFO" prefix.
#include "gpu/nccl_debug_log.hpp"

#include <gtest/gtest.h>

namespace gpudoctor::gpu {
namespace {

TEST(NcclDebugLog, OneNodeOverNvlinkIsPeerToPeer) {
  auto t = parse_nccl_transports(
      "node1:2339:3738 [1] NCCL INFO Channel 14/0 : 1[1] -> 0[0] via P2P/IPC\n"
      "node1:2339:3738 [1] NCCL INFO Channel 15/0 : 1[1] -> 0[0] via P2P/CUMEM/read\n"
      "node1:2339:3738 [1] NCCL INFO Connected all rings, use ring PXN 0 GDR 1\n"
      "node1:2339:3738 [1] NCCL INFO comm 0x79ec210 rank 0 nranks 2 cudaDev 0 busId 7000 - Init COMPLETE\n");
  EXPECT_EQ(t.connections.at(kNcclP2p), 2);
  EXPECT_EQ(t.slowest, kNcclP2p);
  EXPECT_FALSE(t.gpu_direct_rdma);
}

TEST(NcclDebugLog, TheSlowestLinkNamesTheFleet) {
  auto t = parse_nccl_transports(
      "a:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM\n"
      "a:1:1 [0] NCCL INFO Channel 00/0 : 1[0] -> 2[0] [send] via NET/IB/0/GDRDMA\n"
      "a:1:1 [0] NCCL INFO Channel 01/0 : 3[0] -> 0[0] [receive] via NET/IB/1/GDRDMA/Shared\n"
      "a:1:1 [0] NCCL INFO Channel 00 : 0[18000] -> 1[2a000] via SHM/direct/direct\n");
  EXPECT_EQ(t.connections.at(kNcclInfiniBand), 2);
  EXPECT_EQ(t.connections.at(kNcclShm), 1);
  EXPECT_TRUE(t.gpu_direct_rdma);
  EXPECT_EQ(t.slowest, kNcclInfiniBand);
  t = parse_nccl_transports(
      "b:7:7 [0] NCCL INFO Channel 00/0 : 2[0] -> 3[0] [send] via NET/IB/0\n"
      "b:7:7 [0] NCCL INFO Channel 01/0 : 3[0] -> 0[0] [receive] via NET/Socket/1\n");
  EXPECT_EQ(t.slowest, kNcclSocket) << "one socket link is the fleet's slowest";
  EXPECT_FALSE(t.gpu_direct_rdma);
}

TEST(NcclDebugLog, APluginIsNamedAndJunkIsIgnored) {
  auto t = parse_nccl_transports(
      "c:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/AWS Libfabric/0/GDRDMA\n"
      "c:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/\x1b[31mEvil/0\n"
      "NCCL INFO Channel without an arrow via P2P/IPC\n"
      "c:1:1 [0] NCCL WARN Channel 00/0 : 0[0] -> 1[0] via NET/Socket/0\n"
      "\xff\xfe garbage\n");
  EXPECT_EQ(t.connections.at("network plugin NET/AWS Libfabric"), 1);
  EXPECT_EQ(t.connections.at("network plugin NET/?[31mEvil"), 1) << "control characters are not passed on";
  EXPECT_EQ(t.connections.count(kNcclP2p), 0u);
  EXPECT_EQ(t.connections.count(kNcclSocket), 0u) << "a WARN line is not a connection";
  EXPECT_EQ(t.slowest.rfind(kNcclNetPlugin, 0), 0u);
  EXPECT_TRUE(parse_nccl_transports("").slowest.empty());
}

}  // namespace
}  // namespace gpudoctor::gpu
