#include "check/fleet_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

#include "check/fleet_network.hpp"
#include "core/text.hpp"
#include "core/timestamp.hpp"
#include "model/nccl_links.hpp"

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

/// The fingerprint's items before the environment variables (GPUs ... network).
constexpr long kFixedItems = 9;

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// Each GPU's memory health where NVML knew it: uncorrected ECC errors, retired pages.
void memory_health_outliers(const FleetNode& n, std::vector<FleetOutlier>& out) {
  for (size_t i = 0; i < n.facts.gpus.size(); ++i) {
    const GpuFacts& g = n.facts.gpus[i];
    std::vector<std::string> what;
    if (g.ecc_uncorrected_volatile.value_or(0) > 0)
      what.push_back(fmt::format("{} uncorrected ECC error(s) since the driver loaded", *g.ecc_uncorrected_volatile));
    if (g.retired_pages.value_or(0) > 0) what.push_back(fmt::format("{} memory page(s) retired", *g.retired_pages));
    if (!what.empty()) {
      out.push_back({n.name, fmt::format("GPU {} ({}{}): {}", i, printable(g.name, 60),
                                         g.uuid.empty() ? "" : ", " + printable(g.uuid, 60), join(what, ", "))});
    }
  }
}

/// A bench run more than this much before (or after) most nodes' runs describes another machine
/// (a driver, a clock or a cooling fix ago; or its clock is wrong): `fleet --from` reads each
/// host's last run.
constexpr std::int64_t kBenchMaxAgeSeconds = 7 * 24 * 3600;

/// What a node's bench run is held against: the mode most nodes ran, and the middle (median) of
/// those runs' times, so that one node with a clock in the future, or a fresh run of another
/// mode, does not make every other run look old.
struct BenchBaseline {
  std::string mode;  ///< "" when no run said
  size_t mode_nodes = 0;
  std::optional<std::int64_t> middle;
  std::string middle_text;
};

BenchBaseline bench_baseline(const FleetReport& report) {
  BenchBaseline base;
  std::map<std::string, size_t> modes;
  for (const auto& n : report.nodes) {
    if (!n.bench.figures.empty() && !n.bench.mode.empty()) ++modes[n.bench.mode];
  }
  for (const auto& [mode, count] : modes) {  // the most common; on a tie, the first by name
    if (count > base.mode_nodes) base = {.mode = mode, .mode_nodes = count};
  }
  std::vector<std::pair<std::int64_t, std::string>> times;
  for (const auto& n : report.nodes) {
    if (n.bench.figures.empty() || (!n.bench.mode.empty() && n.bench.mode != base.mode)) continue;
    if (auto t = parse_utc_timestamp(n.bench.started_utc)) times.emplace_back(*t, n.bench.started_utc);
  }
  if (!times.empty()) {
    auto mid = times.begin() + static_cast<long>((times.size() - 1) / 2);
    std::nth_element(times.begin(), mid, times.end());
    base.middle = mid->first;
    base.middle_text = mid->second;
  }
  return base;
}

/// Whether a node's bench figures join the fleet's: not when its run was of another mode than
/// most nodes' (a full run measures longer, at other clocks) or is more than a week from the
/// middle of their runs. A node left out is named, with why. Runs that do not say (an older
/// gpudoctor's) are compared.
bool comparable_bench(FleetReport& report, const FleetNode& node, const BenchBaseline& base) {
  if (!node.bench.mode.empty() && !base.mode.empty() && node.bench.mode != base.mode) {
    report.outliers.push_back({node.name, fmt::format("bench figures from a {} run, not compared with the {} runs "
                                                      "of {} node(s)",
                                                      node.bench.mode, base.mode, base.mode_nodes)});
    return false;
  }
  auto t = parse_utc_timestamp(node.bench.started_utc);
  if (t && base.middle && std::llabs(*t - *base.middle) > kBenchMaxAgeSeconds) {
    report.outliers.push_back({node.name, fmt::format("bench from {}, {} days {} most nodes' runs (their median: "
                                                      "{}): not compared",
                                                      node.bench.started_utc, std::llabs(*t - *base.middle) / 86400,
                                                      *t < *base.middle ? "before" : "after", base.middle_text)});
    return false;
  }
  return true;
}

/// The figures of every node's bench, and the nodes far from the fleet's median: a robust
/// z-score 0.6745·(x − median)/MAD beyond 3.5 (Iglewicz and Hoaglin's cut), and at least 10 %
/// away, so that a fleet of near-identical figures (MAD ≈ 0) does not name noise.
void bench_outliers(FleetReport& report) {
  std::map<std::string, std::vector<std::pair<std::string, double>>> by_key;
  std::vector<std::string> order;
  const BenchBaseline base = bench_baseline(report);
  for (const auto& n : report.nodes) {
    if (n.bench.figures.empty() || !comparable_bench(report, n, base)) continue;
    for (const auto& [key, value] : n.bench.figures) {
      auto [it, fresh] = by_key.try_emplace(key);
      if (fresh) order.push_back(key);
      it->second.emplace_back(n.name, value);
    }
  }
  for (const auto& key : order) {
    const auto& values = by_key[key];
    if (values.size() < 2) continue;
    std::vector<double> x;
    for (const auto& [node, v] : values) x.push_back(v);
    double median = median_of(x);
    std::vector<double> dev;
    for (double v : x) dev.push_back(std::fabs(v - median));
    double mad = median_of(dev);
    auto [lo, hi] = std::minmax_element(x.begin(), x.end());
    report.bench.push_back({.key = key, .nodes = x.size(), .median = median, .mad = mad, .min = *lo, .max = *hi});
    if (values.size() < 3 || median <= 0) continue;  // two nodes: no majority to be far from
    for (const auto& [node, v] : values) {
      double off = (v - median) / median;
      double z = mad > 0 ? 0.6745 * (v - median) / mad : (v == median ? 0.0 : std::copysign(INFINITY, v - median));
      if (std::fabs(z) > 3.5 && std::fabs(off) >= 0.10) {
        report.outliers.push_back(
            {node, fmt::format("bench {} {:.4g} is {:.0f} % {} the fleet's median {:.4g} (MAD {:.3g}, {} node(s))", key,
                               v, std::fabs(off) * 100, off < 0 ? "below" : "above", median, mad, x.size())});
      }
    }
  }
}

/// The fleet's all-reduce from every node's part: its bus bandwidth is the slowest node's (the
/// collective waits for its slowest link), the slowest kind of link NCCL chose anywhere, and
/// the nodes whose NCCL failed or chose a slower kind of link than most nodes did.
void summarize_nccl(FleetReport& report) {
  FleetNccl& f = report.nccl;
  if (!f.ran) return;
  std::vector<std::string> failed;
  std::map<std::string, size_t> kinds;
  bool first = true;
  for (const auto& n : report.nodes) {
    if (!n.nccl.ran) continue;
    if (n.nccl.status != FleetRunStatus::passed) {
      failed.push_back(n.name);
      report.outliers.push_back(
          {n.name, "NCCL all-reduce " + std::string(to_string(n.nccl.status)) + ": " + n.nccl.detail});
      continue;
    }
    if (first || n.nccl.busbw_gbps < f.busbw_gbps) {
      f.busbw_gbps = n.nccl.busbw_gbps;
      f.slowest_node = n.name;
      first = false;
    }
    if (!n.nccl.transport.empty()) ++kinds[n.nccl.transport];
  }
  for (const auto& [kind, count] : kinds) {
    if (f.slowest_transport.empty() || nccl_link_order(kind) < nccl_link_order(f.slowest_transport))
      f.slowest_transport = kind;
  }
  for (const auto& n : report.nodes) {
    if (n.nccl.ran && n.nccl.status == FleetRunStatus::passed && n.nccl.transport == f.slowest_transport &&
        !f.slowest_transport.empty())
      f.slowest_transport_nodes.push_back(n.name);
  }
  if (!kinds.empty()) {
    auto usual =
        std::max_element(kinds.begin(), kinds.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    for (const auto& n : report.nodes) {
      if (n.nccl.ran && n.nccl.status == FleetRunStatus::passed && !n.nccl.transport.empty() &&
          nccl_link_order(n.nccl.transport) < nccl_link_order(usual->first)) {
        report.outliers.push_back(
            {n.name, fmt::format("NCCL chose {} here, where {} of {} node(s) use {}", n.nccl.transport, usual->second,
                                 report.nodes.size(), usual->first)});
      }
    }
  }
  if (!failed.empty()) {
    f.status = FleetRunStatus::failed;
    f.detail = fmt::format("the all-reduce failed on {} node(s): {}", failed.size(), join(failed, ", "));
  } else if (f.status == FleetRunStatus::none) {
    f.status = FleetRunStatus::passed;
  }
}

std::string group_id(size_t i) {
  std::string id;
  for (size_t n = i + 1; n > 0; n = (n - 1) / 26) id.insert(id.begin(), static_cast<char>('A' + (n - 1) % 26));
  return id;
}

/// A GPU's model as its node names it. NVML's (and the driver's /proc) name tells the boards
/// apart: "NVIDIA H100 80GB HBM3" (SXM5), "NVIDIA H100 PCIe", "NVIDIA H100 NVL", which the knowledge
/// base's kb_name calls "NVIDIA H100" alike (review 43B, 02; they differ in FP32 67 vs 51 TFLOP/s and
/// memory 3,350 vs 2,000 GB/s: NVIDIA H100 whitepaper, Table 3). A PCI database name can be the chip
/// alone ("GH100" is 2302 and 2321), so there the device id goes with it.
std::string gpu_model(const GpuFacts& g) {
  const std::string& name = g.name.empty() ? g.kb_name : g.name;
  if (name.empty()) return "unnamed GPU" + (g.pci_device_id.empty() ? "" : " (PCI device " + g.pci_device_id + ")");
  return g.source == "pci" && !g.pci_device_id.empty() ? name + " (PCI device " + g.pci_device_id + ")" : name;
}

/// A GPU NVML did not describe: listed from the driver's files only (/proc/driver/nvidia/gpus, the
/// PCI bus, Windows' registry), as the doctor does for every GPU it sees, described or not.
bool listed_from_files(const GpuFacts& g) {
  return g.source == "proc" || g.source == "pci" || g.source == "registry";
}

/// The GPUs the node's NVML described.
size_t described_gpus(const Facts& facts) {
  return static_cast<size_t>(
      std::count_if(facts.gpus.begin(), facts.gpus.end(), [](const GpuFacts& g) { return !listed_from_files(g); }));
}

/// Why NVML did not describe every GPU it counted: "hung on device 1" (or "crashed", "failed");
/// empty where it described them all or the node's doctor did not say how many it counted.
std::string unanswered_gpus(const Facts& facts) {
  const DriverFacts& d = facts.driver;
  if (!d.nvml_device_count || *d.nvml_device_count <= described_gpus(facts)) return "";
  const char* how = d.nvml_status == LibraryStatus::timeout   ? "hung"
                    : d.nvml_status == LibraryStatus::crashed ? "crashed"
                                                              : "failed";
  return how + (d.nvml_stopped_on_device ? fmt::format(" on device {}", *d.nvml_stopped_on_device) : "");
}

}  // namespace

std::vector<std::pair<std::string, std::string>> fleet_fingerprint(const Facts& facts) {
  std::vector<std::pair<std::string, std::string>> print;
  std::map<std::string, int> models;
  const std::string unanswered = unanswered_gpus(facts);
  for (const auto& g : facts.gpus) {
    if (unanswered.empty() || !listed_from_files(g)) ++models[gpu_model(g)];
  }
  std::vector<std::string> gpus;
  for (const auto& [name, n] : models) gpus.push_back(fmt::format("{} × {}", n, name));
  if (!unanswered.empty()) {
    gpus.push_back(fmt::format("{} × not answering (NVML {})", *facts.driver.nvml_device_count - described_gpus(facts),
                               unanswered));
  }
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
  print.emplace_back("network", network_fingerprint(facts));
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
  report.bench.clear();
  for (auto& n : report.nodes) n.group.clear();
  // Group by fingerprint. Env items a node lacks read as "unset" so every group has every key.
  std::vector<std::vector<std::pair<std::string, std::string>>> prints;
  std::set<std::string> env_keys;
  size_t reporting = 0;
  for (const auto& n : report.nodes) {
    prints.push_back(n.status == NodeStatus::ok ? fleet_fingerprint(n.facts) : decltype(prints)::value_type{});
    if (n.status == NodeStatus::ok) ++reporting;
    for (const auto& [k, v] : prints.back()) {
      if (k.starts_with("env ")) env_keys.insert(k);
    }
  }
  std::map<std::vector<std::pair<std::string, std::string>>, std::vector<size_t>> by_print;
  std::vector<std::vector<std::pair<std::string, std::string>>> order;  // first-seen order
  for (size_t i = 0; i < report.nodes.size(); ++i) {
    if (report.nodes[i].status != NodeStatus::ok) continue;
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
    for (size_t i : by_print[order[g]]) {
      group.nodes.push_back(report.nodes[i].name);
      report.nodes[i].group = group.id;
    }
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
    if (n.status == NodeStatus::ok) ++gpu_counts[n.facts.gpus.size()];
  }
  if (!gpu_counts.empty()) {
    size_t usual = std::max_element(gpu_counts.begin(), gpu_counts.end(), [](const auto& a, const auto& b) {
                     return a.second < b.second;
                   })->first;
    for (const auto& n : report.nodes) {
      if (n.status != NodeStatus::ok) continue;
      // A GPU NVML counted but stopped on is there and did not answer: the next step is the
      // node's doctor (dmesg for an Xid, nvidia-smi -r), not reseating a card (review 43B, 06).
      // On Linux the doctor lists it from the driver's files all the same (the re-read, session 43).
      const std::string unanswered = unanswered_gpus(n.facts);
      const size_t counted = n.facts.driver.nvml_device_count.value_or(0);
      if (!unanswered.empty() && counted >= usual) {
        report.outliers.push_back({n.name, fmt::format("{} GPU(s) described where most nodes have {}: NVML counted {} "
                                                       "and {}, so a GPU did not answer (not missing; see the "
                                                       "node's NVML finding)",
                                                       described_gpus(n.facts), usual, counted, unanswered)});
      } else if (n.facts.gpus.size() < usual) {
        report.outliers.push_back(
            {n.name, fmt::format("{} GPU(s) where most nodes have {}: a GPU is missing{}", n.facts.gpus.size(), usual,
                                 unanswered.empty() ? "" : " (and NVML " + unanswered + ")")});
      }
    }
  }
  for (const auto& n : report.nodes) {
    if (n.status == NodeStatus::ok) memory_health_outliers(n, report.outliers);
  }
  for (const auto& n : report.nodes) {
    if (n.status != NodeStatus::ok) report.outliers.push_back({n.name, "no report: " + n.error});
  }
  for (const auto& n : report.nodes) {
    if (n.verify.ran && n.verify.status != FleetRunStatus::passed)
      report.outliers.push_back({n.name, "verify " + std::string(to_string(n.verify.status)) + ": " + n.verify.detail});
    if (n.bench.ran && n.bench.status != FleetRunStatus::passed)
      report.outliers.push_back({n.name, "bench " + std::string(to_string(n.bench.status)) + ": " + n.bench.detail});
  }
  bench_outliers(report);
  summarize_nccl(report);
  compare_fleet_network(report);
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
