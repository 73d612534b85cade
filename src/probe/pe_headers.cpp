#include "probe/pe_headers.hpp"

#include <algorithm>

namespace gpudoctor {
namespace {

Error bad(const char* what) {
  return Error{ErrorKind::invalid_data, what, "", 0};
}

constexpr unsigned kMaxSections = 96;     // the PE format's own limit
constexpr unsigned kMaxDirectories = 16;  // IMAGE_NUMBEROF_DIRECTORY_ENTRIES

}  // namespace

std::optional<std::uint32_t> PeBytes::get(std::uint64_t at, unsigned n) const {
  if (at > b_.size() || b_.size() - at < n) return std::nullopt;
  std::uint32_t v = 0;
  for (unsigned i = 0; i < n; ++i) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(b_[at + i])) << (8 * i);
  return v;
}

std::optional<PeDataDirectory> PeHeaders::directory(PeDirectory d) const {
  const auto i = static_cast<unsigned>(d);
  if (i >= directories.size() || directories[i].rva == 0) return std::nullopt;
  return directories[i];
}

std::optional<std::uint64_t> PeHeaders::file_offset(std::uint64_t rva) const {
  for (const PeSection& s : sections) {
    if (rva >= s.rva && rva - s.rva < s.raw_size) return std::uint64_t{s.raw_offset} + (rva - s.rva);
  }
  return std::nullopt;
}

std::uint64_t PeHeaders::raw_bytes_from(std::uint64_t rva) const {
  for (const PeSection& s : sections) {
    if (rva >= s.rva && rva - s.rva < s.raw_size) return s.raw_size - (rva - s.rva);
  }
  return 0;
}

Result<PeHeaders> pe_headers(std::string_view head) {
  const PeBytes b(head);
  if (head.size() < 64 || head.substr(0, 2) != "MZ") return bad("not a PE file (no MZ header)");
  const std::uint64_t pe = b.u32(0x3C).value_or(0);
  if (pe == 0 || head.size() < pe + 24 || head.substr(pe, 4) != std::string_view("PE\0\0", 4)) {
    return bad("not a PE file (no PE signature)");
  }
  PeHeaders h;
  h.machine = b.u16(pe + 4).value_or(0);
  const unsigned sections = b.u16(pe + 6).value_or(0);
  const std::uint64_t optional = pe + 24;
  const std::uint32_t optional_size = b.u16(pe + 20).value_or(0);
  const auto magic = b.u16(optional);
  if (!magic || (*magic != 0x10B && *magic != 0x20B)) return bad("unknown optional header");
  h.pe32plus = *magic == 0x20B;
  if (h.pe32plus) {
    const auto low = b.u32(optional + 24), high = b.u32(optional + 28);
    if (!low || !high) return bad("optional header cut short");
    h.image_base = (std::uint64_t{*high} << 32) | *low;
  } else {
    const auto base = b.u32(optional + 28);
    if (!base) return bad("optional header cut short");
    h.image_base = *base;
  }
  const auto count = b.u32(optional + (h.pe32plus ? 108 : 92));
  const std::uint64_t dir0 = optional + (h.pe32plus ? 112 : 96);
  if (!count) return bad("optional header cut short");
  // Only the directories inside the declared optional header are the image's.
  for (unsigned i = 0; i < std::min(*count, kMaxDirectories); ++i) {
    if (dir0 + 8ULL * (i + 1) > optional + optional_size) break;
    const auto rva = b.u32(dir0 + 8ULL * i), size = b.u32(dir0 + 8ULL * i + 4);
    if (!rva || !size) return bad("data directories cut short");
    h.directories.push_back({*rva, *size});
  }
  if (sections == 0 || sections > kMaxSections) return bad("implausible section count");
  const std::uint64_t first = optional + optional_size;
  for (unsigned i = 0; i < sections; ++i) {
    const std::uint64_t s = first + 40ULL * i;
    auto vs = b.u32(s + 8), va = b.u32(s + 12), rs = b.u32(s + 16), ro = b.u32(s + 20);
    if (!vs || !va || !rs || !ro) return bad("section table cut short");
    h.sections.push_back(PeSection{*va, *vs, *rs, *ro});
  }
  return h;
}

}  // namespace gpudoctor
