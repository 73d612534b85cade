#include "probe/elf_sections.hpp"

namespace gpudoctor {
namespace {

// Offsets of the ELF64 header and section header (the System V gABI, "ELF Header" and
// "Sections"), little-endian.
constexpr std::size_t kEhdrSize = 64;
constexpr std::size_t kShoff = 0x28;
constexpr std::size_t kShentsize = 0x3A;
constexpr std::size_t kShnum = 0x3C;
constexpr std::size_t kShstrndx = 0x3E;
constexpr std::size_t kShdrSize = 64;
constexpr std::size_t kShName = 0x00;
constexpr std::size_t kShType = 0x04;
constexpr std::size_t kShOffset = 0x18;
constexpr std::size_t kShSize = 0x20;
constexpr std::uint32_t kShtNobits = 8;
constexpr std::uint16_t kShnXindex = 0xFFFF;

Error invalid(std::string message) {
  return Error{ErrorKind::invalid_data, std::move(message), "", 0};
}

/// Reads exactly `length` bytes at `offset`; fewer is a cut file.
Result<std::string> read_exact(const ReadRange& read, std::uint64_t offset, std::size_t length, const char* what) {
  auto bytes = read(offset, length);
  if (!bytes) return bytes.error();
  if (bytes->size() != length) return invalid(std::string("file ends inside its ") + what);
  return bytes;
}

}  // namespace

Result<std::string> elf_section_bytes(const ReadRange& read, std::string_view name, std::size_t max_bytes) {
  auto ehdr = read_exact(read, 0, kEhdrSize, "ELF header");
  if (!ehdr) return ehdr.error();
  const std::string_view h = *ehdr;
  if (h.substr(0, 4) !=
      "\x7F"
      "ELF")
    return invalid("not an ELF file");
  if (h[4] != 2 || h[5] != 1) return invalid("not a 64-bit little-endian ELF file");
  const std::uint64_t shoff = elf_le(h, kShoff, 8);
  const std::uint64_t shentsize = elf_le(h, kShentsize, 2);
  const std::uint64_t shnum = elf_le(h, kShnum, 2);
  const std::uint64_t shstrndx = elf_le(h, kShstrndx, 2);
  // shnum 0 with a table means extended numbering (over 65279 sections): not a library's.
  if (shoff == 0 || shnum == 0) return invalid("no section header table");
  if (shentsize != kShdrSize) return invalid("section header size " + std::to_string(shentsize) + ", not 64");
  if (shnum > kMaxElfSections) return invalid(std::to_string(shnum) + " sections");
  if (shstrndx == kShnXindex || shstrndx >= shnum) return invalid("no section name table");
  auto table = read_exact(read, shoff, static_cast<std::size_t>(shnum) * kShdrSize, "section header table");
  if (!table) return table.error();
  auto header = [&](std::uint64_t i) { return std::string_view(*table).substr(i * kShdrSize, kShdrSize); };

  const std::string_view names_hdr = header(shstrndx);
  const std::uint64_t names_size = elf_le(names_hdr, kShSize, 8);
  if (elf_le(names_hdr, kShType, 4) == kShtNobits || names_size > kMaxElfSectionNames) {
    return invalid("section name table of " + std::to_string(names_size) + " bytes");
  }
  auto names =
      read_exact(read, elf_le(names_hdr, kShOffset, 8), static_cast<std::size_t>(names_size), "section name table");
  if (!names) return names.error();

  for (std::uint64_t i = 0; i < shnum; ++i) {
    const std::string_view s = header(i);
    const std::uint64_t at = elf_le(s, kShName, 4);
    if (at >= names->size()) continue;
    const std::size_t end = names->find('\0', static_cast<std::size_t>(at));
    if (end == std::string::npos || std::string_view(*names).substr(at, end - at) != name) continue;
    if (elf_le(s, kShType, 4) == kShtNobits) return invalid(std::string(name) + " has no bytes in the file");
    const std::uint64_t size = elf_le(s, kShSize, 8);
    if (size > max_bytes) {
      return Error{ErrorKind::too_large,
                   std::string(name) + " is " + std::to_string(size) + " bytes, over " + std::to_string(max_bytes), "",
                   0};
    }
    return read_exact(read, elf_le(s, kShOffset, 8), static_cast<std::size_t>(size), "sections");
  }
  return Error{ErrorKind::not_found, "no " + std::string(name) + " section", "", 0};
}

}  // namespace gpudoctor
