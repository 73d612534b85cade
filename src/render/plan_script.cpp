#include "core/text.hpp"
#include "render/plan_render.hpp"

namespace gpudoctor {
namespace {

/// Comment text must stay on one line and hold nothing a shell could act on.
std::string comment_safe(const std::string& s) {
  std::string out;
  for (char c : s) out += (c == '\n' || c == '\r') ? ' ' : c;
  return printable(out, 400);
}

/// Stops the script while the installed driver is older than the plan needs, or (`below`) of a
/// branch after the GPU's last one: a script run after the change goes on, one run before it
/// installs nothing the driver cannot run.
std::string driver_guard(const Version& min, const std::optional<int>& below, Shell shell) {
  // Digits and dots only; two parts at least, which PowerShell's [version] needs ("580" -> "580.0").
  const std::string m = min.str() + (min.parts().size() < 2 ? ".0" : "");
  const std::string ceiling = below ? std::to_string(*below) : "";
  const std::string wanted = below ? "is not >= " + min.str() + " and below " + ceiling + ": change it"
                                   : "is older than " + min.str() + ": update it";
  if (shell == Shell::bash) {
    return "drv=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1 || true)\n"
           "if [ -z \"$drv\" ] || [ \"$(printf '%s\\n' '" +
           m + "' \"$drv\" | sort -V | head -n1)\" != '" + m + "' ]" +
           (below ? " || [ \"${drv%%.*}\" -ge " + ceiling + " ]" : "") +
           "; then\n"
           "  echo \"NVIDIA driver ${drv:-not found} " +
           wanted +
           " (see the TODO above), then run this script again.\" >&2\n"
           "  exit 1\n"
           "fi\n";
  }
  return "$drv = (nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>$null | Select-Object -First 1)\n"
         "if (-not $drv -or [version]$drv -lt [version]'" +
         m + "'" + (below ? " -or ([version]$drv).Major -ge " + ceiling : "") + ") { throw \"NVIDIA driver $drv " +
         wanted + " (see the TODO above), then run this script again.\" }\n";
}

/// A PowerShell line that stops the script when the program it ran failed. `$ErrorActionPreference
/// = 'Stop'` stops on a failing cmdlet only: a program's exit code stops nothing unless pwsh's
/// `$PSNativeCommandUseErrorActionPreference` (7.3+, off by default) is set, and Windows
/// PowerShell 5.1 has no such thing. The command is named in single quotes, which expand nothing;
/// a quote inside is doubled, the typographic ones too (PowerShell ends a string on them as well).
std::string checked_powershell(const std::string& line) {
  std::string quoted;
  const std::string safe = comment_safe(line);
  for (size_t i = 0; i < safe.size(); ++i) {
    quoted += safe[i];
    if (safe[i] == '\'') {
      quoted += '\'';
    } else if (i + 2 < safe.size() && safe.compare(i, 2, "\xE2\x80") == 0 &&
               static_cast<unsigned char>(safe[i + 2]) >= 0x98 &&
               static_cast<unsigned char>(safe[i + 2]) <= 0x9B) {  // U+2018..U+201B
      const std::string mark = safe.substr(i, 3);
      quoted += mark.substr(1) + mark;
      i += 2;
    }
  }
  return line + "; if ($LASTEXITCODE -ne 0) { throw ('failed (exit code ' + $LASTEXITCODE + '): " + quoted + "') }";
}

/// The one shell every command of the plan is written for, when it is not `shell`: that script
/// would run nothing, all its commands shown as comments.
const char* only_other_shell(const Plan& plan, Shell shell) {
  bool own = false;
  bool other = false;
  for (const FrameworkPlan& fp : plan.frameworks) {
    if (!fp.best) continue;
    for (const PlanStep& s : fp.best->steps) {
      for (const PlanCommand& c : s.commands) {
        if (c.manual) continue;
        (c.shell == shell ? own : other) = true;
      }
    }
  }
  if (own || !other) return nullptr;
  return shell == Shell::bash ? "powershell" : "bash";
}

}  // namespace

std::string render_plan_script(const Plan& plan, Shell shell) {
  bool bash = shell == Shell::bash;
  std::string out;
  if (bash) {
    out += "#!/usr/bin/env bash\n";
  }
  out += "# Written by `gpudoctor plan`. Review it before running it.\n";
  out += "# Lines marked TODO are done by hand; commands for another shell are shown as comments.\n";
  for (const PlanIssue& n : plan.notes) out += "# note: " + comment_safe(n.message) + "\n";
  if (const char* other = only_other_shell(plan, shell)) {
    out += std::string("# Every command of this plan is for ") + (bash ? "PowerShell" : "bash") +
           ": this script runs none of them. Write it with `gpudoctor plan ... --script " + other + "`.\n";
  }
  if (bash) {
    out += "set -euo pipefail\n";
  } else {
    out += "$ErrorActionPreference = 'Stop'\n";
    out += "# A failing program does not stop PowerShell: each one's exit code is checked where it runs.\n";
    out += "$global:LASTEXITCODE = 0\n";
  }
  for (const FrameworkPlan& fp : plan.frameworks) {
    out += "\n# ===== " + comment_safe(fp.request.text) + " =====\n";
    if (!fp.best) {
      out += "# No option that matches the request can use the GPU on this machine.\n";
      for (const PlanOption& o : fp.rejected) {
        for (const PlanIssue& i : o.issues) {
          if (i.fatal) out += "#   " + comment_safe(i.message) + "\n";
        }
      }
      for (const PlanOption& o : fp.alternatives) out += "# Alternative: " + comment_safe(o.summary()) + "\n";
      continue;
    }
    out += "# " + comment_safe(fp.best->summary()) + "\n";
    for (const PlanIssue& i : fp.best->issues) out += "# ! " + comment_safe(i.message) + "\n";
    for (const PlanStep& s : fp.best->steps) {
      out += "\n# " + comment_safe(s.title) + "\n";
      if (!s.detail.empty()) out += "# " + comment_safe(s.detail) + "\n";
      for (const PlanCommand& c : s.commands) {
        if (c.manual) {
          out += "# TODO (by hand): " + comment_safe(c.line) + "\n";
          // The driver the build needs: stop here rather than install what this driver cannot run.
          if (s.id == "driver" && c.shell == shell && fp.best->driver_min && fp.best->needs_driver_update())
            out += driver_guard(*fp.best->driver_min, fp.best->driver_major_below, shell);
        } else if (c.shell != shell) {
          out += std::string("# (run in ") + (c.shell == Shell::bash ? "bash" : "PowerShell") + ") " +
                 comment_safe(c.line) + "\n";
        } else if (c.line.starts_with("nvidia-smi")) {
          out += bash ? c.line + " || echo 'nvidia-smi failed: is the NVIDIA driver installed?'\n"
                      : "try { " + c.line +
                            "; if ($LASTEXITCODE -ne 0) { throw 'nvidia-smi failed' } } catch { Write-Warning "
                            "'nvidia-smi failed: is the NVIDIA driver installed?' }\n";
        } else {
          if (bash && c.line.starts_with("source ")) out += "# shellcheck disable=SC1091\n";
          out += (bash ? c.line : checked_powershell(c.line)) + "\n";
        }
      }
    }
  }
  return out;
}

}  // namespace gpudoctor
