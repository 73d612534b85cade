// Session 43 review D (2): a GPU that is absent, hidden or asleep (docs: "Unseen logs, session 43
// review D (2): a GPU that is absent, hidden or asleep").
// - The NVIDIA module's "probe routine was not called" block: another driver (nouveau) owns the GPU
//   (log 03).
// - cuInit's CUDA_ERROR_NO_DEVICE on a machine with no NVIDIA GPU (a VM without passthrough): the
//   answer says how to tell, and leads with "harmless" where the machine has no GPU (log 04).
// - The miners' "Unable to query CUDA driver version! Is an nVidia driver installed?" and Windows'
//   Remote Desktop (log 07).
// - TensorFlow's cudart dlerror with its own "Ignore above cudart dlerror" and no GPU found after it:
//   a CPU-only machine first (log 13).
// - NV-CONTROL (XNVCtrl, nvidia-settings) without an X display on a headless server (log 14).
// - PyTorch's cudaGetDeviceCount() Error 304 in a sandbox (an SGX enclave under Gramine; log 16).
// - A hybrid laptop's discrete GPU stuck in D3cold after bbswitch (log 17).
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "explain/explain_session.hpp"
#include "explain_test_support.hpp"
#include "model/facts.hpp"

namespace gpudoctor {
namespace {

using testing::builtin_matcher;
using testing::explain_no_facts;
using testing::explain_on;
using testing::find_rule;
using testing::leads_with;
using testing::leads_without;
using testing::mentions;
using testing::problem_count;
using testing::rule_list;
using testing::says_all;
using testing::told;

// /tmp/rev43d/logs/03.txt (verbatim), https://github.com/mattshma/bigdata/issues/133
constexpr std::string_view kReview43d2NouveauProbeLog = R"LOG([188497.595099] NVRM: No NVIDIA graphics adapter probed!
[188497.595838] nvidia-nvlink: Unregistered the Nvlink Core, major device number 239
[188549.975172] nvidia-nvlink: Nvlink Core is being initialized, major device number 239
[188549.976351] NVRM: The NVIDIA probe routine was not called for 3 device(s).
[188549.977053] NVRM: This can occur when a driver such as: 
NVRM: nouveau, rivafb, nvidiafb or rivatv 
NVRM: was loaded and obtained ownership of the NVIDIA device(s).
[188549.978961] NVRM: Try unloading the conflicting kernel module (and/or
NVRM: reconfigure your kernel without the conflicting
NVRM: driver(s)), then try loading the NVIDIA kernel module
NVRM: again.
)LOG";

// /tmp/rev43d/logs/04.txt (verbatim), https://github.com/RasaHQ/rasa/issues/4955
constexpr std::string_view kReview43d2RasaVmCuInitLog =
    R"LOG(%rasa run -m models --enable-api --log-file out.log --cors "*" --credentials credentials.yml
2019-12-11 21:50:52 INFO     root  - Starting Rasa server on http://localhost:5005
2019-12-11 21:50:56 INFO     absl  - Entry Point [tensor2tensor.envs.tic_tac_toe_env:TicTacToeEnv] registered with id [T2TEnv-TicTacToeEnv-v0]
2019-12-11 21:51:21 INFO     rasa.nlu.components  - Added 'SpacyNLP' to component cache. Key 'SpacyNLP-en'.
2019-12-11 21:51:22.111707: E tensorflow/stream_executor/cuda/cuda_driver.cc:318] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected
)LOG";

// /tmp/rev43d/logs/07.txt (verbatim), https://github.com/cbuchner1/CudaMiner/issues/102
constexpr std::string_view kReview43d2CudaMinerRdpLog =
    R"LOG(Unable to query CUDA driver version! Is an nVidia driver installed?
)LOG";

// /tmp/rev43d/logs/13.txt (verbatim), https://github.com/tensorflow/tensorflow/issues/35872
constexpr std::string_view kReview43d2TfCudartCpuLog =
    R"LOG(tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load dynamic library 'cudart64_101.dll'; dlerror: cudart64_101.dll not found
 I tensorflow/stream_executor/cuda/cudart_stub.cc:29] Ignore above cudart dlerror if you do not have a GPU set up on your machine.
)LOG";

// /tmp/rev43d/logs/14.txt (verbatim), https://github.com/foucault/nvfancontrol/issues/46
constexpr std::string_view kReview43d2XnvCtrlHeadlessLog =
    R"LOG(ERROR - XNVCtrl failed: XOpenDisplay failed; is $DISPLAY set?
)LOG";

// /tmp/rev43d/logs/16.txt (verbatim), https://github.com/gramineproject/examples/issues/97
constexpr std::string_view kReview43d2GramineError304Log =
    R"LOG(/home/hh/miniconda3/envs/gyl/lib/python3.8/site-packages/torch/cuda/__init__.py:88: UserWarning: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 304: OS call failed or operation not supported on this OS (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:109.)
  return torch._C._cuda_getDeviceCount() > 0
False
)LOG";

// /tmp/rev43d/logs/17.txt (verbatim), https://github.com/Bumblebee-Project/bbswitch/issues/226
constexpr std::string_view kReview43d2BbswitchD3coldLog = R"LOG(sudo tee /proc/acpi/bbswitch <<<ON
sudo modprobe nvidia
sudo modprobe nvidia_modeset
sudo modprobe nvidia_drm
sudo modprobe nvidia_uvm
sudo /usr/bin/nvidia-modprobe -c 0 -u
```

The commands complete fine, the status inside `/proc/acpi/bbswitch` says `ON`, but if I run nvidia-smi I get
`No devices were found`. Similarly I can't run any process on the GPU.

Checking dmesg I can see an obvious problem
```
[939155.445439] bbswitch: enabling discrete graphics
[939156.023420] pci 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible
[939156.182302] nvidia-nvlink: Nvlink Core is being initialized, major device number 505
[939156.182309] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.78  Sun Apr 14 06:35:45 UTC 2024
[939156.261562] nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  550.78  Sun Apr 14 06:23:31 UTC 2024
)LOG";

// --- 03: the NVIDIA module's probe routine was not called: another driver holds the GPU ---

TEST(ExplainReview43D2, ProbeRoutineNotCalledIsAnotherDriverHoldingTheGpu) {
  const auto r = explain_no_facts(kReview43d2NouveauProbeLog);
  ASSERT_TRUE(leads_without(r, "nvidia-probe-not-called", {"kernel-module-no-device"})) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"3 device(s)", "nouveau"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"lspci -nnk -d 10de:", "blacklist nouveau", "options nouveau modeset=0",
                                  "update-initramfs -u", "dracut -f", "reboot", "modprobe nvidia"}))
      << lead.fix;
}

TEST(ExplainReview43D2, OldDriversNoAdapterProbedLineAloneIsTheNoDeviceAnswer) {
  // The older drivers' closing line (nv.c before the open modules: "No NVIDIA graphics adapter
  // probed!") without the probe block: no GPU it could drive, not "nouveau" by itself.
  const auto r = explain_no_facts("[   18.761447] NVRM: No NVIDIA graphics adapter probed!\n");
  ASSERT_TRUE(leads_with(r, "kernel-module-no-device")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "nvidia-probe-not-called"), nullptr) << rule_list(r);
}

TEST(ExplainReview43D2, NearMissAGpuBoundToVfioNamesVfioNotNouveau) {
  // A passthrough host: the module names the driver that holds the GPU; that line decides.
  const auto r = explain_no_facts(
      "[  530.504375] NVRM: GPU 0000:41:00.0 is already bound to vfio-pci.\n"
      "[  530.504692] NVRM: The NVIDIA probe routine was not called for 1 device(s).\n"
      "[  530.504694] NVRM: No NVIDIA devices probed.\n");
  ASSERT_TRUE(leads_without(r, "nvidia-gpu-bound-to-other-driver", {"nvidia-probe-not-called"})) << rule_list(r);
}

// --- 04: cuInit's CUDA_ERROR_NO_DEVICE where there is no NVIDIA GPU (a VM) ---

TEST(ExplainReview43D2, CuInitNoDeviceSaysHowToTellAVmWithoutAGpu) {
  const auto r = explain_no_facts(kReview43d2RasaVmCuInitLog);
  ASSERT_TRUE(leads_with(r, "cuinit-no-device")) << rule_list(r);
  ASSERT_GE(r.matches.size(), 2u);
  // The cause that needs no driver at all comes right after the lead, before the driver branches.
  EXPECT_EQ(r.matches[1].rule, "cuinit-no-device/no-nvidia-gpu") << rule_list(r);
  EXPECT_TRUE(says_all(r.matches[1].cause, {"virtual machine", "passthrough", "CPU"})) << r.matches[1].cause;
  EXPECT_TRUE(says_all(r.matches[1].fix, {"tensorflow-cpu", "TF_CPP_MIN_LOG_LEVEL"})) << r.matches[1].fix;
  // The lead no longer says "install the driver" without first asking whether there is a GPU.
  EXPECT_TRUE(says_all(r.matches.front().fix, {"lspci", "no NVIDIA GPU"})) << r.matches.front().fix;
}

TEST(ExplainReview43D2, CuInitNoDeviceOnAMachineWithoutGpuOrDriverIsHarmless) {
  Facts f;
  f.platform = Platform::linux;
  const auto r = explain_text(builtin_matcher(), kReview43d2RasaVmCuInitLog, ExplainMachine{Platform::linux, &f});
  ASSERT_TRUE(leads_with(r, "cuinit-no-device/no-nvidia-gpu")) << rule_list(r);
  EXPECT_TRUE(r.matches.front().harmless);
  EXPECT_EQ(problem_count(r), 0u) << rule_list(r);
}

TEST(ExplainReview43D2, NearMissCuInitNoDeviceOnAnNvidiaMachineStillSaysInstallTheDriver) {
  // A real NVIDIA GPU, no driver loaded: the driver is the answer, and "no GPU" is not.
  Facts f;
  f.platform = Platform::linux;
  f.gpus.push_back(GpuFacts{.name = "NVIDIA GeForce RTX 3060"});
  const auto r = explain_text(builtin_matcher(), kReview43d2RasaVmCuInitLog, ExplainMachine{Platform::linux, &f});
  ASSERT_TRUE(leads_with(r, "cuinit-no-device")) << rule_list(r);
  EXPECT_FALSE(r.matches.front().harmless);
  EXPECT_TRUE(mentions(r.matches.front().fix, "install/load the driver")) << r.matches.front().fix;
  const auto* none = find_rule(r, "cuinit-no-device/no-nvidia-gpu");
  EXPECT_TRUE(none == nullptr || none != &r.matches[1]) << rule_list(r);
}

// --- 07: "Unable to query CUDA driver version! Is an nVidia driver installed?" ---

TEST(ExplainReview43D2, MinersDriverVersionQueryNamesTheDriverAndRemoteDesktop) {
  const auto r = explain_no_facts(kReview43d2CudaMinerRdpLog);
  ASSERT_TRUE(leads_with(r, "cuda-driver-version-query-failed")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().cause, {"cudaDriverGetVersion"})) << r.matches.front().cause;
  EXPECT_TRUE(says_all(r.matches.front().fix, {"nvidia-smi", "install"})) << r.matches.front().fix;
  const auto* rdp = find_rule(r, "cuda-driver-version-query-failed/remote-desktop");
  ASSERT_NE(rdp, nullptr) << rule_list(r);
  EXPECT_TRUE(says_all(rdp->cause, {"Remote Desktop"})) << rdp->cause;
  EXPECT_TRUE(says_all(rdp->fix, {"VNC", "tscon"})) << rdp->fix;
}

TEST(ExplainReview43D2, DriverVersionQueryOnWindowsWithADriverLeadsWithRemoteDesktop) {
  Facts f;
  f.platform = Platform::windows;
  f.driver.version = Version::parse("372.70");
  f.gpus.push_back(GpuFacts{.name = "NVIDIA GeForce GTX 1070"});
  const auto r = explain_text(builtin_matcher(), kReview43d2CudaMinerRdpLog, ExplainMachine{Platform::windows, &f});
  ASSERT_TRUE(leads_with(r, "cuda-driver-version-query-failed/remote-desktop")) << rule_list(r);
}

TEST(ExplainReview43D2, NearMissDriverVersionQueryOnWindowsWithoutADriverSaysInstallIt) {
  // Windows, but no NVIDIA driver on the machine: installing one is the answer, not Remote Desktop.
  Facts f;
  f.platform = Platform::windows;
  f.gpus.push_back(GpuFacts{.name = "NVIDIA GeForce GTX 1070"});
  const auto r = explain_text(builtin_matcher(), kReview43d2CudaMinerRdpLog, ExplainMachine{Platform::windows, &f});
  ASSERT_TRUE(leads_with(r, "cuda-driver-version-query-failed")) << rule_list(r);
}

TEST(ExplainReview43D2, NearMissDriverVersionQueryOnLinuxHasNoRemoteDesktop) {
  const auto r = explain_on(Platform::linux, kReview43d2CudaMinerRdpLog);
  ASSERT_TRUE(leads_with(r, "cuda-driver-version-query-failed")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "cuda-driver-version-query-failed/remote-desktop"), nullptr) << rule_list(r);
  EXPECT_FALSE(mentions(told(r), "Remote Desktop")) << told(r);
}

// --- 13: TensorFlow's cudart dlerror on a machine without a GPU ---

TEST(ExplainReview43D2, TfCudartDlerrorWithItsIgnoreNoteAndNoGpuLeadsHarmless) {
  const auto r = explain_no_facts(kReview43d2TfCudartCpuLog);
  ASSERT_TRUE(leads_with(r, "cudart-missing/tf-no-gpu-found")) << rule_list(r);
  EXPECT_TRUE(r.matches.front().harmless);
  EXPECT_EQ(problem_count(r), 0u) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"CPU", "cudart64_101.dll"})) << r.matches.front().fix;
  // The toolkit answer is still there, for a machine that has a GPU to use.
  EXPECT_NE(find_rule(r, "cudart-missing"), nullptr) << rule_list(r);
}

TEST(ExplainReview43D2, NearMissTfCudartDlerrorThenAGpuFoundIsTheMissingRuntime) {
  // TensorFlow found the GPU after the note (either line says so): the machine has one, and the
  // runtime is missing.
  for (const char* found :
       {"2021-03-02 10:00:05.000003: I tensorflow/stream_executor/platform/default/dso_loader.cc:49] Successfully "
        "opened dynamic library libcuda.so.1\n",
        "2021-03-02 10:00:05.000004: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1720] Found device 0 with "
        "properties: \n"}) {
    const auto r = explain_no_facts(
        std::string("2021-03-02 10:00:00.000001: W tensorflow/stream_executor/platform/default/dso_loader.cc:60] "
                    "Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open "
                    "shared object file: No such file or directory\n"
                    "2021-03-02 10:00:00.000002: I tensorflow/stream_executor/cuda/cudart_stub.cc:29] Ignore above "
                    "cudart dlerror if you do not have a GPU set up on your machine.\n") +
        found);
    ASSERT_TRUE(leads_with(r, "cudart-missing")) << found << rule_list(r);
    EXPECT_FALSE(r.matches.front().harmless);
    EXPECT_EQ(find_rule(r, "cudart-missing/tf-no-gpu-found"), nullptr) << found << rule_list(r);
  }
}

TEST(ExplainReview43D2, NearMissTfCudartNoteOnAMachineWithAnNvidiaGpuKeepsTheToolkitAnswer) {
  // The log alone says "no GPU"; this machine's facts say it has one: the runtime is what is missing.
  Facts f;
  f.platform = Platform::windows;
  f.gpus.push_back(GpuFacts{.name = "NVIDIA GeForce GTX 1660"});
  const auto r = explain_text(builtin_matcher(), kReview43d2TfCudartCpuLog, ExplainMachine{Platform::windows, &f});
  ASSERT_TRUE(leads_with(r, "cudart-missing")) << rule_list(r);
  EXPECT_FALSE(r.matches.front().harmless);
}

TEST(ExplainReview43D2, NearMissCudartDlerrorWithoutTfsNoteKeepsTheToolkitAnswer) {
  const auto r = explain_no_facts(
      "tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load dynamic library "
      "'cudart64_101.dll'; dlerror: cudart64_101.dll not found\n");
  ASSERT_TRUE(leads_with(r, "cudart-missing")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "cudart-missing/tf-no-gpu-found"), nullptr) << rule_list(r);
}

// --- 14: NV-CONTROL without an X display ---

TEST(ExplainReview43D2, XnvCtrlWithoutADisplayIsAHeadlessServer) {
  const auto r = explain_no_facts(kReview43d2XnvCtrlHeadlessLog);
  ASSERT_TRUE(leads_with(r, "nv-control-no-x-display")) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"X server", "headless"})) << lead.cause;
  EXPECT_TRUE(says_all(
      lead.fix, {"nvidia-smi", "nvidia-xconfig --allow-empty-initial-configuration", "DISPLAY=:0", "XAUTHORITY"}))
      << lead.fix;
}

TEST(ExplainReview43D2, NvidiaSettingsWithoutADisplayIsTheSameAnswer) {
  const auto r = explain_no_facts("ERROR: Unable to find display on any available system\n");
  ASSERT_TRUE(leads_with(r, "nv-control-no-x-display")) << rule_list(r);
}

TEST(ExplainReview43D2, NearMissAnotherXClientWithoutADisplayIsNotNvControl) {
  for (const char* line : {"Error: unable to open display\n", "glxinfo: XOpenDisplay failed; is $DISPLAY set?\n",
                           "(EE) Error: XOpenDisplay failed for :0\n"}) {
    const auto r = explain_no_facts(line);
    EXPECT_EQ(find_rule(r, "nv-control-no-x-display"), nullptr) << line << rule_list(r);
  }
}

// --- 16: cudaGetDeviceCount() Error 304 in a sandbox ---

TEST(ExplainReview43D2, TorchError304IsTheSandboxRefusingTheDriversCalls) {
  const auto r = explain_no_facts(kReview43d2GramineError304Log);
  ASSERT_TRUE(leads_without(r, "cuda-device-count-os-call-failed", {"code/cudart/cudaErrorOperatingSystem"}))
      << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"304", "sandbox", "SGX", "gVisor", "/dev/nvidia"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"outside", "nvidia-smi"})) << lead.fix;
}

TEST(ExplainReview43D2, TorchError304UnderGramineLeadsWithTheEnclave) {
  for (const char* marker : {"$ gramine-sgx ./pytorch pytorchexample.py\n",
                             "Gramine is starting. Parsing TOML manifest file, this may take some time...\n"}) {
    const auto r = explain_no_facts(std::string(marker) + std::string(kReview43d2GramineError304Log));
    ASSERT_TRUE(leads_with(r, "cuda-device-count-os-call-failed/sgx-enclave")) << marker << rule_list(r);
    EXPECT_TRUE(says_all(r.matches.front().cause, {"Gramine", "no GPU"})) << r.matches.front().cause;
    EXPECT_TRUE(mentions(r.matches.front().fix, "outside the enclave")) << r.matches.front().fix;
  }
}

TEST(ExplainReview43D2, NearMissOtherDeviceCountErrorsAreNotTheSandbox) {
  const auto r = explain_no_facts(
      "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling "
      "NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non "
      "supported HW\n");
  EXPECT_EQ(find_rule(r, "cuda-device-count-os-call-failed"), nullptr) << rule_list(r);
  const auto r2 = explain_no_facts(kReview43d2RasaVmCuInitLog);
  EXPECT_EQ(find_rule(r2, "cuda-device-count-os-call-failed/sgx-enclave"), nullptr) << rule_list(r2);
}

// --- 17: a hybrid laptop's discrete GPU stuck in D3cold ---

TEST(ExplainReview43D2, DgpuStuckInD3coldAfterBbswitchIsPowerNotTheDriver) {
  const auto r = explain_no_facts(kReview43d2BbswitchD3coldLog);
  ASSERT_TRUE(leads_with(r, "gpu-stuck-in-d3cold")) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"0000:01:00.0", "D3cold", "No devices were found"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"Reboot", "bbswitch", "prime-select", "NVreg_DynamicPowerManagement=0x02"}))
      << lead.fix;
}

TEST(ExplainReview43D2, D3coldExplainsNvidiaSmisNoDevices) {
  const auto r = explain_no_facts(std::string(kReview43d2BbswitchD3coldLog) + "$ nvidia-smi\nNo devices were found\n");
  ASSERT_TRUE(leads_without(r, "gpu-stuck-in-d3cold", {"nvidia-smi-no-devices"})) << rule_list(r);
}

TEST(ExplainReview43D2, TheNvidiaModulesOwnD3coldLineNeedsNoOtherSign) {
  const auto r = explain_no_facts(
      "[ 1203.118402] nvidia 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible\n");
  ASSERT_TRUE(leads_with(r, "gpu-stuck-in-d3cold")) << rule_list(r);
}

TEST(ExplainReview43D2, NearMissOtherDevicesStuckInD3AreNotTheGpu) {
  // Another device's driver, the RTX cards' USB-C controller (nvidia-gpu, the UCSI i2c driver), and an
  // unbound PCI device in a log with no NVIDIA GPU in it.
  for (const char* line :
       {"[    9.358051] nvme 0000:02:00.0: Unable to change power state from D3cold to D0, device inaccessible\n",
        "[ 9426.768449] nvidia-gpu 0000:0b:00.3: Unable to change power state from D3hot to D0, device inaccessible\n",
        "[ 1089.373036] pci 0000:03:00.0: Unable to change power state from D3cold to D0, device inaccessible\n"}) {
    const auto r = explain_no_facts(line);
    EXPECT_EQ(find_rule(r, "gpu-stuck-in-d3cold"), nullptr) << line << rule_list(r);
  }
}

TEST(ExplainReview43D2, NearMissTheUsbCControllerInD3IsNotTheGpuEvenBesideNvrm) {
  // The gate is open (NVRM lines), and the USB-C controller's line is still not the GPU's.
  const auto r = explain_no_facts(
      "[    5.559858] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n"
      "[ 9426.768449] nvidia-gpu 0000:0b:00.3: Unable to change power state from D3hot to D0, device inaccessible\n");
  EXPECT_EQ(find_rule(r, "gpu-stuck-in-d3cold"), nullptr) << rule_list(r);
}

}  // namespace
}  // namespace gpudoctor
