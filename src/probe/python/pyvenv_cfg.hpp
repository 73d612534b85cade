#pragma once
/// pyvenv.cfg, written by `python -m venv`, virtualenv and uv:
///   home = /usr/bin
///   include-system-site-packages = false
///   version = 3.11.7              (venv; virtualenv and uv write version_info = 3.11.7.final.0)
///   executable = /usr/bin/python3.11
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

struct PyvenvCfg {
  std::map<std::string, std::string> values;  ///< keys lower-cased
  std::string python_version;                 ///< "3.11.7" from version / version_info, "" when absent
  std::string home;                           ///< directory of the base interpreter
  bool include_system_site_packages = false;
  std::string creator;  ///< "venv", "virtualenv", "uv"
  std::vector<std::string> problems;
};

PyvenvCfg parse_pyvenv_cfg(std::string_view text);

}  // namespace gpudoctor
