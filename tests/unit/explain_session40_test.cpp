// Session 40: leftovers of session 39 (docs/explain.md, "Session 40").
// - A TensorFlow log that also shows PyTorch (`import torch` before `import tensorflow`, one
//   notebook) got PyTorch's cuDNN answer ("reinstall torch from PyTorch's index") for a line that
//   TensorFlow's own DSO loader printed: `Could not load dynamic library 'libcudnn.so.8'; dlerror:`
//   is tsl/platform/default/dso_loader.cc's wording (before TSL: tensorflow/stream_executor/
//   platform/default/dso_loader.cc), which no PyTorch code prints. The line's own form decides
//   whose loader failed, not which frameworks the log shows.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "explain/explain_session.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_without;
using testing::mentions;
using testing::rule_list;
using testing::told;

constexpr std::string_view kSession40TfDsoLine =
    "2023-03-01 10:00:00.123456: W tensorflow/compiler/xla/stream_executor/platform/default/dso_loader.cc:64] "
    "Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No "
    "such file or directory\n";

TEST(ExplainSession40, TensorflowsOwnLoaderLineGetsTensorflowsAnswerInALogThatAlsoImportsTorch) {
  const auto r = explain_no_facts(std::string(">>> import torch\n>>> import tensorflow as tf\n") +
                                  std::string(kSession40TfDsoLine));
  ASSERT_TRUE(leads_without(r, "cudnn-library-missing/tensorflow", {"cudnn-library-missing/pytorch"})) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(mentions(lead.cause, "TensorFlow")) << lead.cause;
  EXPECT_TRUE(mentions(lead.fix, "tensorflow[and-cuda]")) << lead.fix;
  EXPECT_FALSE(mentions(lead.fix, "download.pytorch.org")) << lead.fix;
  // The two frameworks in one environment share the nvidia-cudnn wheel: that reading is named.
  EXPECT_TRUE(mentions(told(r), "environment each")) << told(r);
}

TEST(ExplainSession40, WindowsDsoLoaderLineInALogWithTorchIsTensorflowsToo) {
  const auto r = explain_no_facts(
      "  File \"C:\\Users\\me\\venv\\lib\\site-packages\\torch\\__init__.py\", line 1\n"
      "2022-01-01 10:00:00.000000: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load "
      "dynamic library 'cudnn64_8.dll'; dlerror: cudnn64_8.dll not found\n");
  ASSERT_TRUE(leads_without(r, "cudnn-library-missing/tensorflow", {"cudnn-library-missing/pytorch"})) << told(r);
  EXPECT_FALSE(mentions(r.matches.front().fix, "LD_LIBRARY_PATH")) << r.matches.front().fix;
}

TEST(ExplainSession40, NearMissesKeepTheirAnswers) {
  // A PyTorch log whose cuDNN line is cuDNN's own (not TensorFlow's loader): PyTorch's answer.
  const auto torch = explain_no_facts(
      ">>> import torch\n"
      "Could not locate cudnn_ops_infer64_8.dll. Please make sure it is in your library path!\n");
  ASSERT_TRUE(leads_without(torch, "cudnn-library-missing/pytorch", {"cudnn-library-missing/tensorflow"}))
      << told(torch);
  // A TensorFlow log with no PyTorch in it: the rule's own answer, as before.
  const auto tf = explain_no_facts(kSession40TfDsoLine);
  ASSERT_TRUE(leads_without(tf, "cudnn-library-missing", {"cudnn-library-missing/tensorflow"})) << rule_list(tf);
  EXPECT_EQ(find_rule(tf, "cudnn-library-missing/pytorch"), nullptr) << rule_list(tf);
}

}  // namespace
}  // namespace gpudoctor
