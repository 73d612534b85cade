// LogDecoder: encodings, line ends, escape codes, junk, and huge lines in bounded memory.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "core/utf8.hpp"
#include "explain/log_decoder.hpp"

namespace gpudoctor {
namespace {

struct Collected {
  std::vector<std::string> lines;
  std::vector<std::uint64_t> numbers;
  std::vector<std::string> tails;  ///< each line's last bytes, where a test keeps them
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

// Found in review: Windows PowerShell 5 writes UTF-16LE; without a BOM (a copy, `tail`) and with
// a line of Chinese first, the first units have no zero byte, yet the log is UTF-16.
TEST(ExplainDecoder, Utf16WithoutBomStartingWithChinese) {
  const std::u16string text =
      u"\u9519\u8bef\uff1a\u9875\u9762\u6587\u4ef6\u592a\u5c0f\r\nOSError: [WinError 1455] The paging file\r\n";
  for (size_t chunk : {1, 5, 4096}) {
    LogDecoderStats st;
    auto c = decode_in_chunks(utf16(text, true, false), chunk, &st);
    EXPECT_EQ(st.encoding, LogEncoding::utf16le) << chunk;
    ASSERT_EQ(c.lines.size(), 2u) << chunk;
    EXPECT_EQ(c.lines[1], "OSError: [WinError 1455] The paging file");
  }
}

// Python on Windows writes redirected output in the ANSI code page: the localised system
// messages and the user's paths come in GBK, Shift-JIS, UHC or code page 1252 bytes.
TEST(ExplainDecoder, LinesInAWindowsCodePageAreReadInIt) {
  struct Case {
    const char* bytes;
    const char* utf8;
    Codepage page;
  };
  const Case cases[] = {
      {"OSError: "
       "\xd2\xb3\xc3\xe6\xce\xc4\xbc\xfe\xcc\xab\xd0\xa1\xa3\xac\xce\xde\xb7\xa8\xcd\xea\xb3\xc9\xb2\xd9\xd7\xf7\xa1"
       "\xa3 (os error 1455)",
       "OSError: 页面文件太小，无法完成操作。 (os error 1455)", Codepage::gbk},
      {"ImportError: DLL load failed while importing _C: "
       "\x83\x79\x81\x5b\x83\x57\x83\x93\x83\x4f\x20\x83\x74\x83\x40\x83\x43\x83\x8b\x82\xaa\x8f\xac\x82\xb3"
       "\x82\xb7\x82\xac\x82\xe9\x82\xbd\x82\xdf\x81\x41\x82\xb1\x82\xcc\x91\x80\x8d\xec\x82\xf0\x8a\xae\x97\xb9"
       "\x82\xc5\x82\xab\x82\xdc\x82\xb9\x82\xf1\x81\x42",
       "ImportError: DLL load failed while importing _C: ページング "
       "ファイルが小さすぎるため、この操作を完了できません。",
       Codepage::shift_jis},
      {"OSError: [WinError 126] "
       "\xc1\xf6\xc1\xa4\xb5\xc8\x20\xb8\xf0\xb5\xe2\xc0\xbb\x20\xc3\xa3\xc0\xbb\x20\xbc\xf6\x20"
       "\xbe\xf8\xbd\xc0\xb4\xcf\xb4\xd9\x2e",
       "OSError: [WinError 126] 지정된 모듈을 찾을 수 없습니다.", Codepage::uhc},
      {"Error loading \"C:\\Users\\j\xfcrgen\\torch\\lib\\c10.dll\"",
       "Error loading \"C:\\Users\\jürgen\\torch\\lib\\c10.dll\"", Codepage::cp1252},
  };
  for (const Case& k : cases) {
    EXPECT_EQ(guess_codepage(k.bytes), k.page) << k.utf8;
    LogDecoderStats st;
    auto c = decode_in_chunks(std::string("first line\n") + k.bytes + "\n", 3, &st);
    ASSERT_EQ(c.lines.size(), 2u);
    EXPECT_EQ(c.lines[1], k.utf8);
    EXPECT_EQ(st.lines_recoded, 1u);
    EXPECT_EQ(st.codepage, describe(k.page));
    EXPECT_EQ(st.bytes_replaced, 0u);
  }
}

// UTF-8 that is valid stays as it is, and a UTF-8 line cut at the length limit inside a
// character is not taken for another encoding: the cut character is dropped.
TEST(ExplainDecoder, ValidOrCutUtf8IsNotRecoded) {
  LogDecoderStats st;
  auto c = decode_in_chunks("找不到指定的模块。 ü é\n", 4096, &st);
  ASSERT_EQ(c.lines.size(), 1u);
  EXPECT_EQ(c.lines[0], "找不到指定的模块。 ü é");
  EXPECT_EQ(st.lines_recoded, 0u);
  EXPECT_TRUE(st.codepage.empty());
  std::string longline = "x";
  for (int i = 0; i < 10000; ++i) longline += "\xc3\xa9";  // é: the 16 KiB cut falls inside one
  auto cut = decode_in_chunks(longline + "\nnext\n", 4096, &st);
  ASSERT_EQ(cut.lines.size(), 3u) << "the head, the tail, the next line";
  EXPECT_EQ(st.lines_truncated, 1u);
  EXPECT_EQ(st.lines_recoded, 0u);
  EXPECT_EQ(st.bytes_replaced, 0u);
  EXPECT_EQ(cut.lines[0].size(), LogDecoder::kMaxLineBytes - 1);
  // The tail starts at a character, not inside one.
  EXPECT_EQ(cut.lines[1].substr(0, 2), "\xc3\xa9");
  // The tail holds only bytes past the head: 20001 - 16384, less the cut character's last byte.
  EXPECT_EQ(cut.lines[1].size(), longline.size() - LogDecoder::kMaxLineBytes - 1);
}

// Found in review (2026-12-05): a GBK line longer than 16 KiB whose cut fell between the two
// bytes of a character made the first part look malformed, so the whole log was read as code page
// 1252 (the next lines' Chinese became mojibake, their captures lost); the kept end of the line
// starts with that character's second byte.
TEST(ExplainDecoder, AWindowsCodePageLineCutInsideACharacter) {
  std::string longline = "x";
  for (int i = 0; i < 10000; ++i) longline += "\xce\xc4";  // 文: the cut falls between its bytes
  const std::string later =
      "OSError: \xd2\xb3\xc3\xe6\xce\xc4\xbc\xfe\xcc\xab\xd0\xa1\xa3\xac\xce\xde\xb7\xa8\xcd\xea\xb3\xc9\xb2\xd9"
      "\xd7\xf7\xa1\xa3 (os error 1455)";
  LogDecoderStats st;
  auto c = decode_in_chunks(longline + "\n" + later + "\n", 4096, &st);
  ASSERT_EQ(c.lines.size(), 3u) << "the head, the tail, the next line";
  EXPECT_EQ(st.codepage, describe(Codepage::gbk));
  EXPECT_EQ(st.bytes_replaced, 0u);
  std::string head = "x";  // 8191 whole characters kept, of which 5461 fit the cap read as UTF-8
  for (int i = 0; i < 5461; ++i) head += "文";
  EXPECT_EQ(c.lines[0], head);
  std::string tail;
  for (int i = 0; i < 1808; ++i) tail += "文";
  EXPECT_EQ(c.lines[1], tail);
  EXPECT_EQ(c.lines[2], "OSError: 页面文件太小，无法完成操作。 (os error 1455)");
}

// Found by the fuzzer (2026-12-06, tests/fuzz/findings/): a line in code page 1252 or GBK grows
// when read as UTF-8 (an accented letter takes two bytes, a hanzi three), so a kept 16 KiB became a
// delivered line of up to 48 KiB, past the cap every later stage relies on. The cap is on what is
// delivered: a recoded head keeps its start, a recoded tail its end, each cut between characters.
TEST(ExplainDecoder, ARecodedLineStaysWithinTheCap) {
  std::string accented(20000, '\xe9');  // é in code page 1252: one byte, two in UTF-8
  accented += " RuntimeError: the end";
  auto c = decode_in_chunks("caf\xe9\n" + accented + "\n", 4096);
  ASSERT_EQ(c.lines.size(), 3u) << "the first line, then the long one's head and tail";
  EXPECT_EQ(c.lines[0], "café");
  for (const auto& l : c.lines) {
    EXPECT_LE(l.size(), LogDecoder::kMaxLineBytes);
    EXPECT_EQ(invalid_utf8_at(l), l.size()) << "not cut inside a character";
  }
  EXPECT_EQ(c.lines[1].substr(0, 4), "éé");
  EXPECT_GE(c.lines[1].size(), LogDecoder::kMaxLineBytes - 1);
  EXPECT_TRUE(c.lines[2].ends_with("éé RuntimeError: the end")) << "the tail keeps its end";

  // A line under the cap in GBK (two bytes a hanzi) but over it in UTF-8 (three): its start and
  // its end, as two parts under its number, as an over-long line comes.
  std::string gbk;
  for (int i = 0; i < 6000; ++i) gbk += "\xce\xc4";          // 文
  gbk += " RuntimeError: \xcf\xd4\xb4\xe6\xb2\xbb\xd7\xe3";  // 显存不足
  auto g = decode_in_chunks(gbk + "\nafter\n", 1000);
  ASSERT_EQ(g.lines.size(), 3u);
  EXPECT_EQ(g.numbers, (std::vector<std::uint64_t>{1, 1, 2}));
  EXPECT_EQ(g.lines[0].size(), LogDecoder::kMaxLineBytes - 1) << "5461 whole hanzi";
  EXPECT_TRUE(g.lines[1].ends_with("文文 RuntimeError: 显存不足")) << g.lines[1].substr(0, 20);
  EXPECT_EQ(g.lines[0].size() + g.lines[1].size(), 6000u * 3 + std::string(" RuntimeError: 显存不足").size())
      << "nothing lost, nothing twice";
  EXPECT_EQ(g.lines[2], "after");

  // Past twice the cap read as UTF-8 (16000 bytes of euro signs, 3 bytes each) the middle is
  // lost: the line counts as truncated, so the report says so.
  LogDecoderStats euro_stats;
  auto e = decode_in_chunks(std::string(16000, '\x80') + "\n", 4096, &euro_stats);
  ASSERT_EQ(e.lines.size(), 2u);
  EXPECT_EQ(euro_stats.lines_truncated, 1u);
  LogDecoderStats gbk_stats;
  (void)decode_in_chunks(gbk + "\n", 1000, &gbk_stats);
  EXPECT_EQ(gbk_stats.lines_truncated, 0u) << "within twice the cap nothing is lost";
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
  // A 100 MB line, fed in 1 MiB chunks: only its first and last kMaxLineBytes are kept, and
  // come as two parts of line 1.
  const size_t total = 100u << 20;
  std::string chunk(1 << 20, 'x');
  chunk.replace(100, 20, "Could not load lib X");
  std::string last = chunk;
  last.replace(last.size() - 30, 30, "RuntimeError: CUDA out of mem.");
  Collected c;
  size_t longest = 0;
  LogDecoder d([&](std::string_view line, std::uint64_t n) {
    longest = std::max(longest, line.size());
    c.lines.emplace_back(line.substr(0, 40));
    c.tails.emplace_back(line.substr(line.size() < 30 ? 0 : line.size() - 30));
    c.numbers.push_back(n);
  });
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t fed = 0; fed + chunk.size() < total; fed += chunk.size()) d.feed(chunk);
  d.feed(last);
  d.feed("\nafter\n");
  d.finish();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(c.lines.size(), 3u);
  EXPECT_EQ(longest, LogDecoder::kMaxLineBytes);
  EXPECT_EQ(c.lines[0].substr(0, 10), "xxxxxxxxxx");
  EXPECT_EQ(c.tails.at(1), "RuntimeError: CUDA out of mem.") << "the line's end is read";
  EXPECT_EQ(c.numbers.at(1), 1u);
  EXPECT_EQ(c.lines[2], "after");
  EXPECT_EQ(d.stats().lines_truncated, 1u);
  EXPECT_LT(s, 10.0) << "100 MB line took " << s << " s";
}

}  // namespace
}  // namespace gpudoctor
