#pragma once
/// What `pip check` would say about the NVIDIA wheels a framework's METADATA pins: PyTorch's
/// CUDA wheels pin every `nvidia-*` wheel to one version, so a cuDNN or cuBLAS wheel upgraded by
/// hand (or by another package) breaks the environment in pip's eyes even where it still loads.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/facts.hpp"
#include "model/finding.hpp"

namespace gpudoctor {

class KnowledgeBase;

/// The values PEP 508 environment markers are evaluated against; an empty value is unknown.
struct MarkerEnvironment {
  std::string platform_system;      ///< "Linux", "Windows"
  std::string sys_platform;         ///< "linux", "win32"
  std::string os_name;              ///< "posix", "nt"
  std::string platform_machine;     ///< "x86_64", "aarch64", "AMD64"
  std::string python_version;       ///< "3.12"
  std::string python_full_version;  ///< "3.12.3"
};

/// The marker environment of one Python environment of this machine.
MarkerEnvironment marker_environment(const Facts& facts, const PythonEnvFacts& env);

/// A PEP 508 marker: true, false, or nullopt when it cannot be told here (a variable we do not
/// know, a form we do not read, an overlong or malformed marker). `extra` is never set, as in
/// `pip check`: a requirement of an extra does not count. An empty marker is true.
std::optional<bool> evaluate_marker(std::string_view marker, const MarkerEnvironment& env);

/// Findings for frameworks whose requirements the installed wheels do not meet: the `nvidia-*`
/// and numpy requirements of their METADATA, the NumPy major their build needs (the knowledge
/// base's numpy_abi rows, when `kb` is given), and the imports their CUDA libraries' dependencies lack.
std::vector<Finding> requirement_findings(const Facts& facts, const KnowledgeBase* kb = nullptr);

}  // namespace gpudoctor
