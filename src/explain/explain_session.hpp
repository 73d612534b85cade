#pragma once
/// The explain pipeline in one place: bytes -> LogDecoder -> LogScanner (RuleMatcher) ->
/// ranked ExplainReport. Streaming: feed() any number of chunks; memory stays bounded.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "core/version.hpp"
#include "explain/explain_machine.hpp"
#include "explain/line_joiner.hpp"
#include "explain/log_decoder.hpp"
#include "explain/rule_matcher.hpp"
#include "model/explain_report.hpp"

namespace gpudoctor {

/// Ranks what the rules matched: each rule's candidates scored by priority and by what the
/// machine's facts say of their `when` conditions. The lines one rule matched get one ranked
/// answer: its best candidate first (ExplainMatch::alternative false), the other candidates
/// right after it; answers that are real problems first, harmless ones last.
ExplainReport rank_hits(const RuleBase& base, const std::vector<RuleHits>& hits, const ExplainMachine& machine);

/// Keeps the platform-specific parts of a rule's text for one platform: `{?linux:...}` (Linux
/// and WSL2), `{?native-linux:...}` (not WSL2), `{?wsl2:...}` and `{?windows:...}` keep their
/// inner text on their platform and vanish elsewhere; with no platform known every part stays,
/// each labelled ("LD_LIBRARY_PATH [Linux] or PATH [Windows]", "Linux: Use pip."). Runs before
/// fill_placeholders.
std::string select_platform_text(std::string_view text, std::optional<Platform> platform);

/// Keeps the version parts of a rule's text for the framework versions known (the log's, else the
/// probed machine's): `{?torch>=2.1:...}` keeps its inner text when the PyTorch version is in the
/// range (core/version.hpp VersionSpec: ">=2.1", "<2.1", ">=1.10,<2.1"; also `tensorflow`,
/// `jax`) and drops it otherwise; with the version unknown every part stays, labelled
/// ("expandable_segments:True [PyTorch 2.1 and later] or max_split_size_mb:128 [PyTorch before
/// 2.1]"). `versions` keys: "pytorch", "tensorflow", "jax". Runs before fill_placeholders.
std::string select_version_text(std::string_view text, const std::map<std::string, Version, std::less<>>& versions);

/// The platform a log's lines speak of: a captured library name ending in .dll is Windows, one
/// with .so Linux (WSL2 when the machine is); otherwise the machine's (nullopt when unknown).
std::optional<Platform> log_platform(const CaptureMap& captures, const ExplainMachine& machine);

/// Fills {name} placeholders from captures (distinct values joined by ", "). A capture the
/// log did not give reads naturally, never as a stump: `{name|words}` becomes the words; a bare
/// `{name}` inside parentheses drops the whole parenthesised clause ("notes instructions
/// ({x}) it could" -> "notes instructions it could"); elsewhere the placeholder is dropped.
std::string fill_placeholders(std::string_view text, const CaptureMap& captures);

class ExplainSession {
 public:
  explicit ExplainSession(const RuleMatcher& matcher);
  void feed(std::string_view bytes) { decoder_.feed(bytes); }
  /// A watched command's output: stream 1 (stdout) and 2 (stderr) are decoded separately,
  /// so a line is never spliced from both; line numbers count the lines of both in the
  /// order they were completed.
  void feed_stream(int stream, std::string_view bytes) { (stream == 2 ? second_decoder_ : decoder_).feed(bytes); }
  /// Ends the input and ranks.
  ExplainReport finish(const ExplainMachine& machine);

 private:
  /// A log pasted with escaped newlines (`\n` as two characters, as JSON and issue
  /// templates give it) is split there, so that each message is matched as its own line.
  /// Then a message broken over several lines is joined (one joiner per stream). `decoder_no`
  /// is the stream's own line number: the parts of a redrawn line share it, and one number.
  void take_line(std::string& line, LineJoiner& joiner, std::uint64_t decoder_no, std::uint64_t& last_no);

  const RuleMatcher& matcher_;
  LogScanner scanner_;
  std::uint64_t lines_ = 0;
  std::uint64_t first_no_ = 0;   ///< the last line number decoder_ gave
  std::uint64_t second_no_ = 0;  ///< the last line number second_decoder_ gave
  LineJoiner joiner_;
  LineJoiner second_joiner_;
  LogDecoder decoder_;
  LogDecoder second_decoder_;
};

/// Which rules' examples check_rule_examples reads: every rule (the test suite), or those the
/// user's --kb directory defined (explain and kb validate at each run: the built-in ones cannot
/// change there, and checking them all costs a second).
enum class RulesChecked { all, kb_dir };

/// Each rule's `examples`, explained one at a time, must be recognised by that rule; returns
/// one message per example that is not (a rule whose pattern does not do what its author
/// meant).
std::vector<std::string> check_rule_examples(const RuleMatcher& matcher, RulesChecked which = RulesChecked::all);

/// The whole text at once (tests, the fuzz target).
ExplainReport explain_text(const RuleMatcher& matcher, std::string_view text, const ExplainMachine& machine);

}  // namespace gpudoctor
