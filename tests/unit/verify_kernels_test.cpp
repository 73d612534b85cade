// The PTX verify carries (gpu/verify_kernels.hpp) assembles for every architecture this
// machine's ptxas still serves: a typo in the hand-written text would otherwise show only on
// a GPU. CUDA 13's ptxas starts at sm_75; Maxwell to Volta need CUDA 12's, which the wheels
// stage extracts from the nvidia-cuda-nvcc-cu12 wheel (run_ptxas_cu12_test.py) and names in
// GPUDOCTOR_CU12_PTXAS.
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

/// Assembles the PTX with `tool` for each of `archs`; every one must give a cubin.
void assemble_for(const std::string& tool, std::initializer_list<const char*> archs) {
  fs::path dir = fs::temp_directory_path() / ("gpudoctor-ptx12-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "affine.ptx") << affine_kernel_ptx();
  for (const char* arch : archs) {
    fs::path cubin = dir / (std::string(arch) + ".cubin");
    auto r =
        testing::run_command({tool, "-arch=" + std::string(arch), (dir / "affine.ptx").string(), "-o", cubin.string()});
    EXPECT_EQ(r.exit_code, 0) << arch << ": " << r.err;
    EXPECT_TRUE(fs::exists(cubin)) << arch;
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
}

TEST(VerifyKernels, PtxasAssemblesItForEveryArchitectureItServes) {
  std::string tool = ptxas();
  if (tool.empty()) GTEST_SKIP() << "no ptxas at /usr/local/cuda/bin: the CUDA toolkit is not installed here";
  assemble_for(tool, {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"});
}

TEST(VerifyKernels, PtxasOfCuda12AssemblesItForMaxwellToVolta) {
  const char* tool = std::getenv("GPUDOCTOR_CU12_PTXAS");
  if (tool == nullptr || ::access(tool, X_OK) != 0) {
    GTEST_SKIP() << "GPUDOCTOR_CU12_PTXAS does not name CUDA 12's ptxas: the wheels stage runs this check "
                    "(tests/integration/wheels/run_ptxas_cu12_test.py)";
  }
  assemble_for(tool, {"sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72"});
}

}  // namespace
}  // namespace gpudoctor::gpu
