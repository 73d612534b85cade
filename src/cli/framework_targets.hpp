#pragma once
/// `--framework` of verify and bench: the frameworks a value names and the Python environments,
/// from the doctor's own discovery, whose interpreter runs each.
#include <optional>
#include <string>
#include <vector>

#include "gpu/framework_verify.hpp"
#include "model/facts.hpp"

namespace gpudoctor {

/// "all" -> tensorflow, pytorch, jax; one of them -> itself; anything else -> nullopt.
std::optional<std::vector<std::string>> framework_names(const std::string& value);

/// The name the Python probe gives a framework (model/facts.hpp FrameworkFacts::name).
const char* probe_name(const std::string& framework);

const FrameworkFacts* framework_in(const PythonEnvFacts& env, const std::string& probe);

/// Every found environment with `framework` and an interpreter, in discovery order.
std::vector<gpu::FrameworkTarget> framework_targets(const Facts& facts, const std::string& framework);

/// Why no environment with `framework` was found, in words: what to add, and each --env or
/// --python the user gave that could not be used (the probe's own problem).
std::string no_framework_env_text(const Facts& facts, const std::string& framework);

}  // namespace gpudoctor
