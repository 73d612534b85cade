#include "gpu/nccl_api.hpp"

#include <cstring>

namespace gpudoctor::gpu {

Result<NcclApi> load_nccl(const std::vector<std::string>& names) {
  return load_api<NcclApi>(
      names, [](NcclApi& api, BindState& state) { GPUDOCTOR_NCCL_ENTRY_POINTS(GPUDOCTOR_BIND_ENTRY_POINT) });
}

Result<NvrtcApi> load_nvrtc(const std::vector<std::string>& names) {
  return load_api<NvrtcApi>(
      names, [](NvrtcApi& api, BindState& state) { GPUDOCTOR_NVRTC_ENTRY_POINTS(GPUDOCTOR_BIND_ENTRY_POINT) });
}

namespace {

constexpr CodeName kNcclResultNames[] = {
    {0, "ncclSuccess"},         {1, "ncclUnhandledCudaError"}, {2, "ncclSystemError"}, {3, "ncclInternalError"},
    {4, "ncclInvalidArgument"}, {5, "ncclInvalidUsage"},       {6, "ncclRemoteError"}, {7, "ncclInProgress"},
};

}  // namespace

std::string nccl_result_text(const NcclApi& api, ncclResult_t result) {
  std::string text = code_name(kNcclResultNames, result, "ncclResult ");
  if (api.error_string != nullptr) {
    const char* words = api.error_string(result);
    if (words != nullptr) text += ": " + std::string(words, ::strnlen(words, 200));
  }
  return text + " (" + std::to_string(result) + ")";
}

}  // namespace gpudoctor::gpu
