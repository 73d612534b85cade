#include "check/checks.hpp"

#include <algorithm>

#include "check/compat_checks.hpp"
#include "check/env_checks.hpp"
#include "check/gpu_driver_checks.hpp"
#include "check/python_checks.hpp"
#include "check/toolkit_checks.hpp"

namespace gpudoctor {
namespace {

/// A generic verdict is dropped when a more specific one says the same about the same
/// framework (same location and package in the first two evidence entries): "TF 2.15 cannot use
/// the GPU on native Windows" explains "tensorflow-intel is a CPU-only build".
void drop_explained_generics(std::vector<Finding>& findings) {
  static const std::pair<const char*, const char*> kExplains[] = {
      {"tf-native-windows-no-gpu", "framework-cpu-only"},
      {"jax-native-windows-no-gpu", "framework-cpu-only"},
  };
  auto key = [](const Finding& f) {
    return f.evidence.size() >= 2 ? f.evidence[0] + "\n" + f.evidence[1] : std::string();
  };
  std::vector<std::pair<std::string, std::string>> explained;  // generic id, key
  for (const auto& f : findings) {
    for (const auto& [specific, generic] : kExplains) {
      if (f.id == specific && !key(f).empty()) explained.emplace_back(generic, key(f));
    }
  }
  std::erase_if(findings, [&](const Finding& f) {
    for (const auto& [generic, k] : explained) {
      if (f.id == generic && key(f) == k) return true;
    }
    return false;
  });
}

/// The same verdict for several identical things (8 identical GPUs) is said once, with all
/// their evidence.
void merge_identical(std::vector<Finding>& findings) {
  std::vector<Finding> out;
  for (Finding& f : findings) {
    auto same = std::find_if(out.begin(), out.end(), [&](const Finding& o) {
      return o.id == f.id && o.severity == f.severity && o.title == f.title && o.detail == f.detail && o.fix == f.fix;
    });
    if (same == out.end()) {
      out.push_back(std::move(f));
      continue;
    }
    for (auto& e : f.evidence) {
      if (std::find(same->evidence.begin(), same->evidence.end(), e) == same->evidence.end()) {
        same->evidence.push_back(std::move(e));
      }
    }
  }
  findings = std::move(out);
}

}  // namespace

std::vector<Finding> run_checks(const Facts& facts, const KnowledgeBase* kb) {
  std::vector<Finding> out;
  auto append = [&out](std::vector<Finding> more) {
    for (auto& f : more) out.push_back(std::move(f));
  };
  append(system_findings(facts));
  append(gpu_driver_findings(facts));
  append(toolkit_findings(facts));
  append(library_findings(facts));
  if (kb != nullptr) append(compatibility_findings(facts, *kb));
  append(python_findings(facts));
  append(env_findings(facts));
  drop_explained_generics(out);
  merge_identical(out);
  return out;
}

}  // namespace gpudoctor
