// What the log says about where it came from (data/explain/log-facts.toml: framework versions,
// a Windows path) orders the causes of a symptom when no machine facts are known; the fact
// rules themselves never appear as answers.
#include <gtest/gtest.h>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::category_rank;
using testing::leads_with;

ExplainReport explain_with_tables(std::string_view log) {
  ExplainMachine machine;
  machine.kb = &testing::builtin_kb();
  return explain_text(testing::builtin_matcher(), log, machine);
}

TEST(ExplainLogFacts, FactRulesAreNeverAnswers) {
  const ExplainReport r = testing::explain_no_facts(
      "PyTorch version: 2.1.0+cpu\nSuccessfully installed tensorflow-2.15.0\nOS: Microsoft Windows 11 Pro\n");
  for (const auto& m : r.matches) EXPECT_NE(m.rule.rfind("log-fact-", 0), 0u) << m.rule;
}

TEST(ExplainLogFacts, TensorflowVersionAndWindowsPathsOrderTheEmptyGpuList) {
  const std::string symptom = ">>> print(tf.config.list_physical_devices('GPU'))\n[]\n";
  const std::string windows_215 =
      "Requirement already satisfied: tensorflow in c:\\users\\me\\appdata\\local\\programs\\python\\python311\\lib\\"
      "site-packages (2.15.0)\n";
  const std::string windows_210 =
      "Requirement already satisfied: tensorflow in c:\\users\\me\\appdata\\local\\programs\\python\\python310\\lib\\"
      "site-packages (2.10.1)\n";
  // TF 2.15 on native Windows has no GPU build: that is the first cause.
  ExplainReport r = explain_with_tables(windows_215 + symptom);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "windows-native-gpu-unsupported");
  EXPECT_EQ(r.matches.front().facts_verdict, "supported");
  // TF 2.10 still had one: the Windows cause is contradicted and goes below.
  r = explain_with_tables(windows_210 + symptom);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_NE(r.matches.front().category, "windows-native-gpu-unsupported");
  EXPECT_GT(category_rank(r, "windows-native-gpu-unsupported"), 1u);
  // Nothing known: the rule's own order.
  r = explain_with_tables(symptom);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "path-or-env-misconfigured");
}

TEST(ExplainLogFacts, WindowsPathsMakeJaxsCpuFallbackAWindowsAnswer) {
  const std::string fallback =
      "WARNING:absl:No GPU/TPU found, falling back to CPU. (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)\n";
  ExplainReport r = testing::explain_no_facts(
      "  File \"C:\\Users\\me\\miniconda3\\envs\\jx\\lib\\site-packages\\jax\\_src\\xla_bridge.py\", line 1, in f\n" +
      fallback);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "windows-native-gpu-unsupported");
  r = testing::explain_no_facts(fallback);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
}

TEST(ExplainLogFacts, APyTorchCudaBuildInTheLogContradictsTheCpuBuildCause) {
  ExplainMachine machine;
  machine.log.versions["pytorch"] = "2.1.0+cu121";
  EXPECT_EQ(evaluate_condition("framework-cpu-build", {}, machine), Truth::no);
  EXPECT_EQ(evaluate_condition("framework-cuda-build", {}, machine), Truth::yes);
  machine.log.versions["pytorch"] = "2.1.0+cpu";
  EXPECT_EQ(evaluate_condition("framework-cpu-build", {}, machine), Truth::yes);
  ExplainMachine none;
  EXPECT_EQ(evaluate_condition("framework-cpu-build", {}, none), Truth::unknown);
  none.log.cpu_build = true;
  EXPECT_EQ(evaluate_condition("framework-cpu-build", {}, none), Truth::yes);
}

TEST(ExplainLogFacts, ALinuxPipLogThatBroughtTheNvidiaWheelsIsACudaTorchNotACpuOne) {
  // pip on Linux, as it prints `pip install torch==2.5.1` (the untagged PyPI wheel is the CUDA
  // build there; its requirements bring the nvidia-* wheels on the same line). No machine facts.
  const std::string linux_log =
      "Collecting torch==2.5.1\n"
      "  Downloading torch-2.5.1-cp311-cp311-manylinux1_x86_64.whl (906.4 MB)\n"
      "Installing collected packages: nvidia-cublas-cu12, torch\n"
      "Successfully installed nvidia-cublas-cu12-12.4.5.8 nvidia-cudnn-cu12-9.1.0.70 torch-2.5.1\n";
  ExplainReport r = testing::explain_no_facts(linux_log);
  ASSERT_TRUE(leads_with(r, "torch-cpu-wheel-installed/linux-cuda-wheel"));
  EXPECT_TRUE(r.matches.front().harmless);
  EXPECT_EQ(r.matches.front().facts_verdict, "supported");
  // The same install line from native Windows (a win_amd64 wheel, no nvidia-* wheels): the CPU
  // wheel is the answer.
  const std::string windows_log =
      "  Downloading torch-2.5.1-cp311-cp311-win_amd64.whl (203.1 MB)\n"
      "Successfully installed torch-2.5.1\n";
  r = testing::explain_no_facts(windows_log);
  ASSERT_TRUE(leads_with(r, "torch-cpu-wheel-installed"));
  EXPECT_FALSE(r.matches.front().harmless);
  // Nothing said about the platform or the wheels: the warning stays first (it may be Windows).
  r = testing::explain_no_facts("Successfully installed torch-2.5.1\n");
  ASSERT_TRUE(leads_with(r, "torch-cpu-wheel-installed"));
}

TEST(ExplainLogFacts, APosixLogSaysNotWindowsAndNvidiaWheelsAreSeen) {
  ExplainMachine machine;
  EXPECT_EQ(evaluate_condition("platform-windows", {}, machine), Truth::unknown);
  EXPECT_EQ(evaluate_condition("nvidia-wheels", {}, machine), Truth::unknown);
  machine.log.posix = true;
  machine.log.nvidia_wheels = true;
  EXPECT_EQ(evaluate_condition("platform-windows", {}, machine), Truth::no);
  EXPECT_EQ(evaluate_condition("!platform-windows", {}, machine), Truth::yes);
  // Linux or WSL2: the log does not tell which.
  EXPECT_EQ(evaluate_condition("platform-wsl2", {}, machine), Truth::unknown);
  EXPECT_EQ(evaluate_condition("nvidia-wheels", {}, machine), Truth::yes);
  // A Windows line in the same log wins: the wheels were Windows'.
  machine.log.platform = Platform::windows;
  EXPECT_EQ(evaluate_condition("platform-windows", {}, machine), Truth::yes);
}

TEST(ExplainLogFacts, WslMarkersInTheLogMakeItAWsl2Log) {
  // Each marker only WSL2 prints: the driver's library directory, the WSL2 kernel's name, a
  // Windows drive mounted under /mnt, a bash prompt on a host with Windows' default name.
  for (const char* marker : {
           "export LD_LIBRARY_PATH=/usr/lib/wsl/lib:$LD_LIBRARY_PATH\n",
           "Linux DESKTOP-1 5.15.153.1-microsoft-standard-WSL2 #1 SMP x86_64 GNU/Linux\n",
           "(venv) me@box:/mnt/c/Users/me/projects/sd$ python train.py\n",
           "me@DESKTOP-930EG0A:~$ nvidia-smi\n",
           "kim@LAPTOP-K2J9QF1M:~/work$ python -c 'import torch'\n",
       }) {
    const ExplainReport r = testing::explain_no_facts(
        std::string(marker) +
        "CUDA SETUP: WARNING! libcuda.so not found! Do you have a CUDA driver installed? If you are on a cluster, make "
        "sure you are on a CUDA machine!\n");
    ASSERT_FALSE(r.matches.empty()) << marker;
    EXPECT_EQ(r.matches.front().category, "wsl2-specific") << marker;
    EXPECT_EQ(r.matches.front().facts_verdict, "supported") << marker;
  }
  // Without a marker the driver comes first; a Linux prompt on another host says nothing.
  for (const char* marker : {"", "me@gpu-node-3:~$ python train.py\n", "me@desktop-box:~$ ls\n"}) {
    const ExplainReport r = testing::explain_no_facts(
        std::string(marker) + "CUDA SETUP: WARNING! libcuda.so not found! Do you have a CUDA driver installed?\n");
    ASSERT_FALSE(r.matches.empty()) << marker;
    EXPECT_EQ(r.matches.front().category, "driver-missing") << marker;
  }
}

TEST(ExplainLogFacts, NvidiaSmiFailingInWslIsAWslProblem) {
  const std::string smi =
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA "
      "driver is installed and running.\n";
  ExplainReport r = testing::explain_no_facts("me@DESKTOP-930EG0A:~$ nvidia-smi\n" + smi);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "wsl2-specific");
  r = testing::explain_no_facts(smi);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "driver-missing");
  EXPECT_GT(category_rank(r, "wsl2-specific"), 1u);
}

TEST(ExplainLogFacts, ContainerMarkersInTheLogMakeTheContainerCauseFirst) {
  const std::string no_driver =
      "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a "
      "driver from http://www.nvidia.com/Download/index.aspx\n";
  // Docker's default hostname is the container id's first 12 hex digits; docker compose and the
  // daemon print their own lines; NGC images print their banner and entrypoint.
  for (const char* marker : {
           "root@3f2a9c81d0be:/workspace# python train.py\n",
           "Creating vqgan-clip-docker_generate_run ... done\n",
           " Container sd-webui-1  Started\n",
           "Attaching to comfyui-1\n",
           "== PyTorch ==\n\nNVIDIA Release 24.01 (build 80741402)\n",
           "$ docker run --rm -it myimage python train.py\n",
           "/opt/nvidia/nvidia_entrypoint.sh: line 67: exec: python: not found\n",
       }) {
    const ExplainReport r = testing::explain_no_facts(std::string(marker) + no_driver);
    ASSERT_FALSE(r.matches.empty()) << marker;
    EXPECT_EQ(r.matches.front().category, "container/docker-runtime") << marker;
  }
  for (const char* marker : {"", "root@gpu-node-3:/workspace# python train.py\n", "me@deadbeef:~$ ls\n"}) {
    const ExplainReport r = testing::explain_no_facts(std::string(marker) + no_driver);
    ASSERT_FALSE(r.matches.empty()) << marker;
    EXPECT_EQ(r.matches.front().category, "driver-missing") << marker;
  }
}

TEST(ExplainLogFacts, AWsl2LogIsNotJudgedByTheFactsOfALinuxMachine) {
  ExplainMachine machine;
  machine.log.platform = Platform::wsl2;
  EXPECT_EQ(evaluate_condition("platform-wsl2", {}, machine), Truth::yes);
  EXPECT_EQ(evaluate_condition("platform-linux", {}, machine), Truth::no);
  EXPECT_EQ(evaluate_condition("platform-windows", {}, machine), Truth::no);
  machine.log.container = true;
  EXPECT_EQ(evaluate_condition("container", {}, machine), Truth::yes);
  // The log's container holds with machine facts too: it says where the failure happened.
  Facts host;
  host.platform = Platform::linux;
  machine.facts = &host;
  EXPECT_EQ(evaluate_condition("container", {}, machine), Truth::yes);
  machine.log.container = false;
  EXPECT_EQ(evaluate_condition("container", {}, machine), Truth::no);
}

}  // namespace
}  // namespace gpudoctor
