#include <gtest/gtest.h>

#include "kb/data_files.hpp"
#include "kb/knowledge_base.hpp"

namespace gpudoctor {
namespace {

KnowledgeBase builtin() {
  auto kb = KnowledgeBase::load("");
  EXPECT_TRUE(kb.has_value()) << (kb ? "" : kb.error().message);
  return kb ? std::move(kb).value() : KnowledgeBase{};
}

TEST(KbTables, BuiltInLoadsWithoutIssues) {
  auto files = load_data_files("compat/", "");
  ASSERT_TRUE(files.has_value());
  std::vector<KbIssue> issues;
  KnowledgeBase kb = KnowledgeBase::parse(*files, issues);
  kb.validate(issues);
  for (const KbIssue& i : issues) ADD_FAILURE() << i.str();
  EXPECT_EQ(kb.files_loaded.size(), 8u);
}

TEST(KbTables, EveryRowHasASource) {
  KnowledgeBase kb = builtin();
  for (const auto& b : kb.tensorflow.builds) EXPECT_FALSE(b.source.empty()) << b.version.str();
  for (const auto& a : kb.tensorflow.and_cuda) EXPECT_FALSE(a.source.empty());
  for (const auto& p : kb.tensorflow.packages) EXPECT_FALSE(p.source.empty()) << p.name;
  for (const auto& r : kb.pytorch.releases) EXPECT_FALSE(r.source.empty()) << r.version.str();
  for (const auto& v : kb.jax.variants) EXPECT_FALSE(v.source.empty()) << v.extra;
  for (const auto& d : kb.cuda_drivers) EXPECT_FALSE(d.source.empty()) << d.cuda.str();
  for (const auto& f : kb.cuda_families) EXPECT_FALSE(f.source.empty()) << f.major;
  for (const auto& t : kb.toolkit_archs) EXPECT_FALSE(t.source.empty()) << t.cuda.text();
  for (const auto& g : kb.generations) EXPECT_FALSE(g.source.empty()) << g.name;
  for (const auto& g : kb.gpus) EXPECT_FALSE(g.source.empty()) << g.name;
  for (const auto& c : kb.cudnn_builds) EXPECT_FALSE(c.source.empty()) << c.cudnn.text();
  EXPECT_FALSE(kb.python_source.empty());
  EXPECT_FALSE(kb.tensorflow.windows_gpu_source.empty());
}

}  // namespace
}  // namespace gpudoctor
