#include <CLI/CLI.hpp>
#include <filesystem>
#include <memory>

#include "cli/commands_list.hpp"
#include "platform/child_process.hpp"

namespace gpudoctor {

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
    app.footer("Options go to gpudoctor-fleet; `gpudoctor-fleet --help` lists them.");
    app.set_help_flag();
  };
  c.run = [app_ref](CommandContext& ctx) -> int {
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
