#pragma once
/// Matches log lines against every rule at once, in time linear in the input whatever the
/// patterns: RE2 (automata, no backtracking). One RE2::Set holds all patterns; it is run
/// first over a batch of lines (most batches of a training log match nothing, and are done
/// with in one DFA pass), then over halves of a batch that matched down to a few lines, then
/// over each of those lines, and only then the one
/// pattern that hit a line is run again to read its captures. The cost per line therefore
/// does not grow with the number of rules.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.hpp"
#include "explain/rule.hpp"

namespace re2 {
class RE2;
}

namespace gpudoctor {

/// What one rule matched over the whole log. Bounded whatever the log's size.
struct RuleHits {
  static constexpr size_t kMaxLinesKept = 50;
  static constexpr size_t kMaxExcerpts = 3;
  static constexpr size_t kMaxValuesPerCapture = 8;
  static constexpr size_t kMaxValueBytes = 200;
  static constexpr size_t kMaxExcerptBytes = 400;

  size_t rule_index = 0;
  /// Which of the rule's `split_by` captures these lines have (bit i: split_by[i]); a rule's
  /// lines are gathered per part.
  std::uint32_t part = 0;
  std::uint64_t count = 0;            ///< matched lines, all of them
  std::vector<std::uint64_t> lines;   ///< the first kMaxLinesKept line numbers
  std::vector<std::string> excerpts;  ///< the first matched lines, cut
  /// capture name -> distinct values in order of first appearance
  std::map<std::string, std::vector<std::string>> captures;
};

class RuleMatcher {
 public:
  /// Compiles every rule's patterns. Fails only when RE2 cannot build the set (never for
  /// rules that passed the loader, short of memory).
  static Result<std::unique_ptr<RuleMatcher>> build(const RuleBase& base);
  ~RuleMatcher();
  RuleMatcher(const RuleMatcher&) = delete;
  RuleMatcher& operator=(const RuleMatcher&) = delete;

  [[nodiscard]] const RuleBase& base() const { return base_; }
  [[nodiscard]] size_t pattern_count() const;

  struct Impl;

 private:
  explicit RuleMatcher(const RuleBase& base);
  RuleBase base_;
  std::unique_ptr<Impl> impl_;
  friend class LogScanner;
};

/// Feeds lines (from LogDecoder) through a RuleMatcher and gathers RuleHits.
class LogScanner {
 public:
  /// Small enough that re-scanning a batch that holds one known line costs little, large
  /// enough that the per-call cost of the set vanishes.
  static constexpr size_t kBatchBytes = 16 * 1024;

  explicit LogScanner(const RuleMatcher& matcher);
  ~LogScanner();
  LogScanner(const LogScanner&) = delete;
  LogScanner& operator=(const LogScanner&) = delete;

  void add_line(std::string_view line, std::uint64_t line_no);
  /// Matches what is still batched; call once at the end.
  void finish();
  /// Rules that matched, in rule order.
  [[nodiscard]] std::vector<RuleHits> hits() const;
  [[nodiscard]] std::uint64_t lines_seen() const { return lines_seen_; }

  /// What the scanner did, counted (tests check that a repeated line costs no matching).
  struct Work {
    std::uint64_t set_runs = 0;        ///< RE2::Set passes, over a batch, a range or a line
    std::uint64_t capture_runs = 0;    ///< single patterns re-run to read captures
    std::uint64_t cache_replays = 0;   ///< lines answered from the cache of recent lines
    std::uint64_t capture_merges = 0;  ///< a line's captures merged into the rules' hits
  };
  [[nodiscard]] const Work& work() const { return work_; }

 private:
  /// A range of at most this many lines that matched is matched line by line.
  static constexpr size_t kLinesMatchedDirectly = 4;

  /// What one line matched: the rules, with the captures each read (in its pattern's group
  /// order). Kept for recently seen lines so that a line repeated every step (a warning, a
  /// "Created device" line) is matched and its captures extracted once.
  struct LineResult {
    struct RuleHit {
      std::uint32_t rule_index;
      std::vector<std::pair<std::string, std::string>> captures;
    };
    std::vector<RuleHit> rules;
  };
  struct CacheEntry {
    std::string key;  ///< the line (digits of a leading timestamp do not count)
    LineResult result;
    /// The result's captures are in hits_ already; replaying it adds none (the value lists
    /// only grow), so a repeat costs a count and a line number.
    bool merged = false;
  };
  /// Lines longer than this are not cached (known messages are shorter).
  static constexpr size_t kMaxCachedLineBytes = 1024;
  static constexpr size_t kCacheEntries = 512;

  void flush();
  void narrow(size_t first, size_t last, bool check);
  void match_line(std::string_view line, std::uint64_t line_no);
  void apply(const LineResult& result, std::string_view line, std::uint64_t line_no, bool merge_captures);
  /// The cache slot for this line (nullptr: not cacheable); `known`: it holds this line.
  /// `tag`, when given, receives the tag to store with a new entry.
  CacheEntry* cache_slot(std::string_view line, bool& known, std::uint32_t* tag = nullptr);

  const RuleMatcher& matcher_;
  std::string batch_;  ///< lines the cache did not know, matched together at flush()
  struct LineRef {
    std::uint32_t offset;
    std::uint32_t size;
    std::uint64_t line_no;
  };
  std::vector<LineRef> refs_;
  std::vector<CacheEntry> cache_;
  std::vector<std::uint32_t> cache_tags_;  ///< per entry: 0 empty, else part of its line's hash
  LineResult scratch_result_;
  std::vector<int> set_hits_;
  std::vector<int> line_hits_;
  std::vector<int> rules_this_line_;
  std::map<std::pair<size_t, std::uint32_t>, RuleHits> hits_;  ///< by rule and part (Rule::split_by)
  std::uint64_t lines_seen_ = 0;
  std::uint64_t hits_checked_ = 0;  ///< ranges found to match (or taken as matching) so far
  std::uint64_t lines_matched_ = 0;
  Work work_;
};

}  // namespace gpudoctor
