#include <nlohmann/json.hpp>

#include "render/json_text.hpp"
#include "render/plan_render.hpp"

namespace gpudoctor {
namespace {

using nlohmann::json;

json opt_version(const std::optional<Version>& v) {
  return v ? json(v->str()) : json(nullptr);
}

json issue_json(const PlanIssue& i) {
  return json{
      {"id", i.id}, {"fatal", i.fatal}, {"message", i.message}, {"source", i.source}, {"unverified", i.unverified}};
}

json option_json(const PlanOption& o) {
  json j;
  j["summary"] = o.summary();
  j["framework"] = to_string(o.framework);
  j["version"] = o.framework == Framework::jax ? json(nullptr) : json(o.version.str());
  j["install"] = o.install_spec;
  j["os"] = to_string(o.route);
  j["variant"] = o.variant;
  j["gpu"] = o.gpu;
  j["python"] = opt_version(o.python);
  j["python_range"] = o.python_range;
  j["python_change"] = o.python_change;
  j["cuda"] = opt_version(o.cuda);
  j["cudnn"] = opt_version(o.cudnn);
  j["driver_min"] = o.driver_min ? json(o.driver_min->str()) : json(nullptr);
  j["gpu_coverage"] = o.coverage.empty() ? json(nullptr) : json(o.coverage);
  j["verified"] = o.verified();
  j["driver_update"] = o.needs_driver_update();
  j["reasons"] = o.reasons;
  j["issues"] = json::array();
  for (const PlanIssue& i : o.issues) j["issues"].push_back(issue_json(i));
  j["steps"] = json::array();
  for (const PlanStep& s : o.steps) {
    json cmds = json::array();
    for (const PlanCommand& c : s.commands) {
      cmds.push_back(json{{"shell", to_string(c.shell)}, {"line", c.line}, {"manual", c.manual}});
    }
    j["steps"].push_back(json{{"id", s.id}, {"title", s.title}, {"detail", s.detail}, {"commands", cmds}});
  }
  j["sources"] = o.sources;
  return j;
}

}  // namespace

std::string render_plan_json(const Plan& plan) {
  json j;
  j["schema_version"] = kPlanSchemaVersion;
  const PlanRequest& r = plan.request;
  json fws = json::array();
  for (const FrameworkRequest& f : r.frameworks) fws.push_back(f.text);
  j["request"] = json{{"os", to_string(r.os)},
                      {"gpu", r.gpu_name.empty() ? json(nullptr) : json(r.gpu_name)},
                      {"driver", r.driver ? json(r.driver->str()) : json(nullptr)},
                      {"python", opt_version(r.python)},
                      {"frameworks", fws},
                      {"this_machine", r.from_facts}};
  j["gpu"] = json{{"model", plan.gpu_model.empty() ? json(nullptr) : json(plan.gpu_model)},
                  {"compute_capability", opt_version(plan.cc)},
                  {"architecture", plan.gpu_arch.empty() ? json(nullptr) : json(plan.gpu_arch)},
                  {"suggestions", plan.gpu_suggestions}};
  j["notes"] = json::array();
  for (const PlanIssue& n : plan.notes) j["notes"].push_back(issue_json(n));
  j["frameworks"] = json::array();
  for (const FrameworkPlan& fp : plan.frameworks) {
    json f;
    f["request"] = fp.request.text;
    f["framework"] = to_string(fp.request.name);
    f["best"] = fp.best ? option_json(*fp.best) : json(nullptr);
    f["alternatives"] = json::array();
    for (const PlanOption& o : fp.alternatives) f["alternatives"].push_back(option_json(o));
    f["rejected"] = json::array();
    for (const PlanOption& o : fp.rejected) f["rejected"].push_back(option_json(o));
    f["notes"] = fp.notes;
    j["frameworks"].push_back(std::move(f));
  }
  return json_text(j);
}

}  // namespace gpudoctor
