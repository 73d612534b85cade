#pragma once
/// The built-in knowledge base, loaded once for all tests that need it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "kb/knowledge_base.hpp"
#include "kb/resolver.hpp"

namespace gpudoctor::testing {

inline const KnowledgeBase& builtin_kb() {
  static const KnowledgeBase once = [] {
    auto loaded = KnowledgeBase::load("");
    EXPECT_TRUE(loaded.has_value()) << (loaded ? "" : loaded.error().message);
    return loaded ? std::move(*loaded) : KnowledgeBase{};
  }();
  return once;
}

/// The same, under the short name the tests use.
inline const KnowledgeBase& kb() {
  return builtin_kb();
}

/// A version written in a test; one that does not parse fails the test.
inline Version v(const char* s) {
  auto r = Version::parse(s);
  EXPECT_TRUE(r.has_value()) << s;
  return r.value_or(Version{});
}

/// True when the plan option carries the issue with this id.
inline bool has_issue(const PlanOption& o, const std::string& id) {
  return std::any_of(o.issues.begin(), o.issues.end(), [&](const PlanIssue& i) { return i.id == id; });
}

/// The plan for a machine described as `plan --os --gpu --driver --python --framework` would;
/// driver and python may be null (not given).
inline Plan plan_described(Platform os, const char* gpu, const char* driver, const char* python, const char* fw) {
  PlanRequest r;
  r.os = os;
  r.gpu_name = gpu;
  if (driver != nullptr) r.driver = v(driver);
  if (python != nullptr) r.python = v(python);
  r.frameworks.push_back(*parse_framework_request(fw));
  return resolve(r, kb());
}

}  // namespace gpudoctor::testing
