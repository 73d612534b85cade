// D3: a crafted ld.so.cache (174,000 entries pointing at one 8 MiB string with no NUL) took
// 8-14 s, since each lookup searched to the end of the file before checking the length bound.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>

#include "probe/version_files.hpp"

namespace gpudoctor {
namespace {

TEST(ParserCost, D3_CraftedLdSoCacheIsParsedInBoundedTime) {
  const std::uint32_t n = 174000;
  std::string data = "glibc-ld.so.cache1.1";
  auto put32 = [&](std::uint32_t v) { data.append(reinterpret_cast<const char*>(&v), 4); };
  put32(n);
  put32(0);
  data.append(20, '\0');
  const std::uint32_t off = 48 + 24 * n + 16;
  for (std::uint32_t i = 0; i < n; ++i) {
    put32(1);
    put32(off);
    put32(off);
    put32(0);
    data.append(8, '\0');
  }
  data.append((8u << 20) - data.size(), 'A');
  auto start = std::chrono::steady_clock::now();
  auto entries = parse_ld_so_cache(data);
  EXPECT_TRUE(entries.empty());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

}  // namespace
}  // namespace gpudoctor
