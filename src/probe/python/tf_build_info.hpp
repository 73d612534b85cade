#pragma once
/// tensorflow/python/platform/build_info.py, as TensorFlow's gen_build_info.py writes it:
///   build_info = collections.OrderedDict([('cuda_version', '12.2'), ('cudnn_version', '8'),
///                                         ('is_cuda_build', True), ...])
/// and the older module-attribute form (`is_cuda_build = True`, `cuda_version_number =
/// '10.1'`, `cudnn_version_number = '7'`). cudnn_version is usually the major only ("8").
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

struct TfBuildInfo {
  std::string form;  ///< "ordered-dict", "dict", "module-attributes", "" none
  std::optional<bool> is_cuda_build;
  std::optional<bool> is_rocm_build;
  std::optional<bool> is_tensorrt_build;
  std::string cuda_version;                       ///< "12.2", "12.5.1"; Windows "64_112" read as "11.2"
  std::string cudnn_version;                      ///< "8", "9", "8.6"; Windows "64_8" read as "8"
  std::vector<std::string> compute_capabilities;  ///< ["sm_60", "compute_90"]
  std::string cudart_dll_name;                    ///< Windows CUDA builds: "cudart64_110.dll"
  std::string cudnn_dll_name;                     ///< Windows CUDA builds: "cudnn64_8.dll"
  /// Windows GPU builds write the DLL suffix as the version (cudart_dll_name is
  /// "cudart{cuda_version}.dll", so cuda_version is "64_112"); true when it was decoded.
  bool dll_suffix_form = false;
  std::vector<std::string> problems;  ///< why something could not be read
};

TfBuildInfo parse_tf_build_info(std::string_view text);

/// "64_112" -> "11.2", "64_90" -> "9.0", "64_12" -> "12", "64_8" -> "8"; other text unchanged.
std::string decode_windows_dll_version(std::string_view text);

}  // namespace gpudoctor
