#pragma once
/// The one fact-gathering step every command takes: inventory the machine (probe/), then
/// annotate what the probes could not know from the knowledge base (kb/annotate_facts.hpp:
/// compute capabilities by GPU name, GPU names by PCI id, the CUDA version a driver supports).
/// Commands never probe or derive those facts their own way.
#include "model/facts.hpp"
#include "probe/inventory.hpp"

namespace gpudoctor {

class KnowledgeBase;
class SystemView;

Facts gather_facts(const SystemView& system, const InventoryOptions& options, const KnowledgeBase& kb);

}  // namespace gpudoctor
