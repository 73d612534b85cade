#pragma once
#include <vector>

#include "model/facts.hpp"
#include "model/finding.hpp"

namespace gpudoctor {

class KnowledgeBase;

/// Native Windows: DLLs a framework's loader will not find (with the fix for that loader), the
/// MSVC runtime missing, the discontinued tensorflow-gpu package, stale PEP 514 registrations.
std::vector<Finding> windows_findings(const Facts& facts, const KnowledgeBase& kb);

}  // namespace gpudoctor
