// The exit statuses README promises, at the one place that maps outcomes to them
// (cli/app.cpp run_cli): 3 only for a bug, i.e. an exception that reached the top.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "cli/command.hpp"

namespace gpudoctor {
namespace {

int run(std::vector<std::string> args, const std::vector<Command>& commands) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return run_cli(static_cast<int>(argv.size()), argv.data(), commands);
}

Command throwing(const char* name, std::function<int(CommandContext&)> body) {
  Command c;
  c.name = name;
  c.summary = "test";
  c.run = std::move(body);
  return c;
}

TEST(CliExitStatus, AnExceptionInACommandIsInternalErrorThree) {
  std::vector<Command> commands{
      throwing("boom", [](CommandContext&) -> int { throw std::runtime_error("table index out of range"); })};
  ::testing::internal::CaptureStderr();
  int rc = run({"gpudoctor", "boom"}, commands);
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(rc, kExitInternal);
  EXPECT_EQ(rc, 3);
  EXPECT_NE(err.find("internal error: table index out of range"), std::string::npos) << err;
  EXPECT_NE(err.find("report this as a bug"), std::string::npos) << err;
}

TEST(CliExitStatus, TheExceptionTextIsSanitisedLikeAnyOutput) {
  // An exception message may carry bytes from a file (a path, a value): no raw escape codes.
  std::vector<Command> commands{
      throwing("boom", [](CommandContext&) -> int { throw std::runtime_error("bad value \x1b]0;owned\x07 in file"); })};
  ::testing::internal::CaptureStderr();
  int rc = run({"gpudoctor", "boom"}, commands);
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(rc, 3);
  EXPECT_EQ(err.find('\x1b'), std::string::npos) << err;
}

TEST(CliExitStatus, UsageIsTwoAndTheCommandsOwnStatusPassesThrough) {
  std::vector<Command> commands{throwing("one", [](CommandContext&) { return kExitProblems; })};
  ::testing::internal::CaptureStderr();
  int bad = run({"gpudoctor", "--no-such-option"}, commands);
  ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(bad, kExitUsage);
  EXPECT_EQ(run({"gpudoctor", "one"}, commands), kExitProblems);
  EXPECT_EQ(run({"gpudoctor"}, commands), kExitProblems) << "no command runs the first";
}

}  // namespace
}  // namespace gpudoctor
