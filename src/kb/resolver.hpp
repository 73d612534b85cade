#pragma once
/// The resolver: pure code over the knowledge base that turns a machine (described, or the
/// doctor's facts) and the frameworks wanted into install plans. For each framework it
/// evaluates every release x route (native OS, or WSL2 from Windows) x wheel variant, names
/// the blockers, and ranks what remains: the best stack, alternatives, and why the rest fail.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "core/version.hpp"
#include "model/plan.hpp"
#include "model/platform.hpp"

namespace gpudoctor {

class KnowledgeBase;
struct Facts;

Result<FrameworkRequest> parse_framework_request(std::string_view text);

Plan resolve(const PlanRequest& request, const KnowledgeBase& kb);

/// The request for this machine: platform, first GPU, driver, the Python of the env that
/// holds frameworks (else the first), and the frameworks installed (else all three). The facts
/// are annotated (kb/annotate_facts.hpp): the GPU's compute capability is read, not derived.
PlanRequest request_from_facts(const Facts& facts);

}  // namespace gpudoctor
