// `--verbose` promises probe logs on stderr (the option's help says so): the log lines the
// inventory writes through spdlog appear with -v / --verbose, never without it, and never on
// stdout, which stays one clean JSON document.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

using testing::run_gpudoctor;

const std::string kRoot = (std::filesystem::path(GPUDOCTOR_FIXTURES_DIR) / "linux-torch-healthy" / "root").string();
// Written by collect_facts() in src/probe/inventory.cpp at debug level.
const std::string kInventoryLog = "gpudoctor: debug: inventory of ";

TEST(VerboseLogging, ProbeLogsOnStderrOnlyWithVerbose) {
  auto quiet = run_gpudoctor({"--root", kRoot, "--no-color", "--json"});
  ASSERT_NE(quiet.exit_code, -1) << quiet.err;
  EXPECT_EQ(quiet.err.find(kInventoryLog), std::string::npos) << quiet.err;
  EXPECT_EQ(quiet.err.find("gpudoctor: debug:"), std::string::npos) << quiet.err;

  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--verbose", "--root", kRoot, "--no-color", "--json"},
        std::vector<std::string>{"doctor", "-v", "--root", kRoot, "--no-color", "--json"}}) {
    auto loud = run_gpudoctor(args);
    ASSERT_NE(loud.exit_code, -1) << loud.err;
    EXPECT_EQ(loud.exit_code, quiet.exit_code);
    EXPECT_NE(loud.err.find(kInventoryLog + kRoot), std::string::npos) << loud.err;
    EXPECT_NE(loud.err.find("gpudoctor: debug: probe os:"), std::string::npos) << loud.err;
    // stdout is untouched by the logs: the same JSON document.
    ASSERT_FALSE(loud.json.is_null()) << loud.out.substr(0, 200);
    EXPECT_EQ(loud.out.find("gpudoctor: debug:"), std::string::npos);
    EXPECT_EQ(loud.json, quiet.json);
  }
}

}  // namespace
}  // namespace gpudoctor
