// What goes wrong before the GPU is ever touched: pip cannot find the build asked for, or the
// framework's binary needs CPU instructions the machine lacks.
#include <gtest/gtest.h>

#include <string>

#include "explain_test_support.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;

// tensorflow/core/platform/cpu_feature_guard.cc (CheckFeatureOrDie) aborts with this line when
// the binary was built for an instruction set the CPU (or the VM, or Rosetta) does not offer.
TEST(ExplainInstall, TensorflowBuiltForAvxOnACpuWithoutIt) {
  const auto r = explain_no_facts(
      "2019-04-20 17:20:03.915545: F tensorflow/core/platform/cpu_feature_guard.cc:37] The TensorFlow library was "
      "compiled to use AVX instructions, but these aren't available on your machine.\n"
      "Aborted (core dumped)\n");
  ASSERT_TRUE(leads_with(r, "tf-cpu-instructions-missing"));
  EXPECT_EQ(r.matches.front().category, "wrong-framework-build");
  EXPECT_NE(r.matches.front().cause.find("AVX"), std::string::npos) << r.matches.front().cause;
  EXPECT_FALSE(r.matches.front().harmless);
}

TEST(ExplainInstall, IllegalInstructionAloneIsAHedgedCpuAnswer) {
  const auto r = explain_no_facts(">>> import tensorflow as tf\nIllegal instruction (core dumped)\n");
  ASSERT_TRUE(leads_with(r, "illegal-instruction-cpu"));
  EXPECT_EQ(find_rule(r, "tf-cpu-instructions-missing"), nullptr);
}

// "+cu118" is a local version label: such builds exist only on download.pytorch.org, never on
// PyPI, so pip without that index cannot find them whatever the Python version.
TEST(ExplainInstall, ALocalCudaVersionIsOnlyOnPytorchsOwnIndex) {
  const auto r = explain_no_facts(
      "ERROR: Could not find a version that satisfies the requirement torch==2.0.1+cu118 (from versions: 2.2.0, "
      "2.2.1, 2.3.0)\nERROR: No matching distribution found for torch==2.0.1+cu118\n");
  ASSERT_TRUE(leads_with(r, "pip-pytorch-local-version-not-on-pypi"));
  EXPECT_NE(r.matches.front().fix.find("https://download.pytorch.org/whl/cu118"), std::string::npos)
      << r.matches.front().fix;
  const auto plain = explain_no_facts("ERROR: No matching distribution found for torch==1.13.1\n");
  EXPECT_EQ(find_rule(plain, "pip-pytorch-local-version-not-on-pypi"), nullptr);
}

// conda's __cuda virtual package exists only where conda could load libcuda and cuInit succeeded
// (conda/plugins/virtual_packages/cuda.py); a CUDA build then cannot be solved. libsolv words it
// "nothing provides %s needed by %s" (src/problems.c), libmamba's tree "..., which is missing on
// the system" (libmamba/src/solver/problems_graph.cpp).
TEST(ExplainInstall, CondaWithoutTheCudaVirtualPackageNamesTheDriverAndTheOverride) {
  const auto solv = explain_no_facts(
      "Could not solve for environment specs\n"
      "Encountered problems while solving:\n"
      "  - nothing provides __cuda needed by tensorflow-2.10.0-cuda112py310he87a039_0\n");
  ASSERT_TRUE(leads_with(solv, "conda-cuda-virtual-package-missing"));
  EXPECT_EQ(solv.matches.front().category, "driver-missing");
  EXPECT_NE(solv.matches.front().cause.find("tensorflow-2.10.0-cuda112py310he87a039_0"), std::string::npos);
  EXPECT_NE(solv.matches.front().fix.find("CONDA_OVERRIDE_CUDA=12.4"), std::string::npos);

  const auto tree = explain_no_facts(
      "error    libmamba Could not solve for environment specs\n"
      "    The following packages are incompatible\n"
      "    \u251c\u2500 pytorch 2.0.1 is installable with the potential options\n"
      "    \u2502  \u2514\u2500 pytorch 2.0.1 would require\n"
      "    \u2502     \u2514\u2500 __cuda >=11.8 , which is missing on the system;\n"
      "critical libmamba Could not solve for environment specs\n");
  ASSERT_TRUE(leads_with(tree, "conda-cuda-virtual-package-missing"));
  EXPECT_NE(tree.matches.front().cause.find("(__cuda >=11.8)"), std::string::npos) << tree.matches.front().cause;
}

TEST(ExplainInstall, CondaMissingCudaWithADriverLoadedIsADriverTooOld) {
  const std::string log = "  - nothing provides __cuda >=12 needed by pytorch-2.5.1-cuda126_py312h1763f6d_303\n";
  Facts f;
  f.platform = Platform::linux;
  f.driver.nvidia_module_loaded = true;
  const auto r = explain_text(testing::builtin_matcher(), log, ExplainMachine{Platform::linux, &f});
  ASSERT_TRUE(leads_with(r, "conda-cuda-virtual-package-missing/driver-too-old"));
  EXPECT_EQ(r.matches.front().category, "driver-too-old");
  EXPECT_NE(r.matches.front().cause.find("(__cuda >=12)"), std::string::npos) << r.matches.front().cause;
}

}  // namespace
}  // namespace gpudoctor
