#include "check/fleet_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/text.hpp"

namespace gpudoctor {
namespace {

std::string version_or_none(const std::optional<Version>& v) {
  return v ? v->str() : "none";
}

/// The versions of one library family on a node ("8.9.2, 9.1.0"), each once, sorted.
std::string library_versions(const Facts& facts, const std::string& name) {
  std::set<std::string> versions;
  for (const auto& l : facts.libraries) {
    if (l.name == name) versions.insert(l.version ? l.version->str() : "unknown version");
  }
  return versions.empty() ? "none" : join(std::vector<std::string>(versions.begin(), versions.end()), ", ");
}

/// "torch 2.3.1 (CUDA 12.1, cu121)": what a framework build is, not where it lives.
std::string framework_build(const FrameworkFacts& f) {
  std::string build = f.cuda_build && !*f.cuda_build ? "CPU" : f.cuda_version ? "CUDA " + f.cuda_version->str() : "";
  if (!f.variant.empty()) build += (build.empty() ? "" : ", ") + f.variant;
  return f.name + " " + f.version.str() + (build.empty() ? "" : " (" + build + ")");
}

/// The fingerprint's items before the environment variables (GPUs ... OS).
constexpr long kFixedItems = 8;

std::string group_id(size_t i) {
  std::string id;
  for (size_t n = i + 1; n > 0; n = (n - 1) / 26) id.insert(id.begin(), static_cast<char>('A' + (n - 1) % 26));
  return id;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> fleet_fingerprint(const Facts& facts) {
  std::vector<std::pair<std::string, std::string>> print;
  std::map<std::string, int> models;
  for (const auto& g : facts.gpus) ++models[g.kb_name.empty() ? g.name : g.kb_name];
  std::vector<std::string> gpus;
  for (const auto& [name, n] : models) gpus.push_back(fmt::format("{} × {}", n, name));
  print.emplace_back("GPUs", gpus.empty() ? "none" : join(gpus, ", "));
  print.emplace_back("driver", version_or_none(facts.driver.version));
  print.emplace_back("CUDA the driver supports", version_or_none(facts.driver.cuda_driver_version));
  std::set<std::string> toolkits;
  for (const auto& t : facts.toolkits) toolkits.insert(version_or_none(t.version));
  print.emplace_back("CUDA toolkits", toolkits.empty()
                                          ? "none"
                                          : join(std::vector<std::string>(toolkits.begin(), toolkits.end()), ", "));
  print.emplace_back("cuDNN", library_versions(facts, "cudnn"));
  print.emplace_back("NCCL", library_versions(facts, "nccl"));
  std::set<std::string> frameworks;
  for (const auto& e : facts.python_envs) {
    for (const auto& f : e.frameworks) frameworks.insert(framework_build(f));
  }
  print.emplace_back("frameworks", frameworks.empty()
                                       ? "none"
                                       : join(std::vector<std::string>(frameworks.begin(), frameworks.end()), "; "));
  print.emplace_back("OS", facts.os.name.empty() ? to_string(facts.platform) : facts.os.name);
  // Facts::env holds only the GPU-relevant variables; one item each, so a difference names it.
  for (const auto& v : facts.env) print.emplace_back("env " + v.name, v.value);
  std::sort(print.begin() + kFixedItems, print.end());
  return print;
}

void compare_fleet(FleetReport& report) {
  report.groups.clear();
  report.differences.clear();
  report.findings.clear();
  report.outliers.clear();
  // Group by fingerprint. Env items a node lacks read as "unset" so every group has every key.
  std::vector<std::vector<std::pair<std::string, std::string>>> prints;
  std::set<std::string> env_keys;
  size_t reporting = 0;
  for (const auto& n : report.nodes) {
    prints.push_back(n.status == "ok" ? fleet_fingerprint(n.facts) : decltype(prints)::value_type{});
    if (n.status == "ok") ++reporting;
    for (const auto& [k, v] : prints.back()) {
      if (k.starts_with("env ")) env_keys.insert(k);
    }
  }
  std::map<std::vector<std::pair<std::string, std::string>>, std::vector<size_t>> by_print;
  std::vector<std::vector<std::pair<std::string, std::string>>> order;  // first-seen order
  for (size_t i = 0; i < report.nodes.size(); ++i) {
    if (report.nodes[i].status != "ok") continue;
    auto& p = prints[i];
    for (const auto& k : env_keys) {
      if (std::none_of(p.begin(), p.end(), [&](const auto& kv) { return kv.first == k; })) p.emplace_back(k, "unset");
    }
    std::sort(p.begin() + kFixedItems, p.end());
    auto [it, fresh] = by_print.try_emplace(p);
    if (fresh) order.push_back(p);
    it->second.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](const auto& a, const auto& b) { return by_print[a].size() > by_print[b].size(); });
  for (size_t g = 0; g < order.size(); ++g) {
    FleetGroup group{.id = group_id(g), .print = order[g]};
    for (size_t i : by_print[order[g]]) group.nodes.push_back(report.nodes[i].name);
    report.groups.push_back(std::move(group));
  }
  // Outliers: with a group holding most of the reporting nodes, every node outside it.
  if (report.groups.size() > 1 && report.groups[0].nodes.size() * 2 > reporting) {
    const FleetGroup& main = report.groups[0];
    for (size_t g = 1; g < report.groups.size(); ++g) {
      FleetGroup& other = report.groups[g];
      other.outlier = true;
      std::vector<std::string> what;
      for (size_t k = 0; k < other.print.size() && k < main.print.size(); ++k) {
        if (other.print[k].second != main.print[k].second) {
          what.push_back(fmt::format("{} {} (the other {} node(s): {})", other.print[k].first,
                                     printable(other.print[k].second, 60), main.nodes.size(),
                                     printable(main.print[k].second, 60)));
        }
      }
      for (const auto& n : other.nodes)
        report.outliers.push_back({n, "differs from the majority: " + join(what, "; ")});
    }
  }
  // A node that reports fewer GPUs than most nodes: a GPU missing (fallen off the bus, hidden).
  std::map<size_t, size_t> gpu_counts;
  for (const auto& n : report.nodes) {
    if (n.status == "ok") ++gpu_counts[n.facts.gpus.size()];
  }
  if (!gpu_counts.empty()) {
    size_t usual = std::max_element(gpu_counts.begin(), gpu_counts.end(), [](const auto& a, const auto& b) {
                     return a.second < b.second;
                   })->first;
    for (const auto& n : report.nodes) {
      if (n.status == "ok" && n.facts.gpus.size() < usual) {
        report.outliers.push_back(
            {n.name, fmt::format("{} GPU(s) where most nodes have {}: a GPU is missing", n.facts.gpus.size(), usual)});
      }
    }
  }
  for (const auto& n : report.nodes) {
    if (n.status != "ok") report.outliers.push_back({n.name, "no report: " + n.error});
  }
  // The items that differ between groups.
  if (report.groups.size() > 1) {
    const auto& keys = report.groups[0].print;
    for (size_t k = 0; k < keys.size(); ++k) {
      FleetDifference d{.key = keys[k].first};
      std::set<std::string> distinct;
      for (const auto& g : report.groups) {
        d.values.push_back(k < g.print.size() ? g.print[k].second : "—");
        distinct.insert(d.values.back());
      }
      if (distinct.size() > 1) report.differences.push_back(std::move(d));
    }
  }
  // Identical findings collapsed: warnings and errors, worst first, then the most widespread.
  std::map<std::tuple<std::string, Severity, std::string>, size_t> index;
  for (const auto& n : report.nodes) {
    for (const auto& f : n.findings) {
      if (f.severity < Severity::warning) continue;
      auto key = std::make_tuple(f.id, f.severity, f.title);
      auto [it, fresh] = index.try_emplace(key, report.findings.size());
      if (fresh) report.findings.push_back({.id = f.id, .severity = f.severity, .title = f.title, .fix = f.fix});
      report.findings[it->second].nodes.push_back(n.name);
    }
  }
  std::stable_sort(report.findings.begin(), report.findings.end(), [](const FleetFinding& a, const FleetFinding& b) {
    if (a.severity != b.severity) return a.severity > b.severity;
    return a.nodes.size() > b.nodes.size();
  });
}

}  // namespace gpudoctor
