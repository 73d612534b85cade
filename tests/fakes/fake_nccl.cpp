// A fake libnccl.so.2 and libnvrtc.so.13 (GPUDOCTOR_FAKE_NVRTC) for verify's tests. NCCL:
// ncclCommInitAll gives one communicator per device; the all-reduces of a group are summed
// at ncclGroupEnd across every rank's buffer. [nccl] version = N, result = wrong;
// [nvrtc] major, minor.
#include <cstring>
#include <vector>

#include "fake_runtime.hpp"

namespace {

constexpr int kSuccess = 0;
constexpr int kInvalidArgument = 4;
constexpr int kInvalidUsage = 5;

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
};
std::vector<Pending> g_group;
bool g_in_group = false;
int g_ranks[64];

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
  reduce_all();
  return kSuccess;
}
FAKE_API int ncclAllReduce(const void* send, void* recv, size_t count, int type, int op, void* comm, void*) {
  FAKE_CALL("ncclAllReduce");
  if (type != 7 || op != 0 || comm == nullptr) return kInvalidArgument;  // ncclFloat32, ncclSum
  g_group.push_back({fake_driver::host<const float>(send), fake_driver::host<float>(recv), count});
  if (!g_in_group) reduce_all();
  return kSuccess;
}
#endif
