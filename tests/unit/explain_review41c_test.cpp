// Unseen logs, session 41 review (C): GPUs in Kubernetes/HPC containers and multi-GPU libraries.
// - Pyxis/enroot on Slurm: the GPU is injected only when NVIDIA_VISIBLE_DEVICES is set
//   (NVIDIA/enroot#205, NVIDIA/pyxis#96), and nvidia-container-cli missing on the compute node
//   (NVIDIA/pyxis#110).
// - NCCL over InfiniBand/RoCE: ibv_modify_qp timing out (NVIDIA/nccl#769 GID index, #2013 cross-NIC).
// - nvidia-container-cli's requirement check in the old spaced format (NVIDIA/nvidia-docker#753), an
//   image's own requirement (NVIDIA/nvidia-container-toolkit#152), the hook without its library
//   (NVIDIA/gpu-rest-engine#35), `nvidia-ctk cdi generate` without libcuda (#735).
// - Kubernetes: the GPU Operator's driver build refused by modpost (NVIDIA/gpu-operator#751),
//   containerd without the nvidia runtime (canonical/microk8s#2474).
// - Multi-GPU libraries: Horovod with an NCCL for another CUDA (horovod/horovod#108), Horovod built
//   without CUDA (#2836), /dev/shm not writable (pytorch/pytorch#37004), Duplicate GPU under Ray
//   (verl-project/verl#161) and accelerate (facebookresearch/ViewDiff#24).
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
using testing::told;

constexpr const char* kReview41CTorchNoDriver =
    "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a "
    "driver from http://www.nvidia.com/Download/index.aspx\n";

// Log 08: srun --container-image (Pyxis), a plain image without NVIDIA_VISIBLE_DEVICES.
TEST(ExplainReview41C, EnrootWithoutVisibleDevicesIsTheVariableNotTheDriver) {
  const std::string log = std::string(
                              "srun \\\n"
                              "  --nodes=1 --gpus=2 \\\n"
                              "  --container-workdir=$(pwd) \\\n"
                              "  --container-mount-home \\\n"
                              "  --container-image=\"myimage\" \\\n"
                              "  --pty bash -i\n"
                              "\n") +
                          kReview41CTorchNoDriver;
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "torch-no-nvidia-driver/enroot")) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"NVIDIA_VISIBLE_DEVICES", "98-nvidia.sh"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"NVIDIA_VISIBLE_DEVICES=all", "NVIDIA_DRIVER_CAPABILITIES=compute,utility"}))
      << lead.fix;
  EXPECT_FALSE(mentions(lead.fix, "--gpus all")) << lead.fix;
  // Near miss: the same RuntimeError alone keeps the driver answer.
  const auto bare = explain_no_facts(kReview41CTorchNoDriver);
  EXPECT_TRUE(leads_with(bare, "torch-no-nvidia-driver")) << rule_list(bare);
  EXPECT_FALSE(mentions(told(bare), "98-nvidia.sh")) << told(bare);
}

// Log 21: nvidia-smi's own message under Pyxis (an image from `docker export` lost its NVIDIA_* ENV).
TEST(ExplainReview41C, NvidiaSmiWithoutNvmlUnderPyxisIsTheVariable) {
  const std::string smi =
      "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the NVIDIA Display "
      "Driver is properly installed and present in your system. Please also try adding directory that contains "
      "libnvidia-ml.so to your system PATH. \n";
  const std::string log =
      "srun --ntasks=1 --container-image=./out.squashfs --container-name=language_model --container-writable "
      "--container-workdir=/workspace/bert --container-mounts=./nvidia-smi:/usr/bin/nvidia-smi nvidia-smi\n" +
      smi;
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "nvidia-smi-no-nvml-library/enroot")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"NVIDIA_VISIBLE_DEVICES=all", "docker export", "srun"}))
      << r.matches.front().fix;
  // Near miss: the line alone (a host or a container) is recognised, without the enroot answer.
  const auto bare = explain_no_facts(smi);
  ASSERT_TRUE(leads_with(bare, "nvidia-smi-no-nvml-library")) << rule_list(bare);
  EXPECT_FALSE(mentions(told(bare), "srun")) << told(bare);
}

// Log 09: enroot's 98-nvidia.sh through pyxis, nvidia-container-cli not installed.
TEST(ExplainReview41C, EnrootHookWithoutNvidiaContainerCliInstallsTheTools) {
  const std::string log =
      "pyxis: importing docker image ...\n"
      "slurmstepd: error: pyxis: container start failed with error code: 1\n"
      "slurmstepd: error: pyxis: printing contents of log file ...\n"
      "slurmstepd: error: pyxis:     [ERROR] Command not found: nvidia-container-cli, see "
      "https://github.com/NVIDIA/libnvidia-container\n"
      "slurmstepd: error: pyxis:     [ERROR] /etc/enroot/hooks.d/98-nvidia.sh exited with return code 1\n"
      "slurmstepd: error: pyxis: couldn't start container\n"
      "slurmstepd: error: pyxis: if the image has an unusual entrypoint, try using --no-container-entrypoint\n"
      "slurmstepd: error: spank: required plugin spank_pyxis.so: task_init() failed with rc=-1\n"
      "slurmstepd: error: Failed to invoke spank plugin stack\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(
      leads_without(r, "enroot-nvidia-container-cli-missing", {"enroot-hook-failed", "pyxis-container-start-failed"}))
      << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"libnvidia-container-tools", "compute node"})) << r.matches.front().fix;
  // Near miss: another hook's failure alone is not the missing tool.
  const auto other = explain_no_facts(
      "slurmstepd: error: pyxis:     [ERROR] /etc/enroot/hooks.d/98-nvidia.sh exited with return code 1\n");
  ASSERT_TRUE(leads_with(other, "enroot-hook-failed")) << rule_list(other);
  EXPECT_TRUE(says_all(other.matches.front().fix, {"NVIDIA_DEBUG_LOG=1", "[ERROR]"})) << other.matches.front().fix;
  EXPECT_EQ(find_rule(other, "enroot-nvidia-container-cli-missing"), nullptr) << rule_list(other);
  // The missing CLI with Pyxis' line but without the hook's (a shortened paste) is still one answer.
  const auto cut = explain_no_facts(
      "slurmstepd: error: pyxis: container start failed with error code: 1\n"
      "slurmstepd: error: pyxis:     [ERROR] Command not found: nvidia-container-cli, see "
      "https://github.com/NVIDIA/libnvidia-container\n");
  EXPECT_TRUE(leads_without(cut, "enroot-nvidia-container-cli-missing", {"pyxis-container-start-failed"}))
      << rule_list(cut);
  // Pyxis' own line alone points at enroot's log and the entrypoint.
  const auto start = explain_no_facts("slurmstepd: error: pyxis: container start failed with error code: 1\n");
  ASSERT_TRUE(leads_with(start, "pyxis-container-start-failed")) << rule_list(start);
  EXPECT_TRUE(mentions(start.matches.front().fix, "--no-container-entrypoint")) << start.matches.front().fix;
}

// Log 12: Horovod's allreduce in a TensorFlow graph, NCCL built for CUDA 9.0 on CUDA 8.0.
TEST(ExplainReview41C, HorovodUnhandledCudaErrorIsTheNcclBuildFirst) {
  const std::string log =
      "UnknownError (see above for traceback): ncclCommInitRank failed: unhandled cuda error\n"
      "\t [[Node: model/HorovodAllreduce_model_Mean_25_0 = HorovodAllreduce[T=DT_FLOAT, "
      "_device=\"/job:localhost/replica:0/task:0/device:GPU:0\"](model/Mean_25)]]\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "nccl-unhandled-cuda-error/horovod-nccl-build")) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"libnccl2", "CUDA"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"dpkg -l | grep nccl", "+cuda", "--no-cache-dir horovod"})) << lead.fix;
  EXPECT_FALSE(mentions(lead.fix, "NCCL_P2P_DISABLE")) << lead.fix;
  // Near miss: PyTorch's own NCCL (bundled, built for its CUDA) keeps the P2P answer.
  const auto torch = explain_no_facts(
      "RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1269, unhandled cuda error, NCCL version 2.14.3\n");
  ASSERT_TRUE(leads_with(torch, "nccl-unhandled-cuda-error")) << rule_list(torch);
  EXPECT_FALSE(mentions(told(torch), "libnccl2=")) << told(torch);
}

// Log 01: the old WARN format; the GID table shows index 1 is the link-local fe80:: address.
TEST(ExplainReview41C, IbModifyQpTimeoutNamesTheGidIndex) {
  const std::string log =
      "// on our A100 platform, when set GID Index to 1 to run all_reduce_perf\n"
      "ibvwrap.cc: NCCL WARN Call to ibv_modify_qp failed with error Connection timed out\n"
      "\n"
      "ibv_devinfo -d mlx5_bond_0 -v\n"
      "\t\t\tGID[  1]:\t\tfe80::ac0:ebff:feda:1cfb, RoCE v2\n"
      "\t\t\tGID[  3]:\t\t::ffff:200.0.209.6, RoCE v2\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "nccl-ib-modify-qp-failed")) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"GID", "link-local"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"NCCL_IB_GID_INDEX", "show_gids", "NCCL_CROSS_NIC=0"})) << lead.fix;
}

// Log 02: the 2.19+ format names a routable IPv4-mapped GID: the GID is fine, the NIC pairing is not.
TEST(ExplainReview41C, IbModifyQpTimeoutWithRoutableGidIsCrossNic) {
  const std::string log =
      "[2026-03-13 22:26:02] host-01.example.com:XXXXXX [5] ibvwrap.c:262 NCCL WARN Call to ibv_modify_qp failed with "
      "110 Connection timed out, on dev mlx_x:1, curr state INIT, next state RTR, local GID index 3, local GID "
      "::ffff:xxx.xx.xx.xx, remote GID ::ffff:xxx.xx.xxx.xx\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_without(r, "nccl-ib-qp-timeout-routable-gid", {"nccl-ib-modify-qp-failed"})) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"NCCL_CROSS_NIC=0", "2.29"})) << r.matches.front().fix;
  // Near miss: the same line with a link-local local GID keeps the GID-index answer.
  const auto local = explain_no_facts(
      "misc/ibvwrap.cc:309 NCCL WARN Call to ibv_modify_qp failed with 110 Connection timed out, on dev mlx5_0:1, "
      "curr state INIT, next state RTR, local GID index 1, local GID fe80::ac0:ebff:feda:1cfb, remote GID "
      "fe80::ac0:ebff:feda:2cfb\n");
  EXPECT_TRUE(leads_with(local, "nccl-ib-modify-qp-failed")) << rule_list(local);
}

// Log 04: the 2017-2018 format with spaces, quoted without the nvidia-container-cli prefix.
TEST(ExplainReview41C, SpacedCudaRequirementIsTheDriverToo) {
  const auto r = explain_no_facts("requirement error: unsatisfied condition: cuda >= 9.2\n");
  ASSERT_TRUE(leads_with(r, "cuda-driver-insufficient")) << rule_list(r);
  EXPECT_TRUE(mentions(r.matches.front().cause, "CUDA 9.2")) << r.matches.front().cause;
  const auto driver =
      explain_no_facts("nvidia-container-cli: requirement error: unsatisfied condition: driver >= 535\n");
  EXPECT_TRUE(leads_with(driver, "container-requires-newer-driver")) << rule_list(driver);
}

// Log 05: the image asks more than its CUDA needs; the check can be skipped.
TEST(ExplainReview41C, ImageRequirementOffersDisableRequire) {
  const auto r = explain_no_facts("nvidia-container-cli: requirement error: unsatisfied condition: cuda>=11.8\n");
  ASSERT_TRUE(leads_with(r, "cuda-driver-insufficient")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"NVIDIA_DISABLE_REQUIRE=true", "nvidia-smi"})) << r.matches.front().fix;
  // Near miss: the runtime's own message is no container requirement and gets no such advice.
  const auto rt =
      explain_no_facts("RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version\n");
  ASSERT_TRUE(leads_with(rt, "cuda-driver-insufficient")) << rule_list(rt);
  EXPECT_FALSE(mentions(rt.matches.front().fix, "NVIDIA_DISABLE_REQUIRE")) << rt.matches.front().fix;
}

// Log 06: the hook's binary cannot start: libnvidia-container.so.1 missing on the host.
TEST(ExplainReview41C, HookWithoutItsLibraryReinstallsLibnvidiaContainer) {
  const std::string log =
      "docker: Error response from daemon: OCI runtime create failed: container_linux.go:296: starting container "
      "process caused \"process_linux.go:398: container init caused \\\"process_linux.go:381: running prestart hook 0 "
      "caused \\\\\\\"error running hook: exit status 127, stdout: , stderr: exec command: "
      "[/usr/bin/nvidia-container-cli --load-kmods configure --device=all --compute --utility --require=cuda>=9.0 "
      "--pid=74222 /var/lib/docker/overlay2/e3/merged]\\\\\\\\n/usr/bin/nvidia-container-cli: error while loading "
      "shared libraries: libnvidia-container.so.1: cannot open shared object file: No such file or "
      "directory\\\\\\\\n\\\\\\\"\\\"\": unknown.\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "container-cli-library-missing")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"libnvidia-container1", "ldconfig"})) << r.matches.front().fix;
  // Near miss: a hook failure without that loader line keeps the generic hook answer.
  const auto hook = explain_no_facts(
      "docker: Error response from daemon: failed to create shim task: OCI runtime create failed: runc create failed: "
      "unable to start container process: error during container init: error running hook #0: error running hook: "
      "exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\n");
  EXPECT_EQ(find_rule(hook, "container-cli-library-missing"), nullptr) << rule_list(hook);
}

// Log 07: `nvidia-ctk cdi generate` with the driver's libraries outside the standard paths.
TEST(ExplainReview41C, CdiGenerateWithoutLibcudaUsesLibrarySearchPath) {
  const std::string log =
      "# nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml\n"
      "INFO[0000] Using /var/lib/nvidia/lib64/libnvidia-ml.so.535.183.06\n"
      "INFO[0000] Auto-detected mode as 'nvml'                \n"
      "WARN[0000] failed to locate libcuda.so: pattern libcuda.so.*.* not found\n"
      "ERRO[0000] failed to generate CDI spec: failed to create edits common for entities: failed to create "
      "discoverer for common entities: failed to create discoverer for driver files: failed to create discoverer "
      "for driver libraries: failed to get libraries for driver version: failed to locate libcuda.so.535.183.06: "
      "pattern libcuda.so.535.183.06 not found\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "cdi-generate-driver-library-not-found")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"--library-search-path", "nvidia-ctk cdi generate"}))
      << r.matches.front().fix;
}

// Log 15: the GPU Operator's driver container build refused by the kernel's modpost.
TEST(ExplainReview41C, ModpostGplOnlySymbolIsADriverTooOldForTheKernel) {
  const auto r = explain_no_facts(
      "ERROR: modpost: GPL-incompatible module nvidia.ko uses GPL-only symbol 'rcu_read_unlock_strict'\n");
  ASSERT_TRUE(leads_with(r, "nvidia-module-gpl-only-symbol")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"535.183.08", "driver.version"})) << r.matches.front().fix;
  // Near miss: another module's modpost error is not NVIDIA's.
  const auto other = explain_no_facts("ERROR: modpost: \"foo_bar\" [drivers/misc/foo.ko] undefined!\n");
  EXPECT_EQ(find_rule(other, "nvidia-module-gpl-only-symbol"), nullptr) << rule_list(other);
}

// Log 19: Horovod's PyTorch extension built without CUDA.
TEST(ExplainReview41C, HorovodReadyEventWithoutCudaRebuildsWithNccl) {
  const auto r = explain_no_facts(
      "RuntimeError: Internal error. Requested ReadyEvent with GPU device but not compiled with CUDA.\n");
  ASSERT_TRUE(leads_with(r, "horovod-built-without-cuda")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"HOROVOD_GPU_OPERATIONS=NCCL", "--no-cache-dir", "--check-build"}))
      << r.matches.front().fix;
}

// Log 20: containerd's CRI has no "nvidia" runtime.
TEST(ExplainReview41C, ContainerdWithoutNvidiaRuntimeConfiguresIt) {
  const auto r = explain_no_facts(
      "Error:\n"
      "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime for "
      "\"nvidia\" is configured\n");
  ASSERT_TRUE(leads_with(r, "containerd-no-nvidia-runtime")) << rule_list(r);
  EXPECT_TRUE(
      says_all(r.matches.front().fix, {"nvidia-ctk runtime configure --runtime=containerd", "microk8s enable gpu"}))
      << r.matches.front().fix;
  // Near miss: another handler (kata) is no NVIDIA answer.
  const auto kata = explain_no_facts("failed to get sandbox runtime: no runtime for \"kata\" is configured\n");
  EXPECT_EQ(find_rule(kata, "containerd-no-nvidia-runtime"), nullptr) << rule_list(kata);
}

// Log 11: shm_open EACCES on a bare HPC node: /dev/shm's mode, not its size.
TEST(ExplainReview41C, ShmOpenPermissionDeniedIsTheMode) {
  const std::string log =
      "RuntimeError: NCCL error in ProcessGroupNCCL.cpp:290, unhandled system error\n"
      "node08:27106:27302 [0] include/shm.h:27 NCCL WARN Call to shm_open failed : Permission denied\n"
      "node08:27106:27302 [0] NCCL INFO include/shm.h:41 -> 2\n"
      "node08:27106:27302 [0] include/shm.h:48 NCCL WARN Error while creating shared memory segment "
      "nccl-shm-recv-b7948f403864987a-0-3-0 (size 4460544)\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "nccl-shm-permission-denied")) << rule_list(r);
  EXPECT_TRUE(mentions(r.matches.front().fix, "chmod 1777 /dev/shm")) << r.matches.front().fix;
  EXPECT_FALSE(mentions(r.matches.front().fix, "--shm-size")) << r.matches.front().fix;
  // Near miss: no space left keeps the size answer.
  const auto full = explain_no_facts(
      "Error: failed to extend /dev/shm/nccl-Xa81qD to 9637892 bytes, error: No space left on device (28)\n");
  EXPECT_TRUE(leads_with(full, "nccl-shm-failure")) << rule_list(full);
}

// Log 14: accelerate prints `Num processes: 4` and `Device: cuda:0` for every process.
TEST(ExplainReview41C, AccelerateMoreProcessesThanGpusIsNumProcesses) {
  std::string log;
  for (int i = 3; i >= 0; --i) {
    log +=
        "09/04/2024 02:49:57 - INFO - __main__ - Distributed environment: MULTI_GPU  Backend: nccl\n"
        "Num processes: 4\n"
        "Process index: " +
        std::to_string(i) + "\nLocal process index: " + std::to_string(i) + "\nDevice: cuda:0\n\n";
  }
  log +=
      "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, "
      "invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.19.3\n"
      "ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
      "Last error:\n"
      "Duplicate GPU detected : rank 0 and rank 1 both on CUDA device 1000\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "nccl-invalid-usage/accelerate-processes")) << rule_list(r);
  EXPECT_TRUE(mentions(r.matches.front().fix, "--num_processes")) << r.matches.front().fix;
  // Near miss: a process on cuda:1 shows more than one GPU; the process count is not the cause.
  const auto two = explain_no_facts(
      "Distributed environment: MULTI_GPU  Backend: nccl\nNum processes: 2\nProcess index: 1\nLocal process index: 1\n"
      "Device: cuda:1\n\nDuplicate GPU detected : rank 0 and rank 1 both on CUDA device 1000\n");
  ASSERT_TRUE(leads_with(two, "nccl-invalid-usage")) << rule_list(two);
  EXPECT_EQ(find_rule(two, "nccl-invalid-usage/accelerate-processes"), nullptr) << rule_list(two);
}

// Log 13: verl under Ray; the log shows only NCCL's message, so the fix names the launchers.
TEST(ExplainReview41C, DuplicateGpuNamesRayAndLaunchers) {
  const std::string log =
      "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, invalid "
      "usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.20.5\n"
      "ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
      "Last error:\n"
      "Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 10\n";
  const auto r = explain_no_facts(log);
  ASSERT_TRUE(leads_with(r, "nccl-invalid-usage")) << rule_list(r);
  EXPECT_TRUE(says_all(r.matches.front().fix, {"Ray", "--num_processes", "--nproc_per_node"})) << r.matches.front().fix;
  // With a Ray worker's prefix in the log, the Ray cause leads.
  const auto ray = explain_no_facts(
      "(WorkerDict pid=12345) torch.distributed.DistBackendError: NCCL error in: "
      "../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL "
      "version 2.20.5\n"
      "(WorkerDict pid=12345) Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 10\n");
  ASSERT_TRUE(leads_with(ray, "nccl-invalid-usage/ray")) << rule_list(ray);
  EXPECT_TRUE(mentions(ray.matches.front().fix, "ray>=2.40")) << ray.matches.front().fix;
}

}  // namespace
}  // namespace gpudoctor
