// HostProcessRunner's deadline against children that misbehave. Kept apart from
// process_runner_test.cpp while that file is rewritten (issue 8); fold it in afterwards.
#include <gtest/gtest.h>

#include <chrono>

#include "platform/process_runner.hpp"

namespace gpudoctor {
namespace {

// Found in review.
TEST(ReviewRegression, AChildThatClosesItsOutputAndLingersIsStoppedAtTheDeadline) {
  HostProcessRunner r;
  auto start = std::chrono::steady_clock::now();
  auto out = r.run({"sh", "-c", "exec >&- 2>&-; sleep 30"}, std::chrono::milliseconds(500));
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().kind, ErrorKind::timeout);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

}  // namespace
}  // namespace gpudoctor
