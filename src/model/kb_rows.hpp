#pragma once
/// The knowledge base's records: one struct per row of data/compat/*.toml, each keeping its
/// `source`. Plain data, shared by the knowledge base (kb/, which loads and queries them) and
/// the renderers of `matrix` (render/, which prints them).
#include <optional>
#include <string>
#include <vector>

#include "core/version.hpp"

namespace gpudoctor {

/// A TensorFlow tested build configuration for one release series on one OS.
struct TfBuild {
  Version version;     ///< series "2.15" (covers 2.15.x)
  std::string tested;  ///< what the table printed: "2.15.0", "tensorflow_gpu-2.10.0"
  std::string os;      ///< "linux" or "windows" (WSL2 uses the linux rows)
  VersionSpec python;
  std::string python_source;  ///< where the Python range was read, when not `source`
  /// The pip package of the GPU build: "tensorflow-gpu" before 2.1, whose `tensorflow` is CPU-only.
  std::string package = "tensorflow";
  std::string package_source;
  bool gpu = true;              ///< false: CPU-only build (native Windows from 2.11)
  std::optional<Version> cuda;  ///< empty when gpu is false
  std::optional<Version> cudnn;
  std::vector<Version> archs;  ///< SASS archs of the wheel, when the facts record them
  std::optional<Version> ptx;  ///< PTX arch shipped, when recorded
  std::string archs_source;
  std::string note;
  std::string source;
};

/// What `tensorflow[and-cuda]` installs for a release series.
struct TfAndCuda {
  VersionSpec versions;
  std::string recommended;  ///< exact version to install ("2.15.0.post1"), may be empty
  std::vector<std::string> pins;
  std::vector<Version> no_wheel_python;  ///< Pythons a pinned wheel has no build for: pip fails
  std::string note;
  std::string source;
};

struct TfPackage {
  std::string name;
  std::optional<bool> gpu;  ///< false: never a GPU build
  std::string note;
  std::string source;
  /// A distribution that is no longer published: its last real release, its last one with a
  /// native-Windows wheel, and what installing it does now.
  std::optional<Version> last_release;
  std::optional<Version> last_windows_release;
  std::string removed;
};

/// The Keras a TensorFlow series requires (its METADATA: keras<2.16,>=2.15.0 up to 2.15, Keras 3
/// from 2.16); Keras 2 code on TF >= 2.16 needs `tf-keras` of the same series.
struct TfKeras {
  Version tensorflow;  ///< series "2.16"
  VersionSpec keras;
  std::string source;
};

/// The TensorFlow range a tensorflow-addons series supports (its version.py:
/// INCLUSIVE_MIN_TF_VERSION / EXCLUSIVE_MAX_TF_VERSION).
struct TfAddons {
  Version addons;  ///< series "0.23"
  VersionSpec tensorflow;
  std::string end_of_life;  ///< "May 2024" where the release's own notice says so
  std::string source;
};

/// What a tensorflow-probability series' import checks (its python/__init__.py,
/// _validate_tf_environment): the TensorFlow it refuses to run below, and from 0.24 `import tf_keras`.
struct TfProbability {
  Version probability;  ///< series "0.25"
  Version tensorflow;   ///< required_tensorflow_version: "2.18"
  bool tf_keras = false;
  std::string source;
};

/// A hole in an official table that is known and sourced, so validation does not flag it.
struct KnownGap {
  std::string table;
  std::string os;
  Version version;
  std::string source;
};

struct TensorflowTable {
  Version windows_gpu_last;
  std::string windows_gpu_note;
  std::string windows_gpu_source;
  /// The conda-forge cuDNN package TF's native-Windows recipe installs ("8.1.0" for the tested
  /// cuDNN 8.1): conda versions have three parts where the tested table gives two.
  std::optional<Version> windows_gpu_conda_cudnn;
  std::string windows_gpu_conda_source;
  std::string wsl2_min_windows_build;
  std::string wsl2_source;
  std::optional<Version> wsl2_min_driver;       ///< the Windows driver floor for GPU in WSL2, when sourced
  std::optional<Version> wsl2_min_driver_cuda;  ///< the CUDA (major) that floor was given for
  std::string wsl2_driver_source;
  /// Non-empty: the Linux aarch64 wheels on PyPI are CPU-only (Grace/GH200, DGX Spark, Jetson
  /// get no GPU from `pip install "tensorflow[and-cuda]"`); the source says where that was read.
  std::string aarch64_cpu_only_source;
  std::vector<TfBuild> builds;
  std::vector<TfAndCuda> and_cuda;
  std::vector<TfPackage> packages;
  std::vector<TfKeras> keras;
  std::vector<TfAddons> addons;
  std::vector<TfProbability> probability;
  std::vector<KnownGap> gaps;
};

/// Whether PyTorch's install matrix offers a wheel variant as stable or as experimental.
enum class VariantStatus { stable, experimental };

inline const char* to_string(VariantStatus s) {
  return s == VariantStatus::experimental ? "experimental" : "stable";
}

struct TorchVariant {
  std::string tag;  ///< "cu126"
  Version cuda;
  std::optional<Version> cudnn;
  std::string cudnn_source;  ///< where the cuDNN pin was read, when not the release's source
  /// What the variant's wheel METADATA requires of nvidia-nccl-cuXX ("==2.30.7"); empty: not read
  /// (only PyPI's default variant's wheels were).
  std::optional<VersionSpec> nccl;
  std::string nccl_source;
  VariantStatus status = VariantStatus::stable;
  std::vector<Version> archs;  ///< SASS archs, when sourced; else bounded by the toolkit
  std::optional<Version> ptx;
  std::vector<std::string> ptx_os;  ///< where the PTX is shipped ("linux")
  std::optional<Version> min_cc;    ///< lowest CC when no list is sourced (2.8+: 7.5 for cu128)
  std::string archs_source;
  /// The Linux aarch64 wheels' SASS list (+PTX), when sourced; empty: not recorded, so an
  /// aarch64 machine (Jetson) cannot be judged by the x86 list.
  std::vector<Version> aarch64_archs;
  std::optional<Version> aarch64_ptx;
  std::string aarch64_source;
};

struct TorchRelease {
  Version version;  ///< series "2.8"
  VersionSpec python;
  std::string note;
  std::string tags_source;
  std::string python_source;  ///< where the Python range was read, when not `source`
  /// The Python range of the win_amd64 / manylinux aarch64 wheels where it is not `python`'s
  /// (torch 2.5: cp313 for Linux x86_64 only); empty: the same.
  std::optional<VersionSpec> python_windows;
  std::optional<VersionSpec> python_aarch64;
  std::string python_os_source;
  /// The first Python on which this release's torch.compile raises ("Dynamo is not supported on
  /// Python 3.12+") although its wheels install: PyTorch ships a new Python's wheels before
  /// TorchDynamo supports it. Read from the release's torch/__init__.py.
  std::optional<Version> compile_python_from;
  std::string compile_source;
  /// The variant plain `pip install torch` gets from PyPI per platform ("cu130", "cpu");
  /// empty: not recorded. Read from the PyPI wheels' torch/version.py.
  std::string pypi_linux;
  std::string pypi_aarch64;
  std::string pypi_windows;
  std::string pypi_source;
  /// The torchvision / torchaudio series built for this torch (their METADATA pins torch==X):
  /// installed together from the same index so pip does not swap the torch build.
  std::string torchvision;
  std::string torchaudio;
  std::string companions_source;
  std::string source;
  std::vector<TorchVariant> variants;
};

/// torch.backends.cudnn refuses a cuDNN of `cudnn` in a torch of `torch` when any visible GPU is
/// below compute capability `below_cc` (torch/backends/cudnn/__init__.py _init()).
struct TorchCudnnCcRule {
  VersionSpec torch;
  VersionSpec cudnn;
  Version below_cc;
  std::string source;
};

/// Releases of a package whose compiled extension was built against NumPy `built_for`.x headers
/// only: NumPy of a newer major refuses its C-API import ("A module that was compiled using NumPy
/// 1.x cannot be run in NumPy 2.x"), although the package's METADATA puts no bound on numpy.
/// Read from the extension's strings: NumPy 2's headers make import_array() try
/// "numpy._core._multiarray_umath" first, NumPy 1's name only "numpy.core._multiarray_umath".
struct NumpyAbiRow {
  std::string package;  ///< the distribution: "torch", "jaxlib"
  VersionSpec versions;
  int built_for = 1;
  std::string binary;  ///< the extension read: "torch/lib/libtorch_python.so"
  std::string effect;  ///< what fails under the newer major, in words
  std::string source;
};

struct TorchTable {
  std::string index_url;  ///< with "{tag}"
  std::string index_source;
  std::vector<std::string> os;
  std::vector<TorchRelease> releases;
  std::vector<TorchCudnnCcRule> cudnn_refuses_cc;
};

struct JaxVariant {
  std::string extra;  ///< "cuda12", "cuda13"
  Version built_cuda;
  Version built_cudnn;
  VersionSpec cuda;         ///< the CUDA runtime its plugin runs with: one major (">=12.1,<13")
  std::string cuda_source;  ///< where `cuda` was read, when not `source`
  VersionSpec cudnn;
  std::string cudnn_source;         ///< where the cuDNN range was read, when not `source`
  std::optional<VersionSpec> nccl;  ///< what the plugin's with-cuda extra requires of nvidia-nccl
  std::string nccl_source;
  Version driver_linux;
  Version min_cc;
  bool preferred = false;
  std::string source;
};

/// A run of JAX releases that share their Python range, their CUDA extras and those extras'
/// cuDNN floors, as read from the wheels (jax METADATA, jaxlib's cp3XY wheels, the plugins'
/// `with-cuda` extra).
struct JaxRelease {
  VersionSpec versions;                     ///< ">=0.11.2,<=0.12.0.1"
  VersionSpec python;                       ///< Requires-Python floor to the newest cp3XY jaxlib wheel
  std::vector<std::string> extras;          ///< the CUDA extras with a plugin wheel: "cuda12", "cuda13"
  std::optional<VersionSpec> cuda12_cudnn;  ///< what jax-cuda12-plugin[with-cuda] requires; empty: not pinned
  std::optional<VersionSpec> cuda13_cudnn;
  std::string note;
  std::string source;
};

/// What one extra's PJRT plugin (jax-cudaNN-pjrt: jax_plugins/xla_cudaNN/xla_cuda_plugin.so) of a
/// run of releases was compiled for, as its fatbins show: the SASS and PTX architectures and the
/// CUDA that built it (from the PTX ISA version nvcc wrote).
struct JaxPlugin {
  std::string extra;  ///< "cuda12", "cuda13"
  VersionSpec versions;
  Version built_cuda;
  std::vector<Version> archs;  ///< SASS
  std::optional<Version> ptx;  ///< the highest PTX shipped
  std::string source;
};

/// A JAX release PyPI marks yanked (every file of jax, jaxlib and the plugins of that version):
/// pip installs it only when pinned with ==.
struct JaxYanked {
  Version version;
  std::string reason;  ///< PyPI's yanked reason, empty when it gives none
  std::string source;
};

struct JaxTable {
  std::vector<std::string> os;
  bool wsl2_experimental = true;
  std::string note;
  std::string source;
  std::vector<JaxVariant> variants;
  std::vector<JaxRelease> releases;  ///< oldest first
  std::vector<JaxPlugin> plugins;
  std::vector<JaxYanked> yanked;
};

/// The driver packaged with one toolkit release (release notes table).
struct CudaDriverRow {
  Version cuda;         ///< "12.2.2" (Update N = patch N)
  std::string release;  ///< "12.2 Update 2" as the table prints it
  std::optional<Version> linux;
  std::optional<Version> windows;  ///< empty: N/A
  std::string note;
  std::string source;
};

/// Minor-version compatibility: the lowest driver for a whole CUDA major family.
struct CudaFamily {
  int major = 0;
  Version linux;
  Version windows;
  std::optional<Version> upper;  ///< drivers from here on are a newer family (still work)
  std::string note;
  std::string source;
};

struct ToolkitArch {
  VersionSpec cuda;
  std::vector<Version> sass;
  std::string note;
  std::string source;
};

struct ArchGeneration {
  std::string name;
  std::vector<Version> cc;
  Version first_cuda;
  std::optional<int> last_cuda_major;  ///< empty: ongoing
  std::string last_driver_branch;      ///< "R580"; empty: ongoing or unknown
  std::string note;
  std::string source;
};

/// Boards without the tensor cores their architecture has (cuda_arch.toml `[[no_tensor_cores]]`):
/// Turing's TU116 and TU117 chips (GTX 16xx, MX450/MX550, T400-T1200), built without them, and
/// single devices of another chip sold with them disabled (a GTX 1650 on a TU106). Their half
/// precision never runs on tensor cores, so mixed precision cannot give what the guides promise.
struct ChipWithoutTensorCores {
  std::string chip;  ///< "TU117": the PCI ID database's chip names that start with it (TU117M, TU117GL)
  /// When given, only these PCI device ids of the chip ("1f0a"): their tensor cores are disabled.
  std::vector<std::string> devices;
  std::string note;
  std::string source;
};

/// GPUs NVIDIA's newer drivers no longer drive (compat/driver_branches.toml, from the
/// `legacybranch` of supported-gpus.json in the drivers' own packages): no later branch binds them.
struct LegacyDriverBranch {
  std::string branch;                ///< "470.xx", as the driver writes it
  int major = 0;                     ///< 470
  std::vector<std::string> devices;  ///< PCI device ids: 4 hex digits, lower case ("102d")
  std::string source;
};

/// A distribution package that carries a driver branch (compat/driver_branches.toml [[package]]).
struct DriverBranchPackage {
  std::string distro;      ///< os-release ID: "debian"
  std::string suite;       ///< "bookworm", "bookworm-backports", "sid"
  std::string version_id;  ///< os-release VERSION_ID: "12"; empty for sid/experimental
  std::string package;     ///< "nvidia-tesla-470-driver"
  std::string version;     ///< "470.256.02-1~deb12u1"
  int branch = 0;          ///< 470
  std::string source;
};

struct GpuModel {
  std::string name;  ///< as nvidia-smi prints it
  Version cc;
  std::string arch;
  /// The GPU comes only with an Arm (aarch64) host CPU (Grace superchips, DGX Spark's GB10):
  /// what the aarch64 wheels ship is what it gets. Jetson boards are known by is_jetson().
  bool arm_host = false;
  std::string host_source;
  std::string note;
  std::string source;
  std::string key;  ///< normalised name used for matching
};

/// A GPU's datasheet peaks (data/compat/gpu_peaks.toml): the ceilings bench holds its figures
/// against. Dense tensor rates (no 2:4 sparsity), FP32 accumulate; absent where no source gave one.
struct GpuPeak {
  std::string name;     ///< as NVML prints it
  std::string key;      ///< normalised, as GpuModel::key
  std::string variant;  ///< "SXM5 80GB": which board the figures are for
  /// The board's form ("sxm", "pcie", "nvl"; empty: the model comes in one) and memory (GB; unset:
  /// one size): a device whose name says another form or size, or a laptop part, is not this board.
  std::string form;
  std::optional<int> memory_gb;
  std::optional<double> mem_bw_gbps, fp32_tflops, tf32_tflops, fp16_tflops, bf16_tflops, fp8_tflops;
  std::string source;
};

/// The lowest driver that knows a GPU at all: the driver of the first toolkit of its
/// architecture generation (Blackwell: CUDA 12.8 GA, 570.26 / 570.65). A build for an older
/// CUDA family does not lower it.
struct ArchDriverFloor {
  Version driver;
  std::string generation;
  Version first_cuda;
  std::string source;
};

struct CudnnBuild {
  VersionSpec cudnn;
  int cuda_major = 0;
  VersionSpec cuda;
  std::optional<Version> linux;
  std::optional<Version> windows;
  bool windows_unknown = false;  ///< the source gives no Windows driver (not "N/A")
  std::vector<Version> cc;
  std::string note;
  std::string source;
};

}  // namespace gpudoctor
