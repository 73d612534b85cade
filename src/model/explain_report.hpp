#pragma once
/// What `explain` found: the matched problems, ranked best first. Plain structs for the
/// renderers (render/explain_text.cpp, render/explain_json.cpp), filled by explain/.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gpudoctor {

enum class RuleSeverity { info, warning, error };
const char* to_string(RuleSeverity s);

enum class LogEncoding { unknown, utf8, utf16le, utf16be };
const char* to_string(LogEncoding e);

/// What the log decoder saw of the input.
struct LogDecoderStats {
  std::uint64_t bytes_in = 0;
  std::uint64_t lines = 0;
  std::uint64_t lines_truncated = 0;  ///< lines longer than LogDecoder::kMaxLineBytes (the rest was dropped)
  std::uint64_t control_bytes = 0;    ///< NULs and other control bytes replaced (binary input)
  LogEncoding encoding = LogEncoding::unknown;
  /// Lines that were not UTF-8 and were read in a Windows code page (Python on Windows writes
  /// redirected output in the ANSI code page), and which one: "GBK (Windows code page 936, ...)".
  std::uint64_t lines_recoded = 0;
  std::string codepage;
  /// Bytes that were neither UTF-8 nor valid in that code page, read as U+FFFD.
  std::uint64_t bytes_replaced = 0;
};

struct ExplainMatch {
  std::string rule;  ///< candidate id: "cudnn-missing" or "cudnn-missing/version-mismatch"
  std::string title;
  std::string category;
  RuleSeverity severity = RuleSeverity::error;
  bool harmless = false;
  bool alternative = false;  ///< another possible cause of the same lines
  std::uint64_t count = 0;   ///< matched lines in all
  std::vector<std::uint64_t> lines;
  std::vector<std::string> excerpts;
  std::map<std::string, std::vector<std::string>> captures;
  std::string cause;  ///< placeholders filled
  std::string fix;
  /// What this machine's facts say about it ("this machine has cuDNN 9.1 in ..."), empty
  /// with --no-probe or when the facts say nothing relevant.
  std::string machine;
  /// How the facts weighed on this candidate: "supported", "contradicted", "" (no facts).
  std::string facts_verdict;
  /// The verdict came from what the log itself shows (its log-event conditions: Triton's legacy
  /// error, a pip build ...), not from the machine's facts; the text then says so.
  bool facts_from_log = false;
  std::vector<std::string> sources;
  int score = 0;
};

struct ExplainReport {
  std::vector<ExplainMatch> matches;  ///< best first; harmless ones after all real ones
  LogDecoderStats input;
  bool probed = false;  ///< the machine's facts were used
  /// Why this machine's facts were set aside although probed: the log comes from another
  /// platform ("the log comes from native Windows; this machine runs Linux"); empty otherwise.
  std::string facts_note;
  std::vector<std::string> problems;  ///< rule files skipped, input problems
};

}  // namespace gpudoctor
