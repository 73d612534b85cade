#pragma once
/// Renderers for `gpudoctor plan`: text, JSON (with schema_version) and runnable scripts.
/// Pure functions of the Plan; they never probe and never print.
#include <string>

#include "model/plan.hpp"

namespace gpudoctor {

constexpr int kPlanSchemaVersion = 1;

std::string render_plan_text(const Plan& plan, bool color);
std::string render_plan_json(const Plan& plan);
/// One script for the best option of every framework. Commands for the other shell, and
/// steps to do by hand, are kept as comments. The bash form passes shellcheck.
std::string render_plan_script(const Plan& plan, Shell shell);

}  // namespace gpudoctor
