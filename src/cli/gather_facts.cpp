#include "cli/gather_facts.hpp"

#include "kb/annotate_facts.hpp"

namespace gpudoctor {

Facts gather_facts(const SystemView& system, const InventoryOptions& options, const KnowledgeBase& kb) {
  Facts facts = collect_facts(system, options);
  annotate_facts(facts, kb);
  return facts;
}

}  // namespace gpudoctor
