#include <fmt/core.h>

#include "core/text.hpp"
#include "render/plan_render.hpp"

namespace gpudoctor {
namespace {

struct Paint {
  bool on = false;
  std::string ok(const std::string& s) const { return on ? "\x1b[32m" + s + "\x1b[0m" : s; }
  std::string warn(const std::string& s) const { return on ? "\x1b[33m" + s + "\x1b[0m" : s; }
  std::string bad(const std::string& s) const { return on ? "\x1b[31m" + s + "\x1b[0m" : s; }
  std::string bold(const std::string& s) const { return on ? "\x1b[1m" + s + "\x1b[0m" : s; }
};

std::string os_name(Platform p) {
  switch (p) {
    case Platform::linux:
      return "Linux";
    case Platform::windows:
      return "Windows (native)";
    case Platform::wsl2:
      return "WSL2";
  }
  return "";
}

void option_lines(std::string& out, const PlanOption& o, const Paint& p, const std::string& indent, bool with_reasons) {
  if (with_reasons) {
    for (const std::string& r : o.reasons) {
      out += indent;
      out += "  - ";
      out += r;
      out += "\n";
    }
  }
  for (const PlanIssue& i : o.issues) {
    out += indent + "  " + (i.fatal ? p.bad("✗ ") : p.warn("! ")) + i.message + "\n";
  }
}

}  // namespace

std::string render_plan_text(const Plan& plan, bool color) {
  Paint p{color};
  std::string out;
  const PlanRequest& r = plan.request;
  std::string gpu = plan.gpu_model.empty()
                        ? (r.gpu_name.empty() ? "GPU not given" : "GPU '" + printable(r.gpu_name, 80) + "' (unknown)")
                        : plan.gpu_model;
  if (plan.cc)
    gpu += " (compute capability " + plan.cc->str() + (plan.gpu_arch.empty() ? "" : ", " + plan.gpu_arch) + ")";
  out += p.bold("Plan for " + std::string(r.from_facts ? "this machine" : "the described machine")) + ": " +
         os_name(r.os) + ", " + gpu + ", Python " +
         (r.python       ? r.python->str()
          : r.from_facts ? "not found"
                         : "not given") +
         ", driver " +
         (r.driver       ? r.driver->str()
          : r.from_facts ? "not found"
                         : "not given") +
         "\n";
  for (const PlanIssue& n : plan.notes) out += "  " + p.warn("! ") + n.message + "\n";

  int fw_index = 0;
  for (const FrameworkPlan& fp : plan.frameworks) {
    out += "\n" + p.bold(fmt::format("{}. {}", ++fw_index, fp.request.text)) + "\n";
    for (const std::string& n : fp.notes) out += "  note: " + n + "\n";
    if (fp.best) {
      // ✓ only where nothing is assumed and it runs on the driver given; otherwise say plainly
      // that it could not be checked, or that the driver must change first.
      const bool update = fp.best->needs_driver_update();
      out += "  " +
             (update                ? p.warn("! Best (after a driver update): ")
              : fp.best->verified() ? p.ok("✓ Best: ")
                                    : p.warn("! Best (not verified): ")) +
             fp.best->summary() + "\n";
      option_lines(out, *fp.best, p, "    ", true);
    } else {
      out += "  " + p.bad("✗ No option that matches the request can use the GPU here.") + "\n";
    }
    if (!fp.alternatives.empty()) {
      out += "  Alternatives:\n";
      for (const PlanOption& a : fp.alternatives) {
        out += "    • " + a.summary() + "\n";
        option_lines(out, a, p, "    ", false);
      }
    }
    if (!fp.rejected.empty()) {
      out += "  Why not:\n";
      for (const PlanOption& a : fp.rejected) {
        out += "    " + p.bad("✗ ") + a.summary() + "\n";
        option_lines(out, a, p, "    ", false);
      }
    }
    if (fp.best) {
      out += "  Steps:\n";
      int n = 0;
      for (const PlanStep& s : fp.best->steps) {
        out += fmt::format("    {}. {}\n", ++n, s.title);
        if (!s.detail.empty()) out += "       " + s.detail + "\n";
        for (const PlanCommand& c : s.commands) {
          std::string prompt = c.shell == Shell::bash ? "$ " : "PS> ";
          out += "       " + (c.manual ? "(by hand) " + c.line : prompt + c.line) + "\n";
        }
      }
      out += "  Sources:\n";
      for (const std::string& s : fp.best->sources) out += "    " + s + "\n";
    }
  }
  out += "\nWrite these steps as a script with --script bash|powershell; nothing was installed.\n";
  return out;
}

}  // namespace gpudoctor
