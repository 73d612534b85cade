// The C and C++ runtimes' symbol versions: glibc's dynamic loader refuses a library whose
// GLIBC_x / GLIBCXX_x / CXXABI_x version the loaded libc or libstdc++ lacks (elf/dl-version.c,
// "version `%s' not found (required by %s)"). Which libstdc++ was loaded decides the fix: a
// conda environment's own, or the system's.
#include <gtest/gtest.h>

#include <string>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

TEST(ExplainRuntimeAbi, ASystemLibstdcxxTooOldForACondaBuiltLibrary) {
  const auto r = explain_no_facts(
      "Traceback (most recent call last):\n"
      "  File \"/home/u/miniconda3/envs/t/lib/python3.11/site-packages/jax/_src/lib/__init__.py\", line 84, in "
      "<module>\n"
      "ImportError: /lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.29' not found (required by "
      "/home/u/miniconda3/envs/t/lib/python3.11/site-packages/jaxlib/xla_extension.so)\n");
  ASSERT_TRUE(leads_with(r, "libstdcxx-too-old"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_NE(m.cause.find("/lib/x86_64-linux-gnu/libstdc++.so.6"), std::string::npos) << m.cause;
  EXPECT_NE(m.cause.find("GLIBCXX_3.4.29"), std::string::npos) << m.cause;
  EXPECT_NE(m.cause.find("jaxlib/xla_extension.so"), std::string::npos) << m.cause;
  // The library that needs it is a conda environment's: that environment's lib/ has the newer one.
  EXPECT_NE(m.fix.find("$CONDA_PREFIX/lib"), std::string::npos) << m.fix;
  EXPECT_NE(m.fix.find("strings /lib/x86_64-linux-gnu/libstdc++.so.6"), std::string::npos) << m.fix;
  EXPECT_EQ(find_rule(r, "libstdcxx-too-old-conda"), nullptr);
}

TEST(ExplainRuntimeAbi, ACondaEnvironmentsOldLibstdcxxIsUpdatedFromCondaForge) {
  for (const char* line :
       {"ImportError: /home/u/miniconda3/envs/tf/lib/libstdc++.so.6: version `GLIBCXX_3.4.30' not found (required "
        "by /home/u/miniconda3/envs/tf/lib/python3.11/site-packages/torch/lib/libtorch_python.so)",
        "/home/u/anaconda3/bin/../lib/libstdc++.so.6: version `CXXABI_1.3.15' not found (required by "
        "/usr/lib/x86_64-linux-gnu/libLLVM-15.so.1)"}) {
    const auto r = explain_no_facts(line);
    ASSERT_TRUE(leads_with(r, "libstdcxx-too-old-conda")) << line;
    EXPECT_NE(r.matches.front().fix.find("conda install -c conda-forge libstdcxx-ng"), std::string::npos);
    // One answer for the line: the general rule would repeat it.
    EXPECT_EQ(find_rule(r, "libstdcxx-too-old"), nullptr) << line;
  }
}

TEST(ExplainRuntimeAbi, AnOldGlibcCannotBeUpgradedAlone) {
  const auto r = explain_no_facts(
      "ImportError: /lib64/libc.so.6: version `GLIBC_2.28' not found (required by "
      "/home/u/.local/lib/python3.9/site-packages/torch/lib/libtorch_cpu.so)\n");
  ASSERT_TRUE(leads_with(r, "glibc-too-old"));
  const ExplainMatch& m = r.matches.front();
  EXPECT_NE(m.cause.find("glibc 2.28"), std::string::npos) << m.cause;
  EXPECT_NE(m.cause.find("libtorch_cpu.so"), std::string::npos) << m.cause;
  EXPECT_NE(m.fix.find("ldd --version"), std::string::npos) << m.fix;
  // Not a libstdc++ problem, and not a library that is missing.
  EXPECT_EQ(find_rule(r, "libstdcxx-too-old"), nullptr);
  EXPECT_EQ(find_rule(r, "libstdcxx-too-old-conda"), nullptr);
}

TEST(ExplainRuntimeAbi, OtherSymbolVersionsAreNotCalledARuntimeProblem) {
  // A CUDA library's own symbol version is another problem (two releases mixed), not the C/C++ runtime.
  const auto r = explain_no_facts(
      "ImportError: /usr/local/cuda/lib64/libcublasLt.so.11: version `libcublasLt.so.11' not found (required by "
      "/opt/conda/lib/python3.8/site-packages/torch/lib/libtorch_cuda.so)\n");
  for (const char* rule : {"libstdcxx-too-old", "libstdcxx-too-old-conda", "glibc-too-old"}) {
    EXPECT_EQ(find_rule(r, rule), nullptr) << rule;
  }
}

}  // namespace
}  // namespace gpudoctor
