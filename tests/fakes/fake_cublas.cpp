// A fake libcublas.so.13 (and, built with GPUDOCTOR_FAKE_CUBLASLT, libcublasLt.so.13) for
// verify's and bench's tests: the entry points of gpu/cublas_api.hpp computing on fake device
// memory (host memory). [cublas] version = N, result = wrong; [cublaslt] result = wrong.
// GPUDOCTOR_FAKE_CUBLAS_MISSING_SGEMM builds it without cublasSgemm_v2, a required entry point.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "fake_floats.hpp"
#include "fake_runtime.hpp"

namespace {

constexpr int kSuccess = 0;
constexpr int kNotInitialized = 1;
constexpr int kInvalidValue = 7;
constexpr int kNotSupported = 15;
int g_handle = 0;

long long version() {
  return fake_driver::number("cublas", "version", 130100);
}

using fake_floats::from_bf16;
using fake_floats::from_half;

void store(void* out, int type, size_t at, float v) {
  if (type == 0) {
    static_cast<float*>(out)[at] = v;
  } else {
    static_cast<std::uint16_t*>(out)[at] = type == 2 ? fake_floats::to_half(v) : fake_floats::to_bf16(v);
  }
}

/// C = A * B, column-major, no transposes: the only form verify asks for. C is FP32 (c_type 0),
/// or FP16 (2) / BF16 (14), rounded from the FP32 sum.
template <class In>
void multiply(int m, int n, int k, const In* a, const In* b, void* c, int c_type, float (*value)(In)) {
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      float sum = 0;
      for (int p = 0; p < k; ++p) sum += value(a[p * m + i]) * value(b[j * k + p]);
      if (j * m + i == m * n / 2 && fake_driver::wrong_result("cublas")) sum += 0.25F;
      store(c, c_type, static_cast<size_t>(j) * m + i, sum);
    }
  }
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
  FAKE_CALL("cublasLtCreate");
  *handle = &g_handle;
  return kSuccess;
}
FAKE_API int cublasLtDestroy(void*) {
  return kSuccess;
}

// The matmul path bench takes (cublasLt.h, CUDA 13): descriptors hold what the real ones do, and
// cublasLtMatmul computes D = op(A) op(B) on the host. Types: CUDA_R_16F (2), CUDA_R_16BF (14),
// CUDA_R_8F_E4M3 (28) inputs, CUDA_R_32F (0) output; E4M3 only as "TN" (A transposed), the one
// FP8 layout the real library has. [cublaslt] result = wrong makes the product wrong.
namespace {

struct LtDesc {
  int compute = 0, scale = 0, trans_a = 0, trans_b = 0;
};
struct LtLayout {
  int type = 0;
  std::uint64_t rows = 0, cols = 0;
  std::int64_t ld = 0;
};
struct LtAlgo {
  std::uint64_t data[8];
};
struct LtHeuristic {
  LtAlgo algo;
  size_t workspace;
  int state;
  float waves;
  int reserved[4];
};
constexpr std::uint64_t kAlgoMark = 0x6670616b65ULL;

float from_e4m3(std::uint8_t v) {
  unsigned exp = (v >> 3) & 0xFU;
  unsigned mant = v & 7U;
  float magnitude = exp == 0 ? static_cast<float>(mant) / 512.0F
                             : (1.0F + static_cast<float>(mant) / 8.0F) * static_cast<float>(1U << exp) / 128.0F;
  return (v & 0x80U) != 0 ? -magnitude : magnitude;
}

bool lt_supported(const LtDesc& d, const LtLayout& a, const LtLayout& b, const LtLayout& c) {
  const bool fp8 = a.type == 28;
  return d.compute == 68 && d.scale == 0 && a.type == b.type && (a.type == 2 || a.type == 14 || fp8) &&
         (c.type == 0 || (!fp8 && c.type == a.type)) && (!fp8 || (d.trans_a == 1 && d.trans_b == 0));
}

float element(const LtLayout& l, const void* data, std::uint64_t row, std::uint64_t col) {
  const std::uint64_t at = col * static_cast<std::uint64_t>(l.ld) + row;
  if (l.type == 28) return from_e4m3(fake_driver::host<const std::uint8_t>(data)[at]);
  std::uint16_t h = fake_driver::host<const std::uint16_t>(data)[at];
  return l.type == 2 ? from_half(h) : from_bf16(h);
}

}  // namespace

FAKE_API int cublasLtMatmulDescCreate(LtDesc** desc, int compute, int scale) {
  FAKE_CALL("cublasLtMatmulDescCreate");
  *desc = new LtDesc{.compute = compute, .scale = scale};
  return kSuccess;
}
FAKE_API int cublasLtMatmulDescDestroy(LtDesc* desc) {
  delete desc;
  return kSuccess;
}
FAKE_API int cublasLtMatmulDescSetAttribute(LtDesc* desc, int attr, const void* buf, size_t size) {
  FAKE_CALL("cublasLtMatmulDescSetAttribute");
  if (desc == nullptr || buf == nullptr || size != 4) return kInvalidValue;  // TRANSA/B are int32
  if (attr == 3)
    std::memcpy(&desc->trans_a, buf, 4);
  else if (attr == 4)
    std::memcpy(&desc->trans_b, buf, 4);
  else
    return kInvalidValue;
  return kSuccess;
}
FAKE_API int cublasLtMatrixLayoutCreate(LtLayout** layout, int type, std::uint64_t rows, std::uint64_t cols,
                                        std::int64_t ld) {
  FAKE_CALL("cublasLtMatrixLayoutCreate");
  if (ld < static_cast<std::int64_t>(rows)) return kInvalidValue;
  *layout = new LtLayout{.type = type, .rows = rows, .cols = cols, .ld = ld};
  return kSuccess;
}
FAKE_API int cublasLtMatrixLayoutDestroy(LtLayout* layout) {
  delete layout;
  return kSuccess;
}
FAKE_API int cublasLtMatmulPreferenceCreate(std::uint64_t** pref) {
  FAKE_CALL("cublasLtMatmulPreferenceCreate");
  *pref = new std::uint64_t(0);
  return kSuccess;
}
FAKE_API int cublasLtMatmulPreferenceDestroy(std::uint64_t* pref) {
  delete pref;
  return kSuccess;
}
FAKE_API int cublasLtMatmulPreferenceSetAttribute(std::uint64_t* pref, int attr, const void* buf, size_t size) {
  FAKE_CALL("cublasLtMatmulPreferenceSetAttribute");
  if (pref == nullptr || attr != 1 || size != 8) return kInvalidValue;  // MAX_WORKSPACE_BYTES is uint64
  std::memcpy(pref, buf, 8);
  return kSuccess;
}
FAKE_API int cublasLtMatmulAlgoGetHeuristic(void* handle, LtDesc* desc, LtLayout* a, LtLayout* b, LtLayout* c,
                                            LtLayout* d, std::uint64_t* pref, int requested, LtHeuristic* results,
                                            int* count) {
  FAKE_CALL("cublasLtMatmulAlgoGetHeuristic");
  if (handle != &g_handle || desc == nullptr || a == nullptr || b == nullptr || c == nullptr || d == nullptr ||
      pref == nullptr || requested <= 0 || results == nullptr || count == nullptr) {
    return kInvalidValue;
  }
  *count = 0;
  if (!lt_supported(*desc, *a, *b, *d)) return kNotSupported;
  std::memset(&results[0], 0, sizeof results[0]);
  results[0].algo.data[0] = kAlgoMark;
  results[0].workspace = std::min<std::uint64_t>(*pref, 1 << 16);
  results[0].waves = 1.0F;
  *count = 1;
  return kSuccess;
}
FAKE_API int cublasLtMatmul(void* handle, LtDesc* desc, const void* alpha, const void* a, LtLayout* la, const void* b,
                            LtLayout* lb, const void* beta, const void*, LtLayout* lc, void* d, LtLayout* ld,
                            const LtAlgo* algo, void* workspace, size_t workspace_bytes, void*) {
  FAKE_CALL("cublasLtMatmul");
  if (handle != &g_handle || desc == nullptr || la == nullptr || lb == nullptr || lc == nullptr || ld == nullptr ||
      algo == nullptr || algo->data[0] != kAlgoMark || !lt_supported(*desc, *la, *lb, *ld) ||
      (workspace_bytes > 0 && workspace == nullptr) || *static_cast<const float*>(alpha) != 1 ||
      *static_cast<const float*>(beta) != 0) {
    return kInvalidValue;
  }
  // op(A) is m x k, op(B) k x n; a transposed A is stored k x m.
  const std::uint64_t m = ld->rows;
  const std::uint64_t n = ld->cols;
  const std::uint64_t k = desc->trans_a != 0 ? la->rows : la->cols;
  if ((desc->trans_a != 0 ? la->cols : la->rows) != m || (desc->trans_b != 0 ? lb->rows : lb->cols) != n ||
      (desc->trans_b != 0 ? lb->cols : lb->rows) != k) {
    return kInvalidValue;
  }
  void* out = fake_driver::host<void>(d);
  for (std::uint64_t j = 0; j < n; ++j) {
    for (std::uint64_t i = 0; i < m; ++i) {
      float sum = 0;
      for (std::uint64_t p = 0; p < k; ++p) {
        float x = desc->trans_a != 0 ? element(*la, a, p, i) : element(*la, a, i, p);
        float y = desc->trans_b != 0 ? element(*lb, b, j, p) : element(*lb, b, p, j);
        sum += x * y;
      }
      if (j * m + i == m * n / 2 && fake_driver::wrong_result("cublaslt")) sum += 0.25F;
      store(out, ld->type, j * static_cast<std::uint64_t>(ld->ld) + i, sum);
    }
  }
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
  multiply<float>(m, n, k, a, b, c, 0, &same);
  return kSuccess;
}
#endif

FAKE_API int cublasGemmEx(void* handle, int ta, int tb, int m, int n, int k, const void* alpha, const void* a,
                          int atype, int lda, const void* b, int btype, int ldb, const void* beta, void* c, int ctype,
                          int ldc, int compute, int) {
  FAKE_CALL("cublasGemmEx");
  // Inputs CUDA_R_32F (0), CUDA_R_16F (2) or CUDA_R_16BF (14), both alike; output CUDA_R_32F, or
  // the inputs' 16-bit type (bench's FP16/BF16 GEMM, as torch.matmul asks);
  // CUBLAS_COMPUTE_32F (68), or _FAST_TF32 (77) for FP32 inputs: verify's half GEMM and bench's.
  const bool tf32_ok = compute == 77 && atype == 0;
  if (handle != &g_handle || ta != 0 || tb != 0 || atype != btype || (atype != 0 && atype != 2 && atype != 14) ||
      (ctype != 0 && (atype == 0 || ctype != atype)) || (compute != 68 && !tf32_ok) || lda != m || ldb != k ||
      ldc != m || *static_cast<const float*>(alpha) != 1 || *static_cast<const float*>(beta) != 0) {
    return kInvalidValue;
  }
  // [cublas] bf16 = unsupported: CUBLAS_STATUS_NOT_SUPPORTED for BF16, as cuBLAS 11.3 answered on
  // a P100 (pytorch#57773).
  if (atype == 14 && fake_driver::setting("cublas", "bf16") == "unsupported") return 15;
  if (atype == 0) {
    multiply<float>(m, n, k, fake_driver::host<float>(a), fake_driver::host<float>(b), fake_driver::host<void>(c), 0,
                    &same);
  } else {
    multiply<std::uint16_t>(m, n, k, fake_driver::host<std::uint16_t>(a), fake_driver::host<std::uint16_t>(b),
                            fake_driver::host<void>(c), ctype, atype == 2 ? &from_half : &from_bf16);
  }
  return kSuccess;
}
#endif
