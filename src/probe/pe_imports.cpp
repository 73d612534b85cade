#include "probe/pe_imports.hpp"

#include <algorithm>

#include "core/text.hpp"
#include "probe/pe_headers.hpp"

namespace gpudoctor {
namespace {

Error bad(const std::string& what) {
  return Error{ErrorKind::invalid_data, what, "", 0};
}

constexpr std::size_t kImportDescriptorBytes = 20;  // IMAGE_IMPORT_DESCRIPTOR
constexpr std::size_t kDelayDescriptorBytes = 32;   // ImgDelayDescr
constexpr std::size_t kMaxNameBytes = 256;          // longer than any DLL name Windows loads

/// A DLL name as the loader takes it: printable ASCII, no folder, not empty.
bool plausible_dll_name(std::string_view n) {
  if (n.empty()) return false;
  return std::all_of(n.begin(), n.end(), [](char c) { return c > 0x20 && c < 0x7F && c != '/' && c != '\\'; });
}

class ImportReader {
 public:
  ImportReader(const PeRangeReader& read, const PeHeaders& headers) : read_(read), h_(headers) {}

  /// The descriptors of one directory: `stride` bytes each, the name's RVA at `name_at`, an
  /// all-zero name ending the list (the loader stops there as well).
  Status directory(PeDirectory which, std::size_t stride, std::size_t name_at, bool delay) {
    const auto dir = h_.directory(which);
    if (!dir) return Ok{};
    const auto at = h_.file_offset(dir->rva);
    if (!at) return bad(std::string(delay ? "delay-load" : "import") + " directory outside the file's sections");
    // The declared size is untrusted: read what the section holds, up to the bound.
    const std::uint64_t room = std::min<std::uint64_t>(h_.raw_bytes_from(dir->rva), (kMaxPeImports + 1) * stride);
    auto bytes = read_(*at, static_cast<std::size_t>(room));
    if (!bytes) return bytes.error();
    const PeBytes b(*bytes);
    for (std::size_t i = 0;; ++i) {
      if (i == kMaxPeImports) return bad("more than " + std::to_string(kMaxPeImports) + " imported DLLs");
      const auto name = b.u32(i * stride + name_at);
      if (!name) return bad(std::string(delay ? "delay-load" : "import") + " directory cut short");
      if (*name == 0) return Ok{};
      std::uint64_t rva = *name;
      // Delay-load descriptors before Visual C++ 7 held virtual addresses (attribute bit 0 clear).
      if (delay && (b.u32(i * stride).value_or(0) & 1U) == 0) {
        if (rva < h_.image_base) return bad("delay-load name outside the image");
        rva -= h_.image_base;
      }
      auto dll = name_at_rva(rva);
      if (!dll) return dll.error();
      add(*dll, delay);
    }
  }

  std::vector<PeImport> take() { return std::move(out_); }

 private:
  Result<std::string> name_at_rva(std::uint64_t rva) const {
    const auto at = h_.file_offset(rva);
    if (!at) return bad("an imported DLL's name lies outside the file's sections");
    const std::uint64_t room = std::min<std::uint64_t>(h_.raw_bytes_from(rva), kMaxNameBytes);
    auto bytes = read_(*at, static_cast<std::size_t>(room));
    if (!bytes) return bytes.error();
    const auto end = bytes->find('\0');
    if (end == std::string::npos) return bad("an imported DLL's name is not terminated");
    std::string n = bytes->substr(0, end);
    if (!plausible_dll_name(n)) return bad("an imported DLL's name is not a file name");
    return n;
  }

  void add(const std::string& dll, bool delay) {
    const bool seen = std::any_of(out_.begin(), out_.end(), [&](const PeImport& i) { return iequals(i.dll, dll); });
    if (!seen) out_.push_back(PeImport{dll, delay});
  }

  const PeRangeReader& read_;
  const PeHeaders& h_;
  std::vector<PeImport> out_;
};

}  // namespace

Result<std::vector<PeImport>> pe_imports(const PeRangeReader& read) {
  auto head = read(0, kPeHeadBytes);
  if (!head) return head.error();
  auto headers = pe_headers(*head);
  if (!headers) return headers.error();
  ImportReader r(read, *headers);
  // IMAGE_IMPORT_DESCRIPTOR: Name at +12; ImgDelayDescr: rvaDLLName at +4.
  if (auto ok = r.directory(PeDirectory::imports, kImportDescriptorBytes, 12, false); !ok) return ok.error();
  if (auto ok = r.directory(PeDirectory::delay_imports, kDelayDescriptorBytes, 4, true); !ok) return ok.error();
  return r.take();
}

Result<std::vector<PeImport>> pe_imports(std::string_view image) {
  return pe_imports([image](std::uint64_t offset, std::size_t n) -> Result<std::string> {
    if (offset >= image.size()) return std::string();
    return std::string(image.substr(offset, n));
  });
}

}  // namespace gpudoctor
