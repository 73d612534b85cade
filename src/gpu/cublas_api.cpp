#include "gpu/cublas_api.hpp"

namespace gpudoctor::gpu {

Result<CublasApi> load_cublas(const std::vector<std::string>& names) {
  return load_api<CublasApi>(
      names, [](CublasApi& api, BindState& state) { GPUDOCTOR_CUBLAS_ENTRY_POINTS(GPUDOCTOR_BIND_ENTRY_POINT) });
}

Result<CublasLtApi> load_cublaslt(const std::vector<std::string>& names) {
  return load_api<CublasLtApi>(
      names, [](CublasLtApi& api, BindState& state) { GPUDOCTOR_CUBLASLT_ENTRY_POINTS(GPUDOCTOR_BIND_ENTRY_POINT) });
}

namespace {

constexpr CodeName kCublasStatusNames[] = {
    {0, "CUBLAS_STATUS_SUCCESS"},           {1, "CUBLAS_STATUS_NOT_INITIALIZED"}, {3, "CUBLAS_STATUS_ALLOC_FAILED"},
    {7, "CUBLAS_STATUS_INVALID_VALUE"},     {8, "CUBLAS_STATUS_ARCH_MISMATCH"},   {11, "CUBLAS_STATUS_MAPPING_ERROR"},
    {13, "CUBLAS_STATUS_EXECUTION_FAILED"}, {14, "CUBLAS_STATUS_INTERNAL_ERROR"}, {15, "CUBLAS_STATUS_NOT_SUPPORTED"},
    {16, "CUBLAS_STATUS_LICENSE_ERROR"},
};

}  // namespace

std::string cublas_status_name(cublasStatus_t status) {
  return code_name(kCublasStatusNames, status, "CUBLAS_STATUS_");
}

}  // namespace gpudoctor::gpu
