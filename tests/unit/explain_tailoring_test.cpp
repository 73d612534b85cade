// Machine-specific tailoring: the same log, different machines (hand-built Facts), different
// first answers and fixes that name what the machine has.
#include <gtest/gtest.h>

#include "core/text.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::builtin_kb;
using testing::builtin_matcher;
using testing::category_rank;
using testing::find_rule;
using testing::leads_with;

LibraryFacts cudnn_lib(const char* version, const char* path, std::vector<std::string> files) {
  LibraryFacts l;
  l.name = "cudnn";
  l.version = Version::parse(version);
  l.path = path;
  l.files = std::move(files);
  l.origin = "system";
  return l;
}

PythonEnvFacts env_with_tf(const char* tf_version, const char* path) {
  PythonEnvFacts env;
  env.path = path;
  env.python_version = Version::parse("3.10.11");
  FrameworkFacts tf;
  tf.name = "tensorflow";
  tf.package = "tensorflow";
  tf.version = *Version::parse(tf_version);
  env.frameworks.push_back(tf);
  return env;
}

TEST(ExplainTailoring, CudnnOfAnotherMajorMakesItAVersionMismatch) {
  const std::string log =
      "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library "
      "'cudnn64_8.dll'; dlerror: cudnn64_8.dll not found";
  Facts f;
  f.platform = Platform::windows;
  f.libraries.push_back(
      cudnn_lib("9.1.0", "C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin", {"cudnn64_9.dll", "cudnn_ops64_9.dll"}));
  f.python_envs.push_back(env_with_tf("2.10.1", "C:\\venvs\\tf"));
  ExplainMachine m{Platform::windows, &f, &builtin_kb()};
  const auto r = explain_text(builtin_matcher(), log, m);
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "cudnn-version-mismatch");
  EXPECT_EQ(r.matches.front().facts_verdict, "supported");
  // The fix is specific: what the machine has, and what this TensorFlow needs.
  const std::string& note = r.matches.front().machine;
  EXPECT_NE(note.find("9.1.0"), std::string::npos) << note;
  EXPECT_NE(note.find("CUDNN\\v9.1"), std::string::npos) << note;
  EXPECT_NE(note.find("none of them is cuDNN 8"), std::string::npos) << note;
  EXPECT_NE(note.find("TensorFlow 2.10.1"), std::string::npos) << note;
  EXPECT_NE(note.find("cuDNN 8.1"), std::string::npos) << note;
  // That "8.1" is the knowledge base's Windows row for 2.10, the one the doctor uses.
  const TfBuild* row = builtin_kb().tf_build(*Version::parse("2.10.1"), Platform::windows);
  ASSERT_NE(row, nullptr);
  ASSERT_TRUE(row->cudnn.has_value());
  EXPECT_NE(note.find("was tested with CUDA " + row->cuda->str() + " and cuDNN " + row->cudnn->str()),
            std::string::npos)
      << note;

  // Same log with no facts: cuDNN missing comes first.
  const auto text = explain_text(builtin_matcher(), log, ExplainMachine{});
  EXPECT_EQ(text.matches.front().category, "cudnn-missing");
  EXPECT_TRUE(text.matches.front().machine.empty());

  // Same log, a machine with no cuDNN at all: missing, and the mismatch is contradicted.
  Facts bare;
  bare.platform = Platform::windows;
  const auto r2 = explain_text(builtin_matcher(), log, ExplainMachine{Platform::windows, &bare});
  EXPECT_EQ(r2.matches.front().category, "cudnn-missing");
  const ExplainMatch* mismatch = find_rule(r2, "cudnn-library-missing/version-mismatch");
  ASSERT_NE(mismatch, nullptr);
  EXPECT_EQ(mismatch->facts_verdict, "contradicted");
  EXPECT_NE(r2.matches.front().machine.find("no cuDNN was found"), std::string::npos);
}

FrameworkFacts framework(const char* name, const char* version) {
  FrameworkFacts fw;
  fw.name = name;
  fw.version = *Version::parse(version);
  return fw;
}

/// A Linux machine with one venv holding nvidia-cudnn-cu12 of this version and these frameworks.
Facts linux_venv(const char* cudnn_wheel, std::vector<FrameworkFacts> frameworks) {
  Facts f;
  f.platform = Platform::linux;
  PythonEnvFacts env;
  env.path = "/home/u/venv";
  env.nvidia_wheels.push_back(NvidiaWheel{"nvidia-cudnn-cu12", *Version::parse(cudnn_wheel), "cudnn", 12});
  env.frameworks = std::move(frameworks);
  f.python_envs.push_back(env);
  return f;
}

// Measured 2026-12-02 in a venv: `pip install torch==2.3.1` (nvidia-cudnn-cu12 8.9.2.26), then
// `pip install "jax[cuda12]"` ("Successfully uninstalled nvidia-cudnn-cu12-8.9.2.26", 9.28.0.42
// installed), then `import torch`: "ImportError: libcudnn.so.8: cannot open shared object file:
// No such file or directory". The fix said pip wheels keep cuDNN 8 and 9 apart; they do not: one
// nvidia-cudnn-cu12 holds one major, and installing 8.* again breaks JAX.
TEST(ExplainTailoring, CudnnOfAnotherMajorInOneVenvIsOneWheelNotTwo) {
  const std::string log = "ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory";
  FrameworkFacts torch = framework("torch", "2.3.1");
  torch.cudnn_version = Version::parse("8.9.2.26");
  FrameworkFacts plugin = framework("jax-cuda-plugin", "0.10.2");
  plugin.cudnn_version = Version::parse("9.8");
  const Facts f = linux_venv("9.28.0.42", {torch, plugin});
  const auto r = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, &f, &builtin_kb()});
  ASSERT_FALSE(r.matches.empty());
  const ExplainMatch& m = r.matches.front();
  EXPECT_EQ(m.rule, "cudnn-library-missing/version-mismatch");
  // What pip printed when jax[cuda12] replaced the wheel, and what `pip check` printed after.
  for (const std::string pip :
       {"torch 2.3.1 requires nvidia-cudnn-cu12==8.9.2.26; platform_system == \"Linux\" and platform_machine == "
        "\"x86_64\", but you have nvidia-cudnn-cu12 9.28.0.42 which is incompatible.",
        "torch 2.3.1 has requirement nvidia-cudnn-cu12==8.9.2.26; platform_system == \"Linux\" and platform_machine "
        "== \"x86_64\", but you have nvidia-cudnn-cu12 9.28.0.42."}) {
    const auto p = explain_text(builtin_matcher(), pip, ExplainMachine{Platform::linux, &f, &builtin_kb()});
    ASSERT_FALSE(p.matches.empty()) << pip;
    const ExplainMatch& c = p.matches.front();
    EXPECT_EQ(c.category, "cudnn-version-mismatch") << c.rule;
    EXPECT_EQ(c.captures.at("have"), std::vector<std::string>{"9.28.0.42"}) << pip;
    EXPECT_TRUE(contains(c.fix, "environment of its own")) << c.fix;
    EXPECT_TRUE(contains(c.machine, "PyTorch 2.3.1 (built with cuDNN 8.9.2.26) needs cuDNN 8")) << c.machine;
  }
  EXPECT_FALSE(contains(m.fix, "keep them apart")) << m.fix;
  EXPECT_TRUE(contains(m.fix, "environment each")) << m.fix;
  EXPECT_TRUE(contains(m.machine, "PyTorch 2.3.1 (built with cuDNN 8.9.2.26) needs cuDNN 8")) << m.machine;
  EXPECT_TRUE(contains(m.machine, "nvidia-cudnn-cu12 is 9.28.0.42")) << m.machine;
  EXPECT_TRUE(contains(m.machine, "JAX 0.10.2 there uses that one")) << m.machine;
}

// pip's last line after `pip install torch==2.5.1` on Linux x86_64 (2026-12-02): PyPI's untagged
// torch there is the CUDA build (2.5.1+cu124) and brought its nvidia-* wheels. It was answered
// "a PyTorch wheel without CUDA ... will not see the GPU", with a reinstall from PyTorch's index.
TEST(ExplainTailoring, UntaggedTorchWithNvidiaWheelsOnLinuxIsACudaBuild) {
  const std::string log =
      "Successfully installed filelock-4.3.1 nvidia-cublas-cu12-12.4.5.8 nvidia-cudnn-cu12-9.1.0.70 "
      "nvidia-nccl-cu12-2.21.5 sympy-1.13.1 torch-2.5.1 triton-3.1.0";
  FrameworkFacts torch = framework("torch", "2.5.1");
  torch.cuda_build = true;
  const Facts f = linux_venv("9.1.0.70", {torch});
  const auto r = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, &f, &builtin_kb()});
  ASSERT_FALSE(r.matches.empty());
  EXPECT_TRUE(r.matches.front().harmless) << r.matches.front().rule << ": " << r.matches.front().cause;
  EXPECT_EQ(r.matches.front().rule, "torch-cpu-wheel-installed/linux-cuda-wheel");
  // On Windows the untagged wheel is the CPU build: still the warning.
  Facts w;
  w.platform = Platform::windows;
  const auto rw = explain_text(builtin_matcher(), "Successfully installed torch-2.5.1",
                               ExplainMachine{Platform::windows, &w, &builtin_kb()});
  ASSERT_TRUE(leads_with(rw, "torch-cpu-wheel-installed"));
  EXPECT_FALSE(rw.matches.front().harmless);
}

TEST(ExplainTailoring, LibraryPresentMakesItASearchPathProblem) {
  const std::string log =
      "Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: "
      "cannot open shared object file: No such file or directory";
  Facts f;
  LibraryFacts cudart;
  cudart.name = "cudart";
  cudart.version = Version::parse("11.0.221");
  cudart.path = "/usr/local/cuda-11.0/lib64";
  cudart.files = {"libcudart.so.11.0"};
  f.libraries.push_back(cudart);
  ToolkitFacts tk;
  tk.path = "/usr/local/cuda-11.0";
  tk.version = Version::parse("11.0");
  f.toolkits.push_back(tk);
  f.gpus.push_back(GpuFacts{.name = "NVIDIA GeForce RTX 3060"});
  const auto r = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, &f});
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "path-or-env-misconfigured");
  EXPECT_NE(r.matches.front().machine.find("a copy exists on this machine"), std::string::npos)
      << r.matches.front().machine;
  EXPECT_NE(r.matches.front().machine.find("CUDA 11.0 at /usr/local/cuda-11.0"), std::string::npos);
}

TEST(ExplainTailoring, NoGpuMakesMissingCudartHarmlessButListed) {
  const std::string log = "Could not load dynamic library 'cudart64_110.dll'; dlerror: cudart64_110.dll not found";
  Facts f;
  f.platform = Platform::windows;
  const auto r = explain_text(builtin_matcher(), log, ExplainMachine{Platform::windows, &f});
  const ExplainMatch* cpu = find_rule(r, "cudart-missing/cpu-only-machine");
  ASSERT_NE(cpu, nullptr);
  EXPECT_TRUE(cpu->harmless);
  EXPECT_EQ(cpu->facts_verdict, "supported");
  // One line, one answer (issue 10 item 13): the cause the facts point to leads it, and the
  // missing runtime follows as another possible cause; a real problem in other lines would
  // still come before this harmless answer (ExplainRanking.HarmlessNoiseAroundOneRealErrorDoesNotHideIt).
  EXPECT_EQ(&r.matches.front(), cpu);
  EXPECT_FALSE(cpu->alternative);
  const ExplainMatch* missing = find_rule(r, "cudart-missing");
  ASSERT_NE(missing, nullptr);
  EXPECT_TRUE(missing->alternative);
}

TEST(ExplainTailoring, ContainerFactsPickTheContainerCause) {
  const std::string log =
      "RuntimeError: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing "
      "env variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero.";
  Facts f;
  f.os.container = "podman";
  f.driver.nvidia_module_loaded = true;
  f.driver.version = Version::parse("550.54.14");
  const auto r = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, &f});
  EXPECT_EQ(category_rank(r, "container/docker-runtime"), 1u);
  Facts host;
  host.driver.nvidia_module_loaded = true;
  const auto r2 = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, &host});
  EXPECT_EQ(category_rank(r2, "driver-missing"), 1u);
}

TEST(ExplainTailoring, WslPlatformPicksWslCause) {
  const std::string log =
      "Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open shared object file";
  // The text alone: WSL2's loader cache is the likely cause (the driver already worked when cuDNN
  // asked for libcuda.so); a machine known to run native Linux puts the missing link first.
  const auto text = explain_text(builtin_matcher(), log, ExplainMachine{});
  EXPECT_EQ(category_rank(text, "wsl2-specific"), 1u);
  const auto wsl = explain_text(builtin_matcher(), log, ExplainMachine{Platform::wsl2, nullptr});
  EXPECT_EQ(category_rank(wsl, "wsl2-specific"), 1u);
  EXPECT_EQ(wsl.matches.front().facts_verdict, "supported");
  const auto linux_machine = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, nullptr});
  EXPECT_EQ(category_rank(linux_machine, "path-or-env-misconfigured"), 1u);
}

TEST(ExplainTailoring, TestedBuildsComeOnlyFromTheKnowledgeBase) {
  const std::string log =
      "Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file";
  Facts f;
  f.platform = Platform::linux;
  f.python_envs.push_back(env_with_tf("2.13.1", "/home/me/venv"));
  // No tables: the note says what the machine has, and claims nothing about what TF needs.
  const auto bare = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, &f, nullptr});
  ASSERT_FALSE(bare.matches.empty());
  EXPECT_EQ(bare.matches.front().machine.find("tested with"), std::string::npos) << bare.matches.front().machine;

  // Tables: the Linux row for 2.13. Change that row (as a --kb overlay would) and the note
  // follows: explain has no second copy that could disagree.
  KnowledgeBase kb = builtin_kb();
  const TfBuild* row = kb.tf_build(*Version::parse("2.13.1"), Platform::linux);
  ASSERT_NE(row, nullptr);
  const std::string builtin_text = "TensorFlow 2.13.1 (in /home/me/venv) was tested with CUDA " + row->cuda->str() +
                                   " and cuDNN " + row->cudnn->str();
  const auto r = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, &f, &kb});
  EXPECT_NE(r.matches.front().machine.find(builtin_text), std::string::npos) << r.matches.front().machine;
  for (TfBuild& b : kb.tensorflow.builds) {
    if (&b == row) b.cudnn = Version::parse("8.4.2");
  }
  const auto changed = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, &f, &kb});
  EXPECT_NE(changed.matches.front().machine.find("and cuDNN 8.4.2"), std::string::npos)
      << changed.matches.front().machine;

  // A release the tables do not know: nothing is guessed.
  Facts future;
  future.platform = Platform::linux;
  future.python_envs.push_back(env_with_tf("9.99.0", "/home/me/venv"));
  const auto unknown = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, &future, &builtin_kb()});
  EXPECT_EQ(unknown.matches.front().machine.find("tested with"), std::string::npos) << unknown.matches.front().machine;
}

TEST(ExplainTailoring, WindowsTensorflowAfter210) {
  const std::string log = "tf.config.list_physical_devices('GPU') # [] is returned";
  Facts f;
  f.platform = Platform::windows;
  f.python_envs.push_back(env_with_tf("2.15.0", "C:\\Users\\me\\venv"));
  const auto r = explain_text(builtin_matcher(), log, ExplainMachine{Platform::windows, &f, &builtin_kb()});
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "windows-native-gpu-unsupported");
  EXPECT_EQ(r.matches.front().facts_verdict, "supported");
  // The last native-Windows GPU release is the knowledge base's, not a number in explain.
  EXPECT_NE(r.matches.front().machine.find(builtin_kb().tensorflow.windows_gpu_last.str() + " was the last"),
            std::string::npos)
      << r.matches.front().machine;
  // Without the tables, which releases lack Windows GPU support is unknown: no verdict.
  const auto no_kb = explain_text(builtin_matcher(), log, ExplainMachine{Platform::windows, &f, nullptr});
  const ExplainMatch* windows = find_rule(no_kb, "tf-empty-gpu-list/windows");
  ASSERT_NE(windows, nullptr);
  EXPECT_EQ(windows->facts_verdict, "");
  // Same log on Linux: the Windows cause is another platform's, not offered at all (since session
  // 41 review B it needs platform-windows, as other Windows-only alternatives do; before, it was
  // listed as contradicted).
  Facts lin;
  lin.python_envs.push_back(env_with_tf("2.15.0", "/home/me/venv"));
  const auto r2 = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, &lin, &builtin_kb()});
  EXPECT_EQ(r2.matches.front().category, "path-or-env-misconfigured");
  EXPECT_EQ(find_rule(r2, "tf-empty-gpu-list/windows"), nullptr) << testing::rule_list(r2);
}

TEST(ExplainTailoring, DriverNoteNamesDriverAndGpus) {
  const std::string log = "RuntimeError: The NVIDIA driver on your system is too old (found version 11040).";
  Facts f;
  f.driver.version = Version::parse("550.54.14");
  f.driver.cuda_driver_version = Version::parse("11.4");
  f.driver.nvidia_module_loaded = true;
  f.gpus.push_back(GpuFacts{.name = "NVIDIA GeForce GTX 1080"});
  const auto r = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, &f});
  ASSERT_FALSE(r.matches.empty());
  EXPECT_EQ(r.matches.front().category, "driver-too-old");
  EXPECT_NE(r.matches.front().cause.find("11040"), std::string::npos);
  EXPECT_NE(r.matches.front().machine.find("550.54.14"), std::string::npos);
  EXPECT_NE(r.matches.front().machine.find("11.4"), std::string::npos);
  EXPECT_NE(r.matches.front().machine.find("GTX 1080"), std::string::npos);
  // Without the tables no driver floor is claimed.
  EXPECT_EQ(r.matches.front().machine.find("needs NVIDIA driver"), std::string::npos) << r.matches.front().machine;

  // With a PyTorch built for CUDA 12.1 and the tables: the floor the doctor checks.
  PythonEnvFacts env;
  env.path = "/home/me/venv";
  FrameworkFacts torch;
  torch.name = "torch";
  torch.version = *Version::parse("2.3.0");
  torch.cuda_build = true;
  torch.cuda_version = Version::parse("12.1");
  env.frameworks.push_back(torch);
  f.python_envs.push_back(env);
  const auto floor = builtin_kb().family_min_driver(*Version::parse("12.1"), Platform::linux);
  ASSERT_TRUE(floor.has_value());
  const auto k = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, &f, &builtin_kb()});
  const std::string& note = k.matches.front().machine;
  EXPECT_NE(note.find("torch 2.3.0 (in /home/me/venv) is built for CUDA 12.1, which needs NVIDIA driver >= " +
                      floor->str() + " (Linux)"),
            std::string::npos)
      << note;
  // 550 is newer than any CUDA 12 floor: the note does not call it older.
  EXPECT_EQ(note.find("newer than the installed"), std::string::npos) << note;
  f.driver.version = Version::parse("470.82.01");
  const auto old = explain_text(builtin_matcher(), log, ExplainMachine{Platform::linux, &f, &builtin_kb()});
  EXPECT_NE(old.matches.front().machine.find("newer than the installed 470.82.01"), std::string::npos)
      << old.matches.front().machine;
}

TEST(ExplainConditions, TriStateAndNegation) {
  CaptureMap caps{{"lib", {"cudnn64_8.dll"}}};
  ExplainMachine none;
  EXPECT_EQ(evaluate_condition("container", caps, none), Truth::unknown);
  EXPECT_EQ(evaluate_condition("!container", caps, none), Truth::unknown);
  EXPECT_EQ(evaluate_condition("no-such-condition", caps, none), Truth::unknown);
  Facts f;
  ExplainMachine m{Platform::linux, &f};
  EXPECT_EQ(evaluate_condition("container", caps, m), Truth::no);
  EXPECT_EQ(evaluate_condition("!container", caps, m), Truth::yes);
  EXPECT_EQ(evaluate_condition("platform-linux", caps, m), Truth::yes);
  EXPECT_EQ(evaluate_condition("cudnn-other-major", caps, m), Truth::no);  // no cuDNN at all
  f.libraries.push_back(cudnn_lib("8.9.7", "/usr/lib", {"libcudnn.so.8"}));
  EXPECT_EQ(evaluate_condition("cudnn-other-major", caps, m), Truth::no);  // has 8
  EXPECT_EQ(evaluate_condition("cudnn-present", caps, m), Truth::yes);
  CaptureMap nine{{"lib", {"libcudnn.so.9"}}};
  EXPECT_EQ(evaluate_condition("cudnn-other-major", nine, m), Truth::yes);
  f.os.wsl2 = true;
  EXPECT_EQ(evaluate_condition("platform-wsl2", caps, m), Truth::yes);
}

}  // namespace
}  // namespace gpudoctor
