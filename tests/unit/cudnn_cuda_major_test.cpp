// Which CUDA major a cuDNN copy was built for, from its own binaries (probe/cudnn_cuda_major.cpp)
// through the ELF section reader (probe/elf_sections.cpp): ELF files built here byte by byte (the
// System V gABI layout), every truncation and thousands of mutations of them, and the library
// probe on a tree holding them.
#include "probe/cudnn_cuda_major.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "elf_image.hpp"
#include "probe/elf_sections.hpp"
#include "probe/library_dirs.hpp"
#include "probe/probes.hpp"
#include "test_support.hpp"

namespace gpudoctor {
namespace {

using testing::elf_with;
using testing::MemoryFile;
using testing::put;
using testing::strings;
using testing::TempTree;
using testing::view_of;

// cuDNN 9.13.0.50 (nvidia-cudnn-cu13) and 9.1.0.70 (-cu12) keep the soname at byte 0 of .rodata.
const std::string kRodata13 = strings({"libcublasLt.so.13", "cublasLtCreate", "stream)"});

TEST(ElfSections, ReadsTheNamedSection) {
  MemoryFile f{elf_with({{".text", std::string(100, '\x90')}, {".rodata", kRodata13}, {".dynstr", "\0libc.so.6\0"}})};
  auto rodata = elf_section_bytes(f.reader(), ".rodata", 1 << 20);
  ASSERT_TRUE(rodata) << rodata.error().message;
  EXPECT_EQ(*rodata, kRodata13);
  auto missing = elf_section_bytes(f.reader(), ".lrodata", 1 << 20);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::not_found);
  // Larger than asked: refused before its bytes are read.
  f.asked = 0;
  auto big = elf_section_bytes(f.reader(), ".rodata", 8);
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().kind, ErrorKind::too_large);
  EXPECT_LT(f.asked, 64u + 64u * 5 + 64u) << "the header, the section table and the names only";
}

TEST(ElfSections, RefusesWhatIsNotAnElf64LittleEndianFile) {
  std::string elf = elf_with({{".rodata", kRodata13}});
  for (auto [at, value] : std::vector<std::pair<size_t, char>>{{0, 'M'}, {4, 1}, {5, 2}}) {
    MemoryFile f{elf};
    f.bytes[at] = value;
    auto r = elf_section_bytes(f.reader(), ".rodata", 1 << 20);
    ASSERT_FALSE(r) << "byte " << at;
    EXPECT_EQ(r.error().kind, ErrorKind::invalid_data);
  }
}

TEST(ElfSections, HostileHeadersAreErrorsWithBoundedReads) {
  const std::string elf = elf_with({{".rodata", kRodata13}});
  struct Case {
    size_t at;
    std::uint64_t value;
    size_t width;
    const char* what;
  };
  const std::vector<Case> cases = {
      {0x3C, 0xFFFF, 2, "65535 sections"},
      {0x3C, 0, 2, "no sections (extended numbering)"},
      {0x3A, 40, 2, "a section header of 40 bytes"},
      {0x28, 0xFFFFFFFFFFFFFF00ULL, 8, "the section table past the end"},
      {0x3E, 0xFFFF, 2, "SHN_XINDEX as the name table"},
      {0x3E, 7, 2, "a name table index past the table"},
  };
  for (const Case& c : cases) {
    MemoryFile f{elf};
    put(f.bytes, c.at, c.value, c.width);
    auto r = elf_section_bytes(f.reader(), ".rodata", 1 << 20);
    EXPECT_FALSE(r) << c.what;
    EXPECT_LE(f.asked, 64u + kMaxElfSections * 64u + kMaxElfSectionNames) << c.what;
  }
  // A section whose size says 2^63 bytes: too large, never allocated.
  const size_t shoff = static_cast<size_t>(elf.size() - 3 * 64);
  MemoryFile huge{elf};
  put(huge.bytes, shoff + 64 + 0x20, 1ULL << 63, 8);
  auto r = elf_section_bytes(huge.reader(), ".rodata", 1 << 20);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::too_large);
  // A name offset past the name table, and a name table without its last NUL.
  MemoryFile bad_name{elf};
  put(bad_name.bytes, shoff + 64, 0xFFFFFFFF, 4);
  EXPECT_FALSE(elf_section_bytes(bad_name.reader(), ".rodata", 1 << 20));
  MemoryFile no_nul{elf};
  no_nul.bytes[shoff - 1] = 'x';  // the NUL after ".shstrtab"
  EXPECT_FALSE(elf_section_bytes(no_nul.reader(), ".shstrtab", 1 << 20));
}

TEST(ElfSections, EveryTruncationAndMutationIsAnAnswerOrAnError) {
  const std::string elf = elf_with({{".text", std::string(64, '\x90')}, {".rodata", kRodata13}});
  for (size_t n = 0; n < elf.size(); ++n) {
    MemoryFile f{elf.substr(0, n)};
    auto r = elf_section_bytes(f.reader(), ".rodata", 1 << 20);
    // The section table sits at the end: any cut loses it.
    EXPECT_FALSE(r) << "cut at " << n;
  }
  std::mt19937 rng(12345);
  for (int i = 0; i < 5000; ++i) {
    MemoryFile f{elf};
    for (int k = 0; k < 4; ++k) f.bytes[rng() % f.bytes.size()] = static_cast<char>(rng());
    auto r = elf_section_bytes(f.reader(), ".rodata", 1 << 20);
    if (r) EXPECT_LE(r->size(), size_t{1} << 20);
    EXPECT_LE(f.asked, 64u + kMaxElfSections * 64u + kMaxElfSectionNames + (1u << 20));
  }
}

TEST(CudnnCudaMajor, TheCublasSonameNamesTheMajor) {
  std::string named;
  // At byte 0 of the table (9.13.0.50 cu13, 9.1.0.70 cu12) and after other strings (9.19.0.56).
  EXPECT_EQ(cuda_major_in_strings(kRodata13, &named), 13);
  EXPECT_EQ(named, "libcublasLt.so.13");
  EXPECT_EQ(cuda_major_in_strings(strings({"cudnnGetStream", "libcublasLt.so.12", "x"})), 12);
  // cuDNN 8.9 (libcudnn_ops_infer.so.8): both cuBLAS sonames; CUDA 11's NVRTC is libnvrtc.so.11.2.
  EXPECT_EQ(cuda_major_in_strings(strings({"libcublas.so.11", "libcublasLt.so.11", "libnvrtc.so.%d.%d"})), 11);
  EXPECT_EQ(cuda_major_in_strings(strings({"libnvrtc.so.11.2"})), 11);
  // Formats, suffixes of other strings, and unversioned names say nothing.
  EXPECT_EQ(cuda_major_in_strings(strings({"libnvrtc.so.%d", "libnvrtc.so", "xlibcublasLt.so.13"})), std::nullopt);
  EXPECT_EQ(cuda_major_in_strings(std::string("libcublasLt.so.13")), std::nullopt) << "no closing NUL";
  // Two majors: no answer rather than a guess.
  EXPECT_EQ(cuda_major_in_strings(strings({"libcublasLt.so.12", "libnvrtc.so.13"})), std::nullopt);
  EXPECT_EQ(cuda_major_in_strings(""), std::nullopt);
}

/// A cuDNN directory in a tree: libcudnn.so.N and the sub-library holding the marker.
void write_cudnn(const TempTree& t, const std::string& dir, const std::string& sub, const std::string& elf) {
  const std::string major = sub.substr(sub.size() - 1);
  t.write(dir + "/libcudnn.so." + major, "");
  t.write(dir + "/" + sub, elf);
}

TEST(CudnnCudaMajor, TheLibraryProbeReadsItForACopyThatIsNotAWheel) {
  TempTree t;
  write_cudnn(t, "opt/cudnn13/lib", "libcudnn_adv.so.9", elf_with({{".rodata", kRodata13}}));
  write_cudnn(t, "opt/cudnn8/lib", "libcudnn_ops_infer.so.8",
              elf_with({{".rodata", strings({"x", "libcublas.so.11", "libcublasLt.so.11"})}}));
  // cuDNN 9 whose libcudnn_adv.so.9 is cut: the engines library still says it.
  const std::string adv = elf_with({{".rodata", strings({"libcublasLt.so.12"})}});
  write_cudnn(t, "opt/cudnn12/lib", "libcudnn_adv.so.9", adv.substr(0, adv.size() / 2));
  t.write("opt/cudnn12/lib/libcudnn_engines_precompiled.so.9",
          elf_with({{".rodata", strings({"libcublasLt.so.12", "libnvrtc.so.12"})}}));
  // Hostile and silent copies: unknown.
  write_cudnn(t, "opt/cut/lib", "libcudnn_adv.so.9", adv.substr(0, 200));
  write_cudnn(t, "opt/silent/lib", "libcudnn_adv.so.9", elf_with({{".rodata", strings({"libnvrtc.so.%d"})}}));
  auto sv =
      view_of(t, Platform::linux,
              {{"LD_LIBRARY_PATH", "/opt/cudnn13/lib:/opt/cudnn8/lib:/opt/cudnn12/lib:/opt/cut/lib:/opt/silent/lib"}});
  Facts f;
  probe_libraries(sv, read_loader_paths(sv), f);
  auto copy = [&](const std::string& dir) -> const LibraryFacts* {
    for (const LibraryFacts& l : f.libraries) {
      if (l.path == dir) return &l;
    }
    return nullptr;
  };
  const LibraryFacts* c13 = copy("/opt/cudnn13/lib");
  ASSERT_NE(c13, nullptr);
  EXPECT_EQ(c13->cuda_major, 13);
  EXPECT_EQ(c13->cuda_major_source, "libcudnn_adv.so.9 names libcublasLt.so.13");
  const LibraryFacts* c8 = copy("/opt/cudnn8/lib");
  ASSERT_NE(c8, nullptr);
  EXPECT_EQ(c8->cuda_major, 11);
  EXPECT_EQ(c8->cuda_major_source, "libcudnn_ops_infer.so.8 names libcublasLt.so.11");
  const LibraryFacts* c12 = copy("/opt/cudnn12/lib");
  ASSERT_NE(c12, nullptr);
  EXPECT_EQ(c12->cuda_major, 12);
  EXPECT_EQ(c12->cuda_major_source, "libcudnn_engines_precompiled.so.9 names libcublasLt.so.12");
  for (const char* dir : {"/opt/cut/lib", "/opt/silent/lib"}) {
    const LibraryFacts* c = copy(dir);
    ASSERT_NE(c, nullptr) << dir;
    EXPECT_EQ(c->cuda_major, std::nullopt) << dir;
    EXPECT_EQ(c->cuda_major_source, "") << dir;
  }
}

TEST(CudnnCudaMajor, SystemViewReadsARangeOfAFile) {
  TempTree t;
  t.write("f", "0123456789");
  auto sv = view_of(t);
  EXPECT_EQ(sv.read_range("/f", 3, 4).value_or("?"), "3456");
  EXPECT_EQ(sv.read_range("/f", 8, 100).value_or("?"), "89");
  EXPECT_EQ(sv.read_range("/f", 10, 4).value_or("?"), "");
  EXPECT_EQ(sv.read_range("/f", ~std::uint64_t{0}, 4).value_or("?"), "");
  EXPECT_EQ(sv.read_range("/f", 0, 2).value_or("?"), "01");
  EXPECT_FALSE(sv.read_range("/nothing", 0, 2));
}

}  // namespace
}  // namespace gpudoctor
