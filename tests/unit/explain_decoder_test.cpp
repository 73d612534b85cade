// LogDecoder: encodings, line ends, escape codes, junk, and huge lines in bounded memory.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "explain/log_decoder.hpp"

namespace gpudoctor {
namespace {

struct Collected {
  std::vector<std::string> lines;
  std::vector<std::uint64_t> numbers;
};

Collected decode_in_chunks(const std::string& bytes, size_t chunk, LogDecoderStats* stats = nullptr) {
  Collected c;
  LogDecoder d([&](std::string_view line, std::uint64_t n) {
    c.lines.emplace_back(line);
    c.numbers.push_back(n);
  });
  for (size_t i = 0; i < bytes.size(); i += chunk) d.feed(std::string_view(bytes).substr(i, chunk));
  d.finish();
  if (stats) *stats = d.stats();
  return c;
}

std::string utf16(const std::u16string& s, bool le, bool bom) {
  std::string out;
  auto put = [&](char16_t u) {
    if (le) {
      out.push_back(static_cast<char>(u & 0xff));
      out.push_back(static_cast<char>(u >> 8));
    } else {
      out.push_back(static_cast<char>(u >> 8));
      out.push_back(static_cast<char>(u & 0xff));
    }
  };
  if (bom) put(0xfeff);
  for (char16_t u : s) put(u);
  return out;
}

TEST(ExplainDecoder, EmptyInputGivesNoLines) {
  LogDecoderStats st;
  auto c = decode_in_chunks("", 1, &st);
  EXPECT_TRUE(c.lines.empty());
  EXPECT_EQ(st.lines, 0u);
}

TEST(ExplainDecoder, SplitsLinesAndKeepsLastWithoutNewline) {
  for (size_t chunk : {1, 2, 3, 7, 1000}) {
    auto c = decode_in_chunks("one\ntwo\r\n\nthree", chunk);
    ASSERT_EQ(c.lines.size(), 4u) << chunk;
    EXPECT_EQ(c.lines[0], "one");
    EXPECT_EQ(c.lines[1], "two");
    EXPECT_EQ(c.lines[2], "");
    EXPECT_EQ(c.lines[3], "three");
    EXPECT_EQ(c.numbers[3], 4u);
  }
}

TEST(ExplainDecoder, StripsAnsiEscapes) {
  const std::string in = "\x1b[1;31mERROR\x1b[0m: \x1b]8;;http://x\x07link\x1b]8;;\x07 done\x1b[K\n\x1b(Bplain\n";
  for (size_t chunk : {1, 5, 100}) {
    auto c = decode_in_chunks(in, chunk);
    ASSERT_EQ(c.lines.size(), 2u);
    EXPECT_EQ(c.lines[0], "ERROR: link done");
    EXPECT_EQ(c.lines[1], "plain");
  }
}

// What a terminal shows as one line redrawn: each redraw is read on its own (a message after
// 40 KiB of redraws is not cut off), under the one line number an editor gives the line.
TEST(ExplainDecoder, ProgressBarRedrawsArePartsOfOneLine) {
  for (size_t chunk : {1, 2, 3, 1000}) {
    LogDecoderStats st;
    auto c = decode_in_chunks("10%\r50%\r100%\r\nnext\n\r\r\nlast\r", chunk, &st);
    ASSERT_EQ(c.lines.size(), 6u) << chunk;
    EXPECT_EQ(c.lines[0], "10%");
    EXPECT_EQ(c.lines[1], "50%");
    EXPECT_EQ(c.lines[2], "100%");
    EXPECT_EQ(c.lines[3], "next");
    EXPECT_EQ(c.lines[4], "");
    EXPECT_EQ(c.lines[5], "last");
    EXPECT_EQ(c.numbers, (std::vector<std::uint64_t>{1, 1, 1, 2, 3, 4})) << chunk;
    EXPECT_EQ(st.lines, 4u);
  }
  // CRLF lines, empty ones included, are what they were.
  auto crlf = decode_in_chunks("a\r\n\r\nb\r\n", 1);
  ASSERT_EQ(crlf.lines.size(), 3u);
  EXPECT_EQ(crlf.lines[1], "");
  EXPECT_EQ(crlf.numbers, (std::vector<std::uint64_t>{1, 2, 3}));
}

TEST(ExplainDecoder, Utf16LittleEndianWithBomAsPowerShellWrites) {
  const std::string bytes =
      utf16(u"Could not load 'cudnn64_8.dll'\r\nZweite Zeile: \u00e4\u00f6\u00fc \U0001F600\r\n", true, true);
  for (size_t chunk : {1, 3, 4096}) {
    LogDecoderStats st;
    auto c = decode_in_chunks(bytes, chunk, &st);
    EXPECT_EQ(st.encoding, LogEncoding::utf16le);
    ASSERT_EQ(c.lines.size(), 2u) << chunk;
    EXPECT_EQ(c.lines[0], "Could not load 'cudnn64_8.dll'");
    EXPECT_EQ(c.lines[1], "Zweite Zeile: \xc3\xa4\xc3\xb6\xc3\xbc \xf0\x9f\x98\x80");
  }
}

TEST(ExplainDecoder, Utf16BigEndianAndWithoutBom) {
  LogDecoderStats st;
  auto be = decode_in_chunks(utf16(u"abc\ndef", false, true), 2, &st);
  EXPECT_EQ(st.encoding, LogEncoding::utf16be);
  ASSERT_EQ(be.lines.size(), 2u);
  EXPECT_EQ(be.lines[1], "def");
  auto le = decode_in_chunks(utf16(u"TF log\nline", true, false), 1, &st);
  EXPECT_EQ(st.encoding, LogEncoding::utf16le);
  ASSERT_EQ(le.lines.size(), 2u);
  EXPECT_EQ(le.lines[0], "TF log");
}

TEST(ExplainDecoder, Utf8BomIsDropped) {
  auto c = decode_in_chunks("\xef\xbb\xbfhello\n", 1);
  ASSERT_EQ(c.lines.size(), 1u);
  EXPECT_EQ(c.lines[0], "hello");
}

TEST(ExplainDecoder, UnpairedSurrogatesBecomeReplacementCharacters) {
  std::u16string s = u"a";
  s.push_back(static_cast<char16_t>(0xd800));
  s += u"b";
  s.push_back(static_cast<char16_t>(0xdc00));
  auto c = decode_in_chunks(utf16(s, true, true), 1);
  ASSERT_EQ(c.lines.size(), 1u);
  EXPECT_EQ(c.lines[0],
            "a\xef\xbf\xbd"
            "b\xef\xbf\xbd");
}

TEST(ExplainDecoder, BinaryJunkIsCleanedNotFatal) {
  std::string junk;
  unsigned state = 12345;
  for (int i = 0; i < 200000; ++i) {
    state = state * 1103515245u + 12345u;
    junk.push_back(static_cast<char>(state >> 16));
  }
  LogDecoderStats st;
  auto c = decode_in_chunks(junk, 4093, &st);
  EXPECT_GT(st.control_bytes, 0u);
  for (const auto& l : c.lines) {
    EXPECT_LE(l.size(), LogDecoder::kMaxLineBytes);
    for (unsigned char ch : l) EXPECT_TRUE(ch >= 0x20 || ch == '\t') << int(ch);
  }
}

TEST(ExplainDecoder, HundredMegabyteLineInBoundedMemoryAndTime) {
  // A 100 MB line, fed in 1 MiB chunks: only kMaxLineBytes is ever kept.
  const size_t total = 100u << 20;
  std::string chunk(1 << 20, 'x');
  chunk.replace(100, 20, "Could not load lib X");
  Collected c;
  size_t longest = 0;
  LogDecoder d([&](std::string_view line, std::uint64_t) {
    longest = std::max(longest, line.size());
    c.lines.emplace_back(line.substr(0, 40));
  });
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t fed = 0; fed < total; fed += chunk.size()) d.feed(chunk);
  d.feed("\nafter\n");
  d.finish();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(c.lines.size(), 2u);
  EXPECT_EQ(longest, LogDecoder::kMaxLineBytes);
  EXPECT_EQ(c.lines[1], "after");
  EXPECT_EQ(d.stats().lines_truncated, 1u);
  EXPECT_LT(s, 10.0) << "100 MB line took " << s << " s";
}

}  // namespace
}  // namespace gpudoctor
