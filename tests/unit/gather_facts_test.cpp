// The one fact-gathering step (cli/gather_facts.hpp): every command sees the same annotated
// facts, so what the knowledge base adds (a PCI device's name, its compute capability) reaches
// plan and explain as it reaches the doctor.
#include "cli/gather_facts.hpp"

#include <gtest/gtest.h>

#include "kb/knowledge_base.hpp"
#include "kb/resolver.hpp"
#include "kb_test_support.hpp"
#include "platform/system_view.hpp"

namespace gpudoctor {
namespace {

using testing::builtin_kb;

Facts nouveau_machine() {
  // An RTX 3060 on nouveau: sysfs knows only the PCI id, and the tree has no pci.ids.
  SystemView::Options o;
  o.root = std::string(GPUDOCTOR_FIXTURES_DIR) + "/linux-nouveau/root";
  SystemView system(o);
  return gather_facts(system, InventoryOptions{}, builtin_kb());
}

TEST(GatherFacts, SysfsGpuNamedFromTheKnowledgeBasesPciDatabase) {
  Facts f = nouveau_machine();
  ASSERT_EQ(f.gpus.size(), 1u);
  EXPECT_EQ(f.gpus[0].source, "pci");
  EXPECT_EQ(f.gpus[0].name, "GA106 [GeForce RTX 3060]");
  EXPECT_EQ(f.gpus[0].kb_name, "NVIDIA GeForce RTX 3060");
  EXPECT_EQ(f.gpus[0].cc_major, 8);
  EXPECT_EQ(f.gpus[0].cc_minor, 6);
}

TEST(GatherFacts, PlanForThisMachineKnowsThePciNamedGpu) {
  // Before: plan gathered facts its own way and looked the PCI name up again, so it called the
  // card unknown ("did you mean: NVIDIA GeForce RTX 3060?") although the doctor knew it.
  Facts f = nouveau_machine();
  Plan p = resolve(request_from_facts(f), builtin_kb());
  EXPECT_EQ(p.gpu_model, "NVIDIA GeForce RTX 3060");
  ASSERT_TRUE(p.cc.has_value());
  EXPECT_EQ(p.cc->str(), "8.6");
  for (const PlanIssue& n : p.notes) EXPECT_NE(n.id, "gpu-unknown-model") << n.message;
}

TEST(GatherFacts, WithoutTheKnowledgeBasesPciCopyTheDeviceStaysUnnamed) {
  // The name comes from the knowledge base, not from a file the probe loads itself: a base
  // without data/pci leaves the id, and nothing pretends to know the card.
  KnowledgeBase kb = builtin_kb();
  kb.pci_names.clear();
  SystemView::Options o;
  o.root = std::string(GPUDOCTOR_FIXTURES_DIR) + "/linux-nouveau/root";
  SystemView system(o);
  Facts f = gather_facts(system, InventoryOptions{}, kb);
  ASSERT_EQ(f.gpus.size(), 1u);
  EXPECT_EQ(f.gpus[0].name, std::string(kUnnamedPciDevice) + f.gpus[0].pci_device_id);
  EXPECT_FALSE(f.gpus[0].cc_major.has_value());
}

}  // namespace
}  // namespace gpudoctor
