#include "explain/explain_session.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <optional>
#include <set>

namespace gpudoctor {

namespace {

/// Facts that confirm every condition of a candidate move it this much up; facts that refute
/// one move it down as much. Larger than the gap between a rule and its alternatives, so the
/// machine decides when it can.
constexpr int kFactsWeight = 40;

}  // namespace

namespace {

bool is_name_char(char ch) {
  return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
}

/// Longest `{name|fallback}` recognised; longer braces are literal text.
constexpr size_t kMaxPlaceholderChars = 200;

/// A placeholder at text[i] ('{'): its name, its fallback (after '|'), and the index past
/// '}'. False when text[i] does not start one (literal brace).
bool parse_placeholder(std::string_view text, size_t i, std::string_view& name,
                       std::optional<std::string_view>& fallback, size_t& end) {
  const size_t close = text.find('}', i + 1);
  if (close == std::string_view::npos || close - i - 1 > kMaxPlaceholderChars) return false;
  std::string_view inner = text.substr(i + 1, close - i - 1);
  const size_t bar = inner.find('|');
  name = inner.substr(0, bar);
  if (name.empty() || name.size() > 40 || !std::all_of(name.begin(), name.end(), is_name_char)) return false;
  fallback.reset();
  if (bar != std::string_view::npos) fallback = inner.substr(bar + 1);
  end = close + 1;
  return true;
}

/// Drops a space left before punctuation or before another space once a placeholder went.
void tidy_before(std::string& out, std::string_view rest) {
  if (out.empty() || out.back() != ' ') return;
  if (rest.empty() || std::string_view(" ,.;:)").find(rest.front()) != std::string_view::npos) out.pop_back();
}

}  // namespace

std::string fill_placeholders(std::string_view text, const CaptureMap& captures) {
  std::string out;
  out.reserve(text.size() + 32);
  struct Clause {
    size_t at;          ///< position of '(' in out
    bool drop = false;  ///< a placeholder in it had no value and no fallback
  };
  std::vector<Clause> open;
  bool dropped = false;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '{') {
      std::string_view name;
      std::optional<std::string_view> fallback;
      size_t end = 0;
      if (parse_placeholder(text, i, name, fallback, end)) {
        auto it = captures.find(std::string(name));
        if (it != captures.end() && !it->second.empty()) {
          for (size_t k = 0; k < it->second.size(); ++k) {
            if (k > 0) out += ", ";
            out += it->second[k];
          }
        } else if (fallback) {
          out += *fallback;
        } else if (!open.empty()) {
          open.back().drop = true;  // "(... {x} ...)": the whole clause goes
        } else {
          dropped = true;
          tidy_before(out, text.substr(end));
        }
        i = end;
        continue;
      }
    } else if (c == '(') {
      open.push_back(Clause{out.size()});
    } else if (c == ')' && !open.empty()) {
      const Clause clause = open.back();
      open.pop_back();
      if (clause.drop) {
        // Also the space before it: "notes X (clause) it" -> "notes X it".
        const size_t from = clause.at > 0 && out[clause.at - 1] == ' ' ? clause.at - 1 : clause.at;
        out.erase(from);
        dropped = true;
        ++i;
        continue;
      }
    }
    out.push_back(c);
    ++i;
  }
  // An unclosed clause that lost its value: drop it to the end rather than leave a stump.
  for (const Clause& clause : open) {
    if (clause.drop && clause.at <= out.size()) {
      out.erase(clause.at);
      dropped = true;
      break;
    }
  }
  if (dropped) {
    while (!out.empty() && out.back() == ' ') out.pop_back();
    while (!out.empty() && out.front() == ' ') out.erase(0, 1);
  }
  return out;
}

namespace {

/// The platform parts a rule's text may hold, and where each is kept.
struct PlatformPart {
  std::string_view open;   ///< "{?linux:"
  std::string_view label;  ///< said when the platform is not known
  bool linux;
  bool wsl2;
  bool windows;
};
constexpr PlatformPart kPlatformParts[] = {
    {"{?linux:", "Linux", true, true, false},
    {"{?native-linux:", "Linux", true, false, false},
    {"{?wsl2:", "WSL2", false, true, false},
    {"{?windows:", "Windows", false, false, true},
};

}  // namespace

namespace {

/// A conditional part opening at the start of `rest`: how long its opening is ("{?linux:"), the
/// label said when the condition is not known, and whether its text is kept.
struct OpenedPart {
  size_t open_size = 0;
  std::string label;
  bool keep = false;
  bool known = false;
};

/// Keeps or drops the conditional parts `find` recognises; unknown ones all stay, labelled ("A
/// [Linux] or B [Windows]", "Linux: Use pip."). Shared by the platform and the version parts.
template <class Find>
std::string select_parts(std::string_view text, Find find) {
  std::string out;
  out.reserve(text.size());
  size_t last_part_end = std::string::npos;  ///< where the last kept part ended in `out`
  bool last_part_sentence = false;
  size_t i = 0;
  while (i < text.size()) {
    const std::optional<OpenedPart> part = text[i] == '{' ? find(text.substr(i)) : std::nullopt;
    if (!part) {
      out.push_back(text[i++]);
      continue;
    }
    // The matching '}' (the inner text may hold {placeholders}).
    const size_t open = i + part->open_size;
    size_t j = open;
    int depth = 1;
    while (j < text.size() && depth > 0) {
      if (text[j] == '{') ++depth;
      if (text[j] == '}') --depth;
      if (depth > 0) ++j;
    }
    if (depth > 0) {  // unclosed: literal text
      out.push_back(text[i++]);
      continue;
    }
    std::string_view inner = text.substr(open, j - open);
    if (part->keep && !part->known) {
      // Every part stays, each saying what it is for.
      size_t lead = inner.find_first_not_of(' ');
      if (lead == std::string_view::npos) lead = inner.size();
      std::string_view body = inner.substr(lead);
      if (!out.empty() && last_part_end == out.size()) {
        // Right after another part: "A [Linux] or B [Windows]"; a part that opens with its own
        // punctuation (", or ...") joins as it is.
        const bool joins = !body.empty() && std::ispunct(static_cast<unsigned char>(body.front())) != 0 &&
                           body.front() != '`' && body.front() != '(';
        if (last_part_sentence) {
          if (lead == 0) out += ' ';
        } else if (!joins) {
          out += " or ";
          inner = body;
          lead = 0;
        }
      }
      if (body.ends_with('.')) {
        out += std::string(inner.substr(0, lead)) + part->label + ": " + std::string(body);
        last_part_sentence = true;
      } else {
        out += std::string(inner) + " [" + part->label + "]";
        last_part_sentence = false;
      }
      last_part_end = out.size();
    } else if (part->keep) {
      out += inner;
    } else if (!out.empty() && out.back() == ' ' && (j + 1 >= text.size() || text[j + 1] == ' ')) {
      out.pop_back();  // no double space where the part was
    }
    i = j + 1;
  }
  return out;
}

/// The frameworks a version part may name, and their key in LogFacts::versions.
constexpr std::pair<std::string_view, std::string_view> kVersionPartNames[] = {
    {"torch", "pytorch"}, {"tensorflow", "tensorflow"}, {"jax", "jax"}};

}  // namespace

std::string select_platform_text(std::string_view text, std::optional<Platform> platform) {
  return select_parts(text, [&](std::string_view rest) -> std::optional<OpenedPart> {
    for (const PlatformPart& p : kPlatformParts) {
      if (!rest.starts_with(p.open)) continue;
      const bool keep = !platform || (*platform == Platform::linux && p.linux) ||
                        (*platform == Platform::wsl2 && p.wsl2) || (*platform == Platform::windows && p.windows);
      return OpenedPart{p.open.size(), std::string(p.label), keep, platform.has_value()};
    }
    return std::nullopt;
  });
}

std::string select_version_text(std::string_view text, const std::map<std::string, Version, std::less<>>& versions) {
  return select_parts(text, [&](std::string_view rest) -> std::optional<OpenedPart> {
    for (const auto& [name, key] : kVersionPartNames) {
      if (!rest.starts_with("{?") || !rest.substr(2).starts_with(name)) continue;
      const size_t colon = rest.find(':', 2 + name.size());
      if (colon == std::string_view::npos || colon > 64) return std::nullopt;
      const std::string_view spec_text = rest.substr(2 + name.size(), colon - 2 - name.size());
      if (spec_text.empty() || std::string_view("<>=!~").find(spec_text.front()) == std::string_view::npos) {
        return std::nullopt;
      }
      const std::optional<VersionSpec> spec = VersionSpec::parse(spec_text);
      if (!spec) return std::nullopt;
      const std::string shown = name == "torch" ? "PyTorch" : name == "tensorflow" ? "TensorFlow" : "JAX";
      std::string label = shown + " " + std::string(spec_text);
      if (spec_text.starts_with(">=") && spec_text.find(',') == std::string_view::npos) {
        label = shown + " " + std::string(spec_text.substr(2)) + " and later";
      } else if (spec_text.starts_with("<") && !spec_text.starts_with("<=") &&
                 spec_text.find(',') == std::string_view::npos) {
        label = shown + " before " + std::string(spec_text.substr(1));
      }
      const auto v = versions.find(key);
      const bool known = v != versions.end();
      return OpenedPart{colon + 1, label, !known || spec->contains(v->second), known};
    }
    return std::nullopt;
  });
}

std::optional<Platform> log_platform(const CaptureMap& captures, const ExplainMachine& machine) {
  bool dll = false;
  bool so = false;
  for (const auto& [name, values] : captures) {
    for (const std::string& v : values) {
      std::string lower = v;
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
      if (lower.ends_with(".dll")) dll = true;
      if (lower.ends_with(".so") || lower.find(".so.") != std::string::npos) so = true;
    }
  }
  std::optional<Platform> known =
      machine.facts != nullptr ? std::optional<Platform>(machine.facts->platform) : machine.platform;
  if (!known && machine.log.platform == Platform::wsl2) known = Platform::wsl2;  // the log's own WSL markers
  // The log's own Windows markers (log-fact-windows: a drive path, a DLL name on another line);
  // not when it shows a container, whose own lines are Linux's (Docker Desktop started from
  // PowerShell: `PS C:\...> docker run ...`).
  if (!known && machine.log.platform == Platform::windows && !machine.log.posix && !machine.log.container) {
    known = Platform::windows;
  }
  if (dll && !so) return Platform::windows;
  // A .so is Linux's or WSL2's: the machine tells which, Linux when it does not say.
  if (so && !dll) return known == Platform::wsl2 ? Platform::wsl2 : Platform::linux;
  return known;
}

namespace {

/// One command of a fix, read for the portable interpreter: its leading `NAME=value` assignments (a
/// POSIX shell's one-command environment) and the command after them, rewritten to run through
/// `python`; `runs_python` false when the command is none of pip's, uv pip's or `python -c`.
struct PortableCommand {
  std::vector<std::pair<std::string, std::string>> variables;
  std::string command;
  bool runs_python = false;
};

/// Where `what` is in `text` from `from` on, outside '...' and "..." (a separator inside `python -c
/// 'import torch; ...'` or `NAME="a; b"` is the command's own text).
size_t find_unquoted(std::string_view text, std::string_view what, size_t from) {
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
      continue;
    }
    if (i >= from && text.substr(i).starts_with(what)) return i;
    if (c == '\'' || c == '"') quote = c;
  }
  return std::string_view::npos;
}

/// `python -c` code for cmd, which takes no single quotes as quotes (python would get `'import`):
/// POSIX `'code'` becomes `"code"`, a `"` inside it `\"` (how the C runtime reads a program's
/// command line). PowerShell reads the same form. Anything else stays as it is.
std::string cmd_quoted(std::string_view args) {
  if (!args.starts_with('\'')) return std::string(args);
  const size_t close = args.find('\'', 1);
  if (close == std::string_view::npos) return std::string(args);
  std::string out = "\"";
  for (const char c : args.substr(1, close - 1)) {
    if (c == '"') out += '\\';
    out += c;
  }
  out += '"';
  out.append(args.substr(close + 1));
  return out;
}

PortableCommand portable_command(std::string_view text, const std::string& python) {
  PortableCommand out;
  auto is_name_char = [](char c, bool first) {
    return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_' ||
           (!first && std::isdigit(static_cast<unsigned char>(c)) != 0);
  };
  // NAME=value or NAME="value with spaces", each followed by a space.
  for (;;) {
    size_t n = 0;
    while (n < text.size() && is_name_char(text[n], n == 0)) ++n;
    if (n == 0 || n >= text.size() || text[n] != '=') break;
    size_t at = n + 1;
    std::string value;
    if (at < text.size() && text[at] == '"') {
      const size_t close = text.find('"', at + 1);
      if (close == std::string_view::npos) break;
      value = std::string(text.substr(at + 1, close - at - 1));
      at = close + 1;
    } else {
      const size_t space = text.find(' ', at);
      if (space == std::string_view::npos) break;
      value = std::string(text.substr(at, space - at));
      at = space;
    }
    if (at >= text.size() || text[at] != ' ') break;
    out.variables.emplace_back(std::string(text.substr(0, n)), std::move(value));
    text.remove_prefix(at + 1);
  }
  const std::string_view uv = "uv pip ";
  if (text.starts_with("pip ")) {
    out.command = python + " -m pip " + std::string(text.substr(4));
  } else if (text.starts_with("python -m pip ")) {
    out.command = python + " -m pip " + std::string(text.substr(14));
  } else if (text.starts_with("python -c ")) {
    out.command = python + " -c " + cmd_quoted(text.substr(10));
  } else if (text.starts_with(uv)) {
    // uv installs into the interpreter --python names (uv pip install/uninstall/list/show/freeze).
    const size_t sub_end = text.find(' ', uv.size());
    const std::string_view sub =
        text.substr(uv.size(), sub_end == std::string_view::npos ? std::string_view::npos : sub_end - uv.size());
    out.command = "uv pip " + std::string(sub) + " --python " + python +
                  (sub_end == std::string_view::npos ? "" : std::string(text.substr(sub_end)));
  } else {
    out.command = std::string(text);
    return out;
  }
  out.runs_python = true;
  return out;
}

/// The commands of a fix run through a portable interpreter (its text only, never a cause's): in
/// each `...` span, every command (the span's parts between " && " and "; ") that is `pip ...`,
/// `python -m pip ...` or `python -c ...` becomes "<python> -m pip ..." / "<python> -c ...", and
/// `uv pip SUB ...` "uv pip SUB --python <python> ...". Such a command with a POSIX `NAME=value`
/// prefix sets the variable first the Windows way: cmd's `set "NAME=value" && ...` in the span, and
/// the span again for PowerShell after it (`$env:NAME="value"; ...`, its parts joined by "; ").
std::string with_portable_python(const std::string& text, const std::string& python) {
  std::string out;
  size_t at = 0;
  while (at < text.size()) {
    const size_t open = text.find('`', at);
    const size_t close = open == std::string::npos ? std::string::npos : text.find('`', open + 1);
    if (close == std::string::npos) {
      out.append(text, at, std::string::npos);
      break;
    }
    out.append(text, at, open - at);
    const std::string_view span(text.data() + open + 1, close - open - 1);
    std::string cmd_form;
    std::string ps_form;
    bool any_variables = false;
    bool any_python = false;
    bool after_cd = false;         ///< a `cd` piece came before
    bool python_after_cd = false;  ///< and then the relative interpreter, which no longer resolves
    std::vector<bool> semicolons;  ///< after each piece but the last: "; " (else " && ")
    std::vector<std::string> cmd_pieces;
    size_t part = 0;
    while (part <= span.size()) {
      const size_t and_at = find_unquoted(span, " && ", part);
      const size_t semi_at = find_unquoted(span, "; ", part);
      const size_t end = std::min(and_at, semi_at);
      const std::string_view piece =
          span.substr(part, end == std::string_view::npos ? std::string_view::npos : end - part);
      const PortableCommand c = portable_command(piece, python);
      std::string cmd_piece;
      std::string ps_piece;
      if (c.runs_python && !c.variables.empty()) {
        any_variables = true;
        for (const auto& [name, value] : c.variables) {
          cmd_piece += "set \"" + name + "=" + value + "\" && ";
          ps_piece += "$env:" + name + "=\"" + value + "\"; ";
        }
        cmd_piece += c.command;
        ps_piece += c.command;
      } else if (c.runs_python) {
        cmd_piece = ps_piece = c.command;
      } else {
        cmd_piece = ps_piece = std::string(piece);
      }
      any_python = any_python || c.runs_python;
      python_after_cd = python_after_cd || (c.runs_python && after_cd);
      after_cd = after_cd || piece.starts_with("cd ");
      cmd_pieces.push_back(std::move(cmd_piece));
      ps_form += ps_piece;
      if (end == std::string_view::npos) break;
      const bool is_and = end == and_at;
      semicolons.push_back(!is_and);
      ps_form += "; ";
      part = end + (is_and ? 4 : 2);
    }
    // cmd has no `;` between commands (it reads it as a space between arguments): `&` runs the
    // next one whatever the first's exit status, as `;` does. Only in a span written for cmd.
    for (size_t k = 0; k < cmd_pieces.size(); ++k) {
      cmd_form += cmd_pieces[k];
      if (k < semicolons.size()) cmd_form += semicolons[k] ? (any_python ? " & " : "; ") : " && ";
    }
    out += "`" + cmd_form + "`";
    if (any_variables) out += " (PowerShell: `" + ps_form + "`)";
    // The interpreter's path is relative to the folder the user starts in; after a `cd` it is not
    // there. The log does not always say where that folder is: say so.
    if (python_after_cd && python.starts_with('.')) {
      out += " (" + python + " is relative to the folder you start in: after the `cd`, write python.exe's full path)";
    }
    at = close + 1;
  }
  return out;
}

/// An alternative for one platform only (`when = ["platform-wsl2"]`) is no cause of lines from
/// another: a Windows DLL line is never a WSL2 problem, nor a Linux .so line a native-Windows
/// one. The log's library names say which platform (a .so line may still be WSL2's unless the
/// machine is known), else the machine.
bool fits_platform(const RuleCandidate& c, const CaptureMap& captures, const ExplainMachine& machine) {
  const std::optional<Platform> log = log_platform(captures, machine);
  const bool machine_known = machine.facts != nullptr || machine.platform.has_value();
  for (const std::string& cond : c.when) {
    // A log with Linux's own markers (a manylinux wheel, a /lib/python3.X/site-packages path) and no
    // Windows one is no native-Windows log, though its lines name no library (session 40 review B).
    if (!log && cond == "platform-windows" && machine.log.posix && machine.log.platform != Platform::windows) {
      return false;
    }
    if (!log) return true;
    if (cond == "platform-windows" && *log != Platform::windows) return false;
    if (cond == "!platform-windows" && *log == Platform::windows) return false;  // a container, Linux's wheels
    if (cond == "platform-wsl2" && (*log == Platform::windows || (machine_known && *log != Platform::wsl2))) {
      return false;
    }
    if (cond == "platform-linux" && (*log == Platform::windows || (machine_known && *log != Platform::linux))) {
      return false;
    }
  }
  return true;
}

/// The framework versions a rule's version parts (`{?torch>=2.1:...}`) are decided by: the version
/// the log names (LogFacts::versions), else the probed machine's when all its environments have
/// the same one (which wrote the log is unknown), as for {torch_tag}.
std::map<std::string, Version, std::less<>> text_versions(const ExplainMachine& machine) {
  std::map<std::string, Version, std::less<>> out;
  for (const auto& [key, installed] :
       {std::pair<const char*, const char*>{"pytorch", "torch"}, {"tensorflow", "tensorflow"}, {"jax", "jax"}}) {
    // A log whose TensorFlow source paths bound its release (LogFacts::tf_below) but name none is
    // not the machine's TensorFlow: its parts stay labelled rather than follow the machine's
    // release, as the `tensorflow<X.Y` conditions do.
    if (std::string_view(key) == "tensorflow" && machine.log.tf_below && !machine.log.versions.contains(key)) continue;
    if (auto v = framework_version_of(machine, key, installed); v && !v->parts().empty()) out.emplace(key, *v);
  }
  return out;
}

/// The captures a rule's text may use beyond its own lines': the CUDA tag of the PyTorch the log
/// names ("2.1.2+cu118": torch_tag "cu118", torch_cuda "11.8", torch_cuda_dashed "11-8"), else of the probed machine's
/// PyTorch. A fix then names the toolkit or wheel index of that PyTorch, not a fixed example. The
/// rule's own capture of the same name wins.
CaptureMap text_captures(const CaptureMap& own, const ExplainMachine& machine) {
  std::string tag;
  if (const auto v = machine.log.versions.find("pytorch"); v != machine.log.versions.end()) {
    if (const auto plus = v->second.find('+'); plus != std::string::npos) tag = v->second.substr(plus + 1);
  } else if (machine.facts != nullptr) {
    // The machine's PyTorch only when all its environments agree: which one wrote the log is unknown.
    std::set<std::string> tags;
    for (const auto& env : machine.facts->python_envs) {
      for (const FrameworkFacts& fw : env.frameworks) {
        if (fw.name == "torch") tags.insert(fw.variant);
      }
    }
    if (tags.size() == 1) tag = *tags.begin();
  }
  const bool cuda_tag = tag.size() >= 4 && tag.size() <= 5 && tag.rfind("cu", 0) == 0 &&
                        std::all_of(tag.begin() + 2, tag.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
  if (!cuda_tag) return own;
  CaptureMap out = own;
  const std::string digits = tag.substr(2);  // "118": CUDA 11.8; "130": 13.0
  out.try_emplace("torch_tag", std::vector<std::string>{tag});
  const std::string major = digits.substr(0, digits.size() - 1);
  out.try_emplace("torch_cuda", std::vector<std::string>{major + "." + digits.back()});
  out.try_emplace("torch_cuda_dashed", std::vector<std::string>{major + "-" + digits.back()});  // apt's names
  return out;
}

/// True when every line of `h` is in `sorted_lines` (and it has lines): another answer covers it.
bool lines_covered(const RuleHits& h, const std::vector<std::uint64_t>& sorted_lines) {
  return !h.lines.empty() && std::all_of(h.lines.begin(), h.lines.end(), [&](std::uint64_t l) {
    return std::binary_search(sorted_lines.begin(), sorted_lines.end(), l);
  });
}

/// Non-empty when the log's own platform (its DLL names and C:\ paths, or its manylinux wheels
/// and POSIX site-packages) is not the platform of the machine whose facts were probed.
std::string foreign_log_note(const ExplainMachine& m) {
  if (m.facts == nullptr) return "";
  const Platform here = m.facts->os.wsl2 ? Platform::wsl2 : m.facts->platform;
  if (m.log.platform == Platform::windows && here != Platform::windows) {
    return std::string("the log comes from native Windows; this machine runs ") +
           (here == Platform::wsl2 ? "WSL2" : "Linux");
  }
  if (m.log.platform == Platform::wsl2 && here != Platform::wsl2) {
    return std::string("the log comes from WSL2; this machine runs ") +
           (here == Platform::windows ? "native Windows" : "Linux");
  }
  if (m.log.posix && here == Platform::windows) return "the log comes from Linux or WSL2; this machine runs Windows";
  return "";
}

}  // namespace

ExplainReport rank_hits(const RuleBase& base, const std::vector<RuleHits>& hits, const ExplainMachine& machine) {
  ExplainReport report;
  const std::map<std::string, Version, std::less<>> versions = text_versions(machine);
  report.probed = machine.facts != nullptr;
  // Lines a hand-written rule recognised: the catalog's generic answer for an error code on
  // such a line would only repeat it with less context.
  std::vector<std::uint64_t> known_lines;
  for (const RuleHits& h : hits) {
    if (h.rule_index < base.rules.size() && !base.rules[h.rule_index].catalog) {
      known_lines.insert(known_lines.end(), h.lines.begin(), h.lines.end());
    }
  }
  std::sort(known_lines.begin(), known_lines.end());
  // Lines each superseded rule must leave to the rule that knows them better.
  std::map<std::string, std::vector<std::uint64_t>, std::less<>> superseded_lines;
  for (const RuleHits& h : hits) {
    if (h.rule_index >= base.rules.size()) continue;
    for (const std::string& id : base.rules[h.rule_index].supersedes) {
      auto& lines = superseded_lines[id];
      lines.insert(lines.end(), h.lines.begin(), h.lines.end());
    }
  }
  for (auto& [id, lines] : superseded_lines) std::sort(lines.begin(), lines.end());
  // What the log showed happened is known once it was read: a candidate that needs an event the
  // log did not show (an assertion, xformers' optional Triton probe), or the absence of one it
  // did show, is no reading of these lines; it would only stand between the problem and its
  // other causes.
  auto log_refutes = [&](const RuleCandidate& c, const RuleHits& h) {
    return std::any_of(c.when.begin(), c.when.end(), [&](const std::string& cond) {
      const bool negated = !cond.empty() && cond.front() == '!';
      if (!is_log_event_condition(negated ? std::string_view(cond).substr(1) : std::string_view(cond))) return false;
      const Truth t = evaluate_condition(cond, h.captures, machine);
      return negated ? t == Truth::no : t == Truth::unknown;
    });
  };
  // The rule's own reading is the only one left for these lines (no other candidate fits the
  // platform and the log).
  auto keeps_own = [&](const Rule& rule, const RuleHits& h) {
    return std::none_of(rule.candidates.begin() + 1, rule.candidates.end(), [&](const RuleCandidate& c) {
      return fits_platform(c, h.captures, machine) && !log_refutes(c, h);
    });
  };
  // A hand-written rule whose only reading the log refutes: its answer goes where another answer
  // for each of its lines survives (below). Decided for every hit first, so that two rules the log
  // refutes on the same line do not drop each other and leave the line with no answer.
  std::vector<bool> refuted_only(hits.size(), false);
  for (size_t i = 0; i < hits.size(); ++i) {
    const RuleHits& h = hits[i];
    if (h.rule_index >= base.rules.size()) continue;
    const Rule& rule = base.rules[h.rule_index];
    if (rule.catalog || rule.fact) continue;
    refuted_only[i] = keeps_own(rule, h) && log_refutes(rule.candidates.front(), h);
  }
  // Lines an answer that survives covers: a hand-written rule's that the log does not refute and
  // that no rule supersedes there (the rule that supersedes it has those lines itself). A rule
  // dropped because another layer's line explains it, or another rule answers the same missing
  // library elsewhere, still counts: its failure is answered.
  std::vector<std::uint64_t> answered_lines;
  for (size_t i = 0; i < hits.size(); ++i) {
    const RuleHits& h = hits[i];
    if (h.rule_index >= base.rules.size() || refuted_only[i]) continue;
    const Rule& rule = base.rules[h.rule_index];
    if (rule.catalog || rule.fact) continue;
    if (const auto it = superseded_lines.find(rule.id); it != superseded_lines.end() && lines_covered(h, it->second)) {
      continue;
    }
    answered_lines.insert(answered_lines.end(), h.lines.begin(), h.lines.end());
  }
  std::sort(answered_lines.begin(), answered_lines.end());
  // Rules whose failure another rule's lines report from another layer (the driver's Xid for the
  // program's CUDA error): one answer, that rule's.
  // Not a rule whose only reading the log refutes: it explains nothing (NCCL 2.18's bug where
  // NCCL names another CUDA failure leaves nccl-unhandled-cuda-error its lines).
  std::set<std::string, std::less<>> explained;
  for (size_t i = 0; i < hits.size(); ++i) {
    const RuleHits& h = hits[i];
    if (h.rule_index >= base.rules.size() || refuted_only[i]) continue;
    const auto& ids = base.rules[h.rule_index].explains;
    explained.insert(ids.begin(), ids.end());
  }
  // A fact the log shows explains them too (its rule gives no answer of its own).
  explained.insert(machine.log.explains.begin(), machine.log.explains.end());
  // The missing libraries each superseded rule must leave to the rule that knows them better, when
  // other lines name them: a chained exception's inner OSError, a summary warning after the loader's
  // own line. The same library is the same failure.
  std::map<std::string, std::vector<std::string>, std::less<>> superseded_libs;
  for (const RuleHits& h : hits) {
    if (h.rule_index >= base.rules.size()) continue;
    const auto lib = h.captures.find("lib");
    if (lib == h.captures.end()) continue;
    for (const std::string& id : base.rules[h.rule_index].supersedes) {
      auto& libs = superseded_libs[id];
      libs.insert(libs.end(), lib->second.begin(), lib->second.end());
    }
  }
  auto same_libraries = [&](const RuleHits& h, const std::string& id) {
    const auto known = superseded_libs.find(id);
    const auto lib = h.captures.find("lib");
    if (known == superseded_libs.end() || lib == h.captures.end() || lib->second.empty()) return false;
    return std::all_of(lib->second.begin(), lib->second.end(), [&](const std::string& l) {
      return std::find(known->second.begin(), known->second.end(), l) != known->second.end();
    });
  };
  // Catalog rules with more lines first, so that one matching a subset of another's lines
  // (the runtime's 303 on one line, the driver's 303 on that line and another) is the one
  // dropped. On the same lines, the code whose own name the line prints comes first: CuPy's
  // "CUDA_ERROR_INVALID_SOURCE: device kernel image is invalid" is the driver's 300, not the
  // runtime's 200 whose message text the line also holds (session 40 review, log 14).
  auto names_its_code = [&](const RuleHits* h) {
    const std::string& id = base.rules[h->rule_index].id;
    const std::string_view name = std::string_view(id).substr(id.rfind('/') + 1);
    // The whole name: cudaErrorInvalidDevice is not printed inside cudaErrorInvalidDeviceFunction.
    auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
    return std::any_of(h->excerpts.begin(), h->excerpts.end(), [&](const std::string& e) {
      for (size_t at = e.find(name); at != std::string::npos; at = e.find(name, at + 1)) {
        const size_t end = at + name.size();
        if ((at == 0 || !is_word(e[at - 1])) && (end == e.size() || !is_word(e[end]))) return true;
      }
      return false;
    });
  };
  // Then the code whose message text the line prints, over one that matched the line by its number
  // only: PyTorch 1.x built with CUDA 10.0 or older prints THC's "cuda runtime error (4) :
  // unspecified launch failure" in that runtime's numbering (4 was cudaErrorLaunchFailure, today's
  // 719; today's 4 is cudaErrorCudartUnloading), and the text says which error it was (session 41).
  // A number with no known text after it still answers by today's numbering.
  std::map<std::string, std::string_view, std::less<>> code_messages;
  for (const ErrorCode& code : base.codes) {
    if (!code.message.empty()) code_messages.emplace("code/" + code.family + "/" + code.name, code.message);
  }
  auto prints_its_message = [&](const RuleHits* h) {
    const auto it = code_messages.find(base.rules[h->rule_index].id);
    if (it == code_messages.end()) return false;
    return std::any_of(h->excerpts.begin(), h->excerpts.end(),
                       [&](const std::string& e) { return e.find(it->second) != std::string::npos; });
  };
  std::vector<const RuleHits*> order;
  for (const RuleHits& h : hits) order.push_back(&h);
  std::stable_sort(order.begin(), order.end(), [&](const RuleHits* a, const RuleHits* b) {
    const bool ca = a->rule_index < base.rules.size() && base.rules[a->rule_index].catalog;
    const bool cb = b->rule_index < base.rules.size() && base.rules[b->rule_index].catalog;
    if (!ca || !cb) return false;
    if (a->lines.size() != b->lines.size()) return a->lines.size() > b->lines.size();
    const bool na = names_its_code(a);
    const bool nb = names_its_code(b);
    if (na != nb) return na;
    return prints_its_message(a) && !prints_its_message(b);
  });
  std::vector<std::uint64_t> catalog_lines;        ///< lines of catalog rules already taken, sorted
  std::vector<std::vector<ExplainMatch>> answers;  ///< one per rule that matched, best candidate first
  std::vector<RuleHits> answer_hits;               ///< the lines each answer stands for
  for (const RuleHits* hp : order) {
    const RuleHits& h = *hp;
    if (h.rule_index >= base.rules.size()) continue;
    const Rule& rule = base.rules[h.rule_index];
    if (explained.contains(rule.id)) continue;
    if (const auto it = superseded_lines.find(rule.id);
        it != superseded_lines.end() && (lines_covered(h, it->second) || same_libraries(h, rule.id))) {
      continue;
    }
    if (rule.catalog) {
      if (lines_covered(h, known_lines)) continue;
      // One code printed by two libraries' names on the same lines (the runtime's and the
      // driver's 303): one answer.
      if (lines_covered(h, catalog_lines)) continue;
      catalog_lines.insert(catalog_lines.end(), h.lines.begin(), h.lines.end());
      std::sort(catalog_lines.begin(), catalog_lines.end());
    }
    const std::string note = machine_note(rule, h.captures, machine);
    const std::string kb_fix = knowledge_fix(rule, h.captures, machine);
    const std::optional<Platform> platform = log_platform(h.captures, machine);
    const CaptureMap text_values = text_captures(h.captures, machine);
    auto render = [&](const std::string& text) {
      return fill_placeholders(select_version_text(select_platform_text(text, platform), versions), text_values);
    };
    // A portable Windows Python (ComfyUI's python_embeded, RVC's runtime) has no `pip` of its own
    // on PATH: a bare `pip` there reaches another Python. Not on a Linux line (a container's). Only
    // the fix's commands: a cause that names `pip install torch` says what happened.
    auto render_fix = [&](const std::string& text) {
      std::string out = render(text);
      if (!machine.log.portable_python.empty() && platform != Platform::linux && platform != Platform::wsl2) {
        out = with_portable_python(out, machine.log.portable_python);
      }
      return out;
    };
    // The rule's own cause goes too when another candidate is left to lead.
    const bool keep_own = keeps_own(rule, h);
    // The log refutes this rule's own reading and it has no other: another rule's answer for the
    // same lines is the one (python-import-cuda-lib-version-missing on ONNX Runtime's lines, which
    // cudart-missing/onnxruntime answers with the provider's own install).
    if (refuted_only[static_cast<size_t>(hp - hits.data())] && lines_covered(h, answered_lines)) continue;
    // Its own reading needs an event the log did not show (an MSVC build around a UTF-8 decode
    // error, msvc-output-not-utf8) and it has no other: these lines are not what it is about.
    const RuleCandidate& own = rule.candidates.front();
    if (keep_own && !rule.catalog && std::any_of(own.when.begin(), own.when.end(), [&](const std::string& cond) {
          return !cond.starts_with('!') && is_log_event_condition(cond) &&
                 evaluate_condition(cond, h.captures, machine) == Truth::unknown;
        })) {
      continue;
    }
    std::vector<ExplainMatch> answer;  ///< this rule's candidates for these lines
    for (size_t k = 0; k < rule.candidates.size(); ++k) {
      const RuleCandidate& c = rule.candidates[k];
      // Another platform's alternative is no cause of these lines; a rule's own cause stays,
      // ranked down by its `when` like any contradicted answer.
      if (k > 0 && !fits_platform(c, h.captures, machine)) continue;
      if (log_refutes(c, h) && (k > 0 || !keep_own)) continue;
      ExplainMatch m{.rule = c.id,
                     .title = rule.title,
                     .category = c.category,
                     .severity = c.severity,
                     .harmless = c.harmless,
                     .count = h.count,
                     .lines = h.lines,
                     .excerpts = h.excerpts,
                     .captures = h.captures,
                     .cause = render(c.cause),
                     .fix = render_fix(c.fix),
                     .machine = note,
                     .sources = rule.sources,
                     .score = c.priority};
      if (k == 0 && !kb_fix.empty()) m.fix += " " + kb_fix;
      bool any_no = false;
      bool all_yes = false;
      bool any_unknown = false;
      bool machine_decided = false;  // a condition the machine's facts (not the log) decided
      for (const auto& cond : c.when) {
        const Truth t = evaluate_condition(cond, h.captures, machine);
        // "Not an ONNX Runtime log" when the log shows none of its lines: no evidence either way,
        // so the other conditions decide (log_refutes drops the candidate when the log shows it).
        if (t == Truth::unknown && cond.starts_with('!') && is_log_event_condition(std::string_view(cond).substr(1))) {
          continue;
        }
        if (t == Truth::no) any_no = true;
        if (t == Truth::yes) all_yes = true;
        if (t == Truth::unknown) any_unknown = true;
        const std::string_view name = cond.starts_with('!') ? std::string_view(cond).substr(1) : std::string_view(cond);
        if (t != Truth::unknown && !is_log_event_condition(name)) machine_decided = true;
      }
      all_yes = all_yes && !any_no && !any_unknown;
      if (any_no) {
        m.score -= kFactsWeight;
        m.facts_verdict = "contradicted";
      } else if (all_yes) {
        m.score += kFactsWeight;
        m.facts_verdict = "supported";
      }
      // With no machine facts (--no-probe without --platform) whatever decided came from the log
      // (its platform markers, a +cpu tag), not from this machine.
      m.facts_from_log =
          !m.facts_verdict.empty() && ((machine.facts == nullptr && !machine.platform) || !machine_decided);
      answer.push_back(std::move(m));
    }
    // One answer for these lines: the best-scored candidate leads (the rule's own on a tie),
    // the others follow it as other possible causes.
    std::stable_sort(answer.begin(), answer.end(),
                     [](const ExplainMatch& a, const ExplainMatch& b) { return a.score > b.score; });
    for (size_t k = 0; k < answer.size(); ++k) answer[k].alternative = k > 0;
    if (answer.empty()) continue;
    // The parts of one rule (split_by) that pick the same leading answer are one answer: the
    // split only separates lines that get different answers (a TensorFlow-only log whose cuDNN
    // lines fall in two parts gets one cudnn-library-missing, not two identical ones). Its lines
    // and captures are all the parts', and its texts are written again from them.
    const auto same = std::find_if(answers.begin(), answers.end(), [&](const std::vector<ExplainMatch>& other) {
      return other.front().rule == answer.front().rule;
    });
    if (same == answers.end()) {
      answers.push_back(std::move(answer));
      answer_hits.push_back(h);
      continue;
    }
    RuleHits& merged = answer_hits[static_cast<size_t>(same - answers.begin())];
    merged.count += h.count;
    merged.lines.insert(merged.lines.end(), h.lines.begin(), h.lines.end());
    std::sort(merged.lines.begin(), merged.lines.end());
    merged.lines.erase(std::unique(merged.lines.begin(), merged.lines.end()), merged.lines.end());
    for (const std::string& e : h.excerpts) {
      if (merged.excerpts.size() < RuleHits::kMaxExcerpts) merged.excerpts.push_back(e);
    }
    for (const auto& [name, values] : h.captures) {
      auto& kept = merged.captures[name];
      for (const std::string& v : values) {
        if (std::find(kept.begin(), kept.end(), v) == kept.end()) kept.push_back(v);
      }
    }
    const std::string merged_note = machine_note(rule, merged.captures, machine);
    const std::string merged_kb_fix = knowledge_fix(rule, merged.captures, machine);
    const std::optional<Platform> merged_platform = log_platform(merged.captures, machine);
    const CaptureMap merged_values = text_captures(merged.captures, machine);
    auto merged_render = [&](const std::string& text) {
      return fill_placeholders(select_version_text(select_platform_text(text, merged_platform), versions),
                               merged_values);
    };
    for (ExplainMatch& m : *same) {
      const auto c = std::find_if(rule.candidates.begin(), rule.candidates.end(),
                                  [&](const RuleCandidate& cand) { return cand.id == m.rule; });
      if (c == rule.candidates.end()) continue;
      m.count = merged.count;
      m.lines = merged.lines;
      m.excerpts = merged.excerpts;
      m.captures = merged.captures;
      m.cause = merged_render(c->cause);
      m.fix = merged_render(c->fix);
      if (!machine.log.portable_python.empty() && merged_platform != Platform::linux &&
          merged_platform != Platform::wsl2) {
        m.fix = with_portable_python(m.fix, machine.log.portable_python);
      }
      if (c == rule.candidates.begin() && !merged_kb_fix.empty()) m.fix += " " + merged_kb_fix;
      m.machine = merged_note;
    }
  }
  // Answers that are real problems first, whatever their score: a harmless line never hides a
  // real one. Then by the leading candidate's score, then the earliest line (the first error
  // usually causes the later ones).
  std::stable_sort(answers.begin(), answers.end(),
                   [](const std::vector<ExplainMatch>& x, const std::vector<ExplainMatch>& y) {
                     const ExplainMatch& a = x.front();
                     const ExplainMatch& b = y.front();
                     if (a.harmless != b.harmless) return !a.harmless;
                     if (a.score != b.score) return a.score > b.score;
                     const auto la = a.lines.empty() ? UINT64_MAX : a.lines.front();
                     const auto lb = b.lines.empty() ? UINT64_MAX : b.lines.front();
                     if (la != lb) return la < lb;
                     return a.rule < b.rule;
                   });
  for (auto& answer : answers) {
    for (auto& m : answer) report.matches.push_back(std::move(m));
  }
  return report;
}

ExplainSession::ExplainSession(const RuleMatcher& matcher)
    : matcher_(matcher),
      scanner_(matcher),
      joiner_([this](std::string_view line, std::uint64_t line_no) { scanner_.add_line(line, line_no); }),
      second_joiner_([this](std::string_view line, std::uint64_t line_no) { scanner_.add_line(line, line_no); }),
      decoder_([this](std::string& line, std::uint64_t no) { take_line(line, joiner_, no, first_no_); }),
      second_decoder_(
          [this](std::string& line, std::uint64_t no) { take_line(line, second_joiner_, no, second_no_); }) {}

void ExplainSession::take_line(std::string& whole, LineJoiner& joiner, std::uint64_t decoder_no,
                               std::uint64_t& last_no) {
  if (decoder_no != last_no) ++lines_;  // else another part of the line just numbered
  last_no = decoder_no;
  std::string_view line = whole;
  // Short lines are never pasted logs; the search costs a memchr-speed pass over the others.
  constexpr size_t kMinEscapedLogBytes = 160;
  size_t at = line.size() >= kMinEscapedLogBytes ? line.find("\\n") : std::string_view::npos;
  // Two escapes at least, and no Windows path with single backslashes (`C:\Windows\nvcuda.dll`
  // holds a "\n" that is not a line end).
  if (at != std::string_view::npos &&
      (line.find("\\n", at + 2) == std::string_view::npos || line.find(":\\") != std::string_view::npos)) {
    at = std::string_view::npos;
  }
  if (at == std::string_view::npos) {
    joiner.take(whole, lines_);  // the joiner keeps the decoder's buffer: no copy
    return;
  }
  while (at != std::string_view::npos) {
    joiner.add(line.substr(0, at), lines_);
    line.remove_prefix(at + 2);
    at = line.find("\\n");
  }
  joiner.add(line, lines_);
}

ExplainReport ExplainSession::finish(const ExplainMachine& machine) {
  decoder_.finish();
  second_decoder_.finish();
  joiner_.finish();
  second_joiner_.finish();
  scanner_.finish();
  std::vector<RuleHits> hits = scanner_.hits();
  // A rule that must see a line repeated (min_lines) and saw it fewer times did not match.
  std::erase_if(hits, [&](const RuleHits& h) {
    return h.rule_index < matcher_.base().rules.size() && h.count < matcher_.base().rules[h.rule_index].min_lines;
  });
  ExplainMachine with_log = machine;
  take_log_facts(matcher_.base(), hits, with_log.log);
  // A log from another platform describes another system: this machine's facts (its cuDNN, its
  // driver) must not pick the cause; the text alone does.
  const std::string foreign = foreign_log_note(with_log);
  if (!foreign.empty()) {
    with_log.facts = nullptr;
    with_log.platform.reset();
  }
  ExplainReport report = rank_hits(matcher_.base(), hits, with_log);
  report.facts_note = foreign;
  report.input = decoder_.stats();
  const LogDecoderStats& second = second_decoder_.stats();
  report.input.bytes_in += second.bytes_in;
  report.input.lines += second.lines;
  report.input.lines_truncated += second.lines_truncated;
  report.input.control_bytes += second.control_bytes;
  return report;
}

std::vector<std::string> check_rule_examples(const RuleMatcher& matcher, RulesChecked which) {
  std::vector<std::string> problems;
  for (const Rule& rule : matcher.base().rules) {
    if (which == RulesChecked::kb_dir && !rule.from_kb_dir) continue;
    for (const std::string& example : rule.examples) {
      // What the rule itself matched, before ranking (which may defer a catalog rule to a
      // hand-written rule for the same line).
      LogScanner scanner(matcher);
      scanner.add_line(example, 1);
      scanner.finish();
      const auto hits = scanner.hits();
      const bool found = std::any_of(hits.begin(), hits.end(),
                                     [&](const RuleHits& h) { return &matcher.base().rules[h.rule_index] == &rule; });
      if (!found) {
        problems.push_back("rule '" + rule.id + "' (" + rule.origin +
                           ") does not recognise its example: " + example.substr(0, 200));
      }
    }
  }
  return problems;
}

ExplainReport explain_text(const RuleMatcher& matcher, std::string_view text, const ExplainMachine& machine) {
  ExplainSession session(matcher);
  session.feed(text);
  return session.finish(machine);
}

}  // namespace gpudoctor
