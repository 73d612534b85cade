#pragma once
/// Checks: pure functions from facts (and the knowledge base) to findings.
#include <vector>

#include "model/facts.hpp"
#include "model/finding.hpp"

namespace gpudoctor {

class KnowledgeBase;

/// Every check, in report order. kb may be null (then only rules that need no tables run).
std::vector<Finding> run_checks(const Facts& facts, const KnowledgeBase* kb);

}  // namespace gpudoctor
