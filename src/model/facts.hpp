#pragma once
/// Facts: what the probes found, as plain structs. No judgement here; checks read these and
/// renderers print them. Every optional says "unknown"; the matching *_error string, where
/// present, says why it is unknown.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/version.hpp"
#include "model/gpu_reports.hpp"
#include "model/platform.hpp"

namespace gpudoctor {

struct OsFacts {
  std::string name;             ///< PRETTY_NAME from os-release, or Windows product name
  std::string id;               ///< "debian", "ubuntu", "windows"
  std::string version_id;       ///< "12", "22.04"
  std::string kernel;           ///< kernel release string
  std::string arch;             ///< "x86_64", "aarch64"
  bool wsl2 = false;            ///< Linux inside WSL2
  bool wsl_dxg_device = false;  ///< /dev/dxg exists (the GPU paravirtualisation device)
  bool wsl_lib_dir = false;     ///< /usr/lib/wsl/lib exists (Windows driver's Linux libraries)
  /// WSL2: how the dynamic loader reaches /usr/lib/wsl/lib ("LD_LIBRARY_PATH", "ld.so.conf",
  /// "ld.so.cache"); empty when nothing tells it (ld.so(8): not a default directory).
  std::string wsl_lib_loader_via;
  /// /etc/wsl.conf `[automount] ldconfig = false`: WSL no longer writes ld.wsl.conf at start.
  bool wsl_ldconfig_off = false;
  std::string container;  ///< "docker", "podman", "kubernetes", "lxc", "" for none
  std::vector<std::string> container_evidence;

  bool operator==(const OsFacts&) const = default;
};

/// A GPU as seen by one source. Sources: "nvml", "proc" (/proc/driver/nvidia/gpus),
/// "pci" (sysfs), "declared" (--gpu).
/// The name a sysfs GPU gets until a PCI ID database names it: "NVIDIA device 10de:2503".
inline constexpr const char* kUnnamedPciDevice = "NVIDIA device 10de:";

struct GpuFacts {
  std::string name;  ///< "NVIDIA GeForce RTX 3060"
  std::string source;
  std::string uuid;
  std::string pci_bus_id;       ///< "0000:01:00.0"
  std::string pci_device_id;    ///< "2503" (hex, lower-case, no 0x)
  std::optional<int> cc_major;  ///< compute capability, from NVML or the knowledge base
  std::optional<int> cc_minor;
  std::string compute_capability_source;  ///< "nvml", "knowledge base (...)", "" unknown
  /// The knowledge base's name for this GPU ("NVIDIA GeForce RTX 3060" for the PCI name
  /// "GA106 [GeForce RTX 3060]"), set when the facts are annotated; empty: not known there.
  std::string kb_name;
  std::optional<std::uint64_t> memory_total_bytes;
  std::optional<bool> persistence_mode;
  /// Memory health from NVML where the GPU has ECC (unknown elsewhere): uncorrected ECC errors
  /// since the driver loaded, and memory pages retired for ECC errors. A fleet names the nodes.
  std::optional<std::uint64_t> ecc_uncorrected_volatile;
  std::optional<unsigned> retired_pages;
  std::string kernel_driver;  ///< driver bound to the PCI device: "nvidia", "nouveau", "vfio-pci", ""

  bool operator==(const GpuFacts&) const = default;
};

/// A library or module the driver stack needs, found (or not) on disk.
struct DriverFile {
  std::string name;                ///< "libcuda.so.1", "libnvidia-ml.so.1", "nvcuda.dll"
  std::string path;                ///< where it was found, empty when missing
  std::optional<Version> version;  ///< from the file name (libcuda.so.535.104.05)
  /// Places that could not be looked in (permission denied): a library not found there is
  /// unknown, not missing.
  std::vector<std::string> unreadable;

  bool operator==(const DriverFile&) const = default;
};

struct DriverFacts {
  std::optional<Version> version;  ///< kernel driver version
  std::string version_source;      ///< "nvml", "/proc/driver/nvidia/version", "/sys/module/nvidia/version"
  std::string module_flavor;       ///< "proprietary", "open", "" unknown
  /// WSL2: the version of a Linux driver installed inside the distribution (its kernel module or
  /// its libcuda's file name), and where it was read. Never `version`: under WSL2 the driver is
  /// the Windows host's (NVIDIA CUDA on WSL User Guide), this one is to be removed.
  std::optional<Version> wsl2_linux_version;
  std::string wsl2_linux_version_source;
  bool nvidia_module_loaded = false;  ///< from /proc/modules
  bool nouveau_loaded = false;
  std::optional<Version> cuda_driver_version;  ///< highest CUDA the driver supports (12.2)
  std::string cuda_driver_version_source;      ///< "nvml", "cuDriverGetVersion"
  std::vector<DriverFile> files;               ///< libcuda / NVML copies found
  /// NVML on the live machine: skipped under --root, none when not tried.
  LibraryStatus nvml_status = LibraryStatus::none;
  std::string nvml_error;
  std::string nvml_path;  ///< absolute path of the NVML actually loaded
  /// How many GPUs NVML counted, also where it stopped (hung, crashed) before describing them all,
  /// and the device it stopped on: a GPU not in `gpus` then did not answer, it is not missing.
  std::optional<unsigned> nvml_device_count;
  std::optional<unsigned> nvml_stopped_on_device;
  LibraryStatus libcuda_status = LibraryStatus::none;  ///< the same for cuInit/cuDriverGetVersion
  std::string libcuda_error;
  std::string libcuda_path;

  bool operator==(const DriverFacts&) const = default;
};

/// A CUDA toolkit installation.
struct ToolkitFacts {
  std::string path;                    ///< canonical root ("/usr/local/cuda-13.0")
  std::vector<std::string> found_via;  ///< "/usr/local/cuda", "CUDA_HOME", "PATH nvcc", ...
  std::optional<Version> version;
  std::string version_source;  ///< "version.json", "version.txt", "nvcc", "dist-info", "soname"
  bool has_nvcc = false;
  std::string kind;  ///< "system", "conda", "pip-wheels"

  bool operator==(const ToolkitFacts&) const = default;
};

/// One copy of a CUDA library family (cudnn, nccl, cublas, cudart, tensorrt).
struct LibraryFacts {
  std::string name;  ///< "cudnn", "nccl", "cublas", "cudart", "tensorrt"
  std::optional<Version> version;
  std::string version_source;      ///< "cudnn_version.h", "soname", "dist-info"
  std::string path;                ///< the directory holding the library
  std::vector<std::string> files;  ///< library file names found there
  std::string origin;              ///< "system", "toolkit", "conda", "pip-wheel", "ld-library-path"
  std::optional<int> cuda_major;   ///< which CUDA major it was built for, when known (cu12)
  /// Where cuda_major comes from: "wheel" (its pip wheel's name), or the file and soname that
  /// say it ("libcudnn_adv.so.9 names libcublasLt.so.13", probe/cudnn_cuda_major.hpp); empty
  /// when unknown.
  std::string cuda_major_source;
  /// Position of its directory in the dynamic loader's default search (LD_LIBRARY_PATH first,
  /// then ld.so.conf / the loader cache, then the default directories); nullopt when only an
  /// RPATH or an explicit path reaches it (a toolkit not on the search path, a pip wheel).
  std::optional<int> loader_order;

  bool operator==(const LibraryFacts&) const = default;
};

/// One `Requires-Dist:` of a distribution's METADATA, as written there, split in its three parts:
/// `nvidia-cudnn-cu12==9.10.2.21; platform_system == "Linux"` gives name "nvidia-cudnn-cu12",
/// specifier "==9.10.2.21", marker `platform_system == "Linux"`.
struct DistRequirement {
  std::string name;       ///< normalised distribution name
  std::string specifier;  ///< PEP 440 specifier, "" for any version
  std::string marker;     ///< PEP 508 environment marker, "" for none

  bool operator==(const DistRequirement&) const = default;
};

/// A pip `nvidia-*` wheel (nvidia-cudnn-cu12 9.1.0.70).
struct NvidiaWheel {
  std::string package;  ///< normalised name "nvidia-cudnn-cu12"
  Version version;
  std::string library;  ///< "cudnn", "cublas", ...
  std::optional<int> cuda_major;
  /// The directory its RECORD puts its shared libraries in (site-packages/nvidia/cu13/lib for the
  /// CUDA 13 wheels, nvidia/cublas/lib for nvidia-cublas-cu12); empty when the RECORD names none.
  std::string lib_dir;
  /// Shared libraries its RECORD lists that are not on disk (the first 16, as RECORD paths relative
  /// to site-packages: a wheel may put them in several folders), and how many in all:
  /// a half-done uninstall or a deleted directory, which `pip install` alone does not repair.
  std::vector<std::string> missing_files;
  std::optional<int> missing_count;  ///< empty when none is missing
  /// Another wheel of the same library that installs the same files (nvidia-cudnn-cu12 and
  /// nvidia-cudnn-cu13 both write nvidia/cudnn/lib/libcudnn*.so.9) and whose copies are the ones
  /// on disk now; empty when the files are this wheel's or nothing tells.
  std::string overwritten_by;
  std::string overwritten_source;  ///< what tells: a file size from a RECORD, a cuDNN soname marker

  bool operator==(const NvidiaWheel&) const = default;
};

/// A library a framework build opens at run time (libcudart.so.12), and the file the dynamic
/// loader would give it in its environment: LD_LIBRARY_PATH, then the environment's pip
/// nvidia-* wheels (the framework's RUNPATH), then the loader cache and default directories.
struct LibraryLoad {
  std::string soname;  ///< "libcudart.so.12"
  std::string path;    ///< the file found; empty when the loader finds none
  std::string via;     ///< "LD_LIBRARY_PATH", "pip wheel", "bundled", "ld.so.cache", "default", ""
  /// The directory holding it with links resolved, as LibraryFacts::path records it
  /// (/usr/local/cuda/lib64 -> /usr/local/cuda-12.4/targets/x86_64-linux/lib); empty when the same.
  std::string real_dir;

  /// The directory as the search path names it (what a fix tells the user to take off LD_LIBRARY_PATH).
  [[nodiscard]] std::string named_dir() const { return path.substr(0, path.find_last_of("/\\")); }
  /// The directory with links resolved: what LibraryFacts::path holds for the same copy.
  [[nodiscard]] std::string dir() const { return real_dir.empty() ? named_dir() : real_dir; }

  bool operator==(const LibraryLoad&) const = default;
};

/// Functions a library the build loads imports from a dependency that the copy of the dependency
/// the loader would give it does not export. `dlopen(RTLD_NOW)` (Python's import, ctypes,
/// TensorFlow's DSO loader) then fails with "undefined symbol: <the first>", although `pip check`
/// may pass (the nvidia wheels' requirements on each other carry no version).
struct MissingImports {
  std::string library;               ///< the importing library: ".../torch/lib/libtorch_cuda.so"
  std::string provider;              ///< the dependency as found: ".../nvidia/nccl/lib/libnccl.so.2"
  std::string provider_soname;       ///< "libnccl.so.2"
  std::vector<std::string> symbols;  ///< the missing names, sorted; at most 16
  std::size_t count = 0;             ///< how many are missing in all

  bool operator==(const MissingImports&) const = default;
};

struct FrameworkFacts {
  std::string name;     ///< "tensorflow", "torch", "jax", "jaxlib", "keras", "jax-cuda-plugin"
  std::string package;  ///< distribution name: "tensorflow-intel", "tf-nightly", "torch"
  Version version;
  std::string location;  ///< site-packages directory
  /// Built with CUDA? nullopt when the files do not say.
  std::optional<bool> cuda_build;
  std::optional<Version> cuda_version;            ///< CUDA it was built for
  std::optional<Version> cudnn_version;           ///< cuDNN it was built for (TF: major only)
  std::vector<std::string> compute_capabilities;  ///< ["sm_60", "compute_90"]
  std::string variant;                            ///< "cu121", "cpu", "rocm6.0", "cuda12", ""
  std::string evidence;                           ///< the file these facts came from
  std::vector<std::string> problems;              ///< unreadable / malformed metadata, in words
  /// Installation faults that stop the framework from working as installed: files of two
  /// installs mixed, a JAX CUDA plugin of another version than jaxlib, jax without jaxlib.
  std::vector<std::string> conflicts;
  /// Where several distributions install this one package (tensorflow and tf-nightly,
  /// onnxruntime and onnxruntime-gpu): all their names, this one's included, sorted. Each must be
  /// uninstalled before one is installed again; empty otherwise.
  std::vector<std::string> sharing;
  /// torchvision / torchaudio: the torch their METADATA pins (`Requires-Dist: torch==2.5.1`);
  /// empty when not pinned to one version (torchaudio >= 2.11 says only torch>=).
  std::optional<Version> requires_torch;
  /// torchvision / torchaudio whose operators are built on PyTorch's stable ABI
  /// (torchvision/_C_stable.so from 0.29, torchaudio/lib/*.abi3.so from 2.11): they load with a
  /// newer torch than the one they were built against.
  bool stable_abi = false;
  /// tensorflow-probability: the TensorFlow its import refuses to run below, and whether it
  /// imports tf_keras (from 0.24) instead of using tf.keras; read from its python/__init__.py.
  std::optional<Version> requires_tensorflow;
  bool imports_tf_keras = false;
  /// Linux CUDA builds: every CUDA library this build opens, as the loader resolves it for this
  /// environment; empty when the build's needs are not known.
  std::vector<LibraryLoad> loads;
  /// Linux CUDA builds: the loaded libraries whose imports a dependency lacks (libtorch_cuda.so
  /// from libnccl.so.2, libcusparse.so.12 from libnvJitLink.so.12); empty when all are there or
  /// the files are not ELF libraries.
  std::vector<MissingImports> missing_imports;
  /// Its METADATA's requirements on NVIDIA's wheels (`nvidia-*`), the ones `pip check` holds the
  /// installed wheels to; at most 64.
  std::vector<DistRequirement> nvidia_requires;
  /// Its METADATA's requirements on numpy: a build's compiled extensions need the NumPy major
  /// they were built against (TensorFlow up to 2.16: `numpy<2.0.0`); at most 8.
  std::vector<DistRequirement> numpy_requires;
  /// TensorFlow: its METADATA's requirements on Keras (`keras>=3.12.0`; a pre-release asks for
  /// `keras-nightly`), which judge the installed Keras where the tables have no row; at most 4.
  std::vector<DistRequirement> keras_requires;
  /// Its dist-info (or egg-info) is there but its import package folder is not ("torch"): an
  /// interrupted uninstall or a broken copy; `import` fails. Empty when the folder is there.
  std::string missing_package;
  /// Found by its package folder alone, with no dist-info/egg-info (vendored, copied, metadata
  /// deleted): the version file read. pip does not know it. Empty for a registered install.
  std::string unregistered;
  /// How `import` reaches it when not through the environment's own site-packages: "PYTHONPATH"
  /// (its entries come before site-packages on sys.path) or "user site" (`pip install --user`,
  /// before the installation's site-packages). Empty: the environment's own.
  std::string reached_via;

  bool operator==(const FrameworkFacts&) const = default;
};

/// A distribution a framework's import depends on (numpy), as installed in one site-packages.
struct PlainDist {
  std::string name;
  Version version;
  std::string location;  ///< the site-packages directory

  bool operator==(const PlainDist&) const = default;
};

/// A shared object that `import tensorflow` loads from a `tensorflow-plugins` folder: its
/// __init__.py dlopens every *.so and *.so.N (*.dll on Windows) there, in every site-packages
/// it looks in, and one that fails to load stops the import (NotFoundError).
struct TfPlugin {
  std::string path;           ///< ".../site-packages/tensorflow-plugins/libitex_gpu.so"
  std::string site_packages;  ///< the folder holding tensorflow-plugins
  /// How TensorFlow's import reaches that folder, the strongest way where several: "site-packages"
  /// (the environment's own), "PYTHONPATH", "system site-packages" (the base Python's, seen by a
  /// venv with include-system-site-packages), "user site" (site.USER_SITE, which this Python
  /// reads), "user scheme" (the user site of a Python that does not read it: TensorFlow before 2.5
  /// and from 2.19 still does), "other user scheme" (osx_framework_user / nt_user: only from 2.19),
  /// "TF_PLUGGABLE_DEVICE_LIBRARY_PATH" (from 2.12).
  std::string reached_via;
  std::string owner;  ///< the distribution whose RECORD lists it, "tensorflow-directml-plugin"; empty: none
  std::string owner_version;
  /// False when not every RECORD of its site-packages could be read (thousands of distributions,
  /// a RECORD past the read limit): then an empty owner says nothing.
  bool owner_known = true;
  /// The TensorFlow it was built for, as the installed METADATA says: the owner's requirements on
  /// a TensorFlow distribution, or those of the distribution that requires the owner
  /// (intel-extension-for-tensorflow for intel-extension-for-tensorflow-lib).
  std::vector<DistRequirement> requires_tensorflow;
  std::string requirement_source;  ///< the METADATA those came from
  std::string problem;             ///< why the loader would refuse the file; empty: it looks loadable

  bool operator==(const TfPlugin&) const = default;
};

struct PythonEnvFacts {
  std::string path;         ///< env prefix
  std::string kind;         ///< "system", "venv", "conda", "pyenv", "virtualenv"
  std::string interpreter;  ///< path of python executable, if present
  std::optional<Version> python_version;
  std::string python_version_source;  ///< "pyvenv.cfg", "conda-meta", "lib/pythonX.Y", "executable"
  std::vector<std::string> site_packages;
  std::vector<std::string> found_via;  ///< "PATH", "VIRTUAL_ENV", "CONDA_PREFIX", "~/.virtualenvs", ...
  std::vector<FrameworkFacts> frameworks;
  std::vector<NvidiaWheel> nvidia_wheels;
  /// numpy, per site-packages directory it is installed in.
  std::vector<PlainDist> packages;
  /// Where TensorFlow is installed: the plugins its import loads; at most 64 a folder.
  std::vector<TfPlugin> tf_plugins;
  /// Why the environment's interpreter cannot start (a venv whose bin/python3 points at a
  /// removed base Python, a pyvenv.cfg `home` that is gone); empty when nothing says so.
  std::string interpreter_problem;
  /// --root: the base Python's folder (pyvenv.cfg `home`) is not in the tree either, so the tree
  /// may be a partial copy that left it out: the problem is said, not judged.
  bool interpreter_base_unseen = false;
  /// The environment's own frameworks that `import` does not take, because a copy reached first
  /// (FrameworkFacts::reached_via, in `frameworks`) hides them.
  std::vector<FrameworkFacts> shadowed;

  bool operator==(const PythonEnvFacts&) const = default;
};

struct EnvVarFacts {
  std::string name;
  std::string value;

  bool operator==(const EnvVarFacts&) const = default;
};

/// A probe that could not do its work: what, where, why. Rendered as a finding.
struct ProbeProblem {
  std::string probe;  ///< "toolkits", "python", "nvml"
  std::string path;
  std::string message;

  bool operator==(const ProbeProblem&) const = default;
};

/// A Python registered under PEP 514 (HKCU / HKLM\Software\Python\<company>\<tag>), the
/// list `py.exe` chooses from.
struct PythonRegistration {
  std::string hive;          ///< "HKCU", "HKLM", "HKLM (32-bit view)"
  std::string company;       ///< "PythonCore", "ContinuumAnalytics", ...
  std::string tag;           ///< "3.11", "3.11-32", "Anaconda3-64"
  std::string install_path;  ///< InstallPath's default value
  std::string executable;    ///< InstallPath\ExecutablePath, when registered
  std::string version;       ///< SysVersion (or Version) as registered
  bool exists = false;       ///< install_path is a directory of the tree

  bool operator==(const PythonRegistration&) const = default;
};

/// A DLL looked for by name in one place (the MSVC runtime in System32).
struct WindowsDll {
  std::string name;  ///< "msvcp140.dll"
  std::string path;  ///< where it was found; empty: not there

  bool operator==(const WindowsDll&) const = default;
};

/// A DLL a framework needs on native Windows, the loader that opens it, and what that loader
/// finds (docs/windows-inventory.md: the search order each loader applies).
struct DllLoad {
  std::string framework;  ///< "tensorflow", "torch"
  std::string env;        ///< the Python environment's path
  std::string dll;        ///< "cudnn64_8.dll"
  /// "tensorflow-dso-loader" (LoadLibraryExW, LOAD_WITH_ALTERED_SEARCH_PATH: PATH searched),
  /// "torch-dll-loader" (torch\lib and os.add_dll_directory first, PATH as its fallback).
  std::string loader;
  std::string path;  ///< the file the loader finds; empty: none
  std::string via;   ///< "PATH", "torch\\lib", "System32", "application directory", ...
  /// Copies of the DLL elsewhere that this loader does not search (a toolkit bin not on PATH).
  std::vector<std::string> unreached;
  /// The version of the file found, for cuDNN (cudnn64_N.dll), whose name gives only its major
  /// (probe/cudnn_dll_version.hpp): empty when not read or unreadable.
  std::optional<Version> version;
  std::string version_source;   ///< "<path> file version 8.9.4.25", "<include>\cudnn_version.h"
  std::string version_problem;  ///< why no version could be read; empty when one was, or none was looked for
  /// The file whose import table names this DLL: the framework's own (torch\lib\torch_cuda.dll),
  /// or a DLL it loads from elsewhere (a toolkit's cudnn_ops_infer64_8.dll, which imports
  /// zlibwapi.dll); empty when the DLL comes from what the loader is known to open (a TensorFlow
  /// build's CUDA DLLs).
  std::string needed_by;
  /// The file found is a PE image for another machine than x86-64 (a 32-bit zlibwapi.dll, zlib's
  /// dll_x86 build): "x86 (32-bit)". A 64-bit python.exe cannot load it: error 193,
  /// ERROR_BAD_EXE_FORMAT. Empty: x86-64, or not read as a PE image.
  std::string wrong_machine;
  bool delay_loaded = false;  ///< named only in needed_by's delay-load table: needed at its first use
  /// torch, a DLL not found: whether the wheel's RECORD installs it in torch\lib (false: a
  /// reinstall cannot bring it back); unknown without a readable RECORD or for other frameworks.
  std::optional<bool> in_wheel;

  bool operator==(const DllLoad&) const = default;
};

/// Native Windows only: what the registry and the Windows folders add.
struct WindowsFacts {
  std::string registry_source;  ///< "the registry", "registry export x.reg"; empty: none read
  std::string build;            ///< CurrentBuild ("22631"), from the registry
  std::vector<PythonRegistration> pythons;
  std::vector<WindowsDll> msvc_runtime;    ///< msvcp140.dll, msvcp140_1.dll, vcruntime140.dll, vcruntime140_1.dll
  std::string py_launcher;                 ///< py.exe, when installed
  std::vector<std::string> store_pythons;  ///< Microsoft Store Python packages (their user site folders)
  std::vector<DllLoad> dll_loads;
  /// A tree with no PATH (no --env-file naming it, no Environment keys in the registry export):
  /// the loaders' PATH search saw nothing, so a DLL not found may still be on the real PATH.
  bool path_unknown = false;

  bool operator==(const WindowsFacts&) const = default;
};

/// A port this node can reach other nodes through, from sysfs: an InfiniBand or RoCE HCA port
/// (/sys/class/infiniband/<dev>/ports/<n>) or an Ethernet interface backed by a device
/// (/sys/class/net/<if> with a `device` link; virtual interfaces have none and are skipped).
struct NetworkLink {
  std::string kind;    ///< "infiniband", "roce" (an HCA port whose link layer is Ethernet), "ethernet"
  std::string device;  ///< "mlx5_0", "eth0"
  int port = 0;        ///< the HCA's port number (from 1); 0 for an Ethernet interface
  /// The rate the kernel reports, in Gb/s: an HCA port's `rate` ("400 Gb/sec (4X NDR)"), an
  /// interface's `speed` (Mb/s ÷ 1000). Unknown (nullopt) when missing, -1 or unreadable.
  std::optional<double> rate_gbps;
  std::optional<int> width;  ///< an HCA port's lanes ("4X" -> 4), from its rate; unknown for Ethernet
  std::string rate_text;     ///< the HCA's rate line as read (cut, printable): "400 Gb/sec (4X NDR)"
  std::string state;         ///< HCA "ACTIVE", "DOWN", "INIT", ...; Ethernet operstate "up", "down", ...
  std::string phys_state;    ///< HCA "LinkUp", "Polling", "Disabled", ...; empty for Ethernet
  bool up = false;           ///< passes traffic: HCA state ACTIVE, or operstate "up"

  bool operator==(const NetworkLink&) const = default;
};

struct Facts {
  Platform platform = Platform::linux;
  std::string root = "/";
  bool live = false;
  OsFacts os;
  DriverFacts driver;
  std::vector<GpuFacts> gpus;
  std::vector<ToolkitFacts> toolkits;
  std::vector<LibraryFacts> libraries;
  std::vector<PythonEnvFacts> python_envs;
  std::vector<EnvVarFacts> env;      ///< GPU-relevant variables that are set
  std::vector<NetworkLink> network;  ///< HCA ports and device-backed Ethernet interfaces (Linux)
  std::vector<ProbeProblem> problems;
  std::optional<WindowsFacts> windows;  ///< native Windows targets only

  bool operator==(const Facts&) const = default;
};

}  // namespace gpudoctor
