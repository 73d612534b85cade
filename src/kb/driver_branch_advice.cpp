#include "kb/driver_branch_advice.hpp"

#include <algorithm>
#include <charconv>
#include <vector>

#include "core/text.hpp"

namespace gpudoctor {

const CudaFamily* family_after(const KnowledgeBase& kb, int major) {
  const CudaFamily* next = nullptr;
  for (const CudaFamily& f : kb.cuda_families) {
    if (f.major > major && (next == nullptr || f.major < next->major)) next = &f;
  }
  return next;
}

namespace {

/// How to install the branch on this distribution; `installed`: the newer driver to take out.
std::string install_how(const KnowledgeBase& kb, const std::string& name, int major, std::optional<int> installed,
                        std::string_view os, std::string_view version_id) {
  const std::string branch = std::to_string(major);
  const std::string newer = installed ? std::to_string(*installed) : "";
  if (os == "debian") {
    if (const DriverBranchPackage* p = kb.branch_package(os, version_id, major)) {
      // Debian's unversioned nvidia-driver packages (nvidia-driver 535.261.03-1's Depends); the
      // nvidia-tesla-NNN packages have names of their own.
      std::string purge = installed ? "remove driver " + newer +
                                          "'s packages (Debian's: `sudo apt-get purge nvidia-driver nvidia-driver-libs "
                                          "nvidia-driver-bin nvidia-kernel-dkms nvidia-alternative "
                                          "xserver-xorg-video-nvidia nvidia-vdpau-driver && sudo apt-get autoremove "
                                          "--purge`), "
                                    : "";
      return "Install the " + name + " branch: " + purge + "`sudo apt-get install " + p->package + "` (" + p->distro +
             " " + p->suite + ", non-free; " + p->version +
             "), then reboot. Not `nvidia-driver` or `cuda-drivers`: their branch no longer drives this GPU.";
    }
    // A Debian release whose packages were read, none of them of the branch (13, trixie: 470).
    const DriverBranchPackage* read = nullptr;
    for (const DriverBranchPackage& p : kb.branch_packages) {
      if (read == nullptr && p.distro == os && !p.version_id.empty() && p.version_id == version_id) read = &p;
    }
    if (read != nullptr) {
      std::string how = "Debian " + read->version_id + " (" + read->suite + ") packages no " + name +
                        " driver (the knowledge base read its NVIDIA driver packages): install NVIDIA's " + name +
                        " legacy driver from nvidia.com" +
                        (installed ? " in place of driver " + newer : std::string()) + ", then reboot";
      std::vector<std::string> other;
      for (const DriverBranchPackage& p : kb.branch_packages) {
        std::string one = p.distro + " " + p.version_id + " (" + p.package + ")";
        if (p.branch == major && !p.version_id.empty() && std::find(other.begin(), other.end(), one) == other.end())
          other.push_back(one);
      }
      return how + (other.empty() ? "." : "; or run a release that packages it: " + join(other, ", ") + ".");
    }
  }
  if (os == "ubuntu" || os == "pop" || os == "linuxmint") {
    return (installed ? "Purge driver " + newer + ": `sudo apt-get purge 'nvidia-driver-" + newer +
                            "*' && sudo apt-get autoremove --purge`; then install"
                      : std::string("Install")) +
           " the " + name + " branch: `sudo apt-get install nvidia-driver-" + branch +
           "` (or `sudo ubuntu-drivers install`, which picks a branch that drives the card), then reboot. The "
           "knowledge base read no Ubuntu packages: `apt-cache policy nvidia-driver-" +
           branch + "` shows whether your release has it.";
  }
  if (os == "fedora" || os == "rhel" || os == "rocky" || os == "almalinux" || os == "centos") {
    return "Install NVIDIA's " + name + " legacy driver" +
           (installed ? " in place of driver " + newer : std::string()) +
           ", then reboot. Not the newest `nvidia-driver` module or `cuda-drivers`: their branch no longer drives "
           "this GPU.";
  }
  std::string how = "Install the " + name + " legacy branch" + (installed ? " in place of driver " + newer : "") +
                    ": your distribution's " + branch + " package, or NVIDIA's " + name +
                    " legacy driver; then reboot.";
  std::vector<std::string> known;
  for (const DriverBranchPackage& pkg : kb.branch_packages) {
    std::string one = pkg.distro + " " + pkg.version_id + ": " + pkg.package;
    if (pkg.branch == major && !pkg.version_id.empty() && std::find(known.begin(), known.end(), one) == known.end())
      known.push_back(one);
  }
  if (!known.empty()) how += " Packaged as " + join(known, ", ") + ".";
  return how;
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
  out.install = install_how(kb, name, major, installed_major, distro, version_id);
  return out;
}

}  // namespace gpudoctor
