#include "check/windows_checks.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "check/onnxruntime_fix.hpp"
#include "check/which_pip.hpp"
#include "core/text.hpp"
#include "kb/knowledge_base.hpp"
#include "model/framework.hpp"

namespace gpudoctor {
namespace {

/// Where each loader's search order is read from (probe/windows_dll_search.cpp says how).
constexpr const char* kTensorflowLoaderSource =
    "tensorflow/tsl/platform/windows/load_library.cc (tensorflow@4e731f4): LoadLibraryExW(name, NULL, "
    "LOAD_WITH_ALTERED_SEARCH_PATH)";
constexpr const char* kTorchLoaderSource =
    "torch/__init__.py _load_dll_libraries (pytorch@0027c65): os.add_dll_directory + LoadLibraryExW(0x00001100), "
    "LoadLibraryW with PATH as the fallback";
constexpr const char* kOnnxruntimeLoaderSource =
    "onnxruntime/core/session/provider_bridge_ort.cc (onnxruntime@0077338): capi\\onnxruntime_providers_cuda.dll "
    "loaded by full path with LoadLibraryExW(LOAD_WITH_ALTERED_SEARCH_PATH) (onnxruntime/core/platform/windows/"
    "env.cc); https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements";
constexpr const char* kPythonImportSource =
    "https://docs.python.org/3/whatsnew/3.8.html#bpo-36085-whatsnew (extension modules' DLL dependencies: "
    "PATH is no longer searched); tensorflow/python/platform/self_check.py (msvcp_dll_names)";
constexpr const char* kTfCudnnRuleSource =
    "tensorflow/stream_executor/cuda/cudnn_version.cc IsSourceCompatibleWithCudnnLibrary (tensorflow@c3bd2f4), "
    "called by CudnnSupport::Init in tensorflow/stream_executor/cuda/cuda_dnn.cc; the build's cuDNN: "
    "https://www.tensorflow.org/install/source_windows#gpu";
constexpr const char* kRedistUrl = "https://aka.ms/vs/17/release/vc_redist.x64.exe";

/// The DLLs of the Visual C++ Redistributable 2015-2022 (x64): the C++ library and its later
/// additions (msvcp140_1.dll, msvcp140_2.dll, msvcp140_atomic_wait.dll, msvcp140_codecvt_ids.dll),
/// the runtime, the Concurrency Runtime and OpenMP (vcomp140.dll).
bool is_msvc_runtime(const std::string& dll) {
  const std::string d = to_lower(dll);
  return d.starts_with("msvcp140") || d.starts_with("vcruntime140") || d == "concrt140.dll" || d == "vcomp140.dll" ||
         d == "vccorlib140.dll";
}

/// "cudnn64_9.dll: not found by torch-dll-loader (imported by C:\...\torch_cuda.dll)".
std::string not_found_line(const DllLoad& l) {
  std::string s = l.wrong_machine.empty() ? l.dll + ": not found by " + l.loader
                                          : l.path + ": found by " + l.loader + " but " + l.wrong_machine +
                                                ", which a 64-bit python.exe cannot load (error 193)";
  if (!l.needed_by.empty()) {
    s += l.delay_loaded ? " (delay-loaded by " + l.needed_by + ": needed when first called)"
                        : " (imported by " + l.needed_by + ")";
  }
  return s;
}

/// A DLL named by the import table of a file outside the framework's package (probe
/// `dependencies`: a toolkit's DLL the framework loads), not by the framework's own files.
bool imported_from_elsewhere(const DllLoad& l, const std::string& location, const std::string& package) {
  if (l.needed_by.empty() || location.empty()) return false;
  // One spelling for both: lower case, backslashes, no trailing separator on the location.
  auto norm = [](std::string p) {
    std::replace(p.begin(), p.end(), '/', '\\');
    while (p.size() > 3 && p.back() == '\\') p.pop_back();
    return to_lower(p);
  };
  return !norm(l.needed_by).starts_with(norm(location) + "\\" + to_lower(package) + "\\");
}

/// The file name of a Windows path ("C:\x\torch_cuda.dll" -> "torch_cuda.dll").
std::string file_name(const std::string& path) {
  auto slash = path.find_last_of("\\/");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string parent_dir(const std::string& path) {
  auto slash = path.find_last_of("\\/");
  return slash == std::string::npos ? path : path.substr(0, slash);
}

struct Group {
  const PythonEnvFacts* env = nullptr;
  const FrameworkFacts* fw = nullptr;
  std::vector<const DllLoad*> missing;
};

class WindowsChecker {
 public:
  WindowsChecker(const Facts& facts, const KnowledgeBase& kb) : facts_(facts), kb_(kb) {}

  std::vector<Finding> run() {
    if (facts_.platform == Platform::windows && facts_.windows) {
      dll_groups();
      registrations();
    }
    tensorflow_gpu_package();  // on every platform: pip fails the same way everywhere
    return std::move(out_);
  }

 private:
  const FrameworkFacts* framework(const PythonEnvFacts& env, const std::string& name) const {
    for (const FrameworkFacts& fw : env.frameworks) {
      if (fw.name == name) return &fw;
    }
    return nullptr;
  }

  const PythonEnvFacts* env_at(const std::string& path) const {
    auto env = std::find_if(facts_.python_envs.begin(), facts_.python_envs.end(),
                            [&](const PythonEnvFacts& e) { return e.path == path; });
    return env == facts_.python_envs.end() ? nullptr : &*env;
  }

  /// The conda-forge cuDNN for a build's tested cuDNN: conda-forge versions cuDNN with three
  /// parts (8.1.0 for the tested 8.1), which the knowledge base holds for that series.
  std::string conda_cudnn_for(const Version& tested) const {
    const std::optional<Version>& conda = kb_.tensorflow.windows_gpu_conda_cudnn;
    return conda && conda->truncated(2) == tested.truncated(2) ? conda->str() : tested.str();
  }

  void dll_groups() {
    std::map<std::pair<std::string, std::string>, Group> runtime;  // (env, framework)
    std::map<std::pair<std::string, std::string>, Group> cuda;
    std::map<std::pair<std::string, std::string>, Group> outside_wheel;  // torch: not in its wheel
    std::map<std::pair<std::string, std::string>, Group> dependency;     // imported by a DLL from elsewhere
    for (const DllLoad& l : facts_.windows->dll_loads) {
      if (!l.path.empty() && l.wrong_machine.empty()) {
        if (l.framework == "tensorflow" && l.dll.starts_with("cudnn64_")) tensorflow_cudnn_version(l);
        continue;
      }
      const PythonEnvFacts* env = env_at(l.env);
      if (env == nullptr) continue;
      const FrameworkFacts* fw = framework(*env, l.framework);
      if (fw == nullptr) continue;
      Group& g = (is_msvc_runtime(l.dll)                               ? runtime
                  : imported_from_elsewhere(l, fw->location, fw->name) ? dependency
                  : !l.in_wheel.value_or(true)                         ? outside_wheel
                                                                       : cuda)[{l.env, l.framework}];
      g.env = env;
      g.fw = fw;
      g.missing.push_back(&l);
    }
    for (const auto& [key, g] : runtime) msvc_runtime(g);
    for (const auto& [key, g] : cuda) cuda_dlls(g);
    for (const auto& [key, g] : outside_wheel) dlls_outside_wheel(g);
    for (const auto& [key, g] : dependency) dependency_dlls(g);
  }

  /// A DLL the framework loads from outside its package (a CUDA toolkit's, cuDNN's) imports one
  /// that none of the loader's folders holds (probe/windows_dll_search.cpp `dependencies`):
  /// loading the importing DLL fails with error 126 though that DLL itself is there. Reinstalling
  /// the framework cannot help; what installed the importing DLL should have brought it.
  void dependency_dlls(const Group& g) {
    const FrameworkFacts& fw = *g.fw;
    const std::string name = installed_display_name(fw.name) + " " + fw.version.str();
    std::vector<std::string> pairs;
    std::vector<std::string> importers;
    std::vector<std::string> evidence{fw.location.empty() ? g.env->path : fw.location};
    bool zlib = false;
    bool wrong_machine = false;
    for (const DllLoad* l : g.missing) {
      wrong_machine = wrong_machine || !l->wrong_machine.empty();
      pairs.push_back(l->dll + " (imported by " + l->needed_by + ")");
      if (std::find(importers.begin(), importers.end(), l->needed_by) == importers.end()) {
        importers.push_back(l->needed_by);
      }
      evidence.push_back(not_found_line(*l));
      for (const std::string& u : l->unreached) evidence.push_back(u + " (not searched by " + l->loader + ")");
      zlib = zlib || iequals(l->dll, "zlibwapi.dll");
    }
    const std::string loader = g.missing.front()->loader;
    std::string consequence;
    std::string source;
    if (loader == "tensorflow-dso-loader") {
      consequence = "TensorFlow logs \"Could not load dynamic library '" + file_name(importers.front()) +
                    "'\" and runs without it (on the CPU)";
      source = kTensorflowLoaderSource;
    } else if (loader == "onnxruntime-provider-bridge") {
      consequence =
          "ONNX Runtime's CUDA provider fails to load (\"LoadLibrary failed with error 126\") and the "
          "session runs on the CPU";
      source = kOnnxruntimeLoaderSource;
    } else if (loader == "torch-dll-loader") {
      consequence = "`import torch` fails with WinError 126";
      source = kTorchLoaderSource;
    } else {
      consequence = "the import fails (\"DLL load failed\")";
      source = kPythonImportSource;
    }
    std::string fix;
    if (zlib) {
      fix =
          "zlibwapi.dll is zlib's Windows DLL, which cuDNN 8's DLLs import and its Windows package does not "
          "bring (NVIDIA's cuDNN installation guide for Windows installs it separately): put the 64-bit "
          "zlibwapi.dll (zlib's dll_x64 build; a 32-bit one fails with error 193) in " +
          parent_dir(importers.front()) + " or another folder on PATH, then open a new terminal.";
    }
    // A copy for another machine is found first and stays first: it must be replaced, not added to.
    std::vector<std::string> wrong;
    for (const DllLoad* l : g.missing) {
      if (!l->wrong_machine.empty()) wrong.push_back(l->path + " (" + l->wrong_machine + ")");
    }
    if (!wrong.empty()) {
      fix = "Replace " + join(wrong, ", ") +
            " with the 64-bit (x64) build of the same DLL: the loader finds it first, so a 64-bit copy put elsewhere "
            "on PATH is never reached" +
            (zlib ? std::string(" (for zlibwapi.dll, zlib's dll_x64 build).") : std::string("."));
    } else if (!zlib) {
      fix = "Reinstalling " + installed_display_name(fw.name) + " does not bring it: reinstall what installed " +
            parent_dir(importers.front()) +
            " (the CUDA toolkit or cuDNN of that version), or put the folder that holds the missing DLL on PATH. "
            "`dumpbin /dependents \"" +
            importers.front() + "\"` lists what it imports.";
    }
    out_.push_back(Finding{
        .id = "windows-dll-dependency-missing",
        .severity = facts_.gpus.empty() && fw.name != "torch" ? Severity::warning : Severity::error,
        .area = FindingArea::python,
        .title = name + ": a DLL it loads from outside its package needs " + join(pairs, ", ") +
                 (wrong_machine ? ", and the copy its loader finds is not a 64-bit DLL"
                                : ", which no folder its loader searches holds"),
        .detail = name + " loads " + join(importers, ", ") + ", which import" + (importers.size() == 1 ? "s" : "") +
                  " DLLs that Windows looks for in the importing DLL's folder and the loader's folders and does not "
                  "find" +
                  (wrong_machine ? " as a 64-bit DLL; loading " + file_name(importers.front()) +
                                       " fails with error 193 (\"%1 is not a valid Win32 application\")"
                                 : "; loading " + file_name(importers.front()) + " fails with error 126") +
                  " though the file is there, and " + consequence + ".",
        .fix = fix,
        .evidence = evidence,
        .source = source});
  }

  /// TensorFlow checks the cuDNN it loads against the one it was compiled with when it first
  /// creates a cuDNN handle: the same major, and a minor no older ("Loaded runtime CuDNN library:
  /// 8.0.5 but source was compiled with: 8.1.0"). A newer minor of the same major passes: "Minor
  /// version is backward-compatible and therefore minor version of library needs to be same or
  /// higher" (IsSourceCompatibleWithCudnnLibrary, kTfCudnnRuleSource). The file name says only
  /// the major; the minor comes from the DLL's file version or the header beside it.
  void tensorflow_cudnn_version(const DllLoad& l) {
    const PythonEnvFacts* env = env_at(l.env);
    if (env == nullptr) return;
    const FrameworkFacts* fw = framework(*env, l.framework);
    if (fw == nullptr) return;
    // build_info.py on Windows says only "64_8"; the tested build table gives the minor.
    const TfBuild* b = kb_.tf_build(fw->version, Platform::windows);
    if (b == nullptr || !b->cudnn || b->cudnn->parts().size() < 2) return;
    const std::string name = installed_display_name(fw->name) + " " + fw->version.str();
    const std::string built = b->cudnn->str();
    const std::string dir = parent_dir(l.path);
    if (l.version && l.version->major() != b->cudnn->major()) return;  // the name's major: not this file's
    // The folder stands alone in one line, so that its library line loses its tick (checks.cpp).
    std::vector<std::string> evidence{
        l.path + " (found by " + l.loader + " via " + l.via + ")",
        "cuDNN in " + dir + " (" + (l.version ? l.version_source : l.version_problem) + ")",
        name + " built with cuDNN " + built + " (" + b->source + ")"};
    if (!l.version) {
      // A warning, not a note: an older minor is refused, and nothing here says this is not one.
      out_.push_back(Finding{
          .id = "windows-cudnn-version-unknown",
          .severity = Severity::warning,
          .area = FindingArea::python,
          .title = name + ": the version of " + l.path + " could not be read (in " + env->path + ")",
          .detail = name + " was built with cuDNN " + built + " and refuses an older cuDNN " +
                    std::to_string(b->cudnn->major()) +
                    ".x when it starts using the GPU. The file name says only the major; neither the DLL's file "
                    "version nor a cudnn_version.h beside it says which " +
                    std::to_string(b->cudnn->major()) + ".x this is (" + l.version_problem + ").",
          .fix = "Check the cuDNN in " + dir + " (the DLL's Properties > Details > File version): it must be cuDNN " +
                 built + " or a later " + std::to_string(b->cudnn->major()) + ".x.",
          .evidence = evidence,
          .source = kTfCudnnRuleSource});
      return;
    }
    if (l.version->minor() >= b->cudnn->minor()) return;
    const std::string c = b->cuda ? b->cuda->truncated(2).str() : std::string();
    const std::string conda_cudnn = conda_cudnn_for(*b->cudnn);
    const std::string loaded = l.version->truncated(3).str();
    // A copy in a folder searched before PATH (System32, the Windows folder, python.exe's folder:
    // some guides put it there) shadows every folder on PATH, a conda environment's Library\bin
    // included: it has to go, and none of those folders has a cuDNN include\ beside it.
    const bool before_path = !l.via.starts_with("PATH");
    std::string fix;
    if (before_path) {
      const std::string where = l.via == "application folder" ? "python.exe's folder"
                                : l.via == "Windows folder"   ? "the Windows folder"
                                                              : l.via;
      fix = "Remove " + l.path + " (cuDNN " + loaded + "): " + where +
            " is searched before PATH, so no other cuDNN is reached while it is there. "
            "Then install cuDNN " +
            built + (c.empty() ? "" : " for CUDA " + c) +
            " in the CUDA toolkit's bin\\ folder and keep that folder on PATH";
    } else {
      fix = "Install cuDNN " + built + (c.empty() ? "" : " for CUDA " + c) + " in place of cuDNN " + loaded +
            ": copy its bin\\ and include\\ files over those in " + dir + " and " +
            dir.substr(0, dir.find_last_of('\\') + 1) + "include";
    }
    if (!c.empty() && !before_path) {
      fix += ", or use a conda environment: conda install -c conda-forge cudatoolkit=" + c + " cudnn=" + conda_cudnn +
             " (its Library\\bin comes before " + dir + " on PATH while the environment is active)";
    }
    fix += ".";
    out_.push_back(Finding{
        .id = "windows-cudnn-too-old",
        .severity = Severity::error,
        .area = FindingArea::python,
        .title = name + " will refuse cuDNN " + loaded + ", older than the cuDNN " + built + " it was built with (in " +
                 env->path + ")",
        .detail = "TensorFlow's loader opens " + l.path + " (found via " + l.via + "), which is cuDNN " + loaded +
                  ". TensorFlow accepts a cuDNN of the major it was built with and the same or a newer minor; "
                  "when it first uses cuDNN it logs \"Loaded runtime CuDNN library: " +
                  loaded + " but source was compiled with: " + built +
                  "...\" and the operations that need cuDNN (convolutions, cuDNN RNNs) fail.",
        .fix = fix,
        .evidence = evidence,
        .source = kTfCudnnRuleSource});
  }

  void msvc_runtime(const Group& g) {
    std::vector<std::string> names;
    std::vector<std::string> evidence{g.fw->location.empty() ? g.env->path : g.fw->location};
    std::vector<std::string> on_path_only;
    bool beyond_self_check = false;  // TensorFlow's self check names only msvcp140.dll and msvcp140_1.dll
    std::string importer;
    for (const DllLoad* l : g.missing) {
      names.push_back(l->dll);
      evidence.push_back(not_found_line(*l));
      if (!iequals(l->dll, "msvcp140.dll") && !iequals(l->dll, "msvcp140_1.dll")) beyond_self_check = true;
      if (importer.empty() && !l->needed_by.empty()) importer = file_name(l->needed_by);
      for (const std::string& u : l->unreached) {
        on_path_only.push_back(u);
        evidence.push_back(u + " (not searched by " + l->loader + ")");
      }
    }
    const std::string name = installed_display_name(g.fw->name);
    // What the user sees: TensorFlow's self check for its two DLLs; a failed import of the
    // extension module; torch's WinError 126 on a torch\lib DLL; ONNX Runtime's provider load.
    std::string symptom;
    const std::string loader = g.missing.front()->loader;
    if (g.fw->name == "tensorflow" && !beyond_self_check) {
      symptom = " (\"Could not find the DLL(s) '" + names.front() + "'\")";
    } else if (loader == "torch-dll-loader") {
      symptom = " ([WinError 126] on " + (importer.empty() ? std::string("torch\\lib's DLLs") : importer) + ")";
    } else if (loader == "onnxruntime-provider-bridge") {
      symptom = " (its CUDA provider fails to load: \"LoadLibrary failed with error 126\")";
    } else {
      symptom = " (\"DLL load failed while importing " +
                (importer.empty() ? std::string("its extension module") : importer.substr(0, importer.find('.'))) +
                "\")";
    }
    std::string detail = name + " " + g.fw->version.str() + " needs the Microsoft Visual C++ runtime (" +
                         join(names, ", ") + ") and will not " +
                         (loader == "onnxruntime-provider-bridge" ? "use the GPU" : "import") + " without it" +
                         symptom + ". Windows keeps it in System32, where the Visual C++ Redistributable installs it.";
    if (beyond_self_check && !importer.empty()) {
      detail +=
          " A Redistributable that is installed but older lacks the DLLs added later "
          "(msvcp140_atomic_wait.dll came with 14.28, Visual Studio 2019 16.8); the current one has them all.";
    }
    if (!on_path_only.empty()) {
      detail += " A copy on PATH (" + join(on_path_only, ", ") +
                ") does not count: Python 3.8 and later do not search PATH for the DLLs an extension module "
                "needs.";
    }
    out_.push_back(Finding{.id = "msvc-runtime-missing",
                           .severity = Severity::error,
                           .area = FindingArea::python,
                           .title = name + " " + g.fw->version.str() + ": the Visual C++ runtime " + join(names, ", ") +
                                    (names.size() == 1 ? " is" : " are") + " missing",
                           .detail = detail,
                           .fix = std::string("Install the Microsoft Visual C++ Redistributable 2015-2022 (x64): ") +
                                  kRedistUrl + ", then open a new terminal.",
                           .evidence = evidence,
                           .source = g.fw->name == "torch" ? kTorchLoaderSource : kPythonImportSource});
  }

  void cuda_dlls(const Group& g) {
    const FrameworkFacts& fw = *g.fw;
    const std::string name = installed_display_name(fw.name);
    std::vector<std::string> names;
    std::vector<std::string> evidence{fw.location.empty() ? g.env->path : fw.location};
    std::set<std::string> unreached_dirs;
    for (const DllLoad* l : g.missing) {
      names.push_back(l->dll);
      evidence.push_back(not_found_line(*l));
      for (const std::string& u : l->unreached) {
        unreached_dirs.insert(parent_dir(u));
        evidence.push_back(u + " (not searched by " + l->loader + ")");
      }
    }
    // A cuDNN of another major is not the one this build opens by name (cudnn64_8.dll).
    std::string other_cudnn;
    for (const DllLoad* l : g.missing) {
      if (!to_lower(l->dll).starts_with("cudnn64_")) continue;
      for (const LibraryFacts& lib : facts_.libraries) {
        if (lib.name != "cudnn" || !lib.version) continue;
        const std::string want = l->dll.substr(8, l->dll.find('.') - 8);
        if (std::to_string(lib.version->major()) != want) {
          other_cudnn = "cuDNN " + lib.version->str() + " in " + lib.path + " is another major; this build opens " +
                        l->dll + " (cuDNN " + want + ").";
          evidence.push_back("cuDNN " + lib.version->str() + " (" + lib.path + ")");
          break;
        }
      }
    }
    const bool gpu = !facts_.gpus.empty();
    std::string detail;
    std::string fix;
    std::string source;
    if (fw.name == "tensorflow") {
      detail =
          "TensorFlow opens the CUDA libraries itself when it starts, by name, in the standard Windows search "
          "order: python.exe's folder, System32, the Windows folder, the current folder, then PATH "
          "(os.add_dll_directory does not reach it). It finds none of " +
          join(names, ", ") +
          (gpu ? "; it logs \"Could not load dynamic library\" and runs on the CPU." : "; it will run on the CPU.");
      const TfBuild* b = kb_.tf_build(fw.version, Platform::windows);
      if (!unreached_dirs.empty()) {
        std::vector<std::string> dirs(unreached_dirs.begin(), unreached_dirs.end());
        // The User value, not $env:Path: that is the process's (Machine + User + what the session,
        // an activated venv, put in front), which written back as the User Path copies all of it there
        // (.NET Environment.GetEnvironmentVariable(String, EnvironmentVariableTarget)).
        fix = "Add " + join(dirs, " and ") +
              " to PATH (System Properties > Environment Variables, or in PowerShell: "
              "[Environment]::SetEnvironmentVariable('Path', [Environment]::GetEnvironmentVariable('Path', 'User') + "
              "';" +
              join(dirs, ";") + "', 'User')), then open a new terminal.";
      } else if (b && b->cuda && b->cudnn) {
        const std::string c = b->cuda->truncated(2).str();
        const std::string conda_cudnn = conda_cudnn_for(*b->cudnn);
        fix = "Install CUDA " + c + " and cuDNN " + b->cudnn->str() +
              " (in a conda environment: conda install -c conda-forge cudatoolkit=" + c + " cudnn=" + conda_cudnn +
              ", whose Library\\bin is on PATH while the environment is active), or put their bin folders on PATH.";
      } else {
        fix = "Install the CUDA and cuDNN this TensorFlow was built with and put their bin folders on PATH.";
      }
      source = kTensorflowLoaderSource;
    } else if (fw.name == "onnxruntime") {
      detail =
          "ONNX Runtime loads its CUDA provider (onnxruntime\\capi\\onnxruntime_providers_cuda.dll) by full path; "
          "the provider's DLLs are then searched in its own folder, System32, the Windows folder, the current folder "
          "and PATH (os.add_dll_directory does not reach them). None has " +
          join(names, ", ") +
          ": a session asking for CUDAExecutionProvider logs \"LoadLibrary failed with error 126\" and \"Failed to "
          "create CUDAExecutionProvider\", and runs on the CPU.";
      const std::string major = fw.cuda_version ? std::to_string(fw.cuda_version->major()) : std::string("12");
      const std::string cudnn = fw.cudnn_version ? std::to_string(fw.cudnn_version->major()) : std::string("9");
      if (!unreached_dirs.empty()) {
        std::vector<std::string> dirs(unreached_dirs.begin(), unreached_dirs.end());
        fix = "Add " + join(dirs, " and ") + " to PATH, or " +
              (onnxruntime_has_preload(fw)
                   ? "call onnxruntime.preload_dlls() (or `import torch`, built for CUDA " + major + ")"
                   : "`import torch` (built for CUDA " + major + ")") +
              " before creating the session, which loads them into the process first.";
      } else {
        fix = onnxruntime_libraries_fix(fw, Platform::windows, env_pip(*g.env));
      }
      source = kOnnxruntimeLoaderSource;
    } else {
      detail =
          "PyTorch loads torch\\lib's DLLs, whose dependencies are searched in torch\\lib, the folders it adds with "
          "os.add_dll_directory (Library\\bin, CUDA_PATH_Vx_y\\bin), python.exe's folder, System32 and, "
          "as its fallback, PATH. None has " +
          join(names, ", ") + ": `import torch` fails with WinError 126.";
      const std::string tag =
          !fw.variant.empty() ? fw.variant
          : fw.cuda_version ? "cu" + std::to_string(fw.cuda_version->major()) + std::to_string(fw.cuda_version->minor())
                            : "";
      fix = "Reinstall PyTorch from its CUDA index; the wheel carries these DLLs in torch\\lib: " + env_pip(*g.env) +
            " install --force-reinstall torch==" + fw.version.truncated(3).str() +
            " --index-url https://download.pytorch.org/whl/" + tag;
      source = kTorchLoaderSource;
    }
    if (!unreached_dirs.empty()) {
      std::vector<std::string> dirs(unreached_dirs.begin(), unreached_dirs.end());
      detail += " Copies exist in " + join(dirs, ", ") + ", which this loader does not search.";
    }
    if (!other_cudnn.empty()) detail += " " + other_cudnn;
    fix = with_windows_which_pip(fix, *g.env, facts_);
    // PATH unknown (a tree without --env-file): its folders were not searched, so "will not find"
    // is not known; a warning that says why.
    const bool path_unknown = facts_.windows->path_unknown;
    if (path_unknown) {
      detail =
          "PATH is unknown (no --env-file and no Environment keys in the registry export), and this loader "
          "also searches PATH: if PATH holds them, they are found. " +
          detail;
    }
    out_.push_back(Finding{
        .id = "windows-dll-not-found",
        .severity = (gpu || fw.name == "torch") && !path_unknown ? Severity::error : Severity::warning,
        .area = FindingArea::python,
        .title =
            name + " " + fw.version.str() + (path_unknown ? " may not find " : " will not find ") + join(names, ", "),
        .detail = detail,
        .fix = fix,
        .evidence = evidence,
        .source = source});
  }

  /// DLLs torch's own files import that none of its loader's folders holds and that its wheel
  /// does not install (its RECORD lists no torch\lib\<dll>): reinstalling torch cannot bring them.
  void dlls_outside_wheel(const Group& g) {
    const FrameworkFacts& fw = *g.fw;
    const std::string name = installed_display_name(fw.name) + " " + fw.version.str();
    std::vector<std::string> names;
    std::vector<std::string> importers;
    std::vector<std::string> evidence{fw.location.empty() ? g.env->path : fw.location};
    bool libomp140 = false;
    for (const DllLoad* l : g.missing) {
      names.push_back(l->dll);
      const std::string importer = file_name(l->needed_by);
      if (std::find(importers.begin(), importers.end(), importer) == importers.end()) importers.push_back(importer);
      evidence.push_back(not_found_line(*l));
      for (const std::string& u : l->unreached) evidence.push_back(u + " (not searched by " + l->loader + ")");
      libomp140 = libomp140 || to_lower(l->dll).starts_with("libomp140");
    }
    evidence.push_back("the wheel's RECORD installs none of them in torch\\lib");
    std::string fix;
    std::string source = kTorchLoaderSource;
    if (libomp140) {
      // pytorch#131662: 2.4.0's fbgemm.dll links LLVM's OpenMP; #130697 (in 2.4.1) removed it.
      const std::string tag = !fw.variant.empty() ? fw.variant : std::string("cpu");
      fix = "Upgrade PyTorch: 2.4.1 and later are built without this dependency: " + env_pip(*g.env) +
            " install --upgrade \"torch>=2.4.1\" --index-url https://download.pytorch.org/whl/" + tag +
            " (with torchvision and torchaudio of the same release), or go back to torch==2.3.1. To keep this "
            "release, put libomp140.x86_64.dll (Visual Studio 2022's MSVC v143 C++ build tools install it) in "
            "torch\\lib.";
      source = "https://github.com/pytorch/pytorch/issues/131662; https://github.com/pytorch/pytorch/pull/130697";
    } else {
      fix = "Reinstalling torch does not bring " + join(names, ", ") +
            ": install what provides it and put its folder where torch's loader looks (torch\\lib, or a folder "
            "on PATH), or use a torch release whose DLLs do not import it. `dumpbin /dependents` on " +
            importers.front() + " lists what it imports.";
    }
    fix = with_windows_which_pip(fix, *g.env, facts_);
    out_.push_back(Finding{
        .id = "windows-dll-outside-wheel",
        .severity = Severity::error,
        .area = FindingArea::python,
        .title = name + ": " + join(importers, ", ") + " import" + (importers.size() == 1 ? "s " : " ") +
                 join(names, ", ") + ", which the torch wheel does not carry and nothing here provides",
        .detail = "torch loads every DLL in torch\\lib at import; " + join(importers, ", ") + " import" +
                  (importers.size() == 1 ? "s " : " ") + join(names, ", ") +
                  ", which none of the folders its loader searches holds, so `import torch` fails with WinError "
                  "126 (Error loading \"...\\" +
                  importers.front() +
                  "\" or one of its dependencies). The wheel's RECORD installs no such file, so reinstalling "
                  "torch does not bring it" +
                  (libomp140 ? "; the Visual C++ Redistributable does not install libomp140.x86_64.dll either." : "."),
        .fix = fix,
        .evidence = evidence,
        .source = source});
  }

  void registrations() {
    for (const PythonRegistration& r : facts_.windows->pythons) {
      if (r.exists || r.install_path.empty()) continue;
      const std::string key = r.hive.starts_with("HKCU") ? "HKCU\\Software\\Python\\" + r.company + "\\" + r.tag
                              : r.hive.find("32-bit") != std::string::npos
                                  ? "HKLM\\SOFTWARE\\WOW6432Node\\Python\\" + r.company + "\\" + r.tag
                                  : "HKLM\\SOFTWARE\\Python\\" + r.company + "\\" + r.tag;
      out_.push_back(Finding{
          .id = "python-registration-stale",
          .severity = Severity::warning,
          .area = FindingArea::python,
          .title = "Python " + r.tag + " is registered at " + r.install_path + ", which no longer exists",
          .detail = "py.exe and editors list the Pythons registered in the registry (PEP 514); this one was removed "
                    "without its registration, so `py -" +
                    r.tag + "` and IDE interpreter pickers offer a Python that cannot start.",
          .fix = "Reinstall or uninstall it from Settings > Apps, or delete the registry key " + key + ".",
          .evidence = {key + " InstallPath " + r.install_path},
          .source = "https://peps.python.org/pep-0514/"});
    }
  }

  void tensorflow_gpu_package() {
    const TfPackage* pkg = kb_.tf_package("tensorflow-gpu");
    if (pkg == nullptr || !pkg->last_release) return;
    for (const PythonEnvFacts& env : facts_.python_envs) {
      for (const FrameworkFacts& fw : env.frameworks) {
        if (fw.package != "tensorflow-gpu") continue;
        const bool windows = facts_.platform == Platform::windows;
        const bool last_native = windows && pkg->last_windows_release && fw.version <= *pkg->last_windows_release;
        std::string fix;
        if (last_native) {
          fix = "Keep it pinned (" + env_pip(env) + " install \"tensorflow-gpu==" + pkg->last_windows_release->str() +
                "\"): `pip install -U tensorflow-gpu` now fails. For a newer TensorFlow on the GPU use WSL2: "
                "pip install \"tensorflow[and-cuda]\".";
        } else {
          fix = env_pip(env) + " uninstall tensorflow-gpu, then " + env_pip(env) +
                " install \"tensorflow[and-cuda]\" (Linux and WSL2).";
        }
        fix = with_windows_which_pip(fix, env, facts_);
        out_.push_back(Finding{
            .id = "tensorflow-gpu-discontinued",
            .severity = last_native ? Severity::info : Severity::warning,
            .area = FindingArea::python,
            .title = "tensorflow-gpu " + fw.version.str() + " is a discontinued package (in " + env.path + ")",
            .detail = "Its last release was " + pkg->last_release->str() +
                      (pkg->last_windows_release ? " (native Windows: " + pkg->last_windows_release->str() + ")" : "") +
                      ". " + pkg->removed,
            .fix = fix,
            .evidence = {fw.location.empty() ? env.path : fw.location, fw.evidence},
            .source = pkg->source});
      }
    }
  }

  const Facts& facts_;
  const KnowledgeBase& kb_;
  std::vector<Finding> out_;
};

}  // namespace

std::vector<Finding> windows_findings(const Facts& facts, const KnowledgeBase& kb) {
  return WindowsChecker(facts, kb).run();
}

}  // namespace gpudoctor
