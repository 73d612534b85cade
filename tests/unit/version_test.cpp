#include "core/version.hpp"

#include <gtest/gtest.h>

#include "kb_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::v;

TEST(Version, ParsesTheFieldsForms) {
  EXPECT_EQ(v("535.104.05").parts(), (std::vector<int>{535, 104, 5}));
  EXPECT_EQ(v("2.7.1+cu126").local(), "cu126");
  EXPECT_EQ(v("2.15.0.post1").post(), 1);
  EXPECT_EQ(v("2.16.0rc0").pre(), "rc0");
  EXPECT_EQ(v("v12.2").str(), "12.2");
  EXPECT_EQ(v("535.104.05").str(), "535.104.05");  // leading zeros shown as written
  EXPECT_EQ(v("535.104.05").truncated(2).str(), "535.104");
  // PEP 440's normal forms: a dev release keeps its dot, a pre-release has none.
  EXPECT_EQ(v("2.23.0.dev20261026").str(), "2.23.0.dev20261026");
  EXPECT_EQ(v("2.22.0rc0").str(), "2.22.0rc0");
}

TEST(Version, RejectsGarbage) {
  for (const char* bad : {"", "abc", "..", "\x01\x02", "1.2.3.4.5.6.7.8.9.10", "99999999999"}) {
    EXPECT_FALSE(Version::parse(bad).has_value()) << bad;
  }
}

TEST(Version, Orders) {
  EXPECT_LT(v("2.9"), v("2.10"));
  EXPECT_LT(v("2.16.0rc0"), v("2.16.0"));
  // PEP 440: .devN < aN < bN < rcN, each by its number.
  EXPECT_LT(v("1.0.dev5"), v("1.0a1"));
  EXPECT_LT(v("1.0a2"), v("1.0b1"));
  EXPECT_LT(v("1.0b9"), v("1.0rc1"));
  EXPECT_LT(v("1.0rc2"), v("1.0rc10"));
  EXPECT_LT(v("2.23.0.dev20261026"), v("2.23.0rc0"));
  // Numbers of any length, tags in any case, a dev release of a pre-release before it.
  EXPECT_LT(v("1.0.dev999999999"), v("1.0.dev1000000000"));
  EXPECT_LT(v("2.22.0rc2"), v("2.22.0RC10"));
  EXPECT_LT(v("1.0RC1"), v("1.0rc2"));
  EXPECT_EQ(v("1.0RC1"), v("1.0rc1"));
  EXPECT_LT(v("1.0a1.dev3"), v("1.0a1"));
  EXPECT_LT(v("1.0a1"), v("1.0a1.post1"));
  EXPECT_LT(v("2.15.0"), v("2.15.0.post1"));
  EXPECT_EQ(v("12.2"), v("12.2.0"));
  EXPECT_EQ(v("2.7.1+cu126"), v("2.7.1"));
}

TEST(VersionSpec, DashRangeIsInclusiveOnWrittenWidth) {
  auto s = VersionSpec::parse("3.9-3.11");
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->contains(v("3.11.9")));
  EXPECT_TRUE(s->contains(v("3.9.0")));
  EXPECT_FALSE(s->contains(v("3.12.0")));
  EXPECT_FALSE(s->contains(v("3.8.18")));
}

TEST(VersionSpec, OperatorsAndUnions) {
  auto s = VersionSpec::parse(">=3.10,<3.15");
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->contains(v("3.14.1")));
  EXPECT_FALSE(s->contains(v("3.15")));
  auto u = VersionSpec::parse("2.7, 3.5-3.7");
  ASSERT_TRUE(u);
  EXPECT_TRUE(u->contains(v("2.7.18")));
  EXPECT_FALSE(u->contains(v("3.4")));
  auto w = VersionSpec::parse("12.x");
  ASSERT_TRUE(w);
  EXPECT_TRUE(w->contains(v("12.9.1")));
  EXPECT_FALSE(w->contains(v("13.0")));
  EXPECT_FALSE(VersionSpec::parse(">=banana").has_value());
}

// Found in review.
TEST(ReviewRegression, WindowsDllSuffixIsNotAVersion) {
  EXPECT_FALSE(Version::parse("64_101").has_value());
  EXPECT_FALSE(Version::parse("64_8").has_value());
  EXPECT_TRUE(Version::parse("2.16.0rc0").has_value());
}

}  // namespace
}  // namespace gpudoctor
