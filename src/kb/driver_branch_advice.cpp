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

/// The newest toolkit whose own Linux driver is of `branch` or older, of CUDA `cap` or older.
const CudaDriverRow* newest_toolkit(const KnowledgeBase& kb, int branch, std::optional<int> cap) {
  for (const CudaDriverRow& r : kb.cuda_drivers) {  // newest first
    if (r.linux && r.linux->major() <= branch && (!cap || r.cuda.major() <= *cap)) return &r;
  }
  return nullptr;
}

/// "11.4 is the newest toolkit whose own driver it is (11.4 Update 4: 470.82.01)", with the
/// Windows driver on Windows and WSL2 where the table gives one.
std::string toolkit_and_driver(const CudaDriverRow& r, Platform platform) {
  std::string driver = r.linux->str();
  if (platform != Platform::linux) driver = r.windows ? r.windows->str() : driver + " on Linux";
  return r.cuda.truncated(2).str() + " is the newest toolkit whose own driver it is (" +
         (r.release.empty() ? r.cuda.str() : r.release) + ": " + driver + ")";
}

/// NVIDIA's Windows driver of the branch; Windows numbers a branch's drivers up to the next
/// branch (R470: 471.11 to 475.14), so the text says where the branch ends.
std::string windows_how(const KnowledgeBase& kb, int major, const BranchAdviceTarget& target) {
  const std::string r = "R" + std::to_string(major);
  std::optional<Version> low;
  std::optional<Version> high;
  for (const CudaDriverRow& row : kb.cuda_drivers) {
    if (!row.linux || row.linux->major() != major || !row.windows) continue;
    if (!low || *row.windows < *low) low = row.windows;
    if (!high || *row.windows > *high) high = row.windows;
  }
  std::string numbers;
  if (auto next = kb.next_driver_branch(major)) {
    numbers = " (its Windows drivers are numbered below " + std::to_string(*next) + ", the next branch" +
              (low ? "; NVIDIA's toolkit table lists " + low->str() + " to " + high->str() : std::string()) + ")";
  }
  std::string how =
      "Install NVIDIA's " + r + " Windows driver for this GPU" + numbers + " from " + kDriverDownload +
      (target.installed_major ? " in place of driver " + std::to_string(*target.installed_major) : std::string()) +
      ", then restart Windows. Not a newer Game Ready, Studio or data-center driver: their branch no "
      "longer drives this GPU.";
  if (target.platform == Platform::wsl2) {
    how = "On Windows, not inside WSL2 (WSL2 uses the Windows driver; install no Linux driver in it): install" +
          how.substr(std::string_view("Install").size());
  }
  return how;
}

/// The newest branch a distribution release packages (packages read) that is older than `major`
/// and still drives the GPU: not ended before it (it is older than the GPU's last branch) and
/// not older than the GPU's architecture's first driver. Null without the GPU's compute capability.
const DriverBranchPackage* packaged_below(const KnowledgeBase& kb, std::string_view distro, std::string_view version_id,
                                          int major, const std::optional<Version>& cc) {
  if (!cc || version_id.empty()) return nullptr;
  const std::optional<ArchDriverFloor> floor = kb.arch_driver_floor(*cc, Platform::linux);
  const DriverBranchPackage* best = nullptr;
  for (const DriverBranchPackage& p : kb.branch_packages) {
    if (p.distro != distro || p.version_id != version_id || p.branch >= major) continue;
    const std::optional<Version> upstream = Version::parse(p.version.substr(0, p.version.find('-')));
    if (floor && (!upstream || *upstream < floor->driver)) continue;
    if (best == nullptr || p.branch > best->branch) best = &p;
  }
  return best;
}

/// The distribution's package of an older branch, and what it gives up against `name`: the
/// newest toolkits whose own driver it is (minor-version compatibility runs newer builds of the
/// same CUDA major, without PTX JIT of their newer code), or a CUDA major.
std::string packaged_how(const KnowledgeBase& kb, const DriverBranchPackage& p, const std::string& name, int major,
                         const BranchAdviceTarget& target) {
  const std::string ours = std::to_string(p.branch);
  std::string how = "Debian " + p.version_id + " (" + p.suite + ") packages the " + ours +
                    " branch, which drives this GPU and is simpler to keep than NVIDIA's " + name + " driver: ";
  if (target.installed_major) {
    const std::string inst = std::to_string(*target.installed_major);
    how += "remove driver " + inst +
           " first (`sudo nvidia-uninstall` if NVIDIA's .run installer put it there; if "
           "NVIDIA's CUDA repository did, purge its packages and remove that repository, or apt upgrades past " +
           name + " again), then ";
  }
  how += "run `sudo apt-get install " + p.package + "` (" + p.distro + " " + p.suite + ", non-free; " + p.version +
         ") and reboot.";
  const ArchGeneration* gen = target.cc ? kb.generation_of(*target.cc) : nullptr;
  const std::optional<int> cap = gen != nullptr ? gen->last_cuda_major : std::nullopt;
  auto runs = [&](int branch) {
    std::optional<int> m = kb.newest_cuda_major_for_branch(branch);
    return m && cap ? std::min(*m, *cap) : m;
  };
  const CudaDriverRow* mine = newest_toolkit(kb, p.branch, cap);
  const CudaDriverRow* theirs = newest_toolkit(kb, major, cap);
  const std::optional<int> my_major = runs(p.branch);
  const std::optional<int> their_major = runs(major);
  if (my_major && their_major && *my_major < *their_major) {
    const CudaFamily* f = kb.family_for_cuda(Version::of({*their_major, 0}));
    how += " It gives up CUDA " + std::to_string(*their_major) + ".x builds" +
           (f != nullptr ? ", which need " + f->linux.str() + " or later" : std::string()) + ".";
  } else if (mine != nullptr && theirs != nullptr && mine != theirs && my_major) {
    how += " It gives up the newest toolkits' own drivers: with the " + ours + " branch, CUDA " +
           toolkit_and_driver(*mine, Platform::linux) + ", with the " + name + " branch CUDA " +
           theirs->cuda.truncated(2).str() + "; newer CUDA " + std::to_string(*my_major) + ".x builds run on " + ours +
           " through minor-version compatibility, without PTX JIT of their newer code.";
  }
  return how;
}

/// How to install the branch on this distribution; `installed`: the newer driver to take out.
std::string install_how(const KnowledgeBase& kb, const std::string& name, int major, const BranchAdviceTarget& target) {
  if (target.platform != Platform::linux) return windows_how(kb, major, target);
  const std::optional<int> installed = target.installed_major;
  const std::string_view os = target.distro;
  const std::string_view version_id = target.version_id;
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
    // A release whose packages were read has an older branch that still drives the GPU (Pascal,
    // whose last branch is 580.xx, on Debian 12: 535): the distribution's own driver is simpler.
    if (const DriverBranchPackage* p = packaged_below(kb, os, version_id, major, target.cc))
      return packaged_how(kb, *p, name, major, target);
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
                                        const BranchAdviceTarget& target) {
  DriverBranchAdvice out;
  int major = 0;
  const auto [end, ec] = std::from_chars(branch.data(), branch.data() + branch.size(), major);
  if (ec != std::errc{} || major <= 0) return out;
  const std::string name(branch);
  const ArchGeneration* gen = target.cc ? kb.generation_of(*target.cc) : nullptr;
  const std::optional<int> cap = gen != nullptr ? gen->last_cuda_major : std::nullopt;
  if (const CudaDriverRow* row = newest_toolkit(kb, major, cap)) {
    out.toolkits = "With the " + name + " branch, CUDA " + toolkit_and_driver(*row, target.platform);
    const std::optional<int> cuda = kb.newest_cuda_major_for_branch(major);
    if (cuda && cap && *cap < *cuda) {
      // The GPU's generation ends before the branch's CUDA (Pascal: 12, on 580.xx).
      out.toolkits += "; CUDA " + std::to_string(*cap) + " is the last CUDA for " + gen->name + " GPUs, so use CUDA " +
                      std::to_string(*cap) + ".x builds";
    } else if (cuda) {
      out.toolkits += "; CUDA " + std::to_string(*cuda) + ".x builds run on it through minor-version compatibility";
      if (const CudaFamily* next = family_after(kb, *cuda)) {
        out.toolkits += ", CUDA " + std::to_string(next->major) + " needs " +
                        (target.platform == Platform::linux ? next->linux : next->windows).str() +
                        " or later, a branch that no longer drives this GPU";
      }
    }
    out.toolkits += ".";
  }
  out.install = install_how(kb, name, major, target);
  return out;
}

}  // namespace gpudoctor
