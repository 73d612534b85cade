// A fake libnccl.so.2 and libnvrtc.so.13 (GPUDOCTOR_FAKE_NVRTC) for verify's tests. NCCL:
// ncclCommInitAll gives one communicator per device; the all-reduces of a group are summed
// at ncclGroupEnd across every rank's buffer. [nccl] version = N, result = wrong;
// [nvrtc] major, minor.
// Across processes (fleet --nccl): ncclGetUniqueId makes an id naming a fresh directory under
// $TMPDIR; ncclCommInitRank joins it; an all-reduce over such communicators is really summed
// across the processes, each writing its buffer there and reading the others' (30 s at most).
// With NCCL_DEBUG=INFO, ncclCommInitRank writes NCCL's own "Channel ... via ..." INFO lines
// (to NCCL_DEBUG_FILE, else stdout) at the group's end: P2P/IPC to a rank of the same process,
// else NET/<[nccl] net, default Socket>/0.
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "fake_runtime.hpp"

namespace {

constexpr int kSuccess = 0;
constexpr int kInvalidArgument = 4;
constexpr int kInvalidUsage = 5;
constexpr int kSystemError = 2;
constexpr int kRemoteError = 6;

}  // namespace

#ifdef GPUDOCTOR_FAKE_NVRTC
FAKE_API int nvrtcVersion(int* major, int* minor) {
  FAKE_CALL("nvrtcVersion");
  *major = static_cast<int>(fake_driver::number("nvrtc", "major", 13));
  *minor = static_cast<int>(fake_driver::number("nvrtc", "minor", 0));
  return kSuccess;
}
#else
namespace {

struct Pending {
  const float* send;
  float* recv;
  size_t count;
  int rank = -1;  ///< in a communicator across processes (ncclCommInitRank), else -1
};
std::vector<Pending> g_group;
bool g_in_group = false;
int g_ranks[64];

/// A communicator of ncclCommInitRank: its place, and the directory its processes share.
struct RankComm {
  int rank = 0;
  int nranks = 0;
  std::string dir;
};
RankComm g_rank_comms[64];
int g_rank_comm_count = 0;
std::string g_shared_dir;
long g_round = 0;

bool write_file(const std::string& path, const void* data, size_t n) {
  std::string tmp = path + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) return false;
  bool ok = std::fwrite(data, 1, n, f) == n;
  ok = std::fclose(f) == 0 && ok;
  return ok && std::rename(tmp.c_str(), path.c_str()) == 0;  // whole or absent for the readers
}

/// One all-reduce round across processes: each rank's send buffer to a file, then every
/// rank's file read and summed. false after 30 s without every rank.
bool reduce_across_processes() {
  ++g_round;
  int nranks = g_rank_comms[0].nranks;
  size_t count = g_group.front().count;
  for (const Pending& p : g_group) {
    if (!write_file(g_shared_dir + "/" + std::to_string(g_round) + "." + std::to_string(p.rank), p.send,
                    count * sizeof(float))) {
      return false;
    }
  }
  std::vector<float> sum(count, 0.0F);
  std::vector<float> theirs(count);
  auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (int r = 0; r < nranks; ++r) {
    std::string path = g_shared_dir + "/" + std::to_string(g_round) + "." + std::to_string(r);
    for (;;) {
      std::ifstream in(path, std::ios::binary);
      if (in && in.read(reinterpret_cast<char*>(theirs.data()), static_cast<std::streamsize>(count * sizeof(float))))
        break;
      if (std::chrono::steady_clock::now() > give_up) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    for (size_t i = 0; i < count; ++i) sum[i] += theirs[i];
  }
  for (const Pending& p : g_group) std::memcpy(p.recv, sum.data(), count * sizeof(float));
  g_group.clear();
  return true;
}

/// NCCL's INFO lines for the communicators joined since the last call (at ncclGroupEnd, when
/// every rank of this process is known): P2P/IPC to a rank of this process, NET otherwise.
int g_rank_comms_logged = 0;
void log_connections() {
  const char* debug = std::getenv("NCCL_DEBUG");
  if (debug == nullptr || std::strcmp(debug, "INFO") != 0) {
    g_rank_comms_logged = g_rank_comm_count;
    return;
  }
  const char* file = std::getenv("NCCL_DEBUG_FILE");
  std::FILE* out = file != nullptr ? std::fopen(file, "a") : stdout;
  if (out == nullptr) return;
  char host[64] = {};
  ::gethostname(host, sizeof host - 1);
  std::string net = fake_driver::setting("nccl", "net", "Socket");
  for (; g_rank_comms_logged < g_rank_comm_count; ++g_rank_comms_logged) {
    const RankComm& c = g_rank_comms[g_rank_comms_logged];
    if (c.nranks < 2) continue;
    int next = (c.rank + 1) % c.nranks;
    bool local = false;
    for (int i = 0; i < g_rank_comm_count; ++i) local = local || g_rank_comms[i].rank == next;
    for (int channel = 0; channel < 2; ++channel) {
      if (local) {
        std::fprintf(out, "%s:%d:%d [%d] NCCL INFO Channel %02d/0 : %d[%d] -> %d[%d] via P2P/IPC\n", host, ::getpid(),
                     ::getpid(), c.rank, channel, c.rank, c.rank, next, next);
      } else {
        std::fprintf(out, "%s:%d:%d [%d] NCCL INFO Channel %02d/0 : %d[%d] -> %d[%d] [send] via NET/%s/0\n", host,
                     ::getpid(), ::getpid(), c.rank, channel, c.rank, 0, next, 0, net.c_str());
      }
    }
    std::fprintf(out, "%s:%d:%d [%d] NCCL INFO Connected all rings\n", host, ::getpid(), ::getpid(), c.rank);
  }
  if (out != stdout) std::fclose(out);
}

void reduce_all() {
  for (size_t i = 0; !g_group.empty() && i < g_group.front().count; ++i) {
    float sum = 0;
    for (const Pending& p : g_group) sum += p.send[i];
    for (const Pending& p : g_group) p.recv[i] = sum;
  }
  if (fake_driver::wrong_result("nccl") && !g_group.empty() && g_group.back().count > 1) g_group.back().recv[1] += 1;
  g_group.clear();
}

}  // namespace

FAKE_API int ncclGetVersion(int* version) {
  FAKE_CALL("ncclGetVersion");
  *version = static_cast<int>(fake_driver::number("nccl", "version", 22809));
  return kSuccess;
}
FAKE_API const char* ncclGetErrorString(int result) {
  return result == kInvalidArgument ? "invalid argument (run with NCCL_DEBUG=WARN for details)" : "unhandled error";
}
FAKE_API int ncclCommInitAll(void** comms, int count, const int* devices) {
  FAKE_CALL("ncclCommInitAll");
  if (count <= 0 || count > 64) return kInvalidArgument;
  for (int i = 0; i < count; ++i) {
    g_ranks[i] = devices != nullptr ? devices[i] : i;
    comms[i] = &g_ranks[i];
  }
  return kSuccess;
}
FAKE_API int ncclGroupStart() {
  FAKE_CALL("ncclGroupStart");
  g_in_group = true;
  return kSuccess;
}
FAKE_API int ncclGroupEnd() {
  FAKE_CALL("ncclGroupEnd");
  if (!g_in_group) return kInvalidUsage;
  g_in_group = false;
  if (g_rank_comms_logged < g_rank_comm_count) log_connections();
  if (!g_group.empty() && g_group.front().rank >= 0) return reduce_across_processes() ? kSuccess : kRemoteError;
  reduce_all();
  return kSuccess;
}
FAKE_API int ncclAllReduce(const void* send, void* recv, size_t count, int type, int op, void* comm, void*) {
  FAKE_CALL("ncclAllReduce");
  if (type != 7 || op != 0 || comm == nullptr) return kInvalidArgument;  // ncclFloat32, ncclSum
  int rank = -1;
  for (int i = 0; i < g_rank_comm_count; ++i) {
    if (comm == &g_rank_comms[i]) rank = g_rank_comms[i].rank;
  }
  g_group.push_back({fake_driver::host<const float>(send), fake_driver::host<float>(recv), count, rank});
  if (!g_in_group) {
    if (rank >= 0) return reduce_across_processes() ? kSuccess : kRemoteError;
    reduce_all();
  }
  return kSuccess;
}

struct FakeUniqueId {
  char internal[128];
};

FAKE_API int ncclGetUniqueId(FakeUniqueId* id) {
  FAKE_CALL("ncclGetUniqueId");
  if (id == nullptr) return kInvalidArgument;
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/fake-nccl-XXXXXX";
  if (dir.size() >= sizeof id->internal || ::mkdtemp(dir.data()) == nullptr) return kSystemError;
  std::memset(id->internal, 0, sizeof id->internal);
  std::memcpy(id->internal, dir.data(), dir.size());
  return kSuccess;
}

FAKE_API int ncclCommInitRank(void** comm, int nranks, FakeUniqueId id, int rank) {
  FAKE_CALL("ncclCommInitRank");
  if (comm == nullptr || nranks < 1 || rank < 0 || rank >= nranks || g_rank_comm_count == 64) return kInvalidArgument;
  std::string dir(id.internal, ::strnlen(id.internal, sizeof id.internal));
  if (dir.empty() || ::access(dir.c_str(), W_OK) != 0) return kInvalidArgument;  // not an id of ours
  g_shared_dir = dir;
  RankComm& c = g_rank_comms[g_rank_comm_count++];
  c = {rank, nranks, dir};
  *comm = &c;
  return kSuccess;
}
#endif
