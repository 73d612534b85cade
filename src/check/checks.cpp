#include "check/checks.hpp"

#include "check/compat_checks.hpp"
#include "check/env_checks.hpp"
#include "check/gpu_driver_checks.hpp"
#include "check/python_checks.hpp"
#include "check/toolkit_checks.hpp"

namespace gpudoctor {

std::vector<Finding> run_checks(const Facts& facts, const KnowledgeBase* kb) {
  std::vector<Finding> out;
  auto append = [&out](std::vector<Finding> more) {
    for (auto& f : more) out.push_back(std::move(f));
  };
  append(system_findings(facts));
  append(gpu_driver_findings(facts));
  append(toolkit_findings(facts));
  append(library_findings(facts));
  if (kb != nullptr) append(compatibility_findings(facts, *kb));
  append(python_findings(facts));
  append(env_findings(facts));
  return out;
}

}  // namespace gpudoctor
