// One test per finding that no fixture or golden produced (issue 12), and the environment
// variables the doctor reports: each case says when the finding must appear and a
// neighbouring case where it must not.
#include <gtest/gtest.h>

#include <algorithm>

#include "check/checks.hpp"
#include "check/compat_checks.hpp"
#include "check/env_checks.hpp"
#include "check/gpu_driver_checks.hpp"
#include "check/python_checks.hpp"
#include "check_test_support.hpp"
#include "platform/system_view.hpp"
#include "probe/probes.hpp"

namespace gpudoctor {
namespace {

using testing::builtin_kb;
using testing::v;

using testing::find;
using testing::has;
using testing::ids;

std::vector<Finding> env_checks_for(std::vector<EnvVarFacts> env, std::vector<ToolkitFacts> toolkits = {}) {
  Facts f;
  f.env = std::move(env);
  f.toolkits = std::move(toolkits);
  return env_findings(f);
}

TEST(FindingsCoverage, CudaVisibleDevicesListIsInfoNotError) {
  auto fs = env_checks_for({{"CUDA_VISIBLE_DEVICES", "1,2"}});
  const Finding* f = find(fs, "cuda-visible-devices");
  ASSERT_NE(f, nullptr) << ids(fs);
  EXPECT_EQ(f->severity, Severity::info);
  EXPECT_EQ(find(fs, "cuda-visible-devices-hides-all"), nullptr);
  for (const char* hides : {"", "-1", "NoDevFiles", " none "}) {
    auto h = env_checks_for({{"CUDA_VISIBLE_DEVICES", hides}});
    EXPECT_NE(find(h, "cuda-visible-devices-hides-all"), nullptr) << "'" << hides << "'";
    EXPECT_EQ(find(h, "cuda-visible-devices"), nullptr) << "'" << hides << "'";
  }
}

// CUDA makes visible only the entries before the first invalid one (CUDA C Programming Guide,
// CUDA_VISIBLE_DEVICES): on a one-GPU machine "1" and "1,0" hide it. Found in review: "No issues
// found" before.
TEST(FindingsCoverage, CudaVisibleDevicesIsJudgedAgainstThisMachinesGpus) {
  auto with_gpu = [](const std::string& value, const std::string& source = "proc") {
    Facts f;
    f.env = {{"CUDA_VISIBLE_DEVICES", value}};
    f.gpus = {GpuFacts{
        .name = "NVIDIA GeForce RTX 3090", .source = source, .uuid = "GPU-8932f937-d72c-4106-c12f-20bd9faed9f6"}};
    return env_findings(f);
  };
  for (const char* hides : {"1", "1,0", "GPU-deadbeef", "2,GPU-8932f937"}) {
    auto fs = with_gpu(hides);
    const Finding* f = find(fs, "cuda-visible-devices-hides-all");
    ASSERT_NE(f, nullptr) << hides << ": " << ids(fs);
    EXPECT_EQ(f->severity, Severity::error);
    EXPECT_NE(f->detail.find("1 GPU"), std::string::npos) << f->detail;
  }
  auto partly = with_gpu("0,1");
  const Finding* p = find(partly, "cuda-visible-devices-partly-invalid");
  ASSERT_NE(p, nullptr) << ids(partly);
  EXPECT_EQ(p->severity, Severity::warning);
  for (const char* fine : {"0", "GPU-8932f937", "GPU-8932f937-d72c-4106-c12f-20bd9faed9f6"}) {
    auto fs = with_gpu(fine);
    EXPECT_NE(find(fs, "cuda-visible-devices"), nullptr) << fine << ": " << ids(fs);
    EXPECT_EQ(find(fs, "cuda-visible-devices-hides-all"), nullptr) << fine;
  }
  // What cannot be judged here stays an info line: a declared GPU (the machine is not read), a
  // MIG device (no MIG inventory).
  const auto declared = with_gpu("1", "declared");
  EXPECT_EQ(find(declared, "cuda-visible-devices-hides-all"), nullptr) << ids(declared);
  const auto mig = with_gpu("MIG-abc");
  EXPECT_EQ(find(mig, "cuda-visible-devices-hides-all"), nullptr) << ids(mig);
}

TEST(FindingsCoverage, NvidiaVisibleDevicesNone) {
  for (const char* none : {"void", "none", ""}) {
    auto fs = env_checks_for({{"NVIDIA_VISIBLE_DEVICES", none}});
    const Finding* f = find(fs, "nvidia-visible-devices-none");
    ASSERT_NE(f, nullptr) << "'" << none << "'";
    EXPECT_EQ(f->severity, Severity::warning);
  }
  EXPECT_FALSE(has(env_checks_for({{"NVIDIA_VISIBLE_DEVICES", "all"}}), "nvidia-visible-devices-none"));
}

TEST(FindingsCoverage, CudaLaunchBlocking) {
  auto fs = env_checks_for({{"CUDA_LAUNCH_BLOCKING", "1"}});  // kept: f points into it
  const Finding* f = find(fs, "cuda-launch-blocking");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::warning);
  EXPECT_FALSE(has(env_checks_for({{"CUDA_LAUNCH_BLOCKING", "0"}}), "cuda-launch-blocking"));
}

TEST(FindingsCoverage, TfLogsHidden) {
  auto three = env_checks_for({{"TF_CPP_MIN_LOG_LEVEL", "3"}});
  const Finding* f = find(three, "tf-logs-hidden");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->title.find("errors"), std::string::npos) << f->title;
  ASSERT_TRUE(has(env_checks_for({{"TF_CPP_MIN_LOG_LEVEL", "2"}}), "tf-logs-hidden"));
  EXPECT_FALSE(has(env_checks_for({{"TF_CPP_MIN_LOG_LEVEL", "1"}}), "tf-logs-hidden"));
}

TEST(FindingsCoverage, CudaHomeInvalidOnlyWhenNoToolkitCameFromIt) {
  auto bad = env_checks_for({{"CUDA_HOME", "/usr/local/cuda-99"}});
  const Finding* f = find(bad, "cuda-home-invalid");
  ASSERT_NE(f, nullptr) << ids(bad);
  EXPECT_EQ(f->severity, Severity::warning);
  ToolkitFacts tk;
  tk.path = "/usr/local/cuda-12.4";
  tk.found_via = {"CUDA_HOME"};
  EXPECT_FALSE(has(env_checks_for({{"CUDA_HOME", "/usr/local/cuda-12.4"}}, {tk}), "cuda-home-invalid"));
  EXPECT_TRUE(has(env_checks_for({{"CUDA_PATH", "/nowhere"}}, {tk}), "cuda-home-invalid"));
}

TEST(FindingsCoverage, NoPython) {
  Facts none;
  auto fs = python_findings(none);  // kept: f points into it
  const Finding* f = find(fs, "no-python");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::info);
  Facts one;
  PythonEnvFacts e;
  e.path = "/usr";
  e.kind = "system";
  one.python_envs.push_back(e);
  EXPECT_FALSE(has(python_findings(one), "no-python"));
}

Facts wsl2_machine() {
  Facts f;
  f.platform = Platform::wsl2;
  f.os.wsl2 = true;
  f.os.wsl_dxg_device = true;
  f.os.wsl_lib_dir = true;
  f.driver.files.push_back(DriverFile{"libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1", std::nullopt});
  return f;
}

TEST(FindingsCoverage, Wsl2NoDxgOnTheLiveMachineOnly) {
  Facts f = wsl2_machine();
  EXPECT_FALSE(has(gpu_driver_findings(f), "wsl2-no-dxg")) << ids(gpu_driver_findings(f));
  f.os.wsl_dxg_device = false;
  f.live = true;
  auto fs = gpu_driver_findings(f);
  const Finding* nodxg = find(fs, "wsl2-no-dxg");
  ASSERT_NE(nodxg, nullptr) << ids(fs);
  EXPECT_EQ(nodxg->severity, Severity::error);
  // Under --root (an image, a copied tree) /dev is not the machine's: nothing to judge.
  f.live = false;
  EXPECT_FALSE(has(gpu_driver_findings(f), "wsl2-no-dxg"));
}

TEST(FindingsCoverage, Wsl2NoDriverLibraries) {
  Facts f = wsl2_machine();
  EXPECT_FALSE(has(gpu_driver_findings(f), "wsl2-no-driver-libraries"));
  f.os.wsl_lib_dir = false;
  f.driver.files.clear();
  auto fs = gpu_driver_findings(f);
  ASSERT_NE(find(fs, "wsl2-no-driver-libraries"), nullptr) << ids(fs);
  // Not a WSL2 question on plain Linux.
  f.platform = Platform::linux;
  f.os.wsl2 = false;
  EXPECT_FALSE(has(gpu_driver_findings(f), "wsl2-no-driver-libraries"));
}

TEST(FindingsCoverage, JaxCudnnMismatchAgainstTheKnowledgeBase) {
  const JaxVariant* jv = builtin_kb().jax_variant("cuda12");
  ASSERT_NE(jv, nullptr);
  auto run = [&](const char* cudnn) {
    Facts f = testing::machine(Platform::linux, "NVIDIA RTX A6000", "570.133.07");
    PythonEnvFacts e = testing::env_with("3.12.4", testing::cuda_framework("jax", "0.6.2", "cuda12"));
    e.nvidia_wheels.push_back(NvidiaWheel{"nvidia-cudnn-cu12", v(cudnn), "cudnn", 12});
    f.python_envs.push_back(e);
    return compatibility_findings(f, builtin_kb());
  };
  // jax 0.6.2's own floor (its plugin's with-cuda extra), not the newest release's.
  const VersionSpec* floor = builtin_kb().jax_cudnn(*jv, v("0.6.2"));
  ASSERT_NE(floor, nullptr);
  ASSERT_FALSE(floor->contains(v("8.9.7.29"))) << floor->text();
  auto bad = run("8.9.7.29");
  const Finding* m = find(bad, "jax-cudnn-mismatch");
  ASSERT_NE(m, nullptr) << ids(bad);
  EXPECT_NE(m->title.find(floor->text()), std::string::npos) << m->title;
  ASSERT_TRUE(floor->contains(jv->built_cudnn)) << floor->text();
  auto good = run(jv->built_cudnn.str().c_str());
  EXPECT_EQ(find(good, "jax-cudnn-mismatch"), nullptr) << ids(good);
}

// ---- the environment variables the doctor reports (probe_env) ----

std::vector<std::string> reported(EnvMap env) {
  SystemView system(SystemView::Options{"/nonexistent-root", Platform::linux, std::move(env)});
  Facts f;
  probe_env(system, f);
  std::vector<std::string> names;
  for (const auto& e : f.env) names.push_back(e.name);
  std::sort(names.begin(), names.end());
  return names;
}

TEST(FindingsCoverage, FrameworkVariableFamiliesAreReported) {
  auto names = reported({{"TF_FORCE_GPU_ALLOW_GROWTH", "true"},
                         {"XLA_FLAGS", "--xla_gpu_cuda_data_dir=/usr/local/cuda"},
                         {"PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True"},
                         {"NCCL_DEBUG", "INFO"},
                         {"NCCL_P2P_DISABLE", "1"},
                         {"TF_VAR_region", "eu"},  // Terraform, not TensorFlow
                         {"XLA_FLAGSX", "1"},      // exact names match exactly
                         {"HOME", "/root"}});
  EXPECT_EQ(names, (std::vector<std::string>{"NCCL_DEBUG", "NCCL_P2P_DISABLE", "PYTORCH_CUDA_ALLOC_CONF",
                                             "TF_FORCE_GPU_ALLOW_GROWTH", "XLA_FLAGS"}));
}

}  // namespace
}  // namespace gpudoctor
