// The native-Windows inventory on scratch trees with a registry export (--registry): the
// driver, GPUs and Windows build from the registry, PEP 514 registrations, registered toolkits,
// the MSVC runtime, and the DLL search each framework's loader applies (probe/windows_dll_search.cpp),
// tested in both directions: a library its loader will not find is reported with that loader's
// fix, a copy its loader does find (on PATH, for TensorFlow's and PyTorch's) never is.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "check/checks.hpp"
#include "cli/gather_facts.hpp"
#include "finding_lookup.hpp"
#include "kb/knowledge_base.hpp"
#include "kb_test_support.hpp"
#include "pe_image.hpp"
#include "platform/registry.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using testing::builtin_kb;
using testing::TempTree;
using testing::v;

const char* kToolkit = "Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.2";
const char* kToolkitWin = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2";

std::string reg_header() {
  return "Windows Registry Editor Version 5.00\r\n\r\n";
}

/// The registry keys of an NVIDIA driver: its uninstall entry (optional) and its display-adapter key.
std::string driver_keys(const std::string& windows_version, const std::string& uninstall = "") {
  std::string s =
      "[HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}\\0000]"
      "\r\n"
      "\"DriverDesc\"=\"NVIDIA GeForce RTX 3060\"\r\n\"ProviderName\"=\"NVIDIA\"\r\n"
      "\"DriverVersion\"=\"" +
      windows_version +
      "\"\r\n\"MatchingDeviceId\"=\"pci\\\\ven_10de&dev_2503\"\r\n\r\n"
      "[HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}\\0001]"
      "\r\n"
      "\"DriverDesc\"=\"Intel(R) UHD Graphics 770\"\r\n\"ProviderName\"=\"Intel Corporation\"\r\n"
      "\"DriverVersion\"=\"31.0.101.4502\"\r\n\r\n";
  if (!uninstall.empty()) {
    s += "[HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\"
         "{B2FE1952-0186-46C3-BAEC-A80AA35AC5B8}_Display.Driver]\r\n\"DisplayVersion\"=\"" +
         uninstall + "\"\r\n\r\n";
  }
  return s;
}

std::string escaped(const std::string& win_path) {
  std::string out;
  for (char c : win_path) {
    if (c == '\\')
      out += "\\\\";
    else
      out += c;
  }
  return out;
}

struct Machine {
  TempTree tree;
  EnvMap env = {
      {"SystemRoot", "C:\\Windows"}, {"USERPROFILE", "C:\\Users\\u"}, {"LOCALAPPDATA", "C:\\Users\\u\\AppData\\Local"}};
  std::string reg = reg_header();

  Machine() {
    for (const char* f : {"msvcp140.dll", "msvcp140_1.dll", "vcruntime140.dll", "vcruntime140_1.dll", "nvcuda.dll"}) {
      tree.write(std::string("Windows/System32/") + f, "");
    }
  }
  void path(const std::string& value) { env["Path"] = value; }

  /// A venv (VIRTUAL_ENV) of the Python at C:\Python<xy>: its site-packages, relative to the tree.
  std::string venv(const std::string& version) {
    std::string xy = version.substr(0, version.find('.')) +
                     version.substr(version.find('.') + 1, version.rfind('.') - version.find('.') - 1);
    tree.write("Python" + xy + "/python.exe", "");
    tree.write("Python" + xy + "/python" + xy + ".dll", "");
    tree.write("env/pyvenv.cfg",
               "home = C:\\Python" + xy + "\ninclude-system-site-packages = false\nversion = " + version + "\n");
    tree.write("env/Scripts/python.exe", "");
    env["VIRTUAL_ENV"] = "C:\\env";
    return "env/Lib/site-packages";
  }

  void tensorflow_210(const std::string& sp) {
    std::ifstream in(std::string(GPUDOCTOR_FIXTURES_DIR) +
                     "/windows-tf210-native-gpu/root/Users/maria/tf210/Lib/site-packages/tensorflow/python/platform/"
                     "build_info.py");
    std::stringstream bi;
    bi << in.rdbuf();
    ASSERT_FALSE(bi.str().empty());
    tree.write(sp + "/tensorflow/python/platform/build_info.py", bi.str());
    tree.write(sp + "/tensorflow/__init__.py", "");
    tree.write(sp + "/tensorflow-2.10.0.dist-info/METADATA",
               "Metadata-Version: 2.1\nName: tensorflow\nVersion: 2.10.0\n");
  }

  void cuda_112(bool with_cudnn = true) {
    for (const char* f : {"cudart64_110.dll", "cublas64_11.dll", "cublasLt64_11.dll", "cufft64_10.dll",
                          "cusolver64_11.dll", "cusparse64_11.dll"}) {
      tree.write(std::string(kToolkit) + "/bin/" + f, "");
    }
    tree.write(std::string(kToolkit) + "/version.json", R"({"cuda": {"name": "CUDA SDK", "version": "11.2.2"}})");
    if (!with_cudnn) return;
    for (const char* f :
         {"cudnn64_8.dll", "cudnn_ops_infer64_8.dll", "cudnn_ops_train64_8.dll", "cudnn_cnn_infer64_8.dll",
          "cudnn_cnn_train64_8.dll", "cudnn_adv_infer64_8.dll", "cudnn_adv_train64_8.dll"}) {
      tree.write(std::string(kToolkit) + "/bin/" + f, "");
    }
    tree.write(std::string(kToolkit) + "/include/cudnn_version.h",
               "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n");
  }

  /// torch `version` in site-packages `sp`: its METADATA and version.py (`cuda`: "'12.4'", "None").
  void torch_release(const std::string& sp, const std::string& version, const std::string& cuda) {
    tree.write(sp + "/torch-" + version + ".dist-info/METADATA",
               "Metadata-Version: 2.1\nName: torch\nVersion: " + version + "\n");
    tree.write(sp + "/torch/__init__.py", "");
    tree.write(sp + "/torch/version.py", "__version__ = '" + version + "'\ncuda = " + cuda + "\nhip = None\n");
  }

  void torch(const std::string& sp, const std::vector<std::string>& libs) {
    torch_release(sp, "2.5.1+cu124", "'12.4'");
    for (const std::string& l : libs) tree.write(sp + "/torch/lib/" + l, "");
  }

  Facts facts() const {
    auto registry = parse_registry_export(reg, "test.reg");
    SystemView::Options o{tree.str(), Platform::windows, env, false, nullptr};
    o.registry = registry.get();
    SystemView system(o);
    return gather_facts(system, InventoryOptions{}, builtin_kb());
  }
  std::vector<Finding> findings() const { return run_checks(facts(), &builtin_kb()); }
};

std::vector<std::string> torch_cu12_libs() {
  return {"c10.dll",           "torch_cuda.dll",    "cudart64_12.dll",    "cublas64_12.dll",
          "cublasLt64_12.dll", "cufft64_11.dll",    "cusolver64_11.dll",  "cusparse64_12.dll",
          "cudnn64_9.dll",     "cudnn_ops64_9.dll", "cudnn_graph64_9.dll"};
}

const DllLoad* load_of(const Facts& f, const std::string& dll) {
  if (!f.windows) return nullptr;
  for (const DllLoad& l : f.windows->dll_loads) {
    if (l.dll == dll) return &l;
  }
  return nullptr;
}

TEST(WindowsRegistryProbe, DriverGpuAndBuildFromTheRegistry) {
  Machine m;
  m.reg += driver_keys("31.0.15.4633", "546.33");
  m.reg +=
      "[HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion]\r\n\"ProductName\"=\"Windows 10 Home\"\r\n"
      "\"DisplayVersion\"=\"23H2\"\r\n\"CurrentBuild\"=\"22631\"\r\n\"UBR\"=dword:00000b2d\r\n";
  Facts f = m.facts();
  ASSERT_TRUE(f.driver.version);
  EXPECT_EQ(f.driver.version->str(), "546.33");
  EXPECT_TRUE(f.driver.version_source.starts_with("registry: ")) << f.driver.version_source;
  ASSERT_EQ(f.gpus.size(), 1u) << "the Intel adapter is not an NVIDIA GPU";
  EXPECT_EQ(f.gpus[0].name, "NVIDIA GeForce RTX 3060");
  EXPECT_EQ(f.gpus[0].source, "registry");
  EXPECT_EQ(f.gpus[0].pci_device_id, "2503");
  EXPECT_EQ(f.gpus[0].cc_major, 8) << "annotated like any GPU";
  EXPECT_EQ(f.os.name, "Windows 11 Home 23H2") << "build 22631 is Windows 11 whatever ProductName says";
  EXPECT_EQ(f.os.version_id, "22631.2861");
  ASSERT_TRUE(f.windows);
  EXPECT_EQ(f.windows->build, "22631");
  EXPECT_EQ(f.windows->registry_source, "registry export test.reg");
}

TEST(WindowsRegistryProbe, NvidiaVersionFromTheAdaptersFourPartVersion) {
  for (const auto& [windows, nvidia] : std::vector<std::pair<std::string, std::string>>{{"32.0.15.6094", "560.94"},
                                                                                        {"31.0.15.1694", "516.94"},
                                                                                        {"30.0.14.7141", "471.41"},
                                                                                        {"31.0.15.5222", "552.22"}}) {
    Machine m;
    m.reg += driver_keys(windows);
    Facts f = m.facts();
    ASSERT_TRUE(f.driver.version) << windows;
    EXPECT_EQ(f.driver.version->str(), nvidia) << windows;
    EXPECT_NE(f.driver.version_source.find(windows), std::string::npos);
  }
}

TEST(WindowsRegistryProbe, UninstallEntryAndAdapterDisagreeIsAProblem) {
  Machine m;
  m.reg += driver_keys("31.0.15.4633", "537.58");
  Facts f = m.facts();
  EXPECT_EQ(f.driver.version->str(), "546.33") << "the adapter's driver is the one running";
  bool said = std::any_of(f.problems.begin(), f.problems.end(), [](const ProbeProblem& p) {
    return p.probe == "registry" && p.message.find("537.58") != std::string::npos;
  });
  EXPECT_TRUE(said);
}

TEST(WindowsRegistryProbe, WithoutARegistryNothingIsMadeUp) {
  Machine m;
  m.reg = "";  // not even a header: the file is unusable, and says so
  Facts f = m.facts();
  EXPECT_FALSE(f.driver.version);
  EXPECT_TRUE(f.gpus.empty());
  ASSERT_TRUE(f.windows);
  EXPECT_FALSE(f.problems.empty());
}

TEST(WindowsRegistryProbe, Pep514RegistrationFindsAPythonNoOtherSearchFinds) {
  for (bool registered : {true, false}) {
    Machine m;
    m.tree.write("Tools/Py311/python.exe", "");
    m.tree.write("Tools/Py311/python311.dll", "");
    m.tree.write("Tools/Py311/Lib/site-packages/pip/__init__.py", "");
    if (registered) {
      m.reg +=
          "[HKEY_CURRENT_USER\\Software\\Python\\PythonCore\\3.11\\InstallPath]\r\n@=\"C:"
          "\\\\Tools\\\\Py311\\\\\"\r\n\r\n";
    }
    Facts f = m.facts();
    auto env = std::find_if(f.python_envs.begin(), f.python_envs.end(),
                            [](const PythonEnvFacts& e) { return e.path.find("Py311") != std::string::npos; });
    EXPECT_EQ(env != f.python_envs.end(), registered);
    if (registered && env != f.python_envs.end()) {
      EXPECT_EQ(env->found_via.front(), "PEP 514 HKCU PythonCore\\3.11");
      ASSERT_EQ(f.windows->pythons.size(), 1u);
      EXPECT_TRUE(f.windows->pythons[0].exists);
      EXPECT_EQ(f.windows->pythons[0].install_path, "C:\\Tools\\Py311");
    }
  }
}

TEST(WindowsRegistryProbe, AStaleRegistrationIsAFindingAndALiveOneIsNot) {
  Machine m;
  m.tree.write("Tools/Py311/python.exe", "");
  m.reg += "[HKEY_CURRENT_USER\\Software\\Python\\PythonCore\\3.11\\InstallPath]\r\n@=\"C:\\\\Tools\\\\Py311\"\r\n\r\n";
  m.reg +=
      "[HKEY_LOCAL_MACHINE\\SOFTWARE\\WOW6432Node\\Python\\PythonCore\\3.8-32\\InstallPath]\r\n"
      "@=\"C:\\\\Program Files (x86)\\\\Python38-32\"\r\n\r\n";
  auto fs = m.findings();
  auto stale = testing::all(fs, "python-registration-stale");
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_NE(stale[0]->title.find("Python38-32"), std::string::npos);
  EXPECT_NE(stale[0]->fix.find("HKLM\\SOFTWARE\\WOW6432Node\\Python\\PythonCore\\3.8-32"), std::string::npos)
      << stale[0]->fix;
}

TEST(WindowsRegistryProbe, ARegisteredToolkitOutsideProgramFilesWithoutCudaPath) {
  Machine m;
  m.tree.write("CUDA/v11.8/version.json", R"({"cuda": {"name": "CUDA SDK", "version": "11.8.0"}})");
  m.tree.write("CUDA/v11.8/bin/cudart64_110.dll", "");
  m.reg +=
      "[HKEY_LOCAL_MACHINE\\SOFTWARE\\NVIDIA Corporation\\GPU Computing Toolkit\\CUDA\\v11.8]\r\n"
      "\"InstallDir\"=\"C:\\\\CUDA\\\\v11.8\\\\\"\r\n\r\n";
  Facts f = m.facts();
  ASSERT_EQ(f.toolkits.size(), 1u);
  EXPECT_EQ(f.toolkits[0].found_via, std::vector<std::string>{"registry v11.8"});
  EXPECT_EQ(f.toolkits[0].version->str(), "11.8.0");
}

TEST(WindowsDllSearch, TensorflowFindsTheToolkitOnPath) {
  // The working TF 2.10 recipe: CUDA 11.2 with cuDNN 8.1 copied into its bin, which is on PATH.
  Machine m;
  m.cuda_112();
  m.tensorflow_210(m.venv("3.10.11"));
  m.path(std::string("C:\\env\\Scripts;") + kToolkitWin + "\\bin;C:\\Windows\\system32");
  Facts f = m.facts();
  const DllLoad* cudnn = load_of(f, "cudnn64_8.dll");
  ASSERT_NE(cudnn, nullptr);
  EXPECT_EQ(cudnn->loader, "tensorflow-dso-loader");
  EXPECT_EQ(cudnn->via, "PATH");
  EXPECT_EQ(load_of(f, "cudnn_cnn_train64_8.dll")->via, "PATH");
  EXPECT_EQ(load_of(f, "msvcp140_1.dll")->via, "System32");
  auto fs = run_checks(f, &builtin_kb());
  EXPECT_FALSE(testing::has(fs, "windows-dll-not-found"));
  EXPECT_FALSE(testing::has(fs, "msvc-runtime-missing"));
}

TEST(WindowsDllSearch, TensorflowDoesNotSearchAToolkitThatIsNotOnPath) {
  // The same files, the toolkit's bin not on PATH (only CUDA_PATH set): TensorFlow's loader
  // never looks there, whatever CUDA_PATH says.
  Machine m;
  m.cuda_112();
  m.tensorflow_210(m.venv("3.10.11"));
  m.path("C:\\env\\Scripts;C:\\Windows\\system32");
  m.env["CUDA_PATH"] = kToolkitWin;
  m.reg += driver_keys("31.0.15.1694");
  auto fs = m.findings();
  auto f = testing::find_copy(fs, "windows-dll-not-found");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, Severity::error);
  EXPECT_NE(f->title.find("cudart64_110.dll"), std::string::npos) << f->title;
  EXPECT_NE(f->title.find("cudnn64_8.dll"), std::string::npos) << f->title;
  EXPECT_NE(f->fix.find("Add " + std::string(kToolkitWin) + "\\bin to PATH"), std::string::npos) << f->fix;
  EXPECT_NE(f->detail.find("which this loader does not search"), std::string::npos);
  EXPECT_NE(f->source.find("load_library.cc"), std::string::npos);
}

TEST(WindowsDllSearch, AddDllDirectoryAloneDoesNotReachTensorflowsLoader) {
  // A copy in the venv's own folder (where a user's os.add_dll_directory would point) is not in
  // TensorFlow's search order; with nothing anywhere, the fix installs CUDA and cuDNN.
  Machine m;
  m.tensorflow_210(m.venv("3.10.11"));
  m.path("C:\\env\\Scripts;C:\\Windows\\system32");
  m.reg += driver_keys("31.0.15.1694");
  auto fs = m.findings();
  auto f = testing::find_copy(fs, "windows-dll-not-found");
  ASSERT_TRUE(f);
  const TfBuild* b = builtin_kb().tf_build(v("2.10.0"), Platform::windows);
  ASSERT_TRUE(b && b->cuda && b->cudnn);
  const auto& conda = builtin_kb().tensorflow.windows_gpu_conda_cudnn;
  const std::string cudnn = conda ? conda->str() : b->cudnn->str();
  EXPECT_NE(f->fix.find("cudatoolkit=" + b->cuda->truncated(2).str() + " cudnn=" + cudnn), std::string::npos) << f->fix;
}

TEST(WindowsDllSearch, CudnnOfAnotherMajorIsNamed) {
  // cuDNN 9 copied into the toolkit on PATH: TF 2.10 opens cudnn64_8.dll by name.
  Machine m;
  m.cuda_112(false);
  m.tree.write(std::string(kToolkit) + "/bin/cudnn64_9.dll", "");
  m.tree.write(std::string(kToolkit) + "/include/cudnn_version.h",
               "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n");
  m.tensorflow_210(m.venv("3.10.11"));
  m.path(std::string(kToolkitWin) + "\\bin;C:\\Windows\\system32");
  auto fs = m.findings();
  auto f = testing::find_copy(fs, "windows-dll-not-found");
  ASSERT_TRUE(f);
  EXPECT_NE(f->title.find("cudnn64_8.dll"), std::string::npos);
  EXPECT_EQ(f->title.find("cudart64_110.dll"), std::string::npos) << "found on PATH: " << f->title;
  EXPECT_NE(f->detail.find("cuDNN 9.1.0"), std::string::npos) << f->detail;
  EXPECT_NE(f->detail.find("another major"), std::string::npos) << f->detail;
}

/// TF 2.10 with CUDA 11.2 on PATH whose cudnn64_8.dll is `dll` (its bytes) and whose
/// include\cudnn_version.h says `header` ("" for none).
void tf210_with_cudnn(Machine& m, const std::string& dll, const std::string& header) {
  m.cuda_112(false);
  for (const char* f : {"cudnn_ops_infer64_8.dll", "cudnn_ops_train64_8.dll", "cudnn_cnn_infer64_8.dll",
                        "cudnn_cnn_train64_8.dll", "cudnn_adv_infer64_8.dll", "cudnn_adv_train64_8.dll"}) {
    m.tree.write(std::string(kToolkit) + "/bin/" + f, "");
  }
  m.tree.write(std::string(kToolkit) + "/bin/cudnn64_8.dll", dll);
  if (!header.empty()) {
    Version h = v(header.c_str());
    m.tree.write(std::string(kToolkit) + "/include/cudnn_version.h",
                 "#define CUDNN_MAJOR " + std::to_string(h.major()) + "\n#define CUDNN_MINOR " +
                     std::to_string(h.minor()) + "\n#define CUDNN_PATCHLEVEL " + std::to_string(h.patch()) + "\n");
  }
  m.tensorflow_210(m.venv("3.10.11"));
  m.path(std::string("C:\\env\\Scripts;") + kToolkitWin + "\\bin;C:\\Windows\\system32");
  m.reg += driver_keys("31.0.15.1694");
}

const Version& tf210_cudnn() {
  static const Version c = [] {
    const TfBuild* b = builtin_kb().tf_build(v("2.10.0"), Platform::windows);
    EXPECT_TRUE(b && b->cudnn && b->cudnn->parts().size() >= 2);
    return b && b->cudnn ? *b->cudnn : Version{};
  }();
  return c;
}

/// The inventory line of the cuDNN copy: never ticked while its version is wrong or unknown.
std::optional<Finding> cudnn_line(const std::vector<Finding>& fs) {
  for (const Finding& f : fs) {
    if (f.id == "library" && f.title.find("cudnn") != std::string::npos) return f;
  }
  return std::nullopt;
}

TEST(WindowsCudnnVersion, AnOlderMinorThanTheBuildsIsAnError) {
  // The guides' mix: TF 2.10 (built with cuDNN 8.1) and an older cuDNN 8.0 zip copied into the
  // toolkit, its DLL's file version 8.0.5.39; a stale cudnn_version.h of 8.1 beside it does not
  // hide it: the DLL's own word comes first.
  const Version& built = tf210_cudnn();
  ASSERT_EQ(built.major(), 8);
  ASSERT_GE(built.minor(), 1);
  const auto older = static_cast<std::uint16_t>(built.minor() - 1);
  Machine m;
  tf210_with_cudnn(m, testing::pe_with_version(8, older, 5, 39), built.str() + ".0");
  Facts facts = m.facts();
  const DllLoad* cudnn = load_of(facts, "cudnn64_8.dll");
  ASSERT_NE(cudnn, nullptr);
  ASSERT_TRUE(cudnn->version) << cudnn->version_problem;
  EXPECT_EQ(cudnn->version->str(), "8." + std::to_string(older) + ".5.39");
  EXPECT_NE(cudnn->version_source.find("file version"), std::string::npos) << cudnn->version_source;
  auto fs = run_checks(facts, &builtin_kb());
  auto f = testing::find_copy(fs, "windows-cudnn-too-old");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, Severity::error);
  const std::string loaded = "8." + std::to_string(older) + ".5";
  EXPECT_NE(f->title.find("cuDNN " + loaded), std::string::npos) << f->title;
  EXPECT_NE(f->title.find("cuDNN " + built.str() + " it was built with"), std::string::npos) << f->title;
  EXPECT_NE(f->fix.find("cuDNN " + built.str()), std::string::npos) << f->fix;
  EXPECT_NE(f->source.find("IsSourceCompatibleWithCudnnLibrary"), std::string::npos) << f->source;
  EXPECT_FALSE(testing::has(fs, "windows-dll-not-found"));
  auto line = cudnn_line(fs);
  ASSERT_TRUE(line);
  EXPECT_NE(line->severity, Severity::ok) << line->title;
}

// Some guides copy cudnn64_8.dll into System32, the Windows folder or python.exe's folder.
// TensorFlow's DLL search takes each of them before PATH, so the good cuDNN in the toolkit is
// never reached: the fix is taking the stray copy out, not copying a cuDNN's bin\ and include\
// "over" that folder (none of them has a cuDNN include\ beside it).
class WindowsCudnnBeforePath : public ::testing::TestWithParam<const char*> {};

TEST_P(WindowsCudnnBeforePath, AnOldCopyThereIsRemovedNotOverwritten) {
  const std::string folder = GetParam();
  const Version& built = tf210_cudnn();
  Machine m;
  tf210_with_cudnn(m, testing::pe_with_version(8, built.minor(), 5, 39), built.str() + ".0");
  m.tree.write(folder + "/cudnn64_8.dll", testing::pe_with_version(8, 0, 5, 39));
  Facts facts = m.facts();
  const DllLoad* cudnn = load_of(facts, "cudnn64_8.dll");
  ASSERT_NE(cudnn, nullptr);
  ASSERT_EQ(cudnn->path.find(kToolkitWin), std::string::npos) << cudnn->path;
  auto fs = run_checks(facts, &builtin_kb());
  auto f = testing::find_copy(fs, "windows-cudnn-too-old");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->fix.find("over those in"), std::string::npos) << f->fix;
  EXPECT_EQ(f->fix.find("\\include"), std::string::npos) << f->fix;
  EXPECT_NE(f->fix.find("Remove " + cudnn->path), std::string::npos) << f->fix;
  EXPECT_NE(f->fix.find("before PATH"), std::string::npos) << f->fix;
}

INSTANTIATE_TEST_SUITE_P(Folders, WindowsCudnnBeforePath,
                         ::testing::Values("Windows/System32", "Windows", "Python310"));

TEST(WindowsCudnnVersion, TheHeaderBesideTheDllSpeaksWhenTheDllHasNoVersion) {
  // A DLL without a version resource (here: no PE at all), include\cudnn_version.h of an older 8.x.
  const Version& built = tf210_cudnn();
  Machine m;
  tf210_with_cudnn(m, "", "8." + std::to_string(built.minor() - 1) + ".5");
  Facts facts = m.facts();
  const DllLoad* cudnn = load_of(facts, "cudnn64_8.dll");
  ASSERT_NE(cudnn, nullptr);
  ASSERT_TRUE(cudnn->version) << cudnn->version_problem;
  EXPECT_NE(cudnn->version_source.find("cudnn_version.h"), std::string::npos) << cudnn->version_source;
  EXPECT_TRUE(testing::has(run_checks(facts, &builtin_kb()), "windows-cudnn-too-old"));
}

TEST(WindowsCudnnVersion, ANewerMinorOfTheSameMajorIsAccepted) {
  // TensorFlow's rule: same major, same or newer minor (cuDNN 8.9.4.25 as nvidia-cudnn-cu11 ships it).
  Machine m;
  tf210_with_cudnn(m, testing::pe_with_version(8, 9, 4, 25), "");
  Facts facts = m.facts();
  const DllLoad* cudnn = load_of(facts, "cudnn64_8.dll");
  ASSERT_TRUE(cudnn && cudnn->version);
  EXPECT_EQ(cudnn->version->str(), "8.9.4.25");
  auto fs = run_checks(facts, &builtin_kb());
  EXPECT_FALSE(testing::has(fs, "windows-cudnn-too-old"));
  EXPECT_FALSE(testing::has(fs, "windows-cudnn-version-unknown"));
  // Nor from the library listing, whose copy without a header is versioned by its name alone ("8").
  EXPECT_FALSE(testing::has(fs, "tf-cudnn-mismatch"));
}

TEST(WindowsCudnnVersion, NoReadableVersionIsSaidNeverPassed) {
  // No resource and no header; a resource of another product's numbering (a driver's
  // 31.0.15.4633); a version resource cut short: each gives "could not be read", none an error
  // or silence.
  const std::string cut = testing::pe_with_version(8, 0, 5, 39).substr(0, 0x490);
  for (const std::string& dll : {std::string(), testing::pe_with_version(31, 0, 15, 4633), cut}) {
    Machine m;
    tf210_with_cudnn(m, dll, "");
    Facts facts = m.facts();
    const DllLoad* cudnn = load_of(facts, "cudnn64_8.dll");
    ASSERT_NE(cudnn, nullptr);
    EXPECT_FALSE(cudnn->version) << cudnn->version->str();
    EXPECT_FALSE(cudnn->version_problem.empty());
    auto fs = run_checks(facts, &builtin_kb());
    EXPECT_FALSE(testing::has(fs, "windows-cudnn-too-old"));
    EXPECT_FALSE(testing::has(fs, "tf-cudnn-mismatch")) << "a name's major is no minor";
    auto f = testing::find_copy(fs, "windows-cudnn-version-unknown");
    ASSERT_TRUE(f) << dll.size();
    EXPECT_EQ(f->severity, Severity::warning);
    EXPECT_NE(f->title.find("could not be read"), std::string::npos) << f->title;
    auto line = cudnn_line(fs);
    ASSERT_TRUE(line);
    EXPECT_NE(line->severity, Severity::ok) << line->title;
    EXPECT_NE(f->fix.find("cuDNN " + tf210_cudnn().str()), std::string::npos) << f->fix;
  }
}

TEST(WindowsDllSearch, MsvcRuntimeOnPathOnlyDoesNotCountForPython38AndLater) {
  for (const std::string& python : {std::string("3.10.11"), std::string("3.7.9")}) {
    Machine m;
    std::filesystem::remove(m.tree.path() / "Windows/System32/msvcp140_1.dll");
    m.tree.write("Program Files/SomeApp/msvcp140_1.dll", "");
    m.cuda_112();
    m.tensorflow_210(m.venv(python));
    m.path(std::string(kToolkitWin) + "\\bin;C:\\Program Files\\SomeApp;C:\\Windows\\system32");
    auto fs = m.findings();
    auto f = testing::find_copy(fs, "msvc-runtime-missing");
    if (python == "3.7.9") {
      EXPECT_FALSE(f) << "before 3.8 PATH is searched, and the copy there is found";
      continue;
    }
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::error);
    EXPECT_NE(f->title.find("msvcp140_1.dll"), std::string::npos);
    EXPECT_NE(f->detail.find("C:\\Program Files\\SomeApp\\msvcp140_1.dll"), std::string::npos) << f->detail;
    EXPECT_NE(f->fix.find("vc_redist.x64.exe"), std::string::npos);
  }
}

TEST(WindowsDllSearch, TorchBringsItsOwnDlls) {
  Machine m;
  m.torch(m.venv("3.11.9"), torch_cu12_libs());
  m.reg += driver_keys("32.0.15.6094");
  Facts f = m.facts();
  const DllLoad* cudnn = load_of(f, "cudnn64_9.dll");
  ASSERT_NE(cudnn, nullptr);
  EXPECT_EQ(cudnn->loader, "torch-dll-loader");
  EXPECT_EQ(cudnn->via, "torch\\lib");
  auto fs = run_checks(f, &builtin_kb());
  EXPECT_FALSE(testing::has(fs, "windows-dll-not-found"));
  EXPECT_FALSE(testing::has(fs, "driver-too-old-for-framework"));
}

// A CUDA 13 build's DLLs carry CUDA 13's numbers (cudart64_13, cublas64_13; cuFFT, cuSOLVER and
// cuSPARSE 12, as CUDA 13's libcufft.so.12, libcusolver.so.12, libcusparse.so.12): until session 36
// the model knew CUDA 11 and 12 only, and a CUDA 13 build was checked for nothing.
TEST(WindowsDllSearch, ACuda13TorchIsCheckedForItsOwnDlls) {
  Machine m;
  const std::string sp = m.venv("3.12.7");
  m.torch_release(sp, "2.9.0+cu130", "'13.0'");
  for (const char* l : {"c10.dll", "torch_cuda.dll", "cudart64_13.dll", "cublas64_13.dll", "cublasLt64_13.dll",
                        "cusolver64_12.dll", "cusparse64_12.dll", "cudnn64_9.dll"}) {
    m.tree.write(sp + "/torch/lib/" + l, "");
  }
  m.reg += driver_keys("32.0.15.8157");  // 581.57
  Facts f = m.facts();
  const DllLoad* cublas = load_of(f, "cublas64_13.dll");
  ASSERT_NE(cublas, nullptr);
  EXPECT_EQ(cublas->via, "torch\\lib");
  const DllLoad* cufft = load_of(f, "cufft64_12.dll");
  ASSERT_NE(cufft, nullptr);
  EXPECT_TRUE(cufft->path.empty());
  const auto fs = run_checks(f, &builtin_kb());
  const Finding* missing = testing::find(fs, "windows-dll-not-found");
  ASSERT_NE(missing, nullptr);
  EXPECT_NE(missing->title.find("cufft64_12.dll"), std::string::npos) << missing->title;
}

// The import tables of the frameworks' own DLLs (probe/pe_imports.hpp): what they name beyond
// the known lists is looked for by the loader that opens the importing file.
TEST(WindowsDllImports, ALaterRuntimeDllATorchDllImportsIsLookedFor) {
  // torch_cuda.dll imports msvcp140_atomic_wait.dll (Redistributable 14.28 and later); the
  // machine has an older Redistributable: msvcp140.dll and vcruntime140*.dll only.
  Machine m;
  std::vector<std::string> libs = torch_cu12_libs();
  std::erase(libs, "torch_cuda.dll");
  const std::string sp = m.venv("3.11.9");
  m.torch(sp, libs);
  m.tree.write(sp + "/torch/lib/torch_cuda.dll",
               testing::pe_with_imports({"KERNEL32.dll", "api-ms-win-crt-runtime-l1-1-0.dll", "c10.dll",
                                         "cudart64_12.dll", "MSVCP140.dll", "MSVCP140_ATOMIC_WAIT.dll"}));
  m.reg += driver_keys("32.0.15.6094");
  Facts f = m.facts();
  const DllLoad* wait = load_of(f, "MSVCP140_ATOMIC_WAIT.dll");
  ASSERT_NE(wait, nullptr);
  EXPECT_TRUE(wait->path.empty());
  EXPECT_EQ(wait->loader, "torch-dll-loader");
  EXPECT_TRUE(wait->needed_by.ends_with("torch\\lib\\torch_cuda.dll")) << wait->needed_by;
  // Windows' own DLLs and torch\lib's are not looked for; a known one learns who imports it.
  EXPECT_EQ(load_of(f, "KERNEL32.dll"), nullptr);
  EXPECT_EQ(load_of(f, "api-ms-win-crt-runtime-l1-1-0.dll"), nullptr);
  EXPECT_EQ(load_of(f, "c10.dll"), nullptr);
  ASSERT_NE(load_of(f, "cudart64_12.dll"), nullptr);
  EXPECT_EQ(load_of(f, "cudart64_12.dll")->needed_by, wait->needed_by);
  EXPECT_EQ(load_of(f, "MSVCP140.dll"), nullptr) << "msvcp140.dll is in the known list, once";
  auto fs = run_checks(f, &builtin_kb());
  auto runtime = testing::find_copy(fs, "msvc-runtime-missing");
  ASSERT_TRUE(runtime);
  EXPECT_NE(runtime->title.find("MSVCP140_ATOMIC_WAIT.dll"), std::string::npos) << runtime->title;
  EXPECT_NE(runtime->detail.find("[WinError 126] on torch_cuda.dll"), std::string::npos) << runtime->detail;
  EXPECT_NE(runtime->detail.find("14.28"), std::string::npos) << runtime->detail;
  EXPECT_NE(runtime->fix.find("vc_redist.x64.exe"), std::string::npos);
  const bool says_importer = std::any_of(runtime->evidence.begin(), runtime->evidence.end(), [](const std::string& e) {
    return e.find("imported by") != std::string::npos && e.ends_with("torch_cuda.dll)");
  });
  EXPECT_TRUE(says_importer) << runtime->evidence.back();
  EXPECT_FALSE(testing::has(fs, "windows-dll-not-found"));

  // With the current Redistributable in System32 nothing is said.
  m.tree.write("Windows/System32/msvcp140_atomic_wait.dll", "");
  EXPECT_FALSE(testing::has(m.findings(), "msvc-runtime-missing"));
}

TEST(WindowsDllImports, ACpuTorchMissingOneOfItsOwnDllsIsFound) {
  // A CPU build has no CUDA list to check; its torch_cpu.dll still imports libiomp5md.dll, which
  // the wheel puts in torch\lib and which an interrupted install or a cleaner removed.
  Machine m;
  const std::string sp = m.venv("3.11.9");
  m.torch_release(sp, "2.5.1+cpu", "None");
  m.tree.write(sp + "/torch/lib/c10.dll", testing::pe_with_imports({"KERNEL32.dll", "VCRUNTIME140.dll"}));
  m.tree.write(sp + "/torch/lib/torch_cpu.dll",
               testing::pe_with_imports({"c10.dll", "libiomp5md.dll", "KERNEL32.dll"}, {"uv.dll"}));
  m.tree.write(sp + "/torch/lib/uv.dll", "");
  Facts f = m.facts();
  const DllLoad* omp = load_of(f, "libiomp5md.dll");
  ASSERT_NE(omp, nullptr);
  EXPECT_TRUE(omp->path.empty());
  EXPECT_EQ(load_of(f, "uv.dll"), nullptr) << "beside the importing DLL";
  auto fs = run_checks(f, &builtin_kb());
  auto missing = testing::find_copy(fs, "windows-dll-not-found");
  ASSERT_TRUE(missing);
  EXPECT_NE(missing->title.find("libiomp5md.dll"), std::string::npos) << missing->title;
  EXPECT_NE(missing->fix.find("--force-reinstall torch==2.5.1"), std::string::npos) << missing->fix;
  m.tree.write(sp + "/torch/lib/libiomp5md.dll", "");
  EXPECT_FALSE(testing::has(m.findings(), "windows-dll-not-found"));
}

// What a DLL the framework loads from elsewhere imports in turn: cuDNN 8's sub-libraries import
// zlibwapi.dll (zlib's Windows DLL), which the cuDNN package does not bring; the toolkit's
// cublas64_N.dll imports cublasLt64_N.dll. Missing, the importing DLL fails to load (error 126)
// though it is there: before session 38 only the framework's own files' imports were read, so
// such a machine was reported as fine.
TEST(WindowsDllImports, WhatAToolkitDllTheFrameworkLoadsImportsIsLookedForToo) {
  Machine m;
  m.cuda_112();
  m.tree.write(std::string(kToolkit) + "/bin/cudnn_ops_infer64_8.dll",
               testing::pe_with_imports({"KERNEL32.dll", "cudnn64_8.dll", "zlibwapi.dll", "MSVCP140.dll"}));
  m.tensorflow_210(m.venv("3.10.11"));
  m.path(std::string("C:\\env\\Scripts;") + kToolkitWin + "\\bin;C:\\Windows\\system32");
  m.reg += driver_keys("31.0.15.1694");
  Facts f = m.facts();
  const DllLoad* zlib = load_of(f, "zlibwapi.dll");
  ASSERT_NE(zlib, nullptr);
  EXPECT_TRUE(zlib->path.empty());
  EXPECT_EQ(zlib->loader, "tensorflow-dso-loader");
  EXPECT_TRUE(zlib->needed_by.ends_with("\\bin\\cudnn_ops_infer64_8.dll")) << zlib->needed_by;
  // cudnn64_8.dll, which it imports too, is on TensorFlow's own list: still TensorFlow's to report.
  ASSERT_NE(load_of(f, "cudnn64_8.dll"), nullptr);
  EXPECT_TRUE(load_of(f, "cudnn64_8.dll")->needed_by.empty()) << load_of(f, "cudnn64_8.dll")->needed_by;
  auto fs = run_checks(f, &builtin_kb());
  auto dep = testing::find_copy(fs, "windows-dll-dependency-missing");
  ASSERT_TRUE(dep);
  EXPECT_NE(dep->title.find("zlibwapi.dll (imported by"), std::string::npos) << dep->title;
  EXPECT_NE(dep->fix.find("64-bit zlibwapi.dll"), std::string::npos) << dep->fix;
  EXPECT_NE(dep->detail.find("Could not load dynamic library 'cudnn_ops_infer64_8.dll'"), std::string::npos)
      << dep->detail;
  // Not the framework's own DLL list: no "install CUDA and cuDNN" finding for it.
  EXPECT_FALSE(testing::has(fs, "windows-dll-not-found"));

  // zlibwapi.dll beside the toolkit's DLLs: nothing to say.
  m.tree.write(std::string(kToolkit) + "/bin/zlibwapi.dll", "");
  EXPECT_FALSE(testing::has(m.findings(), "windows-dll-dependency-missing"));
}

TEST(WindowsDllImports, ADependencyOfADllOnPathIsNotTheTorchWheels) {
  // torch 1.x-2.0's torch_cuda.dll imports NVTX's nvToolsExt64_1.dll, which the CUDA installer
  // puts in NvToolsExt\bin\x64 and PATH; that copy here imports a DLL that is gone (constructed:
  // the second level is what is tested). Two levels deep, and a DLL importing itself is read once.
  Machine m;
  std::vector<std::string> libs = torch_cu12_libs();
  std::erase(libs, "torch_cuda.dll");
  const std::string sp = m.venv("3.11.9");
  m.torch(sp, libs);
  m.tree.write(sp + "/torch/lib/torch_cuda.dll",
               testing::pe_with_imports({"KERNEL32.dll", "c10.dll", "nvToolsExt64_1.dll"}));
  const std::string nvtx = "Program Files/NVIDIA Corporation/NvToolsExt/bin/x64/";
  m.tree.write(nvtx + "nvToolsExt64_1.dll",
               testing::pe_with_imports({"KERNEL32.dll", "nvToolsExt64_1.dll", "nvtx_injection64.dll"}));
  // The wheel's RECORD (which does not list it): read for torch's own files' imports only.
  m.tree.write(sp + "/torch-2.5.1+cu124.dist-info/RECORD",
               "torch/lib/c10.dll,sha256=x,1\ntorch/lib/torch_cuda.dll,sha256=x,1\n");
  m.path("C:\\env\\Scripts;C:\\Program Files\\NVIDIA Corporation\\NvToolsExt\\bin\\x64;C:\\Windows\\system32");
  m.reg += driver_keys("32.0.15.6094");
  Facts f = m.facts();
  ASSERT_NE(load_of(f, "nvToolsExt64_1.dll"), nullptr);
  EXPECT_FALSE(load_of(f, "nvToolsExt64_1.dll")->path.empty());
  const DllLoad* dep = load_of(f, "nvtx_injection64.dll");
  ASSERT_NE(dep, nullptr);
  EXPECT_TRUE(dep->path.empty());
  EXPECT_TRUE(dep->needed_by.ends_with("x64\\nvToolsExt64_1.dll")) << dep->needed_by;
  EXPECT_FALSE(dep->in_wheel.has_value()) << "not torch's own file's import";
  auto fs = run_checks(f, &builtin_kb());
  auto finding = testing::find_copy(fs, "windows-dll-dependency-missing");
  ASSERT_TRUE(finding);
  EXPECT_NE(finding->fix.find("Reinstalling PyTorch does not bring it"), std::string::npos) << finding->fix;
  EXPECT_NE(finding->detail.find("WinError 126"), std::string::npos) << finding->detail;
  EXPECT_FALSE(testing::has(fs, "windows-dll-outside-wheel"));
  EXPECT_FALSE(testing::has(fs, "windows-dll-not-found"));
}

// The wheel's RECORD says whether reinstalling can bring a missing DLL back. torch 2.4.0's
// fbgemm.dll imports libomp140.x86_64.dll, which its wheel does not carry and the Redistributable
// does not install (pytorch#131662; 2.4.1 dropped it): "reinstall torch" would change nothing.
TEST(WindowsDllImports, ADllTheWheelDoesNotCarryIsNotFixedByReinstalling) {
  Machine m;
  m.tree.write("Windows/System32/vcomp140.dll", "");
  const std::string sp = m.venv("3.11.9");
  m.torch_release(sp, "2.4.0+cpu", "None");
  m.tree.write(sp + "/torch-2.4.0+cpu.dist-info/RECORD",
               "torch/__init__.py,sha256=x,100\ntorch/lib/asmjit.dll,sha256=x,100\n"
               // A file of that name elsewhere in the wheel is not in torch\\lib, where the loader looks.
               "torch/share/omp/libomp140.x86_64.dll,sha256=x,100\n"
               "torch/lib/fbgemm.dll,sha256=x,100\ntorch/lib/c10.dll,sha256=x,100\n");
  m.tree.write(sp + "/torch/lib/asmjit.dll", "");
  m.tree.write(sp + "/torch/lib/c10.dll", "");
  m.tree.write(sp + "/torch/lib/fbgemm.dll",
               testing::pe_with_imports({"asmjit.dll", "libomp140.x86_64.dll", "VCOMP140.DLL", "KERNEL32.dll"}));
  Facts f = m.facts();
  const DllLoad* omp = load_of(f, "libomp140.x86_64.dll");
  ASSERT_NE(omp, nullptr);
  EXPECT_TRUE(omp->path.empty());
  ASSERT_TRUE(omp->in_wheel.has_value());
  EXPECT_FALSE(*omp->in_wheel);
  auto fs = run_checks(f, &builtin_kb());
  auto outside = testing::find_copy(fs, "windows-dll-outside-wheel");
  ASSERT_TRUE(outside);
  EXPECT_NE(outside->title.find("libomp140.x86_64.dll"), std::string::npos) << outside->title;
  EXPECT_NE(outside->title.find("fbgemm.dll"), std::string::npos) << outside->title;
  EXPECT_NE(outside->fix.find("torch>=2.4.1"), std::string::npos) << outside->fix;
  EXPECT_EQ(outside->fix.find("--force-reinstall"), std::string::npos) << outside->fix;
  EXPECT_FALSE(testing::has(fs, "windows-dll-not-found"));
  EXPECT_FALSE(testing::has(fs, "msvc-runtime-missing"));

  // A DLL the RECORD installs is a broken install: the reinstall fix stands.
  m.tree.write(sp + "/torch-2.4.0+cpu.dist-info/RECORD",
               "torch/lib/asmjit.dll,sha256=x,100\ntorch/lib/fbgemm.dll,sha256=x,100\n"
               "torch/lib/libomp140.x86_64.dll,sha256=x,100\n");
  auto broken = m.findings();
  EXPECT_FALSE(testing::has(broken, "windows-dll-outside-wheel"));
  auto reinstall = testing::find_copy(broken, "windows-dll-not-found");
  ASSERT_TRUE(reinstall);
  EXPECT_NE(reinstall->fix.find("--force-reinstall torch==2.4.0"), std::string::npos) << reinstall->fix;
}

TEST(WindowsDllImports, TheOnnxruntimeProvidersImportsAreSearchedByItsLoader) {
  // onnxruntime-gpu's CUDA provider is loaded by full path: what it imports is searched in capi,
  // System32, the Windows folder and PATH. Here its table names cufft64_11.dll, which the
  // CUDA 12 toolkit on PATH has, and it delay-loads cudnn64_9.dll, which nothing has.
  Machine m;
  const std::string sp = m.venv("3.11.9");
  m.tree.write(sp + "/onnxruntime_gpu-1.20.2.dist-info/METADATA",
               "Metadata-Version: 2.1\nName: onnxruntime-gpu\nVersion: 1.20.2\n");
  m.tree.write(sp + "/onnxruntime/__init__.py", "");
  m.tree.write(sp + "/onnxruntime/capi/version_info.py",
               "use_cuda = True\ncuda_version = \"12.2.128\"\ncudnn_version = \"9\"\n");
  m.tree.write(sp + "/onnxruntime/capi/onnxruntime_providers_shared.dll", "");
  // The extension module imports the interpreter's DLL and the C runtime python.exe has already
  // loaded: found in the process, wherever their files are, never reported.
  m.tree.write(sp + "/onnxruntime/capi/onnxruntime_pybind11_state.pyd",
               testing::pe_with_imports({"python311.dll", "python3.dll", "VCRUNTIME140.dll", "KERNEL32.dll"}));
  m.tree.write(sp + "/onnxruntime/capi/onnxruntime_providers_cuda.dll",
               testing::pe_with_imports({"onnxruntime_providers_shared.dll", "cublasLt64_12.dll", "cublas64_12.dll",
                                         "cudart64_12.dll", "cufft64_11.dll", "KERNEL32.dll"},
                                        {"cudnn64_9.dll"}));
  for (const char* dll :
       {"cudart64_12.dll", "cublas64_12.dll", "cublasLt64_12.dll", "cufft64_11.dll", "curand64_10.dll"}) {
    m.tree.write(std::string("CUDA12/bin/") + dll, "");
  }
  m.path("C:\\CUDA12\\bin;C:\\Windows\\system32");
  m.reg += driver_keys("32.0.15.6094");
  Facts f = m.facts();
  const DllLoad* cufft = load_of(f, "cufft64_11.dll");
  ASSERT_NE(cufft, nullptr);
  EXPECT_EQ(cufft->via, "PATH");
  EXPECT_TRUE(cufft->needed_by.ends_with("onnxruntime_providers_cuda.dll")) << cufft->needed_by;
  EXPECT_EQ(load_of(f, "onnxruntime_providers_shared.dll"), nullptr);
  EXPECT_EQ(load_of(f, "python311.dll"), nullptr);
  EXPECT_EQ(load_of(f, "VCRUNTIME140.dll"), nullptr);
  const DllLoad* cudnn = load_of(f, "cudnn64_9.dll");
  ASSERT_NE(cudnn, nullptr);
  EXPECT_TRUE(cudnn->path.empty());
  EXPECT_EQ(cudnn->loader, "onnxruntime-provider-bridge");
  EXPECT_TRUE(cudnn->delay_loaded);
  auto fs = run_checks(f, &builtin_kb());
  auto missing = testing::find_copy(fs, "windows-dll-not-found");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->title.find("cufft64_11.dll"), std::string::npos) << missing->title;
  EXPECT_NE(missing->title.find("cudnn64_9.dll"), std::string::npos) << missing->title;
  const bool delay_said = std::any_of(missing->evidence.begin(), missing->evidence.end(), [](const std::string& e) {
    return e.starts_with("cudnn64_9.dll: not found") && e.find("delay-loaded by") != std::string::npos;
  });
  EXPECT_TRUE(delay_said) << missing->evidence.back();
}

TEST(WindowsDllSearch, TorchFallsBackToPathAndIsNotFlaggedForIt) {
  Machine m;
  std::vector<std::string> libs = torch_cu12_libs();
  std::erase(libs, "cublas64_12.dll");
  m.torch(m.venv("3.11.9"), libs);
  m.tree.write("CUDA124/bin/cublas64_12.dll", "");
  m.path("C:\\CUDA124\\bin;C:\\Windows\\system32");
  Facts f = m.facts();
  const DllLoad* cublas = load_of(f, "cublas64_12.dll");
  ASSERT_NE(cublas, nullptr);
  EXPECT_EQ(cublas->via, "PATH (torch's LoadLibraryW fallback)");
  EXPECT_FALSE(testing::has(run_checks(f, &builtin_kb()), "windows-dll-not-found"));
}

TEST(WindowsDllSearch, TorchMissingADllGetsTheReinstallFix) {
  Machine m;
  std::vector<std::string> libs = torch_cu12_libs();
  std::erase(libs, "cublas64_12.dll");
  m.torch(m.venv("3.11.9"), libs);
  m.path("C:\\Windows\\system32");
  auto fs = m.findings();
  auto f = testing::find_copy(fs, "windows-dll-not-found");
  ASSERT_TRUE(f);
  EXPECT_NE(f->title.find("cublas64_12.dll"), std::string::npos);
  EXPECT_NE(f->fix.find("--index-url https://download.pytorch.org/whl/cu124"), std::string::npos) << f->fix;
  EXPECT_NE(f->source.find("_load_dll_libraries"), std::string::npos);
}

TEST(WindowsVerdicts, DriverFromTheRegistryTooOldForTheTorchWheel) {
  Machine m;
  m.torch(m.venv("3.11.9"), torch_cu12_libs());
  m.reg += driver_keys("31.0.15.1179");  // 511.79: a CUDA 11.6 driver
  auto fs = m.findings();
  auto f = testing::find_copy(fs, "driver-too-old-for-framework");
  ASSERT_TRUE(f) << "the registry's driver reaches the driver checks";
  auto floor = builtin_kb().family_min_driver(v("12.4"), Platform::windows);
  ASSERT_TRUE(floor);
  EXPECT_NE(f->detail.find(">= " + floor->str() + " (Windows)"), std::string::npos) << f->detail;
  EXPECT_NE(f->title.find("511.79"), std::string::npos) << f->title;
}

TEST(WindowsVerdicts, TensorflowGpuIsDiscontinued) {
  const TfPackage* pkg = builtin_kb().tf_package("tensorflow-gpu");
  ASSERT_TRUE(pkg && pkg->last_release && pkg->last_windows_release);
  {
    Machine m;
    std::string sp = m.venv("3.10.11");
    m.tree.write(sp + "/tensorflow_gpu-2.10.1.dist-info/METADATA",
                 "Metadata-Version: 2.1\nName: tensorflow-gpu\nVersion: 2.10.1\n");
    m.tree.write(sp + "/tensorflow/__init__.py", "");
    auto fs = m.findings();
    auto f = testing::find_copy(fs, "tensorflow-gpu-discontinued");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::info) << "the last native-Windows GPU build: right where it is";
    EXPECT_NE(f->fix.find("tensorflow-gpu==" + pkg->last_windows_release->str()), std::string::npos) << f->fix;
  }
  {
    TempTree t;
    t.write("home/u/env/pyvenv.cfg", "home = /usr/bin\nversion = 3.10.12\n");
    t.write("home/u/env/lib/python3.10/site-packages/tensorflow_gpu-2.11.0.dist-info/METADATA",
            "Metadata-Version: 2.1\nName: tensorflow-gpu\nVersion: 2.11.0\n");
    t.write("home/u/env/lib/python3.10/site-packages/tensorflow/__init__.py", "");
    SystemView system(SystemView::Options{t.str(), Platform::linux, {{"VIRTUAL_ENV", "/home/u/env"}}, false, nullptr});
    auto fs = run_checks(gather_facts(system, InventoryOptions{}, builtin_kb()), &builtin_kb());
    auto f = testing::find_copy(fs, "tensorflow-gpu-discontinued");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::warning);
    EXPECT_NE(f->fix.find("tensorflow[and-cuda]"), std::string::npos);
    EXPECT_NE(f->detail.find(pkg->last_release->str()), std::string::npos);
  }
}

/// A WSL2 distribution (the kernel says so), with the Windows host's registry export when given.
std::vector<Finding> wsl2_findings(bool with_libcuda, const std::string& reg, Facts* facts_out = nullptr) {
  TempTree t;
  t.write("proc/sys/kernel/osrelease", "5.15.167.4-microsoft-standard-WSL2\n");
  t.write("etc/os-release", "ID=ubuntu\nVERSION_ID=\"24.04\"\nPRETTY_NAME=\"Ubuntu 24.04.1 LTS\"\n");
  t.mkdir("usr/lib/wsl/lib");
  if (with_libcuda) t.write("usr/lib/wsl/lib/libcuda.so.1", "");
  auto registry = parse_registry_export(reg, "host.reg");
  SystemView::Options o{t.str(), Platform::wsl2, {}, false, nullptr};
  if (!reg.empty()) o.registry = registry.get();
  SystemView system(o);
  Facts f = gather_facts(system, InventoryOptions{}, builtin_kb());
  if (facts_out) *facts_out = f;
  return run_checks(f, &builtin_kb());
}

std::string windows_build_key(const std::string& build) {
  return "[HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion]\r\n\"ProductName\"=\"Windows 10 "
         "Pro\"\r\n"
         "\"CurrentBuild\"=\"" +
         build + "\"\r\n\r\n";
}

TEST(Wsl2FromInside, TheHostsRegistryGivesTheWindowsBuildAndDriver) {
  const auto& tf = builtin_kb().tensorflow;
  const auto min_build = Version::parse(tf.wsl2_min_windows_build);
  ASSERT_TRUE(min_build && tf.wsl2_min_driver);
  Facts f;
  auto old = wsl2_findings(true, reg_header() + windows_build_key("19041") + driver_keys("31.0.15.1215"), &f);
  ASSERT_TRUE(f.windows);
  EXPECT_EQ(f.windows->build, "19041");
  EXPECT_EQ(f.os.name, "Ubuntu 24.04.1 LTS") << "inside WSL2 the OS is the distribution";
  ASSERT_TRUE(f.driver.version);
  EXPECT_EQ(f.driver.version->str(), "512.15");
  auto build = testing::find_copy(old, "wsl2-windows-build-too-old");
  ASSERT_TRUE(build);
  EXPECT_NE(build->title.find(min_build->str()), std::string::npos);
  EXPECT_EQ(build->source, tf.wsl2_source);
  EXPECT_TRUE(testing::has(old, "driver-below-wsl2-floor"));

  // Exactly at the floor: nothing to say.
  auto at = wsl2_findings(true, reg_header() + windows_build_key(min_build->str()) + driver_keys("32.0.15.6094"));
  EXPECT_FALSE(testing::has(at, "wsl2-windows-build-too-old"));
  EXPECT_FALSE(testing::has(at, "driver-below-wsl2-floor"));
  // Without the host's registry nothing is guessed.
  Facts none;
  auto unknown = wsl2_findings(true, "", &none);
  EXPECT_FALSE(none.windows);
  EXPECT_FALSE(testing::has(unknown, "wsl2-windows-build-too-old"));
}

TEST(Wsl2FromInside, TheWslLibraryFolderWithoutLibcuda) {
  auto without = wsl2_findings(false, "");
  auto f = testing::find_copy(without, "wsl2-no-driver-libraries");
  ASSERT_TRUE(f);
  EXPECT_NE(f->title.find("has no libcuda.so.1"), std::string::npos) << f->title;
  EXPECT_FALSE(testing::has(wsl2_findings(true, ""), "wsl2-no-driver-libraries"));
}

// Review 45B, 4: the PowerShell fix wrote $env:Path, the process PATH (the machine Path, the user
// Path and the activated venv's Scripts), as the User Path. It reads the User value now, and adds
// every folder it names.
TEST(WindowsReview45b, ThePathFixAppendsToTheUserPathNotTheProcessPath) {
  Machine m;
  m.cuda_112();
  m.tensorflow_210(m.venv("3.10.11"));
  m.path("C:\\env\\Scripts;C:\\Windows\\system32");
  m.reg += driver_keys("31.0.15.1694");
  auto f = testing::find_copy(m.findings(), "windows-dll-not-found");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->fix.find("$env:Path"), std::string::npos) << f->fix;
  EXPECT_NE(f->title.find("will not find"), std::string::npos) << "a PATH that is known: a definite answer";
  EXPECT_NE(f->fix.find("[Environment]::SetEnvironmentVariable('Path', [Environment]::GetEnvironmentVariable('Path', "
                        "'User') + ';" +
                        std::string(kToolkitWin) + "\\bin', 'User')"),
            std::string::npos)
      << f->fix;
}

// Review 45B, 6: the DLL search read the first 256 PATH entries only, so a PATH of 1,107 entries
// (9 KB, legal on Windows) gave "will not find cudart64_110.dll" with the toolkit's bin on PATH.
TEST(WindowsReview45b, EveryPathEntryIsSearchedForDlls) {
  Machine m;
  m.cuda_112();
  m.tensorflow_210(m.venv("3.10.11"));
  std::string many;
  for (int i = 0; i < 1100; ++i) many += "C:\\p" + std::to_string(i) + ";";
  m.path(many + "C:\\env\\Scripts;" + kToolkitWin + "\\bin;C:\\Windows\\system32");
  m.reg += driver_keys("31.0.15.1694");
  Facts facts = m.facts();
  ASSERT_NE(load_of(facts, "cudart64_110.dll"), nullptr);
  EXPECT_EQ(load_of(facts, "cudart64_110.dll")->via, "PATH");
  EXPECT_FALSE(testing::has(run_checks(facts, &builtin_kb()), "windows-dll-not-found"));
}

// Review 45B, 5: a tree without PATH (no --env-file, no Environment keys): "may not find", a warning.
TEST(WindowsReview45b, WithoutPathTheDllVerdictIsNotDefinite) {
  Machine m;
  m.cuda_112();
  m.tensorflow_210(m.venv("3.10.11"));
  m.reg += driver_keys("31.0.15.1694");
  Facts facts = m.facts();
  ASSERT_TRUE(facts.windows);
  EXPECT_TRUE(facts.windows->path_unknown);
  auto f = testing::find_copy(run_checks(facts, &builtin_kb()), "windows-dll-not-found");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, Severity::warning);
  EXPECT_NE(f->title.find("may not find"), std::string::npos) << f->title;
}

// Near miss: past 32,767 characters (no Windows variable is longer; only an env file can say so)
// the search stops, and says so.
TEST(WindowsReview45b, APathLongerThanWindowsAllowsIsCutAndSaidSo) {
  Machine m;
  m.cuda_112();
  m.tensorflow_210(m.venv("3.10.11"));
  m.path(std::string(40000, 'x') + ";" + kToolkitWin + "\\bin;C:\\Windows\\system32");
  Facts facts = m.facts();
  EXPECT_TRUE(load_of(facts, "cudart64_110.dll")->path.empty());
  EXPECT_TRUE(std::any_of(facts.problems.begin(), facts.problems.end(), [](const ProbeProblem& p) {
    return p.message.find("not searched for DLLs") != std::string::npos;
  }));
}

/// A PE image for `machine` (0x14c: x86) importing nothing Windows does not provide.
std::string pe_for_machine(std::uint32_t machine) {
  std::string img = testing::pe_with_imports({"KERNEL32.dll"});
  testing::put16(img, 0x84, machine);
  return img;
}

// Review 45B, 3: a 32-bit zlibwapi.dll (zlib's dll_x86 build) beside cuDNN 8 counted as found;
// a 64-bit python.exe fails to load it with error 193.
TEST(WindowsReview45b, AThirtyTwoBitZlibwapiIsNotFound) {
  Machine m;
  m.cuda_112();
  m.tree.write(std::string(kToolkit) + "/bin/cudnn_ops_infer64_8.dll",
               testing::pe_with_imports({"KERNEL32.dll", "zlibwapi.dll"}));
  m.tree.write(std::string(kToolkit) + "/bin/zlibwapi.dll", pe_for_machine(0x14c));
  m.tensorflow_210(m.venv("3.10.11"));
  m.path(std::string("C:\\env\\Scripts;") + kToolkitWin + "\\bin;C:\\Windows\\system32");
  m.reg += driver_keys("31.0.15.1694");
  Facts f = m.facts();
  const DllLoad* zlib = load_of(f, "zlibwapi.dll");
  ASSERT_NE(zlib, nullptr);
  EXPECT_EQ(zlib->wrong_machine, "x86 (32-bit)");
  auto dep = testing::find_copy(run_checks(f, &builtin_kb()), "windows-dll-dependency-missing");
  ASSERT_TRUE(dep);
  EXPECT_EQ(dep->severity, Severity::error);
  EXPECT_NE(dep->detail.find("error 193"), std::string::npos) << dep->detail;
  EXPECT_NE(dep->title.find("not a 64-bit DLL"), std::string::npos) << dep->title;
  // The 32-bit copy is found first: the fix replaces it (adding a 64-bit one on PATH would not help).
  EXPECT_NE(dep->fix.find("Replace " + zlib->path + " (x86 (32-bit))"), std::string::npos) << dep->fix;
  EXPECT_EQ(dep->fix.find("another folder on PATH"), std::string::npos) << dep->fix;

  // Near miss: the 64-bit one in the same place is found, nothing to say.
  m.tree.write(std::string(kToolkit) + "/bin/zlibwapi.dll", pe_for_machine(0x8664));
  EXPECT_FALSE(testing::has(m.findings(), "windows-dll-dependency-missing"));
}

// The family: a 32-bit copy of a DLL TensorFlow opens itself, found first on PATH.
TEST(WindowsReview45b, AThirtyTwoBitDllTheFrameworkOpensIsNotFound) {
  Machine m;
  m.cuda_112();
  m.tree.write(std::string(kToolkit) + "/bin/cudart64_110.dll", pe_for_machine(0x14c));
  m.tensorflow_210(m.venv("3.10.11"));
  m.path(std::string("C:\\env\\Scripts;") + kToolkitWin + "\\bin;C:\\Windows\\system32");
  m.reg += driver_keys("31.0.15.1694");
  auto f = testing::find_copy(m.findings(), "windows-dll-not-found");
  ASSERT_TRUE(f);
  EXPECT_NE(f->title.find("cudart64_110.dll"), std::string::npos) << f->title;
  bool says = false;
  for (const std::string& e : f->evidence) says = says || e.find("error 193") != std::string::npos;
  EXPECT_TRUE(says);
}

/// A WSL2 tree with the WSL libcuda; `conf` the ld.wsl.conf WSL writes (empty: none), `wsl_conf`
/// /etc/wsl.conf.
Facts wsl2_tree(const std::string& conf, const std::string& wsl_conf, const EnvMap& env = {}) {
  TempTree t;
  t.write("proc/sys/kernel/osrelease", "5.15.167.4-microsoft-standard-WSL2\n");
  t.write("etc/os-release", "ID=ubuntu\nVERSION_ID=\"24.04\"\n");
  t.write("usr/lib/wsl/lib/libcuda.so.1", "");
  t.mkdir("etc/ld.so.conf.d");
  if (!conf.empty()) t.write("etc/ld.so.conf.d/ld.wsl.conf", conf);
  if (!wsl_conf.empty()) t.write("etc/wsl.conf", wsl_conf);
  SystemView system(SystemView::Options{t.str(), Platform::wsl2, env, false, nullptr});
  return gather_facts(system, InventoryOptions{}, builtin_kb());
}

// Review 45B, 7: with `[automount] ldconfig = false` and no ld.wsl.conf nothing tells the loader
// about /usr/lib/wsl/lib; the doctor said "✓ libcuda.so.1" and "No issues found".
TEST(WindowsReview45b, Wsl2LibcudaOutsideTheLoadersSearchIsAnError) {
  Facts f = wsl2_tree("", "[boot]\nsystemd=true\n[automount]\nldconfig = false\n");
  EXPECT_TRUE(f.os.wsl_ldconfig_off);
  EXPECT_EQ(f.os.wsl_lib_loader_via, "");
  auto w = testing::find_copy(run_checks(f, &builtin_kb()), "wsl2-libcuda-not-on-loader-path");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->severity, Severity::error);
  EXPECT_NE(w->fix.find("ldconfig = false"), std::string::npos) << w->fix;
  // Without the switch WSL may write ld.wsl.conf at the next start: a warning, not silence.
  auto maybe = testing::find_copy(run_checks(wsl2_tree("", ""), &builtin_kb()), "wsl2-libcuda-not-on-loader-path");
  ASSERT_TRUE(maybe);
  EXPECT_EQ(maybe->severity, Severity::warning);
}

// Near misses: WSL's own ld.wsl.conf (with or without /etc/ld.so.conf), or LD_LIBRARY_PATH.
TEST(WindowsReview45b, Wsl2LibcudaReachedByTheLoaderIsFine) {
  const std::string generated = "# This file was automatically generated by WSL.\n/usr/lib/wsl/lib\n";
  Facts conf = wsl2_tree(generated, "[automount]\nldconfig = true # on\n");
  EXPECT_EQ(conf.os.wsl_lib_loader_via, "ld.so.conf");
  EXPECT_FALSE(conf.os.wsl_ldconfig_off);
  EXPECT_FALSE(testing::has(run_checks(conf, &builtin_kb()), "wsl2-libcuda-not-on-loader-path"));
  Facts env = wsl2_tree("", "[automount]\nldconfig = false\n", {{"LD_LIBRARY_PATH", "/opt/x:/usr/lib/wsl/lib/"}});
  EXPECT_EQ(env.os.wsl_lib_loader_via, "LD_LIBRARY_PATH");
  EXPECT_FALSE(testing::has(run_checks(env, &builtin_kb()), "wsl2-libcuda-not-on-loader-path"));
}

// Review 45B, 1: a Linux driver inside WSL2 (libcuda.so.535.183.01) was shown as THE driver and
// judged every verdict, with the host's registry ignored. The host's is the driver now.
TEST(WindowsReview45b, Wsl2TheHostsDriverNotTheLinuxOneInside) {
  TempTree t;
  t.write("proc/sys/kernel/osrelease", "5.15.167.4-microsoft-standard-WSL2\n");
  t.write("usr/lib/wsl/lib/libcuda.so.1", "");
  t.write("etc/ld.so.conf.d/ld.wsl.conf", "/usr/lib/wsl/lib\n");
  t.write("usr/lib/x86_64-linux-gnu/libcuda.so.535.183.01", "");
  t.symlink("libcuda.so.535.183.01", "usr/lib/x86_64-linux-gnu/libcuda.so.1");
  auto facts_with = [&](const std::string& reg) {
    auto registry = parse_registry_export(reg, "host.reg");
    SystemView::Options o{t.str(), Platform::wsl2, {}, false, nullptr};
    if (!reg.empty()) o.registry = registry.get();
    SystemView system(o);
    return gather_facts(system, InventoryOptions{}, builtin_kb());
  };
  Facts f = facts_with(reg_header() + driver_keys("30.0.14.7212", "472.12"));
  ASSERT_TRUE(f.driver.version);
  EXPECT_EQ(f.driver.version->str(), "472.12");
  ASSERT_TRUE(f.driver.wsl2_linux_version);
  EXPECT_EQ(f.driver.wsl2_linux_version->str(), "535.183.01");
  auto fs = run_checks(f, &builtin_kb());
  EXPECT_TRUE(testing::has(fs, "driver-below-wsl2-floor"));
  auto inside = testing::find_copy(fs, "wsl2-linux-driver-installed");
  ASSERT_TRUE(inside);
  EXPECT_NE(inside->title.find("535.183.01"), std::string::npos) << inside->title;
  // Without the host's registry the driver is unknown, never the Linux one's version.
  Facts none = facts_with("");
  EXPECT_FALSE(none.driver.version);
  EXPECT_TRUE(none.driver.wsl2_linux_version);
  EXPECT_TRUE(testing::has(run_checks(none, &builtin_kb()), "wsl2-linux-driver-installed"));
}

// Review 45B, 8: the CUDA libraries of an active conda environment's Library\bin (on PATH) were
// origin "system"; they are that environment's.
TEST(WindowsReview45b, AnActiveCondaEnvironmentsLibrariesAreConda) {
  Machine m;
  m.tree.write("conda/envs/tf/conda-meta/history", "");
  m.tree.write("conda/envs/tf/python.exe", "");
  m.tree.write("conda/envs/tf/Library/bin/cudnn64_8.dll", "");
  m.tree.write("conda/envs/tf/Library/bin/cudart64_110.dll", "");
  m.tree.write("Tools/bin/cublas64_11.dll", "");
  m.env["CONDA_PREFIX"] = "C:\\conda\\envs\\tf";
  m.path("C:\\conda\\envs\\tf\\Library\\bin\\;C:\\Tools\\bin;C:\\Windows\\system32");
  Facts f = m.facts();
  std::map<std::string, std::string> origin;
  for (const LibraryFacts& l : f.libraries) origin[l.name] = l.origin;
  EXPECT_EQ(origin["cudnn"], "conda");
  EXPECT_EQ(origin["cudart"], "conda");
  EXPECT_EQ(origin["cublas"], "system") << "near miss: a folder on PATH that is no environment's";
}

}  // namespace
}  // namespace gpudoctor
