#include "probe/python/python_literal.hpp"

#include <cctype>

#include "core/text.hpp"

namespace gpudoctor::pyfile {
namespace {

constexpr int kMaxDepth = 8;
constexpr size_t kMaxItems = 4096;

bool is_ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool is_ident(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  PyValue value(int depth) {
    skip_space();
    PyValue v;
    if (depth > kMaxDepth || pos_ >= text_.size()) return v;
    char c = text_[pos_];
    if (c == '\'' || c == '"') return string_value();
    if (c == '[' || c == '(') return sequence(c == '[' ? ']' : ')', depth);
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) return number();
    if (is_ident_start(c)) {
      size_t start = pos_;
      while (pos_ < text_.size() && is_ident(text_[pos_])) ++pos_;
      std::string_view word = text_.substr(start, pos_ - start);
      if (word == "True" || word == "False") {
        v.kind = PyValue::Kind::boolean;
        v.boolean = word == "True";
        return v;
      }
      if (word == "None") {
        v.kind = PyValue::Kind::none;
        return v;
      }
      pos_ = start;  // a name or call: not a literal
    }
    return v;
  }

  [[nodiscard]] size_t pos() const { return pos_; }

 private:
  void skip_space() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\') {
        ++pos_;
      } else if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

  PyValue string_value() {
    PyValue v;
    char quote = text_[pos_];
    size_t start = pos_;
    ++pos_;
    std::string out;
    while (pos_ < text_.size()) {
      char c = text_[pos_++];
      if (c == quote) {
        v.kind = PyValue::Kind::string;
        v.text = std::move(out);
        return v;
      }
      if (c == '\n') break;  // single-quoted strings never span lines
      if (c == '\\' && pos_ < text_.size()) {
        char e = text_[pos_++];
        switch (e) {
          case 'n':
            out += '\n';
            break;
          case 't':
            out += '\t';
            break;
          default:
            out += e;
            break;
        }
        continue;
      }
      out += c;
    }
    pos_ = start;
    return PyValue{};
  }

  PyValue number() {
    PyValue v;
    size_t start = pos_;
    if (text_[pos_] == '-') ++pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.')) {
      ++pos_;
    }
    v.text = std::string(text_.substr(start, pos_ - start));
    if (v.text == "-") {
      pos_ = start;
      return PyValue{};
    }
    v.kind = PyValue::Kind::number;
    return v;
  }

  PyValue sequence(char close, int depth) {
    size_t start = pos_;
    ++pos_;
    PyValue v;
    v.kind = PyValue::Kind::list;
    while (true) {
      skip_space();
      if (pos_ >= text_.size()) break;
      if (text_[pos_] == close) {
        ++pos_;
        return v;
      }
      PyValue item = value(depth + 1);
      if (item.kind == PyValue::Kind::unknown || v.items.size() >= kMaxItems) break;
      v.items.push_back(std::move(item));
      skip_space();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == close) {
        ++pos_;
        return v;
      }
      break;
    }
    pos_ = start;
    return PyValue{};
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

PyValue parse_literal(std::string_view text, size_t& consumed) {
  Reader r(text);
  PyValue v = r.value(0);
  consumed = v.kind == PyValue::Kind::unknown ? 0 : r.pos();
  return v;
}

Assignments parse_assignments(std::string_view text) {
  Assignments out;
  size_t pos = 0;
  int line_no = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    size_t line_start = pos;
    pos = end + 1;
    ++line_no;
    // Only top-level statements: indented lines belong to a block we do not evaluate.
    if (line.empty() || !is_ident_start(line[0])) continue;
    size_t i = 0;
    while (i < line.size() && is_ident(line[i])) ++i;
    std::string name(line.substr(0, i));
    std::string_view rest = line.substr(i);
    rest = trim(rest);
    if (!rest.empty() && rest[0] == ':') {  // annotation: "cuda: Optional[str] = '12.1'"
      size_t eq = rest.find('=');
      if (eq == std::string_view::npos) continue;
      rest = rest.substr(eq);
    }
    if (rest.empty() || rest[0] != '=' || (rest.size() > 1 && rest[1] == '=')) continue;
    // The literal may span lines: parse from here in the whole text.
    size_t value_start = line_start + static_cast<size_t>(rest.data() - line.data()) + 1;
    size_t consumed = 0;
    PyValue v = parse_literal(text.substr(value_start), consumed);
    if (v.kind == PyValue::Kind::unknown) {
      std::string_view shown = trim(rest.substr(1));
      // A call or a name on the right is ordinary Python, not a malformed literal.
      if (!shown.empty() && (shown[0] == '\'' || shown[0] == '"' || shown[0] == '[' || shown[0] == '(')) {
        out.problems.push_back("line " + std::to_string(line_no) + ": unreadable value for " + name + ": " +
                               printable(shown, 60));
      }
      continue;
    }
    out.values[name] = std::move(v);
    size_t value_end = value_start + consumed;
    if (value_end > pos) {
      // Skip the lines the literal covered.
      size_t nl = text.find('\n', value_end);
      pos = nl == std::string_view::npos ? text.size() : nl + 1;
    }
  }
  return out;
}

bool looks_binary(std::string_view text) {
  size_t bad = 0;
  for (unsigned char c : text) {
    if (c == 0) return true;
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f') ++bad;
  }
  return bad > 0 && bad * 100 > text.size();  // more than 1% control bytes
}

bool refuse_binary(std::string_view text, std::string_view message, std::vector<std::string>& problems) {
  if (!looks_binary(text)) return false;
  problems.emplace_back(message);
  return true;
}

}  // namespace gpudoctor::pyfile
