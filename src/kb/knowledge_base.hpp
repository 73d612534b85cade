#pragma once
/// The compatibility knowledge base: the tables of data/compat/*.toml as typed rows, and the
/// lookups checks and the resolver need. Every row keeps its `source`. Loading never throws:
/// a broken file gives KbIssue entries (file, row, message), and load() refuses a knowledge
/// base with error-level issues so a wrong table is never silently half-used.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "core/version.hpp"
#include "platform/platform.hpp"

namespace gpudoctor {

struct DataFile;

// ---- Rows ---------------------------------------------------------------------------------

/// A TensorFlow tested build configuration for one release series on one OS.
struct TfBuild {
  Version version;     ///< series "2.15" (covers 2.15.x)
  std::string tested;  ///< what the table printed: "2.15.0", "tensorflow_gpu-2.10.0"
  std::string os;      ///< "linux" or "windows" (WSL2 uses the linux rows)
  VersionSpec python;
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
  std::string wsl2_min_windows_build;
  std::string wsl2_source;
  std::optional<Version> wsl2_min_driver;       ///< the Windows driver floor for GPU in WSL2, when sourced
  std::optional<Version> wsl2_min_driver_cuda;  ///< the CUDA (major) that floor was given for
  std::string wsl2_driver_source;
  /// Non-empty: the Linux aarch64 wheels on PyPI are CPU-only (Grace/GH200, DGX Spark, Jetson
  /// get no GPU from `pip install tensorflow[and-cuda]`); the source says where that was read.
  std::string aarch64_cpu_only_source;
  std::vector<TfBuild> builds;
  std::vector<TfAndCuda> and_cuda;
  std::vector<TfPackage> packages;
  std::vector<KnownGap> gaps;
};

struct TorchVariant {
  std::string tag;  ///< "cu126"
  Version cuda;
  std::optional<Version> cudnn;
  std::string cudnn_source;    ///< where the cuDNN pin was read, when not the release's source
  std::string status;          ///< "stable" or "experimental"
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

struct TorchTable {
  std::string index_url;  ///< with "{tag}"
  std::string index_source;
  std::vector<std::string> os;
  std::vector<TorchRelease> releases;
};

struct JaxVariant {
  std::string extra;  ///< "cuda12", "cuda13"
  Version built_cuda;
  Version built_cudnn;
  VersionSpec cuda;
  VersionSpec cudnn;
  Version driver_linux;
  Version min_cc;
  bool preferred = false;
  std::string source;
};

struct JaxTable {
  std::vector<std::string> os;
  bool wsl2_experimental = true;
  std::string note;
  std::string source;
  std::vector<JaxVariant> variants;
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

struct GpuModel {
  std::string name;  ///< as nvidia-smi prints it
  Version cc;
  std::string arch;
  std::string note;
  std::string source;
  std::string key;  ///< normalised name used for matching
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

// ---- Loading and validation ---------------------------------------------------------------

struct KbIssue {
  enum class Level { warning, error };
  Level level = Level::error;
  std::string file;   ///< "compat/pytorch.toml"
  std::string where;  ///< "release[3].variant[1]", "" for the file
  std::string message;
  std::string origin;  ///< "built-in" or the host path
  [[nodiscard]] std::string str() const;
};

/// How a GPU model was matched.
struct GpuMatch {
  const GpuModel* model = nullptr;       ///< null: unknown
  std::vector<std::string> suggestions;  ///< nearest known names when unknown
};

/// What a build can run on a GPU of a given compute capability.
enum class ArchCoverage {
  native,       ///< SASS for this exact arch, or for a lower minor of the same major
  ptx_jit,      ///< no SASS, but PTX the driver can JIT-compile (slow first start)
  unknown_ptx,  ///< no SASS possible; whether PTX is shipped is not recorded
  none,         ///< no kernels for this GPU
  derived,      ///< the build's own list is not recorded; its toolkit could hold SASS for this GPU
  unknown,      ///< no list is recorded for this platform (aarch64): coverage cannot be judged
};
const char* to_string(ArchCoverage c);

class KnowledgeBase {
 public:
  /// The built-in tables overlaid by kb_dir (empty: built-in only). Fails on any error-level
  /// issue; the message lists the first few.
  static Result<KnowledgeBase> load(const std::string& kb_dir);
  /// Parses files into a knowledge base and reports every issue found (schema, types, versions,
  /// sources, gaps, overlaps). Never fails: the returned base holds the rows that parsed.
  static KnowledgeBase parse(const std::vector<DataFile>& files, std::vector<KbIssue>& issues);
  /// Semantic checks over parsed tables: sources, gaps, overlaps, references.
  void validate(std::vector<KbIssue>& issues) const;

  TensorflowTable tensorflow;
  TorchTable pytorch;
  JaxTable jax;
  std::vector<CudaDriverRow> cuda_drivers;  ///< newest first
  std::vector<CudaFamily> cuda_families;
  std::vector<KnownGap> cuda_gaps;
  std::vector<ToolkitArch> toolkit_archs;
  std::vector<ArchGeneration> generations;
  std::vector<GpuModel> gpus;
  std::vector<CudnnBuild> cudnn_builds;
  std::vector<Version> python_versions;
  std::string python_source;
  std::vector<std::string> files_loaded;  ///< "compat/x.toml (built-in)"

  // ---- Lookups ----
  /// Tolerant name match: case, punctuation, vendor words and suffixes ("Laptop GPU",
  /// "80GB HBM3", "-SXM4-80GB") do not matter; "RTX 3060" finds "NVIDIA GeForce RTX 3060".
  [[nodiscard]] GpuMatch find_gpu(std::string_view name) const;
  [[nodiscard]] std::optional<Version> compute_capability(std::string_view gpu_name) const;
  /// Up to max known names closest to name (edit distance on the normalised form).
  [[nodiscard]] std::vector<std::string> nearest_gpu_names(std::string_view name, size_t max = 5) const;
  [[nodiscard]] const ArchGeneration* generation_of(const Version& cc) const;

  /// The driver packaged with that toolkit release (full feature set). For a version with an
  /// unknown patch (12.2 or 12.2.140) the newest update of the series is used. WSL2 counts as
  /// Windows (the driver lives there). Empty when the table has no row or says N/A.
  [[nodiscard]] std::optional<Version> min_driver_for_cuda(const Version& cuda, Platform platform) const;
  [[nodiscard]] const CudaDriverRow* driver_row_for_cuda(const Version& cuda) const;
  /// Minor-version compatibility floor for the CUDA major family.
  [[nodiscard]] const CudaFamily* family_for_cuda(const Version& cuda) const;
  [[nodiscard]] std::optional<Version> family_min_driver(const Version& cuda, Platform platform) const;
  /// The driver floor of a GPU's architecture on a platform (WSL2: Windows); empty when the
  /// generation or its first toolkit's driver is not in the tables.
  [[nodiscard]] std::optional<ArchDriverFloor> arch_driver_floor(const Version& cc, Platform platform) const;
  /// SASS archs a toolkit can compile for; null when the table has no row.
  [[nodiscard]] const ToolkitArch* toolkit_arch(const Version& cuda) const;

  /// TF tested build for a version on a platform (WSL2 = linux rows).
  [[nodiscard]] const TfBuild* tf_build(const Version& version, Platform platform) const;
  [[nodiscard]] const TfAndCuda* tf_and_cuda(const Version& version) const;
  [[nodiscard]] const TfPackage* tf_package(std::string_view name) const;
  [[nodiscard]] bool tf_native_windows_gpu(const Version& version) const;
  [[nodiscard]] const TorchRelease* torch_release(const Version& version) const;
  [[nodiscard]] const TorchVariant* torch_variant(const TorchRelease& release, std::string_view tag) const;
  [[nodiscard]] std::string torch_index_url(std::string_view tag) const;
  [[nodiscard]] const JaxVariant* jax_variant(std::string_view extra) const;

  /// Coverage of a GPU by a list of SASS archs (+PTX): same-major lower-minor SASS runs.
  static ArchCoverage coverage_by_list(const Version& cc, const std::vector<Version>& archs,
                                       const std::optional<Version>& ptx);
  /// Coverage of a GPU by a PyTorch variant (sourced list, else toolkit bounds and min_cc).
  /// aarch64 (Jetson, Grace): only the sourced aarch64 list counts; without one, unknown.
  [[nodiscard]] ArchCoverage torch_coverage(const TorchVariant& v, const Version& cc, Platform platform,
                                            bool aarch64 = false) const;
  /// Coverage of a GPU by a TF build: the sourced list; without one, `derived` where the
  /// toolkit's SASS list holds the GPU (an assumption, never `native`).
  [[nodiscard]] ArchCoverage tf_coverage(const TfBuild& b, const Version& cc) const;
  /// A build of the same OS and CUDA major whose arch list is recorded (TF 2.15-2.21 -> 2.20;
  /// the same CUDA minor first): the nearest evidence for a build whose own list is not.
  [[nodiscard]] const TfBuild* tf_recorded_neighbour(const TfBuild& b) const;
};

/// Normalises a GPU name for matching ("NVIDIA GeForce RTX 3060 Laptop GPU" -> "rtx 3060").
std::string normalize_gpu_name(std::string_view name);

/// Jetson boards (Tegra, aarch64): by name, or by the compute capabilities only Tegra has.
bool is_jetson(std::string_view gpu_name, const std::optional<Version>& cc);

/// Parses "12.6", "8.6", "sm_86", "compute_90", "86" into a compute capability.
std::optional<Version> parse_compute_capability(std::string_view text);

}  // namespace gpudoctor
