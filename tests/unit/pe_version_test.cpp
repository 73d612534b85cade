// The version resource reader of probe/pe_version.cpp: a PE image built byte by byte
// (tests/support/pe_image.hpp, the layout of the PE/COFF specification), every truncation and
// thousands of mutations of it, and a real DLL where wine is installed.
#include "probe/pe_version.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "pe_image.hpp"

namespace gpudoctor {
namespace {

using testing::pe_with_version;
using testing::put32;

TEST(PeVersion, ReadsTheFixedFileVersion) {
  auto v = pe_file_version(pe_with_version(31, 0, 15, 4633));
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_EQ(v->str(), "31.0.15.4633");
}

TEST(PeVersion, SaysWhatIsMissing) {
  EXPECT_FALSE(pe_file_version(""));
  EXPECT_FALSE(pe_file_version("MZ not a real header, but long enough to be looked at as one ......"));
  std::string img = pe_with_version(1, 2, 3, 4);
  put32(img, 0x400 + 16, 24);  // the type is RT_MANIFEST, not RT_VERSION
  auto v = pe_file_version(img);
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().message, "no version resource");
  img = pe_with_version(1, 2, 3, 4);
  put32(img, 0x460 + 40, 0xDEADBEEF);
  EXPECT_FALSE(pe_file_version(img));
}

TEST(PeVersion, EveryTruncationFailsCleanly) {
  const std::string img = pe_with_version(31, 0, 15, 4633);
  for (size_t n = 0; n < img.size(); ++n) {
    auto v = pe_file_version(std::string_view(img).substr(0, n));
    // The version's words sit at 0x490..0x498: a cut before their end cannot give it.
    if (n < 0x498) EXPECT_FALSE(v) << n;
  }
}

TEST(PeVersion, MutatedImagesNeverCrashOrReadOutside) {
  const std::string base = pe_with_version(31, 0, 15, 4633);
  std::mt19937 rng(14);
  for (int i = 0; i < 5000; ++i) {
    std::string img = base;
    testing::damage_fields(img, rng);
    (void)pe_file_version(img);  // ASan and the bounded reads are the assertion
  }
  SUCCEED();
}

TEST(PeVersion, ARealDll) {
  // A real PE from a toolchain, not one this test built: wine's own DLLs carry version resources.
  const std::filesystem::path dll = "/usr/lib/x86_64-linux-gnu/wine/x86_64-windows/version.dll";
  if (!std::filesystem::exists(dll)) GTEST_SKIP() << dll << " is absent (wine64 not installed)";
  std::ifstream in(dll, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  auto v = pe_file_version(bytes.str());
  ASSERT_TRUE(v) << v.error().message;
  EXPECT_GE(v->parts[0], 5) << v->str();
}

}  // namespace
}  // namespace gpudoctor
