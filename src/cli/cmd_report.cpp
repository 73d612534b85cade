#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "check/checks.hpp"
#include "cli/commands_list.hpp"
#include "cli/output.hpp"
#include "core/text.hpp"
#include "kb/knowledge_base.hpp"
#include "kb/resolver.hpp"
#include "model/json_codec.hpp"
#include "monitor/watch_summary.hpp"
#include "platform/host_fs.hpp"
#include "render/html_report.hpp"

namespace gpudoctor {
namespace {

/// A report given as input is at most this big: a 1,000-node fleet report is a few MiB.
constexpr size_t kMaxInputBytes = 64u << 20;

struct ReportArgs {
  std::string html;
  std::string from_json;
  std::string bench;
  std::string verify;
  std::string fleet;
  std::string watch;
};

/// Reads a JSON document the user named; nullopt after saying why on stderr.
std::optional<nlohmann::ordered_json> read_json(const std::string& option, const std::string& path) {
  bool cut = false;
  auto content = host_fs::read_user_file(path, kMaxInputBytes, &cut);
  if (!content) {
    usage_error("report", option + " " + path + ": " + content.error().message);
    return std::nullopt;
  }
  if (cut) {
    usage_error("report", option + " " + path + ": larger than 64 MiB");
    return std::nullopt;
  }
  nlohmann::ordered_json doc;
  try {
    doc = nlohmann::ordered_json::parse(*content);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann's own message names the byte and what it found there.
    std::string what = e.what();
    if (const size_t tag = what.find("] "); what.starts_with("[json.exception") && tag != std::string::npos)
      what.erase(0, tag + 2);
    usage_error("report", option + " " + path + ": not valid JSON (at byte " + std::to_string(e.byte) + ": " +
                              printable(what, 200) + ")");
    return std::nullopt;
  }
  if (!doc.is_object()) {
    usage_error("report", option + " " + path + ": not a JSON object");
    return std::nullopt;
  }
  return doc;
}

/// A report read with a field of the wrong type would be drawn without it: refused, naming it.
bool refuse_mistyped(const std::string& option, const std::string& path, const MistypedFields& mistyped) {
  if (mistyped.paths().empty()) return false;
  const size_t more = mistyped.paths().size() - 1;
  usage_error("report", option + " " + path + ": " + printable(mistyped.paths().front(), 200) +
                            " does not have the type a gpudoctor report gives it" +
                            (more > 0 ? " (and " + std::to_string(more) + " more)" : ""));
  return true;
}

/// Every bench figure is a rate: a negative one, or one no machine reaches (1e308 drew a
/// 309-digit number and "inf %"), is no bench report's.
bool is_bench_rate(double value) {
  return value >= 0 && value < 1e12;
}

}  // namespace

Command report_command() {
  auto args = std::make_shared<ReportArgs>();
  Command c;
  c.name = "report";
  c.summary = "One self-contained HTML page: verdicts and fixes, inventory, charts, install plan";
  c.setup = [args](CLI::App& app) {
    app.add_option("--html", args->html, "Write the HTML report to this file ('-': stdout)")->required();
    app.add_option("--from-json", args->from_json,
                   "Render this `gpudoctor doctor --json` report instead of diagnosing this machine");
    app.add_option("--bench", args->bench, "Add the charts of this `gpudoctor bench --json` report");
    app.add_option("--verify", args->verify, "Add the steps of this `gpudoctor verify --json` report");
    app.add_option("--fleet", args->fleet, "Add this `gpudoctor-fleet --json` report");
    app.add_option("--watch", args->watch,
                   "Add charts over time from this `watch --jsonl` log (utilisation, memory, temperature, power)");
  };
  c.run = [args](CommandContext& ctx) -> int {
    Facts read_facts;
    std::vector<Finding> findings;
    const Facts* facts = nullptr;
    if (!args->from_json.empty()) {
      auto doc = read_json("--from-json", args->from_json);
      if (!doc) return kExitUsage;
      if (!doctor_report_from_json(*doc, read_facts, findings)) {
        bool fleet_doc = doc->contains("nodes") && doc->contains("groups");
        return usage_error("report", "--from-json " + args->from_json + ": not a gpudoctor doctor --json report" +
                                         (fleet_doc ? " (a fleet report: give it with --fleet)" : ""));
      }
      facts = &read_facts;
    } else {
      facts = ctx.facts();
      if (facts == nullptr) return kExitUsage;
      findings = run_checks(*facts, ctx.kb());
    }
    std::optional<nlohmann::ordered_json> fleet;
    std::optional<BenchReport> bench;
    std::optional<VerifyReport> verify;
    if (!args->fleet.empty() && !(fleet = read_json("--fleet", args->fleet))) return kExitUsage;
    if (!args->bench.empty()) {
      auto doc = read_json("--bench", args->bench);
      if (!doc) return kExitUsage;
      if (!doc->contains("measurements") || !(*doc)["measurements"].is_array())
        return usage_error("report", "--bench " + args->bench + ": not a `gpudoctor bench --json` report");
      bench.emplace();
      MistypedFields mistyped;
      bench_report_from_json(*doc, *bench);
      if (refuse_mistyped("--bench", args->bench, mistyped)) return kExitUsage;
      for (size_t i = 0; i < bench->measurements.size(); ++i) {
        const auto& value = bench->measurements[i].value;
        if (value && !is_bench_rate(*value))
          return usage_error("report", "--bench " + args->bench + ": measurements[" + std::to_string(i) +
                                           "].value is no rate a benchmark measures");
      }
    }
    if (!args->verify.empty()) {
      auto doc = read_json("--verify", args->verify);
      if (!doc) return kExitUsage;
      verify.emplace();
      MistypedFields mistyped;
      if (!verify_report_from_json(*doc, *verify))
        return usage_error("report", "--verify " + args->verify + ": not a `gpudoctor verify --json` report");
      if (refuse_mistyped("--verify", args->verify, mistyped)) return kExitUsage;
    }
    std::optional<WatchSummary> watch;
    if (!args->watch.empty()) {
      bool cut = false;
      auto log = host_fs::read_user_file(args->watch, kMaxInputBytes, &cut);
      if (!log) return usage_error("report", "--watch " + args->watch + ": " + log.error().message);
      watch = monitor::summarize_watch_log(*log, cut);
    }
    FleetReport fleet_report;
    if (fleet) {
      MistypedFields mistyped;
      if (!fleet_report_from_json(*fleet, fleet_report))
        return usage_error("report", "--fleet " + args->fleet + ": not a gpudoctor fleet --json report (no nodes)");
      if (refuse_mistyped("--fleet", args->fleet, mistyped)) return kExitUsage;
      for (size_t i = 0; i < fleet_report.nodes.size(); ++i) {
        for (const auto& [key, value] : fleet_report.nodes[i].bench.figures) {
          if (!is_bench_rate(value))
            return usage_error("report", "--fleet " + args->fleet + ": nodes[" + std::to_string(i) +
                                             "].bench.figures." + printable(key, 80) +
                                             " is no rate a benchmark measures");
        }
      }
    }
    const KnowledgeBase* kb = ctx.kb();
    if (kb == nullptr) return kExitUsage;
    Plan plan = resolve(request_from_facts(*facts), *kb);
    std::string html = render_doctor_html(HtmlReportInput{.facts = *facts,
                                                          .findings = findings,
                                                          .plan = &plan,
                                                          .bench = bench ? &*bench : nullptr,
                                                          .verify = verify ? &*verify : nullptr,
                                                          .fleet = fleet ? &fleet_report : nullptr,
                                                          .watch = watch ? &*watch : nullptr});
    if (args->html == "-") {
      write_output(html);
    } else {
      std::ofstream out(args->html, std::ios::binary | std::ios::trunc);
      out.write(html.data(), static_cast<std::streamsize>(html.size()));
      out.close();
      if (!out) return usage_error("report", "cannot write " + args->html + ": " + std::strerror(errno));
      print_error("gpudoctor report: wrote {}\n", args->html);
    }
    return worst(findings) == Severity::error ? kExitProblems : kExitOk;
  };
  return c;
}

}  // namespace gpudoctor
