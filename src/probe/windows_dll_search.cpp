// Which DLL each framework opens on native Windows, the loader that opens it, and what that
// loader finds. Three loaders, each read in its source (docs/windows-inventory.md):
//
// - python-import: CPython >= 3.8 loads an extension module (.pyd) with LoadLibraryExW and
//   LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR (Python/dynload_win.c),
//   and ctypes.CDLL / WinDLL of a bare name with LOAD_LIBRARY_SEARCH_DEFAULT_DIRS
//   (Lib/ctypes/__init__.py): the module's folder, the application folder (python.exe's),
//   System32 and the folders added with os.add_dll_directory; PATH is not searched ("Changes in
//   the Python API", What's New in Python 3.8). Before 3.8: the standard order, PATH included.
//   TensorFlow's self check opens its msvcp_dll_names this way (tensorflow/python/platform/
//   self_check.py), whatever its message says about PATH.
// - tensorflow-dso-loader: TensorFlow opens the CUDA libraries itself at run time by bare name
//   with LoadLibraryExW(name, NULL, LOAD_WITH_ALTERED_SEARCH_PATH)
//   (tensorflow/tsl/platform/windows/load_library.cc, tensorflow@4e731f4): for a bare name that
//   is the standard search order: the application folder, System32, the Windows folder, the
//   current folder, then PATH. os.add_dll_directory does not reach it.
// - torch-dll-loader: torch/__init__.py's _load_dll_libraries (pytorch@0027c65) adds torch\lib,
//   <prefix>\Library\bin, the base prefix's Library\bin (a venv of a conda Python) and, when
//   none of those holds a cudart64*.dll, CUDA_PATH_V<x_y>\bin (or Program Files\...\v<x.y>\bin)
//   with os.add_dll_directory, then loads every torch\lib\*.dll with LoadLibraryExW(path,
//   NULL, 0x00001100 = LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR); a
//   DLL that fails with error 126 is retried with LoadLibraryW after putting those folders in
//   front of PATH, so PATH is its last resort.
// - onnxruntime-provider-bridge: onnxruntime-gpu's provider bridge loads its CUDA provider by
//   full path, capi\onnxruntime_providers_cuda.dll (onnxruntime/core/session/provider_bridge_ort.cc
//   @0077338: GetRuntimePath() + filename), with LoadLibraryExW(path, NULL,
//   LOAD_WITH_ALTERED_SEARCH_PATH) (onnxruntime/core/platform/windows/env.cc): the provider's own
//   imports (CUDA runtime, cuBLAS, cuFFT, cuRAND, cuDNN) are then searched in the provider's
//   folder (capi), System32, the Windows folder, the current folder and PATH; os.add_dll_directory
//   does not reach them. A DLL already loaded into the process counts too (`import torch` first,
//   or onnxruntime.preload_dlls() from the nvidia wheels): neither is seen on disk, so a copy in
//   torch\lib or the nvidia wheels is named as unreached, not as loaded.
//
// Beside those known lists, the frameworks' own binaries say what they need: the import tables
// (probe/pe_imports.hpp) of every DLL torch loads from torch\lib, of TensorFlow's and ONNX
// Runtime's extension modules and of ONNX Runtime's CUDA provider. Each DLL they name that
// Windows itself does not provide is searched by the loader that opens the importing file, so a
// build the tables do not know (a new CUDA major, a new MSVC runtime DLL such as
// msvcp140_atomic_wait.dll) is checked from the release itself.
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "core/text.hpp"
#include "probe/cudnn_dll_version.hpp"
#include "probe/pe_headers.hpp"
#include "probe/pe_imports.hpp"
#include "probe/probes.hpp"
#include "probe/python/pyvenv_cfg.hpp"
#include "probe/version_files.hpp"

namespace gpudoctor {
namespace {

struct SearchDir {
  std::string path;
  std::string via;
};

/// The DLLs a Windows CUDA build of TensorFlow opens through its DSO loader, as the CUDA
/// toolkits of that major name them in their bin folder (CUDA 11.x installs cudart64_110.dll
/// for every minor; TF's build_info says cudart64_112.dll, which no toolkit installs), and the
/// cuDNN of that major (cuDNN 8 split into the sub-libraries cudnn64_8.dll opens by name).
std::vector<std::string> tensorflow_dlls(const FrameworkFacts& fw) {
  std::vector<std::string> out;
  if (!fw.cuda_version) return out;
  const int major = fw.cuda_version->major();
  if (major == 11) {
    out = {"cudart64_110.dll", "cublas64_11.dll",   "cublasLt64_11.dll",
           "cufft64_10.dll",   "cusolver64_11.dll", "cusparse64_11.dll"};
  } else if (major == 10 && fw.cuda_version->minor() == 1) {
    out = {"cudart64_101.dll", "cublas64_10.dll", "cufft64_10.dll", "cusolver64_10.dll", "cusparse64_10.dll"};
  } else {
    return out;  // not a native-Windows GPU build the loader model knows
  }
  if (fw.cudnn_version) {
    const std::string m = std::to_string(fw.cudnn_version->major());
    out.push_back("cudnn64_" + m + ".dll");
    if (fw.cudnn_version->major() == 8) {
      for (const char* sub : {"cudnn_ops_infer", "cudnn_ops_train", "cudnn_cnn_infer", "cudnn_cnn_train",
                              "cudnn_adv_infer", "cudnn_adv_train"}) {
        out.push_back(std::string(sub) + "64_8.dll");
      }
    }
  }
  return out;
}

/// The Windows names of CUDA `major`'s runtime, cuBLAS and cuBLASLt (cudart64_13.dll, the DLL
/// names follow the Linux sonames: CUDA 13 installs libcudart.so.13, libcublas.so.13,
/// libcufft.so.12, libcusolver.so.12, libcusparse.so.12, libcurand.so.10), and of `others` whose
/// major CUDA 13 is known to carry. A CUDA major newer than the table still gets the three whose
/// number is the CUDA major: a build the model does not know is checked, never passed unchecked.
std::vector<std::string> cuda_dlls_of_major(int major, std::initializer_list<const char*> others) {
  const std::string m = std::to_string(major);
  std::vector<std::string> out = {"cudart64_" + m + ".dll", "cublas64_" + m + ".dll", "cublasLt64_" + m + ".dll"};
  if (major != 13) return out;
  for (const char* lib : others) {
    const std::string name = lib;
    if (name == "cufft" || name == "cusolver" || name == "cusparse") out.push_back(name + "64_12.dll");
    if (name == "curand") out.push_back("curand64_10.dll");
  }
  return out;
}

/// The CUDA DLLs a Windows CUDA build of PyTorch links (its torch\lib carries them): the same
/// families as the Linux wheels' DT_NEEDED (probe/framework_libraries.cpp), with the Windows
/// names of the toolkits of that major. cuDNN: the major torch\lib holds.
std::vector<std::string> torch_dlls(const FrameworkFacts& fw) {
  if (!fw.cuda_version) return {};
  const int major = fw.cuda_version->major();
  if (major >= 13) return cuda_dlls_of_major(major, {"cufft", "cusolver", "cusparse"});
  if (major == 12) {
    return {"cudart64_12.dll", "cublas64_12.dll",   "cublasLt64_12.dll",
            "cufft64_11.dll",  "cusolver64_11.dll", "cusparse64_12.dll"};
  }
  if (major == 11) {
    return {"cudart64_110.dll", "cublas64_11.dll",   "cublasLt64_11.dll",
            "cufft64_10.dll",   "cusolver64_11.dll", "cusparse64_11.dll"};
  }
  return {};
}

/// The CUDA DLLs onnxruntime-gpu's CUDA provider imports: the families its Linux provider links
/// (probe/framework_libraries.cpp, from ONNX Runtime's setup.py), with the Windows names the
/// toolkits of that major install, and cuDNN of the build's major.
std::vector<std::string> onnxruntime_dlls(const FrameworkFacts& fw) {
  if (!fw.cuda_version) return {};
  std::vector<std::string> out;
  const int major = fw.cuda_version->major();
  if (major >= 13) {
    // onnxruntime-gpu 1.31.1 (CUDA 13.0): its provider imports cublas64_13.dll and cublasLt64_13.dll
    // and names cudart64_13.dll, cufft64_12.dll and cudnn64_9.dll (strings of the DLL); no curand.
    out = cuda_dlls_of_major(major, {"cufft"});
  } else if (major == 12) {
    out = {"cudart64_12.dll", "cublas64_12.dll", "cublasLt64_12.dll", "cufft64_11.dll", "curand64_10.dll"};
  } else if (major == 11) {
    out = {"cudart64_110.dll", "cublas64_11.dll", "cublasLt64_11.dll", "cufft64_10.dll", "curand64_10.dll"};
  } else {
    return out;
  }
  if (fw.cudnn_version) out.push_back("cudnn64_" + std::to_string(fw.cudnn_version->major()) + ".dll");
  return out;
}

/// DLLs that Windows itself provides (API sets, the Win32 DLLs, the Universal CRT, which is part
/// of Windows 10 and later): not searched for, as a Windows without them does not start a
/// program. nvcuda.dll and nvml.dll are the driver's, which the driver checks look for.
bool provided_by_windows(const std::string& dll) {
  static const std::set<std::string> kSystem = {
      "advapi32.dll", "bcrypt.dll",   "cfgmgr32.dll", "combase.dll",    "comctl32.dll", "comdlg32.dll", "crypt32.dll",
      "d3d11.dll",    "d3d12.dll",    "dbghelp.dll",  "dnsapi.dll",     "dwmapi.dll",   "dxgi.dll",     "gdi32.dll",
      "imm32.dll",    "iphlpapi.dll", "kernel32.dll", "kernelbase.dll", "msvcrt.dll",   "mswsock.dll",  "ncrypt.dll",
      "netapi32.dll", "normaliz.dll", "ntdll.dll",    "nvcuda.dll",     "nvml.dll",     "ole32.dll",    "oleaut32.dll",
      "opengl32.dll", "powrprof.dll", "psapi.dll",    "rpcrt4.dll",     "sechost.dll",  "secur32.dll",  "setupapi.dll",
      "shcore.dll",   "shell32.dll",  "shlwapi.dll",  "ucrtbase.dll",   "user32.dll",   "userenv.dll",  "version.dll",
      "winhttp.dll",  "wininet.dll",  "winmm.dll",    "wintrust.dll",   "wldap32.dll",  "ws2_32.dll"};
  const std::string d = to_lower(dll);
  return d.starts_with("api-ms-win-") || d.starts_with("ext-ms-") || kSystem.contains(d);
}

/// DLLs every Python process has loaded before it imports a module: the interpreter's own
/// (python3.dll, python311.dll) and the C runtime python.exe links (vcruntime140.dll). A loaded
/// DLL satisfies an import by name, wherever its file is (a Store Python's is in WindowsApps).
bool loaded_by_python(const std::string& dll) {
  const std::string d = to_lower(dll);
  return (d.starts_with("python") && d.ends_with(".dll")) || d == "vcruntime140.dll";
}

constexpr std::size_t kMaxRecordBytes = 16 * 1024 * 1024;  ///< torch 2.x's RECORD is about 2 MiB
constexpr std::size_t kMaxImportingFiles = 256;            ///< per framework: torch\lib holds some 60
constexpr std::size_t kMaxImportedDlls = 64;               ///< per framework, beyond its known list
constexpr std::size_t kMaxDependencyFiles = 64;            ///< per framework and level: DLLs it loads from elsewhere
constexpr int kDependencyLevels = 2;                       ///< a DLL it loads, and what that one loads
constexpr std::size_t kMaxWindowsVariableChars = 32767;    ///< Windows' limit on an environment variable

class DllSearch {
 public:
  DllSearch(const SystemView& system, const Facts& facts) : system_(system) {
    windir_ = system.env("SystemRoot").value_or("C:\\Windows");
    system32_ = system.join(windir_, "System32");
    // Windows' loader searches every PATH entry, and a PATH holds at most 32,767 characters
    // (SetEnvironmentVariable's documented limit), which bounds the search; only an env file
    // can give more, and the entries past that length are said not to be searched.
    std::size_t chars = 0;
    for (const std::string& d : system.env_list("PATH")) {
      chars += d.size() + 1;
      if (chars > kMaxWindowsVariableChars) {
        system.note_bound("PATH", "longer than " + std::to_string(kMaxWindowsVariableChars) +
                                      " characters, the most a Windows variable holds; the entries after that "
                                      "were not searched for DLLs");
        break;
      }
      path_.push_back(d);
    }
    // Places a copy may sit that some loader does not search.
    for (const ToolkitFacts& t : facts.toolkits) {
      if (t.kind == "system") add_elsewhere(system.join(t.path, "bin"));
    }
    for (const LibraryFacts& l : facts.libraries) add_elsewhere(l.path);
    for (const std::string& d : path_) add_elsewhere(d);
  }

  void resolve(const PythonEnvFacts& env, std::vector<DllLoad>& out) {
    const std::string app_dir = application_dir(env);
    const bool py38 = !env.python_version || *env.python_version >= Version::parse("3.8").value();
    for (const FrameworkFacts& fw : env.frameworks) {
      if (fw.name == "tensorflow") {
        // Every Windows build, CPU ones too, checks its MSVC runtime before its extension loads.
        const std::string pkg = fw.location.empty() ? "" : system_.join(fw.location, "tensorflow\\python");
        std::vector<SearchDir> import_dirs = {
            {pkg, "the extension module's folder"}, {app_dir, "application folder"}, {system32_, "System32"}};
        if (!py38) append_path(import_dirs, "PATH");
        for (const char* dll : {"msvcp140.dll", "msvcp140_1.dll"}) {
          out.push_back(find(dll, "python-import", fw, env, import_dirs));
        }
        if (!pkg.empty()) {
          imports({system_.join(pkg, "_pywrap_tensorflow_internal.pyd")}, "python-import", fw, env, import_dirs, out);
        }
        if (fw.cuda_build && !*fw.cuda_build) continue;
        std::vector<std::string> cuda = tensorflow_dlls(fw);
        if (cuda.empty()) continue;
        std::vector<SearchDir> dso = {
            {app_dir, "application folder"}, {system32_, "System32"}, {windir_, "Windows folder"}};
        append_path(dso, "PATH");
        for (const std::string& dll : cuda) out.push_back(find(dll, "tensorflow-dso-loader", fw, env, dso));
        dependencies("tensorflow-dso-loader", fw, env, dso, out);
      } else if (fw.name == "torch") {
        const std::string lib = fw.location.empty() ? "" : system_.join(fw.location, "torch\\lib");
        std::vector<SearchDir> dirs = {{lib, "torch\\lib"},
                                       {app_dir, "application folder"},
                                       {system32_, "System32"},
                                       {system_.join(env.path, "Library\\bin"), "Library\\bin (os.add_dll_directory)"}};
        if (!base_prefix_.empty() && base_prefix_ != env.path) {
          dirs.push_back({system_.join(base_prefix_, "Library\\bin"), "base Library\\bin (os.add_dll_directory)"});
        }
        bool cudart_added = false;
        for (const SearchDir& d : dirs) cudart_added = cudart_added || has_cudart(d.path);
        if (fw.cuda_version && !cudart_added) {
          const std::string xy =
              std::to_string(fw.cuda_version->major()) + "_" + std::to_string(fw.cuda_version->minor());
          std::string base = system_.env("CUDA_PATH_V" + xy)
                                 .value_or(system_.join(
                                     system_.env("ProgramFiles").value_or("C:\\Program Files"),
                                     "NVIDIA GPU Computing Toolkit\\CUDA\\v" + fw.cuda_version->truncated(2).str()));
          dirs.push_back({system_.join(base, "bin"), "CUDA_PATH_V" + xy + " (os.add_dll_directory)"});
        }
        append_path(dirs, "PATH (torch's LoadLibraryW fallback)");
        for (const char* dll : {"vcruntime140.dll", "msvcp140.dll", "vcruntime140_1.dll"}) {
          out.push_back(find(dll, "torch-dll-loader", fw, env, dirs));
        }
        std::vector<std::string> cuda = torch_dlls(fw);
        if (std::string cudnn = cudnn_in(lib); !cudnn.empty() && !cuda.empty()) cuda.push_back(cudnn);
        for (const std::string& dll : cuda) out.push_back(find(dll, "torch-dll-loader", fw, env, dirs));
        // torch loads every DLL in torch\lib: what each imports is needed, CPU builds' too.
        imports(files_in(lib, ".dll"), "torch-dll-loader", fw, env, dirs, out);
        dependencies("torch-dll-loader", fw, env, dirs, out);
        mark_wheel_files(fw, env, out);
      } else if (fw.name == "onnxruntime") {
        const std::string capi = fw.location.empty() ? "" : system_.join(fw.location, "onnxruntime\\capi");
        if (!capi.empty()) {
          std::vector<SearchDir> import_dirs = {
              {capi, "the extension module's folder"}, {app_dir, "application folder"}, {system32_, "System32"}};
          if (!py38) append_path(import_dirs, "PATH");
          imports({system_.join(capi, "onnxruntime_pybind11_state.pyd")}, "python-import", fw, env, import_dirs, out);
        }
        if (!fw.cuda_build.value_or(false)) continue;
        std::vector<SearchDir> dirs = {
            {capi, "onnxruntime\\capi (the provider's folder)"}, {system32_, "System32"}, {windir_, "Windows folder"}};
        append_path(dirs, "PATH");
        for (const std::string& dll : onnxruntime_dlls(fw)) {
          out.push_back(find(dll, "onnxruntime-provider-bridge", fw, env, dirs));
        }
        if (!capi.empty()) {
          imports({system_.join(capi, "onnxruntime_providers_cuda.dll")}, "onnxruntime-provider-bridge", fw, env, dirs,
                  out);
        }
        dependencies("onnxruntime-provider-bridge", fw, env, dirs, out);
      }
    }
  }

 private:
  void add_elsewhere(const std::string& dir) {
    if (dir.empty() || elsewhere_.size() >= 128) return;
    if (std::none_of(elsewhere_.begin(), elsewhere_.end(), [&](const std::string& d) { return iequals(d, dir); })) {
      elsewhere_.push_back(dir);
    }
  }

  void append_path(std::vector<SearchDir>& dirs, const std::string& via) const {
    for (const std::string& d : path_) dirs.push_back({d, via});
  }

  /// python.exe's folder: a venv's python.exe starts its base interpreter, whose folder is the
  /// application folder (pyvenv.cfg's home); a base install or conda env holds python.exe itself.
  std::string application_dir(const PythonEnvFacts& env) {
    base_prefix_.clear();
    if (auto text = system_.read_file(system_.join(env.path, "pyvenv.cfg"), 64 * 1024)) {
      PyvenvCfg cfg = parse_pyvenv_cfg(*text);
      if (!cfg.home.empty()) {
        std::string home = cfg.home;
        while (home.size() > 3 && home.back() == '\\') home.pop_back();
        base_prefix_ = home;
        return home;
      }
    }
    return env.path;
  }

  /// The regular files in `dir` whose name ends with `suffix` (ignoring case), at most
  /// kMaxImportingFiles of them.
  std::vector<std::string> files_in(const std::string& dir, const std::string& suffix) const {
    std::vector<std::string> out;
    if (dir.empty()) return out;
    auto entries = system_.list_dir(dir);
    if (!entries) return out;
    for (const DirEntry& e : *entries) {
      if (e.is_dir || !to_lower(e.name).ends_with(suffix)) continue;
      if (out.size() == kMaxImportingFiles) {
        system_.note_bound(dir, "import tables read of the first " + std::to_string(kMaxImportingFiles) + " DLLs only");
        break;
      }
      out.push_back(system_.join(dir, e.name));
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  /// Every DLL the import tables of `files` name that is not already in `out` for this framework
  /// and environment, not Windows' own and not beside the importing file, looked for by `loader`
  /// in `dirs`. A file that is absent or not a PE image adds nothing: the known lists still hold.
  /// `own`: the framework's own files; a known DLL they import learns who imports it. A DLL the
  /// framework loads from elsewhere (`dependencies`) adds only what nothing named yet: a DLL of
  /// the framework's known list stays the framework's to report.
  void imports(const std::vector<std::string>& files, const std::string& loader, const FrameworkFacts& fw,
               const PythonEnvFacts& env, const std::vector<SearchDir>& dirs, std::vector<DllLoad>& out,
               bool own = true) const {
    std::size_t added = 0;
    for (const std::string& file : files) {
      if (!system_.is_file(file)) continue;
      auto names = pe_imports([&](std::uint64_t offset, std::size_t n) { return system_.read_range(file, offset, n); });
      if (!names) continue;
      const std::string folder = system_.parent(file);
      for (const PeImport& i : *names) {
        if (provided_by_windows(i.dll)) continue;
        auto known = std::find_if(out.begin(), out.end(), [&](const DllLoad& l) {
          return l.env == env.path && l.framework == fw.name && iequals(l.dll, i.dll);
        });
        if (known != out.end()) {
          if (!own) continue;
          // Named by a known list or another file as well: the import table says who needs it,
          // an ordinary import before a delay-loaded one (needed when the file loads).
          if (known->needed_by.empty() || (known->delay_loaded && !i.delay_loaded)) {
            known->needed_by = file;
            known->delay_loaded = i.delay_loaded;
          }
          continue;
        }
        // The loader's first place; a copy there for another machine fails the load (error 193).
        if (const std::string beside = system_.join(folder, i.dll); system_.is_file(beside)) {
          std::string machine = wrong_machine(beside);
          if (machine.empty()) continue;
          DllLoad l;
          l.framework = fw.name;
          l.env = env.path;
          l.dll = i.dll;
          l.loader = loader;
          l.path = beside;
          l.via = "the importing DLL's folder";
          l.wrong_machine = std::move(machine);
          l.needed_by = file;
          l.delay_loaded = i.delay_loaded;
          out.push_back(std::move(l));
          continue;
        }
        if (loaded_by_python(i.dll)) continue;
        if (added == kMaxImportedDlls) {
          system_.note_bound(file,
                             "DLLs imported beyond the first " + std::to_string(kMaxImportedDlls) + " not looked for");
          return;
        }
        DllLoad l = find(i.dll, loader, fw, env, dirs);
        l.needed_by = file;
        l.delay_loaded = i.delay_loaded;
        out.push_back(std::move(l));
        ++added;
      }
    }
  }

  /// What the DLLs a framework loads from outside its own package import in turn (a CUDA
  /// toolkit's cudnn_ops_infer64_8.dll imports zlibwapi.dll, cublas64_12.dll cublasLt64_12.dll):
  /// one the loader does not find fails the load of the DLL that imports it, with the same error
  /// 126 as a missing DLL of its own. Two levels (the DLL it loads, and what that one loads), each
  /// file read once; Windows' own folder is not read. The search is the loader's, as for the
  /// framework's files: the importing DLL's folder first, then the loader's folders (exact for
  /// the loaders that search a DLL's own folder; for TensorFlow's bare-name loads, whose
  /// dependencies Windows looks for in the standard order, that folder is the one on PATH that
  /// the DLL was found in).
  void dependencies(const std::string& loader, const FrameworkFacts& fw, const PythonEnvFacts& env,
                    const std::vector<SearchDir>& dirs, std::vector<DllLoad>& out) const {
    const std::string own = fw.location.empty() ? "" : to_lower(system_.join(fw.location, fw.name)) + "\\";
    const std::string windows = windir_.empty() ? "" : to_lower(windir_) + "\\";
    std::set<std::string> read;
    for (int level = 0; level < kDependencyLevels; ++level) {
      std::vector<std::string> files;
      for (const DllLoad& l : out) {
        if (l.env != env.path || l.framework != fw.name || l.loader != loader || l.path.empty()) continue;
        const std::string lower = to_lower(l.path);
        if ((!own.empty() && lower.starts_with(own)) || (!windows.empty() && lower.starts_with(windows))) continue;
        if (read.contains(lower)) continue;
        if (files.size() == kMaxDependencyFiles) {
          system_.note_bound(l.path, "imports of the DLLs loaded from outside " + fw.name + " read for the first " +
                                         std::to_string(kMaxDependencyFiles) + " only");
          break;
        }
        read.insert(lower);
        files.push_back(l.path);
      }
      if (files.empty()) return;
      imports(files, loader, fw, env, dirs, out, false);
    }
  }

  /// For each DLL torch's files import that was not found: whether its wheel installs it, from
  /// the RECORD of its dist-info (torch-<version>.dist-info/RECORD, lines "torch/lib/x.dll,...").
  /// Only for torch's own files' imports: what a DLL loaded from elsewhere needs is not the wheel's.
  void mark_wheel_files(const FrameworkFacts& fw, const PythonEnvFacts& env, std::vector<DllLoad>& out) const {
    const std::string own = to_lower(system_.join(fw.location, "torch")) + "\\";
    auto missing = [&](const DllLoad& l) {
      return l.env == env.path && l.framework == fw.name && !l.needed_by.empty() && l.path.empty() &&
             to_lower(l.needed_by).starts_with(own);
    };
    if (fw.location.empty() || std::none_of(out.begin(), out.end(), missing)) return;
    auto entries = system_.list_dir(fw.location);
    if (!entries) return;
    std::string dist_info;
    const std::string version = to_lower(fw.version.str());
    for (const DirEntry& e : *entries) {
      const std::string n = to_lower(e.name);
      if (!e.is_dir || !n.starts_with("torch-") || !n.ends_with(".dist-info")) continue;
      // Several (a stale one left by an interrupted upgrade): the one of this version.
      if (dist_info.empty() || n == "torch-" + version + ".dist-info") dist_info = e.name;
    }
    if (dist_info.empty()) return;
    auto record = system_.read_file(system_.join(system_.join(fw.location, dist_info), "RECORD"), kMaxRecordBytes);
    if (!record || record->size() >= kMaxRecordBytes) return;  // a RECORD not read whole proves nothing
    std::set<std::string> shipped;
    for (std::string_view line : lines(*record)) {
      const std::string path = to_lower(std::string(line.substr(0, line.find(','))));
      if (path.starts_with("torch/lib/")) shipped.insert(path.substr(10));
    }
    for (DllLoad& l : out) {
      if (missing(l)) l.in_wheel = shipped.contains(to_lower(l.dll));
    }
  }

  bool has_cudart(const std::string& dir) const {
    if (dir.empty()) return false;
    auto entries = system_.list_dir(dir);
    if (!entries) return false;
    return std::any_of(entries->begin(), entries->end(), [](const DirEntry& e) {
      std::string n = to_lower(e.name);
      return n.starts_with("cudart64") && n.ends_with(".dll");
    });
  }

  std::string cudnn_in(const std::string& dir) const {
    if (dir.empty()) return "";
    auto entries = system_.list_dir(dir);
    if (!entries) return "";
    for (const DirEntry& e : *entries) {
      std::string n = to_lower(e.name);
      if (n.starts_with("cudnn64_") && n.ends_with(".dll")) return e.name;
    }
    return "";
  }

  DllLoad find(const std::string& dll, const std::string& loader, const FrameworkFacts& fw, const PythonEnvFacts& env,
               const std::vector<SearchDir>& dirs) const {
    DllLoad l;
    l.framework = fw.name;
    l.env = env.path;
    l.dll = dll;
    l.loader = loader;
    for (const SearchDir& d : dirs) {
      if (d.path.empty()) continue;
      std::string p = system_.join(d.path, dll);
      if (system_.is_file(p)) {
        l.path = p;
        l.via = d.via;
        l.wrong_machine = wrong_machine(p);
        // cudnn64_8.dll names only cuDNN's major; a framework may need a minor (TensorFlow does).
        if (auto name = parse_library_name(dll); name && name->stem == "cudnn" && name->version) {
          cudnn_version(p, name->version->major(), l);
        }
        return l;
      }
    }
    // Not found: where copies sit that this loader does not look in.
    for (const std::string& d : elsewhere_) {
      std::string p = system_.join(d, dll);
      if (system_.is_file(p) && l.unreached.size() < 8) l.unreached.push_back(p);
    }
    return l;
  }

  /// "x86 (32-bit)" and the like for a PE image that is not x86-64, which a 64-bit python.exe
  /// cannot load (error 193); empty for x86-64 and for what is not read as a PE image (the
  /// fixture trees' placeholders). One read of the headers per file.
  std::string wrong_machine(const std::string& path) const {
    auto [it, fresh] = machines_.try_emplace(to_lower(path));
    if (!fresh) return it->second;
    auto head = system_.read_head(path, kPeHeadBytes);
    if (!head) return {};
    auto h = pe_headers(*head);
    if (!h || h->machine == kPeMachineAmd64) return {};
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%x", h->machine);
    it->second = h->machine == 0x14c    ? std::string("x86 (32-bit)")
                 : h->machine == 0xaa64 ? std::string("ARM64")
                                        : "COFF machine " + std::string(hex);
    return it->second;
  }

  /// One read per file: the same toolkit's cudnn64_N.dll is found for every framework and
  /// environment, and cuDNN 7's single DLL is read up to 64 MiB.
  void cudnn_version(const std::string& path, int major, DllLoad& l) const {
    auto [it, fresh] = cudnn_versions_.try_emplace(path);
    if (fresh) read_cudnn_dll_version(system_, path, major, it->second);
    l.version = it->second.version;
    l.version_source = it->second.version_source;
    l.version_problem = it->second.version_problem;
  }

  const SystemView& system_;
  mutable std::map<std::string, DllLoad> cudnn_versions_;  ///< path -> its version fields
  mutable std::map<std::string, std::string> machines_;    ///< lower-case path -> wrong_machine
  std::string windir_;
  std::string system32_;
  std::vector<std::string> path_;
  std::vector<std::string> elsewhere_;
  std::string base_prefix_;
};

}  // namespace

void resolve_windows_dlls(const SystemView& system, Facts& facts) {
  if (!system.is_windows() || !facts.windows) return;
  DllSearch search(system, facts);
  std::vector<DllLoad> loads;
  for (const PythonEnvFacts& env : facts.python_envs) search.resolve(env, loads);
  facts.windows->dll_loads = std::move(loads);
}

}  // namespace gpudoctor
