#include "explain/line_joiner.hpp"

#include "core/text.hpp"

namespace gpudoctor {

namespace {

/// Lines are wrapped at 80 columns or more; a shorter line that ends mid-sentence is a whole
/// line followed by another.
constexpr size_t kMinWrappedBytes = 60;

bool is_blank(char c) {
  return c == ' ' || c == '\t';
}
bool is_lower(char c) {
  return c >= 'a' && c <= 'z';
}
bool is_upper(char c) {
  return c >= 'A' && c <= 'Z';
}

std::string_view trim_right(std::string_view s) {
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

/// A Python exception or warning line: "RuntimeError: ...", "torch...DeferredCudaCallError: ...",
/// ".../__init__.py:83: UserWarning: ...".
bool names_exception(std::string_view s) {
  for (std::string_view kind : {"Error:", "Warning:", "Exception:"}) {
    const size_t at = s.find(kind);
    if (at != std::string_view::npos && at > 0 && !is_blank(s[at - 1])) return true;
  }
  return false;
}

/// A structured record that starts lower case, at the start of a line (an indented one is an
/// argument of the record above: a tensor repr's `dtype=...`): Go's slog and logfmt (`time=...
/// level=...`, Ollama's) and llama.cpp/ggml's `function_name: ...` (`load_backend:`,
/// `ggml_cuda_init:`). A `key=` head, or a snake_case name with its colon: ordinary words have no
/// underscore.
bool starts_structured_record(std::string_view body) {
  if (body.empty() || !is_lower(body[0])) return false;
  size_t n = 0;
  bool underscore = false;
  while (n < body.size() && n < 48 && (is_lower(body[n]) || is_ascii_digit(body[n]) || body[n] == '_')) {
    underscore = underscore || body[n] == '_';
    ++n;
  }
  return n < body.size() && (body[n] == '=' || (body[n] == ':' && underscore));
}

/// A row of `dpkg -l`: its status columns (desired: u i h r p; state: n c H U F W t i; then R for
/// an error, else a space), a space, the package ("ii  nvidia-utils-535  535.154.05-0ubuntu1 ...").
/// It starts lower case like a wrapped sentence but is a record of its own: joined to the line
/// above (an `NVRM version:` line), its version was never read.
bool starts_package_row(std::string_view body) {
  return body.size() > 4 && std::string_view("uihrp").find(body[0]) != std::string_view::npos &&
         std::string_view("ncHUFWti").find(body[1]) != std::string_view::npos && (body[2] == ' ' || body[2] == 'R') &&
         body[3] == ' ' && !is_blank(body[4]);
}

/// The start of a new log record, which no message continues into: a timestamp or counter,
/// a glog prefix (I0101 ...), a bracketed tag ([rank0], [W socket.cpp]), a traceback line, a
/// new exception.
bool starts_record(std::string_view body) {
  const char c = body[0];
  if (is_ascii_digit(c) || c == '[' || c == '<' || c == '{' || c == '"' || c == '#' || c == '+' || c == '$')
    return true;
  if (body.size() > 1 && (c == 'I' || c == 'W' || c == 'E' || c == 'F') && is_ascii_digit(body[1])) return true;
  if (starts_with(body, "File \"") || starts_with(body, "Traceback") || starts_with(body, "During handling") ||
      starts_with(body, "The above exception")) {
    return true;
  }
  // Only the head of a line can name a new exception: "RuntimeError: x", not "... see Error: y".
  return is_upper(c) && names_exception(body.substr(0, 120));
}

}  // namespace

bool LineJoiner::continues(std::string_view first, std::string_view last, std::string_view next) {
  last = trim_right(last);
  size_t indent = 0;
  while (indent < next.size() && is_blank(next[indent])) ++indent;
  const std::string_view body = trim_right(next.substr(indent));
  if (last.empty() || body.empty()) return false;
  const char end = last.back();
  // A sentence wrapped mid-way (by a terminal or a form, so the line is long) goes on in
  // lower case.
  const bool wrapped =
      last.size() >= kMinWrappedBytes && is_lower(body[0]) &&
      (is_lower(end) || is_upper(end) || is_ascii_digit(end) || end == ',' || end == '-' || end == '/' || end == '\'');
  // A head ending with ':' and its body ("UserWarning:", XLA's "INTERNAL: ...:").
  const bool head = end == ':';
  // Most lines are none of these: decided without looking further.
  if (!wrapped && !head && indent == 0) return false;
  if (starts_record(body) || (indent == 0 && (starts_structured_record(body) || starts_package_row(body))))
    return false;
  if (wrapped || head) return true;
  // A Python warning's or exception's further lines, indented.
  return names_exception(first.substr(0, 400));
}

bool LineJoiner::extend(std::string_view line) {
  if (!holding_ || held_parts_ >= kMaxParts || held_.size() + 1 + line.size() > kMaxJoinedBytes ||
      !continues(std::string_view(held_).substr(0, first_end_), std::string_view(held_).substr(last_start_), line)) {
    return false;
  }
  size_t indent = 0;
  while (indent < line.size() && is_blank(line[indent])) ++indent;
  while (!held_.empty() && is_blank(held_.back())) held_.pop_back();
  held_.push_back(' ');
  last_start_ = held_.size();
  held_.append(line.substr(indent));
  ++held_parts_;
  return true;
}

void LineJoiner::hold_started(std::uint64_t line_no) {
  held_no_ = line_no;
  held_parts_ = 1;
  first_end_ = held_.size();
  last_start_ = 0;
  holding_ = true;
}

void LineJoiner::add(std::string_view line, std::uint64_t line_no) {
  if (extend(line)) return;
  finish();
  held_.assign(line);
  hold_started(line_no);
}

void LineJoiner::take(std::string& line, std::uint64_t line_no) {
  if (extend(line)) return;
  finish();
  held_.swap(line);
  hold_started(line_no);
}

void LineJoiner::finish() {
  if (!holding_) return;
  holding_ = false;
  sink_(held_, held_no_);
}

}  // namespace gpudoctor
