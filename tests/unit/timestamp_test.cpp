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

TEST(UtcTimestamp, ReadsBackWhatItWritesAndNothingElse) {
  for (std::int64_t t : {0LL, 951782400LL, 1764586683LL, 4102444799LL, -86400LL}) {
    EXPECT_EQ(parse_utc_timestamp(utc_timestamp(t)), t) << utc_timestamp(t);
  }
  for (const char* junk : {"", "2026-12-01", "2026-12-01T10:58:03", "2026-12-01 10:58:03Z", "2026-02-30T00:00:00Z",
                           "2026-13-01T00:00:00Z", "2026-12-01T24:00:00Z", "2026-12-01T10:60:00Z",
                           "+026-12-01T10:58:03Z", "2026-12-01T10:58:03Z\n", "２０26-12-01T10:58:03Z"}) {
    EXPECT_FALSE(parse_utc_timestamp(junk).has_value()) << junk;
  }
}

}  // namespace
}  // namespace gpudoctor
