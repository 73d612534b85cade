#pragma once
/// A reader for the small subset of Python literals that generated metadata files use
/// (TensorFlow's build_info.py, torch/version.py): strings, numbers, True/False/None, lists
/// and tuples, and top-level `name = value` / `name: Type = value` assignments. It never
/// executes anything and never throws: what it cannot read it skips and says so.
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor::pyfile {

struct PyValue {
  enum class Kind { none, boolean, number, string, list, unknown };
  Kind kind = Kind::unknown;
  bool boolean = false;
  std::string text;            ///< string value, or the number as written
  std::vector<PyValue> items;  ///< list / tuple elements
};

/// Parses one literal at the start of `text`; `consumed` receives the bytes used (0 on
/// failure, with kind unknown). Nesting deeper than a few levels counts as a failure.
PyValue parse_literal(std::string_view text, size_t& consumed);

struct Assignments {
  std::map<std::string, PyValue> values;  ///< top-level names bound to a readable literal
  std::vector<std::string> problems;      ///< lines that looked like assignments but were not
};

/// Top-level `name = literal` and `name: Annotation = literal` lines. Multi-line literals
/// (a list spanning lines) are read as a whole.
Assignments parse_assignments(std::string_view text);

/// True when the text holds bytes a generated Python file never contains (NUL, most
/// control characters), i.e. the file is binary junk rather than source.
bool looks_binary(std::string_view text);

/// When text looks binary, records message in problems and returns true: the parser then
/// returns what it has instead of reading junk as source.
bool refuse_binary(std::string_view text, std::string_view message, std::vector<std::string>& problems);

}  // namespace gpudoctor::pyfile
