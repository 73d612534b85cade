/// Semantic checks over the parsed tables: the things a reviewer of a new row would check.
/// Version series must not overlap (two rows for one release) or leave gaps (a release with no
/// row) unless the gap is declared with a source; driver floors must not go down as toolkits
/// get newer; tables that refer to each other must agree.
#include <algorithm>
#include <map>
#include <set>

#include "kb/knowledge_base.hpp"

namespace gpudoctor {
namespace {

using Level = KbIssue::Level;

void add(std::vector<KbIssue>& issues, Level level, std::string file, std::string where, std::string message) {
  issues.push_back(KbIssue{level, std::move(file), std::move(where), std::move(message), ""});
}

bool gap_declared(const std::vector<KnownGap>& gaps, const std::string& os, const Version& v) {
  return std::any_of(gaps.begin(), gaps.end(),
                     [&](const KnownGap& g) { return (g.os.empty() || g.os == os) && g.version.same_series(v, 2); });
}

/// Checks a list of release series (sorted ascending) for duplicates and missing minors.
void check_series(const std::vector<Version>& sorted, const std::vector<KnownGap>& gaps, const std::string& os,
                  const std::string& file, const std::string& what, std::vector<KbIssue>& issues) {
  for (size_t i = 1; i < sorted.size(); ++i) {
    const Version& a = sorted[i - 1];
    const Version& b = sorted[i];
    if (a.same_series(b, 2)) {
      add(issues, Level::error, file, what,
          "overlap: two rows for " + series_text(a) + (os.empty() ? "" : " on " + os));
      continue;
    }
    if (a.major() != b.major()) continue;  // a new major starts its own count
    for (int m = a.minor() + 1; m < b.minor(); ++m) {
      Version missing = Version::of({a.major(), m});
      if (!gap_declared(gaps, os, missing)) {
        add(issues, Level::error, file, what,
            "gap: no row for " + missing.str() + (os.empty() ? "" : " on " + os) +
                " (add one, or declare it in known_gaps with a source)");
      }
    }
  }
}

void validate_tensorflow(const KnowledgeBase& kb, std::vector<KbIssue>& issues) {
  const std::string file = "compat/tensorflow.toml";
  for (const std::string os : {"linux", "windows"}) {
    std::vector<Version> vs;
    for (const TfBuild& b : kb.tensorflow.builds) {
      if (b.os != os) continue;
      vs.push_back(b.version.truncated(2));
      bool native_gpu = kb.tf_native_windows_gpu(b.version);
      if (os == "windows" && b.gpu && !native_gpu) {
        add(issues, Level::error, file, "build " + b.version.str(),
            "windows row marked gpu but after windows_gpu_last " + kb.tensorflow.windows_gpu_last.str());
      }
      if (os == "windows" && !b.gpu && native_gpu) {
        add(issues, Level::error, file, "build " + b.version.str(),
            "windows row marked CPU-only at or before windows_gpu_last");
      }
      if (os == "linux" && !b.gpu) {
        add(issues, Level::error, file, "build " + b.version.str(), "linux rows are GPU builds");
      }
      if (b.cuda && kb.toolkit_arch(*b.cuda) == nullptr) {
        add(issues, Level::error, file, "build " + b.version.str(),
            "CUDA " + b.cuda->str() + " has no row in cuda_arch.toml");
      }
      if (b.cuda && !kb.family_min_driver(*b.cuda, Platform::linux)) {
        add(issues, Level::error, file, "build " + b.version.str(),
            "CUDA " + b.cuda->str() + " has no driver floor in cuda_drivers.toml");
      }
    }
    std::sort(vs.begin(), vs.end());
    check_series(vs, kb.tensorflow.gaps, os, file, "build", issues);
  }
  for (const TfBuild& b : kb.tensorflow.builds) {
    if (b.os != "linux") continue;
    int n = 0;
    for (const TfAndCuda& a : kb.tensorflow.and_cuda) n += a.versions.contains(b.version) ? 1 : 0;
    if (n > 1)
      add(issues, Level::error, file, "and_cuda", "overlap: several [[and_cuda]] rows match " + b.version.str());
  }
}

void validate_pytorch(const KnowledgeBase& kb, std::vector<KbIssue>& issues) {
  const std::string file = "compat/pytorch.toml";
  std::vector<Version> vs;
  for (const TorchRelease& r : kb.pytorch.releases) {
    vs.push_back(r.version.truncated(2));
    std::set<std::string> tags;
    if (r.variants.empty()) add(issues, Level::error, file, "release " + r.version.str(), "no variants");
    for (const TorchVariant& v : r.variants) {
      std::string where = "release " + r.version.str() + " variant " + v.tag;
      if (!tags.insert(v.tag).second) add(issues, Level::error, file, where, "duplicate tag");
      std::string expected = "cu" + std::to_string(v.cuda.major()) + std::to_string(v.cuda.minor());
      if (v.tag != expected) {
        add(issues, Level::error, file, where,
            "tag does not match cuda " + v.cuda.str() + " (expected " + expected + ")");
      }
      if (kb.toolkit_arch(v.cuda) == nullptr) {
        add(issues, Level::error, file, where, "CUDA " + v.cuda.str() + " has no row in cuda_arch.toml");
      }
      if (const ToolkitArch* t = kb.toolkit_arch(v.cuda)) {
        for (const Version& a : v.archs) {
          bool ok = std::any_of(t->sass.begin(), t->sass.end(), [&](const Version& s) { return s.same_series(a, 2); });
          if (!ok) {
            add(issues, Level::error, file, where,
                "arch " + a.str() + " cannot be built by CUDA " + v.cuda.str() + " (cuda_arch.toml)");
          }
        }
      }
    }
  }
  std::sort(vs.begin(), vs.end());
  check_series(vs, {}, "", file, "release", issues);
}

void validate_drivers(const KnowledgeBase& kb, std::vector<KbIssue>& issues) {
  const std::string file = "compat/cuda_drivers.toml";
  std::vector<const CudaDriverRow*> rows;
  for (const CudaDriverRow& r : kb.cuda_drivers) rows.push_back(&r);
  std::sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->cuda < b->cuda; });
  // An unrecorded release hides the rows at and after it: it must come after every row of its series.
  for (const Version& u : kb.cuda_unrecorded) {
    for (const CudaDriverRow* r : rows) {
      if (r->cuda.same_series(u, 2) && (u.parts().size() < 3 || !(r->cuda < u))) {
        add(issues, Level::error, file, "unrecorded " + u.str(), "has a row (" + r->cuda.str() + ") at or after it");
      }
    }
  }
  std::vector<Version> series_list;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i > 0 && rows[i - 1]->cuda == rows[i]->cuda) {
      add(issues, Level::error, file, "toolkit " + rows[i]->cuda.str(), "overlap: duplicate row");
    }
    if (series_list.empty() || !series_list.back().same_series(rows[i]->cuda, 2)) {
      series_list.push_back(rows[i]->cuda.truncated(2));
    }
    // A newer toolkit never needs an older driver; a decrease is a typo.
    if (i > 0 && rows[i - 1]->linux && rows[i]->linux && *rows[i]->linux < *rows[i - 1]->linux) {
      add(issues, Level::error, file, "toolkit " + rows[i]->cuda.str(),
          "Linux driver " + rows[i]->linux->str() + " is lower than " + rows[i - 1]->linux->str() +
              " for the older toolkit " + rows[i - 1]->cuda.str());
    }
    if (i > 0 && rows[i - 1]->windows && rows[i]->windows && *rows[i]->windows < *rows[i - 1]->windows) {
      add(issues, Level::error, file, "toolkit " + rows[i]->cuda.str(),
          "Windows driver " + rows[i]->windows->str() + " is lower than " + rows[i - 1]->windows->str() +
              " for the older toolkit " + rows[i - 1]->cuda.str());
    }
  }
  std::vector<KnownGap> gaps;
  for (const KnownGap& g : kb.cuda_gaps) {
    if (g.table == "cuda_drivers") gaps.push_back(g);
  }
  check_series(series_list, gaps, "", file, "toolkit", issues);
  std::set<int> majors;
  for (const Version& s : series_list) majors.insert(s.major());
  for (int m : majors) {
    if (m >= 11 && kb.family_for_cuda(Version::of({m})) == nullptr) {
      add(issues, Level::error, file, "family", "no [[family]] row for CUDA " + std::to_string(m) + ".x");
    }
  }
  // Every toolkit series must be covered by exactly one cuda_arch.toml row.
  for (const Version& s : series_list) {
    int n = 0;
    for (const ToolkitArch& t : kb.toolkit_archs) n += t.cuda.contains(s) ? 1 : 0;
    if (n == 0) add(issues, Level::error, "compat/cuda_arch.toml", "toolkit", "gap: no row covers CUDA " + s.str());
    if (n > 1)
      add(issues, Level::error, "compat/cuda_arch.toml", "toolkit", "overlap: several rows cover CUDA " + s.str());
  }
}

void validate_gpus(const KnowledgeBase& kb, std::vector<KbIssue>& issues) {
  const std::string file = "compat/gpus.toml";
  std::map<std::string, const GpuModel*> keys;
  for (const GpuModel& g : kb.gpus) {
    auto [it, fresh] = keys.emplace(g.key, &g);
    if (!fresh) {
      add(issues, Level::error, file, g.name, "overlap: same normalised name as '" + it->second->name + "'");
    }
    if (kb.generation_of(g.cc) == nullptr) {
      add(issues, Level::warning, file, g.name,
          "compute capability " + g.cc.str() + " is in no [[generation]] of cuda_arch.toml");
    }
  }
  // A chip the PCI ID database never names would match no card: a misspelt row says nothing.
  for (const ChipWithoutTensorCores& c : kb.chips_without_tensor_cores) {
    const bool named =
        kb.pci_names.empty() || std::any_of(kb.pci_names.begin(), kb.pci_names.end(),
                                            [&](const auto& entry) { return entry.second.starts_with(c.chip); });
    if (!named) {
      add(issues, Level::error, "compat/cuda_arch.toml", "no_tensor_cores " + c.chip,
          "no device of the PCI ID database is of this chip");
    }
    for (const std::string& d : c.devices) {
      auto it = kb.pci_names.find(d);
      if (!kb.pci_names.empty() && (it == kb.pci_names.end() || !it->second.starts_with(c.chip))) {
        add(issues, Level::error, "compat/cuda_arch.toml", "no_tensor_cores " + c.chip,
            "device " + d + " is not a " + c.chip + " in the PCI ID database");
      }
    }
  }
}

/// A device belongs to one branch: the first row a lookup meets would otherwise win silently.
void validate_driver_branches(const KnowledgeBase& kb, std::vector<KbIssue>& issues) {
  std::map<std::string, const LegacyDriverBranch*> seen;
  for (const LegacyDriverBranch& b : kb.legacy_branches) {
    for (const std::string& d : b.devices) {
      auto [it, fresh] = seen.emplace(d, &b);
      if (!fresh) {
        add(issues, Level::error, "compat/driver_branches.toml", "legacy " + b.branch,
            "device " + d + " is also under " + it->second->branch);
      }
    }
  }
}

void validate_cudnn(const KnowledgeBase& kb, std::vector<KbIssue>& issues) {
  for (const CudnnBuild& b : kb.cudnn_builds) {
    auto lo = b.cuda.lowest();
    auto hi = b.cuda.highest();
    if ((lo && lo->major() != b.cuda_major) || (hi && hi->major() != b.cuda_major)) {
      add(issues, Level::error, "compat/cudnn.toml", "build " + b.cudnn.text(),
          "cuda range " + b.cuda.text() + " is outside cuda_major " + std::to_string(b.cuda_major));
    }
  }
}

}  // namespace

void KnowledgeBase::validate(std::vector<KbIssue>& issues) const {
  validate_tensorflow(*this, issues);
  validate_pytorch(*this, issues);
  validate_drivers(*this, issues);
  validate_gpus(*this, issues);
  validate_driver_branches(*this, issues);
  validate_cudnn(*this, issues);
  if (jax.variants.empty()) add(issues, Level::error, "compat/jax.toml", "", "no [[variant]] rows");
  // Release runs are oldest first and never share a version (a lookup takes the first match).
  for (size_t i = 1; i < jax.releases.size(); ++i) {
    auto prev = jax.releases[i - 1].versions.highest();
    auto low = jax.releases[i].versions.lowest();
    if (!prev || !low || !(*prev < *low)) {
      add(issues, Level::error, "compat/jax.toml", "release " + jax.releases[i].versions.text(),
          "overlap or out of order: must start after " + jax.releases[i - 1].versions.text());
    }
  }
  // A plugin's SASS must be something the CUDA that built it can build (sm_120 needs CUDA 12.8).
  for (const JaxPlugin& p : jax.plugins) {
    const std::string where = "plugin " + p.extra + " " + p.versions.text();
    const ToolkitArch* t = toolkit_arch(p.built_cuda);
    if (t == nullptr) {
      add(issues, Level::error, "compat/jax.toml", where,
          "CUDA " + p.built_cuda.str() + " has no row in cuda_arch.toml");
      continue;
    }
    for (const Version& a : p.archs) {
      if (std::none_of(t->sass.begin(), t->sass.end(), [&](const Version& s) { return s.same_series(a, 2); })) {
        add(issues, Level::error, "compat/jax.toml", where,
            "arch " + a.str() + " cannot be built by CUDA " + p.built_cuda.str() + " (cuda_arch.toml)");
      }
    }
  }
  if (python_versions.empty()) add(issues, Level::error, "compat/python.toml", "", "no python versions");
}

}  // namespace gpudoctor
