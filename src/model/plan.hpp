#pragma once
/// An install plan: what `gpudoctor plan` resolves (kb/resolver.hpp) and renders
/// (render/plan_render.hpp). Plain data and the questions asked of it.
#include <optional>
#include <string>
#include <vector>

#include "core/version.hpp"
#include "model/framework.hpp"
#include "model/platform.hpp"

namespace gpudoctor {

/// "tensorflow", "pytorch" or "jax", with optional pip extras and an optional version range
/// ("tensorflow[and-cuda]==2.15", "torch>=2.8", "jax[cuda12]"). "torch" is accepted for "pytorch".
struct FrameworkRequest {
  Framework name = Framework::tensorflow;
  std::optional<VersionSpec> spec;
  std::vector<std::string> extras;  ///< normalised as pip compares them (PEP 685): "cuda12-local"
  std::string local_label;          ///< the build a == pin names: "cu121" of torch==2.5.1+cu121
  std::string text;                 ///< as given
};

struct PlanRequest {
  Platform os = Platform::linux;
  std::string gpu_name;           ///< as given or as NVML printed it; empty: unknown
  std::string gpu_kb_name;        ///< the knowledge base's name, when the facts matched it (a PCI name)
  std::optional<Version> cc;      ///< from NVML, else from the knowledge base
  std::string gpu_pci_device_id;  ///< "102d" from sysfs; empty: described by name only
  std::optional<Version> driver;
  std::optional<Version> python;
  std::vector<FrameworkRequest> frameworks;
  bool from_facts = false;  ///< planned for this machine (true) or a described one
};

/// A reason an option fails (fatal) or needs a change first (not fatal).
struct PlanIssue {
  std::string id;  ///< kebab-case: "tf-native-windows-no-gpu", "python-outside-range"
  bool fatal = false;
  std::string message;
  std::string source;
  /// The option may work, but the knowledge base cannot confirm it (coverage assumed or
  /// unknown, PTX-only, an unsourced driver floor): never shown as a plain ✓.
  bool unverified = false;
};

enum class Shell { bash, powershell };
const char* to_string(Shell s);

struct PlanCommand {
  Shell shell = Shell::bash;
  std::string line;
  bool manual = false;  ///< to do by hand (e.g. install a driver); scripts keep it as a comment
};

struct PlanStep {
  std::string id;  ///< "driver", "wsl2", "env", "install", "verify"
  std::string title;
  std::string detail;
  std::vector<PlanCommand> commands;
};

struct PlanOption {
  Framework framework = Framework::tensorflow;
  Version version;                   ///< release series
  std::string install_spec;          ///< what pip gets: "tensorflow[and-cuda]==2.15.0.post1"
  Platform route = Platform::linux;  ///< where the framework runs
  std::string variant;               ///< "and-cuda", "cu126", "cuda13", "conda-cudatoolkit", "system-cuda", "cpu"
  bool gpu = true;
  std::string python_range;
  std::optional<Version> python;  ///< the interpreter the plan uses
  bool python_change = false;     ///< the given Python is outside the range: a new env
  std::optional<Version> cuda;
  std::optional<Version> cudnn;
  std::optional<Version> driver_min;
  /// The GPU's last driver branch ends here: drivers of this major or newer do not drive it
  /// (Linux 470.xx: 471; Windows R470: 495). Empty when no branch ends the GPU's support.
  std::optional<int> driver_major_below;
  std::string coverage;  ///< to_string(ArchCoverage) or "unknown" without a GPU
  /// Kernels assumed from the toolkit's list, and no recorded list of the release has them.
  bool coverage_assumed = false;
  std::vector<std::string> reasons;
  std::vector<PlanIssue> issues;
  std::vector<PlanStep> steps;
  std::vector<std::string> sources;

  [[nodiscard]] bool fatal() const;
  /// No issue leaves the verdict in doubt: the only options shown with ✓.
  [[nodiscard]] bool verified() const;
  /// The driver given must change first: older than this option needs ("driver-too-old"), or of a
  /// branch after the GPU's last one ("driver-drops-gpu"). Never shown with ✓.
  [[nodiscard]] bool needs_driver_update() const;
  [[nodiscard]] std::string summary() const;  ///< "TensorFlow 2.15 in WSL2 (CUDA 12.2, cuDNN 8.9, Python 3.11)"
};

struct FrameworkPlan {
  FrameworkRequest request;
  std::optional<PlanOption> best;
  std::vector<PlanOption> alternatives;
  std::vector<PlanOption> rejected;  ///< what was asked for but cannot work, with the blockers
  std::vector<std::string> notes;
};

struct Plan {
  PlanRequest request;
  std::string gpu_model;  ///< the knowledge base's name for the GPU
  std::optional<Version> cc;
  std::string gpu_arch;
  std::vector<std::string> gpu_suggestions;  ///< when the GPU name is unknown
  std::vector<PlanIssue> notes;              ///< machine-level problems (unknown GPU, no driver given)
  std::vector<FrameworkPlan> frameworks;
};

/// "on Linux", "on native Windows", "in WSL2".
std::string route_text(Platform p);

/// Steps of the best options, de-duplicated, for scripts and the text view.
std::vector<PlanStep> plan_steps(const Plan& plan);

}  // namespace gpudoctor
