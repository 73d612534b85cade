#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "kb/knowledge_base.hpp"
#include "kb/resolver.hpp"
#include "kb_test_support.hpp"
#include "render/plan_render.hpp"
#include "run_gpudoctor.hpp"

/// Golden tests of `plan` output. Regenerate after an intended change with
///   GPUDOCTOR_UPDATE_GOLDEN=1 build/dev/tests/unit_tests --gtest_filter='ResolverGolden*'
/// and review the diff of tests/golden/plan/.
namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

using testing::kb;

struct Case {
  const char* name;
  Platform os;
  const char* gpu;
  const char* python;
  const char* driver;
  std::vector<const char*> frameworks;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {"blog-windows-rtx3060-py311-tf215", Platform::windows, "RTX 3060", "3.11", nullptr, {"tensorflow==2.15"}},
      {"linux-gtx1080-py312-torch28", Platform::linux, "NVIDIA GeForce GTX 1080", "3.12", "550.54.14", {"torch==2.8"}},
      {"linux-rtx3060-driver470-all",
       Platform::linux,
       "NVIDIA GeForce RTX 3060",
       "3.11",
       "470.82.01",
       {"pytorch", "tensorflow", "jax"}},
      {"windows-rtx3060-py310-tf210-native",
       Platform::windows,
       "NVIDIA GeForce RTX 3060",
       "3.10",
       "537.13",
       {"tensorflow<2.11", "torch"}},
      {"wsl2-rtx4090-py310-tf-jax", Platform::wsl2, "NVIDIA GeForce RTX 4090", "3.10", "560.94", {"tensorflow", "jax"}},
  };
  return c;
}

Plan plan_for(const Case& c) {
  PlanRequest r;
  r.os = c.os;
  r.gpu_name = c.gpu;
  if (c.python) r.python = *Version::parse(c.python);
  if (c.driver) r.driver = *Version::parse(c.driver);
  for (const char* f : c.frameworks) r.frameworks.push_back(*parse_framework_request(f));
  return resolve(r, kb());
}

fs::path golden_dir() {
  return fs::path(GPUDOCTOR_SOURCE_DIR) / "tests" / "golden" / "plan";
}

void check_golden(const std::string& file, const std::string& actual) {
  fs::path p = golden_dir() / file;
  const char* update = std::getenv("GPUDOCTOR_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    fs::create_directories(golden_dir());
    std::ofstream(p, std::ios::binary) << actual;
    // An update never passes: the run that wrote the golden has compared nothing.
    ADD_FAILURE() << "wrote " << p << " (GPUDOCTOR_UPDATE_GOLDEN=1); review the diff and run again without it";
    return;
  }
  std::ifstream in(p, std::ios::binary);
  ASSERT_TRUE(in.good()) << p << " missing; run with GPUDOCTOR_UPDATE_GOLDEN=1 to create it";
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), actual) << "golden " << p
                              << " differs; if the change is intended, regenerate with GPUDOCTOR_UPDATE_GOLDEN=1";
}

TEST(ResolverGolden, TextJsonAndScripts) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    Plan p = plan_for(c);
    check_golden(std::string(c.name) + ".txt", render_plan_text(p, false));
    check_golden(std::string(c.name) + ".json", render_plan_json(p));
    check_golden(std::string(c.name) + ".sh", render_plan_script(p, Shell::bash));
    check_golden(std::string(c.name) + ".ps1", render_plan_script(p, Shell::powershell));
  }
}

TEST(ResolverGolden, JsonHasSchemaVersionAndParses) {
  Plan p = plan_for(cases().front());
  std::string j = render_plan_json(p);
  EXPECT_NE(j.find("\"schema_version\": 1"), std::string::npos);
  EXPECT_NE(j.find("\"best\""), std::string::npos);
}

TEST(ResolverGolden, GeneratedBashPassesShellcheck) {
  if (testing::run_command({"shellcheck", "--version"}).exit_code != 0) {
    GTEST_SKIP() << "shellcheck is not installed: generated bash scripts were NOT checked";
  }
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    fs::path tmp = fs::temp_directory_path() / ("gpudoctor-plan-" + std::to_string(::getpid()) + ".sh");
    std::ofstream(tmp, std::ios::binary) << render_plan_script(plan_for(c), Shell::bash);
    testing::RunResult r = testing::run_command({"shellcheck", "--shell=bash", tmp.string()});
    fs::remove(tmp);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  }
}

}  // namespace
}  // namespace gpudoctor
