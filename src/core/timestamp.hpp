#pragma once
/// Times as the reports write them.
#include <cstdint>
#include <string>

namespace gpudoctor {

/// Seconds since the epoch as "YYYY-MM-DDTHH:MM:SSZ", from the calendar arithmetic alone
/// (no gmtime_r, which Windows lacks, and no time zone database).
std::string utc_timestamp(std::int64_t seconds);

}  // namespace gpudoctor
