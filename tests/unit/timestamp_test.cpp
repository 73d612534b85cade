// core/timestamp: calendar arithmetic that replaced gmtime_r (absent on Windows).
#include "core/timestamp.hpp"

#include <gtest/gtest.h>

namespace gpudoctor {
namespace {

TEST(UtcTimestamp, EpochAndKnownInstants) {
  EXPECT_EQ(utc_timestamp(0), "1970-01-01T00:00:00Z");
  // date -u -d @1764590400: a leap-year February and a day's last second
  EXPECT_EQ(utc_timestamp(1764590400), "2025-12-01T12:00:00Z");
  EXPECT_EQ(utc_timestamp(951868799), "2000-02-29T23:59:59Z");
  EXPECT_EQ(utc_timestamp(4102444800), "2100-01-01T00:00:00Z");
}

TEST(UtcTimestamp, BeforeTheEpoch) {
  EXPECT_EQ(utc_timestamp(-1), "1969-12-31T23:59:59Z");
}

}  // namespace
}  // namespace gpudoctor
