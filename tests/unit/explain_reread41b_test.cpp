// Session 41, the re-read's mends (B): split_by's parts of one rule that pick the same answer are
// one answer; conda's answers need a conda package (not a pip wheel in a conda env); conda's
// Python conflict with a __cuda conflict beside it; cuSOLVER 10 on a CUDA 10.1 system; the TF 1.x
// cuDNN-major fix by the loaded major; auto-gptq's versions as examples.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "explain/explain_session.hpp"
#include "explain/rule_loader.hpp"
#include "explain/rule_matcher.hpp"
#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;
using testing::mentions;
using testing::rule_list;
using testing::says_all;
using testing::told;

size_t reread41b_answers_of(const ExplainReport& r, const std::string& rule) {
  size_t n = 0;
  for (const ExplainMatch& m : r.matches) {
    if (!m.alternative && (m.rule == rule || m.rule.starts_with(rule + "/"))) ++n;
  }
  return n;
}

// Re-read finding 7: TensorFlow on Windows misses cudnn64_8.dll, and cuDNN's own line misses its
// sub-library. No framework part applies: one answer, not two identical ones.
TEST(ExplainReread41B, OneFrameworksCudnnLinesStayOneAnswer) {
  const auto r = explain_no_facts(
      "2022-10-01 10:00:00.000000: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load "
      "dynamic library 'cudnn64_8.dll'; dlerror: cudnn64_8.dll not found\n"
      "2022-10-01 10:00:00.000001: W tensorflow/core/common_runtime/gpu/gpu_device.cc:1934] Cannot dlopen some GPU "
      "libraries. Please make sure the missing libraries mentioned above are installed properly if you would like to "
      "use GPU.\n"
      "Could not load library cudnn_cnn_infer64_8.dll. Error code 126\n"
      "Please make sure cudnn_cnn_infer64_8.dll is in your library path!\n");
  EXPECT_EQ(reread41b_answers_of(r, "cudnn-library-missing"), 1u) << rule_list(r);
  const ExplainMatch* m = find_rule(r, "cudnn-library-missing");
  ASSERT_NE(m, nullptr) << rule_list(r);
  EXPECT_EQ(m->lines, (std::vector<std::uint64_t>{1, 3, 4})) << rule_list(r);
  // Its texts are written from all its lines: both libraries.
  const ExplainMatch* path = find_rule(r, "cudnn-library-missing/search-path");
  ASSERT_NE(path, nullptr) << rule_list(r);
  EXPECT_TRUE(says_all(path->cause, {"cudnn64_8.dll", "cudnn_cnn_infer64_8.dll"})) << path->cause;
  EXPECT_EQ(path->lines, (std::vector<std::uint64_t>{1, 3, 4})) << rule_list(r);
}

// Re-read finding 6: a pip wheel of torch in a conda env misses libcudart.so.12 in
// _load_global_deps: the pip answer, not `conda install cudatoolkit`.
TEST(ExplainReread41B, PipTorchInACondaEnvKeepsThePipAnswer) {
  const auto r = explain_no_facts(
      "(myenv) user@host:~$ python -c \"import torch\"\n"
      "Traceback (most recent call last):\n"
      "  File \"/home/user/miniconda3/envs/myenv/lib/python3.11/site-packages/torch/__init__.py\", line 176, in "
      "_load_global_deps\n"
      "    ctypes.CDLL(lib_path, mode=ctypes.RTLD_GLOBAL)\n"
      "OSError: libcudart.so.12: cannot open shared object file: No such file or directory\n");
  ASSERT_TRUE(leads_with(r, "python-import-cuda-lib-version-missing")) << rule_list(r);
  EXPECT_EQ(find_rule(r, "python-import-cuda-lib-version-missing/conda"), nullptr) << rule_list(r);
  EXPECT_EQ(find_rule(r, "cudart-missing/conda"), nullptr) << rule_list(r);
  EXPECT_TRUE(mentions(r.matches.front().fix, "--index-url")) << r.matches.front().fix;
  EXPECT_FALSE(mentions(told(r), "conda install cudatoolkit")) << told(r);
  // Near miss: conda's own package list shows conda's cudatoolkit: the conda answer.
  const auto conda = explain_no_facts(
      "  File \"/home/user/miniconda3/envs/myenv/lib/python3.9/site-packages/torch/__init__.py\", line 56, in "
      "<module>\n"
      "ImportError: libcudart.so.10.2: cannot open shared object file: No such file or directory\n"
      "pytorch                   1.10.0          py3.9_cuda10.2_cudnn7.6.5_0    pytorch\n");
  EXPECT_TRUE(leads_with(conda, "python-import-cuda-lib-version-missing/conda")) << rule_list(conda);
}

// Re-read finding 5: the same UnsatisfiableError shows pytorch-cuda=12.1 needing __cuda>=12.1
// with a driver at 11.4: the driver does need changing.
TEST(ExplainReread41B, CondaPythonConflictWithACudaConflictNamesTheDriverToo) {
  const std::string head =
      "UnsatisfiableError: The following specifications were found\n"
      "to be incompatible with the existing python installation in your environment:\n"
      "\n"
      "Specifications:\n"
      "\n"
      "  - torchvision -> python[version='>=3.10,<3.11.0a0|>=3.8,<3.9.0a0|>=3.9,<3.10.0a0|>=3.11,<3.12.0a0']\n"
      "\n"
      "Your python: python=3.12\n"
      "\n";
  const auto r = explain_no_facts(head +
                                  "The following specifications were found to be incompatible with your system:\n"
                                  "\n"
                                  "  - feature:/linux-64::__cuda==11.4=0\n"
                                  "  - pytorch-cuda=12.1 -> __cuda[version='>=12.1']\n"
                                  "\n"
                                  "Your installed version is: 11.4\n");
  ASSERT_TRUE(leads_with(r, "conda-python-version-conflict/cuda-driver-too")) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_FALSE(mentions(told(r), "Nothing about the NVIDIA driver")) << told(r);
  EXPECT_FALSE(mentions(told(r), "are not the cause")) << told(r);
  EXPECT_TRUE(says_all(lead.cause, {">=12.1", "11.4"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"conda create", "driver"})) << lead.fix;
  // Near miss: only the Python conflict (and the __cuda feature line): the driver is fine.
  const auto py = explain_no_facts(head +
                                   "The following specifications were found to be incompatible with your CUDA driver:\n"
                                   "\n"
                                   "  - feature:/win-64::__cuda==9.1=0\n");
  ASSERT_TRUE(leads_with(py, "conda-python-version-conflict")) << rule_list(py);
  EXPECT_TRUE(mentions(py.matches.front().fix, "Nothing about the NVIDIA driver")) << py.matches.front().fix;
}

// Re-read finding 8: TensorFlow 2.3 on a system with no CUDA 10.1 at all misses every library:
// no CUDA 11 symlink advice, the general missing-CUDA answers.
TEST(ExplainReread41B, Cusolver10AmongEveryMissingCuda10LibraryIsNotTheTf24Case) {
  auto line = [](const std::string& lib) {
    return "2020-09-01 10:00:01.000000: W tensorflow/stream_executor/platform/default/dso_loader.cc:59] Could not "
           "load dynamic library '" +
           lib + "'; dlerror: " + lib + ": cannot open shared object file: No such file or directory\n";
  };
  const auto r = explain_no_facts(line("libcudart.so.10.1") + line("libcublas.so.10") + line("libcufft.so.10") +
                                  line("libcusolver.so.10") + line("libcusparse.so.10"));
  EXPECT_EQ(find_rule(r, "cusolver10-missing"), nullptr) << rule_list(r);
  EXPECT_FALSE(mentions(told(r), "ln -s libcusolver.so.11")) << told(r);
  EXPECT_NE(find_rule(r, "cuda-library-missing"), nullptr) << rule_list(r);
  // Near miss: TensorFlow 2.4 on CUDA 11.2 loads libcudart.so.11.0 and misses only cuSOLVER 10.
  const auto tf24 = explain_no_facts(
      "2021-03-01 10:00:00.000000: I tensorflow/stream_executor/platform/default/dso_loader.cc:49] Successfully "
      "opened dynamic library libcudart.so.11.0\n" +
      line("libcusolver.so.10"));
  EXPECT_TRUE(leads_with(tf24, "cusolver10-missing")) << rule_list(tf24);
}

// Re-read finding 12: a TensorFlow 1.x built with cuDNN 6 that loaded cuDNN 7 is told the
// release for cuDNN 7 (1.5 and later, CUDA 9.0), not only the cuDNN 6 one.
TEST(ExplainReread41B, Tf1CudnnMajorFixFollowsTheLoadedMajor) {
  const auto r = explain_no_facts(
      "E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded runtime CuDNN library: 7003 (compatibility "
      "version 7000) but source was compiled with 6021 (compatibility version 6000).  If using a binary install, "
      "upgrade your CuDNN library to match.\n");
  ASSERT_TRUE(leads_with(r, "cudnn-runtime-major-differs-tf1")) << rule_list(r);
  const auto& fix = r.matches.front().fix;
  EXPECT_TRUE(says_all(fix, {"You loaded cuDNN 7", "tensorflow-gpu==1.5.0", "CUDA 9.0"})) << fix;
}

// Re-read finding 12: auto-gptq's fix reads the pin from its release notes; the versions are
// an example.
TEST(ExplainReread41B, AutogptqFixNamesItsVersionsAsAnExample) {
  const auto r = explain_no_facts(
      "ImportError: /usr/local/lib/python3.10/dist-packages/exllama_kernels.cpython-310-x86_64-linux-gnu.so: "
      "undefined symbol: _ZN3c104cuda9SetDeviceEi\n");
  ASSERT_TRUE(leads_with(r, "autogptq-extension-abi-mismatch")) << rule_list(r);
  const auto& fix = r.matches.front().fix;
  EXPECT_TRUE(says_all(fix, {"release notes", "For example"})) << fix;
}

// Re-read finding 11: the loader checks split_by's names against the patterns' named groups, and
// min_lines' bounds.
std::string reread41b_rule(const std::string& extra) {
  return "[[rule]]\n"
         "id = \"reread41b-probe\"\n"
         "title = \"probe\"\n"
         "category = \"other\"\n"
         "severity = \"error\"\n"
         "priority = 50\n"
         "patterns = ['^PROBE (?P<left>L)?(?P<right>R)?$', '^OTHER (?P<third>x)$']\n" +
         extra +
         "cause = \"c\"\n"
         "fix = \"f\"\n"
         "sources = [\"https://example.org/probe\"]\n";
}

std::vector<std::string> reread41b_problems(const std::string& extra) {
  RuleLoadResult r;
  parse_rule_file(reread41b_rule(extra), "explain/probe.toml", r);
  return r.problems;
}

TEST(ExplainReread41BLoader, SplitByNamesMustBeNamedGroupsOfThePatterns) {
  EXPECT_TRUE(reread41b_problems("split_by = [\"left\", \"third\"]\n").empty());
  const auto typo = reread41b_problems("split_by = [\"lefft\"]\n");
  ASSERT_EQ(typo.size(), 1u);
  EXPECT_TRUE(mentions(typo.front(), "lefft")) << typo.front();
  EXPECT_TRUE(mentions(typo.front(), "split_by")) << typo.front();
  // A name that is only a prefix of a group is no group either.
  EXPECT_EQ(reread41b_problems("split_by = [\"lef\"]\n").size(), 1u);
  EXPECT_EQ(reread41b_problems("split_by = [1]\n").size(), 1u);
}

TEST(ExplainReread41BLoader, MinLinesIsAWholeNumberFromOneTo1000) {
  EXPECT_TRUE(reread41b_problems("min_lines = 1\n").empty());
  EXPECT_TRUE(reread41b_problems("min_lines = 1000\n").empty());
  for (const char* bad : {"min_lines = 0\n", "min_lines = 1001\n", "min_lines = \"2\"\n", "min_lines = 1.5\n"}) {
    const auto p = reread41b_problems(bad);
    ASSERT_EQ(p.size(), 1u) << bad;
    EXPECT_TRUE(mentions(p.front(), "min_lines")) << bad << p.front();
  }
}

// Both keys together: a part below min_lines is dropped, the other part stays.
TEST(ExplainReread41BLoader, MinLinesCountsEachSplitPart) {
  RuleLoadResult loaded;
  parse_rule_file(reread41b_rule("split_by = [\"left\"]\nmin_lines = 2\n"), "explain/probe.toml", loaded);
  ASSERT_TRUE(loaded.problems.empty());
  auto matcher = RuleMatcher::build(loaded.base);
  ASSERT_TRUE(matcher.has_value());
  const auto r = explain_text(**matcher, "PROBE L\nPROBE R\nPROBE L\n", ExplainMachine{});
  ASSERT_EQ(r.matches.size(), 1u);
  EXPECT_EQ(r.matches.front().lines, (std::vector<std::uint64_t>{1, 3}));
}

// Re-read finding 10: a portable Windows Python's commands are for cmd (ComfyUI's .bat): `-c`
// code in double quotes, commands joined by `&`, and a word on `cd` before a relative interpreter.
TEST(ExplainReread41BPortable, PythonCCodeIsDoubleQuotedForCmd) {
  const auto r = explain_no_facts(
      "D:\\ComfyUI_windows_portable>.\\python_embeded\\python.exe -s ComfyUI\\main.py\n"
      "nvcc: NVIDIA (R) Cuda compiler driver\n"
      "Cuda compilation tools, release 11.8, V11.8.89\n"
      "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.\n");
  const std::string all = told(r);
  EXPECT_TRUE(mentions(all, ".\\python_embeded\\python.exe -c \"import torch; print(torch.version.cuda)\"")) << all;
  EXPECT_FALSE(mentions(all, "python.exe -c '")) << all;
}

TEST(ExplainReread41BPortable, SemicolonsAndCdAreWrittenForCmd) {
  auto loaded = load_rule_base("");
  ASSERT_TRUE(loaded.has_value());
  parse_rule_file(
      "[[rule]]\n"
      "id = \"reread41b-portable-probe\"\n"
      "title = \"probe\"\n"
      "category = \"other\"\n"
      "severity = \"error\"\n"
      "priority = 99\n"
      "patterns = ['^REREAD41B PROBE$']\n"
      "cause = \"c\"\n"
      "fix = \"A `pip uninstall -y torch; pip install torch`. B `python -c 'print(\\\"x\\\")'`. C `cd repo && pip "
      "install -e .`\"\n"
      "sources = [\"https://example.org/probe\"]\n",
      "explain/probe.toml", *loaded);
  ASSERT_TRUE(loaded->problems.empty()) << loaded->problems.front();
  auto matcher = RuleMatcher::build(loaded->base);
  ASSERT_TRUE(matcher.has_value());
  const auto r = explain_text(
      **matcher, "K:\\ComfyUI\\python_embeded\\python.exe -s ComfyUI\\main.py\nREREAD41B PROBE\n", ExplainMachine{});
  const ExplainMatch* m = find_rule(r, "reread41b-portable-probe");
  ASSERT_NE(m, nullptr) << rule_list(r);
  EXPECT_TRUE(mentions(m->fix,
                       "`.\\python_embeded\\python.exe -m pip uninstall -y torch & .\\python_embeded\\python.exe -m "
                       "pip install torch`"))
      << m->fix;
  EXPECT_TRUE(mentions(m->fix, "`.\\python_embeded\\python.exe -c \"print(\\\"x\\\")\"`")) << m->fix;
  EXPECT_TRUE(mentions(m->fix, "full path")) << m->fix;
  // Near miss: the same fix on a log with no portable Python keeps its POSIX text.
  const auto plain = explain_text(**matcher, "REREAD41B PROBE\n", ExplainMachine{});
  const ExplainMatch* p = find_rule(plain, "reread41b-portable-probe");
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(mentions(p->fix, "`pip uninstall -y torch; pip install torch`")) << p->fix;
}

}  // namespace
}  // namespace gpudoctor
