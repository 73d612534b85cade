#include "render/fleet_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "core/text.hpp"
#include "model/build_info.hpp"
#include "model/json_codec.hpp"
#include "render/finding_words.hpp"
#include "render/json_text.hpp"

namespace gpudoctor {
namespace {

/// "n1, n2, n3" or, past a handful, "n1, n2, n3 and 997 more".
std::string node_list(const std::vector<std::string>& nodes, size_t shown = 6) {
  if (nodes.size() <= shown) return join(nodes, ", ");
  std::vector<std::string> head(nodes.begin(), nodes.begin() + static_cast<long>(shown));
  return fmt::format("{} and {} more", join(head, ", "), nodes.size() - shown);
}

/// Display width of UTF-8 text: code points, which is right for the text this table holds.
size_t width(const std::string& s) {
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string pad(const std::string& s, size_t w) {
  return s + std::string(w > width(s) ? w - width(s) : 0, ' ');
}

size_t reporting(const FleetReport& r) {
  return static_cast<size_t>(
      std::count_if(r.nodes.begin(), r.nodes.end(), [](const auto& n) { return n.status == NodeStatus::ok; }));
}

}  // namespace

std::string render_fleet_text(const FleetReport& r) {
  const bool serve = r.source == FleetSource::serve;
  std::string out =
      fmt::format("gpudoctor fleet {} — {} node(s) from {} {}, {} reported, {} group(s)\n\n", build_info().version,
                  r.nodes.size(), r.ranks, serve ? "serve endpoint(s)" : "rank(s)", reporting(r), r.groups.size());
  // An ended job's report says so before anything else (its first line is the header's).
  if (!r.incomplete.empty())
    out.insert(out.find('\n') + 1, fmt::format("Incomplete: {}\n", terminal_safe(r.incomplete)));
  for (const auto& n : r.nodes) {
    if (n.status == NodeStatus::ok) continue;
    if (serve) {
      out += fmt::format("✗ {}: no report: {}\n", terminal_safe(n.name), terminal_safe(n.error));
    } else {
      out += fmt::format("✗ {} (rank {}): no report: {}\n", terminal_safe(n.name), n.rank, terminal_safe(n.error));
    }
  }
  for (const auto& g : r.groups) {
    out += fmt::format("Group {} ({} node(s){}): {}\n", g.id, g.nodes.size(), g.outlier ? ", outlier" : "",
                       terminal_safe(node_list(g.nodes)));
  }
  if (!r.differences.empty()) {
    // The table: one row per differing item, one column per group.
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> head{"item"};
    for (const auto& g : r.groups) head.push_back("group " + g.id);
    rows.push_back(head);
    for (const auto& d : r.differences) {
      // Cells cut at 48 characters (printable() ends them with "…"); --json has them whole.
      std::vector<std::string> row{printable(d.key, 48)};
      for (const auto& v : d.values) row.push_back(printable(v, 48));
      rows.push_back(row);
    }
    std::vector<size_t> widths(head.size(), 0);
    for (const auto& row : rows) {
      for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], width(row[c]));
    }
    out += "\nWhat differs between the groups:\n";
    for (size_t i = 0; i < rows.size(); ++i) {
      std::string line = " ";
      for (size_t c = 0; c < rows[i].size(); ++c) line += " " + pad(rows[i][c], widths[c]) + " |";
      line.pop_back();
      out += line + "\n";
      if (i == 0) {
        std::string rule = " ";
        for (size_t w : widths) rule += " " + std::string(w, '-') + " +";
        rule.pop_back();
        out += rule + "\n";
      }
    }
  } else if (r.groups.size() == 1) {
    out += "\nEvery reporting node has the same fingerprint.\n";
  }
  for (auto [what, run] :
       {std::pair{"verify --quick", &FleetNode::verify}, std::pair{"bench --quick", &FleetNode::bench}}) {
    std::map<std::string, size_t> statuses;
    for (const auto& n : r.nodes) {
      if ((n.*run).ran) ++statuses[to_string((n.*run).status)];
    }
    if (statuses.empty()) continue;
    std::vector<std::string> parts;
    for (const auto& [status, count] : statuses) parts.push_back(fmt::format("{} {}", count, status));
    out += fmt::format("\n{} on each node: {}\n", what, terminal_safe(join(parts, ", ")));
  }
  if (!r.bench.empty()) {
    out += "\nBenchmark figures across the nodes (median, median absolute deviation, range):\n";
    for (const auto& b : r.bench) {
      out += fmt::format("  {:<32} {:>4} node(s)  median {:<9.4g} MAD {:<9.3g} {:.4g} – {:.4g}\n", terminal_safe(b.key),
                         b.nodes, b.median, b.mad, b.min, b.max);
    }
  }
  if (r.nccl.ran) {
    const FleetNccl& n = r.nccl;
    out += fmt::format("\nNCCL all-reduce across the fleet ({} GPU(s), {} MiB): {}", n.gpus, n.bytes >> 20,
                       terminal_safe(to_string(n.status)));
    if (n.status == FleetRunStatus::passed || !n.slowest_node.empty()) {
      out += fmt::format("; bus bandwidth {:.3g} GB/s (nccl-tests' busbw, the slowest node: {})", n.busbw_gbps,
                         terminal_safe(n.slowest_node));
    }
    if (!n.slowest_transport.empty()) {
      out += fmt::format("; the slowest link NCCL chose: {} on {}", terminal_safe(n.slowest_transport),
                         terminal_safe(node_list(n.slowest_transport_nodes)));
    }
    if (!n.detail.empty()) out += "; " + terminal_safe(n.detail);
    out += "\n";
    if (!n.network_detail.empty()) out += "  Network: " + terminal_safe(n.network_detail) + "\n";
  }
  if (!r.outliers.empty()) {
    out += "\nOutliers:\n";
    for (const auto& o : r.outliers) out += fmt::format("  ! {}: {}\n", terminal_safe(o.node), terminal_safe(o.reason));
  }
  if (!r.findings.empty()) {
    out += "\nFindings (identical ones collapsed):\n";
    size_t all = reporting(r);
    for (const auto& f : r.findings) {
      std::string where = f.nodes.size() == all && all > 1
                              ? fmt::format("all {} nodes", all)
                              : fmt::format("{} node(s): {}", f.nodes.size(), node_list(f.nodes));
      out += fmt::format("  {} {} [{}]\n", severity_mark(f.severity), terminal_safe(f.title), terminal_safe(where));
      auto fix = lines(f.fix);
      if (!fix.empty()) out += fmt::format("      Fix: {}\n", terminal_safe(fix.front()));
    }
  }
  return out;
}

std::string render_fleet_json(const FleetReport& r) {
  nlohmann::ordered_json doc;
  doc["schema_version"] = kFleetSchemaVersion;
  doc["tool"] = {{"name", "gpudoctor-fleet"}, {"version", build_info().version}};
  nlohmann::ordered_json body = fleet_report_to_json(r);
  for (auto& [key, value] : body.items()) doc[key] = std::move(value);
  return json_text(doc);
}

}  // namespace gpudoctor
