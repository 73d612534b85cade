#pragma once
/// Pure parsers for the files that record versions of the driver and CUDA stack. Each takes
/// untrusted text and returns nullopt (or an empty result) for anything it does not recognise;
/// none throws. They are the fuzz targets of tests/fuzz/.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/version.hpp"

namespace gpudoctor {

/// /proc/driver/nvidia/version: "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05 ..."
/// or "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.14  Release Build ...".
struct NvidiaProcVersion {
  Version version;
  std::string flavor;  ///< "proprietary" or "open"
};
std::optional<NvidiaProcVersion> parse_nvidia_proc_version(std::string_view text);

/// /proc/driver/nvidia/gpus/<bus>/information: "Model: \t NVIDIA GeForce RTX 3090" lines.
std::map<std::string, std::string> parse_colon_fields(std::string_view text);

/// CUDA toolkit version.json (11.1+): {"cuda": {"name": "CUDA SDK", "version": "12.2.20230823"}}
/// or the per-component {"cuda_cudart": {"version": "12.2.140"}}. Date-stamped forms
/// ("12.2.20230823") are cut to major.minor.
std::optional<Version> parse_cuda_version_json(std::string_view text);
/// version.txt (up to 10.x): "CUDA Version 10.0.130".
std::optional<Version> parse_cuda_version_txt(std::string_view text);
/// nvcc --version: "Cuda compilation tools, release 12.1, V12.1.105".
std::optional<Version> parse_nvcc_version(std::string_view text);

/// Integer value of "#define NAME value" in a C header; nullopt if absent or not a number.
std::optional<long> header_define(std::string_view header, std::string_view name);
/// cudnn_version.h (cuDNN 8+) or cudnn.h (up to 7): CUDNN_MAJOR/MINOR/PATCHLEVEL.
std::optional<Version> parse_cudnn_header(std::string_view text);
/// nccl.h: NCCL_MAJOR/MINOR/PATCH.
std::optional<Version> parse_nccl_header(std::string_view text);
/// cuda.h: CUDA_VERSION 12020 -> 12.2.
std::optional<Version> parse_cuda_h(std::string_view text);
/// NvInferVersion.h: NV_TENSORRT_MAJOR/MINOR/PATCH (TensorRT 10: TRT_MAJOR_ENTERPRISE etc. too).
std::optional<Version> parse_tensorrt_header(std::string_view text);
/// cublas_api.h: CUBLAS_VER_MAJOR/MINOR/PATCH.
std::optional<Version> parse_cublas_header(std::string_view text);

/// A shared-library file name split into its family and version:
///   "libcudnn.so.8.9.7" -> {"libcudnn", 8.9.7}; "libcudart.so.12" -> {"libcudart", 12};
///   "cudnn64_8.dll" -> {"cudnn", 8}; "cudart64_110.dll" -> {"cudart", 11.0};
///   "cudart64_12.dll" -> {"cudart", 12}; "nvinfer_10.dll" -> {"nvinfer", 10}.
struct LibraryName {
  std::string stem;                ///< "libcudnn", "cudnn", "libcudnn_ops_infer"
  std::optional<Version> version;  ///< absent for the unversioned dev link "libcudnn.so"
  bool windows = false;
};
std::optional<LibraryName> parse_library_name(std::string_view file_name);

/// /etc/ld.so.cache (glibc "glibc-ld.so.cache1.1" format): library file name -> paths, for the
/// names that start with one of name_prefixes (all names when empty). Bounds-checked: a
/// truncated or foreign file gives what could be read, and at most kMaxLdCacheEntries entries
/// are kept, so a crafted cache cannot make the doctor allocate without limit.
inline constexpr size_t kMaxLdCacheEntries = 4096;
std::multimap<std::string, std::string> parse_ld_so_cache(std::string_view data,
                                                          const std::vector<std::string_view>& name_prefixes = {});

}  // namespace gpudoctor
