// A fake OpenBLAS for bench's CPU SGEMM (fake_bench_test.cpp), in the three shapes a user's machine
// offers: the usual LP64 build (cblas_sgemm with int dimensions), Debian's ILP64 libopenblas64
// (GPUDOCTOR_FAKE_BLAS_ILP64: the same unsuffixed names, 64-bit dimensions, USE64BITINT in its
// config) and the ILP64 copy numpy's wheels bundle (GPUDOCTOR_FAKE_BLAS_SCIPY64: every name
// prefixed scipy_ and suffixed 64_); and a fourth that is no OpenBLAS (GPUDOCTOR_FAKE_BLAS_NO_CONFIG:
// an ILP64 cblas_sgemm without openblas_get_config, as netlib's libblas64 or an ILP64 BLIS), whose
// width a caller cannot know. A naive row-major product, checked by the caller as any
// OpenBLAS is. A dimension it does not expect (what a caller passing 32-bit ints to the 64-bit
// form leaves in the upper halves) makes it write NaN, so the caller's check fails.
#include <cmath>
#include <cstdint>

#if defined(GPUDOCTOR_FAKE_BLAS_NO_CONFIG)
#define GPUDOCTOR_FAKE_BLAS_ILP64 1
#endif
#if defined(GPUDOCTOR_FAKE_BLAS_ILP64) || defined(GPUDOCTOR_FAKE_BLAS_SCIPY64)
using blasint = std::int64_t;
#define GPUDOCTOR_FAKE_CONFIG "OpenBLAS 0.3.30 (fake) USE64BITINT DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64"
#else
using blasint = int;
#define GPUDOCTOR_FAKE_CONFIG "OpenBLAS 0.3.21 (fake) DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64"
#endif

#if defined(GPUDOCTOR_FAKE_BLAS_SCIPY64)
#define GPUDOCTOR_FAKE_NAME(name) scipy_##name##64_
#else
#define GPUDOCTOR_FAKE_NAME(name) name
#endif

namespace {
int threads = 1;
char config[] = GPUDOCTOR_FAKE_CONFIG;
char core[] = "Haswell";

bool plausible(blasint v) {
  return v >= 1 && v <= (blasint{1} << 16);
}
}  // namespace

extern "C" {

__attribute__((visibility("default"))) void GPUDOCTOR_FAKE_NAME(cblas_sgemm)(int order, int trans_a, int trans_b,
                                                                             blasint m, blasint n, blasint k,
                                                                             float alpha, const float* a, blasint lda,
                                                                             const float* b, blasint ldb, float beta,
                                                                             float* c, blasint ldc) {
  // Row-major, no transposes: all bench ever asks for.
  const bool sane = order == 101 && trans_a == 111 && trans_b == 111 && plausible(m) && plausible(n) && plausible(k) &&
                    lda == k && ldb == n && ldc == n;
  if (!sane) {
    if (plausible(m) && plausible(ldc)) {
      for (blasint i = 0; i < m * ldc; ++i) c[i] = NAN;
    }
    return;
  }
  for (blasint i = 0; i < m; ++i) {
    for (blasint j = 0; j < n; ++j) {
      double sum = 0;
      for (blasint p = 0; p < k; ++p) sum += static_cast<double>(a[i * lda + p]) * b[p * ldb + j];
      c[i * ldc + j] = static_cast<float>(alpha * sum + (beta == 0.0F ? 0.0 : beta * c[i * ldc + j]));
    }
  }
}

__attribute__((visibility("default"))) void GPUDOCTOR_FAKE_NAME(openblas_set_num_threads)(int n) {
  threads = n;
}

__attribute__((visibility("default"))) int GPUDOCTOR_FAKE_NAME(openblas_get_num_threads)() {
  return threads;
}

#if !defined(GPUDOCTOR_FAKE_BLAS_NO_CONFIG)
__attribute__((visibility("default"))) char* GPUDOCTOR_FAKE_NAME(openblas_get_config)() {
  return config;
}
#endif

__attribute__((visibility("default"))) char* GPUDOCTOR_FAKE_NAME(openblas_get_corename)() {
  return core;
}
}
