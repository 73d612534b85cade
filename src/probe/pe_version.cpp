#include "probe/pe_version.hpp"

#include <algorithm>
#include <optional>

#include "probe/pe_headers.hpp"

namespace gpudoctor {
namespace {

Error bad(const std::string& what) {
  return Error{ErrorKind::invalid_data, what, "", 0};
}

constexpr std::uint32_t kRtVersion = 16;
constexpr std::uint32_t kFixedFileInfoSignature = 0xFEEF04BD;
constexpr unsigned kMaxEntriesScanned = 4096;  // per resource directory

}  // namespace

std::string PeFileVersion::str() const {
  return std::to_string(parts[0]) + "." + std::to_string(parts[1]) + "." + std::to_string(parts[2]) + "." +
         std::to_string(parts[3]);
}

Result<PeFileVersion> pe_file_version(std::string_view image) {
  const PeBytes b(image);
  auto headers = pe_headers(image);
  if (!headers) return headers.error();
  const auto resources = headers->directory(PeDirectory::resources);
  if (!resources) return bad("no resource directory");
  const auto root = headers->file_offset(resources->rva);
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
  const auto at = headers->file_offset(*data_rva);
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
