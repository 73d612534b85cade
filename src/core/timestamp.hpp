#pragma once
/// Times as the reports write them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor {

/// Seconds since the epoch as "YYYY-MM-DDTHH:MM:SSZ", from the calendar arithmetic alone
/// (no gmtime_r, which Windows lacks, and no time zone database).
std::string utc_timestamp(std::int64_t seconds);

/// The inverse: seconds since the epoch from exactly "YYYY-MM-DDTHH:MM:SSZ" with a real date and
/// time; nothing for anything else (the text is from another machine's report).
std::optional<std::int64_t> parse_utc_timestamp(std::string_view text);

}  // namespace gpudoctor
