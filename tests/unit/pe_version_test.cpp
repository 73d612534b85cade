// The version resource reader of probe/pe_version.cpp: a PE image built here byte by byte (the
// layout of the PE/COFF specification), every truncation and thousands of mutations of it, and a
// real DLL where wine is installed.
#include "probe/pe_version.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace gpudoctor {
namespace {

void put16(std::string& b, size_t at, std::uint32_t v) {
  b[at] = static_cast<char>(v & 0xFF);
  b[at + 1] = static_cast<char>((v >> 8) & 0xFF);
}
void put32(std::string& b, size_t at, std::uint32_t v) {
  put16(b, at, v & 0xFFFF);
  put16(b, at + 2, v >> 16);
}

/// A PE32+ image with one section (.rsrc at file offset 0x400, RVA 0x1000) whose resource tree
/// holds RT_VERSION / 1 / 0x409 -> VS_VERSIONINFO with the file version a.b.c.d.
std::string pe_with_version(std::uint16_t a, std::uint16_t b, std::uint16_t c, std::uint16_t d) {
  std::string img(0x600, '\0');
  img[0] = 'M';
  img[1] = 'Z';
  put32(img, 0x3C, 0x80);
  img.replace(0x80, 4, std::string("PE\0\0", 4));
  put16(img, 0x84, 0x8664);  // machine
  put16(img, 0x86, 1);       // sections
  put16(img, 0x94, 240);     // SizeOfOptionalHeader (PE32+ with 16 directories)
  const size_t opt = 0x98;
  put16(img, opt, 0x20B);
  put32(img, opt + 108, 16);              // NumberOfRvaAndSizes
  put32(img, opt + 112 + 2 * 8, 0x1000);  // resource directory RVA
  put32(img, opt + 112 + 2 * 8 + 4, 0x200);
  const size_t sec = opt + 240;
  img.replace(sec, 5, ".rsrc");
  put32(img, sec + 8, 0x200);    // VirtualSize
  put32(img, sec + 12, 0x1000);  // VirtualAddress
  put32(img, sec + 16, 0x200);   // SizeOfRawData
  put32(img, sec + 20, 0x400);   // PointerToRawData
  const size_t r = 0x400;
  // Level 1: one id entry, RT_VERSION -> subdirectory at 0x18.
  put16(img, r + 14, 1);
  put32(img, r + 16, 16);
  put32(img, r + 20, 0x80000000U | 0x18);
  // Level 2 at 0x18: id 1 -> subdirectory at 0x30.
  put16(img, r + 0x18 + 14, 1);
  put32(img, r + 0x18 + 16, 1);
  put32(img, r + 0x18 + 20, 0x80000000U | 0x30);
  // Level 3 at 0x30: language 0x409 -> data entry at 0x48.
  put16(img, r + 0x30 + 14, 1);
  put32(img, r + 0x30 + 16, 0x409);
  put32(img, r + 0x30 + 20, 0x48);
  // Data entry at 0x48: the block at RVA 0x1060, 0x100 bytes.
  put32(img, r + 0x48, 0x1060);
  put32(img, r + 0x48 + 4, 0x100);
  const size_t v = r + 0x60;
  put16(img, v, 0x100);
  put16(img, v + 2, 52);
  const std::u16string key = u"VS_VERSION_INFO";
  for (size_t i = 0; i < key.size(); ++i) put16(img, v + 6 + 2 * i, key[i]);
  put32(img, v + 40, 0xFEEF04BD);
  put32(img, v + 44, 0x00010000);
  put32(img, v + 48, (std::uint32_t{a} << 16) | b);
  put32(img, v + 52, (std::uint32_t{c} << 16) | d);
  return img;
}

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
    const int flips = 1 + static_cast<int>(rng() % 8);
    for (int f = 0; f < flips; ++f) {
      // Offsets and counts are where the damage matters: mostly 32-bit fields set to extremes.
      const size_t at = rng() % (img.size() - 4);
      const std::uint32_t values[] = {0, 0xFFFFFFFFU, 0x7FFFFFFFU, 0x80000000U, static_cast<std::uint32_t>(rng())};
      put32(img, at, values[rng() % 5]);
    }
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
