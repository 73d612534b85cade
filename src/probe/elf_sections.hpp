#pragma once
/// Named sections of an ELF64 little-endian file (x86_64, aarch64, ppc64le shared libraries),
/// found through its section header table with bounded reads: the file is untrusted, so every
/// count and size is checked before it is read, and a cut or hostile file is an error, never a
/// crash or an unbounded read. No ELF32, no big-endian: no CUDA library is built that way.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace gpudoctor {

/// The little-endian unsigned integer of `width` bytes at `at` in `b` (the caller checks the bounds).
inline std::uint64_t elf_le(std::string_view b, std::size_t at, std::size_t width) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < width; ++i) v |= std::uint64_t{static_cast<unsigned char>(b[at + i])} << (8 * i);
  return v;
}

/// Reads at most `length` bytes of the file from `offset` on: fewer at its end, none past it.
using ReadRange = std::function<Result<std::string>(std::uint64_t offset, std::size_t length)>;

/// Section header tables larger than this are refused (cuDNN's libraries have 32 or 33 sections).
inline constexpr std::size_t kMaxElfSections = 4096;
/// The section-name table (.shstrtab) read at most (cuDNN's: a few hundred bytes).
inline constexpr std::size_t kMaxElfSectionNames = 64 * 1024;

/// The bytes of the section `name` (".rodata", ".dynstr"): not found, or larger than max_bytes,
/// or cut short by the end of the file, is an error that says which.
Result<std::string> elf_section_bytes(const ReadRange& read, std::string_view name, std::size_t max_bytes);

}  // namespace gpudoctor
