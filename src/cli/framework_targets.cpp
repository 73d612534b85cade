#include "cli/framework_targets.hpp"

namespace gpudoctor {

std::optional<std::vector<std::string>> framework_names(const std::string& value) {
  if (value == "all") return std::vector<std::string>{"tensorflow", "pytorch", "jax"};
  if (value == "tensorflow" || value == "pytorch" || value == "jax") return std::vector<std::string>{value};
  return std::nullopt;
}

const char* probe_name(const std::string& framework) {
  return framework == "pytorch" ? "torch" : framework.c_str();
}

const FrameworkFacts* framework_in(const PythonEnvFacts& env, const std::string& probe) {
  for (const auto& f : env.frameworks) {
    if (f.name == probe) return &f;
  }
  return nullptr;
}

std::vector<gpu::FrameworkTarget> framework_targets(const Facts& facts, const std::string& framework) {
  std::vector<gpu::FrameworkTarget> targets;
  for (const PythonEnvFacts& env : facts.python_envs) {
    if (framework_in(env, probe_name(framework)) == nullptr || env.interpreter.empty()) continue;
    targets.push_back({.framework = framework, .env = env.path, .interpreter = env.interpreter});
  }
  return targets;
}

std::string no_framework_env_text(const Facts& facts, const std::string& framework) {
  std::string text = "no Python environment with " + framework + " found (add one with --env DIR)";
  for (const ProbeProblem& p : facts.problems) {
    if (p.probe == "python" && (p.message.starts_with("--env ") || p.message.starts_with("--python ")))
      text += "; " + p.message;
  }
  return text;
}

}  // namespace gpudoctor
