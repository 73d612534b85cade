#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "check/fleet_compare.hpp"
#include "cli/commands_list.hpp"
#include "cli/fleet_hosts.hpp"
#include "cli/output.hpp"
#include "platform/child_process.hpp"
#include "platform/host_fs.hpp"
#include "render/fleet_report.hpp"

namespace gpudoctor {
namespace {

std::chrono::milliseconds millis(double seconds) {
  return std::chrono::milliseconds(static_cast<long>(seconds * 1000));
}

/// `fleet --from hosts.txt`: the same report, gathered from `serve` endpoints over HTTP in
/// this process (no MPI involved, so gpudoctor-fleet is not needed).
int run_from_hosts(bool json, std::vector<std::string> args) {
  std::string from;
  double host_deadline_s = 10;
  double deadline_s = 120;
  int parallel = 32;
  bool verify = false;
  bool bench = false;
  double verify_deadline_s = 90;
  CLI::App app{"gpudoctor fleet --from HOSTS"};
  app.add_option("--from", from, "A file of serve endpoints, HOST[:PORT] a line")->required();
  app.add_option("--host-deadline", host_deadline_s, "Seconds for one host (default 10)");
  app.add_option("--deadline", deadline_s, "Seconds for the whole fleet (default 120)");
  app.add_option("--parallel", parallel, "Hosts asked at once (default 32)");
  app.add_flag("--json", json, "One JSON document for the whole fleet");
  app.add_flag("--verify", verify, "Also each host's GET /verify.json (serve --allow-verify runs verify --quick)");
  app.add_flag("--bench", bench, "Also each host's GET /bench.json (the last bench --quick in its history)");
  app.add_option("--verify-deadline", verify_deadline_s, "Seconds for one host's /verify.json (default 90)");
  std::reverse(args.begin(), args.end());  // CLI11 takes them last first
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    return usage_error(
        "fleet", std::string(e.what()) +
                     " (with --from: --host-deadline, --deadline, --parallel, --verify, --bench, --verify-deadline)");
  }
  if (!(host_deadline_s > 0) || !(deadline_s > 0) || !(verify_deadline_s > 0) || parallel < 1 || parallel > 1024)
    return usage_error("fleet",
                       "--host-deadline, --deadline and --verify-deadline take positive seconds, --parallel 1 to 1024");
  bool cut = false;
  auto text = host_fs::read_user_file(from, kMaxFleetHostsFileBytes, &cut);
  if (!text) return usage_error("fleet", "cannot read " + from + ": " + text.error().message);
  if (cut) return usage_error("fleet", from + " is larger than 16 MiB");
  auto hosts = parse_fleet_hosts(*text);
  if (!hosts) return usage_error("fleet", from + ": " + hosts.error().message);
  if (hosts->empty()) return usage_error("fleet", from + " names no host");
  auto fetched = fetch_fleet_reports(*hosts, {.host_deadline = millis(host_deadline_s),
                                              .deadline = millis(deadline_s),
                                              .parallel = parallel,
                                              .verify = verify,
                                              .bench = bench,
                                              .verify_deadline = millis(verify_deadline_s)});
  if (!fetched) return usage_error("fleet", fetched.error().message);
  FleetReport report;
  report.source = FleetSource::serve;
  report.ranks = static_cast<int>(hosts->size());
  report.nodes = std::move(fetched->nodes);
  compare_fleet(report);
  write_output(json ? render_fleet_json(report) : render_fleet_text(report));
  bool errors = false;
  for (const auto& n : report.nodes)
    errors = errors || n.status != NodeStatus::ok || worst(n.findings) == Severity::error;
  int code = errors ? kExitProblems : kExitOk;
  if (fetched->abandoned) {
    // Threads still blocked on hosts past the deadline: end here, the report is out.
    std::fflush(nullptr);
    std::_Exit(code);
  }
  return code;
}

}  // namespace

/// `mpirun -np N gpudoctor fleet ...` becomes gpudoctor-fleet (installed beside gpudoctor where
/// MPI was found at build time) in the same process, so the MPI launcher's environment reaches
/// MPI_Init there and gpudoctor itself never links MPI (docs/fleet.md).
Command fleet_command() {
  auto app_ref = std::make_shared<CLI::App*>(nullptr);
  Command c;
  c.name = "fleet";
  c.summary = "Under mpirun/srun: the doctor on every node, one report of what differs (gpudoctor-fleet)";
  c.setup = [app_ref](CLI::App& app) {
    *app_ref = &app;
    app.prefix_command();
    app.allow_extras();
    app.fallthrough(false);  // every option after `fleet` is gpudoctor-fleet's
    app.footer(
        "Options go to gpudoctor-fleet; `gpudoctor-fleet --help` lists them. Without MPI: "
        "`gpudoctor fleet --from HOSTS [--host-deadline S] [--deadline S] [--parallel N] [--verify] [--bench] "
        "[--verify-deadline S]` asks each `gpudoctor serve` (HOST[:PORT] a line) for its /report.json (and "
        "/verify.json, /bench.json) (docs/fleet.md).");
    app.set_help_flag();
  };
  c.run = [app_ref](CommandContext& ctx) -> int {
    const auto& rest = (*app_ref)->remaining();
    if (std::any_of(rest.begin(), rest.end(),
                    [](const std::string& a) { return a == "--from" || a.starts_with("--from="); }))
      return run_from_hosts(ctx.options().json, rest);
    auto self = current_executable();
    std::error_code ec;
    std::filesystem::path dir = self ? std::filesystem::canonical(*self, ec).parent_path() : std::filesystem::path();
    std::filesystem::path fleet = dir / "gpudoctor-fleet";
    if (!self || ec || !std::filesystem::exists(fleet)) {
      return usage_error("fleet", "gpudoctor-fleet is not installed beside gpudoctor (" + fleet.string() +
                                      "): build gpudoctor where MPI is found (libopenmpi-dev) to get it");
    }
    std::vector<std::string> argv{fleet.string()};
    if (ctx.options().json) argv.push_back("--json");
    for (const auto& a : (*app_ref)->remaining()) argv.push_back(a);
    auto failed = replace_process(argv);
    return usage_error("fleet", "cannot start " + fleet.string() + ": " + failed.error().message);
  };
  return c;
}

}  // namespace gpudoctor
