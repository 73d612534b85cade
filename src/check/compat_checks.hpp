#pragma once
/// Compatibility checks: every rule of the knowledge base that the doctor's facts can decide
/// (driver floors for toolkits and frameworks, TF's tested CUDA/cuDNN, Python ranges, GPU
/// architectures a build has kernels for, native-Windows TF/JAX). Pure: facts + tables in,
/// findings out. Rules about missing files and CPU-only builds live in the other checks.
#include <vector>

#include "model/facts.hpp"
#include "model/finding.hpp"

namespace gpudoctor {

class KnowledgeBase;

std::vector<Finding> compatibility_findings(const Facts& facts, const KnowledgeBase& kb);

/// A verdict about one Python environment names it: two environments with the same fault get
/// two findings, each saying where, not one that hides which. Adds " (in <env>)" to the titles
/// of findings[first...] that do not name it already.
void name_environment(std::vector<Finding>& findings, size_t first, const PythonEnvFacts& env);

}  // namespace gpudoctor
