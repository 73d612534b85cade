// The import reader of probe/pe_imports.cpp: images built byte by byte (tests/support/
// pe_image.hpp), every truncation (a cut file fails, it never yields part of the list), thousands
// of mutations, bounded reads, and real PE files checked against binutils' objdump as the oracle.
#include "probe/pe_imports.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/text.hpp"
#include "pe_image.hpp"

namespace gpudoctor {
namespace {

using testing::pe_with_imports;
using testing::put32;

std::vector<std::string> imported_names(const std::vector<PeImport>& imports, bool delay_loaded) {
  std::vector<std::string> out;
  for (const PeImport& i : imports) {
    if (i.delay_loaded == delay_loaded) out.push_back(i.dll);
  }
  return out;
}

TEST(PeImports, ReadsTheImportAndDelayLoadDirectories) {
  auto imports = pe_imports(pe_with_imports({"KERNEL32.dll", "cudart64_12.dll", "MSVCP140.dll"}, {"cudnn64_9.dll"}));
  ASSERT_TRUE(imports) << imports.error().message;
  EXPECT_EQ(imported_names(*imports, false),
            (std::vector<std::string>{"KERNEL32.dll", "cudart64_12.dll", "MSVCP140.dll"}));
  EXPECT_EQ(imported_names(*imports, true), (std::vector<std::string>{"cudnn64_9.dll"}));
}

TEST(PeImports, NamesEachDllOnceIgnoringCase) {
  // The loader compares names without case: a DLL imported and delay-loaded is one DLL, needed
  // when the image loads.
  auto imports = pe_imports(pe_with_imports({"cublas64_12.dll", "CUBLAS64_12.DLL"}, {"Cublas64_12.dll"}));
  ASSERT_TRUE(imports) << imports.error().message;
  ASSERT_EQ(imports->size(), 1U);
  EXPECT_EQ((*imports)[0], (PeImport{"cublas64_12.dll", false}));
}

TEST(PeImports, AnImageWithoutImportsHasNone) {
  std::string img = pe_with_imports({"KERNEL32.dll"});
  put32(img, 0x98 + 112 + 8, 0);  // the import directory's RVA
  auto imports = pe_imports(img);
  ASSERT_TRUE(imports) << imports.error().message;
  EXPECT_TRUE(imports->empty());
}

TEST(PeImports, OldDelayLoadDescriptorsHoldAddresses) {
  // Attribute bit 0 clear (before Visual C++ 7): the name's field is a virtual address, the
  // image base plus its RVA.
  std::string img = pe_with_imports({"KERNEL32.dll"}, {"nvToolsExt64_1.dll"});
  put32(img, 0x98 + 24, 0x10000000U);  // ImageBase 0x10000000
  put32(img, 0x98 + 28, 0);
  const size_t delay = 0x400 + 2 * 20;
  const std::uint32_t rva = static_cast<unsigned char>(img[delay + 4]) |
                            (static_cast<unsigned>(static_cast<unsigned char>(img[delay + 5])) << 8);
  put32(img, delay, 0);
  put32(img, delay + 4, 0x10000000U + rva);
  auto imports = pe_imports(img);
  ASSERT_TRUE(imports) << imports.error().message;
  EXPECT_EQ(imported_names(*imports, true), (std::vector<std::string>{"nvToolsExt64_1.dll"}));
  put32(img, delay + 4, rva);  // an address below the image base
  auto below = pe_imports(img);
  ASSERT_FALSE(below);
  EXPECT_EQ(below.error().message, "delay-load name outside the image");
}

TEST(PeImports, SaysWhatIsWrong) {
  EXPECT_FALSE(pe_imports(std::string_view()));
  EXPECT_FALSE(
      pe_imports(std::string_view("MZ this is no PE image, only text long enough to be looked at as one ....")));
  std::string img = pe_with_imports({"cudart64_12.dll"});
  const size_t name = 0x400 + 2 * 20 + 32;  // after the import and (empty) delay-load descriptors
  img[name + 3] = '\\';                     // "cud\\rt64_12.dll": a folder in an imported name
  auto r = pe_imports(img);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "an imported DLL's name is not a file name");
  img = pe_with_imports({"cudart64_12.dll"});
  put32(img, 0x400 + 12, 0x7FFF0000U);  // the name's RVA outside every section
  r = pe_imports(img);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "an imported DLL's name lies outside the file's sections");
}

TEST(PeImports, AnEndlessDescriptorListIsBounded) {
  // Every descriptor names the same DLL and none ends the list: the reader stops at its bound.
  std::vector<std::string> many(kMaxPeImports + 8, "a.dll");
  auto r = pe_imports(pe_with_imports(many));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "more than " + std::to_string(kMaxPeImports) + " imported DLLs");
}

TEST(PeImports, EveryTruncationFailsOrGivesTheWholeList) {
  // A cut file never yields part of the list: a missing DLL not listed would be a wrong "found".
  const std::string img = pe_with_imports({"KERNEL32.dll", "cudart64_12.dll", "cublasLt64_12.dll"}, {"cudnn64_9.dll"});
  const auto whole = pe_imports(img);
  ASSERT_TRUE(whole);
  for (size_t n = 0; n < img.size(); ++n) {
    auto cut = pe_imports(std::string_view(img).substr(0, n));
    if (cut) EXPECT_EQ(*cut, *whole) << n;
  }
}

TEST(PeImports, ReadsOnlyWhatItNeeds) {
  // A huge declared directory size and a 1 GiB image: the headers, the descriptors the section
  // holds and one bounded read per name, never the image.
  std::string img = pe_with_imports({"KERNEL32.dll", "cudart64_12.dll"});
  put32(img, 0x98 + 112 + 8 + 4, 0xFFFFFFF0U);
  std::uint64_t asked = 0;
  int reads = 0;
  auto imports = pe_imports([&](std::uint64_t offset, std::size_t n) -> Result<std::string> {
    asked += n;
    ++reads;
    return offset >= img.size() ? std::string() : img.substr(offset, n);
  });
  ASSERT_TRUE(imports) << imports.error().message;
  EXPECT_EQ(imports->size(), 2U);
  EXPECT_EQ(reads, 4);  // head, descriptors, two names
  EXPECT_LE(asked, 64U * 1024 + 0x200 + 2 * 256);
}

TEST(PeImports, MutatedImagesNeverCrashOrReadOutside) {
  const std::string base = pe_with_imports({"KERNEL32.dll", "cudart64_12.dll", "MSVCP140.dll"}, {"cudnn64_9.dll"});
  std::mt19937 rng(37);
  int parsed = 0;
  for (int i = 0; i < 5000; ++i) {
    std::string img = base;
    testing::damage_fields(img, rng);
    auto r = pe_imports(img);  // ASan and the bounded reads are the assertion
    if (r) {
      ++parsed;
      EXPECT_LE(r->size(), 2 * kMaxPeImports);
    }
  }
  EXPECT_GT(parsed, 0);  // the mutations that miss the parsed fields still parse
}

/// objdump -p's "DLL Name:" lines: binutils' own reading of the import directory.
std::vector<std::string> objdump_imports(const std::string& objdump, const std::filesystem::path& file) {
  std::vector<std::string> out;
  const std::string cmd = objdump + " -p '" + file.string() + "' 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> p(popen(cmd.c_str(), "r"), pclose);
  if (!p) return out;
  std::array<char, 4096> line{};
  while (fgets(line.data(), static_cast<int>(line.size()), p.get()) != nullptr) {
    std::string l(trim(line.data()));
    if (l.starts_with("DLL Name: ")) out.push_back(l.substr(10));
  }
  return out;
}

TEST(PeImports, RealDllsAgreeWithObjdump) {
  const std::string objdump = "/usr/bin/x86_64-w64-mingw32-objdump";
  const std::filesystem::path dir = "/usr/lib/x86_64-linux-gnu/wine/x86_64-windows";
  if (!std::filesystem::exists(objdump)) GTEST_SKIP() << objdump << " is absent (binutils-mingw-w64 not installed)";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << dir << " is absent (wine64 not installed)";
  std::vector<std::filesystem::path> dlls;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".dll") dlls.push_back(e.path());
  }
  std::sort(dlls.begin(), dlls.end());
  int compared = 0;
  for (size_t i = 0; i < dlls.size() && compared < 60; i += 11) {
    std::ifstream in(dlls[i], std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    auto ours = pe_imports(bytes.str());
    ASSERT_TRUE(ours) << dlls[i] << ": " << ours.error().message;
    const std::vector<std::string> theirs = objdump_imports(objdump, dlls[i]);
    // objdump lists the ordinary imports (GNU ld writes no delay-load directory).
    EXPECT_EQ(imported_names(*ours, false), theirs) << dlls[i];
    ++compared;
  }
  EXPECT_GE(compared, 20);
}

}  // namespace
}  // namespace gpudoctor
