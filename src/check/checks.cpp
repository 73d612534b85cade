#include "check/checks.hpp"

#include <algorithm>

#include "check/compat_checks.hpp"
#include "check/env_checks.hpp"
#include "check/gpu_driver_checks.hpp"
#include "check/network_checks.hpp"
#include "check/nvidia_wheel_checks.hpp"
#include "check/python_checks.hpp"
#include "check/requirement_checks.hpp"
#include "check/tensorflow_companion_checks.hpp"
#include "check/tensorflow_plugin_checks.hpp"
#include "check/toolkit_checks.hpp"
#include "check/windows_checks.hpp"
#include "core/text.hpp"

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

/// Whether `text` mentions `path` as a whole path: followed by its end, a space, ')' or ','.
bool names_path(std::string_view text, std::string_view path) {
  for (size_t pos = text.find(path); pos != std::string_view::npos; pos = text.find(path, pos + 1)) {
    size_t end = pos + path.size();
    if (end == text.size() || text[end] == ' ' || text[end] == ')' || text[end] == ',' || text[end] == ':') return true;
  }
  return false;
}

/// Whether a problem finding is about the inventory item `item` (its subject is evidence[0]).
bool involves(const Finding& problem, const Finding& item) {
  if (item.evidence.empty() || item.evidence.front().size() < 2) return false;
  const std::string& subject = item.evidence.front();
  if (item.id == "python-env") {
    // An environment is named in the verdict's title ("... (in /home/a/venv)") or by a
    // site-packages directory inside it.
    if (names_path(problem.title, "in " + subject)) return true;
    for (const auto& e : problem.evidence) {
      for (const char* lib : {"/lib/python", "/local/lib/python", "\\Lib\\site-packages"}) {
        if (e.starts_with(subject + lib)) return true;
      }
    }
    return false;
  }
  for (const auto& e : problem.evidence) {
    if (names_path(e, subject)) return true;
  }
  return false;
}

/// An inventory line (an environment, a library copy, a toolkit, a GPU) that a warning or an error
/// is about is never shown as fine: it loses its ✓ and points at the problem.
void unmark_involved_items(std::vector<Finding>& findings) {
  for (Finding& item : findings) {
    if (item.severity != Severity::ok) continue;
    if (item.id != "python-env" && item.id != "library" && item.id != "toolkit" && item.id != "gpu") continue;
    const Finding* worst_problem = nullptr;
    for (const Finding& p : findings) {
      if (p.severity < Severity::warning || !involves(p, item)) continue;
      if (worst_problem == nullptr || p.severity > worst_problem->severity) worst_problem = &p;
    }
    if (worst_problem == nullptr) continue;
    item.severity = Severity::info;
    item.title +=
        std::string(" — see ") + (worst_problem->severity == Severity::error ? "✗" : "!") + " " + worst_problem->title;
  }
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
  append(nvidia_wheel_findings(facts));
  if (kb != nullptr) append(compatibility_findings(facts, *kb));
  if (kb != nullptr) append(tensorflow_companion_findings(facts, *kb));
  append(tensorflow_plugin_findings(facts));
  if (kb != nullptr) append(windows_findings(facts, *kb));
  append(python_findings(facts));
  append(requirement_findings(facts, kb));
  append(env_findings(facts));
  append(network_findings(facts));
  drop_explained_generics(out);
  merge_identical(out);
  unmark_involved_items(out);
  return out;
}

}  // namespace gpudoctor
