#pragma once
/// The explain rule base: known problems as data (data/explain/*.toml, overlaid by
/// --kb DIR/explain/*.toml). A rule recognises a class of log lines and names one or more
/// candidate causes; the machine's facts choose among the candidates (rank_hits in
/// explain/explain_session.hpp).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/explain_report.hpp"

namespace gpudoctor {

/// The categories of the error-log corpus (tests/corpus/error-logs.jsonl); every candidate has
/// exactly one.
const std::vector<std::string>& explain_categories();
bool is_explain_category(std::string_view category);

/// One possible cause of what a rule matched: the rule's own (the first) or an alternative.
struct RuleCandidate {
  std::string id;  ///< "cudnn-missing" or "cudnn-missing/version-mismatch"
  std::string category;
  RuleSeverity severity = RuleSeverity::error;
  bool harmless = false;
  int priority = 50;  ///< base rank, 0..100; facts move it up or down
  /// Conditions on the machine (evaluate_condition in explain/explain_machine.hpp); all must
  /// hold for the candidate to be preferred. "!name" negates. Unknown (no facts) leaves the
  /// rank alone.
  std::vector<std::string> when;
  std::string cause;  ///< may hold {capture} placeholders
  std::string fix;
};

struct Rule {
  std::string id;
  std::string title;
  std::vector<std::string> patterns;  ///< RE2 syntax, matched per line, named captures
  /// capture name -> RE2 pattern the captured value must match (partial) for the rule to
  /// apply: one line shape, different problems by what was captured.
  std::vector<std::pair<std::string, std::string>> require;
  /// (older, newer) capture names: the rule applies only when the first captured value is an
  /// older version than the second (core/version.hpp ordering); not when either is no version.
  /// One line shape that reports two opposite problems ("loaded X but compiled with Y").
  std::pair<std::string, std::string> require_older;
  /// Sizes the line must show in proportion (all must hold): the captured sizes in `sum`
  /// ("118.44 MiB", "12.31 GiB", "512 bytes") added up are at least `at_least` / at most
  /// `at_most` times the size captured as `of`; not when a size is missing or no size. A PyTorch
  /// OOM message whose free memory and this process's own are a small part of the card: the rest
  /// is another process's.
  struct ShareRequirement {
    std::vector<std::string> sum;
    std::string of;
    double at_least = 0;
    double at_most = -1;  ///< negative: no upper bound
  };
  std::vector<ShareRequirement> require_share;
  /// Ids of more general rules this one knows better: their answer is dropped for lines this
  /// rule also recognised (the container hook's "libnvidia-ml.so.1: cannot open shared object
  /// file" is the hook's, not the generic driver-library rule's).
  std::vector<std::string> supersedes;
  /// Ids of rules whose answer is the same failure as another layer prints it (the program's
  /// `uncorrectable ECC error encountered` under the driver's Xid 48): dropped when this rule
  /// answered anywhere in the log, whatever the lines.
  std::vector<std::string> explains;
  /// Captures that are facts about one line, not about the log (`tf_dso_loader`: TensorFlow's own
  /// loader printed it): the lines that have each of them and the lines that do not are gathered
  /// apart, as hits of their own, so that each part is ranked with its own captures and conditions
  /// and gets its own answer (a TensorFlow loader line and a PyTorch cuDNN line of one rule, in one
  /// log, are each their framework's; session 41).
  std::vector<std::string> split_by;
  /// The rule counts only where it matched at least this many lines (a repeated line: every rank
  /// printing `LOCAL_RANK: 0`); with fewer its hits are dropped before ranking (session 41).
  std::uint64_t min_lines = 1;
  std::vector<std::string> frameworks;
  std::vector<std::string> sources;
  /// Log lines the rule must recognise, each on its own (checked by the tests for the
  /// built-in rules and at load time for --kb rules).
  std::vector<std::string> examples;
  /// Which machine facts make the fix specific: "cudnn", "cuda-runtime", "driver",
  /// "framework-build", "gpu-arch", "nvcc-arch", "python", "wsl2", "container", "memory", "nccl",
  /// "legacy-driver", "".
  std::string tailor;
  std::vector<RuleCandidate> candidates;  ///< [0] is the rule's own cause
  std::string origin;                     ///< file it came from
  /// Defined (or replaced) by the user's --kb directory, whose examples each run checks.
  bool from_kb_dir = false;
  /// Generated from the error-code catalog (scripts/gen-error-catalog.py): answers only for
  /// lines no hand-written rule recognised, which know the context better.
  bool catalog = false;
  /// Reads a fact about where the log came from (a framework's version, the platform its
  /// paths show) for the other rules' conditions (LogFacts); never an answer itself.
  bool fact = false;
};

/// One error code of a vendor library, read from its header (data/explain/error-codes.toml).
struct ErrorCode {
  std::string family;  ///< "cudart", "cuda-driver", "cudnn", "cublas", "nccl", "nvml", ...
  std::string name;    ///< the enum name: "CUDA_ERROR_SYSTEM_NOT_READY"
  long long number = 0;
  std::string description;  ///< the header's doc comment
  std::string message;      ///< what the library's error-string function prints, when known
  std::string header;       ///< provenance: "cuda.h (CUDA 13.0)"
};

/// Version facts (tested builds, drivers) are not here: they come from the knowledge base
/// (kb/knowledge_base.hpp) through ExplainMachine.
struct RuleBase {
  std::vector<Rule> rules;
  std::vector<ErrorCode> codes;
};

}  // namespace gpudoctor
