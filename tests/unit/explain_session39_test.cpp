// Session 39: three defects the session 38 re-read left (docs/explain.md, "The session's own re-read").
// - The refuted-answer drop (rank_hits): a rule whose only reading the log refutes was dropped when
//   "another rule answers its lines", but the count was of rule hits, not of answers that survive:
//   two rules the log refutes on the same line dropped each other and the line got no answer.
// - `site-packages/keras/` marked every Keras log as TensorFlow's. Keras 3 (keras/src/...) runs on
//   JAX, PyTorch or TensorFlow (keras/src/backend/{jax,torch,tensorflow,numpy}/); Keras 2 (keras/engine/,
//   2.13-2.15's keras/src/engine/, tf_keras) runs on TensorFlow only.
// - ptxas's "Value 'sm_NN' is not defined for option 'gpu-name'" comes from a ptxas whose CUDA
//   release dropped the architecture (13.0: sm_50 to sm_72) and from one older than the architecture
//   (sm_60-62 arrived in CUDA 8.0, sm_70 in 9.0, sm_72 in 9.1: CMake's CMakeCUDAArchitecturesAll.cmake,
//   LLVM's MinVersionForOffloadArch). The answer follows the CUDA release the log names, and names
//   both readings with `ptxas --version` when it names none.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "explain/explain_machine.hpp"
#include "explain/explain_session.hpp"
#include "explain/rule_loader.hpp"
#include "explain/rule_matcher.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;
using testing::leads_without;
using testing::mentions;
using testing::rule_list;
using testing::told;

/// The log facts the built-in fact rules read from `text` (as ExplainSession::finish takes them).
LogFacts session39_log_facts(std::string_view text) {
  const RuleMatcher& matcher = testing::builtin_matcher();
  LogScanner scanner(matcher);
  std::uint64_t no = 0;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    scanner.add_line(text.substr(at, end - at), ++no);
    at = end + 1;
  }
  scanner.finish();
  std::vector<RuleHits> hits = scanner.hits();
  LogFacts facts;
  take_log_facts(matcher.base(), hits, facts);
  return facts;
}

// --- 1. The refuted-answer drop counts answers that survive ----------------------------------

/// A site's own rule (a --kb rule) that, like python-import-cuda-lib-version-missing, leaves
/// ONNX Runtime's logs to ONNX Runtime's answers.
constexpr std::string_view kSession39SiteRule = R"toml(
[[rule]]
id = "site-nvjpeg-module"
examples = ["OSError: libnvjpeg.so.12: cannot open shared object file: No such file or directory"]
title = "nvJPEG is not loaded (site rule)"
category = "cuda-lib-missing"
severity = "error"
priority = 80
patterns = ['''(?P<lib>libnvjpeg\.so\.\d+): cannot open shared object file''']
when = ["!onnxruntime-log"]
cause = "On this cluster nvJPEG comes from the cuda module, which the job did not load."
fix = "`module load cuda/12.4` in the job script before Python starts."
sources = ["https://intranet.example/gpu/modules"]
)toml";

/// An ONNX Runtime job whose preprocessing loads nvJPEG itself (ctypes) and fails.
constexpr std::string_view kSession39OrtNvjpegLog =
    "2024-05-01 12:00:00.000 [W:onnxruntime:Default, onnxruntime_pybind_state.cc:965 "
    "onnxruntime::python::CreateExecutionProviderInstance] Failed to create CUDAExecutionProvider. Require cuDNN 9.* "
    "and CUDA 12.*. Please install all dependencies as mentioned in the GPU requirements page "
    "(https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements), make sure they're in "
    "the PATH, and that your GPU is supported.\n"
    "Traceback (most recent call last):\n"
    "  File \"/srv/app/decode.py\", line 12, in <module>\n"
    "    nvjpeg = ctypes.CDLL(\"libnvjpeg.so.12\")\n"
    "OSError: libnvjpeg.so.12: cannot open shared object file: No such file or directory\n";

/// The ONNX Runtime + nvJPEG log explained with the built-in rules and `site_rules` as a user's
/// `--kb` directory (written to a private scratch folder, removed again) would add them.
void session39_explain_with_site_rules(std::string_view site_rules, std::string_view tag, ExplainReport& out) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("gpudoctor-explain-" + std::string(tag) + "-" + std::to_string(::getpid()));
  fs::create_directories(dir / "explain");
  std::ofstream(dir / "explain" / "site.toml") << site_rules;
  auto loaded = load_rule_base(dir.string());
  fs::remove_all(dir);
  ASSERT_TRUE(loaded.has_value());
  ASSERT_TRUE(loaded->problems.empty()) << loaded->problems.front();
  auto matcher = RuleMatcher::build(loaded->base);
  ASSERT_TRUE(matcher.has_value());
  out = explain_text(**matcher, kSession39OrtNvjpegLog, ExplainMachine{});
}

TEST(ExplainSession39, TwoRulesTheLogRefutesOnOneLineDoNotDropEachOther) {
  ExplainReport r;
  ASSERT_NO_FATAL_FAILURE(session39_explain_with_site_rules(kSession39SiteRule, "s39", r));
  // Both rules that read the nvJPEG line are refuted by the log (an ONNX Runtime log); neither
  // is answered by another rule, so the line keeps both answers (ranked down), not none.
  bool line_answered = false;
  for (const ExplainMatch& m : r.matches) {
    for (const auto l : m.lines) line_answered = line_answered || l == 5;
  }
  EXPECT_TRUE(line_answered) << rule_list(r);
  EXPECT_NE(find_rule(r, "site-nvjpeg-module"), nullptr) << rule_list(r);
  EXPECT_NE(find_rule(r, "python-import-cuda-lib-version-missing"), nullptr) << rule_list(r);
  // ONNX Runtime's own line keeps its answer.
  EXPECT_NE(find_rule(r, "onnxruntime-cuda-provider-not-loaded"), nullptr) << rule_list(r);

  // Near miss: with the built-in rules alone the one refuted rule is the line's only answer.
  const auto builtin = explain_no_facts(kSession39OrtNvjpegLog);
  EXPECT_NE(find_rule(builtin, "python-import-cuda-lib-version-missing"), nullptr) << rule_list(builtin);
}

/// Two more site rules on the same line: a general one, and a specific one that supersedes it there
/// and, like the other, leaves ONNX Runtime's logs alone.
constexpr std::string_view kSession39SupersedingSiteRules = R"toml(
[[rule]]
id = "site-cuda-library-module"
examples = ["OSError: libnvjpeg.so.12: cannot open shared object file: No such file or directory"]
title = "A CUDA library is not loaded (site rule)"
category = "cuda-lib-missing"
severity = "error"
priority = 70
patterns = ['''(?P<lib>lib(?:nvjpeg|cufft)\.so\.\d+): cannot open shared object file''']
cause = "On this cluster the CUDA libraries come from the cuda module."
fix = "`module load cuda` in the job script."
sources = ["https://intranet.example/gpu/modules"]

[[rule]]
id = "site-nvjpeg-module"
examples = ["OSError: libnvjpeg.so.12: cannot open shared object file: No such file or directory"]
title = "nvJPEG is not loaded (site rule)"
category = "cuda-lib-missing"
severity = "error"
priority = 80
supersedes = ["site-cuda-library-module"]
patterns = ['''(?P<lib>libnvjpeg\.so\.\d+): cannot open shared object file''']
when = ["!onnxruntime-log"]
cause = "On this cluster nvJPEG comes from the cuda module, which the job did not load."
fix = "`module load cuda/12.4` in the job script before Python starts."
sources = ["https://intranet.example/gpu/modules"]
)toml";

// A rule superseded on a line is no answer for it: the rule that supersedes it is, if it stands.
// Here that one is refuted too, so the line keeps the refuted answers rather than none.
TEST(ExplainSession39, ARuleSupersededOnTheLineDoesNotCountAsItsAnswer) {
  ExplainReport r;
  ASSERT_NO_FATAL_FAILURE(session39_explain_with_site_rules(kSession39SupersedingSiteRules, "s39b", r));
  EXPECT_EQ(find_rule(r, "site-cuda-library-module"), nullptr) << rule_list(r);
  EXPECT_NE(find_rule(r, "site-nvjpeg-module"), nullptr) << rule_list(r);
  EXPECT_NE(find_rule(r, "python-import-cuda-lib-version-missing"), nullptr) << rule_list(r);
}

// The drop still happens where another answer for the line survives: ONNX Runtime's provider
// line names the library and the traceback's OSError names it again (cuda-library-missing leaves
// it to onnxruntime-cuda-provider-not-loaded, which supersedes it for that library).
TEST(ExplainSession39, ARefutedRuleStillGivesWayToAnAnswerOfTheSameLibrary) {
  const auto r = explain_no_facts(
      "2024-05-01 12:00:00.000 [E:onnxruntime:Default, provider_bridge_ort.cc:1744 "
      "onnxruntime::TryGetProviderInfo_CUDA] /onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1426 "
      "onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : FAIL : Failed to load library "
      "libonnxruntime_providers_cuda.so with error: libcublasLt.so.12: cannot open shared object file: No such file "
      "or directory\n"
      "Traceback (most recent call last):\n"
      "  File \"/srv/venv/lib/python3.11/site-packages/onnxruntime/capi/_pybind_state.py\", line 32, in <module>\n"
      "OSError: libcublasLt.so.12: cannot open shared object file: No such file or directory\n");
  ASSERT_TRUE(leads_without(r, "onnxruntime-cuda-provider-not-loaded", {"python-import-cuda-lib-version-missing"}));
}

// --- 2. Keras 3 on JAX or PyTorch is not TensorFlow's -----------------------------------------

// Keras 3's JAX backend (keras/src/backend/jax/nn.py conv calls jax.lax.conv_general_dilated;
// keras/src/utils/traceback_utils.py re-raises): XLA's "DNN library is not found." is jaxlib's.
constexpr std::string_view kSession39Keras3JaxLog =
    "Traceback (most recent call last):\n"
    "  File \"/home/u/train.py\", line 41, in <module>\n"
    "    model.fit(x_train, y_train, batch_size=128, epochs=2)\n"
    "  File \"/home/u/venv/lib/python3.11/site-packages/keras/src/utils/traceback_utils.py\", line 122, in "
    "error_handler\n"
    "    raise e.with_traceback(filtered_tb) from None\n"
    "  File \"/home/u/venv/lib/python3.11/site-packages/keras/src/backend/jax/nn.py\", line 371, in conv\n"
    "    result = jax.lax.conv_general_dilated(\n"
    "jaxlib.xla_extension.XlaRuntimeError: UNIMPLEMENTED: DNN library is not found.\n";

TEST(ExplainSession39, Keras3OnJaxGetsNoTensorflowAnswer) {
  const auto r = explain_no_facts(kSession39Keras3JaxLog);
  ASSERT_TRUE(leads_without(r, "dnn-library-not-found/jax", {"dnn-library-not-found/tensorflow"}));
  EXPECT_FALSE(mentions(told(r), "set_memory_growth")) << told(r);
  EXPECT_FALSE(session39_log_facts(kSession39Keras3JaxLog).events.contains("tf-log"));
}

// keras-team/keras#22339 and #21035: Keras 3 on the PyTorch backend running out of GPU memory
// (keras/src/backend/torch/..., keras/src/trainers/..., on Colab's dist-packages).
TEST(ExplainSession39, Keras3OnTorchIsNotATensorflowLog) {
  constexpr std::string_view kTorch =
      "  File \"/usr/local/lib/python3.11/dist-packages/keras/src/trainers/compile_utils.py\", line 691, in "
      "__call__\n"
      "  File \"/usr/local/lib/python3.11/dist-packages/keras/src/backend/torch/trainer.py\", line 56, in "
      "train_step\n"
      "  File \"/usr/local/lib/python3.11/dist-packages/keras/src/layers/activations/softmax.py\", line 58, in call\n"
      "OutOfMemoryError: Exception encountered when calling Softmax.call().\n";
  EXPECT_FALSE(session39_log_facts(kTorch).events.contains("tf-log"));
  // The layers' import lines of Keras 3's public API (keras/layers/__init__.py) say nothing either.
  EXPECT_FALSE(session39_log_facts("  File \"/venv/lib/python3.12/site-packages/keras/layers/__init__.py\", line 3, in "
                                   "<module>\n")
                   .events.contains("tf-log"));
}

TEST(ExplainSession39, Keras2AndKeras3OnTensorflowStayTensorflowLogs) {
  const std::string_view tf_lines[] = {
      // Keras 2.x (2.6-2.12): keras/engine/.
      "    File \"/usr/local/lib/python3.7/dist-packages/keras/engine/functional.py\", line 459, in call",
      "  File \"/home/u/.local/lib/python3.8/site-packages/keras/utils/traceback_utils.py\", line 70, in error_handler",
      // Keras 2.13-2.15: keras/src/engine/.
      "  File \"/home/u/.local/lib/python3.9/site-packages/keras/src/engine/training.py\", line 1807, in fit",
      // TensorFlow 2.16+'s Keras 2.
      "  File \"/venv/lib/python3.11/site-packages/tf_keras/src/engine/training.py\", line 1804, in fit",
      // Keras 3 on the TensorFlow backend.
      "  File \"/venv/lib/python3.11/site-packages/keras/src/backend/tensorflow/trainer.py\", line 320, in fit",
  };
  for (std::string_view line : tf_lines) {
    EXPECT_TRUE(session39_log_facts(line).events.contains("tf-log")) << line;
  }
  // A Keras 3 log on the TensorFlow backend keeps TensorFlow's answer.
  const auto r = explain_no_facts(
      "  File \"/venv/lib/python3.11/site-packages/keras/src/backend/tensorflow/trainer.py\", line 320, in fit\n"
      "2024-03-01 10:00:00.000000: W tensorflow/core/framework/op_kernel.cc:1827] UNIMPLEMENTED: DNN library is not "
      "found.\n");
  ASSERT_TRUE(leads_with(r, "dnn-library-not-found/tensorflow")) << rule_list(r);
}

// --- 3. ptxas: a dropped architecture, or a ptxas older than it -------------------------------

constexpr std::string_view kSession39PtxasSm70 =
    "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: ptxas exited with non-zero error code 65280, output: ptxas "
    "fatal   : Value 'sm_70' is not defined for option 'gpu-name'\n";

TEST(ExplainSession39, PtxasOfCuda13RefusingSm70IsTheDroppedArchitecture) {
  const auto r = explain_no_facts(std::string("$ which ptxas\n/usr/local/cuda-13.0/bin/ptxas\n") +
                                  std::string(kSession39PtxasSm70));
  ASSERT_TRUE(leads_with(r, "ptxas-gpu-arch-dropped/dropped")) << rule_list(r);
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(testing::says_all(m.fix, {"does not help", "12.9"}));
  EXPECT_FALSE(mentions(told(r), "9.0 or later")) << told(r);
  // The CUDA 13 wheels (site-packages/nvidia/cu13/) and `ptxas --version` say the same.
  for (const char* line : {"  File \"/venv/lib/python3.12/site-packages/nvidia/cu13/bin/ptxas\"\n",
                           "Cuda compilation tools, release 13.0, V13.0.48\n"}) {
    const auto w = explain_no_facts(std::string(line) + std::string(kSession39PtxasSm70));
    EXPECT_TRUE(leads_with(w, "ptxas-gpu-arch-dropped/dropped")) << line << rule_list(w);
  }
}

TEST(ExplainSession39, PtxasOfCuda8RefusingSm70IsTooOldForIt) {
  const auto r = explain_no_facts(
      "2018-03-01 10:00:00.000000: I tensorflow/core/platform/default/dso_loader.cc:42] Successfully opened CUDA "
      "library libcublas.so.8.0 locally\n"
      "$ /usr/local/cuda-8.0/bin/ptxas --version\n"
      "Cuda compilation tools, release 8.0, V8.0.61\n"
      "ptxas fatal   : Value 'sm_70' is not defined for option 'gpu-name'\n");
  ASSERT_TRUE(leads_with(r, "ptxas-gpu-arch-dropped/too-old")) << rule_list(r);
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(testing::says_all(m.fix, {"9.0", "PATH"}));
  EXPECT_FALSE(mentions(told(r), "does not help")) << told(r);
  EXPECT_EQ(find_rule(r, "ptxas-gpu-arch-dropped/dropped"), nullptr) << rule_list(r);
}

TEST(ExplainSession39, PtxasWithNoVersionInTheLogNamesBothReadingsAndHowToTell) {
  const auto r = explain_no_facts(kSession39PtxasSm70);
  ASSERT_TRUE(leads_with(r, "ptxas-gpu-arch-dropped")) << rule_list(r);
  const ExplainMatch& m = r.matches.front();
  EXPECT_TRUE(testing::says_all(m.cause + m.fix, {"ptxas --version", "13.0", "9.0", "12.9"}));
  EXPECT_FALSE(mentions(told(r), "A newer CUDA toolkit does not help")) << told(r);
  // Two CUDA releases that disagree (a CUDA 13 path and a CUDA 8 one) tell neither.
  const auto mixed = explain_no_facts(std::string("/usr/local/cuda-13.0/bin/ptxas\n/usr/local/cuda-8.0/lib64\n") +
                                      std::string(kSession39PtxasSm70));
  EXPECT_TRUE(leads_with(mixed, "ptxas-gpu-arch-dropped")) << rule_list(mixed);
  // A CUDA release that knows sm_70 (12.4) did not refuse it: the log's ptxas is another one.
  const auto knows =
      explain_no_facts(std::string("/usr/local/cuda-12.4/bin/ptxas\n") + std::string(kSession39PtxasSm70));
  EXPECT_TRUE(leads_with(knows, "ptxas-gpu-arch-dropped")) << rule_list(knows);
  // Near miss: a GPU newer than every such ptxas keeps ptxas-too-old-for-gpu.
  const auto h100 = explain_no_facts(
      "/usr/local/cuda-11.7/bin/ptxas\nptxas fatal   : Value 'sm_90a' is not defined for option 'gpu-name'\n");
  EXPECT_TRUE(leads_with(h100, "ptxas-too-old-for-gpu")) << rule_list(h100);
}

}  // namespace
}  // namespace gpudoctor
