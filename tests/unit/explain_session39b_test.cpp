// Session 39 (B): answers chosen by what the log shows about itself.
// - vLLM's "no kernel image": vLLM compiles its own CUDA kernels (vllm/_C.abi3.so, csrc/) for the
//   architectures of its build (CMakeLists.txt CUDA_SUPPORTED_ARCHS), so the fix is a vLLM build
//   for the GPU, not a PyTorch wheel (vllm-project/vllm#14452, #629; log-fact-vllm-log).
// - NVML's "Driver/library version mismatch": the kernel module's and the libraries' versions,
//   where the log shows both (/proc/driver/nvidia/version, the RM's "API mismatch" lines from
//   src/nvidia/arch/nvalloc/unix/src/osapi.c, `NVML library version`, dpkg), choose between
//   "two branches installed / upgrade half-done" and "updated without a reboot"
//   (illinois-scicomp/machine-shop-maintenance#70, Syllo/nvtop#125; log-fact-nvidia-driver-versions).
// - A container runtime's CDI error with cudart's "driver insufficient": regenerate the CDI spec
//   (ollama/ollama#15400; log-fact-cdi-error).
#include <gtest/gtest.h>

#include <string>

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

// vllm-project/vllm#14452 (turn 117): the V1 engine core's log on an RTX 50xx.
TEST(ExplainSession39B, VllmNoKernelImageLeadsWithAVllmBuildNotAPytorchWheel) {
  const std::string log =
      "ERROR 07-28 15:07:22 [core.py:632]     _ = torch.zeros(1, device=device)\n"
      "ERROR 07-28 15:07:22 [core.py:632]         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
      "ERROR 07-28 15:07:22 [core.py:632] RuntimeError: CUDA error: no kernel image is available for execution on "
      "the device\n"
      "ERROR 07-28 15:07:22 [core.py:632] CUDA kernel errors might be asynchronously reported at some other API call, "
      "so the stacktrace below might be incorrect.\n"
      "ERROR 07-28 15:07:22 [core.py:632] For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
      "ERROR 07-28 15:07:22 [core.py:632] Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n"
      "ERROR 07-28 15:07:22 [core.py:632] \n"
      "Process EngineCore_0:\n"
      "Traceback (most recent call last):\n"
      "  File \"/usr/lib/python3.12/multiprocessing/process.py\", line 314, in _bootstrap\n"
      "    self.run()\n"
      "  File \"/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py\", line 636, in run_engine_core\n"
      "    raise e\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "no-kernel-image/vllm")) << rule_list(r);
  const auto& m = r.matches.front();
  EXPECT_TRUE(says_all(m.cause, {"vLLM", "_C.abi3.so", "pins"}));
  EXPECT_TRUE(says_all(m.fix, {"cuobjdump", "TORCH_CUDA_ARCH_LIST", "vllm/vllm-openai"}));
  EXPECT_FALSE(mentions(m.fix, "download.pytorch.org")) << m.fix;
  EXPECT_FALSE(mentions(m.fix, "pip install torch")) << m.fix;

  // vllm-project/vllm#629: the old logger format (no brackets), a source checkout's paths.
  const auto old = explain_no_facts(
      "INFO 09-25 06:17:04 llm_engine.py:72] Initializing an LLM engine with config: "
      "model='/workspace/Qwen-7B/weights/Qwen-7B-Chat/', tokenizer_mode=auto, trust_remote_code=True\n"
      "Traceback (most recent call last):\n"
      "  File \"/root/vllm/vllm/entrypoints/api_server.py\", line 177, in <module>\n"
      "    engine = AsyncLLMEngine.from_engine_args(engine_args)\n"
      "RuntimeError: CUDA error: no kernel image is available for execution on the device\n");
  EXPECT_TRUE(leads_with(old, "no-kernel-image/vllm")) << rule_list(old);

  // Each of vLLM's marks alone: the logger's prefix (bracketed, and a worker's older one), a
  // traceback frame in its installed package.
  const std::string kError = "RuntimeError: CUDA error: no kernel image is available for execution on the device\n";
  for (const std::string& alone :
       {"ERROR 07-28 15:07:22 [core.py:632] " + kError,
        "(VllmWorkerProcess pid=8498) ERROR 12-25 12:05:59 multiproc_worker_utils.py:226] " + kError,
        "  File \"/home/ubuntu/.venv/lib/python3.12/site-packages/vllm/v1/worker/gpu_worker.py\", line 143, in "
        "init_device\n" +
            kError,
        "  File \"/opt/venv/lib/python3.10/site-packages/vllm/_custom_ops.py\", line 58, in paged_attention_v1\n" +
            kError}) {
    const auto v = explain_no_facts(alone);
    EXPECT_TRUE(leads_with(v, "no-kernel-image/vllm")) << alone << rule_list(v);
  }
}

// PyTorch's own warning in a vLLM log (vllm-project/vllm#16901, RTX 5090): the torch is vLLM's pinned one.
TEST(ExplainSession39B, TorchCapabilityWarningInAVllmLogNamesAVllmRelease) {
  const std::string kWarning =
      "/usr/local/lib/python3.12/dist-packages/torch/cuda/__init__.py:262: UserWarning: \n"
      "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch "
      "installation.\n"
      "The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.\n";
  const auto r =
      explain_no_facts("INFO 04-21 10:12:03 [__init__.py:239] Automatically detected platform cuda.\n" + kWarning);
  ASSERT_TRUE(leads_with(r, "torch-capability-not-compatible/vllm")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"vLLM release", "Do not install another torch wheel"}));
  // Near miss: the warning alone keeps PyTorch's wheel advice.
  const auto plain = explain_no_facts(kWarning);
  ASSERT_TRUE(leads_without(plain, "torch-capability-not-compatible", {"torch-capability-not-compatible/vllm"}));
}

// Near miss: the same error from a plain PyTorch program keeps the framework answer.
TEST(ExplainSession39B, PytorchNoKernelImageKeepsTheWheelAnswer) {
  const auto r = explain_no_facts(
      "Traceback (most recent call last):\n"
      "  File \"/home/me/train.py\", line 12, in <module>\n"
      "    x = torch.zeros(1, device=\"cuda\")\n"
      "RuntimeError: CUDA error: no kernel image is available for execution on the device\n");
  ASSERT_TRUE(leads_with(r, "no-kernel-image")) << rule_list(r);
  EXPECT_TRUE(mentions(r.matches.front().fix, "download.pytorch.org")) << r.matches.front().fix;
  EXPECT_EQ(find_rule(r, "no-kernel-image/vllm"), nullptr) << rule_list(r);
}

// Log 08 (illinois-scicomp/machine-shop-maintenance#70): module 520.56.06, nvidia-smi 525.85.12.
TEST(ExplainSession39B, NvmlMismatchAcrossBranchesIsTwoBranchesNotAMissingReboot) {
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
  ASSERT_TRUE(leads_with(r, "nvml-driver-library-mismatch/other-branch")) << rule_list(r);
  const auto& m = r.matches.front();
  EXPECT_TRUE(mentions(m.cause, "two different driver branches")) << m.cause;
  EXPECT_TRUE(says_all(m.fix, {"--fix-broken", "purge", "dkms status"}));
  EXPECT_FALSE(m.fix.starts_with("Reboot")) << m.fix;
  EXPECT_EQ(find_rule(r, "nvml-driver-library-mismatch/same-branch"), nullptr) << rule_list(r);
}

// The same branch, another release: an update without a reboot. The RM's lines in the format of
// 575.51.02 and later (osapi.c), and nvidia-smi's library version.
TEST(ExplainSession39B, NvmlMismatchInOneBranchIsAnUpdateWithoutReboot) {
  const std::string log =
      "$ nvidia-smi\n"
      "Failed to initialize NVML: Driver/library version mismatch\n"
      "NVML library version: 575.64\n"
      "$ sudo dmesg | grep NVRM\n"
      "[ 1820.531003] NVRM: API mismatch: the client 'nvidia-smi' (pid 4121)\n"
      "[ 1820.531004] NVRM: has the version 575.64.03, but this kernel module has\n"
      "[ 1820.531005] NVRM: the version 575.51.02.  Please make sure that this\n"
      "[ 1820.531006] NVRM: kernel module and all NVIDIA driver components\n"
      "[ 1820.531007] NVRM: have the same version.\n";
  const auto r = explain_no_facts(log);
  ASSERT_FALSE(r.matches.empty());
  const std::string& lead = r.matches.front().rule;
  EXPECT_TRUE(lead == "nvml-driver-library-mismatch/same-branch" || lead == "kernel-module-api-mismatch/same-branch")
      << rule_list(r);
  EXPECT_TRUE(r.matches.front().fix.starts_with("Reboot")) << r.matches.front().fix;
  EXPECT_TRUE(mentions(r.matches.front().fix, "rmmod")) << r.matches.front().fix;
  // The new format's lines are the API-mismatch rule's too, each on its own.
  ASSERT_NE(find_rule(r, "kernel-module-api-mismatch/same-branch"), nullptr) << rule_list(r);
  for (const char* line : {"[ 1820.531003] NVRM: API mismatch: the client 'nvidia-smi' (pid 4121)\n",
                           "[ 1820.531004] NVRM: has the version 575.64.03, but this kernel module has\n",
                           "[ 1820.531005] NVRM: the version 575.51.02.  Please make sure that this\n"}) {
    const auto alone = explain_no_facts(line);
    EXPECT_TRUE(leads_with(alone, "kernel-module-api-mismatch")) << line << rule_list(alone);
  }
  // Each source of the versions on its own: the RM's two lines; nvidia-smi's library version with
  // /proc/driver/nvidia/version.
  const auto rm = explain_no_facts(
      "[ 1820.531004] NVRM: has the version 575.64.03, but this kernel module has\n"
      "[ 1820.531005] NVRM: the version 575.51.02.  Please make sure that this\n");
  EXPECT_TRUE(leads_with(rm, "kernel-module-api-mismatch/same-branch")) << rule_list(rm);
  const auto smi = explain_no_facts(
      "Failed to initialize NVML: Driver/library version mismatch\n"
      "NVML library version: 535.154\n"
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03  Thu Oct 19 18:56:32 UTC 2023\n");
  EXPECT_TRUE(leads_with(smi, "nvml-driver-library-mismatch/same-branch")) << rule_list(smi);
  // nvidia-smi's short version that agrees with the module's as far as it goes is no mismatch of
  // versions: nothing is claimed.
  const auto agree = explain_no_facts(
      "Failed to initialize NVML: Driver/library version mismatch\n"
      "NVML library version: 535.129\n"
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03  Thu Oct 19 18:56:32 UTC 2023\n");
  EXPECT_TRUE(leads_without(agree, "nvml-driver-library-mismatch",
                            {"nvml-driver-library-mismatch/other-branch", "nvml-driver-library-mismatch/same-branch"}));
  // Both versions on one line (a paste of the older format's two lines).
  const auto one = explain_no_facts(
      "NVRM: API mismatch: the client has the version 535.154.05, but this kernel module has the version "
      "535.129.03\n");
  EXPECT_TRUE(leads_with(one, "kernel-module-api-mismatch/same-branch")) << rule_list(one);
  const auto two = explain_no_facts(
      "[   52.396206] NVRM: API mismatch: the client has the version 550.54.14, but\n"
      "[   52.396210] NVRM: this kernel module has the version 535.129.03.  Please\n");
  EXPECT_TRUE(leads_with(two, "kernel-module-api-mismatch/other-branch")) << rule_list(two);
}

// Near miss: log 07 (Syllo/nvtop#125) shows no version: the answer is the rule's own, both
// readings in one, and neither versioned reading is claimed.
TEST(ExplainSession39B, NvmlMismatchWithoutVersionsKeepsItsOwnAnswer) {
  const auto r = explain_no_facts(
      "~$ nvtop\n"
      "Impossible to initialize nvidia nvml : Driver/library version mismatch\n"
      "~$ nvidia-smi\n"
      "Failed to initialize NVML: Driver/library version mismatch\n");
  ASSERT_TRUE(leads_with(r, "nvml-driver-library-mismatch")) << rule_list(r);
  EXPECT_TRUE(r.matches.front().fix.starts_with("Reboot")) << r.matches.front().fix;
  EXPECT_TRUE(mentions(r.matches.front().fix, "--fix-broken")) << "both readings' steps";
  EXPECT_EQ(find_rule(r, "nvml-driver-library-mismatch/other-branch"), nullptr) << rule_list(r);
  EXPECT_EQ(find_rule(r, "nvml-driver-library-mismatch/same-branch"), nullptr) << rule_list(r);
  // libnvidia-container's own version (1.x) is no driver version.
  const auto c = explain_no_facts(
      "nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown.\n"
      "ii  libnvidia-container1:amd64  1.17.8-1  amd64  NVIDIA container runtime library\n"
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.133.07  Fri Mar 14 13:12:07 UTC 2025\n");
  ASSERT_TRUE(leads_without(c, "nvml-driver-library-mismatch", {"nvml-driver-library-mismatch/other-branch"}));
}

// ollama/ollama#15400's symptom with the container runtime's CDI error in the same paste.
TEST(ExplainSession39B, DriverInsufficientWithACdiErrorLeadsWithRegeneratingTheSpec) {
  const std::string log =
      "$ docker restart ollama\n"
      "Error response from daemon: Cannot restart container ollama: failed to create task for container: failed "
      "to create shim task: OCI runtime create failed: could not apply required modification to OCI specification: "
      "error modifying OCI spec: failed to inject CDI devices: failed to inject devices: failed to stat CDI host "
      "device \"/dev/nvidia-uvm-tools\": no such file or directory: unknown\n"
      "$ docker logs ollama\n"
      "time=2026-04-07T20:03:58.282Z level=DEBUG source=ggml.go:94 msg=\"ggml backend load all from path\" "
      "path=/usr/lib/ollama/cuda_v13\n"
      "ggml_cuda_init: failed to initialize CUDA: CUDA driver version is insufficient for CUDA runtime version\n"
      "load_backend: loaded CUDA backend from /usr/lib/ollama/cuda_v13/libggml-cuda.so\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "cuda-driver-insufficient/cdi-stale")) << rule_list(r);
  const auto& m = r.matches.front();
  EXPECT_TRUE(says_all(m.fix, {"nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml", "nvidia-cdi-refresh"}));
  EXPECT_FALSE(m.fix.starts_with("Update the NVIDIA driver")) << m.fix;
}

// Near miss: the same line without any CDI error keeps "update the driver" first.
TEST(ExplainSession39B, DriverInsufficientWithoutACdiErrorKeepsTheDriverAnswer) {
  const auto r =
      explain_no_facts("RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version\n");
  ASSERT_TRUE(leads_with(r, "cuda-driver-insufficient")) << rule_list(r);
  EXPECT_TRUE(r.matches.front().fix.starts_with("Update the NVIDIA driver")) << r.matches.front().fix;
  EXPECT_EQ(find_rule(r, "cuda-driver-insufficient/cdi-stale"), nullptr) << rule_list(r);
}

}  // namespace

// Re-read (session 39): a change of branch that apt finished also leaves the old branch's module
// loaded until the next boot, so "other branch" puts the reboot first and the package steps for a
// mismatch that survives it; the log cannot show whether the machine was rebooted.
TEST(ExplainSession39B, OtherBranchAfterAFinishedUpgradeStillRebootsFirst) {
  const auto r = explain_no_facts(
      "Setting up cuda-drivers (550.54.15-1) ...\n"
      "$ nvidia-smi\n"
      "Failed to initialize NVML: Driver/library version mismatch\n"
      "NVML library version: 550.54\n"
      "$ cat /proc/driver/nvidia/version\n"
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.161.08  Sat Feb 17 23:07:24 UTC 2024\n");
  ASSERT_TRUE(leads_with(r, "nvml-driver-library-mismatch/other-branch")) << rule_list(r);
  const auto& m = r.matches.front();
  EXPECT_TRUE(m.fix.starts_with("If the machine has not been rebooted since the driver changed: reboot")) << m.fix;
  EXPECT_TRUE(says_all(m.cause, {"until the next boot", "survives a reboot"})) << m.cause;
  EXPECT_FALSE(mentions(m.cause, "A reboot alone loads the old branch")) << m.cause;
  // Debian's packages carry no branch number: the purge by branch is said to be Ubuntu's.
  EXPECT_TRUE(says_all(m.fix, {"Debian's do not", "nvidia-kernel-dkms"})) << m.fix;
  const auto k = explain_no_facts(
      "[   52.396206] NVRM: API mismatch: the client has the version 550.54.14, but\n"
      "[   52.396210] NVRM: this kernel module has the version 535.129.03.  Please\n");
  ASSERT_TRUE(leads_with(k, "kernel-module-api-mismatch/other-branch")) << rule_list(k);
  EXPECT_TRUE(k.matches.front().fix.starts_with("If the machine has not been rebooted")) << k.matches.front().fix;
}

// Re-read: a removed package's dpkg line (`rc`, its config files left) is no installed version; an
// old branch's leftover must not turn a same-branch mismatch into two branches.
TEST(ExplainSession39B, ARemovedPackagesLineIsNoInstalledVersion) {
  const auto r = explain_no_facts(
      "Failed to initialize NVML: Driver/library version mismatch\n"
      "NVML library version: 535.154\n"
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03  Thu Oct 19 18:56:32 UTC 2023\n"
      "rc  nvidia-utils-525    525.147.05-0ubuntu0.22.04.1  amd64  NVIDIA driver support binaries\n"
      "ii  nvidia-utils-535    535.154.05-0ubuntu0.22.04.1  amd64  NVIDIA driver support binaries\n");
  ASSERT_TRUE(
      leads_without(r, "nvml-driver-library-mismatch/same-branch", {"nvml-driver-library-mismatch/other-branch"}));
  // The rows right below the module's version line, the removed one first: each a record of its
  // own (a dpkg row is not a sentence wrapped onto the line above), each read.
  const auto below = explain_no_facts(
      "Failed to initialize NVML: Driver/library version mismatch\n"
      "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03  Thu Oct 19 18:56:32 UTC 2023\n"
      "rc  nvidia-utils-525    525.147.05-0ubuntu0.22.04.1  amd64  NVIDIA driver support binaries\n"
      "ii  nvidia-utils-535    535.154.05-0ubuntu0.22.04.1  amd64  NVIDIA driver support binaries\n");
  ASSERT_TRUE(
      leads_without(below, "nvml-driver-library-mismatch/same-branch", {"nvml-driver-library-mismatch/other-branch"}));
}

// Re-read: `import vllm` alone prints a vLLM logger line; a job that imports vLLM and fails in
// another compiled extension (mmcv here) gets the extension's answer, not vLLM's.
TEST(ExplainSession39B, AnotherExtensionsKernelInAJobThatImportsVllmIsThatExtensions) {
  const auto r = explain_no_facts(
      "INFO 05-06 10:00:00 [__init__.py:239] Automatically detected platform cuda.\n"
      "Traceback (most recent call last):\n"
      "  File \"/opt/conda/lib/python3.10/site-packages/mmcv/ops/deform_conv.py\", line 91, in forward\n"
      "    ext_module.deform_conv_forward(\n"
      "RuntimeError: CUDA error: no kernel image is available for execution on the device\n");
  ASSERT_TRUE(leads_without(r, "no-kernel-image/extension", {"no-kernel-image/vllm"}));
}

}  // namespace gpudoctor
