// A fake libcublas.so.13 (and, built with GPUDOCTOR_FAKE_CUBLASLT, libcublasLt.so.13) for
// verify's tests: the entry points of gpu/cublas_api.hpp computing on fake device memory
// (host memory). [cublas] version = N, result = wrong. GPUDOCTOR_FAKE_CUBLAS_MISSING_SGEMM
// builds it without cublasSgemm_v2, a required entry point.
#include <cstring>

#include "fake_runtime.hpp"

namespace {

constexpr int kSuccess = 0;
constexpr int kNotInitialized = 1;
constexpr int kInvalidValue = 7;
int g_handle = 0;

long long version() {
  return fake_driver::number("cublas", "version", 130100);
}

/// binary16 -> binary32 by moving the fields (subnormals scaled by hand).
float from_half(std::uint16_t h) {
  unsigned sign = (h >> 15) & 1U;
  unsigned exp = (h >> 10) & 0x1FU;
  unsigned mant = h & 0x3FFU;
  float magnitude = 0;
  if (exp == 0) {
    magnitude = static_cast<float>(mant) / 16777216.0F;  // mant * 2^-24
  } else {
    std::uint32_t bits = ((exp + 112U) << 23) | (mant << 13);
    std::memcpy(&magnitude, &bits, 4);
  }
  return sign != 0U ? -magnitude : magnitude;
}

/// C = A * B, column-major, no transposes: the only form verify asks for.
template <class In>
void multiply(int m, int n, int k, const In* a, const In* b, float* c, float (*value)(In)) {
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      float sum = 0;
      for (int p = 0; p < k; ++p) sum += value(a[p * m + i]) * value(b[j * k + p]);
      c[j * m + i] = sum;
    }
  }
  if (fake_driver::wrong_result("cublas")) c[m * n / 2] += 0.25F;
}

float from_bf16(std::uint16_t h) {
  std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
  float f = 0;
  std::memcpy(&f, &bits, 4);
  return f;
}

float same(float v) {
  return v;
}

}  // namespace

#ifdef GPUDOCTOR_FAKE_CUBLASLT
FAKE_API size_t cublasLtGetVersion() {
  FAKE_CALL("cublasLtGetVersion");
  return static_cast<size_t>(version());
}
FAKE_API int cublasLtCreate(void** handle) {
  *handle = &g_handle;
  return kSuccess;
}
#else
FAKE_API int cublasCreate_v2(void** handle) {
  FAKE_CALL("cublasCreate_v2");
  *handle = &g_handle;
  return kSuccess;
}
FAKE_API int cublasDestroy_v2(void*) {
  return kSuccess;
}
FAKE_API int cublasGetVersion_v2(void*, int* v) {
  FAKE_CALL("cublasGetVersion_v2");
  *v = static_cast<int>(version());
  return kSuccess;
}
FAKE_API const char* cublasGetStatusName(int status) {
  return status == kNotInitialized ? "CUBLAS_STATUS_NOT_INITIALIZED" : "CUBLAS_STATUS_SOMETHING";
}

#ifndef GPUDOCTOR_FAKE_CUBLAS_MISSING_SGEMM
FAKE_API int cublasSgemm_v2(void* handle, int ta, int tb, int m, int n, int k, const float* alpha, const float* a,
                            int lda, const float* b, int ldb, const float* beta, float* c, int ldc) {
  FAKE_CALL("cublasSgemm_v2");
  if (handle != &g_handle || ta != 0 || tb != 0 || lda != m || ldb != k || ldc != m || *alpha != 1 || *beta != 0) {
    return kInvalidValue;
  }
  multiply<float>(m, n, k, a, b, c, &same);
  return kSuccess;
}
#endif

FAKE_API int cublasGemmEx(void* handle, int ta, int tb, int m, int n, int k, const void* alpha, const void* a,
                          int atype, int lda, const void* b, int btype, int ldb, const void* beta, void* c, int ctype,
                          int ldc, int compute, int) {
  FAKE_CALL("cublasGemmEx");
  // Inputs CUDA_R_32F (0), CUDA_R_16F (2) or CUDA_R_16BF (14), both alike; output CUDA_R_32F;
  // CUBLAS_COMPUTE_32F (68), or _FAST_TF32 (77) for FP32 inputs: verify's half GEMM and bench's.
  const bool tf32_ok = compute == 77 && atype == 0;
  if (handle != &g_handle || ta != 0 || tb != 0 || atype != btype || (atype != 0 && atype != 2 && atype != 14) ||
      ctype != 0 || (compute != 68 && !tf32_ok) || lda != m || ldb != k || ldc != m ||
      *static_cast<const float*>(alpha) != 1 || *static_cast<const float*>(beta) != 0) {
    return kInvalidValue;
  }
  if (atype == 0) {
    multiply<float>(m, n, k, fake_driver::host<float>(a), fake_driver::host<float>(b), fake_driver::host<float>(c),
                    &same);
  } else {
    multiply<std::uint16_t>(m, n, k, fake_driver::host<std::uint16_t>(a), fake_driver::host<std::uint16_t>(b),
                            fake_driver::host<float>(c), atype == 2 ? &from_half : &from_bf16);
  }
  return kSuccess;
}
#endif
