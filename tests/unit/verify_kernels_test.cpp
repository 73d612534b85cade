// The PTX verify carries (gpu/verify_kernels.hpp) assembles for every architecture this
// machine's ptxas still serves: a typo in the hand-written text would otherwise show only on
// a GPU. CUDA 13's ptxas starts at sm_75; Maxwell to Volta need CUDA 12's (not checked here).
#include "gpu/verify_kernels.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "run_gpudoctor.hpp"

namespace gpudoctor::gpu {
namespace {

namespace fs = std::filesystem;

std::string ptxas() {
  for (const char* candidate : {"/usr/local/cuda/bin/ptxas"}) {
    if (::access(candidate, X_OK) == 0) return candidate;
  }
  return "";
}

TEST(VerifyKernels, PtxNamesItsEntryAndLowTarget) {
  std::string ptx = affine_kernel_ptx();
  EXPECT_NE(ptx.find(".entry " + std::string(kAffineKernelName) + "("), std::string::npos);
  EXPECT_NE(ptx.find(".target sm_50"), std::string::npos);
  EXPECT_NE(ptx.find(".version 6.0"), std::string::npos);
}

TEST(VerifyKernels, PtxasAssemblesItForEveryArchitectureItServes) {
  std::string tool = ptxas();
  if (tool.empty()) GTEST_SKIP() << "no ptxas at /usr/local/cuda/bin: the CUDA toolkit is not installed here";
  fs::path dir = fs::temp_directory_path() / ("gpudoctor-ptx-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "affine.ptx") << affine_kernel_ptx();
  for (const char* arch : {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"}) {
    auto r = testing::run_command({tool, "-arch=" + std::string(arch), (dir / "affine.ptx").string(), "-o",
                                   (dir / (std::string(arch) + ".cubin")).string()});
    EXPECT_EQ(r.exit_code, 0) << arch << ": " << r.err;
    EXPECT_TRUE(fs::exists(dir / (std::string(arch) + ".cubin"))) << arch;
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
}

}  // namespace
}  // namespace gpudoctor::gpu
