// A fake cuDNN 9 for verify's tests, built as libcudnn.so.9 and as each sub-library verify
// looks for beside it: the legacy convolution API of gpu/cudnn_api.hpp, computing on fake
// device memory (host memory). [cudnn] version = N (7605 for an old cuDNN 7), result = wrong
// (forward off by 1 %), result = wrong-backward (only backward-data off).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fake_floats.hpp"
#include "fake_runtime.hpp"

namespace {

constexpr int kSuccess = 0;
constexpr int kBadParam = 2000;
constexpr int kNotSupported = 3000;

struct Tensor {
  int n = 0, c = 0, h = 0, w = 0;
  int type = 0;    ///< CUDNN_DATA_FLOAT (0) or CUDNN_DATA_HALF (1, bench's FP16 convolution)
  int format = 0;  ///< CUDNN_TENSOR_NCHW (0) or CUDNN_TENSOR_NHWC (1, FP16 only; filters KRSC)
};

/// Where element (n, c, y, x) of `t` is in memory.
size_t index_of(const Tensor& t, int n, int c, int y, int x) {
  if (t.format == 1) return ((static_cast<size_t>(n) * t.h + y) * t.w + x) * t.c + c;
  return ((static_cast<size_t>(n) * t.c + c) * t.h + y) * t.w + x;
}

using fake_floats::from_half;
using fake_floats::to_half;

float half_value(const void* p, size_t i) {
  std::uint16_t h = 0;
  std::memcpy(&h, static_cast<const char*>(p) + 2 * i, 2);
  return from_half(h);
}
struct Conv {
  int pad_h = 0, pad_w = 0;
};
int g_handle = 0;

Tensor* tensor(void* d) {
  return static_cast<Tensor*>(d);
}

/// Output element (n, k, y, x) of the cross-correlation, the loops in their own order.
float correlate(const Tensor& xs, const float* x, const Tensor& ws, const float* w, const Conv& cv, int n, int k, int y,
                int xo) {
  float sum = 0;
  for (int c = 0; c < xs.c; ++c) {
    for (int i = 0; i < ws.h; ++i) {
      int iy = y + i - cv.pad_h;
      if (iy < 0 || iy >= xs.h) continue;
      for (int j = 0; j < ws.w; ++j) {
        int ix = xo + j - cv.pad_w;
        if (ix < 0 || ix >= xs.w) continue;
        sum += x[((n * xs.c + c) * xs.h + iy) * xs.w + ix] * w[((k * ws.c + c) * ws.h + i) * ws.w + j];
      }
    }
  }
  return sum;
}

}  // namespace

/// cudnnConvolutionFwdAlgoPerf_t as cudnn.h lays it out.
struct gpudoctor_fake_algo_perf {
  int algo;
  int status;
  float time;
  size_t memory;
  int determinism;
  int math_type;
  int reserved[3];
};

FAKE_API size_t cudnnGetVersion() {
  FAKE_CALL("cudnnGetVersion");
  return static_cast<size_t>(fake_driver::number("cudnn", "version", 91900));
}
FAKE_API const char* cudnnGetErrorString(int status) {
  return status == kBadParam ? "CUDNN_STATUS_BAD_PARAM" : "CUDNN_STATUS_INTERNAL_ERROR";
}
FAKE_API int cudnnCreate(void** handle) {
  FAKE_CALL("cudnnCreate");
  *handle = &g_handle;
  return kSuccess;
}
FAKE_API int cudnnBackendCreateDescriptor(int, void**) {
  return kBadParam;
}
FAKE_API int cudnnCreateTensorDescriptor(void** d) {
  FAKE_CALL("cudnnCreateTensorDescriptor");
  *d = new Tensor;
  return kSuccess;
}
FAKE_API int cudnnSetTensor4dDescriptor(void* d, int format, int type, int n, int c, int h, int w) {
  FAKE_CALL("cudnnSetTensor4dDescriptor");
  if ((format != 0 && format != 1) || (type != 0 && type != 1)) return kBadParam;
  *tensor(d) = Tensor{n, c, h, w, type, format};
  return kSuccess;
}
FAKE_API int cudnnCreateFilterDescriptor(void** d) {
  FAKE_CALL("cudnnCreateFilterDescriptor");
  *d = new Tensor;
  return kSuccess;
}
FAKE_API int cudnnSetFilter4dDescriptor(void* d, int type, int format, int k, int c, int h, int w) {
  FAKE_CALL("cudnnSetFilter4dDescriptor");
  if ((format != 0 && format != 1) || (type != 0 && type != 1)) return kBadParam;
  *tensor(d) = Tensor{k, c, h, w, type, format};
  return kSuccess;
}
FAKE_API int cudnnCreateConvolutionDescriptor(void** d) {
  FAKE_CALL("cudnnCreateConvolutionDescriptor");
  *d = new Conv;
  return kSuccess;
}
FAKE_API int cudnnSetConvolution2dDescriptor(void* d, int pad_h, int pad_w, int u, int v, int dh, int dw, int mode,
                                             int type) {
  FAKE_CALL("cudnnSetConvolution2dDescriptor");
  if (u != 1 || v != 1 || dh != 1 || dw != 1 || mode != 1 || type != 0) return kBadParam;
  *static_cast<Conv*>(d) = Conv{pad_h, pad_w};
  return kSuccess;
}
FAKE_API int cudnnSetConvolutionMathType(void*, int) {
  FAKE_CALL("cudnnSetConvolutionMathType");
  return kSuccess;
}
// The heuristic ranks implicit precomputed GEMM, then implicit GEMM, as cuDNN 9 does for these
// shapes. [cudnn] fp16_unsupported_algo = N (and fp16_unsupported_algo_too = M): the workspace
// query refuses algorithm N (and M) for FP16
// with CUDNN_STATUS_NOT_SUPPORTED; fp16_nchw = 0 refuses every algorithm for FP16 in NCHW, and
// the heuristic marks its candidates not supported, as cuDNN 9.14 did on an H200 (2026-12-04);
// heuristic = 0 takes the heuristic out (a cuDNN without it).
static bool layout_refused(const Tensor& x) {
  return x.type == 1 && x.format == 0 && fake_driver::number("cudnn", "fp16_nchw", 1) == 0;
}
/// The heuristic does not know of fp16_unsupported_algo: it ranks what the workspace query refuses.
static bool refused(const Tensor& x, int algo) {
  return layout_refused(x) || (x.type == 1 && (algo == fake_driver::number("cudnn", "fp16_unsupported_algo", -1) ||
                                               algo == fake_driver::number("cudnn", "fp16_unsupported_algo_too", -1)));
}
FAKE_API int cudnnGetConvolutionForwardAlgorithm_v7(void*, void* x_desc, void*, void*, void*, int requested,
                                                    int* returned, gpudoctor_fake_algo_perf* results) {
  FAKE_CALL("cudnnGetConvolutionForwardAlgorithm_v7");
  if (fake_driver::number("cudnn", "heuristic", 1) == 0) return kNotSupported;
  const int ranked[] = {1, 0};
  *returned = 0;
  for (int algo : ranked) {
    if (*returned >= requested) break;
    results[*returned] = gpudoctor_fake_algo_perf{};
    results[*returned].algo = algo;
    results[*returned].status = layout_refused(*tensor(x_desc)) ? kNotSupported : kSuccess;
    ++*returned;
  }
  return kSuccess;
}
FAKE_API int cudnnGetConvolutionForwardWorkspaceSize(void*, void* x_desc, void*, void*, void*, int algo,
                                                     size_t* bytes) {
  FAKE_CALL("cudnnGetConvolutionForwardWorkspaceSize");
  if (refused(*tensor(x_desc), algo)) return kNotSupported;
  // [cudnn] precomputed_workspace_mib = N: implicit precomputed GEMM (1) asks for N MiB.
  const long long mib = fake_driver::number("cudnn", "precomputed_workspace_mib", 0);
  *bytes = algo == 1 && mib > 0 ? static_cast<size_t>(mib) << 20 : 4096;
  return kSuccess;
}
FAKE_API int cudnnGetConvolutionBackwardDataWorkspaceSize(void*, void*, void*, void*, void*, int, size_t* bytes) {
  FAKE_CALL("cudnnGetConvolutionBackwardDataWorkspaceSize");
  *bytes = 0;
  return kSuccess;
}

FAKE_API int cudnnConvolutionForward(void* handle, const void*, void* x_desc, const void* x, void* w_desc,
                                     const void* w, void* conv, int, void*, size_t, const void*, void* y_desc,
                                     void* y) {
  FAKE_CALL("cudnnConvolutionForward");
  if (handle != &g_handle) return kBadParam;
  const Tensor& xs = *tensor(x_desc);
  const Tensor& ws = *tensor(w_desc);
  const Tensor& ys = *tensor(y_desc);
  const Conv& cv = *static_cast<Conv*>(conv);
  if (xs.type != ws.type || xs.type != ys.type || xs.format != ws.format || xs.format != ys.format) return kBadParam;
  if (xs.type == 1) {
    // FP16 in and out, FP32 accumulation: widen (into NCHW, from either layout), correlate, round
    // back into the output's layout.
    auto widen = [](const Tensor& t, const void* data) {
      std::vector<float> f(static_cast<size_t>(t.n) * t.c * t.h * t.w);
      for (int n = 0; n < t.n; ++n)
        for (int c = 0; c < t.c; ++c)
          for (int i = 0; i < t.h; ++i)
            for (int j = 0; j < t.w; ++j)
              f[((static_cast<size_t>(n) * t.c + c) * t.h + i) * t.w + j] = half_value(data, index_of(t, n, c, i, j));
      return f;
    };
    std::vector<float> xf = widen(xs, x);
    std::vector<float> wf = widen(ws, w);
    auto* out = static_cast<std::uint16_t*>(y);
    for (int n = 0; n < ys.n; ++n)
      for (int k = 0; k < ys.c; ++k)
        for (int i = 0; i < ys.h; ++i)
          for (int j = 0; j < ys.w; ++j)
            out[index_of(ys, n, k, i, j)] = to_half(correlate(xs, xf.data(), ws, wf.data(), cv, n, k, i, j));
    if (fake_driver::wrong_result("cudnn")) out[7] = to_half(from_half(out[7]) * 1.5F + 1.0F);
    return kSuccess;
  }
  if (xs.format != 0) return kBadParam;  // FP32 only in NCHW here
  auto* out = static_cast<float*>(y);
  for (int n = 0; n < ys.n; ++n)
    for (int k = 0; k < ys.c; ++k)
      for (int i = 0; i < ys.h; ++i)
        for (int j = 0; j < ys.w; ++j)
          out[((n * ys.c + k) * ys.h + i) * ys.w + j] =
              correlate(xs, static_cast<const float*>(x), ws, static_cast<const float*>(w), cv, n, k, i, j);
  if (fake_driver::wrong_result("cudnn")) out[7] *= 1.01F;
  return kSuccess;
}

FAKE_API int cudnnConvolutionBackwardData(void* handle, const void*, void* w_desc, const void* w, void* dy_desc,
                                          const void* dy, void* conv, int, void*, size_t, const void*, void* dx_desc,
                                          void* dx) {
  FAKE_CALL("cudnnConvolutionBackwardData");
  if (handle != &g_handle) return kBadParam;
  const Tensor& ws = *tensor(w_desc);
  const Tensor& ys = *tensor(dy_desc);
  const Tensor& xs = *tensor(dx_desc);
  const Conv& cv = *static_cast<Conv*>(conv);
  if (ws.format != 0 || ys.format != 0 || xs.format != 0) return kBadParam;  // verify's FP32 NCHW only
  const auto* g = static_cast<const float*>(dy);
  const auto* f = static_cast<const float*>(w);
  auto* out = static_cast<float*>(dx);
  // Gathered per input element (the reference scatters): the two must agree.
  for (int n = 0; n < xs.n; ++n)
    for (int c = 0; c < xs.c; ++c)
      for (int iy = 0; iy < xs.h; ++iy)
        for (int ix = 0; ix < xs.w; ++ix) {
          float sum = 0;
          for (int k = 0; k < ys.c; ++k)
            for (int i = 0; i < ws.h; ++i)
              for (int j = 0; j < ws.w; ++j) {
                int y = iy - i + cv.pad_h;
                int xo = ix - j + cv.pad_w;
                if (y < 0 || y >= ys.h || xo < 0 || xo >= ys.w) continue;
                sum += g[((n * ys.c + k) * ys.h + y) * ys.w + xo] * f[((k * ws.c + c) * ws.h + i) * ws.w + j];
              }
          out[((n * xs.c + c) * xs.h + iy) * xs.w + ix] = sum;
        }
  if (fake_driver::setting("cudnn", "result") == "wrong-backward") out[7] *= 1.01F;
  return kSuccess;
}
