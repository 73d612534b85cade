/// A patch release pinned in `plan --framework` ("torch==2.5.1", "tensorflow==2.15.1"), as every
/// requirements file and guide writes it. The tables hold PyTorch and TensorFlow by series (2.5),
/// and until 2026-12-06 a series matched only a pin to its ".0": `torch==2.5.1` was "Nothing that
/// matches 'torch==2.5.1' can use the GPU on this machine" and the plan offered 2.15 instead.
/// Now a series matches a range that admits one of its releases, the install command pins the
/// release asked for, and a pin to a release PyPI never had (by the harvested list of releases)
/// is blocked, not planned as its series.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/version.hpp"
#include "kb/data_files.hpp"
#include "kb/resolver.hpp"
#include "kb_test_support.hpp"
#include "model/plan.hpp"

namespace gpudoctor {
namespace {

using testing::plan_described;

VersionSpec plan_pins_spec(const char* text) {
  auto s = VersionSpec::parse(text);
  EXPECT_TRUE(s) << text;
  return s.value_or(*VersionSpec::parse("any"));
}

bool plan_pins_installs(const PlanOption& o, const std::string& words) {
  for (const PlanStep& s : o.steps) {
    for (const PlanCommand& c : s.commands) {
      if (c.line.find(words) != std::string::npos) return true;
    }
  }
  return false;
}

TEST(PlanPins, ASeriesIsAdmittedByAnyRangeThatHoldsOneOfItsReleases) {
  const Version s25 = testing::v("2.5");
  EXPECT_TRUE(plan_pins_spec("==2.5.1").admits_series(s25));
  EXPECT_TRUE(plan_pins_spec("==2.5").admits_series(s25));
  EXPECT_TRUE(plan_pins_spec(">=2.5.1,<2.6").admits_series(s25));
  EXPECT_TRUE(plan_pins_spec(">2.5.1").admits_series(s25));
  EXPECT_TRUE(plan_pins_spec("!=2.5.0,<2.6").admits_series(s25));
  EXPECT_TRUE(plan_pins_spec("<=2.5.0").admits_series(s25));
  EXPECT_FALSE(plan_pins_spec("==2.6.1").admits_series(s25));
  EXPECT_FALSE(plan_pins_spec(">=2.6").admits_series(s25));
  EXPECT_FALSE(plan_pins_spec("<2.5").admits_series(s25));
  EXPECT_FALSE(plan_pins_spec("<2.5.0").admits_series(s25));
  EXPECT_FALSE(plan_pins_spec("==2.4.1").admits_series(s25));
}

TEST(PlanPins, TorchPatchPinIsPlannedAndInstalledAsPinned) {
  Plan p = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "torch==2.5.1");
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best);
  EXPECT_EQ(fp.best->version, testing::v("2.5"));
  EXPECT_TRUE(plan_pins_installs(*fp.best, "\"torch==2.5.1\"")) << fp.best->install_spec;
  EXPECT_FALSE(plan_pins_installs(*fp.best, "torch==2.5.*"));
  // The near miss: a series pin still installs the series.
  Plan series = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "torch==2.5");
  ASSERT_TRUE(series.frameworks[0].best);
  EXPECT_TRUE(plan_pins_installs(*series.frameworks[0].best, "\"torch==2.5.*\""));
}

TEST(PlanPins, TensorflowPatchPinIsPlannedAndInstalledAsPinned) {
  Plan p = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "tensorflow==2.15.0");
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best);
  EXPECT_EQ(fp.best->version, testing::v("2.15"));
  EXPECT_TRUE(plan_pins_installs(*fp.best, "tensorflow[and-cuda]==2.15.0\"")) << fp.best->install_spec;
  // 2.15.0's [and-cuda] pinned tensorrt, which does not resolve: said, and no ✓.
  EXPECT_TRUE(testing::has_issue(*fp.best, "and-cuda-release-not-recommended"));
  EXPECT_FALSE(fp.best->verified());
  Plan range = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "tensorflow>=2.15.1,<2.16");
  ASSERT_TRUE(range.frameworks[0].best);
  EXPECT_EQ(range.frameworks[0].best->version, testing::v("2.15"));
}

TEST(PlanPins, APinToAReleasePypiNeverHadIsBlocked) {
  ASSERT_FALSE(builtin_released_versions("torch").empty());
  Plan p = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "torch==2.5.7");
  const FrameworkPlan& fp = p.frameworks[0];
  EXPECT_FALSE(fp.best) << fp.best->summary();
  ASSERT_FALSE(fp.rejected.empty());
  EXPECT_TRUE(testing::has_issue(fp.rejected.front(), "release-not-published"));
  bool names_real = std::any_of(fp.rejected.front().issues.begin(), fp.rejected.front().issues.end(),
                                [](const PlanIssue& i) { return i.message.find("2.5.1") != std::string::npos; });
  EXPECT_TRUE(names_real);
}

// The re-read's findings (2026-12-06): a range decided by made-up versions, ~= read as a pin,
// PEP 440's zero padding, and the and-cuda note on a patch pin.
TEST(PlanPins, ARangeIsDecidedByTheSeriesReleasesNotMadeUpOnes) {
  // 2.5's releases are 2.5.0 and 2.5.1: nothing of 2.5 is >=2.5.3.
  Plan none = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "torch>=2.5.3,<2.6");
  EXPECT_FALSE(none.frameworks[0].best) << none.frameworks[0].best->summary();
  // 2.15.0 is 2.15's only release: excluding it excludes the series.
  Plan excl = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "torch!=2.15.0");
  ASSERT_TRUE(excl.frameworks[0].best);
  EXPECT_NE(excl.frameworks[0].best->version, testing::v("2.15"));
  // A range that leaves part of the series out installs the newest release inside it.
  Plan part = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "torch>=2.5.1,<2.6");
  ASSERT_TRUE(part.frameworks[0].best);
  EXPECT_TRUE(plan_pins_installs(*part.frameworks[0].best, "\"torch==2.5.1\""));
  Plan below = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "torch<2.5.1,>=2.5");
  ASSERT_TRUE(below.frameworks[0].best);
  EXPECT_TRUE(plan_pins_installs(*below.frameworks[0].best, "\"torch==2.5.0\""));
}

TEST(PlanPins, CompatibleReleaseIsARangeAndZeroPaddingIsTheSameRelease) {
  Plan compat = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "torch~=2.5.0");
  ASSERT_TRUE(compat.frameworks[0].best);
  EXPECT_FALSE(plan_pins_installs(*compat.frameworks[0].best, "torch==2.5.0\""));
  Plan padded = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "torch==2.5.1.0");
  ASSERT_TRUE(padded.frameworks[0].best);
  EXPECT_FALSE(testing::has_issue(*padded.frameworks[0].best, "release-not-published"));
}

TEST(PlanPins, AndCudaPatchPinKeepsTheExtraWithoutANote) {
  Plan p = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "tensorflow[and-cuda]==2.15.1");
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best);
  EXPECT_EQ(fp.best->variant, "and-cuda");
  for (const std::string& n : fp.notes) EXPECT_EQ(n.find("has no and-cuda extra"), std::string::npos) << n;
}

TEST(PlanPins, ARequestOutsideTheTablesSaysSo) {
  Plan p = plan_described(Platform::linux, "RTX 3060", "535.54.03", "3.9", "torch==1.13.1");
  const FrameworkPlan& fp = p.frameworks[0];
  EXPECT_FALSE(fp.best);
  bool said = std::any_of(fp.notes.begin(), fp.notes.end(), [](const std::string& n) {
    return n.find("the knowledge base holds PyTorch 2.0") != std::string::npos;
  });
  EXPECT_TRUE(said);
}

// pip reads a requirement zero-padded (PEP 440): "<=2.5" is "<=2.5.0" and leaves 2.5.1 out, ">2.5"
// takes 2.5.1, "!=2.5" drops 2.5.0 only. Until 2026-12-07 the plan compared on the components
// written, as the tables do: `torch<=2.5` installed "torch==2.5.*" (2.5.1, which the request
// excludes), `torch>2.5,<2.6` found nothing, and `torch==2` was any 2.x (planned 2.14).
TEST(PlanPins, RequestBoundsCompareZeroPaddedAsPipDoes) {
  auto req = [](const char* text) {
    auto s = VersionSpec::parse_requirement(text);
    EXPECT_TRUE(s) << text;
    return s.value_or(*VersionSpec::parse("any"));
  };
  EXPECT_FALSE(req("<=2.5").contains(testing::v("2.5.1")));
  EXPECT_TRUE(req("<=2.5").contains(testing::v("2.5.0")));
  EXPECT_TRUE(req(">2.5").contains(testing::v("2.5.1")));
  EXPECT_FALSE(req(">2.5").contains(testing::v("2.5.0")));
  EXPECT_FALSE(req(">2.5").contains(testing::v("2.5")));
  EXPECT_TRUE(req("!=2.5").contains(testing::v("2.5.1")));
  EXPECT_FALSE(req("!=2.5").contains(testing::v("2.5.0")));
  // Unchanged: the bounds pip also reads on what is written, and the wildcards.
  EXPECT_TRUE(req(">=2.5").contains(testing::v("2.5.0")));
  EXPECT_FALSE(req("<2.5").contains(testing::v("2.5.1")));
  EXPECT_FALSE(req("!=2.5.*").contains(testing::v("2.5.1")));
  EXPECT_TRUE(req("~=2.5").contains(testing::v("2.9.1")));
  EXPECT_FALSE(req("~=2.5").contains(testing::v("3.0")));
  // This tool's convention: "==2.5" names the series 2.5; "==2" is "==2.0", the series 2.0.
  EXPECT_TRUE(req("==2.5").contains(testing::v("2.5.1")));
  EXPECT_TRUE(req("==2").contains(testing::v("2.0.1")));
  EXPECT_FALSE(req("==2").contains(testing::v("2.5.1")));
  // Pre-release tags count in the whole-version bounds (the session 42 re-read): pip's 2.5.0 is
  // above 2.5.0rc1.
  EXPECT_TRUE(req(">2.5.0rc1").contains(testing::v("2.5.0")));
  EXPECT_FALSE(req("<=2.5.0rc1").contains(testing::v("2.5.0")));
  EXPECT_TRUE(req("<=2.5.0rc1").contains(testing::v("2.4.1")));
  // A wildcard goes only with == and != (PEP 440; pip refuses "<=2.5.*").
  for (const char* bad : {"<=2.5.*", ">2.5.*", "~=2.5.*", ">=2.5.*", "<2.5.*"}) {
    EXPECT_FALSE(VersionSpec::parse_requirement(bad)) << bad;
  }
  EXPECT_TRUE(VersionSpec::parse("<=2.5.*")) << "the tables' reading keeps its wildcards";
  // The tables' reading is untouched.
  EXPECT_TRUE(plan_pins_spec("<=2.5").contains(testing::v("2.5.1")));
}

TEST(PlanPins, AnUpperBoundWithoutAPatchInstallsWhatPipWouldAccept) {
  Plan p = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "torch<=2.5");
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best);
  EXPECT_EQ(fp.best->version, testing::v("2.5"));
  EXPECT_TRUE(plan_pins_installs(*fp.best, "\"torch==2.5.0\"")) << fp.best->install_spec;
  EXPECT_FALSE(plan_pins_installs(*fp.best, "torch==2.5.*"));
  Plan above = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "torch>2.5,<2.6");
  ASSERT_TRUE(above.frameworks[0].best);
  EXPECT_EQ(above.frameworks[0].best->version, testing::v("2.5"));
  EXPECT_TRUE(plan_pins_installs(*above.frameworks[0].best, "\"torch==2.5.1\""));
}

TEST(PlanPins, AOneComponentPinNamesItsDotZeroSeries) {
  Plan p = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "torch==2");
  const FrameworkPlan& fp = p.frameworks[0];
  ASSERT_TRUE(fp.best);
  EXPECT_EQ(fp.best->version, testing::v("2.0"));
}

// A pre-release bound (the session 42 re-read): ">2.5.0rc1,<2.5.1" is pip's 2.5.0, which the
// plan said no release of the knowledge base matched.
TEST(PlanPins, APreReleaseBoundComparesWithItsTag) {
  Plan p = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "torch>2.5.0rc1,<2.5.1");
  ASSERT_TRUE(p.frameworks[0].best);
  EXPECT_EQ(p.frameworks[0].best->version, testing::v("2.5"));
  EXPECT_TRUE(plan_pins_installs(*p.frameworks[0].best, "\"torch==2.5.0\""));
}

// "<=2.13" stops inside the series even where the harvest saw only 2.13.0: a 2.13.1 published later
// is outside the request, so the plan pins 2.13.0 rather than writing "torch==2.13.*".
TEST(PlanPins, AnUpperBoundInsideASeriesPinsEvenItsOnlyRelease) {
  const std::vector<Version> torch = builtin_released_versions("torch");
  const size_t in_213 =
      std::count_if(torch.begin(), torch.end(), [](const Version& r) { return r.same_series(testing::v("2.13"), 2); });
  ASSERT_GE(in_213, 1U);
  Plan p = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "torch<=2.13");
  ASSERT_TRUE(p.frameworks[0].best);
  EXPECT_EQ(p.frameworks[0].best->version, testing::v("2.13"));
  EXPECT_TRUE(plan_pins_installs(*p.frameworks[0].best, "\"torch==2.13.0\"")) << p.frameworks[0].best->install_spec;
  // The near miss: below the next series, the series' later releases are in the request.
  Plan below = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "torch<2.14");
  ASSERT_TRUE(below.frameworks[0].best);
  EXPECT_EQ(below.frameworks[0].best->version, testing::v("2.13"));
  EXPECT_TRUE(plan_pins_installs(*below.frameworks[0].best, "\"torch==2.13.*\""));
}

// JAX's rows hold runs of releases (0.6.0 to 0.6.2); a request that ends inside a run is planned as
// the newest release it holds, as pip installs it (was: the run's last, 0.6.2, for "<=0.6").
TEST(PlanPins, JaxRangeEndingInsideARunIsItsNewestReleaseThere) {
  Plan p = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "jax[cuda12]<=0.6");
  ASSERT_TRUE(p.frameworks[0].best);
  EXPECT_EQ(p.frameworks[0].best->version, testing::v("0.6.0"));
  Plan lt = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "jax[cuda12]<0.6.2");
  ASSERT_TRUE(lt.frameworks[0].best);
  EXPECT_EQ(lt.frameworks[0].best->version, testing::v("0.6.1"));
  Plan whole = plan_described(Platform::linux, "RTX 4090", "580.65", "3.11", "jax[cuda12]<0.7");
  ASSERT_TRUE(whole.frameworks[0].best);
  EXPECT_EQ(whole.frameworks[0].best->version, testing::v("0.6.2"));
}

}  // namespace
}  // namespace gpudoctor
