#include "probe/python/torch_version.hpp"

#include "probe/python/python_literal.hpp"

namespace gpudoctor {

TorchVersionInfo parse_torch_version(std::string_view text) {
  TorchVersionInfo info;
  if (pyfile::refuse_binary(text, "not a Python source file (binary content)", info.problems)) return info;
  auto assigned = pyfile::parse_assignments(text);
  info.problems = std::move(assigned.problems);
  using Kind = pyfile::PyValue::Kind;
  if (auto it = assigned.values.find("__version__"); it != assigned.values.end()) {
    if (it->second.kind == Kind::string) {
      info.version = it->second.text;
    } else {
      info.problems.push_back("__version__ is not a string");
    }
  } else {
    info.problems.push_back("no __version__ line");
  }
  auto optional_string = [&](const char* name, std::optional<std::string>& dst) -> bool {
    auto it = assigned.values.find(name);
    if (it == assigned.values.end()) return false;
    if (it->second.kind == Kind::string) {
      dst = it->second.text;
    } else if (it->second.kind != Kind::none) {
      info.problems.push_back(std::string(name) + " is neither a string nor None");
    }
    return true;
  };
  info.has_cuda_field = optional_string("cuda", info.cuda);
  if (!info.has_cuda_field) info.problems.push_back("no cuda line");
  optional_string("hip", info.hip);
  return info;
}

}  // namespace gpudoctor
