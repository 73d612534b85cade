// Unseen logs, session 40 review (C): the layers under the frameworks (driver install, kernel
// modules, Secure Boot, DKMS/akmods, WSL, toolkits).
// - A Linux NVIDIA driver installed inside WSL 2 (microsoft/WSL#5265): the user's own "WSL 2".
// - Xid 169 with RmInitAdapter failing at probe time on Blackwell with the proprietary module
//   (Start9Labs/start-technologies PR #3693).
// - Module signature rejection in the kernel's, Talos', modprobe's (any module) and
//   nvidia-installer's wordings (siderolabs/talos#7174, hhfeuer/nvhda#8, NVIDIA/gpu-operator#266).
// - NVIDIA's own "Compiler version check failed" (kernel-open/conftest.sh cc_version_check;
//   clearlinux/distribution#1970), Fedora's akmods (negativo17/nvidia-driver#188), NVML's
//   "Function Not Found" (NVIDIA/nvidia-docker#584), a toolkit's stub libcuda (numba/numba#8985).
#include <gtest/gtest.h>

#include <string>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;
using testing::mentions;
using testing::rule_list;
using testing::says_all;
using testing::told;

// Log 19: the user says "WSL 2" and installed nvidia-driver-440 with apt inside it.
TEST(ExplainReview40C, LinuxDriverInsideWsl2IsPurgedNotInstalled) {
  const std::string log =
      "I just installed Windows Preview and WSL 2 and I did \n"
      "\n"
      "sudo apt install nvidia-driver-440\n"
      "sudo apt install nvidia-utils-440\n"
      "\n"
      "$ nvidia-smi\n"
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest "
      "NVIDIA driver is installed and running.\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "kernel-driver-not-running/wsl2")) << rule_list(r);
  const std::string& fix = r.matches.front().fix;
  EXPECT_TRUE(says_all(fix, {"apt purge", "Windows driver", "wsl --shutdown"})) << fix;
  EXPECT_FALSE(mentions(fix, "ubuntu-drivers install")) << fix;
  // Near miss: the same nvidia-smi line with nothing about WSL keeps the host answer.
  const auto host = explain_no_facts(
      "$ nvidia-smi\n"
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest "
      "NVIDIA driver is installed and running.\n");
  EXPECT_TRUE(leads_with(host, "kernel-driver-not-running")) << rule_list(host);
}

// Log 02: Xid 169 and RmInitAdapter at probe time (DGX Spark, proprietary 580.173.02).
TEST(ExplainReview40C, Xid169WhileTheGpuInitialisesPointsAtTheOpenModules) {
  const std::string log =
      "NVRM: GPU at PCI:000f:01:00: GPU-0f059bf0-a212-94c1-44a7-1068a6c6be66\n"
      "NVRM: Xid (PCI:000f:01:00): 169, fd8cd000 94000000\n"
      "NVRM: GPU 000f:01:00.0: RmInitAdapter failed! (0x62:0x1a:2631)\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "xid-microcontroller-halt/during-init")) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"RmInitAdapter", "Blackwell", "open kernel modules"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"modinfo -F license nvidia", "-open", "-m=kernel-open"})) << lead.fix;
  // Near miss: Xid 169 during a workload, no failed initialisation, keeps the hardware answer.
  const auto run = explain_no_facts("NVRM: Xid (PCI:0000:3b:00): 169, pid=4242, name=python3, fd8cd000 94000000\n");
  ASSERT_TRUE(leads_with(run, "xid-microcontroller-halt")) << rule_list(run);
  EXPECT_FALSE(mentions(run.matches.front().cause, "Blackwell")) << run.matches.front().cause;
}

// Logs 06, 15, 16: module signature rejection in its several wordings.
TEST(ExplainReview40C, EveryWordingOfAModuleKeyRejectionIsSignatureEnforcement) {
  // Log 06: the kernel's own notice and Talos' controller (Secure Boot off, Talos enforces
  // signatures with a per-build key).
  const std::string talos =
      "kern:  notice: [2023-05-04T07:37:25.957686413Z]: Loading of module with unavailable key is rejected\n"
      " user: warning: [2023-05-04T07:37:25.959281413Z]: [talos] controller failed {\"component\": "
      "\"controller-runtime\", \"controller\": runtime.KernelModuleSpecController\", \"error\": \"error loading module "
      "\\x5c\"nvidia\\x5c\": load nvidia failed: key was rejected by service\"}\n"
      "\n"
      "Checked secure boot in m BIOS and it's off, not sure what to do other than that.\n";
  const auto t = explain_no_facts(talos);
  ASSERT_TRUE(leads_with(t, "kernel-module-unsigned-secure-boot/talos")) << rule_list(t);
  EXPECT_TRUE(says_all(t.matches.front().cause, {"Talos", "kernel build"})) << t.matches.front().cause;
  EXPECT_TRUE(mentions(t.matches.front().fix, "Image Factory")) << t.matches.front().fix;
  // The kernel's notice alone, no Talos: the general answer, which names enforcement without
  // Secure Boot too.
  const auto k = explain_no_facts("[   12.345678] Loading of module with unavailable key is rejected\n");
  ASSERT_TRUE(leads_with(k, "kernel-module-unsigned-secure-boot")) << rule_list(k);
  EXPECT_TRUE(mentions(k.matches.front().cause, "sig_enforce")) << k.matches.front().cause;
  // Log 15: a DKMS module of another name.
  const auto n = explain_no_facts("`modprobe: ERROR: could not insert 'nvhda': Required key not available`\n");
  ASSERT_TRUE(leads_with(n, "kernel-module-unsigned-secure-boot")) << rule_list(n);
  EXPECT_TRUE(mentions(n.matches.front().cause, "nvhda")) << n.matches.front().cause;
  EXPECT_TRUE(mentions(n.matches.front().fix, "mokutil --import /var/lib/shim-signed/mok/MOK.der"))
      << n.matches.front().fix;
  // Log 16: nvidia-installer's other wording leads over its generic "Unable to load".
  const std::string installer =
      "ERROR: The kernel module failed to load, because it was not signed by a key that is trusted by the kernel. "
      "Please try installing the driver again, and sign the kernel module when prompted to do so.\n"
      "\n"
      "ERROR: Unable to load the kernel module 'nvidia.ko'.  This happens most frequently when this kernel module was "
      "built against the wrong or improperly configured kernel sources, with a version of gcc that differs from the "
      "one used to build the target kernel\n";
  const auto i = explain_no_facts(installer);
  ASSERT_TRUE(leads_with(i, "kernel-module-unsigned-secure-boot")) << rule_list(i);
  EXPECT_TRUE(mentions(i.matches.front().fix, "GPU Operator")) << i.matches.front().fix;
  EXPECT_EQ(find_rule(i, "nvidia-installer-module-load-failed"), nullptr) << rule_list(i);
  // Near miss: another modprobe failure is no signature problem.
  const auto other = explain_no_facts("modprobe: ERROR: could not insert 'nvhda': Operation not permitted\n");
  EXPECT_EQ(find_rule(other, "kernel-module-unsigned-secure-boot"), nullptr) << rule_list(other);
}

// Log 07: NVIDIA's own compiler check in a DKMS make.log.
TEST(ExplainReview40C, NvidiaCompilerVersionCheckNamesBothCompilers) {
  const std::string log =
      "DKMS make.log for nvidia-440.82 for kernel 5.4.40-38.lts2019 (x86_64)\n"
      "Compiler version check failed:\n"
      "\n"
      "The major and minor number of the compiler used to\n"
      "compile the kernel:\n"
      "\n"
      "gcc version 9.3.1 20200507 releases/gcc-9.3.0-217-g7790399265 (Clear Linux OS for Intel Architecture)\n"
      "\n"
      "does not match the compiler used here:\n"
      "\n"
      "cc (Clear Linux OS for Intel Architecture) 10.1.1 20200513 releases/gcc-10.1.0-36-gf2b77b928a\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "nvidia-cc-version-check-failed")) << rule_list(r);
  EXPECT_TRUE(says_all(told(r), {"IGNORE_CC_MISMATCH", "swupd update", "same compiler"})) << told(r);
  // Near miss: the kernel's own warning keeps its answer.
  const auto kernel = explain_no_facts("warning: the compiler differs from the one used to build the kernel\n");
  EXPECT_TRUE(leads_with(kernel, "kernel-module-compiler-differs")) << rule_list(kernel);
}

// Log 11: Fedora's akmods.
TEST(ExplainReview40C, AkmodsBuildFailureNamesItsLogAndTheRebuild) {
  const std::string log =
      "# akmods --rebuild --force\n"
      "Checking kmods exist for 6.17.10-300.fc43.aarch64 [  OK  ]\n"
      "Building and installing nvidia-kmod [FAILED]\n"
      "Building rpms failed; see /var/cache/akmods/nvidia/590.44.01-1-for-6.17.10-300.fc43.aarch64.failed.log for "
      "details\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "akmods-build-failed")) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(mentions(lead.cause, "590.44.01-1-for-6.17.10-300.fc43.aarch64.failed.log")) << lead.cause;
  // The kernel the build was for (the log's file name), not the running one (the session 40 re-read).
  EXPECT_TRUE(says_all(lead.fix, {"kernel-devel-6.17.10-300.fc43.aarch64", "gcc-c++", "dnf upgrade --refresh",
                                  "akmods --force --kernels 6.17.10-300.fc43.aarch64"}))
      << lead.fix;
  // Near miss: akmods' success line is nothing.
  const auto ok = explain_no_facts("Building and installing nvidia-kmod [  OK  ]\n");
  EXPECT_EQ(find_rule(ok, "akmods-build-failed"), nullptr) << rule_list(ok);
}

// Log 13: NVML's "Function Not Found" and nvidia-docker 1.0's mismatch wording.
TEST(ExplainReview40C, NvmlFunctionNotFoundIsAnOlderLibnvidiaMl) {
  const auto r = explain_no_facts("$ nvidia-smi\nFailed to initialize NVML: Function Not Found\n");
  ASSERT_TRUE(leads_with(r, "nvml-function-not-found")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"libnvidia-ml", "/proc/driver/nvidia/version"}))
      << r.matches.front().fix;
  const auto d = explain_no_facts("nvidia-docker | 2017/12/21 05:04:46 Error: nvml: Driver/library version mismatch\n");
  EXPECT_TRUE(leads_with(d, "nvml-driver-library-mismatch")) << rule_list(d);
  // Log 13 has both: nvidia-smi's own, more precise line leads.
  const auto both = explain_no_facts(
      "$ nvidia-smi\nFailed to initialize NVML: Function Not Found\n"
      "nvidia-docker | 2017/12/21 05:04:46 Error: nvml: Driver/library version mismatch\n");
  EXPECT_TRUE(leads_with(both, "nvml-function-not-found")) << rule_list(both);
  // Near miss: a program's own "Function not found" is not NVML's.
  const auto other = explain_no_facts("RuntimeError: Function not found: my_op\n");
  EXPECT_EQ(find_rule(other, "nvml-function-not-found"), nullptr) << rule_list(other);
}

// Log 05: a toolkit's link-time stub libcuda.so loaded at run time.
TEST(ExplainReview40C, StubLibcudaOnTheLoaderPathIsNotTheDriver) {
  const std::string log =
      "AttributeError: /scratch/yhao24/opt/cuda-12.1/lib64/stubs/libcuda.so: undefined symbol: _undef\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "libcuda-stub-loaded")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix,
                       {"/scratch/yhao24/opt/cuda-12.1/lib64/stubs", "LD_LIBRARY_PATH", "ldconfig -p | grep libcuda"}))
      << r.matches.front().fix;
  EXPECT_EQ(find_rule(r, "undefined-symbol-wrong-library"), nullptr) << rule_list(r);
  // Near miss: the driver's own libcuda with an undefined symbol keeps the old answer.
  const auto real =
      explain_no_facts("ImportError: /usr/lib/x86_64-linux-gnu/libcuda.so.1: undefined symbol: cuGetProcAddress_v2\n");
  EXPECT_EQ(find_rule(real, "libcuda-stub-loaded"), nullptr) << rule_list(real);
}

// Log 10: a legacy GPU on Talos, which has no package manager.
TEST(ExplainReview40C, LegacyGpuOnTalosNeedsAnExtensionNotAPackage) {
  const std::string log =
      "kern:     err: [2024-05-20T02:46:53.856596762Z]: NVRM: The NVIDIA GeForce GT 710 GPU installed in this system "
      "is\n"
      " NVRM:  supported through the NVIDIA 470.xx Legacy drivers. Please\n"
      " NVRM:  visit http://www.nvidia.com/object/unix.html for more\n"
      " NVRM:  information.  The 535.129.03 NVIDIA driver will ignore\n"
      " NVRM:  this GPU.  Continuing probe...\n"
      " kern: warning: [2024-05-20T02:46:53.859954762Z]: NVRM: No NVIDIA GPU found.\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "gpu-needs-legacy-driver/talos")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"extension", "imager", "470.xx"})) << r.matches.front().fix;
  // Near miss: the same lines in a plain dmesg keep the distribution answer.
  const auto plain = explain_no_facts(
      "[    4.213554] NVRM: The NVIDIA GeForce GT 710 GPU installed in this system is\n"
      "               NVRM:  supported through the NVIDIA 470.xx Legacy drivers. Please\n");
  EXPECT_TRUE(leads_with(plain, "gpu-needs-legacy-driver")) << rule_list(plain);
}

// Logs 17 and 18: nvcc refuses an architecture that the CUDA the user names compiles for: another,
// older nvcc is in use (PATH, or CMake's /usr/local/cuda).
TEST(ExplainReview40C, NvccRefusingAnArchTheNamedCudaKnowsIsAnotherNvcc) {
  const auto cunn = explain_no_facts(
      "when install cunn on ubuntu, meet an error \"nvcc fatal   : Unsupported gpu architecture 'compute_52'\n"
      "\", how to slove it ? thx\n"
      "\n"
      "we use TiTanX and cuda 7.5, and why occur this error?\n");
  ASSERT_TRUE(leads_with(cunn, "nvrtc-invalid-arch/older-nvcc-on-path")) << rule_list(cunn);
  const auto caffe = explain_no_facts(
      "using cmake to build caffe, CUDA 8, cuDNN V7, 1070 Ti\n"
      "when i use cmake it shows cuda 7.5 even though i have cuda 8.0 installed\n"
      "nvcc fatal   : Unsupported gpu architecture 'compute_61'\n");
  ASSERT_TRUE(leads_with(caffe, "nvrtc-invalid-arch/older-nvcc-on-path")) << rule_list(caffe);
  EXPECT_TRUE(says_all(caffe.matches.front().fix, {"ls -l /usr/local/cuda", "CUDA_TOOLKIT_ROOT_DIR"}))
      << caffe.matches.front().fix;
  // Near misses: no release named, or only one older than the architecture (CUDA 7.5 and
  // compute_61, first known by 8.0): the compiler itself is too old, as before.
  const auto bare = explain_no_facts("nvcc fatal   : Unsupported gpu architecture 'compute_61'\n");
  EXPECT_TRUE(leads_with(bare, "nvrtc-invalid-arch")) << rule_list(bare);
  const auto old =
      explain_no_facts("I have cuda 7.5 installed\nnvcc fatal   : Unsupported gpu architecture 'compute_61'\n");
  EXPECT_TRUE(leads_with(old, "nvrtc-invalid-arch")) << rule_list(old);
}

// Log 14: user space from a .run file without kernel modules, modules from another release's tree.
TEST(ExplainReview40C, RunFileUserSpaceAndSeparateModulesOfAnotherRelease) {
  const std::string log =
      "bash ./NVIDIA-Linux-x86_64-570.124.04.run --no-kernel-modules\n"
      "cd /data/open-gpu-kernel-modules-570.124.06-p2p/\n"
      "./install.sh\n"
      "reboot\n"
      "\n"
      "nvidia-smi \n"
      "Failed to initialize NVML: Driver/library version mismatch\n"
      "NVML library version: 570.124\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "nvml-driver-library-mismatch/separate-kernel-modules")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"--no-kernel-modules", "nvidia-uninstall", "modules' version"}))
      << r.matches.front().fix;
  // Near miss: a .run file and a module tree of one release: not this reading.
  const auto same = explain_no_facts(
      "bash ./NVIDIA-Linux-x86_64-570.124.06.run --no-kernel-modules\n"
      "cd /data/open-gpu-kernel-modules-570.124.06-p2p/\n"
      "Failed to initialize NVML: Driver/library version mismatch\n");
  EXPECT_TRUE(leads_with(same, "nvml-driver-library-mismatch")) << rule_list(same);
  EXPECT_EQ(find_rule(same, "nvml-driver-library-mismatch/separate-kernel-modules"), nullptr) << rule_list(same);
  const auto plain = explain_no_facts("Failed to initialize NVML: Driver/library version mismatch\n");
  EXPECT_TRUE(leads_with(plain, "nvml-driver-library-mismatch")) << rule_list(plain);
}

}  // namespace
}  // namespace gpudoctor
