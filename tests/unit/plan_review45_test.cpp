/// `plan` (outside review of session 45, A): a GPU the installed driver is too new to drive, JAX and
/// TensorFlow releases older than the tables' extras and packages, assumed kernel lists, and the
/// options (--driver, --python, --root) that were mangled or silently dropped.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli/option_values.hpp"
#include "kb/resolver.hpp"
#include "kb_test_support.hpp"
#include "render/plan_render.hpp"
#include "run_gpudoctor.hpp"

namespace gpudoctor {
namespace {

using testing::has_issue;
using testing::kb;

bool contains(const std::string& s, const std::string& needle) {
  return s.find(needle) != std::string::npos;
}

/// The driver guard of a bash plan script (from `drv=$(` to its `fi`), run with a stand-in
/// nvidia-smi that reports `driver`: the exit status of that part of the script.
int run_bash_guard(const std::string& script, const std::string& driver) {
  const size_t from = script.find("drv=$(");
  const size_t to = script.find("\nfi\n", from);
  if (from == std::string::npos || to == std::string::npos) return -1;
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("plan45-guard-" + driver);
  std::filesystem::create_directories(dir);
  {
    std::ofstream smi(dir / "nvidia-smi");
    smi << "#!/bin/sh\necho " << driver << "\n";
  }
  std::filesystem::permissions(dir / "nvidia-smi", std::filesystem::perms::owner_all);
  {
    std::ofstream guard(dir / "guard.sh");
    guard << "set -euo pipefail\n" << script.substr(from, to + 4 - from);
  }
  const std::string cmd =
      "PATH='" + dir.string() + "':/usr/bin:/bin bash '" + (dir / "guard.sh").string() + "' >/dev/null 2>&1";
  const int rc = std::system(cmd.c_str());
  std::filesystem::remove_all(dir);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// ---- 01: Tesla K80 (last branch 470) on driver 535 --------------------------------------------

// The plan said "✓ Best", `driver_update: false`, and its script went on to install torch on a
// machine whose driver does not load for the GPU. Changing to the legacy branch is a driver change
// like any update: never ✓, and the script stops until the driver is of that branch.
TEST(PlanReview45, DriverTooNewForTheGpuNeedsADriverChange) {
  Plan p = testing::plan_described(Platform::linux, "Tesla K80", "535.104.05", "3.10", "pytorch");
  ASSERT_TRUE(p.frameworks[0].best);
  const PlanOption& best = *p.frameworks[0].best;
  ASSERT_TRUE(has_issue(best, "driver-drops-gpu"));
  EXPECT_TRUE(best.needs_driver_update());
  const std::string text = render_plan_text(p, false);
  EXPECT_TRUE(contains(text, "! Best (after a driver update)")) << text;
  EXPECT_FALSE(contains(text, "✓ Best")) << text;
  // Every 470.xx driver is past CUDA 11's 450.80.02 floor: the branch says it all.
  EXPECT_TRUE(contains(text, "install a 470.xx driver first")) << text;
  const std::string script = render_plan_script(p, Shell::bash);
  EXPECT_EQ(run_bash_guard(script, "535.104.05"), 1) << script;
  EXPECT_EQ(run_bash_guard(script, "470.256.02"), 0) << script;
  EXPECT_FALSE(contains(script, "driver >= 450.80.02")) << script;
  // Windows numbers R470's drivers up to the next branch (495).
  Plan win = testing::plan_described(Platform::windows, "Tesla K80", "537.13", "3.10", "pytorch");
  ASSERT_TRUE(win.frameworks[0].best);
  EXPECT_TRUE(win.frameworks[0].best->needs_driver_update());
  const std::string ps = render_plan_script(win, Shell::powershell);
  EXPECT_TRUE(contains(ps, ".Major -ge 495")) << ps;
}

// Near miss: a K80 on its own branch is planned as before (✓, no guard), and a modern GPU with an
// old driver keeps the plain "older than" guard with no ceiling.
TEST(PlanReview45, DriverOfTheGpusBranchOrANewGpuUnchanged) {
  Plan k80 = testing::plan_described(Platform::linux, "Tesla K80", "470.256.02", "3.10", "pytorch");
  ASSERT_TRUE(k80.frameworks[0].best);
  EXPECT_FALSE(k80.frameworks[0].best->needs_driver_update());
  EXPECT_FALSE(contains(render_plan_script(k80, Shell::bash), "drv=$("));
  Plan rtx = testing::plan_described(Platform::linux, "RTX 5090", "535.104.05", "3.12", "pytorch");
  const std::string script = render_plan_script(rtx, Shell::bash);
  EXPECT_EQ(run_bash_guard(script, "535.104.05"), 1) << script;
  EXPECT_EQ(run_bash_guard(script, "580.65.06"), 0) << script;
}

// ---- 05: JAX releases before the tables ---------------------------------------------------------

// `jax==0.4.20` was planned as `pip install -U "jax[cuda13]==0.4.20"`: an extra that release does
// not have, so pip installed jax with no jaxlib. A release before the tables is refused, with no
// command, and never called newer than the tables.
TEST(PlanReview45, JaxBeforeTheTablesIsRefusedWithNoCommand) {
  for (const char* fw : {"jax==0.4.20", "jax[cuda12]==0.4.20", "jax<0.4.30", "jax==0.4.25"}) {
    Plan p = testing::plan_described(Platform::linux, "RTX 3090", "580.65.06", "3.10", fw);
    const FrameworkPlan& fp = p.frameworks[0];
    EXPECT_FALSE(fp.best) << fw;
    EXPECT_TRUE(fp.alternatives.empty()) << fw;
    ASSERT_FALSE(fp.rejected.empty()) << fw;
    for (const PlanOption& o : fp.rejected) EXPECT_TRUE(has_issue(o, "jax-release-before-tables")) << fw;
    const std::string text = render_plan_text(p, false);
    EXPECT_FALSE(contains(text, "==0.4.20\"")) << text;
    EXPECT_FALSE(contains(text, "CUDA 13.0")) << text;
    EXPECT_FALSE(contains(text, "tables end at")) << text;
  }
}

// Near misses: the tables' first release is planned (cuda12), a newer unknown one keeps its
// "not in the knowledge base" warning, and cuda13 before 0.7.2 stays "not released".
TEST(PlanReview45, JaxFirstTableReleaseAndNewerOnesUnchanged) {
  Plan first = testing::plan_described(Platform::linux, "RTX 3090", "580.65.06", "3.10", "jax<=0.4.30");
  ASSERT_TRUE(first.frameworks[0].best);
  EXPECT_EQ(first.frameworks[0].best->variant, "cuda12");
  Plan newer = testing::plan_described(Platform::linux, "RTX 3090", "580.65.06", "3.12", "jax==0.99.0");
  ASSERT_TRUE(newer.frameworks[0].best);
  EXPECT_TRUE(has_issue(*newer.frameworks[0].best, "jax-release-unknown"));
  Plan c13 = testing::plan_described(Platform::linux, "RTX 3090", "580.65.06", "3.10", "jax[cuda13]==0.4.30");
  ASSERT_FALSE(c13.frameworks[0].rejected.empty());
  EXPECT_TRUE(has_issue(c13.frameworks[0].rejected[0], "jax-extra-not-released"));
}

// ---- 06, 07: TensorFlow before 2.1 --------------------------------------------------------------

// `tensorflow==2.0` installed the `tensorflow` package, whose 2.0 wheels are CPU-only (build_info:
// is_cuda_build = False, Linux and Windows); the GPU build is `tensorflow-gpu`. The check step used
// tf.config.list_physical_devices, which 1.15 and 2.0 have only under tf.config.experimental.
TEST(PlanReview45, TensorflowTwoZeroInstallsTheGpuPackage) {
  Plan lin = testing::plan_described(Platform::linux, "GTX 1080", "470.82.01", "3.7", "tensorflow==2.0");
  ASSERT_TRUE(lin.frameworks[0].best);
  EXPECT_EQ(lin.frameworks[0].best->install_spec, "tensorflow-gpu==2.0.*");
  const std::string text = render_plan_text(lin, false);
  EXPECT_TRUE(contains(text, "pip install \"tensorflow-gpu==2.0.*\"")) << text;
  EXPECT_TRUE(contains(text, "tf.config.experimental.list_physical_devices('GPU')")) << text;
  Plan win = testing::plan_described(Platform::windows, "GTX 1080", "472.12", "3.7", "tensorflow==2.0");
  const std::string wtext = render_plan_text(win, false);
  EXPECT_TRUE(contains(wtext, "pip install \"tensorflow-gpu<2.1\"")) << wtext;
  Plan pinned = testing::plan_described(Platform::linux, "GTX 1080", "470.82.01", "3.7", "tensorflow==2.0.0");
  ASSERT_TRUE(pinned.frameworks[0].best);
  EXPECT_EQ(pinned.frameworks[0].best->install_spec, "tensorflow-gpu==2.0.0");
  Plan old = testing::plan_described(Platform::linux, "GTX 1080", "470.82.01", "3.7", "tensorflow==1.15");
  EXPECT_TRUE(contains(render_plan_text(old, false), "tf.config.experimental.list_physical_devices('GPU')"));
}

// Near misses: 2.1 (whose tensorflow wheel is a CUDA build) and 1.15 keep the tensorflow package;
// 2.1 and later keep tf.config.list_physical_devices.
TEST(PlanReview45, TensorflowTwoOneAndOneFifteenKeepTheirPackage) {
  Plan p21 = testing::plan_described(Platform::linux, "GTX 1080", "470.82.01", "3.7", "tensorflow==2.1");
  ASSERT_TRUE(p21.frameworks[0].best);
  EXPECT_EQ(p21.frameworks[0].best->install_spec, "tensorflow==2.1.*");
  const std::string text = render_plan_text(p21, false);
  EXPECT_TRUE(contains(text, "tf.config.list_physical_devices('GPU')")) << text;
  EXPECT_FALSE(contains(text, "experimental")) << text;
  Plan win21 = testing::plan_described(Platform::windows, "GTX 1080", "472.12", "3.7", "tensorflow==2.1");
  EXPECT_TRUE(contains(render_plan_text(win21, false), "pip install \"tensorflow<2.2\""));
  Plan p115 = testing::plan_described(Platform::linux, "GTX 1080", "470.82.01", "3.7", "tensorflow==1.15");
  ASSERT_TRUE(p115.frameworks[0].best);
  EXPECT_EQ(p115.frameworks[0].best->install_spec, "tensorflow==1.15.*");
}

// ---- 11: kernels assumed from the toolkit's list --------------------------------------------------

// "has kernels ... (assumed from its CUDA toolkit's architecture list; its own list is not
// recorded)" was shown with ✓ Best, `verified: true` and `gpu_coverage: "native"`.
TEST(PlanReview45, AssumedKernelListIsNotVerified) {
  Plan p = testing::plan_described(Platform::linux, "V100", "470.82.01", "3.12", "torch==2.3");
  ASSERT_TRUE(p.frameworks[0].best);
  const PlanOption& best = *p.frameworks[0].best;
  EXPECT_EQ(best.variant, "cu118");
  EXPECT_EQ(best.coverage, "derived");
  EXPECT_FALSE(best.verified());
  EXPECT_TRUE(has_issue(best, "gpu-arch-list-assumed"));
  const std::string text = render_plan_text(p, false);
  EXPECT_TRUE(contains(text, "! Best (not verified)")) << text;
  EXPECT_FALSE(contains(text, "✓ Best")) << text;
  Plan tf = testing::plan_described(Platform::linux, "V100", "470.82.01", "3.8", "tensorflow==2.5");
  ASSERT_TRUE(tf.frameworks[0].best);
  EXPECT_EQ(tf.frameworks[0].best->coverage, "derived");
  EXPECT_FALSE(tf.frameworks[0].best->verified());
}

// Near miss: a list read from the wheel keeps ✓ and "native".
TEST(PlanReview45, RecordedKernelListStaysVerified) {
  Plan p = testing::plan_described(Platform::linux, "RTX 4090", "580.65.06", "3.12", "pytorch");
  ASSERT_TRUE(p.frameworks[0].best);
  EXPECT_EQ(p.frameworks[0].best->coverage, "native");
  EXPECT_TRUE(p.frameworks[0].best->verified());
  EXPECT_FALSE(has_issue(*p.frameworks[0].best, "gpu-arch-list-assumed"));
}

// ---- 10: PowerShell's execution policy ----------------------------------------------------------

// A Windows venv plan ran Activate.ps1 with no word of the Restricted policy that blocks it.
TEST(PlanReview45, WindowsVenvPlanNamesTheExecutionPolicy) {
  Plan p = testing::plan_described(Platform::windows, "RTX 4090", "552.22", "3.12", "pytorch");
  const std::string text = render_plan_text(p, false);
  ASSERT_TRUE(contains(text, "Activate.ps1")) << text;
  EXPECT_TRUE(contains(text, "Set-ExecutionPolicy -Scope CurrentUser RemoteSigned")) << text;
  // Near miss: a Linux venv has no such step.
  Plan lin = testing::plan_described(Platform::linux, "RTX 4090", "580.65.06", "3.12", "pytorch");
  EXPECT_FALSE(contains(render_plan_text(lin, false), "ExecutionPolicy"));
}

// ---- 02, 04: the option parsers themselves (the binary's refusals: ResolverCli) -----------------

TEST(PlanReview45, OptionParsersRefuseWhatIsNotAVersion) {
  for (const char* d : {"535.xx", "535abc", "535.104.05abc", "99999", "0535.104.05", "535.104.05.1.2", "5350.1"})
    EXPECT_FALSE(parse_driver_option(d)) << d;
  for (const char* d : {"535.104.05", "550.54", "552.22", "535"}) EXPECT_TRUE(parse_driver_option(d)) << d;
  for (const char* py : {"03.12", "3.12.x", "3.012", "3.100", "3.12.4.1", "3.12."})
    EXPECT_FALSE(parse_python_option(py)) << py;
  for (const char* py : {"3.12", "3.12.4", "2.7", "3.9"}) EXPECT_TRUE(parse_python_option(py)) << py;
}

}  // namespace
}  // namespace gpudoctor
