#pragma once
/// ELF64 little-endian shared objects built byte by byte (the System V gABI layout) for the ELF
/// readers' tests (probe/elf_sections.hpp, probe/elf_symbols.hpp), and a file in memory read the
/// way SystemView::read_range reads one.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "core/result.hpp"
#include "probe/elf_sections.hpp"

namespace gpudoctor::testing {

inline void put(std::string& b, size_t at, std::uint64_t v, size_t width) {
  for (size_t i = 0; i < width; ++i) b[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}

/// An ELF64 little-endian shared object: the header, each section's bytes, the section-name
/// table, then the section header table (where linkers put it: at the end).
inline std::string elf_with(const std::vector<std::pair<std::string, std::string>>& sections) {
  std::string img(64, '\0');
  img.replace(0, 4,
              "\x7F"
              "ELF");
  img[4] = 2;             // ELFCLASS64
  img[5] = 1;             // ELFDATA2LSB
  img[6] = 1;             // EV_CURRENT
  put(img, 0x10, 3, 2);   // ET_DYN
  put(img, 0x12, 62, 2);  // EM_X86_64
  std::string names(1, '\0');
  struct Placed {
    std::uint64_t name, offset, size;
  };
  std::vector<Placed> placed;
  for (const auto& [name, bytes] : sections) {
    placed.push_back({names.size(), img.size(), bytes.size()});
    names += name + '\0';
    img += bytes;
  }
  placed.push_back({names.size(), img.size(), 0});
  names += std::string(".shstrtab") + '\0';
  placed.back().size = names.size();
  img += names;
  const std::uint64_t shoff = img.size();
  img += std::string(64, '\0');  // section 0: SHN_UNDEF
  for (const Placed& p : placed) {
    std::string h(64, '\0');
    put(h, 0x00, p.name, 4);
    put(h, 0x04, 1, 4);  // SHT_PROGBITS (the names table is SHT_STRTAB; the reader does not care)
    put(h, 0x18, p.offset, 8);
    put(h, 0x20, p.size, 8);
    img += h;
  }
  put(img, 0x28, shoff, 8);
  put(img, 0x3A, 64, 2);
  put(img, 0x3C, placed.size() + 1, 2);
  put(img, 0x3E, placed.size(), 2);  // .shstrtab is the last section
  return img;
}

inline std::string strings(std::initializer_list<const char*> list) {
  std::string out;
  for (const char* s : list) out += std::string(s) + '\0';
  return out;
}

struct Sym {
  std::string name;
  unsigned binding;  // 1 global, 2 weak, 0 local
  bool defined;
};

/// .dynstr, .dynsym and .dynamic for these needed libraries, search path (path_tag: DT_RPATH 15,
/// DT_RUNPATH 29) and symbols.
inline std::string library(const std::vector<std::string>& needed, const std::string& runpath, std::uint64_t path_tag,
                           const std::vector<Sym>& syms, const std::string& also_rpath = "") {
  std::string strtab(1, '\0');
  auto add = [&](const std::string& s) {
    const std::uint64_t at = strtab.size();
    strtab += s + '\0';
    return at;
  };
  std::string dynamic;
  auto entry = [&](std::uint64_t tag, std::uint64_t value) {
    std::string e(16, '\0');
    put(e, 0, tag, 8);
    put(e, 8, value, 8);
    dynamic += e;
  };
  for (const std::string& n : needed) entry(1, add(n));
  if (!also_rpath.empty()) entry(15, add(also_rpath));  // DT_RPATH beside the other tag
  if (!runpath.empty()) entry(path_tag, add(runpath));
  entry(0, 0);
  std::string dynsym(24, '\0');  // the null symbol
  for (const Sym& s : syms) {
    std::string e(24, '\0');
    put(e, 0, add(s.name), 4);
    e[4] = static_cast<char>((s.binding << 4) | 2);  // STT_FUNC
    put(e, 6, s.defined ? 12 : 0, 2);                // .text's index, or SHN_UNDEF
    dynsym += e;
  }
  return elf_with(
      {{".text", std::string(32, '\x90')}, {".dynsym", dynsym}, {".dynstr", strtab}, {".dynamic", dynamic}});
}

/// A file in memory, read the way SystemView::read_range reads one; counts the bytes asked for.
struct MemoryFile {
  std::string bytes;
  std::uint64_t asked = 0;
  ReadRange reader() {
    return [this](std::uint64_t offset, std::size_t length) -> Result<std::string> {
      asked += length;
      if (offset >= bytes.size()) return std::string();
      return bytes.substr(static_cast<size_t>(offset), length);
    };
  }
};

}  // namespace gpudoctor::testing
