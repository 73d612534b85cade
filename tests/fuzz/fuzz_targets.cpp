#include "fuzz_targets.hpp"

#include "core/version.hpp"
#include "platform/system_view.hpp"
#include "probe/python/dist_info.hpp"
#include "probe/version_files.hpp"

namespace gpudoctor::fuzz {

// Each parser must return without crashing, hanging or reading out of bounds.
const std::vector<Target>& targets() {
  static const std::vector<Target> kTargets = {
      {"nvidia_proc_version", [](std::string_view s) { (void)parse_nvidia_proc_version(s); }},
      {"cuda_version_json", [](std::string_view s) { (void)parse_cuda_version_json(s); }},
      {"cuda_version_txt",
       [](std::string_view s) {
         (void)parse_cuda_version_txt(s);
         (void)parse_nvcc_version(s);
       }},
      {"c_headers",
       [](std::string_view s) {
         (void)parse_cudnn_header(s);
         (void)parse_nccl_header(s);
         (void)parse_cuda_h(s);
         (void)parse_tensorrt_header(s);
         (void)parse_cublas_header(s);
       }},
      {"library_name", [](std::string_view s) { (void)parse_library_name(s); }},
      {"dist_info_dir", [](std::string_view s) { (void)parse_dist_dir_name(s); }},
      {"pci_ids", [](std::string_view s) { (void)parse_pci_ids_nvidia(s); }},
      {"ld_so_cache", [](std::string_view s) { (void)parse_ld_so_cache(s); }},
      {"version_spec",
       [](std::string_view s) {
         auto v = Version::parse(s);
         auto spec = VersionSpec::parse(s);
         if (v && spec) (void)spec->contains(*v);
         if (v) (void)Version::parse(v->str());
       }},
      {"env_file", [](std::string_view s) { (void)parse_env_file(s); }},
      {"colon_fields", [](std::string_view s) { (void)parse_colon_fields(s); }},
  };
  return kTargets;
}

}  // namespace gpudoctor::fuzz
