#include <fmt/core.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "cli/build_info.hpp"
#include "cli/command.hpp"
#include "kb/knowledge_base.hpp"
#include "platform/host_fs.hpp"

namespace gpudoctor {
namespace {

std::string version_text() {
  const BuildInfo& b = build_info();
  return fmt::format("gpudoctor {}\ncommit:   {}\ncompiler: {}\ntarget:   {}\nbuild:    {}", b.version, b.git_commit,
                     b.compiler, b.target, b.options);
}

void setup_logging(bool verbose) {
  // One logger, on stderr, so stdout stays clean for --json.
  auto logger = spdlog::stderr_color_mt("gpudoctor");
  logger->set_pattern("gpudoctor: %l: %v");
  logger->set_level(verbose ? spdlog::level::debug : spdlog::level::warn);
  spdlog::set_default_logger(logger);
}

// --help lists the commands before the options: what the tool does is what a newcomer reads first.
class CommandsFirstFormatter : public CLI::Formatter {
 public:
  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override {
    if (mode == CLI::AppFormatMode::Sub) return make_expanded(app);
    return make_description(app) + make_usage(app, std::move(name)) + make_subcommands(app, mode) +
           make_positionals(app) + make_groups(app, mode) + "\n" + make_footer(app);
  }
};

}  // namespace

const SystemView* CommandContext::system() {
  if (system_) return &*system_;
  if (system_failed_) return nullptr;
  runner_ = std::make_unique<HostProcessRunner>();
  if (options_.root.empty()) {
    system_.emplace(SystemView::host(runner_.get()));
    if (!options_.platform.empty()) {
      auto p = parse_platform(options_.platform);
      if (!p) {
        fmt::print(stderr, "gpudoctor: --platform must be linux, windows or wsl2, not '{}'\n", options_.platform);
        system_.reset();
        system_failed_ = true;
        return nullptr;
      }
      SystemView::Options o{"/", *p, system_->environment(), true, runner_.get()};
      system_.emplace(std::move(o));
    }
    if (!options_.env_file.empty()) {
      fmt::print(stderr, "gpudoctor: --env-file applies to --root only; ignored\n");
    }
    return &*system_;
  }
  SystemView::Options o;
  o.root = options_.root;
  o.live = false;                                        // a tree: nothing under it is ever run or loaded
  auto kind = host_fs::kind_of_followed(options_.root);  // a symlink to a directory is fine
  if (!kind || *kind != host_fs::Kind::directory) {
    fmt::print(stderr, "gpudoctor: --root {}: not a directory\n", options_.root);
    system_failed_ = true;
    return nullptr;
  }
  o.platform = Platform::linux;
  if (!options_.platform.empty()) {
    auto p = parse_platform(options_.platform);
    if (!p) {
      fmt::print(stderr, "gpudoctor: --platform must be linux, windows or wsl2, not '{}'\n", options_.platform);
      system_failed_ = true;
      return nullptr;
    }
    o.platform = *p;
  } else {
    o.platform = detect_platform(SystemView(o));
  }
  if (!options_.env_file.empty()) {
    auto text = host_fs::read(options_.env_file, 1 << 20);
    if (!text) {
      fmt::print(stderr, "gpudoctor: --env-file {}: {}\n", options_.env_file, text.error().message);
      system_failed_ = true;
      return nullptr;
    }
    EnvFile parsed = parse_env_file(*text);
    for (const auto& p : parsed.problems) {
      fmt::print(stderr, "gpudoctor: --env-file {}: {}\n", options_.env_file, p);
    }
    o.env = std::move(parsed.env);
  }
  system_.emplace(std::move(o));
  return &*system_;
}

const KnowledgeBase* CommandContext::kb() {
  if (kb_) return kb_.get();
  if (kb_failed_) return nullptr;
  auto loaded = KnowledgeBase::load(options_.kb_dir);
  if (!loaded) {
    fmt::print(stderr, "gpudoctor: knowledge base{}: {}\n",
               options_.kb_dir.empty() ? "" : " (--kb " + options_.kb_dir + ")", loaded.error().message);
    kb_failed_ = true;
    return nullptr;
  }
  kb_ = std::make_shared<const KnowledgeBase>(std::move(loaded).value());
  return kb_.get();
}

bool CommandContext::color() const {
  if (options_.no_color || options_.json) return false;
  if (const char* nc = std::getenv("NO_COLOR"); nc != nullptr && *nc != '\0') return false;
  return ::isatty(1) == 1;
}

int run_cli(int argc, char** argv) {
  try {
    CLI::App app{"gpudoctor: finds out why your GPU deep-learning stack does not work, and how to fix it"};
    app.set_version_flag("--version", version_text());
    app.require_subcommand(0, 1);
    app.fallthrough();
    app.formatter(std::make_shared<CommandsFirstFormatter>());

    GlobalOptions global;
    app.add_flag("--json", global.json, "Machine-readable output (one JSON document)");
    app.add_flag("-v,--verbose", global.verbose, "Log what the probes do, on stderr");
    app.add_flag("--no-color", global.no_color, "No colour even on a terminal");
    app.add_option("--root", global.root,
                   "Diagnose this directory tree (a mounted disk, an unpacked image) instead of /");
    app.add_option("--env-file", global.env_file, "KEY=VALUE lines: the environment for --root");
    app.add_option("--platform", global.platform, "Treat the target as linux, windows or wsl2");
    app.add_option("--gpu", global.gpus, "Declare a GPU model the target has (repeatable)");
    app.add_option("--kb", global.kb_dir, "Knowledge-base directory that overrides the built-in tables");

    std::vector<Command> commands = all_commands();
    std::vector<std::pair<CLI::App*, const Command*>> subs;
    for (const Command& c : commands) {
      CLI::App* sub = app.add_subcommand(c.name, c.summary);
      sub->group("Commands");
      if (c.setup) c.setup(*sub);
      subs.emplace_back(sub, &c);
    }
    // After the commands: a subcommand would inherit it.
    app.footer(
        "With no command gpudoctor runs `doctor`. `gpudoctor COMMAND --help` shows a command's options.\n"
        "Exit status: 0 no error found, 1 an error found, 2 bad usage, 3 internal error (a bug).");
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      int rc = app.exit(e);
      return rc == 0 ? kExitOk : kExitUsage;
    }
    setup_logging(global.verbose);
    CommandContext ctx(global);
    for (auto& [sub, cmd] : subs) {
      if (sub->parsed()) return cmd->run(ctx);
    }
    return commands.front().run(ctx);  // no subcommand: the doctor
  } catch (const std::exception& e) {
    fmt::print(stderr, "gpudoctor: internal error: {}\nPlease report this as a bug.\n", e.what());
    return kExitInternal;
  }
}

}  // namespace gpudoctor
