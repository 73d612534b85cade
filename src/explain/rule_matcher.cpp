#include "explain/rule_matcher.hpp"

#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>

#include "core/text.hpp"
#include "core/version.hpp"

namespace gpudoctor {

namespace {

/// Memory the one RE2::Set may use for its automata. The DFA is built lazily and cached;
/// this caps it, so memory stays constant however long the log.
constexpr int64_t kSetMaxMemBytes = 96 << 20;

RE2::Options pattern_options() {
  RE2::Options o;
  o.set_log_errors(false);
  return o;
}

}  // namespace

// Named, not anonymous: RuleMatcher::Impl holds these, and a member whose type is in an anonymous
// namespace is a warning where this file is built together with others (unity builds).
namespace rule_matcher_parts {

/// One pattern of the set, compiled on its own only when needed: for its captures once the
/// set has said it matches a line, or when the set cannot decide. Few patterns ever match a
/// given log, and compiling all of them up front was a quarter of explain's start-up.
struct CompiledPattern {
  size_t rule_index = 0;
  const std::string* pattern = nullptr;  ///< in the matcher's own copy of the rule base
  std::unique_ptr<std::once_flag> once = std::make_unique<std::once_flag>();
  mutable std::unique_ptr<RE2> re;
  mutable std::vector<std::pair<std::string, int>> groups;  ///< named groups: name, index

  /// The compiled pattern; nullptr if RE2 cannot compile it alone within its memory limit
  /// (a user's huge pattern that the set, with more memory, took).
  const RE2* get() const {
    std::call_once(*once, [this] {
      auto compiled = std::make_unique<RE2>(*pattern, pattern_options());
      if (!compiled->ok()) return;
      for (const auto& [name, index] : compiled->NamedCapturingGroups()) groups.emplace_back(name, index);
      std::sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
      re = std::move(compiled);
    });
    return re.get();
  }
};

struct CompiledRequire {
  std::string capture;
  std::unique_ptr<RE2> re;
};

}  // namespace rule_matcher_parts

namespace {

using rule_matcher_parts::CompiledPattern;
using rule_matcher_parts::CompiledRequire;

/// True when both values are versions and the first is the older.
bool is_older_version(std::string_view older, std::string_view newer) {
  const auto a = Version::parse(older);
  const auto b = Version::parse(newer);
  return a && b && *a < *b;
}

/// A size as logs print it ("118.44 MiB", "12.31 GiB", "1.5GB", "512 bytes") in bytes; K, M, G,
/// T count as powers of 1024 with or without the i (only proportions are compared).
std::optional<double> size_in_bytes(std::string_view text) {
  text = trim(text);
  size_t digits = 0;
  while (digits < text.size() && ((text[digits] >= '0' && text[digits] <= '9') || text[digits] == '.')) ++digits;
  if (digits == 0 || digits > 32) return std::nullopt;
  const std::string number(text.substr(0, digits));
  char* end = nullptr;
  const double value = std::strtod(number.c_str(), &end);
  if (end != number.c_str() + number.size()) return std::nullopt;
  std::string_view unit = trim(text.substr(digits));
  double scale = 1;
  if (!unit.empty() && std::string_view("KMGT").find(unit.front()) != std::string_view::npos) {
    for (char u : std::string_view("KMGT")) {
      scale *= 1024;
      if (u == unit.front()) break;
    }
    unit.remove_prefix(1);
    if (unit.starts_with("i")) unit.remove_prefix(1);
    if (unit != "B") return std::nullopt;
  } else if (unit != "B" && unit != "bytes" && unit != "") {
    return std::nullopt;
  }
  return value * scale;
}

}  // namespace

struct RuleMatcher::Impl {
  std::unique_ptr<RE2::Set> set;
  std::vector<CompiledPattern> patterns;                      ///< index = set index
  std::vector<std::vector<CompiledRequire>> require_filters;  ///< per rule
};

RuleMatcher::RuleMatcher(const RuleBase& base) : base_(base), impl_(std::make_unique<Impl>()) {}
RuleMatcher::~RuleMatcher() = default;

size_t RuleMatcher::pattern_count() const {
  return impl_->patterns.size();
}

Result<std::unique_ptr<RuleMatcher>> RuleMatcher::build(const RuleBase& given) {
  std::unique_ptr<RuleMatcher> m(new RuleMatcher(given));
  // The matcher's own copy from here on: the patterns point into it, and the caller's may go.
  const RuleBase& base = m->base_;
  Impl& impl = *m->impl_;
  RE2::Options set_options = pattern_options();
  set_options.set_max_mem(kSetMaxMemBytes);
  impl.set = std::make_unique<RE2::Set>(set_options, RE2::UNANCHORED);
  impl.require_filters.resize(base.rules.size());
  for (size_t r = 0; r < base.rules.size(); ++r) {
    const Rule& rule = base.rules[r];
    for (const auto& p : rule.patterns) {
      CompiledPattern cp;
      cp.rule_index = r;
      cp.pattern = &p;
      std::string error;
      // (?m): in a batch of lines, ^ and $ must still mean "start/end of a line", so that
      // a batch matches whenever one of its lines does.
      const int index = impl.set->Add("(?m)" + p, &error);
      if (index < 0) {
        return Error{ErrorKind::invalid_data, "pattern is not valid RE2: " + error, rule.id + " (" + rule.origin + ")",
                     0};
      }
      impl.patterns.push_back(std::move(cp));
    }
    for (const auto& [capture, pattern] : rule.require) {
      auto re = std::make_unique<RE2>(pattern, pattern_options());
      if (!re->ok()) {
        return Error{ErrorKind::invalid_data, "require pattern is not valid RE2: " + re->error(), rule.id, 0};
      }
      impl.require_filters[r].push_back(CompiledRequire{capture, std::move(re)});
    }
  }
  if (!impl.patterns.empty() && !impl.set->Compile()) {
    return Error{ErrorKind::invalid_data, "RE2 could not compile the rule set (too large)", "explain rules", 0};
  }
  return m;
}

LogScanner::LogScanner(const RuleMatcher& matcher) : matcher_(matcher) {
  batch_.reserve(kBatchBytes + RuleHits::kMaxExcerptBytes);
}
LogScanner::~LogScanner() = default;

void LogScanner::add_line(std::string_view line, std::uint64_t line_no) {
  ++lines_seen_;
  if (matcher_.impl_->patterns.empty()) return;
  // A line seen lately (a warning repeated every step) is replayed from the cache: no copy
  // into the batch, no matching, no captures.
  bool known = false;
  if (CacheEntry* slot = cache_slot(line, known); known) {
    ++work_.cache_replays;
    apply(slot->result, line, line_no, !slot->merged);
    slot->merged = true;
    return;
  }
  refs_.push_back(LineRef{static_cast<std::uint32_t>(batch_.size()), static_cast<std::uint32_t>(line.size()), line_no});
  batch_.append(line);
  batch_.push_back('\n');
  if (batch_.size() >= kBatchBytes) flush();
}

void LogScanner::finish() {
  flush();
}

namespace {

/// Length of a leading timestamp ("2024-05-10 11:33:12.123456: "): it differs on every line
/// and no rule reads it, so lines that differ only there are one line to the cache.
/// The bytes a timestamp is made of, as a table: every line is scanned for one.
constexpr std::array<bool, 256> kTimestampBytes = [] {
  std::array<bool, 256> t{};
  for (char c = '0'; c <= '9'; ++c) t[static_cast<unsigned char>(c)] = true;
  for (char c : std::string_view("-:. T/,Z+[]")) t[static_cast<unsigned char>(c)] = true;
  return t;
}();

size_t timestamp_prefix(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && kTimestampBytes[static_cast<unsigned char>(line[i])]) ++i;
  return i;
}

std::uint64_t load_word(const char* p, size_t n) {
  std::uint64_t w = 0;
  std::memcpy(&w, p, n);
  return w;
}

std::uint64_t mix(std::uint64_t h, std::uint64_t w) {
  h = (h ^ w) * 0x9E3779B97F4A7C15ull;
  return h ^ (h >> 29);
}

/// A cheap hash of a line for the cache: its length, up to 48 bytes after the timestamp and
/// its last 16, eight bytes at a time. Equal keys are then compared in full, so a weak hash
/// costs a miss, never a wrong answer. Every line comes through here: hashing it byte by byte
/// cost a fifth of the whole run on a log of short, distinct lines.
std::uint64_t line_hash(std::string_view line, std::string_view body) {
  std::uint64_t h = mix(0, line.size());
  const size_t head = std::min<size_t>(body.size(), 48);
  size_t i = 0;
  for (; i + 8 <= head; i += 8) h = mix(h, load_word(body.data() + i, 8));
  if (i < head) h = mix(h, load_word(body.data() + i, head - i));
  if (body.size() > 64) {
    h = mix(h, load_word(body.data() + body.size() - 16, 8));
    h = mix(h, load_word(body.data() + body.size() - 8, 8));
  }
  return h;
}

/// The cache key's equality: the same line, digits of the timestamp aside.
bool same_key(std::string_view key, std::string_view line, size_t prefix) {
  if (key.size() != line.size()) return false;
  for (size_t i = 0; i < prefix; ++i) {
    if (key[i] != line[i] && !(is_ascii_digit(key[i]) && is_ascii_digit(line[i]))) return false;
  }
  return key.substr(prefix) == line.substr(prefix);
}

}  // namespace

LogScanner::CacheEntry* LogScanner::cache_slot(std::string_view line, bool& known, std::uint32_t* tag) {
  known = false;
  if (line.size() > kMaxCachedLineBytes) return nullptr;
  const size_t prefix = timestamp_prefix(line);
  const std::uint64_t h = line_hash(line, line.substr(prefix));
  if (cache_.empty()) {
    cache_.resize(kCacheEntries);
    cache_tags_.assign(kCacheEntries, 0);
  }
  const size_t index = h % kCacheEntries;
  // The tag (other bits of the hash, never 0) is checked first: the 2 KiB of tags stay in
  // the CPU's cache where the entries (32 KiB and their strings) do not, and most lines miss.
  const std::uint32_t want = static_cast<std::uint32_t>(h >> 32) | 1u;
  if (tag != nullptr) *tag = want;
  known = cache_tags_[index] == want && same_key(cache_[index].key, line, prefix);
  return &cache_[index];
}

void LogScanner::flush() {
  if (refs_.empty()) return;
  narrow(0, refs_.size(), true);
  batch_.clear();
  refs_.clear();
}

void LogScanner::narrow(size_t first, size_t last, bool check) {
  // Lines [first, last) of the batch (the lines the cache did not know). The set is run over
  // the whole range; a range that matches is halved until few lines are left, which are then
  // matched one by one. A log where one line in thousands is known costs about two passes over
  // the text.
  const RuleMatcher::Impl& impl = *matcher_.impl_;
  if (check) {
    const LineRef& a = refs_[first];
    const LineRef& b = refs_[last - 1];
    const std::string_view range = std::string_view(batch_).substr(a.offset, b.offset + b.size - a.offset);
    set_hits_.clear();
    ++work_.set_runs;
    RE2::Set::ErrorInfo info{};
    // Out of DFA memory: RE2 says so instead of guessing; the lines are then checked below.
    if (!impl.set->Match(range, &set_hits_, &info) && info.kind == RE2::Set::kNoError) return;
  }
  ++hits_checked_;
  if (last - first <= kLinesMatchedDirectly) {
    for (size_t i = first; i < last; ++i) {
      match_line(std::string_view(batch_).substr(refs_[i].offset, refs_[i].size), refs_[i].line_no);
    }
    return;
  }
  const size_t mid = first + (last - first) / 2;
  // The range matched: if its first half does not, the second must (unless the match
  // spanned lines, which the per-line check below then rejects), so it is not run again.
  const size_t before = hits_checked_;
  narrow(first, mid, true);
  narrow(mid, last, hits_checked_ != before);
}

void LogScanner::match_line(std::string_view line, std::uint64_t line_no) {
  const RuleMatcher::Impl& impl = *matcher_.impl_;
  LineResult& result = scratch_result_;
  result.rules.clear();
  line_hits_.clear();
  RE2::Set::ErrorInfo info{};
  ++work_.set_runs;
  if (!impl.set->Match(line, &line_hits_, &info)) {
    if (info.kind != RE2::Set::kNoError) {
      // The set could not decide (DFA memory): fall back to each pattern on its own.
      line_hits_.clear();
      for (size_t i = 0; i < impl.patterns.size(); ++i) {
        const RE2* re = impl.patterns[i].get();
        if (re != nullptr && RE2::PartialMatch(line, *re)) line_hits_.push_back(static_cast<int>(i));
      }
    }
  }
  std::sort(line_hits_.begin(), line_hits_.end());
  rules_this_line_.clear();
  re2::StringPiece groups[16];
  for (int index : line_hits_) {
    const CompiledPattern& cp = impl.patterns[static_cast<size_t>(index)];
    if (std::find(rules_this_line_.begin(), rules_this_line_.end(), static_cast<int>(cp.rule_index)) !=
        rules_this_line_.end()) {
      continue;  // another pattern of the same rule already took this line
    }
    const Rule& rule = matcher_.base().rules[cp.rule_index];
    const RE2* re = cp.get();
    const bool has_requirements = !impl.require_filters[cp.rule_index].empty() || !rule.require_older.first.empty() ||
                                  !rule.require_share.empty();
    // A pattern too big to compile alone still matched (the set says so): it counts, without
    // captures, unless the rule's requirements need them.
    if (re == nullptr && has_requirements) continue;
    const bool needs_groups = re != nullptr && (!cp.groups.empty() || has_requirements);
    // The set already said this pattern matches the line; run it again only for captures.
    const int n = needs_groups ? std::min(16, re->NumberOfCapturingGroups() + 1) : 0;
    if (needs_groups) ++work_.capture_runs;
    if (needs_groups && !re->Match(line, 0, line.size(), RE2::UNANCHORED, groups, n)) continue;
    auto value_of = [&](const std::string& name) -> std::string_view {
      for (const auto& [g, gi] : cp.groups) {
        if (g == name && gi < n && groups[gi].data() != nullptr) {
          return std::string_view(groups[gi].data(), groups[gi].size());
        }
      }
      return {};
    };
    bool required_ok = true;
    for (const CompiledRequire& req : impl.require_filters[cp.rule_index]) {
      if (!RE2::PartialMatch(value_of(req.capture), *req.re)) {
        required_ok = false;
        break;
      }
    }
    if (required_ok && !rule.require_older.first.empty()) {
      required_ok = is_older_version(value_of(rule.require_older.first), value_of(rule.require_older.second));
    }
    for (const Rule::ShareRequirement& share : rule.require_share) {
      if (!required_ok) break;
      const std::optional<double> whole = size_in_bytes(value_of(share.of));
      double sum = 0;
      for (const std::string& part : share.sum) {
        const std::optional<double> v = size_in_bytes(value_of(part));
        if (!v) required_ok = false;
        sum += v.value_or(0);
      }
      required_ok = required_ok && whole && *whole > 0 && sum >= share.at_least * *whole &&
                    (share.at_most < 0 || sum <= share.at_most * *whole);
    }
    if (!required_ok) continue;
    rules_this_line_.push_back(static_cast<int>(cp.rule_index));
    LineResult::RuleHit hit{static_cast<std::uint32_t>(cp.rule_index), {}};
    for (const auto& [name, gi] : cp.groups) {
      if (gi >= n || groups[gi].data() == nullptr || groups[gi].empty()) continue;
      hit.captures.emplace_back(name,
                                std::string(groups[gi].data(), std::min(groups[gi].size(), RuleHits::kMaxValueBytes)));
    }
    result.rules.push_back(std::move(hit));
  }
  apply(result, line, line_no, true);
  bool known = false;
  std::uint32_t tag = 0;
  if (CacheEntry* slot = cache_slot(line, known, &tag)) {
    slot->key.assign(line);
    slot->result = result;
    slot->merged = true;
    cache_tags_[static_cast<size_t>(slot - cache_.data())] = tag;
  }
}

void LogScanner::apply(const LineResult& result, std::string_view line, std::uint64_t line_no, bool merge_captures) {
  if (!result.rules.empty()) ++lines_matched_;
  if (merge_captures && !result.rules.empty()) ++work_.capture_merges;
  for (const LineResult::RuleHit& hit : result.rules) {
    // The line's part: which of the rule's split_by captures it has (a fact about this line).
    std::uint32_t part = 0;
    const std::vector<std::string>& split_by = matcher_.base().rules[hit.rule_index].split_by;
    for (size_t i = 0; i < split_by.size() && i < 32; ++i) {
      if (std::any_of(hit.captures.begin(), hit.captures.end(),
                      [&](const auto& capture) { return capture.first == split_by[i]; })) {
        part |= std::uint32_t{1} << i;
      }
    }
    RuleHits& h = hits_[{hit.rule_index, part}];
    h.rule_index = hit.rule_index;
    h.part = part;
    ++h.count;
    if (h.lines.size() < RuleHits::kMaxLinesKept) h.lines.push_back(line_no);
    if (h.excerpts.size() < RuleHits::kMaxExcerpts) {
      h.excerpts.emplace_back(line.substr(0, RuleHits::kMaxExcerptBytes));
    }
    if (!merge_captures) continue;
    for (const auto& [name, value] : hit.captures) {
      auto& values = h.captures[name];
      if (values.size() < RuleHits::kMaxValuesPerCapture &&
          std::find(values.begin(), values.end(), value) == values.end()) {
        values.push_back(value);
      }
    }
  }
}

std::vector<RuleHits> LogScanner::hits() const {
  std::vector<RuleHits> out;
  out.reserve(hits_.size());
  for (const auto& [key, h] : hits_) out.push_back(h);
  return out;
}

}  // namespace gpudoctor
