#pragma once
/// LogDecoder: turns the raw bytes of a log (a file, a pipe, a command's output) into clean
/// UTF-8 lines, streaming and in bounded memory. Logs come as people have them: UTF-8 with or
/// without a BOM, UTF-16 as PowerShell's `>` writes it, CRLF, terminal colour codes, progress
/// bars redrawn with '\r', binary junk, and lines of any length. A line a progress bar redrew
/// with a lone '\r' comes as its parts, each under the line's number: what a terminal showed in
/// turn, and a message after the last redraw is read however long the bar grew. Only the first
/// and the last kMaxLineBytes of a line (of a part) are kept, as two parts, and no delivered line
/// is longer, in a code page's text read as UTF-8 too: every known message
/// fits in far less, a record that ends in its error (a JSON log line) is still read, and a
/// 100 MB line must not cost 100 MB.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "model/explain_report.hpp"
#include "platform/codepage.hpp"

namespace gpudoctor {

class LogDecoder {
 public:
  static constexpr size_t kMaxLineBytes = 16 * 1024;
  /// Called once per line (per part of a redrawn line, then several times with one number), in
  /// order, with 1-based line numbers. The line is valid only
  /// during the call; the sink may take its buffer (swap it away) rather than copy it, so a
  /// stage that must hold a line until the next one arrives copies nothing.
  using LineSink = std::function<void(std::string& line, std::uint64_t line_no)>;

  explicit LogDecoder(LineSink sink);
  ~LogDecoder();
  LogDecoder(const LogDecoder&) = delete;
  LogDecoder& operator=(const LogDecoder&) = delete;

  /// Any number of bytes, split anywhere (inside a UTF-16 unit, a CRLF, an escape sequence).
  void feed(std::string_view bytes);
  /// Ends the input: the last line, even without a terminator, is delivered.
  void finish();

  [[nodiscard]] const LogDecoderStats& stats() const { return stats_; }

 private:
  void detect(bool at_end);
  void feed_utf8(std::string_view bytes);
  void feed_utf16(std::string_view bytes);
  void emit_line();
  void emit_part();
  /// A line that is not UTF-8: read in the log's code page (guessed from the first such line).
  /// Where a line's bytes were cut: a head lost its end, a tail (the kept end) its start.
  enum class Cut { none, head, tail };
  /// Recoding may make a line longer than the cap: a whole line's end then goes to overflow_.
  void recode(std::string& line, Cut cut);
  /// Keeps the last kMaxLineBytes of UTF-8 text, starting at a character.
  static void keep_utf8_end(std::string& s);
  /// Bytes of an over-long line past its first kMaxLineBytes: only the last kMaxLineBytes stay.
  void keep_tail(std::string_view more);
  /// Cleans, recodes and hands the current line (or part) to the sink, its tail after it.
  void deliver(std::uint64_t line_no);

  LineSink sink_;
  LogDecoderStats stats_;
  std::string head_;      ///< first bytes kept until the encoding is known
  std::string line_;      ///< the current line, at most kMaxLineBytes
  std::string tail_;      ///< the end of an over-long line, at most 2 * kMaxLineBytes
  std::string overflow_;  ///< the end of a line that outgrew the cap when recoded
  bool line_truncated_ = false;
  bool line_started_ = false;   ///< bytes seen since the last line end
  bool parts_emitted_ = false;  ///< this line was redrawn: its parts went to the sink
  std::string utf16_carry_;     ///< an odd byte left from the previous chunk
  std::uint32_t high_surrogate_ = 0;
  std::string scratch_;  ///< UTF-16 transcoded to UTF-8
  std::optional<Codepage> codepage_;
  std::unique_ptr<CodepageConverter> converter_;
};

/// The Windows code page a line that is not UTF-8 was most likely written in: the double-byte
/// page (GBK, Shift-JIS, UHC) in which its bytes are well formed and fall in that page's common
/// rows (GB2312's hanzi and punctuation, JIS X 0208's kana and kanji, KS X 1001's Hangul);
/// code page 1252 when none fits (an accented Latin letter followed by ASCII).
/// `cut_end`: the line lost its end at the length limit, so a lone first byte of a pair there
/// is the cut, not a fault.
Codepage guess_codepage(std::string_view line, bool cut_end = false);

/// Removes ANSI/VT escape sequences (CSI, OSC, two-byte ESC forms), turns '\r' and other
/// control bytes (except tab) into spaces, and drops a trailing '\r'. In place; returns the
/// number of control bytes replaced (escape sequences not counted).
std::uint64_t clean_log_line(std::string& line);

}  // namespace gpudoctor
