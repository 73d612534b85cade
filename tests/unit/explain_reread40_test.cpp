// Session 40's re-reads of the day's explain changes (docs/explain.md, "Session 40: the re-reads"):
// the logs two reviewers wrote to show what the new facts and patterns got wrong, each with the
// answer it must give now.
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
using testing::told;

constexpr std::string_view kReread40DockerError =
    "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].\n";

// THCudaCheck's error=N is the runtime's number of the CUDA PyTorch was built with: CUDA 10.0 and
// older numbered cudaErrorLaunchFailure 4 (now 719, and 4 is cudaErrorCudartUnloading).
TEST(ExplainReread40, ThcudacheckIsReadByItsTextNotItsOldNumber) {
  const auto r = explain_no_facts(
      "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCCachingHostAllocator.cpp line=265 error=4 : unspecified "
      "launch failure\n");
  ASSERT_TRUE(leads_without(r, "code/cudart/cudaErrorLaunchFailure", {"code/cudart/cudaErrorCudartUnloading"}))
      << rule_list(r);
}

// A Linux server's log that mentions a Mac (the laptop the user works from, an interface's MAC
// address) keeps the Container Toolkit answer, and the macOS reading never drops it.
TEST(ExplainReread40, AMacNamedInALinuxServersLogIsNoMacosHost) {
  for (const std::string prefix : {
           "kim@MacBook-Pro ~ % ssh gpu-server\nkim@gpu-server:~$ docker run --rm --gpus all img nvidia-smi\n",
           "Ubuntu 22.04 server, RTX 4090. I connect to it over ssh from my MacBook.\n",
           "It works on macOS, but on my Ubuntu server:\n",
           "服务器网卡的mac地址已经绑定\n",
       }) {
    const auto r = explain_no_facts(prefix + std::string(kReread40DockerError));
    EXPECT_TRUE(leads_without(r, "docker-no-gpu-driver", {"docker-no-gpu-driver/macos"})) << prefix << told(r);
  }
  // A Mac's own log: the macOS answer leads, the Toolkit answer stays as another possible cause.
  const auto mac = explain_no_facts("OS: macOS 14.4.1 (arm64)\n" + std::string(kReread40DockerError));
  ASSERT_TRUE(leads_with(mac, "docker-no-gpu-driver/macos")) << told(mac);
  EXPECT_NE(find_rule(mac, "docker-no-gpu-driver"), nullptr) << rule_list(mac);
}

// "WSL 2" in the user's words does not outweigh the log's own platform, nor say WSL where it names
// another machine or Docker Desktop's backend.
TEST(ExplainReread40, WslTwoInPassingIsNotThisMachinesPlatform) {
  const auto ps = explain_no_facts(
      "PS C:\\Users\\me> nvidia-smi\n"
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest "
      "NVIDIA driver is installed and running.\n"
      "This works fine on WSL2 on the same machine.\n");
  EXPECT_EQ(find_rule(ps, "kernel-driver-not-running/wsl2"), nullptr) << rule_list(ps);
  EXPECT_FALSE(mentions(told(ps), "apt purge")) << told(ps);
  // Even in the words that count ("installed ... WSL 2"), a log whose lines name Windows stays Windows.
  const auto ps_words = explain_no_facts(
      "PS C:\\Users\\me> nvidia-smi\n"
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest "
      "NVIDIA driver is installed and running.\n"
      "Yesterday I also installed Ubuntu on WSL 2.\n");
  EXPECT_EQ(find_rule(ps_words, "kernel-driver-not-running/wsl2"), nullptr) << rule_list(ps_words);
  const auto other = explain_no_facts(
      "On my other laptop with WSL2 everything works. This machine is a plain Ubuntu 22.04 desktop:\n"
      "$ nvidia-smi\n"
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest "
      "NVIDIA driver is installed and running.\n");
  ASSERT_TRUE(leads_with(other, "kernel-driver-not-running")) << rule_list(other);
  const auto desktop = explain_no_facts("PS C:\\Users\\me> docker run --rm --gpus all img nvidia-smi\n" +
                                        std::string(kReread40DockerError) +
                                        "Docker Desktop 4.30 on Windows 11 with WSL 2 backend enabled.\n");
  ASSERT_TRUE(leads_with(desktop, "docker-no-gpu-driver/docker-desktop")) << told(desktop);
  // Near miss: the user's own "installed ... WSL 2" on a log that names no platform is WSL 2.
  const auto inside = explain_no_facts(
      "I just installed Windows Preview and WSL 2 and I did sudo apt install nvidia-driver-440\n"
      "$ nvidia-smi\n"
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest "
      "NVIDIA driver is installed and running.\n");
  ASSERT_TRUE(leads_with(inside, "kernel-driver-not-running/wsl2")) << rule_list(inside);
}

// An Ethernet and an InfiniBand port in NCCL's socket list are an ordinary node: the log's own
// shared-memory warning keeps the lead.
TEST(ExplainReread40, TwoOrdinaryInterfacesDoNotOutrankNcclsOwnWarning) {
  const auto r = explain_no_facts(
      "gpu1:2101:2101 [0] NCCL INFO NET/Socket : Using [0]eno1:10.0.0.5<0> [1]ib0:10.1.0.5<0>\n"
      "gpu1:2101:2130 [0] include/shm.h:48 NCCL WARN Error while creating shared memory segment nccl-shm-recv-7e2 "
      "(size 9637888)\n"
      "RuntimeError: NCCL error in: ../torch/lib/c10d/ProcessGroupNCCL.cpp:825, unhandled system error, NCCL "
      "version 2.7.8\n");
  ASSERT_TRUE(leads_without(r, "nccl-shm-failure", {"nccl-unhandled-system-error/interfaces"})) << rule_list(r);
}

// jaxlib printed TensorFlow's DSO-loader line too (external/xla/xla/tsl): a JAX log that also
// imports torch gets no TensorFlow command.
TEST(ExplainReread40, JaxsCopyOfTheDsoLoaderLineIsNotTensorflows) {
  const auto r = explain_no_facts(
      ">>> import torch, jax\n"
      ">>> jax.devices()\n"
      "2023-10-02 11:00:00.000000: W external/xla/xla/tsl/platform/default/dso_loader.cc:67] Could not load dynamic "
      "library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory\n");
  EXPECT_EQ(find_rule(r, "cudnn-library-missing/tensorflow"), nullptr) << rule_list(r);
  EXPECT_FALSE(mentions(told(r), "tensorflow[and-cuda]==")) << told(r);
}

// A configure step names the stub to link against in every healthy build: only a stub that was
// loaded and failed is the answer.
TEST(ExplainReread40, AStubNamedByABuildIsNotAStubLoaded) {
  const auto r = explain_no_facts(
      "-- CUDA_cuda_driver_LIBRARY: /usr/local/cuda/lib64/stubs/libcuda.so\n"
      "/usr/bin/ld: cannot find -lcudnn: No such file or directory\n");
  EXPECT_EQ(find_rule(r, "libcuda-stub-loaded"), nullptr) << rule_list(r);
  const auto loaded =
      explain_no_facts("OSError: /usr/local/cuda/lib64/stubs/libcuda.so: undefined symbol: cuGetProcAddress_v2\n");
  ASSERT_TRUE(leads_with(loaded, "libcuda-stub-loaded")) << rule_list(loaded);
}

// An Xid raised under a workload a day after another GPU failed to initialise is no failed
// initialisation; one raised while modprobe brought the GPU up is.
TEST(ExplainReread40, AWorkloadsXidIsNotDuringInitialisation) {
  const auto later = explain_no_facts(
      "[   12.100000] NVRM: GPU 0000:41:00.0: RmInitAdapter failed! (0x22:0x56:667)\n"
      "[86400.500000] NVRM: Xid (PCI:0000:01:00): 169, pid=2201, name=python, Micro-controller halt\n");
  EXPECT_EQ(find_rule(later, "xid-microcontroller-halt/during-init"), nullptr) << rule_list(later);
  const auto init = explain_no_facts(
      "[   12.1] NVRM: GPU 000f:01:00.0: RmInitAdapter failed! (0x62:0x1a:2631)\n"
      "[   12.2] NVRM: Xid (PCI:000f:01:00): 169, pid=1, name=modprobe, Ch 00000000\n");
  ASSERT_TRUE(leads_with(init, "xid-microcontroller-halt/during-init")) << rule_list(init);
  EXPECT_TRUE(mentions(init.matches.front().fix, "--kernel-module-type=open")) << init.matches.front().fix;
}

// A conda environment that happens to be called "runtime" is no portable Python: its fix keeps pip.
TEST(ExplainReread40, ACondaEnvironmentCalledRuntimeIsNoPortablePython) {
  const auto conda = explain_no_facts(
      "  File \"C:\\Users\\me\\miniconda3\\envs\\runtime\\Lib\\site-packages\\torch\\cuda\\__init__.py\", line "
      "289, in _lazy_init\n"
      "AssertionError: Torch not compiled with CUDA enabled\n");
  EXPECT_FALSE(mentions(told(conda), "runtime\\python.exe")) << told(conda);
  const auto rvc = explain_no_facts(
      "  File \"D:\\RVC1006Nvidia\\runtime\\lib\\site-packages\\torch\\cuda\\__init__.py\", line 289, in "
      "_lazy_init\n"
      "AssertionError: Torch not compiled with CUDA enabled\n");
  EXPECT_TRUE(mentions(told(rvc), "runtime\\python.exe -m pip")) << told(rvc);
}

// nvidia-installer's option table also spells it --no-kernel-module.
TEST(ExplainReread40, TheSingularNoKernelModuleOptionIsRead) {
  const auto r = explain_no_facts(
      "$ sudo sh ./NVIDIA-Linux-x86_64-570.124.04.run --no-kernel-module\n"
      "$ cd open-gpu-kernel-modules-570.124.06 && make modules -j$(nproc) && sudo make modules_install\n"
      "Failed to initialize NVML: Driver/library version mismatch\n");
  ASSERT_TRUE(leads_with(r, "nvml-driver-library-mismatch/separate-kernel-modules")) << rule_list(r);
}

// Whisper's FP16 warning on a Mac is all it can be there: no CUDA torch to install.
TEST(ExplainReread40, WhispersFp16WarningOnAMacAsksForNoCudaTorch) {
  const auto r = explain_no_facts(
      "Platform: Darwin-23.4.0-arm64-arm-64bit\n"
      "/Users/me/.venv/lib/python3.11/site-packages/whisper/transcribe.py:115: UserWarning: FP16 is not supported "
      "on CPU; using FP32 instead\n");
  EXPECT_FALSE(mentions(told(r), "download.pytorch.org")) << told(r);
  // Near miss: the same warning on Windows asks for the CUDA build.
  const auto win = explain_no_facts(
      "C:\\Users\\me\\venv\\lib\\site-packages\\whisper\\transcribe.py:115: UserWarning: FP16 is not "
      "supported on CPU; using FP32 instead\n");
  ASSERT_TRUE(leads_with(win, "whisper-fp16-on-cpu")) << told(win);
}

}  // namespace
}  // namespace gpudoctor
