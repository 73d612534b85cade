#include "platform/process_runner.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace gpudoctor {
namespace {

using namespace std::chrono_literals;

TEST(HostProcessRunner, CapturesOutputAndExitCode) {
  HostProcessRunner r;
  auto out = r.run({"sh", "-c", "echo hello; echo oops >&2; exit 3"}, 5s);
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(out->out, "hello\n");
  EXPECT_EQ(out->err, "oops\n");
  EXPECT_EQ(out->exit_code, 3);
}

TEST(HostProcessRunner, KillsAHangingProgramAtTheDeadline) {
  HostProcessRunner r;
  auto start = std::chrono::steady_clock::now();
  auto out = r.run({"sh", "-c", "sleep 30"}, 300ms);
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().kind, ErrorKind::timeout);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST(HostProcessRunner, ReportsACrashAsCrashed) {
  HostProcessRunner r;
  auto out = r.run({"sh", "-c", "kill -SEGV $$"}, 5s);
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().kind, ErrorKind::crashed);
  EXPECT_EQ(out.error().code, 11);
}

TEST(HostProcessRunner, MissingProgramIsNotFound) {
  HostProcessRunner r;
  auto out = r.run({"gpudoctor-no-such-program-xyz"}, 5s);
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().kind, ErrorKind::not_found);
}

TEST(HostProcessRunner, OutputIsBounded) {
  HostProcessRunner r;
  auto out = r.run({"sh", "-c", "head -c 5000000 /dev/zero"}, 10s);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->out.size(), HostProcessRunner::kMaxOutputBytes);
}

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
