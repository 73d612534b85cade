#pragma once
/// Renderers for `gpudoctor bench`: text and JSON (schema_version). Pure functions of the
/// BenchReport; they never measure and never print.
#include <string>

#include "model/bench_report.hpp"

namespace gpudoctor {

constexpr int kBenchSchemaVersion = 1;

std::string render_bench_text(const BenchReport& report, bool color);
std::string render_bench_json(const BenchReport& report);
/// One figure as it finishes: the progress line on a terminal, and the text report's rows.
std::string render_bench_line(const BenchMeasurement& m, bool color);
/// The GPU topology matrix, nvidia-smi topo -m's layout, with P2P read status and the legend.
std::string render_bench_topology(const BenchTopology& topology);
/// "GFLOP/s" for "gflops", "GB/s" for "gbps", ...
std::string bench_unit_text(const std::string& unit);

}  // namespace gpudoctor
