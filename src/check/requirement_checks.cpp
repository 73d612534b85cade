#include "check/requirement_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "check/nvidia_wheel_checks.hpp"
#include "check/which_pip.hpp"
#include "core/text.hpp"
#include "core/version.hpp"
#include "kb/knowledge_base.hpp"
#include "model/framework.hpp"

namespace gpudoctor {
namespace {

// ---- PEP 508 markers, in three values: true, false, unknown (nullopt) ----

using Maybe = std::optional<bool>;

struct Token {
  enum Kind { word, string, op, open, close, end } kind = end;
  std::string text;
};

std::vector<Token> tokenize(std::string_view s, bool& ok) {
  std::vector<Token> out;
  ok = true;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      ++i;
    } else if (c == '(' || c == ')') {
      out.push_back({c == '(' ? Token::open : Token::close, std::string(1, c)});
      ++i;
    } else if (c == '"' || c == '\'') {
      size_t close = s.find(c, i + 1);
      if (close == std::string_view::npos) {
        ok = false;
        return out;
      }
      out.push_back({Token::string, std::string(s.substr(i + 1, close - i - 1))});
      i = close + 1;
    } else if (std::string_view("<>=!~").find(c) != std::string_view::npos) {
      size_t j = i;
      while (j < s.size() && std::string_view("<>=!~").find(s[j]) != std::string_view::npos) ++j;
      out.push_back({Token::op, std::string(s.substr(i, j - i))});
      i = j;
    } else if (std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_') {
      size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) != 0 || s[j] == '_' || s[j] == '.')) ++j;
      out.push_back({Token::word, std::string(s.substr(i, j - i))});
      i = j;
    } else {
      ok = false;
      return out;
    }
  }
  out.push_back({Token::end, ""});
  return out;
}

class MarkerParser {
 public:
  MarkerParser(std::vector<Token> tokens, const MarkerEnvironment& env) : t_(std::move(tokens)), env_(env) {}

  /// The whole marker; nullopt also when it does not parse to the end.
  Maybe parse() {
    Maybe v = any_of(0);
    if (bad_ || t_[at_].kind != Token::end) return std::nullopt;
    return v;
  }

 private:
  static constexpr int kMaxDepth = 16;

  Maybe any_of(int depth) {  // marker_or
    Maybe v = all_of(depth);
    while (!bad_ && is_word("or")) {
      ++at_;
      Maybe w = all_of(depth);
      v = (v == true || w == true) ? Maybe(true) : (v && w ? Maybe(false) : std::nullopt);
    }
    return v;
  }

  Maybe all_of(int depth) {  // marker_and
    Maybe v = one(depth);
    while (!bad_ && is_word("and")) {
      ++at_;
      Maybe w = one(depth);
      v = (v == false || w == false) ? Maybe(false) : (v && w ? Maybe(true) : std::nullopt);
    }
    return v;
  }

  Maybe one(int depth) {  // marker_expr
    if (t_[at_].kind == Token::open) {
      if (depth >= kMaxDepth) return fail();
      ++at_;
      Maybe v = any_of(depth + 1);
      if (t_[at_].kind != Token::close) return fail();
      ++at_;
      return v;
    }
    auto left = value();
    std::string op;
    if (t_[at_].kind == Token::op) {
      op = t_[at_++].text;
    } else if (is_word("in")) {
      op = "in";
      ++at_;
    } else if (is_word("not") && t_[at_ + 1].kind == Token::word && t_[at_ + 1].text == "in") {
      op = "not in";
      at_ += 2;
    } else {
      return fail();
    }
    auto right = value();
    if (bad_ || !left || !right) return std::nullopt;
    return compare(*left, op, *right);
  }

  /// A variable's value or a string; nullopt for an unknown variable (the marker is unknown).
  std::optional<std::string> value() {
    const Token& tok = t_[at_];
    if (tok.kind == Token::string) {
      ++at_;
      return tok.text;
    }
    if (tok.kind != Token::word) {
      fail();
      return std::nullopt;
    }
    ++at_;
    static const std::map<std::string_view, std::string MarkerEnvironment::*> kVariables = {
        {"platform_system", &MarkerEnvironment::platform_system},
        {"sys_platform", &MarkerEnvironment::sys_platform},
        {"os_name", &MarkerEnvironment::os_name},
        {"platform_machine", &MarkerEnvironment::platform_machine},
        {"python_version", &MarkerEnvironment::python_version},
        {"python_full_version", &MarkerEnvironment::python_full_version},
    };
    // pip check evaluates every requirement with no extra requested.
    if (tok.text == "extra") return std::string();
    auto it = kVariables.find(tok.text);
    if (it == kVariables.end() || (env_.*(it->second)).empty()) return std::nullopt;
    return env_.*(it->second);
  }

  static Maybe compare(const std::string& left, const std::string& op, const std::string& right) {
    if (op == "in") return right.find(left) != std::string::npos;
    if (op == "not in") return right.find(left) == std::string::npos;
    auto lv = Version::parse(left);
    auto rv = Version::parse(right);
    if (op == "===") return left == right;
    if (lv && rv) {
      if (op == "~=") {
        auto spec = VersionSpec::parse("~=" + right);
        return spec ? Maybe(spec->contains(*lv)) : std::nullopt;
      }
      if (op == "==") return *lv == *rv;
      if (op == "!=") return *lv != *rv;
      if (op == "<") return *lv < *rv;
      if (op == "<=") return *lv <= *rv;
      if (op == ">") return *lv > *rv;
      if (op == ">=") return *lv >= *rv;
      return std::nullopt;
    }
    if (op == "==") return left == right;
    if (op == "!=") return left != right;
    return std::nullopt;  // an ordering of words: not something a requirement we read asks
  }

  bool is_word(std::string_view w) const { return t_[at_].kind == Token::word && t_[at_].text == w; }
  Maybe fail() {
    bad_ = true;
    return std::nullopt;
  }

  std::vector<Token> t_;
  const MarkerEnvironment& env_;
  size_t at_ = 0;
  bool bad_ = false;
};

std::string framework_name(const FrameworkFacts& fw) {
  return fw.package.empty() ? fw.name : fw.package;
}

}  // namespace

MarkerEnvironment marker_environment(const Facts& facts, const PythonEnvFacts& env) {
  MarkerEnvironment m;
  const bool windows = facts.platform == Platform::windows;
  m.platform_system = windows ? "Windows" : "Linux";
  m.sys_platform = windows ? "win32" : "linux";
  m.os_name = windows ? "nt" : "posix";
  m.platform_machine = facts.os.arch;
  if (env.python_version && env.python_version->parts().size() >= 2) {
    m.python_version = env.python_version->truncated(2).str();
    if (env.python_version->parts().size() >= 3) m.python_full_version = env.python_version->str();
  }
  return m;
}

std::optional<bool> evaluate_marker(std::string_view marker, const MarkerEnvironment& env) {
  marker = trim(marker);
  if (marker.empty()) return true;
  if (marker.size() > 300) return std::nullopt;
  bool ok = true;
  std::vector<Token> tokens = tokenize(marker, ok);
  if (!ok) return std::nullopt;
  return MarkerParser(std::move(tokens), env).parse();
}

/// The numpy a framework imports: the one in its own site-packages, else the environment's first.
const PlainDist* numpy_for(const PythonEnvFacts& env, const FrameworkFacts& fw) {
  const PlainDist* numpy = nullptr;
  for (const PlainDist& d : env.packages) {
    if (d.name == "numpy" && (numpy == nullptr || d.location == fw.location)) numpy = &d;
  }
  return numpy;
}

/// A framework's numpy requirement against the numpy it imports (the one in its own site-packages,
/// else the environment's first). A compiled extension needs the NumPy major it was built against:
/// NumPy 2 refuses modules built for 1.x ("A module that was compiled using NumPy 1.x cannot be run
/// in NumPy 2.x"), and a module built against 2.x needs 2.x, so a requirement whose bound the
/// installed major crosses is an import failure; within one major NumPy keeps its ABI, and only
/// `pip check` fails.
void numpy_findings(const PythonEnvFacts& env, const MarkerEnvironment& menv, std::vector<Finding>& out) {
  for (const auto& fw : env.frameworks) {
    const PlainDist* numpy = numpy_for(env, fw);
    if (numpy == nullptr) continue;
    for (const auto& req : fw.numpy_requires) {
      if (req.specifier.empty() || evaluate_marker(req.marker, menv) != true) continue;
      auto spec = VersionSpec::parse(req.specifier);
      if (!spec || spec->contains(numpy->version)) continue;
      const Version& have = numpy->version;
      auto hi = spec->highest();
      auto lo = spec->lowest();
      // "<2.0.0" excludes all of 2.x; "<=1.26" too; ">=2.2" all of 1.x.
      const bool crosses =
          (hi && have > *hi && (have.major() > hi->major() || (hi->minor() == 0 && hi->part(2) == 0))) ||
          (lo && have < *lo && have.major() < lo->major());
      const std::string name = framework_name(fw);
      out.push_back(Finding{
          .id = "numpy-requirement-unmet",
          .severity = crosses ? Severity::error : Severity::warning,
          .area = FindingArea::python,
          .title = fmt::format("{} {} in {} requires numpy{}, and NumPy {} is installed", name, fw.version.str(),
                               env.path, req.specifier, have.str()),
          .detail =
              name + " requires numpy" + req.specifier + " (its METADATA), numpy " + have.str() + " is installed in " +
              numpy->location + ". " +
              (crosses
                   ? "Its compiled extensions were built against another NumPy major, and NumPy refuses them across "
                     "a major" +
                         std::string(have.major() >= 2
                                         ? " (\"A module that was compiled using NumPy 1.x cannot be run in "
                                           "NumPy 2.x\"" +
                                               std::string(name.starts_with("tensorflow")
                                                               ? "; `import tensorflow` fails (2.16.2: "
                                                                 "\"numpy.core.umath failed to import\")"
                                                               : "") +
                                               ")."
                                         : ": a module built for NumPy 2 does not import under NumPy 1.")
                   : "NumPy keeps its ABI within a major, so it usually imports, but `pip check` fails and "
                     "the next install that resolves " +
                         name + " may change NumPy again."),
          .fix = "Install the NumPy " + name + " was built for: `" + env_pip(env) + " install \"numpy" + req.specifier +
                 "\"` (or upgrade " + name + " to a release built for NumPy " + std::to_string(have.major()) + ").",
          .evidence = {installed_at(env, fw), "numpy " + have.str()}});
      break;
    }
  }
}

/// A release built against NumPy 1 headers only, under a NumPy of a later major
/// (python.toml [[numpy_abi]]): its METADATA does not say so, so `pip check` and the requirement
/// check above are silent.
void numpy_abi_findings(const PythonEnvFacts& env, const KnowledgeBase& kb, std::vector<Finding>& out) {
  for (const FrameworkFacts& fw : env.frameworks) {
    const PlainDist* numpy = numpy_for(env, fw);
    if (numpy == nullptr) continue;
    for (const NumpyAbiRow& row : kb.numpy_abi) {
      const std::string package = fw.package.empty() ? fw.name : fw.package;
      if (package != row.package || !row.versions.contains(fw.version) || numpy->version.major() <= row.built_for) {
        continue;
      }
      out.push_back(Finding{
          .id = "numpy-abi-too-new",
          .severity = Severity::error,
          .area = FindingArea::python,
          .title = fmt::format("{} {} in {} was built for NumPy {}, and NumPy {} is installed", row.package,
                               fw.version.str(), env.path, row.built_for, numpy->version.str()),
          .detail = fmt::format("{} {} was compiled against NumPy {}.x ({} names only NumPy {}'s module), though its "
                                "METADATA puts no bound on numpy, so nothing kept NumPy {} out of {}. NumPy refuses a "
                                "module built for an older major: {}.",
                                row.package, fw.version.str(), row.built_for, row.binary, row.built_for,
                                numpy->version.str(), numpy->location, row.effect),
          .fix = fmt::format("Keep NumPy {0}.x for this release: `{1} install \"numpy<{2}\"`, or upgrade {3} "
                             "to a release built against NumPy {2} (`gpudoctor plan`).",
                             row.built_for, env_pip(env), row.built_for + 1, row.package),
          .evidence = {installed_at(env, fw), "numpy " + numpy->version.str()},
          .source = row.source});
      break;
    }
  }
}

/// What the loader does with a library missing an import, by which library it is.
std::string missing_import_effect(const FrameworkFacts& fw, const MissingImports& m) {
  const std::string failure =
      "`dlopen` with RTLD_NOW, which Python's import, ctypes and TensorFlow's loader use, refuses it: \"undefined "
      "symbol: " +
      (m.count == 1 ? m.symbols.front() + "\"" : "\" and one of these names (the first its relocations reach)");
  if (m.library.ends_with("/libtorch_cuda.so") || fw.name == "torch") return failure + ", so `import torch` fails.";
  if (fw.name == "tensorflow") {
    return failure + ", so TensorFlow cannot open it and registers no GPU (\"Cannot dlopen some GPU libraries\").";
  }
  return failure + ", so " + framework_name(fw) + "'s CUDA backend cannot load it.";
}

/// The fix for a provider missing imports: the version the framework pins when it pins one, else
/// one at least as new as the versioned names ask for (`__nvJitLinkComplete_12_9`: 12.9).
std::string missing_import_fix(const PythonEnvFacts& env, const MarkerEnvironment& menv, const FrameworkFacts& fw,
                               const MissingImports& m) {
  const bool nccl = m.provider_soname.starts_with("libnccl.so.");
  const std::string library = nccl ? "nccl" : "nvjitlink";
  std::string package;
  for (const NvidiaWheel& w : env.nvidia_wheels) {
    if (w.library == library && m.provider.find("/nvidia/") != std::string::npos) package = w.package;
  }
  const std::string pip = env_pip(env);
  std::string requirement;
  const DistRequirement* pinned = nullptr;
  for (const DistRequirement& r : fw.nvidia_requires) {
    if ((package.empty() ? r.name.find(library) != std::string::npos : r.name == package) && !r.specifier.empty() &&
        evaluate_marker(r.marker, menv) != false) {  // unknown here: the pin is still the one to name
      requirement = r.name + r.specifier;
      pinned = &r;
    }
  }
  if (requirement.empty() && !nccl) {
    // The highest "_M_N" suffix among the names: the nvJitLink release that added them.
    std::optional<Version> wanted;
    for (const std::string& sym : m.symbols) {
      const size_t minor_at = sym.find_last_of('_');
      const size_t major_at = minor_at == std::string::npos ? std::string::npos : sym.find_last_of('_', minor_at - 1);
      if (major_at == std::string::npos) continue;
      auto v = Version::parse(sym.substr(major_at + 1, minor_at - major_at - 1) + "." + sym.substr(minor_at + 1));
      if (v && (!wanted || *v > *wanted)) wanted = v;
    }
    if (wanted) {
      if (package.empty()) package = wanted->major() >= 13 ? "nvidia-nvjitlink" : "nvidia-nvjitlink-cu12";
      requirement = package + ">=" + wanted->str();
    }
  }
  const std::string what = nccl ? "NCCL" : "nvJitLink";
  if (requirement.empty() && !package.empty()) requirement = package;
  std::string install = requirement.empty() ? "" : "`" + pip + " install -U \"" + requirement + "\"`";
  // The pinned wheel is listed by pip but its files are gone (nvidia-wheel-files-missing): the
  // loader went past its directory, and only a forced reinstall puts them back.
  const bool files_gone =
      pinned != nullptr && std::any_of(env.nvidia_wheels.begin(), env.nvidia_wheels.end(), [&](const NvidiaWheel& w) {
        return w.package == pinned->name && w.missing_count;
      });
  if (files_gone) {
    return "Put back the " + what + " wheel's files, which are gone from " + env.path + " while pip still lists it: `" +
           wheel_install_command(env, pinned->name, pinned->specifier) + "`.";
  }
  if (m.provider.find("/nvidia/") == std::string::npos) {
    return "Give " + m.library.substr(m.library.find_last_of('/') + 1) + " the " + what +
           " it was built against: the copy at " + m.provider +
           " comes first in the loader's search and is too old; replace it or take its directory off the search" +
           (install.empty() ? "." : ", so that the wheel's copy is found (" + install + ").");
  }
  if (install.empty()) {
    return "Upgrade the " + what + " at " + m.provider + " to the release " + m.library + " was built with.";
  }
  return "Install the " + what + " it needs: " + install + ".";
}

/// Libraries a framework loads whose imports the dependency the loader gives them lacks
/// (probe/framework_libraries.cpp check_imports): the load fails, whatever `pip check` says.
void missing_import_findings(const PythonEnvFacts& env, const MarkerEnvironment& menv, std::vector<Finding>& out) {
  for (const FrameworkFacts& fw : env.frameworks) {
    for (const MissingImports& m : fw.missing_imports) {
      if (m.symbols.empty()) continue;
      const std::string lib = m.library.substr(m.library.find_last_of('/') + 1);
      const std::string name = framework_name(fw);
      std::vector<std::string> evidence{m.library, m.provider};
      evidence.push_back("missing: " + join(m.symbols, ", ") +
                         (m.count > m.symbols.size() ? fmt::format(" and {} more", m.count - m.symbols.size()) : ""));
      out.push_back(Finding{
          .id = "library-imports-missing",
          .severity = Severity::error,
          .area = FindingArea::python,
          .title = fmt::format("{} {} in {}: {} needs {} function(s) that {} lacks", name, fw.version.str(), env.path,
                               lib, m.count, m.provider_soname),
          .detail = lib + " imports " + join(m.symbols, ", ") +
                    (m.count > m.symbols.size() ? fmt::format(" and {} more", m.count - m.symbols.size()) : "") +
                    " from " + m.provider_soname + ", and the copy the loader gives it, " + m.provider +
                    ", is older: it does not export them (read from both files' dynamic symbol tables). " +
                    missing_import_effect(fw, m) +
                    " `pip check` may still pass: the nvidia wheels' requirements on each other carry no version.",
          .fix = missing_import_fix(env, menv, fw, m),
          .evidence = evidence});
    }
  }
}

/// The other frameworks of the environment whose requirements exclude a version `pins` would
/// install: "tensorflow 2.21.0 requires nvidia-cudnn-cu12<10.0,>=9.3.0.75". Requirements of an
/// extra count here (unlike `pip check`): the wheels installed came from it.
std::vector<std::string> pins_others_exclude(const PythonEnvFacts& env, const MarkerEnvironment& menv,
                                             const FrameworkFacts& fw,
                                             const std::vector<const DistRequirement*>& pins) {
  std::vector<std::string> out;
  for (const DistRequirement* req : pins) {
    auto spec = VersionSpec::parse(req->specifier);
    const auto wanted = spec ? spec->lowest() : std::nullopt;
    if (!wanted) continue;
    for (const FrameworkFacts& other : env.frameworks) {
      if (&other == &fw) continue;
      for (const DistRequirement& r : other.nvidia_requires) {
        if (r.name != req->name || r.specifier.empty()) continue;
        if (evaluate_marker(r.marker, menv) == false && !contains(r.marker, "extra")) continue;
        auto theirs = VersionSpec::parse(r.specifier);
        if (!theirs || theirs->contains(*wanted)) continue;
        const std::string line =
            framework_name(other) + " " + other.version.str() + " requires " + r.name + r.specifier;
        if (std::find(out.begin(), out.end(), line) == out.end()) out.push_back(line);
      }
    }
  }
  return out;
}

std::vector<Finding> requirement_findings(const Facts& facts, const KnowledgeBase* kb) {
  std::vector<Finding> out;
  for (const auto& env : facts.python_envs) {
    const MarkerEnvironment menv = marker_environment(facts, env);
    numpy_findings(env, menv, out);
    if (kb != nullptr) numpy_abi_findings(env, *kb, out);
    missing_import_findings(env, menv, out);
    for (const auto& fw : env.frameworks) {
      std::vector<std::string> unmet;
      std::vector<std::string> pins;
      std::vector<const DistRequirement*> pinned;
      bool older_or_other_major = false;
      for (const auto& req : fw.nvidia_requires) {
        if (req.specifier.empty() || evaluate_marker(req.marker, menv) != true) continue;
        auto spec = VersionSpec::parse(req.specifier);
        if (!spec) continue;  // a form we do not read is not a failure
        // Only a wheel that is installed is judged: whether a missing library is found elsewhere
        // is the library resolution's question (a system copy may serve it).
        for (const auto& w : env.nvidia_wheels) {
          if (w.package != req.name || spec->contains(w.version)) continue;
          bool newer = spec->lowest() && w.version > *spec->lowest();
          bool same_major = spec->lowest() && spec->lowest()->major() == w.version.major();
          if (!newer || !same_major) older_or_other_major = true;
          unmet.push_back(fmt::format("{} requires {}{}, {} {} is installed{}", framework_name(fw), req.name,
                                      req.specifier, req.name, w.version.str(),
                                      newer && same_major ? " (a newer release of the same major)" : ""));
          pins.push_back(req.name + req.specifier);
          pinned.push_back(&req);
        }
      }
      if (unmet.empty()) continue;
      const std::string name = framework_name(fw);
      std::string quoted;
      for (const auto& p : pins) quoted += (quoted.empty() ? "\"" : " \"") + p + "\"";
      const std::vector<std::string> against = pins_others_exclude(env, menv, fw, pinned);
      const std::string fix =
          against.empty()
              ? "Install the versions " + name + " pins: `" + env_pip(env) + " install " + quoted + "` (or upgrade " +
                    name + " to a release built for the newer wheels)."
              : "Do not install what " + name + " pins here: " + join(against, "; ") +
                    ", so no set of wheels in this environment satisfies both. Give " + name +
                    " an environment of its own (`python -m venv`), or choose releases of both built for the same "
                    "wheels (`gpudoctor plan`).";
      out.push_back(Finding{
          .id = "pip-requirement-unmet",
          .severity = Severity::warning,
          .area = FindingArea::python,
          .title = fmt::format("`pip check` fails in {}: {} NVIDIA wheel(s) do not match what {} {} requires", env.path,
                               unmet.size(), name, fw.version.str()),
          .detail = join(unmet, "\n") + "\n" +
                    (older_or_other_major
                         ? "A wheel older than the one " + name +
                               " was built and tested with, or of another major, may lack what it calls; see the "
                               "other findings about this environment for what fails."
                         : "A newer release within one major usually loads and works (NVIDIA keeps a library's ABI "
                           "within its major), but pip counts this environment as broken: `pip check` fails, and "
                           "the next install that resolves " +
                               name + " may put the pinned version back.") +
                    " Source: the Requires-Dist lines of " + name + "'s METADATA.",
          .fix = fix,
          .evidence = {installed_at(env, fw), "package " + name, fw.evidence}});
    }
  }
  return out;
}

}  // namespace gpudoctor
