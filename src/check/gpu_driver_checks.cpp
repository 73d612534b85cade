#include "check/gpu_driver_checks.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/text.hpp"

namespace gpudoctor {
namespace {

const char* kNouveauSource = "https://docs.nvidia.com/cuda/cuda-installation-guide-linux/#disabling-nouveau";
const char* kWslSource = "https://docs.nvidia.com/cuda/wsl-user-guide/index.html";

const DriverFile* driver_file(const Facts& facts, std::string_view name) {
  for (const auto& f : facts.driver.files) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

bool found(const DriverFile* f) {
  return f != nullptr && !f->path.empty();
}

std::string gpu_line(const GpuFacts& g) {
  std::string out = g.name.empty() ? "NVIDIA GPU" : g.name;
  if (g.cc_major) out += fmt::format(" (compute capability {}.{})", *g.cc_major, g.cc_minor.value_or(0));
  if (g.memory_total_bytes)
    out += fmt::format(", {:.0f} GiB", static_cast<double>(*g.memory_total_bytes) / (1ull << 30));
  if (!g.pci_bus_id.empty()) out += ", PCI " + g.pci_bus_id;
  out += " [" + g.source + "]";
  return out;
}

/// The live NVML/libcuda answers, in words; empty when nothing was tried.
void runtime_findings(const Facts& facts, std::vector<Finding>& out) {
  const DriverFacts& d = facts.driver;
  if (!facts.live || d.nvml_status == LibraryStatus::none || d.nvml_status == LibraryStatus::ok ||
      d.nvml_status == LibraryStatus::skipped)
    return;
  if (d.nvml_status == LibraryStatus::not_found) return;  // reported by the file checks with a better fix
  Severity sev = Severity::error;
  std::string title = std::string("NVML could not be used: ") + to_string(d.nvml_status);
  std::string fix = "Run `nvidia-smi`; if it fails the same way, reinstall the NVIDIA driver and reboot.";
  if (contains(d.nvml_error, "DRIVER_NOT_LOADED") || contains(to_lower(d.nvml_error), "driver not loaded")) {
    title = "NVML is installed but the NVIDIA kernel driver is not loaded";
    fix =
        "Load the driver (`sudo modprobe nvidia`) or reinstall it for the running kernel "
        "(DKMS: `sudo dkms status`); Secure Boot can block an unsigned module.";
  } else if (contains(d.nvml_error, "LIB_RM_VERSION_MISMATCH") ||
             contains(to_lower(d.nvml_error), "version mismatch")) {
    title = "NVIDIA driver/library version mismatch";
    fix =
        "The kernel module and user-space libraries come from different driver versions, usually "
        "after an upgrade without a reboot: reboot; if it persists, reinstall one driver version.";
  } else if (d.nvml_status == LibraryStatus::timeout) {
    title = "NVML hung and was stopped";
    fix =
        "A hung driver call usually means a GPU in a bad state: check `dmesg` for Xid errors, "
        "then reset the GPU (`nvidia-smi -r`) or reboot.";
  } else if (d.nvml_status == LibraryStatus::crashed) {
    title = "NVML crashed while being queried";
  }
  out.push_back(Finding{.id = std::string("nvml-") + to_string(d.nvml_status),
                        .severity = sev,
                        .area = FindingArea::driver,
                        .title = title,
                        .detail = d.nvml_error + (d.nvml_path.empty() ? "" : " (" + d.nvml_path + ")"),
                        .fix = fix,
                        .evidence = {d.nvml_path}});
  if (d.libcuda_status != LibraryStatus::none && d.libcuda_status != LibraryStatus::ok &&
      d.libcuda_status != LibraryStatus::not_found) {
    out.push_back(
        Finding{.id = std::string("libcuda-") + to_string(d.libcuda_status),
                .severity = Severity::error,
                .area = FindingArea::driver,
                .title = std::string("The CUDA driver library does not initialise: ") + to_string(d.libcuda_status),
                .detail = d.libcuda_error,
                .fix = "Frameworks will fall back to the CPU. Fix the driver findings above first.",
                .evidence = {d.libcuda_path}});
  }
}

void wsl2_findings(const Facts& facts, std::vector<Finding>& out) {
  const OsFacts& os = facts.os;
  const DriverFile* libcuda = driver_file(facts, "libcuda.so.1");
  // Every copy counts, not only the loader's first choice: ld.wsl.conf usually puts the WSL copy
  // first, and the stray Linux driver's copy still breaks CUDA.
  std::vector<std::string> linux_driver_evidence;
  for (const DriverFile& f : facts.driver.files) {
    if (!f.path.empty() && !f.path.starts_with("/usr/lib/wsl/")) linux_driver_evidence.push_back(f.path);
  }
  if (facts.driver.nvidia_module_loaded) linux_driver_evidence.emplace_back("/proc/modules: nvidia");
  const DriverFacts& d = facts.driver;
  if (d.wsl2_linux_version_source == "/proc/driver/nvidia/version")
    linux_driver_evidence.emplace_back("/proc/driver/nvidia/version");
  if (!linux_driver_evidence.empty()) {
    out.push_back(
        Finding{.id = "wsl2-linux-driver-installed",
                .severity = Severity::error,
                .area = FindingArea::driver,
                .title = "A Linux NVIDIA driver" +
                         (d.wsl2_linux_version ? " (" + d.wsl2_linux_version->str() + ")" : std::string()) +
                         " is installed inside WSL2",
                .detail = "Under WSL2 the driver lives on Windows and its Linux libraries are mounted at "
                          "/usr/lib/wsl/lib. A Linux driver installed in the distribution shadows them and "
                          "breaks CUDA.",
                .fix = "Remove the Linux driver packages inside WSL2 (Debian/Ubuntu: `sudo apt-get remove --purge "
                       "'^nvidia-.*' '^libnvidia-.*'`), install only the CUDA toolkit's `cuda-toolkit-X-Y` package "
                       "(never `cuda` or `cuda-drivers`), then `wsl --shutdown` from Windows.",
                .evidence = linux_driver_evidence,
                .source = kWslSource});
  }
  if (!os.wsl_dxg_device && facts.live) {
    out.push_back(Finding{.id = "wsl2-no-dxg",
                          .severity = Severity::error,
                          .area = FindingArea::driver,
                          .title = "WSL2 has no GPU device (/dev/dxg is missing)",
                          .detail = "The GPU reaches WSL2 through /dev/dxg; without it no CUDA program sees a GPU.",
                          .fix =
                              "On Windows: install the current NVIDIA driver for your card (it includes WSL support), "
                              "run `wsl --update` and `wsl --shutdown`, and make sure the distribution runs as WSL 2 "
                              "(`wsl -l -v`).",
                          .evidence = {"/dev/dxg"},
                          .source = kWslSource});
  }
  if (found(libcuda) && libcuda->path.starts_with("/usr/lib/wsl/") && os.wsl_lib_loader_via.empty()) {
    // ld.so(8) searches LD_LIBRARY_PATH, the ld.so.cache ldconfig builds from /etc/ld.so.conf, then
    // /lib and /usr/lib: /usr/lib/wsl/lib is reached only through WSL's generated ld.wsl.conf.
    // In a tree without the ldconfig switch WSL may still write that file at the next start.
    const bool definite = os.wsl_ldconfig_off || facts.live;
    std::vector<std::string> evidence{libcuda->path,
                                      "/etc/ld.so.conf.d/ld.wsl.conf: missing or without /usr/lib/wsl/lib",
                                      "LD_LIBRARY_PATH: without /usr/lib/wsl/lib"};
    if (os.wsl_ldconfig_off) evidence.emplace_back("/etc/wsl.conf: [automount] ldconfig = false");
    out.push_back(Finding{
        .id = "wsl2-libcuda-not-on-loader-path",
        .severity = definite ? Severity::error : Severity::warning,
        .area = FindingArea::driver,
        .title = "The dynamic loader does not search /usr/lib/wsl/lib, where the Windows driver's libcuda.so.1 is",
        .detail = std::string("Nothing names /usr/lib/wsl/lib to the loader: no ld.so.conf entry, no LD_LIBRARY_PATH, "
                              "and it is not a default directory (ld.so(8)). dlopen(\"libcuda.so.1\") from the CUDA "
                              "runtime, PyTorch or TensorFlow fails and they see no GPU.") +
                  (os.wsl_ldconfig_off ? " /etc/wsl.conf sets `[automount] ldconfig = false`, so WSL no longer writes "
                                         "/etc/ld.so.conf.d/ld.wsl.conf at start."
                                       : ""),
        .fix = std::string(os.wsl_ldconfig_off ? "Remove `ldconfig = false` from /etc/wsl.conf's [automount] section, "
                                                 "or add "
                                               : "Add ") +
               "/usr/lib/wsl/lib to a file in /etc/ld.so.conf.d (`echo /usr/lib/wsl/lib | sudo tee "
               "/etc/ld.so.conf.d/ld.wsl.conf`) and run `sudo ldconfig`; then `wsl --shutdown` from Windows and reopen "
               "the distribution.",
        .evidence = evidence,
        .source =
            "ld.so(8); https://learn.microsoft.com/en-us/windows/wsl/wsl-config (wsl.conf [automount] ldconfig)"});
  }
  if (!found(libcuda)) {
    // Missing folder: no driver (or WSL 1); a folder without libcuda.so.1: a Windows driver
    // without WSL2 CUDA support, or a mount that failed.
    out.push_back(Finding{
        .id = "wsl2-no-driver-libraries",
        .severity = Severity::error,
        .area = FindingArea::driver,
        .title = os.wsl_lib_dir ? "/usr/lib/wsl/lib has no libcuda.so.1 (the Windows driver's CUDA library)"
                                : "The Windows driver's Linux libraries are not mounted (/usr/lib/wsl/lib is missing)",
        .detail = "libcuda.so.1 for WSL2 comes from the Windows NVIDIA driver.",
        .fix = "Install or update the NVIDIA driver on Windows, then `wsl --shutdown` and reopen the distribution.",
        .evidence = {"/usr/lib/wsl/lib"},
        .source = kWslSource});
  }
}

/// What NVML says of each GPU's memory (the same counters `watch` follows over time): an
/// uncorrected ECC error since the driver loaded is data the GPU could not repair, and the
/// processes using it were stopped or computed on it (Xid 48/94/95); retired pages are memory the
/// driver keeps out of use, effective only after a reset (docs.nvidia.com/deploy/dynamic-page-retirement).
void memory_health_findings(const Facts& facts, std::vector<Finding>& out) {
  for (const GpuFacts& g : facts.gpus) {
    const std::string id = g.uuid.empty() ? g.pci_bus_id : g.uuid;
    const std::string reset = id.empty() ? "`sudo nvidia-smi -r`" : "`sudo nvidia-smi -r -i " + id + "`";
    if (g.ecc_uncorrected_volatile.value_or(0) > 0) {
      out.push_back(Finding{
          .id = "gpu-ecc-uncorrected",
          .severity = Severity::error,
          .area = FindingArea::gpu,
          .title = g.name + " (" + (id.empty() ? std::string("PCI unknown") : id) + ") reports " +
                   std::to_string(*g.ecc_uncorrected_volatile) + " uncorrected ECC error(s) since the driver loaded",
          .detail = "NVML's volatile count of double-bit errors: memory contents the GPU could not repair. The driver "
                    "ends the processes that touched them (Xid 48, 94 or 95 in the kernel log); results computed "
                    "around that time are suspect. It works until the next error, which may land anywhere.",
          .fix = "Drain the GPU, look for the Xid lines (`sudo dmesg | grep -i xid`), then reset it (" + reset +
                 ") or reboot so that the driver retires or remaps the bad memory, and rerun `gpudoctor`. Errors "
                 "that come back after a reset mean the card needs service (RMA). `gpudoctor watch` follows the count.",
          .evidence = {id, "ecc uncorrected volatile: " + std::to_string(*g.ecc_uncorrected_volatile)},
          .source = "nvml.h nvmlDeviceGetTotalEccErrors (NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_VOLATILE_ECC); "
                    "docs.nvidia.com/deploy/xid-errors"});
    }
    if (g.retired_pages.value_or(0) > 0) {
      out.push_back(Finding{
          .id = "gpu-memory-retired",
          .severity = Severity::info,
          .area = FindingArea::gpu,
          .title = g.name + " (" + (id.empty() ? std::string("PCI unknown") : id) + ") has " +
                   std::to_string(*g.retired_pages) + " memory page(s) retired for ECC errors",
          .detail = "The driver keeps retired pages out of use once the GPU has been reset or the driver reloaded; "
                    "until then a page waiting for retirement can still be handed out. A count that stays is the "
                    "card's history; one that grows is memory failing.",
          .fix = "Check `nvidia-smi -q -d PAGE_RETIREMENT` (\"Pending Page Blacklist: Yes\" wants a reset: " + reset +
                 "), and follow the count with `gpudoctor watch`.",
          .evidence = {id, "retired pages: " + std::to_string(*g.retired_pages)},
          .source = "nvml.h nvmlDeviceGetRetiredPages; docs.nvidia.com/deploy/dynamic-page-retirement"});
    }
  }
}

}  // namespace

bool has_nvidia_gpu(const Facts& facts) {
  return !facts.gpus.empty();
}

std::vector<Finding> system_findings(const Facts& facts) {
  std::vector<Finding> out;
  const OsFacts& os = facts.os;
  std::string line = os.name.empty() ? to_string(facts.platform) : os.name;
  if (!os.kernel.empty()) line += ", kernel " + os.kernel;
  if (facts.platform == Platform::wsl2) line += " (WSL2)";
  out.push_back(Finding{
      .id = "system", .severity = Severity::ok, .area = FindingArea::system, .title = line, .evidence = {facts.root}});
  if (!os.container.empty()) {
    out.push_back(Finding{.id = "container",
                          .severity = Severity::info,
                          .area = FindingArea::system,
                          .title = "Running inside a container (" + os.container + ")",
                          .detail = "The GPU and the driver's libraries must be passed in by the container runtime.",
                          .fix = "",
                          .evidence = os.container_evidence});
  }
  return out;
}

std::vector<Finding> gpu_driver_findings(const Facts& facts) {
  std::vector<Finding> out;
  const DriverFacts& d = facts.driver;
  const bool windows = facts.platform == Platform::windows;
  const bool wsl2 = facts.platform == Platform::wsl2;

  // --- GPUs ---
  if (facts.gpus.empty()) {
    if (facts.live && !wsl2) {
      out.push_back(
          Finding{.id = "no-nvidia-gpu",
                  .severity = Severity::error,
                  .area = FindingArea::gpu,
                  .title = "No NVIDIA GPU found",
                  .detail = "No NVIDIA PCI device (vendor 0x10de) is visible, the NVIDIA driver reports no GPU, "
                            "and none was declared. Frameworks will run on the CPU only.",
                  .fix = "On a cloud instance choose a GPU machine type; in a VM pass the GPU through (PCI "
                         "passthrough/vGPU); in a container start it with `--gpus all` (NVIDIA Container Toolkit). "
                         "If a GPU is installed, check `lspci | grep -i nvidia`.",
                  .evidence = {"/sys/bus/pci/devices", "/proc/driver/nvidia/gpus"}});
    } else if (!wsl2) {
      out.push_back(Finding{.id = "no-gpu-recorded",
                            .severity = Severity::info,
                            .area = FindingArea::gpu,
                            .title = "No GPU is recorded in this tree",
                            .detail = "A disk or image carries no record of the cards it will run on.",
                            .fix = "Declare the card with --gpu \"MODEL\" to check compatibility with it."});
    }
  }
  for (const auto& g : facts.gpus) {
    out.push_back(Finding{.id = "gpu",
                          .severity = Severity::ok,
                          .area = FindingArea::gpu,
                          .title = gpu_line(g),
                          // A declared card has neither: its evidence is the flag, as in the findings about it.
                          .evidence = {g.source == "declared" && g.uuid.empty() && g.pci_bus_id.empty()
                                           ? "--gpu " + g.name
                                           : (g.uuid.empty() ? g.pci_bus_id : g.uuid)}});
  }

  memory_health_findings(facts, out);

  // --- kernel driver (Linux) ---
  bool bound_to_nouveau =
      std::any_of(facts.gpus.begin(), facts.gpus.end(), [](const GpuFacts& g) { return g.kernel_driver == "nouveau"; });
  if (!windows && !wsl2 && (d.nouveau_loaded || bound_to_nouveau)) {
    out.push_back(Finding{
        .id = "nouveau-loaded",
        .severity = Severity::error,
        .area = FindingArea::driver,
        .title = "The open-source nouveau driver drives the GPU; CUDA needs NVIDIA's driver",
        .detail = "nouveau is loaded" + std::string(bound_to_nouveau ? " and bound to the GPU" : "") +
                  ". CUDA, cuDNN and every framework's GPU support require the NVIDIA kernel driver.",
        .fix = "Install the NVIDIA driver (Ubuntu: `sudo ubuntu-drivers install`; Debian: `sudo apt-get install "
               "nvidia-driver firmware-misc-nonfree`), which blacklists nouveau; then rebuild the initramfs "
               "(`sudo update-initramfs -u`) and reboot.",
        .evidence = {"/proc/modules"},
        .source = kNouveauSource});
  }
  bool have_gpu_hw =
      std::any_of(facts.gpus.begin(), facts.gpus.end(), [](const GpuFacts& g) { return g.source != "declared"; });
  if (!windows && !wsl2 && have_gpu_hw && !d.version && !d.nvidia_module_loaded) {
    out.push_back(Finding{
        .id = "driver-missing",
        .severity = Severity::error,
        .area = FindingArea::driver,
        .title = "NVIDIA GPU present but the NVIDIA driver is not loaded",
        .detail = "The card is on the PCI bus, but /proc/driver/nvidia/version does not exist and no nvidia "
                  "module is loaded.",
        .fix = "Install the NVIDIA driver for your distribution (a branch that supports the CUDA version your "
               "framework needs; see `gpudoctor plan`) and reboot. If it is installed, `sudo modprobe nvidia` "
               "and `dmesg | grep -i nvidia` show why it does not load (Secure Boot, kernel update without DKMS).",
        .evidence = {"/proc/driver/nvidia/version", "/proc/modules"}});
  }
  // A declared card with no driver is an error the compatibility checks name the driver for.
  bool declared_gpu = !facts.gpus.empty();
  if (!d.version && !d.nvidia_module_loaded && !windows && !wsl2 && !have_gpu_hw && !declared_gpu) {
    std::vector<std::string> missing;
    for (const auto& f : d.files) {
      if (f.path.empty()) missing.push_back(f.name);
    }
    out.push_back(Finding{
        .id = "driver-not-installed",
        .severity = Severity::info,
        .area = FindingArea::driver,
        .title =
            "No NVIDIA driver: no kernel module" + (missing.empty() ? std::string() : ", no " + join(missing, ", no ")),
        .detail = "Expected on a machine without an NVIDIA GPU: CUDA libraries can be installed and programs "
                  "built here, but nothing runs on a GPU.",
        .fix = "",
        .evidence = {"/proc/driver/nvidia/version", "/sys/module/nvidia", "/proc/modules"}});
  }
  if (d.version) {
    std::string title = "NVIDIA driver " + d.version->str();
    if (!d.module_flavor.empty()) title += " (" + d.module_flavor + " kernel module)";
    if (d.cuda_driver_version) title += ", supports CUDA up to " + d.cuda_driver_version->str();
    out.push_back(Finding{.id = "driver",
                          .severity = Severity::ok,
                          .area = FindingArea::driver,
                          .title = title,
                          .evidence = {d.version_source}});
  }

  // --- user-space libraries ---
  const DriverFile* libcuda = driver_file(facts, windows ? "nvcuda.dll" : "libcuda.so.1");
  const DriverFile* nvml = driver_file(facts, windows ? "nvml.dll" : "libnvidia-ml.so.1");
  bool driver_expected = d.version.has_value() || d.nvidia_module_loaded || (windows && have_gpu_hw);
  // A library that was not found where some places could not be read is unknown: say which
  // places, never "missing" (a wrong ✗ sends people reinstalling a working driver).
  for (const DriverFile* f : {libcuda, nvml}) {
    if (f == nullptr || found(f) || f->unreadable.empty()) continue;
    out.push_back(Finding{.id = "driver-library-unchecked",
                          .severity = Severity::warning,
                          .area = FindingArea::driver,
                          .title = f->name + " could not be looked for in " + join_bounded(f->unreadable, ", ", 4),
                          .detail = "Reading these directories was refused (permission denied), so whether the "
                                    "driver's library is installed there is unknown.",
                          .fix = "Run gpudoctor as a user who can read them, or check their permissions (`ls -ld " +
                                 f->unreadable.front() + "`): a library the loader cannot read is also unusable.",
                          .evidence = f->unreadable});
  }
  auto unchecked = [](const DriverFile* f) { return f != nullptr && !f->unreadable.empty(); };
  if (driver_expected && !found(libcuda) && !unchecked(libcuda) && !wsl2) {
    out.push_back(Finding{
        .id = "libcuda-missing",
        .severity = Severity::error,
        .area = FindingArea::driver,
        .title =
            std::string("The driver's CUDA library (") + (windows ? "nvcuda.dll" : "libcuda.so.1") + ") is missing",
        .detail = "The kernel driver is there but not the user-space library that every CUDA program loads; "
                  "frameworks will report no GPU.",
        .fix = windows ? "Reinstall the NVIDIA display driver (a clean install from nvidia.com)."
                       : "Install the driver's user-space package of the same version as the kernel module "
                         "(Ubuntu: `libnvidia-compute-<branch>`; Debian: `libcuda1`), or reinstall the driver. "
                         "In a container, run with the NVIDIA Container Toolkit (`--gpus all`).",
        .evidence = {libcuda ? libcuda->name : ""}});
  }
  if (driver_expected && !found(nvml) && !unchecked(nvml) && !wsl2) {
    out.push_back(
        Finding{.id = "nvml-missing",
                .severity = Severity::warning,
                .area = FindingArea::driver,
                .title = std::string("NVML (") + (windows ? "nvml.dll" : "libnvidia-ml.so.1") + ") is missing",
                .detail = "nvidia-smi, monitoring tools and some framework checks need NVML.",
                .fix = windows ? "Reinstall the NVIDIA display driver."
                               : "Install the driver's NVML package (Ubuntu: `libnvidia-compute-<branch>`; Debian: "
                                 "`libnvidia-ml1`) matching the kernel module version."});
  }
  for (const DriverFile* f : {libcuda, nvml}) {
    if (!found(f)) continue;
    out.push_back(Finding{.id = "driver-library",
                          .severity = Severity::ok,
                          .area = FindingArea::driver,
                          .title = f->name + " at " + f->path + (f->version ? " (" + f->version->str() + ")" : ""),
                          .evidence = {f->path}});
  }
  if (d.version && d.version_source == "/proc/driver/nvidia/version" && found(libcuda) && libcuda->version &&
      *libcuda->version != *d.version) {
    out.push_back(
        Finding{.id = "driver-library-mismatch",
                .severity = Severity::error,
                .area = FindingArea::driver,
                .title = "Driver/library version mismatch: kernel module " + d.version->str() + ", libcuda " +
                         libcuda->version->str(),
                .detail = "The user-space libraries come from another driver version than the loaded kernel module "
                          "(typical after a driver upgrade without a reboot). NVML fails with \"Driver/library version "
                          "mismatch\" and CUDA does not initialise.",
                .fix = "Reboot. If it persists, remove the stale driver packages so only one version is installed.",
                .evidence = {d.version_source, libcuda->path}});
  }
  // WSL2's driver is the Windows host's too: its version is in the host's registry, not the tree.
  if ((windows || wsl2) && !d.version && found(libcuda)) {
    // The CUDA builds whose driver floor went floors_unchecked: with one, "no issues" would be a wrong tick.
    std::vector<std::string> floors_unchecked;
    for (const PythonEnvFacts& env : facts.python_envs) {
      for (const FrameworkFacts& fw : env.frameworks) {
        if (fw.cuda_build.value_or(false))
          floors_unchecked.push_back(fw.name + " " + fw.version.str() + " in " + env.path);
      }
    }
    out.push_back(Finding{
        .id = "driver-version-unknown",
        .severity = floors_unchecked.empty() ? Severity::info : Severity::warning,
        .area = FindingArea::driver,
        .title =
            std::string("The Windows ") + (wsl2 ? "host's " : "") + "driver's version is not recorded in this tree",
        .detail = "Checks that need the driver version (minimum drivers for CUDA builds) were skipped" +
                  (floors_unchecked.empty() ? std::string(".")
                                            : ": " + join(floors_unchecked, ", ") + " may need a newer driver."),
        .fix = std::string("Give the ") + (wsl2 ? "Windows host's" : "machine's") +
               " registry with --registry (a `reg export` of the keys docs/windows-inventory.md lists), or run "
               "`nvidia-smi` on that machine and pass its driver version to `gpudoctor plan --driver VER`."});
  }
  if (wsl2) wsl2_findings(facts, out);
  runtime_findings(facts, out);
  return out;
}

}  // namespace gpudoctor
