// Session 40 review A: unseen logs from public issue threads (docs: "Unseen logs, session 40
// review A").
// - Jetson/L4T (logs 05, 06): a missing CUDA library in an L4T container or on a JetPack system got
//   x86 advice (reinstall torch from download.pytorch.org/whl/cuXY, nvidia-*-cu12 wheels). The log
//   fact `jetson` (l4t-rXX image tags, /etc/nv_tegra_release, nvidia-l4t-* packages, jetson-*
//   trees) now picks the NVIDIA container runtime answer, or the JetPack-matched wheel.
// - The CUDA 10.x runtime's wording of code 46, "all CUDA-capable devices are busy or unavailable",
//   and PyTorch 1.x's `THCudaCheck FAIL file=... line=N error=NN : text` (log 22).
// - An explicit error name on a line beats another code's message text on it (log 14:
//   `CUDA_ERROR_INVALID_SOURCE: device kernel image is invalid` is the driver's 300, not the
//   runtime's 200), and the 300's answer names what CuPy's users meet.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "explain/explain_session.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;
using testing::leads_without;
using testing::mentions;
using testing::rule_list;
using testing::says_all;
using testing::told;

constexpr std::string_view kReview40aCurandLine =
    "OSError: libcurand.so.10: cannot open shared object file: No such file or directory\n";
constexpr std::string_view kReview40aCudartLine =
    "ImportError: libcudart.so.10.0: cannot open shared object file: No such file or directory\n";

TEST(ExplainReview40A, JetsonContainerMissingCudaLibraryIsTheNvidiaRuntime) {
  const auto r =
      explain_no_facts(std::string("Status: Downloaded newer image for dustynv/ros:noetic-pytorch-l4t-r32.5.0\n"
                                   "root@e22d0ae5ddbc:/# python\n"
                                   ">>> import torch\n"
                                   "  File \"/usr/lib/python3.6/ctypes/__init__.py\", line 348, in __init__\n") +
                       std::string(kReview40aCurandLine));
  ASSERT_TRUE(
      leads_without(r, "cuda-library-missing/jetson-container",
                    {"python-import-cuda-lib-version-missing", "cuda-library-missing", "cuda-library-missing/toolkit"}))
      << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"Jetson", "mounts them from the host"}));
  EXPECT_TRUE(says_all(lead.fix, {"--runtime nvidia", "\"default-runtime\": \"nvidia\"", "/etc/nv_tegra_release"}));
  EXPECT_FALSE(mentions(told(r), "--index-url")) << told(r);
  EXPECT_FALSE(mentions(told(r), "pip install nvidia-")) << told(r);
}

TEST(ExplainReview40A, JetsonWheelForAnotherJetpackGetsTheJetpackWheel) {
  const auto r =
      explain_no_facts(std::string("-- Build files have been written to: /home/rp/jetson-inference/build\n") +
                       std::string(kReview40aCudartLine));
  ASSERT_TRUE(leads_without(r, "cudart-missing/jetson", {"python-import-cuda-lib-version-missing", "cudart-missing"}))
      << told(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"JetPack", "pytorch-for-jetson", "nv_tegra_release"}));
  EXPECT_FALSE(mentions(told(r), "--index-url")) << told(r);
}

TEST(ExplainReview40A, NearMissesWithoutJetsonKeepTheirX86Answers) {
  // The same line on an x86 machine: the wheel-for-another-CUDA answer, with PyTorch's index.
  const auto x86 = explain_no_facts(kReview40aCudartLine);
  ASSERT_TRUE(leads_with(x86, "python-import-cuda-lib-version-missing")) << rule_list(x86);
  EXPECT_TRUE(mentions(x86.matches.front().fix, "--index-url")) << x86.matches.front().fix;
  EXPECT_EQ(find_rule(x86, "cudart-missing/jetson"), nullptr) << rule_list(x86);
  // A container that is not an L4T one: no Jetson answer.
  const auto docker = explain_no_facts(std::string("root@3f2a9c81d0be:/workspace# python -c 'import torch'\n") +
                                       std::string(kReview40aCurandLine));
  ASSERT_TRUE(
      leads_without(docker, "python-import-cuda-lib-version-missing", {"cuda-library-missing/jetson-container"}))
      << told(docker);
  // "l4t" inside another word is not an L4T image.
  const auto word =
      explain_no_facts(std::string("Using cached wheel spl4t-rx-1.0\n") + std::string(kReview40aCurandLine));
  EXPECT_EQ(find_rule(word, "cuda-library-missing/jetson"), nullptr) << rule_list(word);
}

TEST(ExplainReview40A, OldRuntimeWordingOfDevicesBusyIsRecognised) {
  const auto r = explain_no_facts(
      "RuntimeError: CUDA error: all CUDA-capable devices are busy or unavailable\n"
      "CUDA kernel errors might be asynchronously reported at some other API call,so the stacktrace below might be "
      "incorrect.\n"
      "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.\n");
  ASSERT_TRUE(leads_with(r, "cuda-devices-busy")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"compute_mode", "one process per GPU", "set_device"}));
  const auto th = explain_no_facts(
      "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCTensorRandom.cu line=25 error=46 : all CUDA-capable devices are "
      "busy or unavailable\n");
  ASSERT_TRUE(leads_with(th, "cuda-devices-busy")) << rule_list(th);
}

TEST(ExplainReview40A, ThcudacheckErrorNumberNamesTheRuntimeCode) {
  // THCudaCheck's line is read by its message text, not by `error=NN` (a PyTorch built with CUDA
  // 10.0 or older prints the runtime's old numbering: the session 40 re-read), nor by `line=NN`.
  const auto r = explain_no_facts(
      "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCGeneral.cpp line=46 error=12 : invalid pitch argument\n");
  EXPECT_NE(find_rule(r, "code/cudart/cudaErrorInvalidPitchValue"), nullptr) << rule_list(r);
  EXPECT_EQ(find_rule(r, "code/cudart/cudaErrorDevicesUnavailable"), nullptr) << rule_list(r);
  EXPECT_EQ(find_rule(r, "cuda-devices-busy"), nullptr) << rule_list(r);
}

TEST(ExplainReview40A, AnExplicitDriverErrorNameBeatsAnotherCodesMessageText) {
  const auto r = explain_no_facts("CUDA_ERROR_INVALID_SOURCE: device kernel image is invalid\n");
  ASSERT_TRUE(
      leads_without(r, "code/cuda-driver/CUDA_ERROR_INVALID_SOURCE", {"code/cudart/cudaErrorInvalidKernelImage"}))
      << rule_list(r);
  EXPECT_TRUE(says_all(told(r), {"CuPy v11", "show_config", "compatibility matrix"}));
  // Near miss: the runtime's own text after PyTorch's prefix stays the runtime's 200.
  const auto rt = explain_no_facts("RuntimeError: CUDA error: device kernel image is invalid\n");
  ASSERT_TRUE(leads_with(rt, "code/cudart/cudaErrorInvalidKernelImage")) << rule_list(rt);
}

TEST(ExplainReview40A, NumbasOpenCudalibNvvmFrameIsLibnvvmNotFound) {
  const auto r = explain_no_facts(
      "  File \"/home/u/miniconda3/envs/m/lib/python3.8/site-packages/numba/cuda/cudadrv/nvvm.py\", line 139, in "
      "__new__\n"
      "    inst.driver = open_cudalib('nvvm')\n"
      "  File \"/home/u/miniconda3/envs/m/lib/python3.8/site-packages/numba/cuda/cudadrv/libs.py\", line 64, in "
      "open_cudalib\n"
      "    return ctypes.CDLL(path)\n"
      "numba cannot find libnvvm.so <OSError: libnvvm.so: cannot open shared object file: No such file or "
      "directory>\n");
  ASSERT_TRUE(leads_with(r, "numba-libnvvm-not-found")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"CUDA_HOME", "colon-separated"}));
  // The dlerror alone (a log cut after it) is Numba's NVVM too.
  const auto alone =
      explain_no_facts("OSError: libnvvm.so: cannot open shared object file: No such file or directory\n");
  ASSERT_TRUE(leads_with(alone, "numba-libnvvm-not-found")) << rule_list(alone);
  // Near miss: another library's dlerror is not Numba's NVVM.
  const auto nvrtc =
      explain_no_facts("OSError: libnvrtc.so.12: cannot open shared object file: No such file or directory\n");
  EXPECT_EQ(find_rule(nvrtc, "numba-libnvvm-not-found"), nullptr) << rule_list(nvrtc);
}

TEST(ExplainReview40A, OnlyTheUnversionedLibcudaMissingIsNotNoDriver) {
  const auto r = explain_no_facts(
      ">>> cdll.LoadLibrary('libcuda.so.1')\n"
      "<CDLL 'libcuda.so.1', handle 562f22ae4160 at 0x7f74fb662c10>\n"
      ">>> cdll.LoadLibrary('libcuda.so')\n"
      "OSError: libcuda.so: cannot open shared object file: No such file or directory\n");
  ASSERT_TRUE(leads_without(r, "libcuda-unversioned-missing", {"libcuda-missing"})) << told(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"/usr/lib/wsl/lib", "ln -s libcuda.so.1 libcuda.so"}));
  // Near miss: the driver's own soname missing is still "no driver".
  const auto so1 =
      explain_no_facts("OSError: libcuda.so.1: cannot open shared object file: No such file or directory\n");
  ASSERT_TRUE(leads_with(so1, "libcuda-missing")) << rule_list(so1);
}

TEST(ExplainReview40A, NcclSocketOverBridgesLeadsWithSocketIfname) {
  const auto r = explain_no_facts(
      "mars:1034:1034 [0] NCCL INFO Bootstrap : Using bond0:192.168.1.161<0>\n"
      "mars:1034:1034 [0] NCCL INFO NET/Socket : Using [0]bond0:192.168.1.161<0> [1]br-05ab815fa14e:172.19.0.1<0> "
      "[2]veth9026f58:fe80::1<0>\n"
      "mars:1034:1034 [0] NCCL INFO Using network Socket\n"
      "ncclSystemError: System call (socket, malloc, munmap, etc) failed when training on two remote nodes\n");
  ASSERT_TRUE(leads_with(r, "nccl-unhandled-system-error/interfaces")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"NCCL_SOCKET_IFNAME", "Bootstrap : Using"}));
  // Two plain interfaces are an ordinary node (an Ethernet and an InfiniBand port: the session 40
  // re-read); one Docker bridge alone is the bridge reading.
  const auto two = explain_no_facts(
      "n1:1:1 [0] NCCL INFO NET/Socket : Using [0]eno1:10.0.0.2<0> [1]ib0:10.1.0.2<0>\n"
      "ncclSystemError: System call (socket, malloc, munmap, etc) failed.\n");
  ASSERT_TRUE(leads_without(two, "nccl-unhandled-system-error", {"nccl-unhandled-system-error/interfaces"}))
      << rule_list(two);
  const auto bridge = explain_no_facts(
      "n1:1:1 [0] NCCL INFO NET/Socket : Using [0]docker0:172.17.0.1<0>\n"
      "ncclSystemError: System call (socket, malloc, munmap, etc) failed.\n");
  ASSERT_TRUE(leads_with(bridge, "nccl-unhandled-system-error/interfaces")) << rule_list(bridge);
  // Near miss: one interface, no bridge: the rule's own answer leads, as before.
  const auto one = explain_no_facts(
      "n1:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.2<0>\n"
      "ncclSystemError: System call (socket, malloc, munmap, etc) failed.\n");
  ASSERT_TRUE(leads_without(one, "nccl-unhandled-system-error", {"nccl-unhandled-system-error/interfaces"}))
      << told(one);
}

TEST(ExplainReview40A, CaffeCheckFailedInvalidDeviceFunctionIsARebuildForTheArch) {
  const auto r = explain_no_facts(
      "F0225 14:29:46.455771   743 vol2col.cu:75] Check failed: error == cudaSuccess (8 vs. 0)  invalid device "
      "function\n");
  ASSERT_TRUE(leads_with(r, "no-kernel-image/source-build")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"Makefile.config", "CUDA_ARCH := -gencode", "compute_cap"}));
  EXPECT_FALSE(mentions(r.matches.front().fix, "--index-url")) << r.matches.front().fix;
  // Caffe's CUDA_CHECK without glog's prefix, and a fatal glog line from a .cu file.
  const auto check = explain_no_facts("Check failed: error == cudaSuccess (98 vs. 0)  invalid device function\n");
  ASSERT_TRUE(leads_with(check, "no-kernel-image/source-build")) << rule_list(check);
  const auto glog = explain_no_facts("F0412 10:01:02.123456  1234 im2col.cu:61] invalid device function\n");
  ASSERT_TRUE(leads_with(glog, "no-kernel-image/source-build")) << rule_list(glog);
  // Near miss: PyTorch's own line keeps the wheel answer.
  const auto torch =
      explain_no_facts("RuntimeError: CUDA error: no kernel image is available for execution on the device\n");
  ASSERT_TRUE(leads_with(torch, "no-kernel-image")) << rule_list(torch);
}

TEST(ExplainReview40A, RmmNotSupportedNamesWsl2PascalAndManagedMemory) {
  const auto r = explain_no_facts(
      "MemoryError: std::bad_alloc: CUDA error at: /opt/conda/envs/rapids/include/rmm/mr/device/"
      "cuda_memory_resource.hpp:69: cudaErrorNotSupported operation not supported\n"
      "RuntimeError: CUDA error encountered at: /rapids/cudf/cpp/src/bitmask/null_mask.cu:93: 801 "
      "cudaErrorNotSupported operation not supported\n");
  ASSERT_TRUE(leads_without(r, "rapids-cuda-not-supported", {"code/cudart/cudaErrorNotSupported"})) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().cause, {"WSL2", "Pascal", "managed"}));
  EXPECT_TRUE(says_all(r.matches.front().fix, {"compute_cap", "uname -r", "7.0"}));
  // Near miss: the same code from another program keeps the catalog's answer.
  const auto other = explain_no_facts("RuntimeError: CUDA error: operation not supported\n");
  EXPECT_EQ(find_rule(other, "rapids-cuda-not-supported"), nullptr) << rule_list(other);
}

TEST(ExplainReview40A, LightningUnderSlurmInvalidOrdinalPointsAtTheLocalRank) {
  const auto r = explain_no_facts(
      "LOCAL_RANK: 0 -CUDA_VISIBLE_DEVICES: [0,1]\n"
      "initializing ddp: GLOBAL_RANK: 2, MEMBER: 3/4\n"
      "LOCAL_RANK: 0 -CUDA_VISIBLE_DEVICES: [0,1]\n"
      "initializing ddp: GLOBAL_RANK: 3, MEMBER: 4/4\n"
      "RuntimeError: CUDA error: invalid device ordinal\n"
      "#SBATCH --nodes=2\n"
      "#SBATCH --ntasks-per-node=2\n");
  ASSERT_TRUE(leads_with(r, "invalid-device-ordinal/lightning-slurm")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"srun", "SLURM_LOCALID", "1.2.8"}));
  // Near miss: Lightning without Slurm keeps the generic answer.
  const auto plain = explain_no_facts(
      "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1]\n"
      "RuntimeError: CUDA error: invalid device ordinal\n");
  ASSERT_TRUE(leads_with(plain, "invalid-device-ordinal")) << rule_list(plain);
}

}  // namespace
}  // namespace gpudoctor
