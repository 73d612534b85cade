// Unseen logs, session 38 review (C): the driver, kernel-module and container answers.
// - NVML's "Driver/library version mismatch" after a reboot: a half-finished package upgrade
//   (illinois-scicomp/machine-shop-maintenance#70), not only "reboot".
// - nouveau's own probe lines (drivers/gpu/drm/nouveau/nvkm/engine/device/base.c:
//   `nvdev_info(device, "NVIDIA %s (%08x)\n", ...)`) and lspci's `Kernel driver in use: nouveau`
//   (negativo17/nvidia-driver#73).
// - The NVIDIA module's `NVRM: GPU %04x:%02x:%02x.%x is already bound to %s.`
//   (kernel-open/nvidia/nv-pci.c check_for_bound_driver, df1c9a3): NovaCore (beclab/Olares#3963).
// - A compiler error from a DKMS build directory (linux-surface/linux-surface#52).
// - WSL2 needs Windows 10 21H2 or Windows 11 (AbdBarho/stable-diffusion-webui-docker#129); a stale
//   CDI spec after a driver change (ollama/ollama#15400).
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

// Log 08: the reboot was already tried; /proc/driver/nvidia/version shows 520, dpkg 525.
TEST(ExplainReview38CDriver, NvmlMismatchAfterARebootIsAHalfFinishedUpgrade) {
  const std::string log =
      "kgk2@bock:~$ nvidia-smi\n"
      "Failed to initialize NVML: Driver/library version mismatch\n"
      "\n"
      "Tried rebooting the system, but still doesn't work.\n"
      "\n"
      "kgk2@bock:~$ cat /proc/driver/nvidia/version \n"
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  520.56.06  Thu Oct  6 21:38:55 UTC 2022\n"
      "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14) \n"
      "kgk2@bock:~$ dpkg -l nvidia-smi\n"
      "||/ Name           Version      Architecture Description\n"
      "+++-==============-============-============-==================================\n"
      "ii  nvidia-smi     525.85.12-1  amd64        NVIDIA System Management Interface\n";
  const auto r = explain_no_facts(log);
  // Since session 39 the two versions the log shows (520 against 525) choose the reading: two
  // branches, the new one's module never installed (ExplainSession39B.*).
  ASSERT_TRUE(leads_with(r, "nvml-driver-library-mismatch/other-branch")) << rule_list(r);
  const std::string& fix = r.matches.front().fix;
  EXPECT_TRUE(says_all(fix, {"reboot", "--fix-broken", "/proc/driver/nvidia/version", "dkms status"}));
  EXPECT_TRUE(mentions(r.matches.front().cause, "half")) << r.matches.front().cause;
  // The container variant keeps the same answer.
  const auto c = explain_no_facts(
      "nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown.\n");
  ASSERT_TRUE(leads_with(c, "nvml-driver-library-mismatch")) << rule_list(c);
  // nvidia-smi's next line gives the libraries' release, on its own line or in parentheses.
  for (const std::string& smi : {std::string("Failed to initialize NVML: Driver/library version mismatch\n"
                                             "NVML library version: 525.85\n"),
                                 std::string("Failed to initialize NVML: Driver/library version mismatch (NVML "
                                             "library version: 615.71)\n")}) {
    const auto v = explain_no_facts(smi);
    ASSERT_TRUE(leads_with(v, "nvml-driver-library-mismatch")) << rule_list(v);
    EXPECT_TRUE(mentions(v.matches.front().cause, "(NVML 525.85)") ||
                mentions(v.matches.front().cause, "(NVML 615.71)"))
        << v.matches.front().cause;
  }
  // Near miss: a tool's own report that it could not read the version is no mismatch.
  const auto slurm = explain_no_facts("error: Failed to get the NVML library version: Uninitialized\n");
  EXPECT_EQ(find_rule(slurm, "nvml-driver-library-mismatch"), nullptr) << rule_list(slurm);
}

// Log 16 and probe p53: nouveau's probe lines in dmesg, and lspci -k.
TEST(ExplainReview38CDriver, NouveauProbeLinesMeanNouveauHoldsTheGpu) {
  const std::string log =
      "[    0.000000] Command line: BOOT_IMAGE=/vmlinuz-4.20.6-200.fc29.x86_64 root=UUID=8c79 ro "
      "rootflags=subvol=root rd.driver.blacklist=nouveau\n"
      "[    5.435274] nouveau 0000:01:00.0: enabling device (0000 -> 0003)\n"
      "[    5.436312] nouveau 0000:01:00.0: NVIDIA GM204 (124020a1)\n"
      "[    5.603461] nouveau 0000:01:00.0: bios: version 84.04.1f.00.6f\n"
      "[    5.761785] IPv6: ADDRCONF(NETDEV_UP): enp3s0: link is not ready\n"
      "[    5.871440] nouveau 0000:01:00.0: DRM: VRAM: 4096 MiB\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "nouveau-loaded")) << rule_list(r);
  const std::string& fix = r.matches.front().fix;
  EXPECT_TRUE(says_all(fix, {"modprobe.blacklist=nouveau", "rd.driver.blacklist"}));
  const auto lspci = explain_no_facts(
      "01:00.0 VGA compatible controller: NVIDIA Corporation GM204 [GeForce GTX 970] (rev a1)\n"
      "\tKernel driver in use: nouveau\n"
      "\tKernel modules: nouveau, nvidia_drm, nvidia\n");
  EXPECT_TRUE(leads_with(lspci, "nouveau-loaded")) << rule_list(lspci);
  // Near miss: the nvidia driver in use, nouveau only listed as an available module.
  const auto ok = explain_no_facts("\tKernel driver in use: nvidia\n\tKernel modules: nouveau, nvidia_drm, nvidia\n");
  EXPECT_EQ(find_rule(ok, "nouveau-loaded"), nullptr) << rule_list(ok);
}

// Log 15: nova_core (NovaCore) owns the GPU, so nvidia.ko probes no device.
TEST(ExplainReview38CDriver, GpuAlreadyBoundToNovaCoreIsNotNouveau) {
  const std::string log =
      "ERROR: Unable to load the kernel module 'nvidia.ko'.\n"
      "-> Kernel module load error: No such device\n"
      "[  201.910514] NVRM: GPU 0000:01:00.0 is already bound to NovaCore.\n"
      "[  201.913648] NVRM: No NVIDIA devices probed.\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "nvidia-gpu-bound-to-nova")) << rule_list(r);
  const std::string& fix = r.matches.front().fix;
  EXPECT_TRUE(says_all(fix, {"nova_core", "nova_drm"}));
  EXPECT_TRUE(mentions(r.matches.front().cause, "bound to NovaCore, ")) << r.matches.front().cause;
  // The generic "no device" answer (nouveau, no GPU visible) is this one's consequence.
  EXPECT_EQ(find_rule(r, "kernel-module-no-device"), nullptr) << rule_list(r);
  // Other drivers: the generic rule names the driver.
  const auto vfio = explain_no_facts("NVRM: GPU 0000:41:00.0 is already bound to vfio-pci.\n");
  ASSERT_TRUE(leads_with(vfio, "nvidia-gpu-bound-to-other-driver")) << rule_list(vfio);
  EXPECT_TRUE(mentions(vfio.matches.front().cause, "(vfio-pci)")) << vfio.matches.front().cause;
  // Near miss: "No NVIDIA devices probed" alone keeps its generic answer.
  const auto alone = explain_no_facts("NVRM: No NVIDIA devices probed.\n");
  EXPECT_TRUE(leads_with(alone, "kernel-module-no-device")) << rule_list(alone);
}

// Log 30 and probe p14: the compiler's error from a DKMS build tree, without DKMS's summary.
TEST(ExplainReview38CDriver, CompilerErrorInDkmsTreeIsAModuleBuildFailure) {
  const std::string log =
      "/var/lib/dkms/nvidia-current/418.74/build/common/inc/nv-linux.h:733:21: error: void value not ignored as "
      "it ought to be\n"
      "         int __ret = on_each_cpu(func, info, 1);        \\\n"
      "                     ^~~~~~~~~~~\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "kernel-module-too-old-for-kernel")) << rule_list(r);
  const std::string all = told(r);
  EXPECT_TRUE(mentions(all, "418.74")) << all;
  EXPECT_TRUE(mentions(r.matches.front().fix, "newer driver branch")) << r.matches.front().fix;
  EXPECT_EQ(find_rule(r, "kernel-module-build-failed"), nullptr) << rule_list(r);
  // The .run installer's tree: the same answer, with its version.
  const auto run = explain_no_facts(
      "/tmp/selfgz1234/NVIDIA-Linux-x86_64-470.82.00/kernel/nvidia/os-mlock.c:40:5: error: implicit declaration of "
      "function 'follow_pfn'\n");
  ASSERT_TRUE(leads_with(run, "kernel-module-too-old-for-kernel")) << rule_list(run);
  EXPECT_TRUE(mentions(run.matches.front().cause, "470.82.00")) << run.matches.front().cause;
  // Another compiler error in the tree (a missing header): a build failure, not "too old".
  const auto other = explain_no_facts(
      "/var/lib/dkms/nvidia/535.54.03/build/nvidia/nv.c:12:10: fatal error: linux/foo.h: No such file or "
      "directory\n");
  ASSERT_TRUE(leads_with(other, "kernel-module-build-failed")) << rule_list(other);
  EXPECT_TRUE(mentions(told(other), "535.54.03")) << told(other);
  // Near miss: DKMS's own summary keeps its answer.
  const auto dkms =
      explain_no_facts("Error! Bad return status for module build on kernel: 6.8.0-36-generic (x86_64)\n");
  EXPECT_TRUE(leads_with(dkms, "kernel-module-build-failed")) << rule_list(dkms);
  // Near miss: a user's own C file with an error is nothing of this.
  const auto user = explain_no_facts("/home/me/src/foo.c:10:5: error: void value not ignored as it ought to be\n");
  EXPECT_EQ(find_rule(user, "kernel-module-too-old-for-kernel"), nullptr) << rule_list(user);
}

// Log 04: the container hook finds no libnvidia-ml.so.1; on WSL2 the Windows build matters too.
TEST(ExplainReview38CDriver, ContainerNvmlMissingNamesTheWindowsBuildForWsl2) {
  const std::string log =
      "Error response from daemon: failed to create shim task: OCI runtime create failed: runc create failed: "
      "unable to start container process: error during container init: error running hook #0: error running "
      "hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\n"
      "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared "
      "object file: no such file or directory: unknown\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "container-cli-nvml-not-loadable")) << rule_list(r);
  const std::string& fix = r.matches.front().fix;
  EXPECT_TRUE(says_all(fix, {"21H2", "Windows 11"}));
}

// Log 01: ggml's "driver insufficient" in a container; CDI's spec must be regenerated.
TEST(ExplainReview38CDriver, DriverInsufficientInAContainerNamesCdiRegeneration) {
  const std::string log =
      "load_backend: loaded CPU backend from /usr/lib/ollama/libggml-cpu-icelake.so\n"
      "ggml_cuda_init: failed to initialize CUDA: CUDA driver version is insufficient for CUDA runtime version\n"
      "load_backend: loaded CUDA backend from /usr/lib/ollama/cuda_v13/libggml-cuda.so\n";
  const auto r = explain_no_facts(log);
  const auto* m = find_rule(r, "cuda-driver-insufficient/container-without-gpu");
  ASSERT_NE(m, nullptr) << rule_list(r);
  EXPECT_TRUE(mentions(m->fix, "nvidia-ctk cdi generate")) << m->fix;
  EXPECT_TRUE(mentions(m->cause, "CDI")) << m->cause;
  // The lead (update the driver) says when it is the container instead.
  EXPECT_TRUE(mentions(r.matches.front().fix, "on the host already shows")) << r.matches.front().fix;
}

}  // namespace
}  // namespace gpudoctor
