#include <algorithm>
#include <utility>

#include "core/pci_ids.hpp"
#include "core/text.hpp"
#include "probe/library_dirs.hpp"
#include "probe/probes.hpp"
#include "probe/version_files.hpp"

namespace gpudoctor {
namespace {

constexpr size_t kPciIdsLimit = 4 << 20;

/// A driver file that is there but could not be read (a FIFO or device where the kernel
/// writes a file, permission denied) is a problem to report; only "absent" is silence.
void note_unreadable(const Error& error, Facts& facts) {
  if (error.kind == ErrorKind::not_found) return;
  facts.problems.push_back({"driver", error.origin, "present but not readable: " + error.message});
}

void read_kernel_driver(const SystemView& system, Facts& facts) {
  DriverFacts& d = facts.driver;
  if (auto text = system.read_file("/proc/driver/nvidia/version", 64 * 1024)) {
    if (auto v = parse_nvidia_proc_version(*text)) {
      d.version = v->version;
      d.module_flavor = v->flavor;
      d.version_source = "/proc/driver/nvidia/version";
    } else {
      facts.problems.push_back(
          {"driver", "/proc/driver/nvidia/version", "present but not in a known format: " + printable(*text, 80)});
    }
  } else {
    note_unreadable(text.error(), facts);
  }
  if (!d.version) {
    if (auto text = system.read_file("/sys/module/nvidia/version", 4096)) {
      if (auto v = Version::parse(trim(*text))) {
        d.version = *v;
        d.version_source = "/sys/module/nvidia/version";
      }
    } else {
      note_unreadable(text.error(), facts);
    }
  }
  if (auto mods = system.read_file("/proc/modules", 1 << 20)) {
    for (std::string_view line : lines(*mods)) {
      std::string_view name = line.substr(0, line.find(' '));
      if (name == "nvidia") d.nvidia_module_loaded = true;
      if (name == "nouveau") d.nouveau_loaded = true;
    }
  } else if (system.is_dir("/sys/module/nvidia")) {
    d.nvidia_module_loaded = true;
  }
  if (!d.nouveau_loaded && system.is_dir("/sys/module/nouveau/drivers")) d.nouveau_loaded = true;
}

/// More GPUs than any machine has (NVLink domains top out in the hundreds); past it, a finding.
constexpr size_t kMaxGpus = 1024;

/// /proc/driver/nvidia/gpus/<bus>/information, written by the NVIDIA kernel module.
void read_proc_gpus(const SystemView& system, Facts& facts) {
  auto entries = system.list_dir("/proc/driver/nvidia/gpus");
  if (!entries) return;
  size_t seen = 0;
  for (const auto& e : *entries) {
    if (++seen > kMaxGpus) {
      system.note_bound("/proc/driver/nvidia/gpus", std::to_string(entries->size()) + " GPU entries; only the first " +
                                                        std::to_string(kMaxGpus) + " were read");
      break;
    }
    auto text = system.read_file("/proc/driver/nvidia/gpus/" + e.name + "/information", 64 * 1024);
    if (!text) continue;
    auto fields = parse_colon_fields(*text);
    GpuFacts g;
    g.source = "proc";
    g.name = fields["Model"];
    g.uuid = fields["GPU UUID"];
    g.pci_bus_id = fields.count("Bus Location") ? fields["Bus Location"] : e.name;
    g.kernel_driver = "nvidia";
    facts.gpus.push_back(std::move(g));
  }
}

std::string read_hex_id(const SystemView& system, const std::string& path) {
  auto text = system.read_file(path, 64);
  if (!text) return "";
  std::string t = to_lower(trim(*text));
  if (t.starts_with("0x")) t = t.substr(2);
  return t;
}

/// PCI devices of vendor 0x10de with a display class (0x03xxxx), from sysfs.
void read_pci_gpus(const SystemView& system, Facts& facts) {
  auto entries = system.list_dir("/sys/bus/pci/devices");
  if (!entries) return;
  std::map<std::string, std::string> names;
  bool names_loaded = false;
  for (const auto& e : *entries) {
    std::string dir = "/sys/bus/pci/devices/" + e.name;
    if (read_hex_id(system, dir + "/vendor") != "10de") continue;
    std::string cls = read_hex_id(system, dir + "/class");
    if (!cls.starts_with("03")) continue;  // audio functions of the same card are 0x0403
    std::string device = read_hex_id(system, dir + "/device");
    std::string driver;
    if (auto link = system.canonical(dir + "/driver")) driver = link->substr(link->rfind('/') + 1);
    auto same = std::find_if(facts.gpus.begin(), facts.gpus.end(), [&](const GpuFacts& g) {
      return iequals(g.pci_bus_id, e.name) || to_lower(g.pci_bus_id).ends_with(to_lower(e.name));
    });
    if (same != facts.gpus.end()) {
      same->pci_device_id = device;
      if (!driver.empty()) same->kernel_driver = driver;
      continue;
    }
    if (!names_loaded) {
      // The PCI ID database names the chip: the target's own copy here; without one the
      // knowledge base's copy names it later (kb/annotate_facts.cpp).
      for (const char* p : {"/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids"}) {
        if (auto text = system.read_file(p, kPciIdsLimit)) {
          names = parse_pci_ids_nvidia(*text);
          break;
        }
      }
      names_loaded = true;
    }
    GpuFacts g;
    g.source = "pci";
    g.pci_bus_id = e.name;
    g.pci_device_id = device;
    g.kernel_driver = driver;
    auto it = names.find(device);
    g.name = it != names.end() ? it->second : std::string(kUnnamedPciDevice) + device;
    facts.gpus.push_back(std::move(g));
  }
}

/// The driver's user-space libraries: libcuda / NVML on Linux, nvcuda.dll / nvml.dll on Windows.
bool is_stubs_dir(std::string_view dir) {
  while (!dir.empty() && (dir.back() == '/' || dir.back() == '\\')) dir.remove_suffix(1);
  auto slash = dir.find_last_of("/\\");
  return (slash == std::string_view::npos ? dir : dir.substr(slash + 1)) == "stubs";
}

void find_driver_libraries(const SystemView& system, const LoaderPaths& loader, Facts& facts) {
  DriverFacts& d = facts.driver;
  std::vector<std::string> wanted = system.is_windows() ? std::vector<std::string>{"nvcuda.dll", "nvml.dll"}
                                                        : std::vector<std::string>{"libcuda.so.1", "libnvidia-ml.so.1"};
  std::vector<std::string> dirs;
  for (const auto& dir : loader.search_dirs) dirs.push_back(dir.path);
  if (system.is_windows()) {
    std::string pf = system.env("ProgramFiles").value_or("C:\\Program Files");
    dirs.push_back(pf + "\\NVIDIA Corporation\\NVSMI");  // NVML of pre-DCH drivers
  } else {
    dirs.emplace_back("/usr/local/nvidia/lib64");  // NVIDIA container runtime mounts
  }
  // Every copy is recorded, the loader's choice first: a second copy (a Linux driver inside
  // WSL2, a stale driver after an upgrade) is itself a finding.
  for (const std::string& name : wanted) {
    bool found = false;
    std::vector<std::string> unreadable;
    for (const std::string& dir : dirs) {
      // The toolkit's stub libcuda exists only to link against; it is never the driver.
      if (is_stubs_dir(dir)) continue;
      std::string path = system.join(dir, name);
      auto st = system.stat(path);
      if (!st && st.error().kind == ErrorKind::permission_denied) {
        // Not looked in is not "missing": the library may well be there.
        unreadable.push_back(dir);
        continue;
      }
      if (!system.is_file(path)) continue;
      DriverFile f{name, path, std::nullopt};
      // PATH often names System32 twice ("system32" and "System32"): one file, one copy.
      auto canon = system.canonical(path);
      bool seen = std::any_of(d.files.begin(), d.files.end(), [&](const DriverFile& o) {
        return o.name == name && canon && system.canonical(o.path).value_or("") == *canon;
      });
      if (seen) continue;
      if (auto target = canon) {
        auto file = target->substr(target->find_last_of("/\\") + 1);
        if (auto lib = parse_library_name(file); lib && lib->version && lib->version->parts().size() >= 2) {
          f.version = lib->version;
        }
      }
      d.files.push_back(std::move(f));
      found = true;
    }
    if (!found) d.files.push_back(DriverFile{name, "", std::nullopt, std::move(unreadable)});
  }
}

/// /etc/wsl.conf `[automount]` `ldconfig = false` (Microsoft's wsl.conf documentation; the
/// header of the ld.wsl.conf WSL writes names the same switch).
bool wsl_ldconfig_off(const SystemView& system) {
  auto text = system.read_file("/etc/wsl.conf", 64 * 1024);
  if (!text) return false;
  std::string section;
  for (std::string_view line : lines(*text)) {
    line = trim(line.substr(0, line.find('#')));
    if (line.starts_with("[")) {
      section = to_lower(std::string(trim(line.substr(1, line.find(']') - 1))));
      continue;
    }
    auto eq = line.find('=');
    if (section != "automount" || eq == std::string_view::npos) continue;
    if (to_lower(std::string(trim(line.substr(0, eq)))) == "ldconfig") {
      return to_lower(std::string(trim(line.substr(eq + 1)))) == "false";
    }
  }
  return false;
}

}  // namespace

void probe_driver_files(const SystemView& system, const LoaderPaths& loader, Facts& facts) {
  if (!system.is_windows()) {
    read_kernel_driver(system, facts);
    read_proc_gpus(system, facts);
    read_pci_gpus(system, facts);
  }
  find_driver_libraries(system, loader, facts);
  if (facts.platform == Platform::wsl2) {
    facts.os.wsl_lib_loader_via = wsl_lib_loader_via(system, loader.cache_entries);
    facts.os.wsl_ldconfig_off = wsl_ldconfig_off(system);
  }
  // Without a kernel version, the version in libcuda's file name is the next best witness.
  if (!facts.driver.version) {
    for (const auto& f : facts.driver.files) {
      if (f.version && f.name.starts_with("libcuda")) {
        facts.driver.version = f.version;
        facts.driver.version_source = f.path + " (file name)";
      }
    }
  }
  // Inside WSL2 the driver is the Windows host's (its registry, or NVML live); a version read
  // here is a Linux driver installed in the distribution, which is the thing to remove.
  if (facts.platform == Platform::wsl2 && facts.driver.version) {
    facts.driver.wsl2_linux_version = std::exchange(facts.driver.version, std::nullopt);
    facts.driver.wsl2_linux_version_source = std::exchange(facts.driver.version_source, {});
  }
}

}  // namespace gpudoctor
