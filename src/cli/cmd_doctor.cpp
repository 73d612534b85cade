#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "check/checks.hpp"
#include "cli/commands_list.hpp"
#include "cli/output.hpp"
#include "kb/annotate_facts.hpp"
#include "probe/inventory.hpp"
#include "render/doctor_report.hpp"

namespace gpudoctor {

Command doctor_command() {
  Command c;
  c.name = "doctor";
  c.summary = "Inventory this machine (or a --root tree) and say what is wrong and how to fix it";
  c.run = [](CommandContext& ctx) -> int {
    const SystemView* system = ctx.system();
    if (system == nullptr) return kExitUsage;
    Facts facts = collect_facts(*system, ctx.inventory_options());
    const KnowledgeBase* kb = ctx.kb();
    if (kb == nullptr) return kExitUsage;  // a broken --kb directory; kb() said why on stderr
    annotate_facts(facts, *kb);
    std::vector<Finding> findings = run_checks(facts, kb);
    if (ctx.options().json) {
      write_output(render_doctor_json(facts, findings));
    } else {
      write_output(
          render_doctor_text(facts, findings, TextStyle{.color = ctx.color(), .verbose = ctx.options().verbose}));
    }
    return worst(findings) == Severity::error ? kExitProblems : kExitOk;
  };
  return c;
}

}  // namespace gpudoctor
