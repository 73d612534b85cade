#include "explain/log_decoder.hpp"

#include <algorithm>
#include <cstring>

#include "core/utf8.hpp"

namespace gpudoctor {

namespace {

/// Bytes to look at before guessing a BOM-less UTF-16 log.
constexpr size_t kDetectBytes = 8;

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

}  // namespace

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

void LogDecoder::emit_part() {
  if (line_.empty()) return;
  if (line_truncated_) ++stats_.lines_truncated;
  stats_.control_bytes += clean_log_line(line_);
  sink_(line_, stats_.lines + 1);
  line_.clear();
  line_truncated_ = false;
  parts_emitted_ = true;
}

void LogDecoder::emit_line() {
  ++stats_.lines;
  // A redrawn line's last part; nothing after its last '\r' (as in "\r\n"): already delivered.
  if (!parts_emitted_ || !line_.empty()) {
    if (line_truncated_) ++stats_.lines_truncated;
    stats_.control_bytes += clean_log_line(line_);
    sink_(line_, stats_.lines);
  }
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
