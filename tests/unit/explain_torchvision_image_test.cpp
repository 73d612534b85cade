// torchvision's image extension: torchvision/io/image.py (0.8 to 0.24, read from the wheels) loads
// `image.so`/`image.pyd` at import and, when that fails, only warns with the loader's error quoted
// inside. Found in review (2026-12-05): the quoted WinError 127 was answered as an error of its
// own ("a DLL of the wrong version"), an undefined symbol as a failed extension, and a missing
// libc10_cuda.so not at all. The warning is a warning; its likely cause is a torchvision built for
// another torch (or another CUDA build of it).
#include <gtest/gtest.h>

#include <string>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::explain_on;
using testing::find_rule;
using testing::leads_with;

constexpr const char* kTail =
    "'If you don't plan on using image functionality from `torchvision.io`, you can ignore this warning. "
    "Otherwise, there might be something wrong with your environment. Did you have `libjpeg` or `libpng` "
    "installed before building `torchvision` from source?\n  warn(\n";

TEST(ExplainTorchvisionImage, TheQuotedWindowsErrorIsAWarningOfAMismatchedTorchvision) {
  const auto r = explain_on(
      Platform::windows,
      std::string("C:\\Users\\li\\miniconda3\\envs\\yolo\\lib\\site-packages\\torchvision\\io\\image.py:13: "
                  "UserWarning: Failed to load image Python extension: '[WinError 127] The specified procedure "
                  "could not be found.") +
          kTail);
  ASSERT_TRUE(leads_with(r, "torchvision-image-extension-not-loaded"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_EQ(m.severity, RuleSeverity::warning);
  EXPECT_NE(m.cause.find("[WinError 127] The specified procedure could not be found."), std::string::npos) << m.cause;
  // The one warning is the whole answer: not also a DLL of the wrong version.
  EXPECT_EQ(find_rule(r, "windows-dll-procedure-not-found"), nullptr);
  EXPECT_EQ(r.matches.size(), 1U);
  EXPECT_NE(m.fix.find("torchvision"), std::string::npos) << m.fix;
}

TEST(ExplainTorchvisionImage, AnUndefinedTorchSymbolIsTheSameWarning) {
  const auto r = explain_no_facts(
      std::string("/home/u/.venv/lib/python3.10/site-packages/torchvision/io/image.py:13: UserWarning: Failed to "
                  "load image Python extension: '/home/u/.venv/lib/python3.10/site-packages/torchvision/image.so: "
                  "undefined symbol: _ZN3c1017RegisterOperatorsD1Ev") +
      kTail);
  ASSERT_TRUE(leads_with(r, "torchvision-image-extension-not-loaded"));
  EXPECT_EQ(r.matches.front().severity, RuleSeverity::warning);
  EXPECT_EQ(find_rule(r, "torch-extension-abi-mismatch"), nullptr);
}

TEST(ExplainTorchvisionImage, AMissingTorchCudaLibraryIsACudaTorchvisionOnACpuTorch) {
  // Older releases (0.8 to 0.10) quoted the error without quotes and printed the warn() line.
  const auto r = explain_no_facts(
      "/usr/local/lib/python3.8/dist-packages/torchvision/io/image.py:11: UserWarning: Failed to load image Python "
      "extension: libc10_cuda.so: cannot open shared object file: No such file or directory\n"
      "  warn(f\"Failed to load image Python extension: {e}\")\n");
  ASSERT_TRUE(leads_with(r, "torchvision-image-extension-not-loaded"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_NE(m.cause.find("libc10_cuda.so"), std::string::npos) << m.cause;
  // The torch that is installed has no CUDA: the CUDA torchvision came from another index.
  EXPECT_NE(m.cause.find("CPU-only torch"), std::string::npos) << m.cause;
  EXPECT_EQ(r.matches.size(), 1U);
}

TEST(ExplainTorchvisionImage, AWarningBesideARealErrorNeverLeads) {
  const auto r = explain_no_facts(
      std::string("torchvision/io/image.py:13: UserWarning: Failed to load image Python extension: '[WinError 127] "
                  "The specified procedure could not be found.") +
      kTail + "RuntimeError: operator torchvision::nms does not exist\n");
  ASSERT_TRUE(leads_with(r, "torchvision-built-for-another-torch"));
  EXPECT_NE(find_rule(r, "torchvision-image-extension-not-loaded"), nullptr);
}

TEST(ExplainTorchvisionImage, AnImageOperatorCalledAfterwardsIsTheError) {
  // torchvision.io.read_image after the warning: torch's registry has no `image::` operators.
  const auto r = explain_on(
      Platform::windows,
      std::string("E:\\envs\\idp\\lib\\site-packages\\torchvision\\io\\image.py:13: UserWarning: Failed to load "
                  "image Python extension: 'Could not find module 'E:\\envs\\idp\\Lib\\site-packages\\torchvision\\"
                  "image.pyd' (or one of its dependencies). Try using the full path with constructor syntax.") +
          kTail + "RuntimeError: No such operator image::read_file\n");
  ASSERT_TRUE(leads_with(r, "torchvision-image-ops-unavailable"));
  EXPECT_NE(r.matches.front().cause.find("read_file"), std::string::npos) << r.matches.front().cause;
  const ExplainMatch* warning = find_rule(r, "torchvision-image-extension-not-loaded");
  ASSERT_NE(warning, nullptr);
  // The quoted error is read to its end, quotes inside it included.
  EXPECT_NE(warning->cause.find("image.pyd' (or one of its dependencies). Try using the full path"), std::string::npos)
      << warning->cause;
}

}  // namespace
}  // namespace gpudoctor
