#pragma once
/// Commands as a table: name, summary, option setup, run. Global options are registered once
/// (cli/app.cpp) and reach every command through CommandContext.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/system_view.hpp"
#include "probe/inventory.hpp"

namespace CLI {
class App;
}

namespace gpudoctor {

class KnowledgeBase;

/// Exit statuses, one table for the whole tool (documented in docs/cli.md).
enum ExitCode : int {
  kExitOk = 0,        ///< no error-level finding
  kExitProblems = 1,  ///< at least one error-level finding (or the command's own failure)
  kExitUsage = 2,     ///< bad command line or unreadable input given by the user
  kExitInternal = 3,  ///< a bug: an exception reached main
};

struct GlobalOptions {
  bool json = false;
  bool verbose = false;
  bool no_color = false;
  std::string root;                       ///< --root: diagnose this tree instead of "/"
  std::string env_file;                   ///< --env-file: KEY=VALUE environment for --root
  std::string platform;                   ///< --platform linux|windows|wsl2
  std::string registry;                   ///< --registry FILE: a `reg export` of the Windows machine (or WSL2's host)
  std::vector<std::string> gpus;          ///< --gpu MODEL (repeatable)
  std::string kb_dir;                     ///< --kb DIR: knowledge base files that override the built-in ones
  std::vector<std::string> env_dirs;      ///< --env DIR: a Python environment to inspect (repeatable)
  std::vector<std::string> interpreters;  ///< --python PATH: an interpreter whose environment to inspect
};

/// What a command's run() gets: the parsed global options and lazily built shared parts.
class CommandContext {
 public:
  explicit CommandContext(GlobalOptions options) : options_(std::move(options)) {}
  [[nodiscard]] const GlobalOptions& options() const { return options_; }
  GlobalOptions& mutable_options() { return options_; }

  /// The machine or tree to diagnose, from --root / --env-file / --platform. Problems with
  /// those options are reported on stderr and give nullptr (exit with kExitUsage).
  const SystemView* system();
  /// Whether stdout is a terminal that takes colour.
  [[nodiscard]] bool color() const;
  /// The knowledge base (built-in, overlaid by --kb), loaded on first use. A broken --kb
  /// directory is reported on stderr and gives nullptr (exit with kExitUsage).
  const KnowledgeBase* kb();
  /// What every command that takes an inventory asks for: declared GPUs, --env / --python and,
  /// on the live machine, the working directory as the project folder.
  [[nodiscard]] InventoryOptions inventory_options() const;
  /// This machine's facts, gathered once (cli/gather_facts.hpp) from system(), kb() and
  /// inventory_options(); nullptr when either of those failed (already said on stderr).
  const Facts* facts();

 private:
  /// Reads --registry into registry_; false (said on stderr) when the file cannot be read.
  bool load_registry_file();

  GlobalOptions options_;
  std::unique_ptr<HostProcessRunner> runner_;
  std::shared_ptr<const Registry> registry_;  ///< the live one, or --registry's file; shared_ptr: incomplete here
  std::optional<SystemView> system_;
  bool system_failed_ = false;
  std::shared_ptr<const KnowledgeBase> kb_;  ///< shared_ptr: KnowledgeBase is incomplete here
  bool kb_failed_ = false;
  std::shared_ptr<const Facts> facts_;  ///< shared_ptr: Facts is incomplete here
};

struct Command {
  std::string name;
  std::string summary;
  /// Adds the command's own options to its subcommand; the state they fill lives in the
  /// closure (see cmd_*.cpp).
  std::function<void(CLI::App&)> setup;
  std::function<int(CommandContext&)> run;
};

/// "gpudoctor COMMAND: MESSAGE" on stderr (sanitised); returns kExitUsage.
int usage_error(std::string_view command, const std::string& message);

/// The explicit list of commands, in the order `--help` shows them (cli/commands.cpp).
std::vector<Command> all_commands();

/// Parses argv and runs; returns the process exit status.
int run_cli(int argc, char** argv);
/// The same with another command table (the first is the default command): how the tests
/// reach paths no real command should, such as an exception escaping a command.
int run_cli(int argc, char** argv, const std::vector<Command>& commands);

}  // namespace gpudoctor
