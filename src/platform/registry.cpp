#include "platform/registry.hpp"

#include <algorithm>
#include <array>
#include <map>

#include "core/text.hpp"
#include "core/utf8.hpp"

namespace gpudoctor {
namespace {

struct Hive {
  const char* full;
  const char* abbrev;
};
constexpr std::array<Hive, 5> kHives = {{{"HKEY_LOCAL_MACHINE", "HKLM"},
                                         {"HKEY_CURRENT_USER", "HKCU"},
                                         {"HKEY_USERS", "HKU"},
                                         {"HKEY_CLASSES_ROOT", "HKCR"},
                                         {"HKEY_CURRENT_CONFIG", "HKCC"}}};

/// The in-memory registry of an export: keys by their upper-cased full name.
class ExportedRegistry final : public Registry {
 public:
  explicit ExportedRegistry(std::string source) : source_(std::move(source)) {}

  struct Key {
    std::vector<std::string> subkeys;  ///< names as written
    std::vector<RegistryValue> values;
  };

  /// The key, created with its parents (an export names a key before or without its parents).
  Key* ensure(const std::string& full) {
    std::string upper = to_upper(full);
    if (auto it = keys_.find(upper); it != keys_.end()) return &it->second;
    if (keys_.size() >= RegistryExport::kMaxKeys) return nullptr;
    auto slash = full.find_last_of('\\');
    if (slash != std::string::npos) {
      Key* parent = ensure(full.substr(0, slash));
      if (parent == nullptr) return nullptr;
      parent->subkeys.push_back(full.substr(slash + 1));
    }
    return &keys_[upper];
  }

  void set(Key& key, RegistryValue v) {
    for (RegistryValue& old : key.values) {
      if (iequals(old.name, v.name)) {
        old = std::move(v);
        return;
      }
    }
    key.values.push_back(std::move(v));
  }

  [[nodiscard]] Result<std::vector<std::string>> subkeys(std::string_view key, RegistryBits bits) const override {
    const Key* k = find(key, bits);
    if (k == nullptr) return Error{ErrorKind::not_found, "no such key in " + source_, std::string(key)};
    return k->subkeys;
  }
  [[nodiscard]] Result<std::vector<RegistryValue>> values(std::string_view key, RegistryBits bits) const override {
    const Key* k = find(key, bits);
    if (k == nullptr) return Error{ErrorKind::not_found, "no such key in " + source_, std::string(key)};
    return k->values;
  }
  [[nodiscard]] std::string source() const override { return source_; }

 private:
  /// The 32-bit view of HKLM\SOFTWARE is its WOW6432Node subkey in an export of a 64-bit system.
  [[nodiscard]] const Key* find(std::string_view key, RegistryBits bits) const {
    std::string full = to_upper(full_registry_key(key));
    if (full.empty()) return nullptr;
    if (bits == RegistryBits::wow32) {
      const std::string software = "HKEY_LOCAL_MACHINE\\SOFTWARE";
      if (full.starts_with(software + "\\") && !full.starts_with(software + "\\WOW6432NODE")) {
        full = software + "\\WOW6432NODE" + full.substr(software.size());
      }
    }
    auto it = keys_.find(full);
    return it == keys_.end() ? nullptr : &it->second;
  }

  std::string source_;
  std::map<std::string, Key> keys_;
};

/// A quoted .reg string ("C:\\Program Files\\x" with \\ and \" escapes) from pos; the text and
/// the position after the closing quote, or nullopt when it is not closed.
std::optional<std::pair<std::string, size_t>> quoted(std::string_view line, size_t pos) {
  if (pos >= line.size() || line[pos] != '"') return std::nullopt;
  std::string out;
  for (size_t i = pos + 1; i < line.size(); ++i) {
    char c = line[i];
    if (c == '\\' && i + 1 < line.size()) {
      out.push_back(line[++i]);
    } else if (c == '"') {
      return std::pair{out, i + 1};
    } else {
      out.push_back(c);
    }
  }
  return std::nullopt;
}

std::optional<std::string> hex_bytes(std::string_view list) {
  std::string out;
  for (std::string_view part : split(list, ',')) {
    part = trim(part);
    if (part.empty()) continue;
    if (part.size() > 2) return std::nullopt;
    unsigned v = 0;
    for (char c : part) {
      int d = c >= '0' && c <= '9'   ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                     : -1;
      if (d < 0) return std::nullopt;
      v = v * 16 + static_cast<unsigned>(d);
    }
    out.push_back(static_cast<char>(v));
  }
  return out;
}

/// String data of a hex(2)/hex(7) value: UTF-16LE in a version 5 export, ANSI in REGEDIT4.
std::string string_data(std::string_view raw, bool utf16) {
  std::string s = utf16 ? utf16le_to_utf8(raw) : std::string(raw);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

/// `dword:0000001a`, `hex(2):43,00`, `"text"`: the value's type and data.
std::optional<RegistryValue> parse_data(std::string_view data, bool utf16, std::string& why) {
  RegistryValue v;
  if (data.starts_with("\"")) {
    auto q = quoted(data, 0);
    if (!q || !trim(data.substr(q->second)).empty()) {
      why = "string value not closed";
      return std::nullopt;
    }
    v.type = "REG_SZ";
    v.text = q->first;
    return v;
  }
  if (data.starts_with("dword:")) {
    std::string_view digits = trim(data.substr(6));
    if (digits.empty() || digits.size() > 8 ||
        digits.find_first_not_of("0123456789abcdefABCDEF") != std::string_view::npos) {
      why = "dword not 8 hex digits";
      return std::nullopt;
    }
    v.type = "REG_DWORD";
    v.number = std::stoull(std::string(digits), nullptr, 16);
    v.text = std::to_string(*v.number);
    return v;
  }
  if (data.starts_with("hex")) {
    int type = 3;  // REG_BINARY
    size_t colon = data.find(':');
    if (colon == std::string_view::npos) {
      why = "hex value without ':'";
      return std::nullopt;
    }
    std::string_view head = data.substr(0, colon);
    if (head != "hex") {
      if (head.size() < 6 || head.substr(0, 4) != "hex(" || head.back() != ')') {
        why = "unknown value type";
        return std::nullopt;
      }
      std::string_view t = head.substr(4, head.size() - 5);
      if (t.empty() || t.size() > 8 || t.find_first_not_of("0123456789abcdefABCDEF") != std::string_view::npos) {
        why = "unknown value type";
        return std::nullopt;
      }
      type = static_cast<int>(std::stoul(std::string(t), nullptr, 16));
    }
    auto raw = hex_bytes(data.substr(colon + 1));
    if (!raw) {
      why = "bad hex bytes";
      return std::nullopt;
    }
    switch (type) {
      case 1:
      case 2:
        v.type = type == 1 ? "REG_SZ" : "REG_EXPAND_SZ";
        v.text = string_data(*raw, utf16);
        break;
      case 7: {
        v.type = "REG_MULTI_SZ";
        std::string s = string_data(*raw, utf16);
        std::replace(s.begin(), s.end(), '\0', '\n');
        v.text = s;
        break;
      }
      case 4:
      case 11: {
        v.type = type == 4 ? "REG_DWORD" : "REG_QWORD";
        const size_t n = type == 4 ? 4 : 8;
        if (raw->size() != n) {
          why = "number of the wrong size";
          return std::nullopt;
        }
        std::uint64_t x = 0;
        for (size_t i = n; i-- > 0;) x = (x << 8) | static_cast<unsigned char>((*raw)[i]);
        v.number = x;
        v.text = std::to_string(x);
        break;
      }
      default: {
        v.type = type == 3 ? "REG_BINARY" : "REG_TYPE_" + std::to_string(type);
        static const char* kHex = "0123456789abcdef";
        for (unsigned char c : *raw) {
          v.text.push_back(kHex[c >> 4]);
          v.text.push_back(kHex[c & 15]);
        }
      }
    }
    return v;
  }
  why = "unknown value format";
  return std::nullopt;
}

}  // namespace

std::string full_registry_key(std::string_view key) {
  key = trim(key);
  while (!key.empty() && key.back() == '\\') key.remove_suffix(1);
  std::string_view root = key.substr(0, key.find('\\'));
  std::string_view rest = root.size() < key.size() ? key.substr(root.size()) : std::string_view();
  for (const Hive& h : kHives) {
    if (iequals(root, h.full) || iequals(root, h.abbrev)) {
      std::string out = h.full;
      bool sep = false;
      for (char c : rest) {
        if (c == '\\') {
          sep = true;
          continue;
        }
        if (sep) out.push_back('\\');
        sep = false;
        out.push_back(c);
      }
      return out;
    }
  }
  return {};
}

std::optional<RegistryValue> Registry::value(std::string_view key, std::string_view name, RegistryBits bits) const {
  auto vs = values(key, bits);
  if (!vs) return std::nullopt;
  for (const RegistryValue& v : *vs) {
    if (iequals(v.name, name)) return v;
  }
  return std::nullopt;
}

std::optional<std::string> Registry::text(std::string_view key, std::string_view name, RegistryBits bits) const {
  auto v = value(key, name, bits);
  if (!v || (v->type != "REG_SZ" && v->type != "REG_EXPAND_SZ")) return std::nullopt;
  return v->text;
}

std::unique_ptr<Registry> parse_registry_export(std::string_view bytes, std::string source_name) {
  auto reg = std::make_unique<ExportedRegistry>("registry export " + source_name);
  size_t problems = 0;
  auto problem = [&](std::string text) {
    ++problems;
    reg->add_problem(std::move(text));
  };
  if (bytes.size() > RegistryExport::kMaxBytes) {
    problem("larger than " + std::to_string(RegistryExport::kMaxBytes) + " bytes; only the first " +
            std::to_string(RegistryExport::kMaxBytes) + " were read");
    bytes = bytes.substr(0, RegistryExport::kMaxBytes);
  }
  std::string text;
  if (bytes.starts_with("\xFF\xFE")) {
    text = utf16le_to_utf8(bytes.substr(2));
  } else {
    text = std::string(bytes.starts_with("\xEF\xBB\xBF") ? bytes.substr(3) : bytes);
  }
  std::vector<std::string_view> all = lines(text);
  size_t i = 0;
  while (i < all.size() && trim(all[i]).empty()) ++i;
  bool utf16_strings = true;
  if (i < all.size() && trim(all[i]) == "Windows Registry Editor Version 5.00") {
    ++i;
  } else if (i < all.size() && trim(all[i]) == "REGEDIT4") {
    utf16_strings = false;
    ++i;
  } else {
    problem(
        "not a registry export: the first line is neither \"Windows Registry Editor Version 5.00\" nor "
        "\"REGEDIT4\"");
    return reg;
  }
  ExportedRegistry::Key* current = nullptr;
  bool skipping = false;  // inside a deleted key, or a key past the bound
  size_t bad_lines = 0;
  bool keys_bound = false;
  for (; i < all.size(); ++i) {
    std::string line(trim(all[i]));
    const size_t line_no = i + 1;
    // Exports joined with `copy /b a.reg+b.reg`: each part starts with its own mark and header.
    if (line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
    if (line == "Windows Registry Editor Version 5.00" || line == "REGEDIT4") continue;
    // A hex value continues over lines ending with a backslash.
    while (!line.empty() && line.back() == '\\' && line.find('=') != std::string::npos && i + 1 < all.size() &&
           line.size() < RegistryExport::kMaxValueBytes * 4) {
      line.pop_back();
      line += trim(all[++i]);
    }
    if (line.empty() || line[0] == ';') continue;
    if (line[0] == '[') {
      if (line.back() != ']') {
        ++bad_lines;
        problem("line " + std::to_string(line_no) + ": key name not closed with ']'");
        current = nullptr;
        skipping = true;
        continue;
      }
      std::string name = line.substr(1, line.size() - 2);
      if (name.starts_with("-")) {
        current = nullptr;
        skipping = true;
        continue;
      }
      std::string full = full_registry_key(name);
      if (full.empty()) {
        ++bad_lines;
        problem("line " + std::to_string(line_no) + ": not a registry hive: " + printable(name, 80));
        current = nullptr;
        skipping = true;
        continue;
      }
      current = reg->ensure(full);
      skipping = current == nullptr;
      if (current == nullptr && !keys_bound) {
        keys_bound = true;
        problem("more than " + std::to_string(RegistryExport::kMaxKeys) + " keys; the rest were not read");
      }
      continue;
    }
    if (skipping) continue;
    if (current == nullptr) {
      ++bad_lines;
      problem("line " + std::to_string(line_no) + ": a value before any [key]");
      continue;
    }
    RegistryValue v;
    size_t eq = 0;
    if (line[0] == '@') {
      eq = 1;
    } else if (auto q = quoted(line, 0)) {
      v.name = q->first;
      eq = q->second;
    } else {
      ++bad_lines;
      problem("line " + std::to_string(line_no) + ": not a key, a value or a comment");
      continue;
    }
    std::string_view rest = trim(std::string_view(line).substr(eq));
    if (!rest.starts_with("=")) {
      ++bad_lines;
      problem("line " + std::to_string(line_no) + ": value without '='");
      continue;
    }
    rest = trim(rest.substr(1));
    if (rest == "-") continue;  // a deleted value
    if (rest.size() > RegistryExport::kMaxValueBytes * 4) {
      problem("line " + std::to_string(line_no) + ": value larger than " +
              std::to_string(RegistryExport::kMaxValueBytes) + " bytes, not read");
      continue;
    }
    std::string why;
    auto data = parse_data(rest, utf16_strings, why);
    if (!data) {
      ++bad_lines;
      problem("line " + std::to_string(line_no) + ": " + why);
      continue;
    }
    data->name = std::move(v.name);
    reg->set(*current, std::move(*data));
  }
  if (problems > RegistryExport::kMaxProblems) {
    reg->add_problem(std::to_string(problems) + " problems in all (" + std::to_string(bad_lines) +
                         " lines not understood); the first " + std::to_string(RegistryExport::kMaxProblems) +
                         " are listed",
                     true);
  }
  return reg;
}

}  // namespace gpudoctor
