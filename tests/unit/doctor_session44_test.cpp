// Session 44's re-read of the doctor's Python findings: a JAX reached through PYTHONPATH whose CUDA
// plugin it refuses is still said to come from PYTHONPATH.
#include <gtest/gtest.h>

#include "check/python_checks.hpp"
#include "check/which_pip.hpp"
#include "check_test_support.hpp"
#include "core/text.hpp"

namespace gpudoctor {
namespace {

using testing::find;
using testing::ids;
using testing::machine;
using testing::v;

TEST(DoctorSession44, AShadowingJaxWithARefusedPluginIsSaidToComeFromPythonpath) {
  Facts f = machine(Platform::linux, "NVIDIA H100 80GB HBM3", "580.65.06");
  PythonEnvFacts env;
  env.path = "/home/u/.venvs/x";
  env.python_version = v("3.11.7");
  const std::string outside = "/opt/jax/site-packages";
  FrameworkFacts jax{.name = "jax", .package = "jax", .version = v("0.4.30")};
  jax.cuda_build = false;
  jax.location = outside;
  jax.reached_via = "PYTHONPATH";
  FrameworkFacts plugin{.name = "jax-cuda-plugin", .package = "jax-cuda12-plugin", .version = v("0.4.30")};
  plugin.variant = "cuda12";
  plugin.location = outside;
  FrameworkFacts own{.name = "jax", .package = "jax", .version = v("0.7.1")};
  own.cuda_build = false;
  own.location = env.path + "/lib/python3.11/site-packages";
  env.frameworks = {jax, plugin};
  env.shadowed = {own};
  f.python_envs.push_back(env);
  const auto fs = python_findings(f);
  const Finding* s = find(fs, "framework-shadowed");
  ASSERT_NE(s, nullptr) << ids(fs);
  EXPECT_TRUE(contains(s->title, "jax 0.4.30 (cuda12 plugin not usable) from PYTHONPATH")) << s->title;
}

// The environment's own pip, as a command each platform's shell runs: a quoted path with a space
// on Linux; on Windows the launcher for an installed Python (a quoted "C:\Program Files\..." is a
// string to PowerShell, not a command) and the call operator for a venv's path with a space.
TEST(DoctorSession44, EachEnvironmentsPipIsACommandItsShellRuns) {
  PythonEnvFacts env;
  EXPECT_EQ(env_pip(env), "pip") << "no interpreter known";
  env.interpreter = "/opt/envs/a/bin/python3";
  EXPECT_EQ(env_pip(env), "/opt/envs/a/bin/python3 -m pip");
  env.interpreter = "/home/u/my envs/a/bin/python3";
  EXPECT_EQ(env_pip(env), "'/home/u/my envs/a/bin/python3' -m pip");
  env.interpreter = "/home/u/$HOME & co/it's/bin/python3";
  EXPECT_EQ(env_pip(env), "'/home/u/$HOME & co/it'\\''s/bin/python3' -m pip") << "nothing the shell reads";
  env.interpreter = "C:\\Program Files\\Python311\\python.exe";
  env.kind = "system";
  env.python_version = v("3.11.9");
  EXPECT_EQ(env_pip(env), "py -3.11 -m pip");
  env.kind = "store";
  EXPECT_EQ(env_pip(env), "python3.11 -m pip");
  env.kind = "venv";
  env.interpreter = "C:\\Users\\Li Wei\\venv\\Scripts\\python.exe";
  EXPECT_EQ(env_pip(env), "& \"C:\\Users\\Li Wei\\venv\\Scripts\\python.exe\" -m pip");
  env.interpreter = "C:\\venv\\Scripts\\python.exe";
  EXPECT_EQ(env_pip(env), "C:\\venv\\Scripts\\python.exe -m pip");
}

}  // namespace
}  // namespace gpudoctor
