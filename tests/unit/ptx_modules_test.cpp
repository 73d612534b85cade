// Every PTX module the binary carries (src/gpu/kernels/*.ptx: verify's and bench's kernels)
// assembles for every architecture this machine's ptxas still serves: a typo in the
// hand-written text would otherwise show only on a GPU. CUDA 13's ptxas starts at sm_75; Maxwell to Volta need CUDA
// 12's, which the wheels stage extracts from the nvidia-cuda-nvcc-cu12 wheel (run_ptxas_cu12_test.py) and names in
// GPUDOCTOR_CU12_PTXAS.
#include "gpu/ptx_modules.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "gpu/bench_kernels.hpp"
#include "gpu/verify_kernels.hpp"
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

TEST(PtxModules, EachNamesItsEntriesAndTheLowTarget) {
  ASSERT_EQ(ptx_modules().size(), 2u);
  for (const PtxModule& m : ptx_modules()) {
    EXPECT_NE(m.content.find(".target sm_50"), std::string::npos) << m.path;
    EXPECT_NE(m.content.find(".version 6.0"), std::string::npos) << m.path;
    EXPECT_EQ(m.content.data()[m.content.size()], '\0') << m.path << ": cuModuleLoadDataEx reads to a NUL";
  }
  std::string affine = affine_kernel_ptx();
  EXPECT_NE(affine.find(".entry " + std::string(kAffineKernelName) + "("), std::string::npos);
  std::string stream = stream_kernels_ptx();
  EXPECT_NE(stream.find(".entry " + std::string(kCopyKernelName) + "("), std::string::npos);
  EXPECT_NE(stream.find(".entry " + std::string(kTriadKernelName) + "("), std::string::npos);
  EXPECT_STREQ(ptx_module("no-such.ptx"), "");
}

/// Assembles every module with `tool` for each of `archs`; every one must give a cubin.
void assemble_for(const std::string& tool, std::initializer_list<const char*> archs) {
  fs::path dir = fs::temp_directory_path() / ("gpudoctor-ptx-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const PtxModule& m : ptx_modules()) {
    fs::path source = dir / std::string(m.path);
    std::ofstream(source) << m.content;
    for (const char* arch : archs) {
      fs::path cubin = dir / (std::string(m.path) + "." + arch + ".cubin");
      auto r = testing::run_command({tool, "-arch=" + std::string(arch), source.string(), "-o", cubin.string()});
      EXPECT_EQ(r.exit_code, 0) << m.path << " " << arch << ": " << r.err;
      EXPECT_TRUE(fs::exists(cubin)) << m.path << " " << arch;
    }
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
}

TEST(PtxModules, PtxasAssemblesEachForEveryArchitectureItServes) {
  std::string tool = ptxas();
  if (tool.empty()) GTEST_SKIP() << "no ptxas at /usr/local/cuda/bin: the CUDA toolkit is not installed here";
  assemble_for(tool, {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"});
}

TEST(PtxModules, PtxasOfCuda12AssemblesEachForMaxwellToVolta) {
  const char* tool = std::getenv("GPUDOCTOR_CU12_PTXAS");
  if (tool == nullptr || ::access(tool, X_OK) != 0) {
    GTEST_SKIP() << "GPUDOCTOR_CU12_PTXAS does not name CUDA 12's ptxas: the wheels stage runs this check "
                    "(tests/integration/wheels/run_ptxas_cu12_test.py)";
  }
  assemble_for(tool, {"sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72"});
}

}  // namespace
}  // namespace gpudoctor::gpu
