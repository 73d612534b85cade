// Issue 10 items 12 and 14: the commonest "no GPU" lines of today's releases get an answer,
// ranked below a real error in the same log; a cuDNN fix names no placeholder and pins the
// major the log names.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::builtin_matcher;
using testing::category_rank;
using testing::explain;

TEST(ExplainNoGpu, CommonestNoGpuLinesGetAnAnswer) {
  // TensorFlow's "Could not find cuda drivers" is the CUDA runtime missing (cudart_stub.cc:
  // GetCudaRuntimeDsoHandle), not the driver: it is cuda-lib-missing, below.
  const ExplainReport cudart = explain(
      "2025-01-01 12:00:00.000000: I external/local_xla/xla/tsl/cuda/cudart_stub.cc:32] Could not find cuda "
      "drivers on your machine, GPU will not be used.");
  ASSERT_FALSE(cudart.matches.empty());
  EXPECT_EQ(cudart.matches.front().category, "cuda-lib-missing");
  EXPECT_NE(cudart.matches.front().fix.find("tensorflow[and-cuda]"), std::string::npos) << cudart.matches.front().fix;
  for (std::string_view line : {
           "RuntimeError: No CUDA GPUs are available",
           "E external/local_xla/xla/stream_executor/cuda/cuda_platform.cc:51] failed call to cuInit: INTERNAL: CUDA "
           "error: Failed call to cuInit: UNKNOWN ERROR (303)",
           "torch.cuda.DeferredCudaCallError: CUDA call failed lazily at initialization with error: CUDA driver "
           "initialization failed, you might not have a CUDA gpu.",
       }) {
    const ExplainReport r = explain(line);
    ASSERT_FALSE(r.matches.empty()) << line;
    EXPECT_EQ(r.matches.front().category, "driver-missing") << line;
  }
}

TEST(ExplainNoGpu, SymptomRanksBelowTheRealErrorInTheSameLog) {
  const ExplainReport r = explain(
      "Loaded runtime CuDNN library: 8.8.0 but source was compiled with: 8.9.4.\n"
      "RuntimeError: No CUDA GPUs are available\n");
  ASSERT_GE(r.matches.size(), 2u);
  EXPECT_EQ(category_rank(r, "cudnn-version-mismatch"), 1u) << r.matches.front().rule;
}

TEST(ExplainNoGpu, CudnnFixHasNoPlaceholderAndPinsTheLogsMajor) {
  const ExplainReport r = explain(
      "Loaded runtime CuDNN library: 8.8.0 but source was compiled with: 8.9.4.  CuDNN library needs to have "
      "matching major version and equal or higher minor version.");
  ASSERT_FALSE(r.matches.empty());
  const std::string& fix = r.matches.front().fix;
  EXPECT_EQ(fix.find("cuXX"), std::string::npos) << fix;
  EXPECT_EQ(fix.find("8.9.4."), std::string::npos) << "the sentence's dot is not the version's: " << fix;
  EXPECT_NE(fix.find("==8.*"), std::string::npos) << "pinned within cuDNN 8: " << fix;
}

/// "cuXX", "535.XX", "10de:XXXX": an X-run standing for digits; CXX (the C++ compiler variable)
/// is a word, not a placeholder.
bool has_xx_placeholder(const std::string& text) {
  for (size_t at = text.find("XX"); at != std::string::npos; at = text.find("XX", at + 1)) {
    if (at == 0 || !std::isupper(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == 'X') return true;
  }
  return false;
}

TEST(ExplainNoGpu, NoRenderedFixOfAnExampleHasAnUnfilledPlaceholder) {
  for (const Rule& rule : builtin_matcher().base().rules) {
    for (const std::string& example : rule.examples) {
      for (const ExplainMatch& m : explain(example).matches) {
        for (const std::string* text : {&m.fix, &m.cause}) {
          EXPECT_FALSE(has_xx_placeholder(*text)) << m.rule << ": " << *text;
          EXPECT_EQ(text->find("X.Y}"), std::string::npos) << m.rule << ": " << *text;
          EXPECT_EQ(text->find('{'), std::string::npos) << m.rule << ": " << *text;
        }
      }
    }
  }
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

// Issue 9, "Explain rules with wrong advice".
TEST(ExplainWrongAdvice, TensorflowRulesNeverTellTensorflowUsersToInstallJax) {
  for (const Rule& rule : testing::builtin_matcher().base().rules) {
    const bool tensorflow_only = rule.frameworks == std::vector<std::string>{"tensorflow"};
    const bool mentions_tf =
        std::find(rule.frameworks.begin(), rule.frameworks.end(), "tensorflow") != rule.frameworks.end();
    for (const RuleCandidate& c : rule.candidates) {
      if (tensorflow_only) EXPECT_EQ(c.fix.find("jax["), std::string::npos) << c.id;
      // A rule shared with TensorFlow that names JAX's install names TensorFlow's too, unless the
      // candidate is listed only for a log that shows it is JAX's (`when` jax-log, session 38).
      const bool jax_log_only = std::find(c.when.begin(), c.when.end(), "jax-log") != c.when.end();
      if (mentions_tf && !jax_log_only && c.fix.find("jax[") != std::string::npos) {
        std::string lower = c.fix;
        for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        EXPECT_NE(lower.find("tensorflow"), std::string::npos) << c.id << ": " << c.fix;
      }
    }
  }
}

TEST(ExplainWrongAdvice, NoKernelImageFixFollowsTheFrameworkAndTheFacts) {
  const ExplainReport r = explain_text(testing::builtin_matcher(),
                                       "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: CUDA error: no kernel image is "
                                       "available for execution on the device",
                                       ExplainMachine{});
  ASSERT_FALSE(r.matches.empty());
  const std::string& fix = r.matches.front().fix;
  EXPECT_NE(fix.find("jax[cuda"), std::string::npos) << fix;
  EXPECT_NE(fix.find("cu126"), std::string::npos) << "old GPUs on PyTorch 2.8-2.14: " << fix;
  EXPECT_EQ(fix.find("cu118"), std::string::npos) << fix;
}

TEST(ExplainWrongAdvice, PtxWordingCudnnEncodingAndHermeticVariable) {
  const RuleBase& base = testing::builtin_matcher().base();
  for (const Rule& rule : base.rules) {
    for (const RuleCandidate& c : rule.candidates) {
      EXPECT_EQ(c.cause.find("PTX is too old"), std::string::npos) << c.id;
      EXPECT_EQ(c.cause.find("9100 = 9.1.0"), std::string::npos) << c.id << ": cuDNN 9.1.0 is 90100";
      if (rule.id == "tf-gpu-cc-below-minimum") {
        EXPECT_NE(c.fix.find("HERMETIC_CUDA_COMPUTE_CAPABILITIES"), std::string::npos) << c.fix;
      }
    }
  }
}

// TensorFlow's cuda_dnn.cc prints "Loaded runtime CuDNN library: X but source was compiled with: Y"
// whenever the two are incompatible, in either direction: an older minor, but also another
// major (cuDNN 9 loaded by a TensorFlow built for 8, e.g. PyTorch's wheel in the same venv), and
// in TF 1.x (the "(compatibility version N)" form) any other minor, newer ones too.
TEST(ExplainWrongAdvice, CudnnNewerThanTheBuildIsNotCalledOlder) {
  const ExplainReport major = explain(
      "E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:447] Loaded runtime CuDNN library: 9.1.0 but source "
      "was compiled with: 8.9.4.  CuDNN library needs to have matching major version and equal or higher minor "
      "version.");
  ASSERT_FALSE(major.matches.empty());
  EXPECT_EQ(major.matches.front().rule, "cudnn-runtime-major-differs-from-build");
  EXPECT_EQ(major.matches.front().category, "cudnn-version-mismatch");
  EXPECT_EQ(major.matches.front().cause.find("older"), std::string::npos) << major.matches.front().cause;
  EXPECT_NE(major.matches.front().fix.find("==8.*"), std::string::npos) << major.matches.front().fix;

  const ExplainReport minor = explain(
      "E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded runtime CuDNN library: 7201 (compatibility version "
      "7200) but source was compiled with 7004 (compatibility version 7000).  If using a binary install, upgrade "
      "your CuDNN library to match.");
  ASSERT_FALSE(minor.matches.empty());
  EXPECT_EQ(minor.matches.front().rule, "cudnn-runtime-minor-differs-from-build");
  EXPECT_NE(minor.matches.front().cause.find("7000"), std::string::npos) << minor.matches.front().cause;

  const ExplainReport older = explain(
      "Loaded runtime CuDNN library: 7.5.0 but source was compiled with: 7.6.3.  CuDNN library major and minor "
      "version needs to match or have higher minor version in case of CuDNN 7.0 or later version.");
  ASSERT_FALSE(older.matches.empty());
  EXPECT_EQ(older.matches.front().rule, "cudnn-runtime-older-than-build");
  EXPECT_EQ(older.matches.front().fix.find("nvidia-cudnn-cu12==7"), std::string::npos)
      << "no cuDNN 7 wheel exists: " << older.matches.front().fix;

  // A build for cuDNN 7 (TF 1.13-2.3) that loaded cuDNN 8: no pip pin to cuDNN 7 either.
  const ExplainReport seven = explain(
      "Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 7.6.5.  CuDNN library major and minor "
      "version needs to match or have higher minor version in case of CuDNN 7.0 or later version.");
  ASSERT_FALSE(seven.matches.empty());
  EXPECT_EQ(seven.matches.front().rule, "cudnn-runtime-major-differs-from-build");
  EXPECT_EQ(seven.matches.front().fix.find("nvidia-cudnn-cu12==7"), std::string::npos) << seven.matches.front().fix;
  EXPECT_NE(seven.matches.front().fix.find("7.6.5"), std::string::npos) << seven.matches.front().fix;
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

TEST(ExplainPasted, EscapedNewlinesSplitTheLogButNotAWindowsPath) {
  const ExplainReport r =
      explain_text(testing::builtin_matcher(),
                   R"(我的日志如下: 2024-01-01 10:00:00: I tensorflow/core/x.cc:1] start\n)"
                   R"(2024-01-01 10:00:01: W cudart_stub.cc:29] Could not find cuda drivers on )"
                   R"(your machine, GPU will not be used.\nRuntimeError: No CUDA GPUs are available)",
                   ExplainMachine{});
  EXPECT_NE(testing::find_rule(r, "tf-cudart-not-loaded"), nullptr);
  EXPECT_NE(testing::find_rule(r, "torch-no-cuda-gpus"), nullptr);
  const ExplainReport w = explain_text(
      testing::builtin_matcher(),
      R"(Could not load dynamic library 'C:\Windows\System32\nvcuda.dll'; dlerror: nvcuda.dll not found\nmore)",
      ExplainMachine{});
  ASSERT_FALSE(w.matches.empty());
  EXPECT_NE(w.matches.front().excerpts.front().find("nvcuda.dll'"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

// torch/cuda/__init__.py warns "{name} with CUDA capability sm_X is not compatible ..." after a
// "path:line: UserWarning: " prefix; pasted as one line, the prefix is not the GPU's name, and
// the supported list that follows on the same line is still read.
TEST(ExplainWrongAdvice, CapabilityWarningNamesTheGpuNotThePrefix) {
  const ExplainReport r = testing::explain_no_facts(
      "/usr/local/lib/python3.12/site-packages/torch/cuda/__init__.py:262: UserWarning: NVIDIA GeForce RTX 5090 with "
      "CUDA capability sm_120 is not compatible with the current PyTorch installation. The current PyTorch install "
      "supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.");
  ASSERT_FALSE(r.matches.empty());
  const std::string& cause = r.matches.front().cause;
  EXPECT_NE(cause.find("kernels for NVIDIA GeForce RTX 5090's"), std::string::npos) << cause;
  EXPECT_EQ(cause.find("UserWarning"), std::string::npos) << cause;
  EXPECT_NE(cause.find("sm_86"), std::string::npos) << cause;
}

}  // namespace
}  // namespace gpudoctor
