// The dynamic symbol reader (probe/elf_symbols.cpp): DT_NEEDED, DT_RUNPATH/DT_RPATH and the
// imports and exports of a prefix, from ELF files built byte by byte; every truncation and
// thousands of mutations are an answer or an error, with bounded reads. The same reader against
// the real dynamic loader: tests/fakes/symbol_import_test.cpp.
#include "probe/elf_symbols.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "elf_image.hpp"

namespace gpudoctor {
namespace {

using testing::elf_with;
using testing::library;
using testing::MemoryFile;
using testing::put;
using testing::Sym;

const std::vector<Sym> kTorchCuda = {{"ncclCommResume", 1, false}, {"ncclGetVersion", 1, false},
                                     {"ncclCommResume", 1, false}, {"ncclWeakOptional", 2, false},
                                     {"cudaMalloc", 1, false},     {"torch_stub", 1, true},
                                     {"ncclLocalHelper", 0, true}};

TEST(ElfSymbols, NeededSearchPathImportsAndExportsOfAPrefix) {
  MemoryFile f{library({"libc10_cuda.so", "libnccl.so.2"}, "$ORIGIN/../../nvidia/nccl/lib:$ORIGIN", 15, kTorchCuda)};
  auto s = elf_dynamic_symbols(f.reader(), "nccl");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->needed, (std::vector<std::string>{"libc10_cuda.so", "libnccl.so.2"}));
  EXPECT_EQ(s->search_path, (std::vector<std::string>{"$ORIGIN/../../nvidia/nccl/lib", "$ORIGIN"}));
  // Sorted and unique; a weak import may stay unresolved, so it does not count; a local is no export.
  EXPECT_EQ(s->undefined, (std::vector<std::string>{"ncclCommResume", "ncclGetVersion"}));
  EXPECT_TRUE(s->defined.empty());
  auto other = elf_dynamic_symbols(f.reader(), "torch_");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->defined, (std::vector<std::string>{"torch_stub"}));
  EXPECT_TRUE(other->undefined.empty());
}

TEST(ElfSymbols, RunpathWinsOverRpath) {
  // DT_RUNPATH (29): the loader ignores DT_RPATH when it is present (ld.so(8)).
  MemoryFile f{library({"libnvJitLink.so.12"}, "$ORIGIN/../../nvjitlink/lib", 29,
                       {{"__nvJitLinkComplete_12_9", 1, false}, {"cusparseCreate", 1, true}}, "/opt/old/lib")};
  auto s = elf_dynamic_symbols(f.reader(), "__nvJitLink");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->search_path, (std::vector<std::string>{"$ORIGIN/../../nvjitlink/lib"}));
  EXPECT_EQ(s->undefined, (std::vector<std::string>{"__nvJitLinkComplete_12_9"}));
}

TEST(ElfSymbols, ALibraryWithoutDynamicTablesIsAnError) {
  MemoryFile f{elf_with({{".rodata", "x"}})};
  auto s = elf_dynamic_symbols(f.reader(), "nccl");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().kind, ErrorKind::not_found);
  // A .dynsym that is not a whole number of entries.
  MemoryFile g{elf_with(
      {{".dynsym", std::string(25, '\0')}, {".dynstr", std::string(1, '\0')}, {".dynamic", std::string(16, '\0')}})};
  EXPECT_FALSE(elf_dynamic_symbols(g.reader(), "nccl"));
}

TEST(ElfSymbols, EveryTruncationAndMutationIsAnAnswerOrAnError) {
  const std::string elf = library({"libnccl.so.2"}, "$ORIGIN", 29, kTorchCuda);
  for (size_t n = 0; n < elf.size(); ++n) {
    MemoryFile f{elf.substr(0, n)};
    EXPECT_FALSE(elf_dynamic_symbols(f.reader(), "nccl")) << "cut at " << n;  // the section table is at the end
  }
  std::mt19937 rng(4242);
  for (int i = 0; i < 5000; ++i) {
    MemoryFile f{elf};
    for (int k = 0; k < 4; ++k) f.bytes[rng() % f.bytes.size()] = static_cast<char>(rng());
    auto s = elf_dynamic_symbols(f.reader(), "nccl");
    if (s) {
      for (const std::string& name : s->undefined) EXPECT_TRUE(name.starts_with("nccl")) << name;
      EXPECT_LE(s->search_path.size(), 64U);
    }
    EXPECT_LE(f.asked,
              3 * (64u + kMaxElfSections * 64u + kMaxElfSectionNames) + kMaxElfDynsym + kMaxElfDynstr + 64u * 1024u);
  }
}

}  // namespace
}  // namespace gpudoctor
