#include "explain/log_decoder.hpp"

#include <algorithm>
#include <cstring>

#include "core/text.hpp"
#include "core/utf8.hpp"

namespace gpudoctor {

namespace {

/// Bytes to look at before guessing a BOM-less UTF-16 log: enough that a log starting with a
/// line of Chinese (no zero bytes in its units) still shows the zeros of its ASCII or line ends.
constexpr size_t kDetectBytes = 256;

/// UTF-16 without a BOM: zero bytes nearly all on one side of the units (ASCII, CR, LF), as no
/// UTF-8 text has them. 0: no, 1: little-endian, 2: big-endian.
int bomless_utf16(std::string_view h) {
  size_t even = 0;
  size_t odd = 0;
  for (size_t i = 0; i + 1 < h.size(); i += 2) {
    even += h[i] == 0 ? 1 : 0;
    odd += h[i + 1] == 0 ? 1 : 0;
  }
  const size_t units = h.size() / 2;
  if (units < 4) return 0;
  if (odd * 8 >= units && even * 8 <= odd) return 1;
  if (even * 8 >= units && odd * 8 <= even) return 2;
  return 0;
}

bool is_control(unsigned char c) {
  return (c < 0x20 && c != '\t') || c == 0x7f;
}

/// Index of the first control byte (not tab) in [from, n), or n. Eight bytes at a time: most
/// lines have none, and this is on the path of every byte of the log.
size_t find_control(const char* p, size_t from, size_t n) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull;
  constexpr std::uint64_t kHigh = 0x8080808080808080ull;
  size_t i = from;
  while (i + 8 <= n) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    // A byte below 0x20, or equal to 0x7f (DEL).
    const std::uint64_t below = (w - kOnes * 0x20) & ~w & kHigh;
    const std::uint64_t x = w ^ (kOnes * 0x7f);
    const std::uint64_t del = (x - kOnes) & ~x & kHigh;
    if ((below | del) != 0) {
      for (size_t k = i; k < i + 8; ++k) {
        if (is_control(static_cast<unsigned char>(p[k]))) return k;
      }
    }
    i += 8;
  }
  while (i < n && !is_control(static_cast<unsigned char>(p[i]))) ++i;
  return i;
}

/// How a line's bytes read in one double-byte code page: well formed or not, and how many of its
/// two-byte characters fall in the page's common rows.
struct PageFit {
  bool valid = true;
  size_t pairs = 0;
  size_t common = 0;
};

bool in(unsigned char c, unsigned lo, unsigned hi) {
  return c >= lo && c <= hi;
}

/// A double-byte code page's byte ranges: which bytes stand alone, which start a pair, which
/// may follow, and which pairs are in its common rows.
struct PageRules {
  bool (*single)(unsigned char);
  bool (*lead)(unsigned char);
  bool (*trail)(unsigned char);
  bool (*common)(unsigned char lead, unsigned char trail);
};

/// `cut_end`: a lead byte alone at the very end is where the line was cut, not a fault.
PageFit fit(std::string_view s, const PageRules& page, bool cut_end = false) {
  PageFit f;
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80 || page.single(c)) {
      ++i;
      continue;
    }
    if (cut_end && i + 1 == s.size() && page.lead(c)) break;
    const auto t = i + 1 < s.size() ? static_cast<unsigned char>(s[i + 1]) : 0;
    if (!page.lead(c) || !page.trail(t)) return {false};
    ++f.pairs;
    if (page.common(c, t)) ++f.common;
    i += 2;
  }
  return f;
}

bool none(unsigned char) {
  return false;
}

/// GBK (cp936): lead 0x81-0xFE, trail 0x40-0xFE but 0x7F; GB2312's rows are lead 0xA1-0xF7
/// with trail 0xA1-0xFE (punctuation in 0xA1-0xA9, hanzi from 0xB0).
constexpr PageRules kGbk{none, [](unsigned char c) { return in(c, 0x81, 0xfe); },
                         [](unsigned char t) { return in(t, 0x40, 0xfe) && t != 0x7f; },
                         [](unsigned char c, unsigned char t) { return in(c, 0xa1, 0xf7) && in(t, 0xa1, 0xfe); }};

/// Shift-JIS (cp932): single-byte half-width katakana 0xA1-0xDF; lead 0x81-0x9F or 0xE0-0xFC,
/// trail 0x40-0x7E or 0x80-0xFC; JIS X 0208's punctuation, kana and kanji have lead 0x81-0x84,
/// 0x88-0x9F, 0xE0-0xEA.
constexpr PageRules kShiftJis{
    [](unsigned char c) { return in(c, 0xa1, 0xdf); },
    [](unsigned char c) { return in(c, 0x81, 0x9f) || in(c, 0xe0, 0xfc); },
    [](unsigned char t) { return in(t, 0x40, 0x7e) || in(t, 0x80, 0xfc); },
    [](unsigned char c, unsigned char) { return in(c, 0x81, 0x84) || in(c, 0x88, 0x9f) || in(c, 0xe0, 0xea); }};

/// UHC (cp949): lead 0x81-0xFE, trail 0x41-0x5A, 0x61-0x7A or 0x81-0xFE; KS X 1001's Hangul
/// syllables are lead 0xB0-0xC8 with trail 0xA1-0xFE.
constexpr PageRules kUhc{none, [](unsigned char c) { return in(c, 0x81, 0xfe); },
                         [](unsigned char t) { return in(t, 0x41, 0x5a) || in(t, 0x61, 0x7a) || in(t, 0x81, 0xfe); },
                         [](unsigned char c, unsigned char t) { return in(c, 0xb0, 0xc8) && in(t, 0xa1, 0xfe); }};

/// Whether s from `at` is the start of a UTF-8 character cut short: a lead byte followed by
/// fewer continuation bytes than it announces, and nothing else.
bool cut_utf8_tail(std::string_view s, size_t at) {
  const auto lead = static_cast<unsigned char>(s[at]);
  const size_t want = in(lead, 0xc2, 0xdf) ? 2 : in(lead, 0xe0, 0xef) ? 3 : in(lead, 0xf0, 0xf4) ? 4 : 0;
  if (want == 0 || s.size() - at >= want) return false;
  for (size_t i = at + 1; i < s.size(); ++i) {
    if (!in(static_cast<unsigned char>(s[i]), 0x80, 0xbf)) return false;
  }
  return true;
}

/// The pair rules of a double-byte page; nullptr for a single-byte one.
const PageRules* rules_of(Codepage page) {
  switch (page) {
    case Codepage::gbk:
      return &kGbk;
    case Codepage::shift_jis:
      return &kShiftJis;
    case Codepage::uhc:
      return &kUhc;
    default:
      return nullptr;
  }
}

/// Whether the line, read pair by pair from its start, ends in the first byte of a pair.
bool ends_in_lone_lead(std::string_view s, const PageRules& page) {
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80 || page.single(c)) {
      ++i;
    } else if (i + 1 == s.size()) {
      return page.lead(c);
    } else {
      i += 2;
    }
  }
  return false;
}

}  // namespace

Codepage guess_codepage(std::string_view line, bool cut_end) {
  const PageFit gbk = fit(line, kGbk, cut_end);
  const PageFit sjis = fit(line, kShiftJis, cut_end);
  const PageFit uhc = fit(line, kUhc, cut_end);
  auto good = [](const PageFit& f) { return f.valid && f.pairs > 0 && f.common * 2 >= f.pairs; };
  // Korean text is all Hangul, which GB2312 also encodes (as rare hanzi in the same rows);
  // Chinese text has hanzi beyond those rows or full-width punctuation.
  if (good(uhc) && uhc.common == uhc.pairs && uhc.pairs >= 2 && gbk.valid) {
    bool only_hangul_rows = true;
    for (size_t i = 0; i + 1 < line.size() && only_hangul_rows;) {
      const auto c = static_cast<unsigned char>(line[i]);
      if (c < 0x80) {
        ++i;
        continue;
      }
      only_hangul_rows = in(c, 0xb0, 0xc8);
      i += 2;
    }
    if (only_hangul_rows) return Codepage::uhc;
  }
  // The page in which more characters are common ones; a tie goes to GBK, the most used.
  const PageFit* best = nullptr;
  Codepage page = Codepage::cp1252;
  for (auto [candidate, cp] : {std::pair{&gbk, Codepage::gbk}, std::pair{&sjis, Codepage::shift_jis}}) {
    if (good(*candidate) && (best == nullptr || candidate->common > best->common)) {
      best = candidate;
      page = cp;
    }
  }
  if (best == nullptr && good(uhc)) return Codepage::uhc;
  return page;
}

std::uint64_t clean_log_line(std::string& line) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const size_t n = line.size();
  size_t i = find_control(line.data(), 0, n);
  if (i == n) return 0;
  std::uint64_t replaced = 0;
  size_t out = i;
  while (i < n) {
    const auto c = static_cast<unsigned char>(line[i]);
    if (c == 0x1b) {
      // ESC: CSI "ESC [ params intermediates final", OSC "ESC ] ... (BEL | ESC \)",
      // or a two-byte form "ESC X". A sequence cut by the line cap is simply dropped.
      if (i + 1 >= n) {
        ++i;
        continue;
      }
      const char kind = line[i + 1];
      if (kind == '[') {
        size_t j = i + 2;
        while (j < n && static_cast<unsigned char>(line[j]) >= 0x20 && static_cast<unsigned char>(line[j]) <= 0x3f) ++j;
        if (j < n && static_cast<unsigned char>(line[j]) >= 0x40 && static_cast<unsigned char>(line[j]) <= 0x7e) ++j;
        i = j;
      } else if (kind == ']' || kind == 'P' || kind == '_' || kind == '^') {
        size_t j = i + 2;
        while (j < n) {
          if (line[j] == '\a') {
            ++j;
            break;
          }
          if (line[j] == 0x1b && j + 1 < n && line[j + 1] == '\\') {
            j += 2;
            break;
          }
          ++j;
        }
        i = j;
      } else {
        // nF forms ("ESC ( B" selects a character set): intermediates, then one final byte.
        size_t j = i + 1;
        while (j < n && static_cast<unsigned char>(line[j]) >= 0x20 && static_cast<unsigned char>(line[j]) <= 0x2f) ++j;
        i = j < n ? j + 1 : j;
      }
      continue;
    }
    if (is_control(c)) {
      if (c != '\r') ++replaced;
      line[out++] = ' ';
      ++i;
      continue;
    }
    // Copy the run of ordinary bytes up to the next control byte in one move.
    const size_t j = find_control(line.data(), i + 1, n);
    std::memmove(&line[out], &line[i], j - i);
    out += j - i;
    i = j;
  }
  line.resize(out);
  return replaced;
}

LogDecoder::LogDecoder(LineSink sink) : sink_(std::move(sink)) {}

LogDecoder::~LogDecoder() = default;

void LogDecoder::recode(std::string& line, Cut cut) {
  const size_t bad = invalid_utf8_at(line);
  if (bad == line.size()) return;
  // A UTF-8 line cut at the length limit may end inside a character: that is no other encoding.
  if (cut == Cut::head && cut_utf8_tail(line, bad)) {
    line.resize(bad);
    return;
  }
  if (!codepage_) {
    Codepage page = guess_codepage(line, cut == Cut::head);
    // A kept end may start with the second byte of a pair: read one byte later if that fits.
    if (cut == Cut::tail && page == Codepage::cp1252 && line.size() > 1) {
      const Codepage later = guess_codepage(std::string_view(line).substr(1));
      if (later != Codepage::cp1252) page = later;
    }
    codepage_ = page;
    converter_ = std::make_unique<CodepageConverter>(*codepage_);
    stats_.codepage = describe(*codepage_);
  }
  // Where the cut fell inside a double-byte character, its other half is dropped.
  if (const PageRules* rules = rules_of(*codepage_)) {
    if (cut == Cut::head && ends_in_lone_lead(line, *rules)) {
      line.pop_back();
    } else if (cut == Cut::tail && !line.empty() && !fit(line, *rules).valid &&
               fit(std::string_view(line).substr(1), *rules).valid) {
      line.erase(0, 1);
    }
  }
  if (auto text = converter_->to_utf8(line)) {
    line = std::move(*text);
    ++stats_.lines_recoded;
  } else {
    size_t replaced = 0;
    line = replace_invalid_utf8(line, replaced);
    stats_.bytes_replaced += replaced;
  }
  // Read as UTF-8 the line grew (a hanzi takes three bytes, an accented letter two): the cap is
  // on what is delivered. A tail keeps its end, a head its start, and a whole line becomes a head
  // and a tail as an over-long one does, so a record that ends in its error is still read.
  if (line.size() <= kMaxLineBytes) return;
  const size_t head = utf8_prefix(line, kMaxLineBytes).size();
  if (cut == Cut::none) {
    // Past twice the cap its middle is lost, as an over-long line's is: counted for the note.
    if (line.size() > 2 * kMaxLineBytes) ++stats_.lines_truncated;
    overflow_.assign(line, head);
    keep_utf8_end(overflow_);
  }
  if (cut == Cut::tail) {
    keep_utf8_end(line);
  } else {
    line.resize(head);
  }
}

void LogDecoder::keep_utf8_end(std::string& s) {
  if (s.size() <= kMaxLineBytes) return;
  size_t from = s.size() - kMaxLineBytes;
  while (from < s.size() && (static_cast<unsigned char>(s[from]) & 0xc0) == 0x80) ++from;
  s.erase(0, from);
}

void LogDecoder::feed(std::string_view bytes) {
  stats_.bytes_in += bytes.size();
  if (stats_.encoding == LogEncoding::unknown) {
    const size_t take = std::min(bytes.size(), kDetectBytes - std::min(kDetectBytes, head_.size()));
    head_.append(bytes.substr(0, take));
    bytes.remove_prefix(take);
    if (head_.size() < kDetectBytes) return;
    detect(false);
  }
  if (stats_.encoding == LogEncoding::utf8) {
    feed_utf8(bytes);
  } else {
    feed_utf16(bytes);
  }
}

void LogDecoder::detect(bool at_end) {
  // The head is at most kDetectBytes; a fixed buffer keeps it simple.
  char head[kDetectBytes];
  const size_t head_size = std::min(head_.size(), kDetectBytes);
  std::memcpy(head, head_.data(), head_size);
  head_.clear();
  std::string_view h(head, head_size);
  auto byte = [&](size_t i) { return static_cast<unsigned char>(h[i]); };
  if (h.size() >= 3 && byte(0) == 0xef && byte(1) == 0xbb && byte(2) == 0xbf) {
    stats_.encoding = LogEncoding::utf8;
    h.remove_prefix(3);
  } else if (h.size() >= 2 && byte(0) == 0xff && byte(1) == 0xfe) {
    stats_.encoding = LogEncoding::utf16le;
    h.remove_prefix(2);
  } else if (h.size() >= 2 && byte(0) == 0xfe && byte(1) == 0xff) {
    stats_.encoding = LogEncoding::utf16be;
    h.remove_prefix(2);
  } else if (h.size() >= 4 && byte(0) != 0 && byte(1) == 0 && byte(2) != 0 && byte(3) == 0) {
    // No BOM, but ASCII text as UTF-16LE: "T\0F\0"; a UTF-8 log never looks like this.
    stats_.encoding = LogEncoding::utf16le;
  } else if (h.size() >= 4 && byte(0) == 0 && byte(1) != 0 && byte(2) == 0 && byte(3) != 0) {
    stats_.encoding = LogEncoding::utf16be;
  } else if (const int u = bomless_utf16(h); u != 0) {
    stats_.encoding = u == 1 ? LogEncoding::utf16le : LogEncoding::utf16be;
  } else {
    stats_.encoding = LogEncoding::utf8;
  }
  (void)at_end;
  if (stats_.encoding == LogEncoding::utf8) {
    feed_utf8(h);
  } else {
    feed_utf16(h);
  }
}

void LogDecoder::feed_utf8(std::string_view bytes) {
  const char* p = bytes.data();
  const char* const end = p + bytes.size();
  // The next '\n' and '\r' of this chunk, each searched again only once passed: one pass over
  // the bytes for each, however many lines.
  const char* nl = nullptr;
  const char* cr = nullptr;
  bool nl_known = false;
  bool cr_known = false;
  while (p < end) {
    if (!nl_known || (nl != nullptr && nl < p)) {
      nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
      nl_known = true;
    }
    if (!cr_known || (cr != nullptr && cr < p)) {
      cr = static_cast<const char*>(std::memchr(p, '\r', static_cast<size_t>(end - p)));
      cr_known = true;
    }
    const char* stop = nl;
    if (cr != nullptr && (stop == nullptr || cr < stop)) stop = cr;
    const auto seg = static_cast<size_t>((stop != nullptr ? stop : end) - p);
    if (seg > 0) {
      line_started_ = true;
      const size_t room = kMaxLineBytes - line_.size();
      if (seg <= room) {
        line_.append(p, seg);
      } else {
        line_.append(p, room);
        line_truncated_ = true;
        keep_tail(std::string_view(p + room, seg - room));
      }
    }
    if (stop == nullptr) return;
    if (stop == nl) {
      emit_line();
    } else {
      line_started_ = true;
      emit_part();  // a redraw; "\r\n" ends the line at its '\n' with nothing left over
    }
    p = stop + 1;
  }
}

void LogDecoder::feed_utf16(std::string_view bytes) {
  scratch_.clear();
  const bool le = stats_.encoding == LogEncoding::utf16le;
  auto unit_at = [&](unsigned char a, unsigned char b) -> std::uint32_t {
    return le ? (a | (b << 8)) : ((a << 8) | b);
  };
  auto take_unit = [&](std::uint32_t u) {
    if (u >= 0xd800 && u <= 0xdbff) {
      if (high_surrogate_ != 0) append_utf8(scratch_, 0xfffd);
      high_surrogate_ = u;
      return;
    }
    if (u >= 0xdc00 && u <= 0xdfff) {
      if (high_surrogate_ != 0) {
        append_utf8(scratch_, 0x10000 + ((high_surrogate_ - 0xd800) << 10) + (u - 0xdc00));
        high_surrogate_ = 0;
      } else {
        append_utf8(scratch_, 0xfffd);
      }
      return;
    }
    if (high_surrogate_ != 0) {
      append_utf8(scratch_, 0xfffd);
      high_surrogate_ = 0;
    }
    append_utf8(scratch_, u);
  };
  size_t i = 0;
  if (!utf16_carry_.empty() && !bytes.empty()) {
    take_unit(unit_at(static_cast<unsigned char>(utf16_carry_[0]), static_cast<unsigned char>(bytes[0])));
    utf16_carry_.clear();
    i = 1;
  }
  for (; i + 1 < bytes.size(); i += 2) {
    take_unit(unit_at(static_cast<unsigned char>(bytes[i]), static_cast<unsigned char>(bytes[i + 1])));
    // Transcode in pieces so the scratch buffer stays small however large the chunk.
    if (scratch_.size() >= 64 * 1024) {
      feed_utf8(scratch_);
      scratch_.clear();
    }
  }
  if (i < bytes.size()) utf16_carry_.assign(1, bytes[i]);
  feed_utf8(scratch_);
  scratch_.clear();
}

void LogDecoder::keep_tail(std::string_view more) {
  if (more.size() >= kMaxLineBytes) {
    tail_.assign(more.substr(more.size() - kMaxLineBytes));
    return;
  }
  tail_.append(more);
  // Trimmed in halves, so each byte is moved a bounded number of times.
  if (tail_.size() > 2 * kMaxLineBytes) tail_.erase(0, tail_.size() - kMaxLineBytes);
}

void LogDecoder::deliver(std::uint64_t line_no) {
  if (line_truncated_) ++stats_.lines_truncated;
  if (!tail_.empty()) {
    // An over-long line: its first kMaxLineBytes, then its last, as two parts under one number
    // (a record that ends in its error: a JSON log line, a progress bar's last redraw).
    stats_.control_bytes += clean_log_line(line_);
    recode(line_, Cut::head);
    sink_(line_, line_no);
    size_t from = tail_.size() > kMaxLineBytes ? tail_.size() - kMaxLineBytes : 0;
    // Past a UTF-8 character's continuation bytes (three at most: more are no UTF-8).
    for (int i = 0; i < 3 && from < tail_.size() && (static_cast<unsigned char>(tail_[from]) & 0xc0) == 0x80; ++i) {
      ++from;
    }
    line_.assign(tail_, from);
    tail_.clear();
    stats_.control_bytes += clean_log_line(line_);
    recode(line_, Cut::tail);
    sink_(line_, line_no);
    return;
  }
  stats_.control_bytes += clean_log_line(line_);
  recode(line_, line_truncated_ ? Cut::head : Cut::none);
  sink_(line_, line_no);
  if (!overflow_.empty()) {
    // A line that outgrew the cap when recoded: its end as a second part.
    line_.swap(overflow_);
    overflow_.clear();
    sink_(line_, line_no);
  }
}

void LogDecoder::emit_part() {
  if (line_.empty()) return;
  deliver(stats_.lines + 1);
  line_.clear();
  line_truncated_ = false;
  parts_emitted_ = true;
}

void LogDecoder::emit_line() {
  ++stats_.lines;
  // A redrawn line's last part; nothing after its last '\r' (as in "\r\n"): already delivered.
  if (!parts_emitted_ || !line_.empty()) deliver(stats_.lines);
  line_.clear();  // whatever buffer the sink left here is reused
  line_truncated_ = false;
  line_started_ = false;
  parts_emitted_ = false;
}

void LogDecoder::finish() {
  if (stats_.encoding == LogEncoding::unknown) {
    if (head_.empty()) return;
    detect(true);
  }
  if (high_surrogate_ != 0) {
    scratch_.clear();
    append_utf8(scratch_, 0xfffd);
    high_surrogate_ = 0;
    feed_utf8(scratch_);
  }
  if (line_started_ || !line_.empty()) emit_line();
}

}  // namespace gpudoctor
