// Installing the Linux driver (data/explain/kernel-module.toml) and building with the toolkit
// (toolkit.toml): DKMS, Secure Boot, modprobe, nvidia-installer and the module's own NVRM lines.
// The lines are real ones pasted in public issues, forum posts and notes (named per test); before
// these rules every one of them got "No known problem found".
#include <gtest/gtest.h>

#include <string>

#include "core/text.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

// An Ubuntu forum post (nvidia-dkms-545 on kernel 6.8.0-36): apt's whole output, one answer
// that names the kernel and the build log to read.
TEST(ExplainKernelModule, DkmsBuildFailureNamesTheKernelAndTheLog) {
  const auto r = explain_no_facts(
      "Building initial module for 6.8.0-36-generic\n"
      "ERROR: Cannot create report: [Errno 17] File exists: '/var/crash/nvidia-dkms-545.0.crash'\n"
      "Error! Bad return status for module build on kernel: 6.8.0-36-generic (x86_64)\n"
      "Consult /var/lib/dkms/nvidia/545.29.06/build/make.log for more information.\n"
      "dpkg: error processing package nvidia-dkms-545 (--configure):\n"
      " installed nvidia-dkms-545 package post-installation script subprocess returned error exit status 10\n");
  ASSERT_TRUE(leads_with(r, "kernel-module-build-failed"));
  const auto& m = r.matches.front();
  EXPECT_EQ(m.category, "driver-missing");
  EXPECT_TRUE(contains(m.cause, "6.8.0-36-generic")) << m.cause;
  EXPECT_TRUE(contains(m.fix, "/var/lib/dkms/nvidia/545.29.06/build/make.log")) << m.fix;
  EXPECT_TRUE(contains(m.fix, "linux-headers-6.8.0-36-generic")) << m.fix;
  EXPECT_EQ(r.matches.size(), 1u);
}

TEST(ExplainKernelModule, MissingHeadersAndTheKernelsOtherCompilerAreNamed) {
  // A Debian 13 DKMS run (2026) and nvidia-installer's wording.
  const auto h = explain_no_facts(
      "Error! Your kernel headers for kernel 6.12.73+deb13-amd64 cannot be found at "
      "/lib/modules/6.12.73+deb13-amd64/build or /lib/modules/6.12.73+deb13-amd64/source.");
  ASSERT_TRUE(leads_with(h, "kernel-headers-missing"));
  EXPECT_TRUE(contains(h.matches.front().fix, "linux-headers-6.12.73+deb13-amd64")) << h.matches.front().fix;
  EXPECT_TRUE(leads_with(explain_no_facts("ERROR: Unable to find the kernel source tree for the currently running "
                                          "kernel.  Please make sure you have installed the kernel source files"),
                         "kernel-headers-missing"));
  // The make.log of an Ubuntu 22.04 HWE kernel built by gcc-12 while gcc is gcc-11: the compiler
  // answer leads the generic build failure.
  const auto c = explain_no_facts(
      "warning: the compiler differs from the one used to build the kernel\n"
      "  The kernel was built by: x86_64-linux-gnu-gcc-12 (Ubuntu 12.3.0-1ubuntu1~22.04) 12.3.0\n"
      "  You are using:           gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0\n"
      "gcc: error: unrecognized command-line option '-ftrivial-auto-var-init=zero'\n"
      "Error! Bad return status for module build on kernel: 6.5.0-14-generic (x86_64)\n");
  ASSERT_TRUE(leads_with(c, "kernel-module-compiler-differs"));
  EXPECT_TRUE(contains(c.matches.front().cause, "x86_64-linux-gnu-gcc-12")) << c.matches.front().cause;
  EXPECT_NE(find_rule(c, "kernel-module-build-failed"), nullptr);
}

TEST(ExplainKernelModule, SecureBootRefusalIsSigningNotAMissingDriver) {
  for (const char* line : {
           "modprobe: ERROR: could not insert 'nvidia': Key was rejected by service",
           "modprobe: ERROR: could not insert 'nvidia': Required key not available",
           // Google Dataproc's docs and a Proxmox VM walkthrough quote the installer so
           "ERROR: The kernel module failed to load. Secure boot is enabled on this system, so this is likely "
           "because it was not signed by a key that is trusted by the kernel. Please try installing the driver "
           "again, and sign the kernel module when prompted to do so.",
       }) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "kernel-module-unsigned-secure-boot")) << line;
    EXPECT_TRUE(contains(r.matches.front().fix, "mokutil")) << r.matches.front().fix;
  }
  // The installer's next line lists many reasons; the Secure Boot line above it leads.
  const auto both = explain_no_facts(
      "ERROR: The kernel module failed to load. Secure boot is enabled on this system, so this is likely because it "
      "was not signed by a key that is trusted by the kernel.\n"
      "ERROR: Unable to load the kernel module 'nvidia.ko'.  This happens most frequently when this kernel module "
      "was built against the wrong or improperly configured kernel sources\n");
  EXPECT_TRUE(leads_with(both, "kernel-module-unsigned-secure-boot"));
}

TEST(ExplainKernelModule, ModprobeFailuresSayWhatIsMissing) {
  EXPECT_TRUE(leads_with(explain_no_facts("modprobe: FATAL: Module nvidia not found in directory "
                                          "/lib/modules/6.8.0-49-generic"),
                         "kernel-module-not-built-for-this-kernel"));
  // The Arch wiki's PCIe power-management case: modprobe's line, then the module's own reason.
  const auto r = explain_no_facts(
      "modprobe: ERROR: could not insert 'nvidia': No such device\n"
      "NVRM: The NVIDIA GPU 0000:01:00.0 (PCI ID: 10de:139b)\n"
      "NVRM: installed in this system is not supported by the 370.28\n"
      "NVRM: NVIDIA Linux driver release.  Please see 'Appendix\n");
  ASSERT_TRUE(leads_with(r, "gpu-not-supported-by-driver-release"));
  EXPECT_TRUE(contains(r.matches.front().cause, "370.28")) << r.matches.front().cause;
  EXPECT_NE(find_rule(r, "kernel-module-no-device"), nullptr);
}

// A GeForce RTX 5060 Ti (10de:2d04) under the 555 driver, in the newer wording, and the
// Blackwell open-modules requirement with the failure it causes.
TEST(ExplainKernelModule, AGpuTheReleaseDoesNotDriveAndTheOpenModulesRequirement) {
  const auto r = explain_no_facts(
      "[    8.299192] NVRM: The NVIDIA GPU 0000:3c:00.0 (PCI ID: 10de:2d04)\n"
      "               NVRM: installed in this system is not supported by the\n"
      "               NVRM: NVIDIA 555.58.02 driver release.\n"
      "[    8.299260] NVRM: The NVIDIA probe routine failed for 1 device(s).\n"
      "[    8.299262] NVRM: None of the NVIDIA devices were initialized.\n");
  ASSERT_TRUE(leads_with(r, "gpu-not-supported-by-driver-release"));
  EXPECT_TRUE(contains(r.matches.front().cause, "555.58.02")) << r.matches.front().cause;

  const auto open = explain_no_facts(
      "[    5.559842] NVRM: The NVIDIA GPU 0000:02:00.0 (PCI ID: 10de:2c58)\n"
      "               NVRM: installed in this system requires use of the NVIDIA open kernel modules.\n"
      "[    5.559858] NVRM: GPU 0000:02:00.0: RmInitAdapter failed! (0x22:0x56:884)\n"
      "[    5.560313] NVRM: GPU 0000:02:00.0: rm_init_adapter failed, device minor number 0\n"
      "No devices were found\n");
  ASSERT_TRUE(leads_with(open, "kernel-module-open-required"));
  EXPECT_TRUE(contains(open.matches.front().fix, "-open")) << open.matches.front().fix;
  EXPECT_EQ(find_rule(open, "gpu-not-supported-by-driver-release"), nullptr);
  // The legacy message shares the "The NVIDIA GPU ... (PCI ID: ...)" header and keeps its rule.
  const auto legacy = explain_no_facts(
      "NVRM: The NVIDIA GeForce GTX 680 GPU installed in this system is\n"
      "NVRM:  supported through the NVIDIA 470.xx Legacy drivers. Please\n");
  EXPECT_TRUE(leads_with(legacy, "gpu-needs-legacy-driver"));
  EXPECT_EQ(find_rule(legacy, "kernel-module-open-required"), nullptr);
}

// A Chinese-language note on "Driver/library version mismatch" quotes the kernel's side of it.
TEST(ExplainKernelModule, ApiMismatchNamesBothVersions) {
  const auto r = explain_no_facts(
      "[   52.396206] NVRM: API mismatch: the client has the version 440.82, but\n"
      "               NVRM: this kernel module has the version 390.48.  Please\n"
      "               NVRM: make sure that this kernel module and all NVIDIA driver\n"
      "               NVRM: components have the same version.\n");
  // 440 against 390: two branches (since session 39 the versions choose the reading).
  ASSERT_TRUE(leads_with(r, "kernel-module-api-mismatch/other-branch"));
  EXPECT_TRUE(contains(r.matches.front().cause, "440.82")) << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().cause, "390.48")) << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().fix, "reboot")) << r.matches.front().fix;
}

TEST(ExplainKernelModule, InstallerAgainstALoadedModuleAndNvidiaSmiWithoutADevice) {
  const auto r = explain_no_facts(
      "ERROR: An NVIDIA kernel module 'nvidia-drm' appears to already be loaded in your kernel.  This may be because "
      "it is in use (for example, by an X server, a CUDA program, or the NVIDIA Persistence Daemon)");
  ASSERT_TRUE(leads_with(r, "nvidia-installer-module-in-use"));
  EXPECT_TRUE(contains(r.matches.front().cause, "nvidia-drm")) << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().fix, "multi-user.target")) << r.matches.front().fix;

  const auto lost = explain_no_facts(
      "Unable to determine the device handle for GPU 0000:01:00.0: GPU is lost.  Reboot the system to recover this "
      "GPU");
  ASSERT_TRUE(leads_with(lost, "nvml-device-handle-failed"));
  EXPECT_TRUE(contains(lost.matches.front().cause, "GPU is lost")) << lost.matches.front().cause;
  // "No devices were found" only as nvidia-smi prints it: alone on its line.
  EXPECT_TRUE(leads_with(explain_no_facts("No devices were found"), "nvidia-smi-no-devices"));
  EXPECT_EQ(find_rule(explain_no_facts("Scanning for USB: No devices were found on bus 3"), "nvidia-smi-no-devices"),
            nullptr);
}

TEST(ExplainToolkit, AnUnsupportedHostCompilerNamesTheLimitAndCcbin) {
  const auto r = explain_no_facts(
      "/usr/local/cuda/include/crt/host_config.h:132:2: error: #error -- unsupported GNU version! gcc versions later "
      "than 12 are not supported! The nvcc flag '-allow-unsupported-compiler' can be used to override this version "
      "check; however, using an unsupported host compiler may cause compilation failure or incorrect run time "
      "execution. Use at your own risk.");
  ASSERT_TRUE(leads_with(r, "nvcc-host-compiler-unsupported"));
  EXPECT_TRUE(contains(r.matches.front().cause, "gcc versions later than 12 are not supported"))
      << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().fix, "NVCC_CCBIN=g++-12")) << r.matches.front().fix;
  // nvcc ran, so a toolkit is there: the problem is the compiler beside it, not a missing toolkit.
  EXPECT_EQ(r.matches.front().category, "other");
  // Visual Studio has its own answer since session 38 (nvcc-msvc-unsupported, ExplainReview38B): this
  // one's fix was `sudo apt install g++-N` for a Windows compiler.
  EXPECT_TRUE(leads_with(explain_no_facts("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\include\\crt/"
                                          "host_config.h(153): fatal error C1189: #error:  -- unsupported Microsoft "
                                          "Visual Studio version! Only the versions between 2017 and 2022 (inclusive) "
                                          "are supported!"),
                         "nvcc-msvc-unsupported"));
  EXPECT_TRUE(leads_with(explain_no_facts("Failed to verify gcc version. See log at /var/log/cuda-installer.log for "
                                          "details."),
                         "cuda-installer-gcc"));
}

// TensorFlow's and JAX's CUDA diagnostics after cuInit failed (xla/stream_executor/cuda/
// cuda_diagnostics.cc, WarnOnDsoKernelMismatch): which way the versions differ says which fix.
TEST(ExplainKernelModule, ALibcudaNewerThanTheModuleIsARebootOrTheCompatLibrary) {
  const auto r = explain_no_facts(
      "I tensorflow/compiler/xla/stream_executor/cuda/cuda_diagnostics.cc:199] libcuda reported version is: "
      "470.223.2\n"
      "I tensorflow/compiler/xla/stream_executor/cuda/cuda_diagnostics.cc:203] kernel reported version is: 470.182.3\n"
      "E tensorflow/compiler/xla/stream_executor/cuda/cuda_diagnostics.cc:312] kernel version 470.182.3 does not match "
      "DSO version 470.223.2 -- cannot find working devices in this configuration\n");
  ASSERT_TRUE(leads_with(r, "libcuda-newer-than-kernel-module"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_NE(m.cause.find("470.223.2"), std::string::npos) << m.cause;
  EXPECT_NE(m.cause.find("compat"), std::string::npos) << m.cause;
  EXPECT_NE(m.fix.find("Reboot"), std::string::npos) << m.fix;
  EXPECT_EQ(find_rule(r, "libcuda-older-than-kernel-module"), nullptr);
}

TEST(ExplainKernelModule, ALibcudaOlderThanTheModuleIsAStaleCopy) {
  const auto r = explain_no_facts(
      "E tensorflow/stream_executor/cuda/cuda_diagnostics.cc:313] kernel version 430.14.0 does not match DSO "
      "version 418.67.0 -- cannot find working devices in this configuration\n");
  ASSERT_TRUE(leads_with(r, "libcuda-older-than-kernel-module"));
  EXPECT_NE(r.matches.front().fix.find("ldconfig -p | grep libcuda"), std::string::npos) << r.matches.front().fix;
  EXPECT_EQ(find_rule(r, "libcuda-newer-than-kernel-module"), nullptr);
}

TEST(ExplainKernelModule, AnUnreadableModuleVersionMeansNoModuleNotAHarmlessNote) {
  const auto r = explain_no_facts(
      "E external/local_xla/xla/stream_executor/cuda/cuda_diagnostics.cc:312] kernel version PERMISSION_DENIED: "
      "could not open driver version path for reading: /proc/driver/nvidia/version does not match DSO version "
      "535.104.5 -- cannot find working devices in this configuration\n");
  ASSERT_TRUE(leads_with(r, "kernel-module-version-unreadable"));
  EXPECT_EQ(r.matches.front().category, "driver-missing");
  // The general "XLA could not read the driver's version" answer calls it harmless: not here.
  EXPECT_EQ(find_rule(r, "xla-driver-version-unreadable"), nullptr);
  EXPECT_EQ(find_rule(r, "libcuda-newer-than-kernel-module"), nullptr);
  EXPECT_EQ(find_rule(r, "libcuda-older-than-kernel-module"), nullptr);
}

// nv-fabricmanager's own start-up check: its version must be the driver's (NVSwitch systems).
TEST(ExplainKernelModule, FabricManagerOfAnotherVersionNamesBothVersions) {
  const auto r = explain_no_facts(
      "Nov 05 13:55:26 node1 systemd[1]: Starting NVIDIA fabric manager service...\n"
      "Nov 05 13:55:26 node1 nv-fabricmanager[104230]: fabric manager NVIDIA GPU driver interface version "
      "550.127.05 doesn't match with driver version 550.120. Please update with the matching NVIDIA driver package.\n"
      "Nov 05 13:55:26 node1 systemd[1]: nvidia-fabricmanager.service: Control process exited, code=exited, "
      "status=1/FAILURE\n");
  ASSERT_TRUE(leads_with(r, "fabric-manager-version-mismatch"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_NE(m.cause.find("550.127.05"), std::string::npos) << m.cause;
  EXPECT_NE(m.fix.find("=550.120-1"), std::string::npos) << m.fix;
  EXPECT_NE(find_rule(r, "fabric-manager-not-running"), nullptr);
}

TEST(ExplainKernelModule, BusyDevicesNameTheComputeMode) {
  const auto r = explain_no_facts("RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable\n");
  ASSERT_TRUE(leads_with(r, "cuda-devices-busy"));
  EXPECT_NE(r.matches.front().fix.find("compute_mode"), std::string::npos);
  EXPECT_EQ(find_rule(r, "code/cudart/cudaErrorDevicesUnavailable"), nullptr);
}

TEST(ExplainKernelModule, UbuntusCommandNotFoundForNvidiaSmiIsNoDriver) {
  const auto r = explain_no_facts(
      "Command 'nvidia-smi' not found, but can be installed with:\n\nsudo apt install nvidia-utils-535\n");
  EXPECT_TRUE(leads_with(r, "kernel-driver-not-running"));
}

// nvidia-installer's kernel.c names the other modules it test-loads ("Unable to load the '%s'
// kernel module."), and says which DKMS command failed when it builds through DKMS.
TEST(ExplainKernelModule, InstallerNamesTheDrmModuleItCouldNotLoad) {
  const auto r = explain_no_facts("ERROR: Unable to load the 'nvidia-drm' kernel module.\n");
  ASSERT_TRUE(leads_with(r, "nvidia-installer-module-load-failed"));
  EXPECT_TRUE(contains(r.matches.front().cause, "nvidia-drm")) << r.matches.front().cause;
}

TEST(ExplainKernelModule, InstallersFailedDkmsBuildIsAModuleBuildFailure) {
  const auto r =
      explain_no_facts("ERROR: Failed to run `/usr/sbin/dkms build -m nvidia -v 550.54.14 -k 6.5.0-14-generic`:\n");
  ASSERT_TRUE(leads_with(r, "kernel-module-build-failed"));
  EXPECT_TRUE(contains(r.matches.front().cause, "6.5.0-14-generic")) << r.matches.front().cause;
}

// nv-pci.c's probe: a BAR the firmware left unassigned.
TEST(ExplainKernelModule, UnassignedBarIsFirmwareNotTheDriver) {
  const auto r = explain_no_facts(
      "[    6.821212] NVRM: This PCI I/O region assigned to your NVIDIA device is invalid:\n"
      "               NVRM: BAR0 is 0M @ 0x0 (PCI:0000:01:00.0)\n"
      "[    6.821283] NVRM: The NVIDIA probe routine failed for 1 device(s).\n");
  ASSERT_TRUE(leads_with(r, "nvrm-bar-invalid"));
  EXPECT_TRUE(contains(r.matches.front().fix, "pci=realloc")) << r.matches.front().fix;
  EXPECT_TRUE(contains(r.matches.front().fix, "Above 4G")) << r.matches.front().fix;
}

}  // namespace
}  // namespace gpudoctor
