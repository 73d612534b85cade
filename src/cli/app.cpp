#include <fmt/core.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <mutex>
#include <sstream>

#include "cli/command.hpp"
#include "cli/gather_facts.hpp"
#include "cli/output.hpp"
#include "core/text.hpp"
#include "kb/data_files.hpp"
#include "kb/knowledge_base.hpp"
#include "model/build_info.hpp"
#include "platform/console.hpp"
#include "platform/host_fs.hpp"
#include "platform/logon_environment.hpp"
#include "platform/registry.hpp"

namespace gpudoctor {
namespace {

/// Whether a Windows environment names PATH (any case: "Path" as Windows writes it).
bool has_path(const EnvMap& env) {
  return std::any_of(env.begin(), env.end(), [](const auto& kv) { return iequals(kv.first, "PATH"); });
}

/// An --env-file larger than this is read up to it, and the cut is reported as a finding.
constexpr size_t kMaxEnvFileBytes = 1 << 20;

std::string version_text() {
  const BuildInfo& b = build_info();
  std::string kb_date = builtin_kb_harvest_date();
  return fmt::format(
      "gpudoctor {}\ncommit:   {}\ncompiler: {}\ntarget:   {}\nbuild:    {}\nknowledge base: harvested from the "
      "released wheels on {}",
      b.version, b.git_commit, b.compiler, b.target, b.options, kb_date.empty() ? "(unknown)" : kb_date);
}

/// Log lines carry paths and text from the tree: sanitised like every other output.
class SafeStderrSink : public spdlog::sinks::base_sink<std::mutex> {
 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    spdlog::memory_buf_t formatted;
    formatter_->format(msg, formatted);
    const std::string safe = output_safe(std::string_view(formatted.data(), formatted.size()));
    std::fwrite(safe.data(), 1, safe.size(), stderr);
  }
  void flush_() override { std::fflush(stderr); }
};

void setup_logging(bool verbose) {
  // One logger, on stderr, so stdout stays clean for --json.
  auto logger = std::make_shared<spdlog::logger>("gpudoctor", std::make_shared<SafeStderrSink>());
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

bool CommandContext::load_registry_file() {
  bool cut = false;
  auto bytes = host_fs::read_user_file(options_.registry, RegistryExport::kMaxBytes, &cut);
  if (!bytes) {
    print_error("gpudoctor: --registry {}: {}\n", options_.registry, bytes.error().message);
    system_.reset();
    system_failed_ = true;
    return false;
  }
  auto reg = parse_registry_export(*bytes, options_.registry);
  if (cut) {
    reg->add_problem("larger than " + std::to_string(RegistryExport::kMaxBytes) +
                         " bytes: keys after that were not read (export only the keys gpudoctor reads: "
                         "docs/windows-inventory.md)",
                     true);
  }
  registry_ = std::move(reg);
  return true;
}

const SystemView* CommandContext::system() {
  if (system_) return &*system_;
  if (system_failed_) return nullptr;
  runner_ = std::make_unique<HostProcessRunner>();
  if (options_.root.empty()) {
    system_.emplace(SystemView::host(runner_.get()));
    if (!options_.platform.empty()) {
      auto p = parse_platform(options_.platform);
      if (!p) {
        print_error("gpudoctor: --platform must be linux, windows or wsl2, not '{}'\n", options_.platform);
        system_.reset();
        system_failed_ = true;
        return nullptr;
      }
      SystemView::Options o{"/", *p, system_->environment(), true, runner_.get()};
      system_.emplace(std::move(o));
    }
    if (!options_.env_file.empty()) {
      print_error("gpudoctor: --env-file applies to --root only; ignored\n");
    }
    // The live registry on Windows; a host's export given with --registry (inside WSL2).
    if (!options_.registry.empty()) {
      if (!load_registry_file()) return nullptr;
    } else if (system_->is_windows()) {
      registry_ = open_host_registry();
    }
    if (registry_) {
      SystemView::Options o{system_->root(), system_->platform(), system_->environment(), true, runner_.get()};
      o.registry = registry_.get();
      system_.emplace(std::move(o));
    }
    return &*system_;
  }
  SystemView::Options o;
  o.root = options_.root;
  o.live = false;                                        // a tree: nothing under it is ever run or loaded
  auto kind = host_fs::kind_of_followed(options_.root);  // a symlink to a directory is fine
  if (!kind || *kind != host_fs::Kind::directory) {
    // Says which: absent, unreadable, or something other than a directory.
    print_error("gpudoctor: --root {}: {}\n", options_.root,
                kind ? std::string("not a directory") : kind.error().message);
    system_failed_ = true;
    return nullptr;
  }
  o.platform = Platform::linux;
  if (!options_.platform.empty()) {
    auto p = parse_platform(options_.platform);
    if (!p) {
      print_error("gpudoctor: --platform must be linux, windows or wsl2, not '{}'\n", options_.platform);
      system_failed_ = true;
      return nullptr;
    }
    o.platform = *p;
  } else {
    o.platform = detect_platform(SystemView(o));
  }
  std::string env_file_cut;
  if (!options_.env_file.empty()) {
    bool cut = false;
    auto text = host_fs::read_user_file(options_.env_file, kMaxEnvFileBytes, &cut);
    if (!text) {
      print_error("gpudoctor: --env-file {}: {}\n", options_.env_file, text.error().message);
      system_failed_ = true;
      return nullptr;
    }
    if (cut) {
      // A line crossing the bound would be kept half: everything after the last whole line is
      // dropped, and the report says so.
      size_t keep = text->rfind('\n');
      text->resize(keep == std::string::npos ? 0 : keep + 1);
      env_file_cut = "larger than " + std::to_string(kMaxEnvFileBytes) + " bytes; variables after byte " +
                     std::to_string(text->size()) + " were not read";
    }
    EnvFile parsed = parse_env_file(*text);
    for (const auto& p : parsed.problems) {
      print_error("gpudoctor: --env-file {}: {}\n", options_.env_file, p);
    }
    o.env = std::move(parsed.env);
  }
  std::string path_unknown;
  if (!options_.registry.empty()) {
    if (!load_registry_file()) return nullptr;
    o.registry = registry_.get();
  }
  if (o.platform == Platform::windows && !has_path(o.env)) {
    // No --env-file said what PATH a process had: a new terminal's, from the registry's
    // Environment keys, else unknown, and said so (never an empty PATH taken as known).
    if (o.registry != nullptr) add_logon_environment(*o.registry, o.env);
    if (!has_path(o.env)) {
      path_unknown =
          "unknown: no --env-file and no Environment keys in the registry export (export "
          "\"HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment\" and "
          "\"HKCU\\Environment\" too); the DLL searches that use PATH saw none of it";
    }
  }
  system_.emplace(std::move(o));
  if (!env_file_cut.empty()) system_->note_bound(options_.env_file, env_file_cut);
  if (!path_unknown.empty()) system_->note_bound("PATH", path_unknown);
  return &*system_;
}

const KnowledgeBase* CommandContext::kb() {
  if (kb_) return kb_.get();
  if (kb_failed_) return nullptr;
  auto loaded = KnowledgeBase::load(options_.kb_dir);
  if (!loaded) {
    print_error("gpudoctor: knowledge base{}: {}\n", options_.kb_dir.empty() ? "" : " (--kb " + options_.kb_dir + ")",
                loaded.error().message);
    kb_failed_ = true;
    return nullptr;
  }
  kb_ = std::make_shared<const KnowledgeBase>(std::move(loaded).value());
  return kb_.get();
}

const Facts* CommandContext::facts() {
  if (facts_) return facts_.get();
  const SystemView* view = system();
  const KnowledgeBase* base = kb();
  if (view == nullptr || base == nullptr) return nullptr;
  facts_ = std::make_shared<const Facts>(gather_facts(*view, inventory_options(), *base));
  return facts_.get();
}

InventoryOptions CommandContext::inventory_options() const {
  InventoryOptions inv;
  inv.declared_gpus = options_.gpus;
  inv.python.env_dirs = options_.env_dirs;
  inv.python.interpreters = options_.interpreters;
  // A tree has no working directory; on the live machine the project folder is where the user is,
  // and a relative --env or --python is the user's too (the probes resolve from "/").
  if (options_.root.empty()) {
    std::error_code ec;
    auto cwd = std::filesystem::current_path(ec);
    if (!ec) {
      inv.python.project_dir = cwd.string();
      for (auto* paths : {&inv.python.env_dirs, &inv.python.interpreters}) {
        for (std::string& p : *paths) {
          // Not normalised: ".." after a symlink is the parent of the link's target.
          if (!p.empty() && std::filesystem::path(p).is_relative()) p = (cwd / p).string();
        }
      }
    }
  }
  return inv;
}

bool CommandContext::color() const {
  if (options_.no_color || options_.json) return false;
  if (const char* nc = std::getenv("NO_COLOR"); nc != nullptr && *nc != '\0') return false;
  return console::stdout_shows_colour();
}

int usage_error(std::string_view command, const std::string& message) {
  print_error("gpudoctor {}: {}\n", command, message);
  return kExitUsage;
}

int run_cli(int argc, char** argv) {
  return run_cli(argc, argv, all_commands());
}

int run_cli(int argc, char** argv, const std::vector<Command>& commands) {
  host_fs::keep_standard_streams_apart();
  console::use_utf8_output();
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
    app.add_option("--registry", global.registry,
                   "A `reg export` file (.reg) of the Windows machine (--root of a Windows tree, or WSL2's host)");
    // Repeatable options take one value per use: `explain --env DIR LOG` must leave LOG to
    // the command (a vector option would swallow it).
    app.add_option("--gpu", global.gpus, "Declare a GPU model the target has (repeatable)")->allow_extra_args(false);
    app.add_option("--kb", global.kb_dir, "Knowledge-base directory that overrides the built-in tables");
    app.add_option("--env", global.env_dirs, "Inspect this Python environment (a venv or conda prefix; repeatable)")
        ->allow_extra_args(false);
    app.add_option("--python", global.interpreters, "Inspect the environment of this Python interpreter (repeatable)")
        ->allow_extra_args(false);

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
      // CLI11 echoes the user's arguments: through the sanitiser like every other message.
      std::ostringstream out;
      std::ostringstream err;
      int rc = app.exit(e, out, err);
      write_output(out.str(), stdout);
      write_output(err.str(), stderr);
      return rc == 0 ? kExitOk : kExitUsage;
    }
    setup_logging(global.verbose);
    CommandContext ctx(global);
    for (auto& [sub, cmd] : subs) {
      if (sub->parsed()) return cmd->run(ctx);
    }
    return commands.front().run(ctx);  // no subcommand: the doctor
  } catch (const OutputError& e) {
    // A full disk, a closed stdout: one message, one status, whatever the command.
    std::string message = std::string("gpudoctor: ") + e.what() + "\n";
    [[maybe_unused]] auto n = ::write(2, message.data(), message.size());
    return kExitProblems;
  } catch (const std::exception& e) {
    std::string message =
        output_safe(fmt::format("gpudoctor: internal error: {}\nPlease report this as a bug.\n", e.what()));
    std::fputs(message.c_str(), stderr);
    return kExitInternal;
  }
}

}  // namespace gpudoctor
