#include "kb/knowledge_base.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <set>

#include "core/text.hpp"
#include "kb/data_files.hpp"

namespace gpudoctor {

std::string KbIssue::str() const {
  std::string out = file;
  if (!where.empty()) out += ": " + where;
  out += ": " + message;
  if (!origin.empty() && origin != "built-in") out += " [" + origin + "]";
  return out;
}

const char* to_string(ArchCoverage c) {
  switch (c) {
    case ArchCoverage::native:
      return "native";
    case ArchCoverage::ptx_jit:
      return "ptx-jit";
    case ArchCoverage::unknown_ptx:
      return "unknown-ptx";
    case ArchCoverage::none:
      return "none";
    case ArchCoverage::derived:
      return "derived";
    case ArchCoverage::unknown:
      return "unknown";
  }
  return "none";
}

// ---- GPU names ----------------------------------------------------------------------------

namespace {

/// The name lowercased, every character that is not a letter or digit a space (its first 200).
std::string gpu_name_words(std::string_view name) {
  std::string s;
  for (char c : name.substr(0, 200)) {
    const auto u = static_cast<unsigned char>(c);
    s += std::isalnum(u) ? static_cast<char>(std::tolower(u)) : ' ';
  }
  return s;
}

/// Words that vary between nvidia-smi, NVML, marketing and people, and never decide the
/// compute capability: vendor and brand words, form factors, memory sizes, editions.
bool is_noise_token(std::string_view t) {
  static const std::set<std::string_view> noise_words = {
      "nvidia",  "geforce",     "tesla",  "laptop",     "gpu",   "mobile", "notebook", "max",  "q",    "maxq",
      "edition", "workstation", "server", "generation", "pcie",  "sxm",    "sxm2",     "sxm3", "sxm4", "sxm5",
      "sxm6",    "hbm2",        "hbm2e",  "hbm3",       "hbm3e", "nvl",    "graphics", "card", "dgx"};
  if (noise_words.contains(t)) return true;
  // Memory sizes: "80gb", "32g", "141gb".
  size_t i = 0;
  while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
  if (i > 0 && i < t.size()) {
    std::string_view unit = t.substr(i);
    if (unit == "gb" || unit == "g") return true;
  }
  return false;
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

std::string normalize_gpu_name(std::string_view name) {
  const std::string s = gpu_name_words(name);
  std::string out;
  for (std::string_view tok : split(s, ' ')) {
    if (tok.empty() || is_noise_token(tok)) continue;
    if (!out.empty()) out += ' ';
    out += tok;
  }
  return out;
}

std::optional<Version> parse_compute_capability(std::string_view text) {
  std::string_view t = trim(text);
  for (std::string_view prefix : {"sm_", "compute_", "sm", "compute"}) {
    if (t.starts_with(prefix)) {
      t.remove_prefix(prefix.size());
      break;
    }
  }
  if (t.empty() || t.size() > 8) return std::nullopt;
  // Arch suffixes "a"/"f" (sm_90a, sm_100f) name the same compute capability.
  while (!t.empty() && std::isalpha(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
  if (t.find('.') != std::string_view::npos) {
    auto v = Version::parse(t);
    if (!v || v->parts().size() != 2) return std::nullopt;
    return v;
  }
  for (char c : t) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  }
  if (t.size() < 2 || t.size() > 3) return std::nullopt;
  int minor = t.back() - '0';
  int major = std::stoi(std::string(t.substr(0, t.size() - 1)));
  return Version::of({major, minor});
}

GpuMatch KnowledgeBase::find_gpu(std::string_view name) const {
  GpuMatch m;
  std::string key = normalize_gpu_name(name);
  if (!key.empty()) {
    for (const GpuModel& g : gpus) {
      if (g.key == key) {
        m.model = &g;
        return m;
      }
    }
  }
  // A name short of a model's words ("RTX 6000") fits several models of different compute
  // capabilities: said as ambiguous, with them first among the suggestions.
  if (!key.empty()) {
    const std::vector<std::string_view> words = split(key, ' ');
    for (const GpuModel& g : gpus) {
      const std::vector<std::string_view> have = split(g.key, ' ');
      if (std::all_of(words.begin(), words.end(),
                      [&](std::string_view w) { return std::find(have.begin(), have.end(), w) != have.end(); })) {
        m.ambiguous.push_back(g.name);
      }
    }
  }
  // One fit is not ambiguous (and not guessed either); dozens ("RTX") are a word, not a model.
  if (m.ambiguous.size() < 2 || m.ambiguous.size() > 8) m.ambiguous.clear();
  m.suggestions = m.ambiguous;
  for (std::string& n : nearest_gpu_names(name)) {
    if (std::find(m.suggestions.begin(), m.suggestions.end(), n) == m.suggestions.end()) m.suggestions.push_back(n);
  }
  const size_t keep = std::max<size_t>(5, m.ambiguous.size());
  if (m.suggestions.size() > keep) m.suggestions.resize(keep);
  return m;
}

namespace {

/// What a device name says about its board beyond the model: a laptop part, the form factor, the
/// memory size (the words normalize_gpu_name drops).
struct BoardWords {
  bool laptop = false;
  std::string form;  ///< "sxm", "pcie", "nvl" or empty
  std::optional<int> memory_gb;
};

BoardWords board_words(std::string_view name) {
  const std::string s = gpu_name_words(name);
  BoardWords w;
  std::string_view previous;
  for (std::string_view tok : split(s, ' ')) {
    if (tok.empty()) continue;
    if (tok == "laptop" || tok == "mobile" || tok == "notebook" || tok == "maxq" || (previous == "max" && tok == "q"))
      w.laptop = true;
    if (tok.starts_with("sxm")) w.form = "sxm";
    if (tok == "pcie" || tok == "nvl") w.form = std::string(tok);
    size_t digits = 0;
    while (digits < tok.size() && std::isdigit(static_cast<unsigned char>(tok[digits]))) ++digits;
    if (digits > 0 && digits <= 4 && (tok.substr(digits) == "gb" || tok.substr(digits) == "g"))
      w.memory_gb = std::atoi(std::string(tok.substr(0, digits)).c_str());
    previous = tok;
  }
  return w;
}

}  // namespace

const GpuPeak* KnowledgeBase::find_gpu_peak(std::string_view name) const {
  std::string key = normalize_gpu_name(name);
  const BoardWords board = board_words(name);
  // The peaks are a desktop or datacenter board's: a laptop part of the same name is another chip
  // at other clocks, and a board of another form or memory size has other figures.
  if (board.laptop) return nullptr;
  for (const GpuPeak& p : gpu_peaks) {
    if (key.empty() || p.key != key) continue;
    if (!p.form.empty() && !board.form.empty() && board.form != p.form) continue;
    if (p.memory_gb && board.memory_gb && *board.memory_gb != *p.memory_gb) continue;
    return &p;
  }
  return nullptr;
}

std::optional<Version> KnowledgeBase::compute_capability(std::string_view gpu_name) const {
  GpuMatch m = find_gpu(gpu_name);
  if (m.model == nullptr) return std::nullopt;
  return m.model->cc;
}

std::vector<std::string> KnowledgeBase::nearest_gpu_names(std::string_view name, size_t max) const {
  std::string key = normalize_gpu_name(name);
  // Digits carry the model; a shared model number outranks spelling.
  std::string digits;
  for (char c : key) {
    if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
  }
  std::vector<std::pair<size_t, const GpuModel*>> scored;
  for (const GpuModel& g : gpus) {
    size_t d = edit_distance(key, g.key) * 2;
    if (!digits.empty() && g.key.find(digits) == std::string::npos) d += 6;
    scored.emplace_back(d, &g);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (const auto& [d, g] : scored) {
    if (out.size() >= max) break;
    out.push_back(g->name);
  }
  return out;
}

const ArchGeneration* KnowledgeBase::generation_of(const Version& cc) const {
  for (const ArchGeneration& g : generations) {
    for (const Version& c : g.cc) {
      if (c.same_series(cc, 2)) return &g;
    }
  }
  return nullptr;
}

// ---- CUDA and drivers ---------------------------------------------------------------------

const CudaDriverRow* KnowledgeBase::driver_row_for_cuda(const Version& cuda) const {
  const CudaDriverRow* best = nullptr;    // highest row <= cuda in the series
  const CudaDriverRow* newest = nullptr;  // highest row in the series
  const CudaDriverRow* oldest = nullptr;
  for (const CudaDriverRow& r : cuda_drivers) {
    if (!r.cuda.same_series(cuda, 2)) continue;
    if (newest == nullptr || r.cuda > newest->cuda) newest = &r;
    if (oldest == nullptr || r.cuda < oldest->cuda) oldest = &r;
    if (r.cuda <= cuda && (best == nullptr || r.cuda > best->cuda)) best = &r;
  }
  // A release after the newest row is known to exist (13.3 Update 1): "13.3" or 13.3.x past the
  // rows may be that release, whose driver is not recorded. Unknown, not the older row's driver.
  for (const Version& u : cuda_unrecorded) {
    if (!u.same_series(cuda, 2)) continue;
    if (u.parts().size() < 3 || cuda.parts().size() < 3 || cuda.parts()[2] >= u.parts()[2]) return nullptr;
  }
  // "12.2" says nothing about the update: the newest update's driver is the safe floor.
  if (cuda.parts().size() < 3) return newest;
  return best != nullptr ? best : oldest;
}

std::optional<Version> KnowledgeBase::min_driver_for_cuda(const Version& cuda, Platform platform) const {
  const CudaDriverRow* r = driver_row_for_cuda(cuda);
  if (r == nullptr) return std::nullopt;
  return platform == Platform::linux ? r->linux : r->windows;
}

const CudaFamily* KnowledgeBase::family_for_cuda(const Version& cuda) const {
  for (const CudaFamily& f : cuda_families) {
    if (f.major == cuda.major()) return &f;
  }
  return nullptr;
}

std::optional<Version> KnowledgeBase::family_min_driver(const Version& cuda, Platform platform) const {
  const CudaFamily* f = family_for_cuda(cuda);
  if (f == nullptr) {
    // Before CUDA 11 there was no minor-version compatibility: the toolkit's own driver.
    return min_driver_for_cuda(cuda, platform);
  }
  return platform == Platform::linux ? f->linux : f->windows;
}

std::optional<ArchDriverFloor> KnowledgeBase::arch_driver_floor(const Version& cc, Platform platform) const {
  const ArchGeneration* g = generation_of(cc);
  if (g == nullptr) return std::nullopt;
  // The generation's first release (12.8 = 12.8 GA, patch 0), not its newest update.
  Version ga = g->first_cuda.parts().size() >= 3 ? g->first_cuda
                                                 : Version::of({g->first_cuda.major(), g->first_cuda.minor(), 0});
  const CudaDriverRow* r = driver_row_for_cuda(ga);
  if (r == nullptr) return std::nullopt;
  const std::optional<Version>& d = platform == Platform::linux ? r->linux : r->windows;
  if (!d) return std::nullopt;
  return ArchDriverFloor{*d, g->name, g->first_cuda, g->source + "; " + r->release + " driver: " + r->source};
}

const LegacyDriverBranch* KnowledgeBase::legacy_branch(std::string_view pci_device_id) const {
  for (const LegacyDriverBranch& b : legacy_branches) {
    if (std::find(b.devices.begin(), b.devices.end(), pci_device_id) != b.devices.end()) return &b;
  }
  return nullptr;
}

std::optional<LegacyDriverBranch> KnowledgeBase::last_driver_branch(std::string_view pci_device_id,
                                                                    std::string_view gpu_name,
                                                                    const std::optional<Version>& cc) const {
  const LegacyDriverBranch* found = nullptr;
  if (!pci_device_id.empty()) {
    found = legacy_branch(pci_device_id);
  } else {
    for (const std::string& device : pci_devices_named(gpu_name)) {
      const LegacyDriverBranch* b = legacy_branch(device);
      if (b == nullptr) {  // a board of that name is still driven by the packages read
        found = nullptr;
        break;
      }
      if (found == nullptr || b->major > found->major) found = b;
    }
  }
  if (found != nullptr) return LegacyDriverBranch{found->branch, found->major, {}, found->source};
  // The packages read (up to 555) still drive Maxwell, Pascal and Volta: their end (R580) is the
  // generation's, from NVIDIA's matrix. Jetson boards take JetPack's driver, not a branch.
  if (!cc || is_jetson(gpu_name, cc)) return std::nullopt;
  const ArchGeneration* g = generation_of(*cc);
  if (g == nullptr || g->last_driver_branch.size() < 2 || g->last_driver_branch[0] != 'R') return std::nullopt;
  int major = 0;
  const std::string digits = g->last_driver_branch.substr(1);
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), major);
  if (ec != std::errc{} || end != digits.data() + digits.size() || major <= 0) return std::nullopt;
  int newest_read = 0;
  for (const DriverBranchPackage& p : branch_packages) newest_read = std::max(newest_read, p.branch);
  std::string listed = newest_read > 0 ? " (driver packages up to " + std::to_string(newest_read) + " read)" : "";
  return LegacyDriverBranch{std::to_string(major) + ".xx",
                            major,
                            {},
                            "compat/cuda_arch.toml generation " + g->name + " (compute capability " +
                                cc->truncated(2).str() + "): last_driver_branch " + g->last_driver_branch + ", " +
                                g->source + "; the drivers' own device lists in compat/driver_branches.toml" + listed +
                                " do not list this GPU"};
}

std::optional<LegacyDriverBranch> KnowledgeBase::last_driver_branch(const GpuFacts& gpu) const {
  std::optional<Version> cc;
  if (gpu.cc_major && gpu.cc_minor) cc = Version::of({*gpu.cc_major, *gpu.cc_minor});
  return last_driver_branch(gpu.pci_device_id, gpu.kb_name.empty() ? gpu.name : gpu.kb_name, cc);
}

std::vector<int> KnowledgeBase::driver_branch_sequence() const {
  std::vector<int> seq;
  for (const CudaDriverRow& r : cuda_drivers) {
    if (r.linux) seq.push_back(r.linux->major());
  }
  for (const LegacyDriverBranch& b : legacy_branches) seq.push_back(b.major);
  for (const DriverBranchPackage& p : branch_packages) seq.push_back(p.branch);
  std::sort(seq.begin(), seq.end());
  seq.erase(std::unique(seq.begin(), seq.end()), seq.end());
  return seq;
}

std::optional<int> KnowledgeBase::next_driver_branch(int branch) const {
  for (int b : driver_branch_sequence()) {
    if (b > branch) return b;
  }
  return std::nullopt;
}

bool KnowledgeBase::driver_past_branch(const Version& driver, int branch, Platform platform) const {
  if (platform == Platform::linux) return driver.major() > branch;
  const std::optional<int> next = next_driver_branch(branch);
  return next && driver.major() >= *next;
}

const CudaDriverRow* KnowledgeBase::newest_toolkit_for_branch(int branch) const {
  for (const CudaDriverRow& r : cuda_drivers) {  // newest first
    if (r.linux && r.linux->major() <= branch) return &r;
  }
  return nullptr;
}

std::optional<int> KnowledgeBase::newest_cuda_major_for_branch(int branch) const {
  std::optional<int> best;
  for (const CudaFamily& f : cuda_families) {
    if (f.linux.major() <= branch && (!best || f.major > *best)) best = f.major;
  }
  return best;
}

const DriverBranchPackage* KnowledgeBase::branch_package(std::string_view distro, std::string_view version_id,
                                                         int branch) const {
  for (const DriverBranchPackage& p : branch_packages) {
    if (p.branch == branch && p.distro == distro && !p.version_id.empty() && p.version_id == version_id) return &p;
  }
  return nullptr;
}

std::vector<const ChipWithoutTensorCores*> KnowledgeBase::without_tensor_cores(std::string_view pci_device_id,
                                                                               std::string_view gpu_name) const {
  // "TU117GLM [Quadro T1000 Mobile]": the chip is what comes before the brackets.
  auto row_of = [&](const std::string& device) -> const ChipWithoutTensorCores* {
    auto it = pci_names.find(device);
    if (it == pci_names.end()) return nullptr;
    const std::string_view chip = trim(std::string_view(it->second).substr(0, it->second.find('[')));
    for (const ChipWithoutTensorCores& c : chips_without_tensor_cores) {
      const bool listed = std::find(c.devices.begin(), c.devices.end(), device) != c.devices.end();
      if (chip.starts_with(c.chip) && (c.devices.empty() || listed)) return &c;
    }
    return nullptr;
  };
  std::vector<const ChipWithoutTensorCores*> found;
  const std::vector<std::string> devices =
      pci_device_id.empty() ? pci_devices_named(gpu_name) : std::vector<std::string>{std::string(pci_device_id)};
  for (const std::string& device : devices) {
    const ChipWithoutTensorCores* c = row_of(device);
    if (c == nullptr) return {};  // a board of that name has them, or may
    if (std::find(found.begin(), found.end(), c) == found.end()) found.push_back(c);
  }
  return found;
}

std::vector<std::string> KnowledgeBase::pci_devices_named(std::string_view name) const {
  std::vector<std::string> out;
  const std::string key = normalize_gpu_name(name);
  if (key.empty()) return out;
  // A token of a normalised name is a run of the name's letters and digits, lower-cased: an
  // entry without the key's longest token, in any case, cannot match. Checked before normalising
  // each of the ~1,750 entries (a plan asks once per option: 96 ms before, 43 ms after;
  // docs/performance.md).
  std::string_view longest;
  for (std::string_view tok : split(key, ' ')) {
    if (tok.size() > longest.size()) longest = tok;
  }
  const auto same_letter = [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == static_cast<unsigned char>(b);
  };
  for (const auto& [device, pci_name] : pci_names) {
    if (std::search(pci_name.begin(), pci_name.end(), longest.begin(), longest.end(), same_letter) == pci_name.end()) {
      continue;
    }
    auto open = pci_name.find('[');
    auto close = pci_name.rfind(']');
    if (open == std::string::npos || close == std::string::npos || close <= open + 1) continue;
    // "GK104GL [GRID K2 / Tesla K10]": each name the brackets give.
    const std::string marketing = pci_name.substr(open + 1, close - open - 1);
    for (std::string_view part : split(marketing, '/')) {
      if (normalize_gpu_name(trim(part)) == key) {
        out.push_back(device);
        break;
      }
    }
  }
  return out;
}

const ToolkitArch* KnowledgeBase::toolkit_arch(const Version& cuda) const {
  for (const ToolkitArch& t : toolkit_archs) {
    if (t.cuda.contains(cuda)) return &t;
  }
  return nullptr;
}

// ---- Frameworks ---------------------------------------------------------------------------

const TfBuild* KnowledgeBase::tf_build(const Version& version, Platform platform) const {
  std::string os = platform == Platform::windows ? "windows" : "linux";
  for (const TfBuild& b : tensorflow.builds) {
    if (b.os == os && b.version.same_series(version, 2)) return &b;
  }
  return nullptr;
}

const TfAndCuda* KnowledgeBase::tf_and_cuda(const Version& version) const {
  for (const TfAndCuda& a : tensorflow.and_cuda) {
    if (a.versions.contains(version)) return &a;
  }
  return nullptr;
}

const TfPackage* KnowledgeBase::tf_package(std::string_view name) const {
  for (const TfPackage& p : tensorflow.packages) {
    if (iequals(p.name, name)) return &p;
  }
  return nullptr;
}

bool KnowledgeBase::tf_native_windows_gpu(const Version& version) const {
  return version.truncated(2) <= tensorflow.windows_gpu_last.truncated(2);
}

const TorchRelease* KnowledgeBase::torch_release(const Version& version) const {
  for (const TorchRelease& r : pytorch.releases) {
    if (r.version.same_series(version, 2)) return &r;
  }
  return nullptr;
}

const TorchVariant* KnowledgeBase::torch_variant(const TorchRelease& release, std::string_view tag) const {
  for (const TorchVariant& v : release.variants) {
    if (v.tag == tag) return &v;
  }
  return nullptr;
}

std::string KnowledgeBase::torch_index_url(std::string_view tag) const {
  std::string url = pytorch.index_url;
  auto pos = url.find("{tag}");
  if (pos != std::string::npos) url.replace(pos, 5, tag);
  return url;
}

const JaxVariant* KnowledgeBase::jax_variant(std::string_view extra) const {
  for (const JaxVariant& v : jax.variants) {
    if (v.extra == extra) return &v;
  }
  return nullptr;
}

bool KnowledgeBase::in_release_run(const VersionSpec& run, const Version& version) {
  // The bounds of a harvested run are releases, not series: "<=0.12.1" does not hold 0.12.1.1
  // (JAX publishes four-part releases: 0.9.0.1, 0.12.0.1), and no pre-release or development
  // build was harvested (the session 40 re-read).
  if (!version.pre().empty() || !run.contains(version)) return false;
  const std::optional<Version> lo = run.lowest();
  const std::optional<Version> hi = run.highest();
  return (!lo || (version <=> *lo) >= 0) && (!hi || (version <=> *hi) <= 0);
}

bool KnowledgeBase::jax_run_overlaps(const VersionSpec& run, const VersionSpec& request) {
  for (const auto& bound : {run.lowest(), run.highest(), request.lowest(), request.highest()}) {
    if (bound && run.contains(*bound) && request.contains(*bound)) return true;
  }
  static const std::vector<Version> released = builtin_released_versions("jax");
  return std::any_of(released.begin(), released.end(),
                     [&](const Version& r) { return in_release_run(run, r) && request.contains(r); });
}

const JaxRelease* KnowledgeBase::jax_release(const Version& version) const {
  for (const JaxRelease& r : jax.releases) {
    if (in_release_run(r.versions, version)) return &r;
  }
  return nullptr;
}

const VersionSpec* KnowledgeBase::jax_cudnn(const JaxVariant& v, const std::optional<Version>& release) const {
  if (const JaxRelease* r = release ? jax_release(*release) : nullptr) {
    const std::optional<VersionSpec>& s = v.extra == "cuda13" ? r->cuda13_cudnn : r->cuda12_cudnn;
    if (s) return &*s;
  }
  // A release the harvest gave no floor for is still held to the guide's: never unchecked.
  return &v.cudnn;
}

const JaxPlugin* KnowledgeBase::jax_plugin(std::string_view extra, const Version& release) const {
  for (const JaxPlugin& p : jax.plugins) {
    if (p.extra == extra && in_release_run(p.versions, release)) return &p;
  }
  return nullptr;
}

ArchCoverage KnowledgeBase::jax_coverage(const JaxVariant& v, const std::optional<Version>& release,
                                         const Version& cc) const {
  // JAX supports nothing below its floor, whatever the plugin carries (sm_50 SASS, JAX's 5.2).
  if (cc.truncated(2) < v.min_cc.truncated(2)) return ArchCoverage::none;
  if (const JaxPlugin* p = release ? jax_plugin(v.extra, *release) : nullptr) {
    return coverage_by_list(cc, p->archs, p->ptx);
  }
  // A release older than every row carries no newer arch than the oldest row: judged by it.
  const JaxPlugin* oldest = nullptr;
  for (const JaxPlugin& p : jax.plugins) {
    if (p.extra != v.extra || !p.versions.lowest()) continue;
    if (oldest == nullptr || *p.versions.lowest() < *oldest->versions.lowest()) oldest = &p;
  }
  if (release && oldest != nullptr && *release < *oldest->versions.lowest()) {
    return coverage_by_list(cc, oldest->archs, oldest->ptx);
  }
  // A release newer than every row (PyPI moves on after a harvest): its plugin's list is not
  // recorded, and an older plugin's says nothing of it. Never "native" without a basis.
  if (release && oldest != nullptr) return ArchCoverage::unknown;
  return ArchCoverage::native;
}

const JaxYanked* KnowledgeBase::jax_yanked(const Version& release) const {
  for (const JaxYanked& y : jax.yanked) {
    if (y.version == release) return &y;
  }
  return nullptr;
}

// ---- Architecture coverage ----------------------------------------------------------------

ArchCoverage KnowledgeBase::coverage_by_list(const Version& cc, const std::vector<Version>& archs,
                                             const std::optional<Version>& ptx) {
  // SASS runs on the same major at an equal or higher minor (sm_80 code runs on 8.6 and 8.9).
  for (const Version& a : archs) {
    if (a.major() == cc.major() && a.minor() <= cc.minor()) return ArchCoverage::native;
  }
  if (ptx && ptx->truncated(2) <= cc.truncated(2)) return ArchCoverage::ptx_jit;
  return ArchCoverage::none;
}

ArchCoverage KnowledgeBase::torch_coverage(const TorchVariant& v, const Version& cc, Platform platform,
                                           bool aarch64) const {
  if (aarch64) {
    // The x86/Windows list says nothing about the aarch64 wheels; only the bounds still hold.
    if (!v.aarch64_archs.empty()) return coverage_by_list(cc, v.aarch64_archs, v.aarch64_ptx);
    if (v.min_cc && cc.truncated(2) < v.min_cc->truncated(2)) return ArchCoverage::none;
    const ToolkitArch* t = toolkit_arch(v.cuda);
    if (t != nullptr && coverage_by_list(cc, t->sass, std::nullopt) == ArchCoverage::none) return ArchCoverage::none;
    return ArchCoverage::unknown;
  }
  if (!v.archs.empty()) {
    std::optional<Version> ptx = v.ptx;
    if (ptx && !v.ptx_os.empty()) {
      std::string os = platform == Platform::windows ? "windows" : "linux";
      if (std::find(v.ptx_os.begin(), v.ptx_os.end(), os) == v.ptx_os.end()) ptx.reset();
    }
    return coverage_by_list(cc, v.archs, ptx);
  }
  if (v.min_cc && cc.truncated(2) < v.min_cc->truncated(2)) return ArchCoverage::none;
  const ToolkitArch* t = toolkit_arch(v.cuda);
  if (t == nullptr) return ArchCoverage::unknown_ptx;
  // No sourced list: the toolkit's SASS list bounds what the wheel can hold. Beyond it a
  // PyTorch wheel has no kernels (the sourced lists show no PTX for those variants).
  return coverage_by_list(cc, t->sass, std::nullopt);
}

ArchCoverage KnowledgeBase::tf_coverage(const TfBuild& b, const Version& cc) const {
  if (!b.archs.empty() || b.ptx) return coverage_by_list(cc, b.archs, b.ptx);
  if (!b.cuda) return ArchCoverage::none;
  const ToolkitArch* t = toolkit_arch(*b.cuda);
  if (t == nullptr) return ArchCoverage::unknown_ptx;
  ArchCoverage c = coverage_by_list(cc, t->sass, std::nullopt);
  // The toolkit could target it; whether this wheel does is not recorded (2.20's list is
  // narrower than its toolkit's).
  if (c == ArchCoverage::native) return ArchCoverage::derived;
  // Above what the toolkit can target: only PTX could run, and the wheel's PTX is not recorded.
  Version highest = *std::max_element(t->sass.begin(), t->sass.end());
  return cc.truncated(2) > highest.truncated(2) ? ArchCoverage::unknown_ptx : ArchCoverage::none;
}

const TfBuild* KnowledgeBase::tf_recorded_neighbour(const TfBuild& b) const {
  if (!b.cuda || !b.archs.empty() || b.ptx) return nullptr;
  return tf_recorded_like(b.os, *b.cuda);
}

const TfBuild* KnowledgeBase::tf_recorded_like(std::string_view os, const Version& cuda) const {
  // Same OS and CUDA major; the same CUDA minor first, else the nearest release (rows run newest first).
  const TfBuild* best = nullptr;
  for (const TfBuild& n : tensorflow.builds) {
    if (n.os != os || !n.cuda || n.cuda->major() != cuda.major() || (n.archs.empty() && !n.ptx)) continue;
    if (n.cuda->same_series(cuda, 2)) return &n;
    if (best == nullptr) best = &n;
  }
  return best;
}

bool KnowledgeBase::is_jetson(std::string_view gpu_name, const std::optional<Version>& cc) const {
  if (to_lower(gpu_name).find("jetson") != std::string::npos) return true;
  if (!cc) return false;
  // Integrated (Tegra) architectures have compute capabilities no discrete card shares.
  return std::any_of(gpus.begin(), gpus.end(), [&](const GpuModel& g) {
    return to_lower(g.name).find("jetson") != std::string::npos && cc->same_series(g.cc, 2);
  });
}

bool KnowledgeBase::arm_host(std::string_view gpu_name, const std::optional<Version>& cc) const {
  if (is_jetson(gpu_name, cc)) return true;
  GpuMatch m = find_gpu(gpu_name);
  return m.model != nullptr && m.model->arm_host;
}

const VersionSpec& KnowledgeBase::torch_python(const TorchRelease& r, Platform os, bool arm_host) {
  if (os == Platform::windows && r.python_windows) return *r.python_windows;
  if (os != Platform::windows && arm_host && r.python_aarch64) return *r.python_aarch64;
  return r.python;
}

}  // namespace gpudoctor
