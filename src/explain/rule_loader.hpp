#pragma once
/// Reads explain rules from TOML text. Every file is untrusted (a user's --kb rules): a bad
/// file or a bad rule gives a message naming the file and the rule, never a crash; a rule
/// whose pattern RE2 rejects is refused at load, not at match time.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "explain/rule.hpp"

namespace gpudoctor {

struct RuleLoadResult {
  RuleBase base;
  std::vector<std::string> problems;  ///< rules or files skipped, in words
  /// Where each rule id stands in base.rules and which file defined it. A second definition in
  /// the same layer (built-in files, or the user's) is reported; one in the next layer replaces
  /// the first quietly (a --kb rule overriding a built-in one).
  struct Defined {
    size_t index = 0;
    std::string file;
    bool this_layer = true;
  };
  std::map<std::string, Defined, std::less<>> defined;
};

/// Parses one file's text into `out`; problems are appended, the good rules kept.
void parse_rule_file(std::string_view text, const std::string& origin, RuleLoadResult& out);

/// The built-in rules (data/explain/) overlaid by kb_dir/explain/ (empty: built-in only).
/// Errors only when kb_dir is given and unreadable; a later rule with an id already seen
/// replaces the earlier one (so a user can override a built-in rule).
Result<RuleLoadResult> load_rule_base(const std::string& kb_dir);

}  // namespace gpudoctor
