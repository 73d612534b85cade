// The fuzz targets for the new paths (sanitiser, path resolution, env file) on hostile seeds:
// each target aborts when its invariant breaks, so surviving the seeds is the assertion.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fuzz_targets.hpp"

namespace gpudoctor {
namespace {

using namespace std::string_literals;

void run_target(const std::string& name, const std::vector<std::string>& seeds) {
  for (const auto& t : fuzz::targets()) {
    if (name != t.name) continue;
    for (const auto& s : seeds) t.run(s);
    return;
  }
  FAIL() << "no fuzz target " << name;
}

TEST(FuzzSeeds, SanitiserPathResolutionAndEnvFile) {
  const std::vector<std::string> seeds = {
      "",
      "\x1b[31m\x1b]0;t\x07\xc2\x9b\x9b\xe2\x80\xae\xed\xa0\x80\xf4\x90\x80\x80\xc0\xaf"s,
      "/a/b/up/up/up/../../outside",
      "/a/rel-out",
      "/abs/b/up/a/rel-out",
      "/magic",
      "/loop1/x",
      "C:\\A\\B\\FILE",
      "D:\\x",
      "/a/b/file/..",
      "A=1\0B\nexport X='y'\n=z\n"s,
      std::string(5000, '/') + "a",
  };
  run_target("sanitiser", seeds);
  run_target("env_file", seeds);
  run_target("path_resolution", seeds);
}

TEST(FuzzSeeds, ElfSections) {
  // An ELF64 header whose section table claims 65535 entries at the end of a 2^64 file, one
  // whose names table is itself, and plain junk.
  std::string header =
      "\x7F"
      "ELF\x02\x01\x01"s +
      std::string(57, '\0');
  std::string huge = header;
  for (int i = 0; i < 8; ++i) huge[0x28 + i] = '\xFF';
  huge[0x3A] = 64;
  huge[0x3C] = huge[0x3D] = '\xFF';
  std::string self = header;
  self[0x28] = 0;
  self[0x3A] = 64;
  self[0x3C] = 1;
  run_target("elf_sections", {"", header, huge, self, std::string(4096, '\x7F'),
                              "\x7F"
                              "ELF"});
}

TEST(FuzzSeeds, ElfLoadProblem) {
  // An x86_64 shared object whose program headers claim 65535 entries at the end of a 2^64 file,
  // and one whose single PT_DYNAMIC claims 2^40 bytes at offset 0 (the file itself; not 2^64,
  // whose count of bytes asked for would wrap around).
  std::string so =
      "\x7F"
      "ELF\x02\x01\x01"s +
      std::string(57, '\0');
  so[16] = 3;   // ET_DYN
  so[18] = 62;  // EM_X86_64
  so[54] = 56;  // e_phentsize
  std::string huge = so;
  for (int i = 0; i < 8; ++i) huge[32 + i] = '\xFF';
  huge[56] = huge[57] = '\xFF';
  std::string dynamic = so;
  dynamic[32] = 64;  // e_phoff: right after the header
  dynamic[56] = 1;
  std::string phdr(56, '\0');
  phdr[0] = 2;  // PT_DYNAMIC
  phdr[32 + 5] = 1;  // p_filesz 2^40
  dynamic += phdr;
  run_target("elf_load_problem", {"", so, huge, dynamic, std::string(64, '\x7F'),
                                  "\x7F"
                                  "ELF"});
}

}  // namespace
}  // namespace gpudoctor
