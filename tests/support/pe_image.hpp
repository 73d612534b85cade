#pragma once
/// A PE image built byte by byte (the layout of the PE/COFF specification) for the tests of
/// the version-resource and import readers and of what reads them (a cudnn64_8.dll of a chosen
/// version, a torch_cuda.dll importing chosen DLLs, in a scratch tree): our own bytes, no
/// vendor's DLL.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace gpudoctor::testing {

inline void put16(std::string& b, size_t at, std::uint32_t v) {
  b[at] = static_cast<char>(v & 0xFF);
  b[at + 1] = static_cast<char>((v >> 8) & 0xFF);
}
inline void put32(std::string& b, size_t at, std::uint32_t v) {
  put16(b, at, v & 0xFFFF);
  put16(b, at + 2, v >> 16);
}

/// Damage where it matters to a parser of offsets and counts: 1 to 8 of the image's 32-bit fields
/// set to an extreme (0, all ones, the sign bit) or a random value.
inline void damage_fields(std::string& img, std::mt19937& rng) {
  const int flips = 1 + static_cast<int>(rng() % 8);
  for (int f = 0; f < flips; ++f) {
    const size_t at = rng() % (img.size() - 4);
    const std::uint32_t values[] = {0, 0xFFFFFFFFU, 0x7FFFFFFFU, 0x80000000U, static_cast<std::uint32_t>(rng())};
    put32(img, at, values[rng() % 5]);
  }
}

/// A PE32+ image with one section (.rsrc at file offset 0x400, RVA 0x1000) whose resource tree
/// holds RT_VERSION / 1 / 0x409 -> VS_VERSIONINFO with the file version a.b.c.d.
inline std::string pe_with_version(std::uint16_t a, std::uint16_t b, std::uint16_t c, std::uint16_t d) {
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

/// A PE32+ image with one section (.idata at file offset 0x400, RVA 0x2000) holding an import
/// directory naming `imports` and a delay-load directory naming `delayed` (RVAs, attribute 1),
/// then the names. The import descriptors start at 0x400, the delay descriptors follow them.
inline std::string pe_with_imports(const std::vector<std::string>& imports,
                                   const std::vector<std::string>& delayed = {}) {
  const size_t raw = 0x400, rva = 0x2000;
  const size_t imports_at = 0, delay_at = (imports.size() + 1) * 20;
  size_t names_at = delay_at + (delayed.size() + 1) * 32;
  size_t section = names_at;
  for (const auto& n : imports) section += n.size() + 1;
  for (const auto& n : delayed) section += n.size() + 1;
  section = (section + 0x1FF) & ~size_t{0x1FF};
  std::string img(raw + section, '\0');
  img[0] = 'M';
  img[1] = 'Z';
  put32(img, 0x3C, 0x80);
  img.replace(0x80, 4, std::string("PE\0\0", 4));
  put16(img, 0x84, 0x8664);
  put16(img, 0x86, 1);
  put16(img, 0x94, 240);
  const size_t opt = 0x98;
  put16(img, opt, 0x20B);
  put32(img, opt + 24, 0x80000000U);  // ImageBase, low half
  put32(img, opt + 28, 0x1);          // ImageBase, high half
  put32(img, opt + 108, 16);
  put32(img, opt + 112 + 1 * 8, static_cast<std::uint32_t>(rva + imports_at));
  put32(img, opt + 112 + 1 * 8 + 4, static_cast<std::uint32_t>((imports.size() + 1) * 20));
  if (!delayed.empty()) {
    put32(img, opt + 112 + 13 * 8, static_cast<std::uint32_t>(rva + delay_at));
    put32(img, opt + 112 + 13 * 8 + 4, static_cast<std::uint32_t>((delayed.size() + 1) * 32));
  }
  const size_t sec = opt + 240;
  img.replace(sec, 6, ".idata");
  put32(img, sec + 8, static_cast<std::uint32_t>(section));
  put32(img, sec + 12, static_cast<std::uint32_t>(rva));
  put32(img, sec + 16, static_cast<std::uint32_t>(section));
  put32(img, sec + 20, static_cast<std::uint32_t>(raw));
  auto name = [&](const std::string& n) {
    img.replace(raw + names_at, n.size(), n);
    const size_t at = names_at;
    names_at += n.size() + 1;
    return static_cast<std::uint32_t>(rva + at);
  };
  for (size_t i = 0; i < imports.size(); ++i) {
    put32(img, raw + imports_at + 20 * i + 12, name(imports[i]));
    put32(img, raw + imports_at + 20 * i + 16, static_cast<std::uint32_t>(rva));  // FirstThunk: any nonzero
  }
  for (size_t i = 0; i < delayed.size(); ++i) {
    put32(img, raw + delay_at + 32 * i, 1);  // dlattrRva
    put32(img, raw + delay_at + 32 * i + 4, name(delayed[i]));
  }
  return img;
}

}  // namespace gpudoctor::testing
