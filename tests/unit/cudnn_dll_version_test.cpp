// The cuDNN version of a Windows cudnn64_N.dll (probe/cudnn_dll_version.cpp): from its file
// version when that is of the file name's major, and from real NVIDIA DLLs when
// run_cudnn_dll_test.py (ctest -L wheels) has put them in GPUDOCTOR_CUDNN_DLL_DIR.
#include "probe/cudnn_dll_version.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "pe_image.hpp"

namespace gpudoctor {
namespace {

TEST(CudnnDllVersion, TheFileVersionOfTheNamesMajorIsTheCudnnVersion) {
  auto fv = pe_file_version(testing::pe_with_version(8, 9, 4, 25));
  ASSERT_TRUE(fv) << fv.error().message;
  auto v = cudnn_version_from_file_version(*fv, 8);
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(v->str(), "8.9.4.25");
  EXPECT_EQ(v->minor(), 9);
}

TEST(CudnnDllVersion, AnotherMajorIsNotBelieved) {
  // A driver DLL's numbering, an empty version, cuDNN 9's in a file named for 8.
  for (const auto& [a, b, c, d] : {std::array<std::uint16_t, 4>{31, 0, 15, 4633}, {0, 0, 0, 0}, {9, 1, 0, 70}}) {
    auto fv = pe_file_version(testing::pe_with_version(a, b, c, d));
    ASSERT_TRUE(fv);
    auto v = cudnn_version_from_file_version(*fv, 8);
    ASSERT_FALSE(v) << v->str();
    EXPECT_NE(v.error().message.find("not a cuDNN 8 version"), std::string::npos) << v.error().message;
  }
}

TEST(CudnnDllVersion, RealWheelDlls) {
  // <dir>/<dist>-<version>/cudnn64_<major>.dll, as run_cudnn_dll_test.py lays them out: each
  // DLL's version must be its wheel's (nvidia-cudnn-cu11 8.9.4.25: cudnn64_8.dll 8.9.4.25).
  const char* dir = std::getenv("GPUDOCTOR_CUDNN_DLL_DIR");
  if (dir == nullptr || !std::filesystem::is_directory(dir)) {
    GTEST_SKIP() << "no real cuDNN DLLs: GPUDOCTOR_CUDNN_DLL_DIR is unset or not a folder (ctest -L wheels "
                    "runs run_cudnn_dll_test.py, which fetches them from PyPI's win_amd64 cuDNN wheels)";
  }
  int read = 0;
  for (const auto& folder : std::filesystem::directory_iterator(dir)) {
    const std::string name = folder.path().filename().string();
    const std::string wheel_version = name.substr(name.rfind('-') + 1);
    for (const auto& file : std::filesystem::directory_iterator(folder.path())) {
      const std::string f = file.path().filename().string();
      if (!f.starts_with("cudnn64_") || !f.ends_with(".dll")) continue;
      const int major = std::stoi(f.substr(8));
      std::ifstream in(file.path(), std::ios::binary);
      std::stringstream bytes;
      bytes << in.rdbuf();
      auto fv = pe_file_version(bytes.str());
      ASSERT_TRUE(fv) << file.path() << ": " << fv.error().message;
      auto v = cudnn_version_from_file_version(*fv, major);
      ASSERT_TRUE(v) << file.path() << ": " << v.error().message;
      EXPECT_EQ(v->str(), wheel_version) << file.path();
      ++read;
    }
  }
  if (read == 0) GTEST_SKIP() << "no cudnn64_*.dll under " << dir;
}

}  // namespace
}  // namespace gpudoctor
