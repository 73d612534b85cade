#include "probe/pe_version.hpp"

#include <algorithm>
#include <optional>

namespace gpudoctor {
namespace {

/// Little-endian reads that fail (nullopt) past the end of the buffer.
class Bytes {
 public:
  explicit Bytes(std::string_view b) : b_(b) {}
  [[nodiscard]] std::optional<std::uint32_t> u16(std::uint64_t at) const { return get(at, 2); }
  [[nodiscard]] std::optional<std::uint32_t> u32(std::uint64_t at) const { return get(at, 4); }
  [[nodiscard]] std::uint64_t size() const { return b_.size(); }

 private:
  [[nodiscard]] std::optional<std::uint32_t> get(std::uint64_t at, unsigned n) const {
    if (at > b_.size() || b_.size() - at < n) return std::nullopt;
    std::uint32_t v = 0;
    for (unsigned i = 0; i < n; ++i) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(b_[at + i])) << (8 * i);
    return v;
  }
  std::string_view b_;
};

Error bad(const std::string& what) {
  return Error{ErrorKind::invalid_data, what, "", 0};
}

constexpr std::uint32_t kRtVersion = 16;
constexpr std::uint32_t kFixedFileInfoSignature = 0xFEEF04BD;
constexpr unsigned kMaxSections = 96;          // the PE format's own limit
constexpr unsigned kMaxEntriesScanned = 4096;  // per resource directory

struct Section {
  std::uint32_t rva = 0, virtual_size = 0, raw_size = 0, raw_offset = 0;
};

}  // namespace

std::string PeFileVersion::str() const {
  return std::to_string(parts[0]) + "." + std::to_string(parts[1]) + "." + std::to_string(parts[2]) + "." +
         std::to_string(parts[3]);
}

Result<PeFileVersion> pe_file_version(std::string_view image) {
  const Bytes b(image);
  if (image.size() < 64 || image.substr(0, 2) != "MZ") return bad("not a PE file (no MZ header)");
  const std::uint64_t pe = b.u32(0x3C).value_or(0);
  if (pe == 0 || image.size() < pe + 24 || image.substr(pe, 4) != std::string_view("PE\0\0", 4)) {
    return bad("not a PE file (no PE signature)");
  }
  const unsigned sections = b.u16(pe + 6).value_or(0);
  const std::uint64_t optional = pe + 24;
  const std::uint32_t optional_size = b.u16(pe + 20).value_or(0);
  const auto magic = b.u16(optional);
  if (!magic || (*magic != 0x10B && *magic != 0x20B)) return bad("unknown optional header");
  const bool pe32plus = *magic == 0x20B;
  const auto directories = b.u32(optional + (pe32plus ? 108 : 92));
  const std::uint64_t dir0 = optional + (pe32plus ? 112 : 96);
  if (!directories || *directories < 3 || dir0 + 3 * 8 > optional + optional_size) {
    return bad("no resource directory");
  }
  const auto resource_rva = b.u32(dir0 + 2 * 8);
  if (!resource_rva || *resource_rva == 0) return bad("no resources");
  if (sections == 0 || sections > kMaxSections) return bad("implausible section count");
  std::array<Section, kMaxSections> table{};
  const std::uint64_t first = optional + optional_size;
  for (unsigned i = 0; i < sections; ++i) {
    const std::uint64_t s = first + 40ULL * i;
    auto vs = b.u32(s + 8), va = b.u32(s + 12), rs = b.u32(s + 16), ro = b.u32(s + 20);
    if (!vs || !va || !rs || !ro) return bad("section table cut short");
    table[i] = Section{*va, *vs, *rs, *ro};
  }
  // A relative virtual address as an offset in the file, inside one section's raw data.
  auto offset_of = [&](std::uint64_t rva) -> std::optional<std::uint64_t> {
    for (unsigned i = 0; i < sections; ++i) {
      const Section& s = table[i];
      if (rva >= s.rva && rva - s.rva < s.raw_size) return std::uint64_t{s.raw_offset} + (rva - s.rva);
    }
    return std::nullopt;
  };
  const auto root = offset_of(*resource_rva);
  if (!root) return bad("resource directory outside the file's sections");
  // The entry with `id` (or, id 0, the first entry) of the resource directory at `dir` (an offset
  // from the root): the offset it points to and whether that is a subdirectory.
  auto entry = [&](std::uint64_t dir, std::uint32_t id) -> std::optional<std::pair<std::uint64_t, bool>> {
    const auto named = b.u16(*root + dir + 12), ids = b.u16(*root + dir + 14);
    if (!named || !ids) return std::nullopt;
    const unsigned n = std::min<unsigned>(*named + *ids, kMaxEntriesScanned);
    for (unsigned i = 0; i < n; ++i) {
      const std::uint64_t e = *root + dir + 16 + 8ULL * i;
      const auto name = b.u32(e), to = b.u32(e + 4);
      if (!name || !to) return std::nullopt;
      if (id != 0 && ((*name & 0x80000000U) != 0 || *name != id)) continue;
      return std::make_pair(std::uint64_t{*to & 0x7FFFFFFFU}, (*to & 0x80000000U) != 0);
    }
    return std::nullopt;
  };
  // Type RT_VERSION, then its first name, then its first language: a data entry.
  auto type = entry(0, kRtVersion);
  if (!type || !type->second) return bad("no version resource");
  auto name = entry(type->first, 0);
  if (!name || !name->second) return bad("version resource without a name level");
  auto language = entry(name->first, 0);
  if (!language || language->second) return bad("version resource without data");
  const auto data_rva = b.u32(*root + language->first), data_size = b.u32(*root + language->first + 4);
  if (!data_rva || !data_size) return bad("version resource entry cut short");
  const auto at = offset_of(*data_rva);
  if (!at || *at + *data_size > b.size()) return bad("version resource outside the file");
  // VS_VERSIONINFO: wLength, wValueLength, wType, L"VS_VERSION_INFO", padding to 32 bits, then
  // VS_FIXEDFILEINFO (52 bytes) when wValueLength says it is there.
  constexpr std::u16string_view kKey = u"VS_VERSION_INFO";
  const auto value_length = b.u16(*at + 2);
  if (*data_size < 40 + 52 || !value_length || *value_length < 52) return bad("version resource without fixed info");
  for (size_t i = 0; i < kKey.size(); ++i) {
    if (b.u16(*at + 6 + 2 * i) != std::optional<std::uint32_t>(kKey[i])) return bad("not a VS_VERSIONINFO block");
  }
  const std::uint64_t fixed = *at + 40;  // 6 + 32 bytes of key and NUL, aligned to 4
  if (b.u32(fixed) != std::optional<std::uint32_t>(kFixedFileInfoSignature)) return bad("VS_FIXEDFILEINFO signature");
  const auto ms = b.u32(fixed + 8), ls = b.u32(fixed + 12);
  if (!ms || !ls) return bad("VS_FIXEDFILEINFO cut short");
  PeFileVersion v;
  v.parts = {static_cast<std::uint16_t>(*ms >> 16), static_cast<std::uint16_t>(*ms & 0xFFFF),
             static_cast<std::uint16_t>(*ls >> 16), static_cast<std::uint16_t>(*ls & 0xFFFF)};
  return v;
}

}  // namespace gpudoctor
