#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "kb/knowledge_base.hpp"

namespace gpudoctor {

/// What to do about a GPU whose last driver branch is older than the installed driver: said
/// the same way by the doctor's `driver-drops-gpu` and explain's `gpu-needs-legacy-driver`,
/// all from compat/driver_branches.toml and compat/cuda_drivers.toml.
struct DriverBranchAdvice {
  std::string toolkits;  ///< "With the 470.xx branch, CUDA 11.4 is the newest toolkit ..."; empty: unknown
  std::string install;   ///< the apt command for a known release, else the branch and who packages it
};

/// The CUDA family after `major` (12 -> 13), whose floor a driver must meet; null when none.
const CudaFamily* family_after(const KnowledgeBase& kb, int major);

/// `branch` as the driver writes it ("470.xx"); `installed_major`: the driver that ignores the
/// GPU, when known; `distro`/`version_id`: os-release ID and VERSION_ID, empty when unknown.
DriverBranchAdvice driver_branch_advice(const KnowledgeBase& kb, std::string_view branch,
                                        std::optional<int> installed_major, std::string_view distro,
                                        std::string_view version_id);

}  // namespace gpudoctor
