#include "render/bench_render.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "model/json_codec.hpp"
#include "render/json_text.hpp"

namespace gpudoctor {
namespace {

const char* mark(BenchStatus status, bool color) {
  if (status == BenchStatus::ok) return color ? "\x1b[32m✓\x1b[0m" : "✓";
  if (status == BenchStatus::skipped) return color ? "\x1b[33m-\x1b[0m" : "-";
  return color ? "\x1b[31m✗\x1b[0m" : "✗";
}

std::string figure_text(double v) {
  if (v >= 100) return fmt::format("{:.1f}", v);
  if (v >= 10) return fmt::format("{:.2f}", v);
  return fmt::format("{:.3g}", v);
}

}  // namespace

std::string render_bench_topology(const BenchTopology& t) {
  std::string out = "\nGPU topology (NVML; as nvidia-smi topo -m prints it)\n";
  const size_t n = t.links.size();
  if (n == 0) return out + "  " + t.note + "\n";
  auto table = [&](const std::vector<std::vector<std::string>>& cells) {
    std::string text = "        ";
    for (size_t j = 0; j < n; ++j) text += fmt::format("{:<7}", "GPU" + std::to_string(j));
    text += "\n";
    for (size_t i = 0; i < n && i < cells.size(); ++i) {
      text += fmt::format("  {:<6}", "GPU" + std::to_string(i));
      for (size_t j = 0; j < n && j < cells[i].size(); ++j) text += fmt::format("{:<7}", cells[i][j]);
      text += (i < t.bus_ids.size() ? " " + t.bus_ids[i] : "") + "\n";
    }
    return text;
  };
  out += table(t.links);
  out += "  P2P read (nvmlDeviceGetP2PStatus):\n" + table(t.p2p_read);
  out +=
      "  X self; NV# # bonded NVLinks; PIX one PCIe switch; PXB several; PHB a PCIe host bridge;\n"
      "  NODE across host bridges in one NUMA node; SYS across NUMA nodes (the SMP interconnect).\n"
      "  OK P2P works; CNS chipset, GNS GPU, TNS topology not supported; DIS disabled; NS not supported.\n";
  if (!t.note.empty()) out += "  " + t.note + "\n";
  return out;
}

std::string bench_unit_text(const std::string& unit) {
  if (unit == "gflops") return "GFLOP/s";
  if (unit == "tflops") return "TFLOP/s";
  if (unit == "gbps") return "GB/s";
  if (unit == "ratio") return "x";
  if (unit == "images_per_s") return "images/s";
  return unit;
}

std::string render_bench_line(const BenchMeasurement& m, bool color) {
  std::string line;
  if (m.ok()) {
    line = fmt::format("  {} {:<24} {:>10} {:<8} (min {}, max {}; spread {:.1f}%, {} iterations)\n",
                       mark(m.status, color), m.key, figure_text(*m.value), bench_unit_text(m.unit),
                       figure_text(m.min.value_or(0)), figure_text(m.max.value_or(0)), m.spread_pct, m.iterations);
  } else {
    line = fmt::format("  {} {:<24} {:<7} {}\n", mark(m.status, color), m.key, to_string(m.status), m.detail);
  }
  if (m.ok() || m.status == BenchStatus::failed) {
    if (m.ok() && !m.detail.empty()) line += "        " + m.detail + "\n";
    if (!m.library.empty()) line += "        library: " + m.library + "\n";
    if (!m.check.empty()) line += std::string("        check: ") + (m.check_passed ? "" : "FAILED: ") + m.check + "\n";
  }
  if (auto f = m.fraction_of_ceiling()) {
    line += fmt::format("        {:.0f}% of the ceiling {} {} ({})\n", *f * 100, figure_text(*m.ceiling),
                        bench_unit_text(m.unit), m.ceiling_source);
  }
  return line;
}

std::string render_bench_text(const BenchReport& r, bool color) {
  std::string out = fmt::format("gpudoctor bench ({}), {}, {}{} CPU thread(s)\n", r.mode, r.started_utc,
                                r.cpu_model.empty() ? "" : r.cpu_model + ", ", r.cpu_threads);
  std::string section;
  for (const auto& m : r.measurements) {
    std::string here = m.key.substr(0, m.key.find('.'));
    if (here != section) {
      section = here;
      std::string title = here == "cpu"             ? "CPU"
                          : here == "gpus"          ? "Across GPUs"
                          : here.starts_with("gpu") ? "GPU " + here.substr(3)
                                                    : "Training step through " + here;
      out += "\n" + title + "\n";
    }
    out += render_bench_line(m, color);
  }
  if (r.topology) out += render_bench_topology(*r.topology);
  for (const auto& n : r.notes) out += "\n  " + n + "\n";
  for (const auto& p : r.problems) out += "  ✗ " + p + "\n";
  const bool any_claim = std::any_of(r.claims.begin(), r.claims.end(), [](const BenchClaim& c) { return c.ratio; });
  std::string claims;
  for (const auto& c : r.claims) {
    if (!c.ratio) {
      // Said, not hidden: a one-GPU machine cannot measure scaling at all; and once some claim
      // was measured, each other one says what it lacks (--gpu-only: the CPU figures). With none
      // measured the line below says why in one sentence.
      if (any_claim || c.basis.starts_with("cannot measure")) claims += fmt::format("  {}: {}\n", c.what, c.basis);
      continue;
    }
    if (c.what.find("efficiency") != std::string::npos)
      claims += fmt::format("  {}: {:.0f}% ({}; {})\n", c.what, *c.ratio * 100.0, c.basis, c.guide);
    else
      claims += fmt::format("  {}: {:.1f}x ({}; {})\n", c.what, *c.ratio, c.basis, c.guide);
  }
  out += "\nThe guides' claims, as measured here:\n";
  out += any_claim ? claims : claims + "  none: they need GPU figures, and no GPU was measured in this run\n";
  int regressions = 0;
  if (!r.compared_with_utc.empty()) {
    int most_runs = 0;
    for (const auto& c : r.changes) most_runs = std::max(most_runs, c.runs);
    out += most_runs > 1
               ? fmt::format("\nChange against the median of the last {} runs of this mode (the latest at {}):\n",
                             most_runs, r.compared_with_utc)
               : "\nChange since the run of " + r.compared_with_utc +
                     " (one earlier run: the noise is each run's own spread; runs to come will "
                     "also measure how much runs differ):\n";
    for (const auto& c : r.changes) {
      const bool bad = is_regression(c);
      regressions += bad ? 1 : 0;
      const char* m = bad ? (color ? "\x1b[31m✗\x1b[0m" : "✗") : (c.verdict == "improvement" ? "+" : " ");
      if (c.verdict == "not measured") {
        out += fmt::format("  {} {:<30} {:>10} -> not measured now{}\n", m, c.key, figure_text(c.previous),
                           c.detail.empty() ? "" : " (" + c.detail + ")");
        continue;
      }
      out += fmt::format("  {} {:<30} {:>10} -> {:<10} {:+.1f}% (noise {:.1f}%) {}\n", m, c.key,
                         figure_text(c.previous), figure_text(c.current), c.change_pct, c.noise_pct, c.verdict);
    }
    if (r.changes.empty()) out += "  no figure in common with that run\n";
  }
  out += "\n";
  bool figure_failed = false;
  for (const auto& m : r.measurements) {
    figure_failed |= m.status == BenchStatus::failed || m.status == BenchStatus::crashed ||
                     m.status == BenchStatus::timeout || (m.status == BenchStatus::ok && !m.check_passed);
  }
  if (figure_failed)
    out += fmt::format("{} a benchmark failed or gave a wrong answer (above)\n", mark(BenchStatus::failed, color));
  else if (!bench_passed(r))
    out += fmt::format("{} the run could not do all it was asked (above)\n", mark(BenchStatus::failed, color));
  else
    out +=
        fmt::format("{} every figure that could be measured was measured and checked\n", mark(BenchStatus::ok, color));
  if (regressions > 0)
    out += fmt::format("{} {} figure(s) worse than before or no longer measured (above)\n",
                       mark(BenchStatus::failed, color), regressions);
  return out;
}

std::string render_bench_json(const BenchReport& r) {
  nlohmann::ordered_json doc;
  doc["schema_version"] = kBenchSchemaVersion;
  // A named body: items() of a temporary would outlive it.
  const nlohmann::ordered_json body = bench_report_to_json(r);
  for (const auto& [key, value] : body.items()) doc[key] = value;
  return json_text(doc);
}

}  // namespace gpudoctor
