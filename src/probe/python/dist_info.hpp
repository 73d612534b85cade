#pragma once
/// Installed Python distributions, read from the names and METADATA of
/// `<name>-<version>.dist-info` (and legacy `.egg-info`) directories, without RECORD.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/facts.hpp"

namespace gpudoctor {

/// PEP 503 normalisation: lower case, runs of '-', '_', '.' become one '-'.
std::string normalize_dist_name(std::string_view name);

struct DistDirName {
  std::string name;     ///< normalised: "nvidia-cudnn-cu12"
  std::string version;  ///< as written: "9.1.0.70", "2.3.1+cu121"
  std::string kind;     ///< "dist-info" or "egg-info"
};

/// "torch-2.3.1+cu121.dist-info" -> {"torch", "2.3.1+cu121"}; "foo.egg-info" (no version)
/// gives an empty version. nullopt for names that are not metadata directories.
std::optional<DistDirName> parse_dist_dir_name(std::string_view dir_name);

struct DistMetadata {
  std::string name;                        ///< "Name:" header as written
  std::string version;                     ///< "Version:" header
  std::vector<std::string> requires_dist;  ///< "Requires-Dist:" values, at most 512
  std::vector<std::string> problems;
};

/// The RFC 822 style header block of METADATA / PKG-INFO (up to the first blank line).
DistMetadata parse_dist_metadata(std::string_view text);

/// A `Requires-Dist:` value (PEP 508, name form) in its parts: `nvidia-cudnn-cu12 (==9.1.0.70) ;
/// platform_system == "Linux"`; extras are dropped. Nothing for a URL requirement or a bad name.
std::optional<DistRequirement> parse_requirement(std::string_view text);

/// nvidia-* wheel names: "nvidia-cudnn-cu12" -> library "cudnn", cuda major 12;
/// "nvidia-cuda-runtime-cu12" -> "cudart"; CUDA 13's unsuffixed "nvidia-cublas" -> "cublas".
struct NvidiaWheelName {
  std::string library;
  std::optional<int> cuda_major;  ///< from the -cuNN suffix
};
std::optional<NvidiaWheelName> parse_nvidia_wheel_name(std::string_view normalized_name);

/// A requirement pinned to one version in METADATA ("Requires-Dist: nvidia-cudnn-cu12==9.1.0.70;
/// platform_system == \"Linux\""): the first whose normalised name starts with `name_prefix`.
/// PyTorch's CUDA wheels pin the cuDNN they were built with this way; it is the only place the
/// wheel states that version (torch/version.py carries no cuDNN field).
struct PinnedRequirement {
  std::string name;     ///< normalised: "nvidia-cudnn-cu12"
  std::string version;  ///< "9.1.0.70"
};
std::optional<PinnedRequirement> pinned_requirement(std::string_view metadata, std::string_view name_prefix);
/// Whether an unconditional requirement (no `extra ==` marker) names `word` in its name or
/// extras: "nvidia-cusparselt-cu13==0.8.1", "cuda-toolkit[cublas,cufile]==13.2.2" for "cufile".
bool requires_mentioning(std::string_view metadata, std::string_view word);
/// The version a specifier's clause of operator `op` names: ("<13.0,>=12.5.82", ">=") gives
/// "12.5.82"; nullopt when it has no such clause (or an empty or overlong version).
std::optional<std::string> specifier_bound(std::string_view specifier, std::string_view op);
/// The lower bound of such a requirement ("nvidia-cudnn-cu12<10.0,>=9.8" gives 9.8, "~=9.0" 9.0):
/// JAX's CUDA plugins and onnxruntime-gpu's extras state the cuDNN they need this way.
std::optional<PinnedRequirement> requirement_floor(std::string_view metadata, std::string_view name_prefix);

/// The CUDA major of a wheel whose RECORD installs under nvidia/cuNN/ (the CUDA 13 wheels,
/// named without a -cuNN suffix: nvidia-cufft 12.0 puts nvidia/cu13/lib/libcufft.so.12).
std::optional<int> cuda_major_from_record(std::string_view record);

}  // namespace gpudoctor
