/// Detection of real wheels installed by run_wheels_test.py. The expected facts (versions
/// from pip, TensorFlow's build_info and torch's version.py as the venv's own Python reads
/// them) arrive in the JSON file named by GPUDOCTOR_WHEELS_EXPECTED; the probe reads the same
/// venv through a SystemView over "/" with VIRTUAL_ENV pointing at it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "platform/host_fs.hpp"
#include "probe/library_dirs.hpp"
#include "probe/probes.hpp"

namespace gpudoctor {
namespace {

using nlohmann::json;

/// This host's files and environment; not live: the probes need no process runner, files only.
SystemView::Options host_files_options() {
  SystemView::Options o;
  o.root = "/";
  for (auto& [k, v] : host_fs::process_environment()) o.env.emplace(k, v);
  o.live = false;
  return o;
}

class Wheels : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* path = std::getenv("GPUDOCTOR_WHEELS_EXPECTED");
    const char* venv = std::getenv("VIRTUAL_ENV");
    if (path == nullptr || venv == nullptr) {
      GTEST_SKIP() << "run through run_wheels_test.py (ctest -L wheels): "
                      "GPUDOCTOR_WHEELS_EXPECTED and VIRTUAL_ENV are not set";
    }
    std::ifstream in(path);
    expected_ = json::parse(in, nullptr, false);
    ASSERT_FALSE(expected_.is_discarded()) << "cannot parse " << path;
    SystemView system(host_files_options());
    probe_python(system, facts_);
    auto canon = system.canonical(venv);
    ASSERT_TRUE(canon.has_value());
    for (const auto& e : facts_.python_envs) {
      if (e.path == *canon) env_ = &e;
    }
    ASSERT_NE(env_, nullptr) << "the venv " << *canon << " was not found";
  }

  [[nodiscard]] std::string pip_version(const std::string& name) const {
    const auto& p = expected_["packages"];
    return p.contains(name) ? p[name].get<std::string>() : std::string();
  }
  [[nodiscard]] const FrameworkFacts* fw(std::string_view name) const {
    for (const auto& f : env_->frameworks) {
      if (f.name == name) return &f;
    }
    return nullptr;
  }

  json expected_;
  Facts facts_;
  const PythonEnvFacts* env_ = nullptr;
};

TEST_F(Wheels, VenvAndPythonVersion) {
  EXPECT_EQ(env_->kind, "venv");
  ASSERT_TRUE(env_->python_version);
  EXPECT_EQ(env_->python_version->str(), expected_["python"].get<std::string>());
  EXPECT_TRUE(std::find(env_->found_via.begin(), env_->found_via.end(), "VIRTUAL_ENV") != env_->found_via.end());
}

TEST_F(Wheels, TensorflowVersionAndBuildInfo) {
  std::string v = pip_version("tensorflow");
  if (v.empty()) GTEST_SKIP() << "tensorflow not installed";
  const auto* tf = fw("tensorflow");
  ASSERT_NE(tf, nullptr);
  EXPECT_EQ(tf->version.str(), v);
  const json& bi = expected_["tensorflow_build_info"];
  EXPECT_EQ(tf->cuda_build, bi.value("is_cuda_build", false));
  if (bi.contains("cuda_version")) {
    ASSERT_TRUE(tf->cuda_version);
    EXPECT_EQ(tf->cuda_version->str(), bi["cuda_version"].get<std::string>());
    EXPECT_EQ(tf->variant, "cuda" + std::to_string(tf->cuda_version->major()));
  }
  if (bi.contains("cudnn_version")) {
    ASSERT_TRUE(tf->cudnn_version);
    // build_info.py names cuDNN's major alone ("9"); the header the wheel carries gives its minor.
    const std::string from_build_info = bi["cudnn_version"].get<std::string>();
    const std::string header = expected_.value("tensorflow_cudnn_header", "");
    const bool minor_from_header =
        from_build_info.find('.') == std::string::npos && header.starts_with(from_build_info + ".");
    EXPECT_EQ(tf->cudnn_version->str(), minor_from_header ? header : from_build_info);
  }
  if (bi.contains("cuda_compute_capabilities")) {
    EXPECT_EQ(tf->compute_capabilities, bi["cuda_compute_capabilities"].get<std::vector<std::string>>());
  }
  EXPECT_TRUE(tf->problems.empty()) << tf->problems.front();
}

TEST_F(Wheels, JaxWithCuda12Plugin) {
  std::string v = pip_version("jax");
  if (v.empty()) GTEST_SKIP() << "jax not installed";
  const auto* jax = fw("jax");
  const auto* jaxlib = fw("jaxlib");
  const auto* plugin = fw("jax-cuda-plugin");
  const auto* pjrt = fw("jax-cuda-pjrt");
  ASSERT_NE(jax, nullptr);
  ASSERT_NE(jaxlib, nullptr);
  ASSERT_NE(plugin, nullptr);
  ASSERT_NE(pjrt, nullptr);
  EXPECT_EQ(jax->version.str(), v);
  EXPECT_EQ(jaxlib->version.str(), pip_version("jaxlib"));
  EXPECT_EQ(plugin->version.str(), pip_version("jax-cuda12-plugin"));
  EXPECT_EQ(pjrt->version.str(), pip_version("jax-cuda12-pjrt"));
  EXPECT_EQ(jax->cuda_build, true);
  EXPECT_EQ(jax->variant, "cuda12");
  EXPECT_TRUE(jax->problems.empty()) << jax->problems.front();
}

TEST_F(Wheels, NvidiaWheels) {
  int expected_count = 0;
  for (const auto& [name, version] : expected_["packages"].items()) {
    if (name.rfind("nvidia-", 0) != 0) continue;
    ++expected_count;
    const NvidiaWheel* found = nullptr;
    for (const auto& w : env_->nvidia_wheels) {
      if (w.package == name) found = &w;
    }
    ASSERT_NE(found, nullptr) << name;
    EXPECT_EQ(found->version.str(), version.get<std::string>()) << name;
  }
  EXPECT_GE(expected_count, 1);
  EXPECT_EQ(static_cast<int>(env_->nvidia_wheels.size()), expected_count);
  for (const auto& w : env_->nvidia_wheels) {
    if (w.package == "nvidia-cudnn-cu12") {
      EXPECT_EQ(w.library, "cudnn");
      EXPECT_EQ(w.cuda_major, 12);
    }
  }
}

TEST_F(Wheels, TorchVersionAndCudaBuild) {
  std::string v = pip_version("torch");
  if (v.empty()) GTEST_SKIP() << "torch not installed (--no-torch)";
  const auto* torch = fw("torch");
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ(torch->version.str(), v);
  const json& tv = expected_["torch_version"];
  bool cuda = tv.contains("cuda") && !tv["cuda"].is_null();
  EXPECT_EQ(torch->cuda_build, cuda);
  if (cuda) {
    ASSERT_TRUE(torch->cuda_version);
    EXPECT_EQ(torch->cuda_version->str(), tv["cuda"].get<std::string>());
  }
  EXPECT_TRUE(torch->problems.empty()) << torch->problems.front();
}

// Issue 10 item 11: torch's cuDNN build version was null; it is the nvidia-cudnn pin in its METADATA.
TEST_F(Wheels, TorchCudnnBuildVersionFromItsRequirementPin) {
  if (pip_version("torch").empty()) GTEST_SKIP() << "torch not installed (--no-torch)";
  if (!expected_.contains("torch_cudnn_pin")) GTEST_SKIP() << "this torch wheel pins no nvidia-cudnn wheel";
  const auto* torch = fw("torch");
  ASSERT_NE(torch, nullptr);
  ASSERT_TRUE(torch->cudnn_version);
  EXPECT_EQ(torch->cudnn_version->str(), expected_["torch_cudnn_pin"].get<std::string>());
}

// Issue 10 item 2: TensorFlow installed without [and-cuda] (only nvidia-cudnn-cu12 beside it)
// has no CUDA runtime; every library it opens is resolved and the missing ones are empty.
TEST_F(Wheels, TensorflowWithoutAndCudaResolvesEveryCudaLibrary) {
  if (pip_version("tensorflow").empty()) GTEST_SKIP() << "tensorflow not installed";
  SystemView::Options o = host_files_options();
  o.env.erase("LD_LIBRARY_PATH");  // the loader as a fresh shell has it
  SystemView system(std::move(o));
  Facts facts = facts_;
  resolve_framework_libraries(system, read_loader_paths(system), facts);
  const FrameworkFacts* tf = nullptr;
  for (const auto& e : facts.python_envs) {
    if (e.path != env_->path) continue;
    for (const auto& f : e.frameworks) {
      if (f.name == "tensorflow") tf = &f;
    }
  }
  ASSERT_NE(tf, nullptr);
  ASSERT_TRUE(tf->cuda_version && tf->cudnn_version);
  std::map<std::string, const LibraryLoad*> loads;
  for (const auto& l : tf->loads) loads[l.soname] = &l;
  std::string cudnn = "libcudnn.so." + std::to_string(tf->cudnn_version->major());
  for (const std::string& soname : {std::string("libcudart.so.12"), std::string("libcublas.so.12"), cudnn}) {
    ASSERT_TRUE(loads.count(soname)) << soname;
  }
  // cuDNN comes from the nvidia-cudnn-cu12 wheel installed beside TensorFlow.
  EXPECT_EQ(loads[cudnn]->via, "pip wheel") << loads[cudnn]->path;
  EXPECT_NE(loads[cudnn]->path.find(env_->path), std::string::npos) << loads[cudnn]->path;
  // The runtime: only a system copy can provide it, and the loader itself says whether one exists.
  EXPECT_EQ(loads["libcudart.so.12"]->path.empty(), !expected_.value("system_has_libcudart12", false))
      << loads["libcudart.so.12"]->path;
}

/// The facts with every framework's libraries resolved as a fresh shell's loader would (no
/// LD_LIBRARY_PATH), as the oracle ran.
Facts resolved_without_ld_library_path(const Facts& facts) {
  SystemView::Options o = host_files_options();
  o.env.erase("LD_LIBRARY_PATH");
  SystemView system(std::move(o));
  Facts out = facts;
  resolve_framework_libraries(system, read_loader_paths(system), out);
  return out;
}

/// The framework `name` of the venv under test in `facts`.
const FrameworkFacts* in_venv(const Facts& facts, const std::string& venv, std::string_view name) {
  for (const auto& e : facts.python_envs) {
    for (const auto& f : e.frameworks) {
      if (e.path == venv && f.name == name) return &f;
    }
  }
  return nullptr;
}

std::string real_path(const std::string& p) {
  std::error_code ec;
  auto c = std::filesystem::weakly_canonical(p, ec);
  return ec ? p : c.string();
}

// Issue 10 item 2, PyTorch: each library torch's CUDA build links is one ldd lists for torch's
// own libraries, found exactly when ldd finds it, and the same file.
TEST_F(Wheels, TorchResolvesEveryCudaLibraryAsTheLoaderDoes) {
  if (pip_version("torch").empty()) GTEST_SKIP() << "torch not installed (--no-torch)";
  if (!expected_.contains("torch_ldd")) GTEST_SKIP() << "no ldd on this machine, or torch is not a CUDA build";
  const json& ldd = expected_["torch_ldd"];
  const Facts facts = resolved_without_ld_library_path(facts_);
  const FrameworkFacts* torch = in_venv(facts, env_->path, "torch");
  ASSERT_NE(torch, nullptr);
  ASSERT_FALSE(torch->loads.empty()) << "torch " << torch->version.str() << " is a CUDA build";
  for (const LibraryLoad& l : torch->loads) {
    ASSERT_TRUE(ldd.contains(l.soname)) << l.soname << ": torch's libraries do not link it";
    const json& want = ldd[l.soname];
    EXPECT_EQ(l.path.empty(), want.is_null()) << l.soname << ": gpudoctor " << l.path << ", ldd " << want.dump();
    if (!l.path.empty() && !want.is_null()) {
      EXPECT_EQ(real_path(l.path), want.get<std::string>()) << l.soname;
    }
  }
  // And none is left out: every CUDA library torch's objects link (the driver's libcuda.so.1
  // is the driver check's) is among the loads.
  if (expected_.contains("torch_needed")) {
    for (const auto& n : expected_["torch_needed"]) {
      const std::string name = n.get<std::string>();
      const bool cuda = (name.starts_with("libcu") || name.starts_with("libnv") || name.starts_with("libnccl")) &&
                        name != "libcuda.so.1";
      if (!cuda) continue;
      const bool listed =
          std::any_of(torch->loads.begin(), torch->loads.end(), [&](const LibraryLoad& l) { return l.soname == name; });
      EXPECT_TRUE(listed) << name << " is linked by torch " << torch->version.str() << " but not resolved";
    }
  }
}

// Issue 10 item 2, JAX: each library gpudoctor says the CUDA plugin opens is one the plugin
// loads (its own _load_nvidia_libraries list), found exactly when that loading finds it.
TEST_F(Wheels, JaxPluginResolvesEveryCudaLibraryAsThePluginDoes) {
  if (!expected_.contains("jax_plugin_loads")) GTEST_SKIP() << "no jax_plugins/xla_cuda* in the venv";
  const json& oracle = expected_["jax_plugin_loads"];
  const Facts facts = resolved_without_ld_library_path(facts_);
  const FrameworkFacts* jax = in_venv(facts, env_->path, "jax");
  ASSERT_NE(jax, nullptr);
  ASSERT_FALSE(jax->loads.empty());
  for (const LibraryLoad& l : jax->loads) {
    ASSERT_TRUE(oracle.contains(l.soname)) << l.soname << ": the plugin does not load it";
    const json& want = oracle[l.soname];
    EXPECT_EQ(l.path.empty(), want.is_null()) << l.soname << ": gpudoctor " << l.path << ", plugin " << want.dump();
    if (!l.path.empty() && want.is_string() && want.get<std::string>() != "system") {
      EXPECT_EQ(real_path(l.path), want.get<std::string>()) << l.soname;
    }
  }
}

// tensorflow-probability's import checks: the probe's line reader and Python's own parser (the
// oracle, in run_wheels_test.py) on the same installed python/__init__.py.
TEST_F(Wheels, TensorflowProbabilityImportChecks) {
  const std::string version = pip_version("tensorflow-probability");
  ASSERT_FALSE(version.empty()) << "run_wheels_test.py installs tensorflow-probability";
  const FrameworkFacts* t = fw("tensorflow-probability");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->version.str(), version);
  const json& oracle = expected_["tfp_import_checks"];
  ASSERT_TRUE(oracle.is_object() && oracle["tensorflow_floor"].is_string()) << oracle.dump();
  ASSERT_TRUE(t->requires_tensorflow.has_value()) << t->evidence;
  EXPECT_EQ(t->requires_tensorflow->str(), oracle["tensorflow_floor"].get<std::string>());
  EXPECT_EQ(t->imports_tf_keras, oracle["imports_tf_keras"].get<bool>());
  EXPECT_TRUE(t->evidence.ends_with("tensorflow_probability/python/__init__.py")) << t->evidence;
}

TEST_F(Wheels, NothingElseMistakenForAFramework) {
  for (const auto& f : env_->frameworks) {
    EXPECT_FALSE(pip_version(f.package).empty()) << f.package << " detected but not installed";
  }
  // Other environments on the host may have their own problems; the test venv must have none.
  for (const auto& p : facts_.problems) {
    EXPECT_FALSE(p.path.rfind(env_->path, 0) == 0) << p.probe << " " << p.path << ": " << p.message;
  }
}

}  // namespace
}  // namespace gpudoctor
