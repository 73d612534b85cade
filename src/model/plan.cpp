#include "model/plan.hpp"

#include <algorithm>
#include <set>

#include "core/text.hpp"

namespace gpudoctor {
namespace {

std::string series(const Version& v) {
  return v.truncated(2).str();
}

}  // namespace

const char* to_string(Shell s) {
  return s == Shell::bash ? "bash" : "powershell";
}

std::string route_text(Platform p) {
  switch (p) {
    case Platform::linux:
      return "on Linux";
    case Platform::windows:
      return "on native Windows";
    case Platform::wsl2:
      return "in WSL2";
  }
  return "";
}

bool PlanOption::fatal() const {
  return std::any_of(issues.begin(), issues.end(), [](const PlanIssue& i) { return i.fatal; });
}

bool PlanOption::verified() const {
  return std::none_of(issues.begin(), issues.end(), [](const PlanIssue& i) { return i.unverified; });
}

bool PlanOption::needs_driver_update() const {
  return std::any_of(issues.begin(), issues.end(),
                     [](const PlanIssue& i) { return i.id == "driver-too-old" || i.id == "driver-drops-gpu"; });
}

std::string PlanOption::summary() const {
  std::string s = std::string(display_name(framework));
  if (framework != Framework::jax || version != Version()) s += " " + series(version);
  if (framework == Framework::jax)
    s = "JAX " + (version != Version() ? version.str() + " " : "") + "(jax[" + variant + "])";
  s += " " + route_text(route);
  std::vector<std::string> parts;
  if (framework == Framework::pytorch) parts.push_back(variant);
  if (framework == Framework::tensorflow && variant == "and-cuda") parts.push_back("tensorflow[and-cuda]");
  if (gpu && cuda) parts.push_back("CUDA " + cuda->str());
  if (gpu && cudnn) parts.push_back("cuDNN " + cudnn->str());
  if (python) parts.push_back("Python " + python->str());
  if (!gpu) parts.push_back("CPU only");
  if (!parts.empty()) s += " (" + join(parts, ", ") + ")";
  return s;
}

std::vector<PlanStep> plan_steps(const Plan& plan) {
  std::vector<PlanStep> out;
  std::set<std::string> seen;
  for (const FrameworkPlan& fp : plan.frameworks) {
    if (!fp.best) continue;
    for (const PlanStep& s : fp.best->steps) {
      // The driver and WSL2 steps are shared: keep the first (checks are the same command).
      if (s.id == "wsl2" && !seen.insert(s.id).second) continue;
      if (s.id == "driver" && !seen.insert(s.title).second) continue;
      out.push_back(s);
    }
  }
  return out;
}

}  // namespace gpudoctor
