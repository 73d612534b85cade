#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/version.hpp"
#include "kb/knowledge_base.hpp"
#include "model/platform.hpp"

namespace gpudoctor {

/// Where NVIDIA's drivers are downloaded from (Windows, and a driver no distribution packages).
inline constexpr const char* kDriverDownload = "https://www.nvidia.com/Download/index.aspx";

/// What to do about a GPU whose last driver branch is older than the installed driver: said
/// the same way by the doctor's `driver-drops-gpu` and explain's `gpu-needs-legacy-driver`,
/// all from compat/driver_branches.toml and compat/cuda_drivers.toml.
struct DriverBranchAdvice {
  std::string toolkits;  ///< "With the 470.xx branch, CUDA 11.4 is the newest toolkit ..."; empty: unknown
  std::string install;   ///< the apt command for a known release, else the branch and who packages it
};

/// The machine the advice is for.
struct BranchAdviceTarget {
  std::optional<int> installed_major;   ///< the driver that does not drive the GPU, when known
  std::string_view distro;              ///< os-release ID; empty when unknown
  std::string_view version_id;          ///< os-release VERSION_ID
  Platform platform = Platform::linux;  ///< windows and wsl2: NVIDIA's Windows driver, on Windows
  std::optional<Version> cc;            ///< the GPU's compute capability, when known
};

/// The CUDA family after `major` (12 -> 13), whose floor a driver must meet; null when none.
const CudaFamily* family_after(const KnowledgeBase& kb, int major);

/// `branch` as the driver writes it ("470.xx").
DriverBranchAdvice driver_branch_advice(const KnowledgeBase& kb, std::string_view branch,
                                        const BranchAdviceTarget& target);

}  // namespace gpudoctor
