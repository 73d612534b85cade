// Unseen logs, session 37 review (A): answers that named the wrong cause or none. Each rule was
// written from where its message is printed (mmcv's ext_module ops, PyTorch's CUDABlas.cpp and
// cpp_extension.py, the torch wheels' METADATA and file lists, NCCL's nccl.h.in, TensorRT's
// serialization messages as real logs print them, ONNX Runtime's provider bridge), not from the
// reviewer's one example: each test has the reviewer's line, a variant in the source's format, and
// a near miss that must keep its old answer.
#include <gtest/gtest.h>

#include <string>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;
using testing::problem_count;

// Log 16 (open-mmlab/mmcv#2201): mmcv's ops, built on an A100, run on a V100. The frame under the
// error is mmcv/ops/focal_loss.py calling ext_module (mmcv/utils/ext_loader.py load_ext); PyTorch
// itself has the V100's kernels. The extension's arch list is TORCH_CUDA_ARCH_LIST, else the
// build machine's GPUs (torch/utils/cpp_extension.py _get_cuda_arch_flags).
TEST(ExplainReview37A, NoKernelImageInsideACompiledExtensionIsTheExtensionsBuild) {
  const std::string mmcv =
      "Exception has occurred: RuntimeError\n"
      "CUDA error: no kernel image is available for execution on the device\n"
      "CUDA kernel errors might be asynchronously reported at some other API call,so the stacktrace below might be "
      "incorrect.\n"
      "  File \"/root/mmcv/mmcv/ops/focal_loss.py\", line 60, in forward\n"
      "    ext_module.sigmoid_focal_loss_forward(\n"
      "  File \"/root/mmdetection/mmdet/models/losses/focal_loss.py\", line 139, in sigmoid_focal_loss\n";
  // detectron2-style: `from detectron2 import _C` then a bare `_C.op(` call, and the older
  // "invalid device function" spelling of the same failure.
  const std::string detectron2 =
      "  File \"/home/u/detectron2/detectron2/layers/nms.py\", line 33, in nms_rotated\n"
      "    return _C.nms_rotated(boxes, scores, iou_threshold)\n"
      "RuntimeError: CUDA error: invalid device function\n";
  // A pointnet2-style module whose name ends in _cuda.
  const std::string pointnet =
      "    pointnet2_cuda.furthest_point_sampling_wrapper(B, N, npoint, xyz, temp, output)\n"
      "RuntimeError: CUDA error: no kernel image is available for execution on the device\n";
  for (const std::string& log : {mmcv, detectron2, pointnet}) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "no-kernel-image/extension")) << log;
    EXPECT_EQ(problem_count(r), 1u) << testing::rule_list(r);
    const std::string& fix = r.matches.front().fix;
    EXPECT_TRUE(testing::mentions(fix, "TORCH_CUDA_ARCH_LIST")) << fix;
    EXPECT_TRUE(testing::mentions(fix, "build/")) << fix;
    EXPECT_FALSE(testing::mentions(fix, "download.pytorch.org")) << fix;
  }
  EXPECT_TRUE(testing::mentions(explain_no_facts(mmcv).matches.front().fix, "MMCV_WITH_OPS=1"));
  // PyTorch's own kernels: the traceback is torch's (torch._C bindings are not an extension); the
  // framework-build answer stays and the extension reading is not offered.
  const auto torch_own = explain_no_facts(
      "  File \"/venv/lib/python3.10/site-packages/torch/nn/modules/linear.py\", line 114, in forward\n"
      "    return F.linear(input, self.weight, self.bias)\n"
      "  File \"/venv/lib/python3.10/site-packages/torch/cuda/__init__.py\", line 293, in _lazy_init\n"
      "    torch._C._cuda_init()\n"
      "RuntimeError: CUDA error: no kernel image is available for execution on the device\n");
  ASSERT_TRUE(leads_with(torch_own, "no-kernel-image")) << testing::rule_list(torch_own);
  EXPECT_EQ(find_rule(torch_own, "no-kernel-image/extension"), nullptr) << testing::rule_list(torch_own);
}

// Log 12 (pytorch#119932, #119072): torch 2.2's libtorch_cuda.so needs ncclCommRegister, which
// NCCL added in 2.19.1 (NVIDIA/nccl f9c3dc25, src/nccl.h.in); torch 2.2.x's METADATA pins
// nvidia-nccl-cu12==2.19.3. NCCL is not in a CUDA toolkit's lib64.
TEST(ExplainReview37A, UndefinedNcclSymbolIsAnOlderNcclNotTheCudaToolkit) {
  const std::string reviewer =
      "  File \"/root/.local/conda/envs/yolov10/lib/python3.9/site-packages/torch/__init__.py\", line 237, in "
      "<module>\n"
      "    from torch._C import *  # noqa: F403\n"
      "ImportError: /root/.local/conda/envs/yolov10/lib/python3.9/site-packages/torch/lib/libtorch_cuda.so: "
      "undefined symbol: ncclCommRegister\n";
  // dlerror's format with a version node, another NCCL entry point, a bare-name library.
  const std::string variant = "OSError: libtorch_cuda.so: undefined symbol: ncclCommSplit\n";
  for (const std::string& log : {reviewer, variant}) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "undefined-symbol-nccl")) << log;
    EXPECT_EQ(find_rule(r, "undefined-symbol-wrong-library"), nullptr) << testing::rule_list(r);
    const std::string text = testing::told(r);
    EXPECT_TRUE(testing::mentions(text, "nvidia-nccl-cu12==2.19.3")) << text;
    EXPECT_TRUE(testing::mentions(text, "libnccl.so.2")) << text;
    EXPECT_FALSE(testing::mentions(text, "upgrade the system CUDA")) << text;
  }
  EXPECT_TRUE(testing::mentions(explain_no_facts(reviewer).matches.front().cause, "ncclCommRegister"));
  // A CUDA library's symbol keeps the CUDA-copies answer.
  const auto cuda = explain_no_facts(
      "ImportError: /venv/lib/python3.11/site-packages/nvidia/cusparse/lib/libcusparse.so.12: undefined symbol: "
      "__nvJitLinkComplete_12_4, version libnvJitLink.so.12\n");
  EXPECT_EQ(find_rule(cuda, "undefined-symbol-nccl"), nullptr) << testing::rule_list(cuda);
}

// Log 17 (open-mmlab/mmdeploy#2639): TensorRT 8.x's stdArchiveReader words a plan it cannot read
// "Serialization assertion magicTagRead == kMAGIC_TAG failed.Magic tag does not match" (8.4-8.6
// logs also print `magicTag`); TensorRT 7 "coreReadArchive.cpp (31) - Serialization Error in
// verifyHeader: 0 (Magic tag does not match)".
TEST(ExplainReview37A, TensorrtMagicTagMismatchIsAPlanFromElsewhere) {
  const std::string reviewer =
      "[2024-01-12 12:53:54.250] [mmdeploy] [error] [trt_net.cpp:28] TRTNet: 1: [stdArchiveReader.cpp::"
      "StdArchiveReader::30] Error Code 1: Serialization (Serialization assertion magicTagRead == magicTag "
      "failed.Magic tag does not match)\n"
      "[2024-01-12 12:53:54.251] [mmdeploy] [error] [trt_net.cpp:28] TRTNet: 4: [runtime.cpp::deserializeCudaEngine::"
      "50] Error Code 4: Internal Error (Engine deserialization failed.)\n";
  const std::string trt8 =
      "[05/15/2024-10:15:51] [E] [TRT] 1: [stdArchiveReader.cpp::StdArchiveReader::30] Error Code 1: Serialization "
      "(Serialization assertion magicTagRead == kMAGIC_TAG failed.Magic tag does not match)\n";
  const std::string trt7 =
      "../rtSafe/coreReadArchive.cpp (31) - Serialization Error in verifyHeader: 0 (Magic tag does not match)\n"
      "INVALID_CONFIG: Deserialize the cuda engine failed.\n";
  for (const std::string& log : {reviewer, trt8, trt7}) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "tensorrt-engine-incompatible")) << log;
    const std::string text = testing::told(r);
    EXPECT_TRUE(testing::mentions(text, "trtexec")) << text;
    EXPECT_TRUE(testing::mentions(text, "not a serialized engine")) << text;
  }
  // Another program's "magic" check is not TensorRT's.
  const auto other = explain_no_facts("Error: bad magic number in file header\n");
  EXPECT_EQ(find_rule(other, "tensorrt-engine-incompatible"), nullptr) << testing::rule_list(other);
}

// Log 20 (lxxue/FRNN#18): an extension linked against libtorch_cuda_cu.so. torch 1.13.1's PyPI
// wheel (cu117) has torch/lib/libtorch_cuda_cu.so and libtorch_cuda_cpp.so, 2.0.0's only
// libtorch_cuda.so (BUILD_SPLIT_CUDA deleted by pytorch#87502).
TEST(ExplainReview37A, SplitLibtorchCudaMissingIsAnExtensionBuiltForTorch1) {
  const std::string reviewer =
      "line 7, in <module>\n"
      "    from frnn import _C\n"
      "    ImportError: libtorch_cuda_cu.so: cannot open shared object file: No such file or directory\n";
  const std::string cpp = "OSError: libtorch_cuda_cpp.so: cannot open shared object file: No such file or directory\n";
  for (const std::string& log : {reviewer, cpp}) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "torch-extension-split-libtorch-cuda")) << testing::rule_list(r);
    EXPECT_EQ(problem_count(r), 1u) << testing::rule_list(r);
    const std::string& fix = r.matches.front().fix;
    EXPECT_TRUE(testing::mentions(fix, "build/")) << fix;
    EXPECT_TRUE(testing::mentions(fix, "--no-build-isolation")) << fix;
    EXPECT_TRUE(testing::mentions(r.matches.front().cause, "2.0")) << r.matches.front().cause;
  }
  // PyTorch's own library missing is not this.
  const auto own =
      explain_no_facts("OSError: libtorch_cuda.so: cannot open shared object file: No such file or directory\n");
  EXPECT_EQ(find_rule(own, "torch-extension-split-libtorch-cuda"), nullptr) << testing::rule_list(own);
}

// Log 19 (opendatalab/MinerU#1508, fixed by #1512): PyTorch's TORCH_CUDABLAS_CHECK (CUDABlas.cpp)
// prints the failing call with its data types; CUDA_R_16BF on a Tesla M40 (sm_52).
TEST(ExplainReview37A, CublasNotSupportedForABf16GemmIsTheGpusBf16) {
  const std::string reviewer =
      "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmStridedBatchedEx(handle, opa, "
      "opb, (int)m, (int)n, (int)k, (void*)&falpha, a, CUDA_R_16BF, (int)lda, stridea, b, CUDA_R_16BF, (int)ldb, "
      "strideb, (void*)&fbeta, c, CUDA_R_16BF, (int)ldc, stridec, (int)num_batches, compute_type, "
      "CUBLAS_GEMM_DEFAULT_TENSOR_OP)`\n";
  const std::string gemm =
      "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmEx( handle, opa, opb, m, n, k, "
      "&falpha, a, CUDA_R_16BF, lda, b, CUDA_R_16BF, ldb, &fbeta, c, CUDA_R_16BF, ldc, CUDA_R_32F, "
      "CUBLAS_GEMM_DFALT_TENSOR_OP)`\n";
  for (const std::string& log : {reviewer, gemm}) {
    const auto r = explain_no_facts(log);
    ASSERT_TRUE(leads_with(r, "torch-cublas-bf16-not-supported")) << testing::rule_list(r);
    EXPECT_EQ(find_rule(r, "code/cublas/CUBLAS_STATUS_NOT_SUPPORTED"), nullptr) << testing::rule_list(r);
    const std::string text = testing::told(r);
    EXPECT_TRUE(testing::mentions(text, "float16")) << text;
    EXPECT_TRUE(testing::mentions(text, "8.0")) << text;
  }
  // The same failure with half precision is not a bf16 problem.
  const auto fp16 = explain_no_facts(
      "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasGemmEx( handle, opa, opb, m, n, k, "
      "&falpha, a, CUDA_R_16F, lda, b, CUDA_R_16F, ldb, &fbeta, c, CUDA_R_16F, ldc, CUDA_R_32F, "
      "CUBLAS_GEMM_DEFAULT_TENSOR_OP)`\n");
  EXPECT_EQ(find_rule(fp16, "torch-cublas-bf16-not-supported"), nullptr) << testing::rule_list(fp16);
}

// Log 02 (pykeio/ort#548): ONNX Runtime prints the path it was given (posix/env.cc
// LoadDynamicLibrary: "Failed to load library " + name), a full path when the provider is loaded
// from an explicit directory (the Rust ort crate, C++ programs). No TensorFlow advice for it.
TEST(ExplainReview37A, OnnxruntimeProviderAtAFullPathIsOnnxruntimesAnswer) {
  const std::string reviewer =
      "called `Result::unwrap()` on an `Err` value: Error { code: GenericFailure, message: \"/home/runner/work/"
      "ort-artifacts/ort-artifacts/onnxruntime/onnxruntime/core/session/provider_bridge_ort.cc:1952 Provider "
      "&onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library "
      "/home/meh/devel/ort-cuda-13-fail/target/debug/libonnxruntime_providers_cuda.so with error: libcublasLt.so.12: "
      "cannot open shared object file: No such file or directory\\n\", ptr: 0x55e586ee5080 }\n";
  const std::string cudnn =
      "[ONNXRuntimeError] : 1 : FAIL : Failed to load library /opt/app/lib/libonnxruntime_providers_cuda.so with "
      "error: libcudnn.so.9: cannot open shared object file: No such file or directory\n";
  auto r = explain_no_facts(reviewer);
  ASSERT_TRUE(leads_with(r, "onnxruntime-cuda-provider-not-loaded")) << testing::rule_list(r);
  EXPECT_TRUE(testing::mentions(r.matches.front().cause, "libcublasLt.so.12")) << r.matches.front().cause;
  EXPECT_FALSE(testing::mentions(testing::told(r), "tensorflow")) << testing::told(r);
  r = explain_no_facts(cudnn);
  ASSERT_TRUE(leads_with(r, "onnxruntime-cuda-provider-cudnn-missing")) << testing::rule_list(r);
  // The generic library answer, for a line of ONNX Runtime's that its provider rule does not read,
  // gives no TensorFlow command either; for TensorFlow's own line it still does.
  r = explain_no_facts(
      "2025-01-01 [E:onnxruntime:Default, cuda_call.cc:118 CudaCall] something failed\n"
      "OSError: libcufft.so.11: cannot open shared object file: No such file or directory\n");
  ASSERT_NE(find_rule(r, "cuda-library-missing/onnxruntime"), nullptr) << testing::rule_list(r);
  EXPECT_FALSE(testing::mentions(testing::told(r), "tensorflow[and-cuda]")) << testing::told(r);
  r = explain_no_facts(
      "W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load dynamic library "
      "'libcublasLt.so.11'; dlerror: libcublasLt.so.11: cannot open shared object file: No such file or directory\n");
  EXPECT_EQ(find_rule(r, "cuda-library-missing/onnxruntime"), nullptr) << testing::rule_list(r);
  EXPECT_TRUE(testing::mentions(testing::told(r), "tensorflow[and-cuda]")) << testing::told(r);
}

// Single-line probe k: NVRTC's soname is libnvrtc.so.11.2 in every CUDA 11.2-11.8 (Debian's
// libnvrtc11.2 package holds 11.2.152 in bullseye and 11.8.89 in bookworm; pip's
// nvidia-cuda-nvrtc-cu11 11.7.99 and 11.8.89 ship lib/libnvrtc.so.11.2), cuFFT's libcufft.so.10 is
// CUDA 11's (Debian's libcufft10: 10.4.1.152 from CUDA 11.2.2, 10.9.0.58 from 11.8.0). The name does
// not say "CUDA 11.2".
TEST(ExplainReview37A, ASonameVersionIsNotTheToolkitVersion) {
  for (const char* line : {"RuntimeError: CuPy failed to load libnvrtc.so.11.2: OSError: libnvrtc.so.11.2: cannot "
                           "open shared object file: No such file or directory\n",
                           "OSError: libcufft.so.10: cannot open shared object file: No such file or directory\n"}) {
    const auto r = explain_no_facts(line);
    ASSERT_FALSE(r.matches.empty()) << line;
    const std::string text = testing::told(r);
    EXPECT_FALSE(testing::mentions(text, "= CUDA 11.2")) << text;
    EXPECT_FALSE(testing::mentions(text, "= CUDA 10)")) << text;
    EXPECT_FALSE(testing::mentions(text, "CUDA 11.2 libraries")) << text;
    EXPECT_FALSE(testing::mentions(text, "CUDA 10 libraries")) << text;
    EXPECT_TRUE(testing::mentions(text, "11.2 to 11.8")) << text;
  }
}

}  // namespace
}  // namespace gpudoctor
