// Issue 10 item 7: `explain` and `plan` read the environments the doctor reads. An environment
// outside every place the doctor searches by itself is seen by each command only when named
// with --env DIR or --python PATH (before or after the command's name).
#include <gtest/gtest.h>

#include "run_gpudoctor.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using testing::run_gpudoctor;
using testing::TempTree;

/// A tree with one venv at /elsewhere/env-a (no home, no PATH entry leads to it) holding torch
/// and the cuDNN 9.1.0.70 wheel.
void make_tree(TempTree& t) {
  const std::string env = "elsewhere/env-a";
  const std::string sp = env + "/lib/python3.11/site-packages/";
  t.write(env + "/pyvenv.cfg", "home = /usr/bin\nversion = 3.11.9\n");
  t.write(env + "/bin/python", "");
  for (const char* dist : {"torch-2.4.0", "nvidia_cudnn_cu12-9.1.0.70"}) {
    t.write(sp + dist + ".dist-info/METADATA", "Metadata-Version: 2.1\n");
  }
  t.write(sp + "nvidia/cudnn/lib/libcudnn.so.9", "");
  t.write("etc/os-release", "ID=ubuntu\nVERSION_ID=\"24.04\"\n");
  t.write("work/cudnn.log",
          "Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: cannot open shared object "
          "file: No such file or directory\n");
}

TEST(EnvironmentOptions, ExplainSeesTheEnvironmentGivenWithEnvOrPython) {
  TempTree t;
  make_tree(t);
  const std::string root = t.path().string();
  const std::string log = root + "/work/cudnn.log";
  auto explain = [&](std::vector<std::string> args) {
    std::vector<std::string> all = {"--root", root, "--platform", "linux"};
    all.insert(all.end(), args.begin(), args.end());
    return run_gpudoctor(all);
  };
  const auto without = explain({"explain", log});
  ASSERT_TRUE(without.failure.empty()) << without.failure;
  EXPECT_EQ(without.out.find("/elsewhere/env-a"), std::string::npos) << without.out;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--env", "/elsewhere/env-a", "explain", log},
           {"explain", "--env", "/elsewhere/env-a", log},
           {"--python", "/elsewhere/env-a/bin/python", "explain", log},
           {"explain", "--python", "/elsewhere/env-a/bin/python", log},
       }) {
    const auto with = explain(args);
    ASSERT_TRUE(with.failure.empty()) << with.failure;
    EXPECT_NE(with.out.find("nvidia-cudnn-cu12 9.1.0.70 in /elsewhere/env-a"), std::string::npos)
        << args[0] << " " << args[1] << ":\n"
        << with.out << with.err;
  }
}

TEST(EnvironmentOptions, PlanSeesTheEnvironmentGivenWithEnvOrPython) {
  TempTree t;
  make_tree(t);
  const std::string root = t.path().string();
  auto frameworks = [&](std::vector<std::string> args) {
    std::vector<std::string> all = {"--root", root, "--platform", "linux", "--json"};
    all.insert(all.end(), args.begin(), args.end());
    const auto r = run_gpudoctor(all);
    std::vector<std::string> names;
    EXPECT_TRUE(r.json.is_object()) << r.out << r.err;
    if (!r.json.is_object() || !r.json.contains("frameworks")) return names;
    for (const auto& f : r.json["frameworks"]) names.push_back(f.value("framework", ""));
    return names;
  };
  // Without an environment the plan covers every framework; the environment's torch makes it
  // a PyTorch plan.
  EXPECT_EQ(frameworks({"plan"}).size(), 3u);
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"--env", "/elsewhere/env-a", "plan"},
           {"plan", "--env", "/elsewhere/env-a"},
           {"--python", "/elsewhere/env-a/bin/python", "plan"},
           {"plan", "--python", "/elsewhere/env-a/bin/python"},
       }) {
    EXPECT_EQ(frameworks(args), std::vector<std::string>{"pytorch"}) << args[0] << " " << args[1];
  }
}

// `--root TREE --gpu MODEL plan`: --gpu declares the tree's card (the doctor's own advice for a
// tree with no GPU record), so the plan keeps the tree's driver and environments. It was a plan
// for a "described machine" with driver and Python "not given" (found on a real Debian tree).
TEST(EnvironmentOptions, PlanForATreeWithADeclaredGpuKeepsTheTreesDriverAndPython) {
  TempTree t;
  make_tree(t);
  t.write("proc/driver/nvidia/version",
          "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.261.03  Release Build  (pbuilder@debian)\n");
  const auto r = run_gpudoctor({"--root", t.path().string(), "--platform", "linux", "--gpu", "RTX 3060", "--env",
                                "/elsewhere/env-a", "--json", "plan"});
  ASSERT_TRUE(r.json.is_object()) << r.out << r.err;
  const auto& req = r.json["request"];
  EXPECT_EQ(req.value("this_machine", false), true) << req.dump();
  EXPECT_EQ(req.value("gpu", ""), "RTX 3060") << req.dump();
  EXPECT_EQ(req.value("driver", ""), "535.261.03") << req.dump();
  EXPECT_EQ(req.value("python", ""), "3.11.9") << req.dump();
  EXPECT_EQ(req["frameworks"], nlohmann::json::array({"torch"})) << req.dump();
}

}  // namespace
}  // namespace gpudoctor
