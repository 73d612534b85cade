#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/text.hpp"
#include "probe/probes.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A SystemView over tests/fixtures/<name>/root with the scenario's env file and the
/// --platform of its args file, as `gpudoctor --root ... --env-file ...` builds it.
SystemView fixture_view(const fs::path& dir) {
  SystemView::Options o;
  o.root = (dir / "root").string();
  o.env = parse_env_file(read_text(dir / "env")).env;
  o.live = false;
  std::vector<std::string> args;
  std::string args_text = read_text(dir / "args");
  for (auto line : lines(args_text)) args.emplace_back(trim(line));
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "--platform") o.platform = parse_platform(args[i + 1]).value_or(Platform::linux);
  }
  return SystemView(std::move(o));
}

/// The Python probe over a scenario directory (root/, env, args).
Facts probe_dir(const fs::path& dir) {
  SystemView system = fixture_view(dir);
  Facts facts;
  probe_python(system, facts);
  return facts;
}

Facts probe_fixture(const std::string& name) {
  fs::path dir = fs::path(GPUDOCTOR_FIXTURES_DIR) / name;
  EXPECT_TRUE(fs::is_directory(dir / "root")) << dir;
  return probe_dir(dir);
}

const PythonEnvFacts* env_at(const Facts& f, std::string_view path) {
  for (const auto& e : f.python_envs) {
    if (e.path == path) return &e;
  }
  return nullptr;
}

const FrameworkFacts* framework(const PythonEnvFacts& e, std::string_view name) {
  for (const auto& fw : e.frameworks) {
    if (fw.name == name) return &fw;
  }
  return nullptr;
}

const NvidiaWheel* wheel(const PythonEnvFacts& e, std::string_view package) {
  for (const auto& w : e.nvidia_wheels) {
    if (w.package == package) return &w;
  }
  return nullptr;
}

bool lists(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::string describe(const Facts& f) {
  std::string out;
  for (const auto& e : f.python_envs) {
    out += e.kind + " " + e.path + " py=" + (e.python_version ? e.python_version->str() : "?") +
           " via=" + join(e.found_via, ",") + "\n";
    for (const auto& fw : e.frameworks) {
      out += "  " + fw.name + " (" + fw.package + ") " + fw.version.str() + " variant=" + fw.variant +
             " cuda_build=" + (fw.cuda_build ? (*fw.cuda_build ? "true" : "false") : "?") + "\n";
      for (const auto& p : fw.problems) out += "    problem: " + p + "\n";
    }
    out += "  nvidia wheels: " + std::to_string(e.nvidia_wheels.size()) + "\n";
  }
  for (const auto& p : f.problems) out += "problem: " + p.path + ": " + p.message + "\n";
  return out;
}

#define EXPECT_NO_PROBLEMS(f) EXPECT_TRUE((f).problems.empty()) << describe(f)

std::string all_problems(const Facts& f) {
  std::string out;
  for (const auto& p : f.problems) out += p.path + ": " + p.message + "\n";
  for (const auto& e : f.python_envs) {
    for (const auto& fw : e.frameworks) {
      for (const auto& p : fw.problems) out += fw.name + ": " + p + "\n";
    }
  }
  return out;
}

TEST(PythonProbe, TorchHealthyVenv) {
  Facts f = probe_fixture("linux-torch-healthy");
  const auto* venv = env_at(f, "/home/alex/projects/vision/.venv");
  ASSERT_NE(venv, nullptr) << describe(f);
  EXPECT_EQ(venv->kind, "venv");
  ASSERT_TRUE(venv->python_version);
  EXPECT_EQ(venv->python_version->str(), "3.10.12");
  EXPECT_EQ(venv->python_version_source, "pyvenv.cfg");
  EXPECT_TRUE(lists(venv->found_via, "VIRTUAL_ENV"));
  EXPECT_TRUE(lists(venv->found_via, "PATH"));
  EXPECT_EQ(venv->interpreter, "/home/alex/projects/vision/.venv/bin/python3");
  ASSERT_EQ(venv->site_packages.size(), 1u);  // lib64 -> lib is the same directory
  const auto* torch = framework(*venv, "torch");
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ(torch->version.str(), "2.3.1+cu121");
  EXPECT_EQ(torch->variant, "cu121");
  EXPECT_EQ(torch->cuda_build, true);
  ASSERT_TRUE(torch->cuda_version);
  EXPECT_EQ(torch->cuda_version->str(), "12.1");
  EXPECT_NE(torch->evidence.find("torch/version.py"), std::string::npos);
  const auto* cudnn = wheel(*venv, "nvidia-cudnn-cu12");
  ASSERT_NE(cudnn, nullptr);
  EXPECT_EQ(cudnn->version.str(), "8.9.2.26");
  EXPECT_EQ(cudnn->library, "cudnn");
  EXPECT_EQ(cudnn->cuda_major, 12);
  const auto* rt = wheel(*venv, "nvidia-cuda-runtime-cu12");
  ASSERT_NE(rt, nullptr);
  EXPECT_EQ(rt->library, "cudart");
  EXPECT_EQ(venv->nvidia_wheels.size(), 12u);
  // The system Python is found once, through PATH and its lib directories.
  const auto* sys = env_at(f, "/usr");
  ASSERT_NE(sys, nullptr);
  EXPECT_EQ(sys->kind, "system");
  EXPECT_EQ(sys->python_version->str(), "3.10");
  EXPECT_TRUE(sys->frameworks.empty());
  EXPECT_EQ(f.python_envs.size(), 2u) << describe(f);
  EXPECT_NO_PROBLEMS(f);
}

TEST(PythonProbe, Tf215VenvBuiltForCuda122Cudnn8) {
  Facts f = probe_fixture("linux-tf215-cudnn86-mismatch");
  const auto* venv = env_at(f, "/home/alex/tf/venv");
  ASSERT_NE(venv, nullptr) << describe(f);
  const auto* tf = framework(*venv, "tensorflow");
  ASSERT_NE(tf, nullptr);
  EXPECT_EQ(tf->package, "tensorflow");
  EXPECT_EQ(tf->version.str(), "2.15.0");
  EXPECT_EQ(tf->cuda_build, true);
  EXPECT_EQ(tf->cuda_version->str(), "12.2");
  EXPECT_EQ(tf->cudnn_version->str(), "8");
  EXPECT_EQ(tf->variant, "cuda12");
  EXPECT_TRUE(lists(tf->compute_capabilities, "compute_80"));
  EXPECT_NE(tf->evidence.find("build_info.py"), std::string::npos);
  EXPECT_TRUE(venv->nvidia_wheels.empty());
  ASSERT_NE(framework(*venv, "keras"), nullptr);
  EXPECT_FALSE(framework(*venv, "keras")->cuda_build.has_value());
  EXPECT_NO_PROBLEMS(f);
}

TEST(PythonProbe, UserSiteTorchUnderSystemPython) {
  Facts f = probe_fixture("linux-nouveau");
  const auto* sys = env_at(f, "/usr");
  ASSERT_NE(sys, nullptr) << describe(f);
  const auto* torch = framework(*sys, "torch");
  ASSERT_NE(torch, nullptr) << describe(f);
  EXPECT_EQ(torch->location, "/home/alex/.local/lib/python3.10/site-packages");
  // PyPI's wheel: no local tag in the dist-info name, +cu121 in version.py; not a conflict.
  EXPECT_EQ(torch->version.str(), "2.3.1");
  EXPECT_EQ(torch->variant, "cu121");
  EXPECT_EQ(torch->cuda_build, true);
  EXPECT_NO_PROBLEMS(f);
}

TEST(PythonProbe, Wsl2TorchCu128) {
  Facts f = probe_fixture("wsl2-torch-cu128");
  const auto* venv = env_at(f, "/home/alex/ml/.venv");
  ASSERT_NE(venv, nullptr) << describe(f);
  EXPECT_EQ(venv->python_version->str(), "3.12.3");
  const auto* torch = framework(*venv, "torch");
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ(torch->variant, "cu128");
  EXPECT_EQ(torch->cuda_version->str(), "12.8");
  EXPECT_EQ(wheel(*venv, "nvidia-cudnn-cu12")->version.str(), "9.7.1.26");
  EXPECT_EQ(wheel(*venv, "nvidia-nccl-cu12")->library, "nccl");
  EXPECT_NO_PROBLEMS(f);
}

TEST(PythonProbe, CpuOnlyBuildsFoundByHomeScan) {
  Facts f = probe_fixture("linux-cpu-only-builds");
  const auto* tfenv = env_at(f, "/home/alex/tf-cpu");
  const auto* torchenv = env_at(f, "/home/alex/code/detector/.venv");
  ASSERT_NE(tfenv, nullptr) << describe(f);
  ASSERT_NE(torchenv, nullptr) << describe(f);
  EXPECT_TRUE(lists(tfenv->found_via, "project venv under home"));
  const auto* tf = framework(*tfenv, "tensorflow");
  ASSERT_NE(tf, nullptr);
  EXPECT_EQ(tf->package, "tensorflow-cpu");
  EXPECT_EQ(tf->cuda_build, false);
  EXPECT_EQ(tf->variant, "cpu");
  EXPECT_FALSE(tf->cuda_version.has_value());
  const auto* torch = framework(*torchenv, "torch");
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ(torch->variant, "cpu");
  EXPECT_EQ(torch->cuda_build, false);
  EXPECT_FALSE(torch->cuda_version.has_value());
  EXPECT_NO_PROBLEMS(f);
}

TEST(PythonProbe, CondaEnvsPyenvVirtualenvsAndOldBuildInfo) {
  Facts f = probe_fixture("linux-several-toolkits");
  const auto* tfenv = env_at(f, "/home/alex/miniconda3/envs/tf215");
  ASSERT_NE(tfenv, nullptr) << describe(f);
  EXPECT_EQ(tfenv->kind, "conda");
  EXPECT_EQ(tfenv->python_version->str(), "3.11.9");
  EXPECT_EQ(tfenv->python_version_source, "conda-meta");
  EXPECT_TRUE(lists(tfenv->found_via, "CONDA_PREFIX"));
  EXPECT_EQ(framework(*tfenv, "tensorflow")->cuda_version->str(), "12.2");
  const auto* base = env_at(f, "/home/alex/miniconda3");
  ASSERT_NE(base, nullptr);
  EXPECT_EQ(base->python_version->str(), "3.12.4");
  const auto* legacy = env_at(f, "/home/alex/.virtualenvs/legacy-tf1");
  ASSERT_NE(legacy, nullptr);
  EXPECT_EQ(legacy->kind, "virtualenv");
  EXPECT_EQ(legacy->python_version->str(), "3.7.17");
  const auto* tf1 = framework(*legacy, "tensorflow");
  ASSERT_NE(tf1, nullptr);
  EXPECT_EQ(tf1->package, "tensorflow-gpu");
  EXPECT_EQ(tf1->cuda_build, true);
  EXPECT_EQ(tf1->cuda_version->str(), "10.0");
  EXPECT_EQ(tf1->cudnn_version->str(), "7");
  const auto* pyenv = env_at(f, "/home/alex/.pyenv/versions/3.7.17");
  ASSERT_NE(pyenv, nullptr);
  EXPECT_EQ(pyenv->kind, "pyenv");
  EXPECT_EQ(f.python_envs.size(), 5u) << describe(f);
  EXPECT_NO_PROBLEMS(f);
}

TEST(PythonProbe, WindowsTensorflowIntel) {
  Facts f = probe_fixture("windows-tf215-native");
  ASSERT_EQ(f.python_envs.size(), 1u) << describe(f);  // the WindowsApps stub is not Python
  const auto& env = f.python_envs.front();
  EXPECT_EQ(env.path, "C:\\Users\\alice\\AppData\\Local\\Programs\\Python\\Python311");
  EXPECT_EQ(env.python_version->str(), "3.11");
  EXPECT_TRUE(lists(env.found_via, "PATH"));
  EXPECT_EQ(env.interpreter, "C:\\Users\\alice\\AppData\\Local\\Programs\\Python\\Python311\\python.exe");
  const auto* tf = framework(env, "tensorflow");
  ASSERT_NE(tf, nullptr);
  EXPECT_EQ(tf->package, "tensorflow-intel");  // the meta-package `tensorflow` is folded in
  EXPECT_EQ(tf->version.str(), "2.15.0");
  EXPECT_EQ(tf->cuda_build, false);
  EXPECT_EQ(tf->variant, "cpu");
  EXPECT_EQ(std::count_if(env.frameworks.begin(), env.frameworks.end(),
                          [](const auto& fw) { return fw.name == "tensorflow"; }),
            1);
  EXPECT_NO_PROBLEMS(f);
}

TEST(PythonProbe, WindowsTf210GpuVenvWithRealBuildInfo) {
  Facts f = probe_fixture("windows-tf210-native-gpu");
  const auto* v = env_at(f, "C:\\Users\\maria\\tf210");
  ASSERT_NE(v, nullptr) << describe(f);
  EXPECT_EQ(v->kind, "venv");
  EXPECT_EQ(v->python_version->str(), "3.10.7");
  EXPECT_TRUE(lists(v->found_via, "VIRTUAL_ENV"));
  EXPECT_TRUE(lists(v->found_via, "PATH"));
  EXPECT_EQ(v->interpreter, "C:\\Users\\maria\\tf210\\Scripts\\python.exe");
  const auto* tf = framework(*v, "tensorflow");
  ASSERT_NE(tf, nullptr);
  EXPECT_EQ(tf->version.str(), "2.10.0");
  EXPECT_EQ(tf->cuda_build, true);
  EXPECT_EQ(tf->cuda_version->str(), "11.2");  // written "64_112" in the wheel
  EXPECT_EQ(tf->cudnn_version->str(), "8");    // written "64_8"
  EXPECT_EQ(tf->variant, "cuda11");
  EXPECT_EQ(tf->compute_capabilities.size(), 6u);
  const auto* base = env_at(f, "C:\\Users\\maria\\AppData\\Local\\Programs\\Python\\Python310");
  ASSERT_NE(base, nullptr);
  EXPECT_EQ(base->python_version->str(), "3.10");
  EXPECT_EQ(f.python_envs.size(), 2u);
  EXPECT_NO_PROBLEMS(f);
}

TEST(PythonProbe, PipCudnnWheelBesideTorch) {
  Facts f = probe_fixture("linux-pip-cudnn-shadowed");
  const auto* venv = env_at(f, "/home/alex/llm/.venv");
  ASSERT_NE(venv, nullptr) << describe(f);
  const auto* torch = framework(*venv, "torch");
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ(torch->version.str(), "2.4.0");
  EXPECT_EQ(torch->variant, "cu121");
  EXPECT_EQ(wheel(*venv, "nvidia-cudnn-cu12")->version.str(), "9.1.0.70");
  // Its METADATA's pin, kept for the `pip check` comparison.
  ASSERT_EQ(torch->nvidia_requires.size(), 1U);
  EXPECT_EQ(torch->nvidia_requires[0].name, "nvidia-cudnn-cu12");
  EXPECT_EQ(torch->nvidia_requires[0].specifier, "==9.1.0.70");
  EXPECT_EQ(torch->nvidia_requires[0].marker, R"(platform_system == "Linux" and platform_machine == "x86_64")");
  EXPECT_NO_PROBLEMS(f);
}

TEST(PythonProbe, PascalTorchCu128AndDriverTooOld) {
  Facts f = probe_fixture("linux-pascal-torch-cu128");
  const auto* venv = env_at(f, "/home/alex/.venv");
  ASSERT_NE(venv, nullptr) << describe(f);
  EXPECT_EQ(framework(*venv, "torch")->variant, "cu128");
  EXPECT_EQ(framework(*venv, "torch")->version.str(), "2.8.0+cu128");
  Facts old = probe_fixture("linux-driver-too-old");
  const auto* v2 = env_at(old, "/home/alex/work/.venv");
  ASSERT_NE(v2, nullptr) << describe(old);
  EXPECT_EQ(v2->python_version->str(), "3.8.10");
  EXPECT_EQ(framework(*v2, "torch")->cuda_version->str(), "12.1");
}

TEST(PythonProbe, JaxWithCuda12PluginInPyenvBasedVenv) {
  Facts f = probe_fixture("linux-jax-cuda12");
  const auto* venv = env_at(f, "/home/alex/research/jax-exp/.venv");
  ASSERT_NE(venv, nullptr) << describe(f);
  EXPECT_TRUE(lists(venv->found_via, "project venv under home"));
  const auto* jax = framework(*venv, "jax");
  ASSERT_NE(jax, nullptr);
  EXPECT_EQ(jax->version.str(), "0.6.2");
  EXPECT_EQ(jax->cuda_build, true);
  EXPECT_EQ(jax->variant, "cuda12");
  EXPECT_NE(jax->evidence.find("jax-cuda12-"), std::string::npos);
  const auto* plugin = framework(*venv, "jax-cuda-plugin");
  ASSERT_NE(plugin, nullptr);
  EXPECT_EQ(plugin->package, "jax-cuda12-plugin");
  EXPECT_EQ(plugin->cuda_version->major(), 12);
  const auto* pjrt = framework(*venv, "jax-cuda-pjrt");
  ASSERT_NE(pjrt, nullptr);
  EXPECT_EQ(pjrt->package, "jax-cuda12-pjrt");
  const auto* jaxlib = framework(*venv, "jaxlib");
  ASSERT_NE(jaxlib, nullptr);
  EXPECT_FALSE(jaxlib->cuda_build.has_value());
  EXPECT_EQ(wheel(*venv, "nvidia-cudnn-cu12")->version.str(), "9.10.2.21");
  EXPECT_EQ(wheel(*venv, "nvidia-cuda-nvcc-cu12")->library, "nvcc");
  const auto* pyenv = env_at(f, "/home/alex/.pyenv/versions/3.12.4");
  ASSERT_NE(pyenv, nullptr);
  EXPECT_EQ(pyenv->python_version->str(), "3.12.4");
  EXPECT_NO_PROBLEMS(f);
}

TEST(PythonProbe, JaxCpuOnlyWithoutPlugin) {
  Facts f = probe_fixture("linux-no-nvidia");
  const auto* venv = env_at(f, "/home/sam/jaxplay/.venv");
  ASSERT_NE(venv, nullptr) << describe(f);
  const auto* jax = framework(*venv, "jax");
  ASSERT_NE(jax, nullptr);
  EXPECT_EQ(jax->cuda_build, false);
  EXPECT_EQ(jax->variant, "cpu");
  EXPECT_NO_PROBLEMS(f);
}

TEST(PythonProbe, EveryScenarioCompletesQuickly) {
  int n = 0;
  for (const auto& entry : fs::directory_iterator(GPUDOCTOR_FIXTURES_DIR)) {
    if (!fs::is_directory(entry.path() / "root")) continue;
    auto start = std::chrono::steady_clock::now();
    Facts f = probe_fixture(entry.path().filename().string());
    auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    ++n;
    // Milliseconds, not seconds: a generous bound that still catches an unbounded walk.
    EXPECT_LT(ms, 500.0) << entry.path().filename();
    if (!entry.path().filename().string().starts_with("bad-")) {
      EXPECT_FALSE(f.python_envs.empty()) << entry.path().filename();
    }
  }
  EXPECT_GE(n, 18);
}

void write_file(const fs::path& p, std::string_view text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

/// A private scratch tree holding one venv, /home/u/.venv, that VIRTUAL_ENV names: files go into
/// its site-packages, then the Python probe reads the tree. Removed with the object.
class ScratchVenv {
 public:
  explicit ScratchVenv(const std::string& python = "3.12.3") {
    char tmpl[] = "/tmp/gpudoctor-venv-XXXXXX";
    if (::mkdtemp(tmpl) != nullptr) dir_ = tmpl;
    const fs::path venv = dir_ / "root/home/u/.venv";
    write_file(venv / "pyvenv.cfg", "home = /usr/bin\nversion = " + python + "\n");
    write_file(venv / "bin/python", "");
    sp_ = venv / ("lib/python" + python.substr(0, python.rfind('.')) + "/site-packages");
    write_file(dir_ / "env", "VIRTUAL_ENV=/home/u/.venv\n");
    write_file(dir_ / "args", "");
  }
  ~ScratchVenv() { fs::remove_all(dir_); }
  ScratchVenv(const ScratchVenv&) = delete;
  ScratchVenv& operator=(const ScratchVenv&) = delete;
  void write(const std::string& in_site_packages, std::string_view text) const {
    write_file(sp_ / in_site_packages, text);
  }
  /// A file anywhere in the tree ("home/u/.local/..."), and the probe's environment.
  void write_root(const std::string& path, std::string_view text) const { write_file(dir_ / "root" / path, text); }
  void set_env(const std::string& text) const { write_file(dir_ / "env", text); }
  [[nodiscard]] fs::path root() const { return dir_ / "root"; }
  [[nodiscard]] SystemView view() const { return fixture_view(dir_); }
  [[nodiscard]] Facts probe() const { return probe_dir(dir_); }

 private:
  fs::path dir_;
  fs::path sp_;
};

TEST(PythonProbe, WindowsCondaAndVenvLayouts) {
  fs::path dir = fs::temp_directory_path() / ("gpudoctor-wincondavenv-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::path r = dir / "root";
  fs::path conda = r / "Users/bob/miniconda3";
  write_file(conda / "conda-meta/python-3.12.4-h14ffc60_1.json", "{}");
  write_file(conda / "python.exe", "");
  fs::path env = conda / "envs/torch";
  write_file(env / "conda-meta/python-3.10.14-h4de0772_0.json", "{}");
  write_file(env / "conda-meta/history", "");
  write_file(env / "python.exe", "");
  fs::path sp = env / "Lib/site-packages";
  write_file(sp / "torch-2.3.1+cu121.dist-info/METADATA", "Name: torch\nVersion: 2.3.1+cu121\n\n");
  write_file(sp / "torch/version.py", "__version__ = '2.3.1+cu121'\ncuda: Optional[str] = '12.1'\n");
  write_file(sp / "nvidia_cudnn_cu12-8.9.2.26.dist-info/METADATA", "Name: nvidia-cudnn-cu12\n");
  fs::path venv = r / "Users/bob/proj/.venv";
  write_file(venv / "pyvenv.cfg", "home = C:\\Users\\bob\\miniconda3\nversion = 3.12.4\n");
  write_file(venv / "Scripts/python.exe", "");
  write_file(venv / "Lib/site-packages/tensorflow-2.10.0.dist-info/METADATA", "Name: tensorflow\nVersion: 2.10.0\n\n");
  write_file(venv / "Lib/site-packages/tensorflow/python/platform/build_info.py",
             "build_info = collections.OrderedDict([('cuda_version', '64_112'), ('cudart_dll_name', "
             "'cudart64_112.dll'), ('cudnn_dll_name', 'cudnn64_8.dll'), ('cudnn_version', '64_8'), "
             "('is_cuda_build', True), ('is_rocm_build', False)])\n");
  // tensorflow-directml-plugin on Windows: its DLL, a file the loader would refuse, a .so TensorFlow
  // does not take on Windows, and one in the user site.
  fs::path vsp = venv / "Lib/site-packages";
  write_file(vsp / "tensorflow-plugins/tfdml_plugin.dll", std::string("MZ\x90\0", 4));
  write_file(vsp / "tensorflow-plugins/broken.dll", "");
  write_file(vsp / "tensorflow-plugins/libfoo.so", "");
  write_file(
      vsp / "tensorflow_directml_plugin-0.4.0.dev230202.dist-info/METADATA",
      "Name: tensorflow-directml-plugin\nVersion: 0.4.0.dev230202\nRequires-Dist: tensorflow-cpu (==2.10.0)\n\n");
  write_file(vsp / "tensorflow_directml_plugin-0.4.0.dev230202.dist-info/RECORD",
             "tensorflow-plugins/tfdml_plugin.dll,sha256=x,1\n");
  write_file(r / "Users/bob/AppData/Roaming/Python/Python312/site-packages/tensorflow-plugins/user.dll",
             std::string("MZ\x90\0", 4));
  write_file(dir / "env",
             "USERPROFILE=C:\\Users\\bob\nPath=C:\\Users\\bob\\proj\\.venv\\Scripts;C:\\WINDOWS\\system32\n"
             "CONDA_PREFIX=C:\\Users\\bob\\miniconda3\\envs\\torch\n");
  write_file(dir / "args", "--platform\nwindows\n");
  Facts f = probe_dir(dir);
  fs::remove_all(dir);
  const auto* c = env_at(f, "C:\\Users\\bob\\miniconda3\\envs\\torch");
  ASSERT_NE(c, nullptr) << describe(f);
  EXPECT_EQ(c->kind, "conda");
  EXPECT_EQ(c->python_version->str(), "3.10.14");
  EXPECT_TRUE(lists(c->found_via, "CONDA_PREFIX"));
  ASSERT_NE(framework(*c, "torch"), nullptr) << describe(f);
  EXPECT_EQ(framework(*c, "torch")->variant, "cu121");
  EXPECT_EQ(framework(*c, "torch")->cuda_version->str(), "12.1");
  EXPECT_NE(wheel(*c, "nvidia-cudnn-cu12"), nullptr);
  const auto* base = env_at(f, "C:\\Users\\bob\\miniconda3");
  ASSERT_NE(base, nullptr) << describe(f);
  EXPECT_EQ(base->python_version->str(), "3.12.4");
  const auto* v = env_at(f, "C:\\Users\\bob\\proj\\.venv");
  ASSERT_NE(v, nullptr) << describe(f);
  EXPECT_EQ(v->kind, "venv");
  EXPECT_TRUE(lists(v->found_via, "PATH"));
  const auto* tf = framework(*v, "tensorflow");
  ASSERT_NE(tf, nullptr);
  // TF 2.10 on Windows writes "64_112" / "64_8": the DLL suffixes, read as 11.2 and 8.
  EXPECT_EQ(tf->cuda_build, true);
  ASSERT_TRUE(tf->cuda_version.has_value());
  EXPECT_EQ(tf->cuda_version->str(), "11.2");
  EXPECT_EQ(tf->cudnn_version->str(), "8");
  EXPECT_TRUE(tf->problems.empty()) << tf->problems.front();
  ASSERT_EQ(v->tf_plugins.size(), 3u) << describe(f);
  EXPECT_TRUE(v->tf_plugins[0].path.ends_with("broken.dll")) << describe(f);
  EXPECT_TRUE(contains(v->tf_plugins[0].problem, "no MZ header")) << v->tf_plugins[0].problem;
  const TfPlugin& dml = v->tf_plugins[1];
  EXPECT_TRUE(dml.path.ends_with("tfdml_plugin.dll")) << describe(f);
  EXPECT_EQ(dml.owner, "tensorflow-directml-plugin");
  EXPECT_TRUE(dml.problem.empty()) << dml.problem;
  ASSERT_EQ(dml.requires_tensorflow.size(), 1u);
  EXPECT_EQ(dml.requires_tensorflow[0].specifier, "==2.10.0");
  EXPECT_EQ(v->tf_plugins[2].reached_via, "user scheme");
  EXPECT_EQ(v->tf_plugins[2].site_packages, "C:\\Users\\bob\\AppData\\Roaming\\Python\\Python312\\site-packages");
}

TEST(PythonProbe, WslWindowsDriveMountsOnPathAreNotSearched) {
  fs::path dir = fs::temp_directory_path() / ("gpudoctor-mnt-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  for (const char* prefix : {"mnt/c/Tools/py", "opt/py"}) {
    write_file(dir / "root" / prefix / "bin/python3.11", "");
    write_file(dir / "root" / prefix / "lib/python3.11/os.py", "");
  }
  write_file(dir / "env", "HOME=/nonexistent\nPATH=/mnt/c/Tools/py/bin:/opt/py/bin\n");
  write_file(dir / "args", "--platform\nwsl2\n");
  Facts f;
  probe_python(fixture_view(dir), f);
  EXPECT_NE(env_at(f, "/opt/py"), nullptr) << describe(f);
  EXPECT_EQ(env_at(f, "/mnt/c/Tools/py"), nullptr) << describe(f);
  // On plain Linux /mnt/c is just a directory: searched like any other.
  write_file(dir / "args", "");
  Facts g;
  probe_python(fixture_view(dir), g);
  fs::remove_all(dir);
  EXPECT_NE(env_at(g, "/mnt/c/Tools/py"), nullptr) << describe(g);
}

// ---- bad input

TEST(PythonProbeBadInput, GarbageVersionsGiveClearProblems) {
  Facts f = probe_fixture("bad-garbage-versions");
  const auto* venv = env_at(f, "/home/alex/.venv");
  ASSERT_NE(venv, nullptr) << describe(f);
  // pyvenv.cfg is garbage; the lib/python3.10 folder still tells the version.
  ASSERT_TRUE(venv->python_version.has_value());
  EXPECT_EQ(venv->python_version->str(), "3.10");
  EXPECT_EQ(venv->python_version_source, "lib/python3.10");
  std::string problems = all_problems(f);
  EXPECT_NE(problems.find("CONDA_PREFIX names /nonexistent/conda"), std::string::npos) << problems;
  EXPECT_NE(problems.find("pyvenv.cfg version is not a version: banana"), std::string::npos) << problems;
  EXPECT_NE(problems.find("nvidia wheel nvidia-cudnn-cu12 has no readable version"), std::string::npos) << problems;
  const auto* torch = framework(*venv, "torch");
  ASSERT_NE(torch, nullptr);
  // version.py is unreadable, so the wheel's local tag is all that is left, and it says cu121.
  EXPECT_FALSE(torch->problems.empty());
  EXPECT_EQ(torch->variant, "cu121");
  const auto* tf = framework(*venv, "tensorflow");
  ASSERT_NE(tf, nullptr);
  EXPECT_FALSE(tf->cuda_build.has_value());
  EXPECT_NE(join(tf->problems, "\n").find("cut off or malformed"), std::string::npos) << join(tf->problems, "\n");
  const auto* jax = framework(*venv, "jax");
  ASSERT_NE(jax, nullptr);
  EXPECT_NE(join(jax->problems, "\n").find("no readable version"), std::string::npos);
  const auto* keras = framework(*venv, "keras");
  ASSERT_NE(keras, nullptr);
  EXPECT_EQ(keras->version.str(), "3.3.3");
  EXPECT_NE(join(keras->problems, "\n").find("no Name: header"), std::string::npos);
}

TEST(PythonProbeBadInput, BinaryJunkIsReportedNotParsed) {
  Facts f = probe_fixture("bad-binary-junk");
  const auto* venv = env_at(f, "/home/alex/.venv");
  ASSERT_NE(venv, nullptr) << describe(f);
  const auto* tf = framework(*venv, "tensorflow");
  ASSERT_NE(tf, nullptr);
  EXPECT_FALSE(tf->cuda_build.has_value());
  EXPECT_NE(join(tf->problems, "\n").find("binary content"), std::string::npos);
  const auto* torch = framework(*venv, "torch");
  ASSERT_NE(torch, nullptr);
  EXPECT_NE(join(torch->problems, "\n").find("binary content"), std::string::npos);
  const auto* jaxlib = framework(*venv, "jaxlib");
  ASSERT_NE(jaxlib, nullptr);
  EXPECT_EQ(jaxlib->version.str(), "0.4.30");  // the directory name still gives it
  EXPECT_NE(join(jaxlib->problems, "\n").find("METADATA is not text"), std::string::npos);
  EXPECT_NE(all_problems(f).find("pyvenv.cfg is not text"), std::string::npos) << all_problems(f);
}

TEST(PythonProbeBadInput, SymlinkLoopsEndWithAProblem) {
  Facts f = probe_fixture("bad-symlink-loops");
  std::string problems = all_problems(f);
  EXPECT_NE(problems.find("VIRTUAL_ENV names /home/alex/loop-a"), std::string::npos) << problems;
  EXPECT_NE(problems.find("too many levels of symbolic links"), std::string::npos) << problems;
  const auto* venv = env_at(f, "/home/alex/.venv");
  ASSERT_NE(venv, nullptr) << describe(f);
  const auto* torch = framework(*venv, "torch");
  ASSERT_NE(torch, nullptr);
  EXPECT_NE(join(torch->problems, "\n").find("cannot read"), std::string::npos);
  EXPECT_EQ(torch->variant, "cu121");  // from the dist-info name
}

/// A decoy venv on the host that a link escaping the root would reach.
class EscapeDecoy {
 public:
  EscapeDecoy() {
    root_ = "/tmp/gpudoctor-escape-decoy";
    std::error_code ec;
    fs::path sp = root_ / "lib/python3.10/site-packages";
    fs::create_directories(sp / "torch-9.9.9.dist-info", ec);
    fs::create_directories(sp / "torch", ec);
    fs::create_directories(root_ / "bin", ec);
    std::ofstream(root_ / "pyvenv.cfg") << "home = /usr/bin\nversion = 3.10.99\n";
    std::ofstream(sp / "torch-9.9.9.dist-info/METADATA") << "Name: torch\nVersion: 9.9.9\n\n";
    std::ofstream(sp / "torch/version.py") << "__version__ = '9.9.9+host'\ncuda = '99.9'\n";
    std::ofstream(root_ / "bin/python3") << "";
    ok_ = !ec;
  }
  ~EscapeDecoy() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  [[nodiscard]] bool ok() const { return ok_; }

 private:
  fs::path root_;
  bool ok_ = false;
};

TEST(PythonProbeBadInput, LinksNeverLeaveTheRoot) {
  EscapeDecoy decoy;
  if (!decoy.ok()) GTEST_SKIP() << "cannot create the host decoy under /tmp";
  Facts f = probe_fixture("bad-escaping-symlinks");
  std::string text = describe(f);
  EXPECT_EQ(text.find("9.9.9"), std::string::npos) << text;
  EXPECT_EQ(text.find("3.10.99"), std::string::npos) << text;
  for (const auto& e : f.python_envs) EXPECT_EQ(e.path.find("/tmp"), std::string::npos) << e.path;
  EXPECT_NE(env_at(f, "/home/alex/.venv"), nullptr) << text;
}

/// Builds a throwaway copy of a small venv tree under the build's temp dir.
fs::path make_temp_tree(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("gpudoctor-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::path sp = dir / "root/home/u/.venv/lib/python3.11/site-packages";
  fs::create_directories(sp / "tensorflow/python/platform");
  fs::create_directories(sp / "tensorflow-2.16.1.dist-info");
  std::ofstream(dir / "root/home/u/.venv/pyvenv.cfg") << "home = /usr/bin\nversion = 3.11.4\n";
  std::ofstream(sp / "tensorflow-2.16.1.dist-info/METADATA") << "Name: tensorflow\nVersion: 2.16.1\n\n";
  std::ofstream(dir / "env") << "HOME=/home/u\nVIRTUAL_ENV=/home/u/.venv\n";
  std::ofstream(dir / "args") << "";
  return dir;
}

TEST(PythonProbeBadInput, HugeFilesAreCutNotSwallowed) {
  fs::path dir = make_temp_tree("huge");
  fs::path sp = dir / "root/home/u/.venv/lib/python3.11/site-packages";
  {
    // 8 MiB of comment lines, with the real build_info only at the end (past the 1 MiB cap).
    std::ofstream out(sp / "tensorflow/python/platform/build_info.py", std::ios::binary);
    std::string line(1023, '#');
    line += '\n';
    for (int i = 0; i < 8 * 1024; ++i) out << line;
    out << "build_info = collections.OrderedDict([('is_cuda_build', True)])\n";
  }
  SystemView system = fixture_view(dir);
  Facts f;
  auto start = std::chrono::steady_clock::now();
  probe_python(system, f);
  auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(ms, 1000.0);
  ASSERT_EQ(f.python_envs.size(), 1u) << describe(f);
  const auto* tf = framework(f.python_envs.front(), "tensorflow");
  ASSERT_NE(tf, nullptr);
  EXPECT_EQ(tf->version.str(), "2.16.1");
  EXPECT_FALSE(tf->cuda_build.has_value());
  EXPECT_NE(join(tf->problems, "\n").find("no build information found"), std::string::npos);
  fs::remove_all(dir);
}

/// Problems the probe reports for a tree with an unreadable site-packages and home folder.
std::string unreadable_tree_problems(const fs::path& dir) {
  SystemView system = fixture_view(dir);
  Facts f;
  probe_python(system, f);
  return all_problems(f);
}

TEST(PythonProbeBadInput, UnreadableDirectoriesAreProblems) {
  fs::path dir = make_temp_tree("unreadable");
  fs::path sp = dir / "root/home/u/.venv/lib/python3.11/site-packages";
  fs::create_directories(dir / "root/home/u/private");
  fs::permissions(sp, fs::perms::none);
  fs::permissions(dir / "root/home/u/private", fs::perms::none);
  bool site_reported = false;
  bool home_reported = false;
  if (::geteuid() != 0) {
    std::string problems = unreadable_tree_problems(dir);
    site_reported = problems.find("cannot list site-packages") != std::string::npos;
    home_reported = problems.find("/home/u/private") != std::string::npos;
  } else {
    // Permission bits do not stop root: run the probe in a child that has dropped to "nobody".
    pid_t pid = ::fork();
    if (pid == 0) {
      if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(10);
      std::string problems = unreadable_tree_problems(dir);
      int code = (problems.find("cannot list site-packages") != std::string::npos ? 1 : 0) |
                 (problems.find("/home/u/private") != std::string::npos ? 2 : 0);
      ::_exit(code);
    }
    ASSERT_GT(pid, 0);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    if (WEXITSTATUS(status) == 10) {
      fs::permissions(sp, fs::perms::owner_all);
      fs::permissions(dir / "root/home/u/private", fs::perms::owner_all);
      fs::remove_all(dir);
      GTEST_SKIP() << "running as root and cannot drop to uid 65534";
    }
    site_reported = (WEXITSTATUS(status) & 1) != 0;
    home_reported = (WEXITSTATUS(status) & 2) != 0;
  }
  fs::permissions(sp, fs::perms::owner_all);
  fs::permissions(dir / "root/home/u/private", fs::perms::owner_all);
  fs::remove_all(dir);
  EXPECT_TRUE(site_reported) << "an unreadable site-packages must be a problem";
  EXPECT_TRUE(home_reported) << "an unreadable folder under home must be a problem";
}

// D15 (hostile input): 20,000 dist-info folders of one wheel made one 250 KB line of output.
// The list is bounded now, oldest to newest, with the count; the newest is still named.
TEST(PythonProbeBadInput, ThousandsOfDistInfoDirectoriesMakeOneShortLine) {
  fs::path dir = make_temp_tree("many-dupes");
  fs::path sp = dir / "root/home/u/.venv/lib/python3.11/site-packages";
  for (int i = 0; i < 2000; ++i) {
    write_file(sp / ("nvidia_cudnn_cu12-9.1.0." + std::to_string(i) + ".dist-info/METADATA"), "");
  }
  SystemView system = fixture_view(dir);
  Facts f;
  probe_python(system, f);
  fs::remove_all(dir);
  const std::string problems = all_problems(f);
  EXPECT_NE(problems.find("several nvidia-cudnn-cu12 dist-info directories (9.1.0.0, 9.1.0.1, 9.1.0.2, 9.1.0.3, "
                          "9.1.0.4, ... (2000 in all), 9.1.0.1999)"),
            std::string::npos)
      << problems.substr(0, 400);
  EXPECT_LT(problems.size(), 1000u);
  ASSERT_EQ(f.python_envs.size(), 1u);
  ASSERT_EQ(f.python_envs.front().nvidia_wheels.size(), 1u);
  EXPECT_EQ(f.python_envs.front().nvidia_wheels.front().version.str(), "9.1.0.1999");
}

TEST(PythonProbeBadInput, TwoDistInfoDirectoriesOfOnePackage) {
  fs::path dir = make_temp_tree("dupes");
  fs::path sp = dir / "root/home/u/.venv/lib/python3.11/site-packages";
  write_file(sp / "torch-2.3.1+cu121.dist-info/METADATA", "Name: torch\nVersion: 2.3.1+cu121\n\n");
  write_file(sp / "torch-2.4.0+cu121.dist-info/METADATA", "Name: torch\nVersion: 2.4.0+cu121\n\n");
  write_file(sp / "torch/version.py", "__version__ = '2.4.0+cu121'\ncuda = '12.1'\n");
  write_file(sp / "nvidia_nccl_cu12-2.20.5.dist-info/METADATA", "");
  write_file(sp / "nvidia_nccl_cu12-2.21.5.dist-info/METADATA", "");
  SystemView system = fixture_view(dir);
  Facts f;
  probe_python(system, f);
  fs::remove_all(dir);
  ASSERT_EQ(f.python_envs.size(), 1u) << describe(f);
  const auto* torch = framework(f.python_envs.front(), "torch");
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ(torch->version.str(), "2.4.0+cu121");
  EXPECT_NE(join(torch->conflicts, "\n").find("several torch dist-info directories (2.3.1+cu121, 2.4.0+cu121)"),
            std::string::npos)
      << join(torch->problems, "\n");
  ASSERT_EQ(f.python_envs.front().nvidia_wheels.size(), 1u);
  EXPECT_EQ(f.python_envs.front().nvidia_wheels.front().version.str(), "2.21.5");
  EXPECT_NE(all_problems(f).find("several nvidia-nccl-cu12 dist-info directories"), std::string::npos);
}

// Found in review: the fix named only one of the distributions whose files are mixed.
TEST(PythonProbeBadInput, DistributionsSharingOnePackageAreAllNamed) {
  ScratchVenv venv;
  venv.write("tensorflow-2.21.0.dist-info/METADATA", "Name: tensorflow\nVersion: 2.21.0\n\n");
  venv.write("tf_nightly-2.23.0.dev20261026.dist-info/METADATA", "Name: tf-nightly\nVersion: 2.23.0.dev20261026\n\n");
  venv.write("tensorflow/python/platform/build_info.py", "build_info = {'is_cuda_build': True}\n");
  venv.write("onnxruntime-1.20.1.dist-info/METADATA", "Name: onnxruntime\nVersion: 1.20.1\n\n");
  venv.write("onnxruntime_gpu-1.20.1.dist-info/METADATA", "Name: onnxruntime-gpu\nVersion: 1.20.1\n\n");
  venv.write("torch-2.9.0.dist-info/METADATA", "Name: torch\nVersion: 2.9.0\n\n");
  Facts f = venv.probe();
  ASSERT_EQ(f.python_envs.size(), 1u) << describe(f);
  const auto* tf = framework(f.python_envs.front(), "tensorflow");
  ASSERT_NE(tf, nullptr);
  EXPECT_EQ(join(tf->sharing, " "), "tensorflow tf-nightly");
  const auto* ort = framework(f.python_envs.front(), "onnxruntime");
  ASSERT_NE(ort, nullptr);
  EXPECT_EQ(join(ort->sharing, " "), "onnxruntime onnxruntime-gpu");
  const auto* torch = framework(f.python_envs.front(), "torch");
  ASSERT_NE(torch, nullptr);
  EXPECT_TRUE(torch->sharing.empty());
}

TEST(PythonProbeBadInput, ManyEnvironmentsAreCapped) {
  fs::path dir = make_temp_tree("many");
  for (int i = 0; i < 80; ++i) {
    fs::path v = dir / ("root/home/u/.virtualenvs/env" + std::to_string(i));
    fs::create_directories(v / "lib/python3.11/site-packages");
    std::ofstream(v / "pyvenv.cfg") << "home = /usr/bin\nversion = 3.11.4\n";
  }
  SystemView system = fixture_view(dir);
  Facts f;
  probe_python(system, f);
  EXPECT_EQ(f.python_envs.size(), 64u);
  EXPECT_NE(all_problems(f).find("more than 64 Python environments"), std::string::npos);
  fs::remove_all(dir);
}

// torchvision / torchaudio are read with the torch their METADATA pins (issue 9, companions),
// in both the current and the older parenthesised Requires-Dist form.
TEST(PythonProbe, TorchCompanionsKeepTheTorchTheyPin) {
  ScratchVenv v("3.12.3");
  v.write("torch-2.6.0+cu124.dist-info/METADATA", "Name: torch\nVersion: 2.6.0+cu124\n\n");
  v.write("torch/version.py", "__version__ = '2.6.0+cu124'\ncuda: Optional[str] = '12.4'\n");
  v.write("torchvision-0.20.1+cu121.dist-info/METADATA",
          "Name: torchvision\nVersion: 0.20.1+cu121\nRequires-Dist: numpy\nRequires-Dist: torch==2.5.1\n"
          "Requires-Dist: pillow!=8.3.*,>=5.3.0\n\n");
  v.write("torchaudio-2.0.1.dist-info/METADATA",
          "Name: torchaudio\nVersion: 2.0.1\nRequires-Dist: torch (==2.0.0)\n\n");
  Facts f = v.probe();
  const auto* e = env_at(f, "/home/u/.venv");
  ASSERT_NE(e, nullptr) << describe(f);
  const FrameworkFacts* tv = framework(*e, "torchvision");
  ASSERT_NE(tv, nullptr) << describe(f);
  ASSERT_TRUE(tv->requires_torch.has_value());
  EXPECT_EQ(tv->requires_torch->str(), "2.5.1");
  EXPECT_EQ(tv->variant, "cu121");
  const FrameworkFacts* ta = framework(*e, "torchaudio");
  ASSERT_NE(ta, nullptr) << describe(f);
  ASSERT_TRUE(ta->requires_torch.has_value());
  EXPECT_EQ(ta->requires_torch->str(), "2.0.0");
}

// tensorflow-addons is recorded beside TensorFlow, so the doctor can judge its TF range.
TEST(PythonProbe, TensorflowAddonsIsRecorded) {
  ScratchVenv v("3.11.9");
  v.write("tensorflow_addons-0.23.0.dist-info/METADATA", "Name: tensorflow-addons\nVersion: 0.23.0\n\n");
  Facts f = v.probe();
  const auto* e = env_at(f, "/home/u/.venv");
  ASSERT_NE(e, nullptr) << describe(f);
  const FrameworkFacts* tfa = framework(*e, "tensorflow-addons");
  ASSERT_NE(tfa, nullptr) << describe(f);
  EXPECT_EQ(tfa->version.str(), "0.23.0");
}

/// The first bytes of an x86-64 ELF shared library, enough for the loader's first look.
std::string elf_library_head() {
  std::string h(64, '\0');
  h.replace(0, 4,
            "\x7f"
            "ELF");
  h[4] = 2;  // ELFCLASS64
  h[5] = 1;  // little-endian
  h[6] = 1;
  h[16] = 3;  // ET_DYN
  h[18] = 0x3e;
  return h;
}

const TfPlugin* plugin_named(const PythonEnvFacts& env, std::string_view file) {
  for (const TfPlugin& p : env.tf_plugins) {
    if (p.path.ends_with(file)) return &p;
  }
  return nullptr;
}

// import tensorflow loads every *.so / *.so.N of each tensorflow-plugins folder it reads: the
// probe records them with the distribution whose RECORD installs each and the TensorFlow that
// distribution (or the one requiring it, for a library-only wheel) names.
TEST(PythonProbe, TensorflowPluginsAreRecordedWithTheirInstaller) {
  ScratchVenv v("3.11.9");
  v.write("tensorflow-2.20.0.dist-info/METADATA", "Name: tensorflow\nVersion: 2.20.0\n\n");
  v.write("tensorflow-plugins/libtfdml_plugin.so", elf_library_head());
  v.write("tensorflow-plugins/directml/libdirectml.d6f03b.so", elf_library_head());
  v.write("tensorflow-plugins/DirectML_LICENSE.txt", "license");
  v.write("tensorflow_directml_plugin-0.4.0.dev230202.dist-info/METADATA",
          "Name: tensorflow-directml-plugin\nVersion: 0.4.0.dev230202\nRequires-Dist: tensorflow-cpu (==2.10.0)\n"
          "Requires-Dist: grpcio (>=1.8.6)\n\n");
  v.write("tensorflow_directml_plugin-0.4.0.dev230202.dist-info/RECORD",
          "tensorflow-directml-plugin/__init__.py,sha256=47DE,0\n"
          "tensorflow-plugins/libtfdml_plugin.so,sha256=uN-c,19306096\n"
          "tensorflow-plugins/directml/libdirectml.d6f03b.so,sha256=d0ac,28978192\n");
  v.write("tensorflow-plugins/libitex_gpu.so", elf_library_head());
  v.write("intel_extension_for_tensorflow_lib-2.15.0.3.2.dist-info/METADATA",
          "Name: intel_extension_for_tensorflow_lib\nVersion: 2.15.0.3.2\nRequires-Dist: grpcio>=1.8.6\n\n");
  v.write("intel_extension_for_tensorflow_lib-2.15.0.3.2.dist-info/RECORD",
          "tensorflow-plugins/libitex_gpu.so,sha256=abc,7273496\n");
  v.write("intel_extension_for_tensorflow-2.15.0.3.dist-info/METADATA",
          "Name: intel_extension_for_tensorflow\nVersion: 2.15.0.3\nRequires-Dist: tensorflow~=2.15.0\n"
          "Requires-Dist: intel_extension_for_tensorflow_lib==2.15.0.3.2; extra == \"xpu\"\n\n");
  v.write("intel_extension_for_tensorflow-2.15.0.3.dist-info/RECORD", "intel_extension_for_tensorflow/__init__.py,,\n");
  v.write("tensorflow-plugins/libstray.so.1", "");
  v.write("tensorflow-plugins/libodd.so.", elf_library_head());
  v.write("tensorflow-plugins/libnot.so.x", "");
  std::string elf32 = elf_library_head();
  elf32[4] = 1;  // ELFCLASS32
  v.write("tensorflow-plugins/lib32.so", elf32);
  // The user site of this Python, which a venv does not put on sys.path.
  v.write_root("home/u/.local/lib/python3.11/site-packages/tensorflow-plugins/libuser.so", elf_library_head());
  v.set_env("VIRTUAL_ENV=/home/u/.venv\nHOME=/home/u\n");
  Facts f = v.probe();
  const auto* e = env_at(f, "/home/u/.venv");
  ASSERT_NE(e, nullptr) << describe(f);
  EXPECT_EQ(e->tf_plugins.size(), 6u) << describe(f);
  const TfPlugin* lib32 = plugin_named(*e, "lib32.so");
  ASSERT_NE(lib32, nullptr) << describe(f);
  EXPECT_TRUE(contains(lib32->problem, "wrong ELF class: ELFCLASS32")) << lib32->problem;

  const TfPlugin* dml = plugin_named(*e, "/tensorflow-plugins/libtfdml_plugin.so");
  ASSERT_NE(dml, nullptr) << describe(f);
  EXPECT_EQ(dml->owner, "tensorflow-directml-plugin");
  EXPECT_EQ(dml->owner_version, "0.4.0.dev230202");
  EXPECT_EQ(dml->reached_via, "site-packages");
  EXPECT_TRUE(dml->problem.empty()) << dml->problem;
  ASSERT_EQ(dml->requires_tensorflow.size(), 1u) << describe(f);
  EXPECT_EQ(dml->requires_tensorflow[0].name, "tensorflow-cpu");
  EXPECT_EQ(dml->requires_tensorflow[0].specifier, "==2.10.0");
  EXPECT_TRUE(dml->requirement_source.ends_with("tensorflow_directml_plugin-0.4.0.dev230202.dist-info/METADATA"))
      << dml->requirement_source;

  const TfPlugin* itex = plugin_named(*e, "libitex_gpu.so");
  ASSERT_NE(itex, nullptr) << describe(f);
  EXPECT_EQ(itex->owner, "intel-extension-for-tensorflow-lib");
  ASSERT_EQ(itex->requires_tensorflow.size(), 1u) << describe(f);
  EXPECT_EQ(itex->requires_tensorflow[0].specifier, "~=2.15.0");
  EXPECT_TRUE(itex->requirement_source.ends_with("intel_extension_for_tensorflow-2.15.0.3.dist-info/METADATA"))
      << itex->requirement_source;

  const TfPlugin* stray = plugin_named(*e, "libstray.so.1");
  ASSERT_NE(stray, nullptr) << describe(f);
  EXPECT_TRUE(stray->owner.empty());
  EXPECT_TRUE(contains(stray->problem, "file too short")) << stray->problem;
  const TfPlugin* odd = plugin_named(*e, "libodd.so.");
  ASSERT_NE(odd, nullptr) << describe(f);
  EXPECT_TRUE(contains(odd->problem, "IndexError")) << odd->problem;
  EXPECT_EQ(plugin_named(*e, "libnot.so.x"), nullptr) << describe(f);

  const TfPlugin* user = plugin_named(*e, "libuser.so");
  ASSERT_NE(user, nullptr) << describe(f);
  EXPECT_EQ(user->reached_via, "user scheme");
  EXPECT_EQ(user->site_packages, "/home/u/.local/lib/python3.11/site-packages");

  // A venv that sees the system's packages enables the user site.
  v.write_root("home/u/.venv/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.9\ninclude-system-site-packages = true\n");
  Facts g = v.probe();
  ASSERT_NE(env_at(g, "/home/u/.venv"), nullptr) << describe(g);
  const TfPlugin* enabled = plugin_named(*env_at(g, "/home/u/.venv"), "libuser.so");
  ASSERT_NE(enabled, nullptr) << describe(g);
  EXPECT_EQ(enabled->reached_via, "user site");
  // PYTHONNOUSERSITE turns it off again.
  v.set_env("VIRTUAL_ENV=/home/u/.venv\nHOME=/home/u\nPYTHONNOUSERSITE=1\n");
  Facts h = v.probe();
  const TfPlugin* off = plugin_named(*env_at(h, "/home/u/.venv"), "libuser.so");
  ASSERT_NE(off, nullptr) << describe(h);
  EXPECT_EQ(off->reached_via, "user scheme");
}

// The other folders the import reads: PYTHONUSERBASE moves the user site, 2.19's loop adds the
// osx_framework_user and nt_user schemes' folders, PYTHONPATH entries named site-packages count,
// and TF_PLUGGABLE_DEVICE_LIBRARY_PATH names one more library or folder (reproduced on 2.20.0).
TEST(PythonProbe, TensorflowPluginsOfTheOtherFoldersTheImportReads) {
  ScratchVenv v("3.11.9");
  v.write("tensorflow-2.20.0.dist-info/METADATA", "Name: tensorflow\nVersion: 2.20.0\n\n");
  v.write_root("opt/ub/lib/python3.11/site-packages/tensorflow-plugins/libub.so", elf_library_head());
  v.write_root("opt/ub/lib/python/site-packages/tensorflow-plugins/libosx.so", elf_library_head());
  v.write_root("opt/ub/Python/site-packages/tensorflow-plugins/libnt.so", elf_library_head());
  v.write_root("home/u/.local/lib/python3.11/site-packages/tensorflow-plugins/libhome.so", elf_library_head());
  v.write_root("srv/extra/site-packages/tensorflow-plugins/libpp.so", elf_library_head());
  v.write_root("srv/other/tensorflow-plugins/libnotread.so", elf_library_head());
  v.write_root("opt/dev/libdev.so", "");
  v.set_env(
      "VIRTUAL_ENV=/home/u/.venv\nHOME=/home/u\nPYTHONUSERBASE=/opt/ub\n"
      "PYTHONPATH=/srv/other:/srv/extra/site-packages\nTF_PLUGGABLE_DEVICE_LIBRARY_PATH=/opt/dev/libdev.so\n");
  Facts f = v.probe();
  const auto* e = env_at(f, "/home/u/.venv");
  ASSERT_NE(e, nullptr) << describe(f);
  const auto via = [&](std::string_view file) {
    const TfPlugin* p = plugin_named(*e, file);
    return p == nullptr ? std::string("(none)") : p->reached_via;
  };
  EXPECT_EQ(via("/libub.so"), "user scheme") << describe(f);
  EXPECT_EQ(via("/libosx.so"), "other user scheme") << describe(f);
  EXPECT_EQ(via("/libnt.so"), "other user scheme") << describe(f);
  EXPECT_EQ(via("/libhome.so"), "(none)") << describe(f);  // not the user base any more
  EXPECT_EQ(via("/libpp.so"), "PYTHONPATH") << describe(f);
  EXPECT_EQ(via("/libnotread.so"), "(none)") << describe(f);
  EXPECT_EQ(via("/libdev.so"), "TF_PLUGGABLE_DEVICE_LIBRARY_PATH") << describe(f);
  const TfPlugin* dev = plugin_named(*e, "/libdev.so");
  ASSERT_NE(dev, nullptr) << describe(f);
  EXPECT_TRUE(contains(dev->problem, "file too short")) << describe(f);

  // The variable naming nothing; then a folder, whose libraries each count.
  v.set_env("VIRTUAL_ENV=/home/u/.venv\nTF_PLUGGABLE_DEVICE_LIBRARY_PATH=/opt/gone\n");
  Facts g = v.probe();
  ASSERT_NE(env_at(g, "/home/u/.venv"), nullptr) << describe(g);
  const TfPlugin* gone = plugin_named(*env_at(g, "/home/u/.venv"), "/opt/gone");
  ASSERT_NE(gone, nullptr) << describe(g);
  EXPECT_TRUE(contains(gone->problem, "FileNotFoundError")) << gone->problem;
  v.write_root("opt/dev/libgood.so", elf_library_head());
  v.set_env("VIRTUAL_ENV=/home/u/.venv\nTF_PLUGGABLE_DEVICE_LIBRARY_PATH=/opt/dev\n");
  Facts h = v.probe();
  const auto* he = env_at(h, "/home/u/.venv");
  ASSERT_NE(he, nullptr) << describe(h);
  const TfPlugin* good = plugin_named(*he, "/opt/dev/libgood.so");
  const TfPlugin* empty = plugin_named(*he, "/opt/dev/libdev.so");
  ASSERT_NE(good, nullptr) << describe(h);
  ASSERT_NE(empty, nullptr) << describe(h);
  EXPECT_TRUE(good->problem.empty()) << good->problem;
  EXPECT_FALSE(empty->problem.empty());
}

// A RECORD read only in part (past the read limit) may name a plugin further on: its owner is
// then unknown, not "none".
TEST(PythonProbe, TensorflowPluginOwnersPastTheReadLimitAreUnknown) {
  ScratchVenv v("3.11.9");
  v.write("tensorflow-2.20.0.dist-info/METADATA", "Name: tensorflow\nVersion: 2.20.0\n\n");
  v.write("tensorflow-plugins/libbig.so", elf_library_head());
  v.write("tensorflow-plugins/libsmall.so", elf_library_head());
  std::string filler;
  while (filler.size() < 4u * 1024 * 1024 + 100) filler += "big/data/file_with_a_long_name.bin,sha256=abcdef,1234\n";
  v.write("big-1.0.dist-info/RECORD", filler + "tensorflow-plugins/libbig.so,sha256=x,1\n");
  v.write("small-1.0.dist-info/RECORD", "tensorflow-plugins/libsmall.so,sha256=x,1\n");
  Facts f = v.probe();
  const auto* e = env_at(f, "/home/u/.venv");
  ASSERT_NE(e, nullptr) << describe(f);
  const TfPlugin* big = plugin_named(*e, "libbig.so");
  const TfPlugin* small = plugin_named(*e, "libsmall.so");
  ASSERT_NE(big, nullptr) << describe(f);
  ASSERT_NE(small, nullptr) << describe(f);
  EXPECT_TRUE(big->owner.empty());
  EXPECT_FALSE(big->owner_known);
  EXPECT_EQ(small->owner, "small");
  EXPECT_TRUE(small->owner_known);
}

// One folder reached several ways is read once, under the strongest way: PYTHONPATH naming the
// user site makes every release read it; a lib64 link to lib is the environment's own folder. A
// venv that sees the system's packages reads the base Python's folders. Files the loader refuses
// though their names pass: a folder, an executable, a library for another machine.
TEST(PythonProbe, TensorflowPluginFoldersAreReadOnceAndFilesJudgedAsTheLoaderDoes) {
  ScratchVenv v("3.11.9");
  v.write("tensorflow-2.15.1.dist-info/METADATA", "Name: tensorflow\nVersion: 2.15.1\n\n");
  v.write("tensorflow-plugins/libown.so", elf_library_head());
  v.write("tensorflow-plugins/libdir.so/placeholder", "");
  std::string exe = elf_library_head();
  // A PIE executable: ET_DYN with DT_FLAGS_1 = DF_1_PIE in its PT_DYNAMIC segment.
  exe[32] = 64;  // e_phoff
  exe[54] = 56;  // e_phentsize
  exe[56] = 1;   // e_phnum
  std::string phdr(56, '\0');
  phdr[0] = 2;    // PT_DYNAMIC
  phdr[8] = 120;  // p_offset
  phdr[32] = 32;  // p_filesz
  std::string dynamic(32, '\0');
  for (int i = 0; i < 8; ++i) dynamic[i] = "\xfb\xff\xff\x6f\0\0\0\0"[i];  // DT_FLAGS_1
  dynamic[11] = 0x08;                                                      // DF_1_PIE (0x08000000)
  v.write("tensorflow-plugins/libexe.so", exe + phdr + dynamic);
  std::string arm = elf_library_head();
  arm[18] = static_cast<char>(183);  // EM_AARCH64
  v.write("tensorflow-plugins/libarm.so", arm);
  v.write_root("home/u/.local/lib/python3.11/site-packages/tensorflow-plugins/libuser.so", elf_library_head());
  v.write_root("usr/lib/python3/dist-packages/tensorflow-plugins/libsys.so", elf_library_head());
  v.write_root("etc/os-release", "ID=debian\n");
  fs::create_directory_symlink("lib", v.root() / "home/u/.venv/lib64");
  v.write_root("home/u/.venv/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.9\ninclude-system-site-packages = true\n");
  v.set_env(
      "VIRTUAL_ENV=/home/u/.venv\nHOME=/home/u\nPYTHONNOUSERSITE=1\n"
      "PYTHONPATH=/home/u/.local/lib/python3.11/site-packages:/home/u/.venv/lib64/python3.11/site-packages\n");
  Facts f = v.probe();
  const auto* e = env_at(f, "/home/u/.venv");
  ASSERT_NE(e, nullptr) << describe(f);
  int own = 0;
  for (const TfPlugin& p : e->tf_plugins) own += p.path.ends_with("/libown.so") ? 1 : 0;
  EXPECT_EQ(own, 1) << describe(f);
  const TfPlugin* mine = plugin_named(*e, "/libown.so");
  ASSERT_NE(mine, nullptr) << describe(f);
  EXPECT_EQ(mine->reached_via, "site-packages");
  const TfPlugin* user = plugin_named(*e, "/libuser.so");
  ASSERT_NE(user, nullptr) << describe(f);
  EXPECT_EQ(user->reached_via, "PYTHONPATH");
  const TfPlugin* sys = plugin_named(*e, "/libsys.so");
  ASSERT_NE(sys, nullptr) << describe(f);
  EXPECT_EQ(sys->reached_via, "system site-packages");
  const TfPlugin* dir = plugin_named(*e, "/libdir.so");
  ASSERT_NE(dir, nullptr) << describe(f);
  EXPECT_TRUE(contains(dir->problem, "Is a directory")) << dir->problem;
  const TfPlugin* pie = plugin_named(*e, "/libexe.so");
  ASSERT_NE(pie, nullptr) << describe(f);
  EXPECT_TRUE(contains(pie->problem, "position-independent executable")) << pie->problem;
  const TfPlugin* foreign = plugin_named(*e, "/libarm.so");
  ASSERT_NE(foreign, nullptr) << describe(f);
  EXPECT_TRUE(mine->problem.empty()) << mine->problem;
  // The machine's architecture comes from the OS probe; probe_python alone leaves it unknown.
  EXPECT_TRUE(foreign->problem.empty()) << foreign->problem;
  Facts withos;
  withos.os.arch = "x86_64";
  probe_python(v.view(), withos);
  const TfPlugin* judged = plugin_named(*env_at(withos, "/home/u/.venv"), "/libarm.so");
  ASSERT_NE(judged, nullptr) << describe(withos);
  EXPECT_TRUE(contains(judged->problem, "another architecture")) << judged->problem;
}

// Without TensorFlow in the environment nothing loads the folder, and nothing is read.
TEST(PythonProbe, TensorflowPluginsWithoutTensorflowAreNotRead) {
  ScratchVenv v("3.11.9");
  v.write("tensorflow-plugins/libtfdml_plugin.so", elf_library_head());
  Facts f = v.probe();
  const auto* e = env_at(f, "/home/u/.venv");
  ASSERT_NE(e, nullptr) << describe(f);
  EXPECT_TRUE(e->tf_plugins.empty()) << describe(f);
}

// tensorflow-probability (and its nightly, which installs the same package) is recorded with the
// checks its own python/__init__.py makes before its TensorFlow modules load.
TEST(PythonProbe, TensorflowProbabilityKeepsItsImportChecks) {
  ScratchVenv v("3.11.9");
  v.write("tensorflow_probability-0.25.0.dist-info/METADATA", "Name: tensorflow-probability\nVersion: 0.25.0\n\n");
  v.write("tensorflow_probability/python/__init__.py",
          "def _validate_tf_environment(package):\n"
          "  required_tensorflow_version = '2.18'\n"
          "#   required_tensorflow_version = '1.15'  # Needed internally -- DisableOnExport\n"
          "  if required_tensorflow_version[0] == '2':\n"
          "    try:\n"
          "      import tf_keras  # pylint: disable=unused-import\n"
          "    except ImportError:\n"
          "      raise\n");
  Facts f = v.probe();
  const auto* e = env_at(f, "/home/u/.venv");
  ASSERT_NE(e, nullptr) << describe(f);
  const FrameworkFacts* t = framework(*e, "tensorflow-probability");
  ASSERT_NE(t, nullptr) << describe(f);
  EXPECT_EQ(t->version.str(), "0.25.0");
  ASSERT_TRUE(t->requires_tensorflow.has_value()) << describe(f);
  EXPECT_EQ(t->requires_tensorflow->str(), "2.18");
  EXPECT_TRUE(t->imports_tf_keras);
  EXPECT_TRUE(t->evidence.ends_with("tensorflow_probability/python/__init__.py")) << t->evidence;

  // tf-keras-nightly is tf-keras under another name: the same tf_keras package.
  v.write("tf_keras_nightly-2.19.0.dev20241201.dist-info/METADATA",
          "Name: tf-keras-nightly\nVersion: 2.19.0.dev20241201\n\n");
  Facts k = v.probe();
  const FrameworkFacts* tk = nullptr;
  for (const FrameworkFacts& fw : env_at(k, "/home/u/.venv")->frameworks) {
    if (fw.package == "tf-keras-nightly") tk = &fw;
  }
  ASSERT_NE(tk, nullptr) << describe(k);
  EXPECT_EQ(tk->name, "keras");

  // The nightly; a package directory without the file: no floor is claimed.
  ScratchVenv n("3.11.9");
  n.write("tfp_nightly-0.26.0.dev20250101.dist-info/METADATA", "Name: tfp-nightly\nVersion: 0.26.0.dev20250101\n\n");
  n.write("tensorflow_probability/__init__.py", "");
  Facts g = n.probe();
  const auto* ne = env_at(g, "/home/u/.venv");
  ASSERT_NE(ne, nullptr) << describe(g);
  const FrameworkFacts* nightly = framework(*ne, "tensorflow-probability");
  ASSERT_NE(nightly, nullptr) << describe(g);
  EXPECT_EQ(nightly->package, "tfp-nightly");
  EXPECT_FALSE(nightly->requires_tensorflow.has_value());
  EXPECT_TRUE(nightly->problems.empty()) << nightly->problems.front();
}

// JAX's parts must agree the way JAX itself checks them, on the whole dotted number:
// jax against jaxlib (check_jaxlib_version in jax/_src/lib/__init__.py: jaxlib not below jax's
// _minimum_jaxlib_version, not newer than jax), the CUDA plugin against jaxlib
// (check_plugin_version in jaxlib/plugin_support.py: 0.12.0 is not 0.12.0.1), and the plugin
// beside the PJRT package that holds the CUDA backend (the plugin pins it exactly).
struct JaxInstall {
  std::string jax, jaxlib, plugin, pjrt;  ///< "" = not installed
  std::string minimum_jaxlib = "0.11.2";  ///< jax/version.py; "" = no such line
};

const FrameworkFacts* probe_jax(const JaxInstall& in, Facts& f) {
  ScratchVenv v("3.13.1");
  auto dist = [&](const std::string& name, const std::string& dirname, const std::string& version) {
    if (version.empty()) return;
    v.write(dirname + "-" + version + ".dist-info/METADATA", "Name: " + name + "\nVersion: " + version + "\n\n");
  };
  dist("jax", "jax", in.jax);
  if (!in.jax.empty()) {
    v.write("jax/version.py",
            "_version = \"" + in.jax + "\"\n" +
                (in.minimum_jaxlib.empty() ? "" : "_minimum_jaxlib_version = '" + in.minimum_jaxlib + "'\n"));
  }
  dist("jaxlib", "jaxlib", in.jaxlib);
  dist("jax-cuda13-plugin", "jax_cuda13_plugin", in.plugin);
  dist("jax-cuda13-pjrt", "jax_cuda13_pjrt", in.pjrt);
  f = v.probe();
  const auto* e = env_at(f, "/home/u/.venv");
  return e == nullptr ? nullptr : framework(*e, "jax");
}

TEST(PythonProbe, JaxPartsAreComparedAsJaxComparesThem) {
  struct Case {
    JaxInstall in;
    bool cuda;
    std::string conflict;  ///< "" = none expected
  };
  const std::vector<Case> cases = {
      {{"0.12.0.1", "0.12.0.1", "0.12.0.1", "0.12.0.1"}, true, ""},
      // jax 0.12.0.1 accepts jaxlib from its minimum, 0.11.2, with that jaxlib's plugin.
      {{"0.12.0.1", "0.11.2", "0.11.2", "0.11.2"}, true, ""},
      // A post release is another version to jaxlib: the plugin is not used.
      {{"0.12.0.1", "0.12.0.1", "0.12.0", "0.12.0"}, false, "jax-cuda13-plugin 0.12.0 does not match jaxlib 0.12.0.1"},
      {{"0.12.0.1", "0.12.0.1", "0.12.1", "0.12.1"}, false, "jax-cuda13-plugin 0.12.1 does not match jaxlib 0.12.0.1"},
      {{"0.12.0", "0.12.0.1", "0.12.0.1", "0.12.0.1"}, true, "jaxlib 0.12.0.1 is newer than jax 0.12.0"},
      {{"0.12.0.1", "0.11.1", "0.11.1", "0.11.1"}, true, "jaxlib 0.11.1 is older than jax 0.12.0.1 needs (0.11.2"},
      // Without the plugin, the PJRT package's initialize() fails its CUDA check (from 0.6.1).
      {{"0.12.0.1", "0.12.0.1", "", "0.12.0.1"},
       false,
       "jax-cuda13-pjrt 0.12.0.1 is installed without jax-cuda13-plugin"},
      // Before 0.6.1 the backend starts, without the plugin's kernels.
      {{"0.5.3", "0.5.3", "", "0.5.3", "0.5.0"}, true, "jax-cuda13-pjrt 0.5.3 is installed without jax-cuda13-plugin"},
      // Without the PJRT package there is no CUDA backend to register.
      {{"0.12.0.1", "0.12.0.1", "0.12.0.1", ""},
       false,
       "jax-cuda13-plugin 0.12.0.1 is installed without jax-cuda13-pjrt"},
      {{"0.12.0.1", "0.12.0.1", "0.12.0.1", "0.12.1"},
       true,
       "jax-cuda13-pjrt 0.12.1 is not the version jax-cuda13-plugin 0.12.0.1 requires"},
      // No _minimum_jaxlib_version line: only the newer-than check applies.
      {{"0.12.0.1", "0.4.30", "0.4.30", "0.4.30", ""}, true, ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("jax " + c.in.jax + ", jaxlib " + c.in.jaxlib + ", plugin " + c.in.plugin + ", pjrt " + c.in.pjrt);
    Facts f;
    const FrameworkFacts* jax = probe_jax(c.in, f);
    ASSERT_NE(jax, nullptr) << describe(f);
    EXPECT_EQ(jax->cuda_build, c.cuda);
    std::string conflicts = join(jax->conflicts, "\n");
    if (c.conflict.empty()) {
      EXPECT_EQ(conflicts, "");
    } else {
      EXPECT_NE(conflicts.find(c.conflict), std::string::npos) << conflicts;
    }
  }
}

// A CUDA 13 wheel names its major only by where it installs (nvidia/cu13/): nvidia-cufft 12.0 is
// one. RECORDs run long (nvidia-cuda-cccl's is 277 KB, and torch 2.15 pulls it in): read to the
// line that says, with no size bound reported, since nothing that mattered was left unread.
TEST(PythonProbe, ALongRecordStillGivesTheCudaMajorAndNoBoundHit) {
  ScratchVenv v("3.13.1");
  v.write("nvidia_cufft-12.0.0.15.dist-info/METADATA", "Name: nvidia-cufft\nVersion: 12.0.0.15\n\n");
  std::string record;
  // 300 KB of lines before the first nvidia/cu13/ one, the way pip writes them (sorted).
  while (record.size() < 300 * 1024) {
    record += "nvidia_cufft-12.0.0.15.dist-info/licenses/" + std::to_string(record.size()) + ".txt,sha256=abc,12\n";
  }
  record += "nvidia/cu13/lib/libcufft.so.12,sha256=def,34\n";
  v.write("nvidia_cufft-12.0.0.15.dist-info/RECORD", record);
  SystemView system = v.view();
  Facts f;
  probe_python(system, f);
  const auto* e = env_at(f, "/home/u/.venv");
  ASSERT_NE(e, nullptr) << describe(f);
  const NvidiaWheel* w = wheel(*e, "nvidia-cufft");
  ASSERT_NE(w, nullptr) << describe(f);
  EXPECT_EQ(w->cuda_major, 13);
  EXPECT_TRUE(system.bounds_hit().empty()) << system.bounds_hit().front().path;
}

// numpy is recorded per site-packages, and a framework's numpy requirement with it: TensorFlow up
// to 2.16 needs NumPy 1.x (its METADATA says numpy<2.0.0), and `import tensorflow` fails on 2.x.
TEST(PythonProbe, NumpyAndAFrameworksNumpyRequirementAreRecorded) {
  ScratchVenv v("3.11.9");
  v.write("tensorflow-2.16.2.dist-info/METADATA",
          "Name: tensorflow\nVersion: 2.16.2\nRequires-Dist: ml-dtypes~=0.3.1\n"
          "Requires-Dist: numpy<2.0.0,>=1.23.5; python_version <= \"3.11\"\n"
          "Requires-Dist: numpy<2.0.0,>=1.26.0; python_version >= \"3.12\"\n\n");
  v.write("numpy-2.1.3.dist-info/METADATA", "Name: numpy\nVersion: 2.1.3\n\n");
  Facts f = v.probe();
  const auto* e = env_at(f, "/home/u/.venv");
  ASSERT_NE(e, nullptr) << describe(f);
  ASSERT_EQ(e->packages.size(), 1U) << describe(f);
  EXPECT_EQ(e->packages[0].name, "numpy");
  EXPECT_EQ(e->packages[0].version.str(), "2.1.3");
  EXPECT_EQ(e->packages[0].location, "/home/u/.venv/lib/python3.11/site-packages");
  const FrameworkFacts* tf = framework(*e, "tensorflow");
  ASSERT_NE(tf, nullptr);
  ASSERT_EQ(tf->numpy_requires.size(), 2U);
  EXPECT_EQ(tf->numpy_requires[0].specifier, "<2.0.0,>=1.23.5");
  EXPECT_EQ(tf->numpy_requires[0].marker, "python_version <= \"3.11\"");
}

// PyPI's torchvision and torchaudio wheels carry no local tag in their dist-info name, but their
// version.py does: '0.20.1+cpu' on Windows (PyPI's Windows builds are CPU-only), '0.29.2+cu132'
// on Linux. That is the build's variant.
TEST(PythonProbe, CompanionVariantComesFromItsVersionPyWhenTheDistInfoHasNoTag) {
  ScratchVenv v("3.12.3");
  v.write("torchvision-0.20.1.dist-info/METADATA",
          "Name: torchvision\nVersion: 0.20.1\nRequires-Dist: torch==2.5.1\n\n");
  v.write("torchvision/version.py",
          "__version__ = '0.20.1+cpu'\ngit_version = '3ac97aa9120137381ed1060f37237e44485ac2aa'\n"
          "from torchvision.extension import _check_cuda_version\nif _check_cuda_version() > 0:\n"
          "    cuda = _check_cuda_version()\n");
  v.write("torchvision/_C_stable.so", "");
  v.write("torchaudio-2.11.1.dist-info/METADATA", "Name: torchaudio\nVersion: 2.11.1\n\n");
  v.write("torchaudio/lib/_torchaudio.abi3.so", "");
  v.write("torchaudio/version.py",
          "__version__ = '2.11.1+cu132'\ngit_version = '455331b1b3bb4aabfe3228f6f911fc3f11ae93b1'\n");
  Facts f = v.probe();
  const auto* e = env_at(f, "/home/u/.venv");
  ASSERT_NE(e, nullptr) << describe(f);
  const FrameworkFacts* tv = framework(*e, "torchvision");
  ASSERT_NE(tv, nullptr) << describe(f);
  EXPECT_EQ(tv->variant, "cpu");
  EXPECT_EQ(tv->version.str(), "0.20.1");
  const FrameworkFacts* ta = framework(*e, "torchaudio");
  ASSERT_NE(ta, nullptr) << describe(f);
  EXPECT_EQ(ta->variant, "cu132");
  // Their operators' file names say the stable ABI (0.29's _C_stable.so, torchaudio 2.11's .abi3.so).
  EXPECT_TRUE(tv->stable_abi);
  EXPECT_TRUE(ta->stable_abi);
}

}  // namespace
}  // namespace gpudoctor
