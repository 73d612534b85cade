// core/utf8: telling UTF-8 from other bytes (RFC 3629's well-formed sequences only), which is
// what decides whether explain reads a log line in a Windows code page.
#include "core/utf8.hpp"

#include <gtest/gtest.h>

#include <string>

namespace gpudoctor {
namespace {

TEST(Utf8, WellFormedSequencesOnly) {
  EXPECT_EQ(invalid_utf8_at("plain ascii, longer than eight bytes"), 36u);
  EXPECT_EQ(invalid_utf8_at("\xe9\xa1\xb5 \xc3\xbc \xf0\x9f\x98\x80"), 11u);
  EXPECT_EQ(invalid_utf8_at("abcdefghij\xfc"
                            "rgen"),
            10u)
      << "code page 1252's u-umlaut";
  EXPECT_EQ(invalid_utf8_at("\xc0\xaf"), 0u) << "overlong '/'";
  EXPECT_EQ(invalid_utf8_at("\xe0\x80\xaf"), 0u) << "overlong three-byte form";
  EXPECT_EQ(invalid_utf8_at("x\xed\xa0\x80"), 1u) << "a UTF-16 surrogate";
  EXPECT_EQ(invalid_utf8_at("\xf4\x90\x80\x80"), 0u) << "above U+10FFFF";
  EXPECT_EQ(invalid_utf8_at("ab\xe9\xa1"), 2u) << "cut short";
  EXPECT_EQ(invalid_utf8_at("\xd2\xb3\xc3\xe6"), 2u) << "GBK: its first pair happens to be well formed";
}

TEST(Utf8, InvalidBytesBecomeReplacementCharacters) {
  size_t replaced = 0;
  EXPECT_EQ(replace_invalid_utf8("j\xfcrgen \xc3\xbc", replaced), "j\xef\xbf\xbdrgen \xc3\xbc");
  EXPECT_EQ(replaced, 1u);
  replaced = 0;
  EXPECT_EQ(replace_invalid_utf8("\xc0\xaf", replaced), "\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(replaced, 2u);
}

}  // namespace
}  // namespace gpudoctor
