#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "cli/commands_list.hpp"
#include "cli/option_values.hpp"
#include "cli/output.hpp"
#include "kb/knowledge_base.hpp"
#include "kb/resolver.hpp"
#include "platform/host_fs.hpp"
#include "render/plan_render.hpp"

namespace gpudoctor {
namespace {

struct PlanArgs {
  std::string os;
  std::string driver;
  std::string python;
  std::vector<std::string> frameworks;
  std::string script;
  std::string output;
};

}  // namespace

Command plan_command() {
  auto args = std::make_shared<PlanArgs>();
  Command c;
  c.name = "plan";
  c.summary = "The install plan (versions, reasons, exact commands) for this machine or a described one";
  c.setup = [args](CLI::App& app) {
    app.add_option("--os", args->os, "Target OS: linux, windows or wsl2 (describes a machine)");
    app.add_option("--driver", args->driver, "NVIDIA driver version the target has, e.g. 535.104.05");
    app.add_option("--python", args->python,
                   "Python version the target has, e.g. 3.11; a path (/env/bin/python) reads that interpreter's "
                   "environment, as the global --python does");
    app.add_option("--framework", args->frameworks,
                   "tensorflow|pytorch|jax, optionally with a version: tensorflow==2.15 (repeatable)");
    app.add_option("--script", args->script, "Write the steps as a bash or powershell script");
    app.add_option("-o,--output", args->output, "Write the script or report to this file instead of stdout");
    app.footer(
        "--gpu MODEL (global option) names the target's GPU, e.g. --gpu \"RTX 3060\".\n"
        "Without --os/--gpu/--driver/--python the plan is for this machine (or --root tree);\n"
        "with --root, --gpu declares the tree's card and the plan stays the tree's.");
  };
  c.run = [args](CommandContext& ctx) -> int {
    const KnowledgeBase* kb = ctx.kb();
    if (kb == nullptr) return kExitUsage;
    std::optional<Shell> shell;
    if (!args->script.empty()) {
      if (args->script == "bash")
        shell = Shell::bash;
      else if (args->script == "powershell" || args->script == "ps1" || args->script == "pwsh")
        shell = Shell::powershell;
      else
        return usage_error("plan", "--script must be bash or powershell, not '" + args->script + "'");
    }
    std::vector<FrameworkRequest> frameworks;
    for (const std::string& f : args->frameworks) {
      auto fr = parse_framework_request(f);
      if (!fr) return usage_error("plan", fr.error().message);
      frameworks.push_back(*fr);
    }
    // `plan --python PATH`: an interpreter whose environment to read, as the global option
    // means (the doctor's); a version such as 3.11 describes the target.
    const bool python_path = args->python.find_first_of("/\\") != std::string::npos;
    const GlobalOptions& g = ctx.options();
    // Options that describe a machine and options that read one do not mix: one of them was
    // silently dropped (review 45A, 03 and 08).
    const bool describing = !args->os.empty() || !args->driver.empty() || (!args->python.empty() && !python_path);
    if (!g.root.empty() && describing)
      return usage_error("plan",
                         "--os, --driver and --python VERSION describe a machine; they cannot be used with --root "
                         "(the plan is the tree's: its GPU, driver and environments)");
    if (python_path) {
      if (!args->os.empty() || !args->driver.empty() || (!g.gpus.empty() && g.root.empty()))
        return usage_error("plan", "--python " + args->python +
                                       " reads this machine's environment; with --os, --driver or --gpu give "
                                       "the target's Python version instead (e.g. --python 3.11)");
      std::error_code ec;
      if (g.root.empty() && !std::filesystem::exists(args->python, ec))
        return usage_error("plan", "--python names " + args->python + ", which does not exist");
      ctx.mutable_options().interpreters.push_back(args->python);
      args->python.clear();
    }
    // With --root, --gpu declares the tree's card (what the doctor tells a tree's user to add), so
    // the plan stays the tree's: its driver and environments with that GPU.
    bool described =
        !args->os.empty() || (!g.gpus.empty() && g.root.empty()) || !args->driver.empty() || !args->python.empty();
    PlanRequest req;
    if (described) {
      if (!args->os.empty()) {
        auto p = parse_os_option(args->os);
        if (!p) return usage_error("plan", p.error().message);
        req.os = *p;
      } else {
        const SystemView* system = ctx.system();
        if (system == nullptr) return kExitUsage;
        req.os = system->platform();
      }
      if (!g.gpus.empty()) req.gpu_name = g.gpus.front();
      if (!args->driver.empty()) {
        auto v = parse_driver_option(args->driver);
        if (!v) return usage_error("plan", v.error().message);
        req.driver = *v;
      }
      if (!args->python.empty()) {
        auto v = parse_python_option(args->python);
        if (!v) return usage_error("plan", v.error().message);
        // A minor past the newest release python.toml lists (3.99) is no Python.
        const auto newest = std::max_element(kb->python_versions.begin(), kb->python_versions.end());
        if (newest != kb->python_versions.end() && v->truncated(2) > newest->truncated(2))
          return usage_error("plan", "--python: '" + args->python + "' is newer than the newest Python release (" +
                                         newest->truncated(2).str() + ", compat/python.toml)");
        req.python = *v;
      }
    } else {
      // The doctor's facts: the same environments (--env, --python, the project's .venv).
      const Facts* facts = ctx.facts();
      if (facts == nullptr) return kExitUsage;
      req = request_from_facts(*facts);
    }
    if (!frameworks.empty()) req.frameworks = frameworks;
    Plan plan = resolve(req, *kb);

    std::string text;
    if (shell)
      text = render_plan_script(plan, *shell);
    else if (g.json)
      text = render_plan_json(plan);
    else
      text = render_plan_text(plan, args->output.empty() && ctx.color());
    if (!args->output.empty()) {
      std::FILE* f = std::fopen(args->output.c_str(), "wb");
      if (f == nullptr) return usage_error("plan", "cannot write " + args->output + ": " + std::strerror(errno));
      bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
      int err = errno;
      ok = std::fclose(f) == 0 && ok;
      if (!ok)
        return usage_error("plan", "cannot write " + args->output + ": " + std::strerror(err != 0 ? err : errno));
      print_error("gpudoctor plan: wrote {}\n", args->output);
    } else {
      write_output(text);
    }
    bool any = false;
    for (const FrameworkPlan& fp : plan.frameworks) any = any || fp.best.has_value();
    return any ? kExitOk : kExitProblems;
  };
  return c;
}

}  // namespace gpudoctor
