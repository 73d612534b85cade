#include "platform/logon_environment.hpp"

#include "core/text.hpp"

namespace gpudoctor {
namespace {

constexpr const char* kSystemKey = "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment";
constexpr const char* kUserKey = "HKCU\\Environment";

const std::string* lookup(const EnvMap& env, std::string_view name) {
  for (const auto& [k, v] : env) {
    if (iequals(k, name)) return &v;
  }
  return nullptr;
}

/// %NAME% replaced by its value where `env` holds it; an unknown one is left as written, as
/// ExpandEnvironmentStrings leaves it.
std::string expand(std::string_view text, const EnvMap& env) {
  std::string out;
  size_t at = 0;
  while (at < text.size()) {
    size_t open = text.find('%', at);
    size_t close = open == std::string_view::npos ? open : text.find('%', open + 1);
    if (close == std::string_view::npos) break;
    const std::string* value = lookup(env, text.substr(open + 1, close - open - 1));
    out += text.substr(at, open - at);
    if (value != nullptr) {
      out += *value;
      at = close + 1;
    } else {
      out += '%';
      at = open + 1;
    }
  }
  out += text.substr(std::min(at, text.size()));
  return out;
}

}  // namespace

std::vector<std::string> add_logon_environment(const Registry& reg, EnvMap& env) {
  EnvMap logon;
  for (const auto& [k, v] : env) logon[k] = v;
  if (!lookup(logon, "SystemRoot")) {
    logon["SystemRoot"] =
        reg.text("HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion", "SystemRoot").value_or("C:\\Windows");
  }
  std::string path;
  for (const char* key : {kSystemKey, kUserKey}) {
    auto values = reg.values(key, RegistryBits::native64);
    if (!values) continue;
    // Unexpanded values first (REG_SZ), then the REG_EXPAND_SZ ones that may name them.
    for (bool expandable : {false, true}) {
      for (const RegistryValue& v : *values) {
        if (v.name.empty() || (v.type == "REG_EXPAND_SZ") != expandable) continue;
        if (v.type != "REG_SZ" && v.type != "REG_EXPAND_SZ") continue;
        std::string value = expandable ? expand(v.text, logon) : v.text;
        if (iequals(v.name, "Path")) {
          path += (path.empty() || path.ends_with(';') ? "" : ";") + value;
          continue;
        }
        for (auto it = logon.begin(); it != logon.end();) it = iequals(it->first, v.name) ? logon.erase(it) : ++it;
        logon[v.name] = value;
      }
    }
  }
  if (!path.empty()) logon["Path"] = path;
  std::vector<std::string> added;
  for (const auto& [k, v] : logon) {
    if (lookup(env, k)) continue;
    env[k] = v;
    added.push_back(k);
  }
  return added;
}

}  // namespace gpudoctor
