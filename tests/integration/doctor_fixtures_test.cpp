// The doctor on every fixture tree (tests/fixtures/<scenario>/root, with its env and args
// files), run through the real command line. Two kinds of assertion:
//  - the verdicts each scenario exists for (finding ids and exit status), written below;
//  - golden copies of the text and JSON reports (tests/golden/doctor/), which catch any other
//    change. Regenerate them with GPUDOCTOR_UPDATE_GOLDEN=1 and review the diff.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;
using testing::run_gpudoctor;

const fs::path kFixtures = GPUDOCTOR_FIXTURES_DIR;
const fs::path kGolden = fs::path(GPUDOCTOR_SOURCE_DIR) / "tests" / "golden" / "doctor";

std::vector<std::string> read_lines(const fs::path& p) {
  std::vector<std::string> out;
  std::ifstream f(p);
  for (std::string line; std::getline(f, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::vector<std::string> scenarios() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(kFixtures)) {
    if (fs::is_directory(e.path() / "root")) out.push_back(e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> args_for(const std::string& scenario, bool json) {
  fs::path dir = kFixtures / scenario;
  std::vector<std::string> args = {"--root", (dir / "root").string(), "--no-color"};
  if (fs::exists(dir / "env")) {
    args.push_back("--env-file");
    args.push_back((dir / "env").string());
  }
  for (const auto& a : read_lines(dir / "args")) args.push_back(a);
  if (fs::exists(dir / "registry.reg")) {  // a Windows tree's `reg export`
    args.push_back("--registry");
    args.push_back((dir / "registry.reg").string());
  }
  if (json) args.push_back("--json");
  return args;
}

/// Replaces the machine-specific parts: the fixture's absolute path and the git commit.
std::string masked(std::string text, const std::string& scenario) {
  std::string root = (kFixtures / scenario / "root").string();
  for (size_t pos; (pos = text.find(root)) != std::string::npos;) text.replace(pos, root.size(), "<root>");
  // Files beside the tree (the registry export) are named from the scenario's folder.
  std::string dir = (kFixtures / scenario).string();
  for (size_t pos; (pos = text.find(dir)) != std::string::npos;) text.replace(pos, dir.size(), "<scenario>");
  auto c = text.find("\"commit\": \"");
  if (c != std::string::npos) {
    auto end = text.find('"', c + 11);
    text.replace(c + 11, end - c - 11, "<commit>");
  }
  return text;
}

void compare_golden(const std::string& actual, const fs::path& file) {
  const char* update = std::getenv("GPUDOCTOR_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << actual;
    // An update never passes: the run that wrote the golden has compared nothing.
    ADD_FAILURE() << "wrote " << file << " (GPUDOCTOR_UPDATE_GOLDEN=1); review the diff and run again without it";
    return;
  }
  ASSERT_TRUE(fs::exists(file)) << file << " is missing; run with GPUDOCTOR_UPDATE_GOLDEN=1";
  EXPECT_EQ(actual, slurp(file)) << "golden " << file << " differs; if the change is intended, regenerate "
                                 << "with GPUDOCTOR_UPDATE_GOLDEN=1 and review the diff";
}

struct Expectation {
  int exit_code;
  std::vector<std::string> must;      ///< finding ids that must be present
  std::vector<std::string> must_not;  ///< finding ids that must be absent
};

/// What each scenario is for. A scenario without an entry fails the test: every fixture must
/// say what the doctor should conclude.
const std::map<std::string, Expectation>& expectations() {
  static const std::map<std::string, Expectation> kExpect = {
      {"linux-torch-healthy",
       {0,
        {"driver", "gpu", "python-env", "network-link"},
        {"driver-missing", "framework-cpu-only", "framework-cuda-libraries-missing", "network-link-narrow"}}},
      {"linux-tf215-cudnn86-mismatch", {1, {"tf-cudnn-mismatch", "framework-cuda-libraries-missing"}, {}}},
      {"linux-nouveau", {1, {"nouveau-loaded", "driver-missing"}, {"driver"}}},
      {"wsl2-torch-cu128", {0, {"python-env"}, {"wsl2-linux-driver-installed", "framework-cuda-libraries-missing"}}},
      {"wsl2-linux-driver-installed", {1, {"wsl2-linux-driver-installed"}, {}}},
      {"linux-driver-too-old",
       {1, {"driver", "driver-too-old-for-framework", "network-link-narrow"}, {"framework-cuda-libraries-missing"}}},
      {"linux-cpu-only-builds", {1, {"framework-cpu-only"}, {}}},
      {"linux-several-toolkits", {1, {"several-toolkits", "tf-cudnn-mismatch"}, {}}},
      {"linux-cuda-visible-devices-empty", {1, {"cuda-visible-devices-hides-all"}, {}}},
      {"linux-no-nvidia", {0, {"no-gpu-recorded", "driver-not-installed"}, {"no-nvidia-gpu"}}},
      {"windows-tf215-native", {1, {"tf-native-windows-no-gpu"}, {"framework-cpu-only"}}},
      {"windows-tf210-native-gpu",
       {0,
        {"gpu", "python-env", "driver"},
        {"tf-native-windows-no-gpu", "framework-cpu-only", "windows-dll-not-found", "msvc-runtime-missing"}}},
      {"windows-tf210-cudnn80-too-old",
       {1,
        {"windows-cudnn-too-old", "gpu", "python-env"},
        {"windows-dll-not-found", "windows-cudnn-version-unknown", "msvc-runtime-missing", "tf-cudnn-mismatch"}}},
      {"windows-torch-cu124-conda",
       {0,
        {"gpu", "python-env", "driver"},
        {"windows-dll-not-found", "msvc-runtime-missing", "driver-too-old-for-framework", "framework-cpu-only"}}},
      {"windows-ort-cu12-with-cuda11", {1, {"windows-dll-not-found", "gpu", "python-env"}, {"msvc-runtime-missing"}}},
      {"windows-ort-cu13-driver560",
       {1, {"windows-dll-not-found", "driver-too-old-for-framework", "python-env"}, {"msvc-runtime-missing"}}},
      {"linux-ort-cu12-with-cuda11", {1, {"framework-cuda-libraries-missing", "python-env"}, {}}},
      {"linux-pip-cudnn-shadowed", {0, {"pip-library-shadowed"}, {"framework-cuda-libraries-missing"}}},
      {"linux-pascal-torch-cu128", {1, {"gpu-arch-unsupported-by-framework"}, {"framework-cuda-libraries-missing"}}},
      {"linux-k80-driver-535", {1, {"driver-drops-gpu", "gpu"}, {"driver-too-old-for-gpu"}}},
      {"linux-jax-cuda12", {0, {"python-env", "driver"}, {"framework-cpu-only", "framework-cuda-libraries-missing"}}},
      {"bad-binary-junk", {0, {"framework-metadata-unreadable"}, {}}},
      {"bad-escaping-symlinks", {0, {"probe-problem", "python-interpreter-missing"}, {}}},
      {"bad-garbage-versions",
       {1, {"probe-problem", "framework-metadata-unreadable", "framework-install-conflict"}, {}}},
      {"bad-symlink-loops", {0, {"probe-problem", "python-interpreter-missing"}, {}}},
  };
  return kExpect;
}

TEST(DoctorFixtures, ThereAreAtLeastTenScenariosAndEachHasAnExpectation) {
  auto all = scenarios();
  EXPECT_GE(all.size(), 10u);
  for (const auto& s : all) EXPECT_TRUE(expectations().count(s)) << s << " has no expectation";
}

class DoctorOnFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(DoctorOnFixture, VerdictsAndGoldenReports) {
  const std::string scenario = GetParam();
  auto json_run = run_gpudoctor(args_for(scenario, true));
  ASSERT_FALSE(json_run.json.is_null()) << json_run.out << json_run.err;
  std::set<std::string> ids;
  for (const auto& f : json_run.json["findings"]) ids.insert(f["id"].get<std::string>());
  EXPECT_FALSE(json_run.json["facts"]["live"].get<bool>());
  auto it = expectations().find(scenario);
  if (it != expectations().end()) {
    EXPECT_EQ(json_run.exit_code, it->second.exit_code) << json_run.out;
    for (const auto& id : it->second.must) EXPECT_TRUE(ids.count(id)) << scenario << ": expected finding " << id;
    for (const auto& id : it->second.must_not) EXPECT_FALSE(ids.count(id)) << scenario << ": unexpected finding " << id;
  }
  auto text_run = run_gpudoctor(args_for(scenario, false));
  EXPECT_EQ(text_run.exit_code, json_run.exit_code);
  compare_golden(masked(json_run.out, scenario), kGolden / (scenario + ".json"));
  compare_golden(masked(text_run.out, scenario) + "exit: " + std::to_string(text_run.exit_code) + "\n",
                 kGolden / (scenario + ".txt"));
}

INSTANTIATE_TEST_SUITE_P(Scenarios, DoctorOnFixture, ::testing::ValuesIn(scenarios()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace gpudoctor
