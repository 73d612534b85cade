#include <algorithm>

#include "core/text.hpp"
#include "platform/registry.hpp"
#include "probe/pe_version.hpp"
#include "probe/probes.hpp"

namespace gpudoctor {
namespace {

constexpr const char* kCurrentVersionKey = "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion";
/// The NVIDIA display driver's uninstall entry; DisplayVersion is NVIDIA's own number ("531.79").
/// The same key deployment scripts read (e.g. NSIS and PowerShell installers that gate on it).
constexpr const char* kDriverUninstallKey =
    "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\{B2FE1952-0186-46C3-BAEC-A80AA35AC5B8}_Display."
    "Driver";
/// The display adapter device class: one numbered subkey per installed display driver.
constexpr const char* kDisplayClassKey =
    "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}";
constexpr const char* kCudaToolkitKey = "HKLM\\SOFTWARE\\NVIDIA Corporation\\GPU Computing Toolkit\\CUDA";
constexpr size_t kMaxSubkeys = 64;  ///< per level read: a real machine has a handful

std::vector<std::string> subkeys(const Registry& reg, const std::string& key,
                                 RegistryBits bits = RegistryBits::native64) {
  auto names = reg.subkeys(key, bits);
  if (!names) return {};
  if (names->size() > kMaxSubkeys) names->resize(kMaxSubkeys);
  return *names;
}

/// Windows' four-part driver version ("31.0.15.3179") carries NVIDIA's in its last five digits
/// (531.79): the third part's last digit and the fourth part, zero-padded to four digits.
std::optional<Version> nvidia_from_windows_version(std::string_view text) {
  auto parts = split(trim(text), '.');
  if (parts.size() != 4 || parts[2].empty() || parts[3].empty() || parts[3].size() > 4) return std::nullopt;
  for (auto p : {parts[2], parts[3]}) {
    if (p.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  }
  std::string digits = std::string(1, parts[2].back()) + std::string(4 - parts[3].size(), '0') + std::string(parts[3]);
  auto v = Version::parse(digits.substr(0, 3) + "." + digits.substr(3));
  return v ? std::optional<Version>(*v) : std::nullopt;
}

/// The Windows build; on a native Windows target also the OS name and version (inside WSL2
/// the OS facts are the Linux distribution's).
void read_os(const Registry& reg, Facts& facts, WindowsFacts& w, bool native) {
  auto product = reg.text(kCurrentVersionKey, "ProductName");
  auto build = reg.text(kCurrentVersionKey, "CurrentBuild");
  if (!build) build = reg.text(kCurrentVersionKey, "CurrentBuildNumber");
  auto display = reg.text(kCurrentVersionKey, "DisplayVersion");
  if (build) w.build = std::string(trim(*build));
  if (!native) return;
  if (build) {
    facts.os.version_id = w.build;
    if (auto ubr = reg.value(kCurrentVersionKey, "UBR"); ubr && ubr->number) {
      facts.os.version_id += "." + std::to_string(*ubr->number);
    }
  }
  if (product) {
    std::string name(trim(*product));
    // Windows 11 still registers ProductName "Windows 10 ..."; its builds start at 22000.
    int b = 0;
    for (char c : w.build) b = c >= '0' && c <= '9' && b < 1'000'000 ? b * 10 + (c - '0') : b;
    if (b >= 22000 && name.starts_with("Windows 10")) name.replace(0, 10, "Windows 11");
    facts.os.name = name + (display ? " " + std::string(trim(*display)) : std::string());
  }
}

void read_driver(const Registry& reg, Facts& facts) {
  std::optional<Version> uninstall;
  std::string uninstall_text;
  if (auto t = reg.text(kDriverUninstallKey, "DisplayVersion")) {
    uninstall_text = std::string(trim(*t));
    if (auto v = Version::parse(uninstall_text)) uninstall = *v;
  }
  std::optional<Version> adapter;
  std::string adapter_evidence;
  for (const std::string& sub : subkeys(reg, kDisplayClassKey)) {
    if (sub.size() != 4 || sub.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string key = std::string(kDisplayClassKey) + "\\" + sub;
    auto provider = reg.text(key, "ProviderName");
    auto match = reg.text(key, "MatchingDeviceId").value_or("");
    const bool nvidia = (provider && contains(to_lower(*provider), "nvidia")) || contains(to_lower(match), "ven_10de");
    if (!nvidia) continue;
    if (auto dv = reg.text(key, "DriverVersion")) {
      if (auto v = nvidia_from_windows_version(*dv); v && !adapter) {
        adapter = *v;
        adapter_evidence = "registry: " + key + " DriverVersion " + std::string(trim(*dv));
      }
    }
    GpuFacts g;
    g.name = std::string(trim(reg.text(key, "DriverDesc").value_or("")));
    if (g.name.empty()) continue;
    g.source = "registry";
    if (auto dev = to_lower(match).find("dev_"); dev != std::string::npos && dev + 8 <= match.size()) {
      g.pci_device_id = to_lower(match.substr(dev + 4, 4));
    }
    bool seen =
        std::any_of(facts.gpus.begin(), facts.gpus.end(), [&](const GpuFacts& o) { return iequals(o.name, g.name); });
    if (!seen) facts.gpus.push_back(std::move(g));
  }
  if (uninstall && adapter && *uninstall != *adapter) {
    facts.problems.push_back({"registry", kDriverUninstallKey,
                              "the driver's uninstall entry says " + uninstall->str() +
                                  " but the display adapter's "
                                  "driver is " +
                                  adapter->str() + " (an interrupted upgrade?); the adapter's is used"});
  }
  if (facts.driver.version) return;
  if (adapter) {
    facts.driver.version = adapter;
    facts.driver.version_source = adapter_evidence;
  } else if (uninstall) {
    facts.driver.version = uninstall;
    facts.driver.version_source = std::string("registry: ") + kDriverUninstallKey + " DisplayVersion " + uninstall_text;
  }
}

/// Without the registry's word (no export given, or no NVIDIA entry in it): the driver's version
/// from the version resource of its own DLLs, which the driver installs with its four-part
/// version as their file version. nvml.dll first (about 1 MB), then nvcuda.dll.
void read_driver_files(const SystemView& system, Facts& facts) {
  const std::string windir = system.env("SystemRoot").value_or("C:\\Windows");
  const std::string program_files = system.env("ProgramFiles").value_or("C:\\Program Files");
  for (const std::string& path :
       {system.join(windir, "System32\\nvml.dll"), system.join(program_files, "NVIDIA Corporation\\NVSMI\\nvml.dll"),
        system.join(windir, "System32\\nvcuda.dll")}) {
    auto st = system.stat(path);
    if (!st || !st->is_regular || st->size_bytes == 0) continue;
    // The resource section sits near the end; nvcuda.dll is some 30 MB. Read at most 64 MiB.
    auto bytes = system.read_head(path, 64 * 1024 * 1024);
    if (!bytes) {
      facts.problems.push_back({"driver", path, "cannot read: " + bytes.error().message});
      continue;
    }
    auto v = pe_file_version(*bytes);
    if (!v) {
      facts.problems.push_back({"driver", path, "no file version: " + v.error().message});
      continue;
    }
    if (auto nvidia = nvidia_from_windows_version(v->str())) {
      facts.driver.version = nvidia;
      facts.driver.version_source = path + " file version " + v->str();
      return;
    }
    facts.problems.push_back({"driver", path, "file version " + v->str() + " is not a driver version"});
  }
}

/// PEP 514: HKCU / HKLM \Software\Python\<Company>\<Tag>\InstallPath.
void read_python_registrations(const SystemView& system, const Registry& reg, WindowsFacts& w) {
  struct Hive {
    const char* label;
    const char* key;
    RegistryBits bits;
  };
  static const Hive kHives[] = {{"HKCU", "HKEY_CURRENT_USER\\Software\\Python", RegistryBits::native64},
                                {"HKLM", "HKEY_LOCAL_MACHINE\\SOFTWARE\\Python", RegistryBits::native64},
                                {"HKLM (32-bit view)", "HKEY_LOCAL_MACHINE\\SOFTWARE\\Python", RegistryBits::wow32}};
  for (const Hive& h : kHives) {
    for (const std::string& company : subkeys(reg, h.key, h.bits)) {
      if (iequals(company, "PyLauncher")) continue;  // the launcher's settings, not a Python (PEP 514)
      const std::string ckey = std::string(h.key) + "\\" + company;
      for (const std::string& tag : subkeys(reg, ckey, h.bits)) {
        const std::string tkey = ckey + "\\" + tag;
        PythonRegistration r;
        r.hive = h.label;
        r.company = company;
        r.tag = tag;
        r.install_path = std::string(trim(reg.text(tkey + "\\InstallPath", "", h.bits).value_or("")));
        r.executable = std::string(trim(reg.text(tkey + "\\InstallPath", "ExecutablePath", h.bits).value_or("")));
        r.version = std::string(
            trim(reg.text(tkey, "SysVersion", h.bits).value_or(reg.text(tkey, "Version", h.bits).value_or(""))));
        while (r.install_path.size() > 3 && (r.install_path.back() == '\\' || r.install_path.back() == '/')) {
          r.install_path.pop_back();
        }
        r.exists = !r.install_path.empty() && system.is_dir(r.install_path);
        // The 32-bit view of an export without WOW6432Node falls back to nothing; a key seen in
        // both views (HKCU is not redirected) is listed once.
        bool dup = std::any_of(w.pythons.begin(), w.pythons.end(), [&](const PythonRegistration& o) {
          return iequals(o.company, r.company) && iequals(o.tag, r.tag) && iequals(o.install_path, r.install_path);
        });
        if (!dup) w.pythons.push_back(std::move(r));
      }
    }
  }
}

/// The Visual C++ runtime TensorFlow (build_info msvcp_dll_names: msvcp140.dll, msvcp140_1.dll)
/// and PyTorch (torch/__init__.py: vcruntime140.dll, msvcp140.dll, vcruntime140_1.dll) need,
/// where the Visual C++ Redistributable installs it.
void find_msvc_runtime(const SystemView& system, WindowsFacts& w) {
  const std::string sys32 = system.join(system.env("SystemRoot").value_or("C:\\Windows"), "System32");
  for (const char* dll : {"msvcp140.dll", "msvcp140_1.dll", "vcruntime140.dll", "vcruntime140_1.dll"}) {
    std::string path = system.join(sys32, dll);
    w.msvc_runtime.push_back(WindowsDll{dll, system.is_file(path) ? path : std::string()});
  }
}

void find_launchers(const SystemView& system, WindowsFacts& w) {
  std::vector<std::string> candidates = {system.join(system.env("SystemRoot").value_or("C:\\Windows"), "py.exe")};
  auto local = system.env("LOCALAPPDATA");
  if (!local) {
    if (auto home = system.home()) local = system.join(*home, "AppData\\Local");
  }
  if (local) candidates.push_back(system.join(*local, "Programs\\Python\\Launcher\\py.exe"));
  for (const std::string& c : candidates) {
    if (system.is_file(c)) {
      w.py_launcher = c;
      break;
    }
  }
  // The Microsoft Store Python keeps what pip installs in its package's LocalCache.
  if (local) {
    std::string packages = system.join(*local, "Packages");
    if (auto entries = system.list_dir(packages)) {
      for (const DirEntry& e : *entries) {
        if (e.is_dir && e.name.starts_with("PythonSoftwareFoundation.Python.3")) {
          w.store_pythons.push_back(system.join(packages, e.name));
        }
      }
    }
  }
}

}  // namespace

void probe_windows(const SystemView& system, Facts& facts) {
  const bool native = system.is_windows();
  const Registry* reg = system.registry();
  // Inside WSL2 the Windows host's registry export says what the distribution cannot: the
  // Windows build and the Windows driver that WSL2 uses.
  if (!native && !(facts.platform == Platform::wsl2 && reg != nullptr)) return;
  WindowsFacts w;
  if (reg != nullptr) {
    w.registry_source = reg->source();
    for (const std::string& p : reg->problems()) facts.problems.push_back({"registry", reg->source(), p});
    read_os(*reg, facts, w, native);
    read_driver(*reg, facts);
    if (native) read_python_registrations(system, *reg, w);
  }
  if (native && !facts.driver.version) read_driver_files(system, facts);
  w.path_unknown = native && !system.is_live() && !system.env("PATH");
  if (native) {
    find_msvc_runtime(system, w);
    find_launchers(system, w);
  }
  facts.windows = std::move(w);
}

std::vector<std::pair<std::string, std::string>> registered_cuda_toolkits(const SystemView& system) {
  std::vector<std::pair<std::string, std::string>> out;
  const Registry* reg = system.registry();
  if (reg == nullptr || !system.is_windows()) return out;
  for (const std::string& sub : subkeys(*reg, kCudaToolkitKey)) {
    if (sub.empty() || (sub[0] != 'v' && sub[0] != 'V')) continue;
    const std::string key = std::string(kCudaToolkitKey) + "\\" + sub;
    // InstallDir names the folder; without it the version key still says a toolkit of that
    // version was installed, in the installer's default folder.
    std::string dir(trim(reg->text(key, "InstallDir").value_or("")));
    if (dir.empty()) {
      dir = system.join(system.env("ProgramFiles").value_or("C:\\Program Files"),
                        "NVIDIA GPU Computing Toolkit\\CUDA\\" + sub);
    }
    while (dir.size() > 3 && dir.back() == '\\') dir.pop_back();
    out.emplace_back(dir, "registry " + sub);
  }
  return out;
}

}  // namespace gpudoctor
