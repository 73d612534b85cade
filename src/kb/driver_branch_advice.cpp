#include "kb/driver_branch_advice.hpp"

#include <algorithm>
#include <charconv>
#include <vector>

#include "core/text.hpp"

namespace gpudoctor {

namespace {

const CudaFamily* family_after(const KnowledgeBase& kb, int major) {
  const CudaFamily* next = nullptr;
  for (const CudaFamily& f : kb.cuda_families) {
    if (f.major > major && (next == nullptr || f.major < next->major)) next = &f;
  }
  return next;
}

}  // namespace

DriverBranchAdvice driver_branch_advice(const KnowledgeBase& kb, std::string_view branch,
                                        std::optional<int> installed_major, std::string_view distro,
                                        std::string_view version_id) {
  DriverBranchAdvice out;
  int major = 0;
  const auto [end, ec] = std::from_chars(branch.data(), branch.data() + branch.size(), major);
  if (ec != std::errc{} || major <= 0) return out;
  const std::string name(branch);
  if (const CudaDriverRow* row = kb.newest_toolkit_for_branch(major)) {
    out.toolkits = "With the " + name + " branch, CUDA " + row->cuda.truncated(2).str() +
                   " is the newest toolkit whose own driver it is (" +
                   (row->release.empty() ? row->cuda.str() : row->release) + ": " + row->linux->str() + ")";
    if (auto cuda = kb.newest_cuda_major_for_branch(major)) {
      out.toolkits += "; CUDA " + std::to_string(*cuda) + ".x builds run on it through minor-version compatibility";
      if (const CudaFamily* next = family_after(kb, *cuda)) {
        out.toolkits += ", CUDA " + std::to_string(next->major) + " needs " + next->linux.str() +
                        " or later, a branch that no longer drives this GPU";
      }
    }
    out.toolkits += ".";
  }
  const std::string other = installed_major ? std::to_string(*installed_major) : std::string{};
  if (const DriverBranchPackage* p = kb.branch_package(distro, version_id, major)) {
    out.install = "Install the " + name + " branch: `sudo apt-get install " + p->package + "` (" + p->distro + " " +
                  p->suite + ", non-free; " + p->version + "), remove the " +
                  (other.empty() ? std::string("newer") : other) + " driver's packages, then reboot.";
    return out;
  }
  out.install = "Install the " + name + " legacy branch" + (other.empty() ? "" : " in place of driver " + other) +
                ": your distribution's " + std::to_string(major) + " package, or NVIDIA's " + name +
                " legacy driver; then reboot.";
  std::vector<std::string> known;
  for (const DriverBranchPackage& pkg : kb.branch_packages) {
    std::string one = pkg.distro + " " + pkg.version_id + ": " + pkg.package;
    if (pkg.branch == major && !pkg.version_id.empty() && std::find(known.begin(), known.end(), one) == known.end())
      known.push_back(one);
  }
  if (!known.empty()) out.install += " Packaged as " + join(known, ", ") + ".";
  return out;
}

}  // namespace gpudoctor
