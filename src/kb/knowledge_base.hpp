#pragma once
/// The compatibility knowledge base: the tables of data/compat/*.toml as typed rows, and the
/// lookups checks and the resolver need. Every row keeps its `source`. Loading never throws:
/// a broken file gives KbIssue entries (file, row, message), and load() refuses a knowledge
/// base with error-level issues so a wrong table is never silently half-used.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "core/version.hpp"
#include "model/facts.hpp"
#include "model/kb_rows.hpp"
#include "model/platform.hpp"

namespace gpudoctor {

struct DataFile;

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
  /// When unknown: the known names holding every word of the query, if more than one ("RTX
  /// 6000": Quadro RTX 6000, RTX 6000 Ada, RTX PRO 6000 Blackwell). Not guessed between.
  std::vector<std::string> ambiguous;
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
  /// Reads the PCI ID database (pci/, kb_dir's copy over the built-in one) into pci_names;
  /// before validate(), whose checks of the chip names need it.
  std::optional<Error> read_pci_names(const std::string& kb_dir);
  /// Semantic checks over parsed tables: sources, gaps, overlaps, references.
  void validate(std::vector<KbIssue>& issues) const;

  TensorflowTable tensorflow;
  TorchTable pytorch;
  JaxTable jax;
  std::vector<CudaDriverRow> cuda_drivers;  ///< newest first
  std::vector<CudaFamily> cuda_families;
  std::vector<KnownGap> cuda_gaps;
  /// Toolkit releases known to exist whose driver row was not retrieved (cuda_drivers.toml
  /// `unrecorded`): their driver is unknown, never the row before them.
  std::vector<Version> cuda_unrecorded;
  std::string cuda_unrecorded_source;
  std::vector<ToolkitArch> toolkit_archs;
  std::vector<ArchGeneration> generations;
  std::vector<ChipWithoutTensorCores> chips_without_tensor_cores;
  std::vector<GpuModel> gpus;
  std::vector<LegacyDriverBranch> legacy_branches;  ///< newest branch first
  std::vector<DriverBranchPackage> branch_packages;
  std::vector<GpuPeak> gpu_peaks;
  std::vector<CudnnBuild> cudnn_builds;
  std::vector<Version> python_versions;
  std::string python_source;
  std::vector<NumpyAbiRow> numpy_abi;
  /// NVIDIA PCI device id -> the PCI ID database's name, from data/pci/nvidia.ids (or --kb's
  /// copy): names a GPU the probe found in sysfs on a machine without its own pci.ids.
  std::map<std::string, std::string> pci_names;
  std::vector<std::string> files_loaded;  ///< "compat/x.toml (built-in)"

  // ---- Lookups ----
  /// Tolerant name match: case, punctuation, vendor words and suffixes ("Laptop GPU",
  /// "80GB HBM3", "-SXM4-80GB") do not matter; "RTX 3060" finds "NVIDIA GeForce RTX 3060".
  [[nodiscard]] GpuMatch find_gpu(std::string_view name) const;
  /// The datasheet peaks of a GPU by the same tolerant name match; null when not in the table.
  [[nodiscard]] const GpuPeak* find_gpu_peak(std::string_view name) const;
  [[nodiscard]] std::optional<Version> compute_capability(std::string_view gpu_name) const;
  /// Up to max known names closest to name (edit distance on the normalised form).
  [[nodiscard]] std::vector<std::string> nearest_gpu_names(std::string_view name, size_t max = 5) const;
  [[nodiscard]] const ArchGeneration* generation_of(const Version& cc) const;
  /// The no_tensor_cores rows this GPU falls under: by its PCI device id when known, else by the
  /// devices of its name in the PCI ID database, every one of which must be such a board (a GTX
  /// 1650 is a TU117, a TU116 or a TU106 with them disabled: three rows). Empty when the GPU has
  /// tensor cores, or may have them, or the database does not know it.
  [[nodiscard]] std::vector<const ChipWithoutTensorCores*> without_tensor_cores(std::string_view pci_device_id,
                                                                                std::string_view gpu_name) const;
  /// Jetson boards (Tegra, aarch64): by name, or by a compute capability that the GPU table
  /// gives a Jetson board (Nano 5.3, TX2 6.2, Xavier 7.2, Orin 8.7, Thor 11.0 today).
  [[nodiscard]] bool is_jetson(std::string_view gpu_name, const std::optional<Version>& cc) const;
  /// The GPU's host CPU is Arm (aarch64): a Jetson board, or a model marked `host = "aarch64"`
  /// (Grace superchips, GB10). Such a host gets the aarch64 wheels.
  [[nodiscard]] bool arm_host(std::string_view gpu_name, const std::optional<Version>& cc) const;
  /// The Python range of a PyTorch release's wheels for that platform (win_amd64, manylinux
  /// aarch64 on an Arm host, else manylinux x86_64): `python`, or the platform's own range
  /// (`python_os_source`).
  [[nodiscard]] static const VersionSpec& torch_python(const TorchRelease& r, Platform os, bool arm_host);

  /// The driver packaged with that toolkit release (full feature set). For a version with an
  /// unknown patch (12.2 or 12.2.140) the newest update of the series is used. WSL2 counts as
  /// Windows (the driver lives there). Empty when the table has no row or says N/A, and for a
  /// version at or after an `unrecorded` release of its series (13.3 Update 1: not 13.3's driver).
  [[nodiscard]] std::optional<Version> min_driver_for_cuda(const Version& cuda, Platform platform) const;
  [[nodiscard]] const CudaDriverRow* driver_row_for_cuda(const Version& cuda) const;
  /// Minor-version compatibility floor for the CUDA major family.
  [[nodiscard]] const CudaFamily* family_for_cuda(const Version& cuda) const;
  [[nodiscard]] std::optional<Version> family_min_driver(const Version& cuda, Platform platform) const;
  /// The driver floor of a GPU's architecture on a platform (WSL2: Windows); empty when the
  /// generation or its first toolkit's driver is not in the tables.
  [[nodiscard]] std::optional<ArchDriverFloor> arch_driver_floor(const Version& cc, Platform platform) const;
  /// The last driver branch that drives a PCI device ("102d", Tesla K80: 470.xx); null when no
  /// driver package read calls the device legacy.
  [[nodiscard]] const LegacyDriverBranch* legacy_branch(std::string_view pci_device_id) const;
  /// The last driver branch of a GPU: by its PCI device id when known (sysfs, NVML), else by its
  /// name in the PCI ID database, where every device of that name must be legacy (the newest of
  /// their branches counts); else its generation's `last_driver_branch` by compute capability
  /// (cuda_arch.toml: Pascal R580), whose source says the device lists did not cover it. Empty
  /// when neither ends it. The row carries no device list.
  [[nodiscard]] std::optional<LegacyDriverBranch> last_driver_branch(std::string_view pci_device_id,
                                                                     std::string_view gpu_name,
                                                                     const std::optional<Version>& cc) const;
  /// The same for a GPU of the facts: its PCI device id, its knowledge-base name (else its own
  /// name) and its compute capability.
  [[nodiscard]] std::optional<LegacyDriverBranch> last_driver_branch(const GpuFacts& gpu) const;
  /// NVIDIA's driver branches the tables know, oldest first: the Linux driver of each toolkit
  /// (compat/cuda_drivers.toml, NVIDIA's table), the legacy branches and the packages' branches
  /// (compat/driver_branches.toml). Not every branch: 396, 430 and 435, for instance, are missing.
  [[nodiscard]] std::vector<int> driver_branch_sequence() const;
  /// The branch after `branch` in that sequence (470 -> 495); empty when none is known.
  [[nodiscard]] std::optional<int> next_driver_branch(int branch) const;
  /// Whether `driver` is of a branch after `branch`, so that it no longer drives a GPU whose last
  /// branch that is. Linux numbers a branch's drivers by the branch (470.256.02); Windows, whose
  /// driver WSL2 uses, numbers them up to the next branch (R470: 471.11 to 475.14), so there the
  /// driver is past when its major reaches the next branch. False when no next branch is known.
  [[nodiscard]] bool driver_past_branch(const Version& driver, int branch, Platform platform) const;
  /// The newest toolkit whose own Linux driver is of `branch` or older (470: CUDA 11.4 Update 4,
  /// 470.82.01); null when none is.
  [[nodiscard]] const CudaDriverRow* newest_toolkit_for_branch(int branch) const;
  /// The newest CUDA major whose minor-version-compatibility floor a driver of `branch` meets
  /// on Linux (470: 11); empty when none.
  [[nodiscard]] std::optional<int> newest_cuda_major_for_branch(int branch) const;
  /// The package of `branch` in a distribution release (os-release ID and VERSION_ID); null when
  /// none of the packages read is.
  [[nodiscard]] const DriverBranchPackage* branch_package(std::string_view distro, std::string_view version_id,
                                                          int branch) const;
  /// The PCI device ids whose PCI-database name ("GK210GL [Tesla K80]") names the GPU `name`
  /// ("Tesla K80", "NVIDIA Tesla K80"): for a GPU described by name only.
  [[nodiscard]] std::vector<std::string> pci_devices_named(std::string_view name) const;
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
  /// The harvested row of a JAX release (its Python range, extras, cuDNN floors); null when none.
  [[nodiscard]] const JaxRelease* jax_release(const Version& version) const;
  /// The cuDNN range a JAX release's extra requires: the release row's, else the variant's.
  [[nodiscard]] const VersionSpec* jax_cudnn(const JaxVariant& v, const std::optional<Version>& release) const;
  /// A version inside a harvested run of releases (`[[release]]`, `[[plugin]]` versions): between
  /// its bounds compared in full, and a final release (no rc/dev tag).
  [[nodiscard]] static bool in_release_run(const VersionSpec& run, const Version& version);
  /// Whether a JAX release run and a request share a release: a bound of either that both hold,
  /// or a harvested JAX release both hold (an exclusive bound is in neither: "<0.7" and the run
  /// from 0.7.0 share nothing, which a bound test alone took for an overlap until 2026-12-07).
  [[nodiscard]] static bool jax_run_overlaps(const VersionSpec& run, const VersionSpec& request);
  /// The PJRT plugin row of an extra for a JAX release (its archs and CUDA); null when none.
  [[nodiscard]] const JaxPlugin* jax_plugin(std::string_view extra, const Version& release) const;
  /// Coverage of a GPU by a JAX extra at a release: the plugin's recorded list (a release older
  /// than every row: the oldest row's; one newer than every row, or between rows: unknown);
  /// without a release, the variant's floor (min_cc) alone. Below min_cc: none.
  [[nodiscard]] ArchCoverage jax_coverage(const JaxVariant& v, const std::optional<Version>& release,
                                          const Version& cc) const;
  /// The yanked row of a JAX release; null when PyPI serves it normally.
  [[nodiscard]] const JaxYanked* jax_yanked(const Version& release) const;

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
  /// The recorded build (one with an architecture list) of this OS ("linux") and CUDA major, of the
  /// same CUDA minor if there is one, else the newest: what a release the tables lack most likely
  /// compiled (2.22.0rc0's binaries hold 2.21's list). Null when none is recorded.
  [[nodiscard]] const TfBuild* tf_recorded_like(std::string_view os, const Version& cuda) const;
};

/// Normalises a GPU name for matching ("NVIDIA GeForce RTX 3060 Laptop GPU" -> "rtx 3060").
std::string normalize_gpu_name(std::string_view name);

/// Parses "12.6", "8.6", "sm_86", "compute_90", "86" into a compute capability.
std::optional<Version> parse_compute_capability(std::string_view text);

}  // namespace gpudoctor
