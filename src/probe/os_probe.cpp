#include "core/text.hpp"
#include "probe/probes.hpp"

namespace gpudoctor {
namespace {

/// os-release: KEY=value lines, values optionally quoted.
void read_os_release(const SystemView& system, OsFacts& os) {
  for (const char* path : {"/etc/os-release", "/usr/lib/os-release"}) {
    auto text = system.read_file(path, 64 * 1024);
    if (!text) continue;
    for (std::string_view line : lines(*text)) {
      auto eq = line.find('=');
      if (eq == std::string_view::npos) continue;
      std::string_view key = trim(line.substr(0, eq));
      std::string value = printable(unquote(line.substr(eq + 1)), 120);
      if (key == "PRETTY_NAME") os.name = value;
      if (key == "ID") os.id = value;
      if (key == "VERSION_ID") os.version_id = value;
    }
    return;
  }
}

void detect_container(const SystemView& system, OsFacts& os) {
  if (system.exists("/.dockerenv")) {
    os.container = "docker";
    os.container_evidence.emplace_back("/.dockerenv");
  }
  if (system.exists("/run/.containerenv")) {
    os.container = "podman";
    os.container_evidence.emplace_back("/run/.containerenv");
  }
  if (auto v = system.env("KUBERNETES_SERVICE_HOST"); v && !v->empty()) {
    if (os.container.empty()) os.container = "kubernetes";
    os.container_evidence.emplace_back("KUBERNETES_SERVICE_HOST");
  }
  if (auto c = system.env("container"); c && !c->empty()) {
    if (os.container.empty()) os.container = printable(*c, 40);
    os.container_evidence.emplace_back("container=" + printable(*c, 40));
  }
  // cgroup v1 paths name the runtime; under cgroup v2 this is often just "0::/".
  if (auto cg = system.read_file("/proc/1/cgroup", 64 * 1024)) {
    for (const char* runtime : {"docker", "kubepods", "containerd", "lxc"}) {
      if (contains(*cg, runtime)) {
        if (os.container.empty()) os.container = runtime == std::string("kubepods") ? "kubernetes" : runtime;
        os.container_evidence.emplace_back(std::string("/proc/1/cgroup mentions ") + runtime);
        break;
      }
    }
  }
}

/// The machine, from the dynamic loader at the path each architecture's ABI fixes (there live
/// and in a tree under --root), else from Debian's multiarch directory when only one is there.
/// Empty when the tree does not tell (or holds both: a multi-architecture install).
std::string linux_arch(const SystemView& system) {
  const bool x86 = system.exists("/lib64/ld-linux-x86-64.so.2");
  const bool arm = system.exists("/lib/ld-linux-aarch64.so.1");
  if (x86 != arm) return x86 ? "x86_64" : "aarch64";
  if (x86) return "";
  const bool x86_dir = system.is_dir("/usr/lib/x86_64-linux-gnu");
  const bool arm_dir = system.is_dir("/usr/lib/aarch64-linux-gnu");
  if (x86_dir != arm_dir) return x86_dir ? "x86_64" : "aarch64";
  return "";
}

}  // namespace

void probe_os(const SystemView& system, Facts& facts) {
  OsFacts& os = facts.os;
  if (system.is_windows()) {
    os.id = "windows";
    os.name = "Windows";
    if (auto v = system.env("OS")) os.name = printable(*v, 60);
    if (auto arch = system.env("PROCESSOR_ARCHITECTURE")) os.arch = printable(*arch, 20);
    return;
  }
  read_os_release(system, os);
  os.arch = linux_arch(system);
  if (auto rel = system.read_file("/proc/sys/kernel/osrelease", 4096)) {
    os.kernel = printable(trim(*rel), 120);
  } else if (auto ver = system.read_file("/proc/version", 4096)) {
    // "Linux version 5.15.0-91-generic (...)"
    auto words = split(trim(*ver), ' ');
    if (words.size() >= 3) os.kernel = printable(words[2], 120);
  }
  std::string kernel_lower = to_lower(os.kernel);
  os.wsl_dxg_device = system.exists("/dev/dxg");
  os.wsl_lib_dir = system.is_dir("/usr/lib/wsl/lib");
  os.wsl2 = system.platform() == Platform::wsl2 || contains(kernel_lower, "microsoft") || contains(kernel_lower, "wsl");
  if (os.wsl2) facts.platform = Platform::wsl2;
  detect_container(system, os);
}

}  // namespace gpudoctor
