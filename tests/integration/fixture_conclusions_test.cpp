// What tests/fixtures/README.md says each scenario should conclude, asserted as facts,
// independently of the goldens (which the code itself produced): the versions found, the
// versions and floors named (read from the knowledge base, not written here), and the
// findings that must NOT appear. A golden that drifts from the README fails here.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "kb/knowledge_base.hpp"
#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kConclusionFixtures = GPUDOCTOR_FIXTURES_DIR;

const KnowledgeBase& kb() {
  static const KnowledgeBase k = [] {
    auto loaded = KnowledgeBase::load("");
    EXPECT_TRUE(loaded.has_value());
    return loaded ? std::move(*loaded) : KnowledgeBase{};
  }();
  return k;
}

Version ver(const std::string& s) {
  return Version::parse(s).value_or(Version{});
}

struct Doctor {
  int exit_code = -1;
  json report;

  [[nodiscard]] std::vector<json> findings(const std::string& id) const {
    std::vector<json> out;
    for (const auto& f : report["findings"]) {
      if (f["id"] == id) out.push_back(f);
    }
    return out;
  }
  [[nodiscard]] bool has(const std::string& id) const { return !findings(id).empty(); }
  /// Findings of a severity ("error", "warning").
  [[nodiscard]] std::vector<std::string> ids_of(const std::string& severity) const {
    std::vector<std::string> out;
    for (const auto& f : report["findings"]) {
      if (f["severity"] == severity) out.push_back(f["id"]);
    }
    return out;
  }
  /// The one finding `id` whose title names `who`; null json when none.
  [[nodiscard]] json finding_about(const std::string& id, const std::string& who) const {
    for (const auto& f : findings(id)) {
      if (f["title"].get<std::string>().find(who) != std::string::npos) return f;
    }
    return nullptr;
  }
  [[nodiscard]] const json& facts() const { return report["facts"]; }
  [[nodiscard]] json framework(const std::string& name) const {
    for (const auto& e : facts()["python_envs"]) {
      for (const auto& fw : e["frameworks"]) {
        if (fw["name"] == name) return fw;
      }
    }
    return nullptr;
  }
  [[nodiscard]] std::vector<std::string> toolkit_versions() const {
    std::vector<std::string> out;
    for (const auto& tk : facts()["toolkits"]) {
      if (tk["kind"] == "system" && tk["version"].is_string()) out.push_back(ver(tk["version"]).truncated(2).str());
    }
    std::sort(out.begin(), out.end());
    return out;
  }
};

Doctor doctor(const std::string& scenario) {
  fs::path dir = kConclusionFixtures / scenario;
  std::vector<std::string> args = {"--root", (dir / "root").string(), "--json"};
  if (fs::exists(dir / "env")) {
    args.push_back("--env-file");
    args.push_back((dir / "env").string());
  }
  std::ifstream in(dir / "args");
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) args.push_back(line);
  }
  if (fs::exists(dir / "registry.reg")) {
    args.push_back("--registry");
    args.push_back((dir / "registry.reg").string());
  }
  auto r = testing::run_gpudoctor(args);
  EXPECT_FALSE(r.json.is_null()) << scenario << ": " << r.out << r.err;
  return Doctor{r.exit_code, r.json.is_null() ? json::object({{"findings", json::array()}}) : r.json};
}

bool mentions(const json& f, const std::string& text) {
  for (const char* field : {"title", "detail", "fix"}) {
    if (f.contains(field) && f[field].is_string() && f[field].get<std::string>().find(text) != std::string::npos)
      return true;
  }
  return false;
}

std::string str(const json& j) {
  return j.is_null() ? "(null)" : j.dump();
}

const TfBuild& tf_linux(const char* series) {
  const TfBuild* b = kb().tf_build(ver(series), Platform::linux);
  EXPECT_NE(b, nullptr) << "no TensorFlow " << series << " row";
  static const TfBuild kNone{};
  return b != nullptr ? *b : kNone;
}

TEST(FixtureConclusions, TorchHealthy) {
  Doctor d = doctor("linux-torch-healthy");
  EXPECT_EQ(d.exit_code, 0);
  EXPECT_TRUE(d.ids_of("error").empty() && d.ids_of("warning").empty()) << str(d.report["summary"]);
  json torch = d.framework("torch");
  ASSERT_FALSE(torch.is_null());
  EXPECT_EQ(torch["version"], "2.3.1+cu121");
  EXPECT_EQ(torch["cuda_version"], "12.1");
  EXPECT_EQ(d.facts()["driver"]["version"], "550.54.14");
  EXPECT_EQ(d.facts()["driver"]["module_flavor"], "open");
  EXPECT_FALSE(d.has("toolkit-missing"));  // torch brings its own CUDA libraries
}

TEST(FixtureConclusions, Tf215WithCuda118AndCudnn86) {
  Doctor d = doctor("linux-tf215-cudnn86-mismatch");
  EXPECT_EQ(d.exit_code, 1);
  const TfBuild& b = tf_linux("2.15");
  ASSERT_TRUE(b.cuda && b.cudnn);
  json cudnn = d.finding_about("tf-cudnn-mismatch", "2.15.0");
  ASSERT_FALSE(cudnn.is_null());
  EXPECT_EQ(cudnn["severity"], "error");
  EXPECT_TRUE(mentions(cudnn, "cuDNN " + b.cudnn->str())) << str(cudnn);
  EXPECT_TRUE(mentions(cudnn, "8.6")) << str(cudnn);
  EXPECT_TRUE(mentions(cudnn, "tensorflow[and-cuda]==2.15")) << str(cudnn);
  // The CUDA 11.8 toolkit cannot serve a CUDA 12 build: the runtime TensorFlow loads is missing.
  json cuda = d.finding_about("framework-cuda-libraries-missing", "2.15.0");
  ASSERT_FALSE(cuda.is_null());
  EXPECT_EQ(cuda["severity"], "error");
  EXPECT_TRUE(mentions(cuda, "libcudart.so." + std::to_string(b.cuda->major()))) << str(cuda);
}

TEST(FixtureConclusions, NouveauGpuIsKnownAndTheDriverFloorIsNamed) {
  Doctor d = doctor("linux-nouveau");
  EXPECT_EQ(d.exit_code, 1);
  EXPECT_TRUE(d.has("nouveau-loaded"));
  EXPECT_TRUE(d.has("driver-missing"));
  // GA106 [GeForce RTX 3060] (the PCI database's name) is the RTX 3060 of the knowledge base.
  EXPECT_FALSE(d.has("gpu-model-unknown"));
  auto cc = kb().compute_capability("NVIDIA GeForce RTX 3060");
  ASSERT_TRUE(cc);
  ASSERT_EQ(d.facts()["gpus"].size(), 1u);
  EXPECT_EQ(d.facts()["gpus"][0]["compute_capability"], cc->str());
  // README: install the NVIDIA driver >= the cu121 floor.
  auto floor = kb().family_min_driver(ver("12.1"), Platform::linux);
  ASSERT_TRUE(floor);
  bool named = false;
  for (const auto& f : d.report["findings"]) named = named || mentions(f, "driver >= " + floor->str());
  EXPECT_TRUE(named) << "no finding names the driver floor " << floor->str();
}

TEST(FixtureConclusions, Wsl2Healthy) {
  Doctor d = doctor("wsl2-torch-cu128");
  EXPECT_EQ(d.exit_code, 0);
  EXPECT_EQ(d.facts()["platform"], "wsl2");
  EXPECT_TRUE(d.ids_of("error").empty());
  for (const char* id : {"driver-missing", "nouveau-loaded", "wsl2-linux-driver-installed", "wsl2-no-driver-libraries"})
    EXPECT_FALSE(d.has(id)) << id;
  json torch = d.framework("torch");
  ASSERT_FALSE(torch.is_null());
  EXPECT_EQ(torch["variant"], "cu128");
}

TEST(FixtureConclusions, Wsl2LinuxDriverInside) {
  Doctor d = doctor("wsl2-linux-driver-installed");
  EXPECT_EQ(d.exit_code, 1);
  auto f = d.findings("wsl2-linux-driver-installed");
  ASSERT_EQ(f.size(), 1u);
  // The distribution's own libcuda (not the one under /usr/lib/wsl) is the evidence.
  EXPECT_NE(f[0]["evidence"].dump().find("/usr/lib/x86_64-linux-gnu/libcuda.so.1"), std::string::npos)
      << f[0]["evidence"].dump();
  EXPECT_TRUE(mentions(f[0], "purge")) << str(f[0]);
}

TEST(FixtureConclusions, DriverTooOldForCu121) {
  Doctor d = doctor("linux-driver-too-old");
  EXPECT_EQ(d.exit_code, 1);
  EXPECT_EQ(d.facts()["driver"]["version"], "470.223.02");
  auto floor = kb().family_min_driver(ver("12.1"), Platform::linux);
  ASSERT_TRUE(floor);
  json f = d.finding_about("driver-too-old-for-framework", "2.3.1");
  ASSERT_FALSE(f.is_null());
  EXPECT_TRUE(mentions(f, floor->str())) << str(f);
  EXPECT_FALSE(d.has("driver-too-old-for-gpu"));  // Turing runs on 470
  EXPECT_EQ(d.toolkit_versions(), (std::vector<std::string>{"10.2"}));
}

TEST(FixtureConclusions, CpuOnlyBuildsOneFindingPerFramework) {
  Doctor d = doctor("linux-cpu-only-builds");
  auto f = d.findings("framework-cpu-only");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_FALSE(d.finding_about("framework-cpu-only", "tensorflow-cpu 2.15.0").is_null());
  EXPECT_FALSE(d.finding_about("framework-cpu-only", "torch 2.3.1+cpu").is_null());
  EXPECT_TRUE(mentions(d.finding_about("framework-cpu-only", "tensorflow-cpu"), "tensorflow[and-cuda]"));
}

TEST(FixtureConclusions, SeveralToolkitsAndTf115NeedsCuda100) {
  Doctor d = doctor("linux-several-toolkits");
  EXPECT_EQ(d.exit_code, 1);
  EXPECT_EQ(d.toolkit_versions(), (std::vector<std::string>{"11.8", "12.2", "12.4"}));
  EXPECT_TRUE(d.has("several-toolkits"));
  const TfBuild& b215 = tf_linux("2.15");
  json cudnn = d.finding_about("tf-cudnn-mismatch", "2.15.0");
  ASSERT_FALSE(cudnn.is_null());
  EXPECT_TRUE(mentions(cudnn, "cuDNN " + b215.cudnn->str()) && mentions(cudnn, "8.6")) << str(cudnn);
  // README: TF 1.15 needs CUDA 10.0, which is absent.
  const TfBuild& b115 = tf_linux("1.15");
  ASSERT_TRUE(b115.cuda);
  EXPECT_EQ(b115.cuda->str(), "10.0");
  json tf1 = d.finding_about("tf-cuda-mismatch", "1.15.5");
  ASSERT_FALSE(tf1.is_null());
  EXPECT_TRUE(mentions(tf1, "CUDA " + b115.cuda->str())) << str(tf1);
  EXPECT_TRUE(d.finding_about("tf-framework-unknown", "1.15").is_null());
}

TEST(FixtureConclusions, EmptyCudaVisibleDevicesIsTheOnlyError) {
  Doctor d = doctor("linux-cuda-visible-devices-empty");
  EXPECT_EQ(d.exit_code, 1);
  EXPECT_EQ(d.ids_of("error"), (std::vector<std::string>{"cuda-visible-devices-hides-all"}));
}

TEST(FixtureConclusions, NoNvidiaGpuNothingToFix) {
  Doctor d = doctor("linux-no-nvidia");
  EXPECT_EQ(d.exit_code, 0);
  EXPECT_TRUE(d.ids_of("error").empty());
  EXPECT_TRUE(d.facts()["gpus"].empty()) << d.facts()["gpus"].dump();
  // No card: a CPU jaxlib is said, but it is not a fault.
  for (const auto& f : d.findings("framework-cpu-only")) EXPECT_EQ(f["severity"], "info") << str(f);
}

TEST(FixtureConclusions, Tf215OnNativeWindows) {
  Doctor d = doctor("windows-tf215-native");
  EXPECT_EQ(d.exit_code, 1);
  auto f = d.findings("tf-native-windows-no-gpu");
  ASSERT_EQ(f.size(), 1u);
  const Version& last = kb().tensorflow.windows_gpu_last;
  const TfBuild* w = kb().tf_build(last, Platform::windows);
  ASSERT_TRUE(w != nullptr && w->cuda && w->cudnn);
  EXPECT_TRUE(mentions(f[0], "WSL2")) << str(f[0]);
  EXPECT_TRUE(mentions(f[0], "TensorFlow " + last.str())) << str(f[0]);
  EXPECT_TRUE(mentions(f[0], "CUDA " + w->cuda->truncated(2).str())) << str(f[0]);
  EXPECT_TRUE(mentions(f[0], "cuDNN " + w->cudnn->str())) << str(f[0]);
  EXPECT_TRUE(mentions(f[0], "Python " + w->python.text())) << str(f[0]);
  EXPECT_TRUE(mentions(f[0], "--script powershell")) << str(f[0]);
  for (const char* id : {"framework-cpu-only", "tf-cudnn-mismatch", "tf-cuda-libs-missing", "windows-dll-not-found"})
    EXPECT_FALSE(d.has(id)) << id;
  // From the registry export: the driver, the Windows 11 build, the registered toolkit and Python.
  EXPECT_EQ(d.facts()["driver"]["version"], "546.33");
  EXPECT_EQ(d.facts()["windows"]["build"], "22631");
  EXPECT_EQ(d.facts()["windows"]["python_registrations"].size(), 1u);
}

TEST(FixtureConclusions, Tf210OnNativeWindowsDoneRight) {
  Doctor d = doctor("windows-tf210-native-gpu");
  EXPECT_EQ(d.exit_code, 0);
  EXPECT_TRUE(d.ids_of("error").empty());
  for (const char* id : {"tf-native-windows-no-gpu", "tf-cuda-mismatch", "tf-cudnn-mismatch", "tf-cuda-libs-missing"})
    EXPECT_FALSE(d.has(id)) << id;
  json tf = d.framework("tensorflow");
  ASSERT_FALSE(tf.is_null());
  EXPECT_EQ(tf["version"], "2.10.0");
  EXPECT_EQ(ver(tf["cuda_version"]).truncated(2).str(), "11.2");
  // TensorFlow's own loader finds every CUDA DLL on PATH (the toolkit's bin), the MSVC runtime in System32.
  size_t loads = 0;
  for (const auto& l : d.facts()["windows"]["dll_loads"]) {
    ++loads;
    EXPECT_FALSE(l["path"].is_null()) << l.dump();
    if (l["loader"] == "tensorflow-dso-loader") EXPECT_EQ(l["via"], "PATH") << l.dump();
  }
  EXPECT_GE(loads, 15u) << "2 MSVC runtime DLLs, 6 CUDA libraries and 7 cuDNN 8 libraries";
  EXPECT_EQ(d.facts()["driver"]["version"], "516.94");
  // Its cudnn64_8.dll (an empty file here) has no version resource: the header beside it speaks.
  for (const auto& l : d.facts()["windows"]["dll_loads"]) {
    if (l["dll"] != "cudnn64_8.dll") continue;
    EXPECT_EQ(l["version"], "8.1.0") << l.dump();
    EXPECT_TRUE(l["version_source"].is_string() &&
                l["version_source"].get<std::string>().find("cudnn_version.h") != std::string::npos)
        << l.dump();
  }
  EXPECT_FALSE(d.has("windows-cudnn-too-old"));
  EXPECT_FALSE(d.has("windows-cudnn-version-unknown"));
}

TEST(FixtureConclusions, Tf210WithAnOlderCudnnMinorOnNativeWindows) {
  // The same setup with cuDNN 8.0.5 copied into CUDA v11.2: cudnn64_8.dll, as TF 2.10 opens by
  // name, but older than the cuDNN 8.1 it was built with.
  Doctor d = doctor("windows-tf210-cudnn80-too-old");
  EXPECT_EQ(d.exit_code, 1);
  const TfBuild* b = kb().tf_build(ver("2.10.0"), Platform::windows);
  ASSERT_TRUE(b && b->cudnn && b->cuda);
  auto f = d.findings("windows-cudnn-too-old");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0]["severity"], "error");
  EXPECT_TRUE(mentions(f[0], "cuDNN 8.0.5")) << str(f[0]);
  EXPECT_TRUE(mentions(f[0], "cuDNN " + b->cudnn->str() + " it was built with")) << str(f[0]);
  EXPECT_TRUE(mentions(f[0], "cuDNN " + b->cudnn->str() + " for CUDA " + b->cuda->truncated(2).str())) << str(f[0]);
  // One finding for one problem: the library listing's tf-cudnn-mismatch gives way to the loader's.
  for (const char* id :
       {"windows-dll-not-found", "windows-cudnn-version-unknown", "tf-native-windows-no-gpu", "tf-cudnn-mismatch"})
    EXPECT_FALSE(d.has(id)) << id;
  // The version is the DLL's own word, its version resource.
  bool seen = false;
  for (const auto& l : d.facts()["windows"]["dll_loads"]) {
    if (l["dll"] != "cudnn64_8.dll") continue;
    seen = true;
    EXPECT_EQ(l["version"], "8.0.5.39") << l.dump();
    EXPECT_TRUE(l["version_source"].is_string() &&
                l["version_source"].get<std::string>().find("file version 8.0.5.39") != std::string::npos)
        << l.dump();
  }
  EXPECT_TRUE(seen);
}

TEST(FixtureConclusions, TorchCu124InACondaEnvironment) {
  Doctor d = doctor("windows-torch-cu124-conda");
  EXPECT_EQ(d.exit_code, 0);
  EXPECT_TRUE(d.ids_of("error").empty());
  EXPECT_TRUE(d.ids_of("warning").empty());
  // No --gpu: the card and the driver come from the registry export alone.
  ASSERT_EQ(d.facts()["gpus"].size(), 1u);
  EXPECT_EQ(d.facts()["gpus"][0]["name"], "NVIDIA GeForce RTX 4070");
  EXPECT_EQ(d.facts()["gpus"][0]["source"], "registry");
  EXPECT_EQ(d.facts()["driver"]["version"], "560.94");
  json torch = d.framework("torch");
  ASSERT_FALSE(torch.is_null());
  EXPECT_EQ(torch["version"], "2.5.1+cu124");
  for (const auto& l : d.facts()["windows"]["dll_loads"]) {
    EXPECT_EQ(l["loader"], "torch-dll-loader") << l.dump();
    EXPECT_FALSE(l["path"].is_null()) << l.dump();
  }
  // The conda base is registered (PEP 514) and found; the environment through CONDA_PREFIX.
  EXPECT_EQ(d.facts()["windows"]["python_registrations"][0]["company"], "ContinuumAnalytics");
}

// torch 2.4.0's libtorch_cuda.so carries DT_RPATH $ORIGIN/../../nvidia/cudnn/lib (readelf -d on
// the PyPI wheel), searched before LD_LIBRARY_PATH: the older copy there shadows the wheel for
// other programs, not for torch, which still loads the 9.1.0.70 it was installed with.
TEST(FixtureConclusions, PipCudnnShadowed) {
  Doctor d = doctor("linux-pip-cudnn-shadowed");
  EXPECT_EQ(d.exit_code, 0);
  auto f = d.findings("pip-library-shadowed");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_TRUE(mentions(f[0], "9.0.0") && mentions(f[0], "9.1.0.70")) << str(f[0]);
  EXPECT_TRUE(mentions(f[0], "LD_LIBRARY_PATH")) << str(f[0]);
  EXPECT_TRUE(mentions(f[0], "torch 2.4.0 still loads the wheel")) << str(f[0]);
}

TEST(FixtureConclusions, PascalWithTorchCu128) {
  Doctor d = doctor("linux-pascal-torch-cu128");
  EXPECT_EQ(d.exit_code, 1);
  auto f = d.findings("gpu-arch-unsupported-by-framework");
  ASSERT_EQ(f.size(), 1u);
  // The fix names a variant of the same release whose kernels cover sm_61, from the table.
  const TorchRelease* r = kb().torch_release(ver("2.8.0"));
  ASSERT_NE(r, nullptr);
  const auto cc = kb().compute_capability("NVIDIA GeForce GTX 1080 Ti");
  ASSERT_TRUE(cc);
  std::string covering;
  for (const auto& v : r->variants) {
    if (kb().torch_coverage(v, *cc, Platform::linux) == ArchCoverage::native) covering = v.tag;
  }
  ASSERT_FALSE(covering.empty());
  EXPECT_TRUE(mentions(f[0], covering)) << covering << ": " << str(f[0]);
}

TEST(FixtureConclusions, TeslaK80WithDebiansDriver535) {
  Doctor d = doctor("linux-k80-driver-535");
  EXPECT_EQ(d.exit_code, 1);
  // Both GPUs of the board, seen only on the PCI bus, named by the embedded PCI ID database.
  ASSERT_EQ(d.facts()["gpus"].size(), 2u);
  for (const auto& g : d.facts()["gpus"]) EXPECT_EQ(g["pci_device_id"], "102d") << g.dump();
  auto f = d.findings("driver-drops-gpu");
  ASSERT_EQ(f.size(), 1u);  // one finding, both buses as evidence
  EXPECT_EQ(f[0]["severity"], "error");
  const LegacyDriverBranch* b = kb().legacy_branch("102d");
  ASSERT_NE(b, nullptr);
  EXPECT_TRUE(mentions(f[0], b->branch)) << str(f[0]);
  EXPECT_TRUE(mentions(f[0], "535.261.03")) << str(f[0]);
  const DriverBranchPackage* p = kb().branch_package("debian", "12", b->major);
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(mentions(f[0], "apt-get install " + p->package)) << str(f[0]);
  const CudaDriverRow* newest = kb().newest_toolkit_for_branch(b->major);
  ASSERT_NE(newest, nullptr);
  EXPECT_TRUE(mentions(f[0], "CUDA " + newest->cuda.truncated(2).str() + " is the newest toolkit")) << str(f[0]);
  EXPECT_EQ(f[0]["evidence"].size(), 3u) << str(f[0]);  // two buses, the driver
  // Not "driver too old": the driver is too new for this card.
  EXPECT_FALSE(d.has("driver-too-old-for-gpu"));
  EXPECT_FALSE(d.has("driver-missing"));
}

TEST(FixtureConclusions, JaxCuda12Healthy) {
  Doctor d = doctor("linux-jax-cuda12");
  EXPECT_EQ(d.exit_code, 0);
  EXPECT_TRUE(d.ids_of("error").empty() && d.ids_of("warning").empty());
  EXPECT_EQ(d.facts()["gpus"].size(), 2u);
  json jax = d.framework("jax");
  ASSERT_FALSE(jax.is_null());
  EXPECT_EQ(jax["cuda_build"], true);
}

// onnxruntime-gpu, detected from its own wheel's artefacts (capi/version_info.py on Windows, the
// CUDA provider's DT_NEEDED names on Linux) and its provider's DLL search modelled.
TEST(FixtureConclusions, OnnxruntimeCuda12WithOnlyCuda11OnWindowsPath) {
  Doctor d = doctor("windows-ort-cu12-with-cuda11");
  EXPECT_EQ(d.exit_code, 1);
  json ort = d.framework("onnxruntime");
  ASSERT_FALSE(ort.is_null());
  EXPECT_EQ(ort["package"], "onnxruntime-gpu");
  EXPECT_EQ(ort["cuda_version"], "12.2.128");
  EXPECT_EQ(ort["cudnn_version"], "9");
  json f = d.finding_about("windows-dll-not-found", "ONNX Runtime");
  ASSERT_FALSE(f.is_null()) << d.report["findings"].dump();
  EXPECT_EQ(f["severity"], "error");
  EXPECT_TRUE(mentions(f, "cudart64_12.dll") && mentions(f, "cublas64_12.dll") && mentions(f, "cudnn64_9.dll"))
      << str(f);
  // 1.20.2 has neither the [cuda,cudnn] extras nor preload_dlls() (its METADATA has no
  // Provides-Extra, its __init__.py no preload_dlls): the wheels by name, or an upgrade to 1.21.
  EXPECT_FALSE(mentions(f, "[cuda,cudnn]==1.20.2")) << str(f);
  EXPECT_TRUE(mentions(f, "nvidia-cublas-cu12")) << str(f);
  EXPECT_TRUE(mentions(f, "1.21")) << str(f);
  // The CUDA 11 copies on PATH are found, and are not what this build imports: nothing of them is flagged.
  EXPECT_FALSE(mentions(f, "cudart64_110.dll")) << str(f);
  size_t provider_loads = 0;
  for (const auto& l : d.facts()["windows"]["dll_loads"]) {
    if (l["loader"] == "onnxruntime-provider-bridge") ++provider_loads;
  }
  EXPECT_EQ(provider_loads, 6u) << "cudart, cublas, cublasLt, cufft, curand and cuDNN 9";
  // The Microsoft Store Python's user site-packages (its package's LocalCache) is searched: the CPU
  // onnxruntime installed there is found, as a CPU build.
  bool store_seen = false;
  for (const auto& e : d.facts()["python_envs"]) {
    if (e["kind"] != "store") continue;
    store_seen = true;
    EXPECT_EQ(e["python_version"], "3.12");
    EXPECT_NE(e["interpreter"].get<std::string>().find("python3.12.exe"), std::string::npos) << e.dump();
    ASSERT_EQ(e["frameworks"].size(), 1u) << e.dump();
    EXPECT_EQ(e["frameworks"][0]["package"], "onnxruntime");
    EXPECT_EQ(e["frameworks"][0]["variant"], "cpu");
  }
  EXPECT_TRUE(store_seen) << d.facts()["python_envs"].dump();
}

// onnxruntime-gpu 1.31.1 from PyPI is a CUDA 13 build (capi/version_info.py: 13.0.88; its provider
// DLL imports cublas64_13.dll and cublasLt64_13.dll, and loads cudart64_13.dll, cufft64_12.dll and
// cudnn64_9.dll by name). The review of session 36 saw "No issues found" with CUDA 11/12 on PATH and a
// 560 driver: the DLL model knew only CUDA 11 and 12 names, and no driver floor was checked.
TEST(FixtureConclusions, OnnxruntimeCuda13OnWindowsNeedsItsDllsAndA580Driver) {
  Doctor d = doctor("windows-ort-cu13-driver560");
  EXPECT_EQ(d.exit_code, 1);
  json ort = d.framework("onnxruntime");
  ASSERT_FALSE(ort.is_null());
  EXPECT_EQ(ort["cuda_version"], "13.0.88");
  json f = d.finding_about("windows-dll-not-found", "ONNX Runtime");
  ASSERT_FALSE(f.is_null()) << d.report["findings"].dump();
  EXPECT_EQ(f["severity"], "error");
  EXPECT_TRUE(mentions(f, "cublas64_13.dll") && mentions(f, "cublasLt64_13.dll") && mentions(f, "cudart64_13.dll"))
      << str(f);
  EXPECT_FALSE(mentions(f, "cublas64_12.dll")) << str(f);
  EXPECT_TRUE(mentions(f, "onnxruntime-gpu[cuda,cudnn]")) << str(f);  // 1.31.1 has the extras
  json drv = d.finding_about("driver-too-old-for-framework", "ONNX Runtime");
  ASSERT_FALSE(drv.is_null()) << d.report["findings"].dump();
  EXPECT_EQ(drv["severity"], "error");
}

TEST(FixtureConclusions, OnnxruntimeCuda12WithOnlyCuda11OnLinux) {
  Doctor d = doctor("linux-ort-cu12-with-cuda11");
  EXPECT_EQ(d.exit_code, 1);
  json ort = d.framework("onnxruntime");
  ASSERT_FALSE(ort.is_null());
  EXPECT_EQ(ort["cuda_version"], "12");  // the provider links libcudart.so.12
  EXPECT_EQ(ort["cudnn_version"], "9");
  json f = d.finding_about("framework-cuda-libraries-missing", "ONNX Runtime");
  ASSERT_FALSE(f.is_null()) << d.report["findings"].dump();
  EXPECT_TRUE(mentions(f, "libcudart.so.12") && mentions(f, "libcudnn.so.9")) << str(f);
  EXPECT_FALSE(mentions(f, "[cuda,cudnn]==1.20.2")) << str(f);  // 1.20.2 has no extras
  EXPECT_TRUE(mentions(f, "LD_LIBRARY_PATH")) << str(f);
}

}  // namespace
}  // namespace gpudoctor
