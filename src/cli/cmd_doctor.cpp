#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "check/checks.hpp"
#include "cli/commands_list.hpp"
#include "cli/output.hpp"
#include "render/doctor_report.hpp"

namespace gpudoctor {

Command doctor_command() {
  Command c;
  c.name = "doctor";
  c.summary = "Inventory this machine (or a --root tree) and say what is wrong and how to fix it";
  c.run = [](CommandContext& ctx) -> int {
    const Facts* gathered = ctx.facts();
    if (gathered == nullptr) return kExitUsage;  // a bad --root or --kb; said why on stderr
    const Facts& facts = *gathered;
    std::vector<Finding> findings = run_checks(facts, ctx.kb());
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
