#pragma once
#include <string>

namespace gpudoctor {

struct BuildInfo {
  std::string version;
  std::string git_commit;
  std::string compiler;
  std::string target;
  std::string options;
};

/// Filled in at configure time (cmake/build_info.cpp.in).
const BuildInfo& build_info();

}  // namespace gpudoctor
