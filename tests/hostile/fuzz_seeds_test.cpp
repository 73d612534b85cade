// The fuzz targets for the new paths (sanitiser, path resolution, env file) on hostile seeds:
// each target aborts when its invariant breaks, so surviving the seeds is the assertion.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fuzz_targets.hpp"

namespace gpudoctor {
namespace {

using namespace std::string_literals;

void run_target(const std::string& name, const std::vector<std::string>& seeds) {
  for (const auto& t : fuzz::targets()) {
    if (name != t.name) continue;
    for (const auto& s : seeds) t.run(s);
    return;
  }
  FAIL() << "no fuzz target " << name;
}

TEST(FuzzSeeds, SanitiserPathResolutionAndEnvFile) {
  const std::vector<std::string> seeds = {
      "",
      "\x1b[31m\x1b]0;t\x07\xc2\x9b\x9b\xe2\x80\xae\xed\xa0\x80\xf4\x90\x80\x80\xc0\xaf"s,
      "/a/b/up/up/up/../../outside",
      "/a/rel-out",
      "/abs/b/up/a/rel-out",
      "/magic",
      "/loop1/x",
      "C:\\A\\B\\FILE",
      "D:\\x",
      "/a/b/file/..",
      "A=1\0B\nexport X='y'\n=z\n"s,
      std::string(5000, '/') + "a",
  };
  run_target("sanitiser", seeds);
  run_target("env_file", seeds);
  run_target("path_resolution", seeds);
}

}  // namespace
}  // namespace gpudoctor
