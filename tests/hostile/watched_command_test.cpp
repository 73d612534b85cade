// D9, D10: `explain -- CMD` returns when CMD exits, even while a background grandchild holds
// its output open; a command that cannot be run exits 127 (not found) or 126 (not executable),
// as a shell does.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>

#include "hostile_support.hpp"
#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

using testing::run_gpudoctor;

TEST(WatchedCommand, D9_BackgroundGrandchildDoesNotHoldTheExplanation) {
  auto start = std::chrono::steady_clock::now();
  auto r = run_gpudoctor({"explain", "--no-probe", "--", "sh", "-c", "sleep 30 & exit 3"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST(WatchedCommand, D10_NotFoundIs127AndNotExecutableIs126) {
  testing::ScratchDir scratch;
  ASSERT_FALSE(scratch.path().empty());
  auto plain = scratch.write("plain.txt", "echo should not run\n");
  ::chmod(plain.c_str(), 0644);
  auto r = run_gpudoctor({"explain", "--no-probe", "--", plain.string()});
  EXPECT_EQ(r.exit_code, 126) << r.err;
  EXPECT_EQ(r.out.find("should not run"), std::string::npos);
  EXPECT_EQ(run_gpudoctor({"explain", "--no-probe", "--", (scratch.path() / "missing").string()}).exit_code, 127);
  EXPECT_EQ(run_gpudoctor({"explain", "--no-probe", "--", "gpudoctor-no-such-command"}).exit_code, 127);
  EXPECT_EQ(run_gpudoctor({"explain", "--no-probe", "--", scratch.path().string()}).exit_code, 126);
}

}  // namespace
}  // namespace gpudoctor
