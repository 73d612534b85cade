// Docker / NVIDIA Container Toolkit / libnvidia-container messages, as their sources print them:
// nvidia-container-cli's "<step> error: <message>" (libnvidia-container src/cli/configure.c,
// src/xfuncs.h, src/cli/dsl.c), the toolkit's Go requirement check
// (internal/requirements/constraints/binary.go via internal/modifier/csv.go) and the CDI cache
// (container-device-interface pkg/cdi/cache.go).
#include <gtest/gtest.h>

#include <string>

#include "core/text.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

// Docker prints the hook's stderr after its own prefix.
constexpr const char* kDockerPrefix =
    "docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI "
    "runtime create failed: runc create failed: unable to start container process: error during container init: "
    "error running hook #0: error running hook: exit status 1, stdout: , stderr: ";

std::string hook_line(std::string_view message) {
  return std::string(kDockerPrefix) + std::string(message) + "\n";
}

TEST(ExplainContainer, MissingHostNvmlLibraryIsNotADriverNotLoaded) {
  const auto r = explain_no_facts(hook_line(
      "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared "
      "object file: no such file or directory: unknown."));
  ASSERT_TRUE(leads_with(r, "container-cli-nvml-not-loadable"));
  EXPECT_NE(r.matches.front().fix.find("ldconfig -p | grep libnvidia-ml"), std::string::npos);
  EXPECT_EQ(find_rule(r, "container-cli-driver-not-loaded"), nullptr);
}

TEST(ExplainContainer, DriverLibraryMismatchInTheHookIsTheMismatch) {
  const auto r = explain_no_facts(
      hook_line("nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown."));
  ASSERT_TRUE(leads_with(r, "nvml-driver-library-mismatch"));
  EXPECT_EQ(find_rule(r, "container-cli-driver-not-loaded"), nullptr);
}

TEST(ExplainContainer, DriverNotLoadedKeepsItsRule) {
  const auto r =
      explain_no_facts("nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown.\n");
  ASSERT_TRUE(leads_with(r, "container-cli-driver-not-loaded"));
}

TEST(ExplainContainer, RequirementErrorsFromTheCliAndTheGoToolkit) {
  const auto go = explain_no_facts("requirements not met: unsatisfied condition: cuda>=12.2 (cuda=11.4)\n");
  ASSERT_TRUE(leads_with(go, "cuda-driver-insufficient"));
  EXPECT_NE(go.matches.front().cause.find("12.2"), std::string::npos);

  const auto drv = explain_no_facts(
      hook_line("nvidia-container-cli: requirement error: unsatisfied condition: driver>=535: unknown."));
  ASSERT_TRUE(leads_with(drv, "container-requires-newer-driver"));
  EXPECT_EQ(drv.matches.front().category, "driver-too-old");
  EXPECT_NE(drv.matches.front().cause.find("535"), std::string::npos);
}

TEST(ExplainContainer, LdconfigRealMissingOnTheHost) {
  const auto r = explain_no_facts(
      hook_line("nvidia-container-cli: ldcache error: open failed: /sbin/ldconfig.real: no such file or directory: "
                "unknown."));
  ASSERT_TRUE(leads_with(r, "container-cli-ldconfig-missing"));
  EXPECT_NE(r.matches.front().cause.find("/sbin/ldconfig.real"), std::string::npos);
  EXPECT_NE(r.matches.front().fix.find("nvidia-container-cli.ldconfig=@/sbin/ldconfig"), std::string::npos);
}

TEST(ExplainContainer, DeviceCgroupSetupFailure) {
  const auto r = explain_no_facts(hook_line(
      "nvidia-container-cli: mount error: failed to add device rules: unable to find any existing device filters "
      "attached to the cgroup: bpf_prog_query(BPF_CGROUP_DEVICE) failed: operation not permitted: unknown."));
  ASSERT_TRUE(leads_with(r, "container-cli-device-cgroup"));
  EXPECT_NE(r.matches.front().fix.find("no-cgroups=true"), std::string::npos);
}

TEST(ExplainContainer, AnyOtherHookStepStillGetsAnAnswer) {
  const auto r =
      explain_no_facts(hook_line("nvidia-container-cli: detection error: nvml error: unknown error: unknown."));
  ASSERT_TRUE(leads_with(r, "container-cli-error"));
  EXPECT_NE(r.matches.front().cause.find("detection"), std::string::npos);
  EXPECT_NE(r.matches.front().cause.find("nvml error: unknown error"), std::string::npos);
}

TEST(ExplainContainer, UnresolvableCdiDevice) {
  const auto r = explain_no_facts("Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all\n");
  ASSERT_TRUE(leads_with(r, "cdi-device-unresolvable"));
  EXPECT_NE(r.matches.front().fix.find("nvidia-ctk cdi generate"), std::string::npos);
}

// nvidia-container-runtime's INFO line (internal/info/auto.go) is quoted at the head of the
// hook's stderr; it must never be the answer when the hook's error follows.
TEST(ExplainContainer, ModeNoticeAloneIsHarmless) {
  const auto r = explain_no_facts("INFO[0000] Auto-detected mode as 'legacy'\n");
  ASSERT_TRUE(leads_with(r, "container-runtime-mode-notice"));
  EXPECT_TRUE(r.matches.front().harmless);
  EXPECT_NE(r.matches.front().cause.find("'legacy'"), std::string::npos);
}

TEST(ExplainContainer, ModeNoticeNeverOutranksTheHookError) {
  const auto r = explain_no_facts(
      "INFO[0000] Auto-detected mode as 'legacy'\n" + hook_line("Auto-detected mode as 'legacy'") +
      "nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open shared "
      "object file: no such file or directory: unknown.\n");
  ASSERT_TRUE(leads_with(r, "container-cli-nvml-not-loadable"));
  const auto* notice = find_rule(r, "container-runtime-mode-notice");
  ASSERT_NE(notice, nullptr);
  EXPECT_TRUE(notice->harmless);
  EXPECT_EQ(&r.matches.back(), notice);
}

TEST(ExplainContainer, HookFailureWithoutItsMessageSaysWhereTheReasonIs) {
  // The paste ends at the runtime's notice: the hook failed, its reason was not copied.
  const auto r = explain_no_facts(hook_line("Auto-detected mode as 'legacy'"));
  ASSERT_TRUE(leads_with(r, "container-nvidia-hook-failed"));
  EXPECT_FALSE(r.matches.front().harmless);
  EXPECT_NE(r.matches.front().fix.find("nvidia-container-cli -k -d /dev/tty info"), std::string::npos);
}

TEST(ExplainContainer, LdconfigThatRanAndFailedIsNotTheMissingFile) {
  const auto r = explain_no_facts(hook_line(
      "Auto-detected mode as 'legacy'\nnvidia-container-cli: ldcache error: process /sbin/ldconfig.real failed with "
      "error code: 1: unknown."));
  ASSERT_TRUE(leads_with(r, "container-cli-ldconfig-failed"));
  EXPECT_NE(r.matches.front().cause.find("/sbin/ldconfig.real"), std::string::npos);
  EXPECT_NE(r.matches.front().cause.find("exit code 1"), std::string::npos);
  EXPECT_EQ(r.matches.front().cause.find("killed by signal"), std::string::npos);
  EXPECT_EQ(find_rule(r, "container-cli-ldconfig-missing"), nullptr);
}

TEST(ExplainContainer, LdconfigKilledBySignal) {
  const auto r = explain_no_facts(
      "Error: crun: error executing hook `/usr/bin/nvidia-container-toolkit` (exit code: 1): OCI runtime error\n"
      "nvidia-container-cli: ldcache error: process /usr/sbin/ldconfig terminated with signal 9: unknown.\n");
  ASSERT_TRUE(leads_with(r, "container-cli-ldconfig-failed"));
  EXPECT_NE(r.matches.front().cause.find("killed by signal 9"), std::string::npos);
  EXPECT_NE(find_rule(r, "container-nvidia-hook-failed"), nullptr);
}

// wsl.exe's own messages: WSL 2 without its kernel package, and WSL without a distribution.
TEST(ExplainContainer, WslWithoutItsKernelOrADistribution) {
  const auto kernel = explain_no_facts(
      "WSL 2 requires an update to its kernel component. For information please visit https://aka.ms/wsl2kernel\n");
  ASSERT_TRUE(leads_with(kernel, "wsl-kernel-update-needed"));
  EXPECT_TRUE(contains(kernel.matches.front().fix, "wsl --update")) << kernel.matches.front().fix;
  const auto none = explain_no_facts("Windows Subsystem for Linux has no installed distributions.\n");
  ASSERT_TRUE(leads_with(none, "wsl-no-distribution"));
}

// The NGC images' start-up banner when the container got no driver.
TEST(ExplainContainer, NgcBannerWithoutDriverIsAContainerStartedWithoutGpus) {
  const auto r = explain_no_facts(
      "WARNING: The NVIDIA Driver was not detected.  GPU functionality will not be available.\n"
      "   Use 'nvidia-docker run' to start this container; see\n"
      "   https://github.com/NVIDIA/nvidia-docker/wiki/nvidia-docker\n");
  ASSERT_TRUE(leads_with(r, "ngc-container-no-driver"));
  EXPECT_TRUE(contains(r.matches.front().fix, "--gpus all")) << r.matches.front().fix;
}

// k8s-device-plugin logs go-nvml's "could not load NVML library" and asks about the runtime.
TEST(ExplainContainer, DevicePluginWithoutNvmlIsTheNodesContainerRuntime) {
  const auto r = explain_no_facts(
      "2024/01/04 06:08:15 Loading NVML\n"
      "2024/01/04 06:08:15 Failed to initialize NVML: could not load NVML library.\n"
      "2024/01/04 06:08:15 If this is a GPU node, did you set the docker default runtime to `nvidia`?\n");
  ASSERT_TRUE(leads_with(r, "k8s-device-plugin-no-nvml"));
  EXPECT_EQ(r.matches.front().category, "container/docker-runtime");
  EXPECT_TRUE(contains(r.matches.front().fix, "runtimeClassName")) << r.matches.front().fix;
}

// A CDI spec made before the device nodes changed.
TEST(ExplainContainer, StaleCdiSpecNamesTheMissingDevice) {
  const auto r = explain_no_facts(
      "Error: setting up CDI devices: failed to inject devices: failed to stat CDI host device "
      "\"/dev/dri/renderD129\": no such file or directory\n");
  ASSERT_TRUE(leads_with(r, "cdi-device-injection-failed"));
  EXPECT_TRUE(contains(r.matches.front().cause, "/dev/dri/renderD129")) << r.matches.front().cause;
  EXPECT_TRUE(contains(r.matches.front().fix, "nvidia-ctk cdi generate")) << r.matches.front().fix;
}

// DKMS building the Linux driver for WSL's kernel (WSL1's -Microsoft, WSL2's -microsoft-standard).
TEST(ExplainContainer, LinuxDriverBuiltForAWslKernelIsTheWrongDriver) {
  const auto wsl1 = explain_no_facts(
      "Error! Your kernel headers for kernel 4.4.0-19041-Microsoft cannot be found.\n"
      "Please install the linux-headers-4.4.0-19041-Microsoft package,\n"
      "or use the --kernelsourcedir option to tell DKMS where it's located\n");
  ASSERT_TRUE(leads_with(wsl1, "linux-driver-built-for-wsl-kernel"));
  EXPECT_EQ(find_rule(wsl1, "kernel-headers-missing"), nullptr);
  EXPECT_TRUE(contains(wsl1.matches.front().cause, "4.4.0-19041-Microsoft")) << wsl1.matches.front().cause;
  EXPECT_TRUE(leads_with(
      explain_no_facts("Error! Your kernel headers for kernel 5.15.153.1-microsoft-standard-WSL2 cannot be found.\n"),
      "linux-driver-built-for-wsl-kernel"));
  // An ordinary kernel's missing headers stay the headers answer.
  EXPECT_TRUE(leads_with(explain_no_facts("Error! Your kernel headers for kernel 6.1.0-18-amd64 cannot be found.\n"),
                         "kernel-headers-missing"));
}

// Lines that only mention what a rule looks for are not the problem: uname's WSL kernel, a
// `ulimit -a` listing, another program's "Version tag".
TEST(ExplainContainer, AWslKernelNameAloneIsNotADriverBuild) {
  const auto r = explain_no_facts(
      "$ uname -a\nLinux DESKTOP-1 5.15.153.1-microsoft-standard-WSL2 #1 SMP Fri Mar 29 23:14:13 UTC 2024 x86_64 "
      "GNU/Linux\n");
  EXPECT_EQ(find_rule(r, "linux-driver-built-for-wsl-kernel"), nullptr);
  EXPECT_TRUE(leads_with(explain_no_facts("Error! Bad return status for module build on kernel: "
                                          "5.15.153.1-microsoft-standard-WSL2 (x86_64)\n"),
                         "linux-driver-built-for-wsl-kernel"));
  EXPECT_EQ(find_rule(explain_no_facts("max locked memory           (kbytes, -l) 64\n"), "rdma-locked-memory-limit"),
            nullptr);
  EXPECT_EQ(
      find_rule(explain_no_facts("save file rejected: Version tag does not match\n"), "tensorrt-engine-incompatible"),
      nullptr);
}

TEST(ExplainContainer, AnNgcImageOlderThanTheGpuRefusesToRun) {
  // NVIDIA's NGC images check the GPU against the ones their release supports before the
  // command runs: the image is older than the GPU, the host is fine.
  const auto r = explain_no_facts(
      "WARNING: Detected NVIDIA NVIDIA GeForce RTX 4060 Laptop GPU GPU, which is not yet supported in this version of "
      "the container\nERROR: No supported GPU(s) detected to run this container\n");
  ASSERT_TRUE(leads_with(r, "ngc-image-older-than-gpu"));
  EXPECT_EQ(r.matches.front().category, "gpu-arch-unsupported");
  EXPECT_NE(r.matches.front().cause.find("RTX 4060"), std::string::npos) << r.matches.front().cause;
  EXPECT_NE(r.matches.front().fix.find("NVIDIA_DISABLE_REQUIRE"), std::string::npos) << r.matches.front().fix;
  EXPECT_EQ(find_rule(explain_no_facts("ERROR: No GPU detected"), "ngc-image-older-than-gpu"), nullptr);
}

TEST(ExplainContainer, AnNgcImageNeedingANewerDriverIsTheHostsDriver) {
  const auto r = explain_no_facts(
      "ERROR: This container was built for NVIDIA Driver Release 535.86 or later, but\n"
      "       version 525.125.06 was detected and compatibility mode is UNAVAILABLE.\n");
  ASSERT_TRUE(leads_with(r, "ngc-image-needs-newer-driver"));
  EXPECT_EQ(r.matches.front().category, "driver-too-old");
  EXPECT_NE(r.matches.front().cause.find("535.86"), std::string::npos) << r.matches.front().cause;
}

TEST(ExplainContainer, DockersGpuCapabilityErrorWithoutTheQuotedDriverName) {
  // Docker Compose v2 words the daemon's error without the empty driver name in quotes.
  EXPECT_TRUE(leads_with(explain_no_facts("Error response from daemon: could not select device driver with "
                                          "capabilities: [[gpu]]"),
                         "docker-no-gpu-driver"));
}

TEST(ExplainContainer, NvmlInsufficientPermissionsIsTheContainersDeviceAccessFirst) {
  // The driver creates /dev/nvidia* world-readable by default (NVreg_DeviceFileMode 0666), so a
  // refusal is a container's device cgroup or SELinux unless the host restricted the nodes.
  const std::string line = "Failed to initialize NVML: Insufficient Permissions\n";
  auto r = explain_no_facts(line);
  ASSERT_TRUE(leads_with(r, "nvml-insufficient-permissions"));
  EXPECT_EQ(r.matches.front().category, "container/docker-runtime");
  Facts host;
  host.platform = Platform::linux;
  r = explain_text(testing::builtin_matcher(), line, ExplainMachine{Platform::linux, &host});
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "other");
}

// libnvidia-container's WSL path finding no adapter: the Windows driver first, WSL itself second.
TEST(ExplainContainer, WslWithoutAdaptersIsTheWindowsDriverFirst) {
  const ExplainReport r = explain_no_facts(
      "nvidia-container-cli: initialization error: WSL environment detected but no adapters were found: unknown.\n");
  ASSERT_TRUE(leads_with(r, "wsl-container-no-adapters"));
  EXPECT_EQ(r.matches.front().category, "driver-missing");
  ASSERT_GE(r.matches.size(), 2u);
  EXPECT_EQ(r.matches[1].category, "wsl2-specific");
}

// NVML's Not Supported at init: WSL2's libraries first; outside WSL2 the container's own copy.
TEST(ExplainContainer, NvmlNotSupportedIsWslFirstAndTheContainerOutsideIt) {
  ExplainReport r = explain_no_facts("Failed to initialize NVML: Not Supported\n");
  ASSERT_TRUE(leads_with(r, "nvml-init-not-supported"));
  EXPECT_EQ(r.matches.front().category, "wsl2-specific");
  r = explain_text(testing::builtin_matcher(), "Failed to initialize NVML: Not Supported\n",
                   ExplainMachine{Platform::wsl2});
  ASSERT_TRUE(leads_with(r, "nvml-init-not-supported"));
  r = explain_text(testing::builtin_matcher(), "Failed to initialize NVML: Not Supported\n",
                   ExplainMachine{Platform::linux});
  ASSERT_TRUE(leads_with(r, "nvml-init-not-supported/container-libraries"));
  EXPECT_EQ(r.matches.front().category, "container/docker-runtime");
}

// CUDA's 804: the driver is too old for the program's CUDA; cuda-compat cannot bridge it on a
// GeForce. The fix is the driver, so that is the first answer, the image's compat package second.
TEST(ExplainContainer, ForwardCompatibilityOnAGeforceIsTheDriverFirst) {
  const ExplainReport r = explain_no_facts("Error 804: forward compatibility was attempted on non supported HW\n");
  ASSERT_TRUE(leads_with(r, "cuda-forward-compat-unsupported"));
  EXPECT_EQ(r.matches.front().category, "driver-too-old");
  EXPECT_NE(find_rule(r, "cuda-forward-compat-unsupported/container-compat-package"), nullptr);
}

}  // namespace
}  // namespace gpudoctor
