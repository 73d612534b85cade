#include "core/timestamp.hpp"

#include <chrono>
#include <cstdio>

namespace gpudoctor {

std::string utc_timestamp(std::int64_t seconds) {
  using namespace std::chrono;
  const sys_seconds t{std::chrono::seconds{seconds}};
  const sys_days day = floor<days>(t);
  const year_month_day ymd{day};
  const hh_mm_ss<std::chrono::seconds> hms{t - day};
  char text[40];
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02dZ", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<int>(hms.hours().count()), static_cast<int>(hms.minutes().count()),
                static_cast<int>(hms.seconds().count()));
  return text;
}

std::optional<std::int64_t> parse_utc_timestamp(std::string_view text) {
  using namespace std::chrono;
  constexpr std::string_view shape = "dddd-dd-ddTdd:dd:ddZ";
  if (text.size() != shape.size()) return std::nullopt;
  for (size_t i = 0; i < shape.size(); ++i) {
    const bool digit = text[i] >= '0' && text[i] <= '9';
    if (shape[i] == 'd' ? !digit : text[i] != shape[i]) return std::nullopt;
  }
  auto number = [&](size_t at, size_t n) {
    int v = 0;
    for (size_t i = at; i < at + n; ++i) v = v * 10 + (text[i] - '0');
    return v;
  };
  const year_month_day ymd{year{number(0, 4)}, month{static_cast<unsigned>(number(5, 2))},
                           day{static_cast<unsigned>(number(8, 2))}};
  const int h = number(11, 2), m = number(14, 2), s = number(17, 2);
  if (!ymd.ok() || h > 23 || m > 59 || s > 60) return std::nullopt;
  return (sys_days{ymd} + hours{h} + minutes{m} + seconds{s}).time_since_epoch().count();
}

}  // namespace gpudoctor
