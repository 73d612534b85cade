#pragma once
/// Facts that follow from other facts through the knowledge base, filled in where no probe
/// could read them: a GPU's compute capability from its model name, and the newest CUDA a
/// driver version supports from the toolkit → driver table. Each says where it came from.
#include "kb/knowledge_base.hpp"
#include "model/facts.hpp"

namespace gpudoctor {

void annotate_facts(Facts& facts, const KnowledgeBase& kb);

}  // namespace gpudoctor
