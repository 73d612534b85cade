#pragma once
/// torch/version.py, generated at build time:
///   __version__ = '2.3.1+cu121'
///   cuda: Optional[str] = '12.1'      (None for CPU and ROCm builds; older: cuda = '11.3')
///   hip: Optional[str] = None         ('6.0.32830' on ROCm builds)
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

struct TorchVersionInfo {
  std::string version;              ///< __version__, "" when absent
  bool has_cuda_field = false;      ///< a `cuda = ...` line was read
  std::optional<std::string> cuda;  ///< nullopt when the field is None or absent
  std::optional<std::string> hip;
  std::vector<std::string> problems;
};

TorchVersionInfo parse_torch_version(std::string_view text);

}  // namespace gpudoctor
