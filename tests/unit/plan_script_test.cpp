/// `plan --script`: what the written scripts do when a step fails, and a script asked for in the
/// other shell than the plan's commands.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "kb/resolver.hpp"
#include "kb_test_support.hpp"
#include "render/plan_render.hpp"

namespace gpudoctor {
namespace {

using testing::kb;
using testing::v;

Plan script_plan_for(Platform os, const char* gpu, const char* driver, const char* python, const char* fw) {
  return testing::plan_described(os, gpu, driver, python, fw);
}

std::vector<std::string> script_lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Found in review (2026-12-05): `$ErrorActionPreference = 'Stop'` stops a PowerShell script on a
// failing cmdlet, not on a failing program: `pip install` exiting 1 went on to the next step
// (Windows PowerShell 5.1 and pwsh before 7.4 never stop on an exit code). Each program's exit code
// must be checked where it ran.
TEST(PlanScript, PowerShellStopsWhenAProgramFails) {
  Plan p = script_plan_for(Platform::windows, "RTX 3060", "537.13", "3.10", "tensorflow<2.11");
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  const std::string script = render_plan_script(p, Shell::powershell);
  // The exit code starts at 0, in the global scope where programs set it: unset, `$null -ne 0`
  // would stop a script whose first step is a cmdlet.
  const size_t reset = script.find("$global:LASTEXITCODE = 0");
  ASSERT_NE(reset, std::string::npos) << script;
  int checked = 0;
  for (const std::string& line : script_lines(script)) {
    if (line.empty() || line.starts_with("#")) continue;
    const bool program = line.starts_with("conda ") || line.starts_with("py ") || line.starts_with("python ");
    if (!program) continue;
    EXPECT_NE(line.find("; if ($LASTEXITCODE -ne 0) { throw ('failed"), std::string::npos) << line;
    EXPECT_LT(reset, script.find(line)) << line;
    ++checked;
  }
  EXPECT_GE(checked, 5) << script;
}

TEST(PlanScript, PowerShellNamesTheFailedCommandQuotedSafely) {
  Plan p = script_plan_for(Platform::windows, "RTX 3060", "537.13", "3.10", "tensorflow<2.11");
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  const std::string script = render_plan_script(p, Shell::powershell);
  // The check's own command holds single quotes ('GPU'): named in a single-quoted string, in
  // which PowerShell expands nothing, they are doubled or the string would end early.
  const size_t check = script.find("python -c \"import tensorflow");
  ASSERT_NE(check, std::string::npos) << script;
  const std::string line = script.substr(check, script.find('\n', check) - check);
  const size_t thrown = line.find("throw ('failed");
  ASSERT_NE(thrown, std::string::npos) << line;
  EXPECT_NE(line.find("list_physical_devices(''GPU'')", thrown), std::string::npos) << line;
}

TEST(PlanScript, PowerShellDoublesTypographicQuotesToo) {
  // PowerShell ends a single-quoted string on ‘ ’ ‚ ‛ as on ': a command holding one (pasted from a
  // guide) is named with it doubled.
  Plan p = script_plan_for(Platform::windows, "RTX 3060", "537.13", "3.10", "tensorflow<2.11");
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  PlanStep& step = p.frameworks[0].best->steps.back();
  ASSERT_FALSE(step.commands.empty());
  step.commands.front().line = "python -c \"print(\u2018x\u2019)\"";
  step.commands.front().shell = Shell::powershell;
  step.commands.front().manual = false;
  const std::string script = render_plan_script(p, Shell::powershell);
  EXPECT_NE(script.find("): python -c \"print(\u2018\u2018x\u2019\u2019)\"') }"), std::string::npos) << script;
}

TEST(PlanScript, BashScriptForAWindowsPlanSaysWhichShellRunsIt) {
  Plan p = script_plan_for(Platform::windows, "RTX 3060", "537.13", "3.10", "torch");
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  const std::string script = render_plan_script(p, Shell::bash);
  // Every command is PowerShell's: the script runs nothing, and says so before anything else.
  EXPECT_NE(script.find("--script powershell"), std::string::npos) << script;
  const std::string lin =
      render_plan_script(script_plan_for(Platform::linux, "RTX 3060", "550.54.14", "3.10", "torch"), Shell::powershell);
  EXPECT_NE(lin.find("--script bash"), std::string::npos) << lin;
  // A plan whose commands are the script's own shell says nothing of the kind.
  EXPECT_EQ(render_plan_script(p, Shell::powershell).find("--script bash"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
