#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands_list.hpp"
#include "cli/output.hpp"
#include "explain/explain_session.hpp"
#include "explain/rule_loader.hpp"
#include "explain/rule_matcher.hpp"
#include "kb/data_files.hpp"
#include "kb/knowledge_base.hpp"
#include "render/json_text.hpp"

namespace gpudoctor {
namespace {

struct KbArgs {
  std::string dir;
  std::string unknown;  ///< a word that is not a tool: named in the message
  CLI::App* validate = nullptr;
};

}  // namespace

/// `gpudoctor kb validate [DIR]`: checks the tables that `--kb DIR` would use (DIR over the
/// built-in files): TOML syntax, schema, versions, sources, gaps and overlaps, and that every
/// explain rule file loads.
Command kb_command() {
  auto args = std::make_shared<KbArgs>();
  Command c;
  c.name = "kb";
  c.summary = "Knowledge-base tools: `kb validate [DIR]` checks tables before you use them with --kb";
  c.setup = [args](CLI::App& app) {
    CLI::App* v =
        app.add_subcommand("validate", "Check DIR's tables (over the built-in ones): schema, sources, gaps, overlaps");
    v->add_option("dir", args->dir, "Knowledge-base directory (default: --kb, else the built-in tables)");
    // An unknown word is named in the message below, not "A subcommand is required".
    app.add_option("tool", args->unknown)->group("");
    args->validate = v;
  };
  c.run = [args](CommandContext& ctx) -> int {
    if (!args->validate->parsed()) {
      return usage_error("kb", args->unknown.empty()
                                   ? "which tool? the one there is: `kb validate [DIR]`"
                                   : "unknown tool '" + args->unknown + "'; the one there is: `kb validate [DIR]`");
    }
    std::string dir = !args->dir.empty() ? args->dir : ctx.options().kb_dir;
    auto files = load_data_files("compat/", dir);
    if (!files) {
      print_error("gpudoctor kb validate: {}: {}\n", files.error().origin, files.error().message);
      return kExitUsage;
    }
    std::vector<KbIssue> issues;
    KnowledgeBase kb = KnowledgeBase::parse(*files, issues);
    // The PCI ID database too: rows name its chips.
    if (std::optional<Error> e = kb.read_pci_names(dir)) {
      print_error("gpudoctor kb validate: {}: {}\n", e->origin, e->message);
      return kExitUsage;
    }
    kb.validate(issues);
    // The explain rules are part of the knowledge base too: a rule file explain would skip
    // is an error here, not a silent ✓.
    auto rules = load_rule_base(dir);
    if (!rules) {
      print_error("gpudoctor kb validate: {}: {}\n", rules.error().origin, rules.error().message);
      return kExitUsage;
    }
    for (const std::string& problem : rules->problems) {
      issues.push_back(KbIssue{KbIssue::Level::error, "explain/", "", problem, dir.empty() ? "built-in" : dir});
    }
    // A user's rule that misses its own examples never fires on the log it was written for.
    if (!dir.empty()) {
      auto matcher = RuleMatcher::build(rules->base);
      if (!matcher) {
        issues.push_back(KbIssue{KbIssue::Level::error, "explain/", "", matcher.error().message, dir});
      } else {
        for (std::string& problem : check_rule_examples(**matcher, RulesChecked::kb_dir)) {
          issues.push_back(KbIssue{KbIssue::Level::error, "explain/", "", std::move(problem), dir});
        }
      }
    }
    kb.files_loaded.push_back("explain/: " + std::to_string(rules->base.rules.size()) + " rules, " +
                              std::to_string(rules->base.codes.size()) + " error codes");
    size_t errors = 0;
    for (const KbIssue& i : issues) errors += i.level == KbIssue::Level::error ? 1 : 0;
    if (ctx.options().json) {
      nlohmann::json j;
      j["schema_version"] = 1;
      j["directory"] = dir.empty() ? nlohmann::json(nullptr) : nlohmann::json(dir);
      j["ok"] = errors == 0;
      j["files"] = kb.files_loaded;
      j["issues"] = nlohmann::json::array();
      for (const KbIssue& i : issues) {
        j["issues"].push_back({{"level", i.level == KbIssue::Level::error ? "error" : "warning"},
                               {"file", i.file},
                               {"where", i.where},
                               {"message", i.message},
                               {"origin", i.origin}});
      }
      write_output(json_text(j));
    } else {
      for (const std::string& f : kb.files_loaded) write_output(fmt::format("  read {}\n", f));
      for (const KbIssue& i : issues) {
        write_output(fmt::format("{} {}\n", i.level == KbIssue::Level::error ? "✗ error:" : "! warning:", i.str()));
      }
      write_output(fmt::format("{}: {} error(s), {} warning(s)\n",
                               errors == 0 ? "✓ knowledge base OK" : "✗ knowledge base has errors", errors,
                               issues.size() - errors));
    }
    return errors == 0 ? kExitOk : kExitProblems;
  };
  return c;
}

}  // namespace gpudoctor
