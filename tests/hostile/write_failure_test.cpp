// D11: a full disk or a closed stdout is one clear message and one exit status, for every
// command; never "internal error", never a silent exit 0.
#include <gtest/gtest.h>

#include <string>

#include "hostile_support.hpp"
#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

using testing::run_shell;

TEST(WriteFailure, D11_EveryCommandReportsAFullDiskTheSameWay) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this system";
  const std::string gd = GPUDOCTOR_BINARY;
  const std::string fix = (testing::kFixtures / "linux-torch-healthy").string();
  const std::string readme = (testing::kFixtures / "README.md").string();
  for (const std::string& args :
       {"--json --root " + fix + "/root --env-file " + fix + "/env",
        "--root " + fix + "/root --env-file " + fix + "/env", std::string("matrix"), std::string("--json matrix"),
        std::string("plan --gpu 'RTX 3060' --os linux"), "explain --no-probe " + readme, std::string("kb validate")}) {
    for (const std::string& redirect : {std::string(">/dev/full"), std::string(">&-")}) {
      auto r = run_shell("exec '" + gd + "' " + args + " " + redirect);
      EXPECT_EQ(r.exit_code, 1) << args << " " << redirect << ": " << r.err;
      EXPECT_NE(r.err.find("cannot write output: "), std::string::npos) << args << " " << redirect << ": " << r.err;
      EXPECT_EQ(r.err.find("internal error"), std::string::npos) << args << ": " << r.err;
    }
  }
}

}  // namespace
}  // namespace gpudoctor
