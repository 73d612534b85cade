#pragma once
/// The headers every reader of a Windows PE image (PE32 or PE32+) starts from: the data
/// directories and the section table, and where a relative virtual address lies in the file.
/// Pure parsing of untrusted bytes: every read is checked against the buffer, nothing throws.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace gpudoctor {

/// Little-endian reads from a byte buffer that fail (nullopt) past its end.
class PeBytes {
 public:
  explicit PeBytes(std::string_view b) : b_(b) {}
  [[nodiscard]] std::optional<std::uint32_t> u16(std::uint64_t at) const { return get(at, 2); }
  [[nodiscard]] std::optional<std::uint32_t> u32(std::uint64_t at) const { return get(at, 4); }
  [[nodiscard]] std::uint64_t size() const { return b_.size(); }

 private:
  [[nodiscard]] std::optional<std::uint32_t> get(std::uint64_t at, unsigned n) const;
  std::string_view b_;
};

struct PeSection {
  std::uint32_t rva = 0, virtual_size = 0, raw_size = 0, raw_offset = 0;
};

struct PeDataDirectory {
  std::uint32_t rva = 0, size = 0;
};

/// The data directories by their index in the optional header (PE/COFF specification).
enum class PeDirectory : unsigned { imports = 1, resources = 2, delay_imports = 13 };

/// The COFF header's Machine of an x86-64 image (PE/COFF specification, IMAGE_FILE_MACHINE_AMD64);
/// IMAGE_FILE_MACHINE_I386 is 0x14c.
inline constexpr std::uint32_t kPeMachineAmd64 = 0x8664;

struct PeHeaders {
  std::uint32_t machine = 0;  ///< the COFF header's Machine: kPeMachineAmd64, 0x14c (x86), 0xaa64 (ARM64)
  bool pe32plus = false;
  std::uint64_t image_base = 0;
  std::vector<PeDataDirectory> directories;  ///< as many as the header declares, at most 16
  std::vector<PeSection> sections;

  /// The directory's entry; nullopt when the header declares fewer or it is empty (RVA 0).
  [[nodiscard]] std::optional<PeDataDirectory> directory(PeDirectory d) const;
  /// The offset in the file of a relative virtual address, inside one section's raw data.
  [[nodiscard]] std::optional<std::uint64_t> file_offset(std::uint64_t rva) const;
  /// How many bytes of that section's raw data lie from `rva` on (0 outside every section).
  [[nodiscard]] std::uint64_t raw_bytes_from(std::uint64_t rva) const;
};

/// The headers of a PE image from its first bytes (`head`; kPeHeadBytes hold the headers of any
/// image a linker writes). The error says what was missing.
Result<PeHeaders> pe_headers(std::string_view head);
inline constexpr std::size_t kPeHeadBytes = 64 * 1024;

}  // namespace gpudoctor
