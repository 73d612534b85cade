#pragma once
/// conda-meta/: one JSON record per installed package, named "<name>-<version>-<build>.json"
/// (python-3.11.9-h955ad1f_0.json, cudnn-8.9.2.26-cuda12_0.json,
/// pytorch-2.3.1-py3.11_cuda12.1_cudnn8.9.2_0.json). The file name alone gives name and
/// version, so the records need not be parsed.
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor {

struct CondaPackageName {
  std::string name;
  std::string version;
  std::string build;
};

std::optional<CondaPackageName> parse_conda_meta_filename(std::string_view file_name);

}  // namespace gpudoctor
