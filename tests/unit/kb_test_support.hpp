#pragma once
/// The built-in knowledge base, loaded once for all tests that need it.
#include <gtest/gtest.h>

#include "kb/knowledge_base.hpp"

namespace gpudoctor::testing {

inline const KnowledgeBase& builtin_kb() {
  static const KnowledgeBase kb = [] {
    auto loaded = KnowledgeBase::load("");
    EXPECT_TRUE(loaded.has_value()) << (loaded ? "" : loaded.error().message);
    return loaded ? std::move(*loaded) : KnowledgeBase{};
  }();
  return kb;
}

inline Version v(const char* s) {
  return *Version::parse(s);
}

}  // namespace gpudoctor::testing
